//! Runs set side by side: the measurements of two or more sides (a setup
//! of a run, a result file, a column of a hand table), matched by the
//! workload they measured, each metric's value per side, its change from
//! the first side (the baseline) in percent, and whether that change is
//! beyond the noise the measurements show.
//!
//! Noise is the noise between runs (`noise.rs`): two or more measurements
//! of one workload on one side are repeats, and their range is how far
//! runs of one version differ; a comparison may state a bound of its own
//! (`noise`, in percent), as a report that knows its run-to-run noise
//! does. A tool's own spread within one run (llama-bench's `±`) only
//! widens the band. Where each side measured the workload once and no
//! bound is stated there is nothing to judge by, and the comparison says
//! so, with how large the change is, instead of calling it significant.
//! Which measurements are of one workload is decided in one place,
//! `workload.rs`.
//!
//! Every change reads better or worse by its metric's direction
//! (`metrics.rs`), whatever the noise says; beside each side's values, a
//! comparison shows what its evidence says of how the server ran
//! (`context.rs`), and marks the values of a side that ran fewer requests
//! at once than its workload asked, and the sides whose runs a check
//! flags (`flags.rs`). Every view leads with the verdict in words
//! (`verdict.rs`): how many changes are worse, better or the same, and
//! how far the noise was tested; then how the sides' servers differ and,
//! where the runs' own numbers explain why fewer requests ran than asked,
//! that explanation (`explain.rs`).
//!
//! Takes sides of measurements; hands back a [`Comparison`] that the
//! command prints (`report`) and the pages render.

pub mod accuracy;
pub mod accuracy_report;
mod context;
mod explain;
mod flags;
mod json;
mod metrics;
mod noise;
pub mod report;
pub mod trend;
pub(crate) mod verdict;
mod workload;

pub use context::{
    cited_ids, cites_for, contexts_of, Cite, Context, SideContext, Span, CONCURRENCY_CHECK,
};
pub use explain::{servers, shortfalls, Shortfall};
pub use flags::{flagged, Flag, FLAGGING_CHECKS};
pub use metrics::{
    all_metrics, higher_is_better_by_unit, keep_metrics, metric_names, result_metric,
    spread_column, Direction, Metric, RESULT_METRICS,
};
pub use noise::{
    in_points, judge, judge_by_rules, judged, stated as noise_stated, widest_repeats,
    widest_repeats_in_points, Band, Basis, Bound, Change, Evidence, Noise, Spread, Stated,
    DEFAULT_MIN_SAMPLE, DEFAULT_WINDOW, DEFAULT_Z,
};
pub use verdict::{labels, summary, title, Kind, Noun, Said, Verdict};
pub use workload::{hardware_key, model_key, workload_of, workload_of_score, ScoreOf, Workload};

use crate::figures;
use crate::record::{ResultRow, Run, Setup, Table};
use std::collections::{BTreeMap, HashMap};

/// Input lengths and output lengths match when within this share of the
/// baseline's: two runs of one dataset draw slightly different prompts.
pub const LENGTH_TOLERANCE: f64 = 0.10;

/// One measurement: a workload and the value of each metric there.
#[derive(Debug, Clone)]
pub struct Measurement {
    /// What was measured.
    pub workload: Workload,
    /// The value of each metric, by the metric's index in the comparison.
    pub values: Vec<Option<f64>>,
    /// The spread the tool printed of each value (llama-bench's standard
    /// deviation over its repetitions), by the metric's index; `None`
    /// where it printed none.
    pub spreads: Vec<Option<f64>>,
    /// Where it was read (a result file's path, a table's row).
    pub source: String,
    /// What the server side of its run recorded.
    pub context: Context,
}

