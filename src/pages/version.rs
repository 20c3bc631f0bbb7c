//! An engine version's page (`/engines/<id>/<version>/`): what to watch
//! for on that version, the findings in sections by their state there
//! (affected, in range, mitigated, fixed, clean), with links to the
//! neighbouring versions. A state the runs on the version tested (where
//! the record leaves it untested) counts as tested and says which runs,
//! and the affected findings a run showed lead their section; each
//! finding's badge is its state there, its own status labelled as the
//! overall one. What changed since the version before is said once: the
//! verdict of that comparison under the page's own (each change judged
//! as its workload's series judges it), its table after what affects the
//! version, and apart only the changes of another series it does not
//! hold.

use super::batch::{Batch, Job};
use super::paginate::Pager;
use super::view::{list_page, object, vlink};
use super::{observed, Ctx};
use crate::model::{EngineIndex, Model};
use crate::record::EngineEntry;
use crate::render::cards::Prepared;
use crate::state::State;
use crate::urls::{self, ROOT};
use crate::util::and_list;
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
        let items = listed(model, ix, j);
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
                // The workloads that changed at this version.
                let changed = model.trends.at_version[ix.engine][j].clone();
                members.extend(super::workloads::changes_key(cx, &changed));
                members
            };
            batch.later(cx.key(&path, &runs_of), TEMPLATE, path, shown, move || {
                page_of(model, prepared, ix, j, v, n)
            });
        }
    }
}

/// The sections of a version page, in order: each state, its heading and
/// what it means. Affected leads: it is what a reader of the page came
/// for. In range is folded (untested, and each says why it is in range);
/// an empty section is one line.
const SECTIONS: [(State, &str, &str); 6] = [
    (State::Affected, "Affected", "Tested on this version (by the record or a run of this site); the problem showed."),
    (State::InRange, "In range, untested", "Not tested on this version, by the record or by any run, but inside the range the problem is known to span. Watch for them."),
    (State::Seen, "Seen, not in the engine", "The problem showed while this version ran, but it lies elsewhere: a grader, a client, a chat template or a way of measuring. Nothing follows for other versions."),
    (State::Mitigated, "Mitigated", "The defaults of this version avoid the problem; it may remain behind a flag."),
    (State::Fixed, "Fixed before this version", "Fixed in this version or an earlier release."),
    (State::Clean, "Clean", "Tested on this version (by the record or a run of this site); the problem did not show."),
];

/// What the page of version `j` lists, in page order: each finding (its
/// row in `ix`) with a state there, by section, then by id; among the
/// affected, first those a run of the site showed on the version (the
/// freshest evidence, and on that very version).
fn listed(model: &Model, ix: &EngineIndex, j: usize) -> Vec<(State, usize)> {
    let engine = &model.site.engines[ix.engine].id;
    let v = &ix.versions[j];
    let shown_here = |k: usize| {
        let i = ix.findings[k];
        model.findings[i]
            .engines
            .iter()
            .position(|x| x.engine == *engine)
            .and_then(|x| model.observed_at(i, x, v))
            .is_some_and(|at| !at.shown.is_empty())
    };
    SECTIONS
        .iter()
        .flat_map(|&(s, _, _)| {
            let mut ks: Vec<usize> = (0..ix.findings.len())
                .filter(|&k| ix.cells[k][j] == s)
                .collect();
            if s == State::Affected {
                // A stable sort keeps the ids in order within each part.
                ks.sort_by_key(|&k| !shown_here(k));
            }
            ks.into_iter().map(move |k| (s, k))
        })
        .collect()
}

/// Why `v`, untested, lies in the range of `entry`: where the range starts
/// (the version the record says introduced it, else the versions it was
/// tested affected on) and where it ends (the fix, else nowhere). "tested
/// only on 0.27.1; the range is open-ended".
pub(super) fn in_range_why(entry: &EngineEntry, v: &Version) -> String {
    let start = match (&entry.introduced_in, entry.affected.as_slice()) {
        (Some(i), _) => format!("introduced in {i}"),
        (None, [one]) if entry.clean.is_empty() => format!("tested only on {one}"),
        (None, affected) => {
            let mut sorted: Vec<&Version> = affected.iter().collect();
            sorted.sort();
            match sorted.as_slice() {
                [] => "no tested version".to_string(),
                [first, .., last] if sorted.len() > 4 => format!(
                    "affected on {} tested versions, {first} to {last}",
                    sorted.len()
                ),
                few => format!(
                    "affected on {}",
                    and_list(&few.iter().map(|v| v.to_string()).collect::<Vec<_>>())
                ),
            }
        }
    };
    let end = match &entry.fixed_in {
        Some(f) if v < f => format!("fixed in {f}"),
        _ => "the range is open-ended".to_string(),
    };
    format!("{start}; {end}")
}

