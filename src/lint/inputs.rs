//! What `findings lint` reads, before any check: result files, inferlint
//! run folders (and folders of them, searched), standard input (`-`), and
//! the texts of a GitHub issue (`--from-issue`). Each is read as `findings
//! import` would keep it: scrubbed of credentials first
//! (`results::scrub`), so that nothing the lint prints, a comment to post
//! included, can echo a token pasted with a command line.
//!
//! An input is a part per setup: one for a result file or a run folder,
//! one per report of a pasted text that holds several ("notes.txt, lines
//! 68–110"; in an issue, "comment 3, second report"). Takes paths and
//! bytes; hands back [`Input`]s.

use super::LintError;
use crate::issue::{self, Issue};
use crate::results::{self, scrub, Fact, Format, ResultFile, Row};
use std::path::{Path, PathBuf};

/// The most reports of one pasted text the lint reads, a setup each: a
/// run of more would be over the size of a `run.yaml` (100,000 values).
pub(super) const MAX_REPORTS: usize = 5_000;

/// One input read: the name the run gives it, its path, its bytes (as
/// scrubbed), and its parts.
pub(super) struct Input {
    /// Its entry in the run's folder (`raw/<name>`).
    pub(super) entry: String,
    /// As given (`-` for standard input, the payload for an issue's text).
    pub(super) path: PathBuf,
    pub(super) bytes: Owned,
    /// A setup each.
    pub(super) parts: Vec<Part>,
}

/// What one setup of an input measured.
pub(super) struct Part {
    /// The setup's label: the file's name, or where the report was found.
    pub(super) label: String,
    /// The report of a pasted text of several that the setup takes
    /// (1-based).
    pub(super) report: Option<usize>,
    /// Its first and last lines in a pasted text.
    pub(super) lines: Option<(usize, usize)>,
    /// The address of the issue's text it was found in.
    pub(super) url: Option<String>,
    /// The issue's text it was found in, by its index in `Issue::texts`.
    pub(super) text: Option<usize>,
    /// The tool that wrote it.
    pub(super) tool: Option<&'static str>,
    /// What the files (the report) say.
    pub(super) facts: Vec<Fact>,
    /// Its rows of `results`.
    pub(super) results: Vec<Row<results::vocabulary::ResultCol>>,
}

/// An input's bytes, held for the loader.
#[derive(Debug)]
pub(super) enum Owned {
    File(Vec<u8>),
    Folder(Vec<(String, Vec<u8>)>),
}

/// The name a run gives an input: `raw/<its file or folder name>`.
pub(super) fn entry_of(path: &Path) -> Result<String, LintError> {
    path.file_name()
        .map(|n| format!("raw/{}", n.to_string_lossy()))
        .ok_or_else(|| LintError::Usage(format!("{}: not a file or folder name", path.display())))
}

/// The setup an input stands for, named by the input: `xray` for
/// `raw/xray`.
pub(super) fn label(entry: &str) -> String {
    entry.strip_prefix("raw/").unwrap_or(entry).to_string()
}

/// Whether `path` names standard input.
pub(super) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// A folder as the lint sees it: its files, read once, with the format of
/// each one known, and its folders; hidden entries left out, in name
/// order.
pub(super) struct Folder {
    files: Vec<(PathBuf, Vec<u8>)>,
    /// The known formats among `files`.
    formats: Vec<Format>,
    pub(super) dirs: Vec<PathBuf>,
}

