//! A comparison as people and programs read it: a table for a terminal,
//! JSON for scripts (`json.rs`), Markdown for an issue or a pull request.
//! Each leads with the verdict in words ([`lead`]: how the changes went,
//! the sides the checks flag, how the servers differ, why fewer requests
//! ran than asked where the runs say). Every value is rounded for reading
//! (`crate::figures`), the values of a row alike; the JSON keeps every
//! digit. Each change says which way it goes for its metric (better,
//! worse, same) beside its noise verdict; each workload says what the
//! sides' evidence recorded of their servers, and a side that ran fewer
//! requests at once than asked is marked on its values and in a note,
//! with the findings about it where known.
//!
//! Takes a [`Comparison`]; hands back text.

use super::{flagged, servers, shortfalls, Comparison, Row, Verdict};
use crate::figures;
use std::fmt::Write as _;

pub use super::json::json;

/// The verdict in one line, as lists of comparisons show it: the words
/// of [`Verdict`], then the sides the checks flag.
pub fn verdict(c: &Comparison) -> String {
    let words = Verdict::of(c).words;
    match flagged(c) {
        Some(f) => format!("{words} {f}"),
        None => words,
    }
}

/// What every view says first, a paragraph each: the verdict, the sides
/// the checks flag, how the servers differ, and why fewer requests ran
/// than asked where the runs' own numbers explain it.
pub fn lead(c: &Comparison) -> Vec<String> {
    let mut out = vec![Verdict::of(c).words];
    out.extend(flagged(c));
    out.extend(servers(c));
    let (why, not) = shortfall_words(c);
    out.extend(why.map(|w| format!("Why fewer ran: {w}")));
    out.extend(not.map(|w| format!("Fewer ran than asked: {w}")));
    out
}

/// The shortfalls' words: those the pools explain, and those they do
/// not, each joined into one paragraph.
pub fn shortfall_words(c: &Comparison) -> (Option<String>, Option<String>) {
    let all = shortfalls(c);
    let join = |explains: bool| {
        let w: Vec<&str> = all
            .iter()
            .filter(|s| s.explains == explains)
            .map(|s| s.words.as_str())
            .collect();
        (!w.is_empty()).then(|| w.join(" "))
    };
    (join(true), join(false))
}

/// The cell of side `s` in `row` (`shown`: the row's values as shown):
/// its value, marked where its server ran fewer requests than asked.
fn value(c: &Comparison, row: &Row, shown: &[Option<String>], s: usize) -> String {
    match &shown[s] {
        Some(v) => match c.contexts[row.workload][s].mark() {
            Some(mark) => format!("{v}, {mark}"),
            None => v.clone(),
        },
        None => "—".to_string(),
    }
}

/// The change of side `s` in `row`: `+2% better, untested`.
fn change(row: &Row, s: usize) -> String {
    row.changes[s].map_or_else(|| "—".to_string(), |ch| ch.words())
}

/// Who is compared with whom, for the heads of the text formats.
fn heading(c: &Comparison) -> String {
    let files = |n: usize| {
        if n == 1 {
            "1 file".to_string()
        } else {
            format!("{n} files")
        }
    };
    let mut out = String::new();
    for (s, side) in c.sides.iter().enumerate() {
        let _ = write!(
            out,
            "{}{} ({}{}",
            if s == 0 { "" } else { ", " },
            side.name,
            if s == 0 { "baseline, " } else { "" },
            files(side.sources.len())
        );
        if c.unmatched[s] > 0 {
            let _ = write!(out, "; {} not matched", c.unmatched[s]);
        }
        if !side.flags.is_empty() {
            let marks: Vec<&str> = side.flags.iter().map(|f| f.mark.as_str()).collect();
            let _ = write!(out, "; flagged: {}", marks.join(", "));
        }
        out.push(')');
    }
    out
}

/// The lines under a workload's heading: what each side's evidence says
/// of its server, and what was taken as the workload (`--same-workload`),
/// each as (side or "", text).
fn workload_notes(c: &Comparison, w: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if c.has_context(w) {
        for (s, side) in c.sides.iter().enumerate() {
            out.push((side.name.clone(), c.contexts[w][s].words()));
        }
    }
    for (s, line) in &c.taken_as_one[w] {
        out.push((
            c.sides[*s].name.clone(),
            format!("measured {line}, taken as this workload (--same-workload)"),
        ));
    }
    out
}

/// A table for a terminal: the verdict first, then a block per workload,
/// a line per metric.
pub fn table(c: &Comparison) -> String {
    let mut out = String::new();
    for p in lead(c) {
        let _ = writeln!(out, "{p}");
    }
    let _ = writeln!(out, "\nCompared: {}", heading(c));
    if let Some(p) = c.stated_noise {
        let _ = writeln!(out, "Noise stated: ±{}", figures::unsigned_percent(p));
    }
    if c.same_workload {
        let _ = writeln!(
            out,
            "Said to measure one workload (--same-workload): matched on concurrency and rate alone"
        );
    }
    for (w, workload) in c.workloads.iter().enumerate() {
        let _ = writeln!(out, "\n{}", workload.line());
        for (who, text) in workload_notes(c, w) {
            let _ = writeln!(out, "  {who}: {text}");
        }
        let mut grid: Vec<Vec<String>> = vec![std::iter::once("metric".to_string())
            .chain(c.sides.iter().map(|s| s.name.clone()))
            .chain(c.sides.iter().skip(1).map(|s| {
                if c.sides.len() > 2 {
                    format!("change: {}", s.name)
                } else {
                    "change".to_string()
                }
            }))
            .collect()];
        for row in c.rows_of(w) {
            let shown = row.shown(c.metrics[row.metric].unit.as_deref());
            let mut line = vec![c.metrics[row.metric].label.clone()];
            line.extend((0..c.sides.len()).map(|s| value(c, row, &shown, s)));
            line.extend((1..c.sides.len()).map(|s| change(row, s)));
            grid.push(line);
        }
        let widths: Vec<usize> = (0..grid[0].len())
            .map(|k| grid.iter().map(|l| l[k].chars().count()).max().unwrap_or(0))
            .collect();
        for line in &grid {
            let mut text = String::from(" ");
            for (k, cell) in line.iter().enumerate() {
                let last = k + 1 == line.len();
                text.push(' ');
                text.push_str(cell);
                if !last {
                    let pad = widths[k] - cell.chars().count();
                    text.extend(std::iter::repeat_n(' ', pad + 1));
                }
            }
            let _ = writeln!(out, "{}", text.trim_end());
        }
    }
    out.push_str(&notes(c, false));
    out
}

