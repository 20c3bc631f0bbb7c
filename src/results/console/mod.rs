//! Console reports: what the benchmark tools print when a run ends, as
//! people paste it into GitHub issues, pull requests and READMEs, where the
//! evidence is a paste and not a saved file. One reader per tool, beside
//! the readers of the files the tools write (`src/results/`), into the same
//! vocabulary:
//!
//! - `vllm.rs`: `vllm bench serve` and `benchmark_serving.py` (the
//!   `Serving Benchmark Result` block, every version's lines),
//!   `vllm bench throughput` (old and new one-liners) and
//!   `vllm bench latency` (average and percentiles);
//! - `sglang.rs`: SGLang's `bench_serving` block (the same banner, its own
//!   lines);
//! - `trtllm.rs`: `trtllm-bench`'s throughput and latency reports, old and
//!   new layouts;
//! - `llama_bench.rs`: llama-bench's Markdown table and its `build:` line;
//! - `genai_perf.rs`: genai-perf's console table.
//!
//! A report is found by its content anywhere in a text: in a file, in an
//! issue body with Markdown fences and `<details>`, behind `# ` or a shell
//! prompt, with a server's log lines between its lines. [`scan`] walks the
//! lines once: at each line that starts a report of some tool, that tool's
//! reader takes the lines of its report and hands back the line after it,
//! and the lines between two reports are read once for what they say of
//! the next one (`context.rs`: the command that ran it). Where a report
//! starts is `report.rs`'s to say (each tool's first line): the readers
//! stop there and this scan starts there, so both build on it and no
//! reader names this file. Everything is
//! linear in the size of the text. Several reports in one paste are
//! several [`Found`], each with its lines; a report cut off mid-block is
//! read as far as it goes, with a warning that says what is missing.
//!
//! What a report states (an engine version, the model, the concurrency and
//! rate asked for, the hardware) is taken from it; the command before it
//! fills what it does not state, and the facts taken so say where from.
//! The figures keep the report's digits: a unit changed (seconds to ms) is
//! changed by moving the decimal point of the printed number.

mod accuracy;
mod context;
mod genai_perf;
mod llama_bench;
mod lm_eval;
mod report;
mod sglang;
mod text;
mod trtllm;
mod vllm;

use super::file::Out;
use super::format::Format;
use super::vocabulary::Keys;
use context::Context;
use report::{starts, starts_accuracy, starts_line, Kind};

/// The readers' keys, for the documentation (`docs.rs`).
pub(super) fn keys() -> [&'static Keys; 7] {
    [
        &vllm::SERVE,
        &vllm::THROUGHPUT,
        &vllm::LATENCY,
        &sglang::SERVE,
        &trtllm::BENCH,
        &llama_bench::TABLE,
        &genai_perf::TABLE,
    ]
}

/// One report found in a text.
pub(crate) struct Found {
    /// Its format.
    pub(crate) format: Format,
    /// Its first and last lines, 1-based.
    pub(crate) lines: (usize, usize),
    /// What its reader read: one row (a llama-bench table: one per test),
    /// the facts beside it, and warnings.
    pub(crate) out: Out,
}

impl Found {
    /// Where it was found, for people: `lines 5–29`, or `line 4`.
    pub(crate) fn location(&self) -> String {
        match self.lines {
            (a, b) if a == b => format!("line {a}"),
            (a, b) => format!("lines {a}–{b}"),
        }
    }
}

/// The format of the first report in `text`, if any: what tells a paste
/// from other text (a boot log, prose). Reads no figures, and holds no
/// copy of the text's lines: a large file of no report is walked once.
pub(crate) fn first_format(text: &str) -> Option<Format> {
    let mut lines = text.split('\n').peekable();
    while let Some(l) = lines.next() {
        let Some(kind) = starts_line(l).or_else(|| starts_accuracy(l, lines.peek().copied()))
        else {
            continue;
        };
        return Some(match kind {
            Kind::Serve => {
                // SGLang's block, or vLLM's: by the lines up to its
                // closing rule.
                let block: Vec<&str> = lines
                    .take_while(|l| !text::is_rule(l, '=') && starts_line(l).is_none())
                    .collect();
                if sglang::is_sglang_lines(&block) {
                    Format::SglangServeReport
                } else {
                    Format::VllmServeReport
                }
            }
            Kind::Throughput => Format::VllmThroughputReport,
            Kind::Latency => Format::VllmLatencyReport,
            Kind::Trtllm => Format::TrtllmBenchReport,
            Kind::LlamaBench => Format::LlamaBenchReport,
            Kind::GenaiPerf => Format::GenaiPerfReport,
            Kind::LmEvalTable => Format::LmEvalTableReport,
            Kind::Accuracy(f) => f,
        });
    }
    None
}

/// The readers, one per module of this folder: what one fuzz target each
/// aims at (`fuzz/checks.rs`, [`super::read_reports_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// `vllm.rs`: `vllm bench serve`, `throughput` and `latency`.
    Vllm,
    /// `sglang.rs`: SGLang's `bench_serving` block.
    Sglang,
    /// `trtllm.rs`: trtllm-bench's reports.
    Trtllm,
    /// `llama_bench.rs`: llama-bench's Markdown table.
    LlamaBench,
    /// `genai_perf.rs`: genai-perf's console table.
    GenaiPerf,
    /// `lm_eval.rs`: lm-evaluation-harness's printed table.
    LmEval,
    /// `accuracy.rs`: SGLang's and vLLM's gsm8k prints.
    Accuracy,
}

