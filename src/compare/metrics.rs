//! The quantities a comparison sets side by side, and which way each is
//! better: the one place that says so. Throughput is better higher,
//! latency lower; the metrics of result files say it in [`RESULT_METRICS`],
//! a hand table's comparison in its `better:`, else its unit does
//! ([`higher_is_better_by_unit`]). A change reads better or worse by that
//! direction ([`Direction`]), whatever the noise says of it; a change that
//! rounds to 0% as shown is the same.
//!
//! Takes metric names and units; hands back [`Metric`]s and directions.

use super::Side;
use crate::figures;

/// A quantity compared, and which way is better.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// The column it is read from (`output_throughput`).
    pub name: String,
    /// As a reader names it (`Output throughput`).
    pub label: String,
    /// Its unit (`tok/s`, `ms`).
    pub unit: Option<String>,
    /// Whether more is better.
    pub higher_is_better: bool,
}

/// The metrics of the result files compared by default, in this order:
/// throughput first, then the latencies' medians and tails. The last
/// field says whether more is better.
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

/// The column that holds the spread a tool printed of a metric, where one
/// does: llama-bench's standard deviation over its repetitions of
/// `tokens_per_s`. The comparisons and trends take it for the noise of a
/// single measurement.
pub fn spread_column(name: &str) -> Option<&'static str> {
    match name {
        "tokens_per_s" => Some("tokens_per_s_std"),
        _ => None,
    }
}

/// Which way is better for a quantity of `unit`, where the unit says it:
/// a rate (`tok/s`, `req/s`, anything a second) is better higher, a time
/// (`ms`, `s`, `us`, `µs`, `ns`) lower. `None` for any other unit (tokens,
/// bytes, a share), where the comparison must say it (`better:`).
pub fn higher_is_better_by_unit(unit: Option<&str>) -> Option<bool> {
    let u = unit?.trim().to_ascii_lowercase();
    if u.ends_with("/s") || u.ends_with("/sec") || u.ends_with(" per second") {
        return Some(true);
    }
    match u.as_str() {
        "ms" | "s" | "us" | "µs" | "ns" | "sec" | "seconds" | "milliseconds" => Some(false),
        _ => None,
    }
}

/// The metric of a result column, if it is one [`RESULT_METRICS`] lists.
pub fn result_metric(name: &str) -> Option<Metric> {
    RESULT_METRICS
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|(n, label, unit, higher)| Metric {
            name: n.to_string(),
            label: label.to_string(),
            unit: Some(unit.to_string()),
            higher_is_better: *higher,
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
            m.spreads = keep
                .iter()
                .map(|&k| m.spreads.get(k).copied().flatten())
                .collect();
        }
    }
    keep.iter().map(|&k| every[k].clone()).collect()
}

/// Which way a change goes for its metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// The way the metric is better (throughput up, latency down).
    Better,
    /// The other way.
    Worse,
    /// No change as shown: the change rounds to 0% (under 0.05% either
    /// way, see [`figures::signed_percent`]).
    Same,
}

impl Direction {
    /// The direction of a change of `pct` percent in a metric that is
    /// better higher (or lower): judged on the change as shown, so that
    /// "0%" is never called better or worse.
    pub fn of(pct: f64, higher_is_better: bool) -> Direction {
        if figures::signed_percent(pct) == "0%" {
            Direction::Same
        } else if (pct > 0.0) == higher_is_better {
            Direction::Better
        } else {
            Direction::Worse
        }
    }

    /// `better`, `worse` or `same`: the word every format writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Better => "better",
            Direction::Worse => "worse",
            Direction::Same => "same",
        }
    }
}
