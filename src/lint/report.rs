//! A lint as people and programs read it: a table for a terminal, JSON,
//! Markdown for a pull-request comment, and GitHub workflow commands
//! (annotations on the result file). Each flag comes with every finding
//! that names its check: its advice, "What to do" and permanent address.

use super::Lint;
use crate::audit::report::command;
use crate::audit::source::CatalogFinding;
use crate::checks::{Outcome, Verdict};
use std::fmt::Write as _;

/// The last line of every format: how many checks flag the files.
pub fn verdict(l: &Lint) -> String {
    let flags: Vec<&str> = l.flags().map(|o| o.check).collect();
    match flags.len() {
        0 => format!(
            "no check flags these files ({} checked)",
            match l.outcomes.len() {
                1 => "1 check".to_string(),
                n => format!("{n} checks"),
            }
        ),
        1 => format!("1 check flags these files: {}", flags[0]),
        n => format!("{n} checks flag these files: {}", flags.join(", ")),
    }
}

fn findings_of<'l>(l: &'l Lint, o: &Outcome) -> &'l [CatalogFinding] {
    l.findings.get(o.check).map_or(&[], Vec::as_slice)
}

/// A table for a terminal.
pub fn table(l: &Lint) -> String {
    let mut out = format!("Findings from {}\n\n", l.source);
    for o in l.flags() {
        let (file, line) = l.place(o);
        let _ = writeln!(out, "! {}  {}:{line}", o.check, file.display());
        let _ = writeln!(out, "    {}", o.message);
        for f in findings_of(l, o) {
            let _ = writeln!(out, "    F{:<3} {}", f.id, f.title);
            let _ = writeln!(out, "         Advice: {}", f.advice);
            if !f.what_to_do.is_empty() {
                let _ = writeln!(out, "         What to do: {}", f.what_to_do);
            }
            let _ = writeln!(out, "         {}", f.url);
        }
        out.push('\n');
    }
    for o in l.outcomes.iter().filter(|o| o.verdict != Verdict::Flagged) {
        let mark = if o.verdict == Verdict::Passed {
            "✓"
        } else {
            "?"
        };
        let _ = writeln!(
            out,
            "{mark} {} ({}): {}",
            o.check,
            o.verdict.as_str(),
            o.message
        );
    }
    let _ = writeln!(out, "\nfindings lint: {}", verdict(l));
    out
}

/// JSON, for scripts (docs/checks.md describes it).
pub fn json(l: &Lint) -> String {
    let checks: Vec<serde_json::Value> = l
        .outcomes
        .iter()
        .map(|o| {
            let (file, line) = l.place(o);
            serde_json::json!({
                "name": o.check,
                "verdict": o.verdict.as_str(),
                "message": o.message,
                "file": file.display().to_string(),
                "line": line,
                "findings": findings_of(l, o).iter().map(|f| serde_json::json!({
                    "id": f.id, "label": format!("F{}", f.id), "title": f.title,
                    "advice": f.advice, "what_to_do": f.what_to_do, "url": f.url,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let v = serde_json::json!({
        "source": l.source,
        "inputs": l.inputs.iter().map(|(_, p)| p.display().to_string()).collect::<Vec<_>>(),
        "flagged": l.flags().count(),
        "checks": checks,
        "verdict": verdict(l),
    });
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

/// Markdown, for a pull-request comment or a job summary.
pub fn markdown(l: &Lint) -> String {
    let mut out = String::from("### findings lint\n\n");
    let _ = writeln!(out, "**{}** (findings from {}).\n", verdict(l), l.source);
    for o in l.flags() {
        let (file, line) = l.place(o);
        let _ = writeln!(
            out,
            "- **`{}`** (`{}:{line}`): {}",
            o.check,
            file.display(),
            o.message
        );
        for f in findings_of(l, o) {
            let _ = write!(
                out,
                "  - [F{}: {}]({}): {}.",
                f.id,
                f.title.replace('[', "\\[").replace(']', "\\]"),
                f.url,
                f.advice.trim_end_matches('.')
            );
            if !f.what_to_do.is_empty() {
                let _ = write!(out, " What to do: {}", f.what_to_do);
            }
            out.push('\n');
        }
    }
    let rest: Vec<&Outcome> = l
        .outcomes
        .iter()
        .filter(|o| o.verdict != Verdict::Flagged)
        .collect();
    if !rest.is_empty() {
        out.push_str("\n| check | verdict | what it found |\n|---|---|---|\n");
        for o in rest {
            let _ = writeln!(
                out,
                "| `{}` | {} | {} |",
                o.check,
                o.verdict.as_str(),
                o.message.replace('|', "\\|")
            );
        }
    }
    out
}

/// GitHub workflow commands: a warning on the result file for each flag,
/// then the verdict.
pub fn github(l: &Lint) -> String {
    let mut out = String::new();
    for o in l.flags() {
        let (file, line) = l.place(o);
        let see: Vec<String> = findings_of(l, o)
            .iter()
            .map(|f| format!("F{}", f.id))
            .collect();
        let title = if see.is_empty() {
            o.check.to_string()
        } else {
            format!("{} (see {})", o.check, see.join(", "))
        };
        let mut message = o.message.clone();
        for f in findings_of(l, o) {
            let _ = write!(message, "\nF{}: {}\nAdvice: {}", f.id, f.title, f.advice);
            if !f.what_to_do.is_empty() {
                let _ = write!(message, "\nWhat to do: {}", f.what_to_do);
            }
            let _ = write!(message, "\n{}", f.url);
        }
        command(
            &mut out,
            "warning",
            Some(&file.display().to_string()),
            line,
            &title,
            &message,
        );
    }
    let _ = writeln!(out, "findings lint: {}", verdict(l));
    out
}
