//! The reports a comment answers, one row each: where each was found
//! (linked), its tool, engine and version, model, workload and headline
//! figures. Takes the lint's setups; hands back a Markdown table.

use super::text::{cell, code, link, prose};
use crate::lint::{Lint, LintRun, LintSetup};
use crate::results::vocabulary::ResultCol as R;
use crate::results::Columns;
use std::fmt::Write as _;

/// The most reports the table lists: a comment on GitHub holds at most
/// 65,536 characters, and a thread seldom pastes more.
const MAX_ROWS: usize = 30;

/// The table of the reports read, at most [`MAX_ROWS`] rows, then how many
/// more.
pub(super) fn table(l: &Lint, setups: &[(&LintRun, &LintSetup)]) -> String {
    let mut out = String::from("| report | tool | engine | model | workload | figures |\n");
    out.push_str("|---|---|---|---|---|---|\n");
    for (_, s) in setups.iter().take(MAX_ROWS) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            cell(&named(s)),
            cell(&s.tool.map_or_else(|| "not stated".into(), code)),
            cell(&engine(l, s)),
            cell(&models(s)),
            cell(&workload(s)),
            cell(&headline(s)),
        );
    }
    let n = setups.len();
    if n > MAX_ROWS {
        let _ = writeln!(
            out,
            "\n… and {} more reports, not listed here (`findings lint --format json` lists them all).",
            crate::figures::number((n - MAX_ROWS) as f64)
        );
    }
    out
}

/// The models a report measured, each once in its order (a llama-bench
/// table may hold several quantizations, a row each), else the one its
/// report or command names, else "not stated".
fn models(s: &LintSetup) -> String {
    let own = models_of(s);
    if own.is_empty() {
        return s
            .fact("model")
            .map_or_else(|| "not stated".into(), |m| code(&m));
    }
    own.iter().map(|m| code(m)).collect::<Vec<_>>().join(", ")
}

/// The models of a report's rows, each once, in order.
fn models_of(s: &LintSetup) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for r in &s.results {
        if let Some(m) = r.text(R::Model) {
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }
    out
}

/// A report's name, linked to where it was found.
pub(super) fn named(s: &LintSetup) -> String {
    link(&prose(&s.name), s.url.as_deref())
}

/// "vLLM 0.30", "vLLM (no version stated)", or "not stated".
fn engine(l: &Lint, s: &LintSetup) -> String {
    if !s.engine_known() {
        return match &s.version {
            Some(v) => format!("not stated (version {})", code(v)),
            None => "not stated".into(),
        };
    }
    let name = l.engine_names.get(&s.engine).unwrap_or(&s.engine);
    match &s.version {
        Some(v) => format!("{} {}", prose(name), code(v)),
        None => format!("{} (no version stated)", prose(name)),
    }
}

/// What the client was asked: requests, at once, rate, lengths; for
/// llama-bench, its tests.
fn workload(s: &LintSetup) -> String {
    let Some(row) = s.results.first() else {
        return "not stated".into();
    };
    if row.num(R::TokensPerS).is_some() {
        let mut tests: Vec<String> = Vec::new();
        for t in s.results.iter().map(test_name) {
            if !tests.contains(&t) {
                tests.push(t);
            }
        }
        return prose(&tests.join(", "));
    }
    let mut parts = Vec::new();
    // The requests sent: as asked, else those that completed and failed.
    let sent = row.num(R::NumPrompts).or_else(|| {
        let done = row.num(R::Completed)?;
        Some(done + row.num(R::Failed).unwrap_or(0.0))
    });
    if let Some(n) = sent {
        parts.push(format!("{} requests", crate::figures::number(n)));
    }
    match row.num(R::MaxConcurrency) {
        Some(c) if c.is_finite() => parts.push(format!("{} at once", crate::figures::number(c))),
        _ => {}
    }
    match row.num(R::RequestRate) {
        Some(r) if r.is_infinite() => parts.push("rate unlimited".into()),
        Some(r) => parts.push(format!("{} req/s", crate::figures::number(r))),
        None => {}
    }
    let done = row.num(R::Completed).filter(|d| *d > 0.0);
    if let (Some(i), Some(o), Some(d)) = (row.num(R::InputTokens), row.num(R::OutputTokens), done) {
        parts.push(format!(
            "{} in, {} out (mean tokens a request)",
            crate::figures::number((i / d).round()),
            crate::figures::number((o / d).round())
        ));
    }
    if s.results.len() > 1 {
        parts.push(format!("{} results; the first shown", s.results.len()));
    }
    if parts.is_empty() {
        "not stated".into()
    } else {
        prose(&parts.join(", "))
    }
}

