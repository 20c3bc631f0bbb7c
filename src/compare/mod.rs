//! Runs set side by side: the measurements of two or more sides (a setup
//! of a run, a result file, a column of a hand table), matched by the
//! workload they measured, each metric's value per side, its change from
//! the first side (the baseline) in percent, and whether that change is
//! beyond the noise the measurements show.
//!
//! Noise is read from repeats: two or more measurements of one workload on
//! one side give a spread (their lowest to their highest), and a change is
//! "within noise" where the two sides' spreads overlap. Where each side
//! measured the workload once there is no spread to judge by, and the
//! comparison says so instead of calling the change significant, unless
//! the comparison states a noise band of its own (`noise`, in percent), as
//! a report that knows its run-to-run noise does.
//!
//! Takes sides of measurements; hands back a [`Comparison`] that the
//! command prints (`report`) and the pages render.

pub mod report;
mod workload;

pub use workload::{workload_of, Workload};

use crate::figures;
use crate::record::{ResultRow, Run, Table};
use std::collections::HashMap;

/// Input lengths and output lengths match when within this share of the
/// baseline's: two runs of one dataset draw slightly different prompts.
pub const LENGTH_TOLERANCE: f64 = 0.10;

/// A quantity compared, and which way is better.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// The column it is read from (`output_throughput`).
    pub name: String,
    /// As a reader names it (`Output throughput`).
    pub label: String,
    /// Its unit (`tok/s`, `ms`).
    pub unit: Option<String>,
    /// Whether more is better; `None` where nobody said.
    pub higher_is_better: Option<bool>,
}

/// The metrics of the result files compared by default, in this order:
/// throughput first, then the latencies' medians and tails.
pub const RESULT_METRICS: &[(&str, &str, &str, bool)] = &[
    ("output_throughput", "Output throughput", "tok/s", true),
    ("request_throughput", "Request throughput", "req/s", true),
    ("tokens_per_s", "Tokens a second", "tok/s", true),
    ("ttft_ms_p50", "TTFT p50", "ms", false),
    ("ttft_ms_p99", "TTFT p99", "ms", false),
    ("itl_ms_p50", "ITL p50", "ms", false),
    ("itl_ms_p99", "ITL p99", "ms", false),
    ("tpot_ms_p50", "TPOT p50", "ms", false),
    ("tpot_ms_p99", "TPOT p99", "ms", false),
    ("e2el_ms_p50", "E2E latency p50", "ms", false),
    ("e2el_ms_p99", "E2E latency p99", "ms", false),
];

/// The metric of a result column, if it is one [`RESULT_METRICS`] lists.
pub fn result_metric(name: &str) -> Option<Metric> {
    RESULT_METRICS
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|(n, label, unit, higher)| Metric {
            name: n.to_string(),
            label: label.to_string(),
            unit: Some(unit.to_string()),
            higher_is_better: Some(*higher),
        })
}

/// Every metric of [`RESULT_METRICS`], in its order: what sides of result
/// rows are read with before [`keep_metrics`] narrows them.
pub fn all_metrics() -> Vec<Metric> {
    RESULT_METRICS
        .iter()
        .filter_map(|(n, ..)| result_metric(n))
        .collect()
}

