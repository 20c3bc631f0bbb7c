//! Typed reading of YAML fields, with a diagnostic for every problem.
//!
//! Records are read field by field from a parsed `Value` rather than with
//! `#[derive(Deserialize)]`: serde stops at the first error and cannot say
//! where a field is, while people fixing a folder want every problem at once,
//! each with its line, its field and a hint.

use super::suggest::Fixed;
use super::yaml::{Mapping, RawText, Value};
use super::{is_slug, MAX_NAME_CHARS};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::record::{Date, Spans};
use crate::version::Version;
use std::path::Path;

/// The longest version accepted, in characters (each version gets a page).
pub const MAX_VERSION_CHARS: usize = 64;

/// One YAML document being read: where it came from and where problems go.
pub(crate) struct Doc<'a> {
    pub(crate) file: &'a Path,
    pub(crate) spans: &'a Spans,
    pub(crate) raw: &'a RawText,
    pub(crate) diags: &'a mut Diagnostics,
    /// Original positions of the kept items of lists that lost some (see
    /// [`Spans::set_items`]); moved into the record's spans at the end.
    pub(crate) items: std::collections::HashMap<String, Vec<usize>>,
    /// What "did you mean" needs of the lists of names read against.
    names: Fixed,
}

/// A mapping at a field path.
#[derive(Clone, Copy)]
pub(crate) struct Obj<'v> {
    map: &'v Mapping,
    path: &'v str,
}

/// Joins a parent path and a key: `engines[0]` + `fixed_in`.
pub(crate) fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

/// What a value is, for "expected X, found Y".
pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::Null => "nothing".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string \"{}\"", clip(s)),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Tagged(t) => format!("a value tagged {}", t.tag),
    }
}

fn clip(s: &str) -> String {
    if s.chars().count() > 40 {
        let cut: String = s.chars().take(40).collect();
        format!("{cut}…")
    } else {
        s.to_string()
    }
}

