//! The search page (`/search/`): a form that works without scripts, and
//! the script that searches the index (`outputs::search`) as you type.

use super::batch::{Batch, Job};
use super::view::page;
use super::Ctx;
use crate::urls;

/// The search page's template.
const TEMPLATE: &str = "search.html";

/// Lists the search page.
pub(super) fn list<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) {
    let model = cx.model;
    let desc = &cx.desc;
    let count = model.listed().count();
    batch.lazy(
        cx.key(urls::SEARCH, &|| cx.all()),
        TEMPLATE,
        urls::SEARCH.into(),
        || Job {
            template: TEMPLATE,
            page: page(
                model,
                urls::SEARCH.into(),
                "Search".into(),
                format!("Search the findings: {desc}"),
                "search",
            ),
            data: serde_json::json!({ "count": count }),
        },
    );
}
