//! `findings lint`: the findings a benchmark falls into, before it is
//! published. Reads the files a benchmark tool wrote (the formats
//! `findings import` reads, told apart by content) as one run, applies the
//! checks (`crate::checks`) to it, and reports each flag with the advice,
//! "What to do" and permanent address of every finding that names the
//! check. The findings come from the records of a folder or from a
//! published site's `findings.json`, as `findings audit` gets them.
//!
//! Nothing is written: the run exists only in memory, its files read where
//! they are.

pub mod report;

use crate::audit::source::{Catalog, CatalogFinding};
use crate::checks::{self, Outcome, Place, Verdict};
use crate::load::{self, ResultInput};
use crate::results::{self, Cell, Fact, ReadError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What `findings lint` was asked.
#[derive(Debug, Clone, Default)]
pub struct LintOptions {
    /// Result files and run folders.
    pub inputs: Vec<PathBuf>,
    /// The engine, for files that do not record it.
    pub engine: Option<String>,
    /// Its version, for files that do not record it.
    pub version: Option<String>,
}

/// What the lint found.
#[derive(Debug, Clone)]
pub struct Lint {
    /// Each input as the run names it (`raw/<name>`), with its path.
    pub inputs: Vec<(String, PathBuf)>,
    /// Every check that applies, with its verdict.
    pub outcomes: Vec<Outcome>,
    /// For each check, the findings that name it.
    pub findings: BTreeMap<String, Vec<CatalogFinding>>,
    /// Where the findings came from, in words.
    pub source: String,
}

impl Lint {
    /// The flags: checks the files fall into.
    pub fn flags(&self) -> impl Iterator<Item = &Outcome> {
        self.outcomes
            .iter()
            .filter(|o| o.verdict == Verdict::Flagged)
    }

    /// 1 when a check flags, else 0.
    pub fn exit_status(&self) -> u8 {
        u8::from(self.flags().next().is_some())
    }

    /// The input file and line a flag points at: the file of its evidence,
    /// at the line of the key it read where the file has it, else the
    /// first input at line 1.
    pub fn place(&self, o: &Outcome) -> (PathBuf, usize) {
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
        let line = key
            .and_then(|k| {
                let text = std::fs::read_to_string(&path).ok()?;
                text.lines()
                    .position(|l| l.contains(&format!("\"{k}\"")))
                    .map(|i| i + 1)
            })
            .unwrap_or(1);
        (path, line)
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
    /// A file that could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Reads `opts.inputs` as one run and applies the checks, with the
/// findings of `catalog`.
pub fn lint(opts: &LintOptions, catalog: &Catalog) -> Result<Lint, LintError> {
    if opts.inputs.is_empty() {
        return Err(LintError::Usage(
            "name the result files (or run folders) to lint".into(),
        ));
    }
    if !catalog.findings.iter().any(|f| !f.checks.is_empty()) {
        return Err(LintError::Usage(format!(
            "no finding of {} names a check, so there is nothing to lint against (a findings.json published before checks were carries none: build the site again)",
            catalog.source
        )));
    }
    let mut inputs: Vec<(String, PathBuf, ResultInputOwned, Vec<Fact>)> = Vec::new();
    for path in &opts.inputs {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| {
                LintError::Usage(format!("{}: not a file or folder name", path.display()))
            })?;
        let entry = format!("raw/{name}");
        if inputs.iter().any(|i| i.0 == entry) {
            return Err(LintError::Usage(format!(
                "two inputs are named {name}; rename one"
            )));
        }
        let io = |source| LintError::Io {
            path: path.clone(),
            source,
        };
        if std::fs::metadata(path).map_err(io)?.is_dir() {
            let mut files = Vec::new();
            let mut listed: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(io)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && !p
                            .file_name()
                            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
                })
                .collect();
            listed.sort();
            for f in listed {
                let fname = f
                    .file_name()
                    .map_or(String::new(), |n| n.to_string_lossy().into_owned());
                files.push((fname, read_limited(&f)?));
            }
            let named: Vec<(String, Vec<u8>)> = files
                .iter()
                .map(|(n, b)| (format!("{entry}/{n}"), b.clone()))
                .collect();
            let folder = results::read_folder(&named)?;
            let mut facts: Vec<Fact> = folder.files.iter().flat_map(|f| f.facts.clone()).collect();
            facts.extend(folder.facts.iter().cloned());
            inputs.push((entry, path.clone(), ResultInputOwned::Folder(files), facts));
        } else {
            let bytes = read_limited(path)?;
            let file = results::read(&entry, &bytes)?;
            inputs.push((
                entry,
                path.clone(),
                ResultInputOwned::File(bytes),
                file.facts,
            ));
        }
    }
    let text = run_yaml(opts, &inputs);
    let dir = Path::new("data/runs/lint");
    let by_entry: BTreeMap<String, &ResultInputOwned> =
        inputs.iter().map(|i| (i.0.clone(), &i.2)).collect();
    let (run, diags) = load::parse_run_with(dir, &text, &|path| match by_entry.get(path) {
        Some(ResultInputOwned::File(b)) => ResultInput::File(b.clone()),
        Some(ResultInputOwned::Folder(f)) => ResultInput::Folder(f.clone(), Vec::new()),
        None => ResultInput::Missing,
    });
    let Some(run) = run else {
        let first = diags.sorted().into_iter().next();
        return Err(LintError::Usage(first.map_or_else(
            || "the files could not be read as a run".to_string(),
            |d| d.to_string(),
        )));
    };
    let names: BTreeMap<String, String> = catalog
        .engines
        .iter()
        .map(|e| (e.id.clone(), e.name.clone()))
        .collect();
    let mut findings: BTreeMap<String, Vec<CatalogFinding>> = BTreeMap::new();
    for f in &catalog.findings {
        for c in &f.checks {
            findings.entry(c.clone()).or_default().push(f.clone());
        }
    }
    // The checks the findings name: their advice is what a flag reports.
    let outcomes = checks::evaluate(&run, &names)
        .into_iter()
        .filter(|o| findings.contains_key(o.check))
        .collect();
    Ok(Lint {
        inputs: inputs.into_iter().map(|i| (i.0, i.1)).collect(),
        outcomes,
        findings,
        source: catalog.source.clone(),
    })
}

