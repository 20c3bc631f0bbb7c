//! Reading files safely: the one place that opens record files and lists
//! folders. Takes the site root and paths relative to it; hands on text
//! (size-limited, UTF-8, `\n` line ends) or a diagnostic saying why not, and
//! refuses anything that is not a regular file inside the root.

use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use std::path::{Path, PathBuf};

/// Reads a text file: size-limited, UTF-8, without BOM, with `\n` line ends.
///
/// Only regular files are read (a pipe would block, a device never end), and
/// only when the file, after following symbolic links, lies inside `root`.
/// The size is checked before reading and enforced while reading, so a file
/// that grows in the meantime is still refused.
pub(crate) fn read_text(root: &Path, rel: &Path, limit: u64) -> Result<String, Diagnostic> {
    decode_text(rel, read_bytes(root, rel, limit)?)
}

/// Reads a file's bytes as [`read_text`] does (a regular file inside
/// `root`, within `limit`), without making text of them: result files are
/// read by their own parsers.
pub(crate) fn read_bytes(root: &Path, rel: &Path, limit: u64) -> Result<Vec<u8>, Diagnostic> {
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
            d.hint("a findings folder needs site.yaml at its root; is --root pointing at the right folder? To start a new site, run `findings init <folder>`")
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
    Ok(bytes)
}

/// True when `path`, with every symbolic link followed, lies inside `root`.
pub(super) fn inside(root: &Path, path: &Path) -> bool {
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
pub(super) static CANONICAL_DIRS: std::sync::Mutex<
    Option<std::collections::HashMap<PathBuf, PathBuf>>,
> = std::sync::Mutex::new(None);

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

/// The entries of `root/sub` (files, or folders when `dirs`), sorted by name,
/// relative to `root`. A missing folder is an empty list.
pub(super) fn list_dir(
    root: &Path,
    sub: &str,
    dirs: bool,
    diags: &mut Diagnostics,
) -> Vec<PathBuf> {
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

fn ignored(name: &str) -> bool {
    name.starts_with('_') || name.starts_with('.')
}

/// The files under `static/` that a build copies, as site paths: regular
/// files, not in or named like hidden (`.x`) entries.
pub(super) fn static_files(root: &Path) -> Vec<String> {
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
