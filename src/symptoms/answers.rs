//! The symptoms of the changed-answers group (issue 44), read from a run's
//! accuracy evaluations: its derived tables `answers` (lm_eval's sample
//! logs, one row per question and filter) and `scores`. The reference is
//! the run's first setup (a finding names its reference setting: the
//! engine without the speculative decoding, the version before); every
//! other setup is held against it, question by question where both
//! answered the same questions, as `findings compare` holds them
//! ([`crate::compare::accuracy`]).
//!
//! - `answers-changed` (F2): replies that differ from the reference's;
//! - `repeated-text` (F1): a changed reply that, where it first differs,
//!   repeats the text just before;
//! - `extraction-gap` (TC-35): strict-match far below flexible-extract on
//!   the same replies, the grader's pattern, not the model;
//! - `accuracy-below-reference`: a score beyond noise below the
//!   reference's.

use super::Outcome::{Absent, CannotTell, Shown};
use super::{Detected, Symptom};
use crate::checks::{Evidence, Place};
use crate::compare::accuracy::{compare, AccuracySide, Score};
use crate::compare::Kind;
use crate::figures::number;
use crate::record::Table;

pub(super) const CHANGED: Symptom = Symptom {
    name: "answers-changed",
    claim: "replies changed against the reference setting on the same questions, which greedy decoding should answer alike",
    reads: "the run's `answers` table (lm_eval sample logs) of this setup and of the run's first setup, the reference; the setups must decode greedily, as the finding's reference setting says",
    decides: "shown when a reply differs from the reference's to the same question; absent when both answered the same questions and every reply is the same; cannot tell when the reference answered no questions or other ones",
    engines: &[],
    detect: detect_changed,
};

pub(super) const REPEATED: Symptom = Symptom {
    name: "repeated-text",
    claim: "a reply, where it first differs from the reference's, repeats the text just before that point (a token emitted twice)",
    reads: "the run's `answers` table of this setup and of the run's first setup, the reference",
    decides: "shown when a changed reply repeats the word (or the last characters) before where it first differs; absent when replies changed and none does; cannot tell when no reply changed or the setups answered different questions",
    engines: &[],
    detect: detect_repeated,
};

pub(super) const GAP: Symptom = Symptom {
    name: "extraction-gap",
    claim: "strict-match scores far below flexible-extract on the same replies: the grader's answer pattern, not the model, moved the score",
    reads: "the run's `scores` table: a task's `strict-match` and `flexible-extract` scores of one metric",
    decides: "shown when strict-match is 10 points or more below flexible-extract; absent when it is less; cannot tell when the scores have no task with both filters",
    engines: &[],
    detect: detect_gap,
};

pub(super) const BELOW: Symptom = Symptom {
    name: "accuracy-below-reference",
    claim: "a score beyond noise below the reference setting's",
    reads: "the run's `scores` table (and `answers`, for the paired test) of this setup and of the run's first setup, the reference",
    decides: "shown when a score is worse beyond noise (McNemar's exact test on the changed answers, else the two 95% intervals); absent when every score both have is tested and none is; cannot tell when no score can be tested (no standard error, no count of questions)",
    engines: &[],
    detect: detect_below,
};

fn table<'r>(ev: &Evidence<'r>, kind: &str) -> Option<&'r Table> {
    ev.run
        .tables
        .iter()
        .find(|t| t.derived.as_deref() == Some(kind))
}

/// The scores and answers of setup `i`, as a side of a comparison.
fn side(ev: &Evidence<'_>, i: usize) -> AccuracySide {
    let own = ev.run.setups.get(i).map(|s| s.name()).unwrap_or_default();
    AccuracySide::of_tables(
        ev.setup_name(Some(i)),
        table(ev, "scores"),
        table(ev, "answers"),
        &own,
    )
}

/// The reference's and setup `i`'s sides, when `i` is not the reference
/// and has answers (or scores, `scores`).
fn sides(ev: &Evidence<'_>, i: usize, scores: bool) -> Option<(AccuracySide, AccuracySide)> {
    if i == 0 {
        return None;
    }
    let this = side(ev, i);
    let has = |s: &AccuracySide| {
        if scores {
            !s.scores.is_empty()
        } else {
            !s.answers.is_empty()
        }
    };
    has(&this).then(|| (side(ev, 0), this))
}

/// The counts of every task and filter both answered alike: (questions,
/// changed, repeated), `None` when they answered different questions.
fn paired(reference: &AccuracySide, this: &AccuracySide) -> Option<(usize, usize, usize)> {
    let c = compare(reference, this);
    let all: Vec<_> = c
        .rows
        .iter()
        .filter_map(|r| r.paired)
        .chain(c.unscored.iter().map(|u| u.paired))
        .collect();
    if all.is_empty() {
        return None;
    }
    // Each task and filter once (several metrics share the replies).
    Some(all.iter().fold((0, 0, 0), |(q, c, r), p| {
        (q.max(p.questions), c.max(p.changed), r.max(p.repeated))
    }))
}

