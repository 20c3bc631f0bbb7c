//! The pipeline: the stages run in order, for the CLI and for tests.
//!
//! ```text
//! load ─→ validate ─→ model ─→ render ─┬─ outputs (search index, feeds, JSON, schemas)
//!                                     ├─ pages (HTML, a batch at a time)
//!                                     └─ outputs (run data, stylesheets, sitemap)
//!                                                   ─→ write (aside, then swap)
//! ```
//!
//! [`check`] is load and validate (`findings check`); [`open`] adds the
//! model (`list`, `show`); [`build`] runs everything (`findings build`),
//! timing each stage. A [`Session`] (`serve`) runs the same stages with
//! what it kept from its last build (see [`crate::incremental`]).
//!
//! A build first claims its output folder ([`claim_output`]): one process
//! at a time writes a folder, and a second one is refused before it reads
//! a record, so it writes nothing and waits on no work. `serve` claims the
//! folder once and holds it for its whole life ([`Session::hold`]).

use crate::diagnostics::Diagnostics;
use crate::incremental::Session;
use crate::model::Model;
use crate::render::cards::{prepare_all, render_cards, FindingText, Prepared, SearchText};
use crate::render::reuse::Reuse;
use crate::render::templates::Templates;
use crate::render::RenderError;
use crate::sink::{Output, WriteError};
use crate::write::{Busy, LockError, OutputLock};
use crate::{load, outputs, pages, validate, write};
use std::path::Path;

/// Loads and validates the folder at `root`: what `findings check` does.
pub fn check(root: &Path) -> (load::Loaded, Diagnostics) {
    let mut loaded = load::load(root);
    let mut diags = std::mem::take(&mut loaded.diagnostics);
    diags.extend(validate::validate(&loaded));
    (loaded, diags)
}

/// Loads, validates and models the folder for the read-only commands
/// (`list`, `show`). Returns the diagnostics instead when there are errors.
pub fn open(root: &Path, drafts: bool) -> Result<(Model, Diagnostics), Diagnostics> {
    let mut loaded = load::load(root);
    let mut diags = std::mem::take(&mut loaded.diagnostics);
    let (found, said) = validate::validate_runs(&loaded);
    diags.extend(found);
    if diags.has_errors() {
        return Err(diags);
    }
    match loaded.site {
        Some(site) => Ok((
            Model::build_with(site, loaded.findings, loaded.runs, drafts, said),
            diags,
        )),
        None => Err(diags),
    }
}

/// How to build.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The site folder.
    pub root: std::path::PathBuf,
    /// Where the site goes (default `<root>/public`).
    pub output: std::path::PathBuf,
    /// Overrides `base_url` from `site.yaml`.
    pub base_url: Option<String>,
    /// Includes draft findings.
    pub drafts: bool,
}

/// Why a build stopped.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The records have errors; nothing was written.
    #[error("the findings folder has errors")]
    Invalid(Diagnostics),
    /// A template could not be loaded.
    #[error("{0}")]
    Templates(String),
    /// Rendering or writing failed; the previous output is untouched.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// The output folder could not be prepared or swapped.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// Another process is writing the output folder; nothing was written.
    #[error(transparent)]
    Busy(#[from] Busy),
}

impl From<LockError> for BuildError {
    fn from(e: LockError) -> BuildError {
        match e {
            LockError::Busy(b) => BuildError::Busy(b),
            LockError::Write(w) => BuildError::Write(w),
        }
    }
}

/// What a successful build did.
#[derive(Debug, Clone)]
pub struct BuildReport {
    /// Counts of what was written.
    pub counts: Counts,
    /// Warnings found while checking.
    pub warnings: Diagnostics,
    /// How long each stage took.
    pub timings: Timings,
}

/// How long each stage of a build took, for `--verbose`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timings {
    /// Reading and parsing the files.
    pub load: std::time::Duration,
    /// The rules between records.
    pub validate: std::time::Duration,
    /// Loading templates and building the model.
    pub model: std::time::Duration,
    /// Templates, Markdown, charts, and pages written into the staging folder.
    pub render: std::time::Duration,
    /// Static files copied, then the swap.
    pub write: std::time::Duration,
}

