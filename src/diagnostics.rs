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

/// The most diagnostics of one file printed as text (`check`, `build`,
/// `serve`'s terminal): the rest are counted in one line, as compilers do,
/// so that a file with 10^5 problems prints a screenful, not 10^5 lines.
/// `--format json` carries every one.
pub const MAX_SHOWN_PER_FILE: usize = 100;

/// A line of the text output: a diagnostic, or the count of the ones of a
/// file that are not shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown<'a> {
    /// A diagnostic, printed whole.
    Diagnostic(&'a Diagnostic),
    /// How many more errors and warnings `file` has.
    More {
        /// The file.
        file: &'a Path,
        /// Errors not shown.
        errors: usize,
        /// Warnings not shown.
        warnings: usize,
    },
}

/// What a person reads of `list` (in the order of [`Diagnostics::sorted`]),
/// of the diagnostics `keep` accepts: at most [`MAX_SHOWN_PER_FILE`] of each
/// file, the first by position, then a line counting the others.
pub fn shown(list: &[Diagnostic], keep: impl Fn(&Diagnostic) -> bool) -> Vec<Shown<'_>> {
    let mut out = Vec::new();
    let mut kept = list.iter().filter(|d| keep(d)).peekable();
    while let Some(first) = kept.peek() {
        let file = first.file.as_path();
        let (mut errors, mut warnings) = (0, 0);
        let mut n = 0;
        while let Some(d) = kept.next_if(|d| d.file == file) {
            n += 1;
            if n <= MAX_SHOWN_PER_FILE {
                out.push(Shown::Diagnostic(d));
            } else if d.severity == Severity::Error {
                errors += 1;
            } else {
                warnings += 1;
            }
        }
        if errors + warnings > 0 {
            out.push(Shown::More {
                file,
                errors,
                warnings,
            });
        }
    }
    out
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shown::Diagnostic(d) => write!(f, "{d}"),
            Shown::More {
                file,
                errors,
                warnings,
            } => {
                let mut parts = Vec::new();
                if *errors > 0 {
                    parts.push(plural(*errors, "more error", "more errors"));
                }
                if *warnings > 0 {
                    parts.push(plural(*warnings, "more warning", "more warnings"));
                }
                write!(
                    f,
                    "{}: … and {} (not shown; --format json lists them all)",
                    file.display(),
                    parts.join(" and ")
                )
            }
        }
    }
}

/// The most names a hint lists ("known engines: …", "the header has: …");
/// the rest are counted, so that a hint stays a line however many names
/// there are.
pub const MAX_LISTED: usize = 30;

/// `names` joined by ", ", at most [`MAX_LISTED`] of them and then how many
/// more: "a, b, c and 970 more".
pub fn listing<S: AsRef<str>>(names: &[S]) -> String {
    let shown: Vec<&str> = names.iter().take(MAX_LISTED).map(AsRef::as_ref).collect();
    let mut out = shown.join(", ");
    if names.len() > MAX_LISTED {
        out.push_str(&format!(" and {} more", names.len() - MAX_LISTED));
    }
    out
}

/// "1 error", "2 errors": counts said the way people say them.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_shows_its_first_diagnostics_and_counts_the_rest() {
        let mut diags = Diagnostics::new();
        for line in 1..=MAX_SHOWN_PER_FILE + 3 {
            diags.push(Diagnostic::error("b.md", Span::new(line, 1), "bad"));
        }
        diags.push(Diagnostic::warning("b.md", Span::new(999, 1), "meh"));
        diags.push(Diagnostic::error("a.md", Span::new(1, 1), "bad"));
        let list = diags.sorted();
        let lines = shown(&list, |_| true);
        assert_eq!(lines.len(), 1 + MAX_SHOWN_PER_FILE + 1);
        assert_eq!(lines[0].to_string(), "a.md:1:1: error: bad");
        assert_eq!(
            lines[MAX_SHOWN_PER_FILE].to_string(),
            "b.md:100:1: error: bad"
        );
        assert_eq!(
            lines[MAX_SHOWN_PER_FILE + 1].to_string(),
            "b.md: … and 3 more errors and 1 more warning (not shown; --format json lists them all)"
        );
        // Errors only (--quiet): the warning is neither shown nor counted.
        let errors = shown(&list, |d| d.severity == Severity::Error);
        assert_eq!(
            errors.last().unwrap().to_string(),
            "b.md: … and 3 more errors (not shown; --format json lists them all)"
        );
        assert_eq!(listing(&["a", "b"]), "a, b");
    }
}
