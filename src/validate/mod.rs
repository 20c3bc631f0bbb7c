//! Stage 2, validate: the rules that span records.
//!
//! The loader has checked each file on its own. Here the records are checked
//! against each other and against `site.yaml`: unique ids, known groups and
//! engines, coherent versions, dates in order, and every reference (runs,
//! charts, columns, `finding:`/`run:` links, site paths, fragments) resolves.
//! Every problem becomes a diagnostic; nothing stops early.
//!
//! This file runs the checks in order and holds what they share (the
//! `Ctx` of lookups, the `err` helper, the "did you mean" hints). The
//! rules themselves, one concern per file:
//!
//! - `site.rs`: the rules inside `site.yaml` (groups, engines, releases);
//! - `finding.rs`: each finding against the site, the runs and the other
//!   findings (fields, links, body links, site paths, fragments);
//! - `pages.rs`: the pages a build makes ([`Pages`], [`site_pages`]) and the
//!   aliases checked against them;
//! - `run.rs`: each run's tables and charts, read as the build will;
//! - `evidence.rs`: each run's result files against its setups and model;
//! - `verdicts.rs`: the checks on each run (`crate::checks`), their flags
//!   as warnings;
//! - `observed.rs`: what the runs show of the findings' symptoms
//!   (`crate::symptoms`) against what the findings list: contradictions
//!   as errors and warnings.

mod compare;
mod evidence;
mod finding;
mod hints;
mod observed;
mod pages;
mod run;
mod site;
mod verdicts;

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::load::Loaded;
use crate::record::*;
use finding::check_finding;
use hints::Known;
use pages::check_aliases;
use run::check_run;
use site::check_site;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

pub use pages::{site_pages, site_paths, workload_slugs, Pages, PathSet, VersionSet};

/// What every run says, as validation works it out: each run's check
/// outcomes and symptom observations, in the loaded order of the runs.
/// The model takes them over rather than working them out again.
#[derive(Default)]
pub struct RunVerdicts {
    /// Each run's outcomes of the checks (`crate::checks::evaluate`).
    pub checks: Vec<Vec<crate::checks::Outcome>>,
    /// Each run's observations of the symptoms
    /// (`crate::symptoms::observe`).
    pub observations: Vec<Vec<crate::symptoms::Observation>>,
}

/// Checks the relations between the loaded records.
pub fn validate(loaded: &Loaded) -> Diagnostics {
    validate_runs(loaded).0
}

