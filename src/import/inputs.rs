//! The inputs of an import, read and scrubbed before anything is written:
//! result files, inferlint run folders, and standard input (`-`: a paste
//! piped in, kept as `raw/pasted-<hash>.txt`, named by its bytes so that
//! the same paste is the same file and two pastes are two). A pasted text
//! of several console reports gives a part per report (each becomes a
//! setup of its own); any other input is one part.
//!
//! Takes the options; hands back [`Input`]s.

use super::{io, ImportError, ImportOptions};
use crate::results::{self, scrub, Fact};
use std::path::{Path, PathBuf};

/// A file to keep: its path in the run's folder, its bytes as kept, and
/// what was taken out of it, for people.
pub(super) type KeptBytes = (String, Vec<u8>, Vec<String>);

/// One input, read and scrubbed: where its copy goes, its bytes as kept,
/// and what the files say of their setups and the day they ran.
pub(super) struct Input {
    /// The entry's path in the run's folder (`raw/bench.json`, `raw/live`).
    pub(super) entry: String,
    /// Each file to keep: its path in the run's folder, its bytes, and
    /// what was taken out.
    pub(super) files: Vec<KeptBytes>,
    /// What it measured: one part, or one per report of a paste.
    pub(super) parts: Vec<Part>,
}

/// What one input (or one report of a pasted text) measured.
pub(super) struct Part {
    /// The report of a paste that holds several: its number (from 1) and
    /// where it was found (`lines 5–29`).
    pub(super) report: Option<(usize, String)>,
    /// Every fact of the files (of the report).
    pub(super) facts: Vec<Fact>,
    /// Whether it is an accuracy evaluation, whose engine is the backend
    /// its evaluation ran (an `--engine` that says otherwise is an error).
    pub(super) accuracy: bool,
}

/// Reads and scrubs every input, before anything is written.
pub(super) fn read_inputs(opts: &ImportOptions) -> Result<Vec<Input>, ImportError> {
    let mut out: Vec<Input> = Vec::new();
    if opts.inputs.is_empty() {
        return Err(ImportError::Usage(
            "name the result files (or run folders) to import, or - for standard input".into(),
        ));
    }
    if opts.inputs.iter().filter(|p| is_stdin(p)).count() > 1 {
        return Err(ImportError::Usage(
            "- (standard input) is named twice; it can be read once".into(),
        ));
    }
    for path in &opts.inputs {
        let input = if is_stdin(path) {
            stdin_input(opts)?
        } else {
            path_input(opts, path)?
        };
        if out.iter().any(|i| i.entry == input.entry) {
            return Err(ImportError::Usage(format!(
                "two inputs are named {}; the run keeps both under raw/: rename one",
                input.entry.trim_start_matches("raw/")
            )));
        }
        out.push(input);
    }
    Ok(out)
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// A file or a run folder.
fn path_input(opts: &ImportOptions, path: &Path) -> Result<Input, ImportError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .ok_or_else(|| {
            ImportError::Usage(format!("{}: not a file or folder name", path.display()))
        })?;
    let entry = format!("raw/{name}");
    let meta = std::fs::metadata(path).map_err(io(path))?;
    if !meta.is_dir() {
        return file_input(opts, entry, read_limited(path)?);
    }
    let mut files = Vec::new();
    let mut listed: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(io(path))?
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
        files.push((format!("{entry}/{fname}"), read_limited(&f)?));
    }
    let folder = results::read_folder(&files)?;
    let mut facts: Vec<Fact> = folder.files.iter().flat_map(|f| f.facts.clone()).collect();
    facts.extend(folder.facts.iter().cloned());
    Ok(Input {
        entry,
        files: scrub_all(files, opts.keep_texts)?,
        parts: vec![Part {
            report: None,
            facts,
            accuracy: false,
        }],
    })
}

/// A result file, or a pasted text: a part per report when it holds
/// several.
fn file_input(opts: &ImportOptions, entry: String, bytes: Vec<u8>) -> Result<Input, ImportError> {
    let file = results::read(&entry, &bytes)?;
    let accuracy = file.format.is_accuracy();
    let parts = if file.reports.len() > 1 {
        file.reports
            .iter()
            .enumerate()
            .map(|(i, r)| Part {
                report: Some((i + 1, r.location.clone())),
                facts: r.read.facts.clone(),
                accuracy,
            })
            .collect()
    } else {
        vec![Part {
            report: None,
            facts: file.facts,
            accuracy,
        }]
    };
    Ok(Input {
        entry: entry.clone(),
        files: scrub_all(vec![(entry, bytes)], opts.keep_texts)?,
        parts,
    })
}

/// Standard input, kept as `raw/pasted-<the first 12 hex digits of its
/// SHA-256>`, with the ending its content calls for (`.txt` for a paste).
fn stdin_input(opts: &ImportOptions) -> Result<Input, ImportError> {
    let mut bytes = Vec::new();
    let limit = results::MAX_FILE_BYTES as u64 + 1;
    std::io::Read::read_to_end(
        &mut std::io::Read::take(std::io::stdin().lock(), limit),
        &mut bytes,
    )
    .map_err(io(Path::new("-")))?;
    if bytes.len() as u64 >= limit {
        return Err(ImportError::Usage(format!(
            "-: standard input is over the limit of {} bytes (256 MiB) for a result file",
            results::MAX_FILE_BYTES
        )));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ImportError::Usage(
            "-: standard input is empty; paste a benchmark's report or pipe a result file into it"
                .into(),
        ));
    }
    let hash = crate::util::sha256_hex(&bytes);
    let ending = match results::detect("-", &bytes) {
        Ok(f) if f.is_report() => "txt",
        Ok(results::Format::GuidellmYaml) => "yaml",
        Ok(results::Format::LlamaBenchCsv) => "csv",
        Ok(_) => "json",
        Err(_) => "txt",
    };
    file_input(opts, format!("raw/pasted-{}.{ending}", &hash[..12]), bytes)
}

pub(super) fn read_limited(path: &Path) -> Result<Vec<u8>, ImportError> {
    let len = std::fs::metadata(path).map_err(io(path))?.len();
    if len > results::MAX_FILE_BYTES as u64 {
        return Err(ImportError::Usage(format!(
            "{}: the file is {len} bytes, over the limit of {} bytes (256 MiB) for a result file",
            path.display(),
            results::MAX_FILE_BYTES
        )));
    }
    std::fs::read(path).map_err(io(path))
}

/// Each file as it will be kept: credentials replaced, generated texts
/// dropped unless asked to keep them.
fn scrub_all(
    files: Vec<(String, Vec<u8>)>,
    keep_texts: bool,
) -> Result<Vec<KeptBytes>, ImportError> {
    files
        .into_iter()
        .map(|(name, bytes)| {
            let s = scrub::scrub(&name, &bytes, keep_texts)?;
            let removed = s.removed.iter().map(ToString::to_string).collect();
            Ok((name, s.bytes, removed))
        })
        .collect()
}