impl Measurement {
    /// The measurement of a result row, of a run on `hardware` where
    /// recorded: its workload, each metric's value, and the spread the
    /// tool printed of it.
    pub fn of_row(
        row: &ResultRow,
        source: String,
        context: Context,
        metrics: &[Metric],
        hardware: Option<&str>,
    ) -> Measurement {
        Measurement {
            workload: workload_of(row, hardware),
            values: metrics.iter().map(|m| row.num(&m.name)).collect(),
            spreads: metrics
                .iter()
                .map(|m| spread_column(&m.name).and_then(|c| row.num(c)))
                .map(|s| s.filter(|s| s.is_finite() && *s >= 0.0))
                .collect(),
            source,
            context,
        }
    }
}

/// The hardware a run ran on: what `run.yaml` says, else what its result
/// files record; `None` where neither does.
pub fn hardware_of(run: &Run) -> Option<&str> {
    run.hardware.as_deref().or_else(|| {
        run.results
            .iter()
            .find_map(|r| r.fact("hardware").and_then(|f| f.value.as_deref()))
    })
}

/// One side of a comparison.
#[derive(Debug, Clone, Default)]
pub struct Side {
    /// As the comparison names it (`vLLM 0.28.0`, `xray-028: vLLM 0.28.0`).
    pub name: String,
    /// Its engine id, where known.
    pub engine: Option<String>,
    /// Its engine's name as the site spells it (`vLLM`), where known.
    pub engine_name: Option<String>,
    /// Its engine version, where known.
    pub version: Option<String>,
    /// Its measurements, in the order they were read.
    pub measurements: Vec<Measurement>,
    /// The setup of its run it was read from ([`sides_of_run`]), for the
    /// caller to attach what the run's checks flag of it.
    pub setup: Option<usize>,
    /// What the checks flag of its run ([`Flag`]).
    pub flags: Vec<Flag>,
}

impl Side {
    /// A side of result rows: each row one measurement of `metrics`, with
    /// where it was read and what its server recorded, of a run on
    /// `hardware` where recorded.
    pub fn of_rows<'r>(
        name: String,
        engine: Option<String>,
        version: Option<String>,
        rows: impl IntoIterator<Item = (&'r ResultRow, String, Context)>,
        metrics: &[Metric],
        hardware: Option<&str>,
    ) -> Side {
        let measurements = rows
            .into_iter()
            .map(|(row, source, context)| {
                Measurement::of_row(row, source, context, metrics, hardware)
            })
            .collect();
        Side {
            name,
            engine,
            version,
            measurements,
            ..Side::default()
        }
    }
}

