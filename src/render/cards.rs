//! A finding's card: what every list shows of it (title, advice, status,
//! summary, engines with their versions), made once per build.
//!
//! `prepare_all` takes the model and makes, for each finding, its `Card`
//! (the data templates see) and the plain texts that feeds, the JSON
//! export and the search index need ([`FindingText`]); `render_cards`,
//! once those are written, the card rendered by the site's `card` macro. Bodies are only parsed here, never rendered:
//! pages render them when they are written, so no body's HTML is held for
//! the whole build.

use super::reuse::Reuse;
use super::templates::{self, CardHtml, Templates};
use super::words::terms_and_words;
use super::RenderError;
use crate::markdown;
use crate::model::Model;
use crate::record::{EngineEntry, Finding};
use crate::state::{Source, State};
use crate::urls::{self, ROOT};
use crate::util::{escape_html, hash_of};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Arc;

/// A finding as it appears in lists. Paths start with [`ROOT`].
#[derive(Serialize, Clone, Hash)]
pub(crate) struct Card {
    id: u32,
    label: String,
    url: String,
    title_html: String,
    pub(crate) title_text: String,
    advice: String,
    status: &'static str,
    status_note: Option<String>,
    pub(crate) summary_html: String,
    group: String,
    engines: Vec<CardEngine>,
}

#[derive(Serialize, Clone, Hash)]
struct CardEngine {
    id: String,
    name: String,
    color: String,
    url: String,
    versions: String,
}

/// Everything about one finding, built once.
#[derive(Clone)]
pub(crate) struct Prepared {
    pub(crate) card: Arc<Card>,
    /// The card rendered by the `card` macro, with `h3` and `h2` titles:
    /// what `finding_card` returns to templates. Rendered with the rest
    /// when a rebuild may reuse the card; in a build that cannot, only
    /// once the outputs are written (see [`render_cards`]).
    pub(crate) card_html: Option<CardHtml>,
    /// When a rebuild may reuse pages ([`Reuse::enabled`]), a hash of all a
    /// list may show of the finding: its card and every field but the body
    /// (see `pages::finding`'s key); else 0.
    pub(crate) list_hash: u64,
    pub(crate) summary_text: Arc<str>,
    /// The "What to do" section as one line (for the JSON export).
    pub(crate) what_to_do: Arc<str>,
    /// The search index's terms and words of the finding (computed here,
    /// so the body's text is not kept for the whole build). Like the card,
    /// shared with what a rebuild keeps: it reuses a card by a refcount,
    /// not a copy.
    search_terms: Arc<str>,
    search_words: Arc<str>,
}

/// What pages and outputs have already made of one finding, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct FindingText<'a> {
    /// The title without formatting.
    pub title_text: &'a str,
    /// The summary (or first paragraph) without formatting.
    pub summary_text: &'a str,
    /// The summary as inline HTML.
    pub summary_html: &'a str,
    /// The "What to do" section as one line of plain text.
    pub what_to_do: &'a str,
    /// When a rebuild may reuse pages, a hash of everything but the body
    /// (0 otherwise): what the export shows of the finding.
    pub list_hash: u64,
}

impl Prepared {
    /// The texts of this finding, borrowed.
    pub(crate) fn text(&self) -> FindingText<'_> {
        FindingText {
            title_text: &self.card.title_text,
            summary_text: &self.summary_text,
            summary_html: &self.card.summary_html,
            what_to_do: &self.what_to_do,
            list_hash: self.list_hash,
        }
    }

    /// Lets go of the "What to do" line once the outputs that show it (the
    /// JSON export) are written: no page shows it, and 10,000 findings hold
    /// 4 MiB of them through the pages. A rebuild under `serve` keeps its
    /// own copy of the card (see [`Reuse::card`]), not this one.
    pub(crate) fn drop_what_to_do(&mut self) {
        self.what_to_do = Arc::from("");
    }

    /// Takes the search texts (a kilobyte per finding) out of the card, for
    /// the search index alone: it drops them a chunk of findings at a time
    /// as it reads them, and pages do not need them.
    pub(crate) fn take_search_text(&mut self) -> SearchText {
        SearchText {
            terms: std::mem::take(&mut self.search_terms),
            words: std::mem::take(&mut self.search_words),
        }
    }
}