/// The names of the result metrics, for a hint: `output_throughput, …`.
pub fn metric_names() -> String {
    RESULT_METRICS
        .iter()
        .map(|(n, ..)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Narrows sides read with `every` (see [`all_metrics`]) to the metrics
/// `names` (unknown names are left out; validation reports them), or,
/// when `names` is empty, to every metric some side measured.
pub fn keep_metrics(names: &[String], sides: &mut [Side], every: &[Metric]) -> Vec<Metric> {
    let keep: Vec<usize> = if names.is_empty() {
        (0..every.len())
            .filter(|&k| {
                sides
                    .iter()
                    .flat_map(|s| &s.measurements)
                    .any(|m| m.values[k].is_some())
            })
            .collect()
    } else {
        names
            .iter()
            .filter_map(|n| every.iter().position(|m| &m.name == n))
            .collect()
    };
    for side in sides.iter_mut() {
        for m in &mut side.measurements {
            m.values = keep.iter().map(|&k| m.values[k]).collect();
        }
    }
    keep.iter().map(|&k| every[k].clone()).collect()
}

/// One measurement: a workload and the value of each metric there.
#[derive(Debug, Clone)]
pub struct Measurement {
    /// What was measured.
    pub workload: Workload,
    /// The value of each metric, by the metric's index in the comparison.
    pub values: Vec<Option<f64>>,
    /// Where it was read (a result file's path, a table's row).
    pub source: String,
}

/// One side of a comparison.
#[derive(Debug, Clone)]
pub struct Side {
    /// As the comparison names it (`vLLM 0.28.0`, `xray-028: vLLM 0.28.0`).
    pub name: String,
    /// Its engine id, where known.
    pub engine: Option<String>,
    /// Its engine version, where known.
    pub version: Option<String>,
    /// Its measurements, in the order they were read.
    pub measurements: Vec<Measurement>,
}

impl Side {
    /// A side of result rows: each row one measurement of `metrics`.
    pub fn of_rows<'r>(
        name: String,
        engine: Option<String>,
        version: Option<String>,
        rows: impl IntoIterator<Item = (&'r ResultRow, String)>,
        metrics: &[Metric],
    ) -> Side {
        let measurements = rows
            .into_iter()
            .map(|(row, source)| Measurement {
                workload: workload_of(row),
                values: metrics.iter().map(|m| row.num(&m.name)).collect(),
                source,
            })
            .collect();
        Side {
            name,
            engine,
            version,
            measurements,
        }
    }
}

/// The sides of a run: one for each setup its result files measured, in
/// the order of its setups, named by the setup (after `prefix`, where the
/// sides of several runs are set together), each measurement sourced by
/// its file's path.
pub fn sides_of_run(run: &Run, prefix: &str, metrics: &[Metric]) -> Vec<Side> {
    let mut out = Vec::new();
    for (i, setup) in run.setups.iter().enumerate() {
        let rows: Vec<(&ResultRow, String)> = run
            .results
            .iter()
            .filter(|r| r.setup == Some(i))
            .flat_map(|r| {
                r.rows
                    .iter()
                    .map(move |row| (row, format!("{prefix}{}", r.path)))
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        out.push(Side::of_rows(
            format!("{prefix}{}", setup.name()),
            Some(setup.engine.clone()),
            setup.version.clone(),
            rows,
            metrics,
        ));
    }
    out
}

/// The sides of a hand table: each of `columns` a side, named by its
/// label, each row a measurement of the workload its `by` cells name (two
/// rows of one workload are repeats). The metric is the table's: the
/// compared columns' unit, titled by the table.
pub fn sides_of_table(
    table: &Table,
    by: &[String],
    columns: &[String],
    higher_is_better: Option<bool>,
    engine_names: &std::collections::BTreeMap<String, String>,
) -> (Vec<Side>, Metric) {
    let at = |name: &str| table.header.iter().position(|h| h == name);
    // Each key column: where it is, its title and its unit.
    let key_at: Vec<(usize, String, Option<&str>)> = by
        .iter()
        .filter_map(|b| {
            let k = at(b)?;
            let column = table.columns.iter().find(|c| &c.name == b);
            let title = column.map_or_else(|| b.clone(), |c| c.title(engine_names));
            Some((k, title, column.and_then(|c| c.unit.as_deref())))
        })
        .collect();
    let unit_of = |name: &str| {
        table
            .columns
            .iter()
            .find(|c| c.name == name)
            .and_then(|c| c.unit.clone())
    };
    let sides = columns
        .iter()
        .filter_map(|col| {
            let k = at(col)?;
            let name = table
                .columns
                .iter()
                .find(|c| &c.name == col)
                .map_or_else(|| col.clone(), |c| c.title(engine_names));
            let measurements = table
                .rows
                .iter()
                .enumerate()
                .filter_map(|(r, row)| {
                    let parts = key_at
                        .iter()
                        .map(|(i, title, unit)| {
                            let cell = row.get(*i).map_or("", String::as_str);
                            (title.clone(), figures::cell_text(cell, *unit).into_owned())
                        })
                        .collect();
                    let value = row
                        .get(k)
                        .and_then(|v| v.trim().parse::<f64>().ok())
                        .filter(|v| v.is_finite())?;
                    Some(Measurement {
                        workload: Workload::of_key(parts),
                        values: vec![Some(value)],
                        source: format!("{} row {}", table.file, r + 1),
                    })
                })
                .collect();
            Some(Side {
                name,
                engine: None,
                version: None,
                measurements,
            })
        })
        .collect();
    let metric = Metric {
        name: columns.first().cloned().unwrap_or_default(),
        label: table.title.clone(),
        unit: columns.first().and_then(|c| unit_of(c)),
        higher_is_better,
    };
    (sides, metric)
}

/// The measurements of one side at one workload, for one metric.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// How many measurements.
    pub n: usize,
    /// Their mean.
    pub mean: f64,
    /// The lowest.
    pub min: f64,
    /// The highest.
    pub max: f64,
}

impl Spread {
    fn of(values: &[f64]) -> Option<Spread> {
        let n = values.len();
        if n == 0 {
            return None;
        }
        let (mut min, mut max, mut sum) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
        for &v in values {
            min = min.min(v);
            max = max.max(v);
            sum += v;
        }
        Some(Spread {
            n,
            mean: sum / n as f64,
            min,
            max,
        })
    }

    /// The value as a reader gets it: the mean, and its range where
    /// there are repeats (`336.3 tok/s (330.1–340.2, 3 runs)`).
    pub fn shown(&self, unit: Option<&str>) -> String {
        let with_unit = figures::with_unit(self.mean, unit);
        if self.n < 2 {
            return with_unit;
        }
        if figures::cell(self.min, unit) == figures::cell(self.max, unit) {
            return format!("{with_unit} ({} runs, alike)", self.n);
        }
        format!(
            "{with_unit} ({}–{}, {} runs)",
            figures::cell(self.min, unit),
            figures::cell(self.max, unit),
            self.n
        )
    }
}

/// Whether a change stands out from the noise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Noise {
    /// The two sides' spreads overlap: the change may be noise.
    Within,
    /// The spreads are apart: the repeats show a change beyond the noise.
    Beyond,
    /// Inside the noise band the comparison states (in percent).
    WithinStated(f64),
    /// Outside the noise band the comparison states.
    BeyondStated(f64),
    /// One measurement each and no stated band: not tested.
    Untested,
}

impl Noise {
    /// In words, for every format.
    pub fn words(&self) -> String {
        match self {
            Noise::Within => "within noise".to_string(),
            Noise::Beyond => "beyond noise".to_string(),
            Noise::WithinStated(p) => {
                format!("within the stated noise (±{}%)", figures::number(*p))
            }
            Noise::BeyondStated(p) => {
                format!("beyond the stated noise (±{}%)", figures::number(*p))
            }
            Noise::Untested => "one measurement each: not tested against noise".to_string(),
        }
    }

    /// In a word or two, for a table's cell (`untested` is explained
    /// beside the table).
    pub fn short(&self) -> String {
        match self {
            Noise::Within => "within noise".to_string(),
            Noise::Beyond => "beyond noise".to_string(),
            Noise::WithinStated(p) => format!("within ±{}%", figures::number(*p)),
            Noise::BeyondStated(p) => format!("beyond ±{}%", figures::number(*p)),
            Noise::Untested => "untested".to_string(),
        }
    }

    /// A short name for scripts (`within`, `beyond`, `untested`).
    pub fn key(&self) -> &'static str {
        match self {
            Noise::Within | Noise::WithinStated(_) => "within",
            Noise::Beyond | Noise::BeyondStated(_) => "beyond",
            Noise::Untested => "untested",
        }
    }

    /// Whether the change may be read as real.
    pub fn stands_out(&self) -> bool {
        matches!(self, Noise::Beyond | Noise::BeyondStated(_))
    }
}

/// A side's value against the baseline's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// In percent of the baseline's mean.
    pub pct: f64,
    /// Whether it stands out from the noise.
    pub noise: Noise,
    /// Better or worse, where the metric says which way is better and the
    /// change stands out from the noise.
    pub better: Option<bool>,
}

