//! The one vocabulary every result file is read into: the tables
//! `results`, `requests` and `series`, each column with its name, unit and
//! definition, and for each tool the key its value comes from.
//!
//! All of it is data: the column enums and their descriptions come from the
//! `columns!` tables below, and each reader declares its [`Keys`] (which
//! key of its tool's file fills which column). The readers fill their rows
//! from those same declarations (`fill`), and `docs/format.md` §8.5 is
//! generated from them ([`markdown`](super::docs::markdown);
//! `tests/results.rs` holds the file to it), so the documentation cannot say one thing while the code does
//! another. The names are fixed by issue 21: checks outside the project
//! read them.
//!
//! Same meaning, same column; different meaning, different column, even
//! where tools share a name: genai-perf's and AIPerf's
//! `inter_token_latency` and guidellm's `inter_token_latency_ms` are what
//! vLLM and SGLang call TPOT and go to `tpot_ms_*`; guidellm's
//! `time_per_output_token_ms` includes the first token and has its own
//! `tpot_incl_first_ms_*`.

use super::error::ReadError;
use super::fields::Obj;
pub use super::table::{Column, Kind};
use super::table::{Columns, Row};

macro_rules! columns {
    ($(#[$m:meta])* $enum:ident, $table:literal, [$($id:ident = $name:literal, $kind:ident, $unit:literal, $def:literal;)*]) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $enum {
            $(#[doc = $def] $id,)*
        }

        impl Columns for $enum {
            const TABLE: &'static str = $table;
            const ALL: &'static [Column] = &[$(Column {
                name: $name,
                kind: Kind::$kind,
                unit: $unit,
                definition: $def,
            },)*];
            fn index(self) -> usize {
                self as usize
            }
        }
    };
}

