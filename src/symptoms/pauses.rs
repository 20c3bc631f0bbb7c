//! `pauses-uncounted` (F10): requests paused or preempted, each written to
//! the log, and no metric that counts them. TensorRT-LLM paused 13
//! requests under `MAX_UTILIZATION`, logged each (`request ID 72 ->
//! pause`), and exports only `trtllm_num_paused_requests`, a gauge of the
//! requests paused at the moment. vLLM does the opposite: it counts its
//! preemptions (and logs none, F8).

use super::Outcome::{Absent, CannotTell, Shown};
use super::{count, first_number, reason, unknown, Detected, Symptom};
use crate::checks::{Evidence, Place};

pub(super) const SYMPTOM: Symptom = Symptom {
    name: "pauses-uncounted",
    claim: "requests were paused or preempted, the log records each, and no metric counts them",
    reads: "the lines of the server's log that record a pause or preemption (`preemption_log_lines`) and the server's counter of them (`preemptions_counted`; a snapshot with no such counter, or an empty cell in a table's `preemptions_counted` column, says there is none)",
    decides: "shown when the log records pauses and the server exports no counter of them; absent when requests were paused or preempted and a counter counts them; cannot tell when nothing was paused, or when the run keeps no metrics to say whether a counter exists",
    engines: &[],
    detect,
};

fn detect(ev: &Evidence<'_>, i: usize) -> Option<Detected> {
    let lines = ev.of_setup("preemption_log_lines", i);
    let counted = ev.of_setup("preemptions_counted", i);
    let blank = ev.blank_of_setup("preemptions_counted", i);
    if lines.is_empty() && counted.is_empty() && blank.is_none() {
        return None;
    }
    let counter = first_number(&counted);
    // No counter at all: a snapshot that has none (a fact known to be
    // unknown, saying so), or a table's empty cell.
    let none: Option<String> = match (unknown(&counted), &blank) {
        (Some(v), _)
            if v.note
                .as_deref()
                .is_some_and(|n| n.starts_with("no metric")) =>
        {
            Some(reason(v))
        }
        (_, Some(_)) if counter.is_none() => Some("the run records no counter of them".to_string()),
        _ => None,
    };
    let logged = first_number(&lines);
    Some(match (logged, counter) {
        (Some((n, v)), _) if n > 0.0 => match (counter, none) {
            (Some((c, cv)), _) => (
                Absent,
                format!(
                    "{} in the log, and the server's counter counted {}",
                    count(n, "line records a pause or preemption", "lines record pauses or preemptions"),
                    crate::figures::number(c)
                ),
                cv.at.clone(),
            ),
            (None, Some(why)) => (
                Shown,
                format!(
                    "{}, each in the log; {why}",
                    count(n, "request paused", "requests paused")
                ),
                v.at.clone(),
            ),
            (None, None) => (
                CannotTell,
                format!(
                    "cannot tell: {} in the log, but the run keeps no metrics to say whether any counts them",
                    count(n, "pause", "pauses")
                ),
                v.at.clone(),
            ),
        },
        (_, Some((c, cv))) if c > 0.0 => (
            Absent,
            format!(
                "{} during the run, and the server's counter counts them",
                count(c, "preemption", "preemptions")
            ),
            cv.at.clone(),
        ),
        (Some((_, v)), _) => (
            CannotTell,
            "cannot tell: no request was paused or preempted, so there was nothing to count".to_string(),
            v.at.clone(),
        ),
        (None, _) => (
            CannotTell,
            match unknown(&lines) {
                Some(v) => format!("cannot tell: {}", reason(v)),
                None => "cannot tell: the run keeps no server log to read pauses from".to_string(),
            },
            Place::Run,
        ),
    })
}
