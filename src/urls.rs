//! The site's URL scheme, in one place.
//!
//! Every path is relative to the site root, without a leading slash, and
//! names a folder (`findings/kv-cache/`) whose `index.html` is the page, so
//! the site works on any static host, under a sub-path and from disk.
//! These paths are permanent: changing one breaks links people pasted into
//! issues, so add aliases instead.

use crate::record::{Site, Status};

/// Stands for the path from a page to the site root in every link the
/// build writes: one rendering of a body or card serves pages at any
/// depth, and the marker is replaced by the page's relative root (`../../`)
/// as the page is written (see [`root_from`]).
pub const ROOT: &str = "@@root@@/";

/// A name made safe for a URL segment: lowercase letters, digits, `.`, `-`.
pub fn segment(name: &str) -> String {
    // Most names (versions, slugs) are a segment already: lowercase
    // letters, digits, `.` and single `-` between them, not only dots.
    let mut plain = !name.is_empty();
    let (mut previous, mut dots_only) = (b'-', true);
    for b in name.bytes() {
        let ok = b.is_ascii_lowercase()
            || b.is_ascii_digit()
            || b == b'.'
            || (b == b'-' && previous != b'-');
        plain &= ok;
        dots_only &= b == b'.';
        previous = b;
    }
    if plain && previous != b'-' && !dots_only {
        return name.to_string();
    }
    slugged(name)
}

