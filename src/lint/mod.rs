//! `findings lint`: the findings a benchmark falls into, before it is
//! published. Reads the files a benchmark tool wrote (the formats
//! `findings import` reads, told apart by content; `inputs.rs`) as one
//! run, applies the checks (`crate::checks`) to it, and reports each flag
//! with the advice, "What to do" and permanent address of every finding
//! that names the check; then what the files observe of the findings'
//! symptoms (`crate::symptoms`), and what importing them would make of
//! each version's state (`effect.rs`). The findings come from the records
//! of a folder or from a published site's `findings.json`, as `findings
//! audit` gets them.
//!
//! A pasted text of several console reports is a setup per report, named
//! by where it was found ("notes.txt, lines 68–110"); so is every report
//! of a GitHub issue (`--from-issue`, `crate::issue`), named by its place
//! in the thread ("comment 3, second report") and linked to it. The
//! formats are `report.rs`'s, and the comment that answers an issue
//! `comment.rs`'s.
//!
//! Nothing is written: the run exists only in memory, its files read where
//! they are.

pub mod change;
pub mod cite;
pub mod comment;
pub mod effect;
mod inputs;
mod read;
pub mod report;
pub mod stated;

pub use read::{read_issue_run, read_run, IssueRun};

use crate::audit::source::{Catalog, CatalogFinding};
use crate::checks::{self, Outcome, Place, Verdict, UNKNOWN_ENGINE};
use crate::issue::IssueError;
use crate::results::{vocabulary::ResultCol, Cell, Fact, ReadError, Row};
use crate::symptoms::{self, Observation};
use inputs::{Folder, Input};
use read::{as_run, stated_parts};
use stated::{Clues, Names, Thread, Whence};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What `findings lint` was asked.
#[derive(Debug, Clone, Default)]
pub struct LintOptions {
    /// Result files and run folders; `-` reads standard input.
    pub inputs: Vec<PathBuf>,
    /// A GitHub issue (`gh issue view --json` or a webhook payload; `-`
    /// reads standard input): its reports are a run.
    pub issue: Option<PathBuf>,
    /// The engine, for files that do not record it.
    pub engine: Option<String>,
    /// Its version, for files that do not record it.
    pub version: Option<String>,
}

/// What the lint found: one run, or one per run folder found under a
/// folder of run folders.
#[derive(Debug, Clone)]
pub struct Lint {
    /// The runs linted, in the order of the inputs (the files and run
    /// folders named together first, then each run folder found); none
    /// for an issue that holds no report.
    pub runs: Vec<LintRun>,
    /// For each check, the findings that name it.
    pub findings: BTreeMap<String, Vec<CatalogFinding>>,
    /// For each symptom, the findings that name it.
    pub symptom_findings: BTreeMap<String, Vec<CatalogFinding>>,
    /// The engines' names, by id: the site's, and those the reports name
    /// that the site does not have (`llama.cpp`).
    pub engine_names: BTreeMap<String, String>,
    /// The ids of the site's engines.
    pub site_engines: Vec<String>,
    /// Where the findings came from, in words.
    pub source: String,
    /// Files of a folder of run folders that lie outside every run folder
    /// (start-up logs kept beside the runs, an index): not linted.
    pub skipped: Vec<PathBuf>,
    /// The issue read with `--from-issue`.
    pub issue: Option<IssueRead>,
    /// The site's title.
    pub title: String,
    /// Where the site is published (`base_url`): the findings' addresses
    /// start with it.
    pub base_url: String,
    /// The findings that apply at each engine version the runs ran on, as
    /// `findings audit` lists them, in the order of the setups.
    pub versions: Vec<cite::AtVersion>,
}

/// What was read of an issue.
#[derive(Debug, Clone)]
pub struct IssueRead {
    /// The payload, as given.
    pub path: PathBuf,
    /// The issue's address, where the payload gives it.
    pub url: Option<String>,
    /// What was read, in words: "the issue body and its 4 comments".
    pub read: String,
}

/// One run the lint read: the files named together on the command line,
/// a run folder found under a folder given, or an issue's reports.
#[derive(Debug, Clone)]
pub struct LintRun {
    /// The run folder found, or `None` for the inputs named together.
    pub folder: Option<PathBuf>,
    /// Whether its setups are the reports of an issue.
    pub from_issue: bool,
    /// Each input as the run names it (`raw/<name>`), with its path.
    pub inputs: Vec<(String, PathBuf)>,
    /// Every check that applies, with its verdict.
    pub outcomes: Vec<Outcome>,
    /// What the symptoms the findings name say of each setup.
    pub observations: Vec<Observation>,
    /// The run's setups, in its order: one per input, or per report of a
    /// pasted text of several.
    pub setups: Vec<LintSetup>,
    /// For an issue's reports, the change between those of one workload
    /// (`change.rs`), where two share one.
    pub change: Option<change::Change>,
}

