//! The verdict of a comparison in words, the first thing every view says:
//! each side against the baseline, worse, better or the same on how many
//! of its metrics (the first and the largest of the leading way named
//! with their changes), and how far the noise was tested: "vLLM 0.30.0
//! against 0.29.0: worse on 6 of 8 metrics (output throughput −7%, ITL p99
//! +24%, …), better on 1, the same on 1; each side ran once, so no change
//! is tested against noise." The counts beside the words are what
//! `--format json` gives as `verdict`, for the whole comparison and per
//! workload.
//!
//! The sides are named by their engine and version where the runs record
//! them (`vLLM 0.30.0`), else by their own names; the second of two sides
//! of one engine drops the engine's name ("against 0.29.0").
//!
//! Takes a [`Comparison`]; hands back a [`Verdict`], the sides' names and
//! a title made from them.

use super::{Change, Comparison, Direction, Noise, Row};

/// How the changes of a comparison (or of one of its workloads) went, and
/// the verdict in words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Changes better by their metric's direction.
    pub better: usize,
    /// Changes worse by it.
    pub worse: usize,
    /// Changes that round to 0%.
    pub same: usize,
    /// Changes beyond the noise (of the repeats, or a stated band).
    pub beyond_noise: usize,
    /// Changes within it.
    pub within_noise: usize,
    /// Changes of one measurement each, with no band to judge them by.
    pub untested: usize,
    /// The verdict in words, a sentence a side against the baseline.
    pub words: String,
}

impl Verdict {
    /// The verdict over every workload.
    pub fn of(c: &Comparison) -> Verdict {
        over(c, None)
    }

    /// The verdict over workload `w` alone.
    pub fn of_workload(c: &Comparison, w: usize) -> Verdict {
        over(c, Some(w))
    }
}

fn over(c: &Comparison, w: Option<usize>) -> Verdict {
    let rows: Vec<&Row> = match w {
        Some(w) => c.rows_of(w).iter().collect(),
        None => c.rows.iter().collect(),
    };
    let mut v = Verdict::default();
    for ch in rows.iter().flat_map(|r| r.changes.iter().flatten()) {
        match ch.direction {
            Direction::Better => v.better += 1,
            Direction::Worse => v.worse += 1,
            Direction::Same => v.same += 1,
        }
        match ch.noise.key() {
            "beyond" => v.beyond_noise += 1,
            "within" => v.within_noise += 1,
            _ => v.untested += 1,
        }
    }
    v.words = if rows.is_empty() {
        "no workload in common: nothing to compare".to_string()
    } else {
        let names = labels(c);
        (1..c.sides.len())
            .filter_map(|s| side_words(c, &rows, s, &names))
            .collect::<Vec<_>>()
            .join(" ")
    };
    v
}

/// Each side's name for the verdict: its engine and version (`vLLM
/// 0.30.0`) where the runs record both and no other side has the same,
/// else the name the comparison gives it.
pub fn labels(c: &Comparison) -> Vec<String> {
    let own: Vec<Option<String>> = c
        .sides
        .iter()
        .map(|s| match (&s.engine_name, &s.version) {
            (Some(e), Some(v)) => Some(format!("{e} {v}")),
            _ => None,
        })
        .collect();
    // Counted once, so that a paste of thousands of reports is named in
    // one pass.
    let mut count: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for l in own.iter().flatten() {
        *count.entry(l.as_str()).or_default() += 1;
    }
    own.iter()
        .zip(&c.sides)
        .map(|(o, s)| match o {
            Some(l) if count.get(l.as_str()) == Some(&1) => l.clone(),
            _ => s.name.clone(),
        })
        .collect()
}

