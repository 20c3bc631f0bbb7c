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
use std::sync::Arc;
use yaml::Value;

pub(crate) use fields::did_you_mean;
pub use fields::MAX_VERSION_CHARS;
pub use yaml::{MAX_YAML_DEPTH, MAX_YAML_TEXT, MAX_YAML_VALUES};

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
    load_with(root, None)
}

/// Parsed records kept between loads of the same folder by a long-running
/// process (`serve`): a file whose size, times and inode did not change is
/// not read and parsed again. The same test `make` and cargo rely on; a
/// file changed without changing any of them would be missed.
#[derive(Default)]
pub struct LoadCache {
    findings: FileCache<(LoadedFinding, Diagnostics)>,
    runs: FileCache<(Option<Arc<Run>>, Diagnostics)>,
}

/// A finding as loaded, or the id of one that has errors (if it has one).
type LoadedFinding = Result<Arc<Finding>, Option<u32>>;

/// Results by path, with the stamps of the files they were made from.
struct FileCache<V> {
    last: std::sync::Mutex<std::collections::HashMap<PathBuf, (Vec<Stamp>, V)>>,
    next: std::sync::Mutex<std::collections::HashMap<PathBuf, (Vec<Stamp>, V)>>,
}

impl<V> Default for FileCache<V> {
    fn default() -> Self {
        FileCache {
            last: Default::default(),
            next: Default::default(),
        }
    }
}

impl<V: Clone> FileCache<V> {
    /// The result for `key` made from files stamped `stamps` (made by
    /// `make` unless the last load made it from the same stamps).
    fn get(&self, key: &Path, stamps: Option<Vec<Stamp>>, make: impl FnOnce() -> V) -> V {
        let Some(stamps) = stamps else {
            return make();
        };
        // A file modified within the last couple of seconds may be written
        // again within the file system's timestamp granularity without its
        // stamp changing ("racy" files, as git calls them): such files are
        // read again until their stamp is old enough to trust.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(i64::MAX, |d| d.as_secs() as i64);
        let racy = stamps.iter().any(|s| s.2 >= now - RACY_SECS);
        // Moved, not copied, into this load's entries.
        let hit = self
            .last
            .lock()
            .ok()
            .and_then(|mut last| last.remove(key))
            .filter(|(s, _)| !racy && *s == stamps)
            .map(|(_, v)| v);
        let v = hit.unwrap_or_else(make);
        if let Ok(mut next) = self.next.lock() {
            next.insert(key.to_path_buf(), (stamps, v.clone()));
        }
        v
    }

    /// Ends a load: what it saw is what the next one can reuse.
    fn rotate(&self) {
        if let (Ok(mut last), Ok(mut next)) = (self.last.lock(), self.next.lock()) {
            *last = std::mem::take(&mut *next);
        }
    }
}

/// How recent a modification time must be for the file to be read again
/// whatever its stamp (see `FileCache::get`).
const RACY_SECS: i64 = 2;

/// What identifies a version of a file without reading it: its name, size,
/// modification and change times, and inode.
type Stamp = (String, u64, i64, i64, i64, i64, u64);

#[cfg(unix)]
fn stamp(name: String, path: &Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some((
        name,
        m.len(),
        m.mtime(),
        m.mtime_nsec(),
        m.ctime(),
        m.ctime_nsec(),
        m.ino(),
    ))
}

#[cfg(not(unix))]
fn stamp(_: String, _: &Path) -> Option<Stamp> {
    None
}

/// The stamps of a run folder's files, or `None` when one cannot be read
/// (then nothing is reused).
fn run_stamps(root: &Path, dir: &Path) -> Option<Vec<Stamp>> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(root.join(dir)).ok()? {
        let e = e.ok()?;
        v.push(stamp(
            e.file_name().to_string_lossy().into_owned(),
            &e.path(),
        )?);
    }
    v.sort();
    Some(v)
}

