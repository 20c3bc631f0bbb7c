//! Accuracy runs set side by side (issue 44): each score of the baseline
//! and the other side, matched by task, filter and metric, with its 95%
//! interval (from the tool's standard error, else from the questions: a
//! share `p` of `n` has a standard error of √(p(1−p)/n)), the difference
//! in points (percentage points of the questions: 0.772 → 0.751 is −2.1),
//! and whether that difference is beyond noise.
//!
//! Where both sides answered the same questions (the same `doc_hash` set
//! of a task and filter, from lm_eval's sample logs), they are compared
//! question by question: the replies that changed, the answers right →
//! wrong and wrong → right, and McNemar's exact test on those discordant
//! pairs decides (two-sided, beyond noise at p < 0.05). Two runs of one
//! model on one set of questions share most of their answers, so the
//! paired test sees a change of a few answers that the two scores'
//! intervals, each as wide as the sampling of the questions, would hide.
//! `repeated` counts the changed replies that, where they first differ
//! from the baseline's, repeat the text just before that point (the
//! symptom of a speculative-decoding bug: a token emitted twice).
//!
//! The verdict is said through [`super::summary`], as every comparison's:
//! the change of each score in points, named so
//! ([`crate::figures::signed_points`]: `−2.1 points`),
//! each beyond or within noise; two runs whose replies are all alike say
//! "no reply changed".
//!
//! Takes plain scores and answers (the binary reads them with
//! `crate::results`, a module of this one's layer); hands back an
//! [`AccuracyComparison`].

use super::{summary, Band, Basis, Change, Direction, Kind, Noise, Noun, Said, Verdict};
use crate::record::Table;
use std::collections::HashMap;

/// One score of a side: a row of the table `scores`.
#[derive(Debug, Clone, PartialEq)]
pub struct Score {
    /// Its task, filter and metric.
    pub task: String,
    /// The filter (`strict-match`).
    pub filter: String,
    /// The metric (`exact_match`).
    pub metric: String,
    /// Examples before each question, where known.
    pub n_shot: Option<f64>,
    /// The score.
    pub value: f64,
    /// Its standard error, where the tool gave one.
    pub stderr: Option<f64>,
    /// The questions it is over, where known.
    pub n: Option<f64>,
    /// Whether higher is better (lm_eval's `higher_is_better`; true where
    /// the file does not say).
    pub higher_is_better: bool,
}

impl Score {
    /// Its standard error: the tool's, else a share's over its questions.
    pub fn standard_error(&self) -> Option<f64> {
        self.stderr.or_else(|| {
            let n = self.n.filter(|n| *n > 0.0)?;
            (0.0..=1.0)
                .contains(&self.value)
                .then(|| (self.value * (1.0 - self.value) / n).sqrt())
        })
    }

    /// Its 95% interval ([`interval_of`]).
    pub fn interval(&self) -> Option<(f64, f64)> {
        interval_of(self.value, self.stderr, self.n)
    }
}

/// The 95% interval of a score `value`: from the tool's standard error
/// `stderr` where it gave one (1.96 of them either way, a share kept
/// within 0 and 1); else, for a share of `n` questions, Wilson's score
/// interval, which stays inside 0 and 1 and is not empty where every
/// answer was right (6 of 6: 0.6097–1, where the normal approximation
/// says 1–1); `None` where neither is known.
pub fn interval_of(value: f64, stderr: Option<f64>, n: Option<f64>) -> Option<(f64, f64)> {
    let share = (0.0..=1.0).contains(&value);
    if let Some(se) = stderr {
        let (lo, hi) = (value - 1.96 * se, value + 1.96 * se);
        return Some(if share {
            (lo.max(0.0), hi.min(1.0))
        } else {
            (lo, hi)
        });
    }
    let n = n.filter(|n| *n > 0.0 && share)?;
    Some(wilson(value, n))
}

