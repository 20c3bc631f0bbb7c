//! YAML: the one place that touches `serde_yaml`, plus field positions.
//!
//! `serde_yaml` gives a position only for syntax errors. To point at a field
//! that parsed but is wrong ("`fixed_in` is below an affected version"), a
//! light line scanner maps every block-style key and list item to its line
//! and column, and remembers the raw text of scalars so that a hint can show
//! exactly what was written (`0.30` unquoted). Flow style (`[a, b]`) is
//! mapped item by item on its line; anything the scanner cannot place falls
//! back to its nearest parent (see [`Spans::get`]).
//!
//! [`parse_yaml`] is what the record readers call: it refuses tabs, parses
//! (within the limits kept by `budget.rs`), and scans the positions.

mod budget;
mod reach;
mod simple;

use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::record::{FieldMap, Spans, MAX_SPAN_PATH};
use budget::{Budget, ValueSeed};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

pub(crate) use serde_yaml::{Mapping, Value};

/// The most values (scalars, lists and mappings) one YAML document may hold
/// once aliases (`*name`) are expanded.
pub const MAX_YAML_VALUES: usize = 100_000;
/// The most text (bytes of scalars) one YAML document may hold once aliases
/// are expanded.
pub const MAX_YAML_TEXT: usize = 4 * 1024 * 1024;
/// The deepest nesting of lists and mappings in one YAML document.
pub const MAX_YAML_DEPTH: usize = 64;

const TOO_MANY_VALUES: &str =
    "the YAML holds more than 100000 values once its aliases are expanded";
const TOO_MUCH_TEXT: &str =
    "the YAML holds more than 4194304 bytes of text once its aliases are expanded";
const TOO_DEEP: &str = "lists and mappings are nested more than 64 levels deep";

/// Parses YAML text that starts on `first_line` of `file`, reporting syntax
/// errors and tabs. Returns the value with its spans.
pub(super) fn parse_yaml(
    file: &Path,
    text: &str,
    first_line: usize,
    diags: &mut Diagnostics,
) -> Option<(Value, Spans, RawText)> {
    if let Some((i, line)) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim_start_matches(' ').starts_with('\t'))
    {
        let col = line.find('\t').unwrap_or(0) + 1;
        diags.push(
            Diagnostic::error(
                file,
                Span::new(first_line + i, col),
                "a tab is used for indentation",
            )
            .hint("YAML indents with spaces only; replace the tab with spaces"),
        );
        return None;
    }
    match parse(text) {
        Ok(v) => {
            let (spans, raw) = scan(text, first_line);
            Some((v, spans, raw))
        }
        Err(Failure {
            mut msg,
            span,
            hint,
            stopped,
        }) => {
            let in_file = |span: Span| {
                if span.line == 0 {
                    Span::new(first_line, 1)
                } else {
                    Span::new(first_line + span.line - 1, span.column)
                }
            };
            // An unclosed [list] or {mapping} is reported where it opened;
            // say where the parser gave up too (the next line, usually).
            if let Some((stop, why)) = stopped {
                let stop = in_file(stop);
                msg = format!(
                    "{msg}; the parser stopped at line {}, column {} ({why})",
                    stop.line, stop.column
                );
            }
            let span = in_file(span);
            diags.push(
                Diagnostic::error(file, span, msg)
                    .hint(hint.unwrap_or("check the indentation and quoting around this line")),
            );
            None
        }
    }
}

/// Why a YAML document could not be read, with positions relative to the
/// start of its text (1-based).
#[derive(Debug)]
struct Failure {
    /// What is wrong, for a record author.
    msg: String,
    /// Where to fix it.
    span: Span,
    /// A hint, when there is something better to say than "check the
    /// indentation".
    hint: Option<&'static str>,
    /// For a list or mapping in brackets left open (reported where it
    /// opened), where the parser stopped and what it said there.
    stopped: Option<(Span, String)>,
}

/// Where libyaml says a flow collection opened, from its message ("…,
/// while parsing a flow sequence at line 2 column 9"), and which kind.
fn flow_context(msg: &str) -> Option<(&'static str, Span)> {
    for (prefix, what) in [
        (", while parsing a flow sequence at line ", "[list]"),
        (", while parsing a flow mapping at line ", "{mapping}"),
    ] {
        if let Some(i) = msg.find(prefix) {
            let rest = &msg[i + prefix.len()..];
            let (line, rest) = rest.split_once(" column ")?;
            let column: String = rest.chars().take_while(char::is_ascii_digit).collect();
            return Some((what, Span::new(line.parse().ok()?, column.parse().ok()?)));
        }
    }
    None
}

