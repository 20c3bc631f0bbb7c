//! The home page: each group's first findings (`home_entries`) with its
//! blurb and a link to the group's page, the filter bar (the header's
//! engines, groups and statuses; the scripts fetch the data that covers
//! every finding when a filter is used), the latest findings, runs and
//! changes across versions, and the site's first comparisons with a link
//! to them all.

use super::batch::{Batch, Job};
use super::lists;
use super::view::{object, page};
use super::{observed, Ctx};
use crate::checks::Verdict;
use crate::markdown;
use crate::model::Model;
use crate::record::Status;
use crate::render::cards::{cards, Prepared};
use crate::urls::{self, ROOT};

/// The home page's template.
const TEMPLATE: &str = "index.html";

/// How many comparisons the home page lists; `/compare/` has them all.
const HOME_COMPARISONS: usize = 5;

/// How many of the newest findings, and of the newest runs, the home
/// page's "Latest" lists.
const LATEST_FINDINGS: usize = 5;
const LATEST_RUNS: usize = 3;

/// The newest runs, by date, then id: what "Latest" lists.
fn newest_runs(model: &Model) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..model.runs.len()).collect();
    let n = LATEST_RUNS.min(idx.len());
    let by = |&a: &usize, &b: &usize| {
        let (a, b) = (&model.runs[a], &model.runs[b]);
        b.date.cmp(&a.date).then_with(|| a.id.cmp(&b.id))
    };
    if n < idx.len() {
        idx.select_nth_unstable_by(n, by);
        idx.truncate(n);
    }
    idx.sort_by(by);
    idx
}

/// The home page's "Latest": the newest findings (by the date they were
/// last updated, else published), the newest runs, each with what it
/// showed of the findings and how many checks flag it, and the latest
/// changes across versions (regressions and improvements).
fn latest(model: &Model, prepared: &[Prepared], runs: &[usize]) -> serde_json::Value {
    let mut idx: Vec<usize> = model.listed().collect();
    let date = |i: usize| {
        let f = &model.findings[i];
        f.updated.unwrap_or(f.published)
    };
    let by = |&a: &usize, &b: &usize| date(b).cmp(&date(a)).then_with(|| b.cmp(&a));
    let n = LATEST_FINDINGS.min(idx.len());
    if n < idx.len() {
        idx.select_nth_unstable_by(n, by);
        idx.truncate(n);
    }
    idx.sort_by(by);
    let findings: Vec<serde_json::Value> = idx
        .iter()
        .map(|&i| {
            let (f, card) = (&model.findings[i], &prepared[i].card);
            serde_json::json!({
                "card": &**card,
                "date": date(i).to_string(),
                "updated": f.updated.is_some(),
            })
        })
        .collect();
    let runs: Vec<serde_json::Value> = runs
        .iter()
        .map(|&r| {
            let run = &model.runs[r];
            let flags = model.checks[r]
                .iter()
                .filter(|o| o.verdict == Verdict::Flagged)
                .count();
            serde_json::json!({
                "title": run.title,
                "url": format!("{ROOT}{}", urls::run(&run.id)),
                "date": run.date.to_string(),
                "shows": observed::run_line(model, r),
                "flags": flags,
            })
        })
        .collect();
    let changes: Vec<serde_json::Value> = model
        .trends
        .latest
        .iter()
        .map(|&c| super::workloads::change_view(model, c))
        .collect();
    serde_json::json!({"findings": findings, "runs": runs, "changes": changes})
}

/// Lists the home page.
pub(super) fn list<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) {
    let (model, prepared) = (cx.model, cx.prepared);
    let site = &model.site;
    let blurbs: Vec<String> = site
        .groups
        .iter()
        .map(|g| {
            g.blurb
                .as_deref()
                .map(|b| markdown::render(b, cx.resolve).html)
                .unwrap_or_default()
        })
        .collect();
    let (home_desc, count) = (cx.desc.clone(), model.listed().count());
    // The comparisons it lists are made of their runs' files.
    let shown = &model.comparisons[..model.comparisons.len().min(HOME_COMPARISONS)];
    let members = move || {
        let mut m = cx.all();
        for c in shown {
            m.extend(c.runs.iter().map(|&r| model.runs[r].content_hash));
        }
        // Which runs are the newest, and what each showed of the findings.
        m.push(crate::util::hash_of(
            model
                .runs
                .iter()
                .map(|r| (&r.id, r.date))
                .collect::<Vec<_>>(),
        ));
        for &r in &newest_runs(model) {
            m.push(model.runs[r].content_hash);
            m.push(observed::run_key(model, r));
        }
        // The latest changes across versions.
        m.extend(super::workloads::changes_key(cx, &model.trends.latest));
        m
    };
    batch.later(
        cx.key("", &members),
        TEMPLATE,
        String::new(),
        count,
        move || {
            let groups: Vec<serde_json::Value> = site
                .groups
                .iter()
                .zip(&model.groups)
                .zip(blurbs)
                .map(|((g, idx), blurb_html)| {
                    // The group's first findings; its page has them all.
                    let shown = &idx[..idx.len().min(site.home_entries)];
                    serde_json::json!({
                        "id": g.id,
                        "title": g.title,
                        "url": format!("{ROOT}{}", urls::group(&g.id)),
                        "blurb_html": blurb_html,
                        "findings": cards(prepared, shown),
                        "count": idx.len(),
                    })
                })
                .collect();
            Job {
                template: TEMPLATE,
                page: page(model, String::new(), site.title.clone(), home_desc, "home"),
                data: object([
                    ("groups", groups.into()),
                    ("count", count.into()),
                    ("filters", home_filters(cx)),
                    ("latest", latest(model, prepared, &newest_runs(model))),
                    ("comparisons", super::compare::listed(shown).into()),
                    ("comparisons_count", model.comparisons.len().into()),
                ]),
            }
        },
    );
}

/// The filter bar of the home page: the header's engines (a handful,
/// however many the site has), groups and statuses, each with the page that
/// lists it (the filter without JS), and where the scripts fetch the data
/// that covers every finding (see `outputs::browse`).
fn home_filters(cx: &Ctx<'_>) -> serde_json::Value {
    let model = cx.model;
    let site = &model.site;
    let engines: Vec<serde_json::Value> = model
        .nav_engines()
        .into_iter()
        .map(|k| {
            let (e, ix) = (&site.engines[k], &model.engines[k]);
            serde_json::json!({
                "id": e.id, "name": e.name, "color": e.color,
                "url": format!("{ROOT}{}", urls::engine(&e.id)),
                "data_url": format!("{ROOT}{}", urls::engine_data(&e.id)),
                "count": ix.findings.len(),
            })
        })
        .collect();
    let groups: Vec<serde_json::Value> = site
        .groups
        .iter()
        .zip(&model.groups)
        .map(|(g, idx)| {
            serde_json::json!({
                "id": g.id, "title": g.title, "count": idx.len(),
                "url": format!("{ROOT}{}", urls::group(&g.id)),
            })
        })
        .collect();
    let statuses: Vec<serde_json::Value> = Status::ALL
        .iter()
        .zip(&cx.by_status)
        .map(|(&s, idx)| {
            serde_json::json!({
                "id": s.as_str(), "title": lists::status_text(s).0,
                "count": idx.len(),
                "url": format!("{ROOT}{}", urls::status(s.as_str())),
            })
        })
        .collect();
    serde_json::json!({
        "engines": engines,
        "more_engines": site.engines.len().saturating_sub(engines.len()),
        "groups": groups,
        "statuses": statuses,
        "data_url": format!("{ROOT}{}", urls::FILTERS),
    })
}
