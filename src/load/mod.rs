//! Stage 1, load: files on disk → typed records, with positions.
//!
//! Reads `site.yaml`, every `findings/*.md` and every `data/runs/*/run.yaml`
//! with its CSV tables. Nothing else under the root is read. Each file is
//! read once; findings and runs are parsed in parallel. Problems inside a
//! single file (syntax, types, unknown fields, CSV cells) become diagnostics
//! here; relations between files are left to `validate`.

mod fields;
pub(crate) mod yaml;

use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::record::*;
use fields::{join, Doc, Obj};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use yaml::Value;

pub(crate) use fields::did_you_mean;

/// The largest finding or `run.yaml` accepted, in bytes.
pub const MAX_RECORD_BYTES: u64 = 1024 * 1024;
/// The largest CSV table accepted, in bytes.
pub const MAX_TABLE_BYTES: u64 = 8 * 1024 * 1024;
/// The most data rows a CSV table may have.
pub const MAX_TABLE_ROWS: usize = 100_000;

/// Everything read from a findings folder.
#[derive(Debug, Default)]
pub struct Loaded {
    /// `site.yaml`, if it could be read.
    pub site: Option<Site>,
    /// Findings that parsed, in file-name order.
    pub findings: Vec<Finding>,
    /// Runs that parsed, in id order.
    pub runs: Vec<Run>,
    /// Ids of findings whose file has errors, so that references to them
    /// are not reported a second time as "does not exist".
    pub broken_findings: Vec<u32>,
    /// Ids of runs whose `run.yaml` has errors (same reason).
    pub broken_runs: Vec<String>,
    /// Problems found while reading.
    pub diagnostics: Diagnostics,
}

const SITE_FIELDS: &[&str] = &["title", "base_url", "description", "groups", "engines"];
const GROUP_FIELDS: &[&str] = &["id", "title", "blurb"];
const ENGINE_FIELDS: &[&str] = &["id", "name", "repo", "color", "releases"];
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
    "aliases",
    "draft",
    "withdrawn",
    "superseded_by",
];
const ENTRY_FIELDS: &[&str] = &[
    "engine",
    "affected",
    "clean",
    "introduced_in",
    "fixed_in",
    "mitigated_in",
    "note",
];
const LINK_FIELDS: &[&str] = &["label", "url", "kind"];
const LINK_KINDS: &[&str] = &["issue", "pr", "patch", "investigation", "check", "docs"];
const RUN_FIELDS: &[&str] = &[
    "title", "date", "setups", "model", "hardware", "client", "endpoint", "source", "notes",
    "tables", "charts",
];
const SETUP_FIELDS: &[&str] = &["engine", "version", "flags"];
const TABLE_FIELDS: &[&str] = &["file", "title", "columns"];
const COLUMN_FIELDS: &[&str] = &["unit", "description"];
const CHART_FIELDS: &[&str] = &[
    "id", "title", "table", "kind", "x", "y", "series", "y_label", "x_label", "log_x", "log_y",
    "caption",
];

/// True for names the format allows as slugs and run ids.
pub fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn ignored(name: &str) -> bool {
    name.starts_with('_') || name.starts_with('.')
}

