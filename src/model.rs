//! Stage 3, model: the site graph, computed once.
//!
//! Takes validated records and works out everything pages need to look up:
//! which findings are listed (not withdrawn, not superseded, not drafts),
//! each engine's sorted versions and the state of every finding at every
//! version (the matrix), backlinks between findings, which findings cite
//! each run, and the group, tag and model indexes. Templates read these;
//! they never recompute them, so per-page work stays independent of the
//! number of findings.

mod compared;
mod trends;

pub use compared::{Compared, VersionChange, VersionRuns};
pub use trends::{
    regression_into, ChangeRef, Followed, Picked, SelectError, Selection, Trends, LATEST_CHANGES,
};

use crate::checks::{Outcome, Verdict};
use crate::record::*;
use crate::state::{resolve, Source, State};
use crate::symptoms::observed::{AtVersion, FindingObserved};
use crate::symptoms::Observation;
use crate::urls;
use crate::validate::RunVerdicts;
use crate::version::Version;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// One engine's versions and the state of every finding at each of them.
#[derive(Debug, Clone)]
pub struct EngineIndex {
    /// Index into `site.engines`.
    pub engine: usize,
    /// Known versions, ascending, one per distinct version (spelled as in
    /// `releases`, else as first seen).
    pub versions: Vec<Version>,
    /// Listed findings with an entry for this engine, by id.
    pub findings: Vec<usize>,
    /// `cells[k][j]`: the state of `findings[k]` at `versions[j]`, with
    /// what the runs on that version showed.
    pub cells: Vec<Vec<State>>,
    /// `sources[k][j]`: where `cells[k][j]` comes from.
    pub sources: Vec<Vec<Source>>,
}

/// A tag or model and the listed findings that carry it.
#[derive(Debug, Clone)]
pub struct Term {
    /// As written in the first finding that uses it.
    pub name: String,
    /// URL segment.
    pub slug: String,
    /// Listed findings, by id.
    pub findings: Vec<usize>,
}

/// A chart shown on a finding's page: (run index, chart index).
pub type ChartRef = (usize, usize);

/// The whole site, ready to render.
#[derive(Debug)]
pub struct Model {
    /// `site.yaml`.
    pub site: Site,
    /// Every built finding (drafts only with `--drafts`), by id.
    pub findings: Vec<Arc<Finding>>,
    /// Every run, by id.
    pub runs: Vec<Arc<Run>>,
    /// Finding index by id.
    pub by_id: HashMap<u32, usize>,
    /// Run index by id.
    pub run_by_id: HashMap<String, usize>,
    /// Whether each finding appears in lists and counts.
    pub listed: Vec<bool>,
    /// For each finding, the findings that link to it (by id).
    pub backlinks: Vec<Vec<usize>>,
    /// For each run, the findings that cite it (by id).
    pub citations: Vec<Vec<usize>>,
    /// For each finding, the charts its page shows.
    pub charts: Vec<Vec<ChartRef>>,
    /// For each run, the verdict of every check that applies to it
    /// (`crate::checks`), computed once.
    pub checks: Vec<Vec<Outcome>>,
    /// For each check, the findings that name it (by id).
    pub check_findings: BTreeMap<String, Vec<usize>>,
    /// For each finding, the runs its checks flagged (or that acknowledge
    /// breaking them): (run, outcome) indexes, in run order.
    pub flagged: Vec<Vec<(usize, usize)>>,
    /// For each run, what every symptom says of each of its setups
    /// (`crate::symptoms`), computed once.
    pub observations: Vec<Vec<Observation>>,
    /// For each symptom, the findings that name it (by id).
    pub symptom_findings: BTreeMap<String, Vec<usize>>,
    /// For each finding, what the runs showed of its symptoms, per engine
    /// entry and version.
    pub observed: Vec<FindingObserved>,
    /// Per engine, in `site.yaml` order.
    pub engines: Vec<EngineIndex>,
    /// Per group, in `site.yaml` order: listed findings by id.
    pub groups: Vec<Vec<usize>>,
    /// Tags, by slug.
    pub tags: BTreeMap<String, Term>,
    /// Models, by slug.
    pub models: BTreeMap<String, Term>,
    /// The comparisons `site.yaml` and the runs name, done once.
    pub comparisons: Vec<Compared>,
    /// For each run, the comparisons that read it (indexes).
    pub run_comparisons: Vec<Vec<usize>>,
    /// Per engine (as `engines`), per version: its runs and what changed
    /// since an earlier version.
    pub version_runs: Vec<Vec<VersionRuns>>,
    /// The workloads followed across versions, their points and changes,
    /// filed by engine, version and run.
    pub trends: Trends,
}

