//! `findings lint`: the findings a benchmark falls into, before it is
//! published. Reads the files a benchmark tool wrote (the formats
//! `findings import` reads, told apart by content) as one run, applies the
//! checks (`crate::checks`) to it, and reports each flag with the advice,
//! "What to do" and permanent address of every finding that names the
//! check; then what the files observe of the findings' symptoms
//! (`crate::symptoms`), and what importing them would make of each
//! version's state (`effect.rs`). The findings come from the records of a folder or from a
//! published site's `findings.json`, as `findings audit` gets them.
//!
//! Nothing is written: the run exists only in memory, its files read where
//! they are.

pub mod effect;
pub mod report;

use crate::audit::source::{Catalog, CatalogFinding};
use crate::checks::{self, Outcome, Place, Verdict};
use crate::load::{self, ResultInput};
use crate::record::Run;
use crate::results::{self, Cell, Fact, Format, ReadError};
use crate::symptoms::{self, Observation};
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

/// What the lint found: one run, or one per run folder found under a
/// folder of run folders.
#[derive(Debug, Clone)]
pub struct Lint {
    /// The runs linted, in the order of the inputs (the files and run
    /// folders named together first, then each run folder found).
    pub runs: Vec<LintRun>,
    /// For each check, the findings that name it.
    pub findings: BTreeMap<String, Vec<CatalogFinding>>,
    /// For each symptom, the findings that name it.
    pub symptom_findings: BTreeMap<String, Vec<CatalogFinding>>,
    /// The engines' names, by id.
    pub engine_names: BTreeMap<String, String>,
    /// Where the findings came from, in words.
    pub source: String,
    /// Files of a folder of run folders that lie outside every run folder
    /// (start-up logs kept beside the runs, an index): not linted.
    pub skipped: Vec<PathBuf>,
}

/// One run the lint read: the files named together on the command line,
/// or a run folder found under a folder given.
#[derive(Debug, Clone)]
pub struct LintRun {
    /// The run folder found, or `None` for the inputs named together.
    pub folder: Option<PathBuf>,
    /// Each input as the run names it (`raw/<name>`), with its path.
    pub inputs: Vec<(String, PathBuf)>,
    /// Every check that applies, with its verdict.
    pub outcomes: Vec<Outcome>,
    /// What the symptoms the findings name say of each setup.
    pub observations: Vec<Observation>,
    /// The run's setups: engine id, version as the files or options give
    /// it, and name.
    pub setups: Vec<(String, Option<String>, String)>,
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
            None => self
                .inputs
                .iter()
                .map(|(_, p)| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" "),
        }
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