impl<'a> Doc<'a> {
    /// Reading `file`, parsed into `spans` and `raw`, with problems going
    /// into `diags`.
    pub(crate) fn new(
        file: &'a Path,
        spans: &'a Spans,
        raw: &'a RawText,
        diags: &'a mut Diagnostics,
    ) -> Doc<'a> {
        Doc {
            file,
            spans,
            raw,
            diags,
            items: Default::default(),
            names: Fixed::default(),
        }
    }

    /// Reports an error at `path`.
    pub(crate) fn error(&mut self, path: &str, message: impl Into<String>) {
        self.error_hint(path, message, None::<String>);
    }

    /// Reports an error at `path`, with a hint.
    pub(crate) fn error_hint(
        &mut self,
        path: &str,
        message: impl Into<String>,
        hint: Option<impl Into<String>>,
    ) {
        let mut d = Diagnostic::error(self.file, self.spans.get(path), message);
        if !path.is_empty() {
            d = d.field(path);
        }
        if let Some(h) = hint {
            d = d.hint(h);
        }
        self.diags.push(d);
    }

    /// Reports a warning at `path`, with a hint.
    pub(crate) fn warning_hint(
        &mut self,
        path: &str,
        message: impl Into<String>,
        hint: Option<impl Into<String>>,
    ) {
        let mut d = Diagnostic::warning(self.file, self.spans.get(path), message);
        if !path.is_empty() {
            d = d.field(path);
        }
        if let Some(h) = hint {
            d = d.hint(h);
        }
        self.diags.push(d);
    }

    /// Reads `value` as a mapping whose keys must be among `known`.
    pub(crate) fn object<'v>(
        &mut self,
        value: &'v Value,
        path: &'v str,
        known: &'static [&'static str],
    ) -> Option<Obj<'v>> {
        let Value::Mapping(map) = value else {
            self.error(
                path,
                format!("expected a mapping, found {}", describe(value)),
            );
            return None;
        };
        for k in map.keys() {
            match k {
                Value::String(key) if known.contains(&key.as_str()) => {}
                Value::String(key) => {
                    let field = join(path, key);
                    let hint = match self.names.did_you_mean(key, known) {
                        _ if key == "<<" => {
                            "YAML merge keys (<<) are not supported; write the fields out".into()
                        }
                        Some(s) => format!("did you mean `{s}`?"),
                        None => format!("known fields: {}", known.join(", ")),
                    };
                    self.error_hint(&field, "unknown field", Some(hint));
                }
                other => self.error(
                    path,
                    format!("field names must be strings, found {}", describe(other)),
                ),
            }
        }
        Some(Obj { map, path })
    }

    fn value<'v>(&self, obj: Obj<'v>, key: &str) -> Option<&'v Value> {
        obj.map.get(key).filter(|v| !v.is_null())
    }

    fn missing(&mut self, obj: Obj<'_>, key: &str, what: &str) {
        self.error_hint(
            obj.path,
            format!("missing required field `{key}`"),
            Some(format!("add `{key}:` with {what}")),
        );
    }

    /// A required string.
    pub(crate) fn req_string(&mut self, obj: Obj<'_>, key: &str) -> Option<String> {
        match self.value(obj, key) {
            None => {
                self.missing(obj, key, "a string");
                None
            }
            Some(v) => self.string(v, &join(obj.path, key)),
        }
    }

    /// An optional string.
    pub(crate) fn opt_string(&mut self, obj: Obj<'_>, key: &str) -> Option<String> {
        let v = self.value(obj, key)?;
        self.string(v, &join(obj.path, key))
    }

    /// A string value; numbers and booleans are refused so that `0.30` or
    /// `yes` never turn silently into something else.
    pub(crate) fn string(&mut self, v: &Value, path: &str) -> Option<String> {
        match v {
            Value::String(s) if s.trim().is_empty() => {
                self.error(path, "expected text, found an empty string");
                None
            }
            Value::String(s) => Some(s.clone()),
            other => {
                let hint = matches!(other, Value::Number(_) | Value::Bool(_)).then(|| {
                    format!(
                        "put it in quotes: \"{}\"",
                        self.raw.get(path).unwrap_or("…")
                    )
                });
                self.error_hint(
                    path,
                    format!("expected a string, found {}", describe(other)),
                    hint,
                );
                None
            }
        }
    }

    /// An optional boolean (default false).
    pub(crate) fn opt_bool(&mut self, obj: Obj<'_>, key: &str) -> bool {
        match self.value(obj, key) {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                let path = join(obj.path, key);
                self.error_hint(
                    &path,
                    format!("expected true or false, found {}", describe(other)),
                    Some("write `true` or `false` without quotes"),
                );
                false
            }
        }
    }

    /// An optional list of strings (a single string is not accepted: lists
    /// are lists, so that a missing dash is noticed).
    pub(crate) fn string_list(&mut self, obj: Obj<'_>, key: &str) -> Vec<String> {
        let path = join(obj.path, key);
        let items = self.list(obj, key);
        self.kept(&path, items, |doc, v, p| doc.string(v, p))
    }

    /// Reads each item of the list at `path` with `read`, keeping those that
    /// read; remembers the original positions when some were dropped.
    pub(crate) fn kept<T>(
        &mut self,
        path: &str,
        items: &[Value],
        mut read: impl FnMut(&mut Self, &Value, &str) -> Option<T>,
    ) -> Vec<T> {
        let mut out = Vec::with_capacity(items.len());
        let mut at = Vec::with_capacity(items.len());
        for (i, v) in items.iter().enumerate() {
            if let Some(t) = read(self, v, &format!("{path}[{i}]")) {
                out.push(t);
                at.push(i);
            }
        }
        if at.len() < items.len() {
            self.items.insert(path.to_string(), at);
        }
        out
    }

    /// Ends reading; returns the remembered list positions, for
    /// [`Spans::set_items`].
    pub(crate) fn finish(self) -> std::collections::HashMap<String, Vec<usize>> {
        self.items
    }

    /// An optional list, as values; anything else is reported.
    pub(crate) fn list<'v>(&mut self, obj: Obj<'v>, key: &str) -> &'v [Value] {
        match self.value(obj, key) {
            None => &[],
            Some(Value::Sequence(items)) => items,
            Some(other) => {
                let path = join(obj.path, key);
                self.error_hint(
                    &path,
                    format!("expected a list, found {}", describe(other)),
                    Some(format!(
                        "write one item per line, each starting with `- `, under `{key}:`"
                    )),
                );
                &[]
            }
        }
    }

    /// A required list.
    pub(crate) fn req_list<'v>(&mut self, obj: Obj<'v>, key: &str) -> Option<&'v [Value]> {
        if self.value(obj, key).is_none() {
            self.missing(obj, key, "a list");
            return None;
        }
        Some(self.list(obj, key))
    }

    /// A version, which must be a quoted string.
    pub(crate) fn version(&mut self, v: &Value, path: &str) -> Option<Version> {
        match v {
            Value::String(s) if s.chars().count() > MAX_VERSION_CHARS => {
                self.error_hint(
                    path,
                    format!(
                        "\"{}\" is not a version: it is longer than {MAX_VERSION_CHARS} characters",
                        clip(s)
                    ),
                    Some("versions look like 0.32.0, 1.3.0rc29, 2.0.0.dev3 or 0.6.0-rc.1"),
                );
                None
            }
            Value::String(s) => match Version::parse(s) {
                Ok(ver) => Some(ver),
                Err(e) => {
                    self.error_hint(
                        path,
                        e.to_string(),
                        Some("versions look like 0.32.0, 1.3.0rc29, 2.0.0.dev3 or 0.6.0-rc.1"),
                    );
                    None
                }
            },
            Value::Number(n) => {
                let written = self.raw.get(path).map(str::to_string);
                let shown = written.clone().unwrap_or_else(|| n.to_string());
                self.error_hint(
                    path,
                    format!("expected a version string, found the number {n}"),
                    Some(format!(
                        "quote it: \"{shown}\" (unquoted, YAML reads {shown} as the number {n})"
                    )),
                );
                None
            }
            other => {
                self.error(
                    path,
                    format!("expected a version string, found {}", describe(other)),
                );
                None
            }
        }
    }

    /// An optional version field.
    pub(crate) fn opt_version(&mut self, obj: Obj<'_>, key: &str) -> Option<Version> {
        let v = self.value(obj, key)?;
        self.version(v, &join(obj.path, key))
    }

    /// An optional list of versions.
    pub(crate) fn version_list(&mut self, obj: Obj<'_>, key: &str) -> Vec<Version> {
        let path = join(obj.path, key);
        let items = self.list(obj, key);
        self.kept(&path, items, |doc, v, p| doc.version(v, p))
    }

    /// A date `YYYY-MM-DD` (YAML reads it as a string).
    pub(crate) fn date(&mut self, v: &Value, path: &str) -> Option<Date> {
        let text = match v {
            Value::String(s) => s.as_str(),
            other => {
                self.error_hint(
                    path,
                    format!("expected a date, found {}", describe(other)),
                    Some("write dates as YYYY-MM-DD, e.g. 2026-08-17"),
                );
                return None;
            }
        };
        let d = Date::parse(text);
        if d.is_none() {
            self.error_hint(
                path,
                format!("\"{}\" is not a date", clip(text)),
                Some("write dates as YYYY-MM-DD, e.g. 2026-08-17"),
            );
        }
        d
    }

    /// A required date.
    pub(crate) fn req_date(&mut self, obj: Obj<'_>, key: &str) -> Option<Date> {
        match self.value(obj, key) {
            None => {
                self.missing(obj, key, "a date (YYYY-MM-DD)");
                None
            }
            Some(v) => self.date(v, &join(obj.path, key)),
        }
    }

    /// An optional date.
    pub(crate) fn opt_date(&mut self, obj: Obj<'_>, key: &str) -> Option<Date> {
        let v = self.value(obj, key)?;
        self.date(v, &join(obj.path, key))
    }

    /// A positive integer.
    pub(crate) fn positive_int(&mut self, v: &Value, path: &str) -> Option<u32> {
        match v.as_u64() {
            Some(n) if n >= 1 && n <= u64::from(u32::MAX) => Some(n as u32),
            _ => {
                self.error(
                    path,
                    format!(
                        "expected a whole number of 1 or more, found {}",
                        describe(v)
                    ),
                );
                None
            }
        }
    }

    /// A required positive integer.
    pub(crate) fn req_positive_int(&mut self, obj: Obj<'_>, key: &str) -> Option<u32> {
        match self.value(obj, key) {
            None => {
                self.missing(obj, key, "a whole number");
                None
            }
            Some(v) => self.positive_int(v, &join(obj.path, key)),
        }
    }

    /// A string that must be one of `choices`.
    pub(crate) fn choice(
        &mut self,
        obj: Obj<'_>,
        key: &str,
        choices: &'static [&'static str],
        required: bool,
    ) -> Option<&'static str> {
        let path = join(obj.path, key);
        let v = match self.value(obj, key) {
            None if required => {
                self.missing(obj, key, &format!("one of {}", choices.join(", ")));
                return None;
            }
            None => return None,
            Some(v) => v,
        };
        let s = self.string(v, &path)?;
        if let Some(c) = choices.iter().find(|c| **c == s) {
            return Some(c);
        }
        let hint = match self.names.did_you_mean(&s, choices) {
            Some(c) => format!("did you mean `{c}`?"),
            None => format!("use one of: {}", choices.join(", ")),
        };
        self.error_hint(
            &path,
            format!("\"{}\" is not one of {}", clip(&s), choices.join(", ")),
            Some(hint),
        );
        None
    }

    /// The raw value of a key, if present and not null.
    pub(crate) fn get<'v>(&self, obj: Obj<'v>, key: &str) -> Option<&'v Value> {
        self.value(obj, key)
    }
}

