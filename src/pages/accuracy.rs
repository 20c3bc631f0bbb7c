//! What a comparison page shows of two accuracy runs (issue 44): the
//! verdict in the words `findings compare` prints, each score of both
//! sides with its 95% interval, the change and its noise, the counts of
//! the questions both answered (changed, right → wrong, wrong → right,
//! repeated, McNemar's p), then the first changed replies of each task
//! and filter, stacked so that a 390 px screen reads them: the question,
//! each side's reply around where they first differ (that part marked)
//! and whether it was right. Every changed reply, whole, is in the CSV
//! beside the page ([`crate::urls::comparison_replies_csv`]).
//!
//! The page is bounded whatever the runs hold: at most [`PER_GROUP`]
//! replies of a task and filter and [`ON_PAGE`] in all, each cut to a
//! window of [`BEFORE`] characters before the difference and [`AFTER`]
//! from it.

use crate::compare::accuracy::{AccuracyComparison, ChangedReply, Paired, Score};
use crate::compare::accuracy_report::window;
use crate::figures;
use crate::urls::{self, ROOT};
use serde_json::{json, Value};

/// Changed replies of one task and filter the page shows.
pub(super) const PER_GROUP: usize = 20;
/// Changed replies the page shows in all.
pub(super) const ON_PAGE: usize = 100;
/// Characters of a reply shown before where it first differs.
const BEFORE: usize = 60;
/// Characters shown from there on.
const AFTER: usize = 100;

fn value(s: &Score) -> String {
    let v = figures::number(s.value);
    match s.interval() {
        Some((lo, hi)) => format!(
            "{v} (95% interval {}–{})",
            figures::number(lo),
            figures::number(hi)
        ),
        None => v,
    }
}

fn right(r: Option<bool>) -> &'static str {
    match r {
        Some(true) => "right",
        Some(false) => "wrong",
        None => "not graded",
    }
}

/// `2 replies changed`, `1 reply changed`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The counts in a sentence: `Paired on 6 questions: 2 replies changed,
/// 1 of them repeating …; 2 answers right → wrong, 0 wrong → right;
/// McNemar's exact test p 0.5.`
fn paired(p: &Paired, graded: bool) -> String {
    let mut out = format!(
        "Paired on {}: {}, {} of them repeating the text just before where it first differs",
        count(p.questions, "question", "questions"),
        count(p.changed, "reply changed", "replies changed"),
        p.repeated
    );
    if graded {
        out.push_str(&format!(
            "; {} right → wrong, {} wrong → right; McNemar's exact test p {}",
            count(p.right_to_wrong, "answer", "answers"),
            p.wrong_to_right,
            figures::number(p.p_value)
        ));
    } else {
        out.push_str("; not graded one by one");
    }
    out.push('.');
    out
}

/// One side's reply around where the two first differ.
fn reply_view(reply: &str, at: usize, right_: Option<bool>) -> Value {
    let w = window(reply, at, BEFORE, AFTER);
    let flat = |s: &str| s.replace('\n', "⏎");
    json!({
        "cut_before": w.cut_before,
        "same": flat(w.same),
        "differs": flat(w.differs),
        "cut_after": w.cut_after,
        "right": right(right_),
    })
}

/// The changed replies of one task and filter, the first of them shown
/// (`room`: how many more the page takes).
fn group(task: &str, filter: &str, changed: &[ChangedReply], room: &mut usize) -> Value {
    let shown = changed.len().min(PER_GROUP).min(*room);
    *room -= shown;
    json!({
        "what": format!("{task} {filter}"),
        "total": changed.len(),
        "shown": shown,
        "replies": changed[..shown].iter().map(|ch| json!({
            "question": ch.question,
            "before": reply_view(&ch.before, ch.first_difference, ch.right_before),
            "after": reply_view(&ch.after, ch.first_difference, ch.right_after),
            "repeated": ch.repeated,
        })).collect::<Vec<_>>(),
    })
}

/// The page's view of accuracy comparison `c`, its id `id`.
pub(super) fn view(c: &AccuracyComparison, id: &str) -> Value {
    let scores: Vec<Value> = c
        .rows
        .iter()
        .map(|r| {
            json!({
                "what": format!("{} {} {}", r.base.task, r.base.filter, r.base.metric),
                "n_shot": r.base.n_shot.map(figures::number),
                "base": value(&r.base),
                "other": value(&r.other),
                "change": r.change.words(),
                "paired": r.paired.as_ref().map(|p| paired(p, true)),
            })
        })
        .collect();
    // Each task and filter once: its scores share its replies.
    let mut room = ON_PAGE;
    let mut seen = std::collections::HashSet::new();
    let mut groups: Vec<Value> = Vec::new();
    let mut total = 0;
    for r in &c.rows {
        if r.changed.is_empty() || !seen.insert((r.base.task.as_str(), r.base.filter.as_str())) {
            continue;
        }
        total += r.changed.len();
        groups.push(group(&r.base.task, &r.base.filter, &r.changed, &mut room));
    }
    let unscored: Vec<Value> = c
        .unscored
        .iter()
        .map(|u| json!({"what": format!("{} {}", u.task, u.filter), "paired": paired(&u.paired, false)}))
        .collect();
    for u in c.unscored.iter().filter(|u| !u.changed.is_empty()) {
        total += u.changed.len();
        groups.push(group(&u.task, &u.filter, &u.changed, &mut room));
    }
    json!({
        "verdict": c.verdict.words,
        "sides": c.sides,
        "scores": scores,
        "unscored": unscored,
        "groups": groups,
        "changed": total,
        "shown": ON_PAGE - room,
        "per_group": PER_GROUP,
        "csv": format!("{ROOT}{}", urls::comparison_replies_csv(id)),
    })
}
