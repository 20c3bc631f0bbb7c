//! Stage 4, render, part two: every HTML page of the site, one file per
//! kind of page.
//!
//! [`write`] takes the model, the templates and the cards made once per
//! build ([`crate::render::cards`]), lists every page in a fixed order and
//! hands each to an [`Output`] as it is rendered, a batch at a time (see
//! `batch`). Each page is a template, a path and a small context holding
//! only what that page shows, never the whole site. The kinds:
//!
//! | file | pages |
//! |---|---|
//! | `home` | `/`, with the filter bar's data |
//! | `finding` | `/findings/<slug>/`, its short address and aliases (see `redirect`) |
//! | `run` | `/runs/<id>/` |
//! | `runs` | the runs index `/runs/`, and `runs/filters.json`, which its filters fetch |
//! | `table` | `/runs/<id>/tables/<table>/`: every row of a long run table |
//! | `compare` | `/compare/<id>/` and the index `/compare/`: runs set side by side |
//! | `workloads` | `/workloads/<slug>/` and the index `/workloads/`: a workload across versions |
//! | `engine` | `/engines/` and `/engines/<id>/` (the version matrix) |
//! | `version` | `/engines/<id>/<version>/` |
//! | `lists` | groups, statuses, tags and models, and the tag and model indexes |
//! | `search` | `/search/` |
//! | `not_found` | `404.html` |
//!
//! Adding a kind of page is a file here, its template, and one line in
//! [`write`].

mod accuracy;
mod batch;
mod compare;
mod engine;
mod evidence;
mod finding;
mod headline;
mod home;
mod lists;
mod not_found;
mod observed;
mod paginate;
mod redirect;
mod relativize;
mod run;
mod runs;
mod scores;
mod search;
mod table;
mod version;
mod view;
mod workloads;

use crate::markdown;
use crate::model::Model;
use crate::record::Status;
use crate::render::cards::Prepared;
use crate::render::charts::Charts;
use crate::render::links::resolve_link;
use crate::render::reuse::{PageRef, Reuse};
use crate::render::templates::Templates;
use crate::render::RenderError;
use crate::sink::Output;
use crate::urls::{self, ROOT};
use crate::util::hash_of;
use batch::{Batch, Job};
use relativize::Relativize;
use view::{NamedLink, SiteView};

/// What [`write`] wrote.
pub struct Written {
    /// HTML pages, redirects included.
    pub pages: usize,
    /// The site paths of the pages a sitemap lists (all but redirects and
    /// the 404 page), sorted.
    pub sitemap: Vec<String>,
}

/// What every kind of page reads: the model, the cards, how to draw
/// charts and resolve links, and what a rebuild may reuse.
struct Ctx<'a> {
    model: &'a Model,
    prepared: &'a [Prepared],
    templates: &'a Templates,
    charts: &'a Charts<'a>,
    reuse: &'a Reuse<'a>,
    resolve: markdown::Resolver<'a>,
    /// The site's description, or empty.
    desc: String,
    /// The listed findings of each status, in [`Status::ALL`]'s order.
    by_status: Vec<Vec<usize>>,
}

impl Ctx<'_> {
    /// Under a rebuild, the key of the page at `path`: a hash of what every
    /// page may read ([`Reuse::global`]), its path, and the list hashes
    /// (see [`Prepared::list_hash`]) of the findings it lists, or whatever
    /// else `members` says it is made of. A page whose key did not change
    /// is kept as the last build wrote it (see [`Batch::lazy`]).
    fn key(&self, path: &str, members: &dyn Fn() -> Vec<u64>) -> Option<u64> {
        self.reuse.global().map(|g| hash_of((g, path, members())))
    }

    /// The list hashes of the findings `idx`.
    fn listing(&self, idx: &[usize]) -> Vec<u64> {
        idx.iter().map(|&i| self.prepared[i].list_hash).collect()
    }

    /// The list hashes of every finding.
    fn all(&self) -> Vec<u64> {
        self.prepared.iter().map(|p| p.list_hash).collect()
    }
}

