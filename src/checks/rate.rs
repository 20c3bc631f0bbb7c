//! `rate-from-two-readings` (F11): no tokens-a-second curve drawn from
//! SGLang's or TensorRT-LLM's counters. Their token counters move only when
//! a request completes, so a rate between successive readings swings
//! between nothing and bursts; a rate holds only between two readings far
//! apart (before and after the run).

use super::evidence::{Evidence, Place};
use super::{Check, Decided, Verdict};

pub(super) const CHECK: Check = Check {
    name: "rate-from-two-readings",
    reads: "the run's charts against time (`t_s`) in a run of SGLang or TensorRT-LLM that keeps a time series",
    flags: "a chart that draws the generation rate between successive readings of the server's counter (`generation_tokens_per_s`); cannot tell where a chart draws another rate against time from a table that does not say where it came from",
    unknown: "where a rate drawn against time came from",
    flags_what_is_missing: false,
    decide,
};

const ENGINES: &[&str] = &["sglang", "tensorrt-llm"];

fn decide(ev: &Evidence<'_>) -> Option<Decided> {
    let run = ev.run;
    if !run
        .setups
        .iter()
        .any(|s| ENGINES.contains(&s.engine.as_str()))
    {
        return None;
    }
    let series: Vec<_> = run
        .tables
        .iter()
        .filter(|t| t.index("t_s").is_some())
        .collect();
    if series.is_empty() {
        return None;
    }
    for c in &run.charts {
        let Some(t) = series.iter().find(|t| t.file == c.table) else {
            continue;
        };
        if c.x != "t_s" {
            continue;
        }
        if c.y.iter().any(|y| y == "generation_tokens_per_s") {
            return Some((
                Verdict::Flagged,
                format!(
                    "chart \"{}\" draws the generation rate between successive readings of the server's counter, which moves only when a request completes: take the rate from two readings, before and after the run",
                    c.id
                ),
                Place::Run,
                Vec::new(),
            ));
        }
        let rate = c.y.iter().find(|y| {
            t.column(y)
                .and_then(|col| col.unit.as_deref())
                .is_some_and(|u| u.ends_with("/s"))
        });
        if let (Some(y), None) = (rate, &t.derived) {
            return Some((
                Verdict::CannotTell,
                format!("cannot tell whether chart \"{}\" draws \"{y}\" from the server's counters: its table does not say where the rate came from", c.id),
                Place::Run,
                Vec::new(),
            ));
        }
    }
    Some((
        Verdict::Passed,
        "no chart draws a rate between successive readings of the server's counters".into(),
        Place::Run,
        Vec::new(),
    ))
}