/// One setup of a linted run, and what it was read from.
#[derive(Debug, Clone)]
pub struct LintSetup {
    /// Its engine's id, as the files or options give it ([`UNKNOWN_ENGINE`]
    /// where neither does).
    pub engine: String,
    /// Its version, as the files or options give it.
    pub version: Option<String>,
    /// Where its engine was read (`None` where none was).
    pub engine_from: Option<Whence>,
    /// Where its version was read.
    pub version_from: Option<Whence>,
    /// Its name in the run and in messages: the file's name, or where its
    /// report was found ("notes.txt, lines 68–110", "comment 3").
    pub name: String,
    /// The index of its input in [`LintRun::inputs`].
    pub input: usize,
    /// Its report's first and last lines in a pasted text.
    pub lines: Option<(usize, usize)>,
    /// The address of the issue's text it was found in.
    pub url: Option<String>,
    /// The tool that wrote it.
    pub tool: Option<&'static str>,
    /// What its files (its report) say.
    pub facts: Vec<Fact>,
    /// Its rows of `results`.
    pub results: Vec<Row<ResultCol>>,
}

impl LintSetup {
    /// The first value of fact `name`, as text.
    pub fn fact(&self, name: &str) -> Option<String> {
        self.facts
            .iter()
            .find(|f| f.name == name)
            .and_then(|f| f.value.as_ref())
            .map(Cell::csv)
    }

    /// Whether its engine is one the files or options named.
    pub fn engine_known(&self) -> bool {
        self.engine != UNKNOWN_ENGINE
    }
}

impl Lint {
    /// The flags of every run.
    pub fn flags(&self) -> impl Iterator<Item = (&LintRun, &Outcome)> {
        self.runs
            .iter()
            .flat_map(|r| r.flags().map(move |o| (r, o)))
    }

    /// 1 when a check flags, else 0.
    pub fn exit_status(&self) -> u8 {
        u8::from(self.flags().next().is_some())
    }

    /// The findings that name the check of `o`, about the engine of a
    /// setup it is about (of the run's setups, for a verdict on the run as
    /// a whole), or about none ([`cite::cites`]).
    pub fn cited<'l>(&'l self, run: &LintRun, o: &Outcome) -> Vec<&'l CatalogFinding> {
        let engines: Vec<&str> = if o.setups.is_empty() {
            run.setups.iter().map(|s| s.engine.as_str()).collect()
        } else {
            o.setups
                .iter()
                .filter_map(|&i| run.setups.get(i))
                .map(|s| s.engine.as_str())
                .collect()
        };
        self.findings
            .get(o.check)
            .into_iter()
            .flatten()
            .filter(|f| cite::cites(f, engines.iter().copied()))
            .collect()
    }
}

/// Where a flag points: a line of an input, or a report of an issue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spot {
    /// An input file (or `-`), at a line.
    File(PathBuf, usize),
    /// A report of an issue: its setup's name and its address.
    Report(String, Option<String>),
}

impl std::fmt::Display for Spot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Spot::File(path, line) => write!(f, "{}:{line}", path.display()),
            Spot::Report(name, Some(url)) => write!(f, "{name} ({url})"),
            Spot::Report(name, None) => write!(f, "{name}"),
        }
    }
}

impl LintRun {
    /// The flags: checks the files fall into.
    pub fn flags(&self) -> impl Iterator<Item = &Outcome> {
        self.outcomes
            .iter()
            .filter(|o| o.verdict == Verdict::Flagged)
    }

    /// The run as a heading names it: its folder, or the inputs.
    pub fn name(&self) -> String {
        match &self.folder {
            Some(f) => f.display().to_string(),
            None => {
                let mut paths: Vec<String> = Vec::new();
                for (_, p) in &self.inputs {
                    let p = p.display().to_string();
                    if !paths.contains(&p) {
                        paths.push(p);
                    }
                }
                paths.join(" ")
            }
        }
    }

