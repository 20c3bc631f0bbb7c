//! The scores a run page leads with, when its result files are accuracy
//! evaluations (issue 44): each row of its derived table `scores` as a
//! reader wants it first (task, filter, metric, n-shot, the value, its
//! 95% interval, the questions), the interval from the tool's standard
//! error, else from the questions (a share of `n`: Wilson's score interval,
//! `crate::compare::accuracy::interval_of`).
//! Empty for a run without one, whose page is as it was. Where the run has
//! two or more shares to show (several tasks, or one task under several
//! setups), they are drawn too: each score with its interval, one colour
//! per task, filter and metric, a category per setup (the accuracy chart of
//! `chart::interval`, drawn with plotters as every chart is).

use crate::chart::{self, IntervalChart, IntervalPoint, IntervalSeries};
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

/// A score as the chart takes it: its series (task, filter, metric), its
/// setup, and the share with its interval's ends.
struct Share {
    series: String,
    setup: String,
    value: f64,
    low: f64,
    high: f64,
}

/// The scores of `run`'s derived table `scores`, in its order, and their
/// chart's SVG where there are two or more shares to draw.
pub(super) fn of(run: &Run) -> (Vec<ScoreView>, Option<String>) {
    let Some(t) = run
        .tables
        .iter()
        .find(|t| t.derived.as_deref() == Some("scores"))
    else {
        return (Vec::new(), None);
    };
    let mut shares: Vec<Share> = Vec::new();
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
    let views = t
        .rows
        .iter()
        .filter_map(|r| {
            let v = num(r, value)?;
            let ends = crate::compare::accuracy::interval_of(v, num(r, stderr), num(r, n));
            let interval = ends.map_or_else(String::new, |(lo, hi)| {
                format!("{}–{}", figures::number(lo), figures::number(hi))
            });
            // Only shares are drawn (a metric such as f1 or perplexity
            // has no common axis with them); a share without an interval
            // is drawn as a point.
            if (0.0..=1.0).contains(&v) {
                let (low, high) = ends.unwrap_or((v, v));
                let name = [cell(r, task), cell(r, filter), cell(r, metric)]
                    .into_iter()
                    .filter(|x| !x.is_empty() && x != "none")
                    .collect::<Vec<_>>()
                    .join(", ");
                shares.push(Share {
                    series: name,
                    setup: cell(r, setup),
                    value: v,
                    low,
                    high,
                });
            }
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
        .collect();
    let chart = (shares.len() >= 2).then(|| chart_of(run, &shares));
    (views, chart)
}

/// The accuracy chart of a run's shares: a category per setup (in the
/// run's order), a series per task, filter and metric (in the table's).
fn chart_of(run: &Run, shares: &[Share]) -> String {
    let mut categories: Vec<String> = run.setups.iter().map(|s| s.name()).collect();
    let mut series: Vec<String> = Vec::new();
    for s in shares {
        if !categories.contains(&s.setup) {
            categories.push(s.setup.clone());
        }
        if !series.contains(&s.series) {
            series.push(s.series.clone());
        }
    }
    // Setups without a score are left out: nothing to draw there.
    categories.retain(|c| shares.iter().any(|s| &s.setup == c));
    let colors = chart::series_colors(&vec![None; series.len()]);
    let pct = |x: f64| x * 100.0;
    let points = shares
        .iter()
        .map(|s| IntervalPoint {
            series: series.iter().position(|x| x == &s.series).unwrap_or(0),
            category: categories.iter().position(|c| c == &s.setup).unwrap_or(0),
            score: pct(s.value),
            low: pct(s.low),
            high: pct(s.high),
        })
        .collect();
    let summary = format!(
        "Scores of {} by setup, each with its 95% interval: {}.",
        run.title,
        shares
            .iter()
            .map(|s| format!(
                "{} on {} {}% ({}–{}%)",
                s.series,
                s.setup,
                figures::number(pct(s.value)),
                figures::number(pct(s.low)),
                figures::number(pct(s.high))
            ))
            .collect::<Vec<_>>()
            .join("; ")
    );
    chart::interval(&IntervalChart {
        id: format!("scores-{}", run.id),
        title: "Scores with their 95% intervals".to_string(),
        x_title: "Setup".to_string(),
        y_title: "Share right (%)".to_string(),
        categories,
        series: series
            .into_iter()
            .zip(colors)
            .map(|(name, color)| IntervalSeries { name, color })
            .collect(),
        points,
        percent: true,
        summary,
    })
    .svg
}