/// What the search index reads of a finding besides its [`FindingText`]:
/// its `terms` and its body's `words` (see [`super::words`]).
#[derive(Debug, Default)]
pub struct SearchText {
    /// The search index's `terms` of the finding.
    pub terms: Arc<str>,
    /// The search index's `words` of the finding, from its body.
    pub words: Arc<str>,
}

/// The cards and texts of every finding of `model`, in parallel, each
/// reused from the last build when its file, the site's engines and the
/// templates are the same. The cards' HTML is handed to the templates by
/// [`render_cards`].
pub(crate) fn prepare_all(
    model: &Model,
    templates: &Templates,
    reuse: &Reuse<'_>,
) -> Result<Vec<Prepared>, RenderError> {
    let site = &model.site;
    model
        .findings
        .par_iter()
        .enumerate()
        .map(|(i, f)| {
            // A card is made of the finding's file, the site's engines,
            // the templates and the versions runs observed affected.
            let observed = observed_affected(model, i);
            let key = reuse.key((
                f.content_hash,
                &f.path,
                site.content_hash,
                templates.fingerprint(),
                &observed,
            ));
            reuse.card(key, || {
                prepare(model, templates, f, &observed, reuse.enabled())
            })
        })
        .collect()
}

/// Renders the cards [`prepare_all`] left to render (in a build that no
/// rebuild reuses), in parallel, and hands every card to the templates'
/// `finding_card` function, for the pages. Called once the search index,
/// feeds and JSON export are written, which need none of them: those
/// outputs are the build's peak of memory, and 10,000 cards' HTML (11 MiB)
/// held through them raised it by as much.
pub(crate) fn render_cards(
    model: &Model,
    templates: &Templates,
    prepared: &mut [Prepared],
) -> Result<(), RenderError> {
    prepared
        .par_iter_mut()
        .zip(model.findings.par_iter())
        .try_for_each(|(p, f)| {
            if p.card_html.is_none() {
                p.card_html = Some(card_html(templates, &p.card, f)?);
            }
            Ok::<(), RenderError>(())
        })?;
    templates.set_cards(
        model
            .findings
            .iter()
            .zip(prepared.iter())
            .filter_map(|(f, p)| Some((f.id, p.card_html.clone()?)))
            .collect(),
    );
    Ok(())
}

/// The card as lists show it, through the site's `card` macro.
fn card_html(templates: &Templates, card: &Card, f: &Finding) -> Result<CardHtml, RenderError> {
    templates
        .card_titles(card)
        .map_err(|message| RenderError::Template {
            template: templates::CARD.to_string(),
            page: urls::finding(&f.slug),
            message,
        })
}

/// For each engine entry of finding `i` (by index), the versions runs
/// observed affected where the record leaves them untested, as their pages
/// spell them.
fn observed_affected(model: &Model, i: usize) -> Vec<(usize, Vec<String>)> {
    let f = &model.findings[i];
    model.observed[i]
        .iter()
        .map(|(e, at)| {
            let versions = at
                .keys()
                .filter(|v| {
                    let (state, source, _) = model.state_at(i, *e, v);
                    state == State::Affected && source == Source::Observed
                })
                .map(|v| model.version_page(&f.engines[*e].engine, v).to_string())
                .collect();
            (*e, versions)
        })
        .filter(|(_, vs): &(usize, Vec<String>)| !vs.is_empty())
        .collect()
}

/// A card's versions of an engine: those the record lists as affected, then
/// those runs observed affected ("0.28; 0.29, 0.30 observed"), the fix or
/// mitigation, and the versions where it was seen.
fn version_text(e: &EngineEntry, observed: Option<&Vec<String>>) -> String {
    let mut listed = e
        .affected
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if let Some(vs) = observed {
        if !listed.is_empty() {
            listed.push_str("; ");
        }
        listed.push_str(&format!("{} observed", vs.join(", ")));
    }
    let mut parts: Vec<String> = Vec::new();
    if !listed.is_empty() {
        parts.push(listed);
    }
    if let Some(f) = &e.fixed_in {
        parts.push(format!("fixed in {f}"));
    } else if let Some(m) = &e.mitigated_in {
        parts.push(format!("mitigated in {m}"));
    }
    if !e.seen.is_empty() {
        let seen: Vec<String> = e.seen.iter().map(|v| v.to_string()).collect();
        parts.push(format!("seen on {} (not in the engine)", seen.join(", ")));
    }
    parts.join(", ")
}