/// The counts a version page's verdict states.
struct Verdict {
    affected: usize,
    /// Of the affected, those a run of the site showed on the version.
    shown: usize,
    in_range: usize,
}

impl Verdict {
    /// "vLLM 0.30: 4 findings affect it, 1 of them shown by this site's
    /// runs; 3 more are in range, untested."
    fn words(&self, engine: &str, v: &Version) -> String {
        let mut out = format!("{engine} {v}: ");
        match self.affected {
            0 => out.push_str("no finding is known to affect it"),
            1 => out.push_str("1 finding affects it"),
            n => out.push_str(&format!("{n} findings affect it")),
        }
        if self.shown > 0 {
            let of = if self.affected == 1 {
                "shown by this site's runs".to_string()
            } else {
                format!("{} of them shown by this site's runs", self.shown)
            };
            out.push_str(&format!(", {of}"));
        }
        match (self.in_range, self.affected) {
            (0, _) => {}
            (1, 0) => out.push_str("; 1 is in range, untested"),
            (n, 0) => out.push_str(&format!("; {n} are in range, untested")),
            (1, _) => out.push_str("; 1 more is in range, untested"),
            (n, _) => out.push_str(&format!("; {n} more are in range, untested")),
        }
        out.push('.');
        out
    }
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
    let items = listed(model, ix, j);
    let base = urls::version(&e.id, v.as_str());
    let pager = Pager::new(&base, items.len(), model.site.page_size);
    let range = pager.range(n);
    // Finding `k`'s entry for the engine, its index among the finding's
    // entries, and what the runs on this version showed under it.
    let entry_of = |k: usize| {
        let i = ix.findings[k];
        let f = &model.findings[i];
        let x = f.engines.iter().position(|x| x.engine == e.id);
        let at = x.and_then(|x| model.observed_at(i, x, v));
        (i, x.map(|x| &f.engines[x]), at)
    };
    let mut verdict = Verdict {
        affected: 0,
        shown: 0,
        in_range: 0,
    };
    for &(s, k) in &items {
        match s {
            State::Affected => {
                verdict.affected += 1;
                if entry_of(k).2.is_some_and(|at| !at.shown.is_empty()) {
                    verdict.shown += 1;
                }
            }
            State::InRange => verdict.in_range += 1,
            _ => {}
        }
    }
    let sections: Vec<serde_json::Value> = SECTIONS
        .iter()
        .map(|&(s, title, blurb)| {
            let first = items.iter().position(|&(x, _)| x == s);
            let count = items.iter().filter(|&&(x, _)| x == s).count();
            let on_page: Vec<serde_json::Value> = items[range.clone()]
                .iter()
                .filter(|&&(x, _)| x == s)
                .map(|&(s, k)| {
                    let (i, entry, at) = entry_of(k);
                    let f = &model.findings[i];
                    let source = ix.sources[k][j];
                    let note = entry.and_then(|x| x.note.as_deref());
                    let why = entry
                        .filter(|_| s == State::InRange)
                        .map(|x| in_range_why(x, v));
                    let badge = observed::badge(s, source, &e.name, v);
                    let end = observed::card_end(model, i, why.as_deref(), note, at);
                    // The card, its badge and its end in one string: the
                    // template writes it as it is.
                    object([
                        ("id", f.id.into()),
                        ("source", source.as_str().into()),
                        ("card_html", prepared[i].card.compact(&badge, &end).into()),
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
                ("folded", (s == State::InRange).into()),
                ("in_summary", (count > 0).into()),
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
            serde_json::json!({"title": run.shown_title(), "url": format!("{ROOT}{}", urls::run(&run.id)), "date": run.date.to_string()})
        })
        .collect();
    // What changed since the version before, right after what affects this
    // one: a reader about to upgrade asks both.
    let change = measured.change.as_ref().filter(|_| n == 1).map(|c| {
        serde_json::json!({
            "earlier": c.earlier.to_string(),
            "earlier_url": format!("{ROOT}{}", urls::version(&e.id, c.earlier.as_str())),
            "comparison": super::compare::view(&c.result, model),
        })
    });
    // What changed here, said once: the comparison with the version
    // before leads, its verdict under the page's; the changes of the
    // workloads the site follows that it does not hold (another series'
    // version before) are listed apart, and a regression no finding cites
    // offers the command that starts one.
    let at_here = model.trends.at_version[ix.engine][j].as_slice();
    let covered: &[crate::model::ChangeRef] = measured
        .change
        .as_ref()
        .map_or(&[], |c| c.trend_changes.as_slice());
    let held: std::collections::HashSet<&crate::model::ChangeRef> = covered.iter().collect();
    let rest: Vec<crate::model::ChangeRef> = at_here
        .iter()
        .copied()
        .filter(|c| !held.contains(c))
        .collect();
    let headline = match &measured.change {
        // The comparison's own verdict, as its view made it.
        Some(_) => change
            .as_ref()
            .and_then(|c| c["comparison"]["verdict"].as_str())
            .map(str::to_string),
        None if !rest.is_empty() => {
            let said: Vec<crate::compare::Said<'_>> = rest
                .iter()
                .map(|&c| {
                    let f = &model.trends.followed[c.0];
                    let mt = &f.trend.metrics[c.1];
                    mt.changes[c.2].said(&f.trend, mt, true)
                })
                .collect();
            let mut line = crate::compare::trend::changes_summary(&said);
            if let Some(first) = line.get(..1) {
                line = format!("{}{}", first.to_uppercase(), &line[1..]);
            }
            Some(format!("{line}."))
        }
        None => None,
    };
    let regressions: Vec<serde_json::Value> = covered
        .iter()
        .copied()
        .filter(|&c| model.trends.change(c).kind() == crate::compare::Kind::Regression)
        .map(|c| super::workloads::change_view(model, c))
        .collect();
    let change = change.map(|mut c| {
        c["regressions"] = serde_json::json!(regressions);
        c
    });
    let trend = headline.filter(|_| n == 1).map(|line| {
        let changes: Vec<serde_json::Value> = rest
            .iter()
            .map(|&c| super::workloads::change_view(model, c))
            .collect();
        serde_json::json!({"line": line, "changes": changes, "compared": measured.change.is_some()})
    });
    let (page, pagination) = list_page(
        model,
        &pager,
        n,
        &format!("{} {}: what to watch for", e.name, v),
        verdict.words(&e.name, v),
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
            ("verdict", verdict.words(&e.name, v).into()),
            ("affected", verdict.affected.into()),
            ("listed_release", released.into()),
            ("prerelease", v.is_prerelease().into()),
            ("sections", sections.into()),
            ("prev", serde_json::json!(prev)),
            ("next", serde_json::json!(next)),
            ("paged", (pager.pages() > 1).into()),
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
            ("trend", serde_json::json!(trend)),
        ]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    fn entry(affected: &[&str], introduced: Option<&str>, fixed: Option<&str>) -> EngineEntry {
        EngineEntry {
            engine: "vllm".into(),
            affected: affected.iter().map(|s| v(s)).collect(),
            clean: Vec::new(),
            seen: Vec::new(),
            introduced_in: introduced.map(v),
            fixed_in: fixed.map(v),
            mitigated_in: None,
            note: None,
        }
    }

    #[test]
    fn why_a_version_is_in_range_names_the_start_and_the_end() {
        // F12 of the bundled site: tested on 0.27.1 alone, never fixed.
        assert_eq!(
            in_range_why(&entry(&["0.27.1"], None, None), &v("0.30")),
            "tested only on 0.27.1; the range is open-ended"
        );
        assert_eq!(
            in_range_why(&entry(&["0.28", "0.30"], None, Some("0.32.0")), &v("0.29")),
            "affected on 0.28 and 0.30; fixed in 0.32.0"
        );
        assert_eq!(
            in_range_why(&entry(&["0.30"], Some("0.27"), None), &v("0.29")),
            "introduced in 0.27; the range is open-ended"
        );
        let many = entry(&["0.5", "0.1", "0.2", "0.3", "0.4"], None, None);
        assert_eq!(
            in_range_why(&many, &v("0.6")),
            "affected on 5 tested versions, 0.1 to 0.5; the range is open-ended"
        );
    }

    #[test]
    fn the_verdict_says_what_affects_the_version_first() {
        let say = |affected, shown, in_range| {
            Verdict {
                affected,
                shown,
                in_range,
            }
            .words("vLLM", &v("0.30"))
        };
        assert_eq!(
            say(4, 1, 3),
            "vLLM 0.30: 4 findings affect it, 1 of them shown by this site's runs; 3 more are in range, untested."
        );
        assert_eq!(
            say(1, 1, 1),
            "vLLM 0.30: 1 finding affects it, shown by this site's runs; 1 more is in range, untested."
        );
        assert_eq!(
            say(0, 0, 2),
            "vLLM 0.30: no finding is known to affect it; 2 are in range, untested."
        );
        assert_eq!(say(0, 0, 0), "vLLM 0.30: no finding is known to affect it.");
        assert_eq!(say(2, 0, 0), "vLLM 0.30: 2 findings affect it.");
    }
}
