//! `site.yaml`: the site's title, address, groups, engines and page
//! settings (header engines, page and feed sizes). Takes the
//! file's text; hands on a [`Site`] with the positions of its fields, or
//! diagnostics for every field that is missing, mistyped or malformed.
//! What the file leaves out is filled from `defaults.rs`: the standard
//! groups, a known engine's name, address, packages and images, and the
//! palette's colours.

use super::defaults::{
    fill_colors, known_engine, standard_groups, ColorChoice, KNOWN_ENGINES, PALETTE,
};
use super::fields::{join, slug_field, Doc};
use super::yaml::parse_yaml;
use super::{ENGINE_FIELDS, GROUP_FIELDS, SITE_FIELDS};
use crate::diagnostics::Diagnostics;
use crate::record::{
    image_repository, package_name, Engine, Group, Site, DEFAULT_FEED_ENTRIES,
    DEFAULT_HOME_ENTRIES, DEFAULT_PAGE_SIZE,
};
use std::path::Path;

pub(super) fn parse_site(file: &Path, text: &str, diags: &mut Diagnostics) -> Option<Site> {
    let (value, spans, raw) = parse_yaml(file, text, 1, diags)?;
    let mut doc = Doc::new(file, &spans, &raw, diags);
    if value.is_null() {
        doc.error_hint(
            "",
            "the file is empty",
            Some("site.yaml needs at least title, base_url and engines"),
        );
        return None;
    }
    let obj = doc.object(&value, "", SITE_FIELDS)?;
    let title = doc.req_string(obj, "title");
    let base_url = doc.req_string(obj, "base_url");
    if let Some(u) = &base_url {
        if !(u.starts_with("http://") || u.starts_with("https://")) {
            doc.error_hint(
                "base_url",
                format!("\"{u}\" is not an http(s) URL"),
                Some("write the full address, e.g. https://example.org/findings/"),
            );
        }
    }
    let description = doc.opt_string(obj, "description");
    let author = doc.opt_string(obj, "author");
    // Left out (not `groups: []`), the four standard groups.
    let default_groups = doc.get(obj, "groups").is_none();
    let group_values = doc.list(obj, "groups");
    let mut groups = doc.kept("groups", group_values, |doc, g, path| {
        let go = doc.object(g, path, GROUP_FIELDS)?;
        let id = slug_field(doc, go, "id");
        let title = doc.req_string(go, "title");
        let blurb = doc.opt_string(go, "blurb");
        Some(Group {
            id: id?,
            title: title?,
            blurb,
        })
    });
    if default_groups {
        groups = standard_groups();
    }
    let engine_values = doc.req_list(obj, "engines").unwrap_or(&[]);
    let mut ids = std::collections::HashSet::new();
    let engines = doc.kept("engines", engine_values, |doc, e, path| {
        let eo = doc.object(e, path, ENGINE_FIELDS)?;
        let id = slug_field(doc, eo, "id");
        // An engine known by its id gets what the entry leaves out (its
        // first entry: a second is an error of its own, not twice the
        // packages).
        let known = id
            .as_deref()
            .filter(|id| ids.insert(id.to_string()))
            .and_then(known_engine);
        let name = match (doc.get(eo, "name"), known) {
            (None, Some(k)) => Some(k.name.to_string()),
            (None, None) => {
                let known = KNOWN_ENGINES.iter().map(|k| k.id).collect::<Vec<_>>();
                doc.error_hint(
                    path,
                    "missing required field `name`",
                    Some(format!(
                        "add `name:` with the name readers see; only the engines findings knows by id ({}) have one without it",
                        known.join(", ")
                    )),
                );
                None
            }
            (Some(_), _) => doc.req_string(eo, "name"),
        };
        let repo = match (doc.get(eo, "repo"), known) {
            (None, Some(k)) => Some(k.repo.to_string()),
            _ => doc.opt_string(eo, "repo"),
        };
        if let Some(r) = &repo {
            if !(r.starts_with("https://") || r.starts_with("http://")) {
                doc.error(&join(path, "repo"), format!("\"{r}\" is not an http(s) URL"));
            }
        }
        // Left out, a colour of the palette, given below once every
        // engine's own is known.
        let color = doc.opt_string(eo, "color");
        if let Some(c) = &color {
            let ok =
                c.len() == 7 && c.starts_with('#') && c[1..].bytes().all(|b| b.is_ascii_hexdigit());
            if !ok {
                doc.error_hint(
                    &join(path, "color"),
                    format!("\"{c}\" is not a colour of the form #rrggbb"),
                    Some("write six hex digits after #, e.g. \"#0072b2\" (quoted: YAML reads # as a comment)"),
                );
            }
        }
        let releases = doc.version_list(eo, "releases");
        let default_packages = known.filter(|_| doc.get(eo, "packages").is_none());
        let packages = match default_packages {
            Some(k) => k.package_names(),
            None => doc
                .string_list(eo, "packages")
                .iter()
                .map(|p| package_name(p))
                .collect(),
        };
        let default_images = known.filter(|_| doc.get(eo, "images").is_none());
        let images = match default_images {
            Some(k) => k.images.iter().map(|i| i.to_string()).collect(),
            None => doc.string_list(eo, "images"),
        };
        for (k, image) in images.iter().enumerate() {
            // A registry may have a port (`host:5000/repo`); a tag is a
            // colon in the last segment.
            let last = image.rsplit('/').next().unwrap_or("");
            if image.contains(['@', ' ', '\t']) {
                doc.error_hint(
                    &format!("{}[{k}]", join(path, "images")),
                    format!("\"{image}\" is not an image repository"),
                    Some("write the repository without tag or digest, e.g. vllm/vllm-openai"),
                );
            } else if last.contains(':') {
                doc.error_hint(
                    &format!("{}[{k}]", join(path, "images")),
                    format!("\"{image}\" has a tag"),
                    Some("write the repository without its tag: findings audit reads the tag as the version"),
                );
            }
        }
        Some((
            Engine {
                id: id?,
                name: name?,
                repo,
                // Empty: the palette's, below.
                color: color.unwrap_or_default().to_ascii_lowercase(),
                releases,
                packages,
                images: images.iter().map(|i| image_repository(i)).collect(),
            },
            path.to_string(),
            (default_packages.is_some(), default_images.is_some()),
        ))
    });
    let paths: Vec<String> = engines.iter().map(|r| r.1.clone()).collect();
    let defaulted: Vec<(bool, bool)> = engines.iter().map(|r| r.2).collect();
    let mut engines: Vec<Engine> = engines.into_iter().map(|r| r.0).collect();
    drop_written_elsewhere(&mut engines, &defaulted);
    for (choice, (e, path)) in fill_colors(&mut engines)
        .iter()
        .zip(engines.iter().zip(&paths))
    {
        if *choice == ColorChoice::Repeated {
            doc.warning_hint(
                path,
                format!(
                    "engine \"{}\" has no `color`, and the palette's {} colours are taken: it is drawn in {}, as another engine is",
                    e.id,
                    PALETTE.len(),
                    e.color
                ),
                Some("give it a `color` of its own (\"#rrggbb\"), so that charts tell the two apart"),
            );
        }
    }
    let nav_engines = doc.string_list(obj, "nav_engines");
    let mut count = |key: &str, default: usize, max: usize| -> usize {
        let Some(v) = doc.get(obj, key) else {
            return default;
        };
        match doc.positive_int(v, key) {
            Some(n) if n as usize <= max => n as usize,
            Some(n) => {
                doc.error_hint(
                    key,
                    format!("{n} is more than {max}"),
                    Some("a page or feed that long is slow to load; pick a smaller number"),
                );
                default
            }
            None => default,
        }
    };
    let page_size = count("page_size", DEFAULT_PAGE_SIZE, 500);
    let home_entries = count("home_entries", DEFAULT_HOME_ENTRIES, 100);
    let feed_entries = count("feed_entries", DEFAULT_FEED_ENTRIES, 1000);
    let compare = super::compare::read(&mut doc, obj, super::compare::Owner::Site);
    let ids: Vec<&str> = engines.iter().map(|e| e.id.as_str()).collect();
    let noise = super::noise::read(&mut doc, obj, &ids);
    let items = doc.finish();
    let mut spans = spans;
    for (list, at) in items {
        spans.set_items(list, at);
    }
    let (title, base_url) = (title?, base_url?);
    let base_url = if base_url.ends_with('/') {
        base_url
    } else {
        format!("{base_url}/")
    };
    Some(Site {
        content_hash: crate::util::hash_of(text),
        title,
        base_url,
        description,
        author,
        groups,
        engines,
        nav_engines,
        page_size,
        home_entries,
        feed_entries,
        compare,
        noise,
        spans,
    })
}

/// A default package or image that an entry names in its own `packages`
/// or `images` belongs to that entry: the default gives it up, so that a
/// default never makes a site invalid (each package and image belongs to
/// one engine).
fn drop_written_elsewhere(engines: &mut [Engine], defaulted: &[(bool, bool)]) {
    use std::collections::HashSet;
    let mut packages = HashSet::new();
    let mut images = HashSet::new();
    for (e, (p, i)) in engines.iter().zip(defaulted) {
        if !p {
            packages.extend(e.packages.iter().cloned());
        }
        if !i {
            images.extend(e.images.iter().cloned());
        }
    }
    for (e, (p, i)) in engines.iter_mut().zip(defaulted) {
        if *p {
            e.packages.retain(|x| !packages.contains(x));
        }
        if *i {
            e.images.retain(|x| !images.contains(x));
        }
    }
}

/// Reads `site.yaml` from its text, without touching the disk.
pub fn parse_site_text(text: &str) -> (Option<Site>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let s = parse_site(Path::new("site.yaml"), text, &mut diags);
    (s, diags)
}
