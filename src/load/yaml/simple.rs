//! The YAML records are written in, read without libyaml: the fast path in
//! front of `serde_yaml`.
//!
//! Front matter and `run.yaml` files use a small part of YAML: block
//! mappings with plain keys, block lists, one-line `[lists]` and
//! `{mappings}`, quoted and plain scalars, and `|` or `>` blocks of text.
//! Reading that part directly takes a fraction of what libyaml's events and
//! serde's visitors cost (they were most of the time spent loading a site).
//!
//! [`parse`] gives the same [`Value`] `serde_yaml` gives, or `None`: it
//! refuses anything it does not handle exactly as serde_yaml does (anchors,
//! tags, escapes, comments after a value, quoted keys, text over several
//! lines, a tab, a document marker, a duplicate key, anything that is an
//! error), and the caller then parses the text with `serde_yaml`, which
//! also reports the errors. Debug builds parse every text both ways and
//! compare the results, so the whole test suite checks this module; a
//! randomized test (`simple/tests.rs`) does the same on generated texts.
//!
//! One pass over the lines, each read once; flow collections are read
//! within their line. Texts larger than [`MAX_TEXT`] or nested deeper than
//! [`MAX_DEPTH`] go to `serde_yaml`, which keeps the limits.

use super::{Mapping, Value};

/// The largest text read here: well within the limits `budget.rs` keeps,
/// which no text this size can reach without aliases.
const MAX_TEXT: usize = 64 * 1024;

/// The deepest nesting read here (below `MAX_YAML_DEPTH`).
const MAX_DEPTH: usize = 32;

/// The value of `text`, when it is in the part of YAML read here.
pub(super) fn parse(text: &str) -> Option<Value> {
    if text.len() > MAX_TEXT || !plain_bytes(text.as_bytes()) {
        return None;
    }
    // The lines as `split('\n')` gives them (the last one after the last
    // newline, empty or not), found with memchr: `str::split` of a char
    // costs a few hundred instructions a line.
    let mut lines: Vec<Line<'_>> = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text.as_bytes()) {
        lines.push(Line::new(&text[start..end]));
        start = end + 1;
    }
    lines.push(Line::new(&text[start..]));
    let mut next = vec![lines.len(); lines.len() + 1];
    for i in (0..lines.len()).rev() {
        next[i] = if lines[i].is_content() {
            i
        } else {
            next[i + 1]
        };
    }
    let doc = Doc { lines, next };
    let first = doc.content_from(0)?;
    let (value, end) = doc.block(first, 0)?;
    match doc.content_from(end) {
        None => Some(value),
        Some(_) => None,
    }
}

/// False when `bytes` hold anything libyaml reads differently from what
/// this module assumes: control characters (tabs and carriage returns
/// among them), a byte order mark, Unicode line or paragraph separators,
/// and the characters YAML does not allow.
fn plain_bytes(bytes: &[u8]) -> bool {
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            if (b < 0x20 && b != b'\n') || b == 0x7f {
                return false;
            }
        } else {
            let next = |k: usize| bytes.get(i + k).copied().unwrap_or(0);
            let bad = match b {
                // C1 controls, NEL among them.
                0xc2 => (0x80..=0x9f).contains(&next(1)),
                // Line and paragraph separators.
                0xe2 => next(1) == 0x80 && matches!(next(2), 0xa8 | 0xa9),
                // A byte order mark, U+FFFE and U+FFFF.
                0xef => {
                    (next(1) == 0xbb && next(2) == 0xbf)
                        || (next(1) == 0xbf && matches!(next(2), 0xbe | 0xbf))
                }
                _ => false,
            };
            if bad {
                return false;
            }
        }
        i += 1;
    }
    true
}

/// One line: its indentation and what follows it, without trailing spaces.
struct Line<'t> {
    indent: usize,
    text: &'t str,
    raw: &'t str,
}

impl<'t> Line<'t> {
    fn new(raw: &'t str) -> Self {
        let body = raw.trim_start_matches(' ');
        Line {
            indent: raw.len() - body.len(),
            text: body.trim_end_matches(' '),
            raw,
        }
    }

    /// Neither blank nor a comment.
    fn is_content(&self) -> bool {
        !self.text.is_empty() && !self.text.starts_with('#')
    }

