//! guidellm reports, JSON or YAML (the same dict), v0.2 to v0.7: a list
//! `benchmarks` of `generative_benchmark`s, one row each. Each metric is a
//! distribution per request status (`successful`, `errored`, …) with
//! `mean`, `median` and `percentiles` (`p50` is missing before v0.4:
//! `median` stands in); the successful requests are the ones read.
//!
//! Where the layouts differ: the strategy is `args.strategy` (v0.2–0.3)
//! or `config.strategy` (v0.4+); the request counts `request_totals` or
//! `metrics.request_totals`; the target and model `worker.backend_*`
//! (v0.2–0.3), `args.target`/`args.model` (v0.4–0.5) or
//! `config.spec.backend` (v0.7); the version `metadata.guidellm_version`
//! (v0.5+).
//!
//! guidellm's `inter_token_latency_ms` excludes the first token: TPOT.
//! Its `time_per_output_token_ms` includes it and goes to
//! `tpot_incl_first_ms_*`; its `request_latency` is in seconds.

use super::dates;
use super::error::ReadError;
use super::fields::{text_only, Obj};
use super::file::{push_distinct, Fact, Out};
use super::json::{Located, Seg};
use super::table::Row;
use super::vocabulary::{fill, From, Keys, RequestCol as Q, ResultCol as R};
use serde_json::Value;

/// The keys of a guidellm benchmark (paths below `benchmarks[i]`).
pub(super) static KEYS: Keys = Keys {
    tool: "guidellm",
    results: &[
        (R::Tool, From::Derived("`guidellm`")),
        (R::ToolVersion, From::Derived("the report's `metadata.guidellm_version` (v0.5+)")),
        (R::Model, From::Derived("`config.backend.model`, the report's `config.spec.backend.model` (v0.7), `args.model` (v0.4–0.6) or `worker.backend_model` (v0.2–0.3)")),
        (R::MaxConcurrency, From::Derived("the strategy's `streams` (concurrent), `max_concurrency` (throughput), or 1 (synchronous)")),
        (R::RequestRate, From::Derived("the strategy's `rate` (constant, poisson)")),
        (R::NumPrompts, From::Key("metrics.request_totals.total|request_totals.total")),
        (R::Completed, From::Key("metrics.request_totals.successful|request_totals.successful")),
        (R::Failed, From::Key("metrics.request_totals.errored|request_totals.errored")),
        (R::DurationS, From::Key("duration")),
        (R::InputTokens, From::Key("metrics.prompt_token_count.successful.total_sum")),
        (R::OutputTokens, From::Key("metrics.output_token_count.successful.total_sum")),
        (R::RequestThroughput, From::Key("metrics.requests_per_second.successful.mean")),
        (R::OutputThroughput, From::Key("metrics.output_tokens_per_second.successful.mean")),
        (R::TotalTokenThroughput, From::Key("metrics.tokens_per_second.successful.mean")),
        (R::TtftMsMean, From::Key("metrics.time_to_first_token_ms.successful.mean")),
        (R::TtftMsP50, From::Key("metrics.time_to_first_token_ms.successful.percentiles.p50|metrics.time_to_first_token_ms.successful.median")),
        (R::TtftMsP90, From::Key("metrics.time_to_first_token_ms.successful.percentiles.p90")),
        (R::TtftMsP95, From::Key("metrics.time_to_first_token_ms.successful.percentiles.p95")),
        (R::TtftMsP99, From::Key("metrics.time_to_first_token_ms.successful.percentiles.p99")),
        (R::TpotMsMean, From::Key("metrics.inter_token_latency_ms.successful.mean")),
        (R::TpotMsP50, From::Key("metrics.inter_token_latency_ms.successful.percentiles.p50|metrics.inter_token_latency_ms.successful.median")),
        (R::TpotMsP90, From::Key("metrics.inter_token_latency_ms.successful.percentiles.p90")),
        (R::TpotMsP95, From::Key("metrics.inter_token_latency_ms.successful.percentiles.p95")),
        (R::TpotMsP99, From::Key("metrics.inter_token_latency_ms.successful.percentiles.p99")),
        (R::E2elMsMean, From::Seconds("metrics.request_latency.successful.mean")),
        (R::E2elMsP50, From::Seconds("metrics.request_latency.successful.percentiles.p50|metrics.request_latency.successful.median")),
        (R::E2elMsP90, From::Seconds("metrics.request_latency.successful.percentiles.p90")),
        (R::E2elMsP95, From::Seconds("metrics.request_latency.successful.percentiles.p95")),
        (R::E2elMsP99, From::Seconds("metrics.request_latency.successful.percentiles.p99")),
        (R::TpotInclFirstMsMean, From::Key("metrics.time_per_output_token_ms.successful.mean")),
        (R::TpotInclFirstMsP50, From::Key("metrics.time_per_output_token_ms.successful.percentiles.p50|metrics.time_per_output_token_ms.successful.median")),
        (R::TpotInclFirstMsP90, From::Key("metrics.time_per_output_token_ms.successful.percentiles.p90")),
        (R::TpotInclFirstMsP99, From::Key("metrics.time_per_output_token_ms.successful.percentiles.p99")),
    ],
    requests: &[
        (Q::TtftMs, From::Key("time_to_first_token_ms")),
        (Q::TpotMs, From::Key("inter_token_latency_ms")),
        (Q::E2elMs, From::Seconds("request_latency")),
        (Q::InputTokens, From::Key("prompt_tokens")),
        (Q::OutputTokens, From::Key("output_tokens")),
        (Q::StartS, From::Derived("`request_start_time` (v0.4+) or `start_time`, minus the earliest (for each of `requests.successful[]`)")),
    ],
    series: &[],
};

