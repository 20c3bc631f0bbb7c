//! The engine pages: the engines index (`/engines/`) and each engine's
//! page (`/engines/<id>/`) with its version matrix (the state of every
//! finding at every known version) and the data of its "your version" box.
//! Each engine's version pages follow it (see [`super::version`]).

use super::batch::{Batch, Job};
use super::view::{object, page, vlink, EntryJson, VersionLink};
use super::{version, Ctx};
use crate::model::{EngineIndex, Model};
use crate::render::cards::Prepared;
use crate::render::templates::{self, Templates};
use crate::render::RenderError;
use crate::state::State;
use crate::urls::{self, ROOT};
use serde::Serialize;
use std::collections::HashMap;

/// An engine page's template.
const TEMPLATE: &str = "engine.html";

/// The engines index's template.
const INDEX_TEMPLATE: &str = "engines.html";

/// Lists the engines index, then each engine's page and its version pages.
pub(super) fn list<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) -> Result<(), RenderError> {
    let (model, prepared) = (cx.model, cx.prepared);
    let site = &model.site;
    let desc = &cx.desc;
    batch.lazy(
        cx.key(urls::ENGINES, &|| cx.all()),
        INDEX_TEMPLATE,
        urls::ENGINES.into(),
        || {
            let engine_rows: Vec<serde_json::Value> = model
                .engines
                .iter()
                .map(|ix| {
                    let e = &site.engines[ix.engine];
                    serde_json::json!({
                        "id": e.id, "name": e.name, "color": e.color, "repo": e.repo,
                        "url": format!("{ROOT}{}", urls::engine(&e.id)),
                        "count": ix.findings.len(),
                        "versions": ix.versions.iter().map(|v| vlink(model, &e.id, v)).collect::<Vec<_>>(),
                    })
                })
                .collect();
            Job {
                template: INDEX_TEMPLATE,
                page: page(
                    model,
                    urls::ENGINES.into(),
                    "Engines".into(),
                    format!("Findings by engine and version: {desc}"),
                    "engines",
                ),
                data: serde_json::json!({ "engines": engine_rows }),
            }
        },
    );
    let legend: Vec<serde_json::Value> = State::ALL
        .iter()
        .map(|s| serde_json::json!({"state": s.as_str(), "label": s.label(), "tested": s.is_tested()}))
        .collect();
    for ix in &model.engines {
        let id = &site.engines[ix.engine].id;
        let path = urls::engine(id);
        let legend = legend.clone();
        let cells = matrix_cells(model, cx.templates, ix)?;
        batch.later(
            cx.key(&path, &|| cx.listing(&ix.findings)),
            TEMPLATE,
            path.clone(),
            ix.findings.len(),
            move || page_of(model, prepared, ix, &legend, &cells),
        );
        version::list(cx, ix, batch);
    }
    Ok(())
}

/// The cells of an engine's version matrix, by version and state, as the
/// `state_cell` macro renders them: an engine page of 10,000 findings has
/// tens of thousands of cells but a few dozen distinct ones, and tera
/// calling the macro for each took most of the page's time.
fn matrix_cells(
    model: &Model,
    templates: &Templates,
    ix: &EngineIndex,
) -> Result<HashMap<(usize, State), String>, RenderError> {
    let e = &model.site.engines[ix.engine];
    let mut out = HashMap::new();
    for row in &ix.cells {
        for (j, &s) in row.iter().enumerate() {
            if out.contains_key(&(j, s)) {
                continue;
            }
            let value = serde_json::json!({
                "cell": {"state": s.as_str(), "label": s.label(), "tested": s.is_tested()},
                "version": vlink(model, &e.id, &ix.versions[j]),
            });
            let html = templates
                .render_piece(templates::CELL, &value)
                .map_err(|message| RenderError::Template {
                    template: templates::CELL.to_string(),
                    page: urls::engine(&e.id),
                    message,
                })?;
            out.insert((j, s), html);
        }
    }
    Ok(out)
}

fn page_of(
    model: &Model,
    prepared: &[Prepared],
    ix: &EngineIndex,
    legend: &[serde_json::Value],
    cells_html: &HashMap<(usize, State), String>,
) -> Job {
    let e = &model.site.engines[ix.engine];
    let versions: Vec<VersionLink> = ix.versions.iter().map(|v| vlink(model, &e.id, v)).collect();
    let rows: Vec<serde_json::Value> = ix
        .findings
        .iter()
        .zip(&ix.cells)
        .map(|(&i, cells)| {
            let entry = model.findings[i].engines.iter().find(|x| x.engine == e.id);
            let html: String = cells
                .iter()
                .enumerate()
                .filter_map(|(j, s)| cells_html.get(&(j, *s)).map(String::as_str))
                .collect();
            let cells: Vec<serde_json::Value> = cells
                .iter()
                .map(|s| serde_json::json!({"state": s.as_str(), "label": s.label(), "tested": s.is_tested()}))
                .collect();
            object([
                ("finding", serde_json::json!(&*prepared[i].card)),
                ("note", serde_json::json!(entry.and_then(|x| x.note.as_deref()))),
                ("cells", cells.into()),
                ("cells_html", html.into()),
            ])
        })
        .collect();
    Job {
        template: TEMPLATE,
        page: page(
            model,
            urls::engine(&e.id),
            format!("{}: findings by version", e.name),
            format!("What is known to affect each {} version", e.name),
            "engine",
        ),
        data: object([
            (
                "engine",
                serde_json::json!({"id": e.id, "name": e.name, "color": e.color, "repo": e.repo}),
            ),
            ("versions", serde_json::json!(versions)),
            ("rows", rows.into()),
            ("legend", legend.into()),
            ("your_version_json", engine_data(model, ix).into()),
        ]),
    }
}

#[derive(Serialize)]
struct EngineFinding<'a> {
    id: u32,
    url: String,
    title: String,
    advice: &'a str,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    entry: EntryJson<'a>,
}

#[derive(Serialize)]
struct VersionJson<'a> {
    v: &'a str,
    url: String,
}

/// The data of an engine page's "your version" box: the engine, its known
/// versions with their pages, and each listed finding's entry. URLs are
/// relative to the site root. Script-safe.
fn engine_data(model: &Model, ix: &EngineIndex) -> String {
    let e = &model.site.engines[ix.engine];
    let versions: Vec<VersionJson<'_>> = ix
        .versions
        .iter()
        .map(|v| VersionJson {
            v: v.as_str(),
            url: urls::version(&e.id, v.as_str()),
        })
        .collect();
    let findings: Vec<EngineFinding<'_>> = ix
        .findings
        .iter()
        .filter_map(|&i| {
            let f = &model.findings[i];
            let entry = f.engines.iter().find(|x| x.engine == e.id)?;
            Some(EngineFinding {
                id: f.id,
                url: urls::finding(&f.slug),
                title: crate::markdown::plain_text(&f.title),
                advice: &f.advice,
                status: f.status.as_str(),
                note: entry.note.as_deref(),
                entry: EntryJson::of(entry),
            })
        })
        .collect();
    crate::util::script_json(&serde_json::json!({
        "engine": {"id": e.id, "name": e.name},
        "versions": versions,
        "findings": findings,
    }))
}