    fn is_blank(&self) -> bool {
        self.text.is_empty()
    }
}

struct Doc<'t> {
    lines: Vec<Line<'t>>,
    /// For each line, the first line from it on that is neither blank nor
    /// a comment (`lines.len()` when none is).
    next: Vec<usize>,
}

/// `- item` or a lone `-`.
fn is_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

/// `key: rest` or `key:` with a plain key read as a string; the key and
/// what follows the colon (trimmed).
fn entry(text: &str) -> Option<(&str, &str)> {
    let end = text
        .bytes()
        .position(|b| !is_key_byte(b))
        .unwrap_or(text.len());
    let key = &text[..end];
    let after = text[end..].strip_prefix(':')?;
    if !(after.is_empty() || after.starts_with(' ')) || !string_key(key) {
        return None;
    }
    Some((key, after.trim_start_matches(' ')))
}

/// A byte of a plain key read here: letters, digits, `_`, `-` and `.`.
fn is_key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// A plain key that serde_yaml reads as this very string: it starts with a
/// letter or `_` and is not `null`, `true` or `false` in any of their
/// spellings.
fn string_key(key: &str) -> bool {
    key.as_bytes()
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        && !matches!(
            key,
            "null" | "Null" | "NULL" | "true" | "True" | "TRUE" | "false" | "False" | "FALSE"
        )
}

impl<'t> Doc<'t> {
    fn content_from(&self, i: usize) -> Option<usize> {
        let j = *self.next.get(i)?;
        (j < self.lines.len()).then_some(j)
    }

    /// The list or mapping that starts on line `i` (a content line), and
    /// the line after it.
    fn block(&self, i: usize, depth: usize) -> Option<(Value, usize)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let line = &self.lines[i];
        if is_item(line.text) {
            self.list(i, line.indent, depth + 1)
        } else {
            self.mapping(i, line.indent, line.text, depth + 1)
        }
    }

    /// A block mapping whose keys stand at column `indent`, the first on
    /// line `i` with `first` as its text (a list item's mapping starts
    /// after its `- `).
    fn mapping(
        &self,
        mut i: usize,
        indent: usize,
        first: &str,
        depth: usize,
    ) -> Option<(Value, usize)> {
        let mut map = Mapping::new();
        let mut text = first;
        loop {
            let (key, rest) = entry(text)?;
            let (value, end) = if rest.is_empty() {
                match self.content_from(i + 1) {
                    Some(j) if self.lines[j].indent > indent => self.block(j, depth)?,
                    Some(j) if self.lines[j].indent == indent && is_item(self.lines[j].text) => {
                        self.list(j, indent, depth + 1)?
                    }
                    _ => (Value::Null, i + 1),
                }
            } else if rest.starts_with(['|', '>']) {
                self.text_block(i, indent, rest)?
            } else {
                (inline(rest, depth)?, i + 1)
            };
            if map.insert(Value::String(key.to_string()), value).is_some() {
                return None;
            }
            let Some(j) = self.content_from(end) else {
                return Some((Value::Mapping(map), self.lines.len()));
            };
            let line = &self.lines[j];
            if line.indent < indent {
                return Some((Value::Mapping(map), j));
            }
            if line.indent > indent || is_item(line.text) {
                return None;
            }
            i = j;
            text = line.text;
        }
    }

    /// A block list whose `- ` stand at column `indent`, from line `i`.
    fn list(&self, mut i: usize, indent: usize, depth: usize) -> Option<(Value, usize)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut items = Vec::new();
        loop {
            let text = self.lines[i].text;
            let rest = text[1..].trim_start_matches(' ');
            let (value, end) = if rest.is_empty() {
                match self.content_from(i + 1) {
                    Some(j) if self.lines[j].indent > indent => self.block(j, depth)?,
                    _ => (Value::Null, i + 1),
                }
            } else if is_item(rest) {
                return None;
            } else if entry(rest).is_some() {
                let column = indent + text.len() - rest.len();
                self.mapping(i, column, rest, depth + 1)?
            } else if rest.starts_with(['|', '>']) {
                self.text_block(i, indent, rest)?
            } else {
                (inline(rest, depth)?, i + 1)
            };
            items.push(value);
            let Some(j) = self.content_from(end) else {
                return Some((Value::Sequence(items), self.lines.len()));
            };
            let line = &self.lines[j];
            // A line at the list's own column that is not an item ends it:
            // the key after a list written at its key's column.
            if line.indent < indent || (line.indent == indent && !is_item(line.text)) {
                return Some((Value::Sequence(items), j));
            }
            if line.indent > indent {
                return None;
            }
            i = j;
        }
    }

    /// A `|` (literal) or `>` (folded) block of text whose header ends line
    /// `i`, inside a node at column `parent`: its lines, each without the
    /// block's indentation, joined as YAML joins them; and the line after.
    /// Only the plain forms: no explicit indentation, no `+` (keep), no
    /// blank line before the first, no line indented more than the first
    /// in a folded block, no trailing spaces.
    fn text_block(&self, i: usize, parent: usize, header: &str) -> Option<(Value, usize)> {
        let folded = header.starts_with('>');
        let strip = match &header[1..] {
            "" => false,
            "-" => true,
            _ => return None,
        };
        let first = self.lines.get(i + 1)?;
        if first.is_blank() || first.indent <= parent {
            return None;
        }
        let base = first.indent;
        let mut parts: Vec<&str> = Vec::new();
        let mut end = i + 1;
        let mut last = end;
        while let Some(line) = self.lines.get(end) {
            if line.is_blank() {
                if line.raw.len() > base {
                    return None;
                }
                parts.push("");
            } else if line.indent >= base {
                if line.raw.ends_with(' ') || (folded && line.indent > base) {
                    return None;
                }
                parts.push(&line.raw[base..]);
                last = end;
            } else if line.indent > parent {
                return None;
            } else {
                break;
            }
            end += 1;
        }
        while parts.last() == Some(&"") {
            parts.pop();
        }
        let mut out = String::new();
        if folded {
            let mut empty = 0;
            for (n, part) in parts.iter().enumerate() {
                if part.is_empty() {
                    empty += 1;
                    continue;
                }
                if n > 0 {
                    if empty == 0 {
                        out.push(' ');
                    }
                    for _ in 0..empty {
                        out.push('\n');
                    }
                }
                out.push_str(part);
                empty = 0;
            }
        } else {
            out = parts.join("\n");
        }
        // Clipped, the block keeps its last line break, if the text has one.
        if !strip && last + 1 < self.lines.len() {
            out.push('\n');
        }
        Some((Value::String(out), end))
    }
}

