//! lm-evaluation-harness's sample log (`--log_samples`,
//! `samples_<task>_<time>.jsonl`), read from its writer
//! (`lm_eval/loggers/evaluation_tracker.py`, `save_results_samples`, and
//! the sample dicts of `lm_eval/evaluator.py`): one line per question and
//! filter (a task with two filters, gsm8k's, logs each question twice),
//! with `doc_id`, `doc`, `target`, `arguments`, `resps` (per request a
//! list of replies), `filtered_resps` (the answer each filter took out),
//! `filter`, `metrics` (the metric names), `doc_hash`, `prompt_hash`,
//! `target_hash`, and each metric's value under its name.
//!
//! Each line is a row of `answers`: the question (its `doc_hash`, which is
//! the same in every run of the same question, else its `doc_id`), the
//! target, the reply, the answer extracted and whether it was right (the
//! first metric, when it is a number; `f1` and `bleu` log their inputs, a
//! list, and are scored over the whole set). The log does not name its
//! task: it is read from the file name, which lm_eval writes as
//! `samples_<task>_<time>.jsonl`. Each filter's share right is also a row
//! of `scores`, with its standard error (the sample standard deviation
//! over √n, as lm_eval computes it for a mean).

use super::error::ReadError;
use super::fields::{entries, number};
use super::file::{same_format, Fact, Out};
use super::format::Format;
use super::json::Located;
use super::lm_eval::TOOL;
use super::table::Row;
use super::vocabulary::{AnswerCol as A, ScoreCol as S};
use serde_json::Value;

/// The task a log's name gives: `samples_gsm8k_2025-08-07T11-42-40.066002.jsonl`
/// is `gsm8k` (what follows the last `samples_`, without the time).
pub(super) fn task_of_name(name: &str) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let rest = &base[base.rfind("samples_")? + "samples_".len()..];
    let rest = rest.strip_suffix(".jsonl").unwrap_or(rest);
    // The time lm_eval appends: `_YYYY-MM-DDT…`.
    let b = rest.as_bytes();
    let cut = (0..b.len()).rev().find(|&i| {
        b[i] == b'_'
            && b.len() >= i + 12
            && b[i + 1..i + 5].iter().all(u8::is_ascii_digit)
            && b[i + 5] == b'-'
            && b[i + 11] == b'T'
    });
    let task = cut.map_or(rest, |i| &rest[..i]);
    (!task.is_empty()).then(|| task.to_string())
}

/// The first text of a reply list: `[["text"]]`, `["text"]` or `"text"`.
fn first_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(a) => a.first().and_then(first_text),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

/// A target as text: a string as it is, anything else as JSON (a number,
/// a list of choices).
fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

pub(super) fn read(name: &str, bytes: Option<&[u8]>, values: &[Located]) -> Result<Out, ReadError> {
    let es = entries(values);
    same_format(name, &es, Format::LmEvalSamples)?;
    let task = task_of_name(name);
    let mut out = Out {
        tool: TOOL,
        ..Out::default()
    };
    if let Some(t) = &task {
        out.facts.push(Fact::text("task", t.clone(), name).note(
            "from the file name, `samples_<task>_<time>.jsonl`: the log does not name its task",
        ));
    }
    // Per filter: the metric, the sum and sum of squares of the graded
    // answers, their count; in the order filters first appear.
    let mut tally: Vec<(String, String, f64, f64, usize)> = Vec::new();
    for e in &es {
        let o = e.obj(name, bytes);
        let question = match (o.text("doc_hash")?, o.get("doc_id")) {
            (Some(h), _) => h,
            (None, Some(id)) => text_of(id).unwrap_or_default(),
            (None, None) => {
                return Err(o.wrong(
                    "doc_id",
                    &Value::Null,
                    "the question's `doc_id` or `doc_hash`",
                ))
            }
        };
        let filter = o.text("filter")?.unwrap_or_else(|| "none".into());
        let metric = o
            .get("metrics")
            .and_then(Value::as_array)
            .and_then(|m| m.first())
            .and_then(Value::as_str)
            .map(str::to_string);
        let correct = metric.as_deref().and_then(|m| match o.get(m) {
            Some(Value::Bool(b)) => Some(f64::from(u8::from(*b))),
            Some(v @ Value::Number(_)) => number(v).ok().flatten(),
            _ => None,
        });
        let mut row = Row::default();
        row.set_text(A::Task, task.as_deref());
        row.set_text(A::Question, Some(question));
        row.set_text(A::Filter, Some(filter.as_str()));
        row.set_text(A::Target, o.get("target").and_then(text_of));
        row.set_text(A::Reply, o.get("resps").and_then(first_text));
        row.set_text(A::Extracted, o.get("filtered_resps").and_then(first_text));
        row.set_num(A::Correct, correct);
        out.answers.push(row);
        if let (Some(m), Some(c)) = (metric, correct) {
            match tally.iter_mut().find(|t| t.0 == filter && t.1 == m) {
                Some(t) => {
                    t.2 += c;
                    t.3 += c * c;
                    t.4 += 1;
                }
                None => tally.push((filter, m, c, c * c, 1)),
            }
        }
    }
    for (filter, metric, sum, squares, n) in tally {
        let nf = n as f64;
        let mean = sum / nf;
        // A share right (every answer 0 or 1) gets no standard error:
        // the log gives none, and its interval is Wilson's over its
        // questions; another metric scored per answer gets the sample
        // standard deviation over √n, as lm_eval computes it.
        let share = squares == sum;
        let stderr = (n > 1 && !share).then(|| {
            let var = (squares - nf * mean * mean) / (nf - 1.0);
            (var.max(0.0) / nf).sqrt()
        });
        let mut row = Row::default();
        row.set_text(S::Task, task.as_deref());
        row.set_text(S::Filter, Some(filter));
        row.set_text(S::Metric, Some(metric));
        row.set_num(S::Value, Some(mean));
        row.set_num(S::Stderr, stderr);
        row.set_num(S::N, Some(nf));
        out.scores.push(row);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_from_the_name() {
        assert_eq!(
            task_of_name("raw/samples_gsm8k_2025-08-07T11-42-40.066002.jsonl").as_deref(),
            Some("gsm8k")
        );
        assert_eq!(
            task_of_name("x__samples_masakhaner_luo_prompt_2_2026-01-16T16-37-38.713565.jsonl")
                .as_deref(),
            Some("masakhaner_luo_prompt_2")
        );
        assert_eq!(task_of_name("answers.jsonl"), None);
    }
}
