//! A comparison as people and programs read it: a table for a terminal,
//! JSON for scripts, Markdown for an issue or a pull request. Every value
//! is rounded for reading (`crate::figures`); the JSON keeps every digit.
//!
//! Takes a [`Comparison`]; hands back text.

use super::{Comparison, Row};
use crate::figures;
use std::fmt::Write as _;

/// The last line of every format: how many workloads the sides share and
/// how the changes stand against the noise.
pub fn verdict(c: &Comparison) -> String {
    if c.is_empty() {
        return "no workload in common: nothing to compare".to_string();
    }
    let (mut beyond, mut within, mut untested) = (0, 0, 0);
    for ch in c.rows.iter().flat_map(|r| r.changes.iter().flatten()) {
        match ch.noise.key() {
            "beyond" => beyond += 1,
            "within" => within += 1,
            _ => untested += 1,
        }
    }
    let n = |k: usize, one: &str, many: &str| {
        if k == 1 {
            format!("1 {one}")
        } else {
            format!("{k} {many}")
        }
    };
    let mut parts = vec![
        n(beyond, "change beyond noise", "changes beyond noise"),
        format!("{within} within noise"),
    ];
    if untested > 0 {
        parts.push(format!(
            "{untested} not tested against noise (one measurement each)"
        ));
    }
    format!(
        "{} in common; {}",
        n(c.workloads.len(), "workload", "workloads"),
        parts.join(", ")
    )
}

/// The cell of side `s` in `row`: its value, and its change from the
/// baseline with the noise verdict.
fn value(c: &Comparison, row: &Row, s: usize) -> String {
    let unit = c.metrics[row.metric].unit.as_deref();
    row.values[s].map_or_else(|| "—".to_string(), |v| v.shown(unit))
}

fn change(row: &Row, s: usize) -> String {
    match row.changes[s] {
        Some(ch) => {
            let mut out = format!("{} {}", ch.shown(), ch.noise.short());
            if let Some(d) = ch.direction().filter(|d| *d != "level") {
                let _ = write!(out, " ({d})");
            }
            out
        }
        None => "—".to_string(),
    }
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
        out.push(')');
    }
    out
}

/// A table for a terminal: a block per workload, a line per metric.
pub fn table(c: &Comparison) -> String {
    let mut out = format!("Compared: {}\n", heading(c));
    if let Some(p) = c.stated_noise {
        let _ = writeln!(out, "Noise band stated: ±{}%", figures::number(p));
    }
    for (w, workload) in c.workloads.iter().enumerate() {
        let _ = writeln!(out, "\n{}", workload.line());
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
        for row in c.rows.iter().filter(|r| r.workload == w) {
            let mut line = vec![c.metrics[row.metric].label.clone()];
            line.extend((0..c.sides.len()).map(|s| value(c, row, s)));
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
    out.push_str(&notes(c));
    let _ = writeln!(out, "\nfindings compare: {}", verdict(c));
    out
}

/// What the tables leave to be said: where the changes are from, what
/// "untested" means, and, where the sides share no workload, what each
/// measured.
fn notes(c: &Comparison) -> String {
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
    if c.sides.len() > 2 {
        let _ = writeln!(out, "Changes are from the baseline, {}.", c.sides[0].name);
    }
    if c.has_untested() {
        let _ = writeln!(out, "untested: each side measured the workload once, so the change is not tested against noise (measure it twice or more on each side, or state a band with --noise).");
    }
    if !out.is_empty() {
        out.insert(0, '\n');
    }
    out
}

/// Markdown, for an issue or a pull request: a table per workload.
pub fn markdown(c: &Comparison) -> String {
    let esc = |s: &str| s.replace('|', "\\|");
    let mut out = String::from("### findings compare\n\n");
    let _ = writeln!(out, "**{}**\n\nCompared: {}.", verdict(c), esc(&heading(c)));
    for (w, workload) in c.workloads.iter().enumerate() {
        let _ = writeln!(out, "\n#### {}\n", esc(&workload.line()));
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
        for row in c.rows.iter().filter(|r| r.workload == w) {
            let _ = write!(out, "| {} |", esc(&c.metrics[row.metric].label));
            for s in 0..c.sides.len() {
                let _ = write!(out, " {} |", esc(&value(c, row, s)));
            }
            for s in 1..c.sides.len() {
                let _ = write!(out, " {} |", esc(&change(row, s)));
            }
            out.push('\n');
        }
    }
    out.push_str(&notes(c));
    out
}

/// JSON, for scripts: every value with every digit (docs/compare.md).
pub fn json(c: &Comparison) -> String {
    let spread = |v: &Option<super::Spread>| {
        v.map_or(
            serde_json::Value::Null,
            |v| serde_json::json!({"n": v.n, "mean": v.mean, "min": v.min, "max": v.max}),
        )
    };
    let workloads: Vec<serde_json::Value> = c
        .workloads
        .iter()
        .enumerate()
        .map(|(w, workload)| {
            let rows: Vec<serde_json::Value> = c
                .rows
                .iter()
                .filter(|r| r.workload == w)
                .map(|r| {
                    serde_json::json!({
                        "metric": c.metrics[r.metric].name,
                        "values": r.values.iter().map(spread).collect::<Vec<_>>(),
                        "changes": r.changes.iter().map(|ch| ch.map_or(serde_json::Value::Null, |ch| serde_json::json!({
                            "pct": ch.pct,
                            "shown": ch.shown(),
                            "noise": ch.noise.key(),
                            "words": ch.noise.words(),
                            "direction": ch.direction(),
                        }))).collect::<Vec<_>>(),
                    })
                })
                .collect();
            serde_json::json!({
                "workload": workload.line(),
                "parts": workload.parts.iter().map(|(k, v)| serde_json::json!([k, v])).collect::<Vec<_>>(),
                "rows": rows,
            })
        })
        .collect();
    let v = serde_json::json!({
        "sides": c.sides.iter().enumerate().map(|(s, side)| serde_json::json!({
            "name": side.name,
            "baseline": s == 0,
            "engine": side.engine,
            "version": side.version,
            "sources": side.sources,
            "unmatched": c.unmatched[s],
        })).collect::<Vec<_>>(),
        "metrics": c.metrics.iter().map(|m| serde_json::json!({
            "name": m.name, "label": m.label, "unit": m.unit, "higher_is_better": m.higher_is_better,
        })).collect::<Vec<_>>(),
        "stated_noise_pct": c.stated_noise,
        "measured": c.measured,
        "workloads": workloads,
        "verdict": verdict(c),
    });
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}
