//! Stage 4, render: the model → HTML pages, charts and assets.
//!
//! Three steps. First the per-item work that several pages share is done
//! once, in parallel: each finding's Markdown is rendered and its list entry
//! (a [`Card`]) built; every chart is drawn. Then the list of pages is
//! made, each a template name, a path and a small context that holds only
//! what that page shows (never the whole site). Last, pages render in
//! parallel and go straight to the writer, so memory stays flat with size.
//!
//! Links inside pages are relative (`../../findings/x/`), so the site works
//! under any sub-path and from disk; canonical and permanent URLs are
//! absolute, from `base_url`.

use crate::chart::{self, ChartInput};
use crate::markdown;
use crate::model::{EngineIndex, Model};
use crate::record::*;
use crate::sink::WriteError;
use crate::state::State;
use crate::templates::Templates;
use crate::urls;
use crate::urls::ROOT;
use crate::util::hash_of;
use crate::write::Staging;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// What went wrong while rendering.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A template failed (user templates can be wrong).
    #[error("template {template} failed for page /{page}: {message}")]
    Template {
        /// Template name.
        template: String,
        /// Page path.
        page: String,
        /// Tera's explanation, with its causes.
        message: String,
    },
    /// A chart could not be drawn.
    #[error("{file}: chart \"{chart}\": {message}")]
    Chart {
        /// The run.yaml.
        file: String,
        /// Chart id.
        chart: String,
        /// Why.
        message: String,
    },
    /// Writing failed.
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// What a build produced, for the summary line.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    /// HTML pages, redirects included.
    pub pages: usize,
    /// Finding pages.
    pub findings: usize,
    /// Run pages.
    pub runs: usize,
    /// Charts drawn.
    pub charts: usize,
    /// Files copied or generated besides pages.
    pub assets: usize,
}

// ---------------------------------------------------------------------------
// View types: what templates see. Paths in them start with ROOT.

/// A finding as it appears in lists.
#[derive(Serialize, Clone, Hash)]
struct Card {
    id: u32,
    label: String,
    url: String,
    title_html: String,
    title_text: String,
    advice: String,
    status: &'static str,
    status_note: Option<String>,
    summary_html: String,
    group: String,
    engines: Vec<CardEngine>,
}

#[derive(Serialize, Clone, Hash)]
struct CardEngine {
    id: String,
    name: String,
    color: String,
    url: String,
    versions: String,
}

#[derive(Serialize)]
struct VersionLink {
    version: String,
    url: String,
}

#[derive(Serialize)]
struct FactsEngine {
    id: String,
    name: String,
    url: String,
    color: String,
    affected: Vec<VersionLink>,
    clean: Vec<VersionLink>,
    introduced_in: Option<VersionLink>,
    fixed_in: Option<VersionLink>,
    mitigated_in: Option<VersionLink>,
    note: Option<String>,
}

#[derive(Serialize, Clone)]
struct NamedLink {
    name: String,
    url: String,
}

#[derive(Serialize)]
struct LinkView {
    label: String,
    url: String,
    kind: Option<String>,
    external: bool,
}

#[derive(Serialize, Clone)]
struct ChartView {
    id: String,
    dom_id: String,
    title: String,
    svg: String,
    summary: String,
    caption_html: String,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    csv_url: String,
    csv_name: String,
    run_url: String,
    run_title: String,
    /// The figure as the `chart` macro renders it, once for the two pages
    /// that show it (empty while it is rendered).
    html: String,
}

/// Everything about one finding, built once.
#[derive(Clone)]
struct Prepared {
    card: Arc<Card>,
    /// The card rendered by the `card` macro, with `h3` and `h2` titles:
    /// what `finding_card` returns to templates.
    card_html: (Arc<str>, Arc<str>),
    /// Under a [`Memo`], a hash of all a list may show of the finding: its
    /// card and every field but the body (see `finding_key`); else 0.
    list_hash: u64,
    summary_text: Arc<str>,
    /// The search index's terms and words of the finding (computed here,
    /// so the body's text is not kept for the whole build). Like the card,
    /// shared with the [`Memo`]: a rebuild reuses a card by a refcount,
    /// not a copy.
    search_terms: Arc<str>,
    search_words: Arc<str>,
}

/// Engine colours and names, for drawing charts, and what a build reuses.
struct Palette<'m> {
    colors: BTreeMap<String, String>,
    names: BTreeMap<String, String>,
    memo: &'m Memo,
    /// For a chart's figure (see [`ChartView::html`]).
    templates: &'m Templates,
}

#[derive(Serialize)]
struct SiteView<'a> {
    title: &'a str,
    description: Option<&'a str>,
    base_url: &'a str,
    engines: Vec<NamedLink>,
}

#[derive(Serialize, Hash)]
struct PageView {
    path: String,
    canonical: String,
    title: String,
    description: String,
    kind: &'static str,
    has_code: bool,
}

/// Results kept from one build to the next by a long-running process
/// (`serve`), so that a rebuild after an edit redoes only what the edit
/// changed. A plain build uses [`Memo::default`], which keeps nothing.
///
/// Every entry is keyed by a hash of all it is made from, so a stale entry
/// is never found, only left unused; entries a build did not use are
/// dropped when it ends, which bounds the memory to one build's worth.
#[derive(Default)]
pub struct Memo {
    pub(crate) enabled: bool,
    /// A hash of every target a `finding:` or `run:` link can resolve to in
    /// this build: part of the key of a rendered body.
    links: std::sync::atomic::AtomicU64,
    /// A hash of what every page may read (see `finding_key`).
    global: std::sync::atomic::AtomicU64,
    /// Rendered finding bodies, by body text and link targets.
    bodies: Cache<markdown::Rendered>,
    /// Drawn charts, by run, spec, table and engine colours.
    charts: Cache<ChartView>,
    /// Cards and texts of findings, by what they are made from.
    prepared: Cache<Prepared>,
    /// The pages of a finding (its page, redirects, the runs it renders) by
    /// [`finding_key`], and list pages by their key (see `jobs`).
    kept_pages: Cache<Vec<PageRef>>,
    /// Pieces of generated files (feed entries, JSON), by their inputs.
    pieces: Cache<Arc<Vec<u8>>>,
    /// By page path, a hash of everything a page is made from (template,
    /// site, page and data), as of the last build that succeeded: a page
    /// whose hash did not change is not rendered again.
    pages: std::collections::HashMap<String, u64>,
    next_pages: std::sync::Mutex<std::collections::HashMap<String, u64>>,
}

impl Memo {
    /// A memo that keeps results between builds.
    pub fn enabled() -> Memo {
        Memo {
            enabled: true,
            ..Memo::default()
        }
    }

    /// Ends a build: what it used becomes what the next one can reuse.
    /// Only after a successful build, since page hashes must describe the
    /// pages on disk.
    pub fn commit(&mut self) {
        self.bodies.rotate();
        self.charts.rotate();
        self.prepared.rotate();
        self.kept_pages.rotate();
        self.pieces.rotate();
        self.pages = std::mem::take(self.next_pages.get_mut().unwrap_or_else(|e| e.into_inner()));
    }

    /// Forgets a failed build's results, keeping the last good one's.
    pub fn abandon(&mut self) {
        self.bodies.clear_next();
        self.charts.clear_next();
        self.prepared.clear_next();
        self.kept_pages.clear_next();
        self.pieces.clear_next();
        if let Ok(m) = self.next_pages.get_mut() {
            m.clear();
        }
    }

    /// A cache key of `parts`; nothing is hashed when the memo keeps nothing.
    fn key(&self, parts: impl std::hash::Hash) -> u64 {
        if self.enabled {
            hash_of(parts)
        } else {
            0
        }
    }

