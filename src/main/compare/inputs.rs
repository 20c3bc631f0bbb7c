//! What `findings compare` reads: each input is a run of the site (its id,
//! `data/runs/<id>`), whose setups are sides, or a result file or run
//! folder read where it is, as `findings lint` reads it, which is a side
//! of its own (a pasted text of several reports, `-` for standard input
//! included, a side per report); and with `--from-issue`, the reports of a
//! GitHub issue, read as the lint reads them (against the engines of
//! `--root`'s `site.yaml`) and set as the comment that answers the issue
//! sets them (`findings::lint::change::sides`: a side per engine version
//! where they ran two or more, else per report, named by where it was
//! found, "comment 3"). The sides go
//! to `findings::compare` in the order named, the first the baseline, each
//! with what the checks flag of its run (lost requests, fewer requests
//! run at once than asked). Where the findings are at hand (the records
//! of `--root`, or a published site's, as `findings lint` gets them), a
//! side that ran fewer requests at once than asked cites those about it:
//! about its engine, or about no engine in particular.
//!
//! Takes the command's options; hands back the comparison or why there is
//! none.

use findings::audit::source::{Catalog, CatalogEngine};
use findings::checks::{self, Verdict};
use findings::compare::{self, Cite, Comparison, Metric, Options, Side};
use findings::load;
use findings::record::Run;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What `findings compare` was asked.
#[derive(Debug, Clone, Default)]
pub(crate) struct CompareOptions {
    /// Run ids, result files and run folders (`-`: standard input), the
    /// baseline first.
    pub inputs: Vec<String>,
    /// A GitHub issue whose reports are sides, after the inputs.
    pub issue: Option<PathBuf>,
    /// The metrics to compare; every one the sides measured when empty.
    pub metrics: Vec<String>,
    /// The engine, for files that do not record it.
    pub engine: Option<String>,
    /// Its version, for files that do not record it.
    pub version: Option<String>,
    /// A noise band to judge single measurements by, in percent.
    pub noise: Option<f64>,
    /// The sides measured one workload, whatever their lengths say.
    pub same_workload: bool,
    /// The site folder whose runs the ids name.
    pub root: PathBuf,
}

/// Why there is no comparison (exit status 2).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub(crate) struct CompareError {
    /// What went wrong.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

fn fail(message: String, hint: Option<&str>) -> CompareError {
    CompareError {
        message,
        hint: hint.map(str::to_string),
    }
}

/// Reads the inputs and sets their sides side by side.
pub(crate) fn compare_inputs(opts: &CompareOptions) -> Result<Comparison, CompareError> {
    // Known metrics only: a wrong name is the reader's mistake to hear of.
    if let Some(name) = opts
        .metrics
        .iter()
        .find(|n| compare::result_metric(n).is_none())
    {
        return Err(fail(
            format!("unknown metric \"{name}\""),
            Some(&format!("the metrics: {}", compare::metric_names())),
        ));
    }
    let stdin = opts.inputs.iter().filter(|i| *i == "-").count()
        + usize::from(opts.issue.as_deref().is_some_and(|p| p.as_os_str() == "-"));
    if stdin > 1 {
        return Err(fail(
            "- (standard input) is named twice; it can be read once".into(),
            None,
        ));
    }
    let every = compare::all_metrics();
    let mut sides: Vec<Side> = Vec::new();
    let several = opts.inputs.len() > 1;
    // The engines' names, where --root is a site: `vLLM 0.30.0 (live)`;
    // its engines, which an issue's texts name, and the noise it states.
    let site = load::load_site(&opts.root).0;
    let names: BTreeMap<String, String> =
        site.as_ref().map(|s| s.engine_names()).unwrap_or_default();
    let engines = site
        .as_ref()
        .map(CatalogEngine::of_site)
        .unwrap_or_default();
    let rules = site.map(|s| s.noise).unwrap_or_default();
    for input in &opts.inputs {
        let got = read_input(opts, input, &every, several, &names)?;
        if got.is_empty() {
            return Err(fail(
                format!("{input}: no result file gives it a figure to compare"),
                Some("a run made by `findings import` (or its files) has them; a run of hand tables does not"),
            ));
        }
        sides.extend(got);
    }
    if let Some(path) = &opts.issue {
        let shown = path.display().to_string();
        let read = findings::lint::read_issue_run(
            path,
            opts.engine.clone(),
            opts.version.clone(),
            &engines,
        )
        .map_err(|e| fail(e.to_string(), e.hint()))?
        .ok_or_else(|| {
                fail(
                    format!("{shown}: the issue holds no benchmark report to compare"),
                    Some("a report is what a benchmark tool prints when it ends (vllm bench serve's `Serving Benchmark Result`, trtllm-bench's `PERFORMANCE OVERVIEW`, …), pasted into the issue's body or a comment"),
                )
            })?;
        // The reports as the comment that answers the issue sets them
        // (`findings::lint::change`): a side per engine version where they
        // ran two or more, the version upgraded from the baseline.
        let mut all = read.engine_names;
        all.extend(names.clone());
        let outcomes = checks::evaluate(&read.run, &all);
        let from = read.upgraded_from.as_ref();
        sides.extend(
            findings::lint::change::sides(
                &read.run,
                &all,
                &outcomes,
                from.map(|(e, v)| (e.as_str(), v.as_str())),
                &shown,
                &every,
            )
            .into_iter()
            .map(|(side, _)| side),
        );
    }
    if sides.len() < 2 {
        let mut named: Vec<String> = opts.inputs.clone();
        named.extend(opts.issue.iter().map(|p| p.display().to_string()));
        return Err(fail(
            format!(
                "{} is one setup: a comparison needs two sides or more",
                named.join(" ")
            ),
            Some("name another run or result file to set beside it"),
        ));
    }
    compare::unique_names(&mut sides);
    let metrics = compare::keep_metrics(&opts.metrics, &mut sides, &every);
    let options = Options {
        stated_noise: opts.noise,
        same_workload: opts.same_workload,
        ..Options::default()
    };
    let mut c = compare::compare(&sides, &metrics, options);
    // The noise the site states, where the command states none.
    if opts.noise.is_none() {
        compare::judge_by_rules(&mut c, &rules);
    }
    Ok(c)
}

