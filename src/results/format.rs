//! The formats the readers read: each one's name, and the keys (or lines)
//! it is known by ([`SIGNATURES`], read from the tools' source:
//! `bench-results.md`, section 7), and the format of one JSON object by
//! those keys ([`object_format`]). Shared by the readers (each checks that
//! a stream holds its format alone) and by `detect.rs`, which tells a
//! whole file's format; it names no reader.

use serde_json::{Map, Value};

/// A format the readers read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// `vllm bench serve --save-result`: one object, an `--append-result`
    /// stream of them, or a `vllm bench sweep serve` run file; also the
    /// older `benchmarks/benchmark_serving.py`.
    VllmServe,
    /// `vllm bench sweep serve`'s `summary.json`: an array of run objects.
    VllmSweepSummary,
    /// `vllm bench throughput --output-json`.
    VllmThroughput,
    /// `vllm bench latency --output-json`.
    VllmLatency,
    /// SGLang `bench_serving` JSON Lines, old and new key names.
    SglangServe,
    /// SGLang `bench_one_batch_server` JSON Lines (or its JSON array).
    SglangOneBatch,
    /// TensorRT-LLM's `benchmark_serving --save-result` (vLLM's shape).
    TrtllmServe,
    /// `trtllm-bench --report_json`.
    TrtllmBench,
    /// genai-perf `profile_export_genai_perf.json`.
    GenaiPerf,
    /// AIPerf `profile_export_aiperf.json`.
    Aiperf,
    /// `llama-bench -o json` (an array) or `-o jsonl`.
    LlamaBench,
    /// `llama-bench -o csv`.
    LlamaBenchCsv,
    /// A guidellm report in JSON.
    GuidellmJson,
    /// A guidellm report in YAML.
    GuidellmYaml,
    /// inferlint's `before.snapshot.json` / `after.snapshot.json`.
    InferlintSnapshot,
    /// inferlint's `run.series.jsonl`.
    InferlintSeries,
    /// inferlint's `results.json` (its checks).
    InferlintResults,
    /// A serving engine's start-up log (inferlint's `boot.log`).
    ServerLog,
    /// `vllm bench serve`'s console report, pasted.
    VllmServeReport,
    /// `vllm bench throughput`'s console line, pasted.
    VllmThroughputReport,
    /// `vllm bench latency`'s console report, pasted.
    VllmLatencyReport,
    /// SGLang `bench_serving`'s console report, pasted.
    SglangServeReport,
    /// `trtllm-bench`'s console report, pasted.
    TrtllmBenchReport,
    /// llama-bench's Markdown table, pasted.
    LlamaBenchReport,
    /// genai-perf's console table, pasted.
    GenaiPerfReport,
    /// lm-evaluation-harness's results file (`results_<time>.json`, 0.3's
    /// `results.json`).
    LmEvalResults,
    /// lm-evaluation-harness's sample log (`--log_samples`:
    /// `samples_<task>_<time>.jsonl`).
    LmEvalSamples,
    /// lm-evaluation-harness's printed results table, pasted.
    LmEvalTableReport,
    /// SGLang's `benchmark/gsm8k` or `benchmark/mmlu` print, pasted.
    SglangAccuracyReport,
    /// vLLM's `tests/evals/gsm8k` print, pasted.
    VllmGsm8kReport,
}

impl Format {
    /// The format as people know it.
    pub fn name(self) -> &'static str {
        SIGNATURES.iter().find(|s| s.0 == self).map_or("", |s| s.1)
    }

    /// Whether this is a console report pasted into text (a file may hold
    /// several; see [`super::file::Report`]).
    pub fn is_report(self) -> bool {
        matches!(
            self,
            Format::VllmServeReport
                | Format::VllmThroughputReport
                | Format::VllmLatencyReport
                | Format::SglangServeReport
                | Format::TrtllmBenchReport
                | Format::LlamaBenchReport
                | Format::GenaiPerfReport
                | Format::LmEvalTableReport
                | Format::SglangAccuracyReport
                | Format::VllmGsm8kReport
        )
    }

    /// Whether files of this format hold an accuracy evaluation (the
    /// tables `scores` and `answers`) rather than a benchmark of speed.
    pub fn is_accuracy(self) -> bool {
        matches!(
            self,
            Format::LmEvalResults
                | Format::LmEvalSamples
                | Format::LmEvalTableReport
                | Format::SglangAccuracyReport
                | Format::VllmGsm8kReport
        )
    }

    /// Whether files of this format hold a benchmark client's results
    /// (rather than an inferlint folder's server-side files).
    pub fn is_result(self) -> bool {
        !matches!(
            self,
            Format::InferlintSnapshot
                | Format::InferlintSeries
                | Format::InferlintResults
                | Format::ServerLog
        )
    }
}