/// The sides of a run: one for each setup its result files measured, in
/// the order of its setups, named by the setup (after `prefix`, where the
/// sides of several runs are set together): its label, else its engine's
/// name (`names`, by id) and version; each measurement sourced by its
/// file's path.
pub fn sides_of_run(
    run: &Run,
    prefix: &str,
    metrics: &[Metric],
    names: &BTreeMap<String, String>,
) -> Vec<Side> {
    let mut out = Vec::new();
    for (i, setup) in run.setups.iter().enumerate() {
        let rows: Vec<(&ResultRow, String, Context)> = run
            .results
            .iter()
            .filter(|r| r.setup == Some(i))
            .flat_map(|r| {
                r.rows
                    .iter()
                    .zip(contexts_of(r))
                    .map(move |(row, c)| (row, format!("{prefix}{}", r.path), c))
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        let (name, engine_name) = setup_name(setup, names);
        let mut side = Side::of_rows(
            format!("{prefix}{name}"),
            Some(setup.engine.clone()),
            setup.version.clone(),
            rows,
            metrics,
            hardware_of(run),
        );
        side.engine_name = engine_name;
        side.setup = Some(i);
        out.push(side);
    }
    out
}

/// A setup's name as a side: its label, else its engine's name (`names`,
/// by id) and version; and its engine's name.
fn setup_name(setup: &Setup, names: &BTreeMap<String, String>) -> (String, Option<String>) {
    let engine_name = names.get(&setup.engine).cloned();
    let name = match (&setup.label, &engine_name, &setup.version) {
        (None, Some(e), Some(v)) => format!("{e} {v}"),
        (None, Some(e), None) => e.clone(),
        _ => setup.name(),
    };
    (name, engine_name)
}

/// The accuracy sides of a run (issue 44): one for each setup with rows
/// in its derived table `scores`, named as [`sides_of_run`] names them,
/// each as a side without measurements (for the comparison's title and
/// its list of sides) and as the scores and answers
/// [`accuracy::compare`] sets side by side.
pub fn accuracy_sides_of_run(
    run: &Run,
    prefix: &str,
    names: &BTreeMap<String, String>,
) -> Vec<(Side, accuracy::AccuracySide)> {
    let table = |kind: &str| {
        run.tables
            .iter()
            .find(|t| t.derived.as_deref() == Some(kind))
    };
    let Some(scores) = table("scores") else {
        return Vec::new();
    };
    let answers = table("answers");
    let mut out = Vec::new();
    for (i, setup) in run.setups.iter().enumerate() {
        let (name, engine_name) = setup_name(setup, names);
        let name = format!("{prefix}{name}");
        let acc =
            accuracy::AccuracySide::of_tables(name.clone(), Some(scores), answers, &setup.name());
        if acc.scores.is_empty() {
            continue;
        }
        out.push((
            Side {
                name,
                engine: Some(setup.engine.clone()),
                engine_name,
                version: setup.version.clone(),
                setup: Some(i),
                ..Side::default()
            },
            acc,
        ));
    }
    out
}

/// Two sides of one name (two runs of vLLM 0.30) are told apart by their
/// place: `vLLM 0.30 (2)`.
pub fn unique_names(sides: &mut [Side]) {
    let mut count: HashMap<String, usize> = HashMap::new();
    for s in sides.iter() {
        *count.entry(s.name.clone()).or_default() += 1;
    }
    for (i, side) in sides.iter_mut().enumerate() {
        if count.get(&side.name).is_some_and(|&n| n > 1) {
            side.name = format!("{} ({})", side.name, i + 1);
        }
    }
}

/// The sides of a hand table: each of `columns` a side, named by its
/// label, each row a measurement of the workload its `by` cells name (two
/// rows of one workload are repeats). The metric is the table's: the
/// compared columns' unit, titled by the table, better higher or lower as
/// `higher_is_better` says, else as its unit does; `None` where neither
/// says (validation reports it).
pub fn sides_of_table(
    table: &Table,
    by: &[String],
    columns: &[String],
    higher_is_better: Option<bool>,
    engine_names: &BTreeMap<String, String>,
) -> Option<(Vec<Side>, Metric)> {
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
                        spreads: vec![None],
                        source: format!("{} row {}", table.file, r + 1),
                        context: Context::default(),
                    })
                })
                .collect();
            Some(Side {
                name,
                measurements,
                ..Side::default()
            })
        })
        .collect();
    let unit = columns.first().and_then(|c| unit_of(c));
    let higher_is_better =
        higher_is_better.or_else(|| higher_is_better_by_unit(unit.as_deref()))?;
    let metric = Metric {
        name: columns.first().cloned().unwrap_or_default(),
        label: table.title.clone(),
        unit,
        higher_is_better,
    };
    Some((sides, metric))
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

impl Row {
    /// How the values of the row are shown together: one scale and one
    /// precision for every side's mean and range (`316.0` beside `341.4`).
    pub fn together(&self, unit: Option<&str>) -> figures::Together {
        figures::Together::of(
            self.values
                .iter()
                .flatten()
                .flat_map(|v| [v.mean, v.min, v.max]),
            unit,
        )
    }

