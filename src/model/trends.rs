//! The workloads the site follows across versions, computed once: every
//! setup of every run that result files measured, at a version of an
//! engine of the site, read as a source of the trends
//! ([`crate::compare::trend`]), each with what the checks flag of it; the
//! workloads measured on two versions or more, or by two series, each
//! with its address (`/workloads/<slug>/`) and, for each change, the
//! listed findings that cite a run of its later version. Filed by engine,
//! by engine version (the changes that end there) and by run, and the
//! latest changes beyond noise for the home page.
//!
//! A site whose runs hold no result rows pays one pass over its runs.

use crate::checks::{Outcome, Verdict};
use crate::compare::trend::{self, Kind, Trend, TrendChange};
use crate::compare::{Flag, Stated};
use crate::record::{Date, Run, Site};
use crate::version::Version;
use std::collections::HashMap;
use std::sync::Arc;

/// How many changes the home page lists, the latest first.
pub const LATEST_CHANGES: usize = 5;

/// A workload the site follows, with its address.
#[derive(Debug, Clone)]
pub struct Followed {
    /// Its address's segment: `/workloads/<slug>/`.
    pub slug: String,
    /// Its series, points and changes.
    pub trend: Trend,
    /// For each metric, for each change, the listed findings (indexes)
    /// that cite a run of its later version.
    pub cited: Vec<Vec<Vec<usize>>>,
}

impl Followed {
    /// The runs (indexes) of the points of this workload, each once,
    /// ascending.
    pub fn runs(&self, trends: &Trends) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .trend
            .sources
            .iter()
            .map(|&s| trends.sources[s].0)
            .collect();
        out.dedup();
        out
    }
}

/// A change as the pages list it: (workload, metric, change), indexes
/// into [`Trends::followed`], its trend's `metrics` and their `changes`.
pub type ChangeRef = (usize, usize, usize);

/// The trends of the site.
#[derive(Debug, Clone, Default)]
pub struct Trends {
    /// The workloads followed, in order of title.
    pub followed: Vec<Followed>,
    /// Each source of the trends: (run, setup) indexes.
    pub sources: Vec<(usize, usize)>,
    /// Per engine (in `site.yaml` order), the workloads measured on it.
    pub by_engine: Vec<Vec<usize>>,
    /// Per engine, per version of its index (as `Model::engines`), the
    /// changes that end at that version.
    pub at_version: Vec<Vec<Vec<ChangeRef>>>,
    /// Per run, the workloads it measured that the site follows.
    pub by_run: Vec<Vec<usize>>,
    /// The latest changes beyond noise (regressions and improvements),
    /// newest first, at most [`LATEST_CHANGES`].
    pub latest: Vec<ChangeRef>,
}

impl Trends {
    /// The change `c`.
    pub fn change(&self, c: ChangeRef) -> &TrendChange {
        &self.followed[c.0].trend.metrics[c.1].changes[c.2]
    }

    /// The run (index) of source `s`.
    pub fn run_of(&self, s: usize) -> usize {
        self.sources[s].0
    }
}

/// The change that makes point `i` of `mt` a regression: the change into
/// its version of its series, where the comparison judged it one
/// ([`TrendChange::kind`]), on the first of its version's points (the row
/// the workload's table writes the change on: points come by series, then
/// version), so a change is marked once. The one place the charts learn
/// which points regressed: they mark what this says, and decide nothing of
/// their own.
pub fn regression_into(mt: &trend::MetricTrend, i: usize) -> Option<&TrendChange> {
    let p = mt.points.get(i)?;
    let first = i == 0 || {
        let q = &mt.points[i - 1];
        (q.series, &q.version) != (p.series, &p.version)
    };
    if !first {
        return None;
    }
    mt.changes
        .iter()
        .find(|c| c.series == p.series && c.to == p.version && c.kind() == Kind::Regression)
}

