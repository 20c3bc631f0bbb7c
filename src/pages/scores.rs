//! The scores a run page leads with, when its result files are accuracy
//! evaluations (issue 44): each row of its derived table `scores` as a
//! reader wants it first (task, filter, metric, n-shot, the value, its
//! 95% interval, the questions), the interval from the tool's standard
//! error, else from the questions (a share `p` of `n`: ±1.96·√(p(1−p)/n)).
//! Empty for a run without one, whose page is as it was.

use crate::figures;
use crate::record::Run;
use serde::Serialize;

/// One score, as the run page shows it.
#[derive(Serialize)]
pub(super) struct ScoreView {
    task: String,
    filter: String,
    metric: String,
    n_shot: String,
    value: String,
    interval: String,
    n: String,
    setup: String,
}

/// The scores of `run`'s derived table `scores`, in its order.
pub(super) fn of(run: &Run) -> Vec<ScoreView> {
    let Some(t) = run
        .tables
        .iter()
        .find(|t| t.derived.as_deref() == Some("scores"))
    else {
        return Vec::new();
    };
    let col = |name: &str| t.header.iter().position(|h| h == name);
    let (task, filter, metric, n_shot, value, stderr, n, setup) = (
        col("task"),
        col("filter"),
        col("metric"),
        col("n_shot"),
        col("value"),
        col("stderr"),
        col("n"),
        col("setup"),
    );
    let cell =
        |r: &[String], c: Option<usize>| c.and_then(|c| r.get(c)).cloned().unwrap_or_default();
    let num = |r: &[String], c: Option<usize>| cell(r, c).parse::<f64>().ok();
    t.rows
        .iter()
        .filter_map(|r| {
            let v = num(r, value)?;
            let se = num(r, stderr).or_else(|| {
                let n = num(r, n).filter(|n| *n > 0.0)?;
                (0.0..=1.0).contains(&v).then(|| (v * (1.0 - v) / n).sqrt())
            });
            let interval = se.map_or_else(String::new, |se| {
                let (mut lo, mut hi) = (v - 1.96 * se, v + 1.96 * se);
                if (0.0..=1.0).contains(&v) {
                    (lo, hi) = (lo.max(0.0), hi.min(1.0));
                }
                format!("{}–{}", figures::number(lo), figures::number(hi))
            });
            Some(ScoreView {
                task: cell(r, task),
                filter: cell(r, filter),
                metric: cell(r, metric),
                n_shot: cell(r, n_shot),
                value: figures::number(v),
                interval,
                n: cell(r, n),
                setup: cell(r, setup),
            })
        })
        .collect()
}