    /// [`finding_body`], reused from the last build when the body and every
    /// link target are the same.
    pub(crate) fn body(&self, model: &Model, i: usize) -> markdown::Rendered {
        let links = self.links.load(std::sync::atomic::Ordering::Relaxed);
        let key = self.key((&model.findings[i].body, links));
        self.get_or_make(&self.bodies, key, || finding_body(model, i))
    }

    /// What `make` makes, reused from the last build when `key` (a hash of
    /// all `make` reads, together with [`Memo::global`]) is the same.
    pub(crate) fn piece(
        &self,
        key: impl std::hash::Hash,
        make: impl FnOnce() -> Vec<u8>,
    ) -> Arc<Vec<u8>> {
        let global = self.global.load(std::sync::atomic::Ordering::Relaxed);
        let key = self.key((global, key));
        self.get_or_make(&self.pieces, key, || Arc::new(make()))
    }

    /// [`Memo::get_or`] for what cannot fail.
    fn get_or_make<V: Clone>(&self, cache: &Cache<V>, key: u64, make: impl FnOnce() -> V) -> V {
        self.get_or(cache, key, || Ok::<_, std::convert::Infallible>(make()))
            .unwrap_or_else(|e| match e {})
    }

    fn get_or<V: Clone, E>(
        &self,
        cache: &Cache<V>,
        key: u64,
        make: impl FnOnce() -> Result<V, E>,
    ) -> Result<V, E> {
        if !self.enabled {
            return make();
        }
        if let Some(v) = cache.get(key) {
            return Ok(v);
        }
        let v = make()?;
        cache.put(key, v.clone());
        Ok(v)
    }
}

/// One kind of memoised result: the last build's, and this build's so far.
struct Cache<V> {
    last: std::sync::Mutex<std::collections::HashMap<u64, V>>,
    next: std::sync::Mutex<std::collections::HashMap<u64, V>>,
}

impl<V> Default for Cache<V> {
    fn default() -> Self {
        Cache {
            last: Default::default(),
            next: Default::default(),
        }
    }
}

impl<V: Clone> Cache<V> {
    fn get(&self, key: u64) -> Option<V> {
        let mut next = self.next.lock().ok()?;
        if let Some(v) = next.get(&key) {
            return Some(v.clone());
        }
        // Moved, not copied, into this build's entries.
        let v = self.last.lock().ok()?.remove(&key)?;
        let copy = v.clone();
        next.insert(key, v);
        Some(copy)
    }

    fn put(&self, key: u64, v: V) {
        if let Ok(mut next) = self.next.lock() {
            next.insert(key, v);
        }
    }

    fn rotate(&mut self) {
        let next = std::mem::take(self.next.get_mut().unwrap_or_else(|e| e.into_inner()));
        *self.last.get_mut().unwrap_or_else(|e| e.into_inner()) = next;
    }

    /// After a failed build: its entries go back to the last build's.
    fn clear_next(&mut self) {
        let next = std::mem::take(self.next.get_mut().unwrap_or_else(|e| e.into_inner()));
        self.last
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .extend(next);
    }
}

/// A page as a rebuild keeps it: its template and path.
type PageRef = (&'static str, String);

/// Pages rendered together, in parallel.
const BATCH: usize = 512;

/// A page waiting in a batch: its job, or what makes it (a list page's
/// context, built in parallel with the batch's other pages).
enum Pending<'a> {
    Ready(Job),
    Later(Box<dyn FnOnce() -> Job + Send + 'a>),
}

/// Collects pages as they are listed and renders each full batch in parallel.
struct Batch<'a> {
    pending: Vec<Pending<'a>>,
    render: &'a (dyn Fn(Job) -> Result<(), RenderError> + Sync),
    /// Keeps pages as the last build wrote them (see [`Memo`]); false when
    /// it cannot, and then they must be rendered.
    keep: &'a (dyn Fn(&[PageRef]) -> bool + Sync),
    memo: &'a Memo,
    /// How many list entries the pending pages hold (see [`weight`]).
    weight: usize,
    /// Whether a pending page will hold more than [`BIG_PAGE`] entries.
    big: bool,
    pages: usize,
    error: Option<RenderError>,
}

/// List entries that the pages of a batch may hold before it is rendered:
/// a list page of a big site carries thousands of cards in its context,
/// and holding every tag, version and engine page of 10,000 findings at
/// once would take hundreds of megabytes. This counts the contexts built
/// when a page is listed; a page whose context is built when it renders
/// (see [`Batch::later`]) holds nothing until then.
const BATCH_WEIGHT: usize = 5_000;

/// A page with more list entries than this renders in a batch of its own
/// kind: at most one per batch, beside any number of smaller ones. Each
/// rendering thread holds one page's context at a time, so two such pages
/// (the home and the open-status page of 10,000 findings, 20 MB of context
/// each) never render at once, while small pages keep the other core busy.
const BIG_PAGE: usize = 2_500;

/// Roughly how many list entries a page's context holds: the lengths of
/// its arrays, and of the arrays in their items, two levels down. Cheap
/// (no walk of the entries themselves) and enough to bound a batch.
fn weight(data: &serde_json::Value) -> usize {
    fn arrays(v: &serde_json::Value) -> usize {
        match v {
            serde_json::Value::Array(a) => a.len(),
            serde_json::Value::Object(o) => o
                .values()
                .map(|v| match v {
                    serde_json::Value::Array(a) => a.len(),
                    _ => 0,
                })
                .sum(),
            _ => 0,
        }
    }
    let serde_json::Value::Object(o) = data else {
        return 1;
    };
    1 + o
        .values()
        .map(|v| match v {
            serde_json::Value::Array(a) => a.len() + a.iter().map(arrays).sum::<usize>(),
            _ => 0,
        })
        .sum::<usize>()
}

impl<'a> Batch<'a> {
    /// Pushes the page `make` builds, unless the last build made that page
    /// from the same inputs (`key`, see `jobs`): then the site keeps it and
    /// its context is not even built.
    fn lazy(
        &mut self,
        key: Option<u64>,
        template: &'static str,
        path: String,
        make: impl FnOnce() -> Job,
    ) {
        if !self.kept(key, template, path) {
            self.push(make());
        }
    }

    /// Whether the page `key` names is kept as the last build wrote it (see
    /// [`Batch::lazy`]); if not, notes the key for the next build.
    fn kept(&mut self, key: Option<u64>, template: &'static str, path: String) -> bool {
        let Some(key) = key else {
            return false;
        };
        let page = vec![(template, path)];
        if self.memo.kept_pages.get(key).is_some() && self.keep(&page) {
            return true;
        }
        self.memo.kept_pages.put(key, page);
        false
    }

    /// Keeps `pages` as they are on disk, if possible (see `keep`).
    fn keep(&mut self, pages: &[PageRef]) -> bool {
        let kept = (self.keep)(pages);
        if kept {
            self.pages += pages.len();
        }
        kept
    }

    fn push(&mut self, job: Job) {
        let w = weight(&job.data);
        self.add(Pending::Ready(job), w, w);
    }

    /// Adds a page that will hold `entries` list entries, `held` of them
    /// from now on (its context is built), the rest when it renders.
    fn add(&mut self, pending: Pending<'a>, entries: usize, held: usize) {
        let big = entries > BIG_PAGE;
        // A page that would take the batch past its weight, or a second big
        // page, goes into the next batch.
        if !self.pending.is_empty() && (self.weight + held > BATCH_WEIGHT || (big && self.big)) {
            self.flush();
        }
        self.weight += held;
        self.big |= big;
        self.pending.push(pending);
        if self.pending.len() >= BATCH || self.weight >= BATCH_WEIGHT {
            self.flush();
        }
    }