/// Side `s`'s name after side `first`'s: its version alone where both are
/// named by one engine (`vLLM 0.30.0 against 0.29.0`).
pub(super) fn after(c: &Comparison, names: &[String], first: usize, s: usize) -> String {
    let (a, b) = (&c.sides[first], &c.sides[s]);
    match (&a.engine_name, &b.engine_name, &b.version) {
        (Some(e), Some(f), Some(v))
            if e == f && names[s] == format!("{f} {v}") && names[first].starts_with(e.as_str()) =>
        {
            v.clone()
        }
        _ => names[s].clone(),
    }
}

/// `vLLM 0.30.0 against 0.29.0`: side `s` against the baseline.
pub(super) fn against(c: &Comparison, names: &[String], s: usize) -> String {
    format!("{} against {}", names[s], after(c, names, s, 0))
}

/// A title made from the sides, the baseline first, as a comparison's
/// record gives it where it gives none: `vLLM 0.29.0 against 0.30.0`.
pub fn title(c: &Comparison) -> String {
    let names = labels(c);
    match names.split_first() {
        None => String::new(),
        Some((one, [])) => one.clone(),
        Some((first, rest)) => {
            let others: Vec<String> = (1..=rest.len()).map(|s| after(c, &names, 0, s)).collect();
            format!("{first} against {}", and_list(&others))
        }
    }
}

/// `a, b and c`: the items joined by commas whatever they hold (the
/// numbers of a list have commas of their own: `26,093, 26,093 and
/// 5,930`).
pub(super) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A metric's label inside a sentence: `output throughput`, but `ITL p99`.
fn lower(label: &str) -> String {
    let mut chars = label.chars();
    let (Some(first), second) = (chars.next(), chars.next()) else {
        return label.to_string();
    };
    if second.is_some_and(|c| c.is_uppercase() || c.is_ascii_digit()) {
        return label.to_string();
    }
    first.to_lowercase().chain(label.chars().skip(1)).collect()
}

/// What sets workload `w` apart from the comparison's others: its parts
/// that not every workload shares (`context depth 16,384`).
fn workload_words(c: &Comparison, w: usize) -> String {
    let own = &c.workloads[w].parts;
    let apart: Vec<String> = own
        .iter()
        .filter(|p| !c.workloads.iter().all(|o| o.parts.contains(p)))
        .map(|(what, v)| {
            if what.is_empty() {
                v.clone()
            } else {
                format!("{} {v}", lower(what))
            }
        })
        .collect();
    if apart.is_empty() {
        c.workloads[w].line()
    } else {
        apart.join(", ")
    }
}

/// What one change is of, in a sentence: the metric, the workload where
/// one metric is compared at several, or both.
fn what(c: &Comparison, row: &Row, several: bool) -> String {
    let metric = lower(&c.metrics[row.metric].label);
    match (several, c.metrics.len()) {
        (false, _) => metric,
        (true, 1) => workload_words(c, row.workload),
        (true, _) => format!("{metric} at {}", workload_words(c, row.workload)),
    }
}

/// The first change of `list` and the largest of the rest, with their
/// changes, `…` where there are more: `(output throughput −7%, ITL p99
/// +24%, …)`.
fn examples(c: &Comparison, list: &[(&Row, Change)], several: bool) -> String {
    let Some((first, rest)) = list.split_first() else {
        return String::new();
    };
    let mut shown = vec![first];
    let largest = rest.iter().fold(None::<&(&Row, Change)>, |m, x| match m {
        Some(m) if m.1.pct.abs() >= x.1.pct.abs() => Some(m),
        _ => Some(x),
    });
    shown.extend(largest);
    let mut parts: Vec<String> = shown
        .iter()
        .map(|(r, ch)| format!("{} {}", what(c, r, several), ch.shown()))
        .collect();
    if list.len() > shown.len() {
        parts.push("…".to_string());
    }
    format!("({})", parts.join(", "))
}