    /// Where a flag points: the report it is about, where it is one of a
    /// pasted text (at the report's first line, or, in an issue, the
    /// report and its address); else the file of its evidence, at the line
    /// of the key it read where the file has it, else the first input at
    /// its first line.
    pub fn place(&self, o: &Outcome) -> Spot {
        // The setup the flag is about: the first it names, or the one of
        // the result entry its evidence is in (an entry per setup).
        let about = o.setups.first().copied().or(match &o.at {
            Place::File { entry, .. } => Some(*entry),
            _ => None,
        });
        if let Some(s) = about.and_then(|i| self.setups.get(i)) {
            if self.from_issue {
                return Spot::Report(s.name.clone(), s.url.clone());
            }
            if let Some((first, _)) = s.lines {
                return Spot::File(self.inputs[s.input].1.clone(), first);
            }
        }
        if self.from_issue {
            // A flag about the run as a whole: the issue.
            return match self.setups.first() {
                Some(s) => Spot::Report(s.name.clone(), s.url.clone()),
                None => Spot::Report("the issue".into(), None),
            };
        }
        let (name, key) = match &o.at {
            Place::File { path, .. } => (path.as_str(), key_of(o.check)),
            _ => (
                self.inputs.first().map_or("", |i| i.0.as_str()),
                key_of(o.check),
            ),
        };
        let path = self
            .inputs
            .iter()
            .find_map(|(entry, real)| {
                if name == entry {
                    Some(real.clone())
                } else {
                    name.strip_prefix(&format!("{entry}/"))
                        .map(|rest| real.join(rest))
                }
            })
            .unwrap_or_else(|| PathBuf::from(name));
        let first_line = self
            .setups
            .iter()
            .find(|s| self.inputs.get(s.input).is_some_and(|i| i.1 == path))
            .and_then(|s| s.lines)
            .map_or(1, |l| l.0);
        let line = key
            .filter(|_| !inputs::is_stdin(&path))
            .and_then(|k| {
                let text = std::fs::read_to_string(&path).ok()?;
                text.lines()
                    .position(|l| l.contains(&format!("\"{k}\"")))
                    .map(|i| i + 1)
            })
            .unwrap_or(first_line);
        Spot::File(path, line)
    }
}

/// The key of a result file a check's flag is about, to point at its line.
fn key_of(check: &str) -> Option<&'static str> {
    match check {
        "concurrency-achieved" => Some("max_concurrency"),
        "no-lost-requests" => Some("failed"),
        "one-client" => Some("backend"),
        _ => None,
    }
}

