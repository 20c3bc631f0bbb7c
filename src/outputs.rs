//! What the build writes besides pages: the search index ([`crate::search`]),
//! Atom feeds, sitemap and robots file ([`crate::feed`]), the JSON export
//! ([`crate::export`]) and the JSON Schemas of the record files; plus the
//! small pieces of page data the browser scripts read (home filters, the
//! "your version" box on engine pages).
//!
//! `render` calls [`write`] once, before the pages, with the text it already
//! made of each finding ([`FindingText`]), so nothing is rendered twice; and
//! [`write_sitemaps`] after them.

use crate::model::{EngineIndex, Model};
use crate::record::{EngineEntry, Status};
use crate::sink::WriteError;
use crate::urls;
use crate::write::Staging;
use serde::Serialize;

/// What `render` already made of one finding, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct FindingText<'a> {
    /// The title without formatting.
    pub title_text: &'a str,
    /// The summary (or first paragraph) without formatting.
    pub summary_text: &'a str,
    /// The summary as inline HTML.
    pub summary_html: &'a str,
    /// The search index's `terms` of the finding (see [`crate::search`]).
    pub search_terms: &'a str,
    /// The search index's `words` of the finding, from its body.
    pub search_words: &'a str,
    /// Under a memo, a hash of everything but the body (0 otherwise): what
    /// the export shows of the finding.
    pub list_hash: u64,
}

/// The description of a finding for link previews and feeds: its advice,
/// then its summary.
pub fn description(advice: &str, summary: &str) -> String {
    let advice = advice.trim_end();
    let sep = if advice.ends_with(['.', '!', '?', ':']) {
        " "
    } else {
        ". "
    };
    if summary.is_empty() {
        advice.to_string()
    } else {
        format!("{advice}{sep}{summary}")
    }
}

/// Collects the pages of a build that belong in the sitemap (all but
/// redirects and the 404 page) while they render, from any thread.
#[derive(Debug, Default)]
pub struct Sitemap(std::sync::Mutex<Vec<String>>);

impl Sitemap {
    /// Notes a page rendered with `template` at `path`.
    pub fn note(&self, template: &str, path: &str) {
        if template != "redirect.html" && template != "404.html" {
            if let Ok(mut v) = self.0.lock() {
                v.push(path.to_string());
            }
        }
    }

    /// The pages noted, sorted.
    pub fn pages(&self) -> Vec<String> {
        let mut v = self.0.lock().map(|v| v.clone()).unwrap_or_default();
        v.sort();
        v
    }
}

/// Writes everything of this module's list but the sitemap (see
/// [`write_sitemaps`]) into `staging`; returns how many files it wrote.
pub fn write(
    model: &Model,
    texts: &[FindingText<'_>],
    staging: &Staging,
    memo: &crate::render::Memo,
) -> Result<usize, WriteError> {
    let write_single = |path: &str, bytes: &[u8]| staging.write(path, bytes);
    // The search index and the JSON export are streamed into their files
    // (see `Staging::write_with`).
    let ((index, export), feeds) = rayon::join(
        || {
            rayon::join(
                || {
                    staging.write_with(urls::SEARCH_INDEX, |out| {
                        crate::search::index(model, texts, out)
                    })
                },
                || {
                    staging.write_with(urls::EXPORT, |out| {
                        crate::export::files(model, texts, memo, &write_single, out)
                    })
                },
            )
        },
        || {
            let mut feeds = vec![(
                urls::FEED.to_string(),
                crate::feed::atom(model, texts, None, memo),
            )];
            for e in &model.site.engines {
                feeds.push((
                    urls::engine_feed(&e.id),
                    crate::feed::atom(model, texts, Some(&e.id), memo),
                ));
            }
            feeds
        },
    );
    let mut n = 0;
    index?;
    export?;
    n += 2 + model.findings.len();
    for (path, text) in &feeds {
        staging.write(path, text.as_bytes())?;
        n += 1;
    }
    staging.write(urls::ROBOTS, crate::feed::robots(model).as_bytes())?;
    n += 1;
    for (name, text) in crate::assets::SCHEMAS {
        staging.write(&urls::schema(name), text.as_bytes())?;
        n += 1;
    }
    Ok(n)
}

/// Writes the sitemap of `pages` (one file, or an index and its parts for
/// a big site), once every page is rendered.
pub fn write_sitemaps(
    model: &Model,
    pages: &[String],
    staging: &Staging,
) -> Result<usize, WriteError> {
    let sitemaps = crate::feed::sitemap(model, pages);
    for (path, text) in &sitemaps {
        staging.write(path, text.as_bytes())?;
    }
    Ok(sitemaps.len())
}

/// The heading and explanation of each status page.
pub fn status_text(s: Status) -> (&'static str, &'static str) {
    match s {
        Status::Open => (
            "Open",
            "The problem is still present in the newest version tested.",
        ),
        Status::Fixed => ("Fixed", "A release fixes the problem."),
        Status::Mitigated => (
            "Mitigated",
            "A default or a flag avoids the problem; it may remain reachable.",
        ),
        Status::Advice => ("Advice", "Pitfalls in method rather than engine bugs."),
    }
}

/// Listed findings with status `s`, by id.
pub fn with_status(model: &Model, s: Status) -> Vec<usize> {
    model
        .listed()
        .filter(|&i| model.findings[i].status == s)
        .collect()
}

/// An engine entry as the browser scripts read it (`static/versions.js`,
/// `entry()`): version strings, empty fields left out.
#[derive(Serialize)]
struct EntryJson<'a> {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    affected: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    clean: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    introduced_in: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed_in: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mitigated_in: Option<&'a str>,
}

