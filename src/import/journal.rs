//! What an import changed on disk, kept so that it can be taken back: an
//! import either leaves a run that `check` accepts, or refuses and leaves
//! `data/` as it found it, byte for byte. Every file is written aside and
//! renamed into place (a reader never sees half a file); the journal
//! records, before the first write of each path, the bytes that were there
//! (or that nothing was), and each folder it had to make. [`Journal::undo`]
//! puts the old bytes back, removes the files that were new, then the
//! folders it made, newest first.
//!
//! Takes paths and bytes; hands back nothing but errors for people.

use super::ImportError;
use std::path::{Path, PathBuf};

/// The changes of one import, in the order they were made.
#[derive(Debug, Default)]
pub(super) struct Journal {
    /// Each path written, with the bytes it held before (`None`: it was not
    /// there).
    files: Vec<(PathBuf, Option<Vec<u8>>)>,
    /// Each folder made, parents first.
    dirs: Vec<PathBuf>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ImportError + '_ {
    move |source| ImportError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Journal {
    /// Writes `bytes` to `path` (aside, then renamed over it), having
    /// recorded what was there.
    pub(super) fn write(&mut self, path: &Path, bytes: &[u8]) -> Result<(), ImportError> {
        if !self.files.iter().any(|(p, _)| p == path) {
            let before = match std::fs::read(path) {
                Ok(b) => Some(b),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(io(path)(e)),
            };
            self.files.push((path.to_path_buf(), before));
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        self.make_dirs(dir)?;
        write_aside(path, bytes)
    }

    /// Makes `dir` and the folders above it that are missing, recording
    /// each one made.
    fn make_dirs(&mut self, dir: &Path) -> Result<(), ImportError> {
        let mut missing = Vec::new();
        let mut at = Some(dir);
        while let Some(d) = at.filter(|d| !d.as_os_str().is_empty() && !d.exists()) {
            missing.push(d.to_path_buf());
            at = d.parent();
        }
        for d in missing.into_iter().rev() {
            std::fs::create_dir(&d).map_err(io(&d))?;
            self.dirs.push(d);
        }
        Ok(())
    }

    /// Takes every change back, newest first: old bytes written again, new
    /// files removed, then the folders made. Returns what could not be
    /// taken back, for people (nothing, as a rule).
    pub(super) fn undo(self) -> Vec<String> {
        let mut failed = Vec::new();
        for (path, before) in self.files.into_iter().rev() {
            let done = match before {
                Some(bytes) => write_aside(&path, &bytes).map_err(|e| e.to_string()),
                None => match std::fs::remove_file(&path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        Err(format!("{}: {e}", path.display()))
                    }
                    _ => Ok(()),
                },
            };
            if let Err(e) = done {
                failed.push(e);
            }
        }
        for dir in self.dirs.into_iter().rev() {
            if let Err(e) = std::fs::remove_dir(&dir) {
                failed.push(format!("{}: {e}", dir.display()));
            }
        }
        failed
    }
}

/// Writes `bytes` beside `path`, then renames it over `path`: a reader
/// never sees half a file.
pub(super) fn write_aside(path: &Path, bytes: &[u8]) -> Result<(), ImportError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io(dir))?;
    std::io::Write::write_all(&mut tmp, bytes).map_err(io(path))?;
    tmp.persist(path).map_err(|e| ImportError::Io {
        path: path.to_path_buf(),
        source: e.error,
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_puts_back_old_bytes_and_removes_what_was_new() {
        let root = tempfile::tempdir().unwrap();
        let old = root.path().join("old.txt");
        std::fs::write(&old, b"before").unwrap();
        let mut j = Journal::default();
        j.write(&old, b"after").unwrap();
        j.write(&old, b"after again").unwrap();
        let new = root.path().join("a/b/new.txt");
        j.write(&new, b"new").unwrap();
        assert_eq!(std::fs::read(&old).unwrap(), b"after again");
        assert!(new.is_file());
        assert_eq!(j.undo(), Vec::<String>::new());
        assert_eq!(std::fs::read(&old).unwrap(), b"before");
        assert!(!root.path().join("a").exists());
        let left: Vec<_> = std::fs::read_dir(root.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("old.txt")]);
    }
}
