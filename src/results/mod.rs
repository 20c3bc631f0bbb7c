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
//!    `detect.rs`, with the formats' keys in `format.rs`), never from the
//!    file name.
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
//!   others, with [`Columns::ALL`]) and the facts; [`docs::markdown`]:
//!   the Markdown of `docs/format.md` §8.5, made from every reader's keys.
//!
//! Errors are [`ReadError`]s with the file, line and column; everything is
//! linear in the size of the input.
//!
//! How the files depend on one another, one way (`tests/architecture.rs`
//! holds the folder to it: no file imports one above it, so no cycle):
//!
//! 1. **The shared layer** names no reader: `error.rs`, `json.rs`,
//!    `fields.rs`, `dates.rs`, `table.rs` (a column, a row, a table),
//!    `vocabulary.rs` (which columns there are, each tool's [`Keys`](vocabulary::Keys),
//!    the rules every reader applies), `format.rs` (the formats and the
//!    keys each is known by), `file.rs` (what a reader hands back, what a
//!    file read is, the checks every reader shares); and, for the console
//!    readers, `console/text.rs`, `console/context.rs` and
//!    `console/report.rs` (the first line of each tool's report, at which
//!    every reader stops).
//! 2. **The readers** build on it: the file readers (`vllm.rs` and the
//!    others; SGLang's and TensorRT-LLM's take the vLLM shapes they share
//!    from `vllm.rs`) and the console readers (`console/vllm.rs` and the
//!    others, with the vLLM block that SGLang's, trtllm-bench's and
//!    genai-perf's reuse); `inferlint.rs` (with `prometheus.rs` and
//!    `bootlog.rs`) reads a run folder's client files through `read.rs`.
//! 3. **What names every reader** stands above them: `console/mod.rs`
//!    (the scan of a paste), `detect.rs` (a paste is told by the console
//!    readers' first lines), `read.rs` (a file through the reader of its
//!    format), `docs.rs` (every reader's keys, for the documentation),
//!    `scrub.rs` (which scrubs a file by what a reading takes it for), and
//!    this file, which only declares and re-exports.

mod aiperf;
mod bootlog;
mod console;
mod dates;
pub mod detect;
pub mod docs;
mod error;
mod fields;
mod file;
mod format;
mod genai_perf;
mod guidellm;
mod inferlint;
mod json;
mod llama_bench;
mod lm_eval;
mod lm_eval_samples;
mod prometheus;
mod read;
pub mod scrub;
mod sglang;
mod table;
mod trtllm;
mod vllm;
pub mod vocabulary;

pub use console::Reader;
pub use detect::detect;
pub use error::{ErrorKind, ReadError, Warning};
pub use file::{site_version, Fact, Report, ResultFile, MAX_FILE_BYTES};
pub use format::Format;
pub use inferlint::{Check, RunFolder};
pub use read::{read, read_reports_of};
pub use table::{format_number, Cell, Columns, Row, Table};

/// Reads an inferlint run folder: `files` are its files, each as (name
/// within the folder, bytes). See [`RunFolder`].
pub fn read_folder(files: &[(String, Vec<u8>)]) -> Result<RunFolder, ReadError> {
    inferlint::read_folder(files)
}