    /// Each side's value as shown, `None` where the side has none.
    pub fn shown(&self, unit: Option<&str>) -> Vec<Option<String>> {
        let at = self.together(unit);
        self.values
            .iter()
            .map(|v| v.map(|v| v.shown(unit, &at)))
            .collect()
    }
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
    /// For each workload, each side's context: what its evidence says of
    /// how the server ran it.
    pub contexts: Vec<Vec<SideContext>>,
    /// For each workload, where the sides were said to measure one
    /// workload (`--same-workload`): each measurement taken as it though
    /// its own workload differs, as (side, what it measured), each once.
    pub taken_as_one: Vec<Vec<(usize, String)>>,
    /// Workload by workload, metric by metric, where two sides have a
    /// value.
    pub rows: Vec<Row>,
    /// For each side, its measurements that matched no workload of the
    /// baseline (or, for the baseline, no workload of any other side).
    pub unmatched: Vec<usize>,
    /// The noise band the comparison states, in percent.
    pub stated_noise: Option<f64>,
    /// Whether the sides were said to measure one workload.
    pub same_workload: bool,
    /// For each side, the workloads it measured, each once, in the order
    /// met: what a reader needs where the sides share none.
    pub measured: Vec<Vec<String>>,
    /// The findings of [`CONCURRENCY_CHECK`], cited where a side ran fewer
    /// requests at once than asked; empty where the caller has no records.
    pub cited: Vec<Cite>,
    /// The title it stands under, where a record gives one: its verdict
    /// names the sides in the title's order.
    pub title: Option<String>,
}

/// A side as the comparison heads it.
#[derive(Debug, Clone, Default)]
pub struct SideHead {
    /// Its name.
    pub name: String,
    /// Its engine id.
    pub engine: Option<String>,
    /// Its engine's name, where known.
    pub engine_name: Option<String>,
    /// Its engine version.
    pub version: Option<String>,
    /// Where its measurements were read, each once, in order.
    pub sources: Vec<String>,
    /// What the checks flag of its runs, each once.
    pub flags: Vec<Flag>,
}

impl Comparison {
    /// Whether any workload is common to the baseline and another side.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The rows of workload `w`: the rows are in workload order, so they
    /// are found by halving, not by a pass over every row (a comparison
    /// of thousands of workloads lists each in time linear overall).
    pub fn rows_of(&self, w: usize) -> &[Row] {
        let start = self.rows.partition_point(|r| r.workload < w);
        let end = self.rows.partition_point(|r| r.workload <= w);
        &self.rows[start..end]
    }

    /// Whether some change is untested (one measurement each).
    pub fn has_untested(&self) -> bool {
        self.rows
            .iter()
            .flat_map(|r| r.changes.iter().flatten())
            .any(|ch| ch.noise == Noise::Untested)
    }

    /// Whether some workload has context to show for some side.
    pub fn has_context(&self, w: usize) -> bool {
        self.contexts[w].iter().any(|c| !c.is_empty())
    }

    /// The sides whose server ran fewer requests at once than some
    /// workload asked, each once, in order.
    pub fn ran_fewer(&self) -> Vec<usize> {
        (0..self.sides.len())
            .filter(|&s| self.contexts.iter().any(|c| c[s].ran_fewer().is_some()))
            .collect()
    }
}

/// How sides are set side by side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// A bound of noise to judge every change by, in percent: the one
    /// test where given.
    pub stated_noise: Option<f64>,
    /// Who stated it: the command (`--noise`), or the comparison's
    /// record.
    pub stated_by: Stated,
    /// The sides measured one workload, whatever their models and lengths
    /// say: measurements match on the concurrency and rate alone.
    pub same_workload: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            stated_noise: None,
            stated_by: Stated::Command,
            same_workload: false,
        }
    }
}

