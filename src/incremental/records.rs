//! The records a session keeps between loads: each finding's and run's
//! parse result with its diagnostics, keyed by path and by the stamps
//! (size, times, inode) of the files it came from. The load stage asks for
//! them through [`load::Store`]; a file whose stamps did not change is not
//! read and parsed again.

use super::generations::Generations;
use crate::diagnostics::Diagnostics;
use crate::load::{self, LoadedFinding, LoadedRun};
use std::path::{Path, PathBuf};

/// Parsed records kept between loads of the same folder: the same test
/// `make` and cargo rely on, so a file changed without changing any of its
/// stamps would be missed.
#[derive(Default)]
pub(crate) struct Records {
    findings: Generations<PathBuf, (Vec<Stamp>, (LoadedFinding, Diagnostics))>,
    runs: Generations<PathBuf, (Vec<Stamp>, (LoadedRun, Diagnostics))>,
}

impl Records {
    /// Ends a load: what it saw is what the next one can reuse (whether or
    /// not the build goes on to succeed: the records describe the files).
    pub(crate) fn rotate(&self) {
        self.findings.rotate();
        self.runs.rotate();
    }
}

impl load::Store for Records {
    fn finding(
        &self,
        root: &Path,
        rel: &Path,
        read: &mut dyn FnMut() -> (LoadedFinding, Diagnostics),
    ) -> (LoadedFinding, Diagnostics) {
        let stamps = stamp(String::new(), &root.join(rel)).map(|s| vec![s]);
        get(&self.findings, rel, stamps, read)
    }

    fn run(
        &self,
        root: &Path,
        dir: &Path,
        read: &mut dyn FnMut() -> (LoadedRun, Diagnostics),
    ) -> (LoadedRun, Diagnostics) {
        get(&self.runs, dir, run_stamps(root, dir), read)
    }
}

/// The result for `key` made from files stamped `stamps`: the last load's,
/// unless a stamp changed; then what `read` makes.
fn get<V: Clone>(
    cache: &Generations<PathBuf, (Vec<Stamp>, V)>,
    key: &Path,
    stamps: Option<Vec<Stamp>>,
    read: &mut dyn FnMut() -> V,
) -> V {
    let Some(stamps) = stamps else {
        return read();
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
    let hit = cache
        .take_last(key)
        .filter(|(s, _)| !racy && *s == stamps)
        .map(|(_, v)| v);
    let v = hit.unwrap_or_else(read);
    cache.put(key.to_path_buf(), (stamps, v.clone()));
    v
}

/// How recent a modification time must be for the file to be read again
/// whatever its stamp (see [`get`]).
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

/// The stamps of a run folder's files, those of its subfolders included
/// (the result files under `raw/`, whole folders of them), or `None` when
/// one cannot be read (then nothing is reused). A folder's own stamp is
/// kept too, so a file added or removed in it is seen.
fn run_stamps(root: &Path, dir: &Path) -> Option<Vec<Stamp>> {
    let mut v = Vec::new();
    let mut todo = vec![(String::new(), root.join(dir))];
    while let Some((prefix, folder)) = todo.pop() {
        for e in std::fs::read_dir(&folder).ok()? {
            let e = e.ok()?;
            let name = format!("{prefix}{}", e.file_name().to_string_lossy());
            if e.file_type().ok()?.is_dir() {
                todo.push((format!("{name}/"), e.path()));
            }
            v.push(stamp(name, &e.path())?);
        }
    }
    v.sort();
    Some(v)
}
