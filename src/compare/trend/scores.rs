//! Accuracy scores as measurements of a trend (issue 44): each share of a
//! setup's derived table `scores` a measurement of [`score_metric`], its
//! workload the task, filter, metric, n-shot, limit and model.

use crate::compare::{Measurement, Metric};
use crate::record::Run;

/// The metric of an accuracy workload (issue 44): the `scores` table's
/// `value`, a share of the questions (0 to 1, shown in %), whose changes
/// are in points ([`crate::compare::in_points`]). Better higher unless the scores
/// say otherwise (each trend sets it from its workload's
/// [`crate::compare::ScoreOf::higher_is_better`]).
pub fn score_metric() -> Metric {
    Metric {
        name: "value".to_string(),
        label: "Score".to_string(),
        unit: Some(crate::figures::FRACTION.to_string()),
        higher_is_better: true,
    }
}

/// The measurements of setup `setup` of `run`'s derived table `scores`
/// (issue 44): each share (a score from 0 to 1) one measurement of
/// [`score_metric`], after `metrics` (its values at index
/// `metrics.len()`), its workload the task, filter, metric, n-shot,
/// limit and model, and its 95% interval's half-width as the spread its
/// tool printed: the run's own sampling noise, which widens a band of
/// noise between runs and never stands in for it.
pub(super) fn score_measurements(
    run: &Run,
    scores: &crate::record::Table,
    setup: usize,
    metrics: usize,
    hardware: Option<&str>,
) -> Vec<Measurement> {
    let name = run.setups[setup].name();
    let side =
        crate::compare::accuracy::AccuracySide::of_tables(String::new(), Some(scores), None, &name);
    if side.scores.is_empty() {
        return Vec::new();
    }
    let fact = |what: &str| {
        run.results
            .iter()
            .filter(|s| s.setup == Some(setup) || s.setup.is_none())
            .find_map(|s| s.fact(what))
            .and_then(|f| match f.number {
                Some(n) => Some(crate::figures::number(n)),
                None => f.value.clone(),
            })
    };
    let model = run.model.clone().or_else(|| fact("model"));
    let limit = fact("limit");
    let source = run
        .results
        .iter()
        .find(|s| s.setup == Some(setup))
        .map_or_else(|| run.id.clone(), |s| format!("{}/{}", run.id, s.path));
    side.scores
        .iter()
        .filter(|s| (0.0..=1.0).contains(&s.value))
        .map(|s| {
            let spread = s
                .interval()
                .map(|(lo, hi)| (s.value - lo).max(hi - s.value));
            let mut values = vec![None; metrics + 1];
            let mut spreads = vec![None; metrics + 1];
            values[metrics] = Some(s.value);
            spreads[metrics] = spread;
            Measurement {
                workload: crate::compare::workload_of_score(
                    model.as_deref(),
                    crate::compare::ScoreOf {
                        task: s.task.clone(),
                        filter: s.filter.clone(),
                        metric: s.metric.clone(),
                        n_shot: s.n_shot.map(crate::figures::number),
                        limit: limit.clone(),
                        higher_is_better: s.higher_is_better,
                    },
                    hardware,
                ),
                values,
                spreads,
                source: source.clone(),
                context: crate::compare::Context::default(),
            }
        })
        .collect()
}
