//! Which format a file is, told from its content and never from its name
//! (tools name their files after the model, the date or whatever
//! `--result-filename` said; `results.json` is a vLLM stream in one real
//! repository). Each format is known by the keys in [`SIGNATURES`], read
//! from the tools' source (`bench-results.md`, section 7); a file that
//! matches none is an error that lists them all.
//!
//! JSON (one object, an array, a stream of objects, JSON Lines) is told by
//! its first value; YAML by its keys once parsed; llama-bench's CSV by its
//! header; a server's boot log by the lines its engine prints at start-up.

use super::error::{ErrorKind, ReadError};
use super::json::{self, Located};
use serde_json::{Map, Value};

/// A format this module reads.
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
}

impl Format {
    /// The format as people know it.
    pub fn name(self) -> &'static str {
        SIGNATURES.iter().find(|s| s.0 == self).map_or("", |s| s.1)
    }

    /// Whether this is a console report pasted into text (a file may hold
    /// several; see [`super::Report`]).
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
pub const SIGNATURES: &[(Format, &str, &str)] = &[
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
];

/// A file parsed as what it looks like, before its format is known.
pub(crate) enum Input {
    Json(json::Parsed),
    Yaml(Value),
    Csv(String),
    Text(String),
}

/// Lines that only a serving engine's own log prints at start-up.
const SERVER_LOG_LINES: &[&str] = &[
    "Initializing a V1 LLM engine",
    "GPU KV cache size:",
    "vLLM API server version",
    "server_args=",
    "KV Cache is allocated",
    "max_total_num_tokens=",
    "[TRT-LLM] [",
    "for max tokens in paged KV cache",
];

/// Whether `text` is an engine's log: one of its start-up lines, and not
/// the console of a benchmark client (which prints the engine's version
/// line too when it imports the engine, as TensorRT-LLM's does).
fn is_server_log(text: &str) -> bool {
    SERVER_LOG_LINES.iter().any(|l| text.contains(l)) && !text.contains("Serving Benchmark Result")
}

/// The text of `bytes`, or an error at the first byte that is not UTF-8.
pub(crate) fn utf8<'b>(file: &str, bytes: &'b [u8]) -> Result<&'b str, ReadError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let (line, column) = json::position(bytes, e.valid_up_to());
        ReadError::new(ErrorKind::NotUtf8, file, "the file is not valid UTF-8 text")
            .at(line, column)
            .hint("result files are JSON, YAML, CSV or text in UTF-8, as the tools write them")
    })
}

/// Whether a text that starts like JSON but is none is read as text: a
/// server log, or a paste that holds a console report.
fn is_log_or_paste(text: &str) -> bool {
    is_server_log(text) || super::console::first_format(text).is_some()
}

/// Whether `bytes` are read as JSON, as [`parse_input`] reads them: they
/// start like JSON, and parse as JSON or are no log or paste. What scrubs
/// a file asks, so that it takes out what a reading would find by the
/// rules of what the reading takes it for (a broken JSON file with a
/// report pasted into one of its strings is a paste, and a text).
pub(crate) fn reads_as_json(bytes: &[u8]) -> bool {
    json::looks_like_json(bytes)
        && !(std::str::from_utf8(bytes).is_ok_and(is_log_or_paste)
            && json::parse("", bytes, true).is_err())
}

/// Parses `bytes` as JSON when they start like JSON, else as text (kept
/// for CSV, YAML and logs).
pub(crate) fn parse_input(file: &str, bytes: &[u8]) -> Result<Input, ReadError> {
    if json::looks_like_json(bytes) {
        match json::parse(file, bytes, true) {
            Ok(p) => return Ok(Input::Json(p)),
            // A log whose first line is `[TensorRT-LLM] …` starts like a
            // JSON array; it is a log when it reads as one.
            Err(e) => match std::str::from_utf8(bytes) {
                Ok(t) if is_log_or_paste(t) => return Ok(Input::Text(t.to_string())),
                _ => return Err(e),
            },
        }
    }
    let text = utf8(file, bytes)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let header = first.trim_start().trim_start_matches('"');
    if header.starts_with("build_commit\",") || header.starts_with("build_commit,") {
        return Ok(Input::Csv(text.to_string()));
    }
    let is_log = is_server_log(text);
    // A paste that opens like YAML (`Throughput: 89.27 requests/s, …`) is
    // a console report, not a report of guidellm's.
    if !is_log && starts_yaml_mapping(first) && super::console::first_format(text).is_none() {
        // The one YAML format is guidellm's report; serde_yaml is used here
        // directly because the loader's wrapper sits in a higher layer.
        match serde_yaml::from_str::<Value>(text) {
            Ok(v @ Value::Object(_)) => return Ok(Input::Yaml(v)),
            Ok(_) => {}
            Err(e) => return Err(yaml_error(file, text, &e)),
        }
    }
    Ok(Input::Text(text.to_string()))
}

