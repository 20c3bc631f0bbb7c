//! `kv-cache-recorded` (F6): starts of one engine with the same flags
//! record each start's KV cache size. vLLM 0.30 gave a model 51,079 tokens
//! of KV cache on a start that compiled it and 94,448 on one that loaded the
//! compiled graph, with the same flags: two starts compare only with the
//! size of each in hand.

use super::evidence::{figure, Evidence, Place};
use super::{Check, Verdict};

pub(super) const CHECK: Check = Check {
    name: "kv-cache-recorded",
    reads: "the KV cache size of each start (a `kv_cache_tokens` fact from the start's log, or column), in a run that compares starts: two setups of one engine, version and flags (told apart by their labels), or a table of the KV cache sizes of several starts",
    flags: "a start of such a run without its KV cache size; cannot tell whether two setups are starts with the same flags when they record no flags",
    decide,
};

fn decide(ev: &Evidence<'_>) -> Option<(Verdict, String, Place)> {
    let run = ev.run;
    let sizes = ev.values("kv_cache_tokens");
    // Starts: setups alike but for their names. (Two result files of one
    // setup may be two benchmarks of one start.)
    let mut starts: Vec<(String, Option<usize>)> = Vec::new();
    let mut flagless = false;
    for (i, a) in run.setups.iter().enumerate() {
        for (j, b) in run.setups.iter().enumerate().skip(i + 1) {
            if a.engine == b.engine && a.version == b.version && a.flags == b.flags {
                flagless |= a.flags.is_none();
                for k in [i, j] {
                    if !starts.iter().any(|s| s.1 == Some(k)) {
                        starts.push((a_name(ev, k), Some(k)));
                    }
                }
            }
        }
    }
    // A table typed by hand that gives the KV cache of several starts.
    let table = run
        .tables
        .iter()
        .any(|t| t.derived.is_none() && t.index("kv_cache_tokens").is_some() && t.rows.len() > 1);
    if starts.is_empty() && !table {
        return None;
    }
    if starts.is_empty() {
        // A table of sizes typed by hand: each row has its size.
        let t = run.tables.iter().find(|t| {
            t.derived.is_none() && t.index("kv_cache_tokens").is_some() && t.rows.len() > 1
        })?;
        let k = t.index("kv_cache_tokens")?;
        let empty = t
            .rows
            .iter()
            .position(|r| r.get(k).is_none_or(|c| c.trim().is_empty()));
        return Some(match empty {
            Some(r) => (
                Verdict::Flagged,
                format!("a start of {} has no KV cache size", t.file),
                Place::Row {
                    table: t.file.clone(),
                    line: t.row_lines.get(r).copied().unwrap_or(r + 2),
                },
            ),
            None => (
                Verdict::Passed,
                format!(
                    "the KV cache size of each start is recorded: {} tokens",
                    join(
                        &sizes
                            .iter()
                            .filter_map(|v| v.number)
                            .map(figure)
                            .collect::<Vec<_>>()
                    )
                ),
                Place::Row {
                    table: t.file.clone(),
                    line: t.row_lines.first().copied().unwrap_or(2),
                },
            ),
        });
    }
    if flagless {
        return Some((
            Verdict::CannotTell,
            "cannot tell whether the starts had the same flags: their setups record no flags"
                .into(),
            Place::Run,
        ));
    }
    let mut missing = Vec::new();
    let mut found = Vec::new();
    for (name, setup) in &starts {
        let mine: Vec<f64> = sizes
            .iter()
            .filter(|v| match setup {
                Some(k) => v.setup == Some(*k),
                None => {
                    matches!(&v.at, Place::File { path, .. } if path.starts_with(name.as_str()))
                }
            })
            .filter_map(|v| v.number)
            .collect();
        match mine.first() {
            Some(n) => found.push(format!("{name}: {} tokens", figure(*n))),
            None => missing.push(name.clone()),
        }
    }
    Some(if missing.is_empty() {
        (
            Verdict::Passed,
            format!(
                "the KV cache size of each start is recorded ({})",
                found.join("; ")
            ),
            Place::Run,
        )
    } else {
        (
            Verdict::Flagged,
            format!(
                "{} compared with the same flags, but {} records no KV cache size, which differs from one start to the next",
                starts.iter().map(|s| s.0.as_str()).collect::<Vec<_>>().join(", "),
                missing.join(", ")
            ),
            Place::Run,
        )
    })
}

fn a_name(ev: &Evidence<'_>, k: usize) -> String {
    ev.setup_name(Some(k))
}

fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