/// The flags of setup `i` of a run whose checks said `outcomes`.
fn marks(outcomes: &[Outcome], i: usize) -> Vec<Flag> {
    let mut out: Vec<Flag> = Vec::new();
    for o in outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Flagged | Verdict::Acknowledged))
        .filter(|o| o.setups.is_empty() || o.setups.contains(&i))
    {
        if let Some(f) = Flag::of(o.check, &o.message) {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    out
}

/// The trends of `runs` (`checks`: what each run's checks said;
/// `citations`: the findings that cite each run; `listed`: which findings
/// are; `versions`: each engine's versions, as the model's indexes have
/// them).
pub(super) fn build(
    site: &Site,
    runs: &[Arc<Run>],
    checks: &[Vec<Outcome>],
    citations: &[Vec<usize>],
    listed: &[bool],
    versions: &[Vec<Version>],
) -> Trends {
    let engine_at: HashMap<&str, usize> = site
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.as_str(), i))
        .collect();
    let (sources, at) = trend::sources(site, runs, &|r, i| marks(&checks[r], i), &|e, version| {
        // The spelling of the version's page.
        versions[e]
            .iter()
            .find(|v| **v == version)
            .cloned()
            .unwrap_or(version)
    });
    // The noise the site states, rule by rule: the most specific rule
    // that names a change's engine, workload and metric.
    let bounds = |engine: &str, title: &str, metric: &str| {
        let slug = trend::slug_of(title);
        crate::record::noise_rule(&site.noise, engine, title, &slug, metric)
            .map(|r| crate::compare::noise_stated(r.bound, Stated::Site))
    };
    let all = trend::trends(&sources, &bounds);
    drop(sources);
    let followed_slugs = trend::slugs(&all);
    let mut followed: Vec<Followed> = Vec::new();
    for (t, slug) in all.into_iter().filter(Trend::followed).zip(followed_slugs) {
        let cited = t
            .metrics
            .iter()
            .map(|m| {
                m.changes
                    .iter()
                    .map(|c| {
                        let mut ids: Vec<usize> = c
                            .to_sources
                            .iter()
                            .flat_map(|&s| &citations[at[s].0])
                            .copied()
                            .filter(|&f| listed[f])
                            .collect();
                        ids.sort_unstable();
                        ids.dedup();
                        ids
                    })
                    .collect()
            })
            .collect();
        followed.push(Followed {
            slug,
            trend: t,
            cited,
        });
    }
    let mut by_engine = vec![Vec::new(); site.engines.len()];
    let mut at_version: Vec<Vec<Vec<ChangeRef>>> =
        versions.iter().map(|v| vec![Vec::new(); v.len()]).collect();
    let mut by_run = vec![Vec::new(); runs.len()];
    let mut latest: Vec<(Date, ChangeRef)> = Vec::new();
    for (w, f) in followed.iter().enumerate() {
        for s in &f.trend.series {
            if let Some(&e) = engine_at.get(s.engine.as_str()) {
                if by_engine[e].last() != Some(&w) {
                    by_engine[e].push(w);
                }
            }
        }
        for &s in &f.trend.sources {
            let r = at[s].0;
            if by_run[r].last() != Some(&w) {
                by_run[r].push(w);
            }
        }
        for (m, mt) in f.trend.metrics.iter().enumerate() {
            for (c, ch) in mt.changes.iter().enumerate() {
                let engine = &f.trend.series[ch.series].engine;
                let Some(&e) = engine_at.get(engine.as_str()) else {
                    continue;
                };
                if let Some(j) = versions[e].iter().position(|v| *v == ch.to) {
                    at_version[e][j].push((w, m, c));
                }
                if matches!(ch.kind(), Kind::Regression | Kind::Improvement) {
                    let date = ch
                        .to_sources
                        .iter()
                        .map(|&s| runs[at[s].0].date)
                        .max()
                        .unwrap_or(runs[0].date);
                    latest.push((date, (w, m, c)));
                }
            }
        }
    }
    for e in &mut by_engine {
        e.sort_unstable();
        e.dedup();
    }
    // The newest first; among changes of one day, in the order of the
    // workloads' titles and their metrics.
    latest.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    latest.truncate(LATEST_CHANGES);
    Trends {
        followed,
        sources: at,
        by_engine,
        at_version,
        by_run,
        latest: latest.into_iter().map(|(_, c)| c).collect(),
    }
}

/// What `findings trends` (and a page's selection) asks of the trends.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Only the series of this engine (an id of `site.yaml`).
    pub engine: Option<String>,
    /// Only this workload: its id (slug), else the workloads whose title
    /// holds this text, in any case.
    pub workload: Option<String>,
    /// Only points at this version or later, and changes from it on.
    pub since: Option<Version>,
}

/// A workload as selected: its index, and for each of its metrics the
/// points and changes kept (indexes), metrics with no point left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Picked {
    /// The workload, an index into [`Trends::followed`].
    pub workload: usize,
    /// (metric, points, changes), indexes into its trend.
    pub metrics: Vec<(usize, Vec<usize>, Vec<usize>)>,
}

/// Why a selection cannot be made (`findings trends` exits 2).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct SelectError {
    /// What is wrong.
    pub message: String,
    /// What to do.
    pub hint: String,
}

