//! SGLang's `bench_serving` console report, read from its printing code
//! (`python/sglang/bench_serving.py`, which copied vLLM's): the same
//! banner and `{:<40} {:<10}` lines, and its own: `Backend:`, `Traffic
//! request rate:` (`inf`, or `trace`), `Max request concurrency:` (`not
//! set` when unlimited; `Max reqeuest concurrency:` in versions of 2024),
//! the text and vision input tokens, `Total generated tokens
//! (retokenized)`, `Input token throughput`, `Concurrency:` (the mean in
//! flight), `Accept length:` with speculative decoding, and the sections
//! `End-to-End Latency` (`E2E Latency`), `Time to First Token`, `Time per
//! Output Token`, `Inter-Token Latency` (`P95` and `Max ITL` since 2025).
//!
//! A block is SGLang's when it has one of SGLang's own lines; its report
//! names no engine version (`server_info` is only in the JSON file), so
//! `--version` fills it. `Backend` is the API the client spoke, a fact.

use super::context::{Context, Program};
use super::report::Taken;
use super::text::ends_with_label;
use super::vllm::{block_row, cut_off, from_command, Block};
use crate::results::file::{Fact, Out};
use crate::results::format::Format;
use crate::results::vocabulary::{From, Keys, ResultCol as R};

/// The lines of SGLang's `bench_serving` report.
pub(super) static SERVE: Keys = Keys {
    tool: "SGLang `bench_serving` console report",
    results: &[
        (R::Tool, From::Derived("`sglang bench_serving`")),
        (R::Model, From::Derived("the command before the report (`--model`), or the `Namespace(…)` it printed (`model=`)")),
        (R::MaxConcurrency, From::Key("Max request concurrency|Max reqeuest concurrency")),
        (R::RequestRate, From::Key("Traffic request rate")),
        (R::NumPrompts, From::Derived("the command before the report: `--num-prompts`")),
        (R::Completed, From::Key("Successful requests")),
        (R::DurationS, From::Key("Benchmark duration (s)")),
        (R::InputTokens, From::Key("Total input tokens")),
        (R::InputTextTokens, From::Key("Total input text tokens")),
        (R::InputVisionTokens, From::Key("Total input vision tokens")),
        (R::OutputTokens, From::Key("Total generated tokens")),
        (R::OutputTokensRetokenized, From::Key("Total generated tokens (retokenized)")),
        (R::RequestThroughput, From::Key("Request throughput (req/s)")),
        (R::InputThroughput, From::Key("Input token throughput (tok/s)")),
        (R::OutputThroughput, From::Key("Output token throughput (tok/s)")),
        (R::PeakOutputThroughput, From::Key("Peak output token throughput (tok/s)")),
        (R::TotalTokenThroughput, From::Key("Total token throughput (tok/s)|Total throughput (tok/s)")),
        (R::PeakConcurrentRequests, From::Key("Peak concurrent requests")),
        (R::MeanConcurrency, From::Key("Concurrency")),
        (R::AcceptLength, From::Key("Accept length")),
        (R::E2elMsMean, From::Key("Mean E2E Latency (ms)")),
        (R::E2elMsP50, From::Key("P50 E2E Latency (ms)|Median E2E Latency (ms)")),
        (R::E2elMsP90, From::Key("P90 E2E Latency (ms)")),
        (R::E2elMsP95, From::Key("P95 E2E Latency (ms)")),
        (R::E2elMsP99, From::Key("P99 E2E Latency (ms)")),
        (R::TtftMsMean, From::Key("Mean TTFT (ms)")),
        (R::TtftMsP50, From::Key("P50 TTFT (ms)|Median TTFT (ms)")),
        (R::TtftMsP90, From::Key("P90 TTFT (ms)")),
        (R::TtftMsP95, From::Key("P95 TTFT (ms)")),
        (R::TtftMsP99, From::Key("P99 TTFT (ms)")),
        (R::TpotMsMean, From::Key("Mean TPOT (ms)")),
        (R::TpotMsP50, From::Key("P50 TPOT (ms)|Median TPOT (ms)")),
        (R::TpotMsP90, From::Key("P90 TPOT (ms)")),
        (R::TpotMsP95, From::Key("P95 TPOT (ms)")),
        (R::TpotMsP99, From::Key("P99 TPOT (ms)")),
        (R::ItlMsMean, From::Key("Mean ITL (ms)")),
        (R::ItlMsP50, From::Key("P50 ITL (ms)|Median ITL (ms)")),
        (R::ItlMsP90, From::Key("P90 ITL (ms)")),
        (R::ItlMsP95, From::Key("P95 ITL (ms)")),
        (R::ItlMsP99, From::Key("P99 ITL (ms)")),
    ],
    requests: &[],
    series: &[],
};