/// An input's bytes, held for the loader.
#[derive(Debug)]
enum ResultInputOwned {
    File(Vec<u8>),
    Folder(Vec<(String, Vec<u8>)>),
}

fn read_limited(path: &Path) -> Result<Vec<u8>, LintError> {
    let io = |source| LintError::Io {
        path: path.to_path_buf(),
        source,
    };
    let len = std::fs::metadata(path).map_err(io)?.len();
    if len > results::MAX_FILE_BYTES as u64 {
        return Err(LintError::Usage(format!(
            "{}: the file is {len} bytes, over the limit of {} bytes (256 MiB) for a result file",
            path.display(),
            results::MAX_FILE_BYTES
        )));
    }
    std::fs::read(path).map_err(io)
}

/// The run the inputs make: a setup each (the engine and version the files
/// record, else the options'; an engine no one names is "unknown"), every
/// input in `results`, every derived table.
fn run_yaml(
    opts: &LintOptions,
    inputs: &[(String, PathBuf, ResultInputOwned, Vec<Fact>)],
) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut y = String::from("title: lint\ndate: 2000-01-01\nsetups:\n");
    for (k, (_, _, _, facts)) in inputs.iter().enumerate() {
        let said = |n: &str| {
            facts
                .iter()
                .find(|f| f.name == n)
                .and_then(|f| f.value.as_ref())
                .map(Cell::csv)
        };
        let engine = said("engine")
            .map(|e| e.replace('.', "-"))
            .or_else(|| opts.engine.clone())
            .unwrap_or_else(|| "unknown".into());
        let version = said("version")
            .map(|v| results::site_version(&v).to_string())
            .or_else(|| opts.version.clone());
        y.push_str(&format!(
            "  - label: {}\n    engine: {}\n",
            q(&label(&inputs[k].0)),
            q(&engine)
        ));
        if let Some(v) = version.filter(|v| crate::version::Version::parse(v).is_ok()) {
            y.push_str(&format!("    version: {}\n", q(&v)));
        }
    }
    y.push_str("results:\n");
    for (entry, ..) in inputs {
        y.push_str(&format!(
            "  - path: {}\n    setup: {}\n",
            q(entry),
            q(&label(entry))
        ));
    }
    y.push_str("tables:\n");
    for kind in ["results", "requests", "series"] {
        y.push_str(&format!("  - derive: {kind}\n    title: {kind}\n"));
    }
    y
}

/// The setup an input stands for, named by the input: `xray` for
/// `raw/xray`.
fn label(entry: &str) -> String {
    entry.strip_prefix("raw/").unwrap_or(entry).to_string()
}