impl Change {
    /// `+26% (better, beyond noise)`, as every format writes it.
    pub fn shown(&self) -> String {
        figures::signed_percent(self.pct)
    }

    /// `better`, `worse` or `level`, where that can be said.
    pub fn direction(&self) -> Option<&'static str> {
        match self.better {
            Some(true) => Some("better"),
            Some(false) => Some("worse"),
            None if !self.noise.stands_out() && self.noise != Noise::Untested => Some("level"),
            None => None,
        }
    }
}

/// One workload and metric: each side's value and its change.
#[derive(Debug, Clone)]
pub struct Row {
    /// The workload's index in [`Comparison::workloads`].
    pub workload: usize,
    /// The metric's index in [`Comparison::metrics`].
    pub metric: usize,
    /// Each side's measurements, by side.
    pub values: Vec<Option<Spread>>,
    /// Each side's change from the baseline (the first is always `None`).
    pub changes: Vec<Option<Change>>,
}

/// Runs set side by side.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// The sides, the baseline first.
    pub sides: Vec<SideHead>,
    /// The metrics, in the order asked.
    pub metrics: Vec<Metric>,
    /// The workloads the baseline measured that another side measured too.
    pub workloads: Vec<Workload>,
    /// Workload by workload, metric by metric, where two sides have a
    /// value.
    pub rows: Vec<Row>,
    /// For each side, its measurements that matched no workload of the
    /// baseline (or, for the baseline, no workload of any other side).
    pub unmatched: Vec<usize>,
    /// The noise band the comparison states, in percent.
    pub stated_noise: Option<f64>,
    /// For each side, the workloads it measured, each once, in the order
    /// met: what a reader needs where the sides share none.
    pub measured: Vec<Vec<String>>,
}

