//! vLLM's console reports, read from its printing code
//! (`vllm/benchmarks/serve.py`, `throughput.py`, `latency.py`, and the
//! older `benchmarks/benchmark_serving.py`):
//!
//! - `vllm bench serve`: a banner `{:=^50}` of ` Serving Benchmark Result `,
//!   then lines `{:<40} {:<10}` of a label and a value: `Successful
//!   requests`, `Failed requests` (since 2025), `Maximum request
//!   concurrency` and `Request rate configured (RPS)` (where set), the
//!   duration, the tokens, the throughputs (`Request goodput` with
//!   `--goodput`, the peaks since 2025), then a section per metric, a rule
//!   `{:-^50}` of its name, with `Mean`, `Median` and a `P<n>` line per
//!   percentile asked for (`--metric-percentiles`; 99 by default), and a
//!   closing rule of 50 `=`. Older versions print `Total Token throughput`
//!   and their concurrency and rate before the banner (`Traffic request
//!   rate: inf`), which are read too; those of 2024 (v0.4 to v0.5) print
//!   `Input token throughput (tok/s)` in the block, a line SGLang's
//!   `bench_serving` copied, so it does not make a block SGLang's. The older script's lines are the
//!   same; a report without `Failed requests` is taken for it unless the
//!   command says otherwise.
//! - `vllm bench throughput`: `Throughput: N requests/s, N tokens/s` (old)
//!   or `… N total tokens/s, N output tokens/s`, then `Total num prompt
//!   tokens:` and `Total num output tokens:` (newer).
//! - `vllm bench latency`: `Avg latency: N seconds`, `Std latency` (newer)
//!   and `N% percentile latency: N seconds` for 10, 25, 50, 75, 90 and 99,
//!   in seconds, written in ms with the printed digits.
//!
//! vLLM's reports name no engine version and no model: `--engine`,
//! `--version` and the command before the report (`--model`) fill them.

use super::context::{Command, Context, Program};
use super::report::{starts_report, warning, Taken};
use super::text::{bare, is_rule, label_value, Filling};
use crate::results::file::{Fact, Out};
use crate::results::format::Format;
use crate::results::vocabulary::{From, Keys, ResultCol as R};

/// The lines of `vllm bench serve`'s report.
pub(super) static SERVE: Keys = Keys {
    tool: "vLLM `vllm bench serve` console report",
    results: &[
        (R::Tool, From::Derived("`vllm bench serve`; `vllm benchmark_serving.py` when the command before it runs that script, or when the report has no `Failed requests` line")),
        (R::Model, From::Derived("the command before the report: `--model`")),
        (R::MaxConcurrency, From::Key("Maximum request concurrency")),
        (R::RequestRate, From::Key("Request rate configured (RPS)|Traffic request rate")),
        (R::NumPrompts, From::Derived("the command before the report: `--num-prompts`")),
        (R::Completed, From::Key("Successful requests")),
        (R::Failed, From::Key("Failed requests")),
        (R::DurationS, From::Key("Benchmark duration (s)")),
        (R::InputTokens, From::Key("Total input tokens")),
        (R::OutputTokens, From::Key("Total generated tokens")),
        (R::RequestThroughput, From::Key("Request throughput (req/s)")),
        (R::RequestGoodput, From::Key("Request goodput (req/s)")),
        (R::InputThroughput, From::Key("Input token throughput (tok/s)")),
        (R::OutputThroughput, From::Key("Output token throughput (tok/s)")),
        (R::PeakOutputThroughput, From::Key("Peak output token throughput (tok/s)")),
        (R::TotalTokenThroughput, From::Key("Total token throughput (tok/s)")),
        (R::PeakConcurrentRequests, From::Key("Peak concurrent requests")),
        (R::AcceptLength, From::Key("Acceptance length")),
        (R::TtftMsMean, From::Key("Mean TTFT (ms)")),
        (R::TtftMsP50, From::Key("P50 TTFT (ms)|Median TTFT (ms)")),
        (R::TtftMsP90, From::Key("P90 TTFT (ms)")),
        (R::TtftMsP95, From::Key("P95 TTFT (ms)")),
        (R::TtftMsP99, From::Key("P99 TTFT (ms)")),
        (R::TpotMsMean, From::Key("Mean TPOT (ms)")),
        (R::TpotMsP50, From::Key("P50 TPOT (ms)|Median TPOT (ms)")),
        (R::TpotMsP90, From::Key("P90 TPOT (ms)")),
        (R::TpotMsP95, From::Key("P95 TPOT (ms)")),
        (R::TpotMsP99, From::Key("P99 TPOT (ms)")),
        (R::ItlMsMean, From::Key("Mean ITL (ms)")),
        (R::ItlMsP50, From::Key("P50 ITL (ms)|Median ITL (ms)")),
        (R::ItlMsP90, From::Key("P90 ITL (ms)")),
        (R::ItlMsP95, From::Key("P95 ITL (ms)")),
        (R::ItlMsP99, From::Key("P99 ITL (ms)")),
        (R::E2elMsMean, From::Key("Mean E2EL (ms)")),
        (R::E2elMsP50, From::Key("P50 E2EL (ms)|Median E2EL (ms)")),
        (R::E2elMsP90, From::Key("P90 E2EL (ms)")),
        (R::E2elMsP95, From::Key("P95 E2EL (ms)")),
        (R::E2elMsP99, From::Key("P99 E2EL (ms)")),
    ],
    requests: &[],
    series: &[],
};