/// Reads the findings folder at `root`.
pub fn load(root: &Path) -> Loaded {
    let mut out = Loaded::default();
    let mut diags = Diagnostics::new();

    let site_path = Path::new("site.yaml");
    match read_text(root, site_path, MAX_RECORD_BYTES) {
        Ok(text) => out.site = parse_site(site_path, &text, &mut diags),
        Err(d) => diags.push(d),
    }

    let finding_files = list_dir(root, "findings", false, &mut diags)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect::<Vec<_>>();
    let run_dirs = list_dir(root, "data/runs", true, &mut diags);

    let findings: Vec<(Result<Finding, Option<u32>>, Diagnostics)> = finding_files
        .par_iter()
        .map(|rel| {
            let mut d = Diagnostics::new();
            let f = match read_text(root, rel, MAX_RECORD_BYTES) {
                Ok(text) => parse_finding(rel, &text, &mut d),
                Err(e) => {
                    d.push(e);
                    Err(None)
                }
            };
            (f, d)
        })
        .collect();
    for (f, d) in findings {
        match f {
            Ok(f) => out.findings.push(f),
            Err(id) => out.broken_findings.extend(id),
        }
        diags.extend(d);
    }

    let runs: Vec<(Option<Run>, Diagnostics)> = run_dirs
        .par_iter()
        .map(|dir| {
            let mut d = Diagnostics::new();
            let r = load_run(root, dir, &mut d);
            (r, d)
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
    out.diagnostics = diags;
    out
}

/// The entries of `root/sub` (files, or folders when `dirs`), sorted by name,
/// relative to `root`. A missing folder is an empty list.
fn list_dir(root: &Path, sub: &str, dirs: bool, diags: &mut Diagnostics) -> Vec<PathBuf> {
    let base = root.join(sub);
    if !base.is_dir() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(&base)
        .min_depth(1)
        .max_depth(1)
        .sort_by_file_name()
    {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                diags.push(Diagnostic::error(
                    Path::new(sub),
                    Span::default(),
                    format!("cannot list the folder: {e}"),
                ));
                continue;
            }
        };
        let name = entry.file_name().to_string_lossy().to_string();
        if ignored(&name) {
            continue;
        }
        let rel = Path::new(sub).join(&name);
        let path = entry.path();
        if entry.path_is_symlink() {
            // A link may point anywhere; follow it only if it stays inside the root.
            let inside = match (path.canonicalize(), root.canonicalize()) {
                (Ok(target), Ok(r)) => target.starts_with(r),
                _ => false,
            };
            if !inside {
                diags.push(
                    Diagnostic::error(
                        &rel,
                        Span::default(),
                        "is a symbolic link that leads outside the site folder",
                    )
                    .hint("copy the file into the folder instead of linking to it"),
                );
                continue;
            }
        }
        if path.is_dir() == dirs {
            out.push(rel);
        }
    }
    out
}

/// Reads a text file: size-limited, UTF-8, without BOM, with `\n` line ends.
pub(crate) fn read_text(root: &Path, rel: &Path, limit: u64) -> Result<String, Diagnostic> {
    let path = root.join(rel);
    let meta = std::fs::metadata(&path).map_err(|e| {
        let d = Diagnostic::error(rel, Span::default(), format!("cannot read the file: {}", io_reason(&e)));
        if e.kind() == std::io::ErrorKind::NotFound && rel == Path::new("site.yaml") {
            d.hint("a findings folder needs site.yaml at its root; is --root pointing at the right folder?")
        } else {
            d
        }
    })?;
    if meta.len() > limit {
        return Err(Diagnostic::error(
            rel,
            Span::default(),
            format!("the file is {} bytes; the limit is {limit}", meta.len()),
        )
        .hint("split it, or move bulk data into a run's CSV table"));
    }
    let bytes = std::fs::read(&path).map_err(|e| {
        Diagnostic::error(
            rel,
            Span::default(),
            format!("cannot read the file: {}", io_reason(&e)),
        )
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
        let col = valid.len() - valid.iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1) + 1;
        Diagnostic::error(rel, Span::new(line, col), "the file is not valid UTF-8")
            .hint("save it as UTF-8")
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    Ok(if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text.to_string()
    })
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "it does not exist".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// Parses YAML text that starts on `first_line` of `file`, reporting syntax
/// errors and tabs. Returns the value with its spans.
fn parse_yaml(
    file: &Path,
    text: &str,
    first_line: usize,
    diags: &mut Diagnostics,
) -> Option<(Value, Spans, yaml::RawText)> {
    if let Some((i, line)) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim_start_matches(' ').starts_with('\t'))
    {
        let col = line.find('\t').unwrap_or(0) + 1;
        diags.push(
            Diagnostic::error(
                file,
                Span::new(first_line + i, col),
                "a tab is used for indentation",
            )
            .hint("YAML indents with spaces only; replace the tab with spaces"),
        );
        return None;
    }
    match yaml::parse(text) {
        Ok(v) => {
            let (spans, raw) = yaml::scan(text, first_line);
            Some((v, spans, raw))
        }
        Err((msg, span)) => {
            let span = if span.line == 0 {
                Span::new(first_line, 1)
            } else {
                Span::new(first_line + span.line - 1, span.column)
            };
            diags.push(
                Diagnostic::error(file, span, format!("YAML syntax: {msg}"))
                    .hint("check the indentation and quoting around this line"),
            );
            None
        }
    }
}

