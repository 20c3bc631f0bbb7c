//! An engine version's page (`/engines/<id>/<version>/`): what to watch
//! for on that version, the findings in sections by their state there
//! (affected, in range, mitigated, fixed, clean), with links to the
//! neighbouring versions. A state the runs on the version tested (where
//! the record leaves it untested) counts as tested and says which runs;
//! each finding's badge is its state there, its own status labelled as
//! the overall one.

use super::batch::{Batch, Job};
use super::paginate::Pager;
use super::view::{list_page, object, vlink};
use super::{observed, Ctx};
use crate::model::{EngineIndex, Model};
use crate::render::cards::Prepared;
use crate::state::State;
use crate::urls::{self, ROOT};
use crate::version::Version;

/// A version page's template.
const TEMPLATE: &str = "version.html";

/// How many of a version's runs its page lists, the newest first.
const VERSION_RUNS_SHOWN: usize = 10;

/// Lists the pages of each known version of the engine `ix`.
pub(super) fn list<'a>(cx: &'a Ctx<'a>, ix: &'a EngineIndex, batch: &mut Batch<'a>) {
    let (model, prepared) = (cx.model, cx.prepared);
    let id = &model.site.engines[ix.engine].id;
    for (j, v) in ix.versions.iter().enumerate() {
        let base = urls::version(id, v.as_str());
        let items = listed(ix, j);
        let pager = Pager::new(&base, items.len(), model.site.page_size);
        for n in 1..=pager.pages() {
            let path = pager.path(n);
            let shown = pager.range(n).len();
            // The page shows the version's runs and what changed since an
            // earlier one: their files are part of what it is made of.
            let measured = &model.version_runs[ix.engine][j];
            let runs_of = move || {
                let mut members = cx.listing(&ix.findings);
                let earlier = measured.change.iter().flat_map(|c| &c.runs);
                for &r in measured.runs.iter().chain(earlier) {
                    members.push(model.runs[r].content_hash);
                }
                if let Some(c) = &measured.change {
                    members.extend(super::compare::cited(cx, &c.result));
                }
                members
            };
            batch.later(cx.key(&path, &runs_of), TEMPLATE, path, shown, move || {
                page_of(model, prepared, ix, j, v, n)
            });
        }
    }
}

/// The sections of a version page, in order: each state, its heading and
/// what it means.
const SECTIONS: [(State, &str, &str); 6] = [
    (State::Affected, "Affected", "Tested on this version, by the finding's record or by a run of this site, and the problem showed."),
    (State::InRange, "In range, untested", "Not tested on this version, by the record or by any run, but it lies inside the range the problem is known to span. Watch for it."),
    (State::Seen, "Seen, not in the engine", "The problem showed while this version ran, but it lies elsewhere: a grader, a client, a chat template or a way of measuring. Nothing follows for other versions."),
    (State::Mitigated, "Mitigated", "The defaults of this version avoid the problem; it may remain behind a flag."),
    (State::Fixed, "Fixed before this version", "Fixed in this version or an earlier release."),
    (State::Clean, "Clean", "Tested on this version, by the finding's record or by a run of this site, and the problem did not show."),
];

/// What the page of version `j` lists, in page order: each finding (its
/// row in `ix`) with a state there, by section, then by id.
fn listed(ix: &EngineIndex, j: usize) -> Vec<(State, usize)> {
    SECTIONS
        .iter()
        .flat_map(|&(s, _, _)| {
            (0..ix.findings.len())
                .filter(move |&k| ix.cells[k][j] == s)
                .map(move |k| (s, k))
        })
        .collect()
}