/// What lists and the search index need of a finding: its card, from a
/// parse of the body without rendering it (pages render bodies when they
/// are written, so no body's HTML is held for the whole build).
fn prepare(
    model: &Model,
    templates: &Templates,
    f: &Finding,
    observed: &[(usize, Vec<String>)],
    reusable: bool,
) -> Result<Prepared, RenderError> {
    let markdown::BodyText {
        first_paragraph,
        all: body_text,
        what_to_do,
    } = markdown::text_of(&f.body);
    let summary_md = f.summary.clone().unwrap_or(first_paragraph);
    let engines = f
        .engines
        .iter()
        .enumerate()
        .filter_map(|(k, e)| {
            let eng = model.site.engines.iter().find(|x| x.id == e.engine)?;
            let seen = observed.iter().find(|(x, _)| *x == k).map(|(_, vs)| vs);
            Some(CardEngine {
                id: eng.id.clone(),
                name: eng.name.clone(),
                color: eng.color.clone(),
                url: format!("{ROOT}{}", urls::engine(&eng.id)),
                versions: version_text(e, seen),
            })
        })
        .collect();
    let card = Card {
        id: f.id,
        label: format!("F{}", f.id),
        url: format!("{ROOT}{}", urls::finding(&f.slug)),
        title_html: markdown::render_inline(&f.title),
        title_text: markdown::plain_text(&f.title),
        advice: f.advice.clone(),
        status: f.status.as_str(),
        status_note: f.status_note.clone(),
        summary_html: markdown::render_inline(&summary_md),
        group: f.group.clone(),
        engines,
    };
    let summary_text = markdown::plain_text(&summary_md);
    let (search_terms, search_words) =
        terms_and_words(model, f, &card.title_text, &summary_text, body_text);
    let list_hash = if reusable {
        // The record without its body (nor what comes of it, nor the field
        // positions, whose maps have no fixed order).
        let rest = Finding {
            content_hash: 0,
            body: String::new(),
            facts: Default::default(),
            spans: Default::default(),
            ..f.clone()
        };
        hash_of((format!("{rest:?}"), &card))
    } else {
        0
    };
    // A card a rebuild may reuse is kept whole, its HTML with it; else
    // the HTML waits for `render_cards`.
    let card_html = if reusable {
        Some(card_html(templates, &card, f)?)
    } else {
        None
    };
    Ok(Prepared {
        summary_text: summary_text.into(),
        what_to_do: what_to_do.into(),
        card: Arc::new(card),
        card_html,
        list_hash,
        search_terms: search_terms.into(),
        search_words: search_words.into(),
    })
}

impl Card {
    /// The card as a version's page lists it, compact: the title, the
    /// advice, `badge` (the finding's state on that version) before its
    /// status (then labelled as the overall one), and `after` (why the
    /// state holds, the entry's note, the runs that showed it). No summary
    /// and no engine list: the page is about one version, and a reader
    /// looking for what to do there wants the advice first. Written here,
    /// not by a template macro: a site of 10,000 findings lists tens of
    /// thousands of these, and a macro call for each cost more than the
    /// rest of the version pages.
    pub(crate) fn compact(&self, badge: &str, after: &str) -> String {
        let mut out = String::with_capacity(512 + self.title_html.len() + after.len());
        out.push_str(&format!(
            "<article class=\"card card-compact card-{status}\" data-id=\"{id}\" data-status=\"{status}\" data-group=\"{group}\">\n  <h3 class=\"card-title\"><a href=\"{url}\"><span class=\"fid\">{label}</span> {title}</a></h3>\n  <p class=\"card-meta\"><span class=\"advice\">{advice}</span> {badge} <span class=\"status status-{status}\"><span class=\"status-overall\">overall:</span> {status}</span></p>\n",
            status = self.status,
            id = self.id,
            group = escape_html(&self.group),
            url = escape_html(&self.url),
            label = self.label,
            title = self.title_html,
            advice = escape_html(&self.advice),
        ));
        out.push_str(after);
        out.push_str("</article>");
        out
    }
}

/// The cards of `idx`, borrowed: serialized into a page's context as they
/// are, without a copy of each (a home page of 10,000 findings would hold
/// both).
pub(crate) fn cards<'p>(prepared: &'p [Prepared], idx: &[usize]) -> Vec<&'p Card> {
    idx.iter().map(|&i| &*prepared[i].card).collect()
}

/// The description of a finding for link previews and feeds: its advice,
/// then its summary.
pub(crate) fn description(advice: &str, summary: &str) -> String {
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
