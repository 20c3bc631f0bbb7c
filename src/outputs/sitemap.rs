//! `sitemap.xml` and `robots.txt`.
//!
//! The sitemap lists every page of the site except redirects and the 404
//! page, with absolute URLs and, for finding pages, the date of the last
//! change. Beyond [`SITEMAP_URLS`] pages it becomes a sitemap index over
//! `sitemap-1.xml`, `sitemap-2.xml`, …. `robots.txt` lets everything be
//! crawled and names the sitemap.

use super::feed::changed;
use crate::model::Model;
use crate::record::Date;
use crate::urls;
use crate::util::escape_xml;
use std::fmt::Write as _;

/// The most URLs in one sitemap file (the sitemap protocol's limit).
pub const SITEMAP_URLS: usize = 50_000;

/// The most bytes in one sitemap file, uncompressed (the protocol's limit,
/// 50 MB).
pub const SITEMAP_BYTES: usize = 50 * 1024 * 1024;

/// The sitemap files: `(path, bytes)`. `pages` are site paths of pages.
pub fn sitemap(model: &Model, pages: &[String]) -> Vec<(String, String)> {
    sitemap_within(model, pages, SITEMAP_URLS, SITEMAP_BYTES)
}

/// [`sitemap`] with files of at most `max_urls` URLs and `max_bytes` bytes:
/// one `sitemap.xml` when every page fits, else a sitemap index there over
/// `sitemap-1.xml`, `sitemap-2.xml`, ….
fn sitemap_within(
    model: &Model,
    pages: &[String],
    max_urls: usize,
    max_bytes: usize,
) -> Vec<(String, String)> {
    const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
    const TAIL: &str = "</urlset>\n";
    let base = &model.site.base_url;
    let lastmod: std::collections::HashMap<String, Date> = model
        .findings
        .iter()
        .map(|f| (urls::finding(&f.slug), changed(f)))
        .collect();
    let mut pages: Vec<&String> = pages.iter().collect();
    pages.sort();
    pages.dedup();
    // Each page's <url> line, then files filled up to either limit.
    let mut parts: Vec<String> = Vec::new();
    let mut part = String::from(HEAD);
    let mut count = 0;
    for p in pages {
        let mut line = format!("  <url><loc>{}</loc>", escape_xml(&format!("{base}{p}")));
        if let Some(d) = lastmod.get(p.as_str()) {
            let _ = write!(line, "<lastmod>{d}</lastmod>");
        }
        line.push_str("</url>\n");
        if count > 0 && (count == max_urls || part.len() + line.len() + TAIL.len() > max_bytes) {
            part.push_str(TAIL);
            parts.push(std::mem::replace(&mut part, String::from(HEAD)));
            count = 0;
        }
        part.push_str(&line);
        count += 1;
    }
    part.push_str(TAIL);
    parts.push(part);
    if parts.len() == 1 {
        return vec![(urls::SITEMAP.to_string(), parts.remove(0))];
    }
    let mut index = String::new();
    index.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    index.push_str("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    let mut files = Vec::with_capacity(parts.len() + 1);
    for (k, part) in parts.into_iter().enumerate() {
        let name = format!("sitemap-{}.xml", k + 1);
        let _ = writeln!(
            index,
            "  <sitemap><loc>{}</loc></sitemap>",
            escape_xml(&format!("{base}{name}"))
        );
        files.push((name, part));
    }
    index.push_str("</sitemapindex>\n");
    files.insert(0, (urls::SITEMAP.to_string(), index));
    files
}

/// `robots.txt`: everything may be crawled; the sitemap is named.
pub fn robots(model: &Model) -> String {
    format!(
        "# {}\nUser-agent: *\nAllow: /\n\nSitemap: {}{}\n",
        model.site.title.replace('\n', " "),
        model.site.base_url,
        urls::SITEMAP
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundled() -> Model {
        let loaded = crate::load::load(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
        let site = loaded.site.expect("the bundled site");
        Model::build(site, loaded.findings, loaded.runs, false)
    }

    /// The `<loc>`s of an XML file, in order.
    fn locs(xml: &str) -> Vec<&str> {
        xml.split("<loc>")
            .skip(1)
            .map(|s| &s[..s.find("</loc>").unwrap()])
            .collect()
    }

    #[test]
    fn a_sitemap_splits_at_either_limit_under_an_index() {
        let model = bundled();
        let base = &model.site.base_url;
        let pages: Vec<String> = (0..7).map(|k| format!("p{k}/")).collect();
        let whole = sitemap_within(&model, &pages, 100, 1 << 20);
        assert_eq!(whole.len(), 1);
        assert_eq!(whole[0].0, "sitemap.xml");
        assert_eq!(locs(&whole[0].1).len(), 7);

        // By count: 3 + 3 + 1 URLs under an index.
        let split = sitemap_within(&model, &pages, 3, 1 << 20);
        let names: Vec<&str> = split.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "sitemap.xml",
                "sitemap-1.xml",
                "sitemap-2.xml",
                "sitemap-3.xml"
            ]
        );
        assert!(split[0].1.contains("<sitemapindex "));
        assert_eq!(
            locs(&split[0].1),
            [1, 2, 3].map(|k| format!("{base}sitemap-{k}.xml"))
        );
        let listed: Vec<String> = split[1..]
            .iter()
            .flat_map(|(_, x)| locs(x).into_iter().map(str::to_string))
            .collect();
        assert_eq!(
            listed,
            pages
                .iter()
                .map(|p| format!("{base}{p}"))
                .collect::<Vec<_>>()
        );
        assert_eq!(
            split.iter().map(|(_, x)| locs(x).len()).collect::<Vec<_>>(),
            [3, 3, 3, 1]
        );

        // By size: no file over the limit, every page in one of them.
        let limit = whole[0].1.len() / 2;
        let split = sitemap_within(&model, &pages, 100, limit);
        assert!(split.len() >= 3, "{} files", split.len());
        for (name, xml) in &split[1..] {
            assert!(xml.len() <= limit, "{name} has {} bytes", xml.len());
            assert!(xml.starts_with("<?xml") && xml.ends_with("</urlset>\n"));
        }
        let n: usize = split[1..].iter().map(|(_, x)| locs(x).len()).sum();
        assert_eq!(n, 7);
    }
}