columns!(
    /// The columns of the table `results`: one row per result, that is one
    /// benchmark at one setting.
    ResultCol, "results", [
    Source = "source", Text, "", "The result file the row was read from, by its name in the run's folder.";
    Report = "report", Text, "", "Where in a pasted text the row's report was found: its lines (`lines 5–29`); empty for the files the tools write.";
    Tool = "tool", Text, "", "The program that wrote the file.";
    ToolVersion = "tool_version", Text, "", "The version of that program, where the file records it.";
    Engine = "engine", Text, "", "The serving engine measured (`vllm`, `sglang`, `tensorrt-llm`, `llama.cpp`), where the file records it; a client's backend name (`openai`, `vllm`) says which API it spoke, not which engine answered, and is not taken for it.";
    Version = "version", Text, "", "The engine's version, where the file records it.";
    Model = "model", Text, "", "The model as the file names it (a hub id or a local path).";
    MaxConcurrency = "max_concurrency", Number, "requests", "The most requests the client was asked to keep in flight at once; empty when unlimited or not recorded.";
    RequestRate = "request_rate", Number, "req/s", "The rate the client was asked to send requests at; `inf` when they were all sent at once.";
    NumPrompts = "num_prompts", Number, "requests", "How many requests the client was asked to send.";
    Completed = "completed", Number, "requests", "Requests that completed.";
    Failed = "failed", Number, "requests", "Requests that failed; empty where the file does not count them.";
    DurationS = "duration_s", Number, "s", "How long the benchmark ran.";
    InputTokens = "input_tokens", Number, "tokens", "Prompt tokens of the completed requests, in total.";
    InputTextTokens = "input_text_tokens", Number, "tokens", "Of the prompt tokens, those of text (SGLang counts a multimodal prompt's text and images apart).";
    InputVisionTokens = "input_vision_tokens", Number, "tokens", "Of the prompt tokens, those of images.";
    OutputTokens = "output_tokens", Number, "tokens", "Output tokens of the completed requests, in total.";
    OutputTokensRetokenized = "output_tokens_retokenized", Number, "tokens", "SGLang: the output texts' tokens when tokenized again by the client (a count below `output_tokens` means texts that do not tokenize back to what was generated).";
    RequestThroughput = "request_throughput", Number, "req/s", "Completed requests a second over the benchmark.";
    RequestGoodput = "request_goodput", Number, "req/s", "Completed requests a second that met the service-level objectives the client was given (vLLM's and genai-perf's `--goodput`).";
    InputThroughput = "input_throughput", Number, "tok/s", "Prompt tokens a second over the benchmark.";
    OutputThroughput = "output_throughput", Number, "tok/s", "Output tokens a second over the benchmark.";
    PeakOutputThroughput = "peak_output_throughput", Number, "tok/s", "The most output tokens the client received in one second of the benchmark.";
    TotalTokenThroughput = "total_token_throughput", Number, "tok/s", "Prompt and output tokens a second over the benchmark.";
    OutputThroughputPerUser = "output_throughput_per_user", Number, "tok/s", "Output tokens a second of one request, the first token and its wait included (output tokens over the request's latency), mean over the requests: trtllm-bench's per-user output throughput.";
    OutputSpeedPerUser = "output_speed_per_user", Number, "tok/s", "Output tokens a second of one request after its first token (1/TPOT), mean over the requests: trtllm-bench's per-user output speed, genai-perf's output token throughput per user.";
    OutputThroughputPerGpu = "output_throughput_per_gpu", Number, "tok/s", "Output throughput over the number of GPUs (trtllm-bench: the world size).";
    PeakConcurrentRequests = "peak_concurrent_requests", Number, "requests", "The most requests in flight at once, as the client counted them.";
    MeanConcurrency = "mean_concurrency", Number, "requests", "Requests in flight on average over the benchmark (the sum of the requests' latencies over its duration).";
    AcceptLength = "accept_length", Number, "tokens", "Speculative decoding: tokens accepted a step, mean (draft tokens accepted and the token the target model adds).";
    TtftMsMean = "ttft_ms_mean", Number, "ms", "Time to first token (from sending a request to its first output token): mean over the completed requests.";
    TtftMsP50 = "ttft_ms_p50", Number, "ms", "Time to first token: median.";
    TtftMsP90 = "ttft_ms_p90", Number, "ms", "Time to first token: 90th percentile.";
    TtftMsP95 = "ttft_ms_p95", Number, "ms", "Time to first token: 95th percentile.";
    TtftMsP99 = "ttft_ms_p99", Number, "ms", "Time to first token: 99th percentile.";
    TpotMsMean = "tpot_ms_mean", Number, "ms", "Time per output token after the first, per request ((latency - TTFT) / (output tokens - 1)): mean over the completed requests. genai-perf, AIPerf and guidellm call it inter-token latency.";
    TpotMsP50 = "tpot_ms_p50", Number, "ms", "Time per output token after the first: median.";
    TpotMsP90 = "tpot_ms_p90", Number, "ms", "Time per output token after the first: 90th percentile.";
    TpotMsP95 = "tpot_ms_p95", Number, "ms", "Time per output token after the first: 95th percentile.";
    TpotMsP99 = "tpot_ms_p99", Number, "ms", "Time per output token after the first: 99th percentile.";
    ItlMsMean = "itl_ms_mean", Number, "ms", "Inter-token latency as vLLM and SGLang define it: the gaps between successive output chunks, pooled over all requests: mean.";
    ItlMsP50 = "itl_ms_p50", Number, "ms", "Pooled inter-chunk gaps: median.";
    ItlMsP90 = "itl_ms_p90", Number, "ms", "Pooled inter-chunk gaps: 90th percentile.";
    ItlMsP95 = "itl_ms_p95", Number, "ms", "Pooled inter-chunk gaps: 95th percentile.";
    ItlMsP99 = "itl_ms_p99", Number, "ms", "Pooled inter-chunk gaps: 99th percentile.";
    E2elMsMean = "e2el_ms_mean", Number, "ms", "End-to-end latency of a request as the client measured it: mean over the completed requests.";
    E2elMsP50 = "e2el_ms_p50", Number, "ms", "End-to-end latency: median.";
    E2elMsP90 = "e2el_ms_p90", Number, "ms", "End-to-end latency: 90th percentile.";
    E2elMsP95 = "e2el_ms_p95", Number, "ms", "End-to-end latency: 95th percentile.";
    E2elMsP99 = "e2el_ms_p99", Number, "ms", "End-to-end latency: 99th percentile.";
    TpotInclFirstMsMean = "tpot_incl_first_ms_mean", Number, "ms", "Time per output token including the first (request latency / output tokens), which only guidellm reports: mean. Not comparable with `tpot_ms_*`.";
    TpotInclFirstMsP50 = "tpot_incl_first_ms_p50", Number, "ms", "Time per output token including the first: median.";
    TpotInclFirstMsP90 = "tpot_incl_first_ms_p90", Number, "ms", "Time per output token including the first: 90th percentile.";
    TpotInclFirstMsP99 = "tpot_incl_first_ms_p99", Number, "ms", "Time per output token including the first: 99th percentile.";
    Test = "test", Text, "", "llama-bench: the test as its table names it, from the tokens it processed: `pp512` (512 prompt tokens), `tg128` (128 generated), `pp512+tg128`, with ` @ d4096` for a depth already in the KV cache. Each test is a workload of its own.";
    NPrompt = "n_prompt", Number, "tokens", "llama-bench: prompt tokens processed in one repetition (0 for a generation test).";
    NGen = "n_gen", Number, "tokens", "llama-bench: tokens generated in one repetition (0 for a prompt test).";
    NDepth = "n_depth", Number, "tokens", "llama-bench: tokens already in the KV cache before the test.";
    TokensPerS = "tokens_per_s", Number, "tok/s", "llama-bench: (n_prompt + n_gen) / time, mean over the repetitions.";
    TokensPerSStd = "tokens_per_s_std", Number, "tok/s", "llama-bench: standard deviation of `tokens_per_s` over the repetitions.";
    Backends = "backends", Text, "", "llama-bench: the ggml backends the build used (`CUDA`, `ROCm`, `Vulkan`, `CPU`), which tell apart runs of one file.";
    FlashAttn = "flash_attn", Number, "", "llama-bench: flash attention asked for: 1 on, 0 off, -1 auto.";
    Settings = "settings", Text, "", "llama-bench: the settings its Markdown table shows beside the test, as `name=value` (the ones off their defaults or swept, such as `threads=8`, `ngl=99`), which tell its rows apart.";
    ModelParams = "model_params", Number, "", "llama-bench: the model's parameters (`20.91 B` in its table is 20,910,000,000), which tell apart the files its model type names alike (`gpt-oss ?B MXFP4 MoE` in builds that did not know the size).";
]);