impl<'a> EntryJson<'a> {
    fn of(e: &'a EngineEntry) -> EntryJson<'a> {
        EntryJson {
            affected: e.affected.iter().map(|v| v.as_str()).collect(),
            clean: e.clean.iter().map(|v| v.as_str()).collect(),
            introduced_in: e.introduced_in.as_ref().map(|v| v.as_str()),
            fixed_in: e.fixed_in.as_ref().map(|v| v.as_str()),
            mitigated_in: e.mitigated_in.as_ref().map(|v| v.as_str()),
        }
    }
}

#[derive(Serialize)]
struct VersionJson<'a> {
    v: &'a str,
    url: String,
}

/// The filter bar of the home page: engines with their versions, groups and
/// statuses, each with the page that lists it (the filter without JS).
pub fn home_filters(model: &Model) -> serde_json::Value {
    use crate::urls::ROOT;
    let site = &model.site;
    let engines: Vec<serde_json::Value> = model
        .engines
        .iter()
        .map(|ix: &EngineIndex| {
            let e = &site.engines[ix.engine];
            serde_json::json!({
                "id": e.id, "name": e.name, "color": e.color,
                "url": format!("{ROOT}{}", urls::engine(&e.id)),
                "count": ix.findings.len(),
                "versions": ix.versions.iter().map(|v| serde_json::json!({
                    "version": v.as_str(),
                    "url": format!("{ROOT}{}", urls::version(&e.id, v.as_str())),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let groups: Vec<serde_json::Value> = site
        .groups
        .iter()
        .zip(&model.groups)
        .map(|(g, idx)| {
            serde_json::json!({
                "id": g.id, "title": g.title, "count": idx.len(),
                "url": format!("{ROOT}{}", urls::group(&g.id)),
            })
        })
        .collect();
    let statuses: Vec<serde_json::Value> = Status::ALL
        .iter()
        .map(|&s| {
            serde_json::json!({
                "id": s.as_str(), "title": status_text(s).0,
                "count": with_status(model, s).len(),
                "url": format!("{ROOT}{}", urls::status(s.as_str())),
            })
        })
        .collect();
    serde_json::json!({ "engines": engines, "groups": groups, "statuses": statuses })
}

/// The engine entries of every listed finding, for the home page's version
/// filter: `{"<id>": {"<engine>": entry}}`, script-safe.
pub fn home_entries(model: &Model) -> String {
    let mut map: std::collections::BTreeMap<u32, std::collections::BTreeMap<&str, EntryJson<'_>>> =
        std::collections::BTreeMap::new();
    for i in model.listed() {
        let f = &model.findings[i];
        map.insert(
            f.id,
            f.engines
                .iter()
                .map(|e| (e.engine.as_str(), EntryJson::of(e)))
                .collect(),
        );
    }
    crate::util::script_json(&map)
}

#[derive(Serialize)]
struct EngineFinding<'a> {
    id: u32,
    url: String,
    title: String,
    advice: &'a str,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    entry: EntryJson<'a>,
}

/// The data of an engine page's "your version" box: the engine, its known
/// versions with their pages, and each listed finding's entry. URLs are
/// relative to the site root. Script-safe.
pub fn engine_data(model: &Model, ix: &EngineIndex) -> String {
    let e = &model.site.engines[ix.engine];
    let versions: Vec<VersionJson<'_>> = ix
        .versions
        .iter()
        .map(|v| VersionJson {
            v: v.as_str(),
            url: urls::version(&e.id, v.as_str()),
        })
        .collect();
    let findings: Vec<EngineFinding<'_>> = ix
        .findings
        .iter()
        .filter_map(|&i| {
            let f = &model.findings[i];
            let entry = f.engines.iter().find(|x| x.engine == e.id)?;
            Some(EngineFinding {
                id: f.id,
                url: urls::finding(&f.slug),
                title: crate::markdown::plain_text(&f.title),
                advice: &f.advice,
                status: f.status.as_str(),
                note: entry.note.as_deref(),
                entry: EntryJson::of(entry),
            })
        })
        .collect();
    crate::util::script_json(&serde_json::json!({
        "engine": {"id": e.id, "name": e.name},
        "versions": versions,
        "findings": findings,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_join_advice_and_summary() {
        assert_eq!(description("Pin it", "It moved."), "Pin it. It moved.");
        assert_eq!(description("Pin it!", "It moved."), "Pin it! It moved.");
        assert_eq!(description("Pin it", ""), "Pin it");
    }
}