/// Whether `line` opens a YAML mapping as a report does (`benchmarks:`,
/// `metadata:`, or `---`): a key of one word, then `:` and a space or the
/// end of the line. A log line (`Skipping import …: …`) is no such line.
pub(crate) fn starts_yaml_mapping(line: &str) -> bool {
    let line = line.trim_end();
    if line == "---" {
        return true;
    }
    let key_end = line.find(':').unwrap_or(0);
    key_end > 0
        && line[..key_end]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        && line[key_end + 1..].chars().next().is_none_or(|c| c == ' ')
}

/// A YAML error at its line and column; at the end of a text without a
/// final line end libyaml may point one line past the last, which is put
/// at the end of the last line.
fn yaml_error(file: &str, text: &str, e: &serde_yaml::Error) -> ReadError {
    let full = e.to_string();
    let what = full.split(" at line ").next().unwrap_or(&full);
    let lines: Vec<&str> = text.split('\n').collect();
    let (line, column) = match e.location() {
        Some(l) if l.line() > lines.len() => (
            lines.len(),
            lines.last().map_or(0, |l| l.chars().count()) + 1,
        ),
        Some(l) => (
            l.line(),
            l.column().min(lines[l.line() - 1].chars().count() + 1),
        ),
        None => (0, 0),
    };
    ReadError::new(ErrorKind::Syntax, file, format!("invalid YAML: {what}"))
        .at(line, column)
        .hint("a result file is read as its tool wrote it; an edited or cut-short copy cannot be read")
}

/// The format of `bytes`. `name` is used only in messages.
pub fn detect(name: &str, bytes: &[u8]) -> Result<Format, ReadError> {
    super::check_size(name, bytes)?;
    classify(name, &parse_input(name, bytes)?)
}

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
    } else {
        return None;
    })
}

/// The format of a parsed file.
pub(crate) fn classify(file: &str, input: &Input) -> Result<Format, ReadError> {
    match input {
        Input::Json(p) => classify_json(file, &p.values),
        Input::Yaml(v) => match object_format(v) {
            Some(Format::GuidellmJson) => Ok(Format::GuidellmYaml),
            _ => Err(unknown(file, &format!("YAML {}", shape(v)))),
        },
        Input::Csv(_) => Ok(Format::LlamaBenchCsv),
        Input::Text(t) => {
            // A console report first: a paste of trtllm-bench's output
            // carries TensorRT-LLM's log lines too.
            if let Some(f) = super::console::first_format(t) {
                Ok(f)
            } else if is_server_log(t) {
                Ok(Format::ServerLog)
            } else {
                Err(unknown(
                    file,
                    "text that is not JSON, YAML or llama-bench CSV, and no console report of a known tool",
                ))
            }
        }
    }
}

fn classify_json(file: &str, values: &[Located]) -> Result<Format, ReadError> {
    let Some(first) = values.first() else {
        return Err(unknown(file, "no JSON value at all"));
    };
    match &first.value {
        Value::Array(items) => {
            let Some(item) = items.first() else {
                return Err(unknown(file, "an empty JSON array"));
            };
            let f = object_format(item);
            match f {
                Some(Format::VllmServe) if item.get("run_number").is_some() => {
                    Ok(Format::VllmSweepSummary)
                }
                Some(Format::LlamaBench | Format::SglangOneBatch) => {
                    Ok(f.unwrap_or(Format::LlamaBench))
                }
                _ if item.get("tripwire").is_some() && item.get("status").is_some() => {
                    Ok(Format::InferlintResults)
                }
                _ => Err(unknown(
                    file,
                    &format!("a JSON array whose first item is {}", shape(item)),
                )),
            }
        }
        v => object_format(v).ok_or_else(|| unknown(file, &format!("a JSON {}", shape(v)))),
    }
}

/// What a value looks like, for the unknown-format message.
fn shape(v: &Value) -> String {
    match v {
        Value::Object(m) if m.is_empty() => "object with no keys".into(),
        Value::Object(m) => {
            let keys: Vec<&str> = m.keys().map(String::as_str).take(8).collect();
            let more = if m.len() > 8 {
                format!(", … ({} keys)", m.len())
            } else {
                String::new()
            };
            format!("object with the keys {}{more}", keys.join(", "))
        }
        Value::Array(_) => "array".into(),
        Value::String(_) => "string".into(),
        Value::Number(_) => "number".into(),
        Value::Bool(_) => "boolean".into(),
        Value::Null => "null".into(),
    }
}

fn unknown(file: &str, found: &str) -> ReadError {
    let mut msg = format!(
        "not a result file of a known format: the file holds {found}.\n  The format is told from the content; these are the formats and what each is known by:"
    );
    for (_, name, keys) in SIGNATURES {
        msg.push_str(&format!("\n    {name}: {keys}"));
    }
    ReadError::new(ErrorKind::UnknownFormat, file, msg)
}
