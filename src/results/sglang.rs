//! SGLang's benchmark files: `bench_serving` JSON Lines (one line per run,
//! appended), from the 18-key lines of 2024 to today's with `server_info`,
//! and the refactored key names (`total_input`, `total_output`, per-request
//! arrays under `details`); and `bench_one_batch_server` lines.
//!
//! SGLang's file is the only client file that names the engine's version:
//! `server_info` is the server's own `/server_info`, null when the target
//! was not SGLang. The request rate is `Infinity` by default (a bare word
//! the JSON pass reads), or `"trace"` when a trace set the times.

use super::error::ReadError;
use super::fields::{entries, Obj};
use super::file::{push_distinct, same_format, Fact, Out};
use super::format::Format;
use super::json::{Located, Seg};
use super::table::Row;
use super::vllm::requests;
use super::vocabulary::{
    fill, no_latency_without_requests, From, Keys, RequestCol as Q, ResultCol as R,
};

/// The keys of `bench_serving`.
pub(super) static SERVE: Keys = Keys {
    tool: "SGLang `bench_serving`",
    results: &[
        (R::Tool, From::Derived("`sglang bench_serving`")),
        (R::Engine, From::Derived("`sglang` when `server_info` is not null")),
        (R::Version, From::Key("server_info.version")),
        (R::Model, From::Key("server_info.model_path")),
        (R::MaxConcurrency, From::Key("max_concurrency")),
        (R::RequestRate, From::Derived("`request_rate` (`Infinity` is `inf`; `\"trace\"` leaves it empty)")),
        (R::Completed, From::Key("completed")),
        (R::DurationS, From::Key("duration")),
        (R::InputTokens, From::Key("total_input_tokens|total_input")),
        (R::InputTextTokens, From::Key("total_input_text_tokens")),
        (R::InputVisionTokens, From::Key("total_input_vision_tokens")),
        (R::OutputTokens, From::Key("total_output_tokens|total_output")),
        (R::OutputTokensRetokenized, From::Key("total_output_tokens_retokenized|total_output_retokenized")),
        (R::RequestThroughput, From::Key("request_throughput")),
        (R::InputThroughput, From::Key("input_throughput")),
        (R::OutputThroughput, From::Key("output_throughput")),
        (R::PeakOutputThroughput, From::Key("max_output_tokens_per_s")),
        (R::TotalTokenThroughput, From::Key("total_throughput")),
        (R::PeakConcurrentRequests, From::Key("max_concurrent_requests")),
        (R::MeanConcurrency, From::Key("concurrency")),
        (R::AcceptLength, From::Key("accept_length")),
        (R::TtftMsMean, From::Key("mean_ttft_ms")),
        (R::TtftMsP50, From::Key("median_ttft_ms")),
        (R::TtftMsP90, From::Key("p90_ttft_ms")),
        (R::TtftMsP99, From::Key("p99_ttft_ms")),
        (R::TpotMsMean, From::Key("mean_tpot_ms")),
        (R::TpotMsP50, From::Key("median_tpot_ms")),
        (R::TpotMsP90, From::Key("p90_tpot_ms")),
        (R::TpotMsP99, From::Key("p99_tpot_ms")),
        (R::ItlMsMean, From::Key("mean_itl_ms")),
        (R::ItlMsP50, From::Key("median_itl_ms")),
        (R::ItlMsP90, From::Key("p90_itl_ms")),
        (R::ItlMsP95, From::Key("p95_itl_ms")),
        (R::ItlMsP99, From::Key("p99_itl_ms")),
        (R::E2elMsMean, From::Key("mean_e2e_latency_ms")),
        (R::E2elMsP50, From::Key("median_e2e_latency_ms")),
        (R::E2elMsP90, From::Key("p90_e2e_latency_ms")),
        (R::E2elMsP99, From::Key("p99_e2e_latency_ms")),
    ],
    requests: &[
        (Q::TtftMs, From::Derived("`ttfts[i]` (seconds, × 1000), with `--output-details` (the refactored client: under `details`)")),
        (Q::TpotMs, From::Derived("(`e2el` − `ttft`) / (`output_lens[i]` − 1)")),
        (Q::E2elMs, From::Derived("`ttfts[i]` plus the sum of `itls[i]`")),
        (Q::InputTokens, From::Derived("`input_lens[i]`")),
        (Q::OutputTokens, From::Derived("`output_lens[i]`")),
    ],
    series: &[],
};

