//! trtllm-bench's console reports, read from its printing code
//! (`tensorrt_llm/bench/dataclasses/reporting.py` and, before it,
//! `tensorrt_llm/bench/utils/data.py`): sections framed by rules of 59 `=`
//! and headed `= NAME`, each of `Label:` and a value (tabs or spaces
//! between), in one log record.
//!
//! - Old layout (to 0.17): `= ENGINE DETAILS` (`Model`, `TensorRT-LLM
//!   Version`, dtype and quantization), `= WORLD + RUNTIME INFORMATION`,
//!   `= PERFORMANCE OVERVIEW` with `Number of requests`, the average
//!   lengths, `Token Throughput (tokens/sec)` (output tokens over the total
//!   latency), `Request Throughput`, `Total Latency (ms)`, and with
//!   streaming `= STREAMING STATISTICS` (`Average time-to-first-token`,
//!   `Average inter-token latency`, per request: TPOT). The first versions
//!   headed it `= STATISTICS`, with `Total Latency (seconds)`.
//! - New layout: `= PYTORCH BACKEND` or `= ENGINE DETAILS` (`TensorRT LLM
//!   Version` lately), `= MACHINE DETAILS` (the GPU), `= REQUEST DETAILS`
//!   (`Number of concurrent requests`: the mean in flight), `= WORLD +
//!   RUNTIME INFORMATION`, `= PERFORMANCE OVERVIEW` (total output and token
//!   throughput, per-user and per-GPU output throughput, the average
//!   request latency, TTFT and TPOT with streaming, and the breakdowns
//!   `[TPOT] P50 : …`, `[TTFT] …`, `[Latency] …`), `= DECODING STATISTICS`
//!   (`[AL] AVERAGE`: accept length), `= DATASET DETAILS`.
//! - The latency benchmark: `= GENERAL OVERVIEW`, `= THROUGHPUT OVERVIEW`,
//!   `= LATENCY OVERVIEW` and its breakdowns.
//!
//! A report runs from its first heading over the lines of its sections,
//! and ends at a line that is none of theirs (the log line after it) or at
//! a heading seen already (the next report). It is TensorRT-LLM at the
//! version it states, else at the version the `[TensorRT-LLM] TensorRT-LLM
//! version:` line before it gives.

use super::context::{Context, Program};
use super::report::{starts_report, trtllm_heading, warning, Taken};
use super::text::{bare, is_rule, label_value, shifted, Filling};
use super::vllm::from_command;
use crate::results::file::{Fact, Out};
use crate::results::format::Format;
use crate::results::vocabulary::{From, Keys, ResultCol as R};

/// The lines of trtllm-bench's reports.
pub(super) static BENCH: Keys = Keys {
    tool: "TensorRT-LLM `trtllm-bench` console report",
    results: &[
        (R::Tool, From::Derived("`trtllm-bench`")),
        (R::ToolVersion, From::Key("TensorRT-LLM Version|TensorRT LLM Version")),
        (R::Engine, From::Derived("`tensorrt-llm`")),
        (R::Version, From::Key("TensorRT-LLM Version|TensorRT LLM Version")),
        (R::Version, From::Derived("else the line `TensorRT-LLM version:` before the report")),
        (R::Model, From::Key("Model")),
        (R::NumPrompts, From::Key("Number of requests")),
        (R::DurationS, From::Derived("`Total Latency (ms)` / 1000, or `Total Latency (seconds)`")),
        (R::RequestThroughput, From::Key("Request Throughput (req/sec)")),
        (R::OutputThroughput, From::Key("Total Output Throughput (tokens/sec)|Token Throughput (tokens/sec)")),
        (R::TotalTokenThroughput, From::Key("Total Token Throughput (tokens/sec)")),
        (R::OutputThroughputPerUser, From::Key("Per User Output Throughput [w/ ctx] (tps/user)|Per User Output Throughput (tokens/sec/user)")),
        (R::OutputSpeedPerUser, From::Key("Per User Output Speed (tps/user)|Per User Output Speed [1/TPOT] (tokens/sec/user)|Generation Token Throughput (tokens/sec)")),
        (R::OutputThroughputPerGpu, From::Key("Per GPU Output Throughput (tps/gpu)|Per GPU Output Throughput (tokens/sec/gpu)")),
        (R::MeanConcurrency, From::Key("Number of concurrent requests")),
        (R::AcceptLength, From::Key("[AL] AVERAGE")),
        (R::TtftMsMean, From::Key("[TTFT] AVERAGE|Average time-to-first-token [TTFT] (ms)|Average time-to-first-token (ms)")),
        (R::TtftMsP50, From::Key("[TTFT] P50")),
        (R::TtftMsP90, From::Key("[TTFT] P90")),
        (R::TtftMsP95, From::Key("[TTFT] P95")),
        (R::TtftMsP99, From::Key("[TTFT] P99")),
        (R::TpotMsMean, From::Key("[TPOT] AVERAGE|Average time-per-output-token [TPOT] (ms)|Average inter-token latency (ms)")),
        (R::TpotMsP50, From::Key("[TPOT] P50")),
        (R::TpotMsP90, From::Key("[TPOT] P90")),
        (R::TpotMsP95, From::Key("[TPOT] P95")),
        (R::TpotMsP99, From::Key("[TPOT] P99")),
        (R::E2elMsMean, From::Key("[Latency] AVERAGE|Average request latency (ms)")),
        (R::E2elMsP50, From::Key("[Latency] P50")),
        (R::E2elMsP90, From::Key("[Latency] P90")),
        (R::E2elMsP95, From::Key("[Latency] P95")),
        (R::E2elMsP99, From::Key("[Latency] P99")),
    ],
    requests: &[],
    series: &[],
};

