//! `running-limit-lowered` (F5): SGLang's boot log caps
//! `max_running_requests` below what it was given, and the server then ran
//! no more than the cap. With its prefix cache on (the default), SGLang
//! 0.5.20 cut the limit to one request for the hybrid Qwen3.8-27B (`max_running_requests is
//! capped to 1 by the mamba state cache`) while `/get_server_info` still
//! said 32. A client that sent too few requests, or a pool too small for
//! more, is not this: only the limit the log gives, held against the one
//! the server was given, decides.

use super::Outcome::{Absent, CannotTell, Shown};
use super::{first_number, first_text, Detected, Symptom};
use crate::checks::{Evidence, Place};
use crate::figures::number;

pub(super) const SYMPTOM: Symptom = Symptom {
    name: "running-limit-lowered",
    claim: "SGLang's boot log caps `max_running_requests` below the limit it was given, and the server ran no more requests at once than the cap",
    reads: "the running limit of SGLang's boot log (`running_limit`, and what lowered it: `running_limit_cause`), the one it was given (`running_limit_asked`, from `server_args`), the most requests the server ran at once (`max_running`), whether the model keeps a recurrent state (`recurrent_state`) and the prefix cache (`prefix_cache`)",
    decides: "shown when the log's limit is below the one given and the server never ran more than it; absent when a hybrid model with the prefix cache on kept the limit it was given; cannot tell for a model with no recurrent state, a prefix cache turned off, a limit never given, or a run that records no running count",
    engines: &["sglang"],
    detect,
};

fn detect(ev: &Evidence<'_>, i: usize) -> Option<Detected> {
    let limit = ev.of_setup("running_limit", i);
    let asked = ev.of_setup("running_limit_asked", i);
    if limit.is_empty() && asked.is_empty() {
        return None;
    }
    let Some((limit, at)) = first_number(&limit) else {
        return Some((
            CannotTell,
            "cannot tell: the run records no running limit from SGLang's log".to_string(),
            Place::Run,
        ));
    };
    let at = at.at.clone();
    let cause = first_text(&ev.of_setup("running_limit_cause", i)).map(|v| v.text.clone());
    let given = first_number(&asked).map(|(n, _)| n);
    let ran = first_number(&ev.of_setup("max_running", i)).map(|(n, _)| n);
    let capped = match &cause {
        Some(c) => format!(
            "the log caps `max_running_requests` to {} by the {c}",
            number(limit)
        ),
        None => format!("the log sets `max_running_requests` to {}", number(limit)),
    };
    let lowered = match given {
        Some(g) if limit < g => Some(format!("{capped}, below the {} it was given", number(g))),
        None if cause.is_some() => Some(capped.clone()),
        _ => None,
    };
    if let Some(lowered) = lowered {
        return Some(match ran {
            Some(r) if r <= limit => (
                Shown,
                format!("{lowered}; the server never ran more than {} at once", number(r)),
                at,
            ),
            Some(r) => (
                CannotTell,
                format!("cannot tell: {lowered}, yet the server ran {} at once", number(r)),
                at,
            ),
            None => (
                CannotTell,
                format!("cannot tell: {lowered}, but the run records no count of the requests the server ran"),
                at,
            ),
        });
    }
    let Some(given) = given else {
        return Some((
            CannotTell,
            "cannot tell: SGLang was given no running limit to lower".to_string(),
            at,
        ));
    };
    let text = |name: &str| first_text(&ev.of_setup(name, i)).map(|v| v.text.clone());
    Some(match (text("recurrent_state").as_deref(), text("prefix_cache").as_deref()) {
        (Some("yes"), Some("on")) => (
            Absent,
            format!(
                "a hybrid model with the prefix cache on kept the running limit of {} it was given",
                number(given)
            ),
            at,
        ),
        (Some("no"), _) => (
            CannotTell,
            "cannot tell: the model keeps no recurrent state (the start allocated no Mamba cache); the limit falls for hybrid models".to_string(),
            at,
        ),
        (_, Some("off")) => (
            CannotTell,
            "cannot tell: the prefix cache was off; the limit falls with it on".to_string(),
            at,
        ),
        _ => (
            CannotTell,
            format!(
                "cannot tell: SGLang kept the limit of {} it was given, but the run does not record whether the model is hybrid and the prefix cache on",
                number(given)
            ),
            at,
        ),
    })
}
