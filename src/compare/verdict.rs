//! The verdict of a comparison in words, the first thing every view says,
//! and the one way every summary of changes is said: the comparisons, the
//! version, engine and home pages, the workload pages and `findings
//! trends` (its first line and each workload) all put their changes
//! through [`summary`], so that a change is counted, rounded and named
//! alike wherever it is summed up.
//!
//! A summary counts each change by what it is ([`Kind`]): worse or better
//! beyond noise, within noise, untested, the same, not comparable, each
//! kind its own count, never lumped with another; the changes beyond
//! noise lead, the way most went first. Each count names its largest
//! change and its first with their percent (`worse on 6 (ITL p99 +24%,
//! output throughput −7.4%, …)`), so an untested change still says how
//! large it is: "vLLM 0.30.0 against 0.29.0: 7 of 8 metrics untested,
//! single runs: worse on 6 (ITL p99 +24%, output throughput −7.4%, …),
//! better on 1 (TTFT p99 −5.6%); the same on 1." The counts beside the
//! words are what `--format json` gives as `verdict`, for the whole
//! comparison and per workload.
//!
//! The sides are named by their engine and version where the runs record
//! them (`vLLM 0.30.0`), else by their own names; the second of two sides
//! of one engine drops the engine's name ("against 0.29.0"). They are
//! named in the order of the title the comparison stands under: a title
//! that names the baseline first (`NInfer NVFP4 against vLLM 0.27.1
//! MTP@3`) gets a verdict that does too, and says whose the changes are.
//!
//! Takes a [`Comparison`] (or any changes, as [`Said`]); hands back a
//! [`Verdict`], a summary, the sides' names and a title made from them.

use super::{Change, Comparison, Direction, Noise, Row};

/// What a change is, for a reader: the kinds a summary counts apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Beyond noise, in the worse direction, comparable.
    Regression,
    /// Beyond noise, in the better direction, comparable.
    Improvement,
    /// Within noise: neither better nor worse.
    Within,
    /// No noise to judge by (single runs, no bound, no history).
    Untested,
    /// No change as shown.
    Same,
    /// The setups differ beyond the engine version.
    NotComparable,
}

impl Kind {
    /// In a word or two: `regression`, `improvement`, `within noise`,
    /// `untested`, `the same`, `not comparable` (the `kind` of
    /// `workloads.json`).
    pub fn words(self) -> &'static str {
        match self {
            Kind::Regression => "regression",
            Kind::Improvement => "improvement",
            Kind::Within => "within noise",
            Kind::Untested => "untested",
            Kind::Same => "the same",
            Kind::NotComparable => "not comparable",
        }
    }
}

/// A change as a summary names it: what it is, its size, and the words
/// around its percent (`output throughput` −7.4%; `tokens a second` −2.5%
/// ` on llama.cpp 8577 against 7938`), which are made only for the few
/// changes a summary names: a comparison of thousands of workloads names
/// three.
pub struct Said<'a> {
    /// What it is.
    pub kind: Kind,
    /// Which way it went, whatever the noise says.
    pub direction: Direction,
    /// Its size in percent; in points where `points`.
    pub pct: f64,
    /// Whether its size is in points of a share.
    pub points: bool,
    /// Its noise, said in full where a summary is of this change alone.
    pub noise: Noise,
    /// What changed (before its percent), and where (after it; may be
    /// empty).
    pub name: Box<dyn Fn() -> (String, String) + 'a>,
}

impl<'a> Said<'a> {
    /// A change of a comparison or a trend, named by `name`.
    pub fn of(change: &Change, kind: Kind, name: impl Fn() -> (String, String) + 'a) -> Said<'a> {
        Said {
            kind,
            direction: change.direction,
            pct: change.pct,
            points: change.points,
            noise: change.noise,
            name: Box::new(name),
        }
    }

    fn named(&self) -> String {
        let (what, after) = (self.name)();
        format!(
            "{what} {}{after}",
            crate::figures::signed_change(self.pct, self.points)
        )
    }
}

/// How many a count is of, in a summary's first clause: `of 8 metrics`;
/// nothing where the sentence has said it (`8 changes between versions:
/// 5 of 8 untested`).
#[derive(Debug, Clone, Copy)]
pub struct Noun<'a> {
    /// One of them: `metric`, `workload`, `change`.
    pub one: &'a str,
    /// Several: `metrics`, `workloads`, `changes`.
    pub many: &'a str,
}