    /// Like [`Batch::lazy`], but the page's context is built when its batch
    /// renders, in parallel with the other pages: for list pages, whose
    /// contexts (thousands of cards) cost as much as rendering them.
    /// `entries` is how many list entries it will hold (see [`weight`]).
    fn later(
        &mut self,
        key: Option<u64>,
        template: &'static str,
        path: String,
        entries: usize,
        make: impl FnOnce() -> Job + Send + 'a,
    ) {
        if !self.kept(key, template, path) {
            self.add(Pending::Later(Box::new(make)), 1 + entries, 0);
        }
    }

    /// Stops the build with `e` (unless an earlier page already failed).
    fn fail(&mut self, e: RenderError) {
        self.flush();
        self.error.get_or_insert(e);
    }

    fn flush(&mut self) {
        self.weight = 0;
        self.big = false;
        let jobs = std::mem::take(&mut self.pending);
        if self.error.is_some() {
            return;
        }
        self.pages += jobs.len();
        // Report the first failing page in page order, not whichever thread
        // failed first, so the same input always gives the same message.
        let render = self.render;
        let results: Vec<Result<(), RenderError>> = jobs
            .into_par_iter()
            .map(|p| match p {
                Pending::Ready(job) => render(job),
                Pending::Later(make) => render(make()),
            })
            .collect();
        self.error = results.into_iter().find_map(Result::err);
    }
}

/// A page to render: template, path, and its own context.
struct Job {
    template: &'static str,
    page: PageView,
    data: serde_json::Value,
}

// ---------------------------------------------------------------------------

