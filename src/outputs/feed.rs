//! Atom feeds.
//!
//! Two kinds of feed: `atom.xml` for the whole site and
//! `engines/<id>/atom.xml` for the findings that name one engine. Entries are
//! listed findings, newest first by `updated` (or `published` when never
//! updated), at most `feed_entries` of them (`site.yaml`, 50 unless it
//! says otherwise), so a feed weighs the same for 20 findings or 10,000.
//! Each entry carries the advice and status, the summary, the "What to do"
//! section and a link to the whole finding, not the whole body: a reader
//! sees what to do, and the page has the rest. Every date comes from the
//! records, never from the clock, so the same folder gives the same bytes.
//! Entry ids are the findings' permanent addresses (`/f/<id>/`), so a feed
//! reader keeps an entry as the same one across renames.

use crate::model::Model;
use crate::record::{Date, Finding};
use crate::render::cards::{description, FindingText};
use crate::render::reuse::Reuse;
use crate::urls;
use crate::urls::ROOT;
use crate::util::escape_xml;
use std::fmt::Write as _;

/// An RFC 3339 timestamp for a record date: midnight UTC.
fn stamp(d: Date) -> String {
    format!("{d}T00:00:00Z")
}

/// The date a finding last changed.
pub fn changed(f: &Finding) -> Date {
    f.updated.unwrap_or(f.published)
}

/// Listed findings, newest change first (then highest number first), at
/// most `feed_entries`; only those naming `engine` when given.
pub fn entries(model: &Model, engine: Option<&str>) -> Vec<usize> {
    let mut idx: Vec<usize> = model
        .listed()
        .filter(|&i| engine.is_none_or(|e| model.findings[i].engines.iter().any(|x| x.engine == e)))
        .collect();
    idx.sort_by(|&a, &b| {
        let (fa, fb) = (&model.findings[a], &model.findings[b]);
        changed(fb).cmp(&changed(fa)).then(fb.id.cmp(&fa.id))
    });
    idx.truncate(model.site.feed_entries);
    idx
}

