//! The rules inside `site.yaml` on its own: no group or engine listed
//! twice, and no release listed twice within an engine.
//!
//! Takes the parsed [`Site`]; hands on one diagnostic per duplicate, placed
//! at the entry in `site.yaml`.

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::record::*;
use std::collections::HashSet;

pub(super) fn check_site(site: &Site, diags: &mut Diagnostics) {
    let file = std::path::Path::new("site.yaml");
    let mut seen = HashSet::new();
    for (i, g) in site.groups.iter().enumerate() {
        if !seen.insert(&g.id) {
            let p = format!("{}.id", site.spans.item("groups", i));
            diags.push(
                Diagnostic::error(
                    file,
                    site.spans.get(&p),
                    format!("group \"{}\" is listed twice", g.id),
                )
                .field(p),
            );
        }
    }
    let mut seen = HashSet::new();
    for (i, e) in site.engines.iter().enumerate() {
        if !seen.insert(&e.id) {
            let p = format!("{}.id", site.spans.item("engines", i));
            diags.push(
                Diagnostic::error(
                    file,
                    site.spans.get(&p),
                    format!("engine \"{}\" is listed twice", e.id),
                )
                .field(p),
            );
        }
        let list = format!("{}.releases", site.spans.item("engines", i));
        for (k, v) in e.releases.iter().enumerate() {
            if e.releases[..k].contains(v) {
                let p = site.spans.item(&list, k);
                diags.push(Diagnostic::error(file, site.spans.get(&p), format!("release \"{v}\" is listed twice (versions compare equal when only trailing zeros differ)")).field(p));
            }
        }
    }
}
