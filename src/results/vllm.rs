//! vLLM's benchmark files: `vllm bench serve --save-result` (one object,
//! an `--append-result` stream of them, a `vllm bench sweep serve` run file
//! or its `summary.json` array, and the older `benchmarks/benchmark_serving.py`
//! with its `"request_goodput:"` key), `vllm bench throughput` and
//! `vllm bench latency --output-json`.
//!
//! The files name no engine and no server version (`backend` is the API
//! the client spoke), so those columns stay empty. Latencies are in ms,
//! except the per-request arrays of `--save-detailed`, in seconds. A
//! result with no completed request gets no latency figures: vLLM writes
//! 0.0 for a mean over no requests, which is not a measured 0 ms.

use super::dates;
use super::error::ReadError;
use super::fields::{entries, Entry, Obj};
use super::file::{push_distinct, same_format, Fact, Out};
use super::format::Format;
use super::json::Located;
use super::table::Row;
use super::vocabulary::{
    fill, no_latency_without_requests, From, Keys, RequestCol as Q, ResultCol as R,
};
use serde_json::Value;

/// The columns of vLLM's serve shape, which TensorRT-LLM's
/// `benchmark_serving` copies.
pub(super) const SERVE_RESULTS: &[(R, From)] = &[
        (R::Tool, From::Derived("`vllm bench serve`; `vllm bench sweep serve` when the object has `run_number`; `vllm benchmark_serving.py` for the older script (a `request_goodput:` key, or no `failed`)")),
        (R::Model, From::Key("model_id")),
        (R::MaxConcurrency, From::Key("max_concurrency")),
        (R::RequestRate, From::Key("request_rate")),
        (R::NumPrompts, From::Key("num_prompts")),
        (R::Completed, From::Key("completed")),
        (R::Failed, From::Key("failed")),
        (R::DurationS, From::Key("duration")),
        (R::InputTokens, From::Key("total_input_tokens")),
        (R::OutputTokens, From::Key("total_output_tokens")),
        (R::RequestThroughput, From::Key("request_throughput")),
        (R::RequestGoodput, From::Key("request_goodput|request_goodput:")),
        (R::OutputThroughput, From::Key("output_throughput")),
        (R::PeakOutputThroughput, From::Key("max_output_tokens_per_s")),
        (R::TotalTokenThroughput, From::Key("total_token_throughput")),
        (R::PeakConcurrentRequests, From::Key("max_concurrent_requests")),
        (R::AcceptLength, From::Key("spec_decode_acceptance_length")),
        (R::TtftMsMean, From::Key("mean_ttft_ms")),
        (R::TtftMsP50, From::Key("median_ttft_ms")),
        (R::TtftMsP90, From::Key("p90_ttft_ms")),
        (R::TtftMsP95, From::Key("p95_ttft_ms")),
        (R::TtftMsP99, From::Key("p99_ttft_ms")),
        (R::TpotMsMean, From::Key("mean_tpot_ms")),
        (R::TpotMsP50, From::Key("median_tpot_ms")),
        (R::TpotMsP90, From::Key("p90_tpot_ms")),
        (R::TpotMsP95, From::Key("p95_tpot_ms")),
        (R::TpotMsP99, From::Key("p99_tpot_ms")),
        (R::ItlMsMean, From::Key("mean_itl_ms")),
        (R::ItlMsP50, From::Key("median_itl_ms")),
        (R::ItlMsP90, From::Key("p90_itl_ms")),
        (R::ItlMsP95, From::Key("p95_itl_ms")),
        (R::ItlMsP99, From::Key("p99_itl_ms")),
        (R::E2elMsMean, From::Key("mean_e2el_ms")),
        (R::E2elMsP50, From::Key("median_e2el_ms")),
        (R::E2elMsP90, From::Key("p90_e2el_ms")),
        (R::E2elMsP95, From::Key("p95_e2el_ms")),
        (R::E2elMsP99, From::Key("p99_e2el_ms")),
];