/// The keys of `bench_one_batch_server`: one batch of `batch_size`
/// prompts sent at once.
pub(super) static ONE_BATCH: Keys = Keys {
    tool: "SGLang `bench_one_batch_server`",
    results: &[
        (R::Tool, From::Derived("`sglang bench_one_batch_server`")),
        (R::Model, From::Key("model_path")),
        (R::MaxConcurrency, From::Key("batch_size")),
        (R::NumPrompts, From::Key("batch_size")),
        (R::InputTokens, From::Derived("`batch_size` × `input_len`")),
        (
            R::OutputTokens,
            From::Derived("`batch_size` × `output_len`"),
        ),
        (R::OutputThroughput, From::Key("output_throughput")),
        (R::TotalTokenThroughput, From::Key("overall_throughput")),
        (R::TtftMsMean, From::Seconds("ttft")),
        (R::E2elMsMean, From::Seconds("latency")),
    ],
    requests: &[],
    series: &[],
};

pub(super) fn read_serve(
    file: &str,
    bytes: Option<&[u8]>,
    values: &[Located],
) -> Result<Out, ReadError> {
    let entries = entries(values);
    same_format(file, &entries, Format::SglangServe)?;
    let mut out = Out {
        tool: "sglang bench_serving",
        ..Out::default()
    };
    for e in &entries {
        let o = e.obj(file, bytes);
        let mut row = Row::default();
        fill(SERVE.results, &o, &mut row)?;
        if o.get("server_info")
            .is_some_and(serde_json::Value::is_object)
        {
            row.set_text(R::Engine, Some("sglang"));
        }
        let rate = match o.get("request_rate") {
            Some(serde_json::Value::String(s)) if s == "trace" => None,
            _ => o.num("request_rate")?,
        };
        row.set_num(R::RequestRate, rate);
        no_latency_without_requests(&mut row);
        out.results.push(row);
        if let Some(b) = o.text("backend")? {
            push_distinct(&mut out.facts, Fact::text("backend", b, file));
        }
        if let Some(details) = o.get("details").filter(|d| d.is_object()) {
            let prefix: Vec<Seg> = e
                .prefix
                .iter()
                .cloned()
                .chain([Seg::Key("details".into())])
                .collect();
            requests(&o.child(details, &prefix), &mut out)?;
        } else {
            requests(&o, &mut out)?;
        }
    }
    Ok(out)
}

pub(super) fn read_one_batch(
    file: &str,
    bytes: Option<&[u8]>,
    values: &[Located],
) -> Result<Out, ReadError> {
    let entries = entries(values);
    same_format(file, &entries, Format::SglangOneBatch)?;
    let mut out = Out {
        tool: "sglang bench_one_batch_server",
        ..Out::default()
    };
    for e in &entries {
        let o: Obj<'_> = e.obj(file, bytes);
        let mut row = Row::default();
        fill(ONE_BATCH.results, &o, &mut row)?;
        let bs = o.num("batch_size")?;
        let times = |k: &str| -> Result<Option<f64>, ReadError> {
            Ok(bs.zip(o.num(k)?).map(|(b, n)| b * n))
        };
        row.set_num(R::InputTokens, times("input_len")?);
        row.set_num(R::OutputTokens, times("output_len")?);
        out.results.push(row);
    }
    Ok(out)
}
