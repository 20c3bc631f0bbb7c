//! Stage 1, load: files on disk → typed records, with positions.
//!
//! Reads `site.yaml`, every `findings/*.md` and every `data/runs/*/run.yaml`
//! with its CSV tables. Nothing else under the root is read. Each file is
//! read once; findings and runs are parsed in parallel. Problems inside a
//! single file (syntax, types, unknown fields, CSV cells) become diagnostics
//! here; relations between files are left to `validate`.
//!
//! The files, by record kind over shared code:
//!
//! - `site.rs`, `finding.rs`, `run.rs` and `table.rs` read `site.yaml`, a
//!   finding, a run's `run.yaml` and a run's CSV tables; `defaults.rs`
//!   holds what `site.yaml` may leave out (the standard groups, the
//!   engines known by id, the palette);
//! - `yaml.rs` parses YAML within limits (kept by `yaml/budget.rs`) and maps
//!   fields to positions, and `fields.rs` reads typed fields from it, with a
//!   diagnostic for each problem;
//! - `files.rs` reads files and lists folders, safely;
//! - `prose.rs` warns of Markdown in bodies and notes that will not read as
//!   written (a list a wrapped line starts);
//! - this file holds the limits, the field names each record may use (the
//!   JSON Schemas in `schemas/` follow them) and [`load`], which runs it all.

mod check_names;
mod compare;
mod defaults;
mod evidence;
mod fields;
mod files;
mod finding;
mod labels;
mod noise;
mod prose;
mod requested;
mod run;
mod site;
mod suggest;
mod table;
pub(crate) mod yaml;

use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::record::{Finding, Run, Site};
use files::{list_dir, static_files, CANONICAL_DIRS};
use finding::{parse_finding, peek_id};
use rayon::prelude::*;
use run::load_run;
use site::parse_site;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use defaults::{
    known_engine, standard_groups, KnownEngine, StandardGroup, KNOWN_ENGINES, PALETTE,
    STANDARD_GROUPS,
};
pub use evidence::{derived_columns, ResultInput};
pub use fields::MAX_VERSION_CHARS;
pub use files::decode_text;
pub(crate) use files::read_text;
pub use finding::parse_finding_text;
pub use run::{parse_run_at, parse_run_text, parse_run_with, TableText};
pub use site::parse_site_text;
pub(crate) use suggest::{closest, Budget, Letters};
pub use table::parse_number;
pub use yaml::{MAX_YAML_DEPTH, MAX_YAML_TEXT, MAX_YAML_VALUES};

/// The largest finding or `run.yaml` accepted, in bytes.
pub const MAX_RECORD_BYTES: u64 = 1024 * 1024;
/// The largest CSV table accepted, in bytes.
pub const MAX_TABLE_BYTES: u64 = 8 * 1024 * 1024;
/// The most data rows a CSV table may have.
pub const MAX_TABLE_ROWS: usize = 100_000;
/// The largest result file a run may keep (see [`crate::results::MAX_FILE_BYTES`]).
pub const MAX_RESULT_BYTES: u64 = crate::results::MAX_FILE_BYTES as u64;
/// The longest id (group, engine, chart), tag or model name, in characters:
/// each becomes part of an address, and file systems limit names to 255 bytes.
pub const MAX_NAME_CHARS: usize = 100;

/// Everything read from a findings folder.
#[derive(Debug, Default)]
pub struct Loaded {
    /// `site.yaml`, if it could be read.
    pub site: Option<Site>,
    /// Findings that parsed, in file-name order.
    pub findings: Vec<Arc<Finding>>,
    /// Runs that parsed, in id order.
    pub runs: Vec<Arc<Run>>,
    /// Ids of findings whose file has errors, so that references to them
    /// are not reported a second time as "does not exist".
    pub broken_findings: Vec<u32>,
    /// Ids of runs whose `run.yaml` has errors (same reason).
    pub broken_runs: Vec<String>,
    /// Problems found while reading.
    pub diagnostics: Diagnostics,
    /// Files with errors found while reading (relative to the root), so
    /// that later checks do not pile more messages on them.
    pub files_with_errors: std::collections::HashSet<PathBuf>,
    /// The site's own `static/` files, as site paths (`img/x.png`), which
    /// the build copies into the site.
    pub static_files: Vec<String>,
}

