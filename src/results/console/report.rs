//! What every console reader shares with the scan of `mod.rs`: the first
//! line of each tool's report ([`starts_line`]: a banner, a section
//! heading, a table's header), at which the scan starts a reader and every
//! reader stops, since a paste may hold the next report right after; what
//! a reader hands back ([`Taken`]); and a warning at a line. Kept apart
//! from the scan so that the readers build on it and the scan on them,
//! one way: no reader names `mod.rs`, and this file names no reader.

use super::text::{bare, box_cells, number, pipe_cells};
use crate::results::error::Warning;
use crate::results::file::Out;
use crate::results::format::Format;

/// A kind of report, as its first line tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// The `Serving Benchmark Result` banner (vLLM's or SGLang's).
    Serve,
    /// `Throughput: N requests/s, …`.
    Throughput,
    /// `Avg latency: N seconds`.
    Latency,
    /// A `= SECTION` heading of trtllm-bench.
    Trtllm,
    /// llama-bench's table header.
    LlamaBench,
    /// genai-perf's table header.
    GenaiPerf,
    /// lm-evaluation-harness's table header.
    LmEvalTable,
    /// An accuracy print (SGLang's or vLLM's gsm8k script), of the format
    /// it tells with the line after it.
    Accuracy(Format),
}

/// The report a line starts, if any.
pub(super) fn starts_line(l: &str) -> Option<Kind> {
    if l.contains("= Serving Benchmark Result =") {
        Some(Kind::Serve)
    } else if l.contains(" requests/s") && figure_after(l, "Throughput: ", "requests/s") {
        Some(Kind::Throughput)
    } else if l.contains("Avg latency: ") && figure_after(l, "Avg latency: ", "seconds") {
        Some(Kind::Latency)
    } else if is_trtllm_heading(l) {
        Some(Kind::Trtllm)
    } else if l.contains("t/s") && is_llama_bench_header(l) {
        Some(Kind::LlamaBench)
    } else if l.contains("Statistic") && is_genai_perf_header(l) {
        Some(Kind::GenaiPerf)
    } else {
        None
    }
}

/// Whether `line` has `head`, then a number, then `unit`: a tool's line,
/// not prose that quotes its shape (`Throughput: X requests/s`).
fn figure_after(line: &str, head: &str, unit: &str) -> bool {
    line.split_once(head).is_some_and(|(_, rest)| {
        let mut words = rest.split_whitespace();
        words.next().and_then(number).is_some()
            && words.next().map(|w| w.trim_end_matches([',', '.'])) == Some(unit)
    })
}

/// The report that line `i` starts, if any.
pub(super) fn starts(lines: &[&str], i: usize) -> Option<Kind> {
    starts_line(lines[i]).or_else(|| starts_accuracy(lines[i], lines.get(i + 1).copied()))
}

/// The table or print of an accuracy evaluation line `l` starts (`next`:
/// the line after it, which tells the tool of an `Accuracy:` line).
pub(super) fn starts_accuracy(l: &str, next: Option<&str>) -> Option<Kind> {
    if l.contains("Metric") && is_lm_eval_header(l) {
        Some(Kind::LmEvalTable)
    } else if l.contains("ccuracy: ") || l.contains("Evaluation Results:") {
        accuracy_kind(l, next).map(Kind::Accuracy)
    } else {
        None
    }
}

/// Whether a line starts a report: a reader stops before it.
pub(super) fn starts_report(lines: &[&str], i: usize) -> bool {
    starts(lines, i).is_some()
}

/// The sections of its reports, old and new.
const SECTIONS: &[&str] = &[
    "ENGINE DETAILS",
    "PYTORCH BACKEND",
    "MACHINE DETAILS",
    "WORLD + RUNTIME INFORMATION",
    "REQUEST DETAILS",
    "PERFORMANCE OVERVIEW",
    "STREAMING STATISTICS",
    "STATISTICS",
    "GENERAL OVERVIEW",
    "THROUGHPUT OVERVIEW",
    "LATENCY OVERVIEW",
    "GENERATION LATENCY BREAKDOWN",
    "ACCEPTANCE BREAKDOWN",
    "DECODING STATISTICS",
    "DATASET DETAILS",
];