/// What a build wrote, for the summary line.
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

/// Makes this process the writer of `output`, the output folder of the
/// site in `root`, until the lock is dropped: refuses an output folder that
/// would replace the records, and one that another process is writing.
pub fn claim_output(root: &Path, output: &Path) -> Result<OutputLock, BuildError> {
    write::check_output(root, output)?;
    Ok(OutputLock::acquire(output)?)
}

/// Checks, models, renders and writes the site: what `findings build` does.
/// Claims the output folder first ([`claim_output`]) and lets go of it at
/// the end. On any error the previous output folder is left as it was.
pub fn build(opts: &BuildOptions) -> Result<BuildReport, BuildError> {
    let lock = claim_output(&opts.root, &opts.output)?;
    build_locked(opts, &lock)
}

/// [`build`] into an output folder this process has claimed already
/// (`lock`, from [`claim_output`] for the same folder).
pub fn build_locked(opts: &BuildOptions, lock: &OutputLock) -> Result<BuildReport, BuildError> {
    build_with(opts, lock, None)
}

impl Session {
    /// Builds as [`build`] does, reusing what earlier builds of this session
    /// did. Claims the output folder at the first build unless the session
    /// holds it already ([`Session::hold`]), and keeps it.
    pub fn build(&mut self, opts: &BuildOptions) -> Result<BuildReport, BuildError> {
        let lock = match self.lock.take() {
            Some(lock) if lock.covers(&opts.output) => lock,
            _ => claim_output(&opts.root, &opts.output)?,
        };
        let result = build_with(opts, &lock, Some(self));
        self.lock = Some(lock);
        result
    }
}

fn build_with(
    opts: &BuildOptions,
    lock: &OutputLock,
    session: Option<&mut Session>,
) -> Result<BuildReport, BuildError> {
    if !lock.covers(&opts.output) {
        return Err(BuildError::Write(WriteError {
            path: opts.output.clone(),
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "this process holds the lock on {}, not on this folder",
                    lock.output().display()
                ),
            ),
        }));
    }
    let mut timings = Timings::default();
    let mut clock = std::time::Instant::now();
    let mut lap = || {
        let now = std::time::Instant::now();
        std::mem::replace(&mut clock, now).elapsed()
    };
    let mut loaded = match &session {
        Some(s) => {
            let loaded = load::load_with(&opts.root, Some(&s.records));
            s.records.rotate();
            loaded
        }
        None => load::load(&opts.root),
    };
    let mut diags = std::mem::take(&mut loaded.diagnostics);
    timings.load = lap();
    let (found, said) = validate::validate_runs(&loaded);
    diags.extend(found);
    timings.validate = lap();
    if diags.has_errors() {
        return Err(BuildError::Invalid(diags));
    }
    let Some(mut site) = loaded.site else {
        return Err(BuildError::Invalid(diags));
    };
    if let Some(base) = &opts.base_url {
        site.base_url = if base.ends_with('/') {
            base.clone()
        } else {
            format!("{base}/")
        };
    }
    // The templates do not depend on the model: they are parsed while the
    // model is built (both were on one thread, with the other core idle).
    let kept = session.as_ref().and_then(|s| s.templates.as_ref());
    let (templates, model) = rayon::join(
        || Templates::load_reusing(&opts.root, kept),
        || Model::build_with(site, loaded.findings, loaded.runs, opts.drafts, said),
    );
    let templates = templates.map_err(BuildError::Templates)?;
    timings.model = lap();
    let (staging, reuse) = match &session {
        None => (write::Staging::new(lock)?, Reuse::none()),
        Some(s) => {
            let staging = match &s.manifest {
                Some(m) if opts.output.is_dir() => write::Staging::update(lock, m.clone())?,
                _ => write::Staging::tracked(lock)?,
            };
            (staging, Reuse::from(&s.renders, &model, &templates))
        }
    };
    let result = render_site(&model, &opts.root, &templates, &staging, &reuse).and_then(|counts| {
        timings.render = lap();
        copy_static(&opts.root, &staging)
            .map(|n| (counts, n))
            .map_err(Into::into)
    });
    if session.is_none() {
        // Nothing keeps the model after a one-off build: freeing it (every
        // record, card and table, one allocation at a time) took a tenth
        // of a second at 10,000 findings on the one thread left at the
        // end. It is freed on a thread of its own instead, so the build
        // returns, and the process may exit, without waiting for it.
        std::thread::spawn(move || drop(model));
    }
    match result {
        Ok((mut counts, n)) => {
            counts.assets += n;
            match session {
                None => staging.swap()?,
                Some(session) => {
                    let finished = if staging.is_update() {
                        staging.finish_update()
                    } else {
                        // The previous site is removed in the background,
                        // so the first build does not wait on the disk.
                        let manifest = staging.manifest();
                        staging.swap_keeping_old().map(|old| {
                            if let Some(old) = old {
                                std::thread::spawn(move || {
                                    let _ = write::remove_tree(&old);
                                });
                            }
                            manifest
                        })
                    };
                    match finished {
                        Ok(manifest) => {
                            session.manifest = Some(manifest);
                            session.templates = Some(templates.clone());
                            session.renders.commit();
                        }
                        Err(e) => {
                            // What is on disk is no longer known: start over
                            // (the caller keeps the lock).
                            *session = Session::new();
                            return Err(e.into());
                        }
                    }
                }
            }
            timings.write = lap();
            Ok(BuildReport {
                counts,
                warnings: diags,
                timings,
            })
        }
        Err(e) => {
            staging.discard();
            if let Some(session) = session {
                session.renders.abandon();
            }
            Err(e.into())
        }
    }
}

