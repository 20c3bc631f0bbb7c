//! Pages rendered in batches as they are listed, so that only one batch of
//! page contexts is in memory at a time, whatever the site's size.
//!
//! The page kinds (`super::home`, `super::finding`, …) push [`Job`]s, or
//! closures that build a list page's context when its batch renders, into a
//! [`Batch`]; a full batch renders in parallel through the function the
//! caller gave (`super::write`). Under `serve`, a page whose inputs did
//! not change is kept as the last build wrote it, its context never built.

use super::view::PageView;
use crate::render::reuse::{PageRef, Reuse};
use crate::render::RenderError;
use rayon::prelude::*;

/// Pages rendered together, in parallel.
pub(super) const BATCH: usize = 512;

/// A page waiting in a batch: its job, or what makes it (a list page's
/// context, built in parallel with the batch's other pages).
enum Pending<'a> {
    Ready(Job),
    Later(Box<dyn FnOnce() -> Job + Send + 'a>),
}

/// Collects pages as they are listed and renders each full batch in parallel.
pub(super) struct Batch<'a> {
    pending: Vec<Pending<'a>>,
    pub(super) render: &'a (dyn Fn(Job) -> Result<(), RenderError> + Sync),
    /// Keeps pages as the last build wrote them (see [`Reuse`]); false
    /// when it cannot, and then they must be rendered.
    keep: &'a (dyn Fn(&[PageRef]) -> bool + Sync),
    reuse: &'a Reuse<'a>,
    /// How many list entries the pending pages hold (see [`weight`]).
    weight: usize,
    /// Whether a pending page will hold more than [`BIG_PAGE`] entries.
    big: bool,
    /// Pages rendered or kept so far.
    pub(super) pages: usize,
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
    /// An empty batch that renders pages with `render`, and keeps those the
    /// last build wrote with `keep`.
    pub(super) fn new(
        render: &'a (dyn Fn(Job) -> Result<(), RenderError> + Sync),
        keep: &'a (dyn Fn(&[PageRef]) -> bool + Sync),
        reuse: &'a Reuse<'a>,
    ) -> Batch<'a> {
        Batch {
            pending: Vec::with_capacity(BATCH),
            render,
            keep,
            reuse,
            weight: 0,
            big: false,
            pages: 0,
            error: None,
        }
    }

    /// Renders what is pending; how many pages were rendered or kept, or
    /// the first page that failed, in page order.
    pub(super) fn finish(mut self) -> Result<usize, RenderError> {
        self.flush();
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.pages),
        }
    }

    /// Pushes the page `make` builds, unless the last build made that page
    /// from the same inputs (`key`, see `Ctx::key`): then the site keeps it and
    /// its context is not even built.
    pub(super) fn lazy(
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
        if self.reuse.pages(key).is_some() && self.keep(&page) {
            return true;
        }
        self.reuse.keep_pages(key, page);
        false
    }

    /// Keeps `pages` as they are on disk, if possible (see `keep`).
    pub(super) fn keep(&mut self, pages: &[PageRef]) -> bool {
        let kept = (self.keep)(pages);
        if kept {
            self.pages += pages.len();
        }
        kept
    }

    pub(super) fn push(&mut self, job: Job) {
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
    pub(super) fn later(
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
    pub(super) fn fail(&mut self, e: RenderError) {
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
pub(super) struct Job {
    pub(super) template: &'static str,
    pub(super) page: PageView,
    pub(super) data: serde_json::Value,
}
