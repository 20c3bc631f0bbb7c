//! JSON as the benchmark tools write it, which is not always JSON.
//!
//! Python's `json.dump` writes the bare words `NaN`, `Infinity` and
//! `-Infinity` for non-finite numbers (SGLang's default request rate is
//! `Infinity`), which `serde_json` rejects. [`parse`] first rewrites those
//! words into the strings `"NaN"`, `"Infinity"`, `"-Infinity"` (a lexer
//! pass, so the same words inside strings are never touched; skipped
//! entirely when neither word occurs), then reads every top-level value of
//! the file: one object, one array, an `--append-result` stream of objects
//! or JSON Lines all come out as a list of values, each with the line it
//! starts on. Errors point into the original bytes (the rewrite's inserted
//! quotes are taken back out of the column).
//!
//! The [`Lexer`] and [`Walker`] are shared with the scrubber and with
//! [`locate`], which finds where a key of a parsed value sits in the file so
//! that a reader's complaint about a field can name its line and column.
//! Everything here is linear in the input.

use super::error::{ErrorKind, ReadError};
use memchr::memmem;
use serde_json::Value;
use std::borrow::Cow;

/// A top-level value of a file, with where it starts.
#[derive(Debug)]
pub(crate) struct Located {
    pub value: Value,
    /// Byte offset of its first character in the original file.
    pub offset: usize,
    /// 1-based line of its first character.
    pub line: usize,
}

/// The kind of a JSON token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok {
    /// `{`
    ObjOpen,
    /// `[`
    ArrOpen,
    /// `}` or `]`
    Close,
    Colon,
    Comma,
    /// A string, quotes included (possibly unterminated at the end of input).
    Str,
    /// Anything else: a number, `true`, `null`, `NaN`, or garbage.
    Word,
}

/// Splits JSON text into tokens without judging it: whatever is not
/// structure or a string is a word.
pub(crate) struct Lexer<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(b: &'a [u8], pos: usize) -> Self {
        Lexer { b, pos }
    }
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

fn ends_word(c: u8) -> bool {
    is_space(c) || matches!(c, b'{' | b'}' | b'[' | b']' | b':' | b',' | b'"')
}

impl Iterator for Lexer<'_> {
    type Item = (Tok, usize, usize);

    fn next(&mut self) -> Option<(Tok, usize, usize)> {
        let b = self.b;
        while self.pos < b.len() && is_space(b[self.pos]) {
            self.pos += 1;
        }
        let start = self.pos;
        let c = *b.get(start)?;
        let (tok, end) = match c {
            b'{' => (Tok::ObjOpen, start + 1),
            b'[' => (Tok::ArrOpen, start + 1),
            b'}' | b']' => (Tok::Close, start + 1),
            b':' => (Tok::Colon, start + 1),
            b',' => (Tok::Comma, start + 1),
            b'"' => {
                let mut i = start + 1;
                loop {
                    match memchr::memchr2(b'"', b'\\', &b[i..]) {
                        None => break (Tok::Str, b.len()),
                        Some(k) if b[i + k] == b'\\' => i += k + 2,
                        Some(k) => break (Tok::Str, i + k + 1),
                    }
                    if i >= b.len() {
                        break (Tok::Str, b.len());
                    }
                }
            }
            _ => {
                let mut i = start + 1;
                while i < b.len() && !ends_word(b[i]) {
                    i += 1;
                }
                (Tok::Word, i)
            }
        };
        self.pos = end;
        Some((tok, start, end))
    }
}

/// One step of a path into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    Key(String),
    Index(usize),
}

/// A container the walker is inside.
#[derive(Debug, Clone)]
pub(crate) struct Frame {
    pub object: bool,
    /// Members (or items) seen so far, the current one included.
    pub count: usize,
    /// The current member's key, decoded.
    pub key: Option<String>,
    /// Where the current member's key token starts (objects).
    pub key_start: usize,
    /// The comma before the current member, if any.
    pub comma_before: Option<usize>,
    expect_key: bool,
}

/// What the walker saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    /// A scalar value (string or word) at the current path.
    Scalar { tok: Tok, start: usize, end: usize },
    /// An object or array opens at the current path.
    Open { start: usize },
    /// The innermost container closes (already popped).
    Close { end: usize },
    /// A member's key was read (the frame's `key` is set).
    Key,
    /// A comma between members or items (the frame's count is not yet moved on).
    Comma { at: usize },
}

/// Walks JSON tokens keeping the path to the current value: which member
/// of which object, which item of which array. Tolerant: it never fails,
/// it just keeps going on malformed input.
pub(crate) struct Walker<'a> {
    b: &'a [u8],
    lex: Lexer<'a>,
    pub stack: Vec<Frame>,
}