/// A llama-bench test as its table names it: `pp512`, `tg128 @ d4096`.
fn test_name(row: &crate::results::Row<R>) -> String {
    match row.text(R::Test) {
        Some(t) => t.to_string(),
        None => "test".into(),
    }
}

/// The headline figures of a report: throughput, then latency.
fn headline(s: &LintSetup) -> String {
    let Some(row) = s.results.first() else {
        return "none".into();
    };
    let with = |c: R| {
        let unit = R::ALL[c.index()].unit;
        row.num(c).map(|x| crate::figures::with_unit(x, Some(unit)))
    };
    if row.num(R::TokensPerS).is_some() {
        // Each test's figure and its ±; by model where the table holds
        // several.
        let figure = |r: &crate::results::Row<R>| -> Option<String> {
            let x = r.num(R::TokensPerS)?;
            let std = r
                .num(R::TokensPerSStd)
                .map(|d| format!(" ± {}", crate::figures::number(d)))
                .unwrap_or_default();
            Some(prose(&format!(
                "{} {}{std} t/s",
                test_name(r),
                crate::figures::number(x)
            )))
        };
        let models = models_of(s);
        if models.len() < 2 {
            let each: Vec<String> = s.results.iter().filter_map(figure).collect();
            return each.join(", ");
        }
        let each: Vec<String> = models
            .iter()
            .map(|m| {
                let of: Vec<String> = s
                    .results
                    .iter()
                    .filter(|r| r.text(R::Model) == Some(*m))
                    .filter_map(figure)
                    .collect();
                format!("{}: {}", code(m), of.join(", "))
            })
            .collect();
        return each.join("; ");
    }
    let mut parts = Vec::new();
    match (with(R::OutputThroughput), with(R::TotalTokenThroughput)) {
        (Some(o), _) => parts.push(format!("{o} output")),
        (None, Some(t)) => parts.push(format!("{t} total")),
        _ => {}
    }
    if let Some(r) = with(R::RequestThroughput) {
        parts.push(r);
    }
    let pair = |name: &str, mid: [R; 2], tail: R| -> Option<String> {
        let (label, m) = match (with(mid[0]), with(mid[1])) {
            (Some(p50), _) => ("p50", p50),
            (None, Some(mean)) => ("mean", mean),
            (None, None) => return with(tail).map(|t| format!("{name} p99 {t}")),
        };
        Some(match with(tail) {
            Some(t) => format!("{name} {label} {m}, p99 {t}"),
            None => format!("{name} {label} {m}"),
        })
    };
    if let Some(t) = pair("TTFT", [R::TtftMsP50, R::TtftMsMean], R::TtftMsP99) {
        parts.push(t);
    }
    if let Some(t) = pair("TPOT", [R::TpotMsP50, R::TpotMsMean], R::TpotMsP99)
        .or_else(|| pair("ITL", [R::ItlMsP50, R::ItlMsMean], R::ItlMsP99))
    {
        parts.push(t);
    }
    if parts.len() < 2 {
        if let Some(t) = pair("latency", [R::E2elMsP50, R::E2elMsMean], R::E2elMsP99) {
            parts.push(t);
        }
    }
    if let Some(f) = row.num(R::Failed).filter(|f| *f > 0.0) {
        parts.push(format!("{} failed", crate::figures::number(f)));
    }
    if parts.is_empty() {
        "none".into()
    } else {
        prose(&parts.join(" · "))
    }
}
