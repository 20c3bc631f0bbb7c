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

use crate::markdown;
use crate::model::Model;
use crate::record::{Date, Finding};
use crate::render::cards::{description, FindingText};
use crate::render::links::finding_what_to_do;
use crate::render::reuse::Reuse;
use crate::urls;
use crate::urls::ROOT;
use crate::util::escape_xml;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::sync::Arc;

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

/// Every feed of the site: `atom.xml`, then one per engine, each as its
/// path and text. An entry is the same in every feed that carries it, so
/// each finding's entry is made once, in parallel, and pasted in each.
pub(crate) fn feeds(
    model: &Model,
    texts: &[FindingText<'_>],
    reuse: &Reuse<'_>,
) -> Vec<(String, String)> {
    let lists: Vec<(Option<&str>, Vec<usize>)> = std::iter::once(None)
        .chain(model.site.engines.iter().map(|e| Some(e.id.as_str())))
        .map(|engine| (engine, entries(model, engine)))
        .collect();
    let mut carried: Vec<usize> = lists.iter().flat_map(|(_, idx)| idx).copied().collect();
    carried.sort_unstable();
    carried.dedup();
    let made: Vec<Arc<Vec<u8>>> = carried
        .par_iter()
        .map(|&i| {
            // An entry is made of the finding's file and what every page reads.
            reuse.piece(("feed entry", model.findings[i].content_hash), || {
                let mut e = String::new();
                entry(&mut e, model, i, &texts[i], reuse);
                e.into_bytes()
            })
        })
        .collect();
    let entry_of = |i: usize| -> &[u8] {
        carried
            .binary_search(&i)
            .map_or(&[][..], |k| made[k].as_slice())
    };
    lists
        .iter()
        .map(|(engine, idx)| atom(model, *engine, idx, &entry_of))
        .collect()
}

/// The Atom feed of the whole site (`engine` None) or of one engine, of
/// the findings `idx` (see [`entries`]), each entry's bytes from `entry_of`;
/// with its path.
fn atom<'e>(
    model: &Model,
    engine: Option<&str>,
    idx: &[usize],
    entry_of: &dyn Fn(usize) -> &'e [u8],
) -> (String, String) {
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
    for &i in idx {
        x.push_str(std::str::from_utf8(entry_of(i)).unwrap_or_default());
    }
    x.push_str("</feed>\n");
    (path, x)
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
    // Under `serve` the whole body is rendered once and kept (its page
    // takes it from there); a clean build renders only the section here.
    let what_to_do = if reuse.enabled() {
        markdown::what_to_do_section(&reuse.body(model, i).html).to_string()
    } else {
        finding_what_to_do(model, i)
    };
    // The page's own links are relative; in a feed they must be absolute.
    // Heading self-links ("#") only make sense on the page.
    let what_to_do = strip_anchors(&what_to_do.replace(ROOT, base));
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
