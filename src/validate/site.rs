//! The rules inside `site.yaml` on its own: no group or engine listed
//! twice, no release listed twice within an engine, no engine id the site's
//! own pages take, and header engines (`nav_engines`) that exist, once
//! each, at most a handful.
//!
//! Takes the parsed [`Site`]; hands on one diagnostic per duplicate, placed
//! at the entry in `site.yaml`.

use super::hints::{Hints, Known};
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
        if e.id == RESERVED_ENGINE_ID {
            let p = format!("{}.id", site.spans.item("engines", i));
            diags.push(
                Diagnostic::error(
                    file,
                    site.spans.get(&p),
                    format!("engine id \"{RESERVED_ENGINE_ID}\" is taken by the site's own pages"),
                )
                .field(p)
                .hint("/engines/page/2/ and on are the later pages of the engines list; give the engine another id"),
            );
        }
        let list = format!("{}.releases", site.spans.item("engines", i));
        let mut releases = HashSet::new();
        for (k, v) in e.releases.iter().enumerate() {
            if !releases.insert(v) {
                let p = site.spans.item(&list, k);
                diags.push(Diagnostic::error(file, site.spans.get(&p), format!("release \"{v}\" is listed twice (versions compare equal when only trailing zeros differ)")).field(p));
            }
        }
    }
    // A package or an image names one engine, or audit could not tell which.
    let mut owners: std::collections::HashMap<(&str, &str), &str> = Default::default();
    for (i, e) in site.engines.iter().enumerate() {
        for (field, names) in [("packages", &e.packages), ("images", &e.images)] {
            for (k, name) in names.iter().enumerate() {
                if let Some(other) = owners.insert((field, name.as_str()), e.id.as_str()) {
                    let p = site
                        .spans
                        .item(&format!("{}.{field}", site.spans.item("engines", i)), k);
                    let (message, hint) = if other == e.id {
                        (
                            format!("\"{name}\" is listed twice"),
                            "names compare as pip and Docker compare them: case, `-`, `_` and `.` in a package, and an image's docker.io/ and library/, make no difference",
                        )
                    } else {
                        (
                            format!("\"{name}\" is also in the {field} of engine \"{other}\""),
                            "each package and image belongs to one engine, so findings audit can tell which engine a pin is",
                        )
                    };
                    diags.push(
                        Diagnostic::error(file, site.spans.get(&p), message)
                            .field(p)
                            .hint(hint),
                    );
                }
            }
        }
    }
    let ids = Known::new(site.engines.iter().map(|e| e.id.as_str()));
    let mut hints = Hints::new();
    let mut seen = HashSet::new();
    for (i, id) in site.nav_engines.iter().enumerate() {
        let p = site.spans.item("nav_engines", i);
        let at = site.spans.get(&p);
        if !ids.contains(id) {
            diags.push(
                Diagnostic::error(file, at, format!("unknown engine \"{id}\""))
                    .field(p)
                    .hint(hints.suggest(id, &ids, "engines")),
            );
        } else if !seen.insert(id) {
            diags.push(
                Diagnostic::error(file, at, format!("engine \"{id}\" is listed twice")).field(p),
            );
        }
    }
    if site.nav_engines.len() > MAX_NAV_ENGINES {
        diags.push(
            Diagnostic::error(
                file,
                site.spans.get("nav_engines"),
                format!(
                    "the header can name at most {MAX_NAV_ENGINES} engines; {} are listed",
                    site.nav_engines.len()
                ),
            )
            .field("nav_engines")
            .hint("name the engines most readers look for; the header's Engines link leads to all of them"),
        );
    }
}

/// The one engine id the site's own pages take: the engines list's later
/// pages are `/engines/page/2/` and on.
const RESERVED_ENGINE_ID: &str = "page";
