//! The home page: each group's findings with its blurb, and the data of
//! the filter bar (engines and versions, groups, statuses, and every listed
//! finding's engine entries for the version filter).

use super::batch::{Batch, Job};
use super::lists;
use super::view::{object, page, EntryJson};
use super::Ctx;
use crate::markdown;
use crate::model::{EngineIndex, Model};
use crate::record::Status;
use crate::render::cards::cards;
use crate::urls::{self, ROOT};

/// The home page's template.
const TEMPLATE: &str = "index.html";

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
    batch.later(
        cx.key("", &|| cx.all()),
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
                    serde_json::json!({
                        "id": g.id,
                        "title": g.title,
                        "url": format!("{ROOT}{}", urls::group(&g.id)),
                        "blurb_html": blurb_html,
                        "findings": cards(prepared, idx),
                    })
                })
                .collect();
            Job {
                template: TEMPLATE,
                page: page(model, String::new(), site.title.clone(), home_desc, "home"),
                data: object([
                    ("groups", groups.into()),
                    ("count", count.into()),
                    ("filters", home_filters(model)),
                    ("entries_json", home_entries(model).into()),
                ]),
            }
        },
    );
}

/// The filter bar of the home page: engines with their versions, groups and
/// statuses, each with the page that lists it (the filter without JS).
fn home_filters(model: &Model) -> serde_json::Value {
    let site = &model.site;
    let engines: Vec<serde_json::Value> = model
        .engines
        .iter()
        .map(|ix: &EngineIndex| {
            let e = &site.engines[ix.engine];
            serde_json::json!({
                "id": e.id, "name": e.name, "color": e.color,
                "url": format!("{ROOT}{}", urls::engine(&e.id)),
                "count": ix.findings.len(),
                "versions": ix.versions.iter().map(|v| serde_json::json!({
                    "version": v.as_str(),
                    "url": format!("{ROOT}{}", urls::version(&e.id, v.as_str())),
                })).collect::<Vec<_>>(),
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
        .map(|&s| {
            serde_json::json!({
                "id": s.as_str(), "title": lists::status_text(s).0,
                "count": lists::with_status(model, s).len(),
                "url": format!("{ROOT}{}", urls::status(s.as_str())),
            })
        })
        .collect();
    serde_json::json!({ "engines": engines, "groups": groups, "statuses": statuses })
}

/// The engine entries of every listed finding, for the home page's version
/// filter: `{"<id>": {"<engine>": entry}}`, script-safe.
fn home_entries(model: &Model) -> String {
    let mut map: std::collections::BTreeMap<u32, std::collections::BTreeMap<&str, EntryJson<'_>>> =
        std::collections::BTreeMap::new();
    for i in model.listed() {
        let f = &model.findings[i];
        map.insert(
            f.id,
            f.engines
                .iter()
                .map(|e| (e.engine.as_str(), EntryJson::of(e)))
                .collect(),
        );
    }
    crate::util::script_json(&map)
}
