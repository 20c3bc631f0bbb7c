//! `counter-moves-on-completion` (F11): the generated-token counter moved
//! in few of the readings taken while requests ran. An engine that counts
//! tokens as it generates them moves its counter between nearly every two
//! readings a quarter of a second apart (vLLM: 89 of 137); one that counts
//! them when a request completes moves it a handful of times in a run
//! (TensorRT-LLM: 3 of 126), so a rate drawn between two readings is
//! zero, then a burst.

use super::Outcome::{Absent, CannotTell, Shown};
use super::{first_number, Detected, Symptom};
use crate::checks::{Evidence, Place};
use crate::figures::number;

/// The share of readings at or below which the counter moves "in few".
const FEW: f64 = 0.25;
/// The share at or above which it moves as tokens are generated.
const MOST: f64 = 0.5;
/// The fewest readings a share is drawn from.
const ENOUGH: f64 = 10.0;

pub(super) const SYMPTOM: Symptom = Symptom {
    name: "counter-moves-on-completion",
    claim: "the generated-token counter moved in few of the readings taken while requests ran: it counts tokens when a request completes, not as they are generated",
    reads: "the readings of the server's metrics taken while requests ran (`counter_readings`: inferlint's series, each sample with `running` above 0) and those at which the generated-token counter had moved since the reading before (`counter_moves`)",
    decides: "shown when the counter moved in at most a quarter of at least 10 readings; absent when it moved in at least half; cannot tell in between, with fewer readings, or without a running gauge to say which readings were taken while requests ran",
    engines: &[],
    detect,
};

fn detect(ev: &Evidence<'_>, i: usize) -> Option<Detected> {
    let readings = ev.of_setup("counter_readings", i);
    let moves = ev.of_setup("counter_moves", i);
    let (Some((n, at)), Some((m, mv))) = (first_number(&readings), first_number(&moves)) else {
        return None;
    };
    let at = at.at.clone();
    let also = mv
        .note
        .as_deref()
        .map(|n| format!("; {n}"))
        .unwrap_or_default();
    let said = format!(
        "the generated-token counter moved at {} of the {} readings taken while requests ran{also}",
        number(m),
        number(n)
    );
    if n < ENOUGH {
        return Some((
            CannotTell,
            format!("cannot tell from so few readings: {said}"),
            at,
        ));
    }
    let share = m / n;
    Some(if share <= FEW {
        (Shown, said, at)
    } else if share >= MOST {
        (Absent, said, at)
    } else {
        (
            CannotTell,
            format!("cannot tell: {said}, neither few nor most"),
            Place::Run,
        )
    })
}
