//! What the runs show against what the findings list
//! (`crate::symptoms`): a run that shows a finding's symptom on a version
//! the finding calls clean, fixed or mitigated is an error, naming the
//! finding, the version, the run and the figures; one that shows it absent
//! on a version listed as affected is a warning. A finding answers either
//! with `acknowledged: [{run, symptom, reason}]`; an acknowledgment that
//! answers no contradiction is a warning, so that none outlives the run it
//! answered. Takes the loaded records; hands on diagnostics, and what the
//! runs observed, for the pages a build makes.

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::load::Loaded;
use crate::record::{EngineEntry, Finding};
use crate::state::{resolve, Conflict, Seen, State};
use crate::symptoms::observed::{by_finding, AtVersion, FindingObserved, ObsRef};
use crate::symptoms::{self, Observation};
use crate::version::Version;
use std::collections::BTreeMap;

/// Every run's observations, and what they show of each finding (in the
/// loaded order).
pub(super) struct Observed {
    pub(super) runs: Vec<Vec<Observation>>,
    pub(super) findings: Vec<FindingObserved>,
}

impl Observed {
    /// Files what every run observed (`runs`, in the loaded order) under
    /// the findings.
    pub(super) fn of(loaded: &Loaded, runs: Vec<Vec<Observation>>) -> Observed {
        let findings = by_finding(&loaded.findings, &loaded.runs, &runs);
        Observed { runs, findings }
    }
}

/// The contradictions between the runs and the findings, and the
/// acknowledgments that answer none.
pub(super) fn check(
    loaded: &Loaded,
    observed: &Observed,
    names: &BTreeMap<String, String>,
    diags: &mut Diagnostics,
) {
    for (i, f) in loaded.findings.iter().enumerate() {
        let mut answered = vec![false; f.acknowledged.len()];
        for (e, versions) in &observed.findings[i] {
            let entry = &f.engines[*e];
            let engine = names.get(&entry.engine).unwrap_or(&entry.engine);
            for (v, at) in versions {
                let seen = at.seen();
                if let (_, _, Some(conflict)) = resolve(entry, v, seen) {
                    for o in conflicting(at, conflict) {
                        diags.push(contradiction(
                            loaded, observed, f, *e, engine, v, *o, conflict,
                        ));
                    }
                }
                // An acknowledged run answers a contradiction when, not
                // acknowledged, it would make one.
                for &(o, a) in &at.acknowledged {
                    let alone = match observed.runs[o.0][o.1].outcome {
                        symptoms::Outcome::Shown => Seen {
                            shown: true,
                            absent: false,
                        },
                        _ => Seen {
                            shown: false,
                            absent: true,
                        },
                    };
                    if resolve(entry, v, alone).2.is_some() {
                        answered[a] = true;
                    }
                }
            }
        }
        for (a, ack) in f.acknowledged.iter().enumerate() {
            let exists = loaded.runs.iter().any(|r| r.id == ack.run);
            if !answered[a] && exists {
                let field = format!("{}.run", ack.path_in_yaml);
                diags.push(
                    Diagnostic::warning(
                        &f.path,
                        f.spans.get(&field),
                        format!(
                            "the run \"{}\" is acknowledged, but nothing it shows contradicts F{}",
                            ack.run, f.id
                        ),
                    )
                    .field(field)
                    .hint("remove the acknowledgment"),
                );
            }
        }
    }
}

/// The observations behind a conflict: the runs that show the symptom
/// where the record calls the version clean, fixed or mitigated, or those
/// that show it absent where the record says affected.
fn conflicting(at: &AtVersion, conflict: Conflict) -> &[ObsRef] {
    match conflict {
        Conflict::ShownWhere(_) => &at.shown,
        Conflict::AbsentWhereAffected => &at.absent,
    }
}

/// The field a conflict is about: the listed version, or the bound that
/// covers it.
fn field_of(entry: &EngineEntry, e: usize, v: &Version, conflict: Conflict) -> String {
    let item = |list: &[Version], name: &str| {
        list.iter()
            .position(|x| x == v)
            .map_or(format!("engines[{e}].{name}"), |k| {
                format!("engines[{e}].{name}[{k}]")
            })
    };
    match conflict {
        Conflict::ShownWhere(State::Clean) => item(&entry.clean, "clean"),
        Conflict::ShownWhere(State::Fixed) => format!("engines[{e}].fixed_in"),
        Conflict::ShownWhere(_) => format!("engines[{e}].mitigated_in"),
        Conflict::AbsentWhereAffected => item(&entry.affected, "affected"),
    }
}

#[allow(clippy::too_many_arguments)]
fn contradiction(
    loaded: &Loaded,
    observed: &Observed,
    f: &Finding,
    e: usize,
    engine: &str,
    v: &Version,
    (r, k): ObsRef,
    conflict: Conflict,
) -> Diagnostic {
    let entry = &f.engines[e];
    let run = &loaded.runs[r];
    let o = &observed.runs[r][k];
    let field = field_of(entry, e, v, conflict);
    // The version as the record spells it where it lists it.
    let v = entry
        .affected
        .iter()
        .chain(&entry.clean)
        .find(|x| *x == v)
        .unwrap_or(v);
    let what = match conflict {
        Conflict::ShownWhere(State::Clean) => format!("lists {engine} {v} as clean"),
        Conflict::ShownWhere(State::Fixed) => format!(
            "says {engine} {v} is fixed (fixed_in: {})",
            entry
                .fixed_in
                .as_ref()
                .map_or(String::new(), ToString::to_string)
        ),
        Conflict::ShownWhere(_) => format!(
            "says {engine} {v} is mitigated (mitigated_in: {})",
            entry
                .mitigated_in
                .as_ref()
                .map_or(String::new(), ToString::to_string)
        ),
        Conflict::AbsentWhereAffected => format!("lists {engine} {v} as affected"),
    };
    let shows = match conflict {
        Conflict::AbsentWhereAffected => "shows the problem absent",
        _ => "shows the problem",
    };
    let message = format!(
        "F{} {what}, but the run \"{}\" {shows} ({}): {}",
        f.id, run.id, o.symptom, o.says
    );
    let hint = format!(
        "correct the record, or, if the run does not test what the finding says, acknowledge it: `acknowledged: [{{run: {}, reason: …}}]`",
        run.id
    );
    let d = match conflict {
        Conflict::AbsentWhereAffected => Diagnostic::warning(&f.path, f.spans.get(&field), message),
        _ => Diagnostic::error(&f.path, f.spans.get(&field), message),
    };
    d.field(field).hint(hint)
}
