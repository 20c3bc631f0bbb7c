//! An accuracy comparison as `findings compare` prints it: a table for
//! people (the verdict first, then each score of both sides with its 95%
//! interval and questions, the change in points and its noise, the
//! question-by-question counts, and the first replies that changed, where
//! they first differ marked), JSON for scripts (the `verdict` object of
//! every comparison, and per score the `paired` object whose names issue
//! 44 fixed), and the changed replies as CSV.
//!
//! Takes an [`AccuracyComparison`]; hands back text.

use super::accuracy::{AccuracyComparison, ChangedReply, Paired, Score};
use crate::figures;
use serde_json::{json, Value};

/// How many changed replies the table shows (all of them are in the CSV).
pub const SHOWN_REPLIES: usize = 5;

fn value(s: &Score) -> String {
    let v = figures::number(s.value);
    match s.interval() {
        Some((lo, hi)) => format!("{v} ({}–{})", figures::number(lo), figures::number(hi)),
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

/// The part of `reply` around `at` (where it first differs from the
/// other side's): up to `before` characters before it and `after` from
/// it, and whether text was left out before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window<'a> {
    /// Text was left out before.
    pub cut_before: bool,
    /// The text before where the replies first differ.
    pub same: &'a str,
    /// The text from there on.
    pub differs: &'a str,
    /// Text was left out after.
    pub cut_after: bool,
}

/// The [`Window`] of `reply` around `at`.
pub fn window(reply: &str, at: usize, before: usize, after: usize) -> Window<'_> {
    let start = match before.checked_sub(1) {
        Some(k) => reply[..at]
            .char_indices()
            .rev()
            .nth(k)
            .map_or(0, |(i, _)| i),
        None => at,
    };
    let end = reply[at..]
        .char_indices()
        .nth(after)
        .map_or(reply.len(), |(i, _)| at + i);
    Window {
        cut_before: start > 0,
        same: &reply[start..at],
        differs: &reply[at..end],
        cut_after: end < reply.len(),
    }
}

/// `…text before⟦the rest⟧`: 40 characters either side of where the
/// reply first differs, the difference marked.
pub fn excerpt(reply: &str, at: usize) -> String {
    let w = window(reply, at, 40, 40);
    let flat = |s: &str| s.replace('\n', "⏎");
    format!(
        "{}{}⟦{}⟧{}",
        if w.cut_before { "…" } else { "" },
        flat(w.same),
        flat(w.differs),
        if w.cut_after { "…" } else { "" }
    )
}

/// The table: the verdict, the scores, the counts, the first changes.
pub fn table(c: &AccuracyComparison) -> String {
    let mut out = format!(
        "{} against {}: {}\n\n",
        c.sides[1], c.sides[0], c.verdict.words
    );
    out.push_str(&format!(
        "{:<40} {:>6}  {:<24} {:<24} {:>12}  noise\n",
        "task filter metric", "n-shot", c.sides[0], c.sides[1], "change"
    ));
    for r in &c.rows {
        let what = format!("{} {} {}", r.base.task, r.base.filter, r.base.metric);
        out.push_str(&format!(
            "{:<40} {:>6}  {:<24} {:<24} {:>12}  {}\n",
            what,
            r.base.n_shot.map_or("-".into(), figures::number),
            value(&r.base),
            value(&r.other),
            r.change.shown(),
            r.change.noise.short()
        ));
        if let Some(p) = &r.paired {
            out.push_str(&format!(
                "  paired on {} questions: {} replies changed ({} repeat the text before), {} answers right → wrong, {} wrong → right, McNemar p {}\n",
                p.questions,
                p.changed,
                p.repeated,
                p.right_to_wrong,
                p.wrong_to_right,
                figures::number(p.p_value)
            ));
        }
        for ch in r.changed.iter().take(SHOWN_REPLIES) {
            out.push_str(&format!(
                "  question {}: {} → {}\n    {}\n    {}\n",
                ch.question,
                right(ch.right_before),
                right(ch.right_after),
                excerpt(&ch.before, ch.first_difference),
                excerpt(&ch.after, ch.first_difference)
            ));
        }
        if r.changed.len() > SHOWN_REPLIES {
            out.push_str(&format!(
                "  … and {} more changed replies (--format json lists them all)\n",
                r.changed.len() - SHOWN_REPLIES
            ));
        }
    }
    for u in &c.unscored {
        out.push_str(&format!(
            "{} {}: paired on {} questions, {} replies changed ({} repeat the text before); not graded one by one\n",
            u.task, u.filter, u.paired.questions, u.paired.changed, u.paired.repeated
        ));
        for ch in u.changed.iter().take(SHOWN_REPLIES) {
            out.push_str(&format!(
                "  question {}\n    {}\n    {}\n",
                ch.question,
                excerpt(&ch.before, ch.first_difference),
                excerpt(&ch.after, ch.first_difference)
            ));
        }
    }
    out
}

