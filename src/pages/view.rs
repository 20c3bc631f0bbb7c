//! The small shapes page contexts are made of, shared by the page kinds:
//! the page itself ([`PageView`]), the site ([`SiteView`]), links to
//! engines, versions and runs. Paths in them start with [`ROOT`].

use super::paginate::Pager;
use crate::model::Model;
use crate::urls::{self, ROOT};
use crate::version::Version;
use serde::Serialize;

/// The site as every page sees it (`site` in templates).
#[derive(Serialize)]
pub(super) struct SiteView<'a> {
    pub(super) title: &'a str,
    pub(super) description: Option<&'a str>,
    pub(super) base_url: &'a str,
    pub(super) engines: Vec<NamedLink>,
    /// Whether the site has comparisons (`/compare/`, in the header).
    pub(super) comparisons: bool,
    /// Whether the site follows workloads across versions (`/workloads/`,
    /// in the header).
    pub(super) workloads: bool,
}

/// The page itself (`page` in templates): its path, canonical address,
/// title and description, and kind.
#[derive(Serialize, Hash)]
pub(super) struct PageView {
    pub(super) path: String,
    pub(super) canonical: String,
    pub(super) title: String,
    pub(super) description: String,
    pub(super) kind: &'static str,
    pub(super) has_code: bool,
    /// The previous and next pages of a list cut into pages.
    pub(super) prev: Option<String>,
    pub(super) next: Option<String>,
}

/// A link with a name (an engine, a tag, a model, a run).
#[derive(Serialize, Clone)]
pub(super) struct NamedLink {
    pub(super) name: String,
    pub(super) url: String,
}

/// A version as written, with the address of its page.
#[derive(Serialize)]
pub(super) struct VersionLink {
    pub(super) version: String,
    pub(super) url: String,
}

/// A link of a finding, resolved.
#[derive(Serialize)]
pub(super) struct LinkView {
    pub(super) label: String,
    pub(super) url: String,
    pub(super) kind: Option<String>,
    pub(super) external: bool,
}

/// The view of a page at `path` with its title, description and kind.
pub(super) fn page(
    model: &Model,
    path: String,
    title: String,
    description: String,
    kind: &'static str,
) -> PageView {
    PageView {
        canonical: format!("{}{}", model.site.base_url, path),
        path,
        title,
        description,
        kind,
        has_code: false,
        prev: None,
        next: None,
    }
}

/// The view of page `n` of a list: [`page`] with the page's own title
/// and its neighbours, and the list's navigation for the template.
pub(super) fn list_page(
    model: &Model,
    pager: &Pager,
    n: usize,
    title: &str,
    description: String,
    kind: &'static str,
) -> (PageView, serde_json::Value) {
    let nav = pager.nav(n);
    let mut pv = page(
        model,
        pager.path(n),
        pager.title(title, n),
        description,
        kind,
    );
    if let Some(nav) = &nav {
        pv.prev = nav.prev.clone();
        pv.next = nav.next.clone();
    }
    (pv, serde_json::to_value(nav).unwrap_or_default())
}

/// A JSON object of `fields`, each value moved in. `serde_json::json!`
/// serializes a `Value` it is given into a new one, a deep copy: for a list
/// page's entries (thousands of cards) that doubled the memory and the time
/// of building its context.
pub(super) fn object<const N: usize>(fields: [(&str, serde_json::Value); N]) -> serde_json::Value {
    serde_json::Value::Object(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// A version as written, linking to its page (whose spelling may differ).
pub(super) fn vlink(model: &Model, engine: &str, v: &Version) -> VersionLink {
    VersionLink {
        version: v.to_string(),
        url: format!(
            "{ROOT}{}",
            urls::version(engine, model.version_page(engine, v).as_str())
        ),
    }
}