fn parse_site(file: &Path, text: &str, diags: &mut Diagnostics) -> Option<Site> {
    let (value, spans, raw) = parse_yaml(file, text, 1, diags)?;
    let mut doc = Doc {
        file,
        spans: &spans,
        raw: &raw,
        diags,
    };
    let obj = doc.object(&value, "", SITE_FIELDS)?;
    let title = doc.req_string(obj, "title");
    let base_url = doc.req_string(obj, "base_url");
    if let Some(u) = &base_url {
        if !(u.starts_with("http://") || u.starts_with("https://")) {
            doc.error_hint(
                "base_url",
                format!("\"{u}\" is not an http(s) URL"),
                Some("write the full address, e.g. https://example.org/findings/"),
            );
        }
    }
    let description = doc.opt_string(obj, "description");
    let mut groups = Vec::new();
    for (i, g) in doc
        .req_list(obj, "groups")
        .unwrap_or(&[])
        .iter()
        .enumerate()
    {
        let path = format!("groups[{i}]");
        let Some(go) = doc.object(g, &path, GROUP_FIELDS) else {
            continue;
        };
        let id = slug_field(&mut doc, go, "id");
        let title = doc.req_string(go, "title");
        let blurb = doc.opt_string(go, "blurb");
        if let (Some(id), Some(title)) = (id, title) {
            groups.push(Group { id, title, blurb });
        }
    }
    let mut engines = Vec::new();
    for (i, e) in doc
        .req_list(obj, "engines")
        .unwrap_or(&[])
        .iter()
        .enumerate()
    {
        let path = format!("engines[{i}]");
        let Some(eo) = doc.object(e, &path, ENGINE_FIELDS) else {
            continue;
        };
        let id = slug_field(&mut doc, eo, "id");
        let name = doc.req_string(eo, "name");
        let repo = doc.opt_string(eo, "repo");
        if let Some(r) = &repo {
            if !(r.starts_with("https://") || r.starts_with("http://")) {
                doc.error(
                    &join(&path, "repo"),
                    format!("\"{r}\" is not an http(s) URL"),
                );
            }
        }
        let color = doc.req_string(eo, "color");
        if let Some(c) = &color {
            let ok =
                c.len() == 7 && c.starts_with('#') && c[1..].bytes().all(|b| b.is_ascii_hexdigit());
            if !ok {
                doc.error_hint(
                    &join(&path, "color"),
                    format!("\"{c}\" is not a colour of the form #rrggbb"),
                    Some("write six hex digits after #, e.g. \"#0072b2\" (quoted: YAML reads # as a comment)"),
                );
            }
        }
        let releases = doc.version_list(eo, "releases");
        if let (Some(id), Some(name), Some(color)) = (id, name, color) {
            engines.push(Engine {
                id,
                name,
                repo,
                color: color.to_ascii_lowercase(),
                releases,
            });
        }
    }
    let (title, base_url) = (title?, base_url?);
    let base_url = if base_url.ends_with('/') {
        base_url
    } else {
        format!("{base_url}/")
    };
    Some(Site {
        title,
        base_url,
        description,
        groups,
        engines,
        spans,
    })
}

/// A required identifier made of lowercase letters, digits and '-'.
fn slug_field(doc: &mut Doc<'_>, obj: Obj<'_>, key: &str) -> Option<String> {
    let s = doc.req_string(obj, key)?;
    if is_slug(&s) {
        Some(s)
    } else {
        doc.error_hint(
            &join(obj.path(), key),
            format!("\"{s}\" is not a valid id"),
            Some("ids use lowercase letters a-z, digits and '-' only"),
        );
        None
    }
}

/// Splits a finding file into front matter and body. Returns the front
/// matter text and the line on which the body starts.
fn split_front_matter<'t>(
    file: &Path,
    text: &'t str,
    diags: &mut Diagnostics,
) -> Option<(&'t str, &'t str, usize)> {
    if text.trim().is_empty() {
        diags.push(
            Diagnostic::error(file, Span::new(1, 1), "the file is empty")
                .hint("a finding starts with front matter between two `---` lines"),
        );
        return None;
    }
    let Some(after_open) = text.strip_prefix("---\n") else {
        diags.push(
            Diagnostic::error(file, Span::new(1, 1), "the file does not start with front matter")
                .hint("put `---` on the first line, the YAML fields, then `---` again, then the Markdown body"),
        );
        return None;
    };
    let mut offset = 0;
    for (i, line) in after_open.split_inclusive('\n').enumerate() {
        if line.trim_end() == "---" {
            let front = &after_open[..offset];
            let body = &after_open[offset + line.len()..];
            return Some((front, body, i + 3));
        }
        offset += line.len();
    }
    diags.push(
        Diagnostic::error(
            file,
            Span::new(1, 1),
            "the front matter has no closing `---`",
        )
        .hint("end the YAML fields with a line that holds only `---`"),
    );
    None
}

