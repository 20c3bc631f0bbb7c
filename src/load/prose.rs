//! Markdown that will not read as written: a warning for each list that a
//! wrapped line starts in the middle of a paragraph (found by
//! `markdown::scan`), in a finding's body or a run's notes. Takes the
//! list and where its line is in the file; hands on the diagnostic.

use crate::diagnostics::{Diagnostic, Span};
use crate::record::ListBreak;
use std::path::Path;

/// The longest part of the line a warning quotes, in characters.
const QUOTED_CHARS: usize = 80;

/// The warning for `list`, whose line is at `at` in `file`, in `field`.
pub(super) fn list_break_warning(
    file: &Path,
    at: Span,
    field: &str,
    list: &ListBreak,
) -> Diagnostic {
    let kind = if list.is_numbered() {
        "numbered"
    } else {
        "bulleted"
    };
    let mut text: String = list.text.chars().take(QUOTED_CHARS).collect();
    if list.text.chars().count() > QUOTED_CHARS {
        text.push('…');
    }
    let marker = &list.marker;
    // `1.` is kept as text by escaping its dot; `-` by escaping itself.
    let escaped = match marker.char_indices().last() {
        Some((i, _)) if list.is_numbered() => format!("{}\\{}", &marker[..i], &marker[i..]),
        _ => format!("\\{marker}"),
    };
    Diagnostic::warning(
        file,
        at,
        format!("this line continues a paragraph but starts a {kind} list: \"{text}\""),
    )
    .field(field)
    .hint(format!(
        "Markdown ends a paragraph at a line that begins with \"{marker} \", even without a blank line; rewrap the paragraph so that no line begins with it, or write \"{escaped}\" to keep it as text (for a list, put a blank line before it)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(marker: &str, text: &str) -> String {
        let list = ListBreak {
            line: 2,
            column: 1,
            marker: marker.to_string(),
            text: text.to_string(),
        };
        list_break_warning(Path::new("run.yaml"), Span::new(19, 3), "notes", &list).to_string()
    }

    #[test]
    fn the_warning_quotes_the_line_and_says_how_to_keep_it_as_text() {
        assert_eq!(
            warning("1.", "1. The client's tg t/s"),
            "run.yaml:19:3: warning: `notes`: this line continues a paragraph but starts a numbered list: \"1. The client's tg t/s\"\n  hint: Markdown ends a paragraph at a line that begins with \"1. \", even without a blank line; rewrap the paragraph so that no line begins with it, or write \"1\\.\" to keep it as text (for a list, put a blank line before it)"
        );
        let bullet = warning("-", &format!("- {}", "x".repeat(80)));
        assert!(
            bullet.contains(&format!("bulleted list: \"- {}…\"", "x".repeat(78))),
            "{bullet}"
        );
        assert!(
            bullet.contains("write \"\\-\" to keep it as text"),
            "{bullet}"
        );
        assert!(warning("1)", "1) ten").contains("write \"1\\)\""));
    }
}