/// What validation said of a run: its checks' outcomes, its symptoms'
/// observations.
type Said = (Vec<Outcome>, Vec<Observation>);

impl Model {
    /// Builds the model. `drafts` keeps draft findings.
    pub fn build(
        site: Site,
        findings: Vec<Arc<Finding>>,
        runs: Vec<Arc<Run>>,
        drafts: bool,
    ) -> Model {
        Model::build_with(site, findings, runs, drafts, RunVerdicts::default())
    }

    /// [`Model::build`], taking over what validation worked out of every
    /// run (`said`, in the order of `runs`) instead of working it out
    /// again; where `said` does not cover the runs, it is worked out.
    pub fn build_with(
        site: Site,
        findings: Vec<Arc<Finding>>,
        runs: Vec<Arc<Run>>,
        drafts: bool,
        said: RunVerdicts,
    ) -> Model {
        let mut findings: Vec<Arc<Finding>> = findings
            .into_iter()
            .filter(|f| drafts || !f.draft)
            .map(|mut f| {
                // Field positions only serve diagnostics, which are done
                // (unless `serve` keeps the record for its next load).
                if let Some(f) = Arc::get_mut(&mut f) {
                    f.spans = Spans::default();
                }
                f
            })
            .collect();
        findings.sort_by_key(|f| f.id);
        // Each run with what validation said of it, sorted together.
        let covered = said.checks.len() == runs.len() && said.observations.len() == runs.len();
        let mut said: Vec<Option<Said>> = if covered {
            said.checks
                .into_iter()
                .zip(said.observations)
                .map(Some)
                .collect()
        } else {
            vec![None; runs.len()]
        };
        let mut runs: Vec<(Arc<Run>, Option<Said>)> = runs
            .into_iter()
            .zip(said.drain(..))
            .map(|(mut r, said)| {
                if let Some(r) = Arc::get_mut(&mut r) {
                    r.spans = Spans::default();
                }
                (r, said)
            })
            .collect();
        runs.sort_by(|a, b| a.0.id.cmp(&b.0.id));
        let (runs, said): (Vec<Arc<Run>>, Vec<_>) = runs.into_iter().unzip();
        let by_id: HashMap<u32, usize> = findings
            .iter()
            .enumerate()
            .map(|(i, f)| (f.id, i))
            .collect();
        let run_by_id: HashMap<String, usize> = runs
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id.clone(), i))
            .collect();
        let listed: Vec<bool> = findings
            .iter()
            .map(|f| f.withdrawn.is_none() && f.superseded_by.is_none())
            .collect();

        // Backlinks from `links` and from body links, each source once per target.
        let mut backlinks = vec![Vec::new(); findings.len()];
        for (i, f) in findings.iter().enumerate() {
            let body = &f.facts;
            let mut targets: Vec<usize> = f
                .links
                .iter()
                .map(|l| l.url.as_str())
                .chain(body.links.iter().map(|l| l.url.as_str()))
                .filter_map(|u| u.strip_prefix("finding:"))
                .filter_map(|n| n.split('#').next()?.parse::<u32>().ok())
                .filter_map(|id| by_id.get(&id).copied())
                .filter(|&t| t != i)
                .collect();
            targets.sort_unstable();
            targets.dedup();
            for t in targets {
                backlinks[t].push(i);
            }
        }

        let mut citations = vec![Vec::new(); runs.len()];
        let mut charts = Vec::with_capacity(findings.len());
        for (i, f) in findings.iter().enumerate() {
            let mut mine = Vec::new();
            for r in &f.runs {
                if let Some(&ri) = run_by_id.get(r) {
                    if !citations[ri].contains(&i) {
                        citations[ri].push(i);
                    }
                }
            }
            if f.charts.is_empty() {
                for r in &f.runs {
                    if let Some(&ri) = run_by_id.get(r) {
                        mine.extend((0..runs[ri].charts.len()).map(|c| (ri, c)));
                    }
                }
            } else {
                for c in &f.charts {
                    let Some((r, cid)) = c.split_once('/') else {
                        continue;
                    };
                    if let Some(&ri) = run_by_id.get(r) {
                        if let Some(ci) = runs[ri].charts.iter().position(|c| c.id == cid) {
                            mine.push((ri, ci));
                        }
                    }
                }
            }
            charts.push(mine);
        }

        let groups = site
            .groups
            .iter()
            .map(|g| {
                (0..findings.len())
                    .filter(|&i| listed[i] && findings[i].group == g.id)
                    .collect()
            })
            .collect();

        let mut tags: BTreeMap<String, Term> = BTreeMap::new();
        let mut models: BTreeMap<String, Term> = BTreeMap::new();
        for (i, f) in findings.iter().enumerate() {
            if !listed[i] {
                continue;
            }
            for (names, index) in [(&f.tags, &mut tags), (&f.models, &mut models)] {
                let mut seen = Vec::new();
                for name in names {
                    let slug = urls::segment(name);
                    if seen.contains(&slug) {
                        continue;
                    }
                    seen.push(slug.clone());
                    index
                        .entry(slug.clone())
                        .or_insert_with(|| Term {
                            name: name.clone(),
                            slug,
                            findings: Vec::new(),
                        })
                        .findings
                        .push(i);
                }
            }
        }

        // What each run says: validation's, or worked out here.
        let (checks, observations): (Vec<Vec<Outcome>>, Vec<Vec<Observation>>) = {
            use rayon::prelude::*;
            let names = site.engine_names();
            runs.par_iter()
                .zip(said)
                .map(|(r, said)| said.unwrap_or_else(|| crate::symptoms::judge(r, &names)))
                .unzip()
        };
        let mut check_findings: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, f) in findings.iter().enumerate() {
            for c in &f.checks {
                let list = check_findings.entry(c.clone()).or_default();
                if !list.contains(&i) {
                    list.push(i);
                }
            }
        }
        // From each flag to the findings that name its check: linear in
        // the flags, whatever the number of findings and runs.
        let mut flagged: Vec<Vec<(usize, usize)>> = vec![Vec::new(); findings.len()];
        for (r, outcomes) in checks.iter().enumerate() {
            for (k, o) in outcomes.iter().enumerate() {
                if matches!(o.verdict, Verdict::Flagged | Verdict::Acknowledged) {
                    for &i in check_findings.get(o.check).into_iter().flatten() {
                        flagged[i].push((r, k));
                    }
                }
            }
        }
        let mut symptom_findings: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, f) in findings.iter().enumerate() {
            for s in &f.symptoms {
                symptom_findings.entry(s.clone()).or_default().push(i);
            }
        }
        let observed = crate::symptoms::observed::by_finding(&findings, &runs, &observations);
        // The findings a comparison cites beside a side that ran fewer
        // requests than asked.
        let cited = compared::cited(&site, &findings, &listed, &check_findings);
        let comparisons = compared::named(&site, &runs, &checks, &run_by_id, &cited);
        let mut run_comparisons = vec![Vec::new(); runs.len()];
        for (c, cmp) in comparisons.iter().enumerate() {
            for &r in &cmp.runs {
                run_comparisons[r].push(c);
            }
        }
        let engines: Vec<EngineIndex> = site
            .engines
            .iter()
            .enumerate()
            .map(|(ei, e)| engine_index(ei, e, &findings, &listed, &runs, &observed))
            .collect();
        // Each engine's setups, found in one pass over the runs.
        let mut setups_of: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        for (r, run) in runs.iter().enumerate() {
            for (i, s) in run.setups.iter().enumerate() {
                setups_of.entry(s.engine.as_str()).or_default().push((r, i));
            }
        }
        let names = site.engine_names();
        let mut version_runs: Vec<Vec<VersionRuns>> = engines
            .iter()
            .map(|ix: &EngineIndex| {
                let e = &site.engines[ix.engine];
                let setups = setups_of.get(e.id.as_str()).map_or(&[][..], Vec::as_slice);
                compared::by_version(ix, e, &runs, setups, &names, &checks, &cited)
            })
            .collect();
        drop(setups_of);
        let versions: Vec<Vec<Version>> = engines.iter().map(|ix| ix.versions.clone()).collect();
        let trends = trends::build(&site, &runs, &checks, &citations, &listed, &versions);
        // What changed at a version is judged as its series judge it: one
        // change, one verdict, on the version page and the workload's.
        compared::judge_by_trends(&mut version_runs, &trends, &site);
        Model {
            trends,
            comparisons,
            run_comparisons,
            version_runs,
            site,
            findings,
            runs,
            by_id,
            run_by_id,
            listed,
            backlinks,
            citations,
            checks,
            check_findings,
            flagged,
            observations,
            symptom_findings,
            observed,
            charts,
            engines,
            groups,
            tags,
            models,
        }
    }

    /// The finding with id `id`.
    pub fn finding(&self, id: u32) -> Option<&Finding> {
        self.by_id.get(&id).map(|&i| &*self.findings[i])
    }

    /// The spelling under which `version` of `engine` has its page: the one
    /// in `releases`, else the first seen, so that `0.32` and `0.32.0` lead
    /// to the same page.
    pub fn version_page<'v>(&'v self, engine: &str, version: &'v Version) -> &'v Version {
        self.engines
            .iter()
            .find(|ix| self.site.engines[ix.engine].id == engine)
            .and_then(|ix| ix.versions.iter().find(|v| *v == version))
            .unwrap_or(version)
    }

    /// What the runs on `version` showed of finding `i`'s symptoms, under
    /// its entry `e` (an index into its `engines`).
    pub fn observed_at(&self, i: usize, e: usize, version: &Version) -> Option<&AtVersion> {
        self.observed[i]
            .iter()
            .find(|(x, _)| *x == e)
            .and_then(|(_, at)| at.get(version))
    }

    /// The state of finding `i` at `version` under its entry `e`, where it
    /// comes from, and what the runs on that version showed.
    pub fn state_at(
        &self,
        i: usize,
        e: usize,
        version: &Version,
    ) -> (State, Source, Option<&AtVersion>) {
        let entry = &self.findings[i].engines[e];
        let at = self.observed_at(i, e, version);
        let (state, source, _) =
            resolve(entry, version, at.map(AtVersion::seen).unwrap_or_default());
        (state, source, at)
    }

    /// The findings naming `check` that a verdict of it on run `r` cites:
    /// those about an engine one of the run's setups ran (by their record,
    /// [`crate::record::engines_about`], or because a run showed their
    /// problem there), and those about no engine in particular; all of them
    /// where a setup's engine is not one of the site's. Never another
    /// engine's finding offered as the reason.
    pub fn cites(&self, r: usize, check: &str) -> Vec<usize> {
        let naming = self
            .check_findings
            .get(check)
            .map_or(&[][..], Vec::as_slice);
        let engines: Vec<&str> = self.runs[r]
            .setups
            .iter()
            .map(|s| s.engine.as_str())
            .collect();
        if engines
            .iter()
            .any(|e| !self.site.engines.iter().any(|x| x.id == *e))
        {
            return naming.to_vec();
        }
        naming
            .iter()
            .copied()
            .filter(|&i| {
                let f = &self.findings[i];
                let mut about = crate::record::engines_about(&f.engines);
                // The engines a run showed its problem on.
                about.extend(self.observed[i].iter().filter_map(|(e, at)| {
                    at.values()
                        .any(|a| !a.shown.is_empty())
                        .then_some(f.engines[*e].engine.as_str())
                }));
                about.is_empty() || engines.iter().any(|e| about.contains(e))
            })
            .collect()
    }

    /// The runs whose observations are filed under finding `i` (deciding
    /// a version's state, or acknowledged by its record), each once per
    /// observation: what a page or export that lists them is also made of.
    pub fn observing_runs(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.observed[i]
            .iter()
            .flat_map(|(_, versions)| versions.values())
            .flat_map(|at| at.deciding().chain(at.acknowledged.iter().map(|&(o, _)| o)))
            .map(|(r, _)| r)
    }

    /// The observation `o` of run `r`.
    pub fn observation(&self, (r, k): (usize, usize)) -> &Observation {
        &self.observations[r][k]
    }

    /// Indexes of listed findings, by id.
    pub fn listed(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.findings.len()).filter(|&i| self.listed[i])
    }

    /// The engines the header names, as indexes into `site.engines`: those
    /// `site.yaml` chooses (`nav_engines`), in its order; else every engine
    /// when there are a handful, or the [`DEFAULT_NAV_ENGINES`] with the
    /// most listed findings, in `site.yaml`'s order. The header's Engines
    /// link leads to the rest, so no page grows with their number.
    pub fn nav_engines(&self) -> Vec<usize> {
        let engines = &self.site.engines;
        if !self.site.nav_engines.is_empty() {
            return self
                .site
                .nav_engines
                .iter()
                .filter_map(|id| engines.iter().position(|e| &e.id == id))
                .collect();
        }
        if engines.len() <= DEFAULT_NAV_ENGINES {
            return (0..engines.len()).collect();
        }
        let mut by_count: Vec<&EngineIndex> = self.engines.iter().collect();
        // Most findings first; the first listed wins a tie.
        by_count.sort_by(|a, b| {
            b.findings
                .len()
                .cmp(&a.findings.len())
                .then(a.engine.cmp(&b.engine))
        });
        let mut chosen: Vec<usize> = by_count
            .iter()
            .take(DEFAULT_NAV_ENGINES)
            .map(|ix| ix.engine)
            .collect();
        chosen.sort_unstable();
        chosen
    }
}

