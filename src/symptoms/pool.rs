//! `pool-size-jump` (F6): two starts of one engine version, with the same
//! model and flags, print KV cache pools of different sizes. vLLM 0.30
//! settled on 32,336 tokens in a start that compiled the model and 47,888
//! in one that loaded the compiled model; the size is decided per start.
//! Starts compare when they are setups of one run: the same engine and
//! version, the same model, and the same flags (the digest of the
//! arguments the boot log prints, else the setups' `flags`).

use super::Outcome::{Absent, CannotTell, Shown};
use super::{first_number, first_text, Detected, Symptom};
use crate::checks::Evidence;
use crate::figures::number;

pub(super) const SYMPTOM: Symptom = Symptom {
    name: "pool-size-jump",
    claim: "two starts of one engine version with the same model and flags print KV cache pools of different sizes",
    reads: "each setup's KV cache pool (`kv_cache_tokens`), engine, version and model, and its flags: the digest of the arguments its boot log prints (`start_args`), else the setup's `flags`",
    decides: "shown when another start of the run with the same engine, version, model and flags printed a different pool; absent when every such start printed the same; cannot tell when the run has no other such start, or does not record the flags of its starts",
    engines: &[],
    detect,
};

/// What makes two starts comparable: engine, version, model and flags. The
/// arguments a boot log prints name the model too, so two starts with the
/// same digest of them have the same model and flags.
fn key(ev: &Evidence<'_>, i: usize) -> Option<(String, String, Option<String>, String)> {
    let s = ev.run.setups.get(i)?;
    let (model, flags) = match first_text(&ev.of_setup("start_args", i)) {
        Some(v) => (None, format!("args {}", v.text)),
        None => (
            first_text(&ev.of_setup("model", i)).map(|v| v.text.clone()),
            format!("flags {}", s.flags.clone()?),
        ),
    };
    let version = crate::version::Version::parse(s.version.as_deref()?).ok()?;
    Some((s.engine.clone(), version.to_string(), model, flags))
}

fn detect(ev: &Evidence<'_>, i: usize) -> Option<Detected> {
    let (pool, at) =
        first_number(&ev.of_setup("kv_cache_tokens", i)).map(|(n, v)| (n, v.at.clone()))?;
    let who = |j: usize| ev.setup_name(Some(j));
    let Some(mine) = key(ev, i) else {
        return Some((
            CannotTell,
            format!(
                "cannot tell: the run does not record the version and flags of this start ({} tokens)",
                number(pool)
            ),
            at,
        ));
    };
    let peers: Vec<(usize, f64)> = (0..ev.run.setups.len())
        .filter(|&j| j != i && key(ev, j).as_ref() == Some(&mine))
        .filter_map(|j| first_number(&ev.of_setup("kv_cache_tokens", j)).map(|(n, _)| (j, n)))
        .collect();
    if peers.is_empty() {
        return Some((
            CannotTell,
            format!(
                "cannot tell: this start printed a KV pool of {} tokens, and the run has no other start of {} {} with the same model and flags to hold it against",
                number(pool),
                ev.engine_name(i),
                mine.1
            ),
            at,
        ));
    }
    Some(match peers.iter().find(|(_, n)| *n != pool) {
        Some(&(j, other)) => (
            Shown,
            format!(
                "{} printed a KV pool of {} tokens, {} {} with the same model and flags",
                who(i),
                number(pool),
                who(j),
                number(other)
            ),
            at,
        ),
        None => (
            Absent,
            format!(
                "{} and {} with the same model and flags printed the same KV pool, {} tokens",
                who(i),
                peers
                    .iter()
                    .map(|&(j, _)| who(j))
                    .collect::<Vec<_>>()
                    .join(", "),
                number(pool)
            ),
            at,
        ),
    })
}