/// Reads one finding. On failure returns its id if that much could be read.
fn parse_finding(file: &Path, text: &str, diags: &mut Diagnostics) -> Result<Finding, Option<u32>> {
    let slug = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    if !is_slug(&slug) {
        diags.push(
            Diagnostic::error(file, Span::default(), format!("\"{slug}\" is not a valid file name for a finding"))
                .hint("name findings with lowercase letters a-z, digits and '-', e.g. findings/kv-cache-size.md"),
        );
    }
    let (front, body, body_line) = split_front_matter(file, text, diags).ok_or(None)?;
    let (value, spans, raw) = parse_yaml(file, front, 2, diags).ok_or(None)?;
    let mut doc = Doc {
        file,
        spans: &spans,
        raw: &raw,
        diags,
    };
    if value.is_null() {
        doc.error("", "the front matter is empty");
        return Err(None);
    }
    let obj = doc.object(&value, "", FINDING_FIELDS).ok_or(None)?;
    let id = doc.req_positive_int(obj, "id");
    let fail = || id;
    let title = doc.req_string(obj, "title");
    let group = doc.req_string(obj, "group");
    let advice = doc.req_string(obj, "advice");
    let status = doc
        .choice(
            obj,
            "status",
            &["open", "fixed", "mitigated", "advice"],
            true,
        )
        .map(|s| match s {
            "open" => Status::Open,
            "fixed" => Status::Fixed,
            "mitigated" => Status::Mitigated,
            _ => Status::Advice,
        });
    let status_note = doc.opt_string(obj, "status_note");
    let summary = doc.opt_string(obj, "summary");
    let published = doc.req_date(obj, "published");
    let updated = doc.opt_date(obj, "updated");
    let found_by = match doc.choice(obj, "found_by", &["us", "upstream", "community"], false) {
        Some("upstream") => FoundBy::Upstream,
        Some("community") => FoundBy::Community,
        _ => FoundBy::Us,
    };
    let mut engines = Vec::new();
    let engine_values = doc.req_list(obj, "engines");
    if engine_values.is_some_and(|l| l.is_empty()) {
        doc.error_hint(
            "engines",
            "at least one engine is required",
            Some("add `- engine: <id>` with the versions tested"),
        );
    }
    for (i, e) in engine_values.unwrap_or(&[]).iter().enumerate() {
        let path = format!("engines[{i}]");
        let Some(eo) = doc.object(e, &path, ENTRY_FIELDS) else {
            continue;
        };
        let engine = doc.req_string(eo, "engine");
        let entry = EngineEntry {
            engine: engine.unwrap_or_default(),
            affected: doc.version_list(eo, "affected"),
            clean: doc.version_list(eo, "clean"),
            introduced_in: doc.opt_version(eo, "introduced_in"),
            fixed_in: doc.opt_version(eo, "fixed_in"),
            mitigated_in: doc.opt_version(eo, "mitigated_in"),
            note: doc.opt_string(eo, "note"),
        };
        engines.push(entry);
    }
    let models = doc.string_list(obj, "models");
    let hardware = doc.string_list(obj, "hardware");
    let tags = doc.string_list(obj, "tags");
    let mut links = Vec::new();
    for (i, l) in doc.list(obj, "links").iter().enumerate() {
        let path = format!("links[{i}]");
        let Some(lo) = doc.object(l, &path, LINK_FIELDS) else {
            continue;
        };
        let label = doc.req_string(lo, "label");
        let url = doc.req_string(lo, "url");
        let kind = doc
            .choice(lo, "kind", LINK_KINDS, false)
            .map(str::to_string);
        if let (Some(label), Some(url)) = (label, url) {
            links.push(Link { label, url, kind });
        }
    }
    let runs = doc.string_list(obj, "runs");
    let charts = doc.string_list(obj, "charts");
    let aliases = doc.string_list(obj, "aliases");
    let draft = doc.opt_bool(obj, "draft");
    let withdrawn = match doc.get(obj, "withdrawn") {
        None => None,
        Some(w) => {
            let wo = doc.object(w, "withdrawn", &["date", "reason"]);
            wo.and_then(|wo| {
                let date = doc.req_date(wo, "date");
                let reason = doc.req_string(wo, "reason");
                Some(Withdrawn {
                    date: date?,
                    reason: reason?,
                })
            })
        }
    };
    let superseded_by = doc
        .get(obj, "superseded_by")
        .and_then(|v| doc.positive_int(v, "superseded_by"));

    Ok(Finding {
        path: file.to_path_buf(),
        slug,
        id: id.ok_or_else(fail)?,
        title: title.ok_or_else(fail)?,
        group: group.ok_or_else(fail)?,
        advice: advice.ok_or_else(fail)?,
        status: status.ok_or_else(fail)?,
        status_note,
        summary,
        published: published.ok_or_else(fail)?,
        updated,
        found_by,
        engines,
        models,
        hardware,
        tags,
        links,
        runs,
        charts,
        aliases,
        draft,
        withdrawn,
        superseded_by,
        body: body.to_string(),
        body_line,
        spans,
    })
}