/// Wilson's score interval at 95% of a share `p` of `n`.
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    const Z: f64 = 1.96;
    let z2 = Z * Z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One answer of a side: a row of the table `answers`.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// Its task.
    pub task: String,
    /// The question (`doc_hash`, else `doc_id`).
    pub question: String,
    /// The filter.
    pub filter: String,
    /// The reply, whole.
    pub reply: String,
    /// Whether it was graded right, where graded one by one.
    pub correct: Option<bool>,
}

/// A side: its name, its scores and its answers.
#[derive(Debug, Clone, Default)]
pub struct AccuracySide {
    /// How the comparison names it.
    pub name: String,
    /// Its scores.
    pub scores: Vec<Score>,
    /// Its answers (empty without a sample log).
    pub answers: Vec<Answer>,
}

impl AccuracySide {
    /// The side named `name` made of a run's derived tables `scores` and
    /// `answers` (the tables of the vocabulary, one row each per score
    /// and per answer): the rows of setup `setup` where the tables have a
    /// `setup` column, else every row.
    pub fn of_tables(
        name: String,
        scores: Option<&Table>,
        answers: Option<&Table>,
        setup: &str,
    ) -> AccuracySide {
        fn rows<'t>(t: Option<&'t Table>, setup: &'t str) -> impl Iterator<Item = Cells<'t>> {
            t.into_iter().flat_map(move |t| {
                let own = t.header.iter().position(|h| h == "setup");
                t.rows
                    .iter()
                    .filter(move |r| own.is_none_or(|s| r.get(s).is_some_and(|v| v == setup)))
                    .map(move |r| Cells {
                        header: &t.header,
                        row: r,
                    })
            })
        }
        let scores = rows(scores, setup)
            .filter_map(|c| {
                Some(Score {
                    task: c.text("task"),
                    filter: c.text("filter"),
                    metric: c.text("metric"),
                    n_shot: c.num("n_shot"),
                    value: c.num("value")?,
                    stderr: c.num("stderr"),
                    n: c.num("n"),
                    higher_is_better: c.text("higher_is_better") != "false",
                })
            })
            .collect();
        let answers = rows(answers, setup)
            .map(|c| Answer {
                task: c.text("task"),
                question: c.text("question"),
                filter: c.text("filter"),
                reply: c.text("reply"),
                correct: c.num("correct").map(|v| v > 0.0),
            })
            .collect();
        AccuracySide {
            name,
            scores,
            answers,
        }
    }
}

/// A row of a derived table, its cells by column name.
struct Cells<'t> {
    header: &'t [String],
    row: &'t [String],
}

impl Cells<'_> {
    fn text(&self, name: &str) -> String {
        self.header
            .iter()
            .position(|h| h == name)
            .and_then(|i| self.row.get(i))
            .cloned()
            .unwrap_or_default()
    }

    fn num(&self, name: &str) -> Option<f64> {
        self.text(name).parse().ok()
    }
}

/// Two sides' answers to the same questions, counted (the names are
/// fixed by issue 44: `--format json` gives them as they are).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paired {
    /// The questions both answered.
    pub questions: usize,
    /// Questions whose reply text differs.
    pub changed: usize,
    /// Answers right on the baseline, wrong on the other side.
    pub right_to_wrong: usize,
    /// Answers wrong on the baseline, right on the other side.
    pub wrong_to_right: usize,
    /// Changed replies that repeat the text just before where they first
    /// differ.
    pub repeated: usize,
    /// McNemar's exact test, two-sided, on the discordant pairs.
    pub p_value: f64,
}

/// A reply that changed, side by side.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangedReply {
    /// The question.
    pub question: String,
    /// The baseline's reply and the other side's.
    pub before: String,
    /// The other side's reply.
    pub after: String,
    /// Where they first differ, in bytes of both (a char boundary).
    pub first_difference: usize,
    /// Whether each was right, where graded.
    pub right_before: Option<bool>,
    /// The other side's.
    pub right_after: Option<bool>,
    /// Whether the changed reply repeats the text before that point.
    pub repeated: bool,
}

