//! The page a static host serves for an address the site does not have
//! (`404.html`). It is served at any depth, so its links start from the
//! site's own address rather than a relative root.

use super::batch::{Batch, Job};
use super::view::page;
use super::Ctx;

/// The 404 page's template.
pub(super) const TEMPLATE: &str = "404.html";

/// Lists the 404 page.
pub(super) fn list<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) {
    batch.push(Job {
        template: TEMPLATE,
        page: page(
            cx.model,
            "404.html".into(),
            "Page not found".into(),
            cx.desc.clone(),
            "404",
        ),
        data: serde_json::json!({}),
    });
}