fn load_run(root: &Path, dir: &Path, diags: &mut Diagnostics) -> Option<Run> {
    let id = dir.file_name()?.to_string_lossy().to_string();
    let file = dir.join("run.yaml");
    if !is_slug(&id) {
        diags.push(
            Diagnostic::error(
                dir,
                Span::default(),
                format!("\"{id}\" is not a valid run id"),
            )
            .hint("name run folders with lowercase letters a-z, digits and '-'"),
        );
        return None;
    }
    let text = match read_text(root, &file, MAX_RECORD_BYTES) {
        Ok(t) => t,
        Err(d) => {
            diags.push(d);
            return None;
        }
    };
    let (value, spans, raw) = parse_yaml(&file, &text, 1, diags)?;
    let mut doc = Doc {
        file: &file,
        spans: &spans,
        raw: &raw,
        diags,
    };
    let obj = doc.object(&value, "", RUN_FIELDS)?;
    let title = doc.req_string(obj, "title");
    let date = doc.req_date(obj, "date");
    let mut setups = Vec::new();
    let setup_values = doc.req_list(obj, "setups");
    if setup_values.is_some_and(|l| l.is_empty()) {
        doc.error("setups", "at least one setup is required");
    }
    for (i, s) in setup_values.unwrap_or(&[]).iter().enumerate() {
        let path = format!("setups[{i}]");
        let Some(so) = doc.object(s, &path, SETUP_FIELDS) else {
            continue;
        };
        let engine = doc.req_string(so, "engine");
        let version = doc.get(so, "version").and_then(|v| {
            let p = join(&path, "version");
            doc.version(v, &p).map(|v| v.as_str().to_string())
        });
        let flags = doc.opt_string(so, "flags");
        if let Some(engine) = engine {
            setups.push(Setup {
                engine,
                version,
                flags,
            });
        }
    }
    let model = doc.opt_string(obj, "model");
    let hardware = doc.opt_string(obj, "hardware");
    let client = doc.opt_string(obj, "client");
    let endpoint = doc.opt_string(obj, "endpoint");
    let source = doc.opt_string(obj, "source");
    if let Some(s) = &source {
        if !(s.starts_with("https://") || s.starts_with("http://")) {
            doc.error("source", format!("\"{s}\" is not an http(s) URL"));
        }
    }
    let notes = doc.opt_string(obj, "notes");

    let mut tables = Vec::new();
    let table_values = doc.req_list(obj, "tables");
    if table_values.is_some_and(|l| l.is_empty()) {
        doc.error("tables", "at least one table is required");
    }
    for (i, t) in table_values.unwrap_or(&[]).iter().enumerate() {
        let path = format!("tables[{i}]");
        let Some(to) = doc.object(t, &path, TABLE_FIELDS) else {
            continue;
        };
        let file_name = doc.req_string(to, "file");
        let ttitle = doc.req_string(to, "title");
        let mut columns = Vec::new();
        let cpath = join(&path, "columns");
        match doc.get(to, "columns") {
            None => {
                doc.error_hint(
                    &path,
                    "missing required field `columns`",
                    Some("describe every CSV column: `columns: {name: {unit: ..., description: ...}}`"),
                );
            }
            Some(Value::Mapping(m)) => {
                for (k, v) in m {
                    let Some(name) = k.as_str() else {
                        doc.error(&cpath, "column names must be strings");
                        continue;
                    };
                    let colpath = join(&cpath, name);
                    let Some(co) = doc.object(v, &colpath, COLUMN_FIELDS) else {
                        continue;
                    };
                    let unit = match doc.get(co, "unit") {
                        // A unit may be a bare word YAML reads as a number ("1"); keep it as text.
                        Some(Value::Number(n)) => Some(n.to_string()),
                        _ => doc.opt_string(co, "unit"),
                    };
                    let description = doc.req_string(co, "description");
                    columns.push(Column {
                        name: name.to_string(),
                        unit,
                        description: description.unwrap_or_default(),
                    });
                }
            }
            Some(other) => doc.error(
                &cpath,
                format!(
                    "expected a mapping of column names, found {}",
                    fields::describe(other)
                ),
            ),
        }
        let (Some(file_name), Some(ttitle)) = (file_name, ttitle) else {
            continue;
        };
        let mut table = Table {
            file: file_name,
            title: ttitle,
            columns,
            header: Vec::new(),
            rows: Vec::new(),
            row_lines: Vec::new(),
            path_in_yaml: path.clone(),
        };
        if !safe_file_name(&table.file) {
            doc.error_hint(
                &join(&path, "file"),
                format!("\"{}\" leaves the run folder", table.file),
                Some("name a CSV file inside the run's own folder, e.g. `throughput.csv`"),
            );
        } else {
            read_csv(root, dir, &mut table, doc.diags, &path, &spans);
        }
        tables.push(table);
    }

    let mut charts = Vec::new();
    for (i, c) in doc.list(obj, "charts").iter().enumerate() {
        let path = format!("charts[{i}]");
        let Some(co) = doc.object(c, &path, CHART_FIELDS) else {
            continue;
        };
        let cid = slug_field(&mut doc, co, "id");
        let ctitle = doc.req_string(co, "title");
        let table = doc.req_string(co, "table");
        let kind = match doc.choice(
            co,
            "kind",
            &["bar", "grouped-bar", "line", "scatter"],
            false,
        ) {
            Some("grouped-bar") => ChartKind::GroupedBar,
            Some("line") => ChartKind::Line,
            Some("scatter") => ChartKind::Scatter,
            _ => ChartKind::Bar,
        };
        let x = doc.req_string(co, "x");
        let y = match doc.get(co, "y") {
            None => {
                doc.error_hint(
                    &path,
                    "missing required field `y`",
                    Some("add `y:` with a column name or a list of them"),
                );
                Vec::new()
            }
            Some(Value::Sequence(items)) => items
                .iter()
                .enumerate()
                .filter_map(|(k, v)| doc.string(v, &format!("{path}.y[{k}]")))
                .collect(),
            Some(v) => doc.string(v, &join(&path, "y")).into_iter().collect(),
        };
        let chart = ChartSpec {
            id: cid.unwrap_or_default(),
            title: ctitle.unwrap_or_default(),
            table: table.unwrap_or_default(),
            kind,
            x: x.unwrap_or_default(),
            y,
            series: doc.opt_string(co, "series"),
            x_label: doc.opt_string(co, "x_label"),
            y_label: doc.opt_string(co, "y_label"),
            log_x: doc.opt_bool(co, "log_x"),
            log_y: doc.opt_bool(co, "log_y"),
            caption: doc.opt_string(co, "caption"),
            path_in_yaml: path,
        };
        charts.push(chart);
    }

    Some(Run {
        id,
        path: file.clone(),
        title: title?,
        date: date?,
        setups,
        model,
        hardware,
        client,
        endpoint,
        source,
        notes,
        tables,
        charts,
        spans,
    })
}

