//! The comparison pages: `/compare/<id>/` for each comparison that
//! `site.yaml` or a `run.yaml` names, with each side's value per workload
//! and metric, the change from the baseline and its noise verdict, and the
//! index `/compare/`. Also the view of a comparison that version pages
//! embed ("what changed since …").

use super::batch::{Batch, Job};
use super::view::page;
use super::Ctx;
use crate::compare::{report, Comparison};
use crate::markdown;
use crate::model::Model;
use crate::urls::{self, ROOT};
use serde_json::{json, Value};

/// A comparison page's template.
const TEMPLATE: &str = "compare.html";
/// The index's template.
const INDEX: &str = "comparisons.html";

/// A comparison as templates show it: a table per workload where several
/// metrics are compared, else one table with a row per workload.
pub(super) fn view(c: &Comparison) -> Value {
    let one_metric = c.metrics.len() == 1;
    let row = |r: &crate::compare::Row, label: String| {
        let unit = c.metrics[r.metric].unit.as_deref();
        json!({
            "label": label,
            "values": r.values.iter().map(|v| v.map(|v| v.shown(unit)).unwrap_or_default()).collect::<Vec<_>>(),
            "changes": r.changes.iter().skip(1).map(|ch| ch.map(|ch| json!({
                "shown": ch.shown(),
                "noise": ch.noise.short(),
                "words": ch.noise.words(),
                "key": ch.noise.key(),
                "direction": ch.direction(),
            }))).collect::<Vec<_>>(),
        })
    };
    let blocks: Vec<Value> = if one_metric {
        // A hand table's workloads are its key columns, each named: they
        // head the first column. A result file's are described in a line.
        let named = c
            .workloads
            .iter()
            .all(|w| w.parts.iter().all(|(k, _)| !k.is_empty()));
        let first = match c.workloads.first() {
            Some(w) if named => w
                .parts
                .iter()
                .map(|(k, _)| k.clone())
                .collect::<Vec<_>>()
                .join(" · "),
            _ => "Workload".to_string(),
        };
        let label = |w: usize| {
            let workload = &c.workloads[w];
            if named {
                workload
                    .parts
                    .iter()
                    .map(|(_, v)| v.clone())
                    .collect::<Vec<_>>()
                    .join(" · ")
            } else {
                workload.line()
            }
        };
        vec![json!({
            "heading": Value::Null,
            "first": first,
            "rows": c.rows.iter().map(|r| row(r, label(r.workload))).collect::<Vec<_>>(),
        })]
    } else {
        c.workloads
            .iter()
            .enumerate()
            .map(|(w, workload)| {
                json!({
                    "heading": workload.line(),
                    "first": "Metric",
                    "rows": c.rows.iter().filter(|r| r.workload == w).map(|r| row(r, c.metrics[r.metric].label.clone())).collect::<Vec<_>>(),
                })
            })
            .collect()
    };
    json!({
        "sides": c.sides.iter().enumerate().map(|(s, side)| json!({
            "name": side.name,
            "baseline": s == 0,
            "files": side.sources.len(),
            "unmatched": c.unmatched[s],
        })).collect::<Vec<_>>(),
        "metric": if one_metric { json!({"label": c.metrics[0].label, "unit": c.metrics[0].unit}) } else { Value::Null },
        "blocks": blocks,
        "empty": c.is_empty(),
        "measured": c.sides.iter().zip(&c.measured).map(|(s, m)| json!({"name": s.name, "workloads": m})).collect::<Vec<_>>(),
        "untested": c.has_untested(),
        "stated_noise": c.stated_noise.map(|p| format!("±{}%", crate::figures::number(p))),
        "verdict": report::verdict(c),
    })
}

fn run_link(model: &Model, r: usize) -> Value {
    let run = &model.runs[r];
    json!({"title": run.title, "url": format!("{ROOT}{}", urls::run(&run.id))})
}

/// Lists every comparison's page, and the index.
pub(super) fn list<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) {
    let model = cx.model;
    if model.comparisons.is_empty() {
        return;
    }
    let hashes =
        |runs: &[usize]| -> Vec<u64> { runs.iter().map(|&r| model.runs[r].content_hash).collect() };
    for cmp in &model.comparisons {
        let path = urls::comparison(&cmp.spec.id);
        batch.lazy(
            cx.key(&path, &|| hashes(&cmp.runs)),
            TEMPLATE,
            path.clone(),
            move || Job {
                template: TEMPLATE,
                page: page(
                    model,
                    path.clone(),
                    cmp.spec.title.clone(),
                    format!("{}: {}", cmp.spec.title, report::verdict(&cmp.result)),
                    "compare",
                ),
                data: json!({
                    "title": cmp.spec.title,
                    "caption_html": cmp.spec.caption.as_deref().map(markdown::render_inline),
                    "owner": cmp.owner.map(|r| run_link(model, r)),
                    "runs": cmp.runs.iter().map(|&r| run_link(model, r)).collect::<Vec<_>>(),
                    "comparison": view(&cmp.result),
                }),
            },
        );
    }
    let all: Vec<usize> = (0..model.runs.len())
        .filter(|r| !model.run_comparisons[*r].is_empty())
        .collect();
    batch.lazy(cx.key(urls::COMPARE, &|| hashes(&all)), INDEX, urls::COMPARE.into(), move || Job {
        template: INDEX,
        page: page(
            model,
            urls::COMPARE.into(),
            "Comparisons".into(),
            "Runs set side by side: each metric per workload, its change and whether it is beyond the noise.".into(),
            "compare",
        ),
        data: json!({
            "comparisons": model.comparisons.iter().map(|c| json!({
                "title": c.spec.title,
                "url": format!("{ROOT}{}", urls::comparison(&c.spec.id)),
                "sides": c.result.sides.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
                "verdict": report::verdict(&c.result),
            })).collect::<Vec<_>>(),
        }),
    });
}