/// A side as the comparison heads it.
#[derive(Debug, Clone)]
pub struct SideHead {
    /// Its name.
    pub name: String,
    /// Its engine id.
    pub engine: Option<String>,
    /// Its engine version.
    pub version: Option<String>,
    /// Where its measurements were read, each once, in order.
    pub sources: Vec<String>,
}

impl Comparison {
    /// Whether any workload is common to the baseline and another side.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Whether some change is untested (one measurement each).
    pub fn has_untested(&self) -> bool {
        self.rows
            .iter()
            .flat_map(|r| r.changes.iter().flatten())
            .any(|ch| ch.noise == Noise::Untested)
    }
}

/// Sets `sides` side by side on `metrics`, the first side the baseline.
/// Linear in the measurements: workloads are found by their exact part
/// through a hash map, then by length among the few that share it.
pub fn compare(sides: &[Side], metrics: &[Metric], stated_noise: Option<f64>) -> Comparison {
    let mut workloads: Vec<Workload> = Vec::new();
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    // measured[w][side][metric]: the values of each side at workload w.
    let mut measured: Vec<Vec<Vec<Vec<f64>>>> = Vec::new();
    let mut unmatched = vec![0; sides.len()];
    // How many of the baseline's measurements each workload holds.
    let mut of_baseline: Vec<usize> = Vec::new();
    let blank = || vec![vec![Vec::new(); metrics.len()]; sides.len()];
    for (s, side) in sides.iter().enumerate() {
        for m in &side.measurements {
            let found = by_key.get(&m.workload.exact).and_then(|ws| {
                ws.iter()
                    .copied()
                    .find(|&w| workloads[w].matches(&m.workload))
            });
            let w = match found {
                Some(w) => w,
                None if s == 0 => {
                    workloads.push(m.workload.clone());
                    measured.push(blank());
                    of_baseline.push(0);
                    by_key
                        .entry(m.workload.exact.clone())
                        .or_default()
                        .push(workloads.len() - 1);
                    workloads.len() - 1
                }
                None => {
                    unmatched[s] += 1;
                    continue;
                }
            };
            if s == 0 {
                of_baseline[w] += 1;
            }
            for (k, v) in m.values.iter().enumerate() {
                if let Some(v) = v.filter(|v| v.is_finite()) {
                    measured[w][s][k].push(v);
                }
            }
        }
    }
    // Keep the workloads another side measured too.
    let mut kept = Vec::new();
    let mut rows = Vec::new();
    for (w, by_side) in measured.iter().enumerate() {
        let shared = (1..sides.len()).any(|s| by_side[s].iter().any(|v| !v.is_empty()));
        if !shared {
            unmatched[0] += of_baseline[w];
            continue;
        }
        let index = kept.len();
        kept.push(workloads[w].clone());
        for (k, metric) in metrics.iter().enumerate() {
            let values: Vec<Option<Spread>> = by_side.iter().map(|vs| Spread::of(&vs[k])).collect();
            if values.iter().filter(|v| v.is_some()).count() < 2 {
                continue;
            }
            let base = values[0];
            let changes = values
                .iter()
                .enumerate()
                .map(|(s, v)| match (s, base, v) {
                    (0, ..) => None,
                    (_, Some(b), Some(v)) => change(&b, v, metric, stated_noise),
                    _ => None,
                })
                .collect();
            rows.push(Row {
                workload: index,
                metric: k,
                values,
                changes,
            });
        }
    }
    let measured = sides
        .iter()
        .map(|s| {
            let mut seen = std::collections::HashSet::new();
            s.measurements
                .iter()
                .map(|m| m.workload.line())
                .filter(|l| seen.insert(l.clone()))
                .collect()
        })
        .collect();
    let sides = sides
        .iter()
        .map(|s| {
            let mut sources: Vec<String> = Vec::new();
            for m in &s.measurements {
                if !sources.contains(&m.source) {
                    sources.push(m.source.clone());
                }
            }
            SideHead {
                name: s.name.clone(),
                engine: s.engine.clone(),
                version: s.version.clone(),
                sources,
            }
        })
        .collect();
    Comparison {
        sides,
        metrics: metrics.to_vec(),
        workloads: kept,
        rows,
        unmatched,
        stated_noise,
        measured,
    }
}

/// The change of `side` from `base`, and whether it is noise.
fn change(base: &Spread, side: &Spread, metric: &Metric, stated: Option<f64>) -> Option<Change> {
    let pct = figures::change_pct(base.mean, side.mean)?;
    let overlap = base.min <= side.max && side.min <= base.max;
    let noise = if base.n >= 2 || side.n >= 2 {
        if overlap {
            Noise::Within
        } else {
            Noise::Beyond
        }
    } else if overlap {
        // One measurement each, and the same value.
        match stated {
            Some(p) => Noise::WithinStated(p),
            None => Noise::Within,
        }
    } else {
        match stated {
            Some(p) if pct.abs() <= p => Noise::WithinStated(p),
            Some(p) => Noise::BeyondStated(p),
            None => Noise::Untested,
        }
    };
    let better = metric
        .higher_is_better
        .filter(|_| noise.stands_out())
        .map(|higher| (pct > 0.0) == higher);
    Some(Change { pct, noise, better })
}

#[cfg(test)]
mod tests;
