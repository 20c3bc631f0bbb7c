//! What a paste says around a report, before it: the command that ran the
//! tool (`vllm bench serve --model … --max-concurrency 32`, continued over
//! lines ending in `\`), or the `Namespace(…)` a Python client printed; the
//! lines vLLM prints before its banner (`Traffic request rate: inf`,
//! `Maximum request concurrency: 32`); TensorRT-LLM's version line and the
//! day its log lines carry; llama.cpp's `build:` line and the GPU its
//! backend names. A report states what it states; these fill only what it
//! does not, and each fact they give says where it came from.
//!
//! The lines read are those between the previous report and this one, each
//! once, so the pass over a paste stays linear.

use super::text::{bare, label_value};

/// The program a command line runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Program {
    /// `vllm bench serve`, or the older script (`true`).
    VllmServe(bool),
    /// `vllm bench throughput`, or the older script.
    VllmThroughput(bool),
    /// `vllm bench latency`, or the older script.
    VllmLatency(bool),
    /// `python -m sglang.bench_serving`.
    Sglang,
    /// `trtllm-bench`.
    Trtllm,
    /// `genai-perf profile`.
    GenaiPerf,
    /// `llama-bench`.
    LlamaBench,
    /// An accuracy script: SGLang's `benchmark/gsm8k` or `benchmark/mmlu`,
    /// vLLM's `tests/evals/gsm8k`.
    Accuracy,
    /// A `Namespace(…)` a Python client printed (vLLM's older script and
    /// SGLang's `bench_serving` print their arguments so).
    Namespace,
}

/// A command line or a printed `Namespace`, with its options.
#[derive(Debug, Clone)]
pub(super) struct Command {
    /// Its 1-based line.
    pub(super) line: usize,
    pub(super) program: Program,
    /// Each option with its value, as written (`--model`, `Qwen/Qwen3-8B`;
    /// for a namespace, `model`, `Qwen/Qwen3-8B`).
    args: Vec<(String, String)>,
}

impl Command {
    /// The value of the first of `names` the command gives (`--model`,
    /// `-m`); `None` also for Python's `None`.
    pub(super) fn arg(&self, names: &[&str]) -> Option<&str> {
        names.iter().find_map(|n| {
            self.args
                .iter()
                .rev()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.as_str())
                .filter(|v| !v.is_empty() && *v != "None")
        })
    }

    /// A number option (`--max-concurrency 32`, `request_rate=inf`).
    pub(super) fn num(&self, names: &[&str]) -> Option<f64> {
        self.arg(names).and_then(super::text::number)
    }

    /// "the command line at line 3", for a fact's note.
    pub(super) fn said(&self) -> String {
        match self.program {
            Program::Namespace => format!("from the arguments printed at line {}", self.line),
            _ => format!("from the command line at line {}", self.line),
        }
    }
}

/// What the lines before a report say.
#[derive(Debug, Default)]
pub(super) struct Context {
    /// The last command line (or namespace) before the report.
    pub(super) command: Option<Command>,
    /// vLLM's lines before its banner: `Traffic request rate` and
    /// `Maximum request concurrency`, the last of each, with their line.
    pub(super) preamble: Vec<(usize, String, String)>,
    /// `[TensorRT-LLM] TensorRT-LLM version: 0.16.0`, with its line.
    pub(super) trtllm_version: Option<(usize, String)>,
    /// The day of the last TensorRT-LLM log line (`[07/11/2025-04:27:38]`),
    /// as YYYY-MM-DD.
    pub(super) trtllm_day: Option<String>,
    /// llama.cpp's `build: <commit> (<number>)`, with its line.
    pub(super) build: Option<(usize, String, String)>,
    /// The first GPU a llama.cpp backend names, with its line.
    pub(super) gpu: Option<(usize, String)>,
    /// lm_eval's header line (`vllm (pretrained=…), gen_kwargs: …`), the
    /// last before the table, 0-based, with its text; never carried to a
    /// later table.
    pub(super) lm_eval_header: Option<(usize, String)>,
}