impl Folder {
    pub(super) fn open(dir: &Path) -> Result<Folder, LintError> {
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
    pub(super) fn holds_a_load(&self) -> bool {
        self.formats.iter().any(|f| *f != Format::ServerLog)
    }
}

/// Walks a folder of run folders: a folder that holds a load, or that
/// holds no folder but a file of a known format, is a run; any other is
/// searched in turn, its own files skipped. Each folder is listed once and
/// each file read once, so the walk is linear in what the folder holds.
pub(super) fn search(
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

/// Reads a run folder's files (as [`Folder::open`] read them), scrubbed.
pub(super) fn folder_input(path: &Path, folder: Folder) -> Result<Input, LintError> {
    let entry = entry_of(path)?;
    // Named as given, in messages: the lint keeps no copy under raw/.
    let shown = path.display();
    let mut files = Vec::with_capacity(folder.files.len());
    let mut named = Vec::with_capacity(folder.files.len());
    for (f, bytes) in folder.files {
        let name = f
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let full = format!("{shown}/{name}");
        let kept = scrub::scrub(&full, &bytes, false)?.bytes;
        named.push((full, kept.clone()));
        files.push((name, kept));
    }
    let read = results::read_folder(&named)?;
    let mut facts: Vec<Fact> = read.files.iter().flat_map(|f| f.facts.clone()).collect();
    facts.extend(read.facts.iter().cloned());
    let part = Part {
        label: label(&entry),
        report: None,
        lines: None,
        url: None,
        text: None,
        tool: read.files.first().map(|f| f.tool),
        facts,
        results: read
            .files
            .iter()
            .flat_map(|f| f.results.rows.iter().cloned())
            .collect(),
    };
    Ok(Input {
        entry,
        path: path.to_path_buf(),
        bytes: Owned::Folder(files),
        parts: vec![part],
    })
}

/// Reads a result file, or a pasted text (a part per report).
pub(super) fn file_input(path: &Path) -> Result<Input, LintError> {
    let entry = entry_of(path)?;
    let bytes = read_limited(path)?;
    // Named as given, in messages: the lint keeps no copy under raw/.
    let own = label(&entry);
    text_input(
        entry,
        path,
        &path.display().to_string(),
        bytes,
        Naming::File(own),
    )
    .map(|i| i.expect("a file is read whole"))
}

/// Standard input (`-`), read once: a result file or a paste piped in.
pub(super) fn stdin_input() -> Result<Input, LintError> {
    let bytes = read_stdin("standard input")?;
    text_input(
        "raw/standard-input".into(),
        Path::new("-"),
        "standard input",
        bytes,
        Naming::File("standard input".into()),
    )
    .map(|i| i.expect("a file is read whole"))
}

/// The bytes of standard input, refused over the limit of a result file
/// and when there is nothing in it (`what` names what was to come there).
pub(super) fn read_stdin(what: &str) -> Result<Vec<u8>, LintError> {
    let mut bytes = Vec::new();
    let limit = results::MAX_FILE_BYTES as u64 + 1;
    std::io::Read::read_to_end(
        &mut std::io::Read::take(std::io::stdin().lock(), limit),
        &mut bytes,
    )
    .map_err(|source| LintError::Io {
        path: PathBuf::from("-"),
        source,
    })?;
    if bytes.len() as u64 >= limit {
        return Err(LintError::Usage(format!(
            "-: standard input is over the limit of {} bytes (256 MiB)",
            results::MAX_FILE_BYTES
        )));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(LintError::Usage(format!(
            "-: standard input is empty; pipe {what} into it"
        )));
    }
    Ok(bytes)
}

/// How the setups of a text are named.
enum Naming {
    /// A file (or standard input), by its name: a report of several by
    /// its lines as well ("notes.txt, lines 68–110").
    File(String),
    /// A text of an issue, by its place ("comment 3"): a report of several
    /// by its rank ("comment 3, second report"), with the text's address
    /// and its index in the issue's texts.
    Issue(String, Option<String>, usize),
}

/// A file's bytes (`name` names it in messages), scrubbed, read as a
/// result file or a pasted text. A text of an issue that holds no report
/// is no input (`None`).
fn text_input(
    entry: String,
    path: &Path,
    name: &str,
    bytes: Vec<u8>,
    naming: Naming,
) -> Result<Option<Input>, LintError> {
    let in_issue = matches!(naming, Naming::Issue(..));
    let kept = scrub::scrub(name, &bytes, false)?.bytes;
    let file = match results::read(name, &kept) {
        Ok(f) => f,
        // Most of what people write in an issue is no report.
        Err(_) if in_issue => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    // A log or a table pasted into an issue is read with the reports
    // around it; alone, it measured nothing.
    if in_issue && file.results.rows.is_empty() {
        return Ok(None);
    }
    if file.reports.len() > MAX_REPORTS {
        return Err(LintError::Usage(format!(
            "{name}: the text holds {} reports, over the limit of {} reports a text is read as setups",
            crate::figures::number(file.reports.len() as f64),
            crate::figures::number(MAX_REPORTS as f64)
        )));
    }
    let (own, url, text) = match naming {
        Naming::Issue(place, url, k) => (place, url, Some(k)),
        Naming::File(own) => (own, None, None),
    };
    let parts = if file.reports.len() > 1 {
        file.reports
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let label = if in_issue {
                    format!("{own}, {} report", ordinal(i + 1))
                } else {
                    format!("{own}, {}", r.location)
                };
                part_of(
                    label,
                    Some(i + 1),
                    Some(r.lines),
                    (url.clone(), text),
                    &r.read,
                )
            })
            .collect()
    } else {
        let lines = file.reports.first().map(|r| r.lines);
        vec![part_of(own, None, lines, (url, text), &file)]
    };
    Ok(Some(Input {
        entry,
        path: path.to_path_buf(),
        bytes: Owned::File(kept),
        parts,
    }))
}

fn part_of(
    label: String,
    report: Option<usize>,
    lines: Option<(usize, usize)>,
    (url, text): (Option<String>, Option<usize>),
    read: &ResultFile,
) -> Part {
    Part {
        label,
        report,
        lines,
        url,
        text,
        tool: Some(read.tool),
        facts: read.facts.clone(),
        results: read.results.rows.clone(),
    }
}

/// "first", "second", … "tenth", then "11th": the reports of one text.
pub(super) fn ordinal(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    match n {
        1..=10 => WORDS[n - 1].to_string(),
        _ => {
            let suffix = match (n % 10, n % 100) {
                (_, 11..=13) => "th",
                (1, _) => "st",
                (2, _) => "nd",
                (3, _) => "rd",
                _ => "th",
            };
            format!("{n}{suffix}")
        }
    }
}

/// A GitHub issue read from `path` (`-`: standard input): the issue, and
/// an input per text of it that holds a report.
pub(super) fn issue_inputs(path: &Path) -> Result<(Issue, Vec<Input>), LintError> {
    let shown = path.display().to_string();
    let bytes = if is_stdin(path) {
        read_stdin("`gh issue view N --json title,body,comments,url`")?
    } else {
        read_limited(path)?
    };
    let issue = issue::read(if is_stdin(path) { "-" } else { &shown }, &bytes)?;
    let mut inputs = Vec::new();
    for (k, t) in issue.texts.iter().enumerate() {
        let entry = match t.place {
            issue::Place::Body => "raw/issue-body.txt".to_string(),
            issue::Place::Comment(n) => format!("raw/comment-{n}.txt"),
            issue::Place::TheComment => "raw/the-comment.txt".to_string(),
        };
        let place = t.place.name();
        if let Some(input) = text_input(
            entry,
            path,
            &place,
            t.body.clone().into_bytes(),
            Naming::Issue(place.clone(), t.url.clone(), k),
        )? {
            inputs.push(input);
        }
    }
    Ok((issue, inputs))
}

pub(super) fn read_limited(path: &Path) -> Result<Vec<u8>, LintError> {
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
