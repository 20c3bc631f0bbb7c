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

/// The sitemap files: `(path, bytes)`. `pages` are site paths of pages.
pub fn sitemap(model: &Model, pages: &[String]) -> Vec<(String, String)> {
    let base = &model.site.base_url;
    let lastmod: std::collections::HashMap<String, Date> = model
        .findings
        .iter()
        .map(|f| (urls::finding(&f.slug), changed(f)))
        .collect();
    let mut pages: Vec<&String> = pages.iter().collect();
    pages.sort();
    pages.dedup();
    let urlset = |chunk: &[&String]| {
        let mut x = String::with_capacity(chunk.len() * 96 + 256);
        x.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        x.push_str("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for p in chunk {
            let _ = write!(x, "  <url><loc>{}</loc>", escape_xml(&format!("{base}{p}")));
            if let Some(d) = lastmod.get(p.as_str()) {
                let _ = write!(x, "<lastmod>{d}</lastmod>");
            }
            x.push_str("</url>\n");
        }
        x.push_str("</urlset>\n");
        x
    };
    if pages.len() <= SITEMAP_URLS {
        return vec![(urls::SITEMAP.to_string(), urlset(&pages))];
    }
    let mut files = Vec::new();
    let mut index = String::new();
    index.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    index.push_str("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for (k, chunk) in pages.chunks(SITEMAP_URLS).enumerate() {
        let name = format!("sitemap-{}.xml", k + 1);
        let _ = writeln!(
            index,
            "  <sitemap><loc>{}</loc></sitemap>",
            escape_xml(&format!("{base}{name}"))
        );
        files.push((name, urlset(chunk)));
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