/// [`validate`], handing on what every run says as well (empty when the
/// folder has no site file).
pub fn validate_runs(loaded: &Loaded) -> (Diagnostics, RunVerdicts) {
    let mut diags = Diagnostics::new();
    let Some(site) = &loaded.site else {
        return (diags, RunVerdicts::default());
    };
    check_site(site, &mut diags);
    let runs: HashMap<&str, &Run> = loaded.runs.iter().map(|r| (r.id.as_str(), &**r)).collect();
    let ids = first_by_id(&loaded.findings);
    // Records with errors of their own still exist: references to them are fine.
    let broken_ids: HashSet<u32> = loaded.broken_findings.iter().copied().collect();
    let broken_runs: HashSet<&str> = loaded.broken_runs.iter().map(String::as_str).collect();
    let facts: Vec<&BodyFacts> = loaded.findings.iter().map(|f| &f.facts).collect();
    let headings: Vec<HashSet<&str>> = facts
        .iter()
        .map(|f| f.heading_ids.iter().map(String::as_str).collect())
        .collect();
    let names = site.engine_names();
    // What every run says of the findings (its checks' outcomes, its
    // symptoms' observations), worked out once: the checks below, the
    // contradictions, the pages a version gets and the model read it.
    use rayon::prelude::*;
    let (checks, observations): (Vec<_>, Vec<_>) = loaded
        .runs
        .par_iter()
        .map(|r| crate::symptoms::judge(r, &names))
        .unzip();
    let seen = observed::Observed::of(loaded, observations);
    let workloads = pages::workload_slugs(site, &loaded.runs);
    let (public, with_drafts) = rayon::join(
        || {
            site_pages(
                site,
                &loaded.findings,
                &loaded.runs,
                &seen.findings,
                &workloads,
                false,
            )
        },
        || {
            site_pages(
                site,
                &loaded.findings,
                &loaded.runs,
                &seen.findings,
                &workloads,
                true,
            )
        },
    );
    let ctx = Ctx {
        findings: &loaded.findings,
        runs: &runs,
        ids: &ids,
        headings: &headings,
        groups: Known::new(site.groups.iter().map(|g| g.id.as_str())),
        engines: Known::new(site.engines.iter().map(|e| e.id.as_str())),
        run_ids: Known::new(runs.keys().copied()),
        chart_ids: loaded
            .runs
            .iter()
            .map(|r| {
                (
                    r.id.as_str(),
                    Known::new(r.charts.iter().map(|c| c.id.as_str())),
                )
            })
            .collect(),
        public: &public,
        with_drafts: &with_drafts,
        broken_ids: &broken_ids,
        broken_runs: &broken_runs,
    };

    let mut seen_ids: HashMap<u32, &Finding> = HashMap::new();
    for f in loaded.findings.iter() {
        if let Some(first) = seen_ids.get(&f.id) {
            diags.push(
                err(
                    f,
                    "id",
                    format!("id {} is already used by {}", f.id, first.path.display()),
                )
                .hint("ids are permanent and never reused; give this finding the next free number"),
            );
        } else {
            seen_ids.insert(f.id, f);
        }
    }
    // Each record's own checks, in parallel; diagnostics stay in record order.
    let per_finding: Vec<Diagnostics> = loaded
        .findings
        .par_iter()
        .enumerate()
        .map(|(i, f)| {
            let mut d = Diagnostics::new();
            check_finding(&ctx, f, facts[i], &mut d);
            d
        })
        .collect();
    per_finding.into_iter().for_each(|d| diags.extend(d));
    check_aliases(loaded, &public, &with_drafts, &mut diags);
    let colors: BTreeMap<String, String> = site
        .engines
        .iter()
        .map(|e| (e.id.clone(), e.color.clone()))
        .collect();
    let cited = verdicts::citing(&loaded.findings);
    let known: Vec<&str> = site.engines.iter().map(|e| e.id.as_str()).collect();
    let per_run: Vec<Diagnostics> = loaded
        .runs
        .par_iter()
        .zip(&checks)
        .map(|(r, outcomes)| {
            let mut d = Diagnostics::new();
            check_run(loaded, r, &colors, &names, &mut d);
            evidence::check(r, &names, &mut d);
            verdicts::check(r, outcomes, &cited, &known, &mut d);
            d
        })
        .collect();
    per_run.into_iter().for_each(|d| diags.extend(d));
    compare::check(loaded, &mut diags);
    observed::check(loaded, &seen, &names, &mut diags);
    let said = RunVerdicts {
        checks,
        observations: seen.runs,
    };
    (diags, said)
}

struct Ctx<'a> {
    findings: &'a [Arc<Finding>],
    runs: &'a HashMap<&'a str, &'a Run>,
    /// Index in `findings` of the first finding with each id.
    ids: &'a HashMap<u32, usize>,
    /// The heading ids of each body, by index in `findings`.
    headings: &'a [HashSet<&'a str>],
    /// The site's group and engine ids, the runs' ids, and each run's chart
    /// ids, for the hints of the names that are not among them.
    groups: Known<'a>,
    engines: Known<'a>,
    run_ids: Known<'a>,
    chart_ids: HashMap<&'a str, Known<'a>>,
    /// The pages of a build without drafts.
    public: &'a Pages,
    /// The pages of a build with `--drafts`.
    with_drafts: &'a Pages,
    broken_ids: &'a HashSet<u32>,
    broken_runs: &'a HashSet<&'a str>,
}

impl Ctx<'_> {
    fn finding_exists(&self, id: u32) -> bool {
        self.ids.contains_key(&id) || self.broken_ids.contains(&id)
    }

    fn run_exists(&self, id: &str) -> bool {
        self.runs.contains_key(id) || self.broken_runs.contains(id)
    }
}

fn first_by_id(findings: &[std::sync::Arc<Finding>]) -> HashMap<u32, usize> {
    let mut m = HashMap::new();
    for (i, f) in findings.iter().enumerate() {
        m.entry(f.id).or_insert(i);
    }
    m
}

fn err(f: &Finding, field: &str, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(&f.path, f.spans.get(field), msg).field(field)
}