/// [`segment`], character by character.
fn slugged(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() || c == '.' {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() || out.chars().all(|c| c == '.') {
        out = "x".into();
    }
    out
}

/// A finding's page.
pub fn finding(slug: &str) -> String {
    format!("findings/{slug}/")
}

/// A finding's permanent short URL.
pub fn short(id: u32) -> String {
    format!("f/{id}/")
}

/// The engines index.
pub const ENGINES: &str = "engines/";

/// An engine's page with its version matrix.
pub fn engine(id: &str) -> String {
    format!("engines/{id}/")
}

/// One engine version's page.
pub fn version(engine: &str, version: &str) -> String {
    let version = segment(version);
    let mut out = String::with_capacity(9 + engine.len() + version.len());
    for part in ["engines/", engine, "/", &version, "/"] {
        out.push_str(part);
    }
    out
}

/// A group's page.
pub fn group(id: &str) -> String {
    format!("groups/{id}/")
}

/// The tags index.
pub const TAGS: &str = "tags/";

/// A tag's page.
pub fn tag(tag: &str) -> String {
    format!("tags/{}/", segment(tag))
}

/// The models index.
pub const MODELS: &str = "models/";

/// A model's page.
pub fn model(model: &str) -> String {
    format!("models/{}/", segment(model))
}

/// The runs index.
pub const RUNS: &str = "runs/";

/// What the runs index's filters fetch: every run's entry (a run's id has
/// no dot, so no run's folder is named so).
pub const RUNS_DATA: &str = "runs/filters.json";

/// A run's page.
pub fn run(id: &str) -> String {
    format!("runs/{id}/")
}

/// A run's published CSV file.
pub fn run_file(id: &str, file: &str) -> String {
    format!("runs/{id}/{file}")
}

/// A run table of more than this many rows is folded on the pages that
/// show it (a sample, the lowest and the highest of each column) and gets
/// pages of its own with every row ([`run_table`]).
pub const TABLE_FOLD: usize = 20;

/// The rows of a run table on each of its own pages.
pub const TABLE_PAGE_ROWS: usize = 500;

/// The first page of every row of a run's table `file` (see
/// [`TABLE_FOLD`]): `runs/<id>/tables/<file without .csv>/`.
pub fn run_table(id: &str, file: &str) -> String {
    let stem = file.strip_suffix(".csv").unwrap_or(file);
    format!("runs/{id}/tables/{}/", segment(stem))
}

/// Every page of a run table of `rows` rows, none for a table short
/// enough to be shown whole.
pub fn run_table_pages(id: &str, file: &str, rows: usize) -> Vec<String> {
    if rows <= TABLE_FOLD {
        return Vec::new();
    }
    list_pages(&run_table(id, file), rows, TABLE_PAGE_ROWS).collect()
}

/// A status's page (`open`, `fixed`, `mitigated`, `advice`).
pub fn status(status: &str) -> String {
    format!("status/{status}/")
}

/// The search page.
pub const SEARCH: &str = "search/";

/// The manifest of the search index the search page fetches.
pub const SEARCH_INDEX: &str = "search-index.json";

/// The folder of the search index's shards.
pub const SEARCH_SHARDS: &str = "search-index/";

/// The shard of the search index with `key`: its UTF-8 bytes in hex, so any
/// word makes a safe file name.
pub fn search_shard(key: &str) -> String {
    let mut name = String::with_capacity(SEARCH_SHARDS.len() + key.len() * 2 + 5);
    name.push_str(SEARCH_SHARDS);
    for b in key.bytes() {
        name.push_str(&format!("{b:02x}"));
    }
    name.push_str(".json");
    name
}

/// The folder of the search index's shards of runs and workloads.
pub const SEARCH_DOC_SHARDS: &str = "search-index/docs/";

/// The folder of the runs and workloads that search finds, a chunk of
/// them a file (`search-index/entries/<n>.json`).
pub const SEARCH_ENTRIES: &str = "search-index/entries/";

/// The shard of runs and workloads with `key` (as [`search_shard`]).
pub fn search_doc_shard(key: &str) -> String {
    let mut name = search_shard(key);
    name.replace_range(..SEARCH_SHARDS.len(), SEARCH_DOC_SHARDS);
    name
}

/// Chunk `n` of the runs and workloads search finds.
pub fn search_entries(n: usize) -> String {
    format!("{SEARCH_ENTRIES}{n}.json")
}

/// The site-wide Atom feed.
pub const FEED: &str = "atom.xml";

/// An engine's Atom feed.
pub fn engine_feed(id: &str) -> String {
    format!("engines/{id}/atom.xml")
}

/// The sitemap.
pub const SITEMAP: &str = "sitemap.xml";

/// The robots file.
pub const ROBOTS: &str = "robots.txt";

/// Every finding and run as JSON.
pub const EXPORT: &str = "findings.json";

/// One finding as JSON, by its permanent number.
pub fn finding_json(id: u32) -> String {
    format!("f/{id}.json")
}

/// A published JSON Schema (`finding`, `run`, `site`).
pub fn schema(name: &str) -> String {
    format!("schemas/{name}.schema.json")
}

/// The relative path from a page at `path` (a folder path like
/// `findings/x/`, or a file like `404.html`) back to the root.
pub fn root_from(path: &str) -> String {
    let depth = path.trim_end_matches('/').matches('/').count() + usize::from(path.ends_with('/'));
    let depth = if path.is_empty() { 0 } else { depth };
    "../".repeat(depth)
}

/// Page `n` (counted from 1) of the list at `base`: the list's own address
/// for the first page, `<base>page/<n>/` for the others.
pub fn page(base: &str, n: usize) -> String {
    if n <= 1 {
        base.to_string()
    } else {
        format!("{base}page/{n}/")
    }
}

/// How many pages a list of `entries` takes at `size` a page: at least one,
/// so an empty list still has its page.
pub fn page_count(entries: usize, size: usize) -> usize {
    entries.div_ceil(size.max(1)).max(1)
}

/// The address of every page of the list at `base`.
pub fn list_pages(base: &str, entries: usize, size: usize) -> impl Iterator<Item = String> + '_ {
    (1..=page_count(entries, size)).map(move |n| page(base, n))
}

/// The data of an engine that the browser scripts fetch (see
/// `outputs::browse`).
pub fn engine_data(id: &str) -> String {
    format!("engines/{id}/findings.json")
}

/// The group and status of every listed finding, for the home page's
/// filters (see `outputs::browse`).
pub const FILTERS: &str = "filters.json";

