//! The names of checks records give: a finding's `checks` (the checks that
//! carry its advice) and a run's `acknowledged` (the checks it breaks on
//! purpose, each with its reason). An unknown name is an error at the item,
//! with the nearest known name as a hint. Takes a document being read;
//! hands back the names and acknowledgments that read.

use super::fields::{join, Doc, Obj};
use super::suggest::did_you_mean;
use super::ACK_FIELDS;
use crate::record::Acknowledgment;

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
