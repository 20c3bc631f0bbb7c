//! genai-perf's `profile_export_genai_perf.json`: one object per metric
//! (`{"unit", "avg", "p25", …, "p99"}`, in ms after genai-perf's scaling),
//! plus `input_config`, which changed shape in 2025: first the flat
//! argparse namespace (`model` list, `concurrency`, `u`, `endpoint`), then
//! nested sections (`model_names`, `endpoint{…}`,
//! `perf_analyzer.stimulus{concurrency | request_rate}`).
//!
//! genai-perf's `inter_token_latency` is per request, after the first
//! token: TPOT. The file names no engine (`backend` is a Triton backend
//! and defaults to `tensorrtllm` even against a vLLM server) and no
//! version of genai-perf.

use super::error::ReadError;
use super::fields::{entries, text_only};
use super::file::{push_distinct, same_format, Fact, Out};
use super::format::Format;
use super::json::Located;
use super::table::Row;
use super::vocabulary::{fill, From, Keys, ResultCol as R};

/// The keys of `profile_export_genai_perf.json`.
pub(super) static KEYS: Keys = Keys {
    tool: "genai-perf",
    results: &[
        (R::Tool, From::Derived("`genai-perf`")),
        (
            R::Model,
            From::Key("input_config.model_names.0|input_config.model.0"),
        ),
        (
            R::MaxConcurrency,
            From::Key("input_config.perf_analyzer.stimulus.concurrency|input_config.concurrency"),
        ),
        (
            R::RequestRate,
            From::Key("input_config.perf_analyzer.stimulus.request_rate|input_config.request_rate"),
        ),
        (R::Completed, From::Key("request_count.avg")),
        (R::RequestThroughput, From::Key("request_throughput.avg")),
        (R::RequestGoodput, From::Key("request_goodput.avg")),
        (
            R::OutputSpeedPerUser,
            From::Key("output_token_throughput_per_user.avg"),
        ),
        (
            R::OutputThroughput,
            From::Key("output_token_throughput.avg"),
        ),
        (R::TtftMsMean, From::Key("time_to_first_token.avg")),
        (R::TtftMsP50, From::Key("time_to_first_token.p50")),
        (R::TtftMsP90, From::Key("time_to_first_token.p90")),
        (R::TtftMsP95, From::Key("time_to_first_token.p95")),
        (R::TtftMsP99, From::Key("time_to_first_token.p99")),
        (R::TpotMsMean, From::Key("inter_token_latency.avg")),
        (R::TpotMsP50, From::Key("inter_token_latency.p50")),
        (R::TpotMsP90, From::Key("inter_token_latency.p90")),
        (R::TpotMsP95, From::Key("inter_token_latency.p95")),
        (R::TpotMsP99, From::Key("inter_token_latency.p99")),
        (R::E2elMsMean, From::Key("request_latency.avg")),
        (R::E2elMsP50, From::Key("request_latency.p50")),
        (R::E2elMsP90, From::Key("request_latency.p90")),
        (R::E2elMsP95, From::Key("request_latency.p95")),
        (R::E2elMsP99, From::Key("request_latency.p99")),
    ],
    requests: &[],
    series: &[],
};

/// `url` and `path` as one address.
pub(super) fn join_url(url: Option<String>, path: Option<String>) -> Option<String> {
    match (url, path) {
        (Some(u), Some(p)) if !p.is_empty() => Some(format!(
            "{}/{}",
            u.trim_end_matches('/'),
            p.trim_start_matches('/')
        )),
        (Some(u), _) => Some(u),
        (None, p) => p.filter(|p| !p.is_empty()),
    }
}

pub(super) fn read(file: &str, bytes: Option<&[u8]>, values: &[Located]) -> Result<Out, ReadError> {
    let entries = entries(values);
    same_format(file, &entries, Format::GenaiPerf)?;
    let mut out = Out {
        tool: "genai-perf",
        ..Out::default()
    };
    for e in &entries {
        let o = e.obj(file, bytes);
        let mut row = Row::default();
        fill(KEYS.results, &o, &mut row)?;
        out.results.push(row);
        let nested = o
            .get("input_config.endpoint")
            .is_some_and(serde_json::Value::is_object);
        let (url, path, kind, service) = if nested {
            (
                text_only(&o, "input_config.endpoint.url"),
                text_only(&o, "input_config.endpoint.custom"),
                text_only(&o, "input_config.endpoint.type"),
                text_only(&o, "input_config.endpoint.service_kind"),
            )
        } else {
            (
                text_only(&o, "input_config.u|input_config.url"),
                text_only(&o, "input_config.endpoint"),
                text_only(&o, "input_config.endpoint_type"),
                text_only(&o, "input_config.service_kind"),
            )
        };
        if let Some(addr) = join_url(url, path) {
            push_distinct(&mut out.facts, Fact::text("endpoint", addr, file));
        }
        let backend = [service, kind]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        if !backend.is_empty() {
            push_distinct(&mut out.facts, Fact::text("backend", backend, file));
        }
    }
    Ok(out)
}