impl Context {
    /// Takes from `carried` (what the lines before earlier reports said)
    /// what these lines do not say again, and hands on what they say.
    pub(super) fn carry(&mut self, carried: &mut Context) {
        match &self.command {
            Some(c) => carried.command = Some(c.clone()),
            None => self.command = carried.command.clone(),
        }
        match &self.trtllm_version {
            Some(v) => carried.trtllm_version = Some(v.clone()),
            None => self.trtllm_version = carried.trtllm_version.clone(),
        }
        match &self.trtllm_day {
            Some(d) => carried.trtllm_day = Some(d.clone()),
            None => self.trtllm_day = carried.trtllm_day.clone(),
        }
        match &self.gpu {
            Some(g) => carried.gpu = Some(g.clone()),
            None => self.gpu = carried.gpu.clone(),
        }
    }
}

const PROGRAMS: &[(&str, Program)] = &[
    ("trtllm-bench", Program::Trtllm),
    ("genai-perf", Program::GenaiPerf),
    ("llama-bench", Program::LlamaBench),
    ("bench_sglang.py", Program::Accuracy),
    ("gsm8k_eval", Program::Accuracy),
    ("bench_serving", Program::Sglang),
    ("benchmark_serving", Program::VllmServe(true)),
    ("bench serve", Program::VllmServe(false)),
    ("benchmark_throughput", Program::VllmThroughput(true)),
    ("bench throughput", Program::VllmThroughput(false)),
    ("benchmark_latency", Program::VllmLatency(true)),
    ("bench latency", Program::VllmLatency(false)),
];

impl Context {
    /// Reads `lines[from..to]` (0-based), the lines between the previous
    /// report and this one.
    pub(super) fn read(lines: &[&str], from: usize, to: usize) -> Context {
        let mut cx = Context::default();
        let mut i = from;
        while i < to {
            let line = lines[i];
            if line.contains("), gen_kwargs:") {
                cx.lm_eval_header = Some((i, line.to_string()));
            } else if line.contains("Namespace(") {
                cx.command = Some(namespace(line, i + 1));
            } else if let Some(&(_, program)) = PROGRAMS.iter().find(|(m, _)| line.contains(m)) {
                // A command continued over lines ending in `\`.
                let mut joined = line.trim_end().to_string();
                while joined.ends_with('\\') && i + 1 < to {
                    joined.pop();
                    i += 1;
                    joined.push(' ');
                    joined.push_str(lines[i].trim());
                }
                cx.command = Some(command(&joined, program, i + 1));
            } else if let Some(v) = line.split("TensorRT-LLM version:").nth(1) {
                let v = v.trim();
                if !v.is_empty() {
                    cx.trtllm_version = Some((i + 1, v.to_string()));
                }
            } else if let Some(b) = build_line(line) {
                cx.build = Some((i + 1, b.0, b.1));
            } else if cx.gpu.is_none() {
                cx.gpu = gpu_line(line).map(|g| (i + 1, g));
            }
            if let Some(day) = trtllm_day(line) {
                cx.trtllm_day = Some(day);
            }
            if let Some((label, value)) = label_value(line) {
                for key in ["Traffic request rate", "Maximum request concurrency"] {
                    if super::text::ends_with_label(&label, key) {
                        cx.preamble.retain(|(_, k, _)| k != key);
                        cx.preamble
                            .push((i + 1, key.to_string(), value.to_string()));
                    }
                }
            }
            i += 1;
        }
        cx
    }
}

/// Splits a command line into its options and their values: `--a b`,
/// `--a=b`, `-m b`; quotes around a value are dropped.
fn command(line: &str, program: Program, line_no: usize) -> Command {
    let words: Vec<&str> = line.split_whitespace().collect();
    let unquote = |w: &str| w.trim_matches(|c| c == '"' || c == '\'').to_string();
    let mut args = Vec::new();
    let mut k = 0;
    while k < words.len() {
        let w = words[k];
        if w.starts_with('-') && w.len() > 1 && !w.starts_with("---") {
            if let Some((name, value)) = w.split_once('=') {
                args.push((name.to_string(), unquote(value)));
            } else if let Some(next) = words.get(k + 1).filter(|n| !n.starts_with("--")) {
                args.push((w.to_string(), unquote(next)));
                k += 1;
            } else {
                args.push((w.to_string(), String::new()));
            }
        }
        k += 1;
    }
    Command {
        line: line_no,
        program,
        args,
    }
}