/// The line of `vllm bench throughput`.
pub(super) static THROUGHPUT: Keys = Keys {
    tool: "vLLM `vllm bench throughput` console line",
    results: &[
        (R::Tool, From::Derived("`vllm bench throughput`; `vllm benchmark_throughput.py` when the command before it runs that script")),
        (R::Model, From::Derived("the command before the report: `--model`")),
        (R::NumPrompts, From::Derived("the command before the report: `--num-prompts`")),
        (R::InputTokens, From::Key("Total num prompt tokens")),
        (R::OutputTokens, From::Key("Total num output tokens")),
        (R::RequestThroughput, From::Key("requests/s")),
        (R::OutputThroughput, From::Key("output tokens/s")),
        (R::TotalTokenThroughput, From::Key("total tokens/s|tokens/s")),
    ],
    requests: &[],
    series: &[],
};

/// The lines of `vllm bench latency`, in seconds.
pub(super) static LATENCY: Keys = Keys {
    tool: "vLLM `vllm bench latency` console report (one batch of prompts)",
    results: &[
        (R::Tool, From::Derived("`vllm bench latency`; `vllm benchmark_latency.py` when the command before it runs that script")),
        (R::Model, From::Derived("the command before the report: `--model`")),
        (R::E2elMsMean, From::Seconds("Avg latency")),
        (R::E2elMsP50, From::Seconds("50% percentile latency")),
        (R::E2elMsP90, From::Seconds("90% percentile latency")),
        (R::E2elMsP99, From::Seconds("99% percentile latency")),
    ],
    requests: &[],
    series: &[],
};

/// The lines of a `Serving Benchmark Result` report (vLLM's, or SGLang's,
/// which copied its printing).
pub(super) struct Block<'t> {
    /// The banner's line, 0-based.
    pub(super) first: usize,
    /// The closing rule's line, when there is one.
    pub(super) closed: Option<usize>,
    /// The line the scan goes on at.
    pub(super) next: usize,
    /// Each `label: value` line: its 0-based line, label and value.
    pub(super) kv: Vec<(usize, String, &'t str)>,
    /// Each section rule (`----Time to First Token----`): its line and
    /// title.
    pub(super) sections: Vec<(usize, String)>,
}

/// The block a banner at `start` opens: up to its closing rule of `=`, the
/// next report, or the end of the text; lines of neither shape (a server's
/// log) are passed over.
pub(super) fn banner_block<'t>(lines: &[&'t str], start: usize) -> Block<'t> {
    let mut b = Block {
        first: start,
        closed: None,
        next: lines.len(),
        kv: Vec::new(),
        sections: Vec::new(),
    };
    for (i, &l) in lines.iter().enumerate().skip(start + 1) {
        if is_rule(l, '=') {
            b.closed = Some(i);
            b.next = i + 1;
            break;
        }
        if starts_report(lines, i) {
            b.next = i;
            break;
        }
        if let Some(t) = section(l) {
            b.sections.push((i, t));
        } else if let Some((label, value)) = label_value(l) {
            b.kv.push((i, label, value));
        }
    }
    b
}

/// The title of a section rule, `-----Time to First Token-----`.
fn section(line: &str) -> Option<String> {
    let l = bare(line);
    (l.len() >= 20 && l.starts_with("---") && l.ends_with("---"))
        .then(|| l.trim_matches('-').trim().to_string())
        .filter(|t| !t.is_empty())
}