/// Lines only SGLang's report prints (vLLM prints its request rate before
/// its banner, not in it; `Concurrency` alone would also end vLLM's
/// `Maximum request concurrency`). `Input token throughput (tok/s)` is
/// not one: SGLang copied it from vLLM's `benchmark_serving.py` of 2024
/// (v0.4 to v0.5), which printed it in its block and none of these, so a
/// block with it alone is vLLM's. Every SGLang block opens with `Backend`
/// and `Traffic request rate` (since `bench_serving` was added, July
/// 2024).
const OWN: &[&str] = &[
    "Backend",
    "Traffic request rate",
    "Max request concurrency",
    "Max reqeuest concurrency",
    "Total generated tokens (retokenized)",
    "Accept length",
    "Mean E2E Latency (ms)",
];

/// Whether a banner's block is SGLang's.
pub(super) fn is_sglang(block: &Block<'_>) -> bool {
    block
        .kv
        .iter()
        .any(|(_, label, _)| OWN.iter().any(|k| ends_with_label(label, k)))
}

/// The same, of a block's lines.
pub(super) fn is_sglang_lines(lines: &[&str]) -> bool {
    lines.iter().any(|l| {
        super::text::label_value(l)
            .is_some_and(|(label, _)| OWN.iter().any(|k| ends_with_label(&label, k)))
    })
}

const OPTIONS: &[(R, &[&str])] = &[
    (R::Model, &["--model", "model"]),
    (R::MaxConcurrency, &["--max-concurrency", "max_concurrency"]),
    (R::RequestRate, &["--request-rate", "request_rate"]),
    (R::NumPrompts, &["--num-prompts", "num_prompts"]),
];

pub(super) fn read(name: &str, block: &Block<'_>, cx: &Context) -> Taken {
    let (mut f, last) = block_row(&SERVE, block, cx);
    let mut out = Out {
        tool: "sglang bench_serving",
        ..Out::default()
    };
    for (_, label, value) in &block.kv {
        if ends_with_label(label, "Backend") {
            let b = super::text::first_word(value);
            if !b.is_empty() && !out.facts.iter().any(|f| f.name == "backend") {
                out.facts.push(Fact::text("backend", b, name));
            }
        }
    }
    if let Some(cmd) = cx
        .command
        .as_ref()
        .filter(|c| matches!(c.program, Program::Sglang | Program::Namespace))
    {
        from_command(&mut f, &mut out.facts, name, cmd, OPTIONS);
    }
    let mut row = f.row;
    crate::results::vocabulary::no_latency_without_requests(&mut row);
    row.set_text(R::Tool, Some("sglang bench_serving"));
    out.results.push(row);
    out.warnings.extend(cut_off(
        name,
        block,
        last,
        &[
            "End-to-End Latency",
            "Time to First Token",
            "Time per Output Token",
            "Inter-Token Latency",
        ],
    ));
    Taken {
        format: Format::SglangServeReport,
        first: block.first,
        last,
        out,
        next: block.next,
    }
}
