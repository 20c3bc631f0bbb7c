//! Text taken from a paste, written into the comment so that it cannot act
//! there: names and models in code spans ([`code`]), prose with Markdown's
//! punctuation escaped and `@` and `#` kept from mentioning or linking
//! ([`prose`]), the `code` of a check's or finding's words kept
//! ([`words`]), addresses only when they are plain `http(s)` ones
//! ([`link`]). Takes strings; hands back Markdown.

/// The longest a check's or a symptom's words are quoted, in characters.
const MAX_WORDS: usize = 700;

/// Words quoted at most [`MAX_WORDS`] characters long: cut after the last
/// "; " that fits (a check names each report in a clause of its own), or
/// at a character, with "…".
pub(super) fn cut(words: &str) -> std::borrow::Cow<'_, str> {
    if words.chars().count() <= MAX_WORDS {
        return words.into();
    }
    let end = words
        .char_indices()
        .nth(MAX_WORDS)
        .map_or(words.len(), |(i, _)| i);
    let head = &words[..end];
    let head = head.rfind("; ").map_or(head, |i| &head[..i]);
    format!("{head}; …").into()
}

/// A table cell: its pipes escaped, its lines joined.
pub(super) fn cell(s: &str) -> String {
    s.replace('\n', " ").replace('|', "\\|")
}

/// `text` as a code span: shown as typed, never a mention, a link or
/// HTML; a fence longer than any run of backticks in it.
pub fn code(text: &str) -> String {
    let t = text.replace(['\n', '\r'], " ");
    let mut longest = 0;
    let mut run = 0;
    for c in t.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    let pad = if t.starts_with('`') || t.ends_with('`') || t.starts_with(' ') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{t}{pad}{fence}")
}

/// Words of a check, a symptom or a finding: their `code` as code spans,
/// the rest as [`prose`]; a backtick left open is a backtick.
pub fn words(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    let mut out = String::with_capacity(text.len() + 8);
    for (i, part) in parts.iter().enumerate() {
        if i % 2 == 1 && i + 1 < parts.len() {
            out.push_str(&code(part));
        } else {
            if i % 2 == 1 {
                out.push_str("\\`");
            }
            out.push_str(&prose(part));
        }
    }
    out
}

/// `text` as Markdown prose that reads as typed: Markdown's and HTML's
/// punctuation escaped, and `@` and `#` before a letter or digit kept from
/// mentioning someone or linking an issue (a zero-width space after them).
pub fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '!' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '@' | '#' => {
                out.push(c);
                if chars.peek().is_some_and(|n| n.is_alphanumeric()) {
                    out.push('\u{200B}');
                }
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// An address fit for a link: `http(s)`, nothing that could end the link
/// or open HTML; parentheses encoded.
pub(super) fn safe_url(url: &str) -> Option<String> {
    let ok = (url.starts_with("https://") || url.starts_with("http://"))
        && url.len() > 8
        && !url.chars().any(|c| {
            c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '`' | '\\')
        });
    ok.then(|| url.replace('(', "%28").replace(')', "%29"))
}

/// `[text](url)`, or the text alone where the address is not fit.
pub(super) fn link(text: &str, url: Option<&str>) -> String {
    match url.and_then(safe_url) {
        Some(u) => format!("[{text}]({u})"),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_comes_from_a_paste_cannot_act_in_the_comment() {
        assert_eq!(code("@user <img src=x>"), "`@user <img src=x>`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(
            prose("@user said <img src=x> [a](javascript:1) #12 & *b*"),
            "@\u{200B}user said \\<img src=x\\> \\[a\\](javascript:1) #\u{200B}12 \\& \\*b\\*"
        );
        assert_eq!(safe_url("javascript:alert(1)"), None);
        assert_eq!(safe_url("https://x/a b"), None);
        assert_eq!(
            safe_url("https://github.com/o/r/issues/1#issuecomment-2").as_deref(),
            Some("https://github.com/o/r/issues/1#issuecomment-2")
        );
        assert_eq!(link("t", Some("https://e/(x)")), "[t](https://e/%28x%29)");
        assert_eq!(cell("a|b\nc"), "a\\|b c");
        assert_eq!(
            words("count the `-> pause` lines, `@x` and `open"),
            "count the `-> pause` lines, `@x` and \\`open"
        );
    }
}