/// Reads a block with `keys` into a row; returns it with the last line that
/// gave something (the closing rule when there is one).
pub(super) fn block_row(keys: &Keys, block: &Block<'_>, cx: &Context) -> (Filling, usize) {
    let mut f = Filling::new();
    // Older vLLM prints the rate and the concurrency before its banner.
    for (_, key, value) in &cx.preamble {
        f.line(keys, key, value);
    }
    let mut last = block.first;
    for (i, label, value) in &block.kv {
        if f.line(keys, label, value).is_some() {
            last = last.max(*i);
        }
    }
    for (i, _) in &block.sections {
        last = last.max(*i);
    }
    (f, block.closed.unwrap_or(last))
}

/// The warning for a block cut off before its closing rule: what it lacks
/// of `sections` (the metrics' sections its tool prints).
pub(super) fn cut_off(
    name: &str,
    block: &Block<'_>,
    last: usize,
    sections: &[&str],
) -> Option<crate::results::error::Warning> {
    if block.closed.is_some() {
        return None;
    }
    let missing: Vec<&str> = sections
        .iter()
        .copied()
        .filter(|want| {
            !block.sections.iter().any(|(_, t)| {
                t.to_ascii_lowercase()
                    .starts_with(&want.to_ascii_lowercase())
            })
        })
        .collect();
    let listed = missing
        .iter()
        .map(|m| format!("`{m}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let what = match missing.len() {
        0 => "its closing line of `=`".to_string(),
        1 => format!("the section {listed}, and its closing line of `=`"),
        _ => format!("the sections {listed}, and its closing line of `=`"),
    };
    Some(warning(
        name,
        last + 1,
        format!(
            "the report that starts at line {} is cut off after line {}: read as far as it goes; missing: {what}",
            block.first + 1,
            last + 1
        ),
    ))
}

/// Fills what the report does not state from the command before it, each
/// such fact saying so: the model, the concurrency and rate asked for,
/// the prompts sent.
pub(super) fn from_command(
    f: &mut Filling,
    facts: &mut Vec<Fact>,
    name: &str,
    cmd: &Command,
    options: &[(R, &[&str])],
) {
    for &(col, names) in options {
        if f.row.get(col).is_some() {
            continue;
        }
        let fact = match col {
            R::Model => cmd.arg(names).map(|m| {
                f.row.set_text(R::Model, Some(m));
                Fact::text("model", m, name)
            }),
            _ => cmd.num(names).and_then(|x| {
                f.fill_num(col, Some(x));
                match col {
                    R::MaxConcurrency => Some(Fact::num("max_concurrency", x, name)),
                    R::RequestRate => Some(Fact::num("request_rate", x, name)),
                    _ => None,
                }
            }),
        };
        if let Some(fact) = fact {
            facts.push(fact.note(cmd.said()));
        }
    }
}

/// The options of vLLM's serving clients (the command, or the namespace
/// the older script printed).
const SERVE_OPTIONS: &[(R, &[&str])] = &[
    (R::Model, &["--model", "model"]),
    (R::MaxConcurrency, &["--max-concurrency", "max_concurrency"]),
    (R::RequestRate, &["--request-rate", "request_rate"]),
    (R::NumPrompts, &["--num-prompts", "num_prompts"]),
];

pub(super) fn read_serve(name: &str, block: &Block<'_>, cx: &Context) -> Taken {
    let (mut f, last) = block_row(&SERVE, block, cx);
    let cmd = cx
        .command
        .as_ref()
        .filter(|c| matches!(c.program, Program::VllmServe(_) | Program::Namespace));
    let tool = match cmd.map(|c| c.program) {
        Some(Program::VllmServe(true)) => "vllm benchmark_serving.py",
        Some(Program::VllmServe(false)) => "vllm bench serve",
        _ if block
            .kv
            .iter()
            .any(|(_, l, _)| super::text::ends_with_label(l, "Failed requests")) =>
        {
            "vllm bench serve"
        }
        _ => "vllm benchmark_serving.py",
    };
    let mut out = Out {
        tool,
        ..Out::default()
    };
    if let Some(cmd) = cmd {
        from_command(&mut f, &mut out.facts, name, cmd, SERVE_OPTIONS);
    }
    let mut row = f.row;
    crate::results::vocabulary::no_latency_without_requests(&mut row);
    row.set_text(R::Tool, Some(tool));
    out.results.push(row);
    out.warnings.extend(cut_off(
        name,
        block,
        last,
        &[
            "Time to First Token",
            "Time per Output Token",
            "Inter-token Latency",
        ],
    ));
    Taken {
        format: Format::VllmServeReport,
        first: block.first,
        last,
        out,
        next: block.next,
    }
}

/// The command before a report, when it ran this report's program
/// (`program` says whether it did, and whether as the older script), and
/// the tool's name: `names[0]` for the script, else `names[1]`.
fn script_or_cli<'c>(
    cx: &'c Context,
    program: fn(Program) -> Option<bool>,
    names: [&'static str; 2],
) -> (Option<&'c Command>, &'static str) {
    let cmd = cx.command.as_ref().filter(|c| program(c.program).is_some());
    let script = cmd.and_then(|c| program(c.program)) == Some(true);
    (cmd, if script { names[0] } else { names[1] })
}

pub(super) fn read_throughput(name: &str, lines: &[&str], start: usize, cx: &Context) -> Taken {
    let mut f = Filling::new();
    let after = lines[start]
        .split_once("Throughput:")
        .map_or("", |(_, r)| r);
    for part in after.split(',') {
        let part = part.trim();
        if let Some((value, label)) = part.split_once(' ') {
            f.line(&THROUGHPUT, label.trim(), value);
        }
    }
    // The token counts, on the two lines after (newer versions).
    let mut last = start;
    for (i, &l) in lines.iter().enumerate().skip(start + 1).take(3) {
        if starts_report(lines, i) {
            break;
        }
        if let Some((label, value)) = label_value(l) {
            if f.line(&THROUGHPUT, &label, value).is_some() {
                last = i;
            }
        }
    }
    let (cmd, tool) = script_or_cli(
        cx,
        |p| match p {
            Program::VllmThroughput(script) => Some(script),
            _ => None,
        },
        ["vllm benchmark_throughput.py", "vllm bench throughput"],
    );
    let mut out = Out {
        tool,
        ..Out::default()
    };
    if let Some(cmd) = cmd {
        from_command(
            &mut f,
            &mut out.facts,
            name,
            cmd,
            &[
                (R::Model, &["--model"]),
                (R::NumPrompts, &["--num-prompts"]),
            ],
        );
    }
    let mut row = f.row;
    row.set_text(R::Tool, Some(tool));
    out.results.push(row);
    Taken {
        format: Format::VllmThroughputReport,
        first: start,
        last,
        out,
        next: last + 1,
    }
}

pub(super) fn read_latency(name: &str, lines: &[&str], start: usize, cx: &Context) -> Taken {
    let mut f = Filling::new();
    let mut seen: Vec<String> = Vec::new();
    let (mut last, mut gap) = (start, 0);
    for (i, &l) in lines.iter().enumerate().skip(start) {
        if i > start && starts_report(lines, i) {
            break;
        }
        let lv = label_value(l).filter(|(label, _)| {
            label.ends_with("latency")
                && (label.contains("percentile")
                    || label.ends_with("Avg latency")
                    || label.ends_with("Std latency"))
        });
        match lv {
            Some((label, value)) => {
                f.line(&LATENCY, &label, value);
                seen.push(label);
                last = i;
                gap = 0;
            }
            // A few lines of something else (a log line) may come between.
            None if gap < 3 => gap += 1,
            None => break,
        }
    }
    let (cmd, tool) = script_or_cli(
        cx,
        |p| match p {
            Program::VllmLatency(script) => Some(script),
            _ => None,
        },
        ["vllm benchmark_latency.py", "vllm bench latency"],
    );
    let mut out = Out {
        tool,
        ..Out::default()
    };
    if let Some(cmd) = cmd {
        from_command(
            &mut f,
            &mut out.facts,
            name,
            cmd,
            &[(R::Model, &["--model"])],
        );
    }
    let missing: Vec<String> = [10, 25, 50, 75, 90, 99]
        .iter()
        .map(|p| format!("{p}% percentile latency"))
        .filter(|want| !seen.iter().any(|s| super::text::ends_with_label(s, want)))
        .collect();
    if !missing.is_empty() {
        out.warnings.push(warning(
            name,
            last + 1,
            format!(
                "the report that starts at line {} is cut off after line {}: read as far as it goes; missing: {}",
                start + 1,
                last + 1,
                missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    let mut row = f.row;
    row.set_text(R::Tool, Some(tool));
    out.results.push(row);
    Taken {
        format: Format::VllmLatencyReport,
        first: start,
        last,
        out,
        next: last + 1,
    }
}
