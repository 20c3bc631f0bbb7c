//! The names readers see for the derived tables' columns (stage 1): a
//! run's `results`, `requests`, `series`, `scores` and `answers` columns
//! as the tools' documents write them, unless `run.yaml` labels them. Kept
//! apart from `evidence.rs`, which reads the files those columns come from.

/// What readers see for a derived column unless `run.yaml` labels it: the
/// vocabulary's names read as the tools' documents write them ("TTFT
/// p99"), since the names themselves (`ttft_ms_p99`) are for programs.
pub(super) fn label_of(name: &str) -> Option<String> {
    const METRICS: &[(&str, &str)] = &[
        ("ttft", "TTFT"),
        ("tpot_incl_first", "Time per token with the first"),
        ("tpot", "TPOT"),
        ("itl", "ITL"),
        ("e2el", "End-to-end latency"),
    ];
    const STATS: &[(&str, &str)] = &[
        ("mean", "mean"),
        ("p50", "median"),
        ("p90", "p90"),
        ("p95", "p95"),
        ("p99", "p99"),
    ];
    for (m, shown) in METRICS {
        if let Some(rest) = name.strip_prefix(m).and_then(|r| r.strip_prefix("_ms")) {
            if rest.is_empty() {
                return Some(shown.to_string());
            }
            let stat = rest.strip_prefix('_')?;
            let (_, s) = STATS.iter().find(|(k, _)| *k == stat)?;
            return Some(format!("{shown} {s}"));
        }
    }
    let plain = match name {
        "source" => "Source file",
        "report" => "Report in the paste",
        "tool" => "Tool",
        "tool_version" => "Tool version",
        "engine" => "Engine",
        "version" => "Version",
        "model" => "Model",
        "max_concurrency" => "Concurrency asked for",
        "request_rate" => "Request rate asked for",
        "num_prompts" => "Prompts",
        "completed" => "Completed",
        "failed" => "Failed",
        "duration_s" => "Duration",
        "input_tokens" => "Input tokens",
        "input_text_tokens" => "Input text tokens",
        "input_vision_tokens" => "Input vision tokens",
        "output_tokens" => "Output tokens",
        "output_tokens_retokenized" => "Output tokens retokenized",
        "request_throughput" => "Request throughput",
        "request_goodput" => "Request goodput",
        "input_throughput" => "Input throughput",
        "output_throughput" => "Output throughput",
        "peak_output_throughput" => "Peak output throughput",
        "total_token_throughput" => "Total token throughput",
        "output_throughput_per_user" => "Output throughput per user",
        "output_speed_per_user" => "Output speed per user",
        "output_throughput_per_gpu" => "Output throughput per GPU",
        // The client's count, beside the server's (the most it ran):
        // whose count it is, in its name.
        "peak_concurrent_requests" => "Client's peak concurrent requests",
        "mean_concurrency" => "Mean concurrency",
        "accept_length" => "Accept length",
        "n_prompt" => "Prompt tokens",
        "n_gen" => "Generated tokens",
        "n_depth" => "Depth",
        "tokens_per_s" => "Tokens/s",
        "tokens_per_s_std" => "Tokens/s std. dev.",
        "backends" => "Backends",
        "flash_attn" => "Flash attention",
        "settings" => "Settings",
        "start_s" => "Sent at",
        "t_s" => "Time",
        "running" => "Running",
        "waiting" => "Waiting",
        "kv_usage" => "KV cache in use",
        "preemptions" => "Preemptions",
        "generation_tokens_per_s" => "Generation rate",
        "setup" => "Setup",
        _ => return None,
    };
    Some(plain.to_string())
}
