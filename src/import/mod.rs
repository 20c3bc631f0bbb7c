//! `findings import`: result files as a run. Reads the files a benchmark
//! tool wrote (or an inferlint run folder), keeps a copy of each under the
//! run's `raw/` folder with credentials and generated texts taken out, and
//! writes the run's `run.yaml`: the setups (the engine and version from the
//! files where they record them, else from the options), the `results`
//! list, the tables derived from the files and default charts of them.
//! Run again with more files, it adds them; `--force` writes `run.yaml`
//! anew; nothing is overwritten silently.
//!
//! The steps: [`read_inputs`] reads and scrubs every input before anything
//! is written (a file of no known format stops the import with nothing
//! changed); the copies are written; `run.yaml` is composed as a
//! [`draft::Draft`] (from the existing one, or anew), its default charts
//! planned from the tables the loader derives (`plan.rs`), checked by the
//! loader, and written aside, then renamed into place.

mod draft;
mod inputs;
mod journal;
mod plan;

use crate::diagnostics::Diagnostics;
use crate::load;
use crate::record::{Date, Run, Site};
use crate::results::{self, ReadError};
use draft::{Draft, ResultEntry, SetupDraft};
use inputs::{read_inputs, Input, Part};
use journal::Journal;
use std::path::{Path, PathBuf};

/// What `findings import` was asked.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// The site folder.
    pub root: PathBuf,
    /// The run's id (its folder under `data/runs/`).
    pub run: String,
    /// Result files and run folders to import.
    pub inputs: Vec<PathBuf>,
    /// The engine, for files that do not record it.
    pub engine: Option<String>,
    /// Its version, for files that do not record it.
    pub version: Option<String>,
    /// The setup's name, for one that the engine and version do not tell
    /// from the run's others ("vLLM 0.30, start 2").
    pub setup: Option<String>,
    /// The run's title (a new run's; default: made from the files).
    pub title: Option<String>,
    /// The model served (default: the one the files name).
    pub model: Option<String>,
    /// The hardware (default: the one the files name).
    pub hardware: Option<String>,
    /// The day of the run, for files that do not record it.
    pub date: Option<Date>,
    /// Write `run.yaml` anew (and replace kept copies that differ).
    pub force: bool,
    /// Keep generated texts in the copies.
    pub keep_texts: bool,
}

/// What an import did.
#[derive(Debug, Default)]
pub struct ImportReport {
    /// The `run.yaml` written, relative to the root.
    pub run_yaml: PathBuf,
    /// Whether the run is new.
    pub created: bool,
    /// Each file kept, with what was taken out of it.
    pub kept: Vec<KeptFile>,
    /// Other things worth saying ("already kept", a version the file
    /// records that differs from the one asked for).
    pub notes: Vec<String>,
    /// What `check` then says about the run (warnings; no errors).
    pub diagnostics: Diagnostics,
}

/// A file as the import kept it.
#[derive(Debug)]
pub struct KeptFile {
    /// Its path, relative to the root.
    pub path: PathBuf,
    /// Its size as kept, in bytes.
    pub bytes: u64,
    /// What was taken out, for people ("the credential under `api_key`,
    /// line 12").
    pub removed: Vec<String>,
    /// Whether an identical copy was there already.
    pub unchanged: bool,
}