columns!(
    /// The columns of the table `requests`: one row per completed request,
    /// where the file keeps per-request figures.
    RequestCol, "requests", [
    Source = "source", Text, "", "The result file the row was read from.";
    TtftMs = "ttft_ms", Number, "ms", "Time to first token of this request.";
    TpotMs = "tpot_ms", Number, "ms", "Time per output token after the first: (latency - TTFT) / (output tokens - 1); empty for a request of one token.";
    E2elMs = "e2el_ms", Number, "ms", "End-to-end latency of this request.";
    InputTokens = "input_tokens", Number, "tokens", "Prompt tokens of this request.";
    OutputTokens = "output_tokens", Number, "tokens", "Output tokens of this request.";
    StartS = "start_s", Number, "s", "When the request was sent, from the first request of the file.";
]);

columns!(
    /// The columns of the table `series`: one row per sample of an
    /// inferlint time series of the server's gauges and counters.
    SeriesCol, "series", [
    TS = "t_s", Number, "s", "Time of the sample, from the first sample (monotonic clock).";
    Running = "running", Number, "requests", "Requests the server was running (its gauge); empty where the server exports none.";
    Waiting = "waiting", Number, "requests", "Requests waiting in the server's queue (its gauge).";
    KvUsage = "kv_usage", Number, "", "Share of the KV cache pool in use, 0 to 1 (its gauge).";
    Preemptions = "preemptions", Number, "preemptions", "Preemptions (SGLang: retractions) since the first sample of the run: a count of preemptions, not of requests (one request can be preempted more than once).";
    GenerationTokensPerS = "generation_tokens_per_s", Number, "tok/s", "Output tokens a second since the previous sample, from the server's counter; empty on the first sample and where the counter went down.";
]);