/// Page `n` of version `j`'s list. A list cut into pages shows on each page
/// the sections it reaches; an empty section shows on the first.
fn page_of(
    model: &Model,
    prepared: &[Prepared],
    ix: &EngineIndex,
    j: usize,
    v: &Version,
    n: usize,
) -> Job {
    let e = &model.site.engines[ix.engine];
    let items = listed(ix, j);
    let base = urls::version(&e.id, v.as_str());
    let pager = Pager::new(&base, items.len(), model.site.page_size);
    let range = pager.range(n);
    let sections: Vec<serde_json::Value> = SECTIONS
        .iter()
        .map(|&(s, title, blurb)| {
            let first = items.iter().position(|&(x, _)| x == s);
            let count = items.iter().filter(|&&(x, _)| x == s).count();
            let on_page: Vec<serde_json::Value> = items[range.clone()]
                .iter()
                .filter(|&&(x, _)| x == s)
                .map(|&(s, k)| {
                    let i = ix.findings[k];
                    let f = &model.findings[i];
                    let entry = f.engines.iter().position(|x| x.engine == e.id);
                    let source = ix.sources[k][j];
                    let at = entry.and_then(|x| model.observed_at(i, x, v));
                    let note = entry.and_then(|x| f.engines[x].note.as_deref());
                    let badge = observed::badge(s, source, &e.name, v);
                    let end = observed::card_end(model, i, note, source, at);
                    // The card, its badge and its end in one string: the
                    // template writes it as it is.
                    object([
                        ("id", f.id.into()),
                        ("source", source.as_str().into()),
                        (
                            "card_html",
                            prepared[i].card_html.at_version(&badge, &end).into(),
                        ),
                    ])
                })
                .collect();
            // Where the section starts: this page, or another.
            let starts = first.map_or(1, |i| pager.page_of(i));
            // Seen is the exception, not a state every finding may take:
            // its section and summary entry appear only when it has findings.
            let optional = s == State::Seen;
            let shown = !on_page.is_empty() || (count == 0 && n == 1 && !optional);
            let href = if starts == n {
                format!("#sec-{}", s.as_str())
            } else {
                format!("{ROOT}{}#sec-{}", pager.path(starts), s.as_str())
            };
            object([
                ("state", s.as_str().into()),
                ("title", title.into()),
                ("blurb", blurb.into()),
                ("tested", s.is_tested().into()),
                ("count", count.into()),
                ("href", href.into()),
                ("shown", shown.into()),
                ("in_summary", (count > 0 || !optional).into()),
                ("items", on_page.into()),
            ])
        })
        .collect();
    let prev = j
        .checked_sub(1)
        .map(|p| vlink(model, &e.id, &ix.versions[p]));
    let next = ix.versions.get(j + 1).map(|n| vlink(model, &e.id, n));
    let released = e.releases.contains(v);
    let measured = &model.version_runs[ix.engine][j];
    // The newest runs, a handful: a version measured a thousand times has
    // a page no longer than one measured ten times.
    let mut newest: Vec<usize> = measured.runs.clone();
    newest.sort_by(|&a, &b| {
        let (a, b) = (&model.runs[a], &model.runs[b]);
        b.date.cmp(&a.date).then_with(|| a.id.cmp(&b.id))
    });
    let more = newest.len().saturating_sub(VERSION_RUNS_SHOWN);
    newest.truncate(VERSION_RUNS_SHOWN);
    let runs: Vec<serde_json::Value> = newest
        .iter()
        .map(|&r| {
            let run = &model.runs[r];
            serde_json::json!({"title": run.title, "url": format!("{ROOT}{}", urls::run(&run.id)), "date": run.date.to_string()})
        })
        .collect();
    let change = measured.change.as_ref().filter(|_| n == 1).map(|c| {
        // Above the first empty section, not below a column of "None.";
        // after the sections where none is empty.
        let before = sections
            .iter()
            .find(|s| s["shown"] == true && s["items"].as_array().is_some_and(Vec::is_empty))
            .map(|s| s["state"].clone());
        serde_json::json!({
            "before": before,
            "earlier": c.earlier.to_string(),
            "earlier_url": format!("{ROOT}{}", urls::version(&e.id, c.earlier.as_str())),
            "comparison": super::compare::view(&c.result, model),
        })
    });
    let (page, pagination) = list_page(
        model,
        &pager,
        n,
        &format!("{} {}: what to watch for", e.name, v),
        format!("Findings that affect {} {}", e.name, v),
        "version",
    );
    Job {
        template: TEMPLATE,
        page,
        data: object([
            (
                "engine",
                serde_json::json!({"id": e.id, "name": e.name, "color": e.color, "url": format!("{ROOT}{}", urls::engine(&e.id))}),
            ),
            ("version", v.to_string().into()),
            ("listed_release", released.into()),
            ("prerelease", v.is_prerelease().into()),
            ("sections", sections.into()),
            ("prev", serde_json::json!(prev)),
            ("next", serde_json::json!(next)),
            ("pagination", pagination),
            (
                "runs",
                if n == 1 {
                    runs.into()
                } else {
                    serde_json::Value::Array(Vec::new())
                },
            ),
            ("more_runs", more.into()),
            ("change", serde_json::json!(change)),
        ]),
    }
}
