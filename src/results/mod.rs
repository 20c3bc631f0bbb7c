//! Result files: what benchmark tools write, read into one vocabulary.
//!
//! The files are the evidence behind a run: `vllm bench serve` JSON,
//! SGLang `bench_serving` JSON Lines, genai-perf and AIPerf exports,
//! llama-bench output, guidellm reports, TensorRT-LLM reports, and
//! inferlint run folders (the client's result, the server's metrics before
//! and after, a time series, the boot log). This module turns any of them
//! into the tables and facts of [`vocabulary`]; it knows nothing of records
//! or pages (the importer and the build use it).
//!
//! How a file goes through:
//!
//! 1. [`read`] refuses a file over [`MAX_FILE_BYTES`], then parses it as
//!    what it looks like: JSON (leniently: bare `Infinity`/`NaN`, streams
//!    of objects, JSON Lines, a llama-bench array left open; `json.rs`),
//!    YAML, llama-bench CSV, or text.
//! 2. [`detect()`] names the format from the content ([`Format`],
//!    `detect.rs`), never from the file name.
//! 3. The reader of that tool (one file each: `vllm.rs`, `sglang.rs`,
//!    `trtllm.rs`, `genai_perf.rs`, `aiperf.rs`, `llama_bench.rs`,
//!    `guidellm.rs`) fills rows of [`results`](vocabulary::ResultCol) and,
//!    where the file keeps per-request figures,
//!    [`requests`](vocabulary::RequestCol), from the keys it declares in
//!    the vocabulary, and gives the facts a reviewer needs ([`Fact`]).
//!    A figure the file lacks stays empty, never 0.
//! 4. [`read_folder`] reads an inferlint run folder (`inferlint.rs`, with
//!    `prometheus.rs` for the snapshots and `bootlog.rs` for the boot log):
//!    the client's result files as above, the [`series`](vocabulary::SeriesCol)
//!    table, and the server-side facts (most requests run, preemptions, KV
//!    cache size, SGLang's running limit), each saying which file it came
//!    from.
//!
//! 5. A text that is none of these, but holds a tool's console report as
//!    people paste it (`vllm bench serve`'s `Serving Benchmark Result`
//!    block, trtllm-bench's `PERFORMANCE OVERVIEW`, llama-bench's Markdown
//!    table, …), is read by the readers of `console/`, one per tool, into
//!    the same tables: each report a [`Report`] of its own (its lines, its
//!    rows and facts), all of them the file's rows (each row naming where
//!    it was found, column `report`).
//!
//! [`scrub`] is apart from reading: one pass over a file's bytes before a
//! copy is kept, removing credentials and generated texts.
//!
//! What the rest of the crate calls:
//!
//! - [`detect()`]`(name, bytes) -> Format`, [`read`]`(name, bytes) -> ResultFile`
//!   and [`read_folder`]`(&[(name, bytes)]) -> RunFolder`; `name` only names
//!   the file in messages and in the `source` column.
//! - [`ResultFile`]: `format`, `tool`, `tool_version`, `facts`, `reports`
//!   (of a paste; [`ResultFile::report`] gives one alone), the tables
//!   `results` and `requests` ([`Table`], rows of [`Cell`]s by column,
//!   [`Table::to_csv`] for the CSV a run publishes), `warnings`.
//! - [`RunFolder`]: the client's `files`, the `series` table, `facts`,
//!   inferlint's `checks`, the files `not_read`, `warnings`.
//! - [`scrub::scrub`]`(name, bytes, keep_texts)` and
//!   [`scrub::holds_credential`]`(bytes)`.
//! - [`vocabulary`]: the columns ([`vocabulary::ResultCol`] and the
//!   others, with [`Columns::ALL`]), the facts, and the Markdown of
//!   `docs/format.md` §8.5 ([`vocabulary::markdown`]).
//!
//! Errors are [`ReadError`]s with the file, line and column; everything is
//! linear in the size of the input.

mod aiperf;
mod bootlog;
mod console;
mod dates;
pub mod detect;
mod error;
mod fields;
mod genai_perf;
mod guidellm;
mod inferlint;
mod json;
mod llama_bench;
mod prometheus;
pub mod scrub;
mod sglang;
mod table;
mod trtllm;
mod vllm;
pub mod vocabulary;

pub use console::Reader;
pub use detect::{detect, Format};
pub use error::{ErrorKind, ReadError, Warning};
pub use inferlint::{Check, RunFolder};
pub use table::{format_number, Cell, Columns, Row, Table};

use json::Located;
use vocabulary::{RequestCol, ResultCol};

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

