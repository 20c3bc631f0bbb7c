//! Whether the comment is posted at all, and what it leads with.
//!
//! A maintainer keeps a comment that tells them something about their
//! issue, so one is written only where the lint has one of three things
//! ([`Reasons`]): a finding that applies at an engine version the issue is
//! about (as `findings audit` lists it), a check that found something in a
//! report or a finding whose problem a report shows (never a "cannot
//! tell"), or a change between two reports of one workload. Otherwise
//! nothing is written, and [`silence`] says why, for stderr.
//!
//! A change leads the comment: its verdict in the words `findings
//! compare` writes it in (`super::super::change`), the sides and the
//! reports they hold, and, folded, each metric's values and change.
//!
//! Takes the lint; hands back Markdown, or the reason for none.

use super::reports::named;
use super::text::{cell, prose};
use crate::figures;
use crate::lint::change::Change;
use crate::lint::{Lint, LintRun, LintSetup};
use crate::symptoms::Outcome as Seen;
use crate::util::and_list;
use std::fmt::Write as _;

/// The most rows of the table of a change's metrics.
const MAX_ROWS: usize = 40;

/// What a comment would be posted for.
pub(super) struct Reasons<'l> {
    /// Findings apply at a version the issue is about.
    pub(super) applies: bool,
    /// A check flags a report, or a report shows a finding's problem.
    pub(super) found: bool,
    /// The change between reports of one workload, where there is one.
    pub(super) change: Option<(&'l LintRun, &'l Change)>,
}

impl Reasons<'_> {
    /// Whether there is anything to post.
    pub(super) fn any(&self) -> bool {
        self.applies || self.found || self.change.is_some()
    }
}

/// What the lint has for the issue (`shown`: whether a report shows a
/// finding's problem, as the comment cites it).
pub(super) fn reasons(l: &Lint, shown: bool) -> Reasons<'_> {
    Reasons {
        applies: l.versions.iter().any(|v| !v.hits.is_empty()),
        found: l.flags().next().is_some() || shown,
        change: l
            .runs
            .iter()
            .find_map(|r| r.change.as_ref().map(|c| (r, c))),
    }
}

/// Why no comment is posted, in a line: what was read, then why each
/// reason to post is missing.
pub(super) fn silence(l: &Lint) -> String {
    let setups: Vec<&LintSetup> = l.runs.iter().flat_map(|r| &r.setups).collect();
    let read = l.issue.as_ref().map_or("the inputs", |i| i.read.as_str());
    let n = setups.len();
    if n == 0 {
        return format!("no comment: no benchmark report in {read}");
    }
    let (reports, it) = if n == 1 {
        ("1 benchmark report".to_string(), "it")
    } else {
        (
            format!("{} benchmark reports", figures::number(n as f64)),
            "them",
        )
    };
    let mut why = Vec::new();
    if l.versions.is_empty() {
        let known: Vec<&LintSetup> = setups
            .iter()
            .copied()
            .filter(|s| s.engine_known())
            .collect();
        let of_site: Vec<&&LintSetup> = known
            .iter()
            .filter(|s| l.site_engines.contains(&s.engine))
            .collect();
        why.push(if known.is_empty() {
            "no report or title says which engine ran".to_string()
        } else if of_site.is_empty() {
            let mut names: Vec<String> = known.iter().map(|s| engine_name(l, s)).collect();
            names.dedup();
            format!("the site has no findings of {}", and_list(&names))
        } else {
            "no report or title says which version ran".to_string()
        });
    } else {
        // `vLLM 0.5.1 or 0.5.0.post1`: an engine's name once.
        let heads: Vec<String> = l
            .versions
            .iter()
            .enumerate()
            .map(|(k, v)| match k.checked_sub(1).map(|p| &l.versions[p]) {
                Some(p) if p.engine == v.engine => v.version.clone(),
                _ => v.head(),
            })
            .collect();
        why.push(format!(
            "no finding of the site applies to {}",
            or_list(&heads)
        ));
    }
    let unknown = l
        .runs
        .iter()
        .flat_map(|r| &r.outcomes)
        .filter(|o| o.verdict == crate::checks::Verdict::CannotTell)
        .count();
    let quiet = l
        .runs
        .iter()
        .flat_map(|r| &r.observations)
        .filter(|o| o.outcome == Seen::CannotTell)
        .count();
    let cannot = unknown + quiet;
    why.push(if cannot > 0 {
        format!("no check finds anything in {it} ({cannot} cannot tell)")
    } else {
        format!("no check finds anything in {it}")
    });
    why.push(if n == 1 {
        "there is no other report to compare it with".to_string()
    } else {
        "no two of them measured one workload".to_string()
    });
    format!("no comment: {reports} in {read}: {}", why.join("; "))
}

/// `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A setup's engine as the site names it (or its report does).
fn engine_name(l: &Lint, s: &LintSetup) -> String {
    l.engine_names
        .get(&s.engine)
        .cloned()
        .unwrap_or_else(|| s.engine.clone())
}

/// The comment's lead where reports of one workload changed: the verdict
/// as `findings compare` writes it, what was set side by side, and,
/// folded, each metric's values and change.
pub(super) fn change(run: &LintRun, ch: &Change) -> String {
    let c = &ch.comparison;
    let mut out = format!("**{}**\n\n", prose(&ch.verdict()));
    let sides: Vec<String> = c
        .sides
        .iter()
        .zip(&ch.sides)
        .map(|(side, setups)| {
            let reports: Vec<String> = setups
                .iter()
                .filter_map(|&i| run.setups.get(i))
                .map(named)
                .collect();
            format!("{} ({})", prose(&side.name), and_list(&reports))
        })
        .collect();
    let shared = c.workloads.len();
    let _ = writeln!(
        out,
        "Set side by side as `findings compare --from-issue` sets them, the first the baseline: {}; on the {} they share.\n",
        and_list(&sides),
        if shared == 1 {
            "workload".to_string()
        } else {
            format!("{} workloads", figures::number(shared as f64))
        }
    );
    out.push_str("<details><summary>The change, metric by metric</summary>\n\n");
    let mut head = String::from("| workload | metric |");
    let mut rule = String::from("|---|---|");
    for s in &c.sides {
        let _ = write!(head, " {} |", cell(&prose(&s.name)));
        rule.push_str("---:|");
    }
    for s in c.sides.iter().skip(1) {
        if c.sides.len() > 2 {
            let _ = write!(head, " change: {} |", cell(&prose(&s.name)));
        } else {
            head.push_str(" change |");
        }
        rule.push_str("---|");
    }
    let _ = writeln!(out, "{head}\n{rule}");
    for row in c.rows.iter().take(MAX_ROWS) {
        let metric = &c.metrics[row.metric];
        let shown = row.shown(metric.unit.as_deref());
        let _ = write!(
            out,
            "| {} | {} |",
            cell(&prose(&c.workloads[row.workload].line())),
            cell(&prose(&metric.label))
        );
        for v in &shown {
            let _ = write!(out, " {} |", cell(&prose(v.as_deref().unwrap_or("—"))));
        }
        for ch in row.changes.iter().skip(1) {
            let words = ch.map_or_else(|| "—".to_string(), |ch| ch.words());
            let _ = write!(out, " {} |", cell(&prose(&words)));
        }
        out.push('\n');
    }
    if c.rows.len() > MAX_ROWS {
        let _ = writeln!(
            out,
            "\n… and {} more (`findings compare --from-issue` lists them all).",
            figures::number((c.rows.len() - MAX_ROWS) as f64)
        );
    }
    out.push_str("\n</details>\n\n");
    out
}
