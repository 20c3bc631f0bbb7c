//! What can go wrong reading a result file, said for people: the file, the
//! line and column where the reader stopped (0 when it is about the file as
//! a whole), the field concerned, what was found and what was expected, and
//! a hint. Warnings are things worth a look that did not stop the reading.

use std::fmt;

/// The kind of a [`ReadError`], for callers that act on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file is larger than [`super::MAX_FILE_BYTES`].
    TooLarge,
    /// Not valid UTF-8.
    NotUtf8,
    /// Invalid or truncated JSON, YAML or CSV.
    Syntax,
    /// Parsed, but of no format this module knows.
    UnknownFormat,
    /// A known key holds a value of the wrong type.
    Field,
    /// A stream of results whose entries are of different formats.
    Mixed,
    /// A run folder without the files a run folder needs.
    Folder,
}

/// An error reading a result file or a run folder.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct ReadError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// The file's name as the caller gave it.
    pub file: String,
    /// 1-based line; 0 when the error concerns the file as a whole.
    pub line: usize,
    /// 1-based column in characters; 0 with line 0.
    pub column: usize,
    /// The key concerned, as a path (`server_info.version`).
    pub field: Option<String>,
    /// What was found and what was expected.
    pub message: String,
    /// How to fix it, when there is something useful to say.
    pub hint: Option<String>,
}

impl ReadError {
    pub(crate) fn new(kind: ErrorKind, file: &str, message: impl Into<String>) -> Self {
        ReadError {
            kind,
            file: file.to_string(),
            line: 0,
            column: 0,
            field: None,
            message: message.into(),
            hint: None,
        }
    }

    /// An error of a file as a whole, of the kind a reader does not know
    /// (what picks from the file disagrees with it).
    pub fn new_at_file(file: &str, message: impl Into<String>) -> Self {
        ReadError::new(ErrorKind::Field, file, message)
    }

    /// With a hint.
    pub fn with_hint(self, hint: impl Into<String>) -> Self {
        self.hint(hint)
    }

    pub(crate) fn at(mut self, line: usize, column: usize) -> Self {
        self.line = line;
        self.column = column;
        self
    }

    pub(crate) fn field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    pub(crate) fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    fn render(&self) -> String {
        let mut s = self.file.clone();
        if self.line > 0 {
            s.push_str(&format!(":{}:{}", self.line, self.column.max(1)));
        }
        s.push_str(": ");
        if let Some(field) = &self.field {
            s.push_str(&format!("`{field}`: "));
        }
        s.push_str(&self.message);
        if let Some(hint) = &self.hint {
            s.push_str("\n  hint: ");
            s.push_str(hint);
        }
        s
    }
}

/// Something worth a look that did not stop the reading (a llama-bench
/// array left open by a crashed run). Unknown extra keys are never warnings:
/// every tool adds keys over time, and `--metadata` adds the user's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The file's name as the caller gave it.
    pub file: String,
    /// 1-based line, or 0 for the file as a whole.
    pub line: usize,
    /// What was found.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        } else {
            write!(f, "{}: {}", self.file, self.message)
        }
    }
}
