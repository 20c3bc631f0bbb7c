//! The comparisons of the site, computed once: those `site.yaml` and each
//! `run.yaml` name (`compare:`), and, for every engine version that result
//! files measured, what changed from the nearest earlier version that
//! measured one of the same workloads. Each side carries what the checks
//! flag of its run (lost requests, fewer requests run at once than
//! asked); a comparison where a side ran fewer requests at once than
//! asked cites the findings of the check about it: about the side's
//! engine, or about no engine in particular. A comparison whose record
//! gives no title is titled by its sides (`vLLM 0.29.0 against 0.30.0`).
//! Pages only show them.

use super::{ChangeRef, EngineIndex, Trends};
use crate::checks::{Outcome, Verdict};
use crate::compare::accuracy::{self as acc, AccuracyComparison};
use crate::compare::{self, Cite, Comparison, Options, Side};
use crate::record::{CompareOf, CompareSpec, Engine, Finding, Run, Site};
use crate::urls;
use crate::version::Version;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// A comparison a record names, done.
#[derive(Debug, Clone)]
pub struct Compared {
    /// What the record asked, its title given: the record's, else one made
    /// from the sides ([`compare::title`]).
    pub spec: CompareSpec,
    /// The run whose `run.yaml` names it; `None` for the site's.
    pub owner: Option<usize>,
    /// The runs it reads, by index.
    pub runs: Vec<usize>,
    /// The comparison.
    pub result: Comparison,
    /// Where its sides are two accuracy evaluations (issue 44) and no
    /// result file of speed: their scores and answers compared.
    pub accuracy: Option<AccuracyComparison>,
}

impl Compared {
    /// Its verdict in a line, as lists show it: the accuracy comparison's
    /// words where it is one, else [`compare::report::verdict`].
    pub fn verdict(&self) -> String {
        match &self.accuracy {
            Some(a) => a.verdict.words.clone(),
            None => compare::report::verdict(&self.result),
        }
    }
}

/// The runs of one engine version, and what changed since an earlier one.
#[derive(Debug, Clone, Default)]
pub struct VersionRuns {
    /// The runs with a setup of this version, by index.
    pub runs: Vec<usize>,
    /// What changed from the nearest earlier version that measured a
    /// workload of this one's.
    pub change: Option<VersionChange>,
}

/// What changed between two versions on the workloads both measured.
#[derive(Debug, Clone)]
pub struct VersionChange {
    /// The earlier version.
    pub earlier: Version,
    /// Its runs, by index.
    pub runs: Vec<usize>,
    /// Earlier against this version.
    pub result: Comparison,
    /// The changes of the workloads the site follows that its rows are,
    /// each once ([`judge_by_trends`]).
    pub trend_changes: Vec<ChangeRef>,
}

/// Each change of each version's comparison with the version before,
/// judged as the trends judge the same change (the noise of its series:
/// a bound the site states, repeats, the history of the versions before),
/// where the site follows its workload; and the trend changes it covers,
/// so that a version page lists each change once.
pub(super) fn judge_by_trends(version_runs: &mut [Vec<VersionRuns>], trends: &Trends, site: &Site) {
    for (e, versions) in version_runs.iter_mut().enumerate() {
        let engine = &site.engines[e].id;
        for (j, v) in versions.iter_mut().enumerate() {
            let Some(change) = v.change.as_mut() else {
                continue;
            };
            let at: &[ChangeRef] = trends
                .at_version
                .get(e)
                .and_then(|x| x.get(j))
                .map_or(&[], Vec::as_slice);
            // The trend changes that end here, by metric and place: each
            // row looks among the few of its own (linear in both).
            let mut by: std::collections::HashMap<(&str, &str), Vec<ChangeRef>> =
                std::collections::HashMap::new();
            for &(fw, m, c) in at {
                let t = &trends.followed[fw].trend;
                let tc = &t.metrics[m].changes[c];
                let series = &t.series[tc.series];
                if series.engine == *engine && tc.from == change.earlier {
                    by.entry((t.metrics[m].metric.name.as_str(), series.place_key.as_str()))
                        .or_default()
                        .push((fw, m, c));
                }
            }
            let result = &mut change.result;
            let places: Vec<String> = result.workloads.iter().map(|w| w.place()).collect();
            let mut held: std::collections::HashSet<ChangeRef> = std::collections::HashSet::new();
            for row in &mut result.rows {
                let metric = result.metrics[row.metric].name.as_str();
                let w = &result.workloads[row.workload];
                let found = by
                    .get(&(metric, places[row.workload].as_str()))
                    .and_then(|cs| {
                        cs.iter()
                            .copied()
                            .find(|&(fw, _, _)| trends.followed[fw].trend.workload.same_measure(w))
                    });
                let (Some(r), Some(Some(ch))) = (found, row.changes.get_mut(1)) else {
                    continue;
                };
                ch.noise = trends.change(r).change.noise;
                if held.insert(r) {
                    change.trend_changes.push(r);
                }
            }
        }
    }
}

