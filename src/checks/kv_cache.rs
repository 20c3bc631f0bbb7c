//! `kv-cache-recorded` (F6): starts of one engine with the same flags
//! record each start's KV cache size. vLLM 0.30 gave a model 51,079 tokens
//! of KV cache on a start that compiled it and 94,448 on one that loaded the
//! compiled graph, with the same flags: two starts compare only with the
//! size of each in hand.

use super::evidence::{figure, Evidence, Place};
use super::{Check, Decided, Verdict, UNKNOWN_ENGINE};
use std::collections::BTreeMap;

pub(super) const CHECK: Check = Check {
    name: "kv-cache-recorded",
    reads: "the KV cache size of each start (a `kv_cache_tokens` fact from the start's log, or column), in a run that compares starts: two setups of one engine, version and flags (told apart by their labels), or a table of the KV cache sizes of several starts",
    flags: "a start of such a run without its KV cache size; cannot tell whether two setups are starts with the same flags when they record no flags, or, in `findings lint`, for reports pasted as text, which cannot hold a start's KV cache size",
    unknown: "the KV cache size of each start",
    flags_what_is_missing: true,
    decide,
};

fn decide(ev: &Evidence<'_>) -> Option<Decided> {
    let run = ev.run;
    let sizes = ev.values("kv_cache_tokens");
    // Starts: setups alike but for their names (two result files of one
    // setup may be two benchmarks of one start), each group in the order
    // of its first setup. Setups whose files name no engine (`findings
    // lint` of pasted reports) are not known to be starts of one. Grouped
    // by key, so that a run of thousands of setups is read in one pass.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut by_key: BTreeMap<(&str, Option<&str>, Option<&str>), usize> = BTreeMap::new();
    for (i, a) in run.setups.iter().enumerate() {
        if a.engine == UNKNOWN_ENGINE {
            continue;
        }
        let key = (a.engine.as_str(), a.version.as_deref(), a.flags.as_deref());
        let g = *by_key.entry(key).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    let mut starts: Vec<(String, usize)> = Vec::new();
    let mut flagless = false;
    for g in groups.iter().filter(|g| g.len() > 1) {
        flagless |= run.setups[g[0]].flags.is_none();
        starts.extend(g.iter().map(|&k| (a_name(ev, k), k)));
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
                Vec::new(),
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
                Vec::new(),
            ),
        });
    }
    let all: Vec<usize> = starts.iter().map(|s| s.1).collect();
    if flagless {
        return Some((
            Verdict::CannotTell,
            "cannot tell whether the starts had the same flags: their setups record no flags"
                .into(),
            Place::Run,
            all,
        ));
    }
    let mut missing = Vec::new();
    let mut missing_setups = Vec::new();
    let mut found = Vec::new();
    let mut by_setup: BTreeMap<usize, f64> = BTreeMap::new();
    for v in &sizes {
        if let (Some(k), Some(n)) = (v.setup, v.number) {
            by_setup.entry(k).or_insert(n);
        }
    }
    for (name, k) in &starts {
        match by_setup.get(k) {
            Some(n) => found.push(format!("{name}: {} tokens", figure(*n))),
            None => {
                missing.push(name.clone());
                missing_setups.push(*k);
            }
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
            all,
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
            missing_setups,
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