/// Parses one YAML document: by the fast path of `simple.rs` when the text
/// is in the part of YAML records are written in, else by serde_yaml.
///
/// serde_yaml reads the document through a [`Budget`], so that anchors and aliases
/// (`&a`, `*a`) cannot expand a small file into gigabytes ("billion
/// laughs"), and deep nesting stops with a message rather than a stack
/// overflow; and only as much of it is parsed as it takes to reach a limit
/// ([`reach::needed`]), so that no text, however nested, makes the parser
/// slow.
fn parse(text: &str) -> Result<Value, Failure> {
    if let Some(value) = simple::parse(text) {
        // Debug builds (the tests) hold the fast path to serde_yaml's
        // reading of every text it takes.
        #[cfg(debug_assertions)]
        match parse_with_serde(text) {
            Ok(slow) => assert!(
                simple::same(&value, &slow),
                "the YAML fast path read {text:?} as {value:?}, serde_yaml as {slow:?}"
            ),
            Err(e) => panic!("the YAML fast path read {text:?}, which serde_yaml refuses: {e:?}"),
        }
        return Ok(value);
    }
    parse_with_serde(text)
}

/// [`parse`] by serde_yaml, for the texts the fast path leaves to it; it
/// also words every syntax error.
fn parse_with_serde(text: &str) -> Result<Value, Failure> {
    use serde::de::DeserializeSeed;
    let budget = Budget::default();
    let de = serde_yaml::Deserializer::from_str(&text[..reach::needed(text)]);
    ValueSeed(&budget).deserialize(de).map_err(|e| {
        let span = e
            .location()
            .map(|l| Span::new(l.line(), l.column()))
            .unwrap_or_default();
        // serde_yaml appends " at line N column M" to its messages; the span
        // already carries that, so keep the message itself.
        let full = e.to_string();
        let mut msg = full.clone();
        if let Some(i) = msg.find(" at line ") {
            msg.truncate(i);
        }
        // A [list] or {mapping} left open: the parser notices a line later;
        // point at the bracket, and say where it gave up.
        if let Some((what, opened)) = flow_context(&full) {
            let hint = explain(msg.clone(), span).2;
            return Failure {
                msg: format!("YAML syntax: the {what} opened here is never closed"),
                span: opened,
                hint,
                stopped: e.location().is_some().then_some((span, msg)),
            };
        }
        // At the end of a text without a final line end, libyaml may point
        // one line past the last: point at the end of the last line instead.
        let lines = text.split('\n').count();
        let span = if span.line > lines {
            let last = text.rsplit('\n').next().unwrap_or("");
            Span::new(lines, last.chars().count() + 1)
        } else {
            span
        };
        let (msg, span, hint) = explain(msg, span);
        let fail = |msg, span, hint| Failure {
            msg,
            span,
            hint,
            stopped: None,
        };
        if let Some(key) = msg
            .strip_prefix("the key ")
            .and_then(|m| m.strip_suffix(" appears twice in one mapping"))
        {
            // serde_yaml points at the mapping; point at the second key.
            let key = key.trim_matches('"');
            let (_, _, dups) = scan_all(text, 1);
            if let Some((_, at)) = dups
                .iter()
                .find(|(p, _)| p.rsplit('.').next() == Some(key))
            {
                return fail(msg, *at, hint);
            }
        }
        if msg.starts_with("YAML syntax: ") {
            if let Some(at) = unclosed_quote(text).filter(|at| span.line == 0 || at.line <= span.line) {
                return fail(
                    format!(
                        "YAML syntax: the quote opened here is not closed on its line (the parser then failed further down: {})",
                        msg.trim_start_matches("YAML syntax: ")
                    ),
                    at,
                    Some("close the quote; for text over several lines, use a block: `key: |` and the text indented below"),
                );
            }
        }
        fail(msg, span, hint)
    })
}