/// The `key=value` pairs of a printed `Namespace(a=1, b='x', c=None)`.
fn namespace(line: &str, line_no: usize) -> Command {
    let inner = line
        .split_once("Namespace(")
        .map_or("", |(_, r)| r)
        .trim_end()
        .trim_end_matches(')');
    let mut args = Vec::new();
    for part in inner.split(", ") {
        if let Some((k, v)) = part.split_once('=') {
            let k = k.trim();
            if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                let v = v.trim().trim_matches(|c| c == '\'' || c == '"');
                args.push((k.to_string(), v.to_string()));
            }
        }
    }
    Command {
        line: line_no,
        program: Program::Namespace,
        args,
    }
}

/// llama.cpp's `build: 323181f2 (3573)`: the commit and the number.
pub(super) fn build_line(line: &str) -> Option<(String, String)> {
    let rest = bare(line).strip_prefix("build: ")?;
    let (commit, number) = rest.split_once(" (")?;
    let number = number.trim_end().strip_suffix(')')?;
    (!commit.is_empty()
        && commit.chars().all(|c| c.is_ascii_alphanumeric())
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit()))
    .then(|| (commit.to_string(), number.to_string()))
}

/// The GPU a llama.cpp backend names at start: `ggml_vulkan: 0 = AMD
/// Radeon RX 7900 XT (RADV NAVI31) …` or CUDA's `Device 0: NVIDIA GeForce
/// RTX 4090, compute capability 8.9`.
fn gpu_line(line: &str) -> Option<String> {
    let l = bare(line);
    if let Some(rest) = l.strip_prefix("ggml_vulkan: 0 = ") {
        let name = rest.split(" (").next().unwrap_or(rest).split(" |").next()?;
        return Some(name.trim().to_string()).filter(|n| !n.is_empty());
    }
    let rest = l.strip_prefix("Device 0: ")?;
    let (name, tail) = rest.split_once(", ")?;
    tail.starts_with("compute capability")
        .then(|| name.trim().to_string())
}

/// The day of a TensorRT-LLM log line, `[07/11/2025-04:27:38] [TRT-LLM]`.
fn trtllm_day(line: &str) -> Option<String> {
    let b = line.as_bytes();
    if b.len() < 12 || b[0] != b'[' || b[3] != b'/' || b[6] != b'/' || b[11] != b'-' {
        return None;
    }
    let digits = |r: std::ops::Range<usize>| {
        line.get(r)
            .filter(|d| d.bytes().all(|c| c.is_ascii_digit()))
    };
    let (m, d, y) = (digits(1..3)?, digits(4..6)?, digits(7..11)?);
    crate::results::dates::from_text(&format!("{y}-{m}-{d}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_namespaces_and_the_lines_around() {
        let text = "$ vllm bench serve --model Qwen/Qwen3-8B \\\n  --max-concurrency=32 --request-rate inf\nTraffic request rate: inf\nMaximum request concurrency: 32\nbuild: 1d0125bc (6552)\n[01/18/2025-01:01:13] [TRT-LLM] [I] Preparing\n";
        let lines = super::super::text::lines(text);
        let cx = Context::read(&lines, 0, lines.len());
        let c = cx.command.unwrap();
        assert_eq!(c.program, Program::VllmServe(false));
        assert_eq!(c.line, 2);
        assert_eq!(c.arg(&["--model"]), Some("Qwen/Qwen3-8B"));
        assert_eq!(c.num(&["--max-concurrency"]), Some(32.0));
        assert_eq!(c.num(&["--request-rate"]), Some(f64::INFINITY));
        assert_eq!(cx.preamble.len(), 2);
        assert_eq!(cx.build, Some((5, "1d0125bc".into(), "6552".into())));
        assert_eq!(cx.trtllm_day.as_deref(), Some("2025-01-18"));
        let ns = namespace(
            "Namespace(backend='sglang', model='m/x', max_concurrency=None, request_rate=2.0)",
            1,
        );
        assert_eq!(ns.arg(&["model"]), Some("m/x"));
        assert_eq!(ns.arg(&["max_concurrency"]), None);
        assert_eq!(ns.num(&["request_rate"]), Some(2.0));
        assert_eq!(
            gpu_line("ggml_vulkan: 0 = AMD Radeon RX 7900 XT (RADV NAVI31) (radv) | uma: 0"),
            Some("AMD Radeon RX 7900 XT".into())
        );
    }
}