const SITE_FIELDS: &[&str] = &[
    "title",
    "base_url",
    "description",
    "author",
    "groups",
    "engines",
    "nav_engines",
    "page_size",
    "home_entries",
    "feed_entries",
    "compare",
    "noise",
];
const NOISE_FIELDS: &[&str] = &[
    "engine",
    "workload",
    "metric",
    "percent",
    "z",
    "window",
    "min_sample",
];
const GROUP_FIELDS: &[&str] = &["id", "title", "blurb"];
const ENGINE_FIELDS: &[&str] = &[
    "id", "name", "repo", "color", "releases", "packages", "images",
];
const FINDING_FIELDS: &[&str] = &[
    "id",
    "title",
    "group",
    "advice",
    "status",
    "status_note",
    "summary",
    "published",
    "updated",
    "found_by",
    "engines",
    "models",
    "hardware",
    "tags",
    "links",
    "runs",
    "charts",
    "checks",
    "symptoms",
    "acknowledged",
    "aliases",
    "draft",
    "withdrawn",
    "superseded_by",
];
const ENTRY_FIELDS: &[&str] = &[
    "engine",
    "affected",
    "clean",
    "seen",
    "introduced_in",
    "fixed_in",
    "mitigated_in",
    "note",
];
const LINK_FIELDS: &[&str] = &["label", "url", "kind"];
const LINK_KINDS: &[&str] = &["issue", "pr", "patch", "investigation", "check", "docs"];
const RUN_FIELDS: &[&str] = &[
    "title",
    "date",
    "setups",
    "model",
    "hardware",
    "client",
    "endpoint",
    "source",
    "notes",
    "results",
    "tables",
    "charts",
    "acknowledged",
    "compare",
];
const COMPARE_FIELDS: &[&str] = &[
    "id", "title", "caption", "noise", "table", "by", "columns", "better", "setups", "runs",
    "metrics",
];
const SETUP_FIELDS: &[&str] = &["engine", "version", "flags", "label"];
const RESULT_FIELDS: &[&str] = &["path", "setup", "report"];
const ACK_FIELDS: &[&str] = &["check", "reason"];
const RUN_ACK_FIELDS: &[&str] = &["run", "symptom", "reason"];
const TABLE_FIELDS: &[&str] = &["file", "title", "columns", "derive"];
const COLUMN_FIELDS: &[&str] = &["label", "unit", "description"];
const CHART_FIELDS: &[&str] = &[
    "id", "title", "table", "kind", "x", "y", "series", "y_label", "x_label", "log_x", "log_y",
    "caption", "marks",
];
const MARK_FIELDS: &[&str] = &["y", "label"];

/// True for names the format allows as slugs and run ids.
pub fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A finding as loaded, or the id of one that has errors (if it has one).
pub type LoadedFinding = Result<Arc<Finding>, Option<u32>>;

/// A run as loaded, if it could be.
pub type LoadedRun = Option<Arc<Run>>;

/// Where a load finds the records an earlier load of the same folder
/// read, for files that did not change since (implemented by
/// `crate::incremental` for `serve`). Called from many threads at once.
pub trait Store: Sync {
    /// The finding in `rel` (relative to `root`) with its diagnostics, as
    /// an earlier load read it if the file did not change, else as `read`
    /// reads it now.
    fn finding(
        &self,
        root: &Path,
        rel: &Path,
        read: &mut dyn FnMut() -> (LoadedFinding, Diagnostics),
    ) -> (LoadedFinding, Diagnostics);
    /// The same for the run in the folder `dir`, whose files all count.
    fn run(
        &self,
        root: &Path,
        dir: &Path,
        read: &mut dyn FnMut() -> (LoadedRun, Diagnostics),
    ) -> (LoadedRun, Diagnostics);
}