/// Every format, its name, and the keys (or lines) it is known by.
pub(crate) const SIGNATURES: &[(Format, &str, &str)] = &[
    (Format::VllmServe, "vLLM `vllm bench serve --save-result`", "an object (or a stream of them) with `date`, `model_id`, `num_prompts` and `backend` or `endpoint_type`"),
    (Format::VllmSweepSummary, "vLLM `vllm bench sweep serve` summary", "an array of such objects with `run_number`"),
    (Format::VllmThroughput, "vLLM `vllm bench throughput --output-json`", "`elapsed_time` and `tokens_per_second`"),
    (Format::VllmLatency, "vLLM `vllm bench latency --output-json`", "`avg_latency` and `percentiles`"),
    (Format::SglangServe, "SGLang `bench_serving`", "lines with `completed` and `total_output_tokens_retokenized` or `total_output_retokenized`"),
    (Format::SglangOneBatch, "SGLang `bench_one_batch_server`", "`run_name`, `batch_size` and `overall_throughput`"),
    (Format::TrtllmServe, "TensorRT-LLM `benchmark_serving --save-result`", "the vLLM keys and `user_throughput` or `avg_decoded_tokens_per_iter`"),
    (Format::TrtllmBench, "TensorRT-LLM `trtllm-bench --report_json`", "objects `engine` and `performance`"),
    (Format::GenaiPerf, "genai-perf `profile_export_genai_perf.json`", "`input_config` with `perf_analyzer` or `model`, and metric objects with `unit` and `avg`"),
    (Format::Aiperf, "AIPerf `profile_export_aiperf.json`", "`input_config` with `endpoint.model_names`, or `was_cancelled`, `aiperf_version` or `records`"),
    (Format::LlamaBench, "llama.cpp `llama-bench -o json` or `-o jsonl`", "objects with `build_commit` and `avg_ts`"),
    (Format::LlamaBenchCsv, "llama.cpp `llama-bench -o csv`", "a header line starting `build_commit,build_number`"),
    (Format::GuidellmJson, "guidellm report (JSON)", "`benchmarks`, a list of objects with `type_` `generative_benchmark`"),
    (Format::GuidellmYaml, "guidellm report (YAML)", "the same keys, in YAML"),
    (Format::InferlintSnapshot, "inferlint snapshot", "`schema` `inferlint.snapshot/1`"),
    (Format::InferlintSeries, "inferlint time series", "a first line with `schema` `inferlint.series/1`"),
    (Format::InferlintResults, "inferlint `results.json`", "an array of objects with `tripwire` and `status`"),
    (Format::ServerLog, "a vLLM, SGLang or TensorRT-LLM boot log", "a start-up line such as `GPU KV cache size:`, `server_args=` or `[TRT-LLM] [I]`, and no console report"),
    (Format::VllmServeReport, "vLLM `vllm bench serve` console report (pasted)", "a `Serving Benchmark Result` banner of `=`, then `Successful requests:` and the other lines of vLLM, up to a rule of `=`"),
    (Format::VllmThroughputReport, "vLLM `vllm bench throughput` console line (pasted)", "`Throughput: N requests/s, N tokens/s`, or `N total tokens/s, N output tokens/s`"),
    (Format::VllmLatencyReport, "vLLM `vllm bench latency` console report (pasted)", "`Avg latency: N seconds`, then `N% percentile latency: N seconds` lines"),
    (Format::SglangServeReport, "SGLang `bench_serving` console report (pasted)", "the `Serving Benchmark Result` banner with SGLang's lines: `Backend:`, `Traffic request rate:`, `Total generated tokens (retokenized):`"),
    (Format::TrtllmBenchReport, "TensorRT-LLM `trtllm-bench` console report (pasted)", "sections headed `= ENGINE DETAILS`, `= PYTORCH BACKEND`, `= REQUEST DETAILS`, `= PERFORMANCE OVERVIEW` and others, old and new layouts"),
    (Format::LlamaBenchReport, "llama.cpp `llama-bench` Markdown table (pasted)", "a table whose header has `model`, `test` and `t/s`, and its `build: <commit> (<number>)` line"),
    (Format::GenaiPerfReport, "genai-perf console table (pasted)", "a table with a `Statistic` column and `avg`, `min`, `max`, `p99`, `p90`, `p75` columns, titled `NVIDIA GenAI-Perf` and `LLM Metrics`"),
    (Format::LmEvalResults, "lm-evaluation-harness results file", "an object with `results` (an object of tasks) and `versions`, `config` or `n-shot`"),
    (Format::LmEvalSamples, "lm-evaluation-harness sample log (`--log_samples`)", "lines with `doc_id` and `resps` or `filtered_resps`"),
    (Format::LmEvalTableReport, "lm-evaluation-harness results table (pasted)", "a table whose header has `Tasks` or `Groups`, `Metric` and `Value`"),
    (Format::SglangAccuracyReport, "SGLang `benchmark/gsm8k` or `benchmark/mmlu` print (pasted)", "`Accuracy: N` then `Invalid: N` (gsm8k), or `Average accuracy: N` (mmlu)"),
    (Format::VllmGsm8kReport, "vLLM `tests/evals/gsm8k` print (pasted)", "`Accuracy: N` then `Invalid responses: N`; or `Evaluation Results:` then `task: {…}` lines of lm_eval's keys"),
];