/// One score compared.
#[derive(Debug, Clone)]
pub struct ScoreRow {
    /// The baseline's score.
    pub base: Score,
    /// The other side's.
    pub other: Score,
    /// The difference in points (× 100 of a share).
    pub points: f64,
    /// The change, in points, judged.
    pub change: Change,
    /// The question-by-question counts, where both answered the same
    /// questions.
    pub paired: Option<Paired>,
    /// The replies that changed (of the score's task and filter).
    pub changed: Vec<ChangedReply>,
}

/// Replies compared where no answer was graded one by one.
#[derive(Debug, Clone)]
pub struct Unscored {
    /// The task.
    pub task: String,
    /// The filter.
    pub filter: String,
    /// The counts (right → wrong and back are 0: nothing was graded).
    pub paired: Paired,
    /// The replies that changed.
    pub changed: Vec<ChangedReply>,
}

/// Two accuracy sides compared.
#[derive(Debug, Clone)]
pub struct AccuracyComparison {
    /// The baseline's name and the other side's.
    pub sides: [String; 2],
    /// Each score both sides have.
    pub rows: Vec<ScoreRow>,
    /// The task and filter of answers both sides gave to the same
    /// questions without a score of each answer (`f1`, `bleu`: scored
    /// over the set), with how many replies changed.
    pub unscored: Vec<Unscored>,
    /// The verdict, counted and in words.
    pub verdict: Verdict,
}

/// McNemar's exact test, two-sided: the chance of a split of `b + c`
/// discordant pairs at least as uneven as `b` to `c` when each way is as
/// likely. Linear in `b + c` (the binomial tail summed in logs).
pub fn mcnemar_exact(b: usize, c: usize) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let m = b.min(c);
    let ln_half_n = n as f64 * 0.5f64.ln();
    // ln C(n, k), from k = 0 up.
    let mut ln_c = 0.0;
    let mut tail = 0.0;
    for k in 0..=m {
        if k > 0 {
            ln_c += ((n - k + 1) as f64).ln() - (k as f64).ln();
        }
        tail += (ln_c + ln_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}

/// Where two texts first differ, at a char boundary of both.
pub fn first_difference(a: &str, b: &str) -> usize {
    let mut at = 0;
    for (x, y) in a.chars().zip(b.chars()) {
        if x != y {
            return at;
        }
        at += x.len_utf8();
    }
    at
}

/// Whether `reply`, at `at` (where it first differs from the baseline's),
/// repeats the word just before: `3 3 3 bolts` after `needs 3 `.
pub fn repeats_at(reply: &str, at: usize) -> bool {
    let before = reply[..at].trim_end();
    let Some(word) = before.split_whitespace().last() else {
        return false;
    };
    let rest = reply[at..].trim_start();
    // The word again, or the text's last characters again (a token
    // repeated inside a word).
    rest.starts_with(word)
        || before
            .char_indices()
            .rev()
            .nth(2)
            .is_some_and(|(i, _)| reply[at..].starts_with(&before[i..]))
}

/// The answers of a side by (task, filter), each by question.
type ByQuestion<'a> = HashMap<(&'a str, &'a str), HashMap<&'a str, &'a Answer>>;

fn by_question(answers: &[Answer]) -> ByQuestion<'_> {
    let mut out: ByQuestion<'_> = HashMap::new();
    for a in answers {
        out.entry((a.task.as_str(), a.filter.as_str()))
            .or_default()
            .insert(a.question.as_str(), a);
    }
    out
}

