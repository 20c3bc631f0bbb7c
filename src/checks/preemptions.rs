//! `preemptions-read` (F8, F10): a load run on vLLM or TensorRT-LLM
//! records the preemptions during it. vLLM preempted 22 requests without a
//! log line; TensorRT-LLM logs each pause but keeps no count. A latency
//! figure of a run with preemptions holds requests that were computed
//! twice, and nothing else says so.

use super::evidence::{figure, Evidence, Place, Value};
use super::{Check, Verdict};

pub(super) const CHECK: Check = Check {
    name: "preemptions-read",
    reads: "the preemptions during the run (vLLM's `vllm:num_preemptions_total` after minus before, TensorRT-LLM's `-> pause` lines counted from its log: a `preemptions` fact or column) of each vLLM and TensorRT-LLM setup of a run that asked for a concurrency or a request rate",
    flags: "a load run on vLLM or TensorRT-LLM that records no preemptions; cannot tell when the count is known to be unknown (a counter that went down: the server restarted); when there were preemptions, the run page says so beside its figures",
    decide,
};

/// The engines whose preemptions nothing but a counter or a log records.
const ENGINES: &[&str] = &["vllm", "tensorrt-llm"];

fn decide(ev: &Evidence<'_>) -> Option<(Verdict, String, Place)> {
    if !ev.is_load_run() {
        return None;
    }
    let setups: Vec<usize> = (0..ev.run.setups.len())
        .filter(|&i| ENGINES.contains(&ev.run.setups[i].engine.as_str()))
        .collect();
    if setups.is_empty() {
        return None;
    }
    let all = ev.values("preemptions");
    let mut missing = Vec::new();
    let mut unknown: Vec<&Value> = Vec::new();
    let mut counted: Vec<(usize, f64, &Value)> = Vec::new();
    for &i in &setups {
        let mine: Vec<&Value> = all
            .iter()
            .filter(|v| v.setup == Some(i) || v.setup.is_none())
            .collect();
        if mine.is_empty() {
            missing.push(i);
        }
        for v in mine {
            match v.number {
                Some(n) => counted.push((i, n, v)),
                None => unknown.push(v),
            }
        }
    }
    if !missing.is_empty() {
        let what: Vec<String> = missing
            .iter()
            .map(|&i| {
                let who = ev.setup_name(Some(i));
                match ev.run.setups[i].engine.as_str() {
                    "tensorrt-llm" => format!("{who} records no paused requests (TensorRT-LLM keeps no count of them: count the `-> pause` lines of its log)"),
                    _ => format!("{who} records no preemptions (vLLM logs none: read `vllm:num_preemptions_total` before and after the run)"),
                }
            })
            .collect();
        return Some((
            Verdict::Flagged,
            format!(
                "{}; its latency figures may hold requests that were preempted and computed again",
                what.join("; ")
            ),
            Place::Run,
        ));
    }
    if let Some(v) = unknown.first() {
        return Some((
            Verdict::CannotTell,
            format!(
                "cannot tell how many requests were preempted: {}",
                v.note.as_deref().unwrap_or("the count is unknown")
            ),
            v.at.clone(),
        ));
    }
    let parts: Vec<String> = counted
        .iter()
        .map(|(i, n, _)| format!("{}: {} during the run", ev.setup_name(Some(*i)), figure(*n)))
        .collect();
    let some = counted.iter().any(|(_, n, _)| *n > 0.0);
    let at = counted.first().map_or(Place::Run, |(_, _, v)| v.at.clone());
    Some((
        Verdict::Passed,
        if some {
            format!(
                "preemptions recorded ({}); the latency figures include the requests preempted and computed again",
                parts.join("; ")
            )
        } else {
            format!("preemptions recorded ({})", parts.join("; "))
        },
        at,
    ))
}