fn has(m: &Map<String, Value>, key: &str) -> bool {
    m.contains_key(key)
}

fn has_path(v: &Value, path: &str) -> bool {
    super::fields::find(v, path).is_some()
}

fn is_vllm_serve(m: &Map<String, Value>) -> bool {
    has(m, "date")
        && has(m, "model_id")
        && has(m, "num_prompts")
        && (has(m, "backend") || has(m, "endpoint_type"))
}

/// The format of one JSON object, if any.
pub(crate) fn object_format(v: &Value) -> Option<Format> {
    let m = v.as_object()?;
    let metric = |k: &str| {
        m.get(k)
            .and_then(Value::as_object)
            .is_some_and(|o| o.contains_key("unit") && o.contains_key("avg"))
    };
    Some(if is_vllm_serve(m) {
        if has(m, "user_throughput") || has(m, "avg_decoded_tokens_per_iter") {
            Format::TrtllmServe
        } else {
            Format::VllmServe
        }
    } else if m
        .get("schema")
        .and_then(Value::as_str)
        .is_some_and(|s| s.starts_with("inferlint.snapshot/"))
    {
        Format::InferlintSnapshot
    } else if m
        .get("schema")
        .and_then(Value::as_str)
        .is_some_and(|s| s.starts_with("inferlint.series/"))
    {
        Format::InferlintSeries
    } else if has(m, "elapsed_time") && has(m, "tokens_per_second") {
        Format::VllmThroughput
    } else if has(m, "avg_latency") && has(m, "percentiles") {
        Format::VllmLatency
    } else if has(m, "completed")
        && (has(m, "total_output_tokens_retokenized") || has(m, "total_output_retokenized"))
    {
        Format::SglangServe
    } else if has(m, "run_name") && has(m, "batch_size") && has(m, "overall_throughput") {
        Format::SglangOneBatch
    } else if m.get("engine").is_some_and(Value::is_object)
        && m.get("performance").is_some_and(Value::is_object)
    {
        Format::TrtllmBench
    } else if has(m, "build_commit") && has(m, "avg_ts") {
        Format::LlamaBench
    } else if m
        .get("benchmarks")
        .and_then(Value::as_array)
        .is_some_and(|b| {
            !b.is_empty()
                && b.iter()
                    .all(|x| x.get("type_").and_then(Value::as_str) == Some("generative_benchmark"))
        })
    {
        Format::GuidellmJson
    } else if has(m, "was_cancelled")
        || has(m, "aiperf_version")
        || (has(m, "records") && has(m, "input_config"))
        || has_path(v, "input_config.endpoint.model_names")
    {
        Format::Aiperf
    } else if has_path(v, "input_config.perf_analyzer")
        || has_path(v, "input_config.model")
        || (has(m, "input_config") && m.keys().any(|k| metric(k)))
    {
        Format::GenaiPerf
    } else if m.get("results").is_some_and(Value::is_object)
        && (has(m, "versions") || has(m, "config") || has(m, "n-shot"))
    {
        Format::LmEvalResults
    } else if has(m, "doc_id") && (has(m, "resps") || has(m, "filtered_resps")) {
        Format::LmEvalSamples
    } else {
        return None;
    })
}