/// A value written on the rest of its line: quoted, a one-line flow list
/// or mapping, or plain.
fn inline(text: &str, depth: usize) -> Option<Value> {
    match text.as_bytes()[0] {
        b'"' | b'\'' | b'[' | b'{' => {
            let mut at = 0;
            let value = flow_node(text, &mut at, depth)?;
            (at == text.len()).then_some(value)
        }
        _ => plain(text, false),
    }
}

/// Skips spaces at `at`.
fn spaces(text: &str, at: &mut usize) {
    while text.as_bytes().get(*at) == Some(&b' ') {
        *at += 1;
    }
}

/// Steps past the opening bracket at `at` and what spaces follow; true
/// (and past the `close` too) when the collection is empty.
fn empty_flow(text: &str, at: &mut usize, close: u8) -> bool {
    *at += 1;
    spaces(text, at);
    if text.as_bytes().get(*at) == Some(&close) {
        *at += 1;
        return true;
    }
    false
}

/// After an item of a flow collection: `Some(false)` past a `,` (another
/// item follows), `Some(true)` past the `close`, `None` for anything else,
/// a trailing comma among them.
fn flow_separator(text: &str, at: &mut usize, close: u8) -> Option<bool> {
    spaces(text, at);
    let bytes = text.as_bytes();
    match *bytes.get(*at)? {
        b',' => {
            *at += 1;
            spaces(text, at);
            (bytes.get(*at) != Some(&close)).then_some(false)
        }
        b if b == close => {
            *at += 1;
            Some(true)
        }
        _ => None,
    }
}

