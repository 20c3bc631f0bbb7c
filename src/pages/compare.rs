//! The comparison pages: `/compare/<id>/` for each comparison that
//! `site.yaml` or a `run.yaml` names, led by the verdict in words (how
//! many changes are worse, better or the same, how far the noise was
//! tested; the sides the checks flag; how their servers differ; why fewer
//! requests ran than asked where the runs say), then each side's value per
//! workload and metric, the change from the baseline and its noise
//! verdict, and the index `/compare/`. Also the view of a comparison that
//! version pages embed ("what changed since …"), and the few comparisons
//! the home page lists, each with its verdict in a line.

use super::batch::{Batch, Job};
use super::view::page;
use super::Ctx;
use crate::compare::{flagged, report, servers, Comparison, Verdict};
use crate::markdown;
use crate::model::{Compared, Model};
use crate::urls::{self, ROOT};
use serde_json::{json, Value};

/// A comparison page's template.
const TEMPLATE: &str = "compare.html";
/// The index's template.
const INDEX: &str = "comparisons.html";

/// A comparison as templates show it: a table per workload where several
/// metrics are compared, else one table with a row per workload. Each
/// side's cell holds its value (marked where its server ran fewer
/// requests at once than asked) and, but for the baseline's, its change
/// with its direction and noise; each workload lists what the sides'
/// evidence says of their servers; `fewer` names the sides that ran fewer
/// requests than asked, with the findings `model` has about it. First of
/// all, `verdict`, `flagged`, `servers` and `shortfall`: what the page
/// says before its tables.
pub(super) fn view(c: &Comparison, model: &Model) -> Value {
    let one_metric = c.metrics.len() == 1;
    let row = |r: &crate::compare::Row, label: String| {
        let unit = c.metrics[r.metric].unit.as_deref();
        let shown = r.shown(unit);
        let cells: Vec<Value> = shown
            .iter()
            .enumerate()
            .map(|(s, v)| {
                json!({
                    "value": v,
                    "mark": v.as_ref().and_then(|_| c.contexts[r.workload][s].mark()),
                    "change": r.changes[s].map(|ch| json!({
                        "shown": ch.shown(),
                        // Within noise, a change is neither better nor
                        // worse: its class and its words say so.
                        "direction": if ch.kind() == crate::compare::Kind::Within { "within" } else { ch.direction.as_str() },
                        "way": ch.way(),
                        "noise": ch.noise.short(),
                        "words": ch.long_words(),
                        "key": ch.noise.key(),
                    })),
                })
            })
            .collect();
        json!({"label": label, "cells": cells})
    };
    // What the sides' evidence says of their servers at workload `w`
    // (`at`: the workload named, where one table holds several).
    let notes = |w: usize, at: Option<String>| -> Vec<Value> {
        let mut out = Vec::new();
        if c.has_context(w) {
            for (s, side) in c.sides.iter().enumerate() {
                let ctx = &c.contexts[w][s];
                let who = match &at {
                    Some(line) => format!("{} at {line}", side.name),
                    None => side.name.clone(),
                };
                out.push(
                    json!({"who": who, "text": ctx.words(), "fewer": ctx.ran_fewer().is_some()}),
                );
            }
        }
        for (s, line) in &c.taken_as_one[w] {
            out.push(json!({"who": c.sides[*s].name, "text": format!("measured {line}, taken as this workload"), "fewer": false}));
        }
        out
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
        let several = c.workloads.len() > 1;
        vec![json!({
            "heading": Value::Null,
            "first": first,
            "notes": (0..c.workloads.len()).flat_map(|w| notes(w, several.then(|| label(w)))).collect::<Vec<_>>(),
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
                    "notes": notes(w, None),
                    "rows": c.rows_of(w).iter().map(|r| row(r, c.metrics[r.metric].label.clone())).collect::<Vec<_>>(),
                })
            })
            .collect()
    };
    let fewer = c.ran_fewer();
    let fewer = (!fewer.is_empty()).then(|| {
        let names: Vec<&str> = fewer.iter().map(|&s| c.sides[s].name.as_str()).collect();
        let names = match names.as_slice() {
            [one] => one.to_string(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
            [] => String::new(),
        };
        json!({
            "names": names,
            "one": fewer.len() == 1,
            "check": crate::compare::CONCURRENCY_CHECK,
            "findings": c.cited.iter().filter_map(|f| {
                let finding = model.finding(f.id)?;
                Some(json!({
                    "label": format!("F{}", f.id),
                    "url": format!("{ROOT}{}", urls::finding(&finding.slug)),
                    "title_html": markdown::render_inline(&finding.title),
                }))
            }).collect::<Vec<_>>(),
        })
    });
    let (why, not) = report::shortfall_words(c);
    json!({
        "sides": c.sides.iter().enumerate().map(|(s, side)| json!({
            "name": side.name,
            "baseline": s == 0,
            "files": side.sources.len(),
            "unmatched": c.unmatched[s],
            "flags": side.flags.iter().map(|f| json!({"check": f.check, "mark": f.mark, "message": f.message})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "metric": if one_metric { json!({"label": c.metrics[0].label, "unit": c.metrics[0].unit}) } else { Value::Null },
        "blocks": blocks,
        "empty": c.is_empty(),
        "measured": c.sides.iter().zip(&c.measured).map(|(s, m)| json!({"name": s.name, "workloads": m})).collect::<Vec<_>>(),
        "untested": c.has_untested(),
        "stated_noise": c.stated_noise.map(|p| format!("±{}", crate::figures::unsigned_percent(p))),
        "noise_from": noise_from(c),
        "fewer": fewer,
        "verdict": Verdict::of(c).words,
        "flagged": flagged(c),
        "servers": servers(c),
        "shortfall": why,
        "unexplained": not,
    })
}

/// What the bands of noise of `c`'s changes were read from, each once, in
/// words for the key under its tables: `the spread of repeated runs`,
/// `the series' history`, `the noise site.yaml states`.
fn noise_from(c: &Comparison) -> Vec<&'static str> {
    use crate::compare::{Basis, Stated};
    let mut out: Vec<&'static str> = Vec::new();
    for ch in c.rows.iter().flat_map(|r| r.changes.iter().flatten()) {
        let Some(b) = ch.noise.band() else { continue };
        let words = match b.basis {
            Basis::Repeats { .. } => "the spread of repeated runs of one version, in percent of their mean",
            Basis::History { .. } => "the history of the workload's series: the values of the versions before, whose mean a change must pass by 3 standard deviations (a rule of site.yaml may set another)",
            Basis::Stated(Stated::Site) => "the noise site.yaml states",
            Basis::Stated(Stated::Record) => "the noise the comparison states",
            Basis::Stated(Stated::Command) => "the bound given on the command line",
            Basis::Sampling { .. } => "the questions' sampling noise: McNemar's exact test on the answers that changed, else the scores' 95% intervals",
        };
        if !out.contains(&words) {
            out.push(words);
        }
    }
    out
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
        let title = title_of(cmp);
        let members = || {
            let mut m = hashes(&cmp.runs);
            m.extend(cited(cx, &cmp.result));
            m
        };
        batch.lazy(cx.key(&path, &members), TEMPLATE, path.clone(), move || {
            Job {
                template: TEMPLATE,
                page: page(
                    model,
                    path.clone(),
                    title.clone(),
                    format!("{title}: {}", cmp.verdict()),
                    "compare",
                ),
                data: json!({
                    "title": title,
                    "caption_html": cmp.spec.caption.as_deref().map(markdown::render_inline),
                    "owner": cmp.owner.map(|r| run_link(model, r)),
                    "runs": cmp.runs.iter().map(|&r| run_link(model, r)).collect::<Vec<_>>(),
                    "comparison": view(&cmp.result, model),
                    "accuracy": cmp.accuracy.as_ref().map(|a| super::accuracy::view(a, &cmp.spec.id)),
                }),
            }
        });
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
            "comparisons": listed(&model.comparisons),
        }),
    });
}

