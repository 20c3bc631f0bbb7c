//! Redirect pages: a finding's short address (`/f/<id>/`) and its old
//! addresses (aliases) send readers to its page with a meta refresh and a
//! canonical link, so static hosts need no server rules.

use super::batch::Job;
use super::view::page;
use crate::model::Model;
use crate::urls::ROOT;

/// A redirect's template.
pub(super) const TEMPLATE: &str = "redirect.html";

/// The page at `path` that sends readers to `target` (a site path with
/// [`ROOT`] in front), canonically that target.
pub(super) fn job(model: &Model, path: String, target: &str, title: &str) -> Job {
    let canonical_target = format!("{}{}", model.site.base_url, target.trim_start_matches(ROOT));
    let mut pv = page(
        model,
        path,
        title.to_string(),
        title.to_string(),
        "redirect",
    );
    pv.canonical = canonical_target;
    Job {
        template: TEMPLATE,
        page: pv,
        data: serde_json::json!({ "target": target }),
    }
}
