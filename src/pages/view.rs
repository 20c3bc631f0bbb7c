//! The small shapes page contexts are made of, shared by the page kinds:
//! the page itself ([`PageView`]), the site ([`SiteView`]), links to
//! engines, versions and runs, and an engine entry as the browser scripts
//! read it ([`EntryJson`]). Paths in them start with [`ROOT`].

use crate::model::Model;
use crate::record::EngineEntry;
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
    }
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

/// An engine entry as the browser scripts read it (`static/versions.js`,
/// `entry()`): version strings, empty fields left out.
#[derive(Serialize)]
pub(super) struct EntryJson<'a> {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) affected: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) clean: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) introduced_in: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) fixed_in: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) mitigated_in: Option<&'a str>,
}

impl<'a> EntryJson<'a> {
    pub(super) fn of(e: &'a EngineEntry) -> EntryJson<'a> {
        EntryJson {
            affected: e.affected.iter().map(|v| v.as_str()).collect(),
            clean: e.clean.iter().map(|v| v.as_str()).collect(),
            introduced_in: e.introduced_in.as_ref().map(|v| v.as_str()),
            fixed_in: e.fixed_in.as_ref().map(|v| v.as_str()),
            mitigated_in: e.mitigated_in.as_ref().map(|v| v.as_str()),
        }
    }
}
