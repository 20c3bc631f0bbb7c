//! A result file, read: what every reader hands back ([`Out`]), what a
//! file read is ([`ResultFile`], with its [`Fact`]s and, for a paste, its
//! [`Report`]s), and the checks every reader shares (a file's size, a
//! stream of one format). The shared layer the readers build on, beside
//! the vocabulary and the table: it names no reader (`read.rs` runs them).

use super::error::{ErrorKind, ReadError, Warning};
use super::fields;
use super::format::{object_format, Format};
use super::table::{Cell, Table};
use super::vocabulary::{self, AnswerCol, RequestCol, ResultCol, ScoreCol};

/// The largest result file read: generous for a 50 MB `--save-detailed`
/// file or a guidellm report that keeps every request.
pub const MAX_FILE_BYTES: usize = 256 * 1024 * 1024;

/// A version as a file records it, as the site writes versions (which
/// start with a number): llama.cpp tags its releases by build, `b5863`,
/// which is version `5863`; any other is as it is.
pub fn site_version(v: &str) -> &str {
    match v.strip_prefix('b') {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => n,
        _ => v,
    }
}

/// One fact about a file or a run folder, with the file it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Fact {
    /// Its name, one of [`vocabulary::FACTS`].
    pub name: &'static str,
    /// Its value; `None` when it is known to be unknown (the note says why).
    pub value: Option<Cell>,
    /// The file it came from, by the name the caller gave.
    pub source: String,
    /// How it was read, or why it is unknown.
    pub note: Option<String>,
}

impl Fact {
    pub(crate) fn new(name: &'static str, value: Option<Cell>, source: &str) -> Self {
        debug_assert!(vocabulary::FACTS.iter().any(|f| f.0 == name), "{name}");
        Fact {
            name,
            value,
            source: source.to_string(),
            note: None,
        }
    }

    pub(crate) fn text(name: &'static str, value: impl Into<String>, source: &str) -> Self {
        Fact::new(name, Some(Cell::Text(value.into())), source)
    }

    pub(crate) fn num(name: &'static str, value: f64, source: &str) -> Self {
        Fact::new(name, Some(Cell::Num(value)), source)
    }

    pub(crate) fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }
}

/// One console report found in a pasted text: where, and what it says, as
/// a result file of its own (its rows, facts and warnings).
#[derive(Debug, Clone)]
pub struct Report {
    /// Where in the text it was found, for people: `lines 5–29`. (`findings
    /// lint --from-issue` names it by its place in a thread instead:
    /// `comment 3, second report`.)
    pub location: String,
    /// Its first and last lines, 1-based.
    pub lines: (usize, usize),
    /// The report alone.
    pub read: ResultFile,
}

/// A result file, read.
#[derive(Debug, Clone)]
pub struct ResultFile {
    /// The file's name as the caller gave it (each row's `source`).
    pub source: String,
    /// Its format.
    pub format: Format,
    /// The program that wrote it (`vllm bench serve`).
    pub tool: &'static str,
    /// That program's version, where the file records it.
    pub tool_version: Option<String>,
    /// What a reviewer needs beside the tables, each with its source.
    pub facts: Vec<Fact>,
    /// One row per result.
    pub results: Table<ResultCol>,
    /// One row per completed request, where the file keeps them.
    pub requests: Table<RequestCol>,
    /// An accuracy evaluation's scores: one row per task, filter and
    /// metric (empty for a benchmark of speed).
    pub scores: Table<ScoreCol>,
    /// An accuracy evaluation's answers: one row per question and filter,
    /// where the file keeps them (an lm_eval sample log).
    pub answers: Table<AnswerCol>,
    /// Things worth a look that did not stop the reading.
    pub warnings: Vec<Warning>,
    /// For a pasted text, each console report found in it, in order (the
    /// rows and facts above are all of theirs); empty for the files the
    /// tools write.
    pub reports: Vec<Report>,
}

impl ResultFile {
    /// Report `n` (1-based) of a pasted text, alone.
    pub fn report(&self, n: usize) -> Option<&ResultFile> {
        n.checked_sub(1)
            .and_then(|i| self.reports.get(i))
            .map(|r| &r.read)
    }

    /// The facts named `name`, in order.
    pub fn facts_named<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s Fact> + 's {
        self.facts.iter().filter(move |f| f.name == name)
    }
}

/// What a reader gives back; `read` adds the source, the tool and the
/// facts every file shares.
#[derive(Default)]
pub(crate) struct Out {
    pub tool: &'static str,
    pub tool_version: Option<String>,
    pub results: Table<ResultCol>,
    pub requests: Table<RequestCol>,
    pub scores: Table<ScoreCol>,
    pub answers: Table<AnswerCol>,
    pub facts: Vec<Fact>,
    pub warnings: Vec<Warning>,
}

pub(crate) fn check_size(file: &str, bytes: &[u8]) -> Result<(), ReadError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(ReadError::new(
            ErrorKind::TooLarge,
            file,
            format!(
                "the file is {} bytes, over the limit of {} bytes (256 MiB) for a result file",
                bytes.len(),
                MAX_FILE_BYTES
            ),
        )
        .hint("keep the tool's summary file; a per-request file this large is not needed for the site"));
    }
    Ok(())
}

/// Checks that a stream's values are all of `format` (a vLLM stream with a
/// SGLang line in it is two files pasted together).
pub(crate) fn same_format(
    file: &str,
    entries: &[fields::Entry<'_>],
    format: Format,
) -> Result<(), ReadError> {
    for v in entries {
        let f = object_format(v.v);
        if f != Some(format) {
            let found = f.map_or("an object of no known format".to_string(), |f| {
                format!("a {} result", f.name())
            });
            return Err(ReadError::new(
                ErrorKind::Mixed,
                file,
                format!(
                    "this value is {found}, in a file of {} results",
                    format.name()
                ),
            )
            .at(v.line, 1)
            .hint(
                "one file holds the results of one tool; keep each tool's results in its own file",
            ));
        }
    }
    Ok(())
}

/// Adds `fact` unless an equal one is already there.
pub(crate) fn push_distinct(facts: &mut Vec<Fact>, fact: Fact) {
    if !facts
        .iter()
        .any(|f| f.name == fact.name && f.value == fact.value)
    {
        facts.push(fact);
    }
}