fn no_reference(reference: &AccuracySide) -> Detected {
    (
        CannotTell,
        format!(
            "cannot tell: the reference, {}, answered {}",
            reference.name,
            if reference.answers.is_empty() {
                "no question in this run"
            } else {
                "other questions"
            }
        ),
        Place::Run,
    )
}

fn detect_changed(ev: &Evidence<'_>, i: usize) -> Option<Detected> {
    let (reference, this) = sides(ev, i, false)?;
    let Some((questions, changed, _)) = paired(&reference, &this) else {
        return Some(no_reference(&reference));
    };
    Some(if changed > 0 {
        (
            Shown,
            format!(
                "{changed} of {questions} replies differ from {}'s to the same questions",
                reference.name
            ),
            Place::Run,
        )
    } else {
        (
            Absent,
            format!(
                "all {questions} replies are the same as {}'s",
                reference.name
            ),
            Place::Run,
        )
    })
}

fn detect_repeated(ev: &Evidence<'_>, i: usize) -> Option<Detected> {
    let (reference, this) = sides(ev, i, false)?;
    let Some((questions, changed, repeated)) = paired(&reference, &this) else {
        return Some(no_reference(&reference));
    };
    Some(if repeated > 0 {
        (
            Shown,
            format!(
                "{repeated} of the {changed} replies that changed (of {questions}) repeat the text just before where they first differ from {}'s",
                reference.name
            ),
            Place::Run,
        )
    } else if changed > 0 {
        (
            Absent,
            format!(
                "{changed} of {questions} replies changed against {}'s, and none repeats the text before where it first differs",
                reference.name
            ),
            Place::Run,
        )
    } else {
        (
            CannotTell,
            format!(
                "cannot tell: no reply changed against {}'s, so none can repeat where it differs",
                reference.name
            ),
            Place::Run,
        )
    })
}

fn detect_gap(ev: &Evidence<'_>, i: usize) -> Option<Detected> {
    let this = side(ev, i);
    if this.scores.is_empty() {
        return None;
    }
    let mut widest: Option<(f64, &Score, &Score)> = None;
    for strict in this.scores.iter().filter(|s| s.filter == "strict-match") {
        let Some(flex) = this.scores.iter().find(|f| {
            f.filter == "flexible-extract" && f.task == strict.task && f.metric == strict.metric
        }) else {
            continue;
        };
        let gap = (flex.value - strict.value) * 100.0;
        if widest.is_none_or(|(g, ..)| gap > g) {
            widest = Some((gap, strict, flex));
        }
    }
    let Some((gap, strict, flex)) = widest else {
        return Some((
            CannotTell,
            "cannot tell: no task of the run's scores has both a strict-match and a flexible-extract score".into(),
            Place::Run,
        ));
    };
    let said = format!(
        "{} {}: strict-match {}, flexible-extract {}",
        strict.task,
        strict.metric,
        number(strict.value),
        number(flex.value)
    );
    Some(if gap >= 10.0 {
        (
            Shown,
            format!("{said}: {} points below on the same replies", number(gap)),
            Place::Run,
        )
    } else {
        (Absent, format!("{said}: under 10 points apart"), Place::Run)
    })
}

fn detect_below(ev: &Evidence<'_>, i: usize) -> Option<Detected> {
    let (reference, this) = sides(ev, i, true)?;
    let c = compare(&reference, &this);
    if c.rows.is_empty() {
        return Some((
            CannotTell,
            format!(
                "cannot tell: no score of this setup is one {} has",
                reference.name
            ),
            Place::Run,
        ));
    }
    let worst = c
        .rows
        .iter()
        .filter(|r| r.change.kind() == Kind::Regression)
        .min_by(|a, b| a.points.total_cmp(&b.points));
    Some(match worst {
        Some(r) => (
            Shown,
            format!(
                "{} {} {}: {} against {}'s {}, {} points, {}",
                r.base.task,
                r.base.filter,
                r.base.metric,
                number(r.other.value),
                reference.name,
                number(r.base.value),
                number(r.points),
                r.change.noise.words()
            ),
            Place::Run,
        ),
        None if c.rows.iter().all(|r| r.change.kind() == Kind::Untested) => (
            CannotTell,
            format!(
                "cannot tell: no score against {}'s has a standard error or a count of questions to test it by",
                reference.name
            ),
            Place::Run,
        ),
        None => (
            Absent,
            format!(
                "no score of {} compared is worse than {}'s beyond noise",
                c.rows.len(),
                reference.name
            ),
            Place::Run,
        ),
    })
}