/// The two sides' answers of `task` and `filter` paired, when both
/// answered the same questions: the counts and the changed replies, in
/// the baseline's order.
fn pair(
    base: &[Answer],
    a: &ByQuestion<'_>,
    b: &ByQuestion<'_>,
    task: &str,
    filter: &str,
) -> Option<(Paired, Vec<ChangedReply>)> {
    let (qa, qb) = (a.get(&(task, filter))?, b.get(&(task, filter))?);
    if qa.len() != qb.len() || qa.keys().any(|q| !qb.contains_key(q)) {
        return None;
    }
    let mut p = Paired {
        questions: qa.len(),
        changed: 0,
        right_to_wrong: 0,
        wrong_to_right: 0,
        repeated: 0,
        p_value: 1.0,
    };
    let mut changed = Vec::new();
    for x in base.iter().filter(|x| x.task == task && x.filter == filter) {
        let y = qb[x.question.as_str()];
        match (x.correct, y.correct) {
            (Some(true), Some(false)) => p.right_to_wrong += 1,
            (Some(false), Some(true)) => p.wrong_to_right += 1,
            _ => {}
        }
        if x.reply != y.reply {
            p.changed += 1;
            let at = first_difference(&x.reply, &y.reply);
            let repeated = repeats_at(&y.reply, at);
            p.repeated += usize::from(repeated);
            changed.push(ChangedReply {
                question: x.question.clone(),
                before: x.reply.clone(),
                after: y.reply.clone(),
                first_difference: at,
                right_before: x.correct,
                right_after: y.correct,
                repeated,
            });
        }
    }
    p.p_value = mcnemar_exact(p.right_to_wrong, p.wrong_to_right);
    Some((p, changed))
}

/// The change of a score in points, judged: by the paired test where
/// there is one, else by the two intervals (the difference beyond 1.96
/// standard errors of it), else untested.
fn judge(base: &Score, other: &Score, paired: Option<&Paired>) -> Change {
    let points = (other.value - base.value) * 100.0;
    let direction = Direction::of(points, base.higher_is_better);
    let noise = match (paired, base.standard_error(), other.standard_error()) {
        (Some(p), ..) => {
            let n = p.questions.max(1) as f64;
            let band = Band {
                pct: 196.0 * ((p.right_to_wrong + p.wrong_to_right) as f64).sqrt() / n,
                basis: Basis::Sampling { p: Some(p.p_value) },
                points: true,
            };
            if p.p_value < 0.05 {
                Noise::Beyond(band)
            } else {
                Noise::Within(band)
            }
        }
        (None, Some(a), Some(b)) => {
            let band = Band {
                pct: 196.0 * (a * a + b * b).sqrt(),
                basis: Basis::Sampling { p: None },
                points: true,
            };
            if points.abs() > band.pct {
                Noise::Beyond(band)
            } else {
                Noise::Within(band)
            }
        }
        _ => Noise::Untested,
    };
    Change {
        pct: points,
        noise,
        direction,
        points: true,
    }
}

/// Compares `other` with `base`, score by score.
pub fn compare(base: &AccuracySide, other: &AccuracySide) -> AccuracyComparison {
    let (qa, qb) = (by_question(&base.answers), by_question(&other.answers));
    let mut rows = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for s in &base.scores {
        let key = (s.task.as_str(), s.filter.as_str(), s.metric.as_str());
        if !seen.insert(key) {
            continue;
        }
        let Some(o) = other
            .scores
            .iter()
            .find(|o| (o.task.as_str(), o.filter.as_str(), o.metric.as_str()) == key)
        else {
            continue;
        };
        let (paired, changed) = match pair(&base.answers, &qa, &qb, &s.task, &s.filter) {
            Some((p, c)) => (Some(p), c),
            None => (None, Vec::new()),
        };
        let change = judge(s, o, paired.as_ref());
        rows.push(ScoreRow {
            base: s.clone(),
            other: o.clone(),
            points: change.pct,
            change,
            paired,
            changed,
        });
    }
    // The answers no score covers, by task and filter in the baseline's
    // order.
    let mut unscored: Vec<Unscored> = Vec::new();
    for a in &base.answers {
        let (t, f) = (a.task.as_str(), a.filter.as_str());
        if rows.iter().any(|r| r.base.task == t && r.base.filter == f)
            || unscored.iter().any(|u| u.task == t && u.filter == f)
        {
            continue;
        }
        if let Some((paired, changed)) = pair(&base.answers, &qa, &qb, t, f) {
            unscored.push(Unscored {
                task: t.to_string(),
                filter: f.to_string(),
                paired,
                changed,
            });
        }
    }
    let verdict = verdict_of(&rows, &unscored);
    AccuracyComparison {
        sides: [base.name.clone(), other.name.clone()],
        rows,
        unscored,
        verdict,
    }
}

