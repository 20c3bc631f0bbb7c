//! A finding's page (`/findings/<slug>/`): its facts box, body, charts,
//! links, runs and backlinks; with it, its short address `/f/<id>/` and
//! its old addresses (redirects), and the pages of the runs whose charts it
//! is the first to show, so each chart is drawn once.

use super::batch::{Batch, Job, BATCH};
use super::view::{page, vlink, LinkView, NamedLink, VersionLink};
use super::{redirect, run, Ctx};
use crate::model::{ChartRef, Model, Term};
use crate::record::{Finding, FoundBy};
use crate::render::cards::{cards, description, Prepared};
use crate::render::charts::ChartView;
use crate::render::reuse::PageRef;
use crate::render::RenderError;
use crate::state::State;
use crate::urls::{self, ROOT};
use crate::util::{and_list, hash_of};
use rayon::prelude::*;
use serde::Serialize;

/// A finding page's template.
const TEMPLATE: &str = "finding.html";

/// Lists the pages of every finding (see [`jobs`]), `owners` saying which
/// runs go with which finding. In parallel, each finding's pages rendered
/// by the thread that built their contexts.
pub(super) fn list<'a>(
    cx: &'a Ctx<'a>,
    owners: &[Option<usize>],
    batch: &mut Batch<'a>,
) -> Result<(), RenderError> {
    let (model, reuse) = (cx.model, cx.reuse);
    let every: Vec<usize> = (0..model.findings.len()).collect();
    // A rebuild keeps the pages of a finding none of whose inputs changed
    // (see `key`) without building their contexts.
    for chunk in every.chunks(BATCH) {
        let built: Vec<(usize, Option<u64>, Option<Vec<PageRef>>)> = chunk
            .par_iter()
            .map(|&i| {
                let key = reuse
                    .global()
                    .map(|g| key(model, cx.prepared, owners, i, g));
                let kept = key.and_then(|k| reuse.pages(k));
                (i, key, kept)
            })
            .collect();
        let mut todo = Vec::new();
        for (i, key, kept) in built {
            match kept {
                Some(pages) if batch.keep(&pages) => {
                    if let Some(k) = key {
                        reuse.keep_pages(k, pages);
                    }
                }
                _ => todo.push((i, key)),
            }
        }
        // Each finding's pages are rendered as soon as their contexts are
        // built, by the thread that built them: no chunk of contexts (each
        // with its body's HTML and its charts) waits in memory for a batch.
        // Pages listed before (the home page) wait for the next batch; a
        // finding that fails renders them first (see `Batch::fail`), so the
        // error reported is still the first in page order.
        let render = batch.render;
        // Each finding's page key and the pages it rendered.
        type Done = Result<(Option<u64>, Vec<PageRef>), RenderError>;
        let done: Vec<Done> = todo
            .par_iter()
            .map(|&(i, key)| {
                let js = jobs(cx, owners, i)?;
                let pages: Vec<PageRef> = js
                    .iter()
                    .map(|j| (j.template, j.page.path.clone()))
                    .collect();
                for j in js {
                    render(j)?;
                }
                Ok((key, pages))
            })
            .collect();
        // The first failure in page order, whichever thread met it first.
        for r in done {
            let (key, pages) = r?;
            batch.pages += pages.len();
            if let Some(k) = key {
                reuse.keep_pages(k, pages);
            }
        }
    }
    Ok(())
}