/// The listed findings that name the check of a side that ran fewer
/// requests at once than asked ([`compare::CONCURRENCY_CHECK`]), by id.
pub(super) fn cited(
    site: &Site,
    findings: &[Arc<Finding>],
    listed: &[bool],
    check_findings: &BTreeMap<String, Vec<usize>>,
) -> Vec<Cite> {
    let mut out: Vec<Cite> = check_findings
        .get(compare::CONCURRENCY_CHECK)
        .into_iter()
        .flatten()
        .filter(|&&i| listed[i])
        .map(|&i| Cite {
            id: findings[i].id,
            title: findings[i].title.clone(),
            url: Some(format!("{}{}", site.base_url, urls::short(findings[i].id))),
            engines: Cite::engines_of(&findings[i].engines),
        })
        .collect();
    out.sort_by_key(|c| c.id);
    out
}

/// `result` with those of `cited` it cites ([`compare::cites_for`]).
fn with_cites(mut result: Comparison, cited: &[Cite]) -> Comparison {
    result.cited = compare::cites_for(&result, cited);
    result
}

/// Takes, into `side` (of setup `side.setup` of a run whose checks said
/// `outcomes`), what they flag of it.
fn flag(side: &mut Side, outcomes: &[Outcome]) {
    for o in outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Flagged | Verdict::Acknowledged))
    {
        side.flag(o.check, &o.message, &o.setups);
    }
}

/// The sides of run `r`, each flagged as its checks say.
fn run_sides(
    runs: &[Arc<Run>],
    checks: &[Vec<Outcome>],
    r: usize,
    prefix: &str,
    names: &BTreeMap<String, String>,
) -> Vec<Side> {
    let mut sides = compare::sides_of_run(&runs[r], prefix, &compare::all_metrics(), names);
    for side in &mut sides {
        flag(side, &checks[r]);
    }
    sides
}

/// The comparisons `site` and `runs` name, site's first, then by run
/// (`checks`: what each run's checks said).
pub(super) fn named(
    site: &Site,
    runs: &[Arc<Run>],
    checks: &[Vec<Outcome>],
    run_by_id: &HashMap<String, usize>,
    cited: &[Cite],
) -> Vec<Compared> {
    let names = site.engine_names();
    let every = compare::all_metrics();
    let mut out = Vec::new();
    let mut specs: Vec<(Option<usize>, &CompareSpec)> =
        site.compare.iter().map(|c| (None, c)).collect();
    for (r, run) in runs.iter().enumerate() {
        specs.extend(run.compare.iter().map(|c| (Some(r), c)));
    }
    for (owner, spec) in specs {
        // The accuracy sides of the runs read, where two are and no side
        // measured speed.
        let mut accuracy_sides: Vec<(Side, acc::AccuracySide)> = Vec::new();
        let (used, mut sides, metrics) = match &spec.of {
            CompareOf::Columns {
                table,
                by,
                columns,
                higher_is_better,
            } => {
                let Some(r) = owner else { continue };
                let Some(t) = runs[r].tables.iter().find(|t| &t.file == table) else {
                    continue;
                };
                // Validation reports a table whose direction nobody says.
                let Some((sides, metric)) =
                    compare::sides_of_table(t, by, columns, *higher_is_better, &names)
                else {
                    continue;
                };
                (vec![r], sides, vec![metric])
            }
            CompareOf::Setups { setups, metrics } => {
                let Some(r) = owner else { continue };
                let mut sides = run_sides(runs, checks, r, "", &names);
                accuracy_sides = compare::accuracy_sides_of_run(&runs[r], "", &names);
                if !setups.is_empty() {
                    accuracy_sides = setups
                        .iter()
                        .filter_map(|n| accuracy_sides.iter().find(|(s, _)| &s.name == n).cloned())
                        .collect();
                    // In the order named: the first is the baseline.
                    sides = setups
                        .iter()
                        .filter_map(|n| sides.iter().find(|s| &s.name == n).cloned())
                        .collect();
                }
                let metrics = compare::keep_metrics(metrics, &mut sides, &every);
                (vec![r], sides, metrics)
            }
            CompareOf::Runs { runs: ids, metrics } => {
                let used: Vec<usize> = ids
                    .iter()
                    .filter_map(|id| run_by_id.get(id).copied())
                    .collect();
                let mut sides = Vec::new();
                for &r in &used {
                    let prefix = if runs[r].setups.len() > 1 {
                        format!("{}: ", runs[r].id)
                    } else {
                        String::new()
                    };
                    sides.extend(run_sides(runs, checks, r, &prefix, &names));
                    accuracy_sides
                        .extend(compare::accuracy_sides_of_run(&runs[r], &prefix, &names));
                }
                compare::unique_names(&mut sides);
                let metrics = compare::keep_metrics(metrics, &mut sides, &every);
                (used, sides, metrics)
            }
        };
        let accuracy = (sides.is_empty() && accuracy_sides.len() == 2).then(|| {
            let (heads, mut two): (Vec<Side>, Vec<acc::AccuracySide>) =
                accuracy_sides.into_iter().unzip();
            sides = heads;
            compare::unique_names(&mut sides);
            for (s, a) in sides.iter().zip(two.iter_mut()) {
                a.name = s.name.clone();
            }
            acc::compare(&two[0], &two[1])
        });
        let opts = Options {
            stated_noise: spec.noise,
            stated_by: compare::Stated::Record,
            same_workload: false,
        };
        let mut result = with_cites(compare::compare(&sides, &metrics, opts), cited);
        if spec.noise.is_none() {
            compare::judge_by_rules(&mut result, &site.noise);
        }
        let mut spec = spec.clone();
        if spec.title.is_none() {
            spec.title = Some(compare::title(&result)).filter(|t| !t.is_empty());
        }
        result.title = spec.title.clone();
        out.push(Compared {
            spec,
            owner,
            runs: used,
            result,
            accuracy,
        });
    }
    out
}

