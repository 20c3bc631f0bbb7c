//! A serving engine's boot log (inferlint's `boot.log`: the server's output
//! from start-up through the run), read for what it alone says: the engine
//! and its version, the KV cache pool the start settled on, SGLang's limit
//! on running requests, and TensorRT-LLM's pauses.
//!
//! The lines, as the engines print them (read like inferlint's
//! `bootlog.py`):
//!
//! | engine | line |
//! |---|---|
//! | vLLM | `Initializing a V1 LLM engine (v0.30.0)`; `GPU KV cache size: 29,127 tokens, …`; `Available KV cache memory: 4.44 GiB` |
//! | SGLang | `KV Cache is allocated. dtype: …, #tokens: 32096, …`; `max_total_num_tokens=32096, …, max_running_requests=32`; `max_running_requests is capped to 1 by the mamba state cache (…` |
//! | TensorRT-LLM | `TensorRT LLM version: 1.3.0rc29`; `Allocated 5.19 GiB for max tokens in paged KV cache (37760).`, printed twice (a dry run, then the pool in use: the last wins); `request ID 72 -> pause`, counted only when INFO lines (`[TRT-LLM] [I]`) are logged at all |
//!
//! Where a line repeats (a log of several starts), the last one is the
//! start the run used.

/// What a boot log says, each with its 1-based line.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Boot {
    pub engine: Option<&'static str>,
    pub version: Option<String>,
    /// The KV cache pool in tokens, and every earlier print of it.
    pub kv_tokens: Option<f64>,
    pub kv_tokens_before: Vec<f64>,
    pub kv_gib: Option<f64>,
    /// SGLang's `max_running_requests=`.
    pub running_limit: Option<f64>,
    /// SGLang's `max_running_requests is capped to N by the …`: N and why.
    pub capped: Option<(f64, String)>,
    /// TensorRT-LLM's `-> pause` lines, when INFO lines are logged.
    pub pauses: Option<usize>,
}

/// The text after `anchor` in `line`, if the anchor occurs.
fn after<'l>(line: &'l str, anchor: &str) -> Option<&'l str> {
    line.find(anchor).map(|i| &line[i + anchor.len()..])
}

/// The number at the start of `s`: digits with `,` thousands separators and
/// a decimal point.
fn leading_number(s: &str) -> Option<f64> {
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
        .unwrap_or(s.len());
    let digits: String = s[..end].chars().filter(|c| *c != ',').collect();
    digits.trim_end_matches('.').parse().ok()
}

/// Whether `line` holds `request ID <digits> -> pause` (a whole word).
fn is_pause(line: &str) -> bool {
    let mut rest = line;
    while let Some(i) = rest.find("request ID ") {
        let tail = &rest[i + "request ID ".len()..];
        let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            if let Some(t) = tail[digits..].strip_prefix(" -> pause") {
                if !t.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                    return true;
                }
            }
        }
        rest = tail;
    }
    false
}

