//! The list pages: a group's findings (`/groups/<id>/`), a status's
//! (`/status/<status>/`), a tag's (`/tags/<tag>/`) and a model's
//! (`/models/<model>/`), each a list of cards; and the indexes of tags and
//! models (`/tags/`, `/models/`).

use super::batch::{Batch, Job};
use super::view::page;
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

/// Lists the page of each group.
pub(super) fn list_groups<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) {
    let (model, prepared) = (cx.model, cx.prepared);
    for (g, idx) in model.site.groups.iter().zip(&model.groups) {
        let path = urls::group(&g.id);
        let intro_html = g
            .blurb
            .as_deref()
            .map(|b| markdown::render(b, cx.resolve).html)
            .unwrap_or_default();
        batch.later(
            cx.key(&path, &|| cx.listing(idx)),
            TEMPLATE,
            path.clone(),
            idx.len(),
            move || Job {
                template: TEMPLATE,
                page: page(
                    model,
                    path,
                    g.title.clone(),
                    format!("{}: findings in this group", g.title),
                    "group",
                ),
                data: serde_json::json!({
                    "heading": g.title, "kind_label": "Group",
                    "intro_html": intro_html,
                    "findings": cards(prepared, idx),
                }),
            },
        );
    }
}

/// Lists the page of each status.
pub(super) fn list_statuses<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) {
    let (model, prepared) = (cx.model, cx.prepared);
    for s in Status::ALL {
        let (heading, intro) = status_text(s);
        let path = urls::status(s.as_str());
        let with = with_status(model, s);
        let k = cx.key(&path, &|| cx.listing(&with));
        batch.later(k, TEMPLATE, path.clone(), with.len(), move || Job {
            template: TEMPLATE,
            page: page(
                model,
                path,
                format!("Status: {heading}"),
                format!("{heading} findings: {intro}"),
                "status",
            ),
            data: serde_json::json!({
                "heading": heading, "kind_label": "Status", "intro_html": format!("<p>{intro}</p>"),
                "findings": cards(prepared, &with),
            }),
        });
    }
}

/// Lists the page of each tag, the tags index, the page of each model and
/// the models index.
pub(super) fn list_terms<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) {
    let (model, prepared) = (cx.model, cx.prepared);
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
            let path = url_of(&t.name);
            batch.later(
                cx.key(&path, &|| cx.listing(&t.findings)),
                TEMPLATE,
                path.clone(),
                t.findings.len(),
                move || Job {
                    template: TEMPLATE,
                    page: page(
                        model,
                        path,
                        format!("{label}: {}", t.name),
                        format!("Findings about {}", t.name),
                        kind,
                    ),
                    data: serde_json::json!({
                        "heading": t.name, "kind_label": label, "intro_html": "",
                        "findings": cards(prepared, &t.findings),
                    }),
                },
            );
        }
        let plural = if kind == "tag" { "Tags" } else { "Models" };
        batch.lazy(
            cx.key(index_path, &|| cx.all()),
            TERMS_TEMPLATE,
            index_path.into(),
            || Job {
                template: TERMS_TEMPLATE,
                page: page(
                    model,
                    index_path.into(),
                    plural.into(),
                    format!("{plural} of the findings"),
                    kind,
                ),
                data: serde_json::json!({ "heading": plural, "terms": list }),
            },
        );
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