/// One value in flow style (or a quoted one) from `at`, which it moves past
/// the value.
fn flow_node(text: &str, at: &mut usize, depth: usize) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    let bytes = text.as_bytes();
    match *bytes.get(*at)? {
        b'"' => {
            let start = *at + 1;
            let len = text[start..].find(['"', '\\'])?;
            if bytes[start + len] != b'"' {
                return None;
            }
            *at = start + len + 1;
            Some(Value::String(text[start..start + len].to_string()))
        }
        b'\'' => {
            let mut out = String::new();
            let mut pos = *at + 1;
            loop {
                let len = text[pos..].find('\'')?;
                out.push_str(&text[pos..pos + len]);
                pos += len + 1;
                if bytes.get(pos) == Some(&b'\'') {
                    out.push('\'');
                    pos += 1;
                } else {
                    break;
                }
            }
            *at = pos;
            Some(Value::String(out))
        }
        b'[' => {
            let mut items = Vec::new();
            if !empty_flow(text, at, b']') {
                loop {
                    items.push(flow_node(text, at, depth + 1)?);
                    if flow_separator(text, at, b']')? {
                        break;
                    }
                }
            }
            Some(Value::Sequence(items))
        }
        b'{' => {
            let mut map = Mapping::new();
            if !empty_flow(text, at, b'}') {
                loop {
                    let start = *at;
                    while bytes.get(*at).is_some_and(|b| is_key_byte(*b)) {
                        *at += 1;
                    }
                    let key = &text[start..*at];
                    if !string_key(key) || !text[*at..].starts_with(": ") {
                        return None;
                    }
                    *at += 2;
                    spaces(text, at);
                    if matches!(bytes.get(*at), Some(b',' | b'}')) {
                        return None;
                    }
                    let value = flow_node(text, at, depth + 1)?;
                    if map.insert(Value::String(key.to_string()), value).is_some() {
                        return None;
                    }
                    if flow_separator(text, at, b'}')? {
                        break;
                    }
                }
            }
            Some(Value::Mapping(map))
        }
        _ => {
            let start = *at;
            let len = text[start..]
                .find([',', '[', ']', '{', '}'])
                .unwrap_or(text.len() - start);
            *at = start + len;
            plain(text[start..start + len].trim_end_matches(' '), true)
        }
    }
}

/// A plain scalar, resolved as serde_yaml resolves it: null, a boolean, an
/// integer, a float or a string. `None` for what may mean something else
/// (an indicator, a comment, a `: `, `+` or radix prefixes, `-0`, an
/// integer too large) or, `in_flow`, any `:` or `#`.
fn plain(text: &str, in_flow: bool) -> Option<Value> {
    let bytes = text.as_bytes();
    let first = *bytes.first()?;
    if text.contains(": ") || text.ends_with(':') || text.contains(" #") {
        return None;
    }
    if in_flow && text.contains([':', '#']) {
        return None;
    }
    match text {
        "~" | "null" | "Null" | "NULL" => return Some(Value::Null),
        "true" | "True" | "TRUE" => return Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Value::Bool(false)),
        _ => {}
    }
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let numeric =
        first.is_ascii_digit() || (first == b'-' && bytes.get(1).is_some_and(u8::is_ascii_digit));
    if numeric {
        let unsigned = text.strip_prefix('-').unwrap_or(text);
        if unsigned.len() > 1 && unsigned.starts_with('0') {
            // Leading zeros: a string if only digits follow (YAML 1.2), a
            // radix prefix or a float otherwise.
            if digits(&unsigned[1..]) {
                return Some(Value::String(text.to_string()));
            }
            if !unsigned[1..].starts_with('.') {
                return None;
            }
        }
        if digits(unsigned) {
            return if first == b'-' {
                if unsigned == "0" {
                    return None;
                }
                text.parse::<i64>().ok().map(|n| Value::Number(n.into()))
            } else {
                text.parse::<u64>().ok().map(|n| Value::Number(n.into()))
            };
        }
        return Some(match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Value::Number(f.into()),
            _ => Value::String(text.to_string()),
        });
    }
    // YAML's indicators, and `.` and `+` (floats and signs left to serde_yaml).
    if b"-?:,[]{}#&*!|>'\"%@`.+".contains(&first) {
        return None;
    }
    Some(Value::String(text.to_string()))
}

/// True when `a` and `b` are the same value, with mapping keys in the same
/// order (`Mapping`'s own equality ignores the order).
#[cfg(any(test, debug_assertions))]
pub(super) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Mapping(x), Value::Mapping(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((ka, va), (kb, vb))| same(ka, kb) && same(va, vb))
        }
        (Value::Sequence(x), Value::Sequence(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests;