/// The Atom feed of the whole site (`engine` None) or of one engine.
pub(crate) fn atom(
    model: &Model,
    texts: &[FindingText<'_>],
    engine: Option<&str>,
    reuse: &Reuse<'_>,
) -> String {
    let site = &model.site;
    let base = &site.base_url;
    let (path, title, subtitle, alternate) = match engine {
        None => (
            urls::FEED.to_string(),
            site.title.clone(),
            site.description.clone(),
            base.clone(),
        ),
        Some(id) => {
            let name = site
                .engines
                .iter()
                .find(|e| e.id == id)
                .map_or(id, |e| e.name.as_str());
            (
                urls::engine_feed(id),
                format!("{}: {name}", site.title),
                Some(format!("Findings that concern {name}")),
                format!("{base}{}", urls::engine(id)),
            )
        }
    };
    let self_url = format!("{base}{path}");
    let idx = entries(model, engine);
    // The feed changed when its newest entry did; an empty feed has a fixed date.
    let updated = idx.first().map_or_else(
        || "1970-01-01T00:00:00Z".to_string(),
        |&i| stamp(changed(&model.findings[i])),
    );

    let mut x = String::with_capacity(4096 + idx.len() * 4096);
    x.push_str("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    x.push_str("<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
    let _ = writeln!(x, "  <title>{}</title>", escape_xml(&title));
    if let Some(s) = subtitle {
        let _ = writeln!(x, "  <subtitle>{}</subtitle>", escape_xml(&s));
    }
    let _ = writeln!(x, "  <id>{}</id>", escape_xml(&self_url));
    let _ = writeln!(
        x,
        "  <link rel=\"self\" type=\"application/atom+xml\" href=\"{}\"/>",
        escape_xml(&self_url)
    );
    let _ = writeln!(
        x,
        "  <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>",
        escape_xml(&alternate)
    );
    let _ = writeln!(x, "  <updated>{updated}</updated>");
    let _ = writeln!(
        x,
        "  <author><name>{}</name></author>",
        escape_xml(&site.title)
    );
    x.push_str("  <generator>findings</generator>\n");
    for &i in &idx {
        // An entry is made of the finding's file and what every page reads.
        let e = reuse.piece(("feed entry", model.findings[i].content_hash), || {
            let mut e = String::new();
            entry(&mut e, model, i, &texts[i], reuse);
            e.into_bytes()
        });
        x.push_str(std::str::from_utf8(&e).unwrap_or_default());
    }
    x.push_str("</feed>\n");
    x
}

fn entry(x: &mut String, model: &Model, i: usize, t: &FindingText<'_>, reuse: &Reuse<'_>) {
    let f = &model.findings[i];
    let base = &model.site.base_url;
    let page = format!("{base}{}", urls::finding(&f.slug));
    x.push_str("  <entry>\n");
    let _ = writeln!(
        x,
        "    <title>{}</title>",
        escape_xml(&format!("F{}: {}", f.id, t.title_text))
    );
    let _ = writeln!(
        x,
        "    <id>{}</id>",
        escape_xml(&format!("{base}{}", urls::short(f.id)))
    );
    let _ = writeln!(
        x,
        "    <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>",
        escape_xml(&page)
    );
    let _ = writeln!(x, "    <published>{}</published>", stamp(f.published));
    let _ = writeln!(x, "    <updated>{}</updated>", stamp(changed(f)));
    if let Some(g) = model.site.groups.iter().find(|g| g.id == f.group) {
        let _ = writeln!(
            x,
            "    <category term=\"{}\" label=\"{}\"/>",
            escape_xml(&g.id),
            escape_xml(&g.title)
        );
    }
    for e in &f.engines {
        let _ = writeln!(x, "    <category term=\"{}\"/>", escape_xml(&e.engine));
    }
    for tag in &f.tags {
        let _ = writeln!(x, "    <category term=\"{}\"/>", escape_xml(tag));
    }
    let _ = writeln!(
        x,
        "    <summary type=\"text\">{}</summary>",
        escape_xml(&description(&f.advice, t.summary_text))
    );
    // The page's own links are relative; in a feed they must be absolute.
    // Heading self-links ("#") only make sense on the page.
    let body = reuse.body(model, i).html;
    let what_to_do = strip_anchors(&what_to_do(&body).replace(ROOT, base));
    let mut status = f.status.as_str().to_string();
    if let Some(n) = &f.status_note {
        status = format!("{status}: {n}");
    }
    let html = format!(
        "<p><strong>{}</strong> ({})</p>\n<p>{}</p>\n{what_to_do}<p><a href=\"{}\">Read F{} in full</a>, with its evidence and charts.</p>\n",
        crate::util::escape_html(&f.advice),
        crate::util::escape_html(&status),
        t.summary_html,
        crate::util::escape_html(&page),
        f.id,
    );
    let _ = writeln!(
        x,
        "    <content type=\"html\" xml:base=\"{}\">{}</content>",
        escape_xml(&page),
        escape_xml(&html)
    );
    x.push_str("  </entry>\n");
}

/// The "What to do" section of a rendered body, as the renderer wraps it
/// (`<section class="what-to-do">…</section>`), or nothing. A body holds no
/// raw HTML of its own, so the first `</section>` after it closes it.
fn what_to_do(html: &str) -> &str {
    let Some(start) = html.find("<section class=\"what-to-do\"") else {
        return "";
    };
    let rest = &html[start..];
    const CLOSE: &str = "</section>\n";
    match rest.find(CLOSE) {
        Some(end) => &rest[..end + CLOSE.len()],
        None => rest,
    }
}

/// Removes the heading self-links (`<a class="anchor" …>#</a>`) of a body.
fn strip_anchors(html: &str) -> String {
    const OPEN: &str = " <a class=\"anchor\"";
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i]);
        match rest[i..].find("</a>") {
            Some(j) => rest = &rest[i + j + 4..],
            None => {
                rest = &rest[i..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}
