//! Reading fields out of a parsed result: paths like
//! `input_config.endpoint.model_names.0`, alternatives (`failed|errored`),
//! numbers that may be written as strings (`"inf"`, the `"Infinity"` the
//! JSON pass made of a bare `Infinity`, llama-bench's quoted CSV values),
//! and, when a known key holds something else, an error that names the key
//! and, for JSON, its line and column in the file.

use super::error::{ErrorKind, ReadError};
use super::json::{self, Seg};
use serde_json::Value;

/// A value of a file together with what is needed to point into the file:
/// the file's name and bytes, where its top-level value starts, and the
/// path from there to this value.
#[derive(Clone, Copy)]
pub(crate) struct Obj<'a> {
    pub v: &'a Value,
    pub file: &'a str,
    /// The original bytes, when they are JSON (`None` for YAML and CSV,
    /// whose errors name the file only).
    pub bytes: Option<&'a [u8]>,
    /// Offset of the top-level value `prefix` starts from.
    pub start: usize,
    /// 1-based line of the top-level value (used when the key cannot be
    /// found in the bytes).
    pub line: usize,
    pub prefix: &'a [Seg],
}

fn walk<'v>(v: &'v Value, path: &str) -> Option<&'v Value> {
    let mut cur = v;
    for seg in path.split('.') {
        cur = match cur {
            Value::Object(m) => m.get(seg)?,
            Value::Array(a) => a.get(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// The first alternative of `path` (`a|b`) that is present and not null,
/// with the alternative's text. A path is dot-separated keys; a number
/// indexes an array.
pub(crate) fn find<'v, 'p>(v: &'v Value, path: &'p str) -> Option<(&'v Value, &'p str)> {
    path.split('|')
        .find_map(|p| walk(v, p).filter(|x| !x.is_null()).map(|x| (x, p)))
}

/// A number as the tools write them: JSON numbers, and strings holding a
/// number, `inf`, `Infinity` or `NaN`. NaN is no value (`None`): a tool
/// writes it for a mean over no requests. `Err` for anything else.
pub(crate) fn number(v: &Value) -> Result<Option<f64>, ()> {
    match v {
        Value::Null => Ok(None),
        Value::Number(n) => Ok(n.as_f64()),
        Value::String(s) => number_text(s).ok_or(()),
        _ => Err(()),
    }
}

/// A number written as text (see [`number`]); `None` when it is not one,
/// `Some(None)` for NaN and for empty text.
pub(crate) fn number_text(s: &str) -> Option<Option<f64>> {
    let t = s.trim();
    match t.to_ascii_lowercase().as_str() {
        "" | "nan" | "-nan" | "null" | "none" => return Some(None),
        "inf" | "+inf" | "infinity" | "+infinity" => return Some(Some(f64::INFINITY)),
        "-inf" | "-infinity" => return Some(Some(f64::NEG_INFINITY)),
        _ => {}
    }
    t.parse::<f64>().ok().filter(|x| x.is_finite()).map(Some)
}

fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

impl<'a> Obj<'a> {
    /// The whole top-level value `v` of `file`.
    pub(crate) fn top(
        v: &'a Value,
        file: &'a str,
        bytes: Option<&'a [u8]>,
        start: usize,
        line: usize,
    ) -> Self {
        Obj {
            v,
            file,
            bytes,
            start,
            line,
            prefix: &[],
        }
    }

    /// The raw value at `path`, if present and not null.
    pub(crate) fn get(&self, path: &str) -> Option<&'a Value> {
        find(self.v, path).map(|(v, _)| v)
    }

    /// Whether `path` is present (even as null).
    pub(crate) fn has(&self, path: &str) -> bool {
        path.split('|').any(|p| walk(self.v, p).is_some())
    }

    /// The number at `path` (see [`number`]), or an error naming the key.
    pub(crate) fn num(&self, path: &str) -> Result<Option<f64>, ReadError> {
        let Some((v, p)) = find(self.v, path) else {
            return Ok(None);
        };
        number(v).map_err(|()| self.wrong(p, v, "a number"))
    }

    /// The text at `path`; numbers and booleans are written out as text.
    pub(crate) fn text(&self, path: &str) -> Result<Option<String>, ReadError> {
        let Some((v, p)) = find(self.v, path) else {
            return Ok(None);
        };
        match v {
            Value::String(s) => Ok(Some(s.clone())),
            Value::Number(n) => Ok(Some(n.to_string())),
            Value::Bool(b) => Ok(Some(b.to_string())),
            _ => Err(self.wrong(p, v, "text")),
        }
    }

    /// The array at `path`, empty when absent.
    pub(crate) fn array(&self, path: &str) -> Result<&'a [Value], ReadError> {
        match find(self.v, path) {
            None => Ok(&[]),
            Some((Value::Array(a), _)) => Ok(a),
            Some((v, p)) => Err(self.wrong(p, v, "an array")),
        }
    }

    /// A child value, for readers that descend (a benchmark in a list).
    pub(crate) fn child(&self, v: &'a Value, prefix: &'a [Seg]) -> Obj<'a> {
        Obj { v, prefix, ..*self }
    }

    /// An error about the value at `path`.
    pub(crate) fn wrong(&self, path: &str, found: &Value, expected: &str) -> ReadError {
        let field = self.field_name(path);
        let e = ReadError::new(
            ErrorKind::Field,
            self.file,
            format!("{} is not {expected}", describe(found)),
        )
        .field(field);
        let (line, column) = self.position(path).unwrap_or((self.line, 1));
        e.at(line, column)
    }

    fn field_name(&self, path: &str) -> String {
        let mut parts: Vec<String> = self
            .prefix
            .iter()
            .map(|s| match s {
                Seg::Key(k) => k.clone(),
                Seg::Index(i) => i.to_string(),
            })
            .collect();
        parts.push(path.to_string());
        parts.join(".")
    }

    fn position(&self, path: &str) -> Option<(usize, usize)> {
        let b = self.bytes?;
        let mut segs = self.prefix.to_vec();
        for s in path.split('.') {
            segs.push(
                match (
                    s.parse::<usize>(),
                    walk_kind(self.v, &segs[self.prefix.len()..]),
                ) {
                    (Ok(i), Some(true)) => Seg::Index(i),
                    _ => Seg::Key(s.to_string()),
                },
            );
        }
        json::locate(b, self.start, &segs)
    }
}