impl Trends {
    /// The workloads, points and changes `sel` asks for, in the order of
    /// the workloads' titles. An engine the site does not list, or a
    /// workload no id or title names, cannot be selected.
    pub fn select(&self, site: &Site, sel: &Selection) -> Result<Vec<Picked>, SelectError> {
        if let Some(e) = &sel.engine {
            if !site.engines.iter().any(|x| &x.id == e) {
                let ids: Vec<&str> = site.engines.iter().map(|x| x.id.as_str()).collect();
                return Err(SelectError {
                    message: format!("unknown engine \"{e}\""),
                    hint: format!("the engines of site.yaml: {}", ids.join(", ")),
                });
            }
        }
        let wanted: Vec<usize> = match &sel.workload {
            None => (0..self.followed.len()).collect(),
            Some(w) => {
                let exact: Vec<usize> = (0..self.followed.len())
                    .filter(|&i| self.followed[i].slug == *w)
                    .collect();
                if exact.is_empty() {
                    let low = w.to_lowercase();
                    (0..self.followed.len())
                        .filter(|&i| self.followed[i].trend.title.to_lowercase().contains(&low))
                        .collect()
                } else {
                    exact
                }
            }
        };
        if wanted.is_empty() {
            if let Some(w) = &sel.workload {
                let some: Vec<&str> = self
                    .followed
                    .iter()
                    .take(8)
                    .map(|f| f.slug.as_str())
                    .collect();
                return Err(SelectError {
                    message: format!(
                        "no workload the site follows is \"{w}\" or has it in its title"
                    ),
                    hint: if some.is_empty() {
                        "the site follows no workload yet: a workload is followed once two versions (or two engines) measured it".to_string()
                    } else {
                        format!(
                            "the workloads' ids: {}{}",
                            some.join(", "),
                            if self.followed.len() > some.len() {
                                ", …"
                            } else {
                                ""
                            }
                        )
                    },
                });
            }
        }
        let mut out = Vec::new();
        for w in wanted {
            let t = &self.followed[w].trend;
            let series_ok = |s: usize| sel.engine.as_ref().is_none_or(|e| &t.series[s].engine == e);
            let since_ok = |v: &Version| sel.since.as_ref().is_none_or(|s| v >= s);
            let mut metrics = Vec::new();
            for (m, mt) in t.metrics.iter().enumerate() {
                let points: Vec<usize> = (0..mt.points.len())
                    .filter(|&p| series_ok(mt.points[p].series) && since_ok(&mt.points[p].version))
                    .collect();
                let changes: Vec<usize> = (0..mt.changes.len())
                    .filter(|&c| series_ok(mt.changes[c].series) && since_ok(&mt.changes[c].from))
                    .collect();
                if !points.is_empty() {
                    metrics.push((m, points, changes));
                }
            }
            if !metrics.is_empty() {
                out.push(Picked {
                    workload: w,
                    metrics,
                });
            }
        }
        Ok(out)
    }

    /// The command that starts a finding about regression `c`, which no
    /// finding cites: `findings new "…" --group hidden-speed --engine E
    /// --version V` (`--group changed-answers` for an accuracy score),
    /// its title saying what got worse, where and since when.
    pub fn new_finding_command(&self, c: ChangeRef) -> String {
        let f = &self.followed[c.0];
        let mt = &f.trend.metrics[c.1];
        let ch = &mt.changes[c.2];
        let series = &f.trend.series[ch.series];
        let title = format!(
            "{} {} on {} {} against {} ({})",
            mt.metric.label,
            ch.change.shown(),
            series.engine_name,
            ch.to,
            ch.from,
            f.trend.title
        );
        let group = if crate::compare::in_points(&mt.metric) {
            "changed-answers"
        } else {
            "hidden-speed"
        };
        format!(
            "findings new {} --group {group} --engine {} --version {}",
            shell_quoted(&title),
            series.engine,
            shell_quoted(ch.to.as_str())
        )
    }
}

/// `s` as one word of a POSIX shell: as it is where it has nothing a shell
/// reads; in double quotes where it has none of `"`, `\`, `$`, `` ` `` and
/// `!`; else in single quotes (each `'` written `'\''`).
fn shell_quoted(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-+/:@".contains(c));
    if plain {
        return s.to_string();
    }
    if !s.contains(['"', '\\', '$', '`', '!']) {
        return format!("\"{s}\"");
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::shell_quoted;

    #[test]
    fn a_title_is_one_word_of_a_shell() {
        assert_eq!(shell_quoted("8577"), "8577");
        assert_eq!(shell_quoted("0.30.0"), "0.30.0");
        assert_eq!(
            shell_quoted("TPOT p99 +12% on vLLM"),
            "\"TPOT p99 +12% on vLLM\""
        );
        assert_eq!(shell_quoted("a \"b\" $c"), "'a \"b\" $c'");
        assert_eq!(shell_quoted("it's"), "\"it's\"");
        assert_eq!(shell_quoted("it's $5"), "'it'\\''s $5'");
    }
}
