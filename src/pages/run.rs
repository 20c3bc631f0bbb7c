//! Run pages (`/runs/<id>/`): a run's setups, tables, charts and the
//! findings that cite it; and the runs index (`/runs/`), newest first, each
//! entry with the engines and versions the run measured and the findings
//! that cite it. A run whose charts
//! a finding shows is rendered with that finding's page (see [`owners`]),
//! so its charts are drawn once.

use super::batch::{Batch, Job};
use super::paginate::Pager;
use super::view::{list_page, object, page, vlink};
use super::{evidence, headline, redirect, Ctx};
use crate::markdown;
use crate::model::{ChartRef, Model};
use crate::record::Run;
use crate::render::cards::cards;
use crate::render::charts::ChartView;
use crate::render::{tables, RenderError};
use crate::urls::{self, ROOT};
use crate::util::hash_of;
use crate::version::Version;
use std::sync::Arc;

/// A run page's template.
const TEMPLATE: &str = "run.html";

/// The runs index's template.
const INDEX_TEMPLATE: &str = "runs.html";

/// Lists the pages of the runs no finding renders (see [`owners`]), then
/// the runs index.
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
    // The index lists the newest runs first, then by title. What an entry
    // shows: the run's file (title, date, setups) and the findings that
    // cite it (their list hashes: number, address, title).
    let order = index_order(model);
    let run_members = || {
        model
            .runs
            .iter()
            .zip(&model.citations)
            .map(|(run, c)| hash_of((run.content_hash, cx.listing(c))))
            .collect()
    };
    let pager = Pager::new(urls::RUNS, model.runs.len(), model.site.page_size);
    for n in 1..=pager.pages() {
        let path = pager.path(n);
        let range = pager.range(n);
        let entries: Vec<usize> = order[range.clone()].to_vec();
        batch.later(
            cx.key(&path, &run_members),
            INDEX_TEMPLATE,
            path,
            range.len(),
            move || {
                let run_rows: Vec<serde_json::Value> =
                    entries.iter().map(|&r| index_entry(cx, r)).collect();
                let pager = Pager::new(urls::RUNS, model.runs.len(), model.site.page_size);
                let (page, pagination) = list_page(
                    model,
                    &pager,
                    n,
                    "Runs",
                    "The measurements behind the findings".into(),
                    "runs",
                );
                Job {
                    template: INDEX_TEMPLATE,
                    page,
                    data: object([
                        ("runs", run_rows.into()),
                        ("total", model.runs.len().into()),
                        ("pagination", pagination),
                    ]),
                }
            },
        );
    }
    Ok(())
}

/// The runs in the index's order: newest first, then by title, ignoring
/// case (then by id, so that the order never depends on the folder
/// listing).
fn index_order(model: &Model) -> Vec<usize> {
    let mut order: Vec<usize> = (0..model.runs.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (&model.runs[a], &model.runs[b]);
        rb.date
            .cmp(&ra.date)
            .then_with(|| ra.title.to_lowercase().cmp(&rb.title.to_lowercase()))
            .then_with(|| ra.title.cmp(&rb.title))
            .then_with(|| ra.id.cmp(&rb.id))
    });
    order
}

/// Run `r`'s entry in the index: its title, date, the engines and versions
/// it measured, and the findings that cite it.
fn index_entry(cx: &Ctx<'_>, r: usize) -> serde_json::Value {
    let model = cx.model;
    let run = &model.runs[r];
    let cited: Vec<serde_json::Value> = model.citations[r]
        .iter()
        .map(|&i| {
            let f = &model.findings[i];
            serde_json::json!({
                "label": format!("F{}", f.id),
                "url": format!("{ROOT}{}", urls::finding(&f.slug)),
                "title": cx.prepared[i].card.title_text,
            })
        })
        .collect();
    serde_json::json!({
        "id": run.id, "title": run.title, "date": run.date.to_string(), "date_long": run.date.long(),
        "url": format!("{ROOT}{}", urls::run(&run.id)),
        "engines": measured(model, run),
        "cited_by": cited,
    })
}

/// The engines a run's setups measured, in the order they first appear,
/// each under its display name (or the setup's free name) with its
/// versions, ascending and each once.
fn measured(model: &Model, run: &Run) -> Vec<serde_json::Value> {
    /// One engine of the run, and its versions as parsed and as written.
    struct Measured<'r> {
        engine: &'r str,
        versions: Vec<(Option<Version>, &'r str)>,
    }
    let mut engines: Vec<Measured<'_>> = Vec::new();
    for s in &run.setups {
        let k = match engines.iter().position(|m| m.engine == s.engine) {
            Some(k) => k,
            None => {
                engines.push(Measured {
                    engine: &s.engine,
                    versions: Vec::new(),
                });
                engines.len() - 1
            }
        };
        if let Some(v) = s.version.as_deref() {
            let parsed = Version::parse(v).ok();
            let versions = &mut engines[k].versions;
            // 0.30 and 0.30.0 are one version.
            if !versions.iter().any(|(p, w)| match (p, &parsed) {
                (Some(p), Some(q)) => p == q,
                _ => *w == v,
            }) {
                versions.push((parsed, v));
            }
        }
    }
    engines
        .into_iter()
        .map(|mut m| {
            m.versions.sort_by(|a, b| a.0.cmp(&b.0));
            let name = model
                .site
                .engines
                .iter()
                .find(|e| e.id == m.engine)
                .map_or(m.engine, |e| e.name.as_str());
            let versions: Vec<&str> = m.versions.into_iter().map(|(_, w)| w).collect();
            serde_json::json!({"name": name, "versions": versions})
        })
        .collect()
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
            serde_json::json!({
                "file": t.file, "title": t.title,
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
    Ok(Job {
        template: TEMPLATE,
        page: page(
            model,
            urls::run(&run.id),
            run.title.clone(),
            format!("Run data: {}", run.title),
            "run",
        ),
        data: serde_json::json!({
            "run": {
                "id": run.id, "title": run.title, "date": run.date.to_string(), "date_long": run.date.long(),
                "model": run.model, "hardware": run.hardware, "client": run.client, "endpoint": run.endpoint,
                "source": run.source,
                "notes_html": run.notes.as_deref().map(|n| markdown::render(n, cx.resolve).html).unwrap_or_default(),
            },
            "setups": setups,
            "headline": headline::of(run),
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
                    "verdict": crate::compare::report::verdict(&c.result),
                })
            }).collect::<Vec<_>>(),
        }),
    })
}
