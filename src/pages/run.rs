//! Run pages (`/runs/<id>/`): a run's setup (the model named without a
//! local path, the hardware or how to give it), its headline figures with
//! the flags of the checks that flag them, the checks (flags first), what
//! it shows of the findings, its charts, tables (a table of one row as a
//! list of its fields) and result files, and the findings that cite it.
//! A run whose charts a finding shows is rendered with that finding's page
//! (see [`owners`]), so its charts are drawn once. The runs index is
//! `runs.rs`.

use super::batch::{Batch, Job};
use super::view::{page, vlink};
use super::{evidence, headline, redirect, Ctx};
use crate::markdown;
use crate::model::{ChartRef, Model};
use crate::render::cards::cards;
use crate::render::charts::ChartView;
use crate::render::{tables, RenderError};
use crate::urls::{self, ROOT};
use crate::version::Version;
use std::sync::Arc;

/// A run page's template.
const TEMPLATE: &str = "run.html";

/// Lists the pages of the runs no finding renders (see [`owners`]).
pub(super) fn list<'a>(
    cx: &'a Ctx<'a>,
    owners: &[Option<usize>],
    batch: &mut Batch<'a>,
) -> Result<(), RenderError> {
    let model = cx.model;
    for (r, run) in model.runs.iter().enumerate() {
        if owners[r].is_some() {
            continue;
        }
        let path = urls::run(&run.id);
        let k = cx.key(&path, &|| {
            let mut m = cx.listing(&model.citations[r]);
            m.push(run.content_hash);
            m.push(super::observed::run_key(model, r));
            m.extend(super::compare::read_with(model, r));
            m
        });
        let mut failed = None;
        batch.lazy(k, TEMPLATE, path, || match job(cx, r, &[]) {
            Ok(job) => job,
            Err(e) => {
                failed = Some(e);
                // Never rendered: the build stops below.
                redirect::job(model, String::new(), "", "")
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
    }
    Ok(())
}

/// For each run, the finding whose page renders the run's page too: the
/// first that shows one of its charts, so both pages share that drawing.
/// `None` for a run no finding shows a chart of.
pub(super) fn owners(model: &Model) -> Vec<Option<usize>> {
    let mut owners = vec![None; model.runs.len()];
    for (i, shown) in model.charts.iter().enumerate() {
        for &(r, _) in shown {
            owners[r].get_or_insert(i);
        }
    }
    owners
}

/// The page of run `r`. Charts already drawn for a finding's page come in
/// `drawn`; the others are drawn here.
pub(super) fn job(
    cx: &Ctx<'_>,
    r: usize,
    drawn: &[(ChartRef, ChartView)],
) -> Result<Job, RenderError> {
    let (model, prepared) = (cx.model, cx.prepared);
    let site = &model.site;
    let run = &model.runs[r];
    let (scores, scores_chart) = super::scores::of(run);
    let setups: Vec<serde_json::Value> = run
        .setups
        .iter()
        .map(|s| {
            let eng = site.engines.iter().find(|e| e.id == s.engine);
            serde_json::json!({
                "engine": eng.map_or(s.engine.as_str(), |e| e.name.as_str()),
                "url": eng.map(|e| format!("{ROOT}{}", urls::engine(&e.id))),
                "version": s.version,
                "version_url": match (eng, s.version.as_deref().and_then(|v| Version::parse(v).ok())) {
                    (Some(e), Some(v)) => Some(vlink(model, &e.id, &v).url),
                    _ => None,
                },
                "flags": s.flags,
            })
        })
        .collect();
    let run_charts: Vec<ChartView> = run
        .charts
        .iter()
        .enumerate()
        .map(|(c, spec)| match drawn.iter().find(|(k, _)| *k == (r, c)) {
            Some((_, view)) => Ok(view.clone()),
            None => cx.charts.draw(run, spec),
        })
        .collect::<Result<_, _>>()?;
    let names = site.engine_names();
    let tables: Vec<serde_json::Value> = run
        .tables
        .iter()
        .map(|t| {
            // A long table is folded into a sample and its extremes, with
            // every row on pages of its own: the run page stays light.
            // A chart's figure that shows the table made its view already.
            let view = run_charts
                .iter()
                .find_map(|c| c.table_view(&t.file).cloned())
                .unwrap_or_else(|| Arc::new(tables::view(&run.id, t, &names)));
            // A table of one row reads as a list of its fields (a row of
            // thirty columns is wider than any screen).
            let fields: Vec<serde_json::Value> = match &t.rows[..] {
                [row] => t
                    .header
                    .iter()
                    .zip(row)
                    .filter(|(_, cell)| !cell.trim().is_empty())
                    .map(|(h, cell)| {
                        let column = t.column(h);
                        let unit = column.and_then(|c| c.unit.as_deref());
                        // A model is named without a local path (the
                        // CSV keeps it).
                        let value = if h == "model" {
                            crate::record::model_name(cell)
                        } else {
                            crate::figures::cell_text(cell, unit)
                        };
                        serde_json::json!({
                            "name": column.map_or_else(|| h.clone(), |c| c.heading(&names)),
                            "value": value,
                            "num": unit.is_some(),
                        })
                    })
                    .collect(),
                _ => Vec::new(),
            };
            serde_json::json!({
                "file": t.file, "title": t.title, "fields": fields,
                "url": format!("{ROOT}{}", urls::run_file(&run.id, &t.file)),
                "columns": t.columns.iter().map(|c| serde_json::json!({"name": c.name, "title": c.title(&names), "unit": c.unit, "description": c.description})).collect::<Vec<_>>(),
                "header": view.header,
                // The cells of the rows shown, as the CSV has them.
                "rows": view.rows.iter().map(|&r| &t.rows[r]).collect::<Vec<_>>(),
                "rows_html": view.rows_html,
                "total": view.total,
                "shown": view.shown,
                "folded": view.folded,
                "all_url": view.all_url,
                "empty_columns": view.empty_columns,
                "derived": t.derived,
            })
        })
        .collect();
    let title = run.shown_title();
    let model_name = run.model_name();
    Ok(Job {
        template: TEMPLATE,
        page: page(
            model,
            urls::run(&run.id),
            title.to_string(),
            format!("Run data: {title}"),
            "run",
        ),
        data: serde_json::json!({
            "run": {
                "id": run.id, "title": title, "date": run.date.to_string(), "date_long": run.date.long(),
                // Named without the local path it was served from: no
                // page shows one (the CSV and findings.json keep it).
                "model": model_name,
                "hardware": run.hardware.as_deref().map(str::trim).filter(|h| !h.is_empty()),
                // A run of result files is made by `findings import`.
                "imported": !run.results.is_empty(),
                "yaml": run.path.to_string_lossy(),
                "client": run.client, "endpoint": run.endpoint,
                "source": run.source,
                "notes_html": run.notes.as_deref().map(|n| markdown::render(n, cx.resolve).html).unwrap_or_default(),
            },
            "setups": setups,
            "scores": scores,
            "scores_chart": scores_chart,
            "headline": headline::of(run, &model.checks[r]),
            "evidence": evidence::of(run),
            "observed": super::observed::of_run(model, r),
            "checks": evidence::checks(model, r),
            "preempted": evidence::preempted(run),
            "tables": tables,
            "charts": run_charts,
            "cited_by": cards(prepared, &model.citations[r]),
            "comparisons": model.run_comparisons[r].iter().map(|&c| {
                let c = &model.comparisons[c];
                serde_json::json!({
                    "title": c.spec.title,
                    "url": format!("{ROOT}{}", urls::comparison(&c.spec.id)),
                    "verdict": c.verdict(),
                })
            }).collect::<Vec<_>>(),
        }),
    })
}
