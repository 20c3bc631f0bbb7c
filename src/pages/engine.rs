//! The engine pages: the engines index (`/engines/`) and each engine's
//! page (`/engines/<id>/`) with its version matrix (the state of every
//! finding at every known version) and the data of its "your version" box.
//! Each engine's version pages follow it (see [`super::version`]).

use super::batch::{Batch, Job};
use super::paginate::Pager;
use super::view::{list_page, object, vlink, VersionLink};
use super::{observed, version, Ctx};
use crate::model::{EngineIndex, Model};
use crate::render::cards::Prepared;
use crate::render::templates::{self, Templates};
use crate::render::RenderError;
use crate::state::{Source, State};
use crate::urls::{self, ROOT};
use crate::util::hash_of;
use std::collections::{BTreeMap, HashMap};

/// An engine page's template.
const TEMPLATE: &str = "engine.html";

/// The engines index's template.
const INDEX_TEMPLATE: &str = "engines.html";

/// Lists the engines index, then each engine's page and its version pages.
pub(super) fn list<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) -> Result<(), RenderError> {
    let (model, prepared) = (cx.model, cx.prepared);
    let site = &model.site;
    let desc = &cx.desc;
    let pager = Pager::new(urls::ENGINES, model.engines.len(), site.page_size);
    for n in 1..=pager.pages() {
        let range = pager.range(n);
        let path = pager.path(n);
        batch.lazy(cx.key(&path, &|| cx.all()), INDEX_TEMPLATE, path, || {
            let engine_rows: Vec<serde_json::Value> = model.engines[range]
                .iter()
                .map(|ix| {
                    let e = &site.engines[ix.engine];
                    serde_json::json!({
                        "id": e.id, "name": e.name, "color": e.color, "repo": e.repo,
                        "url": format!("{ROOT}{}", urls::engine(&e.id)),
                        "count": ix.findings.len(),
                        "versions": ix.versions.iter().map(|v| vlink(model, &e.id, v)).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let (page, pagination) = list_page(
                model,
                &pager,
                n,
                "Engines",
                format!("Findings by engine and version: {desc}"),
                "engines",
            );
            Job {
                template: INDEX_TEMPLATE,
                page,
                data: serde_json::json!({
                    "engines": engine_rows,
                    "total": model.engines.len(),
                    "pagination": pagination,
                }),
            }
        });
    }
    let legend: Vec<serde_json::Value> = State::ALL
        .iter()
        .map(|s| serde_json::json!({"state": s.as_str(), "label": s.label(), "tested": s.is_tested()}))
        .collect();
    let legend = std::sync::Arc::new(legend);
    for ix in &model.engines {
        let id = &site.engines[ix.engine].id;
        let cells = std::sync::Arc::new(matrix_cells(model, cx.templates, ix)?);
        let pager = Pager::new(&urls::engine(id), ix.findings.len(), site.page_size);
        for n in 1..=pager.pages() {
            let path = pager.path(n);
            let (legend, cells) = (legend.clone(), cells.clone());
            // A page is made of the findings it lists, and of the runs its
            // observed cells name.
            let members = || {
                let mut m = cx.listing(&ix.findings);
                m.push(hash_of(&cells.observed));
                // Its workloads and their changes, on the first page.
                if n == 1 {
                    let t = &model.trends;
                    for &w in &t.by_engine[ix.engine] {
                        m.push(hash_of(format!(
                            "{:?}",
                            (&t.followed[w].slug, &t.followed[w].trend)
                        )));
                    }
                    m.extend(super::workloads::changes_key(
                        cx,
                        &super::workloads::engine_changes(model, ix.engine),
                    ));
                }
                m
            };
            batch.later(
                cx.key(&path, &members),
                TEMPLATE,
                path,
                pager.range(n).len(),
                move || page_of(model, prepared, ix, n, &legend, &cells),
            );
        }
        version::list(cx, ix, batch);
    }
    Ok(())
}

/// The most versions an engine's matrix shows, the newest: the others are
/// listed above it, each linking to its page.
const MATRIX_VERSIONS: usize = 12;

/// The columns of engine `ix`'s matrix: the newest [`MATRIX_VERSIONS`].
fn columns(ix: &EngineIndex) -> std::ops::Range<usize> {
    ix.versions.len().saturating_sub(MATRIX_VERSIONS)..ix.versions.len()
}

/// The cells of an engine's version matrix as the `state_cell` macro
/// renders them: by version and state (an engine page of 10,000 findings
/// has tens of thousands of cells but a few dozen distinct ones, and tera
/// calling the macro for each took most of the page's time), and apart, by
/// row and version, each cell whose state runs tested, which names its run.
struct Cells {
    by_state: HashMap<(usize, State), String>,
    observed: BTreeMap<(usize, usize), String>,
}

impl Cells {
    /// The cell of row `k` at version `j`, in state `s`.
    fn get(&self, k: usize, j: usize, s: State) -> Option<&str> {
        self.observed
            .get(&(k, j))
            .or_else(|| self.by_state.get(&(j, s)))
            .map(String::as_str)
    }
}

fn matrix_cells(
    model: &Model,
    templates: &Templates,
    ix: &EngineIndex,
) -> Result<Cells, RenderError> {
    let e = &model.site.engines[ix.engine];
    let render = |value: serde_json::Value| {
        templates
            .render_piece(templates::CELL, &value)
            .map_err(|message| RenderError::Template {
                template: templates::CELL.to_string(),
                page: urls::engine(&e.id),
                message,
            })
    };
    let mut out = Cells {
        by_state: HashMap::new(),
        observed: BTreeMap::new(),
    };
    for (k, row) in ix.cells.iter().enumerate() {
        for j in columns(ix) {
            let s = row[j];
            if ix.sources[k][j] == Source::Observed {
                let i = ix.findings[k];
                let entry = model.findings[i]
                    .engines
                    .iter()
                    .position(|x| x.engine == e.id);
                let by = entry
                    .and_then(|x| model.observed_at(i, x, &ix.versions[j]))
                    .and_then(|at| observed::cell_by(model, at));
                out.observed.insert(
                    (k, j),
                    render(serde_json::json!({
                        "cell": {"state": s.as_str(), "label": s.label(), "tested": true, "by": by},
                        "version": vlink(model, &e.id, &ix.versions[j]),
                    }))?,
                );
                continue;
            }
            if out.by_state.contains_key(&(j, s)) {
                continue;
            }
            let html = render(serde_json::json!({
                "cell": {"state": s.as_str(), "label": s.label(), "tested": s.is_tested()},
                "version": vlink(model, &e.id, &ix.versions[j]),
            }))?;
            out.by_state.insert((j, s), html);
        }
    }
    Ok(out)
}

/// Page `n` of engine `ix`'s matrix: its rows, at the newest versions.
fn page_of(
    model: &Model,
    prepared: &[Prepared],
    ix: &EngineIndex,
    n: usize,
    legend: &[serde_json::Value],
    cells_html: &Cells,
) -> Job {
    let e = &model.site.engines[ix.engine];
    let cols = columns(ix);
    let versions: Vec<VersionLink> = ix.versions[cols.clone()]
        .iter()
        .map(|v| vlink(model, &e.id, v))
        .collect();
    // The same versions as a list, newest first, each with how many
    // findings it has in each state: a version is one tap away on a phone,
    // where the matrix is wider than the screen.
    let version_list: Vec<serde_json::Value> = cols
        .clone()
        .rev()
        .map(|j| {
            let counts: Vec<serde_json::Value> = State::ALL
                .iter()
                .filter(|&&s| s != State::Unknown)
                .filter_map(|&s| {
                    let n = ix.cells.iter().filter(|row| row[j] == s).count();
                    (n > 0).then(|| {
                        serde_json::json!({"state": s.as_str(), "label": s.label(), "tested": s.is_tested(), "count": n})
                    })
                })
                .collect();
            serde_json::json!({"link": vlink(model, &e.id, &ix.versions[j]), "counts": counts})
        })
        .collect();
    // The versions the matrix leaves out, oldest first, each with its page.
    let older: Vec<VersionLink> = ix.versions[..cols.start]
        .iter()
        .map(|v| vlink(model, &e.id, v))
        .collect();
    let pager = Pager::new(
        &urls::engine(&e.id),
        ix.findings.len(),
        model.site.page_size,
    );
    let range = pager.range(n);
    let rows: Vec<serde_json::Value> = range
        .map(|k| {
            let (i, cells) = (ix.findings[k], &ix.cells[k]);
            let entry = model.findings[i].engines.iter().find(|x| x.engine == e.id);
            let html: String = cols
                .clone()
                .filter_map(|j| cells_html.get(k, j, cells[j]))
                .collect();
            let cells: Vec<serde_json::Value> = cols
                .clone()
                .map(|j| {
                    let (s, source) = (cells[j], ix.sources[k][j]);
                    let tested = s.is_tested() || source == Source::Observed;
                    serde_json::json!({"state": s.as_str(), "label": s.label(), "tested": tested, "source": source.as_str()})
                })
                .collect();
            object([
                ("finding", serde_json::json!(&*prepared[i].card)),
                ("note", serde_json::json!(entry.and_then(|x| x.note.as_deref()))),
                ("cells", cells.into()),
                ("cells_html", html.into()),
            ])
        })
        .collect();
    let (page, pagination) = list_page(
        model,
        &pager,
        n,
        &format!("{}: findings by version", e.name),
        format!("What is known to affect each {} version", e.name),
        "engine",
    );
    Job {
        template: TEMPLATE,
        page,
        data: object([
            (
                "engine",
                serde_json::json!({"id": e.id, "name": e.name, "color": e.color, "repo": e.repo}),
            ),
            ("versions", serde_json::json!(versions)),
            ("version_list", version_list.into()),
            ("older_versions", serde_json::json!(older)),
            ("version_count", ix.versions.len().into()),
            ("rows", rows.into()),
            ("total", ix.findings.len().into()),
            ("legend", legend.into()),
            (
                "data_url",
                format!("{ROOT}{}", urls::engine_data(&e.id)).into(),
            ),
            ("pagination", pagination),
            (
                "trends",
                if n == 1 {
                    serde_json::json!(super::workloads::engine_view(model, ix.engine))
                } else {
                    serde_json::Value::Null
                },
            ),
        ]),
    }
}
