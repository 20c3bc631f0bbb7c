//! The checks on each run (`crate::checks`) as `check` reports them: every
//! flag a warning at the run's file and line, citing the findings whose
//! advice it carries ("see F4"); and an acknowledgment that does not hold
//! (its check passes the run, or does not apply to it) a warning too, so
//! that an acknowledgment never outlives the flag it answered. Takes a run
//! and the findings; hands on diagnostics.

use crate::checks::{self, Place, Verdict};
use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::record::{Finding, Run};
use std::collections::BTreeMap;
use std::sync::Arc;

/// For each check, the ids of the findings that name it, ascending.
pub(super) fn citing(findings: &[Arc<Finding>]) -> BTreeMap<String, Vec<u32>> {
    let mut m: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for f in findings {
        for c in &f.checks {
            m.entry(c.clone()).or_default().push(f.id);
        }
    }
    for ids in m.values_mut() {
        ids.sort_unstable();
        ids.dedup();
    }
    m
}

/// "see F8, F10", or nothing when no finding names the check.
pub(crate) fn see(ids: Option<&Vec<u32>>) -> String {
    match ids {
        Some(ids) if !ids.is_empty() => format!(
            " (see {})",
            ids.iter()
                .map(|i| format!("F{i}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => String::new(),
    }
}

pub(super) fn check(
    run: &Run,
    outcomes: &[checks::Outcome],
    cited: &BTreeMap<String, Vec<u32>>,
    diags: &mut Diagnostics,
) {
    let dir = run.path.parent().unwrap_or(std::path::Path::new(""));
    for o in outcomes {
        if o.verdict != Verdict::Flagged {
            continue;
        }
        let (file, span) = match &o.at {
            Place::Row { table, line } => (dir.join(table), Span::new(*line, 1)),
            Place::File { entry, .. } => (
                run.path.clone(),
                run.spans.get(&format!("results[{entry}]")),
            ),
            Place::Run => (run.path.clone(), run.spans.origin),
        };
        diags.push(
            Diagnostic::warning(
                file,
                span,
                format!("{}: {}{}", o.check, o.message, see(cited.get(o.check))),
            )
            .hint(format!(
                "fix the run, or if it breaks the check on purpose, say why: `acknowledged: [{{check: {}, reason: …}}]` in {}",
                o.check,
                run.path.display()
            )),
        );
    }
    for a in &run.acknowledged {
        let held = outcomes
            .iter()
            .find(|o| o.check == a.check)
            .is_some_and(|o| o.verdict == Verdict::Acknowledged);
        if !held {
            let why = match outcomes.iter().find(|o| o.check == a.check) {
                Some(_) => "passes this run",
                None => "does not apply to this run",
            };
            diags.push(
                Diagnostic::warning(
                    &run.path,
                    run.spans.get(&format!("{}.check", a.path_in_yaml)),
                    format!("the check \"{}\" is acknowledged, but it {why}", a.check),
                )
                .field(format!("{}.check", a.path_in_yaml))
                .hint("remove the acknowledgment"),
            );
        }
    }
}
