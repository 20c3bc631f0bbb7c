//! Diagnostics: what went wrong in a findings folder, said for people.
//!
//! Every stage (load, validate, render) pushes [`Diagnostic`]s into a
//! [`Diagnostics`] list instead of stopping at the first problem, so one run
//! reports everything. The list is sorted into a stable order (file, line,
//! column, message) before it is printed, either as text for a terminal or as
//! JSON for editors and CI.

use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// How bad a diagnostic is. Errors fail `check` and stop `build`; warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The folder cannot be published as it is.
    Error,
    /// Worth a look, but the site can still be built.
    Warning,
}

/// A position in a file, 1-based like editors show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize)]
pub struct Span {
    /// Line number, starting at 1.
    pub line: usize,
    /// Column number in characters, starting at 1.
    pub column: usize,
}

impl Span {
    /// A span at `line`, `column` (both 1-based).
    pub fn new(line: usize, column: usize) -> Self {
        Span { line, column }
    }
}

/// One problem found in a findings folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The file, relative to the site root (`findings/kv-cache.md`).
    pub file: PathBuf,
    /// Where in the file; line 0 means the file as a whole.
    #[serde(flatten)]
    pub span: Span,
    /// The field concerned, as a path (`engines[0].fixed_in`), or the CSV column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What is wrong and what was expected.
    pub message: String,
    /// How to fix it, when there is something useful to say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl Diagnostic {
    /// An error in `file` at `span`.
    pub fn error(file: impl Into<PathBuf>, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            file: file.into(),
            span,
            field: None,
            message: message.into(),
            hint: None,
        }
    }

    /// A warning in `file` at `span`.
    pub fn warning(file: impl Into<PathBuf>, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(file, span, message)
        }
    }

    /// Names the field the diagnostic is about.
    pub fn field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// Adds a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    fn sort_key(&self) -> (&Path, Span, &str, &Option<String>) {
        (&self.file, self.span, &self.message, &self.field)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{}", self.file.display())?;
        if self.span.line > 0 {
            write!(f, ":{}:{}", self.span.line, self.span.column.max(1))?;
        }
        write!(f, ": {kind}: ")?;
        if let Some(field) = &self.field {
            write!(f, "`{field}`: ")?;
        }
        write!(f, "{}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

/// All diagnostics of one run.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    /// Adds all diagnostics of another list.
    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }

    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.items.len() - self.error_count()
    }

    /// True when there is at least one error.
    pub fn has_errors(&self) -> bool {
        self.error_count() > 0
    }

    /// True when there is nothing at all.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The diagnostics in their stable order: file, line, column, message.
    pub fn sorted(mut self) -> Vec<Diagnostic> {
        self.items.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        self.items.dedup();
        self.items
    }

    /// Iterates in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }
}

/// "1 error", "2 errors": counts said the way people say them.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}