/// A table file must be a plain name inside the run folder.
fn safe_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.contains(['/', '\\'])
        && name != "."
        && name != ".."
        && !name.starts_with('.')
}

/// Reads a run's CSV table, checking shape, descriptions and numbers.
fn read_csv(
    root: &Path,
    dir: &Path,
    table: &mut Table,
    diags: &mut Diagnostics,
    yaml_path: &str,
    spans: &Spans,
) {
    let rel = dir.join(&table.file);
    let run_yaml = dir.join("run.yaml");
    if !root.join(&rel).is_file() {
        diags.push(
            Diagnostic::error(
                &run_yaml,
                spans.get(&join(yaml_path, "file")),
                format!("the table file \"{}\" does not exist", table.file),
            )
            .field(join(yaml_path, "file"))
            .hint(format!("create {} or fix the name", rel.display())),
        );
        return;
    }
    let text = match read_text(root, &rel, MAX_TABLE_BYTES) {
        Ok(t) => t,
        Err(d) => {
            diags.push(d);
            return;
        }
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = reader.records();
    let header = match records.next() {
        Some(Ok(h)) => h.iter().map(|s| s.trim().to_string()).collect::<Vec<_>>(),
        Some(Err(e)) => {
            diags.push(Diagnostic::error(
                &rel,
                Span::new(1, 1),
                format!("CSV: {e}"),
            ));
            return;
        }
        None => {
            diags.push(
                Diagnostic::error(&rel, Span::new(1, 1), "the table is empty")
                    .hint("write a header row, then one row per point"),
            );
            return;
        }
    };
    for (i, h) in header.iter().enumerate() {
        if h.is_empty() {
            diags.push(Diagnostic::error(
                &rel,
                Span::new(1, 1),
                format!("column {} has no name", i + 1),
            ));
        } else if header[..i].contains(h) {
            diags.push(Diagnostic::error(
                &rel,
                Span::new(1, 1),
                format!("column \"{h}\" appears twice in the header"),
            ));
        } else if table.column(h).is_none() {
            diags.push(
                Diagnostic::error(&run_yaml, spans.get(&join(yaml_path, "columns")), format!("column \"{h}\" of {} is not described", table.file))
                    .field(join(yaml_path, "columns"))
                    .hint(format!("add `{h}: {{unit: ..., description: ...}}` under columns (leave out unit for a text column)")),
            );
        }
    }
    for c in &table.columns {
        if !header.contains(&c.name) {
            let p = format!("{yaml_path}.columns.{}", c.name);
            diags.push(
                Diagnostic::error(
                    &run_yaml,
                    spans.get(&p),
                    format!(
                        "column \"{}\" is described but not in {}",
                        c.name, table.file
                    ),
                )
                .field(p)
                .hint(format!(
                    "the header of {} has: {}",
                    table.file,
                    header.join(", ")
                )),
            );
        }
    }
    let mut data_records = 0;
    for rec in records {
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line() as usize);
                diags.push(Diagnostic::error(
                    &rel,
                    Span::new(line, 1),
                    format!("CSV: {e}"),
                ));
                break;
            }
        };
        let line = rec.position().map_or(0, |p| p.line() as usize);
        if rec.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        data_records += 1;
        if table.rows.len() >= MAX_TABLE_ROWS {
            diags.push(Diagnostic::error(
                &rel,
                Span::new(line, 1),
                format!("the table has more than {MAX_TABLE_ROWS} rows"),
            ));
            break;
        }
        if rec.len() != header.len() {
            diags.push(
                Diagnostic::error(
                    &rel,
                    Span::new(line, 1),
                    format!(
                        "row has {} cells, the header has {}",
                        rec.len(),
                        header.len()
                    ),
                )
                .hint(
                    "every row needs one cell per column; leave a cell empty for a missing value",
                ),
            );
            continue;
        }
        let row: Vec<String> = rec.iter().map(|s| s.trim().to_string()).collect();
        for (k, cell) in row.iter().enumerate() {
            let numeric = table.column(&header[k]).is_some_and(Column::is_numeric);
            if numeric && !cell.is_empty() && parse_number(cell).is_none() {
                diags.push(
                    Diagnostic::error(&rel, Span::new(line, column_of(&rec, k)), format!("expected a number, found \"{cell}\""))
                        .field(header[k].clone())
                        .hint("numeric columns (those with a unit) take plain numbers like 1274 or 0.5, without thousands separators; leave the cell empty for no value"),
                );
            }
        }
        table.rows.push(row);
        table.row_lines.push(line);
    }
    if data_records == 0 {
        diags.push(
            Diagnostic::error(&rel, Span::new(1, 1), "the table has a header but no rows")
                .hint("add one row per measured point"),
        );
    }
    table.header = header;
}

/// The 1-based character column where cell `k` of a CSV record starts (an
/// estimate that is exact for unquoted cells).
fn column_of(rec: &csv::StringRecord, k: usize) -> usize {
    rec.iter()
        .take(k)
        .map(|c| c.chars().count() + 1)
        .sum::<usize>()
        + 1
}

/// Parses a CSV number: plain decimal, optional sign and exponent; finite.
pub fn parse_number(s: &str) -> Option<f64> {
    let ok = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    if !ok {
        return None;
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}