/// The first line whose value opens a quote that the line does not close.
/// Quoted values may run over lines in YAML, but in records that is nearly
/// always a missing quote, and the parser notices it only much later.
fn unclosed_quote(text: &str) -> Option<Span> {
    let mut block_indent: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        if let Some(bi) = block_indent {
            if trimmed.trim().is_empty() || indent > bi {
                continue;
            }
            block_indent = None;
        }
        let mut rest = trimmed;
        let mut col = indent;
        while let Some(after) = rest.strip_prefix("- ") {
            col += 2;
            rest = after;
        }
        let (value, offset) = match split_key(rest) {
            Some((_, v, off)) => (v, off),
            None => (rest, 0),
        };
        if value.starts_with('|') || value.starts_with('>') {
            block_indent = Some(indent);
            continue;
        }
        let open = match value.chars().next() {
            Some(q @ ('"' | '\'')) => q,
            _ => continue,
        };
        let body = &value[1..];
        let closed = if open == '"' {
            let mut escaped = false;
            body.chars().any(|c| {
                let end = c == '"' && !escaped;
                escaped = c == '\\' && !escaped;
                end
            })
        } else {
            // In single quotes, '' is a quote; a lone ' closes.
            body.replace("''", "").contains('\'')
        };
        if !closed {
            return Some(Span::new(i + 1, col + offset + 1));
        }
    }
    None
}

/// Turns serde_yaml's terse messages into ones a record author can act on.
fn explain(msg: String, span: Span) -> (String, Span, Option<&'static str>) {
    const ALIASES: &str = "records are small: write values out instead of repeating them with anchors and aliases (&name, *name)";
    // Messages raised while building values carry serde_yaml's path of the
    // value in front ("engines[0]: ..."); the position already says where.
    let bare = |m: &str| msg.ends_with(m);
    if bare(TOO_MANY_VALUES) {
        (TOO_MANY_VALUES.into(), span, Some(ALIASES))
    } else if bare(TOO_MUCH_TEXT) {
        (TOO_MUCH_TEXT.into(), span, Some(ALIASES))
    } else if bare(TOO_DEEP) || msg == "recursion limit exceeded" {
        (
            TOO_DEEP.into(),
            span,
            Some("records need only a few levels; look for brackets that are opened but never closed"),
        )
    } else if msg == "repetition limit exceeded" {
        (
            "YAML aliases are expanded too many times".into(),
            span,
            Some(ALIASES),
        )
    } else if msg == "unknown anchor" {
        (
            "an alias (*name) refers to an anchor (&name) that is not defined before it".into(),
            span,
            Some("define the anchor first, or write the value out"),
        )
    } else if msg.starts_with("deserializing from YAML containing more than one document") {
        (
            "the file holds more than one YAML document".into(),
            span,
            Some("a line `---` starts a new document; remove it"),
        )
    } else if let Some(i) = msg.find("duplicate entry") {
        let what = &msg[i + "duplicate entry ".len()..];
        let what = what
            .strip_prefix("with key ")
            .map(|k| format!("the key {k} appears twice in one mapping"))
            .unwrap_or_else(|| format!("a key appears twice in one mapping ({what})"));
        (
            what,
            span,
            Some("each field may be given once; remove or merge the repeated one"),
        )
    } else {
        let hint = match msg.as_str() {
            "mapping values are not allowed in this context" => Some(
                "a value that contains `: ` must be quoted, e.g. advice: \"Note: pin it\"",
            ),
            "did not find expected key" => Some(
                "check the indentation of this line against the lines above, and that every quote is closed",
            ),
            "did not find expected '-' indicator" => {
                Some("the items of a list and the keys of a mapping must line up; check this line's indentation")
            }
            "could not find expected ':'" => Some(
                "each line of a mapping is `key: value`; check this line, or quote a value that runs over lines",
            ),
            "did not find expected ',' or ']'" => Some(
                "close the [list] on the same line, and quote items that contain `,`, `[` or `]`",
            ),
            "did not find expected ',' or '}'" => Some(
                "close the {mapping} on the same line, and quote values that contain `,`, `{` or `}`",
            ),
            "found character that cannot start any token" => Some(
                "a value may not start with ` or @; put the value in quotes",
            ),
            "block sequence entries are not allowed in this context" => {
                Some("`- ` starts a list item; put the list on the lines below its key, indented")
            }
            _ => None,
        };
        (format!("YAML syntax: {msg}"), span, hint)
    }
}

/// Raw scalar text per field path, as written (kept beside the spans).
type RawMap = HashMap<String, String, foldhash::fast::FixedState>;