/// Side `s` against the baseline over `rows`, in a sentence; `None` where
/// it has no change there.
fn side_words(c: &Comparison, rows: &[&Row], s: usize, names: &[String]) -> Option<String> {
    let list: Vec<(&Row, Change)> = rows
        .iter()
        .filter_map(|r| r.changes[s].map(|ch| (*r, ch)))
        .collect();
    if list.is_empty() {
        return None;
    }
    let distinct = |f: &dyn Fn(&Row) -> usize| {
        let mut v: Vec<usize> = list.iter().map(|(r, _)| f(r)).collect();
        v.sort_unstable();
        v.dedup();
        v.len()
    };
    let (metrics, workloads) = (distinct(&|r| r.metric), distinct(&|r| r.workload));
    let several = workloads > 1;
    let n = list.len();
    let noun = match (workloads, metrics) {
        (1, 1) => "metric".to_string(),
        (1, _) => "metrics".to_string(),
        (_, 1) => "workloads".to_string(),
        (w, _) => format!("figures over {w} workloads"),
    };
    let by = |d: Direction| -> Vec<(&Row, Change)> {
        list.iter()
            .filter(|(_, ch)| ch.direction == d)
            .copied()
            .collect()
    };
    let (worse, better, same) = (
        by(Direction::Worse),
        by(Direction::Better),
        by(Direction::Same),
    );
    let mut clauses = Vec::new();
    if n == 1 {
        let (r, ch) = list[0];
        let way = match ch.direction {
            Direction::Same => "the same",
            d => d.as_str(),
        };
        clauses.push(format!("{way}, {} {}", what(c, r, several), ch.shown()));
    } else {
        let (lead, lead_word, other, other_word) = if worse.len() >= better.len() {
            (&worse, "worse", &better, "better")
        } else {
            (&better, "better", &worse, "worse")
        };
        if lead.is_empty() {
            clauses.push(if n == 2 {
                format!("the same on both {noun}")
            } else {
                format!("the same on all {n} {noun}")
            });
        } else {
            let count = if lead.len() == n && n == 2 {
                format!("both {noun}")
            } else if lead.len() == n {
                format!("all {n} {noun}")
            } else {
                format!("{} of {n} {noun}", lead.len())
            };
            clauses.push(format!(
                "{lead_word} on {count} {}",
                examples(c, lead, several)
            ));
            if !other.is_empty() {
                // What got worse is always named.
                let named = if other_word == "worse" {
                    format!(" {}", examples(c, other, several))
                } else {
                    String::new()
                };
                clauses.push(format!("{other_word} on {}{named}", other.len()));
            }
            if !same.is_empty() {
                clauses.push(format!("the same on {}", same.len()));
            }
        }
    }
    Some(format!(
        "{}: {}; {}.",
        against(c, names, s),
        clauses.join(", "),
        noise_words(&list, several)
    ))
}

/// How far the noise was tested, for one side's changes.
fn noise_words(list: &[(&Row, Change)], several: bool) -> String {
    let count = |k: &str| list.iter().filter(|(_, ch)| ch.noise.key() == k).count();
    let (beyond, within, untested) = (count("beyond"), count("within"), count("untested"));
    if untested == list.len() {
        return if several {
            "each side measured each workload once, so no change is tested against noise"
        } else {
            "each side ran once, so no change is tested against noise"
        }
        .to_string();
    }
    let mut parts = vec![
        format!(
            "{beyond} change{} beyond noise",
            if beyond == 1 { "" } else { "s" }
        ),
        format!("{within} within noise"),
    ];
    if untested > 0 {
        parts.push(format!("{untested} untested (one measurement each)"));
    }
    let stated = list.iter().find_map(|(_, ch)| match ch.noise {
        Noise::WithinStated(p) | Noise::BeyondStated(p) => Some(p),
        _ => None,
    });
    let mut out = parts.join(", ");
    if let Some(p) = stated {
        out.push_str(&format!(
            " (single measurements judged by the stated ±{}%)",
            crate::figures::number(p)
        ));
    }
    out
}
