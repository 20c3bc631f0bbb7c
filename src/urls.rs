//! The site's URL scheme, in one place.
//!
//! Every path is relative to the site root, without a leading slash, and
//! names a folder (`findings/kv-cache/`) whose `index.html` is the page, so
//! the site works on any static host, under a sub-path and from disk.
//! These paths are permanent: changing one breaks links people pasted into
//! issues, so add aliases instead.

/// A name made safe for a URL segment: lowercase letters, digits, `.`, `-`.
pub fn segment(name: &str) -> String {
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
    format!("engines/{engine}/{}/", segment(version))
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

/// A run's page.
pub fn run(id: &str) -> String {
    format!("runs/{id}/")
}

/// A run's published CSV file.
pub fn run_file(id: &str, file: &str) -> String {
    format!("runs/{id}/{file}")
}

/// A status's page (`open`, `fixed`, `mitigated`, `advice`).
pub fn status(status: &str) -> String {
    format!("status/{status}/")
}

/// The search page.
pub const SEARCH: &str = "search/";

/// The search index the search page fetches.
pub const SEARCH_INDEX: &str = "search-index.json";

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
    fn segments() {
        assert_eq!(segment("Qwen3.8-27B"), "qwen3.8-27b");
        assert_eq!(segment("Qwen3-8B shapes"), "qwen3-8b-shapes");
        assert_eq!(segment("1.3.0rc29"), "1.3.0rc29");
        assert_eq!(segment(".."), "x");
    }
}