/// [`RawMap`] of a document, worked out when a hint first asks for what
/// was written, as [`Spans`] are: a clean document never asks.
#[derive(Debug, Default, Clone)]
pub(crate) struct RawText {
    text: Arc<str>,
    first_line: usize,
    map: OnceLock<RawMap>,
}

impl RawText {
    fn lazy(text: Arc<str>, first_line: usize) -> RawText {
        RawText {
            text,
            first_line,
            map: OnceLock::new(),
        }
    }

    pub(crate) fn get(&self, path: &str) -> Option<&str> {
        self.map
            .get_or_init(|| scan_all(&self.text, self.first_line).1)
            .get(path)
            .map(String::as_str)
    }
}

struct Frame {
    col: usize,
    /// The field path, or `None` past [`MAX_SPAN_PATH`]: what lies under
    /// it gets no position of its own, and no longer path is built.
    path: Option<String>,
    is_item: bool,
}

/// `parent` and `child` joined by `sep`.
fn joined(parent: &str, sep: &str, child: &dyn std::fmt::Display) -> String {
    use std::fmt::Write;
    let mut p = String::with_capacity(parent.len() + sep.len() + 8);
    p.push_str(parent);
    p.push_str(sep);
    let _ = write!(p, "{child}");
    p
}

/// The path a field's children are placed under: its own, while short
/// enough (see [`MAX_SPAN_PATH`]).
fn parent_path(path: &Option<String>) -> Option<String> {
    path.as_ref().filter(|p| p.len() <= MAX_SPAN_PATH).cloned()
}

/// Maps field paths (`engines[0].affected[1]`) to positions. `first_line` is
/// the file line on which `text` starts. The map is made when a position or
/// a raw text is first asked for (see [`Spans`]).
pub(crate) fn scan(text: &str, first_line: usize) -> (Spans, RawText) {
    let text: Arc<str> = Arc::from(text);
    (
        Spans::lazy(Arc::clone(&text), first_line, field_map),
        RawText::lazy(text, first_line),
    )
}

/// The positions of [`scan_all`], as [`Spans`] asks for them.
fn field_map(text: &str, first_line: usize) -> FieldMap {
    scan_all(text, first_line).0
}