/// One result of a file: a top-level value, or an item of a top-level
/// array (vLLM's sweep summary, llama-bench's `-o json`).
pub(crate) struct Entry<'a> {
    pub v: &'a Value,
    pub start: usize,
    pub line: usize,
    pub prefix: Vec<Seg>,
}

impl<'a> Entry<'a> {
    /// The entry as an [`Obj`] of `file`.
    pub(crate) fn obj(&'a self, file: &'a str, bytes: Option<&'a [u8]>) -> Obj<'a> {
        Obj {
            v: self.v,
            file,
            bytes,
            start: self.start,
            line: self.line,
            prefix: &self.prefix,
        }
    }
}

/// The results of a file: the items of a single top-level array, or else
/// every top-level value.
pub(crate) fn entries(values: &[super::json::Located]) -> Vec<Entry<'_>> {
    match values {
        [one] if one.value.is_array() => one
            .value
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, v)| Entry {
                v,
                start: one.offset,
                line: one.line,
                prefix: vec![Seg::Index(i)],
            })
            .collect(),
        _ => values
            .iter()
            .map(|l| Entry {
                v: &l.value,
                start: l.offset,
                line: l.line,
                prefix: Vec::new(),
            })
            .collect(),
    }
}

/// Whether the value at `segs` below `v` is an array.
fn walk_kind(v: &Value, segs: &[Seg]) -> Option<bool> {
    let mut cur = v;
    for s in segs {
        cur = match (s, cur) {
            (Seg::Key(k), Value::Object(m)) => m.get(k)?,
            (Seg::Index(i), Value::Array(a)) => a.get(*i)?,
            _ => return None,
        };
    }
    Some(cur.is_array())
}

/// The text at `path` when it is text (genai-perf's `endpoint` is a path
/// in the flat layout and an object in the nested one).
pub(crate) fn text_only(o: &Obj<'_>, path: &str) -> Option<String> {
    o.get(path)
        .and_then(serde_json::Value::as_str)
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_alternatives_and_numbers() {
        let v = json!({"a": {"b": [1, {"c": "inf"}]}, "n": null, "m": "NaN", "s": "550"});
        assert_eq!(find(&v, "a.b.0").map(|x| x.0), Some(&json!(1)));
        assert_eq!(find(&v, "n|a.b.1.c").map(|x| x.1), Some("a.b.1.c"));
        assert_eq!(number(&json!("inf")), Ok(Some(f64::INFINITY)));
        assert_eq!(number(&json!("Infinity")), Ok(Some(f64::INFINITY)));
        assert_eq!(number(&json!("-Infinity")), Ok(Some(f64::NEG_INFINITY)));
        assert_eq!(number(&json!("NaN")), Ok(None));
        assert_eq!(number(&json!("550")), Ok(Some(550.0)));
        assert_eq!(number(&json!("trace")), Err(()));
        assert_eq!(number(&json!(true)), Err(()));
    }

    #[test]
    fn a_wrong_value_names_its_key_line_and_column() {
        let text = "{\n  \"completed\": 3,\n  \"x\": {\"failed\": \"many\"}\n}";
        let v: Value = serde_json::from_str(text).unwrap();
        let o = Obj::top(&v, "bench.json", Some(text.as_bytes()), 0, 1);
        assert_eq!(o.num("completed").unwrap(), Some(3.0));
        let e = o.num("x.failed").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bench.json:3:19: `x.failed`: \"many\" is not a number"
        );
    }
}