pub(super) fn read(file: &str, bytes: Option<&[u8]>, values: &[Located]) -> Result<Out, ReadError> {
    let mut out = Out {
        tool: "guidellm",
        ..Out::default()
    };
    for report in values {
        let top = Obj::top(&report.value, file, bytes, report.offset, report.line);
        if out.tool_version.is_none() {
            out.tool_version = top.text("metadata.guidellm_version")?;
        }
        let report_model =
            top.text("config.spec.backend.model|args.model|args.backend_kwargs.model")?;
        let report_target = text_only(
            &top,
            "config.spec.backend.target|args.target|args.backend_kwargs.target",
        );
        let report_kind = text_only(&top, "config.spec.backend.kind|args.backend");
        let benchmarks = top.array("benchmarks")?;
        let prefixes: Vec<Vec<Seg>> = (0..benchmarks.len())
            .map(|i| vec![Seg::Key("benchmarks".into()), Seg::Index(i)])
            .collect();
        for (b, prefix) in benchmarks.iter().zip(&prefixes) {
            let o = top.child(b, prefix);
            let mut row = Row::default();
            fill(KEYS.results, &o, &mut row)?;
            row.set_text(
                R::Model,
                o.text("config.backend.model|worker.backend_model")?
                    .or(report_model.clone()),
            );
            strategy(&o, &mut row)?;
            out.results.push(row);
            if let Some(t) = text_only(&o, "config.backend.target|worker.backend_target")
                .or(report_target.clone())
            {
                push_distinct(&mut out.facts, Fact::text("endpoint", t, file));
            }
            if let Some(k) =
                text_only(&o, "config.backend.kind|worker.backend_type").or(report_kind.clone())
            {
                push_distinct(&mut out.facts, Fact::text("backend", k, file));
            }
            if let Some(d) = o.num("start_time")?.and_then(dates::from_unix) {
                push_distinct(&mut out.facts, Fact::text("date", d, file));
            }
            requests(&o, prefix, &mut out)?;
        }
    }
    Ok(out)
}

/// The concurrency or rate the benchmark's strategy asked for.
fn strategy(o: &Obj<'_>, row: &mut Row<R>) -> Result<(), ReadError> {
    let Some(s) = o.get("config.strategy|args.strategy") else {
        return Ok(());
    };
    let kind = s.get("type_").and_then(Value::as_str).unwrap_or("");
    let prefix = if o.get("config.strategy").is_some() {
        "config.strategy"
    } else {
        "args.strategy"
    };
    let at = |k: &str| o.num(&format!("{prefix}.{k}"));
    match kind {
        "synchronous" => row.set_num(R::MaxConcurrency, Some(1.0)),
        "concurrent" => row.set_num(R::MaxConcurrency, at("streams")?),
        "throughput" => row.set_num(R::MaxConcurrency, at("max_concurrency")?),
        "constant" | "poisson" => {
            row.set_num(R::RequestRate, at("rate")?);
            row.set_num(R::MaxConcurrency, at("max_concurrency")?);
        }
        _ => {}
    }
    Ok(())
}

/// The successful requests the report kept (guidellm keeps all, or a sample).
fn requests(o: &Obj<'_>, prefix: &[Seg], out: &mut Out) -> Result<(), ReadError> {
    let kept = o.array("requests.successful")?;
    let paths: Vec<Vec<Seg>> = (0..kept.len())
        .map(|i| {
            let mut p = prefix.to_vec();
            p.extend([
                Seg::Key("requests".into()),
                Seg::Key("successful".into()),
                Seg::Index(i),
            ]);
            p
        })
        .collect();
    let mut rows = Vec::with_capacity(kept.len());
    let mut first = f64::INFINITY;
    for (r, path) in kept.iter().zip(&paths) {
        let ro = o.child(r, path);
        let mut row = Row::default();
        fill(KEYS.requests, &ro, &mut row)?;
        let start = ro.num("request_start_time|start_time")?;
        if let Some(s) = start {
            first = first.min(s);
        }
        rows.push((row, start));
    }
    for (mut row, start) in rows {
        row.set_num(Q::StartS, start.map(|s| s - first));
        out.requests.push(row);
    }
    Ok(())
}