/// Why a lint could not be done (exit status 2).
#[derive(Debug, thiserror::Error)]
pub enum LintError {
    /// A wrong request.
    #[error("{0}")]
    Usage(String),
    /// An input that cannot be read as result files.
    #[error("{0}")]
    Read(#[from] ReadError),
    /// A payload that is not a GitHub issue.
    #[error("{0}")]
    Issue(#[from] IssueError),
    /// A file that could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

impl LintError {
    /// What to do about it, where there is something to say.
    pub fn hint(&self) -> Option<&str> {
        match self {
            LintError::Issue(e) => e.hint.as_deref(),
            _ => None,
        }
    }
}

/// Reads `opts.inputs` (and `opts.issue`) and applies the checks, with the
/// findings of `catalog`. The files and run folders named are one run (a
/// setup each, so that checks comparing setups see them together, and a
/// setup per report of a paste of several); a folder holding run folders
/// rather than result files is searched, and each run folder under it is
/// linted as a run of its own; an issue's reports are a run.
pub fn lint(opts: &LintOptions, catalog: &Catalog) -> Result<Lint, LintError> {
    if opts.inputs.is_empty() && opts.issue.is_none() {
        return Err(LintError::Usage(
            "name the result files (or run folders) to lint, - for standard input, or --from-issue FILE".into(),
        ));
    }
    if !catalog
        .findings
        .iter()
        .any(|f| !f.checks.is_empty() || !f.symptoms.is_empty())
    {
        return Err(LintError::Usage(format!(
            "no finding of {} names a check or a symptom, so there is nothing to lint against (a findings.json published before checks were carries none: build the site again)",
            catalog.source
        )));
    }
    let stdin_named = opts.inputs.iter().filter(|p| inputs::is_stdin(p)).count()
        + usize::from(opts.issue.as_deref().is_some_and(inputs::is_stdin));
    if stdin_named > 1 {
        return Err(LintError::Usage(
            "- (standard input) is named twice; it can be read once".into(),
        ));
    }
    let mut together = Vec::new();
    let mut found: Vec<(PathBuf, Input)> = Vec::new();
    let mut skipped = Vec::new();
    for path in &opts.inputs {
        if inputs::is_stdin(path) {
            together.push(inputs::stdin_input()?);
            continue;
        }
        let meta = std::fs::metadata(path).map_err(|source| LintError::Io {
            path: path.clone(),
            source,
        })?;
        if !meta.is_dir() {
            together.push(inputs::file_input(path)?);
            continue;
        }
        let folder = Folder::open(path)?;
        if folder.dirs.is_empty() || folder.holds_a_load() {
            together.push(inputs::folder_input(path, folder)?);
        } else {
            inputs::search(folder, &mut found, &mut skipped)?;
        }
    }
    let issue = match &opts.issue {
        Some(path) => Some((path.clone(), inputs::issue_inputs(path)?)),
        None => None,
    };
    let names = Names::new(
        &catalog.engines,
        issue.as_ref().and_then(|(_, (i, _))| i.url.as_deref()),
    );
    let issue_texts = issue
        .as_ref()
        .map(|(_, (i, _))| stated::issue_texts(&names, i))
        .unwrap_or_default();
    let title = issue
        .as_ref()
        .and_then(|(_, (i, _))| i.title.clone())
        .unwrap_or_default();
    let thread = Thread::new(&issue_texts, &names, &title);
    if together.is_empty() && found.is_empty() && issue.is_none() {
        return Err(LintError::Usage(format!(
            "no run folder under {}: a run folder holds the files a benchmark wrote (a client's result file, inferlint's snapshots and series)",
            opts.inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let mut engine_names: BTreeMap<String, String> = catalog
        .engines
        .iter()
        .map(|e| (e.id.clone(), e.name.clone()))
        .collect();
    // An engine the site does not have is named as its report names it
    // (`llama.cpp`, whose id is `llama-cpp`).
    let every_input = together
        .iter()
        .chain(found.iter().map(|(_, i)| i))
        .chain(issue.iter().flat_map(|(_, (_, texts))| texts));
    let reported = read::reported_names(every_input, &engine_names);
    engine_names.extend(reported);
    let mut findings: BTreeMap<String, Vec<CatalogFinding>> = BTreeMap::new();
    let mut symptom_findings: BTreeMap<String, Vec<CatalogFinding>> = BTreeMap::new();
    for f in &catalog.findings {
        for c in &f.checks {
            findings.entry(c.clone()).or_default().push(f.clone());
        }
        for s in &f.symptoms {
            symptom_findings
                .entry(s.clone())
                .or_default()
                .push(f.clone());
        }
    }
    let named = Named {
        engines: &engine_names,
        checks: &findings,
        symptoms: &symptom_findings,
        names: &names,
    };
    let mut runs = Vec::new();
    if !together.is_empty() {
        runs.push(lint_run(
            opts,
            None,
            false,
            together,
            &named,
            (&[], &Thread::default()),
        )?);
    }
    for (folder, input) in found {
        runs.push(lint_run(
            opts,
            Some(folder),
            false,
            vec![input],
            &named,
            (&[], &Thread::default()),
        )?);
    }
    let issue = match issue {
        Some((path, (read, texts))) => {
            if !texts.is_empty() {
                runs.push(lint_run(
                    opts,
                    None,
                    true,
                    texts,
                    &named,
                    (&issue_texts, &thread),
                )?);
            }
            Some(IssueRead {
                path,
                url: read.url.clone(),
                read: read.read_what(),
            })
        }
        None => None,
    };
    let setups: Vec<&LintSetup> = runs.iter().flat_map(|r| &r.setups).collect();
    // The versions the issue's title names are the issue's too: of the
    // engine its reports ran (where one), else its repository's.
    let issue_engine = issue_engine(runs.iter().filter(|r| r.from_issue), &names);
    let named_versions = names.issue_versions(&thread, issue_engine.as_deref());
    let versions = cite::at_versions(catalog, &setups, &named_versions);
    Ok(Lint {
        runs,
        findings,
        symptom_findings,
        engine_names,
        site_engines: catalog.engines.iter().map(|e| e.id.clone()).collect(),
        source: catalog.source.clone(),
        skipped,
        issue,
        title: catalog.title.clone(),
        base_url: catalog.base_url.clone(),
        versions,
    })
}

/// What the lint looks things up in: the engines' names, the findings
/// that name each check and each symptom, and the names texts give the
/// engines by.
struct Named<'a> {
    engines: &'a BTreeMap<String, String>,
    checks: &'a BTreeMap<String, Vec<CatalogFinding>>,
    symptoms: &'a BTreeMap<String, Vec<CatalogFinding>>,
    names: &'a Names<'a>,
}

/// The inputs as one run, the verdicts on it of the checks the findings
/// name, and what the symptoms they name say of it.
fn lint_run(
    opts: &LintOptions,
    folder: Option<PathBuf>,
    from_issue: bool,
    inputs: Vec<Input>,
    named: &Named<'_>,
    issue: (&[Clues], &Thread),
) -> Result<LintRun, LintError> {
    let mut seen = std::collections::BTreeSet::new();
    for i in &inputs {
        if !seen.insert(i.entry.as_str()) {
            return Err(LintError::Usage(format!(
                "two inputs are named {}; rename one",
                inputs::label(&i.entry)
            )));
        }
    }
    let stated = stated_parts(opts, &inputs, named.names, issue);
    let run = as_run(&inputs, &stated)?;
    // Which setups are reports a tool printed, pasted as text.
    let pasted: Vec<bool> = inputs
        .iter()
        .flat_map(|i| &i.parts)
        .map(|p| p.lines.is_some())
        .collect();
    // The checks the findings name: their advice is what a flag reports.
    let mut outcomes: Vec<Outcome> = checks::evaluate(&run, named.engines)
        .into_iter()
        .filter(|o| named.checks.contains_key(o.check))
        .collect();
    for o in &mut outcomes {
        unknowable_in_a_paste(o, &pasted);
    }
    let observations = symptoms::observe(&run, named.engines)
        .into_iter()
        .filter(|o| named.symptoms.contains_key(o.symptom))
        .collect();
    let mut setups = Vec::new();
    let mut listed = Vec::new();
    let mut stated = stated.into_iter();
    for (k, input) in inputs.into_iter().enumerate() {
        for part in input.parts {
            let s = run.setups.get(setups.len());
            let said = stated.next().unwrap_or_default();
            let version = s.and_then(|s| s.version.clone());
            setups.push(LintSetup {
                engine: s.map_or_else(|| UNKNOWN_ENGINE.to_string(), |s| s.engine.clone()),
                engine_from: said
                    .engine
                    .filter(|_| s.is_some_and(|s| s.engine != UNKNOWN_ENGINE))
                    .map(|e| e.whence),
                version_from: said.version.filter(|_| version.is_some()).map(|v| v.whence),
                version,
                name: part.label,
                input: k,
                lines: part.lines,
                url: part.url,
                tool: part.tool,
                facts: part.facts,
                results: part.results,
            });
        }
        listed.push((input.entry, input.path));
    }
    // The change between the issue's reports of one workload, as
    // `findings compare --from-issue` says it.
    let change = if from_issue {
        let (_, thread) = issue;
        let from = setups.iter().filter(|s| s.engine_known()).find_map(|s| {
            Some((
                s.engine.clone(),
                named.names.upgraded_from(thread, &s.engine)?,
            ))
        });
        let source = listed
            .first()
            .map(|(_, p)| p.display().to_string())
            .unwrap_or_default();
        change::between(
            &run,
            named.engines,
            &outcomes,
            from.as_ref().map(|(e, v)| (e.as_str(), v.as_str())),
            &source,
        )
    } else {
        None
    };
    Ok(LintRun {
        folder,
        from_issue,
        inputs: listed,
        outcomes,
        observations,
        setups,
        change,
    })
}

/// A flag of what the setups do not record (`flags_what_is_missing`:
/// no count of preemptions, no KV cache size) about reports pasted as
/// text alone, made "cannot tell": a client's console report cannot hold
/// the server's count, so its lack says nothing of the report; it is
/// not a flag, and the lint does not fail on it. Files and run folders,
/// which could hold it, keep the flag.
fn unknowable_in_a_paste(o: &mut Outcome, pasted: &[bool]) {
    let missing = checks::check(o.check).is_some_and(|c| c.flags_what_is_missing);
    let all_pasted = !o.setups.is_empty()
        && o.setups
            .iter()
            .all(|&i| pasted.get(i).copied().unwrap_or(false));
    if o.verdict == Verdict::Flagged && missing && all_pasted {
        o.verdict = Verdict::CannotTell;
        o.message = format!(
            "cannot tell: {}; a client's report pasted as text cannot hold what only the server records",
            o.message
        );
    }
}

/// The engine an issue is about, by id: the one every report of it ran
/// (that the lint knows), else the engine of its repository.
fn issue_engine<'r>(runs: impl Iterator<Item = &'r LintRun>, names: &Names<'_>) -> Option<String> {
    let mut engines: Vec<&str> = runs
        .flat_map(|r| &r.setups)
        .filter(|s| s.engine_known())
        .map(|s| s.engine.as_str())
        .collect();
    engines.sort_unstable();
    engines.dedup();
    match engines.as_slice() {
        [one] => Some((*one).to_string()),
        _ => names.repo_engine().map(str::to_string),
    }
}