/// Reads only `site.yaml` of the folder at `root`: for a command that needs
/// the site's engines but none of its records (`findings import`).
pub fn load_site(root: &Path) -> (Option<Site>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let site_path = Path::new("site.yaml");
    let site = match read_text(root, site_path, MAX_RECORD_BYTES) {
        Ok(text) => parse_site(site_path, &text, &mut diags),
        Err(d) => {
            diags.push(d);
            None
        }
    };
    (site, diags)
}

/// Reads the one run `data/runs/<id>` of the folder at `root`, as [`load`]
/// reads each run; `None` when there is no such folder.
pub fn load_one_run(root: &Path, id: &str) -> Option<(Option<Run>, Diagnostics)> {
    let dir = Path::new("data/runs").join(id);
    if !root.join(&dir).is_dir() {
        return None;
    }
    let mut diags = Diagnostics::new();
    let run = load_run(root, &dir, &mut diags);
    Some((run, diags))
}

/// Reads the findings folder at `root`.
pub fn load(root: &Path) -> Loaded {
    load_with(root, None)
}

/// [`load`], taking from `store` the records of files an earlier load
/// read that did not change.
pub fn load_with(root: &Path, store: Option<&dyn Store>) -> Loaded {
    if let Ok(mut dirs) = CANONICAL_DIRS.lock() {
        *dirs = None;
    }
    let mut out = Loaded::default();
    let mut diags = Diagnostics::new();

    let site_path = Path::new("site.yaml");
    match read_text(root, site_path, MAX_RECORD_BYTES) {
        Ok(text) => out.site = parse_site(site_path, &text, &mut diags),
        Err(d) => diags.push(d),
    }

    let finding_files = list_dir(root, "findings", false, &mut diags)
        .into_iter()
        .filter(|p| match p.extension().and_then(|e| e.to_str()) {
            Some("md") => true,
            // `X.MD` looks like a finding, and is one on a case-insensitive
            // file system; say so rather than skip it.
            Some(e) if e.eq_ignore_ascii_case("md") => {
                diags.push(
                    Diagnostic::error(
                        p,
                        Span::default(),
                        "a finding's file name ends in `.md`, in lowercase",
                    )
                    .hint("rename the file; only `.md` files are read as findings"),
                );
                false
            }
            _ => false,
        })
        .collect::<Vec<_>>();
    let run_dirs = list_dir(root, "data/runs", true, &mut diags);

    let findings: Vec<(LoadedFinding, Diagnostics)> = finding_files
        .par_iter()
        .map(|rel| {
            let mut read = || {
                let mut d = Diagnostics::new();
                let f = match read_text(root, rel, MAX_RECORD_BYTES) {
                    Ok(text) => parse_finding(rel, &text, &mut d).map(Arc::new),
                    Err(e) => {
                        d.push(e);
                        Err(peek_id(root, rel))
                    }
                };
                (f, d)
            };
            match store {
                Some(s) => s.finding(root, rel, &mut read),
                None => read(),
            }
        })
        .collect();
    for (f, d) in findings {
        match f {
            Ok(f) => out.findings.push(f),
            Err(id) => out.broken_findings.extend(id),
        }
        diags.extend(d);
    }

    let runs: Vec<(LoadedRun, Diagnostics)> = run_dirs
        .par_iter()
        .map(|dir| {
            let mut read = || {
                let mut d = Diagnostics::new();
                let r = load_run(root, dir, &mut d).map(Arc::new);
                (r, d)
            };
            match store {
                Some(s) => s.run(root, dir, &mut read),
                None => read(),
            }
        })
        .collect();
    for ((r, d), dir) in runs.into_iter().zip(&run_dirs) {
        match r {
            Some(r) => out.runs.push(r),
            None => out
                .broken_runs
                .extend(dir.file_name().map(|n| n.to_string_lossy().to_string())),
        }
        diags.extend(d);
    }
    out.files_with_errors = diags
        .iter()
        .filter(|d| d.severity == crate::diagnostics::Severity::Error)
        .map(|d| d.file.clone())
        .collect();
    out.static_files = static_files(root);
    out.diagnostics = diags;
    out
}