/// A hash of everything [`jobs`] reads for finding `i`, given
/// `global`, a hash of what every page may read (the site, templates, link
/// targets, version pages): the finding's own file, the list hashes of the
/// findings whose cards its page shows (backlinks, its successor), the
/// files of the runs it cites or shows charts of, and for the runs whose
/// pages it renders (see `run::owners`) the findings that cite them. Equal keys mean
/// equal pages. Keep it in step with [`jobs`] and `run::job`.
fn key(
    model: &Model,
    prepared: &[Prepared],
    owners: &[Option<usize>],
    i: usize,
    global: u64,
) -> u64 {
    let f = &model.findings[i];
    let finding = |j: usize| prepared[j].list_hash;
    let run = |r: usize| model.runs[r].content_hash;
    let owned: Vec<(usize, u64, Vec<u64>, u64)> = model.charts[i]
        .iter()
        .map(|&(r, _)| r)
        .filter(|&r| owners[r] == Some(i))
        .map(|r| {
            (
                r,
                run(r),
                model.citations[r].iter().map(|&j| finding(j)).collect(),
                super::observed::run_key(model, r),
            )
        })
        .collect();
    hash_of((
        global,
        (f.content_hash, &f.path, f.draft),
        model.backlinks[i]
            .iter()
            .map(|&j| finding(j))
            .collect::<Vec<_>>(),
        f.superseded_by
            .and_then(|s| model.by_id.get(&s))
            .map(|&s| finding(s)),
        model.charts[i]
            .iter()
            .map(|&(r, c)| (run(r), c))
            .collect::<Vec<_>>(),
        f.runs
            .iter()
            .filter_map(|r| model.run_by_id.get(r))
            .map(|&r| run(r))
            .collect::<Vec<_>>(),
        owned,
        // The runs its checks flagged, as its page lists them.
        model.flagged[i]
            .iter()
            .map(|&(r, k)| (&model.runs[r].id, &model.runs[r].title, &model.checks[r][k]))
            .collect::<Vec<_>>(),
        // The runs that observed its symptoms, as "Observed in runs" lists
        // them (their titles, setups and figures).
        model.observing_runs(i).map(run).collect::<Vec<_>>(),
        // Which of its tags and models have a page (they are linked then).
        f.tags
            .iter()
            .map(|t| model.tags.contains_key(&urls::segment(t)))
            .chain(
                f.models
                    .iter()
                    .map(|m| model.models.contains_key(&urls::segment(m))),
            )
            .collect::<Vec<_>>(),
    ))
}

/// Who found finding `f`, as its facts say it: the site's `author` for
/// `us` (nothing when site.yaml names none: "us" on a page anyone may
/// publish names no one), the developers of its engines for `upstream`,
/// "the community" for `community`.
fn found_by(model: &Model, f: &Finding) -> Option<String> {
    match f.found_by {
        FoundBy::Us => model.site.author.clone(),
        FoundBy::Upstream => {
            let names: Vec<String> = f
                .engines
                .iter()
                .filter_map(|e| model.site.engines.iter().find(|x| x.id == e.engine))
                .map(|e| e.name.clone())
                .collect();
            Some(if names.is_empty() {
                "the engine's developers".to_string()
            } else {
                format!("the {} developers", and_list(&names))
            })
        }
        FoundBy::Community => Some("the community".to_string()),
    }
}

/// An engine of a finding as its facts box shows it.
#[derive(Serialize)]
struct FactsEngine {
    id: String,
    name: String,
    url: String,
    color: String,
    affected: Vec<VersionLink>,
    clean: Vec<VersionLink>,
    seen: Vec<VersionLink>,
    introduced_in: Option<VersionLink>,
    fixed_in: Option<VersionLink>,
    mitigated_in: Option<VersionLink>,
    note: Option<String>,
    /// The site's versions of the engine that the site treats as in range
    /// (untested, inside the span the record implies), as spans of
    /// neighbouring versions.
    in_range: Vec<Span>,
    /// The versions the runs tested where the record leaves them
    /// untested, by the state they gave them.
    observed: Vec<ObservedVersions>,
}

/// Neighbouring versions of an engine's list, the first and, for three or
/// more, the last ("0.28 to 0.32.0"); two neighbours are two spans.
#[derive(Serialize)]
struct Span {
    first: VersionLink,
    last: Option<VersionLink>,
}

/// Versions runs tested, with the state they gave them, and the runs.
#[derive(Serialize)]
struct ObservedVersions {
    state: &'static str,
    label: &'static str,
    versions: Vec<VersionLink>,
    runs: Vec<NamedLink>,
}

/// The versions of the engine of entry `e` of finding `i` that the site
/// treats as in range (its known versions, by the rule and what the runs
/// showed), as spans of neighbours in the engine's list of versions.
fn in_range_spans(model: &Model, i: usize, e: usize) -> Vec<Span> {
    let engine = &model.findings[i].engines[e].engine;
    let Some(ix) = model
        .engines
        .iter()
        .find(|ix| model.site.engines[ix.engine].id == *engine)
    else {
        return Vec::new();
    };
    let in_range: Vec<usize> = (0..ix.versions.len())
        .filter(|&j| model.state_at(i, e, &ix.versions[j]).0 == State::InRange)
        .collect();
    let link = |j: usize| vlink(model, engine, &ix.versions[j]);
    let mut spans = Vec::new();
    let mut k = 0;
    while k < in_range.len() {
        let mut end = k;
        while end + 1 < in_range.len() && in_range[end + 1] == in_range[end] + 1 {
            end += 1;
        }
        match end - k {
            0 => spans.push(Span {
                first: link(in_range[k]),
                last: None,
            }),
            1 => {
                spans.push(Span {
                    first: link(in_range[k]),
                    last: None,
                });
                spans.push(Span {
                    first: link(in_range[end]),
                    last: None,
                });
            }
            _ => spans.push(Span {
                first: link(in_range[k]),
                last: Some(link(in_range[end])),
            }),
        }
        k = end + 1;
    }
    spans
}

