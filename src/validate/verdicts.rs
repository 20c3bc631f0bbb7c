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

/// A finding naming a check: its id and the engines it is about
/// ([`crate::record::engines_about`]; empty for none in particular).
type Citing = (u32, Vec<String>);

/// For each check, the findings that name it, ids ascending.
pub(super) fn citing(findings: &[Arc<Finding>]) -> BTreeMap<String, Vec<Citing>> {
    let mut m: BTreeMap<String, Vec<Citing>> = BTreeMap::new();
    for f in findings {
        let about: Vec<String> = crate::record::engines_about(&f.engines)
            .into_iter()
            .map(str::to_string)
            .collect();
        for c in &f.checks {
            m.entry(c.clone()).or_default().push((f.id, about.clone()));
        }
    }
    for ids in m.values_mut() {
        ids.sort_unstable_by_key(|(id, _)| *id);
        ids.dedup_by_key(|(id, _)| *id);
    }
    m
}

/// "see F8, F10": the findings of `cited` about an engine of `engines`
/// (the run's setups), or about none in particular; all of them where
/// one of `engines` is not among `known` (the site's). Nothing when none
/// is left: another engine's finding is never offered as the reason.
fn see(cited: Option<&Vec<Citing>>, engines: &[&str], known: &[&str]) -> String {
    let all = engines.iter().any(|e| !known.contains(e));
    let ids: Vec<String> = cited
        .into_iter()
        .flatten()
        .filter(|(_, about)| {
            all || about.is_empty() || about.iter().any(|a| engines.contains(&a.as_str()))
        })
        .map(|(id, _)| format!("F{id}"))
        .collect();
    if ids.is_empty() {
        String::new()
    } else {
        format!(" (see {})", ids.join(", "))
    }
}

pub(super) fn check(
    run: &Run,
    outcomes: &[checks::Outcome],
    cited: &BTreeMap<String, Vec<Citing>>,
    known: &[&str],
    diags: &mut Diagnostics,
) {
    let dir = run.path.parent().unwrap_or(std::path::Path::new(""));
    let engines: Vec<&str> = run.setups.iter().map(|s| s.engine.as_str()).collect();
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
                format!(
                    "{}: {}{}",
                    o.check,
                    o.message,
                    see(cited.get(o.check), &engines, known)
                ),
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
