//! What a long-running process (`serve`) keeps between loads: each
//! finding's and run's parse result, keyed by path and by the stamps (size,
//! times, inode) of the files it was made from. Takes those stamps and a
//! way to make the result; hands back the kept result when nothing changed.

use crate::diagnostics::Diagnostics;
use crate::record::{Finding, Run};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Parsed records kept between loads of the same folder by a long-running
/// process (`serve`): a file whose size, times and inode did not change is
/// not read and parsed again. The same test `make` and cargo rely on; a
/// file changed without changing any of them would be missed.
#[derive(Default)]
pub struct LoadCache {
    pub(super) findings: FileCache<(LoadedFinding, Diagnostics)>,
    pub(super) runs: FileCache<(Option<Arc<Run>>, Diagnostics)>,
}

/// A finding as loaded, or the id of one that has errors (if it has one).
pub(super) type LoadedFinding = Result<Arc<Finding>, Option<u32>>;

/// Results by path, with the stamps of the files they were made from.
pub(super) struct FileCache<V> {
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
    pub(super) fn get(
        &self,
        key: &Path,
        stamps: Option<Vec<Stamp>>,
        make: impl FnOnce() -> V,
    ) -> V {
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
    pub(super) fn rotate(&self) {
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
pub(super) type Stamp = (String, u64, i64, i64, i64, i64, u64);

#[cfg(unix)]
pub(super) fn stamp(name: String, path: &Path) -> Option<Stamp> {
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
pub(super) fn stamp(_: String, _: &Path) -> Option<Stamp> {
    None
}

/// The stamps of a run folder's files, or `None` when one cannot be read
/// (then nothing is reused).
pub(super) fn run_stamps(root: &Path, dir: &Path) -> Option<Vec<Stamp>> {
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
