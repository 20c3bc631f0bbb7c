//! `no-lost-requests` (F15): every request of a benchmark completed, or
//! its figures say which did not. NInfer's admission cap rejected a request
//! while it waited; a throughput or latency figure is then of the requests
//! that completed only.

use super::evidence::{figure, Evidence, Place};
use super::{Check, Decided, Verdict};

pub(super) const CHECK: Check = Check {
    name: "no-lost-requests",
    reads: "the requests of each result: sent (`num_prompts`), completed (`completed`) and failed (`failed`), from the result files or a table's columns",
    flags: "a result with failed requests, or fewer completed than sent; cannot tell when the run records how many completed but neither how many were sent nor how many failed",
    unknown: "how many requests were sent, and how many failed",
    flags_what_is_missing: false,
    decide,
};

fn decide(ev: &Evidence<'_>) -> Option<Decided> {
    let run = ev.run;
    // Row by row: the results tables (derived, or typed with the
    // vocabulary's names) hold each result's counts side by side.
    let mut lost = Vec::new();
    let mut whole = 0usize;
    let mut undecided = None;
    let mut any = false;
    for t in &run.tables {
        let (Some(c), sent, failed) = (
            t.index("completed"),
            t.index("num_prompts"),
            t.index("failed"),
        ) else {
            continue;
        };
        for (r, row) in t.rows.iter().enumerate() {
            let num = |i: Option<usize>| {
                i.and_then(|i| row.get(i))
                    .and_then(|v| v.trim().parse::<f64>().ok())
            };
            let Some(done) = num(Some(c)) else { continue };
            any = true;
            let setup = t
                .index("setup")
                .and_then(|s| row.get(s))
                .and_then(|name| ev.setup_named(name));
            let at = match (t.derived.is_some(), t.index("source")) {
                // The entry of the file, and of the setup where several
                // entries take reports of one pasted text.
                (true, Some(s)) => Place::File {
                    path: row[s].clone(),
                    entry: ev.entry_of(&row[s], setup).unwrap_or(0),
                },
                _ => Place::Row {
                    table: t.file.clone(),
                    line: t.row_lines.get(r).copied().unwrap_or(r + 2),
                },
            };
            let who = match setup {
                Some(_) => ev.setup_name(setup),
                None => format!(
                    "{}, line {}",
                    t.file,
                    t.row_lines.get(r).copied().unwrap_or(r + 2)
                ),
            };
            match (num(sent), num(failed)) {
                (_, Some(f)) if f > 0.0 => lost.push((
                    format!(
                        "{who}: {} of {} requests failed",
                        figure(f),
                        figure(done + f)
                    ),
                    at,
                    setup,
                )),
                (Some(n), _) if done < n => lost.push((
                    format!(
                        "{who}: {} of {} requests completed",
                        figure(done),
                        figure(n)
                    ),
                    at,
                    setup,
                )),
                (None, None) => undecided = undecided.or(Some((who, done, setup))),
                _ => whole += 1,
            }
        }
    }
    if !any {
        return None;
    }
    Some(if let Some((_, at, _)) = lost.first() {
        let mut about: Vec<usize> = lost.iter().filter_map(|l| l.2).collect();
        about.sort_unstable();
        about.dedup();
        (
            Verdict::Flagged,
            format!(
                "{}: the figures are of the completed requests only",
                lost.iter()
                    .map(|l| l.0.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            at.clone(),
            about,
        )
    } else if let Some((who, done, setup)) = undecided {
        (
            Verdict::CannotTell,
            format!("cannot tell: {who} records that {} requests completed, but not how many were sent or failed", figure(done)),
            Place::Run,
            setup.into_iter().collect(),
        )
    } else {
        (
            Verdict::Passed,
            format!(
                "every request completed ({whole} result{})",
                if whole == 1 { "" } else { "s" }
            ),
            Place::Run,
            Vec::new(),
        )
    })
}