impl<'v> Obj<'v> {
    /// The field path of this mapping.
    pub(crate) fn path(&self) -> &'v str {
        self.path
    }
}

/// A list of names that each get a page (tags, models): short enough to be
/// a file name.
pub(super) fn name_list(doc: &mut Doc<'_>, obj: Obj<'_>, key: &str) -> Vec<String> {
    let path = join(obj.path(), key);
    let items = doc.list(obj, key);
    doc.kept(&path, items, |doc, v, p| {
        let s = doc.string(v, p)?;
        let n = s.chars().count();
        if n > MAX_NAME_CHARS {
            doc.error_hint(
                p,
                format!("the name is {n} characters long; the limit is {MAX_NAME_CHARS}"),
                Some("each tag and model gets a page named after it; keep names short"),
            );
            return None;
        }
        Some(s)
    })
}

/// A required identifier made of lowercase letters, digits and '-'.
pub(super) fn slug_field(doc: &mut Doc<'_>, obj: Obj<'_>, key: &str) -> Option<String> {
    let s = doc.req_string(obj, key)?;
    if s.len() > MAX_NAME_CHARS {
        doc.error_hint(
            &join(obj.path(), key),
            format!(
                "the id is {} characters long; the limit is {MAX_NAME_CHARS}",
                s.len()
            ),
            Some("ids become part of addresses; keep them short"),
        );
        None
    } else if is_slug(&s) {
        Some(s)
    } else {
        doc.error_hint(
            &join(obj.path(), key),
            format!("\"{s}\" is not a valid id"),
            Some("ids use lowercase letters a-z, digits and '-' only"),
        );
        None
    }
}
