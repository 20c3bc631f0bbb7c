//! The workloads the site follows across versions, for scripts:
//! `workloads.json` (every workload, its metrics, their points and
//! changes; what `findings trends --format json` prints for its
//! selection, in the same shape) and each workload's points as CSV
//! (`workloads/<slug>/<slug>.csv`). The keys of the JSON are fixed by
//! issue 39 (`workloads[]` with `id`, `title`, `metrics[]`; each metric's
//! `metric`, `points[]` and `changes[]`); `schemas/workloads.schema.json`
//! describes them, and docs/json.md.
//!
//! Takes the model and a selection of its trends; hands back the JSON
//! value, or the CSV text.

use crate::compare::trend::{Kind, Point};
use crate::model::{Model, Picked};
use crate::sink::{Output, WriteError};
use crate::urls;
use serde_json::{json, Value};

/// The version of the shape of `workloads.json`: it changes only when a
/// key is removed or changes meaning.
pub const SCHEMA_VERSION: u32 = 1;

/// The flags of a point, by check name (`no-lost-requests`).
fn flags(p: &Point) -> Vec<&str> {
    p.flags.iter().map(|f| f.check.as_str()).collect()
}

/// The workloads `picked` of `model`'s trends as JSON.
pub fn json(model: &Model, picked: &[Picked]) -> Value {
    let workloads: Vec<Value> = picked.iter().map(|p| workload(model, p)).collect();
    json!({"schema_version": SCHEMA_VERSION, "workloads": workloads})
}

/// One workload of `workloads.json`: its parts, series and metrics, with
/// the points and changes `p` picks.
fn workload(model: &Model, p: &Picked) -> Value {
    let t = &model.trends;
    let base = &model.site.base_url;
    let f = &t.followed[p.workload];
    let series: Vec<Value> = f
        .trend
        .series
        .iter()
        .map(|s| json!({"engine": s.engine, "name": s.name(), "place": s.place}))
        .collect();
    let about: Vec<Value> = f
        .trend
        .workload
        .about()
        .into_iter()
        .map(|(what, value, how)| json!({"part": what, "value": value, "matched": how}))
        .collect();
    let metrics: Vec<Value> = p
        .metrics
        .iter()
        .map(|(m, points, changes)| {
            let mt = &f.trend.metrics[*m];
            let points: Vec<Value> = points
                .iter()
                .map(|&i| {
                    let pt = &mt.points[i];
                    let src = &t.sources[pt.source];
                    let run = &model.runs[src.0];
                    json!({
                        "engine": f.trend.series[pt.series].engine,
                        "version": pt.version.as_str(),
                        "run": run.id,
                        "setup": run.setups[src.1].name(),
                        "value": pt.value,
                        "low": pt.low,
                        "high": pt.high,
                        "n": pt.n,
                        "flags": flags(pt),
                        "series": pt.series,
                        "date": run.date.to_string(),
                        "url": format!("{base}{}", urls::run(&run.id)),
                        "change": pt.change.map(Kind::words),
                    })
                })
                .collect();
            let changes: Vec<Value> = changes
                .iter()
                .map(|&c| {
                    let ch = &mt.changes[c];
                    let cited: Vec<u32> = f.cited[*m][c]
                        .iter()
                        .map(|&i| model.findings[i].id)
                        .collect();
                    let command = (ch.kind() == Kind::Regression && cited.is_empty())
                        .then(|| t.new_finding_command((p.workload, *m, c)));
                    json!({
                        "from": ch.from.as_str(),
                        "to": ch.to.as_str(),
                        "pct": ch.change.pct,
                        "direction": ch.change.direction.as_str(),
                        "noise": ch.change.noise.key(),
                        "comparable": ch.comparable(),
                        "findings": cited,
                        "engine": f.trend.series[ch.series].engine,
                        "series": ch.series,
                        "kind": ch.kind().words(),
                        "not_comparable": ch.not_comparable,
                        "new_finding": command,
                        "noise_pct": ch.change.noise.band().map(|b| b.pct),
                        "noise_from": ch.change.noise.band().map(|b| noise_from(b.basis)),
                        "words": ch.words(),
                    })
                })
                .collect();
            json!({
                "metric": mt.metric.name,
                "label": mt.metric.label,
                "unit": mt.metric.unit,
                "higher_is_better": mt.metric.higher_is_better,
                "points": points,
                "changes": changes,
            })
        })
        .collect();
    json!({
        "id": f.slug,
        "title": f.trend.title,
        "url": format!("{base}{}", urls::workload(&f.slug)),
        "csv": format!("{base}{}", urls::workload_csv(&f.slug)),
        "workload": about,
        "series": series,
        "metrics": metrics,
    })
}

/// What a change's band of noise was read from, as `noise_from` names it.
fn noise_from(b: crate::compare::Basis) -> &'static str {
    use crate::compare::{Basis, Stated};
    match b {
        Basis::Repeats { .. } => "repeats",
        Basis::History { .. } => "history",
        Basis::Sampling { .. } => "sampling",
        Basis::Stated(Stated::Site) => "site",
        Basis::Stated(Stated::Record) => "record",
        Basis::Stated(Stated::Command) => "command",
    }
}

/// Writes `workloads.json`: every workload the site follows, as [`json`]
/// gives it, compact like `findings.json`, one workload at a time (a site
/// of ten thousand imported runs follows workloads of thousands of points,
/// whose JSON values held at once were the build's peak of memory).
pub fn write<O: Output>(model: &Model, out: &O) -> Result<(), WriteError> {
    let all = model
        .trends
        .select(&model.site, &crate::model::Selection::default())
        .unwrap_or_default();
    out.write_with(urls::WORKLOADS_JSON, |sink| -> Result<(), WriteError> {
        sink.put(b"{\"schema_version\":")?;
        sink.json(&SCHEMA_VERSION)?;
        sink.put(b",\"workloads\":[")?;
        for (k, p) in all.iter().enumerate() {
            if k > 0 {
                sink.put(b",")?;
            }
            sink.json(&workload(model, p))?;
        }
        sink.put(b"]}\n")
    })
}

/// Workload `w`'s points as CSV: one row per point of each metric, with
/// its series, version, run, setup, value and noise, and its flags.
pub fn csv(model: &Model, w: usize) -> String {
    let t = &model.trends;
    let f = &t.followed[w];
    let mut out = csv::WriterBuilder::new().from_writer(Vec::new());
    let _ = out.write_record([
        "metric", "unit", "engine", "series", "version", "run", "setup", "date", "value", "low",
        "high", "n", "flags",
    ]);
    for mt in &f.trend.metrics {
        for p in &mt.points {
            let src = t.sources[p.source];
            let run = &model.runs[src.0];
            let _ = out.write_record([
                mt.metric.name.clone(),
                mt.metric.unit.clone().unwrap_or_default(),
                f.trend.series[p.series].engine.clone(),
                f.trend.series[p.series].name(),
                p.version.as_str().to_string(),
                run.id.clone(),
                run.setups[src.1].name(),
                run.date.to_string(),
                p.value.to_string(),
                p.low.to_string(),
                p.high.to_string(),
                p.n.to_string(),
                flags(p).join(" "),
            ]);
        }
    }
    String::from_utf8(out.into_inner().unwrap_or_default()).unwrap_or_default()
}
