//! The inputs as a run, as the lint reads them: what each part (a result
//! file, a run folder, a report of a pasted text or of an issue) ran on
//! (`super::stated`, each report's heading read from the lines above
//! it), and the run in memory that `load` makes of them, a setup per
//! part. `findings compare` reads files and an issue's reports the same
//! way ([`read_run`], [`read_issue_run`]).

use super::inputs::{self, Folder, Input, Owned};
use super::stated::{self, Clues, Names, Stated, Thread};
use super::{LintError, LintOptions};
use crate::audit::source::CatalogEngine;
use crate::checks::UNKNOWN_ENGINE;
use crate::load::{self, ResultInput};
use crate::record::Run;
use crate::results::{self, Cell};
use std::collections::BTreeMap;
use std::path::Path;

/// What each part of `inputs` ran on ([`stated`]): its own lines, the
/// options, its backend, its heading (the lines right above its report),
/// its text (a pasted text's, or the issue's: of `issue_texts`, the title
/// first), the issue's texts in order (`thread`), the issue's repository.
pub(super) fn stated_parts(
    opts: &LintOptions,
    inputs: &[Input],
    names: &Names<'_>,
    (issue_texts, thread): (&[Clues], &Thread),
) -> Vec<Stated> {
    let mut out = Vec::new();
    for input in inputs {
        let text = match &input.bytes {
            Owned::File(bytes) if input.parts.iter().any(|p| p.lines.is_some()) => {
                Some(String::from_utf8_lossy(bytes))
            }
            _ => None,
        };
        let lines: Vec<&str> = text.as_deref().map_or_else(Vec::new, |t| {
            t.split('\n')
                .map(|l| l.strip_suffix('\r').unwrap_or(l))
                .collect()
        });
        // A pasted text (not a result file, not a folder) is read for what
        // it says around its reports; an issue's texts are read already.
        let own = match &text {
            Some(t) if input.parts.iter().any(|p| p.text.is_none()) => {
                Some(names.read(&inputs::label(&input.entry), t))
            }
            _ => None,
        };
        // Each report's heading: the lines above it, back to the report
        // before it in the same text.
        let mut floor = 0;
        for part in &input.parts {
            let said = |n: &str| {
                part.facts
                    .iter()
                    .find(|f| f.name == n)
                    .and_then(|f| f.value.as_ref())
                    .map(Cell::csv)
            };
            // The issue's texts start with its title.
            let mine = part.text.and_then(|k| issue_texts.get(k + 1));
            let place = match (mine, &own) {
                (Some(m), _) => m.place().to_string(),
                (None, _) => inputs::label(&input.entry),
            };
            let near = part.lines.map(|(first, last)| {
                let top = first.saturating_sub(1).min(lines.len());
                let near = names.near(&place, lines[floor.min(top)..top].iter().rev().copied());
                floor = last.min(lines.len());
                near
            });
            let engine = said("engine").map(|e| e.replace('.', "-"));
            let version = said("version").map(|v| results::site_version(&v).to_string());
            let backend = said("backend");
            let report = stated::Report {
                engine: engine.as_deref(),
                version: version.as_deref(),
                backend: backend.as_deref(),
                tool: part.tool,
                near: near.as_ref(),
            };
            out.push(names.resolve(
                &report,
                (opts.engine.as_deref(), opts.version.as_deref()),
                own.as_ref().or(mine),
                thread,
            ));
        }
    }
    out
}

/// The inputs as one run, in memory, as `load` reads a run (a setup per
/// part, on what `stated` says each ran on).
pub(super) fn as_run(inputs: &[Input], stated: &[Stated]) -> Result<Run, LintError> {
    let text = run_yaml(inputs, stated);
    let dir = Path::new("data/runs/lint");
    let by_entry: BTreeMap<&str, &Owned> = inputs
        .iter()
        .map(|i| (i.entry.as_str(), &i.bytes))
        .collect();
    let (run, diags) = load::parse_run_with(dir, &text, &|path| match by_entry.get(path) {
        Some(Owned::File(b)) => ResultInput::File(b.clone()),
        Some(Owned::Folder(f)) => ResultInput::Folder(f.clone(), Vec::new()),
        None => ResultInput::Missing,
    });
    let Some(run) = run else {
        let first = diags.sorted().into_iter().next();
        return Err(LintError::Usage(first.map_or_else(
            || "the files could not be read as a run".to_string(),
            |d| d.to_string(),
        )));
    };
    Ok(run)
}