/// Reads one result file. `name` is the file's name as it should appear in
/// messages and in each row's `source` column.
pub fn read(name: &str, bytes: &[u8]) -> Result<ResultFile, ReadError> {
    check_size(name, bytes)?;
    let input = detect::parse_input(name, bytes)?;
    let format = detect::classify(name, &input)?;
    read_input(name, bytes, input, format)
}

fn read_input(
    name: &str,
    bytes: &[u8],
    input: detect::Input,
    format: Format,
) -> Result<ResultFile, ReadError> {
    use detect::Input;
    let mut warnings = Vec::new();
    let values: Vec<Located> = match input {
        Input::Json(p) => {
            if let Some((items, line)) = p.open_array {
                if format != Format::LlamaBench {
                    // Only llama-bench leaves an array open by design; any
                    // other cut-short file is the error it is.
                    return Err(json::parse(name, bytes, false).err().unwrap_or_else(|| {
                        ReadError::new(ErrorKind::Syntax, name, "the file is not complete JSON")
                    }));
                }
                warnings.push(Warning {
                    file: name.to_string(),
                    line,
                    message: format!(
                        "the JSON array is not closed (llama-bench stopped before the end of its run?): read the {items} complete results, up to line {line}"
                    ),
                });
            }
            p.values
        }
        Input::Yaml(v) => vec![Located {
            value: v,
            offset: 0,
            line: 1,
        }],
        Input::Csv(text) => {
            return finish(name, format, llama_bench::read_csv(name, &text)?, warnings)
        }
        Input::Text(text) if format.is_report() => return read_pasted(name, &text, warnings),
        Input::Text(_) => Vec::new(),
    };
    // YAML has no byte positions to point errors at.
    let json_bytes = (format != Format::GuidellmYaml).then_some(bytes);
    let out = match format {
        Format::VllmServe | Format::VllmSweepSummary => {
            vllm::read_serve(name, json_bytes, &values)?
        }
        Format::VllmThroughput => vllm::read_throughput(name, json_bytes, &values)?,
        Format::VllmLatency => vllm::read_latency(name, json_bytes, &values)?,
        Format::SglangServe => sglang::read_serve(name, json_bytes, &values)?,
        Format::SglangOneBatch => sglang::read_one_batch(name, json_bytes, &values)?,
        Format::TrtllmServe => trtllm::read_serve(name, json_bytes, &values)?,
        Format::TrtllmBench => trtllm::read_bench(name, json_bytes, &values)?,
        Format::GenaiPerf => genai_perf::read(name, json_bytes, &values)?,
        Format::Aiperf => aiperf::read(name, json_bytes, &values)?,
        Format::LlamaBench => llama_bench::read_json(name, json_bytes, &values)?,
        Format::GuidellmJson | Format::GuidellmYaml => guidellm::read(name, json_bytes, &values)?,
        Format::LlamaBenchCsv => llama_bench::read_csv(name, detect::utf8(name, bytes)?)?,
        Format::VllmServeReport
        | Format::VllmThroughputReport
        | Format::VllmLatencyReport
        | Format::SglangServeReport
        | Format::TrtllmBenchReport
        | Format::LlamaBenchReport
        | Format::GenaiPerfReport => {
            return read_pasted(name, detect::utf8(name, bytes)?, warnings)
        }
        Format::InferlintSnapshot
        | Format::InferlintSeries
        | Format::InferlintResults
        | Format::ServerLog => {
            return Err(ReadError::new(
                ErrorKind::UnknownFormat,
                name,
                format!(
                    "this is {}, part of a run folder, not a benchmark client's result file",
                    format.name()
                ),
            )
            .hint(
                "read the whole run folder, with its bench file, snapshots, series and boot log",
            ))
        }
    };
    finish(name, format, out, warnings)
}