/// The keys of `vllm bench serve` (and of the sweep and the older script).
pub(super) static SERVE: Keys = Keys {
    tool: "vLLM `vllm bench serve`",
    results: SERVE_RESULTS,
    requests: &[
        (Q::TtftMs, From::Derived("`ttfts[i]` (seconds, × 1000), with `--save-detailed`; requests whose `errors[i]` is not empty are left out")),
        (Q::TpotMs, From::Derived("(`e2el` − `ttft`) / (`output_lens[i]` − 1)")),
        (Q::E2elMs, From::Derived("`latencies[i]` (seconds, × 1000); without it, `ttfts[i]` plus the sum of `itls[i]`")),
        (Q::InputTokens, From::Derived("`input_lens[i]`")),
        (Q::OutputTokens, From::Derived("`output_lens[i]`")),
        (Q::StartS, From::Derived("`start_times[i]` minus the smallest of them")),
    ],
    series: &[],
};

/// The keys of `vllm bench throughput --output-json`.
pub(super) static THROUGHPUT: Keys = Keys {
    tool: "vLLM `vllm bench throughput`",
    results: &[
        (R::NumPrompts, From::Key("num_requests")),
        (R::DurationS, From::Key("elapsed_time")),
        (R::RequestThroughput, From::Key("requests_per_second")),
        (R::TotalTokenThroughput, From::Key("tokens_per_second")),
    ],
    requests: &[],
    series: &[],
};

/// The keys of `vllm bench latency --output-json`: seconds per batch of
/// `--batch-size` prompts (the file does not record the size).
pub(super) static LATENCY: Keys = Keys {
    tool: "vLLM `vllm bench latency` (one batch of prompts)",
    results: &[
        (R::E2elMsMean, From::Seconds("avg_latency")),
        (R::E2elMsP50, From::Seconds("percentiles.50")),
        (R::E2elMsP90, From::Seconds("percentiles.90")),
        (R::E2elMsP99, From::Seconds("percentiles.99")),
    ],
    requests: &[],
    series: &[],
};