/// Cites, in `c`, the findings of `catalog` that name the check of a side
/// that ran fewer requests at once than asked, where a side did: those
/// about its engine or about no engine in particular
/// ([`compare::cites_for`]).
pub(crate) fn cite(c: &mut Comparison, catalog: &Catalog) {
    let mut all: Vec<Cite> = catalog
        .findings
        .iter()
        .filter(|f| f.checks.iter().any(|k| k == compare::CONCURRENCY_CHECK))
        .map(|f| Cite {
            id: f.id,
            title: f.title.clone(),
            url: Some(f.url.clone()),
            engines: Cite::engines_of(&f.entries),
        })
        .collect();
    all.sort_by_key(|f| f.id);
    c.cited = compare::cites_for(c, &all);
}

/// The sides of `run` (see [`compare::sides_of_run`]), each with what the
/// run's checks flag of it.
fn flagged_sides(
    run: &Run,
    prefix: &str,
    metrics: &[Metric],
    names: &BTreeMap<String, String>,
) -> Vec<Side> {
    let mut sides = compare::sides_of_run(run, prefix, metrics, names);
    let outcomes = checks::evaluate(run, names);
    for o in outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Flagged | Verdict::Acknowledged))
    {
        for side in &mut sides {
            side.flag(o.check, &o.message, &o.setups);
        }
    }
    sides
}

/// The sides of one input: a run of the site, or a file or run folder.
fn read_input(
    opts: &CompareOptions,
    input: &str,
    metrics: &[Metric],
    several: bool,
    names: &BTreeMap<String, String>,
) -> Result<Vec<Side>, CompareError> {
    if load::is_slug(input) {
        if let Some((run, diags)) = load::load_one_run(&opts.root, input) {
            let Some(run) = run.filter(|_| !diags.has_errors()) else {
                let first = diags.sorted().into_iter().next();
                return Err(fail(
                    first.map_or_else(
                        || format!("run {input} could not be read"),
                        |d| d.to_string(),
                    ),
                    Some("`findings check` shows every error"),
                ));
            };
            let prefix = if several && run.setups.len() > 1 {
                format!("{}: ", run.id)
            } else {
                String::new()
            };
            return Ok(flagged_sides(&run, &prefix, metrics, names));
        }
    }
    let path = Path::new(input);
    if input != "-" && !path.exists() {
        return Err(fail(
            format!(
                "{input}: no run of that id in {} and no such file or folder",
                opts.root.join("data/runs").display()
            ),
            Some("name a run by its folder under data/runs/, or a result file or run folder"),
        ));
    }
    let run = findings::lint::read_run(path, opts.engine.clone(), opts.version.clone())
        .map_err(|e| fail(e.to_string(), e.hint()))?;
    Ok(named_sides(&run, input, metrics, names))
}

/// The sides of a run read from files (`source` names them in the
/// measurements): `vLLM 0.29.0 (live)`; `SGLang (live)` where the files
/// name no version; the setup's name alone (the file's, or where its
/// report was found) where they name no engine.
fn named_sides(
    run: &Run,
    source: &str,
    metrics: &[Metric],
    names: &BTreeMap<String, String>,
) -> Vec<Side> {
    let mut sides = flagged_sides(run, "", metrics, names);
    for side in &mut sides {
        findings::lint::change::name_by_engine(side, names, source);
    }
    sides
}