/// For each version of `index`, its runs and what changed since the
/// nearest earlier version that measured one of its workloads. A version's
/// side is every setup of that engine and version in every run, so two
/// runs of one version are repeats of each other.
/// `setups` are this engine's, as (run, setup) indexes in run order.
pub(super) fn by_version(
    index: &EngineIndex,
    engine: &Engine,
    runs: &[Arc<Run>],
    setups: &[(usize, usize)],
    names: &BTreeMap<String, String>,
    checks: &[Vec<Outcome>],
    cited: &[Cite],
) -> Vec<VersionRuns> {
    let every = compare::all_metrics();
    let display = names
        .get(&engine.id)
        .cloned()
        .unwrap_or_else(|| engine.id.clone());
    let mut out: Vec<VersionRuns> = vec![VersionRuns::default(); index.versions.len()];
    let mut sides: Vec<Option<Side>> = vec![None; index.versions.len()];
    for &(r, i) in setups {
        let run = &runs[r];
        let setup = &run.setups[i];
        {
            let Some(v) = setup
                .version
                .as_deref()
                .and_then(|v| Version::parse(v).ok())
            else {
                continue;
            };
            let Some(j) = index.versions.iter().position(|x| *x == v) else {
                continue;
            };
            if !out[j].runs.contains(&r) {
                out[j].runs.push(r);
            }
            let rows = run
                .results
                .iter()
                .filter(|s| s.setup == Some(i))
                .flat_map(|s| {
                    s.rows
                        .iter()
                        .zip(compare::contexts_of(s))
                        .map(move |(row, c)| (row, format!("{}/{}", run.id, s.path), c))
                });
            let mut side = Side::of_rows(
                format!("{display} {}", index.versions[j].as_str()),
                Some(engine.id.clone()),
                Some(index.versions[j].as_str().to_string()),
                rows,
                &every,
                compare::hardware_of(run),
            );
            side.engine_name = Some(display.clone());
            // The flags of this setup, named by its run where the side
            // holds several.
            side.setup = Some(i);
            flag(&mut side, &checks[r]);
            side.setup = None;
            for f in &mut side.flags {
                f.message = format!("{}: {}", run.id, f.message);
            }
            match &mut sides[j] {
                Some(all) => {
                    all.measurements.extend(side.measurements);
                    for f in side.flags {
                        if !all.flags.contains(&f) {
                            all.flags.push(f);
                        }
                    }
                }
                slot => *slot = Some(side),
            }
        }
    }
    for j in 0..index.versions.len() {
        let Some(now) = sides[j].as_ref().filter(|s| !s.measurements.is_empty()) else {
            continue;
        };
        for k in (0..j).rev() {
            let Some(before) = sides[k].as_ref().filter(|s| !s.measurements.is_empty()) else {
                continue;
            };
            let mut pair = vec![before.clone(), now.clone()];
            let metrics = compare::keep_metrics(&[], &mut pair, &every);
            let result = compare::compare(&pair, &metrics, Options::default());
            if !result.is_empty() {
                out[j].change = Some(VersionChange {
                    earlier: index.versions[k].clone(),
                    runs: out[k].runs.clone(),
                    result: with_cites(result, cited),
                    trend_changes: Vec::new(),
                });
                break;
            }
        }
    }
    out
}