/// The versions of entry `e` of finding `i` whose state runs observed,
/// affected first.
fn observed_versions(model: &Model, i: usize, e: usize) -> Vec<ObservedVersions> {
    let mut out: Vec<ObservedVersions> = Vec::new();
    let engine = &model.findings[i].engines[e].engine;
    for (v, _) in model.observed[i]
        .iter()
        .filter(|(x, _)| *x == e)
        .flat_map(|(_, at)| at)
    {
        let (state, source, _) = model.state_at(i, e, v);
        if source != crate::state::Source::Observed {
            continue;
        }
        let link = vlink(model, engine, model.version_page(engine, v));
        let o = match out.iter_mut().position(|o| o.state == state.as_str()) {
            Some(k) => &mut out[k],
            None => {
                out.push(ObservedVersions {
                    state: state.as_str(),
                    label: state.label(),
                    versions: Vec::new(),
                    runs: Vec::new(),
                });
                out.last_mut().expect("just pushed")
            }
        };
        o.versions.push(link);
        // The runs that decided it, each once, by id.
        if let Some(at) = model.observed_at(i, e, v) {
            for (r, _) in at.deciding() {
                let id = &model.runs[r].id;
                if !o.runs.iter().any(|x| x.name == *id) {
                    o.runs.push(NamedLink {
                        name: id.clone(),
                        url: format!("{ROOT}{}", urls::run(id)),
                    });
                }
            }
        }
    }
    out.sort_by_key(|o| o.state != "affected");
    out
}