/// Why an import wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// A wrong request: an unknown engine, a bad run id, a missing version.
    #[error("{0}")]
    Usage(String),
    /// An input that cannot be read as result files.
    #[error("{0}")]
    Read(#[from] ReadError),
    /// The site, or the run as it is, has errors.
    #[error("{message}")]
    Invalid {
        /// What is wrong.
        message: String,
        /// The diagnostics.
        diagnostics: Diagnostics,
    },
    /// Something is in the way ("raw/bench.json exists and differs").
    #[error("{0}")]
    Exists(String),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ImportError + '_ {
    move |source| ImportError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Imports `opts.inputs` into the run `opts.run` of the site in
/// `opts.root`.
pub fn import(opts: &ImportOptions) -> Result<ImportReport, ImportError> {
    if !load::is_slug(&opts.run) {
        return Err(ImportError::Usage(format!(
            "\"{}\" is not a valid run id: use lowercase letters a-z, digits and '-'",
            opts.run
        )));
    }
    let (site, diags) = load::load_site(&opts.root);
    let Some(site) = site.filter(|_| !diags.has_errors()) else {
        return Err(ImportError::Invalid {
            message: "site.yaml has errors; fix them first".into(),
            diagnostics: diags,
        });
    };
    if let Some(e) = &opts.engine {
        if !site.engines.iter().any(|x| x.id == *e) {
            return Err(ImportError::Usage(format!(
                "site.yaml has no engine \"{e}\" (its engines: {})",
                engine_ids(&site)
            )));
        }
    }
    let inputs = read_inputs(opts)?;
    let dir = Path::new("data/runs").join(&opts.run);
    let existing = load::load_one_run(&opts.root, &opts.run);
    let mut report = ImportReport {
        run_yaml: dir.join("run.yaml"),
        created: existing.is_none(),
        ..ImportReport::default()
    };
    let run_yaml_there = opts.root.join(&report.run_yaml).is_file();
    let mut draft = match (&existing, opts.force || !run_yaml_there) {
        (Some((Some(run), d)), false) if !d.has_errors() => Draft::of(run),
        (Some((_, d)), false) => {
            return Err(ImportError::Invalid {
                message: format!(
                    "{} has errors; fix them, or pass --force to write it anew",
                    report.run_yaml.display()
                ),
                diagnostics: d.clone(),
            })
        }
        // Anew, keeping the files already listed when the old one reads.
        (Some((Some(run), _)), true) => Draft::results_of(run),
        _ => Draft::default(),
    };
    // Every input's setup first, so that nothing is written for an input
    // whose engine or version is missing.
    let mut setups = Vec::new();
    for input in &inputs {
        if input.parts.len() > 1 {
            report.notes.push(format!(
                "{} holds {} reports ({}): each is a setup of its own",
                input.entry,
                input.parts.len(),
                input
                    .parts
                    .iter()
                    .filter_map(|p| p.report.as_ref().map(|r| r.1.as_str()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        for part in &input.parts {
            setups.push((
                input,
                part,
                setup_of(&site, opts, &input.entry, part, &mut report.notes)?,
            ));
        }
    }
    for (input, part, setup) in setups {
        let name = draft.add_setup(setup).map_err(ImportError::Exists)?;
        draft.add_result(ResultEntry {
            path: input.entry.clone(),
            setup: name,
            report: part.report.as_ref().map(|r| r.0),
        });
    }
    draft.fill(
        &site,
        opts,
        &inputs
            .iter()
            .flat_map(|i| i.parts.iter().flat_map(|p| &p.facts))
            .collect::<Vec<_>>(),
    )?;
    if !draft.has_hardware() {
        // The run page says "not recorded" and how to give it; say it here
        // first, where it is one option away.
        report.notes.push(format!(
            "no file names the hardware it ran on: the run page shows it as not recorded; `findings import {} FILES --hardware \"1× H100 80GB\"` (or `hardware:` in its run.yaml) records it",
            opts.run
        ));
    }
    // From here on every change is journalled: an import that ends in an
    // error takes them all back.
    let mut journal = Journal::default();
    match write_run(
        opts,
        &site,
        &dir,
        &inputs,
        &mut draft,
        &mut report,
        &mut journal,
    ) {
        Ok(()) => Ok(report),
        Err(e) => {
            let failed = journal.undo();
            if failed.is_empty() {
                Err(e)
            } else {
                Err(ImportError::Exists(format!(
                    "{e}\n  and what the import wrote could not all be taken back: {}",
                    failed.join("; ")
                )))
            }
        }
    }
}

/// Writes the kept copies and `run.yaml`, then checks the site: an error
/// of the run (one the import's own charts or files would cause, or a
/// problem of the run that only its new files bring out) refuses the
/// import, and the caller takes every change back.
fn write_run(
    opts: &ImportOptions,
    site: &Site,
    dir: &Path,
    inputs: &[Input],
    draft: &mut Draft,
    report: &mut ImportReport,
    journal: &mut Journal,
) -> Result<(), ImportError> {
    for input in inputs {
        for (path, bytes, removed) in &input.files {
            report.kept.push(keep(
                &opts.root, dir, path, bytes, removed, opts.force, journal,
            )?);
        }
    }
    let text = compose(opts, dir, draft, site, &mut report.notes)?;
    journal.write(&opts.root.join(&report.run_yaml), text.as_bytes())?;
    let (_, diags) = crate::pipeline::check(&opts.root);
    let mine: Vec<_> = diags
        .sorted()
        .into_iter()
        .filter(|d| d.file.starts_with(dir))
        .collect();
    let errors = mine
        .iter()
        .filter(|d| d.severity == crate::diagnostics::Severity::Error)
        .count();
    let mut all = Diagnostics::new();
    for d in mine {
        all.push(d);
    }
    if errors > 0 {
        return Err(ImportError::Invalid {
            message: format!(
                "{} would not check after this import ({errors} error{}), so it is left as it was",
                dir.display(),
                if errors == 1 { "" } else { "s" }
            ),
            diagnostics: all,
        });
    }
    report.diagnostics = all;
    Ok(())
}

/// The setup an input measured: its engine and version from the files
/// where they record them, else from the options; an error naming what is
/// missing otherwise.
fn setup_of(
    site: &Site,
    opts: &ImportOptions,
    entry: &str,
    part: &Part,
    notes: &mut Vec<String>,
) -> Result<SetupDraft, ImportError> {
    // "raw/paste.txt (the report at lines 5–29)" when the text holds more.
    let shown_entry = match &part.report {
        Some((_, at)) => format!("{entry} (the report at {at})"),
        None => entry.to_string(),
    };
    let entry = shown_entry.as_str();
    let said = |name: &str| {
        part.facts
            .iter()
            .find(|f| f.name == name)
            .and_then(|f| f.value.as_ref())
            .map(results::Cell::csv)
    };
    let named = said("engine");
    let recorded = named.as_deref().and_then(|e| site_engine(site, e));
    // A version the file records is of the engine it records: of no use
    // for another engine the options name when the site does not know the
    // file's (llama-bench's build is llama.cpp's version, not vLLM's).
    let foreign = named.is_some() && recorded.is_none();
    let engine = match (recorded, &opts.engine) {
        (Some(e), Some(asked)) if e != *asked && part.accuracy => {
            let from = part
                .facts
                .iter()
                .find(|f| f.name == "engine")
                .and_then(|f| f.note.clone())
                .unwrap_or_default();
            return Err(ImportError::Usage(format!(
                "{entry} records the engine {e} ({from}); --engine {asked} contradicts it: leave --engine out, or import the file of the run {asked} served"
            )));
        }
        (Some(e), Some(asked)) if e != *asked => {
            notes.push(format!(
                "{} records the engine {e}; --engine {asked} is not used for it",
                entry
            ));
            e
        }
        (Some(e), _) => e,
        (None, Some(asked)) => {
            if let Some(n) = named.as_deref().filter(|_| foreign) {
                notes.push(format!(
                    "{} records the engine {n}, which site.yaml does not list; it is imported as --engine {asked}, at the version the options give",
                    entry
                ));
            }
            asked.clone()
        }
        (None, None) => {
            return Err(ImportError::Usage(format!(
                "{} does not record which engine it measured; pass --engine (one of {})",
                entry,
                engine_ids(site)
            )))
        }
    };
    let said_version = said("version")
        .filter(|_| !foreign)
        .map(|v| results::site_version(&v).to_string());
    let version = match (said_version, &opts.version) {
        (Some(v), Some(asked)) if !same_version(&v, asked) => {
            notes.push(format!(
                "{} records version {v}; --version {asked} is not used for it",
                entry
            ));
            v
        }
        (Some(v), _) => v,
        (None, Some(asked)) => asked.clone(),
        (None, None) => {
            return Err(ImportError::Usage(format!(
                "{} does not record the version of {engine} it measured; pass --version",
                entry
            )))
        }
    };
    if let Err(e) = crate::version::Version::parse(&version) {
        return Err(ImportError::Usage(format!(
            "{}: the version \"{version}\" cannot be read: {e}; pass --version",
            entry
        )));
    }
    let shown = site
        .engines
        .iter()
        .find(|e| e.id == engine)
        .map_or(engine.as_str(), |e| e.name.as_str());
    // An accuracy run's settings that change what a model answers
    // (lm_eval's `model_args`: `kv_cache_dtype`, the speculative
    // settings) are its setup's flags.
    let flags = part.accuracy.then(|| answer_flags(&said)).flatten();
    let mut label = opts
        .setup
        .clone()
        .unwrap_or_else(|| format!("{shown} {version}"));
    // Several reports of one paste are several setups, each named by where
    // it was found.
    if let Some((_, at)) = &part.report {
        label = format!("{label} ({at})");
    }
    Ok(SetupDraft {
        engine,
        version,
        flags,
        label,
    })
}

/// The flags of an accuracy file's setup, from the facts `said` gives:
/// `kv_cache_dtype=fp8, speculative_config={…}`; `None` where it names
/// neither.
fn answer_flags(said: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    if let Some(kv) = said("kv_cache_dtype") {
        out.push(format!("kv_cache_dtype={kv}"));
    }
    if let Some(spec) = said("speculative") {
        out.push(spec);
    }
    (!out.is_empty()).then(|| out.join(", "))
}

fn same_version(a: &str, b: &str) -> bool {
    use crate::version::Version;
    match (Version::parse(a), Version::parse(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// The site's engine a file's engine name stands for (`llama.cpp` for
/// `llama-cpp`), comparing ids and names without case or punctuation.
fn site_engine(site: &Site, named: &str) -> Option<String> {
    site.engine_named(named).map(str::to_string)
}

fn engine_ids(site: &Site) -> String {
    site.engines
        .iter()
        .map(|e| e.id.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes one kept copy, unless an identical one is there; a different
/// one is an error unless `force`.
fn keep(
    root: &Path,
    dir: &Path,
    path: &str,
    bytes: &[u8],
    removed: &[String],
    force: bool,
    journal: &mut Journal,
) -> Result<KeptFile, ImportError> {
    let rel = dir.join(path);
    let full = root.join(&rel);
    let unchanged = match std::fs::read(&full) {
        Ok(old) if old == bytes => true,
        Ok(_) if !force => {
            return Err(ImportError::Exists(format!(
                "{} exists and differs from the file imported; remove it, import the new one under another name, or pass --force to replace it",
                rel.display()
            )))
        }
        _ => false,
    };
    if !unchanged {
        journal.write(&full, bytes)?;
    }
    Ok(KeptFile {
        path: rel,
        bytes: bytes.len() as u64,
        removed: removed.to_vec(),
        unchanged,
    })
}

/// The final `run.yaml`: the draft with the derived tables its files give
/// rows to and the default charts planned from them. The loader reads the
/// draft once, deriving every table (each read of the files is a parse of
/// every one, a 50 MB file among them): which tables have rows and what the
/// charts show both come from that one reading. The site is checked after.
fn compose(
    opts: &ImportOptions,
    dir: &Path,
    draft: &mut Draft,
    site: &Site,
    notes: &mut Vec<String>,
) -> Result<String, ImportError> {
    let probing = draft.probing().to_yaml();
    let (run, _) = load::parse_run_at(&opts.root, dir, &probing);
    let run: Run = run.ok_or_else(|| invalid(dir, &probing, opts))?;
    draft.derive_tables(&run);
    // A chart the run has already, kept as it is, must still be drawable
    // with the files added (a distribution of every request, say, may now
    // pass the limit of values a chart draws).
    for chart in draft.charts() {
        if let Err(why) = plan::drawable(&run, site, chart) {
            return Err(ImportError::Exists(format!(
                "the run's chart \"{}\" could not be drawn with the files added: {why}; change or remove it in {}, or pass --force to plan the charts anew",
                chart.id,
                dir.join("run.yaml").display()
            )));
        }
    }
    for chart in plan::charts(&run, site) {
        if let Some(old) = draft.add_chart(chart) {
            // A chart of the run is kept as it is, even one an earlier
            // import planned for fewer files: say so.
            notes.push(format!(
                "the run's chart \"{old}\" is kept as it is; for the files the run has now, the import would plan it otherwise (--force plans the charts anew)"
            ));
        }
    }
    Ok(draft.to_yaml())
}

fn invalid(dir: &Path, text: &str, opts: &ImportOptions) -> ImportError {
    let (_, diagnostics) = load::parse_run_at(&opts.root, dir, text);
    ImportError::Invalid {
        message: format!("the run.yaml the import would write has errors:\n{text}"),
        diagnostics,
    }
}