impl Reader {
    /// Every reader, in the order of the modules above.
    pub const ALL: [Reader; 7] = [
        Reader::Vllm,
        Reader::Sglang,
        Reader::Trtllm,
        Reader::LlamaBench,
        Reader::GenaiPerf,
        Reader::LmEval,
        Reader::Accuracy,
    ];

    /// The formats its reports are read as.
    pub fn formats(self) -> &'static [Format] {
        match self {
            Reader::Vllm => &[
                Format::VllmServeReport,
                Format::VllmThroughputReport,
                Format::VllmLatencyReport,
            ],
            Reader::Sglang => &[Format::SglangServeReport],
            Reader::Trtllm => &[Format::TrtllmBenchReport],
            Reader::LlamaBench => &[Format::LlamaBenchReport],
            Reader::GenaiPerf => &[Format::GenaiPerfReport],
            Reader::LmEval => &[Format::LmEvalTableReport],
            Reader::Accuracy => &[Format::SglangAccuracyReport, Format::VllmGsm8kReport],
        }
    }

    /// Whether it reads the report of `kind` that line `i` starts (the
    /// banner of a serving benchmark: vLLM's or SGLang's, as its block
    /// tells).
    fn reads(self, kind: Kind, lines: &[&str], i: usize) -> bool {
        match (self, kind) {
            (Reader::Vllm | Reader::Sglang, Kind::Serve) => {
                sglang::is_sglang(&vllm::banner_block(lines, i)) == (self == Reader::Sglang)
            }
            (Reader::Vllm, Kind::Throughput | Kind::Latency)
            | (Reader::Trtllm, Kind::Trtllm)
            | (Reader::LlamaBench, Kind::LlamaBench)
            | (Reader::GenaiPerf, Kind::GenaiPerf)
            | (Reader::LmEval, Kind::LmEvalTable)
            | (Reader::Accuracy, Kind::Accuracy(_)) => true,
            _ => false,
        }
    }
}

/// Every report in `text`, in order. `name` names the file in facts and
/// warnings.
pub(crate) fn scan(name: &str, text: &str) -> Vec<Found> {
    scan_with(name, text, None)
}

/// Every report in `text` that `only` reads (every report, for `None`),
/// in order; the lines of the others are read as the lines between
/// reports. `name` names the file in facts and warnings.
pub(crate) fn scan_with(name: &str, text: &str, only: Option<Reader>) -> Vec<Found> {
    let lines = text::lines(text);
    let mut found = Vec::new();
    let (mut i, mut after_last) = (0, 0);
    // The first line after the last report found: a report never takes a
    // line of the one before (trtllm-bench's takes the rule above its
    // heading, which may be the rule that closed a vLLM block).
    let mut free_from = 0;
    // What holds for every report after it until said again: the command
    // (a script that runs a sweep prints one report per point), the
    // engine's version line, the GPU.
    let mut carried = Context::default();
    while i < lines.len() {
        let Some(kind) = starts(&lines, i).filter(|&k| only.is_none_or(|r| r.reads(k, &lines, i)))
        else {
            i += 1;
            continue;
        };
        let mut cx = Context::read(&lines, after_last, i);
        cx.carry(&mut carried);
        let taken = match kind {
            Kind::Serve => {
                let block = vllm::banner_block(&lines, i);
                if sglang::is_sglang(&block) {
                    sglang::read(name, &block, &cx)
                } else {
                    vllm::read_serve(name, &block, &cx)
                }
            }
            Kind::Throughput => vllm::read_throughput(name, &lines, i, &cx),
            Kind::Latency => vllm::read_latency(name, &lines, i, &cx),
            Kind::Trtllm => trtllm::read(name, &lines, i, &cx),
            Kind::LlamaBench => llama_bench::read(name, &lines, i, &cx),
            Kind::GenaiPerf => genai_perf::read(name, &lines, i, &cx),
            Kind::LmEvalTable => {
                let head = cx.lm_eval_header.as_ref().map(|(at, l)| (*at, l.as_str()));
                lm_eval::read(name, &lines, i, head)
            }
            Kind::Accuracy(f) => accuracy::read(name, &lines, i, f, &cx),
        };
        // A reader always moves on, so the scan ends.
        let next = taken.next.max(i + 1);
        // A heading with no figure under it is no report (prose that
        // names a tool's banner, a report cut off right after it).
        let figures = !taken.out.scores.is_empty()
            || taken.out.results.rows.iter().any(|r| {
                r.cells()
                    .any(|(c, v)| c.kind == super::vocabulary::Kind::Number && v.is_some())
            });
        if figures {
            let first = taken.first.max(free_from);
            free_from = taken.last + 1;
            found.push(Found {
                format: taken.format,
                lines: (first + 1, taken.last + 1),
                out: taken.out,
            });
        }
        after_last = next;
        i = next;
    }
    found
}
