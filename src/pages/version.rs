//! An engine version's page (`/engines/<id>/<version>/`): what to watch
//! for on that version, the findings in sections by their state there
//! (affected, in range, mitigated, fixed, clean), with links to the
//! neighbouring versions.

use super::batch::{Batch, Job};
use super::view::{object, page, vlink};
use super::Ctx;
use crate::model::{EngineIndex, Model};
use crate::render::cards::Prepared;
use crate::state::State;
use crate::urls::{self, ROOT};
use crate::version::Version;
use std::collections::BTreeMap;

/// A version page's template.
const TEMPLATE: &str = "version.html";

/// Lists the page of each known version of the engine `ix`.
pub(super) fn list<'a>(cx: &'a Ctx<'a>, ix: &'a EngineIndex, batch: &mut Batch<'a>) {
    let (model, prepared) = (cx.model, cx.prepared);
    let id = &model.site.engines[ix.engine].id;
    for (j, v) in ix.versions.iter().enumerate() {
        let path = urls::version(id, v.as_str());
        batch.later(
            cx.key(&path, &|| cx.listing(&ix.findings)),
            TEMPLATE,
            path.clone(),
            ix.findings.len(),
            move || page_of(model, prepared, ix, j, v),
        );
    }
}

fn page_of(model: &Model, prepared: &[Prepared], ix: &EngineIndex, j: usize, v: &Version) -> Job {
    let e = &model.site.engines[ix.engine];
    let mut by_state: BTreeMap<&str, Vec<serde_json::Value>> = BTreeMap::new();
    for (k, &i) in ix.findings.iter().enumerate() {
        let s = ix.cells[k][j];
        if s == State::Unknown {
            continue;
        }
        let entry = model.findings[i].engines.iter().find(|x| x.engine == e.id);
        by_state
            .entry(s.as_str())
            .or_default()
            .push(serde_json::json!({
                "finding": &*prepared[i].card,
                "note": entry.and_then(|x| x.note.clone()),
            }));
    }
    let sections: Vec<serde_json::Value> = [
        (State::Affected, "Affected", "Tested on this version, and the problem showed."),
        (State::InRange, "In range, untested", "Not tested on this version, but it lies inside the range the problem is known to span. Watch for it."),
        (State::Mitigated, "Mitigated", "The defaults of this version avoid the problem; it may remain behind a flag."),
        (State::Fixed, "Fixed before this version", "Fixed in this version or an earlier release."),
        (State::Clean, "Clean", "Tested on this version, and the problem did not show."),
    ]
    .iter()
    .map(|(s, title, blurb)| object([
        ("state", s.as_str().into()),
        ("title", (*title).into()),
        ("blurb", (*blurb).into()),
        ("tested", s.is_tested().into()),
        ("items", by_state.remove(s.as_str()).unwrap_or_default().into()),
    ]))
    .collect();
    let prev = j
        .checked_sub(1)
        .map(|p| vlink(model, &e.id, &ix.versions[p]));
    let next = ix.versions.get(j + 1).map(|n| vlink(model, &e.id, n));
    let released = e.releases.contains(v);
    Job {
        template: TEMPLATE,
        page: page(
            model,
            urls::version(&e.id, v.as_str()),
            format!("{} {}: what to watch for", e.name, v),
            format!("Findings that affect {} {}", e.name, v),
            "version",
        ),
        data: object([
            (
                "engine",
                serde_json::json!({"id": e.id, "name": e.name, "color": e.color, "url": format!("{ROOT}{}", urls::engine(&e.id))}),
            ),
            ("version", v.to_string().into()),
            ("listed_release", released.into()),
            ("prerelease", v.is_prerelease().into()),
            ("sections", sections.into()),
            ("prev", serde_json::json!(prev)),
            ("next", serde_json::json!(next)),
        ]),
    }
}