impl<'a> Walker<'a> {
    pub(crate) fn new(b: &'a [u8], pos: usize) -> Self {
        Walker {
            b,
            lex: Lexer::new(b, pos),
            stack: Vec::new(),
        }
    }

    /// The path of the current value, from the outermost container.
    pub(crate) fn path(&self) -> Vec<Seg> {
        self.stack
            .iter()
            .map(|f| match (&f.key, f.object) {
                (Some(k), true) => Seg::Key(k.clone()),
                _ => Seg::Index(f.count.saturating_sub(1)),
            })
            .collect()
    }

    /// Whether the last token was where an object expects a key (only in
    /// malformed JSON is a scalar there).
    pub(crate) fn at_key(&self) -> bool {
        self.stack.last().is_some_and(|f| f.object && f.expect_key)
    }

    fn begin_value(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            if !top.object && top.count == 0 {
                top.count = 1;
            }
        }
    }
}

impl Iterator for Walker<'_> {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        loop {
            let (tok, start, end) = self.lex.next()?;
            let in_key = self.stack.last().is_some_and(|f| f.object && f.expect_key);
            match tok {
                Tok::Str if in_key => {
                    let key = decode_str(&self.b[start..end]);
                    let top = self.stack.last_mut().expect("in an object");
                    top.key = Some(key);
                    top.key_start = start;
                    top.count += 1;
                    top.expect_key = false;
                    return Some(Event::Key);
                }
                Tok::Colon => continue,
                Tok::Comma => {
                    if let Some(top) = self.stack.last_mut() {
                        if top.object {
                            top.expect_key = true;
                        } else {
                            top.count += 1;
                        }
                        top.comma_before = Some(start);
                    }
                    return Some(Event::Comma { at: start });
                }
                Tok::ObjOpen | Tok::ArrOpen => {
                    self.begin_value();
                    let object = tok == Tok::ObjOpen;
                    self.stack.push(Frame {
                        object,
                        count: 0,
                        key: None,
                        key_start: start,
                        comma_before: None,
                        expect_key: object,
                    });
                    return Some(Event::Open { start });
                }
                Tok::Close => {
                    self.stack.pop();
                    return Some(Event::Close { end });
                }
                Tok::Str | Tok::Word => {
                    self.begin_value();
                    return Some(Event::Scalar { tok, start, end });
                }
            }
        }
    }
}

/// A JSON string token's text (quotes included), decoded; the raw text
/// between the quotes when it is not valid JSON.
pub(crate) fn decode_str(token: &[u8]) -> String {
    let inner = token
        .strip_prefix(b"\"")
        .map(|t| t.strip_suffix(b"\"").unwrap_or(t))
        .unwrap_or(token);
    if !inner.contains(&b'\\') {
        return String::from_utf8_lossy(inner).into_owned();
    }
    serde_json::from_slice::<String>(token)
        .unwrap_or_else(|_| String::from_utf8_lossy(inner).into_owned())
}

/// The file with non-finite words quoted, and where quotes were inserted.
struct Rewritten<'a> {
    bytes: Cow<'a, [u8]>,
    /// Offsets in the rewritten bytes of each inserted opening quote.
    inserted: Vec<usize>,
}

impl Rewritten<'_> {
    /// The original offset of `offset` in the rewritten bytes.
    fn original(&self, offset: usize) -> usize {
        let before = self.inserted.partition_point(|&q| q < offset);
        offset.saturating_sub(2 * before)
    }
}

const NON_FINITE: [&[u8]; 4] = [b"NaN", b"Infinity", b"-Infinity", b"+Infinity"];

fn rewrite_non_finite(b: &[u8]) -> Rewritten<'_> {
    // A UTF-8 byte order mark becomes three spaces, which keeps every
    // offset where it was.
    let bom = b.starts_with(b"\xEF\xBB\xBF");
    let has_word = memmem::find(b, b"NaN").is_some() || memmem::find(b, b"Infinity").is_some();
    if !has_word {
        return Rewritten {
            bytes: if bom {
                let mut v = b.to_vec();
                v[..3].copy_from_slice(b"   ");
                Cow::Owned(v)
            } else {
                Cow::Borrowed(b)
            },
            inserted: Vec::new(),
        };
    }
    let mut out = Vec::with_capacity(b.len() + 64);
    let mut inserted = Vec::new();
    let mut copied = 0;
    for (tok, start, end) in Lexer::new(b, 0) {
        if tok == Tok::Word && NON_FINITE.contains(&&b[start..end]) {
            out.extend_from_slice(&b[copied..start]);
            inserted.push(out.len());
            out.push(b'"');
            out.extend_from_slice(&b[start..end]);
            out.push(b'"');
            copied = end;
        }
    }
    out.extend_from_slice(&b[copied..]);
    if bom {
        out[..3].copy_from_slice(b"   ");
    }
    Rewritten {
        bytes: Cow::Owned(out),
        inserted,
    }
}