columns!(
    /// The columns of the table `scores`: one row per task, filter and
    /// metric of an accuracy evaluation (lm-evaluation-harness's results,
    /// its printed table, SGLang's and vLLM's gsm8k prints). The names are
    /// fixed by issue 44: checks outside the project read them.
    ScoreCol, "scores", [
    Task = "task", Text, "", "The task (lm_eval's task name, `gsm8k`, `mmlu_stem`); a group's own row names the group.";
    Filter = "filter", Text, "", "The filter that took the answer out of the reply (`strict-match`, `flexible-extract`), `none` where the task has none.";
    Metric = "metric", Text, "", "The metric (`exact_match`, `acc`, `acc_norm`, `f1`; SGLang's and vLLM's gsm8k prints: `accuracy`, `invalid`).";
    NShot = "n_shot", Number, "examples", "Examples given before each question (few-shot); empty where the file does not say.";
    Value = "value", Number, "", "The score, as the tool wrote it (a share from 0 to 1 for accuracy).";
    Stderr = "stderr", Number, "", "Its standard error as the tool computed it (bootstrap or analytic), in the unit of `value`; empty where the tool gave none (`N/A`, `NaN`).";
    N = "n", Number, "questions", "The questions the score is over (lm_eval's `n-samples` effective count, the gsm8k scripts' question count); empty where the file does not say.";
    HigherIsBetter = "higher_is_better", Text, "", "`true` when a higher value is better, `false` when lower is, as the tool declares it (the table's `↑`/`↓`); empty where it does not.";
    Group = "group", Text, "", "The group the task is part of (lm_eval's `group_subtasks`, or the ` - ` rows under a group in its table); a group's own row names itself.";
]);

columns!(
    /// The columns of the table `answers`: one row per question (and
    /// filter) of an lm_eval sample log (`--log_samples`). The names are
    /// fixed by issue 44.
    AnswerCol, "answers", [
    Task = "task", Text, "", "The task, from the log's file name (`samples_<task>_<time>.jsonl`): the log itself does not name it.";
    Question = "question", Text, "", "The question: the sample's `doc_hash` (the same question has the same hash in every run), else its `doc_id`.";
    Filter = "filter", Text, "", "The filter that took the answer out of the reply (`strict-match`, `flexible-extract`, `none`).";
    Target = "target", Text, "", "The expected answer, as the task gives it.";
    Reply = "reply", Text, "", "The model's reply, whole (`resps`, the first of the first).";
    Extracted = "extracted", Text, "", "The answer the filter took out of the reply (`filtered_resps`); `[invalid]` where it found none.";
    Correct = "correct", Number, "", "1 when the answer was graded right, 0 when wrong (the sample's first metric, when it is a number); empty for a metric computed over the whole set (`f1`, `bleu`).";
]);

