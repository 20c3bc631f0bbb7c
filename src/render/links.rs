//! Where the links of findings lead: `finding:N`, `run:ID` and site paths
//! (`/engines/`) turned into site paths with the [`ROOT`] marker in front,
//! and a finding's body rendered with them.

use crate::markdown;
use crate::model::Model;
use crate::urls::{self, ROOT};

/// Where `url`, as written in a finding, leads on the site; `None` for an
/// address outside it, which stays as written.
pub(crate) fn resolve_link(model: &Model, url: &str) -> Option<String> {
    if let Some(rest) = url.strip_prefix("finding:") {
        let (num, frag) = match rest.split_once('#') {
            Some((n, f)) => (n, format!("#{f}")),
            None => (rest, String::new()),
        };
        let f = model.finding(num.parse().ok()?)?;
        Some(format!("{ROOT}{}{frag}", urls::finding(&f.slug)))
    } else if let Some(id) = url.strip_prefix("run:") {
        model.run_by_id.get(id)?;
        Some(format!("{ROOT}{}", urls::run(id)))
    } else if url.starts_with('/') && !url.starts_with("//") {
        Some(format!("{ROOT}{}", url.trim_start_matches('/')))
    } else {
        None
    }
}

/// A finding's body rendered to HTML, internal links still starting with
/// [`ROOT`]. Called when its page is written, and under `serve` by the
/// feeds for the findings they carry.
pub(crate) fn finding_body(model: &Model, i: usize) -> markdown::Rendered {
    markdown::render(&model.findings[i].body, &|u: &str| resolve_link(model, u))
}

/// The "What to do" section of [`finding_body`], the same bytes, without
/// highlighting the code outside it: what a feed entry carries.
pub(crate) fn finding_what_to_do(model: &Model, i: usize) -> String {
    markdown::render_what_to_do(&model.findings[i].body, &|u: &str| resolve_link(model, u))
}