/// The sides that ran fewer requests at once than asked, in words:
/// `vLLM 0.28.0 (xray) and SGLang 0.5.20 (live)`.
fn fewer_names(c: &Comparison) -> String {
    let names: Vec<&str> = c
        .ran_fewer()
        .into_iter()
        .map(|s| c.sides[s].name.as_str())
        .collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// What the tables leave to be said: where the changes are from, what
/// "untested" means, which sides ran fewer requests than asked (and the
/// findings about it), and, where the sides share no workload, what each
/// measured. `markdown` links the findings.
fn notes(c: &Comparison, markdown: bool) -> String {
    let mut out = String::new();
    if c.is_empty() {
        for (s, lines) in c.measured.iter().enumerate() {
            let _ = writeln!(out, "\n{} measured:", c.sides[s].name);
            for l in lines.iter().take(5) {
                let _ = writeln!(out, "  {l}");
            }
            if lines.len() > 5 {
                let _ = writeln!(out, "  and {} more", lines.len() - 5);
            }
        }
        return out;
    }
    // Each note a paragraph (in Markdown apart from the next).
    let mut paragraphs: Vec<String> = Vec::new();
    if c.sides.len() > 2 {
        paragraphs.push(format!(
            "Changes are from the baseline, {}.\n",
            c.sides[0].name
        ));
    }
    if c.has_untested() {
        paragraphs.push("untested: single runs of each side and no bound to judge them by, so the change is not tested against noise, only its size is known (measure it twice or more on a side, or state a bound with --noise). A tool's own ± within one run does not test it.\n".to_string());
    }
    let fewer = c.ran_fewer();
    if !fewer.is_empty() {
        let verb = if fewer.len() == 1 { "Its" } else { "Their" };
        let mut p = format!(
            "ran fewer: {} ran fewer requests at once than the workload asked for (marked \"ran ≤N of M\"). {verb} figures are of fewer requests at once than the workload's heading says (check {}).\n",
            fewer_names(c),
            super::CONCURRENCY_CHECK
        );
        for f in &c.cited {
            let label = format!("F{}", f.id);
            let _ = match (&f.url, markdown) {
                (Some(u), true) => writeln!(p, "- [{label}]({u}): {}", f.title),
                (Some(u), false) => writeln!(p, "  {label:<4} {}  {u}", f.title),
                (None, true) => writeln!(p, "- {label}: {}", f.title),
                (None, false) => writeln!(p, "  {label:<4} {}", f.title),
            };
        }
        paragraphs.push(p);
    }
    if !paragraphs.is_empty() {
        out.push('\n');
        out.push_str(&paragraphs.join(if markdown { "\n" } else { "" }));
    }
    out
}

/// Markdown, for an issue or a pull request: a table per workload.
pub fn markdown(c: &Comparison) -> String {
    let esc = |s: &str| s.replace('|', "\\|");
    let mut out = String::from("### findings compare\n\n");
    for (k, p) in lead(c).iter().enumerate() {
        if k == 0 {
            let _ = writeln!(out, "**{}**\n", esc(p));
        } else {
            let _ = writeln!(out, "{}\n", esc(p));
        }
    }
    let _ = writeln!(out, "Compared: {}.", esc(&heading(c)));
    if c.same_workload {
        let _ = writeln!(
            out,
            "\nSaid to measure one workload (`--same-workload`): matched on concurrency and rate alone."
        );
    }
    for (w, workload) in c.workloads.iter().enumerate() {
        let _ = writeln!(out, "\n#### {}\n", esc(&workload.line()));
        let notes = workload_notes(c, w);
        for (who, text) in &notes {
            let _ = writeln!(out, "- {}: {}", esc(who), esc(text));
        }
        if !notes.is_empty() {
            out.push('\n');
        }
        let mut head = String::from("| metric |");
        let mut rule = String::from("|---|");
        for s in &c.sides {
            let _ = write!(head, " {} |", esc(&s.name));
            rule.push_str("---:|");
        }
        for s in c.sides.iter().skip(1) {
            if c.sides.len() > 2 {
                let _ = write!(head, " change: {} |", esc(&s.name));
            } else {
                head.push_str(" change |");
            }
            rule.push_str("---|");
        }
        let _ = writeln!(out, "{head}\n{rule}");
        for row in c.rows_of(w) {
            let shown = row.shown(c.metrics[row.metric].unit.as_deref());
            let _ = write!(out, "| {} |", esc(&c.metrics[row.metric].label));
            for s in 0..c.sides.len() {
                let _ = write!(out, " {} |", esc(&value(c, row, &shown, s)));
            }
            for s in 1..c.sides.len() {
                let _ = write!(out, " {} |", esc(&change(row, s)));
            }
            out.push('\n');
        }
    }
    out.push_str(&notes(c, true));
    out
}
