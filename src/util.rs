//! Helpers every stage shares, below them all: hashing, escaping text
//! for HTML, XML and inline JSON, and a list in words. They know nothing
//! of records or pages.

/// A hash of `parts` (within one process; never stored). foldhash is
/// several times faster than the standard SipHash on the long texts hashed
/// here (page contexts, bodies), and no input is chosen by an attacker.
pub fn hash_of(parts: impl std::hash::Hash) -> u64 {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::with_seed(0x5eed).hash_one(parts)
}

/// "a, b and c"; "a, x; b, y and c, z" where an item holds a comma (the
/// reports of a paste: "comment 3, second report").
pub fn and_list(items: &[String]) -> String {
    let sep = if items.iter().any(|i| i.contains(',')) {
        "; "
    } else {
        ", "
    };
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(sep)),
    }
}

/// Escapes text for HTML content and attribute values.
pub fn escape_html(s: &str) -> String {
    // Runs of plain text are copied whole: every value a template prints
    // goes through here. The five characters are ASCII, so a byte index
    // of one is always a character boundary. Most values hold none of
    // them: those are found so by a table lookup a byte and copied as
    // they are.
    let bytes = s.as_bytes();
    let Some(first) = bytes.iter().position(|&b| HTML_SPECIAL[usize::from(b)]) else {
        return s.to_string();
    };
    let mut out = String::with_capacity(s.len() + s.len() / 16 + 8);
    push_escaped_from(&mut out, s, first);
    out
}

/// Appends `s` escaped as [`escape_html`] writes it, without a string of
/// its own (a run table's every cell).
pub fn push_escaped_html(out: &mut String, s: &str) {
    match s.bytes().position(|b| HTML_SPECIAL[usize::from(b)]) {
        None => out.push_str(s),
        Some(first) => push_escaped_from(out, s, first),
    }
}

/// Appends `s` escaped, its first special byte at `first`.
fn push_escaped_from(out: &mut String, s: &str, first: usize) {
    let bytes = s.as_bytes();
    let mut plain = 0;
    for (i, &b) in bytes.iter().enumerate().skip(first) {
        if !HTML_SPECIAL[usize::from(b)] {
            continue;
        }
        let entity = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => "&#39;",
        };
        out.push_str(&s[plain..i]);
        out.push_str(entity);
        plain = i + 1;
    }
    out.push_str(&s[plain..]);
}

/// The bytes [`escape_html`] replaces: `&`, `<`, `>`, `"` and `'`.
const HTML_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'&' as usize] = true;
    t[b'<' as usize] = true;
    t[b'>' as usize] = true;
    t[b'"' as usize] = true;
    t[b'\'' as usize] = true;
    t
};

/// Escapes text for XML content and attribute values, dropping characters
/// that XML 1.0 does not allow at all.
pub fn escape_xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// JSON that is safe inside a `<script type="application/json">` element:
/// `<`, `>` and `&` are written as `\u` escapes, which only strings hold.
pub fn script_json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "null".into())
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// The SHA-256 of `bytes`, in lowercase hex: how the site names the exact
/// bytes of a result file it publishes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    format!("{:x}", Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_html_replaces_the_five_characters_and_keeps_the_rest() {
        assert_eq!(
            escape_html("a<b>&\"c\" 'd' — é<"),
            "a&lt;b&gt;&amp;&quot;c&quot; &#39;d&#39; — é&lt;"
        );
        assert_eq!(escape_html(""), "");
        assert_eq!(escape_html("plain"), "plain");
    }

    #[test]
    fn escape_xml_escapes_markup_and_drops_what_xml_forbids() {
        assert_eq!(
            escape_xml("a < b & \"c\" 'd' >\u{1}\u{FFFF}é\n"),
            "a &lt; b &amp; &quot;c&quot; &apos;d&apos; &gt;é\n"
        );
    }

    #[test]
    fn script_json_cannot_close_the_script() {
        let s = script_json(&serde_json::json!({"t": "</script><!-- & >"}));
        assert!(
            !s.contains('<') && !s.contains('>') && !s.contains('&'),
            "{s}"
        );
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["t"], "</script><!-- & >");
    }

    #[test]
    fn sha256_is_the_standard_digest() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