/// The sections that hold the figures: a report without any is cut off.
const OVERVIEWS: &[&str] = &[
    "PERFORMANCE OVERVIEW",
    "STATISTICS",
    "THROUGHPUT OVERVIEW",
    "LATENCY OVERVIEW",
];

pub(super) fn read(name: &str, lines: &[&str], start: usize, cx: &Context) -> Taken {
    let first = if start > 0 && is_rule(lines[start - 1], '=') {
        start - 1
    } else {
        start
    };
    let mut f = Filling::new();
    let mut out = Out {
        tool: "trtllm-bench",
        ..Out::default()
    };
    let mut seen: Vec<&'static str> = Vec::new();
    let mut section = "";
    let (mut last, mut next) = (start, lines.len());
    for (i, &l) in lines.iter().enumerate().skip(start) {
        if let Some(h) = trtllm_heading(l) {
            if seen.contains(&h) {
                // The next report.
                next = if is_rule(lines[i - 1], '=') { i - 1 } else { i };
                break;
            }
            seen.push(h);
            section = h;
            last = i;
            continue;
        }
        if starts_report(lines, i) {
            next = i;
            break;
        }
        let b = bare(l);
        if b.is_empty() || is_rule(l, '=') || is_rule(l, '-') {
            continue;
        }
        if b.starts_with("--") || section == "DATASET DETAILS" {
            // A breakdown's title; the dataset's own table.
            last = i;
            continue;
        }
        match label_value(l) {
            Some((label, value)) => {
                let word = super::text::first_word(value);
                if super::text::ends_with_label(&label, "Total Latency (ms)") {
                    f.fill_num(R::DurationS, shifted(word, -3));
                } else if super::text::ends_with_label(&label, "Total Latency (seconds)") {
                    f.fill_num(R::DurationS, super::text::number(word));
                } else {
                    f.line(&BENCH, &label, value);
                }
                last = i;
            }
            None if section == "MACHINE DETAILS" => {
                // `NVIDIA H100 80GB HBM3, memory 79.65 GB, 2.62 GHz`.
                let gpu = b.split(", memory").next().unwrap_or(b).trim();
                if gpu != "No GPU info available" && !gpu.is_empty() {
                    out.facts.push(Fact::text("hardware", gpu, name));
                }
                last = i;
            }
            None => {
                next = i;
                break;
            }
        }
    }
    next = next.max(last + 1);
    let backend = if seen.contains(&"PYTORCH BACKEND") {
        Some("pytorch")
    } else if seen.contains(&"ENGINE DETAILS") {
        Some("tensorrt")
    } else {
        None
    };
    if let Some(b) = backend {
        out.facts.push(Fact::text("backend", b, name));
    }
    // The version the report states (one line gives both the engine's and
    // the tool's: trtllm-bench is TensorRT-LLM's), else the one
    // TensorRT-LLM printed as it started.
    if let Some(v) = f.row.text(R::ToolVersion).map(str::to_string) {
        f.row.set_text(R::Version, Some(v));
    }
    if f.row.get(R::Version).is_none() {
        if let Some((line, v)) = &cx.trtllm_version {
            f.row.set_text(R::Version, Some(v.as_str()));
            f.row.set_text(R::ToolVersion, Some(v.as_str()));
            out.facts
                .push(Fact::text("version", v.as_str(), name).note(format!(
                    "from the line `TensorRT-LLM version:` at line {line}"
                )));
        }
    }
    if let Some(cmd) = cx.command.as_ref().filter(|c| c.program == Program::Trtllm) {
        from_command(
            &mut f,
            &mut out.facts,
            name,
            cmd,
            &[
                (R::Model, &["--model", "-m"]),
                (R::MaxConcurrency, &["--concurrency"]),
                (R::NumPrompts, &["--num_requests", "--num-requests"]),
            ],
        );
    }
    if let Some(day) = &cx.trtllm_day {
        out.facts.push(
            Fact::text("date", day.as_str(), name).note("from the log lines before the report"),
        );
    }
    out.tool_version = f.row.text(R::ToolVersion).map(str::to_string);
    // An overview cut short: the lines every layout prints in it.
    if seen.contains(&"PERFORMANCE OVERVIEW") {
        let lacks: Vec<&str> = [
            (R::RequestThroughput, "Request Throughput (req/sec)"),
            (R::DurationS, "Total Latency (ms)"),
        ]
        .iter()
        .filter(|(c, _)| f.row.get(*c).is_none())
        .map(|(_, l)| *l)
        .collect();
        if !lacks.is_empty() {
            out.warnings.push(warning(
                name,
                last + 1,
                format!(
                    "the report that starts at line {} is cut off after line {}: read as far as it goes; missing: {}",
                    first + 1,
                    last + 1,
                    lacks.iter().map(|l| format!("`{l}`")).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    }
    if !seen.iter().any(|s| OVERVIEWS.contains(s)) {
        out.warnings.push(warning(
            name,
            last + 1,
            format!(
                "the report that starts at line {} is cut off after line {}: read as far as it goes; missing: its `PERFORMANCE OVERVIEW`",
                first + 1,
                last + 1
            ),
        ));
    }
    let mut row = f.row;
    row.set_text(R::Tool, Some("trtllm-bench"));
    row.set_text(R::Engine, Some("tensorrt-llm"));
    out.results.push(row);
    Taken {
        format: Format::TrtllmBenchReport,
        first,
        last,
        out,
        next,
    }
}