/// The changes `items` summed up, each kind counted apart, beyond noise
/// first: `better on 1 of 2 workloads beyond noise (pp512 +13%); 1 within
/// noise (tg128 −2.5%)`. A single change is said whole: `output
/// throughput −7.4% worse, single runs: not tested against noise`.
/// Empty for no change.
pub fn summary(items: &[Said<'_>], noun: Noun<'_>) -> String {
    let n = items.len();
    if n == 0 {
        return String::new();
    }
    if n == 1 {
        let c = &items[0];
        let way = match c.kind {
            Kind::Within => String::new(),
            Kind::Same => " the same".to_string(),
            _ => format!(" {}", c.direction.as_str()),
        };
        let (what, after) = (c.name)();
        let mut out = format!(
            "{what} {}{way}{after}",
            crate::figures::signed_change(c.pct, c.points),
        );
        match c.kind {
            Kind::Same => {}
            Kind::NotComparable => out.push_str(", not comparable"),
            _ => {
                out.push_str(", ");
                out.push_str(&c.noise.words());
            }
        }
        return out;
    }
    let of = |k: Kind| -> Vec<&Said<'_>> { items.iter().filter(|c| c.kind == k).collect() };
    let mut first = true;
    // The first count says what it is of; the later ones are bare.
    let mut count = |k: usize| -> String {
        if !std::mem::replace(&mut first, false) {
            return k.to_string();
        }
        let out = match (k == n, n) {
            (true, 2) => format!("both {}", noun.many),
            (true, _) => format!("all {n} {}", noun.many),
            _ => format!("{k} of {n} {}", noun.many),
        };
        out.trim_end().to_string()
    };
    let mut clauses: Vec<String> = Vec::new();
    let (worse, better) = (of(Kind::Regression), of(Kind::Improvement));
    if !worse.is_empty() || !better.is_empty() {
        let (lead, lead_word, other, other_word) = if worse.len() >= better.len() {
            (&worse, "worse", &better, "better")
        } else {
            (&better, "better", &worse, "worse")
        };
        let mut clause = format!(
            "{lead_word} on {} beyond noise {}",
            count(lead.len()),
            examples(lead)
        );
        if !other.is_empty() {
            clause.push_str(&format!(
                ", {other_word} on {} {}",
                other.len(),
                examples(other)
            ));
        }
        clauses.push(clause);
    }
    let within = of(Kind::Within);
    if !within.is_empty() {
        clauses.push(format!(
            "{} within noise {}",
            count(within.len()),
            examples(&within)
        ));
    }
    let untested = of(Kind::Untested);
    if !untested.is_empty() {
        let ways: Vec<String> = [Direction::Worse, Direction::Better]
            .iter()
            .filter_map(|&d| {
                let some: Vec<&Said<'_>> = untested
                    .iter()
                    .copied()
                    .filter(|c| c.direction == d)
                    .collect();
                (!some.is_empty())
                    .then(|| format!("{} on {} {}", d.as_str(), some.len(), examples(&some)))
            })
            .collect();
        clauses.push(format!(
            "{} untested, single runs: {}",
            count(untested.len()),
            ways.join(", ")
        ));
    }
    let same = of(Kind::Same);
    if !same.is_empty() {
        clauses.push(format!("the same on {}", count(same.len())));
    }
    let apart = of(Kind::NotComparable);
    if !apart.is_empty() {
        clauses.push(format!("{} not comparable", count(apart.len())));
    }
    clauses.join("; ")
}

/// The largest of `list` and its first, with their percents, `…` where
/// there are more: `(ITL p99 +24%, output throughput −7.4%, …)`.
fn examples(list: &[&Said<'_>]) -> String {
    let Some(largest) = list
        .iter()
        .copied()
        .reduce(|m, x| if x.pct.abs() > m.pct.abs() { x } else { m })
    else {
        return String::new();
    };
    let mut shown: Vec<&Said<'_>> = vec![largest];
    if !std::ptr::eq(list[0], largest) {
        shown.push(list[0]);
    }
    // One more is named rather than left to `…`.
    let rest: Vec<&Said<'_>> = list
        .iter()
        .copied()
        .filter(|x| !shown.iter().any(|s| std::ptr::eq(*s, *x)))
        .collect();
    let mut shown: Vec<String> = shown.iter().map(|s| s.named()).collect();
    match rest.as_slice() {
        [] => {}
        [one] => shown.push(one.named()),
        _ => shown.push("…".to_string()),
    }
    format!("({})", shown.join(", "))
}

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
    /// Changes beyond the noise between runs.
    pub beyond_noise: usize,
    /// Changes within it.
    pub within_noise: usize,
    /// Changes of single runs, with no bound to judge them by.
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
        let baseline_first = c
            .title
            .as_deref()
            .is_some_and(|t| baseline_first(c, &names, t));
        (1..c.sides.len())
            .filter_map(|s| side_words(c, &rows, s, &names, baseline_first))
            .collect::<Vec<_>>()
            .join(" ")
    };
    v
}

