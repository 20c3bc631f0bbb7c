//! `findings`: a static site generator for evidence-backed findings about
//! serving open models.
//!
//! The build is a pipeline, one module per stage:
//!
//! 1. [`load`]: files → typed [`record`]s with positions;
//! 2. [`validate`]: the rules between records, as [`diagnostics`];
//! 3. [`model`]: the site graph computed once (version [`state`]s,
//!    backlinks, indexes);
//! 4. [`render`]: Markdown, highlighting, charts and templates → pages;
//! 5. [`write`]: the pages into a folder beside the output, then swapped in.
//!
//! [`check`] and [`build`] run the stages for the CLI and for tests.

pub mod assets;
pub mod authoring;
pub mod chart;
pub mod diagnostics;
pub mod export;
pub mod feed;
pub mod fuzz;
pub mod load;
pub mod markdown;
pub mod model;
pub mod outputs;
pub mod record;
pub mod render;
pub mod search;
pub mod serve;
pub mod sink;
pub mod state;
pub mod templates;
pub mod urls;
pub mod util;
pub mod validate;
pub mod version;
pub mod write;

use diagnostics::Diagnostics;
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
pub fn open(root: &Path, drafts: bool) -> Result<(model::Model, Diagnostics), Diagnostics> {
    let (loaded, diags) = check(root);
    if diags.has_errors() {
        return Err(diags);
    }
    match loaded.site {
        Some(site) => Ok((
            model::Model::build(site, loaded.findings, loaded.runs, drafts),
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
    Render(#[from] render::RenderError),
    /// The output folder could not be prepared or swapped.
    #[error(transparent)]
    Write(#[from] sink::WriteError),
}

/// What a successful build did.
#[derive(Debug, Clone)]
pub struct BuildReport {
    /// Counts of what was written.
    pub counts: render::Counts,
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

/// Checks, models, renders and writes the site: what `findings build` does.
/// On any error the previous output folder is left as it was.
pub fn build(opts: &BuildOptions) -> Result<BuildReport, BuildError> {
    build_with(opts, None)
}

/// What a long-running process (`serve`) keeps from one build to the next,
/// so that a rebuild after an edit does only what the edit changed: the
/// rendered bodies, charts and cards it can reuse, a hash of every page's
/// inputs, and the list of files on disk with a hash of each.
///
/// The first build of a session is a full one (built aside, then swapped
/// in; the previous site is removed in the background). Later ones render
/// only the pages whose inputs changed and update the site in place: the
/// changed files are written aside, then each is renamed over its old copy,
/// and files the site no longer has are removed. A failed rebuild leaves
/// the site as the last good build left it. The site on disk is assumed to
/// be the session's own: edit it by hand and a later rebuild may not notice.
#[derive(Default)]
pub struct Session {
    records: load::LoadCache,
    memo: render::Memo,
    manifest: Option<write::Manifest>,
    /// The last build's templates, reused while their files are the same.
    templates: Option<std::sync::Arc<templates::Templates>>,
}

impl Session {
    /// A new session; its first build is a full one.
    pub fn new() -> Session {
        Session {
            records: load::LoadCache::default(),
            memo: render::Memo::enabled(),
            manifest: None,
            templates: None,
        }
    }

    /// Builds as [`build`] does, reusing what earlier builds of this session did.
    pub fn build(&mut self, opts: &BuildOptions) -> Result<BuildReport, BuildError> {
        build_with(opts, Some(self))
    }
}

fn build_with(
    opts: &BuildOptions,
    session: Option<&mut Session>,
) -> Result<BuildReport, BuildError> {
    let mut timings = Timings::default();
    let mut clock = std::time::Instant::now();
    let mut lap = || {
        let now = std::time::Instant::now();
        std::mem::replace(&mut clock, now).elapsed()
    };
    let mut loaded = load::load_with(&opts.root, session.as_ref().map(|s| &s.records));
    let mut diags = std::mem::take(&mut loaded.diagnostics);
    timings.load = lap();
    diags.extend(validate::validate(&loaded));
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
    let templates = templates::Templates::load_reusing(
        &opts.root,
        session.as_ref().and_then(|s| s.templates.as_ref()),
    )
    .map_err(BuildError::Templates)?;
    let model = model::Model::build(site, loaded.findings, loaded.runs, opts.drafts);
    timings.model = lap();
    write::check_output(&opts.root, &opts.output)?;
    let no_memo = render::Memo::default();
    let (staging, memo) = match &session {
        None => (write::Staging::new(&opts.output)?, &no_memo),
        Some(s) => {
            let staging = match &s.manifest {
                Some(m) if opts.output.is_dir() => write::Staging::update(&opts.output, m.clone())?,
                _ => write::Staging::tracked(&opts.output)?,
            };
            (staging, &s.memo)
        }
    };
    let result = render::render_site(&model, &templates, &staging, memo).and_then(|counts| {
        timings.render = lap();
        copy_static(&opts.root, &staging)
            .map(|n| (counts, n))
            .map_err(Into::into)
    });
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
                            session.memo.commit();
                        }
                        Err(e) => {
                            // What is on disk is no longer known: start over.
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
                session.memo.abandon();
            }
            Err(e.into())
        }
    }
}

/// Writes the built-in static files, then the site's own `static/` over them.
fn copy_static(root: &Path, staging: &write::Staging) -> Result<usize, sink::WriteError> {
    let mut n = 0;
    for (name, text) in assets::STATIC {
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