/// `gsm8k strict-match exact_match`, and after its change `(27 answers
/// right → wrong, 8 wrong → right)` where paired.
fn named(r: &ScoreRow) -> (String, String) {
    let what = format!("{} {} {}", r.base.task, r.base.filter, r.base.metric);
    let after = match &r.paired {
        Some(p) => format!(
            " ({} of {} replies changed: {} right → wrong, {} wrong → right)",
            p.changed,
            p.questions,
            answers(p.right_to_wrong),
            p.wrong_to_right
        ),
        None => String::new(),
    };
    (what, after)
}

/// `1 answer`, `27 answers`.
fn answers(n: usize) -> String {
    format!("{n} answer{}", if n == 1 { "" } else { "s" })
}

fn verdict_of(rows: &[ScoreRow], unscored: &[Unscored]) -> Verdict {
    let mut v = Verdict::default();
    for r in rows {
        match r.change.direction {
            Direction::Better => v.better += 1,
            Direction::Worse => v.worse += 1,
            Direction::Same => v.same += 1,
        }
        match r.change.noise.key() {
            "beyond" => v.beyond_noise += 1,
            "within" => v.within_noise += 1,
            _ => v.untested += 1,
        }
    }
    let replies: Vec<String> = unscored
        .iter()
        .filter(|u| u.paired.changed > 0)
        .map(|u| {
            format!(
                "{} {}: {} of {} replies changed (not graded one by one)",
                u.task, u.filter, u.paired.changed, u.paired.questions
            )
        })
        .collect();
    let all_alike = rows
        .iter()
        .all(|r| r.paired.is_some_and(|p| p.changed == 0))
        && unscored.iter().all(|u| u.paired.changed == 0);
    v.words = if rows.is_empty() && unscored.is_empty() {
        "no score in common: nothing to compare".to_string()
    } else if all_alike {
        "no reply changed".to_string()
    } else if rows.is_empty() {
        replies.join("; ")
    } else {
        let said: Vec<Said<'_>> = rows
            .iter()
            .map(|r| {
                let kind = if r.paired.is_some_and(|p| p.changed == 0) {
                    Kind::Same
                } else {
                    r.change.kind()
                };
                Said::of(&r.change, kind, move || named(r))
            })
            .collect();
        let mut words = summary(
            &said,
            Noun {
                one: "score",
                many: "scores",
            },
        );
        for r in &replies {
            words.push_str("; ");
            words.push_str(r);
        }
        words
    };
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcnemar_exact_as_the_binomial_gives_it() {
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        // 0 of 6 one way: 2 × 0.5^6.
        assert!((mcnemar_exact(0, 6) - 0.03125).abs() < 1e-12);
        // 27 against 8: 2 × P(X ≤ 8), X ~ Bin(35, 0.5) = 0.001878…
        assert!(
            (mcnemar_exact(27, 8) - 0.001_878_225_477_412_343).abs() < 1e-12,
            "{}",
            mcnemar_exact(27, 8)
        );
        // Large counts stay finite and linear.
        assert!((mcnemar_exact(5000, 5000) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn repeats_where_they_first_differ() {
        let (a, b) = ("She needs 3 bolts.", "She needs 3 3 3 3 bolts.");
        let at = first_difference(a, b);
        assert_eq!(&b[at..], "3 3 3 bolts.");
        assert!(repeats_at(b, at));
        let c = "She needs 4 bolts.";
        assert!(!repeats_at(c, first_difference(a, c)));
    }
}