/// Reads `opts.inputs` and applies the checks, with the findings of
/// `catalog`. The files and run folders named are one run (a setup each,
/// so that checks comparing setups see them together); a folder holding
/// run folders rather than result files is searched, and each run folder
/// under it is linted as a run of its own.
pub fn lint(opts: &LintOptions, catalog: &Catalog) -> Result<Lint, LintError> {
    if opts.inputs.is_empty() {
        return Err(LintError::Usage(
            "name the result files (or run folders) to lint".into(),
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
    let mut together = Vec::new();
    let mut found: Vec<(PathBuf, Input)> = Vec::new();
    let mut skipped = Vec::new();
    for path in &opts.inputs {
        let meta = std::fs::metadata(path).map_err(|source| LintError::Io {
            path: path.clone(),
            source,
        })?;
        if !meta.is_dir() {
            together.push(file_input(path)?);
            continue;
        }
        let folder = Folder::open(path)?;
        if folder.dirs.is_empty() || folder.holds_a_load() {
            together.push(folder_input(path, folder)?);
        } else {
            search(folder, &mut found, &mut skipped)?;
        }
    }
    if together.is_empty() && found.is_empty() {
        return Err(LintError::Usage(format!(
            "no run folder under {}: a run folder holds the files a benchmark wrote (a client's result file, inferlint's snapshots and series)",
            opts.inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let names: BTreeMap<String, String> = catalog
        .engines
        .iter()
        .map(|e| (e.id.clone(), e.name.clone()))
        .collect();
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
        engines: &names,
        checks: &findings,
        symptoms: &symptom_findings,
    };
    let mut runs = Vec::new();
    if !together.is_empty() {
        runs.push(lint_run(opts, None, together, &named)?);
    }
    for (folder, input) in found {
        runs.push(lint_run(opts, Some(folder), vec![input], &named)?);
    }
    Ok(Lint {
        runs,
        findings,
        symptom_findings,
        engine_names: names,
        source: catalog.source.clone(),
        skipped,
    })
}

/// One input read: the name the run gives it, its path, its bytes and
/// the facts its files have.
struct Input {
    entry: String,
    path: PathBuf,
    bytes: ResultInputOwned,
    facts: Vec<Fact>,
}

/// A folder as the lint sees it: its files, read once, with the format of
/// each one known, and its folders; hidden entries left out, in name
/// order.
struct Folder {
    files: Vec<(PathBuf, Vec<u8>)>,
    /// The known formats among `files`.
    formats: Vec<Format>,
    dirs: Vec<PathBuf>,
}

impl Folder {
    fn open(dir: &Path) -> Result<Folder, LintError> {
        let io = |source| LintError::Io {
            path: dir.to_path_buf(),
            source,
        };
        let (mut files, mut dirs) = (Vec::new(), Vec::new());
        for e in std::fs::read_dir(dir).map_err(io)? {
            let e = e.map_err(io)?;
            if e.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            // A link is not followed: a folder of runs linking to itself
            // would otherwise be walked for ever.
            let kind = e.file_type().map_err(io)?;
            if kind.is_dir() {
                dirs.push(e.path());
            } else if kind.is_file() {
                files.push(e.path());
            }
        }
        files.sort();
        dirs.sort();
        let mut read = Vec::with_capacity(files.len());
        let mut formats = Vec::new();
        for f in files {
            let bytes = read_limited(&f)?;
            if let Ok(format) = results::detect(&f.display().to_string(), &bytes) {
                formats.push(format);
            }
            read.push((f, bytes));
        }
        Ok(Folder {
            files: read,
            formats,
            dirs,
        })
    }

    /// Whether it holds the files of a load: a client's results, or
    /// inferlint's snapshots or series (not only start-up logs). A file of
    /// no known format does not count.
    fn holds_a_load(&self) -> bool {
        self.formats.iter().any(|f| *f != Format::ServerLog)
    }
}

/// Walks a folder of run folders: a folder that holds a load, or that
/// holds no folder but a file of a known format, is a run; any other is
/// searched in turn, its own files skipped. Each folder is listed once and
/// each file read once, so the walk is linear in what the folder holds.
fn search(
    folder: Folder,
    found: &mut Vec<(PathBuf, Input)>,
    skipped: &mut Vec<PathBuf>,
) -> Result<(), LintError> {
    skipped.extend(folder.files.into_iter().map(|(p, _)| p));
    for sub in folder.dirs {
        let inner = Folder::open(&sub)?;
        let a_run = if inner.dirs.is_empty() {
            !inner.formats.is_empty()
        } else {
            inner.holds_a_load()
        };
        if a_run {
            let input = folder_input(&sub, inner)?;
            found.push((sub, input));
        } else {
            search(inner, found, skipped)?;
        }
    }
    Ok(())
}

/// The name a run gives an input: `raw/<its file or folder name>`.
fn entry_of(path: &Path) -> Result<String, LintError> {
    path.file_name()
        .map(|n| format!("raw/{}", n.to_string_lossy()))
        .ok_or_else(|| LintError::Usage(format!("{}: not a file or folder name", path.display())))
}

/// Reads a run folder's files (as [`Folder::open`] read them).
fn folder_input(path: &Path, folder: Folder) -> Result<Input, LintError> {
    let entry = entry_of(path)?;
    let files: Vec<(String, Vec<u8>)> = folder
        .files
        .into_iter()
        .map(|(f, bytes)| {
            let name = f
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
            (name, bytes)
        })
        .collect();
    // Named as given, in messages: the lint keeps no copy under raw/.
    let shown = path.display();
    let named: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(n, b)| (format!("{shown}/{n}"), b.clone()))
        .collect();
    let read = results::read_folder(&named)?;
    let mut facts: Vec<Fact> = read.files.iter().flat_map(|f| f.facts.clone()).collect();
    facts.extend(read.facts.iter().cloned());
    Ok(Input {
        entry,
        path: path.to_path_buf(),
        bytes: ResultInputOwned::Folder(files),
        facts,
    })
}

/// Reads a result file.
fn file_input(path: &Path) -> Result<Input, LintError> {
    let entry = entry_of(path)?;
    let bytes = read_limited(path)?;
    // Named as given, in messages: the lint keeps no copy under raw/.
    let file = results::read(&path.display().to_string(), &bytes)?;
    Ok(Input {
        entry,
        path: path.to_path_buf(),
        bytes: ResultInputOwned::File(bytes),
        facts: file.facts,
    })
}

/// What the lint looks things up in: the engines' names, and the findings
/// that name each check and each symptom.
struct Named<'a> {
    engines: &'a BTreeMap<String, String>,
    checks: &'a BTreeMap<String, Vec<CatalogFinding>>,
    symptoms: &'a BTreeMap<String, Vec<CatalogFinding>>,
}

/// The inputs as one run, the verdicts on it of the checks the findings
/// name, and what the symptoms they name say of it.
fn lint_run(
    opts: &LintOptions,
    folder: Option<PathBuf>,
    inputs: Vec<Input>,
    named: &Named<'_>,
) -> Result<LintRun, LintError> {
    let mut seen = std::collections::BTreeSet::new();
    for i in &inputs {
        if !seen.insert(i.entry.as_str()) {
            return Err(LintError::Usage(format!(
                "two inputs are named {}; rename one",
                label(&i.entry)
            )));
        }
    }
    let run = as_run(opts, &inputs)?;
    // The checks the findings name: their advice is what a flag reports.
    let outcomes = checks::evaluate(&run, named.engines)
        .into_iter()
        .filter(|o| named.checks.contains_key(o.check))
        .collect();
    let observations = symptoms::observe(&run, named.engines)
        .into_iter()
        .filter(|o| named.symptoms.contains_key(o.symptom))
        .collect();
    Ok(LintRun {
        folder,
        inputs: inputs.into_iter().map(|i| (i.entry, i.path)).collect(),
        outcomes,
        observations,
        setups: run
            .setups
            .iter()
            .map(|s| (s.engine.clone(), s.version.clone(), s.name()))
            .collect(),
    })
}

/// The inputs as one run, in memory, as `load` reads a run (a setup each).
fn as_run(opts: &LintOptions, inputs: &[Input]) -> Result<Run, LintError> {
    let text = run_yaml(opts, inputs);
    let dir = Path::new("data/runs/lint");
    let by_entry: BTreeMap<&str, &ResultInputOwned> = inputs
        .iter()
        .map(|i| (i.entry.as_str(), &i.bytes))
        .collect();
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
    Ok(run)
}

/// Reads one result file or run folder as a run of one setup, as the lint
/// reads it: the engine and version the files record, else those given.
/// `findings compare` sets such runs side by side.
pub fn read_run(
    path: &Path,
    engine: Option<String>,
    version: Option<String>,
) -> Result<Run, LintError> {
    let meta = std::fs::metadata(path).map_err(|source| LintError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let input = if meta.is_dir() {
        folder_input(path, Folder::open(path)?)?
    } else {
        file_input(path)?
    };
    let opts = LintOptions {
        inputs: vec![path.to_path_buf()],
        engine,
        version,
    };
    as_run(&opts, &[input])
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
fn run_yaml(opts: &LintOptions, inputs: &[Input]) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut y = String::from("title: lint\ndate: 2000-01-01\nsetups:\n");
    for input in inputs {
        let said = |n: &str| {
            input
                .facts
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
            q(&label(&input.entry)),
            q(&engine)
        ));
        if let Some(v) = version.filter(|v| crate::version::Version::parse(v).is_ok()) {
            y.push_str(&format!("    version: {}\n", q(&v)));
        }
    }
    y.push_str("results:\n");
    for input in inputs {
        y.push_str(&format!(
            "  - path: {}\n    setup: {}\n",
            q(&input.entry),
            q(&label(&input.entry))
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