/// Reads one result file or run folder as a run (a setup per report of a
/// pasted text of several), as the lint reads it: the engine and version
/// the files record, else those given; `-` reads standard input. `findings
/// compare` sets such runs side by side.
pub fn read_run(
    path: &Path,
    engine: Option<String>,
    version: Option<String>,
) -> Result<Run, LintError> {
    let input = if inputs::is_stdin(path) {
        inputs::stdin_input()?
    } else {
        let meta = std::fs::metadata(path).map_err(|source| LintError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        if meta.is_dir() {
            inputs::folder_input(path, Folder::open(path)?)?
        } else {
            inputs::file_input(path)?
        }
    };
    let opts = LintOptions {
        inputs: vec![path.to_path_buf()],
        issue: None,
        engine,
        version,
    };
    let inputs = [input];
    let stated = stated_parts(
        &opts,
        &inputs,
        &Names::new(&[], None),
        (&[], &Thread::default()),
    );
    as_run(&inputs, &stated)
}

/// An issue's reports read as a run, and what setting them side by side
/// needs besides.
#[derive(Debug)]
pub struct IssueRun {
    /// The run: a setup per report.
    pub run: Run,
    /// The names of the engines the reports name that the engines given
    /// do not hold, by id (`llama-cpp`: `llama.cpp`).
    pub engine_names: BTreeMap<String, String>,
    /// The version of an engine (by id) the issue's title names as
    /// upgraded from, where it names two.
    pub upgraded_from: Option<(String, String)>,
}

/// An issue's reports as a run, as the lint reads them: each report's
/// engine and version from its own lines, its heading, the issue's texts
/// and its repository, matched against `engines` (the site's); none when
/// the issue holds no report. `findings compare --from-issue` sets them
/// side by side.
pub fn read_issue_run(
    path: &Path,
    engine: Option<String>,
    version: Option<String>,
    engines: &[CatalogEngine],
) -> Result<Option<IssueRun>, LintError> {
    let (issue, texts) = inputs::issue_inputs(path)?;
    if texts.is_empty() {
        return Ok(None);
    }
    let opts = LintOptions {
        inputs: Vec::new(),
        issue: Some(path.to_path_buf()),
        engine,
        version,
    };
    let names = Names::new(engines, issue.url.as_deref());
    let issue_texts = stated::issue_texts(&names, &issue);
    let thread = Thread::new(&issue_texts, &names, issue.title.as_deref().unwrap_or(""));
    let stated = stated_parts(&opts, &texts, &names, (&issue_texts, &thread));
    let run = as_run(&texts, &stated)?;
    let known: BTreeMap<String, String> = engines
        .iter()
        .map(|e| (e.id.clone(), e.name.clone()))
        .collect();
    let engine_names = reported_names(texts.iter(), &known);
    let upgraded_from = run
        .setups
        .iter()
        .filter(|s| s.engine != UNKNOWN_ENGINE)
        .find_map(|s| Some((s.engine.clone(), names.upgraded_from(&thread, &s.engine)?)));
    Ok(Some(IssueRun {
        run,
        engine_names,
        upgraded_from,
    }))
}

/// The engines the parts of `inputs` name that `known` does not hold,
/// each by its id and the name the report gives it (`llama.cpp`, whose
/// id is `llama-cpp`).
pub(super) fn reported_names<'i>(
    inputs: impl Iterator<Item = &'i Input>,
    known: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for part in inputs.flat_map(|i| &i.parts) {
        let own = part
            .facts
            .iter()
            .find(|f| f.name == "engine")
            .and_then(|f| f.value.as_ref())
            .map(Cell::csv);
        if let Some(name) = own {
            let id = name.replace('.', "-");
            if !known.contains_key(&id) {
                out.entry(id).or_insert(name);
            }
        }
    }
    out
}

/// The run the inputs make: a setup per part (on the engine and version
/// `stated` gives it; an engine no one names is [`UNKNOWN_ENGINE`]), each
/// in `results` (with the report it takes of a paste of several), every
/// derived table.
fn run_yaml(inputs: &[Input], stated: &[Stated]) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut y = String::from("title: lint\ndate: 2000-01-01\nsetups:\n");
    let parts = inputs.iter().flat_map(|i| &i.parts);
    for (part, said) in parts.zip(stated) {
        let engine = said
            .engine
            .as_ref()
            .map_or(UNKNOWN_ENGINE, |e| e.value.as_str());
        y.push_str(&format!(
            "  - label: {}\n    engine: {}\n",
            q(&part.label),
            q(engine)
        ));
        if let Some(v) = said
            .version
            .as_ref()
            .filter(|v| crate::version::Version::parse(&v.value).is_ok())
        {
            y.push_str(&format!("    version: {}\n", q(&v.value)));
        }
    }
    y.push_str("results:\n");
    for input in inputs {
        for part in &input.parts {
            y.push_str(&format!(
                "  - path: {}\n    setup: {}\n",
                q(&input.entry),
                q(&part.label)
            ));
            if let Some(n) = part.report {
                y.push_str(&format!("    report: {n}\n"));
            }
        }
    }
    y.push_str("tables:\n");
    for kind in ["results", "requests", "series", "scores", "answers"] {
        y.push_str(&format!("  - derive: {kind}\n    title: {kind}\n"));
    }
    y
}
