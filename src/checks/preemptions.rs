//! `preemptions-read` (F8, F10): a load run on vLLM or TensorRT-LLM
//! records the preemptions during it. vLLM preempted 22 requests without a
//! log line; TensorRT-LLM logs each pause but keeps no count. A latency
//! figure of a run with preemptions holds requests that were computed
//! twice, and nothing else says so.

use super::evidence::{figure, Evidence, Place, Value};
use super::{Check, Decided, Verdict, UNKNOWN_ENGINE};
use crate::util::and_list;

pub(super) const CHECK: Check = Check {
    name: "preemptions-read",
    reads: "the preemptions during the run (vLLM's `vllm:num_preemptions_total` after minus before, TensorRT-LLM's `-> pause` lines counted from its log: a `preemptions` fact or column) of each vLLM and TensorRT-LLM setup of a run that asked for a concurrency or a request rate",
    flags: "a load run on vLLM or TensorRT-LLM that records no preemptions; cannot tell when the count is known to be unknown (a counter that went down: the server restarted), or when `findings lint` reads a client's report that does not say which engine served it and records no preemptions, or one pasted as text, which cannot hold the server's count; when there were preemptions, the run page says so beside its figures",
    unknown: "how many requests the server preempted",
    flags_what_is_missing: true,
    decide,
};

/// The engines whose preemptions nothing but a counter or a log records.
const ENGINES: &[&str] = &["vllm", "tensorrt-llm"];

fn decide(ev: &Evidence<'_>) -> Option<Decided> {
    if !ev.is_load_run() {
        return None;
    }
    let setups: Vec<usize> = (0..ev.run.setups.len())
        .filter(|&i| ENGINES.contains(&ev.run.setups[i].engine.as_str()))
        .collect();
    // Setups whose files do not say which engine served them (a client's
    // report, linted without --engine): they may be of one of those.
    let unnamed: Vec<usize> = (0..ev.run.setups.len())
        .filter(|&i| ev.run.setups[i].engine == UNKNOWN_ENGINE)
        .collect();
    if setups.is_empty() && unnamed.is_empty() {
        return None;
    }
    let mut missing = Vec::new();
    let mut unknown: Vec<Value> = Vec::new();
    let mut counted: Vec<(usize, f64, Value)> = Vec::new();
    for &i in setups.iter().chain(&unnamed) {
        let values = ev.of_setup_or_run("preemptions", i);
        if values.is_empty() {
            missing.push(i);
        }
        for v in values {
            match v.number {
                Some(n) => counted.push((i, n, v)),
                None => unknown.push(v),
            }
        }
    }
    let (flag, unnamed_missing): (Vec<usize>, Vec<usize>) = missing
        .iter()
        .partition(|&&i| ev.run.setups[i].engine != UNKNOWN_ENGINE);
    let figures_may = "may hold requests that were preempted and computed again";
    // What the setups of no named engine leave unknown.
    let unnamed = (!unnamed_missing.is_empty()).then(|| {
        let who: Vec<String> = unnamed_missing
            .iter()
            .map(|&i| ev.setup_name(Some(i)))
            .collect();
        let one = who.len() == 1;
        format!(
            "{} {} no preemptions and {} not say which engine served {}",
            and_list(&who),
            if one { "records" } else { "record" },
            if one { "does" } else { "do" },
            if one { "it" } else { "them" },
        )
    });
    if !flag.is_empty() {
        let mut what: Vec<String> = flag
            .iter()
            .map(|&i| {
                let who = ev.setup_name(Some(i));
                match ev.run.setups[i].engine.as_str() {
                    "tensorrt-llm" => format!("{who} records no paused requests (TensorRT-LLM keeps no count of them: count the `-> pause` lines of its log)"),
                    _ => format!("{who} records no preemptions (vLLM logs none: read `vllm:num_preemptions_total` before and after the run)"),
                }
            })
            .collect();
        what.extend(unnamed);
        // Those of a named engine first: the flag is theirs.
        let mut about = flag;
        about.extend(unnamed_missing);
        return Some((
            Verdict::Flagged,
            format!(
                "{}; {} latency figures {figures_may}",
                what.join("; "),
                if about.len() == 1 { "its" } else { "their" }
            ),
            Place::Run,
            about,
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
            v.setup.into_iter().collect(),
        ));
    }
    if let Some(unnamed) = unnamed {
        let one = unnamed_missing.len() == 1;
        return Some((
            Verdict::CannotTell,
            format!(
                "cannot tell: {unnamed}; on vLLM and TensorRT-LLM only the server's counter or log records them, and {} latency figures {figures_may}",
                if one { "its" } else { "their" },
            ),
            Place::Run,
            unnamed_missing,
        ));
    }
    let parts: Vec<String> = counted
        .iter()
        .map(|(i, n, _)| format!("{}: {} during the run", ev.setup_name(Some(*i)), figure(*n)))
        .collect();
    let some = counted.iter().any(|(_, n, _)| *n > 0.0);
    let at = counted.first().map_or(Place::Run, |(_, _, v)| v.at.clone());
    let mut about: Vec<usize> = counted.iter().map(|c| c.0).collect();
    about.dedup();
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
        about,
    ))
}
