//! One writer per output folder: the lock `build` and `serve` hold on the
//! folder they write.
//!
//! The lock is an OS lock ([`File::try_lock`]: `flock` on Unix) on a hidden
//! file beside the output, `.<name>.lock`, next to where the staging
//! folders go: a build swaps the output folder away whole, so the lock
//! cannot live inside it. The system lets go of the lock when its holder
//! ends, however it ends, so a crash never leaves a folder locked; a
//! holder that ends normally also removes the file.
//!
//! The holder writes its pid and command line into the file, so a second
//! writer can say which process it is refused by ([`Busy`]). A file that is
//! still there with nobody holding its lock was left by a process that
//! ended without letting go (killed, or crashed): the next writer takes it
//! over and says so ([`OutputLock::takeover_note`]), then clears what that
//! process left behind (see [`super::Staging::new`]).

use super::{prepare, sibling};
use crate::sink::{at as ctx, WriteError};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The process that holds an output folder's lock, as its lock file names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    /// Its process id.
    pub pid: u32,
    /// Its command line, the program by its file name (`findings serve --port 1111`).
    pub command: String,
}

impl Holder {
    /// This process.
    pub fn this_process() -> Holder {
        Holder {
            pid: std::process::id(),
            command: command_line(),
        }
    }

    /// The lock file's text: two lines a person can read too.
    fn to_text(&self) -> String {
        format!("pid: {}\ncommand: {}\n", self.pid, self.command)
    }

    /// Reads [`Holder::to_text`] back; `None` for an empty file (a lock
    /// let go of normally) or one that names no pid.
    fn parse(text: &str) -> Option<Holder> {
        let mut pid = None;
        let mut command = String::new();
        for line in text.lines() {
            if let Some(p) = line.strip_prefix("pid: ") {
                pid = p.trim().parse().ok();
            } else if let Some(c) = line.strip_prefix("command: ") {
                command = c.trim().to_string();
            }
        }
        Some(Holder { pid: pid?, command })
    }
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.command.is_empty() {
            write!(f, "pid {}", self.pid)
        } else {
            write!(f, "pid {}: {}", self.pid, self.command)
        }
    }
}

/// This process's command line as one line: the program by its file name,
/// then each argument, quoted (as a Rust string) when it holds a space, a
/// quote or a control character.
fn command_line() -> String {
    let mut args = std::env::args_os();
    let program = args
        .next()
        .and_then(|a| {
            Path::new(&a)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "findings".into());
    let mut line = program;
    for arg in args {
        let arg = arg.to_string_lossy();
        line.push(' ');
        let plain = !arg.is_empty()
            && !arg
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '\\'));
        if plain {
            line.push_str(&arg);
        } else {
            line.push_str(&format!("{arg:?}"));
        }
    }
    line
}

/// The lock on an output folder, held until dropped. Only a holder can make
/// a [`super::Staging`] folder for it.
#[derive(Debug)]
pub struct OutputLock {
    /// The lock file, open and locked.
    file: File,
    /// Where it is.
    path: PathBuf,
    /// The output folder, absolute.
    output: PathBuf,
    /// The output folder as it was given, ending in `/`, for messages.
    folder: String,
    /// The process whose lock file this one took over.
    took_over: Option<Holder>,
}

/// Another process holds the lock: nothing was written.
#[derive(Debug, thiserror::Error)]
pub struct Busy {
    /// The output folder as it was given, ending in `/`.
    pub folder: String,
    /// The process holding it, when its lock file says.
    pub holder: Option<Holder>,
    /// The lock file.
    pub lock_file: PathBuf,
}

impl std::fmt::Display for Busy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.holder {
            Some(h) => write!(
                f,
                "{} is being written by another findings process ({h})",
                self.folder
            ),
            None => write!(
                f,
                "{} is being written by another process, which has not written its pid into {}",
                self.folder,
                self.lock_file.display()
            ),
        }
    }
}

impl Busy {
    /// What to do about it.
    pub fn hint(&self) -> &'static str {
        "wait until it ends (a `serve` ends with Ctrl-C where it runs), or write into another folder with --output DIR"
    }
}