/// The section a `= NAME` heading opens.
pub(super) fn trtllm_heading(line: &str) -> Option<&'static str> {
    let rest = bare(line).strip_prefix("= ")?.trim();
    SECTIONS
        .iter()
        .copied()
        .find(|s| rest == *s || rest.strip_prefix(s).is_some_and(|r| r.starts_with(' ')))
}

/// Whether a line heads a section of trtllm-bench's report.
fn is_trtllm_heading(line: &str) -> bool {
    line.contains("= ") && trtllm_heading(line).is_some()
}

/// The cells of a table line: between its pipes, with or without the
/// outer ones; `None` for a line without a pipe.
pub(super) fn lm_eval_cells(line: &str) -> Option<Vec<&str>> {
    let t = line.trim();
    if !t.contains('|') {
        return None;
    }
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    Some(t.split('|').map(str::trim).collect())
}

/// Whether a line is the header of lm_eval's table.
fn is_lm_eval_header(line: &str) -> bool {
    line.contains("Metric")
        && lm_eval_cells(line).is_some_and(|c| {
            c.first().is_some_and(|f| *f == "Tasks" || *f == "Groups")
                && c.contains(&"Metric")
                && c.contains(&"Value")
        })
}

/// The kind of print a line starts, by it and the line after it.
fn accuracy_kind(line: &str, next: Option<&str>) -> Option<Format> {
    let b = bare(line);
    if let Some(v) = b.strip_prefix("Accuracy: ") {
        number(v.trim())?;
        let n = next.map(bare).unwrap_or("");
        if n.starts_with("Invalid responses: ") {
            return Some(Format::VllmGsm8kReport);
        }
        if n.starts_with("Invalid: ") {
            return Some(Format::SglangAccuracyReport);
        }
        return None;
    }
    if let Some(v) = b.strip_prefix("Average accuracy: ") {
        return number(v.trim()).map(|_| Format::SglangAccuracyReport);
    }
    if b == "Evaluation Results:" && next.is_some_and(|n| accuracy_dict_line(n).is_some()) {
        return Some(Format::VllmGsm8kReport);
    }
    None
}

/// `task: {…}`: the task and the dict's text.
pub(super) fn accuracy_dict_line(line: &str) -> Option<(&str, &str)> {
    let (task, rest) = bare(line).split_once(": {")?;
    let task = task.trim();
    (!task.is_empty() && !task.contains(' ')).then(|| (task, rest.trim_end().trim_end_matches('}')))
}

/// Whether a line is the header of llama-bench's table.
fn is_llama_bench_header(line: &str) -> bool {
    pipe_cells(line)
        .is_some_and(|c| c.first() == Some(&"model") && c.contains(&"test") && c.contains(&"t/s"))
}

/// Whether a line is the header of genai-perf's table.
fn is_genai_perf_header(line: &str) -> bool {
    box_cells(line).is_some_and(|c| {
        c.first().map(String::as_str) == Some("Statistic") && c.iter().any(|x| x == "avg")
    })
}

/// What a reader hands back: the report, and the index of the line after
/// it (where the scan goes on).
pub(super) struct Taken {
    pub(super) format: Format,
    /// 0-based, inclusive.
    pub(super) first: usize,
    pub(super) last: usize,
    pub(super) out: Out,
    pub(super) next: usize,
}

/// A warning at a line of the text.
pub(super) fn warning(name: &str, line: usize, message: String) -> Warning {
    Warning {
        file: name.to_string(),
        line,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_headers() {
        assert!(is_genai_perf_header("┃ Statistic ┃ avg ┃ min ┃"));
        assert!(is_genai_perf_header("| Statistic | avg | min |"));
        assert!(is_lm_eval_header(
            "|Tasks|Version|Filter|n-shot|Metric|Value|Stderr|"
        ));
        assert!(is_lm_eval_header(
            " Tasks  |Version|Filter|n-shot| Metric |   |Value|   |Stderr|"
        ));
        assert!(!is_lm_eval_header("|model|test|t/s|"));
    }
}