/// Sets `sides` side by side on `metrics`, the first side the baseline.
/// Linear in the measurements: workloads are found by their exact part
/// through a hash map, then by length among the few that share it.
pub fn compare(sides: &[Side], metrics: &[Metric], opts: Options) -> Comparison {
    let mut workloads: Vec<Workload> = Vec::new();
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    // measured[w][side][metric]: the values of each side at workload w,
    // each with the spread its tool printed.
    type Values = Vec<(f64, Option<f64>)>;
    let mut measured: Vec<Vec<Vec<Values>>> = Vec::new();
    let mut contexts: Vec<Vec<SideContext>> = Vec::new();
    let mut taken: Vec<Vec<(usize, String)>> = Vec::new();
    let mut unmatched = vec![0; sides.len()];
    // How many of the baseline's measurements each workload holds.
    let mut of_baseline: Vec<usize> = Vec::new();
    let blank = || vec![vec![Vec::new(); metrics.len()]; sides.len()];
    let key = |w: &Workload| {
        if opts.same_workload {
            w.loose.clone()
        } else {
            w.exact.clone()
        }
    };
    for (s, side) in sides.iter().enumerate() {
        for m in &side.measurements {
            let found = by_key.get(&key(&m.workload)).and_then(|ws| {
                ws.iter()
                    .copied()
                    .find(|&w| workloads[w].matches(&m.workload, opts.same_workload))
            });
            let w = match found {
                Some(w) => w,
                None if s == 0 => {
                    workloads.push(m.workload.clone());
                    measured.push(blank());
                    let asked = SideContext {
                        asked: m.workload.concurrency,
                        ..SideContext::default()
                    };
                    contexts.push(vec![asked; sides.len()]);
                    taken.push(Vec::new());
                    of_baseline.push(0);
                    by_key
                        .entry(key(&m.workload))
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
            if opts.same_workload && !workloads[w].matches(&m.workload, false) {
                let line = m.workload.line();
                if !taken[w].iter().any(|(t, l)| *t == s && *l == line) {
                    taken[w].push((s, line));
                }
            }
            contexts[w][s].add(&m.context);
            for (k, v) in m.values.iter().enumerate() {
                if let Some(v) = v.filter(|v| v.is_finite()) {
                    let spread = m.spreads.get(k).copied().flatten();
                    measured[w][s][k].push((v, spread));
                }
            }
        }
    }
    // Keep the workloads another side measured too.
    let mut kept = Vec::new();
    let (mut kept_contexts, mut kept_taken) = (Vec::new(), Vec::new());
    let mut rows = Vec::new();
    for (w, by_side) in measured.iter().enumerate() {
        let shared = (1..sides.len()).any(|s| by_side[s].iter().any(|v| !v.is_empty()));
        if !shared {
            unmatched[0] += of_baseline[w];
            continue;
        }
        let index = kept.len();
        kept.push(workloads[w].clone());
        kept_contexts.push(std::mem::take(&mut contexts[w]));
        kept_taken.push(std::mem::take(&mut taken[w]));
        for (k, metric) in metrics.iter().enumerate() {
            let values: Vec<Option<Spread>> = by_side.iter().map(|vs| Spread::of(&vs[k])).collect();
            if values.iter().filter(|v| v.is_some()).count() < 2 {
                continue;
            }
            let base = values[0];
            let bound = opts.stated_noise.map(|p| Bound::Percent(p, opts.stated_by));
            let changes = values
                .iter()
                .enumerate()
                .map(|(s, v)| match (s, base, v) {
                    (0, ..) => None,
                    (_, Some(b), Some(v)) => {
                        let evidence = Evidence {
                            bound,
                            repeats: widest_repeats([&b, v]),
                            history: &[],
                            points: false,
                        };
                        judged(&b, v, metric, &evidence)
                    }
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
            let mut seen = std::collections::HashSet::new();
            for m in &s.measurements {
                if seen.insert(m.source.as_str()) {
                    sources.push(m.source.clone());
                }
            }
            let mut flags: Vec<Flag> = Vec::new();
            for f in &s.flags {
                if !flags.contains(f) {
                    flags.push(f.clone());
                }
            }
            SideHead {
                name: s.name.clone(),
                engine: s.engine.clone(),
                engine_name: s.engine_name.clone(),
                version: s.version.clone(),
                sources,
                flags,
            }
        })
        .collect();
    Comparison {
        sides,
        metrics: metrics.to_vec(),
        workloads: kept,
        contexts: kept_contexts,
        taken_as_one: kept_taken,
        rows,
        unmatched,
        stated_noise: opts.stated_noise,
        same_workload: opts.same_workload,
        measured,
        cited: Vec::new(),
        title: None,
    }
}

#[cfg(test)]
mod tests;
