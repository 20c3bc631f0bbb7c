//! Where the files of a site go: the seam between the stages that make
//! them (pages, outputs) and the stage that writes them (`write`).
//!
//! A maker hands each file over by its site path (`findings/x/` for a
//! page, `atom.xml` for a file) through [`Output`], whole or streamed into
//! a [`Sink`]. The write stage's staging folder implements it; a test can
//! implement it in memory. A maker never learns where the bytes end up,
//! so it cannot write into the live site by mistake.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A write that failed, with the path it was writing.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {source}", path.display())]
pub struct WriteError {
    /// The file or folder.
    pub path: PathBuf,
    /// What the system said.
    #[source]
    pub source: std::io::Error,
}

/// Turns an I/O error into a [`WriteError`] at `path`.
pub fn at(path: &Path) -> impl FnOnce(std::io::Error) -> WriteError + '_ {
    move |source| WriteError {
        path: path.to_path_buf(),
        source,
    }
}

/// Where [`Output::write_with`] streams a file: bytes and JSON in, with
/// any failure reported against the file's path.
pub struct Sink<'a> {
    out: &'a mut dyn Write,
    path: &'a Path,
}

impl<'a> Sink<'a> {
    /// A sink writing to `out`; failures name `path`.
    pub fn new(out: &'a mut dyn Write, path: &'a Path) -> Sink<'a> {
        Sink { out, path }
    }

    /// Appends `bytes`.
    pub fn put(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        self.out.write_all(bytes).map_err(at(self.path))
    }

    /// Appends `value` as compact JSON.
    pub fn json(&mut self, value: &impl serde::Serialize) -> Result<(), WriteError> {
        serde_json::to_writer(&mut *self.out, value)
            .map_err(std::io::Error::from)
            .map_err(at(self.path))
    }
}

/// Receives the files of a site, by site path: a folder path
/// (`findings/x/`, or the empty root) means its `index.html`.
pub trait Output: Sync {
    /// Writes `bytes` to `rel`.
    fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), WriteError>;

    /// Writes what `fill` puts into its [`Sink`] to `rel`, with the same
    /// result as [`Output::write`] of the same bytes; the bytes may go
    /// straight to disk, so a big file is never whole in memory.
    fn write_with<E: From<WriteError>>(
        &self,
        rel: &str,
        fill: impl FnOnce(&mut Sink<'_>) -> Result<(), E>,
    ) -> Result<(), E>;

    /// Notes that the site keeps `rel` as the previous build wrote it: the
    /// caller knows its bytes would be the same. Returns false (and notes
    /// nothing) when the output cannot keep it; the caller must write it.
    fn keep(&self, rel: &str) -> bool;

    /// Whether [`Output::keep`] would keep `rel`.
    fn can_keep(&self, rel: &str) -> bool;
}