/// What a run's page shows of the comparisons that read it (their
/// verdicts, made of every run they read, and the checks of those runs,
/// which every page's key holds): the contents of those runs, for the key
/// of the run page.
pub(super) fn read_with(model: &Model, r: usize) -> Vec<u64> {
    model.run_comparisons[r]
        .iter()
        .flat_map(|&c| &model.comparisons[c].runs)
        .map(|&o| model.runs[o].content_hash)
        .collect()
}

/// What a comparison's page shows of the findings it cites (their titles,
/// in the note of the sides that ran fewer than asked): their list
/// hashes, for the keys of the pages that show it.
pub(super) fn cited(cx: &Ctx<'_>, c: &Comparison) -> Vec<u64> {
    c.cited
        .iter()
        .filter_map(|f| cx.model.by_id.get(&f.id))
        .map(|&i| cx.prepared[i].list_hash)
        .collect()
}

/// A comparison's title: its record's, else the one the model made from
/// its sides, else its id.
fn title_of(c: &Compared) -> String {
    c.spec.title.clone().unwrap_or_else(|| c.spec.id.clone())
}

/// Comparisons as lists show them: title, address, sides and the verdict
/// in a line (its words, and the sides the checks flag).
pub(super) fn listed(comparisons: &[Compared]) -> Vec<Value> {
    comparisons
        .iter()
        .map(|c| {
            json!({
                "title": title_of(c),
                "url": format!("{ROOT}{}", urls::comparison(&c.spec.id)),
                "sides": c.result.sides.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
                "verdict": c.verdict(),
                "fewer": !c.result.ran_fewer().is_empty(),
            })
        })
        .collect()
}