/// Renders every page of `model` into `staging`.
pub fn render_site(
    model: &Model,
    templates: &Templates,
    staging: &Staging,
    memo: &Memo,
) -> Result<Counts, RenderError> {
    let site = &model.site;
    let palette = Palette {
        templates,
        colors: site
            .engines
            .iter()
            .map(|e| (e.id.clone(), e.color.clone()))
            .collect(),
        names: site
            .engines
            .iter()
            .map(|e| (e.id.clone(), e.name.clone()))
            .collect(),
        memo,
    };
    if memo.enabled {
        let links = hash_of((
            model
                .findings
                .iter()
                .map(|f| (f.id, &f.slug))
                .collect::<Vec<_>>(),
            model.runs.iter().map(|r| &r.id).collect::<Vec<_>>(),
        ));
        memo.links
            .store(links, std::sync::atomic::Ordering::Relaxed);
        // What any page may read besides its own records.
        let global = hash_of((
            links,
            templates.fingerprint(),
            model.site.content_hash,
            &model.site.base_url,
            model
                .engines
                .iter()
                .map(|ix| {
                    let versions: Vec<&str> = ix.versions.iter().map(|v| v.as_str()).collect();
                    (ix.engine, versions)
                })
                .collect::<Vec<_>>(),
        ));
        memo.global
            .store(global, std::sync::atomic::Ordering::Relaxed);
    }
    // Charts are drawn when the pages that show them are written.
    let chart_count = model.runs.iter().map(|r| r.charts.len()).sum();

    // Findings: cards and text, once each, in parallel.
    let resolve = |u: &str| resolve_link(model, u);
    let mut prepared: Vec<Prepared> = model
        .findings
        .par_iter()
        .map(|f| {
            // A card is made of the finding's file, the site's engines and
            // the templates.
            let key = memo.key((
                f.content_hash,
                &f.path,
                site.content_hash,
                templates.fingerprint(),
            ));
            memo.get_or(&memo.prepared, key, || {
                prepare(model, templates, f, memo.enabled)
            })
        })
        .collect::<Result<_, _>>()?;
    templates.set_cards(
        model
            .findings
            .iter()
            .zip(&prepared)
            .map(|(f, p)| (f.id, p.card_html.clone()))
            .collect(),
    );

    let site_view = SiteView {
        title: &site.title,
        description: site.description.as_deref(),
        base_url: &site.base_url,
        engines: site
            .engines
            .iter()
            .map(|e| NamedLink {
                name: e.name.clone(),
                url: format!("{ROOT}{}", urls::engine(&e.id)),
            })
            .collect(),
    };
    let site_value = serde_json::to_value(&site_view).unwrap_or_default();

    // Search index, feeds, JSON export, schemas (src/outputs.rs), before the
    // pages: what only they need of each finding (its search words, a
    // kilobyte each) is then dropped before the pages' contexts are built.
    let texts: Vec<crate::outputs::FindingText<'_>> = prepared
        .iter()
        .map(|p| crate::outputs::FindingText {
            title_text: &p.card.title_text,
            summary_text: &p.summary_text,
            summary_html: &p.card.summary_html,
            search_terms: &p.search_terms,
            search_words: &p.search_words,
            list_hash: p.list_hash,
        })
        .collect();
    let mut assets = crate::outputs::write(model, &texts, staging, memo)?;
    drop(texts);
    for p in &mut prepared {
        p.search_terms = Arc::from("");
        p.search_words = Arc::from("");
    }

    // Pages are rendered in batches as they are listed, so that only one
    // batch of page contexts is in memory at a time, whatever the site's size.
    let sitemap = crate::outputs::Sitemap::default();
    let render_one = |job: Job| {
        sitemap.note(job.template, &job.page.path);
        if memo.enabled {
            let key = hash_of((
                templates.fingerprint(),
                job.template,
                &site_value,
                &job.page,
                &job.data,
            ));
            if let Ok(mut next) = memo.next_pages.lock() {
                next.insert(job.page.path.clone(), key);
            }
            // Unchanged inputs, unchanged page: the site keeps its copy.
            if memo.pages.get(&job.page.path) == Some(&key) && staging.keep(&job.page.path) {
                return Ok(());
            }
        }
        // The 404 page is served at any depth, so it links from the site's own address.
        let root = if job.template == "404.html" {
            model.site.base_url.clone()
        } else {
            urls::root_from(&job.page.path)
        };
        let (template, path) = (job.template, &job.page.path);
        staging.write_with(path, |out| {
            let mut html = Relativize::new(out, &root);
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
            .all(|(_, p)| staging.can_keep(p) && memo.pages.contains_key(p));
        if !known {
            return false;
        }
        let Ok(mut next) = memo.next_pages.lock() else {
            return false;
        };
        for (template, p) in pages {
            sitemap.note(template, p);
            staging.keep(p);
            if let Some(&h) = memo.pages.get(p) {
                next.insert(p.clone(), h);
            }
        }
        true
    };
    let mut batch = Batch {
        pending: Vec::with_capacity(BATCH),
        render: &render_one,
        keep: &keep,
        memo,
        weight: 0,
        big: false,
        pages: 0,
        error: None,
    };
    jobs(model, &prepared, &palette, &resolve, &mut batch);
    batch.flush();
    if let Some(e) = batch.error {
        return Err(e);
    }
    let pages = batch.pages;

    // Published run data: each CSV as it is.
    assets += model
        .runs
        .par_iter()
        .map(|run| {
            for t in &run.tables {
                let text = run_table_csv(t);
                staging.write(&urls::run_file(&run.id, &t.file), text.as_bytes())?;
            }
            Ok::<_, WriteError>(run.tables.len())
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .sum::<usize>();
    let (light, dark) = crate::markdown::highlight::stylesheets();
    staging.write(urls::SYNTAX_LIGHT, light.as_bytes())?;
    staging.write(urls::SYNTAX_DARK, dark.as_bytes())?;
    assets += 2;

    assets += crate::outputs::write_sitemaps(model, &sitemap.pages(), staging)?;

    Ok(Counts {
        pages,
        findings: model.findings.len(),
        runs: model.runs.len(),
        charts: chart_count,
        assets,
    })
}

/// The CSV as the site publishes it: the loaded header and rows, so the
/// published file is exactly what the charts and tables show.
fn run_table_csv(t: &Table) -> String {
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    let _ = w.write_record(&t.header);
    for r in &t.rows {
        let _ = w.write_record(r);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// Passes a page's HTML on to a [`Sink`] as tera writes it, with the root
/// marker in links replaced by the page's relative root: no page is ever
/// whole in memory (a home page of 10,000 findings is 12 MB). The marker is
/// only replaced where a URL starts (right after `href="`, `src="`,
/// `action="` or `url=`), so text that happens to contain it stays.
struct Relativize<'s, 'o> {
    out: &'s mut crate::sink::Sink<'o>,
    root: &'s [u8],
    /// What came in and is not passed on yet. Tera writes a page in many
    /// small pieces; they are gathered here and replaced a block at a
    /// time. After a block, it keeps the end that may be the start of a
    /// marker the next write completes.
    buf: Vec<u8>,
    /// How much `buf` gathers before markers are replaced.
    block: usize,
    /// The last bytes passed on since the last marker (at most
    /// [`URL_START_MAX`]): whether the next marker starts a URL.
    recent: Vec<u8>,
    /// The first failed write, reported by [`Relativize::finish`] (tera
    /// only sees that writing failed).
    failed: Option<WriteError>,
}

/// What precedes a marker that starts a URL.
const URL_STARTS: [&[u8]; 4] = [b"href=\"", b"src=\"", b"action=\"", b"url="];
/// The longest of [`URL_STARTS`].
const URL_START_MAX: usize = 8;
/// How much of a page [`Relativize`] gathers before replacing markers.
const RELATIVIZE_BLOCK: usize = 16 * 1024;

impl<'s, 'o> Relativize<'s, 'o> {
    fn new(out: &'s mut crate::sink::Sink<'o>, root: &'s str) -> Self {
        let root = if root.is_empty() { "./" } else { root };
        Relativize {
            out,
            root: root.as_bytes(),
            buf: Vec::with_capacity(RELATIVIZE_BLOCK + 1024),
            block: RELATIVIZE_BLOCK,
            recent: Vec::with_capacity(2 * URL_START_MAX),
            failed: None,
        }
    }

    /// Passes on what is gathered, but for a tail that may be a cut marker
    /// unless this is the `last` of the page; that tail stays in `buf`.
    fn pass(&mut self, last: bool) -> Result<(), WriteError> {
        static MARKER: std::sync::OnceLock<memchr::memmem::Finder<'static>> =
            std::sync::OnceLock::new();
        let finder = MARKER.get_or_init(|| memchr::memmem::Finder::new(ROOT.as_bytes()));
        let marker = ROOT.as_bytes();
        let mut rest = &self.buf[..];
        while let Some(i) = finder.find(rest) {
            let before = &rest[..i];
            let starts_url = URL_STARTS
                .iter()
                .any(|p| ends_with(&self.recent, before, p));
            self.out.put(before)?;
            self.out.put(if starts_url { self.root } else { marker })?;
            self.recent.clear();
            rest = &rest[i + marker.len()..];
        }
        let cut = if last {
            0
        } else {
            (1..marker.len().min(rest.len() + 1))
                .rev()
                .find(|&k| rest.ends_with(&marker[..k]))
                .unwrap_or(0)
        };
        let now = &rest[..rest.len() - cut];
        self.out.put(now)?;
        self.recent
            .extend_from_slice(&now[now.len().saturating_sub(URL_START_MAX)..]);
        if self.recent.len() > URL_START_MAX {
            self.recent.drain(..self.recent.len() - URL_START_MAX);
        }
        let kept = self.buf.len() - cut;
        self.buf.drain(..kept);
        Ok(())
    }

    /// Passes on the rest; the first failed write, if any.
    fn finish(mut self) -> Result<(), WriteError> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.pass(true)
    }
}

/// Whether `recent` followed by `before` ends with `suffix`.
fn ends_with(recent: &[u8], before: &[u8], suffix: &[u8]) -> bool {
    if before.len() >= suffix.len() {
        return before.ends_with(suffix);
    }
    let (head, tail) = suffix.split_at(suffix.len() - before.len());
    before == tail && recent.ends_with(head)
}

impl std::io::Write for Relativize<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.failed.is_some() {
            return Err(std::io::Error::other("an earlier write failed"));
        }
        self.buf.extend_from_slice(buf);
        if self.buf.len() < self.block {
            return Ok(buf.len());
        }
        match self.pass(false) {
            Ok(()) => Ok(buf.len()),
            Err(e) => {
                let message = e.to_string();
                self.failed = Some(e);
                Err(std::io::Error::other(message))
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn resolve_link(model: &Model, url: &str) -> Option<String> {
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

/// [`draw`], reused from the last build when nothing it reads changed.
fn draw_chart(
    run: &Run,
    spec: &ChartSpec,
    palette: &Palette<'_>,
) -> Result<ChartView, RenderError> {
    // The run's file holds the spec and its tables.
    let memo = palette.memo;
    let key = memo.key((
        run.content_hash,
        &run.path,
        &spec.id,
        &palette.colors,
        &palette.names,
        palette.templates.fingerprint(),
    ));
    memo.get_or(&memo.charts, key, || draw(run, spec, palette))
}

fn draw(run: &Run, spec: &ChartSpec, palette: &Palette<'_>) -> Result<ChartView, RenderError> {
    let fail = |message: String| RenderError::Chart {
        file: run.path.display().to_string(),
        chart: spec.id.clone(),
        message,
    };
    let table = run
        .table(&spec.table)
        .ok_or_else(|| fail(format!("no table \"{}\"", spec.table)))?;
    let drawn = chart::render(&ChartInput {
        spec,
        table,
        engine_colors: &palette.colors,
        engine_names: &palette.names,
    })
    .map_err(|e| {
        // Point at the CSV cell when the chart module names one.
        let at = match (e.row_line, &e.column) {
            (Some(line), Some(col)) => format!("{}:{line}: column \"{col}\": ", table.file),
            (Some(line), None) => format!("{}:{line}: ", table.file),
            (None, Some(col)) => format!("{}: column \"{col}\": ", table.file),
            (None, None) => String::new(),
        };
        fail(format!("{at}{}", e.message))
    })?;
    let header = table
        .header
        .iter()
        .map(|h| table.column(h).map_or_else(|| h.clone(), Column::label))
        .collect();
    ChartView {
        id: spec.id.clone(),
        dom_id: format!("chart-{}-{}", run.id, spec.id),
        title: spec.title.clone(),
        svg: drawn.svg,
        summary: drawn.summary,
        caption_html: spec
            .caption
            .as_deref()
            .map(markdown::render_inline)
            .unwrap_or_default(),
        header,
        rows: table.rows.clone(),
        csv_url: format!("{ROOT}{}", urls::run_file(&run.id, &table.file)),
        csv_name: table.file.clone(),
        run_url: format!("{ROOT}{}", urls::run(&run.id)),
        run_title: run.title.clone(),
        html: String::new(),
    }
    .with_figure(palette.templates)
    .map_err(|message| fail(format!("template {}: {message}", crate::templates::CHART)))
}

impl ChartView {
    /// The view with its figure rendered by the `chart` macro.
    fn with_figure(mut self, templates: &Templates) -> Result<ChartView, String> {
        let value = serde_json::to_value(&self).unwrap_or_default();
        self.html = templates.render_piece(crate::templates::CHART, &value)?;
        Ok(self)
    }
}

fn version_text(e: &EngineEntry) -> String {
    let mut parts: Vec<String> = e.affected.iter().map(|v| v.to_string()).collect();
    if let Some(f) = &e.fixed_in {
        parts.push(format!("fixed in {f}"));
    } else if let Some(m) = &e.mitigated_in {
        parts.push(format!("mitigated in {m}"));
    }
    parts.join(", ")
}

/// What lists and the search index need of a finding: its card, from a
/// parse of the body without rendering it (pages render bodies when they
/// are written, so no body's HTML is held for the whole build).
fn prepare(
    model: &Model,
    templates: &Templates,
    f: &Finding,
    list_hash: bool,
) -> Result<Prepared, RenderError> {
    let (first_paragraph, body_text) = markdown::text_of(&f.body);
    let summary_md = f.summary.clone().unwrap_or(first_paragraph);
    let engines = f
        .engines
        .iter()
        .filter_map(|e| {
            let eng = model.site.engines.iter().find(|x| x.id == e.engine)?;
            Some(CardEngine {
                id: eng.id.clone(),
                name: eng.name.clone(),
                color: eng.color.clone(),
                url: format!("{ROOT}{}", urls::engine(&eng.id)),
                versions: version_text(e),
            })
        })
        .collect();
    let card = Card {
        id: f.id,
        label: format!("F{}", f.id),
        url: format!("{ROOT}{}", urls::finding(&f.slug)),
        title_html: markdown::render_inline(&f.title),
        title_text: markdown::plain_text(&f.title),
        advice: f.advice.clone(),
        status: f.status.as_str(),
        status_note: f.status_note.clone(),
        summary_html: markdown::render_inline(&summary_md),
        group: f.group.clone(),
        engines,
    };
    let summary_text = markdown::plain_text(&summary_md);
    let (search_terms, search_words) =
        crate::search::terms_and_words(model, f, &card.title_text, &summary_text, &body_text);
    drop(body_text);
    let list_hash = if list_hash {
        // The record without its body (nor what comes of it, nor the field
        // positions, whose maps have no fixed order).
        let rest = Finding {
            content_hash: 0,
            body: String::new(),
            facts: Default::default(),
            spans: Default::default(),
            ..f.clone()
        };
        hash_of((format!("{rest:?}"), &card))
    } else {
        0
    };
    // The card as lists show it, through the site's `card` macro.
    let value = serde_json::to_value(&card).unwrap_or_default();
    let (h3, h2) = templates
        .card_titles(&value)
        .map_err(|message| RenderError::Template {
            template: crate::templates::CARD.to_string(),
            page: urls::finding(&f.slug),
            message,
        })?;
    let card_html = (Arc::<str>::from(h3), Arc::<str>::from(h2));
    Ok(Prepared {
        summary_text: summary_text.into(),
        card: Arc::new(card),
        card_html,
        list_hash,
        search_terms: search_terms.into(),
        search_words: search_words.into(),
    })
}

/// A finding's body rendered to HTML, internal links still starting with
/// [`ROOT`]. Called when its page is written, and by the feed for the few
/// findings it carries.
pub fn finding_body(model: &Model, i: usize) -> markdown::Rendered {
    markdown::render(&model.findings[i].body, &|u: &str| resolve_link(model, u))
}

fn page(
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
fn object<const N: usize>(fields: [(&str, serde_json::Value); N]) -> serde_json::Value {
    serde_json::Value::Object(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// The cards of `idx`, borrowed: serialized into a page's context as they
/// are, without a copy of each (a home page of 10,000 findings would hold
/// both).
fn cards<'p>(prepared: &'p [Prepared], idx: &[usize]) -> Vec<&'p Card> {
    idx.iter().map(|&i| &*prepared[i].card).collect()
}

/// A version as written, linking to its page (whose spelling may differ).
fn vlink(model: &Model, engine: &str, v: &crate::version::Version) -> VersionLink {
    VersionLink {
        version: v.to_string(),
        url: format!(
            "{ROOT}{}",
            urls::version(engine, model.version_page(engine, v).as_str())
        ),
    }
}

/// Builds the list of every page of the site.
fn jobs<'a>(
    model: &'a Model,
    prepared: &'a [Prepared],
    palette: &'a Palette<'_>,
    resolve: markdown::Resolver<'_>,
    jobs: &mut Batch<'a>,
) {
    let site = &model.site;
    let desc = site.description.clone().unwrap_or_default();
    // Under a memo, each page's key: a hash of what every page may read
    // (`global`), its path, and the list hashes (see `Prepared`) of the
    // findings it lists, or whatever else it is made of. A page whose key
    // did not change is kept as the last build wrote it (see `Batch::lazy`).
    let memo = palette.memo;
    let global = memo
        .enabled
        .then(|| memo.global.load(std::sync::atomic::Ordering::Relaxed));
    let key =
        |path: &str, members: &dyn Fn() -> Vec<u64>| global.map(|g| hash_of((g, path, members())));
    let listing = |idx: &[usize]| {
        idx.iter()
            .map(|&i| prepared[i].list_hash)
            .collect::<Vec<u64>>()
    };
    let all = |()| {
        (0..model.findings.len())
            .map(|i| prepared[i].list_hash)
            .collect::<Vec<u64>>()
    };
    let listed: Vec<usize> = model.listed().collect();

    // Home.
    let blurbs: Vec<String> = site
        .groups
        .iter()
        .map(|g| {
            g.blurb
                .as_deref()
                .map(|b| markdown::render(b, resolve).html)
                .unwrap_or_default()
        })
        .collect();
    let (home_desc, count) = (desc.clone(), listed.len());
    jobs.later(
        key("", &|| all(())),
        "index.html",
        String::new(),
        count,
        move || {
            let groups: Vec<serde_json::Value> = site
                .groups
                .iter()
                .zip(&model.groups)
                .zip(blurbs)
                .map(|((g, idx), blurb_html)| {
                    serde_json::json!({
                        "id": g.id,
                        "title": g.title,
                        "url": format!("{ROOT}{}", urls::group(&g.id)),
                        "blurb_html": blurb_html,
                        "findings": cards(prepared, idx),
                    })
                })
                .collect();
            Job {
                template: "index.html",
                page: page(model, String::new(), site.title.clone(), home_desc, "home"),
                data: object([
                    ("groups", groups.into()),
                    ("count", count.into()),
                    ("filters", crate::outputs::home_filters(model)),
                    ("entries_json", crate::outputs::home_entries(model).into()),
                ]),
            }
        },
    );

    // Findings, short URLs and aliases (and the runs they own, see
    // `run_owners`): in parallel, each finding's pages rendered by the
    // thread that built their contexts.
    let owners = run_owners(model);
    let every: Vec<usize> = (0..model.findings.len()).collect();
    // A rebuild keeps the pages of a finding none of whose inputs changed
    // (see `finding_key`) without building their contexts.
    for chunk in every.chunks(BATCH) {
        let built: Vec<(usize, Option<u64>, Option<Vec<PageRef>>)> = chunk
            .par_iter()
            .map(|&i| {
                let key = global.map(|g| finding_key(model, prepared, &owners, i, g));
                let kept = key.and_then(|k| memo.kept_pages.get(k));
                (i, key, kept)
            })
            .collect();
        let mut todo = Vec::new();
        for (i, key, kept) in built {
            match kept {
                Some(pages) if jobs.keep(&pages) => {
                    if let Some(k) = key {
                        memo.kept_pages.put(k, pages);
                    }
                }
                _ => todo.push((i, key)),
            }
        }
        // Each finding's pages are rendered as soon as their contexts are
        // built, by the thread that built them: no chunk of contexts (each
        // with its body's HTML and its charts) waits in memory for a batch.
        // Pages listed before (the home page) wait for the next batch; a
        // finding that fails renders them first (see `Batch::fail`), so the
        // error reported is still the first in page order.
        let render = jobs.render;
        // Each finding's page key and the pages it rendered.
        type Done = Result<(Option<u64>, Vec<PageRef>), RenderError>;
        let done: Vec<Done> = todo
            .par_iter()
            .map(|&(i, key)| {
                let js = finding_jobs(model, prepared, palette, resolve, &owners, i)?;
                let pages: Vec<PageRef> = js
                    .iter()
                    .map(|j| (j.template, j.page.path.clone()))
                    .collect();
                for j in js {
                    render(j)?;
                }
                Ok((key, pages))
            })
            .collect();
        // The first failure in page order, whichever thread met it first.
        for r in done {
            match r {
                Ok((key, pages)) => {
                    jobs.pages += pages.len();
                    if let Some(k) = key {
                        memo.kept_pages.put(k, pages);
                    }
                }
                Err(e) => return jobs.fail(e),
            }
        }
    }

    // Engines.
    jobs.lazy(
        key(urls::ENGINES, &|| all(())),
        "engines.html",
        urls::ENGINES.into(),
        || {
            let engine_rows: Vec<serde_json::Value> = model
        .engines
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
            Job {
                template: "engines.html",
                page: page(
                    model,
                    urls::ENGINES.into(),
                    "Engines".into(),
                    format!("Findings by engine and version: {desc}"),
                    "engines",
                ),
                data: serde_json::json!({ "engines": engine_rows }),
            }
        },
    );
    let legend: Vec<serde_json::Value> = State::ALL
        .iter()
        .map(|s| serde_json::json!({"state": s.as_str(), "label": s.label(), "tested": s.is_tested()}))
        .collect();
    for ix in &model.engines {
        let id = &site.engines[ix.engine].id;
        let path = urls::engine(id);
        let legend = legend.clone();
        let cells = match matrix_cells(model, palette.templates, ix) {
            Ok(c) => c,
            Err(e) => return jobs.fail(e),
        };
        jobs.later(
            key(&path, &|| listing(&ix.findings)),
            "engine.html",
            path.clone(),
            ix.findings.len(),
            move || engine_page(model, prepared, ix, &legend, &cells),
        );
        for (j, v) in ix.versions.iter().enumerate() {
            let path = urls::version(id, v.as_str());
            jobs.later(
                key(&path, &|| listing(&ix.findings)),
                "version.html",
                path.clone(),
                ix.findings.len(),
                move || version_page(model, prepared, ix, j, v),
            );
        }
    }

    // Groups, tags, models.
    for (g, idx) in site.groups.iter().zip(&model.groups) {
        let path = urls::group(&g.id);
        let intro_html = g
            .blurb
            .as_deref()
            .map(|b| markdown::render(b, resolve).html)
            .unwrap_or_default();
        jobs.later(
            key(&path, &|| listing(idx)),
            "list.html",
            path.clone(),
            idx.len(),
            move || Job {
                template: "list.html",
                page: page(
                    model,
                    path,
                    g.title.clone(),
                    format!("{}: findings in this group", g.title),
                    "group",
                ),
                data: serde_json::json!({
                    "heading": g.title, "kind_label": "Group",
                    "intro_html": intro_html,
                    "findings": cards(prepared, idx),
                }),
            },
        );
    }
    // Statuses, and the search page (src/outputs.rs).
    for s in Status::ALL {
        let (heading, intro) = crate::outputs::status_text(s);
        let path = urls::status(s.as_str());
        let with = crate::outputs::with_status(model, s);
        let k = key(&path, &|| listing(&with));
        jobs.later(k, "list.html", path.clone(), with.len(), move || Job {
            template: "list.html",
            page: page(
                model,
                path,
                format!("Status: {heading}"),
                format!("{heading} findings: {intro}"),
                "status",
            ),
            data: serde_json::json!({
                "heading": heading, "kind_label": "Status", "intro_html": format!("<p>{intro}</p>"),
                "findings": cards(prepared, &with),
            }),
        });
    }
    jobs.lazy(
        key(urls::SEARCH, &|| all(())),
        "search.html",
        urls::SEARCH.into(),
        || Job {
            template: "search.html",
            page: page(
                model,
                urls::SEARCH.into(),
                "Search".into(),
                format!("Search the findings: {desc}"),
                "search",
            ),
            data: serde_json::json!({ "count": listed.len() }),
        },
    );
    for (kind, label, index_path, terms, url_of) in [
        (
            "tag",
            "Tag",
            urls::TAGS,
            &model.tags,
            urls::tag as fn(&str) -> String,
        ),
        (
            "model",
            "Model",
            urls::MODELS,
            &model.models,
            urls::model as fn(&str) -> String,
        ),
    ] {
        let mut list = Vec::new();
        for t in terms.values() {
            list.push(serde_json::json!({"name": t.name, "url": format!("{ROOT}{}", url_of(&t.name)), "count": t.findings.len()}));
            let path = url_of(&t.name);
            jobs.later(
                key(&path, &|| listing(&t.findings)),
                "list.html",
                path.clone(),
                t.findings.len(),
                move || Job {
                    template: "list.html",
                    page: page(
                        model,
                        path,
                        format!("{label}: {}", t.name),
                        format!("Findings about {}", t.name),
                        kind,
                    ),
                    data: serde_json::json!({
                        "heading": t.name, "kind_label": label, "intro_html": "",
                        "findings": cards(prepared, &t.findings),
                    }),
                },
            );
        }
        let plural = if kind == "tag" { "Tags" } else { "Models" };
        jobs.lazy(
            key(index_path, &|| all(())),
            "terms.html",
            index_path.into(),
            || Job {
                template: "terms.html",
                page: page(
                    model,
                    index_path.into(),
                    plural.into(),
                    format!("{plural} of the findings"),
                    kind,
                ),
                data: serde_json::json!({ "heading": plural, "terms": list }),
            },
        );
    }

    // Runs. A run whose charts a finding shows was rendered with that
    // finding (see `run_owners`), so its charts are drawn once.
    for (r, run) in model.runs.iter().enumerate() {
        if owners[r].is_some() {
            continue;
        }
        let path = urls::run(&run.id);
        let k = key(&path, &|| {
            let mut m = listing(&model.citations[r]);
            m.push(run.content_hash);
            m
        });
        let mut failed = None;
        jobs.lazy(k, "run.html", path, || {
            match run_job(model, prepared, palette, resolve, r, &[]) {
                Ok(job) => job,
                Err(e) => {
                    failed = Some(e);
                    // Never rendered: the build stops below.
                    redirect(model, String::new(), "", "")
                }
            }
        });
        if let Some(e) = failed {
            return jobs.fail(e);
        }
    }
    let run_members = || {
        model
            .runs
            .iter()
            .zip(&model.citations)
            .map(|(run, c)| hash_of((run.content_hash, c.len())))
            .collect()
    };
    let runs_key = key(urls::RUNS, &run_members);
    jobs.later(runs_key, "runs.html", urls::RUNS.into(), model.runs.len(), move || {
    let run_rows: Vec<serde_json::Value> = model
        .runs
        .iter()
        .enumerate()
        .map(|(r, run)| serde_json::json!({
            "id": run.id, "title": run.title, "date": run.date.to_string(), "date_long": run.date.long(),
            "url": format!("{ROOT}{}", urls::run(&run.id)), "count": model.citations[r].len(),
        }))
        .collect();
    Job {
        template: "runs.html",
        page: page(
            model,
            urls::RUNS.into(),
            "Runs".into(),
            "The measurements behind the findings".into(),
            "runs",
        ),
        data: object([("runs", run_rows.into())]),
    }
    });

    jobs.push(Job {
        template: "404.html",
        page: page(
            model,
            "404.html".into(),
            "Page not found".into(),
            desc,
            "404",
        ),
        data: serde_json::json!({}),
    });
}

/// For each run, the finding whose page renders the run's page too: the
/// first that shows one of its charts, so both pages share that drawing.
/// `None` for a run no finding shows a chart of.
fn run_owners(model: &Model) -> Vec<Option<usize>> {
    let mut owners = vec![None; model.runs.len()];
    for (i, shown) in model.charts.iter().enumerate() {
        for &(r, _) in shown {
            owners[r].get_or_insert(i);
        }
    }
    owners
}

/// The page of run `r`. Charts already drawn for a finding's page come in
/// `drawn`; the others are drawn here.
fn run_job(
    model: &Model,
    prepared: &[Prepared],
    palette: &Palette<'_>,
    resolve: markdown::Resolver<'_>,
    r: usize,
    drawn: &[(crate::model::ChartRef, ChartView)],
) -> Result<Job, RenderError> {
    let site = &model.site;
    let run = &model.runs[r];
    let setups: Vec<serde_json::Value> = run
        .setups
        .iter()
        .map(|s| {
            let eng = site.engines.iter().find(|e| e.id == s.engine);
            serde_json::json!({
                "engine": eng.map_or(s.engine.as_str(), |e| e.name.as_str()),
                "url": eng.map(|e| format!("{ROOT}{}", urls::engine(&e.id))),
                "version": s.version,
                "version_url": match (eng, s.version.as_deref().and_then(|v| crate::version::Version::parse(v).ok())) {
                    (Some(e), Some(v)) => Some(vlink(model, &e.id, &v).url),
                    _ => None,
                },
                "flags": s.flags,
            })
        })
        .collect();
    let tables: Vec<serde_json::Value> = run
        .tables
        .iter()
        .map(|t| serde_json::json!({
            "file": t.file, "title": t.title,
            "url": format!("{ROOT}{}", urls::run_file(&run.id, &t.file)),
            "columns": t.columns.iter().map(|c| serde_json::json!({"name": c.name, "unit": c.unit, "description": c.description})).collect::<Vec<_>>(),
            "header": t.header.iter().map(|h| t.column(h).map_or_else(|| h.clone(), Column::label)).collect::<Vec<_>>(),
            "rows": t.rows,
        }))
        .collect();
    let run_charts: Vec<ChartView> = run
        .charts
        .iter()
        .enumerate()
        .map(|(c, spec)| match drawn.iter().find(|(k, _)| *k == (r, c)) {
            Some((_, view)) => Ok(view.clone()),
            None => draw_chart(run, spec, palette),
        })
        .collect::<Result<_, _>>()?;
    Ok(Job {
        template: "run.html",
        page: page(
            model,
            urls::run(&run.id),
            run.title.clone(),
            format!("Run data: {}", run.title),
            "run",
        ),
        data: serde_json::json!({
            "run": {
                "id": run.id, "title": run.title, "date": run.date.to_string(), "date_long": run.date.long(),
                "model": run.model, "hardware": run.hardware, "client": run.client, "endpoint": run.endpoint,
                "source": run.source,
                "notes_html": run.notes.as_deref().map(|n| markdown::render(n, resolve).html).unwrap_or_default(),
            },
            "setups": setups,
            "tables": tables,
            "charts": run_charts,
            "cited_by": cards(prepared, &model.citations[r]),
        }),
    })
}

/// A hash of everything [`finding_jobs`] reads for finding `i`, given
/// `global`, a hash of what every page may read (the site, templates, link
/// targets, version pages): the finding's own file, the list hashes of the
/// findings whose cards its page shows (backlinks, its successor), the
/// files of the runs it cites or shows charts of, and for the runs whose
/// pages it renders (see `run_owners`) the findings that cite them. Equal keys mean
/// equal pages. Keep it in step with `finding_jobs` and `run_job`.
fn finding_key(
    model: &Model,
    prepared: &[Prepared],
    owners: &[Option<usize>],
    i: usize,
    global: u64,
) -> u64 {
    let f = &model.findings[i];
    let finding = |j: usize| prepared[j].list_hash;
    let run = |r: usize| model.runs[r].content_hash;
    let owned: Vec<(usize, u64, Vec<u64>)> = model.charts[i]
        .iter()
        .map(|&(r, _)| r)
        .filter(|&r| owners[r] == Some(i))
        .map(|r| {
            (
                r,
                run(r),
                model.citations[r].iter().map(|&j| finding(j)).collect(),
            )
        })
        .collect();
    hash_of((
        global,
        (f.content_hash, &f.path, f.draft),
        model.backlinks[i]
            .iter()
            .map(|&j| finding(j))
            .collect::<Vec<_>>(),
        f.superseded_by
            .and_then(|s| model.by_id.get(&s))
            .map(|&s| finding(s)),
        model.charts[i]
            .iter()
            .map(|&(r, c)| (run(r), c))
            .collect::<Vec<_>>(),
        f.runs
            .iter()
            .filter_map(|r| model.run_by_id.get(r))
            .map(|&r| run(r))
            .collect::<Vec<_>>(),
        owned,
    ))
}

/// The page of finding `i`, its short URL and its aliases. Its body and
/// charts are rendered here, when the page is about to be written.
fn finding_jobs(
    model: &Model,
    prepared: &[Prepared],
    palette: &Palette<'_>,
    resolve: markdown::Resolver<'_>,
    owners: &[Option<usize>],
    i: usize,
) -> Result<Vec<Job>, RenderError> {
    let site = &model.site;
    let f = &model.findings[i];
    let mut out = Vec::with_capacity(2 + f.aliases.len());
    let p = &prepared[i];
    let path = urls::finding(&f.slug);
    let permalink = format!("{}{}", site.base_url, urls::short(f.id));
    let title_text = &p.card.title_text;
    let md_title = title_text.replace('[', "\\[").replace(']', "\\]");
    let facts: Vec<FactsEngine> = f
        .engines
        .iter()
        .filter_map(|e| {
            let eng = site.engines.iter().find(|x| x.id == e.engine)?;
            Some(FactsEngine {
                id: eng.id.clone(),
                name: eng.name.clone(),
                url: format!("{ROOT}{}", urls::engine(&eng.id)),
                color: eng.color.clone(),
                affected: e
                    .affected
                    .iter()
                    .map(|v| vlink(model, &eng.id, v))
                    .collect(),
                clean: e.clean.iter().map(|v| vlink(model, &eng.id, v)).collect(),
                introduced_in: e.introduced_in.as_ref().map(|v| vlink(model, &eng.id, v)),
                fixed_in: e.fixed_in.as_ref().map(|v| vlink(model, &eng.id, v)),
                mitigated_in: e.mitigated_in.as_ref().map(|v| vlink(model, &eng.id, v)),
                note: e.note.clone(),
            })
        })
        .collect();
    let drawn: Vec<(crate::model::ChartRef, ChartView)> = model.charts[i]
        .iter()
        .map(|&(r, c)| {
            draw_chart(&model.runs[r], &model.runs[r].charts[c], palette).map(|v| ((r, c), v))
        })
        .collect::<Result<_, _>>()?;
    let body = palette.memo.body(model, i);
    let links: Vec<LinkView> = f
        .links
        .iter()
        .map(|l| LinkView {
            label: l.label.clone(),
            url: resolve(&l.url).unwrap_or_else(|| l.url.clone()),
            kind: l.kind.clone(),
            external: l.url.starts_with("http"),
        })
        .collect();
    let runs: Vec<NamedLink> = f
        .runs
        .iter()
        .filter_map(|r| model.run_by_id.get(r))
        .map(|&r| NamedLink {
            name: model.runs[r].title.clone(),
            url: format!("{ROOT}{}", urls::run(&model.runs[r].id)),
        })
        .collect();
    let superseded = f
        .superseded_by
        .and_then(|s| model.by_id.get(&s))
        .map(|&s| &*prepared[s].card);
    let mut pv = page(
        model,
        path.clone(),
        format!("F{}: {}", f.id, title_text),
        crate::outputs::description(&f.advice, &p.summary_text),
        "finding",
    );
    pv.has_code = body.has_code;
    out.push(Job {
        template: "finding.html",
        page: pv,
        data: serde_json::json!({
            "finding": &*p.card,
            "group": site.groups.iter().find(|g| g.id == f.group).map(|g| serde_json::json!({"id": g.id, "title": g.title, "url": format!("{ROOT}{}", urls::group(&g.id))})),
            "body_html": body.html,
            "facts": facts,
            "models": f.models.iter().map(|m| NamedLink { name: m.clone(), url: format!("{ROOT}{}", urls::model(m)) }).collect::<Vec<_>>(),
            "hardware": f.hardware,
            "tags": f.tags.iter().map(|t| NamedLink { name: t.clone(), url: format!("{ROOT}{}", urls::tag(t)) }).collect::<Vec<_>>(),
            "found_by": f.found_by.as_str(),
            "published": f.published.to_string(),
            "published_long": f.published.long(),
            "updated": f.updated.map(|d| d.to_string()),
            "updated_long": f.updated.map(|d| d.long()),
            "links": links,
            "runs": runs,
            "charts": drawn.iter().map(|(_, v)| v).collect::<Vec<_>>(),
            "backlinks": cards(prepared, &model.backlinks[i]),
            "permalink": permalink,
            "markdown_link": format!("[F{}: {}]({})", f.id, md_title, permalink),
            "withdrawn": f.withdrawn.as_ref().map(|w| serde_json::json!({"date": w.date.to_string(), "date_long": w.date.long(), "reason": w.reason})),
            "superseded_by": superseded,
            "draft": f.draft,
        }),
    });
    let target = format!("{ROOT}{path}");
    out.push(redirect(
        model,
        urls::short(f.id),
        &target,
        &p.card.title_text,
    ));
    for a in &f.aliases {
        out.push(redirect(model, urls::alias(a), &target, &p.card.title_text));
    }
    // The runs whose page goes with this finding's, sharing its drawings.
    let mut owned: Vec<usize> = drawn.iter().map(|&((r, _), _)| r).collect();
    owned.sort_unstable();
    owned.dedup();
    for r in owned {
        if owners[r] == Some(i) {
            out.push(run_job(model, prepared, palette, resolve, r, &drawn)?);
        }
    }
    Ok(out)
}

fn redirect(model: &Model, path: String, target: &str, title: &str) -> Job {
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
        template: "redirect.html",
        page: pv,
        data: serde_json::json!({ "target": target }),
    }
}

/// The cells of an engine's version matrix, by version and state, as the
/// `state_cell` macro renders them: an engine page of 10,000 findings has
/// tens of thousands of cells but a few dozen distinct ones, and tera
/// calling the macro for each took most of the page's time.
fn matrix_cells(
    model: &Model,
    templates: &Templates,
    ix: &EngineIndex,
) -> Result<HashMap<(usize, State), String>, RenderError> {
    let e = &model.site.engines[ix.engine];
    let mut out = HashMap::new();
    for row in &ix.cells {
        for (j, &s) in row.iter().enumerate() {
            if out.contains_key(&(j, s)) {
                continue;
            }
            let value = serde_json::json!({
                "cell": {"state": s.as_str(), "label": s.label(), "tested": s.is_tested()},
                "version": vlink(model, &e.id, &ix.versions[j]),
            });
            let html = templates
                .render_piece(crate::templates::CELL, &value)
                .map_err(|message| RenderError::Template {
                    template: crate::templates::CELL.to_string(),
                    page: urls::engine(&e.id),
                    message,
                })?;
            out.insert((j, s), html);
        }
    }
    Ok(out)
}

fn engine_page(
    model: &Model,
    prepared: &[Prepared],
    ix: &EngineIndex,
    legend: &[serde_json::Value],
    cells_html: &HashMap<(usize, State), String>,
) -> Job {
    let e = &model.site.engines[ix.engine];
    let versions: Vec<VersionLink> = ix.versions.iter().map(|v| vlink(model, &e.id, v)).collect();
    let rows: Vec<serde_json::Value> = ix
        .findings
        .iter()
        .zip(&ix.cells)
        .map(|(&i, cells)| {
            let entry = model.findings[i].engines.iter().find(|x| x.engine == e.id);
            let html: String = cells
                .iter()
                .enumerate()
                .filter_map(|(j, s)| cells_html.get(&(j, *s)).map(String::as_str))
                .collect();
            let cells: Vec<serde_json::Value> = cells
                .iter()
                .map(|s| serde_json::json!({"state": s.as_str(), "label": s.label(), "tested": s.is_tested()}))
                .collect();
            object([
                ("finding", serde_json::json!(&*prepared[i].card)),
                ("note", serde_json::json!(entry.and_then(|x| x.note.as_deref()))),
                ("cells", cells.into()),
                ("cells_html", html.into()),
            ])
        })
        .collect();
    Job {
        template: "engine.html",
        page: page(
            model,
            urls::engine(&e.id),
            format!("{}: findings by version", e.name),
            format!("What is known to affect each {} version", e.name),
            "engine",
        ),
        data: object([
            (
                "engine",
                serde_json::json!({"id": e.id, "name": e.name, "color": e.color, "repo": e.repo}),
            ),
            ("versions", serde_json::json!(versions)),
            ("rows", rows.into()),
            ("legend", legend.into()),
            (
                "your_version_json",
                crate::outputs::engine_data(model, ix).into(),
            ),
        ]),
    }
}

fn version_page(
    model: &Model,
    prepared: &[Prepared],
    ix: &EngineIndex,
    j: usize,
    v: &crate::version::Version,
) -> Job {
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
        template: "version.html",
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// The whole page at once, as the site was relativized before pages
    /// were streamed: the reference for [`Relativize`].
    fn whole(html: &str, root: &str) -> String {
        let root = if root.is_empty() { "./" } else { root };
        let mut out = String::new();
        let mut rest = html;
        while let Some(i) = rest.find(ROOT) {
            let before = &rest[..i];
            out.push_str(before);
            let starts_url = ["href=\"", "src=\"", "action=\"", "url="]
                .iter()
                .any(|p| before.ends_with(p));
            out.push_str(if starts_url { root } else { ROOT });
            rest = &rest[i + ROOT.len()..];
        }
        out.push_str(rest);
        out
    }

    /// `html` written through [`Relativize`] in pieces of `size` bytes,
    /// replaced in blocks of `block` bytes.
    fn streamed(html: &str, root: &str, size: usize, block: usize) -> String {
        let mut bytes = Vec::new();
        let path = std::path::PathBuf::from("page.html");
        let mut sink = crate::sink::Sink::new(&mut bytes, &path);
        let mut w = Relativize::new(&mut sink, root);
        w.block = block;
        for piece in html.as_bytes().chunks(size) {
            w.write_all(piece).unwrap();
        }
        w.finish().unwrap();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn streamed_pages_link_from_their_folder_however_tera_cuts_the_writes() {
        let html = format!(
            "<a href=\"{ROOT}findings/x/\">x</a> <img src=\"{ROOT}a.svg\"> \
             <form action=\"{ROOT}search/\"></form> <meta http-equiv=\"refresh\" content=\"0; url={ROOT}f/\"> \
             text that names {ROOT} stays; href=\"{ROOT}{ROOT}twice\" and @@root@ almost, \
             ends with href=\"{ROOT}"
        );
        let want = whole(&html, "../../");
        assert!(
            want.contains("href=\"../../findings/x/\"") && want.contains("names @@root@@/ stays")
        );
        for size in 1..=html.len() {
            for block in [1, 5, 9, 64, RELATIVIZE_BLOCK] {
                assert_eq!(
                    streamed(&html, "../../", size, block),
                    want,
                    "pieces of {size} bytes, blocks of {block}"
                );
            }
        }
        assert_eq!(
            streamed("<a href=\"@@root@@/\">", "", 3, 1),
            "<a href=\"./\">"
        );
    }
}