/// The page of finding `i`, its short URL and its aliases, and the runs
/// whose pages go with it (see `run::owners`). Its body and
/// charts are rendered here, when the page is about to be written.
fn jobs(cx: &Ctx<'_>, owners: &[Option<usize>], i: usize) -> Result<Vec<Job>, RenderError> {
    let (model, prepared) = (cx.model, cx.prepared);
    let site = &model.site;
    let f = &model.findings[i];
    let mut out = Vec::with_capacity(2 + f.aliases.len());
    let p = &prepared[i];
    let path = urls::finding(&f.slug);
    let permalink = format!("{}{}", site.base_url, urls::short(f.id));
    let title_text = &p.card.title_text;
    let md_title = title_text.replace('[', "\\[").replace(']', "\\]");
    let facts: Vec<FactsEngine> = f
        .engines
        .iter()
        .enumerate()
        .filter_map(|(k, e)| {
            let eng = site.engines.iter().find(|x| x.id == e.engine)?;
            Some(FactsEngine {
                id: eng.id.clone(),
                name: eng.name.clone(),
                url: format!("{ROOT}{}", urls::engine(&eng.id)),
                color: eng.color.clone(),
                affected: e
                    .affected
                    .iter()
                    .map(|v| vlink(model, &eng.id, v))
                    .collect(),
                clean: e.clean.iter().map(|v| vlink(model, &eng.id, v)).collect(),
                seen: e.seen.iter().map(|v| vlink(model, &eng.id, v)).collect(),
                introduced_in: e.introduced_in.as_ref().map(|v| vlink(model, &eng.id, v)),
                fixed_in: e.fixed_in.as_ref().map(|v| vlink(model, &eng.id, v)),
                mitigated_in: e.mitigated_in.as_ref().map(|v| vlink(model, &eng.id, v)),
                note: e.note.clone(),
                in_range: in_range_spans(model, i, k),
                observed: observed_versions(model, i, k),
            })
        })
        .collect();
    let drawn: Vec<(ChartRef, ChartView)> = model.charts[i]
        .iter()
        .map(|&(r, c)| {
            cx.charts
                .draw(&model.runs[r], &model.runs[r].charts[c])
                .map(|v| ((r, c), v))
        })
        .collect::<Result<_, _>>()?;
    let body = cx.reuse.body(model, i);
    let links: Vec<LinkView> = f
        .links
        .iter()
        .map(|l| LinkView {
            label: l.label.clone(),
            url: (cx.resolve)(&l.url).unwrap_or_else(|| l.url.clone()),
            kind: l.kind.clone(),
            external: l.url.starts_with("http"),
        })
        .collect();
    let runs: Vec<NamedLink> = f
        .runs
        .iter()
        .filter_map(|r| model.run_by_id.get(r))
        .map(|&r| NamedLink {
            name: model.runs[r].shown_title().into_owned(),
            url: format!("{ROOT}{}", urls::run(&model.runs[r].id)),
        })
        .collect();
    let superseded = f
        .superseded_by
        .and_then(|s| model.by_id.get(&s))
        .map(|&s| &*prepared[s].card);
    let mut pv = page(
        model,
        path.clone(),
        format!("F{}: {}", f.id, title_text),
        description(&f.advice, &p.summary_text),
        "finding",
    );
    pv.has_code = body.has_code;
    out.push(Job {
        template: TEMPLATE,
        page: pv,
        data: serde_json::json!({
            "finding": &*p.card,
            "group": site.groups.iter().find(|g| g.id == f.group).map(|g| serde_json::json!({"id": g.id, "title": g.title, "url": format!("{ROOT}{}", urls::group(&g.id))})),
            "body_html": body.html,
            "facts": facts,
            "observed": super::observed::of_finding(model, i),
            "symptoms": f.symptoms,
            "models": terms(&f.models, &model.models, urls::model),
            "hardware": f.hardware,
            "tags": terms(&f.tags, &model.tags, urls::tag),
            "found_by": found_by(model, f),
            "published": f.published.to_string(),
            "published_long": f.published.long(),
            "updated": f.updated.map(|d| d.to_string()),
            "updated_long": f.updated.map(|d| d.long()),
            "links": links,
            "runs": runs,
            "charts": drawn.iter().map(|(_, v)| v).collect::<Vec<_>>(),
            "backlinks": cards(prepared, &model.backlinks[i]),
            "checks": f.checks,
            "flagged_runs": flagged_runs(model, i),
            "permalink": permalink,
            "markdown_link": format!("[F{}: {}]({})", f.id, md_title, permalink),
            "withdrawn": f.withdrawn.as_ref().map(|w| serde_json::json!({"date": w.date.to_string(), "date_long": w.date.long(), "reason": w.reason})),
            "superseded_by": superseded,
            "draft": f.draft,
        }),
    });
    let target = format!("{ROOT}{path}");
    out.push(redirect::job(
        model,
        urls::short(f.id),
        &target,
        &p.card.title_text,
    ));
    for a in &f.aliases {
        out.push(redirect::job(
            model,
            urls::alias(a),
            &target,
            &p.card.title_text,
        ));
    }
    // The runs whose page goes with this finding's, sharing its drawings.
    let mut owned: Vec<usize> = drawn.iter().map(|&((r, _), _)| r).collect();
    owned.sort_unstable();
    owned.dedup();
    for r in owned {
        if owners[r] == Some(i) {
            out.push(run::job(cx, r, &drawn)?);
        }
    }
    Ok(out)
}

/// A tag or model of a finding, linked when it has a page.
#[derive(Serialize)]
struct TermLink<'a> {
    name: &'a str,
    url: Option<String>,
}

/// The finding's `names` (tags or models), each linked to its page when it
/// has one: only listed findings make them, so a withdrawn finding's own
/// tag has none, and is shown unlinked rather than as a broken link.
fn terms<'a>(
    names: &'a [String],
    pages: &std::collections::BTreeMap<String, Term>,
    url_of: fn(&str) -> String,
) -> Vec<TermLink<'a>> {
    names
        .iter()
        .map(|n| TermLink {
            name: n,
            url: pages
                .contains_key(&urls::segment(n))
                .then(|| format!("{ROOT}{}", url_of(n))),
        })
        .collect()
}

/// The runs the checks of finding `i` flagged (or that acknowledge
/// breaking them), for its page: each run linked, with the check, its
/// verdict and what it found.
fn flagged_runs(model: &Model, i: usize) -> Vec<serde_json::Value> {
    model.flagged[i]
        .iter()
        .map(|&(r, k)| {
            let (run, o) = (&model.runs[r], &model.checks[r][k]);
            serde_json::json!({
                "title": run.shown_title(),
                "url": format!("{ROOT}{}", urls::run(&run.id)),
                "check": o.check,
                "verdict": o.verdict.as_str(),
                "class": o.verdict.as_str().replace(' ', "-"),
                "message": crate::markdown::render_inline(&o.message),
                "reason": o.reason,
            })
        })
        .collect()
}