/// Why the lock could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds it.
    #[error(transparent)]
    Busy(#[from] Busy),
    /// The lock file could not be made, opened or locked (or the output
    /// cannot be a folder: a file stands where it or a folder above it must be).
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// How often to look again at a lock file whose holder has not written its
/// name yet (it has just taken the lock) or is removing it (it is letting
/// go), and for how long.
const RETRY: Duration = Duration::from_millis(10);
const ATTEMPTS: usize = 100;

impl OutputLock {
    /// Takes the lock on the output folder `output`, or says who holds it.
    /// Creates the folders above `output` as needed, never `output` itself.
    pub fn acquire(output: &Path) -> Result<OutputLock, LockError> {
        let abs = prepare(output)?;
        let path = sibling(&abs, "lock");
        let mut folder = output.display().to_string();
        if !folder.ends_with(std::path::MAIN_SEPARATOR) && !folder.ends_with('/') {
            folder.push('/');
        }
        for _ in 0..ATTEMPTS {
            // Opened without truncating: it may be another process's, whose
            // name a refusal reads from it.
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(ctx(&path))?;
            match file.try_lock() {
                Ok(()) => {
                    // A holder letting go removes the file before the lock
                    // goes; a lock on a removed file guards nothing, so
                    // open the file at the path anew.
                    if !is_at(&file, &path) {
                        continue;
                    }
                    let mut lock = OutputLock {
                        took_over: read_holder(&file),
                        file,
                        path,
                        output: abs,
                        folder,
                    };
                    lock.write_holder()?;
                    return Ok(lock);
                }
                Err(TryLockError::WouldBlock) => {
                    if let Some(holder) = read_holder(&file) {
                        return Err(Busy {
                            folder,
                            holder: Some(holder),
                            lock_file: path,
                        }
                        .into());
                    }
                    std::thread::sleep(RETRY);
                }
                Err(TryLockError::Error(e)) => return Err(ctx(&path)(e).into()),
            }
        }
        Err(Busy {
            folder,
            holder: None,
            lock_file: path,
        }
        .into())
    }

    fn write_holder(&mut self) -> Result<(), WriteError> {
        let text = Holder::this_process().to_text();
        self.file.set_len(0).map_err(ctx(&self.path))?;
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.write_all(text.as_bytes()))
            .map_err(ctx(&self.path))
    }

    /// The output folder, absolute.
    pub fn output(&self) -> &Path {
        &self.output
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether this is the lock on `output`.
    pub fn covers(&self, output: &Path) -> bool {
        super::absolute(output).is_ok_and(|o| o == self.output)
    }

    /// The process whose lock file this lock took over: one that ended
    /// without letting go of it.
    pub fn took_over(&self) -> Option<&Holder> {
        self.took_over.as_ref()
    }

    /// What to tell about a lock taken over, if this one was.
    pub fn takeover_note(&self) -> Option<String> {
        self.took_over.as_ref().map(|h| {
            let named = if h.command.is_empty() {
                format!("pid {}", h.pid)
            } else {
                format!("pid {} ({})", h.pid, h.command)
            };
            format!(
                "taking over the lock on {}: {named} ended without releasing it",
                self.folder
            )
        })
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Emptied first, so that a file that cannot be removed names nobody
        // and the next writer does not take a clean exit for a crash; then
        // removed while still locked (see `acquire`). The lock itself goes
        // when the file closes, right after.
        let _ = self.file.set_len(0);
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The holder a lock file names, read through `file`.
fn read_holder(mut file: &File) -> Option<Holder> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.take(64 * 1024).read_to_string(&mut text).ok()?;
    Holder::parse(&text)
}

/// Whether `file` is the file at `path` now.
#[cfg(unix)]
fn is_at(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Whether `file` is the file at `path` now: always, where an open file
/// cannot be removed.
#[cfg(not(unix))]
fn is_at(_file: &File, _path: &Path) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_a_folder_is_refused_and_names_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("public");
        let lock = OutputLock::acquire(&out).unwrap();
        assert_eq!(lock.path(), dir.path().join(".public.lock"));
        assert!(!out.exists(), "the output folder is not made");
        assert_eq!(lock.took_over(), None);
        let me = Holder::this_process();
        assert_eq!(
            std::fs::read_to_string(lock.path()).unwrap(),
            format!("pid: {}\ncommand: {}\n", me.pid, me.command)
        );
        // Another open file of the same process is another holder to `flock`.
        let Err(LockError::Busy(busy)) = OutputLock::acquire(&out) else {
            panic!("a second lock was granted");
        };
        assert_eq!(busy.holder.as_ref(), Some(&me));
        assert_eq!(
            busy.to_string(),
            format!(
                "{}/ is being written by another findings process (pid {}: {})",
                out.display(),
                me.pid,
                me.command
            )
        );
        // Another folder beside it is not held.
        let other = OutputLock::acquire(&dir.path().join("public2")).unwrap();
        drop(other);
        drop(lock);
        assert!(
            !dir.path().join(".public.lock").exists(),
            "removed when let go"
        );
        let again = OutputLock::acquire(&out).unwrap();
        assert_eq!(again.took_over(), None, "a clean exit is not a crash");
    }

    #[test]
    fn a_lock_file_nobody_holds_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let file = dir.path().join(".site.lock");
        std::fs::write(&file, "pid: 4194400\ncommand: findings serve --port 1111\n").unwrap();
        let lock = OutputLock::acquire(&out).unwrap();
        assert_eq!(
            lock.took_over(),
            Some(&Holder {
                pid: 4194400,
                command: "findings serve --port 1111".into()
            })
        );
        assert_eq!(
            lock.takeover_note().unwrap(),
            format!(
                "taking over the lock on {}/: pid 4194400 (findings serve --port 1111) ended without releasing it",
                out.display()
            )
        );
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.starts_with(&format!("pid: {}\n", std::process::id())),
            "{text}"
        );
        // An empty file is a lock let go of: taken without a note.
        drop(lock);
        std::fs::write(&file, "").unwrap();
        assert_eq!(OutputLock::acquire(&out).unwrap().takeover_note(), None);
    }

    #[test]
    fn lock_files_are_read_back() {
        let h = Holder {
            pid: 7,
            command: "findings build --output \"my site\"".into(),
        };
        assert_eq!(Holder::parse(&h.to_text()), Some(h));
        assert_eq!(Holder::parse(""), None);
        assert_eq!(Holder::parse("garbage\n"), None);
        assert_eq!(
            Holder::parse("pid: 12\n").map(|h| h.to_string()),
            Some("pid 12".into())
        );
    }
}