/// Whether `title` names the baseline before the other sides: by their
/// names, else by their versions (`vLLM 0.29 against 0.30`).
fn baseline_first(c: &Comparison, names: &[String], title: &str) -> bool {
    let title = title.to_lowercase();
    let at = |s: usize| {
        [Some(&names[s]), Some(&c.sides[s].name)]
            .into_iter()
            .flatten()
            .filter_map(|n| find_word(&title, &n.to_lowercase()))
            .min()
    };
    let by_version = |s: usize| {
        c.sides[s]
            .version
            .as_deref()
            .and_then(|v| find_word(&title, &v.to_lowercase()))
    };
    let first = |f: &dyn Fn(usize) -> Option<usize>| (f(0), (1..c.sides.len()).filter_map(f).min());
    match first(&at) {
        (Some(base), Some(side)) => base < side,
        _ => match first(&by_version) {
            (Some(base), Some(side)) => base < side,
            _ => false,
        },
    }
}

/// Where `word` is in `text` as a whole word: not inside a longer name or
/// number (`0.3` is not in `0.30`).
fn find_word(text: &str, word: &str) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let part = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let mut after = text[i + word.len()..].chars();
        let ends = match (after.next(), after.next()) {
            (Some(c), _) if part(c) => false,
            // `0.3` followed by `.0`: a longer version.
            (Some('.'), Some(d)) if d.is_ascii_digit() => false,
            _ => true,
        };
        !before.is_some_and(|c| part(c) || c == '.') && ends
    })
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

/// A title made from the sides, as a comparison's record gives it where
/// it gives none: each side against the baseline, the baseline last, as
/// its verdict reads (`vLLM 0.30.0 against 0.29.0`).
pub fn title(c: &Comparison) -> String {
    let names = labels(c);
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        _ => {
            let mut others: Vec<String> = vec![names[1].clone()];
            others.extend((2..names.len()).map(|s| after(c, &names, 1, s)));
            // The baseline by its version alone where every side named
            // before it is of its engine.
            let one_engine = (2..names.len()).all(|s| after(c, &names, 1, s) != names[s]);
            let baseline = if one_engine {
                after(c, &names, 1, 0)
            } else {
                names[0].clone()
            };
            format!("{} against {baseline}", and_list(&others))
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
pub(crate) fn lower(label: &str) -> String {
    let mut chars = label.chars();
    let (Some(first), second) = (chars.next(), chars.next()) else {
        return label.to_string();
    };
    if second.is_some_and(|c| c.is_uppercase() || c.is_ascii_digit()) {
        return label.to_string();
    }
    first.to_lowercase().chain(label.chars().skip(1)).collect()
}

/// The parts every workload of `c` shares: what sets none apart.
fn common_parts(c: &Comparison) -> Vec<&(String, String)> {
    let Some((first, rest)) = c.workloads.split_first() else {
        return Vec::new();
    };
    let mut common: Vec<&(String, String)> = first.parts.iter().collect();
    for w in rest {
        common.retain(|p| w.parts.contains(p));
        if common.is_empty() {
            break;
        }
    }
    common
}

/// What sets workload `w` apart from the comparison's others: its parts
/// that not every workload shares (`common`: those every one does),
/// `context depth 16,384`.
fn workload_words(c: &Comparison, w: usize, common: &[&(String, String)]) -> String {
    let own = &c.workloads[w].parts;
    let apart: Vec<String> = own
        .iter()
        .filter(|p| !common.contains(p))
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
fn what(c: &Comparison, row: &Row, several: bool, common: &[&(String, String)]) -> String {
    let metric = lower(&c.metrics[row.metric].label);
    match (several, c.metrics.len()) {
        (false, _) => metric,
        (true, 1) => workload_words(c, row.workload, common),
        (true, _) => format!("{metric} at {}", workload_words(c, row.workload, common)),
    }
}

/// Side `s` against the baseline over `rows`, in a sentence; `None` where
/// it has no change there. Where the title names the baseline first, so
/// does the sentence, and it says whose the changes are.
fn side_words(
    c: &Comparison,
    rows: &[&Row],
    s: usize,
    names: &[String],
    baseline_first: bool,
) -> Option<String> {
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
    // Found once: a part every workload shares names none of them.
    let common = if several { common_parts(c) } else { Vec::new() };
    let noun = match (workloads, metrics) {
        (1, _) => Noun {
            one: "metric",
            many: "metrics",
        },
        (_, 1) => Noun {
            one: "workload",
            many: "workloads",
        },
        _ => Noun {
            one: "figure",
            many: "figures",
        },
    };
    let said: Vec<Said> = list
        .iter()
        .map(|&(r, ch)| {
            let common = &common;
            Said::of(&ch, ch.kind(), move || {
                (what(c, r, several, common), String::new())
            })
        })
        .collect();
    let head = if baseline_first {
        format!(
            "{} against {}, each change {}'s",
            names[0],
            after(c, names, 0, s),
            names[s]
        )
    } else {
        against(c, names, s)
    };
    Some(format!("{head}: {}.", summary(&said, noun)))
}
