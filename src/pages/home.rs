//! The home page: each group's first findings (`home_entries`) with its
//! blurb and a link to the group's page, the filter bar (the header's
//! engines, groups and statuses; the scripts fetch the data that covers
//! every finding when a filter is used), and the site's first comparisons
//! with a link to them all.

use super::batch::{Batch, Job};
use super::lists;
use super::view::{object, page};
use super::Ctx;
use crate::markdown;
use crate::record::Status;
use crate::render::cards::cards;
use crate::urls::{self, ROOT};

/// The home page's template.
const TEMPLATE: &str = "index.html";

/// How many comparisons the home page lists; `/compare/` has them all.
const HOME_COMPARISONS: usize = 5;

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