/// Where a column's value comes from in one tool's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum From {
    /// The value at this key path (`a.b`, alternatives `a|b`), as it is.
    Key(&'static str),
    /// Seconds at this key path, written in milliseconds.
    Seconds(&'static str),
    /// Milliseconds or tokens computed by the reader; the text says how.
    Derived(&'static str),
}

/// Which key of one tool's files fills which column: declared once per
/// reader, used by the reader and by the documentation.
#[derive(Debug)]
pub struct Keys {
    /// The tool and file as the documentation names them.
    pub tool: &'static str,
    /// Columns of `results`.
    pub results: &'static [(ResultCol, From)],
    /// Columns of `requests`.
    pub requests: &'static [(RequestCol, From)],
    /// Columns of `series`.
    pub series: &'static [(SeriesCol, From)],
}

/// Sets every column of `keys` that comes straight from a key of `o`
/// (numbers or text by the column's kind; seconds made milliseconds).
/// Derived columns are the reader's to set.
pub(crate) fn fill<C: Columns>(
    keys: &[(C, From)],
    o: &Obj<'_>,
    row: &mut Row<C>,
) -> Result<(), ReadError> {
    for &(col, from) in keys {
        match (from, col.column().kind) {
            (From::Key(p), Kind::Number) => row.set_num(col, o.num(p)?),
            (From::Key(p), Kind::Text) => row.set_text(col, o.text(p)?),
            (From::Seconds(p), _) => row.set_num(col, o.num(p)?.map(|s| s * 1000.0)),
            (From::Derived(_), _) => {}
        }
    }
    Ok(())
}

/// The latency columns, emptied for a result that completed nothing.
const LATENCIES: [ResultCol; 24] = [
    ResultCol::TtftMsMean,
    ResultCol::TtftMsP50,
    ResultCol::TtftMsP90,
    ResultCol::TtftMsP95,
    ResultCol::TtftMsP99,
    ResultCol::TpotMsMean,
    ResultCol::TpotMsP50,
    ResultCol::TpotMsP90,
    ResultCol::TpotMsP95,
    ResultCol::TpotMsP99,
    ResultCol::ItlMsMean,
    ResultCol::ItlMsP50,
    ResultCol::ItlMsP90,
    ResultCol::ItlMsP95,
    ResultCol::ItlMsP99,
    ResultCol::E2elMsMean,
    ResultCol::E2elMsP50,
    ResultCol::E2elMsP90,
    ResultCol::E2elMsP95,
    ResultCol::E2elMsP99,
    ResultCol::TpotInclFirstMsMean,
    ResultCol::TpotInclFirstMsP50,
    ResultCol::TpotInclFirstMsP90,
    ResultCol::TpotInclFirstMsP99,
];

/// Empties the latency columns of a row whose `completed` is 0.
pub(crate) fn no_latency_without_requests(row: &mut Row<ResultCol>) {
    if row.num(ResultCol::Completed) == Some(0.0) {
        for c in LATENCIES {
            row.set_num(c, None);
        }
    }
}

/// A test as llama-bench's table names it, from the tokens it processed:
/// `pp512`, `tg128`, `pp512+tg128`, and ` @ d4096` for a depth already in
/// the KV cache (none for depth 0).
pub(crate) fn test_name(prompt: f64, generated: f64, depth: Option<f64>) -> String {
    let whole = |x: f64| format!("{}", x.round() as i64);
    let mut t = match (prompt > 0.0, generated > 0.0) {
        (true, true) => format!("pp{}+tg{}", whole(prompt), whole(generated)),
        (true, false) => format!("pp{}", whole(prompt)),
        (false, true) => format!("tg{}", whole(generated)),
        (false, false) => "pp0".to_string(),
    };
    if let Some(d) = depth.filter(|d| *d > 0.0) {
        t.push_str(&format!(" @ d{}", whole(d)));
    }
    t
}

/// The facts a reader or a run folder gives beside the tables, each with
/// what it means (the documentation lists them from here).
pub const FACTS: &[(&str, &str)] = &[
    ("tool", "The program that wrote the file."),
    ("tool_version", "Its version, where the file records it."),
    ("engine", "The serving engine measured, where a file records it (a run folder: from the server's own metrics)."),
    ("version", "The engine's version, where a file records it (a run folder: from the boot log)."),
    ("model", "The model, as the file names it."),
    ("endpoint", "Where the client sent its requests: a URL or an API path."),
    ("backend", "The client's backend or API type (`openai`, `openai-chat`, `sglang`, `openai_http`)."),
    ("hardware", "The GPU (or CPU) the file names: llama-bench's `gpu_info` or `cpu_info`, trtllm-bench's `machine.name`."),
    ("build_commit", "llama.cpp: the git commit of the build (`build_commit`)."),
    ("report", "Where in a pasted text a report was found: its lines (`lines 5–29`)."),
    ("date", "The day the benchmark ran, from the file (never the clock), as YYYY-MM-DD."),
    ("max_concurrency", "A concurrency the client was asked for (one fact per distinct value)."),
    ("request_rate", "A request rate the client was asked for (one fact per distinct value)."),
    ("failed", "Failed requests, over every result of the file."),
    ("max_running", "The most requests the server ran at once (the largest `running` of the series)."),
    ("max_waiting", "The most requests waiting in the server's queue at once (the largest `waiting` of the series)."),
    ("preemptions", "Preemptions during the run: after minus before of the server's counter (vLLM `vllm:num_preemptions_total`, SGLang `sglang:num_retracted_requests_total`); TensorRT-LLM's pauses counted from its log."),
    ("kv_cache_tokens", "The KV cache pool of the start, in tokens, from the boot log."),
    ("kv_cache_gib", "The KV cache memory of the start, in GiB, from the boot log (vLLM and TensorRT-LLM)."),
    ("running_limit", "SGLang: the most requests it will run at once, from the boot log; lowered below what was asked when its log says why."),
    ("running_limit_asked", "SGLang: the running limit it was given (`max_running_requests` of the `server_args` its log prints)."),
    ("running_limit_cause", "SGLang: what its log says lowered the running limit (`max_running_requests is capped to N by the …`)."),
    ("prefix_cache", "SGLang: `on` or `off`, its prefix (radix) cache, from `disable_radix_cache` of its `server_args`."),
    ("recurrent_state", "SGLang: `yes` when the start allocated a Mamba cache (a hybrid model's recurrent state), else `no`."),
    ("start_args", "A digest of the arguments the boot log prints (vLLM's `non-default args`, SGLang's `server_args` without its random seed, TensorRT-LLM's arguments line): two starts with the same digest were given the same flags."),
    ("preemptions_counted", "Preemptions as the server's own counter counts them, after minus before (vLLM `vllm:num_preemptions_total`, SGLang `sglang:num_retracted_requests_total`, else a counter named for preempted, paused or retracted requests); unknown, with why, where the server exports none (TensorRT-LLM)."),
    ("preemption_log_lines", "Lines of the boot log that record a preemption (that mention one, or TensorRT-LLM's `request ID … -> pause`), outside the start's dumps of its arguments; unknown for a TensorRT-LLM log without INFO lines."),
    ("counter_readings", "Readings of the series taken while requests ran (`running` above 0), each after another reading."),
    ("counter_moves", "Of those readings, the ones at which the generated-token counter had moved since the reading before."),
    ("engine_outlived_server", "inferlint's T2 (`results.json`): `yes` when the engine process outlived the killed API server and kept the GPU, `no` when it did not."),
    ("server_output_tokens", "Output tokens the server counted during the run (after minus before of its generation-token counter)."),
    ("server_output_throughput", "Those tokens over the monotonic time between the two snapshots, in tok/s."),
    ("task", "An accuracy evaluation's task, where only the file's name gives it (an lm_eval sample log)."),
    ("limit", "lm_eval's `limit`: the questions of each task it was asked to run (a share when below 1)."),
    ("kv_cache_dtype", "The KV cache's data type the engine was given (`model_args`' `kv_cache_dtype`)."),
    ("tensor_parallel_size", "The tensor parallelism the engine was given (`model_args`)."),
    ("pipeline_parallel_size", "The pipeline parallelism the engine was given (`model_args`)."),
    ("data_parallel_size", "The data parallelism the engine was given (`model_args`)."),
    ("speculative", "The speculative decoding settings the engine was given (`model_args`: `speculative_config`, `speculative_model`, `num_speculative_tokens`), as `key=value`."),
];
