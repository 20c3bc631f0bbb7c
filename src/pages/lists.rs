//! The list pages: a group's findings (`/groups/<id>/`), a status's
//! (`/status/<status>/`), a tag's (`/tags/<tag>/`) and a model's
//! (`/models/<model>/`), each a list of cards; and the indexes of tags and
//! models (`/tags/`, `/models/`).

use super::batch::{Batch, Job};
use super::paginate::Pager;
use super::view::list_page;
use super::Ctx;
use crate::markdown;
use crate::model::Model;
use crate::record::Status;
use crate::render::cards::cards;
use crate::urls::{self, ROOT};

/// A list page's template.
const TEMPLATE: &str = "list.html";

/// The template of the tag and model indexes.
const TERMS_TEMPLATE: &str = "terms.html";

/// What a list of cards is: its address, heading, kind and introduction.
struct CardList<'a> {
    base: String,
    heading: &'a str,
    /// The page's title, before any page number.
    title: String,
    description: String,
    kind: &'static str,
    kind_label: &'static str,
    intro_html: String,
}

/// Lists the pages of a list of cards: the findings `idx`, `page_size` to a
/// page.
fn card_list<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>, list: CardList<'a>, idx: &'a [usize]) {
    let (model, prepared) = (cx.model, cx.prepared);
    let list = std::sync::Arc::new(list);
    let size = model.site.page_size;
    let pages = Pager::new(&list.base, idx.len(), size).pages();
    for n in 1..=pages {
        let pager = Pager::new(&list.base, idx.len(), size);
        let range = pager.range(n);
        let path = pager.path(n);
        let slice = &idx[range];
        let list = list.clone();
        batch.later(
            cx.key(&path, &|| {
                let mut m = cx.listing(slice);
                m.push(idx.len() as u64);
                m
            }),
            TEMPLATE,
            path,
            slice.len(),
            move || {
                let (page, pagination) = list_page(
                    model,
                    &pager,
                    n,
                    &list.title,
                    list.description.clone(),
                    list.kind,
                );
                Job {
                    template: TEMPLATE,
                    page,
                    data: serde_json::json!({
                        "heading": list.heading, "kind_label": list.kind_label,
                        "intro_html": list.intro_html,
                        "findings": cards(prepared, slice),
                        "total": idx.len(),
                        "pagination": pagination,
                    }),
                }
            },
        );
    }
}

/// Lists the pages of each group.
pub(super) fn list_groups<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) {
    let model = cx.model;
    for (g, idx) in model.site.groups.iter().zip(&model.groups) {
        let intro_html = g
            .blurb
            .as_deref()
            .map(|b| markdown::render(b, cx.resolve).html)
            .unwrap_or_default();
        let list = CardList {
            base: urls::group(&g.id),
            heading: &g.title,
            title: g.title.clone(),
            description: format!("{}: findings in this group", g.title),
            kind: "group",
            kind_label: "Group",
            intro_html,
        };
        card_list(cx, batch, list, idx);
    }
}

/// Lists the pages of each status.
pub(super) fn list_statuses<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>, with: &'a [Vec<usize>]) {
    for (s, idx) in Status::ALL.into_iter().zip(with) {
        let (heading, intro) = status_text(s);
        let list = CardList {
            base: urls::status(s.as_str()),
            heading,
            title: format!("Status: {heading}"),
            description: format!("{heading} findings: {intro}"),
            kind: "status",
            kind_label: "Status",
            intro_html: format!("<p>{intro}</p>"),
        };
        card_list(cx, batch, list, idx);
    }
}

/// Lists the pages of each tag, then the tags index; then the same for
/// models.
pub(super) fn list_terms<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) {
    let model = cx.model;
    for (kind, label, index_path, terms, url_of) in [
        (
            "tag",
            "Tag",
            urls::TAGS,
            &model.tags,
            urls::tag as fn(&str) -> String,
        ),
        (
            "model",
            "Model",
            urls::MODELS,
            &model.models,
            urls::model as fn(&str) -> String,
        ),
    ] {
        let mut list = Vec::new();
        for t in terms.values() {
            list.push(serde_json::json!({"name": t.name, "url": format!("{ROOT}{}", url_of(&t.name)), "count": t.findings.len()}));
            let cards = CardList {
                base: url_of(&t.name),
                heading: &t.name,
                title: format!("{label}: {}", t.name),
                description: format!("Findings about {}", t.name),
                kind,
                kind_label: label,
                intro_html: String::new(),
            };
            card_list(cx, batch, cards, &t.findings);
        }
        let plural = if kind == "tag" { "Tags" } else { "Models" };
        let list = std::sync::Arc::new(list);
        let pager = Pager::new(index_path, list.len(), model.site.page_size);
        for n in 1..=pager.pages() {
            let list = list.clone();
            let path = pager.path(n);
            let key = cx.key(&path, &|| cx.all());
            batch.lazy(key, TERMS_TEMPLATE, path, || {
                let pager = Pager::new(index_path, list.len(), model.site.page_size);
                let (page, pagination) = list_page(
                    model,
                    &pager,
                    n,
                    plural,
                    format!("{plural} of the findings"),
                    kind,
                );
                Job {
                    template: TERMS_TEMPLATE,
                    page,
                    data: serde_json::json!({
                        "heading": plural,
                        "terms": &list[pager.range(n)],
                        "total": list.len(),
                        "pagination": pagination,
                    }),
                }
            });
        }
    }
}

/// The heading and explanation of each status page.
pub(super) fn status_text(s: Status) -> (&'static str, &'static str) {
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
pub(super) fn with_status(model: &Model, s: Status) -> Vec<usize> {
    model
        .listed()
        .filter(|&i| model.findings[i].status == s)
        .collect()
}
