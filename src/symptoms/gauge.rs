//! `running-gauge-counts-waiting` (F9): the server's running gauge counts
//! requests that are waiting, held against the client's count of requests
//! streaming at once. TensorRT-LLM's gauge said 32 while no more than 24
//! requests streamed output at the same moment; the rest waited for room
//! in the KV cache.

use super::Outcome::{Absent, CannotTell, Shown};
use super::{first_number, Detected, Symptom};
use crate::checks::Evidence;
use crate::figures::number;

pub(super) const SYMPTOM: Symptom = Symptom {
    name: "running-gauge-counts-waiting",
    claim: "the server's running gauge counted more requests than ever streamed output at once: it counts requests that wait",
    reads: "the most requests the running gauge reported (`max_running`), the most the client saw streaming at once (`max_streaming`, from per-request timings or a table) and the concurrency asked for (`max_concurrency`)",
    decides: "shown when the gauge's most is above the most requests streaming at once; absent when requests waited (fewer streamed than were asked for) and the gauge counted no more than streamed; cannot tell without the client's count of requests streaming, or when every request asked for streamed at once",
    engines: &[],
    detect,
};

fn detect(ev: &Evidence<'_>, i: usize) -> Option<Detected> {
    let (streaming, running) = (
        ev.of_setup("max_streaming", i),
        ev.of_setup("max_running", i),
    );
    let (streaming, running) = (first_number(&streaming), first_number(&running));
    let (r, rv) = running?;
    let Some((s, sv)) = streaming else {
        return Some((
            CannotTell,
            format!(
                "cannot tell: the running gauge reached {}, and the run records no count of requests streaming at once to hold it against",
                number(r)
            ),
            rv.at.clone(),
        ));
    };
    let asked = first_number(&ev.of_setup("max_concurrency", i)).map(|(n, _)| n);
    Some(if r > s {
        (
            Shown,
            format!(
                "the running gauge reached {} while no more than {} requests streamed at once",
                number(r),
                number(s)
            ),
            sv.at.clone(),
        )
    } else if asked.is_some_and(|a| s < a) {
        (
            Absent,
            format!(
                "{} of the {} requests asked for streamed at once, and the running gauge counted no more ({})",
                number(s),
                number(asked.unwrap_or(s)),
                number(r)
            ),
            sv.at.clone(),
        )
    } else {
        (
            CannotTell,
            format!(
                "cannot tell: {} requests streamed at once and none waited, so the gauge had no waiting request to count",
                number(s)
            ),
            sv.at.clone(),
        )
    })
}
