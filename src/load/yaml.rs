//! YAML: the one place that touches `serde_yaml`, plus field positions.
//!
//! `serde_yaml` gives a position only for syntax errors. To point at a field
//! that parsed but is wrong ("`fixed_in` is below an affected version"), a
//! light line scanner maps every block-style key and list item to its line
//! and column, and remembers the raw text of scalars so that a hint can show
//! exactly what was written (`0.30` unquoted). Flow style (`[a, b]`) is
//! mapped item by item on its line; anything the scanner cannot place falls
//! back to its nearest parent (see [`Spans::get`]).

use crate::diagnostics::Span;
use crate::record::Spans;
use std::collections::HashMap;

pub(crate) use serde_yaml::{Mapping, Value};

/// Parses one YAML document. On a syntax error returns the message and the
/// position relative to the start of `text` (1-based).
pub(crate) fn parse(text: &str) -> Result<Value, (String, Span)> {
    serde_yaml::from_str::<Value>(text).map_err(|e| {
        let span = e
            .location()
            .map(|l| Span::new(l.line(), l.column()))
            .unwrap_or_default();
        // serde_yaml appends " at line N column M" to its messages; the span
        // already carries that, so keep the message itself.
        let mut msg = e.to_string();
        if let Some(i) = msg.find(" at line ") {
            msg.truncate(i);
        }
        (msg, span)
    })
}

/// Raw scalar text per field path, as written (kept beside the spans).
#[derive(Debug, Default, Clone)]
pub(crate) struct RawText(HashMap<String, String>);

impl RawText {
    pub(crate) fn get(&self, path: &str) -> Option<&str> {
        self.0.get(path).map(String::as_str)
    }
}

struct Frame {
    col: usize,
    path: String,
    is_item: bool,
}

/// Maps field paths (`engines[0].affected[1]`) to positions. `first_line` is
/// the file line on which `text` starts.
pub(crate) fn scan(text: &str, first_line: usize) -> (Spans, RawText) {
    let mut spans = Spans::default();
    spans.origin = Span::new(first_line, 1);
    let mut raw = RawText::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut counters: HashMap<String, usize> = HashMap::new();
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
        let mut item: Option<String> = None;
        // One or more "- " at the start of the line open list items.
        while rest == "-" || rest.starts_with("- ") {
            while stack
                .last()
                .is_some_and(|f| f.col > col || (f.col == col && f.is_item))
            {
                stack.pop();
            }
            let owner = stack.last().map(|f| f.path.clone()).unwrap_or_default();
            let n = counters.entry(owner.clone()).or_insert(0);
            let path = format!("{owner}[{n}]");
            *n += 1;
            spans.insert(path.clone(), Span::new(line_no, col + 1));
            stack.push(Frame {
                col,
                path: path.clone(),
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
                Some(f) => format!("{}.{}", f.path, key),
                None => key.to_string(),
            };
            spans.insert(path.clone(), Span::new(line_no, col + 1));
            record_value(
                &mut spans,
                &mut raw,
                &path,
                value,
                line_no,
                col + value_col + 1,
            );
            if value.starts_with('|') || value.starts_with('>') {
                block_indent = Some(col);
            }
            counters.remove(&path);
            stack.push(Frame {
                col,
                path,
                is_item: false,
            });
        } else if let Some(path) = item {
            record_value(&mut spans, &mut raw, &path, rest, line_no, col + 1);
            if rest.starts_with('|') || rest.starts_with('>') {
                block_indent = Some(col.saturating_sub(2));
            }
        }
    }
    (spans, raw)
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

fn record_value(
    spans: &mut Spans,
    raw: &mut RawText,
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
            let p = format!("{path}[{n}]");
            spans.insert(p.clone(), Span::new(line, offset + lead));
            raw.0.insert(p, item.to_string());
            offset += part.len() + 1;
        }
    } else {
        raw.0.insert(path.to_string(), value.to_string());
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