/// Renders every page of `model` into `out`.
pub(crate) fn write<O: Output>(
    model: &Model,
    templates: &Templates,
    prepared: &[Prepared],
    out: &O,
    reuse: &Reuse<'_>,
) -> Result<Written, RenderError> {
    let site = &model.site;
    let site_view = SiteView {
        title: &site.title,
        description: site.description.as_deref(),
        base_url: &site.base_url,
        // The header's engines: a handful, whatever the site's size.
        engines: model
            .nav_engines()
            .into_iter()
            .map(|i| {
                let e = &site.engines[i];
                NamedLink {
                    name: e.name.clone(),
                    url: format!("{ROOT}{}", urls::engine(&e.id)),
                }
            })
            .collect(),
        comparisons: !model.comparisons.is_empty(),
        workloads: !model.trends.followed.is_empty(),
    };
    let site_value = serde_json::to_value(&site_view).unwrap_or_default();

    // Pages are rendered in batches as they are listed, so that only one
    // batch of page contexts is in memory at a time, whatever the site's size.
    let sitemap = std::sync::Mutex::new(Vec::new());
    let note = |template: &str, path: &str| {
        if in_sitemap(template) {
            if let Ok(mut v) = sitemap.lock() {
                v.push(path.to_string());
            }
        }
    };
    let render_one = |job: Job| {
        note(job.template, &job.page.path);
        if reuse.enabled() {
            let key = hash_of((
                templates.fingerprint(),
                job.template,
                &site_value,
                &job.page,
                &job.data,
            ));
            reuse.note_page(&job.page.path, Some(key));
            // Unchanged inputs, unchanged page: the site keeps its copy.
            if reuse.page_unchanged(&job.page.path, key) && out.keep(&job.page.path) {
                return Ok(());
            }
        }
        // The 404 page is served at any depth, so it links from the site's own address.
        let root = if job.template == not_found::TEMPLATE {
            model.site.base_url.clone()
        } else {
            urls::root_from(&job.page.path)
        };
        let (template, path) = (job.template, &job.page.path);
        out.write_with(path, |sink| {
            let mut html = Relativize::new(sink, &root);
            let rendered =
                templates.render_to(template, &site_value, &job.page, job.data, &mut html);
            // A failed write comes first: tera's message would only say
            // that writing failed.
            html.finish()?;
            rendered.map_err(|message| RenderError::Template {
                template: template.to_string(),
                page: path.clone(),
                message,
            })
        })
    };
    let keep = |pages: &[PageRef]| {
        let known = pages
            .iter()
            .all(|(_, p)| out.can_keep(p) && reuse.knows_page(p));
        if !known {
            return false;
        }
        for (template, p) in pages {
            note(template, p);
            out.keep(p);
            reuse.note_page(p, None);
        }
        true
    };
    let charts = Charts::new(model, templates, reuse);
    let resolve = |u: &str| resolve_link(model, u);
    let cx = Ctx {
        model,
        prepared,
        templates,
        charts: &charts,
        reuse,
        resolve: &resolve,
        desc: site.description.clone().unwrap_or_default(),
        by_status: Status::ALL
            .into_iter()
            .map(|s| lists::with_status(model, s))
            .collect(),
    };
    let mut batch = Batch::new(&render_one, &keep, reuse);
    if let Err(e) = list(&cx, &mut batch) {
        batch.fail(e);
    }
    let pages = batch.finish()?;
    runs::write_data(model, prepared, out)?;
    let mut sitemap = sitemap.into_inner().unwrap_or_else(|e| e.into_inner());
    sitemap.sort();
    Ok(Written { pages, sitemap })
}

/// Whether a page rendered with `template` belongs in the sitemap: all but
/// redirects and the 404 page.
fn in_sitemap(template: &str) -> bool {
    template != redirect::TEMPLATE && template != not_found::TEMPLATE
}

/// Lists every page of the site into `batch`, in a fixed order (the first
/// page that fails, in this order, is the error reported).
fn list<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) -> Result<(), RenderError> {
    home::list(cx, batch);
    let owners = run::owners(cx.model);
    finding::list(cx, &owners, batch)?;
    engine::list(cx, batch)?;
    lists::list_groups(cx, batch);
    lists::list_statuses(cx, batch, &cx.by_status);
    search::list(cx, batch);
    lists::list_terms(cx, batch);
    run::list(cx, &owners, batch)?;
    runs::list(cx, batch);
    table::list(cx, batch);
    compare::list(cx, batch);
    workloads::list(cx, batch);
    not_found::list(cx, batch);
    Ok(())
}