/// [`scan`], plus the keys that appear a second time in their mapping,
/// with the second one's position.
fn scan_all(text: &str, first_line: usize) -> (FieldMap, RawMap, Vec<(String, Span)>) {
    let mut dups = Vec::new();
    let mut spans = FieldMap::default();
    let mut raw = RawMap::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut counters: HashMap<String, usize, foldhash::fast::FixedState> = HashMap::default();
    let mut block_indent: Option<usize> = None;

    for (i, line) in text.lines().enumerate() {
        let line_no = first_line + i;
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        if let Some(bi) = block_indent {
            if trimmed.trim().is_empty() || indent > bi {
                continue;
            }
            block_indent = None;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("---") {
            continue;
        }
        let mut col = indent;
        let mut rest = trimmed;
        let mut item: Option<Option<String>> = None;
        // One or more "- " at the start of the line open list items.
        while rest == "-" || rest.starts_with("- ") {
            while stack
                .last()
                .is_some_and(|f| f.col > col || (f.col == col && f.is_item))
            {
                stack.pop();
            }
            let owner = match stack.last() {
                Some(f) => f.path.as_deref(),
                None => Some(""),
            };
            let path = owner.map(|owner| {
                let n = counters.entry(owner.to_string()).or_insert(0);
                *n += 1;
                joined(owner, "[", &format_args!("{}]", *n - 1))
            });
            if let Some(p) = &path {
                place(&mut spans, p.clone(), Span::new(line_no, col + 1));
            }
            stack.push(Frame {
                col,
                path: parent_path(&path),
                is_item: true,
            });
            let after = rest[1..].trim_start_matches(' ');
            col += rest.len() - after.len();
            rest = after;
            item = Some(path);
        }
        if rest.is_empty() {
            continue;
        }
        if let Some((key, value, value_col)) = split_key(rest) {
            while stack.last().is_some_and(|f| f.col >= col) {
                stack.pop();
            }
            let path = match stack.last() {
                Some(f) => f.path.as_deref().map(|p| joined(p, ".", &key)),
                None => Some(key.to_string()),
            };
            if let Some(path) = &path {
                if spans.contains_key(path) {
                    dups.push((path.clone(), Span::new(line_no, col + 1)));
                }
                place(&mut spans, path.clone(), Span::new(line_no, col + 1));
                record_value(
                    &mut spans,
                    &mut raw,
                    path,
                    value,
                    line_no,
                    col + value_col + 1,
                );
                counters.remove(path);
            }
            if value.starts_with('|') || value.starts_with('>') {
                block_indent = Some(col);
            }
            stack.push(Frame {
                col,
                path: parent_path(&path),
                is_item: false,
            });
        } else if let Some(path) = item {
            if let Some(path) = &path {
                record_value(&mut spans, &mut raw, path, rest, line_no, col + 1);
            }
            if rest.starts_with('|') || rest.starts_with('>') {
                block_indent = Some(col.saturating_sub(2));
            }
        }
    }
    (spans, raw, dups)
}

/// Splits `key: value` into key, value and the value's offset in `s`.
fn split_key(s: &str) -> Option<(&str, &str, usize)> {
    let (key, after_key) = if let Some(q) = s.strip_prefix('"') {
        let end = q.find('"')?;
        (&q[..end], end + 2)
    } else if let Some(q) = s.strip_prefix('\'') {
        let end = q.find('\'')?;
        (&q[..end], end + 2)
    } else {
        let end = s
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(s.len());
        (&s[..end], end)
    };
    if key.is_empty() {
        return None;
    }
    let rest = &s[after_key..];
    let colon = rest.trim_start_matches(' ');
    let colon_rest = colon.strip_prefix(':')?;
    if !(colon_rest.is_empty() || colon_rest.starts_with(' ')) {
        return None;
    }
    let value = colon_rest.trim_start_matches(' ');
    let offset = s.len() - value.len();
    Some((key, value, offset))
}

/// Records the position of `path`; the first place a path is met stands.
fn place(spans: &mut FieldMap, path: String, span: Span) {
    spans.entry(path).or_insert(span);
}

fn record_value(
    spans: &mut FieldMap,
    raw: &mut RawMap,
    path: &str,
    value: &str,
    line: usize,
    col: usize,
) {
    let value = strip_comment(value);
    if value.is_empty() {
        return;
    }
    if let Some(inner) = value.strip_prefix('[') {
        // Flow list on one line: place each item.
        let inner = inner.strip_suffix(']').unwrap_or(inner);
        let mut offset = col + 1;
        for (n, part) in inner.split(',').enumerate() {
            let lead = part.len() - part.trim_start().len();
            let item = part.trim();
            if path.len() <= MAX_SPAN_PATH {
                let p = joined(path, "[", &format_args!("{n}]"));
                place(spans, p.clone(), Span::new(line, offset + lead));
                raw.insert(p, item.to_string());
            }
            offset += part.len() + 1;
        }
    } else {
        raw.insert(path.to_string(), value.to_string());
    }
}

fn strip_comment(v: &str) -> &str {
    let v = v.trim_end();
    if v.starts_with('"') || v.starts_with('\'') {
        return v;
    }
    match v.find(" #") {
        Some(i) => v[..i].trim_end(),
        None => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_block_keys_items_and_flow_lists() {
        let text = "id: 7\ntitle: \"x\"\nengines:\n  - engine: vllm\n    affected: [\"0.28\", 0.30]\n    fixed_in: \"0.32.0\"\n  - engine: sglang\nnotes: |\n  a: b\n  - c\nlinks:\n- label: x\n  url: y\n";
        let (s, raw) = scan(text, 2);
        assert_eq!(s.get("id"), Span::new(2, 1));
        assert_eq!(s.get("engines[0]"), Span::new(5, 3));
        assert_eq!(s.get("engines[0].engine"), Span::new(5, 5));
        assert_eq!(s.get("engines[0].affected[1]"), Span::new(6, 24));
        assert_eq!(raw.get("engines[0].affected[1]"), Some("0.30"));
        assert_eq!(s.get("engines[0].fixed_in"), Span::new(7, 5));
        assert_eq!(s.get("engines[1].engine"), Span::new(8, 5));
        assert_eq!(s.get("notes"), Span::new(9, 1));
        assert_eq!(s.get("links[0].url"), Span::new(14, 3));
        // Unknown paths fall back to the nearest parent.
        assert_eq!(s.get("engines[1].clean[3]"), Span::new(8, 3));
        assert_eq!(s.get("nothing"), Span::new(2, 1));
    }
}