/// 1-based line and column (in characters) of `offset` in `b`.
pub(crate) fn position(b: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(b.len());
    let before = &b[..offset];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let start = memchr::memrchr(b'\n', before).map_or(0, |p| p + 1);
    let text = String::from_utf8_lossy(&before[start..]);
    let column = text.chars().count()
        + if start == 0 && b.starts_with(b"\xEF\xBB\xBF") {
            0
        } else {
            1
        };
    (line, column.max(1))
}

/// The offset of 1-based `line` and byte `column` (as serde_json counts).
fn offset_of(b: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match memchr::memchr(b'\n', &b[start..]) {
            Some(k) => start += k + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(b.len())
}

/// Whether `b` (after leading white space) begins a JSON object or array.
pub(crate) fn looks_like_json(b: &[u8]) -> bool {
    let b = b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b);
    b.iter()
        .find(|c| !is_space(**c))
        .is_some_and(|c| *c == b'{' || *c == b'[')
}

/// The result of [`parse`].
#[derive(Debug)]
pub(crate) struct Parsed {
    pub values: Vec<Located>,
    /// Set when a top-level array was left open and was read up to its
    /// last complete item: the number of items, and the line it stops on.
    pub open_array: Option<(usize, usize)>,
}

/// Every top-level value of `b`. A top-level array left open at the end of
/// the file is closed after its last complete item when `close_open` is
/// set (llama-bench's `-o json` after a crash); otherwise it is an error.
pub(crate) fn parse(file: &str, b: &[u8], close_open: bool) -> Result<Parsed, ReadError> {
    let fixed = rewrite_non_finite(b);
    match values(&fixed) {
        Ok(values) => Ok(Parsed {
            values,
            open_array: None,
        }),
        Err(e) => {
            if close_open && e.classify() == serde_json::error::Category::Eof {
                if let Some((closed, items, end)) = close_array(&fixed.bytes) {
                    if let Ok(values) = values(&Rewritten {
                        bytes: Cow::Owned(closed),
                        inserted: fixed.inserted.clone(),
                    }) {
                        let line = position(b, fixed.original(end)).0;
                        return Ok(Parsed {
                            values,
                            open_array: Some((items, line)),
                        });
                    }
                }
            }
            Err(syntax_error(file, b, &fixed, &e))
        }
    }
}

fn values(fixed: &Rewritten<'_>) -> Result<Vec<Located>, serde_json::Error> {
    let bytes: &[u8] = &fixed.bytes;
    let mut out = Vec::new();
    let mut it = serde_json::Deserializer::from_slice(bytes).into_iter::<Value>();
    let (mut counted_to, mut line) = (0, 1);
    loop {
        let mut start = it.byte_offset();
        while start < bytes.len() && is_space(bytes[start]) {
            start += 1;
        }
        let Some(value) = it.next() else { break };
        let value = value?;
        line += memchr::memchr_iter(b'\n', &bytes[counted_to..start]).count();
        counted_to = start;
        out.push(Located {
            value,
            offset: fixed.original(start),
            line,
        });
    }
    Ok(out)
}

fn syntax_error(file: &str, b: &[u8], fixed: &Rewritten<'_>, e: &serde_json::Error) -> ReadError {
    use serde_json::error::Category;
    let full = e.to_string();
    let what = full.split(" at line ").next().unwrap_or(&full);
    let (message, offset) = match e.classify() {
        Category::Eof => {
            let inside = match what {
                "EOF while parsing an object" => "inside an object (a `}` is missing)",
                "EOF while parsing a list" => "inside an array (a `]` is missing)",
                "EOF while parsing a string" => "inside a string (a `\"` is missing)",
                _ => "where a value was expected",
            };
            (
                format!("the file ends {inside}: it was cut short, or is not complete JSON"),
                b.len(),
            )
        }
        _ => (
            format!("invalid JSON: {what}"),
            fixed.original(offset_of(&fixed.bytes, e.line(), e.column())),
        ),
    };
    let (line, column) = position(b, offset);
    ReadError::new(ErrorKind::Syntax, file, message)
        .at(line, column)
        .hint("a result file is read as its tool wrote it; an edited or cut-short copy cannot be read")
}