/// Adds what every file shares: each row's source and tool, and the facts
/// read off the rows (engine, version, model, the settings asked for, the
/// failed requests), in a fixed order.
fn finish(
    name: &str,
    format: Format,
    mut out: Out,
    mut warnings: Vec<Warning>,
) -> Result<ResultFile, ReadError> {
    for row in &mut out.results.rows {
        row.set_text(ResultCol::Source, Some(name));
        row.fill_text(ResultCol::Tool, Some(out.tool));
        row.fill_text(ResultCol::ToolVersion, out.tool_version.as_deref());
    }
    for row in &mut out.requests.rows {
        row.set_text(RequestCol::Source, Some(name));
    }
    let mut facts = vec![Fact::text("tool", out.tool, name)];
    if let Some(v) = &out.tool_version {
        facts.push(Fact::text("tool_version", v.clone(), name));
    }
    for (fact, col) in [
        ("engine", ResultCol::Engine),
        ("version", ResultCol::Version),
        ("model", ResultCol::Model),
        ("max_concurrency", ResultCol::MaxConcurrency),
        ("request_rate", ResultCol::RequestRate),
    ] {
        // Distinct values in the order of the rows, in one pass; a value
        // the reader gives as a fact of its own (with a note: "from the
        // command line") is left to it.
        let mut seen = std::collections::BTreeSet::new();
        for f in out.facts.iter().filter(|f| f.name == fact) {
            if let Some(c) = &f.value {
                seen.insert(c.csv());
            }
        }
        for row in &out.results.rows {
            if let Some(c) = row.get(col) {
                if seen.insert(c.csv()) {
                    facts.push(Fact::new(fact, Some(c.clone()), name));
                }
            }
        }
    }
    let failed: Vec<f64> = out
        .results
        .rows
        .iter()
        .filter_map(|r| r.num(ResultCol::Failed))
        .collect();
    if !failed.is_empty() {
        facts.push(Fact::num("failed", failed.iter().sum(), name));
    }
    facts.append(&mut out.facts);
    warnings.append(&mut out.warnings);
    Ok(ResultFile {
        source: name.to_string(),
        format,
        tool: out.tool,
        tool_version: out.tool_version,
        facts,
        results: out.results,
        requests: out.requests,
        warnings,
        reports: Vec::new(),
    })
}

/// Reads the console reports of a pasted text ([`console`]): each a
/// [`Report`] with its rows (each naming where it was found, column
/// `report`) and facts, and all of them together as the file's.
fn read_pasted(name: &str, text: &str, warnings: Vec<Warning>) -> Result<ResultFile, ReadError> {
    let found = console::scan(name, text);
    let Some(head) = found.first() else {
        return Err(ReadError::new(
            ErrorKind::UnknownFormat,
            name,
            "no console report of a known tool in this text",
        ));
    };
    let (format, tool, tool_version) = (head.format, head.out.tool, head.out.tool_version.clone());
    let mut all = Out {
        tool,
        tool_version,
        ..Out::default()
    };
    let mut reports = Vec::new();
    let mut seen_facts = std::collections::HashSet::new();
    let mut tools: Vec<&'static str> = Vec::new();
    for f in found {
        let location = f.location();
        let mut out = f.out;
        for row in &mut out.results.rows {
            row.set_text(ResultCol::Report, Some(location.as_str()));
        }
        out.facts.push(Fact::text("report", location.clone(), name));
        if !tools.contains(&out.tool) {
            tools.push(out.tool);
        }
        all.results.rows.extend(out.results.rows.iter().cloned());
        for fact in &out.facts {
            // Each distinct fact once, found by a key rather than by a
            // search of those kept: a paste may hold thousands of reports.
            let key = (
                fact.name,
                fact.value.as_ref().map(Cell::csv),
                fact.source.clone(),
                fact.note.clone(),
            );
            if seen_facts.insert(key) {
                all.facts.push(fact.clone());
            }
        }
        all.warnings.extend(out.warnings.iter().cloned());
        let read = finish(name, f.format, out, Vec::new())?;
        reports.push(Report {
            location,
            lines: f.lines,
            read,
        });
    }
    let mut file = finish(name, format, all, warnings)?;
    // A paste of several tools' reports names each tool, after the first.
    for (k, t) in tools.into_iter().skip(1).enumerate() {
        file.facts.insert(1 + k, Fact::text("tool", t, name));
    }
    file.reports = reports;
    Ok(file)
}

/// The console reports of `text` that one reader reads, each as [`read`]
/// reads a report of a paste (the other tools' reports are left aside,
/// their lines read as the lines between reports): what the fuzz target
/// of each reader runs (`src/fuzz.rs`).
pub fn read_reports_of(reader: Reader, name: &str, text: &str) -> Result<Vec<Report>, ReadError> {
    console::scan_with(name, text, Some(reader))
        .into_iter()
        .map(|f| {
            let (location, lines) = (f.location(), f.lines);
            let read = finish(name, f.format, f.out, Vec::new())?;
            Ok(Report {
                location,
                lines,
                read,
            })
        })
        .collect()
}

/// Reads an inferlint run folder: `files` are its files, each as (name
/// within the folder, bytes). See [`RunFolder`].
pub fn read_folder(files: &[(String, Vec<u8>)]) -> Result<RunFolder, ReadError> {
    inferlint::read_folder(files)
}

/// Checks that a stream's values are all of `format` (a vLLM stream with a
/// SGLang line in it is two files pasted together).
pub(crate) fn same_format(
    file: &str,
    entries: &[fields::Entry<'_>],
    format: Format,
) -> Result<(), ReadError> {
    for v in entries {
        let f = detect::object_format(v.v);
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