/// [`load`], reusing what `cache` kept from earlier loads of `root`.
pub fn load_with(root: &Path, cache: Option<&LoadCache>) -> Loaded {
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
            let make = || {
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
            match cache {
                Some(c) => c.findings.get(
                    rel,
                    stamp(String::new(), &root.join(rel)).map(|s| vec![s]),
                    make,
                ),
                None => make(),
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

    let runs: Vec<(Option<Arc<Run>>, Diagnostics)> = run_dirs
        .par_iter()
        .map(|dir| {
            let make = || {
                let mut d = Diagnostics::new();
                let r = load_run(root, dir, &mut d).map(Arc::new);
                (r, d)
            };
            match cache {
                Some(c) => c.runs.get(dir, run_stamps(root, dir), make),
                None => make(),
            }
        })
        .collect();
    if let Some(c) = cache {
        c.findings.rotate();
        c.runs.rotate();
    }
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

/// The files under `static/` that a build copies, as site paths: regular
/// files, not in or named like hidden (`.x`) entries.
fn static_files(root: &Path) -> Vec<String> {
    let dir = root.join("static");
    if !dir.is_dir() {
        return Vec::new();
    }
    walkdir::WalkDir::new(&dir)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e.path().strip_prefix(&dir).ok()?;
            let rel = rel.to_string_lossy().replace('\\', "/");
            (!rel.split('/').any(|s| s.starts_with('.'))).then_some(rel)
        })
        .collect()
}

/// The entries of `root/sub` (files, or folders when `dirs`), sorted by name,
/// relative to `root`. A missing folder is an empty list.
fn list_dir(root: &Path, sub: &str, dirs: bool, diags: &mut Diagnostics) -> Vec<PathBuf> {
    let base = root.join(sub);
    if !base.is_dir() {
        return Vec::new();
    }
    let mut out = Vec::new();
    // std's listing, not walkdir's: walkdir opens and reads every folder it
    // meets, even past its depth limit, which for data/runs meant reading
    // all ten thousand run folders before loading any.
    let fail = |diags: &mut Diagnostics, e: std::io::Error| {
        diags.push(Diagnostic::error(
            Path::new(sub),
            Span::default(),
            format!("cannot list the folder: {e}"),
        ));
    };
    let mut entries: Vec<std::fs::DirEntry> = Vec::new();
    match std::fs::read_dir(&base) {
        Ok(list) => {
            for entry in list {
                match entry {
                    Ok(e) => entries.push(e),
                    Err(e) => fail(diags, e),
                }
            }
        }
        Err(e) => fail(diags, e),
    }
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name().to_string_lossy().to_string();
        if ignored(&name) {
            continue;
        }
        let rel = Path::new(sub).join(&name);
        let path = entry.path();
        if file_type.is_symlink() {
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
        // The listing tells a folder from a file without asking the system
        // again; only a link (already checked above) is followed.
        let is_dir = if file_type.is_symlink() {
            path.is_dir()
        } else {
            file_type.is_dir()
        };
        if is_dir == dirs {
            out.push(rel);
        }
    }
    out
}

/// Reads a text file: size-limited, UTF-8, without BOM, with `\n` line ends.
///
/// Only regular files are read (a pipe would block, a device never end), and
/// only when the file, after following symbolic links, lies inside `root`.
/// The size is checked before reading and enforced while reading, so a file
/// that grows in the meantime is still refused.
pub(crate) fn read_text(root: &Path, rel: &Path, limit: u64) -> Result<String, Diagnostic> {
    use std::io::Read;
    let path = root.join(rel);
    let fail = |msg: String| Diagnostic::error(rel, Span::default(), msg);
    // One `lstat` tells both what the file is and whether it is a link;
    // only a link costs a second call, to follow it.
    let link_meta = std::fs::symlink_metadata(&path);
    let is_link = link_meta.as_ref().is_ok_and(|m| m.file_type().is_symlink());
    let meta = match link_meta {
        Ok(m) if !is_link => Ok(m),
        _ => std::fs::metadata(&path),
    };
    let meta = meta.map_err(|e| {
        let d = fail(format!("cannot read the file: {}", io_reason(&e)));
        if e.kind() == std::io::ErrorKind::NotFound && rel == Path::new("site.yaml") {
            d.hint("a findings folder needs site.yaml at its root; is --root pointing at the right folder?")
        } else {
            d
        }
    })?;
    if meta.is_dir() {
        return Err(fail("is a folder, not a file".into()));
    }
    if !meta.is_file() {
        return Err(
            fail("is not a regular file (it is a pipe, a socket or a device)".into())
                .hint("findings reads only regular files; replace it with one"),
        );
    }
    if !inside_as(root, &path, is_link) {
        return Err(
            fail("leads outside the site folder through a symbolic link".into())
                .hint("copy the file into the folder instead of linking to it"),
        );
    }
    let too_big = |len: u64| {
        fail(format!("the file is {len} bytes; the limit is {limit}"))
            .hint("split it, or move bulk data into a run's CSV table")
    };
    if meta.len() > limit {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(&path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(|e| fail(format!("cannot read the file: {}", io_reason(&e))))?;
    if bytes.len() as u64 > limit {
        // It grew while being read.
        return Err(too_big(bytes.len() as u64));
    }
    decode_text(rel, bytes)
}

/// True when `path`, with every symbolic link followed, lies inside `root`.
fn inside(root: &Path, path: &Path) -> bool {
    let is_link = std::fs::symlink_metadata(path).map_or(true, |m| m.file_type().is_symlink());
    inside_as(root, path, is_link)
}

/// [`inside`] for a `path` known to be a link or not.
fn inside_as(root: &Path, path: &Path, is_link: bool) -> bool {
    let Some(root) = canonical_dir(root) else {
        return false;
    };
    // A file that is not itself a link is where its folder is: resolve the
    // folder once (a site has a few thousand) rather than every file's
    // path, which costs a system call per component.
    let target = match (is_link, last_name(path)) {
        (false, Some((dir, name))) => canonical_dir(dir).map(|d| d.join(name)),
        _ => path.canonicalize().ok(),
    };
    target.is_some_and(|t| t.starts_with(root))
}

/// `path`'s folder and last name, when the last component is a name (not
/// `.`, `..` or a root).
fn last_name(path: &Path) -> Option<(&Path, &std::ffi::OsStr)> {
    match path.components().next_back()? {
        std::path::Component::Normal(name) => Some((path.parent()?, name)),
        _ => None,
    }
}

/// Folders resolved during the current load (see [`inside`]); emptied when
/// a load starts, so a folder replaced by a link later is seen.
static CANONICAL_DIRS: std::sync::Mutex<Option<std::collections::HashMap<PathBuf, PathBuf>>> =
    std::sync::Mutex::new(None);

fn canonical_dir(dir: &Path) -> Option<PathBuf> {
    if let Ok(cache) = CANONICAL_DIRS.lock() {
        if let Some(c) = cache.as_ref().and_then(|m| m.get(dir)) {
            return Some(c.clone());
        }
    }
    // A folder that is not itself a link is inside its parent's resolved
    // path: one `lstat` instead of resolving every component again (each
    // run has its own folder, ten thousand of them in a big site).
    let resolved = match (std::fs::symlink_metadata(dir), last_name(dir)) {
        (Ok(m), Some((parent, name))) if m.is_dir() && !parent.as_os_str().is_empty() => {
            canonical_dir(parent).map(|p| p.join(name))
        }
        _ => None,
    };
    let c = match resolved {
        Some(c) => c,
        None => dir.canonicalize().ok()?,
    };
    if let Ok(mut cache) = CANONICAL_DIRS.lock() {
        cache
            .get_or_insert_with(Default::default)
            .insert(dir.to_path_buf(), c.clone());
    }
    Some(c)
}

/// Turns a file's bytes into text as records are read: UTF-8 (else an error
/// at the line and column of the first bad byte), without a byte-order mark,
/// with `\r\n` and `\r` line ends made `\n`.
pub fn decode_text(rel: &Path, bytes: Vec<u8>) -> Result<String, Diagnostic> {
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
        let start = valid.iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1);
        let col = std::str::from_utf8(&valid[start..]).map_or(1, |s| s.chars().count() + 1);
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
        std::io::ErrorKind::IsADirectory => "it is a folder".into(),
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
        Err((msg, span, hint)) => {
            let span = if span.line == 0 {
                Span::new(first_line, 1)
            } else {
                Span::new(first_line + span.line - 1, span.column)
            };
            diags.push(
                Diagnostic::error(file, span, msg)
                    .hint(hint.unwrap_or("check the indentation and quoting around this line")),
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
        items: Default::default(),
    };
    if value.is_null() {
        doc.error_hint(
            "",
            "the file is empty",
            Some("site.yaml needs at least title, base_url, groups and engines"),
        );
        return None;
    }
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
    let group_values = doc.req_list(obj, "groups").unwrap_or(&[]);
    let groups = doc.kept("groups", group_values, |doc, g, path| {
        let go = doc.object(g, path, GROUP_FIELDS)?;
        let id = slug_field(doc, go, "id");
        let title = doc.req_string(go, "title");
        let blurb = doc.opt_string(go, "blurb");
        Some(Group {
            id: id?,
            title: title?,
            blurb,
        })
    });
    let engine_values = doc.req_list(obj, "engines").unwrap_or(&[]);
    let engines = doc.kept("engines", engine_values, |doc, e, path| {
        let eo = doc.object(e, path, ENGINE_FIELDS)?;
        let id = slug_field(doc, eo, "id");
        let name = doc.req_string(eo, "name");
        let repo = doc.opt_string(eo, "repo");
        if let Some(r) = &repo {
            if !(r.starts_with("https://") || r.starts_with("http://")) {
                doc.error(&join(path, "repo"), format!("\"{r}\" is not an http(s) URL"));
            }
        }
        let color = doc.req_string(eo, "color");
        if let Some(c) = &color {
            let ok =
                c.len() == 7 && c.starts_with('#') && c[1..].bytes().all(|b| b.is_ascii_hexdigit());
            if !ok {
                doc.error_hint(
                    &join(path, "color"),
                    format!("\"{c}\" is not a colour of the form #rrggbb"),
                    Some("write six hex digits after #, e.g. \"#0072b2\" (quoted: YAML reads # as a comment)"),
                );
            }
        }
        let releases = doc.version_list(eo, "releases");
        Some(Engine {
            id: id?,
            name: name?,
            repo,
            color: color?.to_ascii_lowercase(),
            releases,
        })
    });
    let items = doc.finish();
    let mut spans = spans;
    for (list, at) in items {
        spans.set_items(list, at);
    }
    let (title, base_url) = (title?, base_url?);
    let base_url = if base_url.ends_with('/') {
        base_url
    } else {
        format!("{base_url}/")
    };
    Some(Site {
        content_hash: crate::util::hash_of(text),
        title,
        base_url,
        description,
        groups,
        engines,
        spans,
    })
}

/// The longest id (group, engine, chart), tag or model name, in characters:
/// each becomes part of an address, and file systems limit names to 255 bytes.
pub const MAX_NAME_CHARS: usize = 100;

/// A list of names that each get a page (tags, models): short enough to be
/// a file name.
fn name_list(doc: &mut Doc<'_>, obj: Obj<'_>, key: &str) -> Vec<String> {
    let path = join(obj.path(), key);
    let items = doc.list(obj, key);
    doc.kept(&path, items, |doc, v, p| {
        let s = doc.string(v, p)?;
        let n = s.chars().count();
        if n > MAX_NAME_CHARS {
            doc.error_hint(
                p,
                format!("the name is {n} characters long; the limit is {MAX_NAME_CHARS}"),
                Some("each tag and model gets a page named after it; keep names short"),
            );
            return None;
        }
        Some(s)
    })
}

/// A required identifier made of lowercase letters, digits and '-'.
fn slug_field(doc: &mut Doc<'_>, obj: Obj<'_>, key: &str) -> Option<String> {
    let s = doc.req_string(obj, key)?;
    if s.len() > MAX_NAME_CHARS {
        doc.error_hint(
            &join(obj.path(), key),
            format!(
                "the id is {} characters long; the limit is {MAX_NAME_CHARS}",
                s.len()
            ),
            Some("ids become part of addresses; keep them short"),
        );
        None
    } else if is_slug(&s) {
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

/// The id of a finding file that could not be read as text (too big, not
/// UTF-8), from the start of its front matter, if it is there.
fn peek_id(root: &Path, rel: &Path) -> Option<u32> {
    use std::io::Read;
    let path = root.join(rel);
    if !std::fs::metadata(&path).ok()?.is_file() || !inside(root, &path) {
        return None;
    }
    let mut head = Vec::new();
    std::fs::File::open(&path)
        .ok()?
        .take(64 * 1024)
        .read_to_end(&mut head)
        .ok()?;
    let text = String::from_utf8_lossy(&head).replace("\r\n", "\n");
    let front = text.strip_prefix("---\n")?;
    let end = front.find("\n---").unwrap_or(front.len());
    id_in_text(&front[..end])
}

/// The `id: N` line of front matter that could not be parsed, if any.
fn id_in_text(front: &str) -> Option<u32> {
    front.lines().find_map(|l| {
        let v = l.strip_prefix("id:")?;
        let v = v.split(" #").next().unwrap_or(v).trim();
        v.parse::<u32>().ok().filter(|n| *n > 0)
    })
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
    // When the front matter cannot be read as a whole, its id may still be
    // readable; knowing it keeps other files' links to it from being
    // reported as missing on top of the real problem.
    let (value, spans, raw) = parse_yaml(file, front, 2, diags).ok_or_else(|| id_in_text(front))?;
    let mut doc = Doc {
        file,
        spans: &spans,
        raw: &raw,
        diags,
        items: Default::default(),
    };
    if value.is_null() {
        doc.error("", "the front matter is empty");
        return Err(None);
    }
    let obj = doc
        .object(&value, "", FINDING_FIELDS)
        .ok_or_else(|| id_in_text(front))?;
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
    let engine_values = doc.req_list(obj, "engines");
    if matches!(doc.get(obj, "engines"), Some(Value::Sequence(l)) if l.is_empty()) {
        doc.error_hint(
            "engines",
            "at least one engine is required",
            Some("add `- engine: <id>` with the versions tested"),
        );
    }
    let engines = doc.kept("engines", engine_values.unwrap_or(&[]), |doc, e, path| {
        let eo = doc.object(e, path, ENTRY_FIELDS)?;
        let engine = doc.req_string(eo, "engine");
        Some(EngineEntry {
            engine: engine.unwrap_or_default(),
            affected: doc.version_list(eo, "affected"),
            clean: doc.version_list(eo, "clean"),
            introduced_in: doc.opt_version(eo, "introduced_in"),
            fixed_in: doc.opt_version(eo, "fixed_in"),
            mitigated_in: doc.opt_version(eo, "mitigated_in"),
            note: doc.opt_string(eo, "note"),
        })
    });
    let models = name_list(&mut doc, obj, "models");
    let hardware = doc.string_list(obj, "hardware");
    let tags = name_list(&mut doc, obj, "tags");
    let link_values = doc.list(obj, "links");
    let links = doc.kept("links", link_values, |doc, l, path| {
        let lo = doc.object(l, path, LINK_FIELDS)?;
        let label = doc.req_string(lo, "label");
        let url = doc.req_string(lo, "url");
        let kind = doc
            .choice(lo, "kind", LINK_KINDS, false)
            .map(str::to_string);
        Some(Link {
            label: label?,
            url: url?,
            kind,
        })
    });
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
    let items = doc.finish();
    let mut spans = spans;
    for (list, at) in items {
        spans.set_items(list, at);
    }

    Ok(Finding {
        path: file.to_path_buf(),
        content_hash: crate::util::hash_of(text),
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
        facts: crate::markdown::scan(body),
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
    if !root.join(&file).exists() && root.join(&file).symlink_metadata().is_err() {
        diags.push(
            Diagnostic::error(dir, Span::default(), "the run folder has no run.yaml").hint(
                "every folder in data/runs/ is a run; add its run.yaml, or start the folder's name with _ to leave it out",
            ),
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
    let tables = |name: &str| {
        let rel = dir.join(name);
        if !root.join(&rel).is_file() {
            return TableText::Missing;
        }
        match read_text(root, &rel, MAX_TABLE_BYTES) {
            Ok(t) => TableText::Text(t),
            Err(d) => TableText::Unreadable(d),
        }
    };
    parse_run(dir, &text, &tables, diags)
}

/// A run's table as [`parse_run`] gets it.
pub enum TableText {
    /// No such file.
    Missing,
    /// The file could not be read; the diagnostic says why.
    Unreadable(Diagnostic),
    /// The file's text, as [`decode_text`] makes it.
    Text(String),
}

/// Reads one run from the text of its `run.yaml`, without touching the disk:
/// `dir` is the run's folder relative to the root (`data/runs/<id>`), and
/// `tables` gives the text of each table file named in it. Problems go to the
/// returned diagnostics. This is what `findings check` does for each run,
/// minus reading files; the fuzz targets call it.
pub fn parse_run_text(
    dir: &Path,
    text: &str,
    tables: &dyn Fn(&str) -> TableText,
) -> (Option<Run>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let run = parse_run(dir, text, tables, &mut diags);
    (run, diags)
}

/// Reads one finding from its text, without touching the disk: `file` is
/// its path relative to the root (`findings/<slug>.md`), `text` what
/// [`decode_text`] makes of its bytes. Returns the finding if it could be
/// read, and every problem found. The fuzz targets call it.
pub fn parse_finding_text(file: &Path, text: &str) -> (Option<Finding>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let f = parse_finding(file, text, &mut diags).ok();
    (f, diags)
}

/// Reads `site.yaml` from its text, without touching the disk.
pub fn parse_site_text(text: &str) -> (Option<Site>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let s = parse_site(Path::new("site.yaml"), text, &mut diags);
    (s, diags)
}

fn parse_run(
    dir: &Path,
    text: &str,
    tables_text: &dyn Fn(&str) -> TableText,
    diags: &mut Diagnostics,
) -> Option<Run> {
    let id = dir.file_name()?.to_string_lossy().to_string();
    let file = dir.join("run.yaml");
    let (value, spans, raw) = parse_yaml(&file, text, 1, diags)?;
    let mut doc = Doc {
        file: &file,
        spans: &spans,
        raw: &raw,
        diags,
        items: Default::default(),
    };
    if value.is_null() {
        doc.error_hint(
            "",
            "the file is empty",
            Some("a run.yaml needs at least title, date, setups and tables"),
        );
        return None;
    }
    let obj = doc.object(&value, "", RUN_FIELDS)?;
    let title = doc.req_string(obj, "title");
    let date = doc.req_date(obj, "date");
    let mut setups = Vec::new();
    let setup_values = doc.req_list(obj, "setups");
    if matches!(doc.get(obj, "setups"), Some(Value::Sequence(l)) if l.is_empty()) {
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
    if matches!(doc.get(obj, "tables"), Some(Value::Sequence(l)) if l.is_empty()) {
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
        // Whether the columns could be read, so that the CSV header is
        // compared with them only then.
        let described = matches!(doc.get(to, "columns"), Some(Value::Mapping(_)));
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
                        // A unit that is there but wrong is reported; the
                        // column still counts as numeric, so that charts
                        // on it are not reported as well.
                        Some(_) => doc.opt_string(co, "unit").or(Some(String::new())),
                        None => None,
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
            read_csv(
                tables_text,
                dir,
                &mut table,
                doc.diags,
                &path,
                &spans,
                described,
            );
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

    let content_hash = crate::util::hash_of((
        text,
        tables
            .iter()
            .map(|t| (&t.file, &t.header, &t.rows))
            .collect::<Vec<_>>(),
    ));
    Some(Run {
        id,
        content_hash,
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
    tables_text: &dyn Fn(&str) -> TableText,
    dir: &Path,
    table: &mut Table,
    diags: &mut Diagnostics,
    yaml_path: &str,
    spans: &Spans,
    described: bool,
) {
    let rel = dir.join(&table.file);
    let run_yaml = dir.join("run.yaml");
    let text = match tables_text(&table.file) {
        TableText::Text(t) => t,
        TableText::Unreadable(d) => {
            diags.push(d);
            return;
        }
        TableText::Missing => {
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
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    // The csv crate gives a record the line where reading it began, which is
    // before any blank lines it skipped; count those to get the record's own line.
    let line_of = |p: Option<&csv::Position>| -> usize {
        p.map_or(0, |p| {
            let skipped = text
                .as_bytes()
                .get(p.byte() as usize..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| **b == b'\n')
                .count();
            p.line() as usize + skipped
        })
    };
    // Where cell `k` of a record starts, as a file position: quoted cells
    // may hold commas and line ends, so the record's text is walked.
    let cell_at = |p: Option<&csv::Position>, k: usize| -> Span {
        let Some(p) = p else {
            return Span::new(0, 1);
        };
        let start = p.byte() as usize;
        let rest = text.get(start..).unwrap_or_default();
        let rest = rest.trim_start_matches('\n');
        let (mut line, mut col) = (line_of(Some(p)), 1);
        let (mut field, mut quoted) = (0, false);
        for c in rest.chars() {
            if field == k {
                break;
            }
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => field += 1,
                '\n' if !quoted => break,
                _ => {}
            }
            if c == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        Span::new(line, col)
    };
    let mut records = reader.records();
    let (header, header_line) = match records.next() {
        Some(Ok(h)) => (
            h.iter().map(|s| s.trim().to_string()).collect::<Vec<_>>(),
            (line_of(h.position()), h),
        ),
        Some(Err(e)) => {
            diags.push(Diagnostic::error(
                &rel,
                Span::new(line_of(e.position()).max(1), 1),
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
    let (header_line, header_rec) = header_line;
    for (i, h) in header.iter().enumerate() {
        let at = cell_at(header_rec.position(), i);
        if h.is_empty() {
            diags.push(
                Diagnostic::error(&rel, at, format!("column {} has no name", i + 1))
                    .hint("give every column a name in the first row (a trailing comma makes an empty one)"),
            );
        } else if header[..i].contains(h) {
            diags.push(Diagnostic::error(
                &rel,
                at,
                format!("column \"{h}\" appears twice in the header"),
            ));
        } else if described && table.column(h).is_none() {
            diags.push(
                Diagnostic::error(&run_yaml, spans.get(&join(yaml_path, "columns")), format!("column \"{h}\" of {} is not described", table.file))
                    .field(join(yaml_path, "columns"))
                    .hint(format!("add `{h}: {{unit: ..., description: ...}}` under columns (leave out unit for a text column)")),
            );
        }
    }
    for c in table.columns.iter().filter(|_| described) {
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
                diags.push(Diagnostic::error(
                    &rel,
                    Span::new(line_of(e.position()), 1),
                    format!("CSV: {e}"),
                ));
                break;
            }
        };
        let line = line_of(rec.position());
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
            let hint = if rec.iter().any(|c| c.contains('\n')) {
                "a cell that starts with a quote (\") runs to the next quote, across lines; is a closing quote missing?"
            } else {
                "every row needs one cell per column; leave a cell empty for a missing value"
            };
            diags.push(
                Diagnostic::error(
                    &rel,
                    Span::new(line, 1),
                    format!(
                        "row has {}, the header has {}",
                        crate::diagnostics::plural(rec.len(), "cell", "cells"),
                        header.len()
                    ),
                )
                .hint(hint),
            );
            continue;
        }
        let row: Vec<String> = rec.iter().map(|s| s.trim().to_string()).collect();
        for (k, cell) in row.iter().enumerate() {
            let numeric = table.column(&header[k]).is_some_and(Column::is_numeric);
            if numeric && !cell.is_empty() && parse_number(cell).is_none() {
                diags.push(
                    Diagnostic::error(&rel, cell_at(rec.position(), k), format!("expected a number, found \"{cell}\""))
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
            Diagnostic::error(
                &rel,
                Span::new(header_line, 1),
                "the table has a header but no rows",
            )
            .hint("add one row per measured point"),
        );
    }
    table.header = header;
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