/// Stage 4: the cards of every finding once; the files beside the pages
/// that need only those; every page; then the run data, stylesheets and
/// the sitemap of the pages written.
fn render_site<O: Output>(
    model: &Model,
    root: &Path,
    templates: &Templates,
    out: &O,
    reuse: &Reuse<'_>,
) -> Result<Counts, RenderError> {
    // Charts are drawn when the pages that show them are written.
    let charts = model.runs.iter().map(|r| r.charts.len()).sum();
    // Findings: cards and text, once each, in parallel.
    let mut prepared = prepare_all(model, templates, reuse)?;
    // Search index, feeds, JSON export, schemas, before the pages. What
    // only the index needs of each finding (its search terms and words, a
    // kilobyte each) is taken out of the cards and handed to it, which
    // frees it as it reads, before the pages' contexts are built.
    let search: Vec<SearchText> = prepared
        .iter_mut()
        .map(Prepared::take_search_text)
        .collect();
    let texts: Vec<FindingText<'_>> = prepared.iter().map(Prepared::text).collect();
    let mut assets = outputs::write(model, &texts, search, out, reuse)?;
    drop(texts);
    prepared.iter_mut().for_each(Prepared::drop_what_to_do);
    render_cards(model, templates, &mut prepared)?;
    let written = pages::write(model, templates, &prepared, out, reuse)?;
    // Published run data: each CSV as it is.
    assets += outputs::write_run_data(model, root, out, reuse)?;
    assets += outputs::write_stylesheets(out)?;
    assets += outputs::write_sitemaps(model, &written.sitemap, out)?;
    Ok(Counts {
        pages: written.pages,
        findings: model.findings.len(),
        runs: model.runs.len(),
        charts,
        assets,
    })
}

/// Writes the built-in static files, then the site's own `static/` over them.
fn copy_static(root: &Path, staging: &write::Staging<'_>) -> Result<usize, WriteError> {
    let mut n = 0;
    for (name, text) in crate::assets::shipped() {
        staging.write(name, text.as_bytes())?;
        n += 1;
    }
    let dir = root.join("static");
    if dir.is_dir() {
        for entry in walkdir::WalkDir::new(&dir)
            .sort_by_file_name()
            .into_iter()
            .flatten()
        {
            if !entry.file_type().is_file() {
                continue;
            }
            let rel = entry.path().strip_prefix(&dir).unwrap_or(entry.path());
            let rel = rel.to_string_lossy().replace('\\', "/");
            if rel.split('/').any(|s| s.starts_with('.')) {
                continue;
            }
            staging.copy(entry.path(), &rel)?;
            n += 1;
        }
    }
    Ok(n)
}
