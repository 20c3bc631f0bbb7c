//! The compact data the browser scripts fetch when a reader filters the
//! home page or types a version on an engine page, so that those pages stay
//! light whatever the number of findings, and the scripts still cover every
//! finding.
//!
//! - `engines/<id>/findings.json`, one per engine: its known versions with
//!   their pages, and each listed finding that names it (number, slug,
//!   title, status, group, note and the engine entry, as
//!   `static/versions.js` reads it, `seen` versions included). Rows are
//!   arrays in the order of
//!   `fields`, named once.
//! - `filters.json`: the groups and statuses, and for every listed finding
//!   its number, group and status (as indexes into those lists).
//!
//! Both carry a `schema_version` the scripts check. Addresses are relative
//! to the site root; a finding's page is `findings/<slug>/`.

use crate::model::{EngineIndex, Model};
use crate::record::{EngineEntry, Status};
use crate::render::cards::FindingText;
use crate::state::Source;
use crate::urls;
use serde::Serialize;

/// The version of both formats; the scripts check it.
pub const SCHEMA_VERSION: u32 = 1;

/// The fields of a row of an engine's findings, in order.
const ENGINE_FIELDS: [&str; 7] = ["id", "slug", "title", "status", "group", "note", "entry"];

/// An engine entry as the browser scripts read it (`static/versions.js`,
/// `entry()`): version strings, empty fields left out.
#[derive(Serialize)]
struct EntryJson<'a> {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    affected: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    clean: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    seen: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    introduced_in: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed_in: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mitigated_in: Option<&'a str>,
    /// The versions the site's runs tested where the record leaves them
    /// untested, with the state they gave them (`static/versions.js`
    /// takes them after the listed versions).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    observed: Vec<ObservedJson>,
}

/// A version the runs tested, and the state they gave it.
#[derive(Serialize)]
struct ObservedJson {
    v: String,
    state: &'static str,
}

impl<'a> EntryJson<'a> {
    fn of(e: &'a EngineEntry) -> EntryJson<'a> {
        EntryJson {
            observed: Vec::new(),
            affected: e.affected.iter().map(|v| v.as_str()).collect(),
            clean: e.clean.iter().map(|v| v.as_str()).collect(),
            seen: e.seen.iter().map(|v| v.as_str()).collect(),
            introduced_in: e.introduced_in.as_ref().map(|v| v.as_str()),
            fixed_in: e.fixed_in.as_ref().map(|v| v.as_str()),
            mitigated_in: e.mitigated_in.as_ref().map(|v| v.as_str()),
        }
    }
}

/// One row of an engine's findings, serialized as an array in the order of
/// [`ENGINE_FIELDS`].
#[derive(Serialize)]
struct EngineRow<'a>(
    u32,
    &'a str,
    &'a str,
    &'static str,
    &'a str,
    Option<&'a str>,
    EntryJson<'a>,
);

#[derive(Serialize)]
struct VersionJson<'a> {
    v: &'a str,
    url: String,
}

#[derive(Serialize)]
struct EngineJson<'a> {
    id: &'a str,
    name: &'a str,
}

/// `engines/<id>/findings.json`.
#[derive(Serialize)]
struct EngineData<'a> {
    schema_version: u32,
    engine: EngineJson<'a>,
    versions: Vec<VersionJson<'a>>,
    fields: [&'static str; 7],
    findings: Vec<EngineRow<'a>>,
}

/// The data of engine `ix`: its known versions with their pages, and each
/// listed finding's entry for it.
pub(super) fn engine(model: &Model, texts: &[FindingText<'_>], ix: &EngineIndex) -> Vec<u8> {
    let e = &model.site.engines[ix.engine];
    let data = EngineData {
        schema_version: SCHEMA_VERSION,
        engine: EngineJson {
            id: &e.id,
            name: &e.name,
        },
        versions: ix
            .versions
            .iter()
            .map(|v| VersionJson {
                v: v.as_str(),
                url: urls::version(&e.id, v.as_str()),
            })
            .collect(),
        fields: ENGINE_FIELDS,
        findings: ix
            .findings
            .iter()
            .filter_map(|&i| {
                let f = &model.findings[i];
                let k = f.engines.iter().position(|x| x.engine == e.id)?;
                let entry = &f.engines[k];
                let mut json = EntryJson::of(entry);
                json.observed = observed(model, i, k);
                Some(EngineRow(
                    f.id,
                    &f.slug,
                    texts[i].title_text,
                    f.status.as_str(),
                    &f.group,
                    entry.note.as_deref(),
                    json,
                ))
            })
            .collect(),
    };
    super::export::to_bytes(&data)
}

/// The versions of entry `k` of finding `i` that runs tested, as their
/// pages spell them.
fn observed(model: &Model, i: usize, k: usize) -> Vec<ObservedJson> {
    let engine = &model.findings[i].engines[k].engine;
    model.observed[i]
        .iter()
        .filter(|(x, _)| *x == k)
        .flat_map(|(_, at)| at.keys())
        .filter_map(|v| {
            let (state, source, _) = model.state_at(i, k, v);
            (source == Source::Observed).then(|| ObservedJson {
                v: model.version_page(engine, v).to_string(),
                state: state.as_str(),
            })
        })
        .collect()
}

/// `filters.json`.
#[derive(Serialize)]
struct Filters<'a> {
    schema_version: u32,
    groups: Vec<&'a str>,
    statuses: Vec<&'static str>,
    fields: [&'static str; 3],
    findings: Vec<(u32, usize, usize)>,
}

/// The group and status of every listed finding, for filters without an
/// engine.
pub(super) fn filters(model: &Model) -> Vec<u8> {
    let groups: Vec<&str> = model.site.groups.iter().map(|g| g.id.as_str()).collect();
    let data = Filters {
        schema_version: SCHEMA_VERSION,
        statuses: Status::ALL.iter().map(|s| s.as_str()).collect(),
        fields: ["id", "group", "status"],
        findings: model
            .listed()
            .map(|i| {
                let f = &model.findings[i];
                let g = groups.iter().position(|g| *g == f.group).unwrap_or(0);
                let s = Status::ALL.iter().position(|s| *s == f.status).unwrap_or(0);
                (f.id, g, s)
            })
            .collect(),
        groups,
    };
    super::export::to_bytes(&data)
}
