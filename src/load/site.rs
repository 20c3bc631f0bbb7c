//! `site.yaml`: the site's title, address, groups, engines and page
//! settings (header engines, page and feed sizes). Takes the
//! file's text; hands on a [`Site`] with the positions of its fields, or
//! diagnostics for every field that is missing, mistyped or malformed.

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
            Some("site.yaml needs at least title, base_url, groups and engines"),
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
    let group_values = doc.req_list(obj, "groups").unwrap_or(&[]);
    let groups = doc.kept("groups", group_values, |doc, g, path| {
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
    let engine_values = doc.req_list(obj, "engines").unwrap_or(&[]);
    let engines = doc.kept("engines", engine_values, |doc, e, path| {
        let eo = doc.object(e, path, ENGINE_FIELDS)?;
        let id = slug_field(doc, eo, "id");
        let name = doc.req_string(eo, "name");
        let repo = doc.opt_string(eo, "repo");
        if let Some(r) = &repo {
            if !(r.starts_with("https://") || r.starts_with("http://")) {
                doc.error(&join(path, "repo"), format!("\"{r}\" is not an http(s) URL"));
            }
        }
        let color = doc.req_string(eo, "color");
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
        let packages = doc
            .string_list(eo, "packages")
            .iter()
            .map(|p| package_name(p))
            .collect();
        let images = doc.string_list(eo, "images");
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
        Some(Engine {
            id: id?,
            name: name?,
            repo,
            color: color?.to_ascii_lowercase(),
            releases,
            packages,
            images: images.iter().map(|i| image_repository(i)).collect(),
        })
    });
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
        spans,
    })
}

/// Reads `site.yaml` from its text, without touching the disk.
pub fn parse_site_text(text: &str) -> (Option<Site>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let s = parse_site(Path::new("site.yaml"), text, &mut diags);
    (s, diags)
}
