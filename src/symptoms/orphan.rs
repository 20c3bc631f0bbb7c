//! `engine-outlives-server` (F7): the engine process outlives the API
//! server it served, and keeps the GPU. `pkill -f "vllm serve"` stops the
//! API server but not `VLLM::EngineCore`, which went on holding 21,522 to
//! 21,872 MiB of the GPU on vLLM 0.28 to 0.30. inferlint's T2 (orphaned-engine) checks it after a run; a
//! table may give it per setup (`engine_outlived_server`: `yes` or `no`).

use super::Outcome::{Absent, CannotTell, Shown};
use super::{first_text, reason, unknown, Detected, Symptom};
use crate::checks::{Evidence, Place};

pub(super) const SYMPTOM: Symptom = Symptom {
    name: "engine-outlives-server",
    claim: "the engine process outlived the killed API server and kept the GPU",
    reads: "whether the engine outlived the server (`engine_outlived_server`: inferlint's T2 in `results.json`, or a table's `yes`/`no`)",
    decides: "shown on `yes`, absent on `no`, cannot tell when T2 could not decide",
    engines: &[],
    detect,
};

fn detect(ev: &Evidence<'_>, i: usize) -> Option<Detected> {
    let values = ev.of_setup("engine_outlived_server", i);
    if values.is_empty() {
        return None;
    }
    let says = |v: &crate::checks::Value, default: &str| {
        v.note.clone().unwrap_or_else(|| default.to_string())
    };
    Some(match first_text(&values) {
        Some(v) if v.text.eq_ignore_ascii_case("yes") => (
            Shown,
            says(v, "the engine process outlived the killed API server"),
            v.at.clone(),
        ),
        Some(v) if v.text.eq_ignore_ascii_case("no") => (
            Absent,
            says(v, "the engine process stopped with the API server"),
            v.at.clone(),
        ),
        Some(v) => (
            CannotTell,
            format!("cannot tell: `{}` is neither yes nor no", v.text),
            v.at.clone(),
        ),
        None => (
            CannotTell,
            format!(
                "cannot tell: {}",
                unknown(&values).map_or("the value is unknown".to_string(), reason)
            ),
            Place::Run,
        ),
    })
}
