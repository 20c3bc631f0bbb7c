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
//! A line records a preemption when it mentions one (`preempt`, SGLang's
//! `Retract requests`, any case) or is a TensorRT-LLM pause line, and is
//! not one of the start's dumps of its arguments (vLLM's `non-default
//! args:`, SGLang's `server_args=`, TensorRT-LLM's `model='…' tokenizer=…`
//! line), which name the settings (`preemption_mode`, `retract_…`) without
//! anything having happened. The arguments' digest is of vLLM's
//! `non-default args: {…}`, of SGLang's `server_args={…}` without its
//! `random_seed` (a seed drawn per start when none is given), and of
//! TensorRT-LLM's arguments line.
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
    /// The lines that record a preemption (see the module's docs), and the
    /// first of them with its 1-based line number; `None` for a
    /// TensorRT-LLM log without INFO lines, which would hold none anyway.
    pub preemption_lines: Option<usize>,
    pub first_preemption_line: Option<(usize, String)>,
    /// SGLang's `max_running_requests` as given (`server_args`), when given.
    pub running_limit_asked: Option<f64>,
    /// SGLang's prefix cache: `disable_radix_cache` of its `server_args`.
    pub prefix_cache: Option<bool>,
    /// SGLang: whether the start allocated a Mamba cache (a hybrid model's
    /// recurrent state); `None` when the log shows no finished start.
    pub recurrent_state: Option<bool>,
    /// A digest of the arguments the start printed, and the line that
    /// printed them (the last start's, in a log of several).
    pub start_args: Option<(String, usize)>,
    /// The model the start was given: vLLM's `'model'` of its non-default
    /// args, SGLang's `'model_path'` of its `server_args`.
    pub model: Option<String>,
}

/// Whether `line` is a start's dump of its arguments, which names settings
/// (`preemption_mode`, `retract_…`) without anything having happened.
fn is_args_dump(line: &str) -> bool {
    line.contains("non-default args:")
        || line.contains("server_args=")
        || line.contains("with config:")
        || line.contains("Namespace(")
        || trtllm_args(line)
}

/// TensorRT-LLM's line of its arguments: `model='…' tokenizer=… …`.
fn trtllm_args(line: &str) -> bool {
    line.starts_with("model='") && line.contains(" tokenizer=")
}

/// Whether `line` mentions a preemption: `preempt` or `retract` in any
/// case, or a pause line.
fn mentions_preemption(line: &str) -> bool {
    let has = |word: &[u8]| {
        line.as_bytes()
            .windows(word.len())
            .any(|w| w.eq_ignore_ascii_case(word))
    };
    has(b"preempt") || has(b"retract") || is_pause(line)
}

/// The text a digest of arguments is made of: SGLang's `server_args`
/// without `'random_seed': N`.
fn args_text(line: &str) -> Option<String> {
    if let Some(a) = after(line, "non-default args: ") {
        return Some(a.trim_end().to_string());
    }
    if let Some(a) = after(line, "server_args=") {
        let a = a.trim_end();
        return Some(match a.find("'random_seed': ") {
            Some(i) => {
                let rest = &a[i + "'random_seed': ".len()..];
                let end = rest.find([',', '}']).unwrap_or(rest.len());
                format!("{}{}", &a[..i], rest[end..].trim_start_matches(", "))
            }
            None => a.to_string(),
        });
    }
    trtllm_args(line).then(|| line.trim_end().to_string())
}

/// The first 12 hex digits of the SHA-256 of `text`.
fn digest(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The value of `'key': …` in an argument dump, up to its comma.
fn dict_value<'l>(line: &'l str, key: &str) -> Option<&'l str> {
    let v = after(line, &format!("'{key}': "))?;
    Some(v[..v.find([',', '}']).unwrap_or(v.len())].trim())
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
    let mut preemption_lines = 0usize;
    for (n, line) in text.lines().enumerate() {
        if is_args_dump(line) {
            if let Some(a) = args_text(line) {
                b.start_args = Some((digest(&a), n + 1));
            }
            if let Some(m) = dict_value(line, "model").or_else(|| dict_value(line, "model_path")) {
                let m = m.trim_matches(|c| c == '\'' || c == '"').trim();
                if !m.is_empty() {
                    b.model = Some(m.to_string());
                }
            }
            if line.contains("server_args=") {
                b.prefix_cache = dict_value(line, "disable_radix_cache").map(|v| v != "True");
                b.running_limit_asked =
                    dict_value(line, "max_running_requests").and_then(leading_number);
            }
        } else if mentions_preemption(line) {
            preemption_lines += 1;
            if b.first_preemption_line.is_none() {
                let shown: String = line.trim().chars().take(160).collect();
                b.first_preemption_line = Some((n + 1, shown));
            }
        }
        if line.contains("Mamba Cache is allocated") {
            b.recurrent_state = Some(true);
        }
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
                b.recurrent_state.get_or_insert(false);
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
    // A TensorRT-LLM log without INFO lines holds no pause lines whatever
    // happened: it says nothing of preemptions.
    if b.engine != Some("tensorrt-llm") || info_lines {
        b.preemption_lines = Some(preemption_lines);
    } else {
        b.first_preemption_line = None;
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
