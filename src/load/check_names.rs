//! The names of checks and symptoms records give: a finding's `checks` (the
//! checks that carry its advice) and `symptoms` (what shows its problem in
//! a run), a run's `acknowledged` (the checks it breaks on purpose, each
//! with its reason) and a finding's `acknowledged` (the runs whose
//! observations contradict it, each with the reason the record stands). An
//! unknown name is an error at the item, with the nearest known name as a
//! hint. Takes a document being read; hands back the names and
//! acknowledgments that read.

use super::fields::{join, Doc, Obj};
use super::suggest::did_you_mean;
use super::{ACK_FIELDS, RUN_ACK_FIELDS};
use crate::record::{Acknowledgment, RunAcknowledgment};

/// The check names of list `key` of `obj`, each a known check.
pub(super) fn check_list(doc: &mut Doc<'_>, obj: Obj<'_>, key: &str) -> Vec<String> {
    let path = join(obj.path(), key);
    let items = doc.list(obj, key);
    doc.kept(&path, items, |doc, v, p| {
        let name = doc.string(v, p)?;
        known(doc, p, &name).then_some(name)
    })
}

/// A run's `acknowledged`: `{check, reason}` items.
pub(super) fn acknowledged(doc: &mut Doc<'_>, obj: Obj<'_>) -> Vec<Acknowledgment> {
    let mut out = Vec::new();
    for (i, a) in doc.list(obj, "acknowledged").iter().enumerate() {
        let path = format!("acknowledged[{i}]");
        let Some(ao) = doc.object(a, &path, ACK_FIELDS) else {
            continue;
        };
        let check = doc.req_string(ao, "check");
        let reason = doc.req_string(ao, "reason");
        let (Some(check), Some(reason)) = (check, reason) else {
            continue;
        };
        if !known(doc, &join(&path, "check"), &check) {
            continue;
        }
        if out.iter().any(|o: &Acknowledgment| o.check == check) {
            doc.error_hint(
                &join(&path, "check"),
                format!("the check \"{check}\" is acknowledged twice"),
                Some("give one reason per check"),
            );
            continue;
        }
        out.push(Acknowledgment {
            check,
            reason,
            path_in_yaml: path,
        });
    }
    out
}

/// Whether `name` is a check; reports it at `path` when not.
fn known(doc: &mut Doc<'_>, path: &str, name: &str) -> bool {
    let names = crate::checks::names();
    if names.contains(&name) {
        return true;
    }
    let hint = match did_you_mean(name, &names) {
        Some(near) => format!("did you mean \"{near}\"? (checks: {})", names.join(", ")),
        None => format!("the checks are {} (docs/checks.md)", names.join(", ")),
    };
    doc.error_hint(path, format!("there is no check \"{name}\""), Some(&hint));
    false
}

/// The symptom names of list `key` of `obj`, each a known symptom.
pub(super) fn symptom_list(doc: &mut Doc<'_>, obj: Obj<'_>, key: &str) -> Vec<String> {
    let path = join(obj.path(), key);
    let items = doc.list(obj, key);
    let mut seen: Vec<String> = Vec::new();
    doc.kept(&path, items, |doc, v, p| {
        let name = doc.string(v, p)?;
        if !known_symptom(doc, p, &name) {
            return None;
        }
        if seen.contains(&name) {
            doc.error_hint(
                p,
                format!("the symptom \"{name}\" is named twice"),
                Some("name each symptom once"),
            );
            return None;
        }
        seen.push(name.clone());
        Some(name)
    })
}

/// A finding's `acknowledged`: `{run, symptom, reason}` items, the symptom
/// one of the finding's own (`symptoms`) when given.
pub(super) fn run_acknowledged(
    doc: &mut Doc<'_>,
    obj: Obj<'_>,
    symptoms: &[String],
) -> Vec<RunAcknowledgment> {
    let mut out: Vec<RunAcknowledgment> = Vec::new();
    for (i, a) in doc.list(obj, "acknowledged").iter().enumerate() {
        let path = format!("acknowledged[{i}]");
        let Some(ao) = doc.object(a, &path, RUN_ACK_FIELDS) else {
            continue;
        };
        let run = doc.req_string(ao, "run");
        let symptom = doc.opt_string(ao, "symptom");
        let reason = doc.req_string(ao, "reason");
        let (Some(run), Some(reason)) = (run, reason) else {
            continue;
        };
        if let Some(s) = &symptom {
            let at = join(&path, "symptom");
            if !known_symptom(doc, &at, s) {
                continue;
            }
            if !symptoms.contains(s) {
                doc.error_hint(
                    &at,
                    format!("the symptom \"{s}\" is not one of this finding's `symptoms`"),
                    Some(&if symptoms.is_empty() {
                        "name it in `symptoms` first".to_string()
                    } else {
                        format!("this finding names {}", symptoms.join(", "))
                    }),
                );
                continue;
            }
        }
        if out.iter().any(|o| o.run == run && o.symptom == symptom) {
            doc.error_hint(
                &join(&path, "run"),
                format!("the run \"{run}\" is acknowledged twice"),
                Some("give one reason per run and symptom"),
            );
            continue;
        }
        out.push(RunAcknowledgment {
            run,
            symptom,
            reason,
            path_in_yaml: path,
        });
    }
    out
}

/// Whether `name` is a symptom; reports it at `path` when not.
fn known_symptom(doc: &mut Doc<'_>, path: &str, name: &str) -> bool {
    let names = crate::symptoms::names();
    if names.contains(&name) {
        return true;
    }
    let hint = match did_you_mean(name, &names) {
        Some(near) => format!("did you mean \"{near}\"? (symptoms: {})", names.join(", ")),
        None => format!("the symptoms are {} (docs/symptoms.md)", names.join(", ")),
    };
    doc.error_hint(path, format!("there is no symptom \"{name}\""), Some(&hint));
    false
}
