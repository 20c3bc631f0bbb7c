//! TensorRT-LLM's benchmark files: `benchmark_serving --save-result`
//! (`tensorrt_llm.serve.scripts.benchmark_serving`, a copy of vLLM's
//! script: vLLM's keys, `"request_goodput:"` with its colon, no `failed`,
//! plus `user_throughput` and `avg_decoded_tokens_per_iter`), and
//! `trtllm-bench --report_json`, whose sections (`engine`, `performance`,
//! `streaming_metrics`, …) hold percentile objects with `average`, `p50`,
//! `p90`, `p99`.
//!
//! The serving client names no engine (it can load any OpenAI server);
//! `trtllm-bench` runs the engine itself, so its rows are TensorRT-LLM at
//! `engine.version`, which is also the tool's version.

use super::error::ReadError;
use super::fields::entries;
use super::file::{push_distinct, same_format, Fact, Out};
use super::format::Format;
use super::json::Located;
use super::table::Row;
use super::vllm::{serve_row, SERVE_RESULTS};
use super::vocabulary::{fill, From, Keys, ResultCol as R};

/// The keys of `benchmark_serving`: vLLM's.
pub(super) static SERVE: Keys = Keys {
    tool: "TensorRT-LLM `benchmark_serving`",
    results: SERVE_RESULTS.split_at(1).1,
    requests: &[],
    series: &[],
};

/// The keys of `trtllm-bench --report_json`.
pub(super) static BENCH: Keys = Keys {
    tool: "TensorRT-LLM `trtllm-bench`",
    results: &[
        (R::Tool, From::Derived("`trtllm-bench`")),
        (R::ToolVersion, From::Key("engine.version")),
        (R::Engine, From::Derived("`tensorrt-llm`")),
        (R::Version, From::Key("engine.version")),
        (R::Model, From::Key("engine.model")),
        (R::NumPrompts, From::Key("request_info.num_requests")),
        (R::DurationS, From::Derived("`performance.total_latency_ms` / 1000")),
        (R::RequestThroughput, From::Key("performance.request_throughput_req_s")),
        (R::OutputThroughput, From::Key("performance.system_output_throughput_tok_s")),
        (R::TotalTokenThroughput, From::Key("performance.system_total_throughput_tok_s")),
        (R::OutputThroughputPerUser, From::Key("performance.output_throughput_per_user_tok_s")),
        (R::OutputSpeedPerUser, From::Key("streaming_metrics.token_output_speed_tok_s")),
        (R::OutputThroughputPerGpu, From::Key("performance.output_throughput_per_gpu_tok_s")),
        (R::MeanConcurrency, From::Key("request_info.avg_num_concurrent_requests")),
        (R::AcceptLength, From::Key("decoding_stats.acceptance_length_percentiles.average")),
        (R::TtftMsMean, From::Key("streaming_metrics.ttft_percentiles.average|streaming_metrics.avg_ttft_ms")),
        (R::TtftMsP50, From::Key("streaming_metrics.ttft_percentiles.p50")),
        (R::TtftMsP90, From::Key("streaming_metrics.ttft_percentiles.p90")),
        (R::TtftMsP95, From::Key("streaming_metrics.ttft_percentiles.p95")),
        (R::TtftMsP99, From::Key("streaming_metrics.ttft_percentiles.p99")),
        (R::TpotMsMean, From::Key("streaming_metrics.tpot_percentiles.average|streaming_metrics.avg_tpot_ms")),
        (R::TpotMsP50, From::Key("streaming_metrics.tpot_percentiles.p50")),
        (R::TpotMsP90, From::Key("streaming_metrics.tpot_percentiles.p90")),
        (R::TpotMsP95, From::Key("streaming_metrics.tpot_percentiles.p95")),
        (R::TpotMsP99, From::Key("streaming_metrics.tpot_percentiles.p99")),
        (R::E2elMsMean, From::Key("performance.request_latency_percentiles_ms.average|performance.avg_request_latency_ms")),
        (R::E2elMsP50, From::Key("performance.request_latency_percentiles_ms.p50")),
        (R::E2elMsP90, From::Key("performance.request_latency_percentiles_ms.p90")),
        (R::E2elMsP95, From::Key("performance.request_latency_percentiles_ms.p95")),
        (R::E2elMsP99, From::Key("performance.request_latency_percentiles_ms.p99")),
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
    same_format(file, &entries, Format::TrtllmServe)?;
    let mut out = Out {
        tool: "tensorrt_llm benchmark_serving",
        ..Out::default()
    };
    for e in &entries {
        let o = e.obj(file, bytes);
        let row = serve_row(&o, &SERVE, &mut out.facts)?;
        out.results.push(row);
        super::vllm::requests(&o, &mut out)?;
    }
    Ok(out)
}

pub(super) fn read_bench(
    file: &str,
    bytes: Option<&[u8]>,
    values: &[Located],
) -> Result<Out, ReadError> {
    let entries = entries(values);
    same_format(file, &entries, Format::TrtllmBench)?;
    let mut out = Out {
        tool: "trtllm-bench",
        ..Out::default()
    };
    for e in &entries {
        let o = e.obj(file, bytes);
        let mut row = Row::default();
        fill(BENCH.results, &o, &mut row)?;
        row.set_text(R::Engine, Some("tensorrt-llm"));
        row.set_num(
            R::DurationS,
            o.num("performance.total_latency_ms")?.map(|ms| ms / 1000.0),
        );
        if out.tool_version.is_none() {
            out.tool_version = o.text("engine.version")?;
        }
        if let Some(b) = o.text("engine.backend")? {
            push_distinct(&mut out.facts, Fact::text("backend", b, file));
        }
        if let Some(h) = o.text("machine.name")? {
            push_distinct(&mut out.facts, Fact::text("hardware", h, file));
        }
        out.results.push(row);
    }
    Ok(out)
}