fn score(s: &Score) -> Value {
    json!({
        "value": s.value,
        "stderr": s.stderr,
        "n": s.n,
        "interval": s.interval().map(|(lo, hi)| vec![lo, hi]),
    })
}

fn reply(ch: &ChangedReply) -> Value {
    json!({
        "question": ch.question,
        "before": ch.before,
        "after": ch.after,
        "first_difference": ch.first_difference,
        "right_before": ch.right_before,
        "right_after": ch.right_after,
        "repeated": ch.repeated,
    })
}

/// The `paired` object, its names fixed by issue 44.
fn paired(p: &Paired) -> Value {
    json!({
        "questions": p.questions,
        "changed": p.changed,
        "right_to_wrong": p.right_to_wrong,
        "wrong_to_right": p.wrong_to_right,
        "repeated": p.repeated,
        "p_value": p.p_value,
    })
}

/// JSON, for scripts: the verdict and every score compared.
pub fn json(c: &AccuracyComparison) -> String {
    let v = &c.verdict;
    let scores: Vec<Value> = c
        .rows
        .iter()
        .map(|r| {
            json!({
                "task": r.base.task,
                "filter": r.base.filter,
                "metric": r.base.metric,
                "n_shot": r.base.n_shot,
                "sides": [score(&r.base), score(&r.other)],
                "points": r.points,
                "direction": r.change.direction.as_str(),
                "noise": r.change.noise.key(),
                "paired": r.paired.as_ref().map(paired),
                "changed_replies": r.changed.iter().map(reply).collect::<Vec<_>>(),
            })
        })
        .collect();
    let out = json!({
        "sides": c.sides,
        "verdict": super::json::verdict(v),
        "scores": scores,
        "replies": c.unscored.iter().map(|u| json!({
            "task": u.task,
            "filter": u.filter,
            "paired": paired(&u.paired),
            "changed_replies": u.changed.iter().map(reply).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let mut text = serde_json::to_string_pretty(&out).unwrap_or_default();
    text.push('\n');
    text
}

/// The changed replies of every score as CSV: task, filter, question,
/// where they first differ, each reply and whether it was right.
pub fn changed_csv(c: &AccuracyComparison) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let _ = w.write_record([
        "task",
        "filter",
        "question",
        "first_difference",
        "before",
        "after",
        "right_before",
        "right_after",
        "repeated",
    ]);
    let flag = |b: Option<bool>| b.map_or(String::new(), |b| u8::from(b).to_string());
    let mut seen = std::collections::HashSet::new();
    for r in &c.rows {
        if !seen.insert((r.base.task.as_str(), r.base.filter.as_str())) {
            continue;
        }
        for ch in &r.changed {
            let _ = w.write_record([
                r.base.task.clone(),
                r.base.filter.clone(),
                ch.question.clone(),
                ch.first_difference.to_string(),
                ch.before.clone(),
                ch.after.clone(),
                flag(ch.right_before),
                flag(ch.right_after),
                u8::from(ch.repeated).to_string(),
            ]);
        }
    }
    for u in &c.unscored {
        for ch in &u.changed {
            let _ = w.write_record([
                u.task.clone(),
                u.filter.clone(),
                ch.question.clone(),
                ch.first_difference.to_string(),
                ch.before.clone(),
                ch.after.clone(),
                String::new(),
                String::new(),
                u8::from(ch.repeated).to_string(),
            ]);
        }
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}