/// The stylesheet of highlighted code in light mode.
pub const SYNTAX_LIGHT: &str = "syntax-light.css";

/// The stylesheet of highlighted code in dark mode.
pub const SYNTAX_DARK: &str = "syntax-dark.css";

/// The output path an alias is written to: `/old/x` → `old/x/`.
pub fn alias(alias: &str) -> String {
    let a = alias.trim_start_matches('/');
    if a.is_empty() || a.ends_with('/') || a.ends_with(".html") {
        a.to_string()
    } else {
        format!("{a}/")
    }
}

/// The paths the build writes besides the pages of findings, runs,
/// engines, groups, tags and models (generated files, the search and
/// status pages, and the built-in static files), which no alias may take.
/// A file `x.json` also reserves the folder `x.json/`, where an alias
/// `/x.json` would go. Each finding's JSON file is reserved as well, by
/// [`finding_json`].
pub fn reserved(site: &Site) -> Vec<String> {
    let mut files: Vec<String> = [
        SEARCH_INDEX,
        FEED,
        SITEMAP,
        ROBOTS,
        EXPORT,
        WORKLOADS_JSON,
        FILTERS,
        SYNTAX_LIGHT,
        SYNTAX_DARK,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    files.extend(crate::assets::STATIC.iter().map(|(n, _)| n.to_string()));
    files.extend(crate::assets::SCHEMAS.iter().map(|(n, _)| schema(n)));
    files.extend(site.engines.iter().map(|e| engine_feed(&e.id)));
    files.extend(site.engines.iter().map(|e| engine_data(&e.id)));
    let mut out: Vec<String> = files.iter().map(|f| format!("{f}/")).collect();
    out.extend(files);
    out.push(SEARCH.to_string());
    out.extend(Status::ALL.iter().map(|s| status(s.as_str())));
    out
}

/// The index of the comparisons.
pub const COMPARE: &str = "compare/";

/// A comparison's page.
pub fn comparison(id: &str) -> String {
    format!("compare/{id}/")
}

/// Every changed reply of an accuracy comparison, as CSV, beside its page.
pub fn comparison_replies_csv(id: &str) -> String {
    format!("compare/{id}/changed-replies.csv")
}

/// The index of the workloads followed across versions.
pub const WORKLOADS: &str = "workloads/";

/// A workload's page.
pub fn workload(slug: &str) -> String {
    format!("workloads/{slug}/")
}

/// A workload's points as CSV, beside its page.
pub fn workload_csv(slug: &str) -> String {
    format!("workloads/{slug}/{slug}.csv")
}

/// Every workload followed across versions, its points and changes, as
/// JSON (what `findings trends --format json` prints).
pub const WORKLOADS_JSON: &str = "workloads.json";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots() {
        assert_eq!(root_from(""), "");
        assert_eq!(root_from("404.html"), "");
        assert_eq!(root_from("findings/x/"), "../../");
        assert_eq!(root_from("engines/vllm/0.30/"), "../../../");
        assert_eq!(root_from("old/page.html"), "../");
    }

    #[test]
    fn segments_that_need_no_change_are_kept() {
        for name in [
            "",
            "-",
            "--",
            "a-",
            "-a",
            "a--b",
            ".",
            "..",
            "a.",
            ".a",
            "a.-b",
            "0.32.0",
            "1.3.0rc29",
            "kv-cache",
            "x",
            "a-b-c",
            "A",
            "a_b",
            "é",
        ] {
            assert_eq!(segment(name), slugged(name), "{name:?}");
        }
    }

    #[test]
    fn segments() {
        assert_eq!(segment("Qwen3.8-27B"), "qwen3.8-27b");
        assert_eq!(segment("Qwen3-8B shapes"), "qwen3-8b-shapes");
        assert_eq!(segment("1.3.0rc29"), "1.3.0rc29");
        assert_eq!(segment(".."), "x");
    }
}
