//! AIPerf's `profile_export_aiperf.json`, from the first layout (metrics
//! under `records`, some by short tags: `ttft`, `ttst`) through the flat
//! one that mirrors genai-perf, to schema 1.x (`schema_version`,
//! `aiperf_version`, `adj_p*`, `telemetry_data`). `input_config` is the
//! user's configuration as set (defaults left out): `endpoint.model_names`,
//! `endpoint.url`, `loadgen.concurrency`, `loadgen.request_rate`.
//!
//! Like genai-perf, `inter_token_latency` is TPOT; `inter_chunk_latency` is
//! the pooled gaps vLLM and SGLang call ITL. `total_osl` counts reasoning
//! tokens with the answer's (it is what `output_token_throughput` is
//! computed from); `total_output_tokens` leaves them out, and is taken
//! only where `total_osl` is absent.

use super::dates;
use super::error::{ReadError, Warning};
use super::fields::{entries, text_only};
use super::file::{push_distinct, same_format, Fact, Out};
use super::format::Format;
use super::json::Located;
use super::table::Row;
use super::vocabulary::{fill, From, Keys, ResultCol as R};

/// The keys of `profile_export_aiperf.json` (`records.…`: the first layout).
pub(super) static KEYS: Keys = Keys {
    tool: "AIPerf",
    results: &[
        (R::Tool, From::Derived("`aiperf`")),
        (R::ToolVersion, From::Key("aiperf_version")),
        (R::Model, From::Key("input_config.endpoint.model_names.0")),
        (R::MaxConcurrency, From::Key("input_config.loadgen.concurrency")),
        (R::RequestRate, From::Key("input_config.loadgen.request_rate")),
        (R::NumPrompts, From::Key("input_config.loadgen.request_count")),
        (R::Completed, From::Key("request_count.avg|records.request_count.avg")),
        (R::Failed, From::Key("error_request_count.avg|records.error_request_count.avg")),
        (R::DurationS, From::Key("benchmark_duration.avg|records.benchmark_duration.avg")),
        (R::InputTokens, From::Key("total_isl.avg|records.total_isl.avg")),
        (R::OutputTokens, From::Key("total_osl.avg|records.total_osl.avg|total_output_tokens.avg|records.total_output_tokens.avg")),
        (R::RequestThroughput, From::Key("request_throughput.avg|records.request_throughput.avg")),
        (R::OutputThroughput, From::Key("output_token_throughput.avg|records.output_token_throughput.avg")),
        (R::TtftMsMean, From::Key("time_to_first_token.avg|records.ttft.avg")),
        (R::TtftMsP50, From::Key("time_to_first_token.p50|records.ttft.p50")),
        (R::TtftMsP90, From::Key("time_to_first_token.p90|records.ttft.p90")),
        (R::TtftMsP95, From::Key("time_to_first_token.p95|records.ttft.p95")),
        (R::TtftMsP99, From::Key("time_to_first_token.p99|records.ttft.p99")),
        (R::TpotMsMean, From::Key("inter_token_latency.avg|records.inter_token_latency.avg")),
        (R::TpotMsP50, From::Key("inter_token_latency.p50|records.inter_token_latency.p50")),
        (R::TpotMsP90, From::Key("inter_token_latency.p90|records.inter_token_latency.p90")),
        (R::TpotMsP95, From::Key("inter_token_latency.p95|records.inter_token_latency.p95")),
        (R::TpotMsP99, From::Key("inter_token_latency.p99|records.inter_token_latency.p99")),
        (R::ItlMsMean, From::Key("inter_chunk_latency.avg|records.inter_chunk_latency.avg")),
        (R::ItlMsP50, From::Key("inter_chunk_latency.p50|records.inter_chunk_latency.p50")),
        (R::ItlMsP90, From::Key("inter_chunk_latency.p90|records.inter_chunk_latency.p90")),
        (R::ItlMsP95, From::Key("inter_chunk_latency.p95|records.inter_chunk_latency.p95")),
        (R::ItlMsP99, From::Key("inter_chunk_latency.p99|records.inter_chunk_latency.p99")),
        (R::E2elMsMean, From::Key("request_latency.avg|records.request_latency.avg")),
        (R::E2elMsP50, From::Key("request_latency.p50|records.request_latency.p50")),
        (R::E2elMsP90, From::Key("request_latency.p90|records.request_latency.p90")),
        (R::E2elMsP95, From::Key("request_latency.p95|records.request_latency.p95")),
        (R::E2elMsP99, From::Key("request_latency.p99|records.request_latency.p99")),
    ],
    requests: &[],
    series: &[],
};

pub(super) fn read(file: &str, bytes: Option<&[u8]>, values: &[Located]) -> Result<Out, ReadError> {
    let entries = entries(values);
    same_format(file, &entries, Format::Aiperf)?;
    let mut out = Out {
        tool: "aiperf",
        ..Out::default()
    };
    for e in &entries {
        let o = e.obj(file, bytes);
        let mut row = Row::default();
        fill(KEYS.results, &o, &mut row)?;
        out.results.push(row);
        if out.tool_version.is_none() {
            out.tool_version = o.text("aiperf_version")?;
        }
        if let Some(url) = text_only(&o, "input_config.endpoint.url") {
            push_distinct(&mut out.facts, Fact::text("endpoint", url, file));
        }
        if let Some(kind) = text_only(&o, "input_config.endpoint.type") {
            push_distinct(&mut out.facts, Fact::text("backend", kind, file));
        }
        if let Some(d) = o.text("start_time")?.as_deref().and_then(dates::from_text) {
            push_distinct(&mut out.facts, Fact::text("date", d, file));
        }
        if o.get("was_cancelled").and_then(serde_json::Value::as_bool) == Some(true) {
            out.warnings.push(Warning {
                file: file.to_string(),
                line: e.line,
                message: "AIPerf says the run was cancelled (`was_cancelled`): its figures cover only part of it".into(),
            });
        }
    }
    Ok(out)
}