/// `b` (a top-level array whose end is missing) closed after its last
/// complete item, with the number of items and where the last one ends.
fn close_array(b: &[u8]) -> Option<(Vec<u8>, usize, usize)> {
    let mut lex = Lexer::new(b, 0);
    let (first, _, _) = lex.next()?;
    if first != Tok::ArrOpen {
        return None;
    }
    let (mut depth, mut items, mut last_end) = (1usize, 0usize, None);
    for (tok, _, end) in lex {
        match tok {
            Tok::ObjOpen | Tok::ArrOpen => depth += 1,
            Tok::Close => {
                depth = depth.checked_sub(1)?;
                if depth == 1 {
                    items += 1;
                    last_end = Some(end);
                }
                if depth == 0 {
                    return None; // closed after all: not the case handled here
                }
            }
            Tok::Str | Tok::Word if depth == 1 => {
                items += 1;
                last_end = Some(end);
            }
            _ => {}
        }
    }
    let end = last_end?;
    let mut closed = b[..end].to_vec();
    closed.extend_from_slice(b"\n]");
    Some((closed, items, end))
}

/// Where the value at `path` (below the top-level value starting at
/// `from`) sits in `b`: 1-based line and column, or `None`.
pub(crate) fn locate(b: &[u8], from: usize, path: &[Seg]) -> Option<(usize, usize)> {
    let mut w = Walker::new(b, from);
    let mut started = false;
    while let Some(ev) = w.next() {
        match ev {
            Event::Open { start } | Event::Scalar { start, .. } => {
                if started && w.stack.is_empty() {
                    return None;
                }
                started = true;
                let at = match ev {
                    Event::Open { .. } => w.stack.len() - 1,
                    _ => w.stack.len(),
                };
                if at == path.len() && w.path()[..at] == path[..at] {
                    return Some(position(b, start));
                }
            }
            Event::Close { .. } if w.stack.is_empty() => return None,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(s: &str) -> Vec<(Value, usize)> {
        parse("f.json", s.as_bytes(), false)
            .unwrap()
            .values
            .into_iter()
            .map(|l| (l.value, l.line))
            .collect()
    }

    #[test]
    fn bare_non_finite_words_become_strings_but_words_in_strings_stay() {
        let v = parse_ok(
            r#"{"a": Infinity, "b": -Infinity, "c": NaN, "d": "NaN Infinity", "e": [NaN]}"#,
        );
        assert_eq!(
            v[0].0,
            serde_json::json!({"a": "Infinity", "b": "-Infinity", "c": "NaN", "d": "NaN Infinity", "e": ["NaN"]})
        );
    }

    #[test]
    fn streams_and_lines_give_each_value_with_its_line() {
        let v = parse_ok("{\"a\": 1}\n{\"a\": 2}\n\n{\"a\": 3}");
        assert_eq!(v.iter().map(|x| x.1).collect::<Vec<_>>(), [1, 2, 4]);
        let v = parse_ok("{\"a\": 1}{\"a\": 2}");
        assert_eq!(v.len(), 2);
    }

    #[test]
    fn errors_point_at_the_original_text_despite_the_rewrite() {
        let e = parse("f.json", b"{\"a\": NaN, \"b\": NaN, \"c\": x}", false).unwrap_err();
        assert_eq!(
            e.to_string().lines().next().unwrap(),
            "f.json:1:27: invalid JSON: expected value"
        );
        let e = parse("f.json", b"{\n  \"a\": [1, 2", false).unwrap_err();
        assert_eq!(
            e.to_string().lines().next().unwrap(),
            "f.json:2:13: the file ends inside an array (a `]` is missing): it was cut short, or is not complete JSON"
        );
    }

    #[test]
    fn an_open_array_is_closed_after_its_last_complete_item() {
        let p = parse(
            "f.json",
            b"[\n  {\"a\": 1},\n  {\"a\": 2},\n  {\"a\":",
            true,
        )
        .unwrap();
        assert_eq!(p.open_array, Some((2, 3)));
        assert_eq!(p.values[0].value, serde_json::json!([{"a": 1}, {"a": 2}]));
    }

    #[test]
    fn locate_finds_keys_and_items() {
        let b = b"{\"a\": 1,\n \"b\": {\"c\": [10, {\"d\": true}]}}";
        let path = [
            Seg::Key("b".into()),
            Seg::Key("c".into()),
            Seg::Index(1),
            Seg::Key("d".into()),
        ];
        assert_eq!(locate(b, 0, &path), Some((2, 24)));
        assert_eq!(locate(b, 0, &[Seg::Key("a".into())]), Some((1, 7)));
        assert_eq!(locate(b, 0, &[Seg::Key("zz".into())]), None);
    }
}
