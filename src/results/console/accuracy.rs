//! The accuracy prints of the engines' own scripts, as pasted:
//!
//! - SGLang's `benchmark/gsm8k/bench_sglang.py` (and the test suites that
//!   call it): `Accuracy: 0.951`, `Invalid: 0.000`, `Latency: 22.6 s`,
//!   `Output throughput: 7241.5 token/s`; `benchmark/mmlu/bench_sglang.py`:
//!   `Average accuracy: 0.708`. The script talks to an SGLang server only
//!   (SGLang's frontend `RuntimeEndpoint`), so the engine is SGLang.
//!   `--num-questions` and `--num-shots` come from its command line when
//!   the paste has it (`n`, `n_shot`).
//! - vLLM's `tests/evals/gsm8k/gsm8k_eval.py`: `Accuracy: 0.299`, `Invalid
//!   responses: 0.167`, `Total latency: …`; a client of any
//!   OpenAI-compatible server, so the engine is not stated (`--engine`).
//! - a wrapper's `Evaluation Results:` then `gsm8k: {'exact_match,strict-match':
//!   0.95, 'exact_match_stderr,strict-match': 0.02, …}`: lm_eval's result
//!   dict printed, read with lm_eval's keys.
//!
//! Each is a row of `scores` per figure: `accuracy` (higher is better) and
//! `invalid` (the share of replies with no number in them; lower is
//! better).

use super::context::{Context, Program};
use super::report::{accuracy_dict_line as dict_line, Taken};
use super::text::{bare, first_word, label_value, number};
use crate::results::file::{Fact, Out};
use crate::results::format::Format;
use crate::results::lm_eval::{model_args, TOOL};
use crate::results::table::Row;
use crate::results::vocabulary::ScoreCol as S;

fn score(task: &str, metric: &str, value: f64, higher: bool, cx: &Context) -> Row<S> {
    let mut row = Row::default();
    row.set_text(S::Task, Some(task));
    row.set_text(S::Filter, Some("none"));
    row.set_text(S::Metric, Some(metric));
    row.set_num(S::Value, Some(value));
    row.set_text(
        S::HigherIsBetter,
        Some(if higher { "true" } else { "false" }),
    );
    if let Some(c) = cx
        .command
        .as_ref()
        .filter(|c| c.program == Program::Accuracy)
    {
        // The gsm8k script takes the first N of the test set's 1,319
        // questions (`lines[:num_questions]`), never more.
        let asked = c.num(&["--num-questions", "--num_questions"]);
        row.set_num(
            S::N,
            asked.map(|n| if task == "gsm8k" { n.min(1319.0) } else { n }),
        );
        row.set_num(S::NShot, c.num(&["--num-shots", "--num_shots"]));
    }
    row
}

pub(super) fn read(
    name: &str,
    lines: &[&str],
    start: usize,
    format: Format,
    cx: &Context,
) -> Taken {
    let mut out = Out {
        tool: match format {
            Format::SglangAccuracyReport => "sglang benchmark/gsm8k",
            _ if bare(lines[start]) == "Evaluation Results:" => TOOL,
            _ => "vllm tests/evals/gsm8k",
        },
        ..Out::default()
    };
    let mut i = start;
    let mut last = start;
    if bare(lines[start]) == "Evaluation Results:" {
        i += 1;
        while let Some((task, dict)) = lines.get(i).and_then(|l| dict_line(l)) {
            let pairs = model_args(&format!("{{{dict}}}"));
            for (key, value) in &pairs {
                let (metric, filter) = key.split_once(',').unwrap_or((key.as_str(), "none"));
                if metric.ends_with("_stderr") || metric == "alias" {
                    continue;
                }
                let Some(v) = number(value) else { continue };
                let stderr = pairs
                    .iter()
                    .find(|(k, _)| *k == format!("{metric}_stderr,{filter}"))
                    .and_then(|(_, s)| number(s));
                let mut row = Row::default();
                row.set_text(S::Task, Some(task));
                row.set_text(S::Filter, Some(filter));
                row.set_text(S::Metric, Some(metric));
                row.set_num(S::Value, Some(v));
                row.set_num(S::Stderr, stderr);
                out.scores.push(row);
            }
            last = i;
            i += 1;
        }
        return Taken {
            format,
            first: start,
            last,
            out,
            next: i,
        };
    }
    let task = if bare(lines[start]).starts_with("Average accuracy") {
        "mmlu"
    } else {
        "gsm8k"
    };
    while let Some((label, value)) = lines.get(i).and_then(|l| label_value(bare(l))) {
        let v = number(first_word(value));
        match (label.as_str(), v) {
            ("Accuracy" | "Average accuracy", Some(v)) => {
                out.scores.push(score(task, "accuracy", v, true, cx))
            }
            ("Invalid" | "Invalid responses", Some(v)) => {
                out.scores.push(score(task, "invalid", v, false, cx))
            }
            (
                "Latency"
                | "Total latency"
                | "Output throughput"
                | "Questions per second"
                | "Total output tokens"
                | "Output tokens per second",
                _,
            ) => {}
            _ => break,
        }
        last = i;
        i += 1;
    }
    if format == Format::SglangAccuracyReport {
        out.facts.push(
            Fact::text("engine", "sglang", name)
                .note("SGLang's own benchmark script, which runs against an SGLang server only"),
        );
    }
    Taken {
        format,
        first: start,
        last,
        out,
        next: i.max(start + 1),
    }
}