fn engine_index(
    ei: usize,
    engine: &Engine,
    findings: &[std::sync::Arc<Finding>],
    listed: &[bool],
    runs: &[std::sync::Arc<Run>],
    observed: &[FindingObserved],
) -> EngineIndex {
    // Distinct versions: releases first (their spelling wins), then every
    // version a finding mentions.
    let mut versions: Vec<Version> = Vec::new();
    let mut add = |v: &Version| {
        if !versions.contains(v) {
            versions.push(v.clone());
        }
    };
    engine.releases.iter().for_each(&mut add);
    let mut rows = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        for e in f.engines.iter().filter(|e| e.engine == engine.id) {
            e.versions().for_each(&mut add);
            if listed[i] && !rows.contains(&i) {
                rows.push(i);
            }
        }
    }
    // Versions measured in runs get a page too (run pages link to them).
    for run in runs {
        for s in run.setups.iter().filter(|s| s.engine == engine.id) {
            if let Some(v) = s.version.as_deref().and_then(|v| Version::parse(v).ok()) {
                add(&v);
            }
        }
    }
    versions.sort();
    let (cells, sources) = rows
        .iter()
        .map(|&i| {
            let e = findings[i]
                .engines
                .iter()
                .position(|e| e.engine == engine.id);
            let at = e.and_then(|e| observed[i].iter().find(|(x, _)| *x == e).map(|(_, at)| at));
            versions
                .iter()
                .map(|v| match e {
                    None => (State::Unknown, Source::Inferred),
                    Some(e) => {
                        let seen = at
                            .and_then(|at| at.get(v))
                            .map(AtVersion::seen)
                            .unwrap_or_default();
                        let (state, source, _) = resolve(&findings[i].engines[e], v, seen);
                        (state, source)
                    }
                })
                .unzip::<_, _, Vec<State>, Vec<Source>>()
        })
        .unzip();
    EngineIndex {
        engine: ei,
        versions,
        findings: rows,
        cells,
        sources,
    }
}
