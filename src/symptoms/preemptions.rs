//! `preemptions-unlogged` (F8): requests preempted, counted by the
//! server's counter, and not one line of its log about them. vLLM 0.28
//! preempted 22 requests at the default log level and logged none; SGLang
//! logs each retraction (`KV cache pool is full. Retract requests.`) as it
//! counts it; TensorRT-LLM logs each pause and counts none.

use super::Outcome::{Absent, CannotTell, Shown};
use super::{count, first_number, reason, unknown, Detected, Symptom};
use crate::checks::{Evidence, Place};

pub(super) const SYMPTOM: Symptom = Symptom {
    name: "preemptions-unlogged",
    claim: "requests were preempted, the server's counter counted them, and no line of its log mentions one",
    reads: "the preemptions the server's counter counted during the run (`preemptions_counted`: vLLM's `vllm:num_preemptions_total`, SGLang's `sglang:num_retracted_requests_total`, after minus before) and the lines of its log that record one (`preemption_log_lines`; TensorRT-LLM's `request ID … -> pause` lines)",
    decides: "shown when the counter moved and no line of the log mentions a preemption; absent when requests were preempted and the log records them (on TensorRT-LLM, which counts none, its pause lines); cannot tell when no request was preempted, when the run keeps no log, or, on TensorRT-LLM, when its log records no pause",
    engines: &["vllm", "sglang", "tensorrt-llm"],
    detect,
};

/// The counter each engine counts its preemptions with, and what it calls
/// them.
fn counter(engine: &str) -> (&'static str, &'static str, &'static str) {
    match engine {
        "sglang" => (
            "`sglang:num_retracted_requests_total`",
            "retraction",
            "retractions",
        ),
        _ => ("`vllm:num_preemptions_total`", "preemption", "preemptions"),
    }
}

fn detect(ev: &Evidence<'_>, i: usize) -> Option<Detected> {
    let engine = ev.engine_of(Some(i))?;
    let counted = ev.of_setup("preemptions_counted", i);
    let lines = ev.of_setup("preemption_log_lines", i);
    if counted.is_empty()
        && lines.is_empty()
        && ev.blank_of_setup("preemptions_counted", i).is_none()
    {
        return None;
    }
    let logged = first_number(&lines);
    if engine == "tensorrt-llm" {
        return Some(match logged {
            Some((n, v)) if n > 0.0 => (
                Absent,
                format!(
                    "{}, each in the log as `request ID … -> pause`",
                    count(n, "paused request", "paused requests")
                ),
                v.at.clone(),
            ),
            Some((_, v)) => (
                CannotTell,
                "cannot tell: the log records no pause, and TensorRT-LLM keeps no count to say whether one happened".to_string(),
                v.at.clone(),
            ),
            None => (
                CannotTell,
                match unknown(&lines) {
                    Some(v) => format!("cannot tell: {}", reason(v)),
                    None => "cannot tell: the run keeps no server log to read pauses from".to_string(),
                },
                Place::Run,
            ),
        });
    }
    let (name, one, many) = counter(engine);
    let Some((n, at)) = first_number(&counted) else {
        let why = match unknown(&counted) {
            Some(v) => reason(v),
            None => format!("the run records no count of {many} from {name}"),
        };
        return Some((CannotTell, format!("cannot tell: {why}"), Place::Run));
    };
    if n == 0.0 {
        return Some((
            CannotTell,
            format!("cannot tell: no request was preempted ({name} did not move), so the log had nothing to record"),
            at.at.clone(),
        ));
    }
    let counted_by = format!("{} counted by {name}", count(n, one, many));
    Some(match logged {
        Some((0.0, _)) => (
            Shown,
            format!("{counted_by}; no line of the log mentions one"),
            at.at.clone(),
        ),
        Some((k, v)) => (
            Absent,
            format!(
                "{counted_by}; the log records them in {}{}",
                count(k, "line", "lines"),
                v.note
                    .as_deref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            ),
            v.at.clone(),
        ),
        None => (
            CannotTell,
            format!(
                "cannot tell: {counted_by}, but the run keeps no server log to search for them"
            ),
            at.at.clone(),
        ),
    })
}