/// Reads a boot log.
pub(crate) fn read(text: &str) -> Boot {
    let mut b = Boot::default();
    let (mut info_lines, mut pauses) = (false, 0usize);
    let mut kv: Vec<f64> = Vec::new();
    for line in text.lines() {
        if let Some(v) = after(line, "Initializing a V1 LLM engine (v") {
            b.engine = Some("vllm");
            b.version = v
                .split(|c: char| c == ')' || c.is_whitespace())
                .next()
                .map(str::to_string);
        } else if let Some(v) =
            after(line, "TensorRT LLM version: ").or_else(|| after(line, "TensorRT-LLM version: "))
        {
            b.engine = Some("tensorrt-llm");
            b.version = v.split_whitespace().next().map(str::to_string);
        }
        if let Some(t) = after(line, "GPU KV cache size: ").and_then(leading_number) {
            b.engine.get_or_insert("vllm");
            kv.push(t);
        }
        if let Some(g) = after(line, "Available KV cache memory: ").and_then(leading_number) {
            b.kv_gib = Some(g);
        }
        if line.contains("KV Cache is allocated.") {
            if let Some(t) = after(line, "#tokens: ").and_then(leading_number) {
                b.engine.get_or_insert("sglang");
                kv.push(t);
            }
        }
        if let Some(rest) = after(line, "max_total_num_tokens=") {
            b.engine.get_or_insert("sglang");
            if let Some(n) = after(rest, "max_running_requests=").and_then(leading_number) {
                b.running_limit = Some(n);
            }
        }
        if let Some(rest) = after(line, "max_running_requests is capped to ") {
            if let Some(n) = leading_number(rest) {
                let why = after(rest, " by the ")
                    .map(|w| w.split(" (").next().unwrap_or(w).trim().to_string())
                    .unwrap_or_default();
                b.capped = Some((n, why));
            }
        }
        if let Some(rest) = after(line, "for max tokens in paged KV cache (") {
            b.engine.get_or_insert("tensorrt-llm");
            if let Some(t) = leading_number(rest) {
                kv.push(t);
            }
            if let Some(g) = line
                .find("Allocated ")
                .and_then(|i| leading_number(&line[i + "Allocated ".len()..]))
            {
                b.kv_gib = Some(g);
            }
        }
        if line.contains("[TRT-LLM] [I]") {
            info_lines = true;
            b.engine.get_or_insert("tensorrt-llm");
        }
        if is_pause(line) {
            pauses += 1;
        }
    }
    b.kv_tokens = kv.pop();
    b.kv_tokens_before = kv;
    if b.engine == Some("tensorrt-llm") && info_lines {
        b.pauses = Some(pauses);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_engines_lines() {
        let v = read("INFO [core.py:1] Initializing a V1 LLM engine (v0.30.0) with config\n[gpu_worker.py:2] Available KV cache memory: 4.44 GiB\n[kv_cache_utils.py:2395] GPU KV cache size: 32,336 tokens, Maximum concurrency for 16,384 tokens per request: 1.97x\n");
        assert_eq!(
            (v.engine, v.version.as_deref(), v.kv_tokens, v.kv_gib),
            (Some("vllm"), Some("0.30.0"), Some(32336.0), Some(4.44))
        );
        let s = read("[x] max_running_requests is capped to 1 by the mamba state cache (max_mamba_cache_size=5). To raise it\n[x] KV Cache is allocated. dtype: torch.bfloat16, #tokens: 17675, K size: 0.54 GB, V size: 0.54 GB\n[x] max_total_num_tokens=17675, chunked_prefill_size=4096, max_prefill_tokens=16384, max_running_requests=1, context_len=16384\n");
        assert_eq!(
            (s.engine, s.kv_tokens, s.running_limit),
            (Some("sglang"), Some(17675.0), Some(1.0))
        );
        assert_eq!(s.capped, Some((1.0, "mamba state cache".to_string())));
        let t = read("[TensorRT-LLM] TensorRT LLM version: 1.3.0rc29\n[TRT-LLM] [I] Allocated 2.39 GiB for max tokens in paged KV cache (17408).\n[TRT-LLM] [I] Allocated 2.88 GiB for max tokens in paged KV cache (20960).\n[TRT-LLM] [I] [batchmgr] request ID 72 -> pause\n[TRT-LLM] [I] request ID 7 -> paused\n");
        assert_eq!(
            (t.engine, t.version.as_deref(), t.kv_tokens, t.kv_gib),
            (
                Some("tensorrt-llm"),
                Some("1.3.0rc29"),
                Some(20960.0),
                Some(2.88)
            )
        );
        assert_eq!(
            (t.kv_tokens_before.clone(), t.pauses),
            (vec![17408.0], Some(1))
        );
        let quiet =
            read("[TensorRT-LLM] TensorRT LLM version: 1.3.0rc29\nrequest ID 72 -> pause\n");
        assert_eq!(quiet.pauses, None);
    }
}