/// The tool that wrote one object of the serve family.
fn serve_tool(o: &Obj<'_>) -> &'static str {
    if o.has("run_number") {
        "vllm bench sweep serve"
    } else if o.has("request_goodput:") || !o.has("failed") && !o.has("endpoint_type") {
        "vllm benchmark_serving.py"
    } else {
        "vllm bench serve"
    }
}

pub(super) fn read_serve(
    file: &str,
    bytes: Option<&[u8]>,
    values: &[Located],
) -> Result<Out, ReadError> {
    let entries = entries(values);
    same_format(file, &entries, Format::VllmServe)?;
    let mut out = Out::default();
    for e in &entries {
        let o = e.obj(file, bytes);
        let row = serve_row(&o, &SERVE, &mut out.facts)?;
        let tool = serve_tool(&o);
        if out.tool.is_empty() {
            out.tool = tool;
        }
        let mut row = row;
        row.set_text(R::Tool, Some(tool));
        out.results.push(row);
        requests(&o, &mut out)?;
    }
    Ok(out)
}

/// A row of vLLM's serve shape (shared with TensorRT-LLM's copy of it),
/// and its facts: backend and date.
pub(super) fn serve_row(
    o: &Obj<'_>,
    keys: &Keys,
    facts: &mut Vec<Fact>,
) -> Result<Row<R>, ReadError> {
    let mut row = Row::default();
    fill(keys.results, o, &mut row)?;
    no_latency_without_requests(&mut row);
    if let Some(b) = o.text("backend|endpoint_type")? {
        push_distinct(facts, Fact::text("backend", b, o.file));
    }
    if let Some(d) = o.text("date")?.as_deref().and_then(dates::from_text) {
        push_distinct(facts, Fact::text("date", d, o.file));
    }
    Ok(row)
}

/// Numbers of the array at `key`, `None` for an item that is not one.
fn numbers(o: &Obj<'_>, key: &str) -> Result<Option<Vec<Option<f64>>>, ReadError> {
    if o.get(key).is_none() {
        return Ok(None);
    }
    let items = o.array(key)?;
    Ok(Some(
        items
            .iter()
            .map(|v| super::fields::number(v).ok().flatten())
            .collect(),
    ))
}

/// The per-request rows of `--save-detailed` (vLLM; SGLang's
/// `--output-details` has the same arrays): only where `ttfts` is kept.
pub(super) fn requests(o: &Obj<'_>, out: &mut Out) -> Result<(), ReadError> {
    let Some(ttfts) = numbers(o, "ttfts")? else {
        return Ok(());
    };
    let latencies = numbers(o, "latencies")?;
    let input = numbers(o, "input_lens")?.unwrap_or_default();
    let output = numbers(o, "output_lens")?.unwrap_or_default();
    let starts = numbers(o, "start_times")?.unwrap_or_default();
    let itls = o.array("itls")?;
    let errors = o.array("errors")?;
    let first_start = starts
        .iter()
        .flatten()
        .copied()
        .fold(f64::INFINITY, f64::min);
    for (i, ttft) in ttfts.iter().enumerate() {
        let failed = errors.get(i).is_some_and(|e| match e {
            Value::String(s) => !s.is_empty(),
            Value::Null => false,
            _ => true,
        });
        if failed {
            continue;
        }
        let e2el = match &latencies {
            Some(l) => l.get(i).copied().flatten(),
            None => ttft.map(|t| {
                t + itls.get(i).and_then(Value::as_array).map_or(0.0, |gaps| {
                    gaps.iter().filter_map(Value::as_f64).sum::<f64>()
                })
            }),
        };
        let out_len = output.get(i).copied().flatten();
        let tpot = match (e2el, *ttft, out_len) {
            (Some(e), Some(t), Some(n)) if n > 1.0 => Some((e - t) / (n - 1.0) * 1000.0),
            _ => None,
        };
        let mut row = Row::default();
        row.set_num(Q::TtftMs, ttft.map(|t| t * 1000.0));
        row.set_num(Q::TpotMs, tpot);
        row.set_num(Q::E2elMs, e2el.map(|e| e * 1000.0));
        row.set_num(Q::InputTokens, input.get(i).copied().flatten());
        row.set_num(Q::OutputTokens, out_len);
        row.set_num(
            Q::StartS,
            starts.get(i).copied().flatten().map(|s| s - first_start),
        );
        out.requests.push(row);
    }
    Ok(())
}

pub(super) fn read_throughput(
    file: &str,
    bytes: Option<&[u8]>,
    values: &[Located],
) -> Result<Out, ReadError> {
    simple(
        file,
        bytes,
        values,
        Format::VllmThroughput,
        &THROUGHPUT,
        "vllm bench throughput",
    )
}

pub(super) fn read_latency(
    file: &str,
    bytes: Option<&[u8]>,
    values: &[Located],
) -> Result<Out, ReadError> {
    simple(
        file,
        bytes,
        values,
        Format::VllmLatency,
        &LATENCY,
        "vllm bench latency",
    )
}

/// A file whose every result comes straight from its keys.
fn simple(
    file: &str,
    bytes: Option<&[u8]>,
    values: &[Located],
    format: Format,
    keys: &Keys,
    tool: &'static str,
) -> Result<Out, ReadError> {
    let entries: Vec<Entry<'_>> = entries(values);
    same_format(file, &entries, format)?;
    let mut out = Out {
        tool,
        ..Out::default()
    };
    for e in &entries {
        let mut row = Row::default();
        fill(keys.results, &e.obj(file, bytes), &mut row)?;
        out.results.push(row);
    }
    Ok(out)
}
