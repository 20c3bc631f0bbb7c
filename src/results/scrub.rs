//! What must not reach the site, taken out of a file before a copy of it
//! is kept: one pass over the bytes, applied the same way to every file.
//!
//! - **Credentials** are replaced by [`MARKER`]: the value under a key
//!   such as `api_key`, `token`, `hf_token`, `authorization`, `password`
//!   or `secret` (any case, `-` or `_`, at any depth, every string and
//!   number inside it when it is a list or a map of headers), and, inside
//!   any text, what follows `Authorization: Bearer`, `--api-key`,
//!   `api_key=` or `'api_key': '…'`, and the password of a
//!   `scheme://user:password@host` address. Empty values, `null`, `None`
//!   and masks such as guidellm's `**********` are no credentials.
//! - **Generated texts** are dropped unless kept on purpose: vLLM's and
//!   SGLang's `generated_texts` (anywhere, so also under SGLang's
//!   `details`), and the `output`, `reasoning_output` and `prompt` of the
//!   request records guidellm keeps under `benchmarks[].requests`.
//!
//! JSON is rewritten as a stream: every byte not removed is kept as it
//! was (key order, layout, bare `Infinity`), so the kept copy reads like
//! the original. YAML is parsed and written again (keys in their order).
//! Any other text (boot logs, CSV) is rewritten line by line with the
//! rules for text, and so is a file that starts like JSON but is read as
//! text (no JSON, and a log or a paste of a console report: what
//! `results::read` takes it for). [`holds_credential`] is the same search without the
//! rewrite: the check stage uses it to refuse a kept file that still holds
//! one.

mod glance;
mod keys;
use super::error::{ErrorKind, ReadError};
use super::json::{decode_str, Event, Seg, Tok, Walker};
pub use keys::{is_credential_key, MARKER};
use keys::{is_secret_value, CREDENTIAL_KEYS};
use std::fmt;

/// What was taken out of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    /// Where: a key path (`input_config.endpoint.api_key`,
    /// `benchmarks[0].requests.successful[*].output`), or for text the
    /// name that gave it away.
    pub path: String,
    /// The 1-based line of the first one (0 for YAML, which is rewritten whole).
    pub line: usize,
    /// A credential, or generated texts.
    pub kind: Removed,
    /// How many: credentials at this path, or texts.
    pub count: usize,
}

/// The kind of a [`Removal`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Removed {
    /// A credential, replaced by [`MARKER`].
    Credential,
    /// Generated texts (or prompts), dropped.
    Texts,
}

impl fmt::Display for Removal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.line > 0 {
            format!(" (line {})", self.line)
        } else {
            String::new()
        };
        match self.kind {
            Removed::Credential if self.count == 1 => {
                write!(f, "{}{at}: a credential, replaced by {MARKER}", self.path)
            }
            Removed::Credential => write!(
                f,
                "{}{at}: {} credentials, replaced by {MARKER}",
                self.path, self.count
            ),
            Removed::Texts if self.count == 1 => {
                write!(f, "{}{at}: 1 generated text, dropped", self.path)
            }
            Removed::Texts => write!(
                f,
                "{}{at}: {} generated texts, dropped",
                self.path, self.count
            ),
        }
    }
}

/// A file with what must not be kept taken out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scrubbed {
    /// The bytes to keep.
    pub bytes: Vec<u8>,
    /// What was removed, in the order of the file.
    pub removed: Vec<Removal>,
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The byte ranges of credentials inside free text.
fn secrets_in_text(s: &str) -> Vec<(usize, usize, &'static str)> {
    let b = s.as_bytes();
    let lower: Vec<u8> = b
        .iter()
        .map(|c| {
            if *c == b'-' {
                b'_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect();
    let mut found = Vec::new();
    for name in CREDENTIAL_KEYS {
        for at in memchr::memmem::find_iter(&lower, name.as_bytes()) {
            let end = at + name.len();
            let cli = at >= 2 && &b[at - 2..at] == b"--";
            // A whole word: not the end of another (`#new-token: 6` in
            // SGLang's log is a count), except a `--option`.
            let joined = at > 0 && (is_word(b[at - 1]) || b[at - 1] == b'-' && !cli);
            if joined || end < b.len() && is_word(lower[end]) && b[end] != b'-' {
                continue;
            }
            if let Some(range) = value_after(b, end, cli, name.contains("authorization")) {
                found.push((range.0, range.1, *name));
            }
        }
    }
    // scheme://user:password@host
    for at in memchr::memmem::find_iter(b, b"://") {
        let rest = &b[at + 3..];
        let stop = rest
            .iter()
            .position(|c| matches!(c, b'/' | b' ' | b'"' | b'\'' | b'\n' | b'\t'))
            .unwrap_or(rest.len());
        let auth = &rest[..stop];
        if let Some(amp) = auth.iter().rposition(|c| *c == b'@') {
            if let Some(colon) = auth[..amp].iter().position(|c| *c == b':') {
                let (start, end) = (at + 3 + colon + 1, at + 3 + amp);
                if end > start && is_secret_value(&s[start..end]) {
                    found.push((start, end, "url password"));
                }
            }
        }
    }
    found.sort_unstable();
    found.dedup_by(|a, b| a.0 < b.1);
    found
}

/// The value after a credential's name at `i`: `: v`, `= v`, `': 'v'`,
/// or for a command-line option (`--api-key v`) a space.
fn value_after(b: &[u8], mut i: usize, cli: bool, authorization: bool) -> Option<(usize, usize)> {
    if i < b.len() && matches!(b[i], b'\'' | b'"') {
        i += 1;
    }
    let spaces = |i: &mut usize| {
        while *i < b.len() && b[*i] == b' ' {
            *i += 1;
        }
    };
    spaces(&mut i);
    match b.get(i) {
        Some(b':' | b'=') => i += 1,
        Some(_) if cli && i > 0 && b[i - 1] == b' ' => {}
        _ => return None,
    }
    spaces(&mut i);
    // A command line's option whose value is on the next line, after a
    // shell's line continuation (`--api-key \` at a line's end).
    if cli {
        let skip = [&b"\\\n"[..], b"\\\r\n"]
            .iter()
            .find(|c| b[i..].starts_with(c))
            .map_or(0, |c| c.len());
        if skip > 0 {
            i += skip;
            while i < b.len() && matches!(b[i], b' ' | b'\t') {
                i += 1;
            }
        }
    }
    let quote = match b.get(i) {
        Some(q @ (b'\'' | b'"')) => {
            i += 1;
            Some(*q)
        }
        // An escaped quote, as in a command line kept inside JSON text.
        Some(b'\\') if matches!(b.get(i + 1), Some(b'"' | b'\'')) => {
            i += 2;
            Some(b[i - 1])
        }
        _ => None,
    };
    if authorization {
        // Keep the scheme (`Bearer`), remove the token after it.
        let word = b[i..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic())
            .count();
        let scheme = String::from_utf8_lossy(&b[i..i + word]).to_ascii_lowercase();
        if matches!(
            scheme.as_str(),
            "bearer" | "basic" | "token" | "digest" | "apikey"
        ) && b.get(i + word) == Some(&b' ')
        {
            i += word + 1;
        }
    }
    if b[i..].starts_with(MARKER.as_bytes()) {
        return None;
    }
    let start = i;
    while i < b.len() {
        let c = b[i];
        let stop = match quote {
            Some(q) => c == q || c == b'\\' || c == b'\n',
            None => matches!(
                c,
                b' ' | b'\t'
                    | b'\n'
                    | b'\r'
                    | b','
                    | b';'
                    | b'}'
                    | b')'
                    | b']'
                    | b'&'
                    | b'\''
                    | b'"'
                    | b'\\'
            ),
        };
        if stop {
            break;
        }
        i += 1;
    }
    let v = std::str::from_utf8(&b[start..i]).ok()?;
    // In free text a number is a count (`token usage: 0.00`), not a secret.
    (is_secret_value(v) && v.parse::<f64>().is_err()).then_some((start, i))
}

/// `s` with its credentials replaced, and the names that gave them away.
fn scrub_text(s: &str) -> Option<(String, Vec<&'static str>)> {
    let found = secrets_in_text(s);
    if found.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for (start, end, _) in &found {
        out.push_str(&s[last..*start]);
        out.push_str(MARKER);
        last = *end;
    }
    out.push_str(&s[last..]);
    Some((out, found.into_iter().map(|f| f.2).collect()))
}

/// Whether the path (outermost first) is a guidellm request record's text.
fn is_guidellm_text(path: &[Seg], key: &str) -> bool {
    matches!(key, "output" | "reasoning_output" | "prompt")
        && matches!(
            path,
            [.., Seg::Key(r), Seg::Key(status), Seg::Index(_)]
                if r == "requests" && matches!(status.as_str(), "successful" | "incomplete" | "errored")
        )
}

fn path_text(path: &[Seg], generic: bool) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Seg::Index(_) if generic => s.push_str("[*]"),
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// Removals, with texts of the same generic path added up.
#[derive(Default)]
struct Log(Vec<Removal>);

impl Log {
    fn push(&mut self, path: String, line: usize, kind: Removed, count: usize) {
        if kind == Removed::Texts {
            if let Some(r) = self.0.iter_mut().find(|r| r.kind == kind && r.path == path) {
                r.count += count;
                return;
            }
        }
        self.0.push(Removal {
            path,
            line,
            kind,
            count,
        });
    }
}

/// What to do with the member whose key was just read.
#[derive(Clone, Copy)]
enum Pending {
    Credential,
    /// Drop the member from `from` (its key, or the comma before it); its
    /// key starts at `key`.
    Drop {
        from: usize,
        key: usize,
    },
}

/// How many passes a file may take: one for any file that reads; more only
/// for malformed JSON, whose quotes pair differently once a pass has
/// rewritten a string.
const MAX_PASSES: usize = 4;

/// Takes credentials (always) and generated texts (unless `keep_texts`) out
/// of `bytes`. `name` is used only in messages.
///
/// The kept copy is held to [`holds_credential`], the check that `check`
/// makes of it: in JSON that is not JSON (quotes that do not pair, raw line
/// ends in strings) what one pass reads as a string the next may read as
/// the text around strings, and the other way round, so such a copy is
/// scrubbed again until the check finds nothing, at most [`MAX_PASSES`]
/// times; a copy that still holds one then is refused.
pub fn scrub(name: &str, bytes: &[u8], keep_texts: bool) -> Result<Scrubbed, ReadError> {
    super::file::check_size(name, bytes)?;
    let mut kept = scrub_once(name, bytes, keep_texts)?;
    for _ in 1..MAX_PASSES {
        if holds_credential(&kept.bytes).is_none() {
            return Ok(kept);
        }
        let again = scrub_once(name, &kept.bytes, keep_texts)?;
        kept.bytes = again.bytes;
        kept.removed.extend(again.removed);
    }
    match holds_credential(&kept.bytes) {
        None => Ok(kept),
        Some((path, line)) => Err(ReadError::new(
            ErrorKind::Syntax,
            name,
            format!("a credential ({path}, at line {line} of the copy) is still in the copy after {MAX_PASSES} passes of taking them out: the file is not well-formed"),
        )
        .hint("keep the file as the tool wrote it, or take the credential out by hand")),
    }
}

/// One pass of [`scrub`]: the file read as what `results::read` takes it
/// for (JSON, YAML or text).
fn scrub_once(name: &str, bytes: &[u8], keep_texts: bool) -> Result<Scrubbed, ReadError> {
    if super::detect::reads_as_json(bytes) {
        return Ok(scrub_json(bytes, keep_texts));
    }
    let text = super::detect::utf8(name, bytes)?;
    if let Some(scrubbed) = scrub_yaml(name, text, keep_texts)? {
        return Ok(scrubbed);
    }
    Ok(scrub_lines(text))
}

/// Line numbers of offsets that only grow, counted once: a removal's line
/// costs the text since the previous one, so the pass stays linear.
struct Lines<'a> {
    b: &'a [u8],
    at: usize,
    line: usize,
}

impl Lines<'_> {
    fn of(&mut self, offset: usize) -> usize {
        if offset < self.at {
            self.at = 0;
            self.line = 1;
        }
        let offset = offset.min(self.b.len());
        self.line += memchr::memchr_iter(b'\n', &self.b[self.at..offset]).count();
        self.at = offset;
        self.line
    }
}

fn scrub_json(b: &[u8], keep_texts: bool) -> Scrubbed {
    let mut lines = Lines { b, at: 0, line: 1 };
    let mut out = Vec::with_capacity(b.len());
    let mut log = Log::default();
    let mut copied = 0;
    let cut = |out: &mut Vec<u8>, copied: &mut usize, from: usize, to: usize, with: &[u8]| {
        if from >= *copied {
            out.extend_from_slice(&b[*copied..from]);
            out.extend_from_slice(with);
            *copied = to;
        }
    };
    let mut w = Walker::new(b, 0);
    let mut pending: Option<Pending> = None;
    // Inside a credential's list or map: the depth it ends at.
    let mut secret_until: Option<usize> = None;
    // Inside a dropped member: the depth it ends at, where it starts,
    // where its key is, and the texts counted.
    let mut dropping: Option<(usize, usize, usize, usize)> = None;
    let mut skip_comma_at: Option<usize> = None;
    while let Some(ev) = w.next() {
        let depth = w.stack.len();
        if let Some((until, from, key, mut n)) = dropping {
            match ev {
                Event::Scalar { .. } if depth == until + 1 => n += 1,
                Event::Open { .. } if depth == until + 2 => n += 1,
                Event::Close { end } if depth == until => {
                    cut(&mut out, &mut copied, from, end, b"");
                    log.push(path_text(&w.path(), true), lines.of(key), Removed::Texts, n);
                    dropping = None;
                    continue;
                }
                _ => {}
            }
            dropping = Some((until, from, key, n));
            continue;
        }
        match ev {
            Event::Key => {
                let top = w.stack.last().expect("a key is inside an object");
                let key = top.key.clone().unwrap_or_default();
                if is_credential_key(&key) {
                    pending = Some(Pending::Credential);
                } else if !keep_texts
                    && (key == "generated_texts" || is_guidellm_text(&w.path()[..depth - 1], &key))
                {
                    let from = match top.comma_before {
                        Some(c) if top.count > 1 => c,
                        _ => {
                            skip_comma_at = Some(depth);
                            top.key_start
                        }
                    };
                    pending = Some(Pending::Drop {
                        from,
                        key: top.key_start,
                    });
                } else {
                    pending = None;
                }
            }
            Event::Comma { at } => {
                if skip_comma_at == Some(depth) {
                    cut(&mut out, &mut copied, at, at + 1, b"");
                    skip_comma_at = None;
                }
            }
            Event::Open { .. } => match pending.take() {
                Some(Pending::Credential) => {
                    secret_until.get_or_insert(depth - 1);
                }
                Some(Pending::Drop { from, key }) => dropping = Some((depth - 1, from, key, 0)),
                None => {}
            },
            Event::Close { .. } => {
                if secret_until.is_some_and(|d| depth <= d) {
                    secret_until = None;
                }
                if skip_comma_at.is_some_and(|d| depth < d) {
                    skip_comma_at = None;
                }
            }
            Event::Scalar { tok, start, end } => {
                let raw = &b[start..end];
                let under_secret =
                    secret_until.is_some() || matches!(pending, Some(Pending::Credential));
                match pending.take() {
                    Some(Pending::Drop { from, key }) => {
                        cut(&mut out, &mut copied, from, end, b"");
                        let texts = usize::from(tok == Tok::Str);
                        log.push(
                            path_text(&w.path(), true),
                            lines.of(key),
                            Removed::Texts,
                            texts,
                        );
                        continue;
                    }
                    _ if under_secret => {
                        let value = if tok == Tok::Str {
                            decode_str(raw)
                        } else {
                            String::from_utf8_lossy(raw).into_owned()
                        };
                        // A number where a value belongs: made a string there,
                        // it keeps the structure (in malformed JSON a word can
                        // stand where a key should, and a string there is one).
                        let is_number = tok == Tok::Word
                            && !w.at_key()
                            && raw
                                .first()
                                .is_some_and(|c| c.is_ascii_digit() || *c == b'-');
                        if (tok == Tok::Str || is_number) && is_secret_value(&value) {
                            cut(
                                &mut out,
                                &mut copied,
                                start,
                                end,
                                format!("\"{MARKER}\"").as_bytes(),
                            );
                            log.push(
                                path_text(&w.path(), false),
                                lines.of(start),
                                Removed::Credential,
                                1,
                            );
                        }
                    }
                    _ if tok == Tok::Str
                        && (raw.contains(&b':')
                            || raw.contains(&b'=')
                            || memchr::memmem::find(raw, b"--").is_some()) =>
                    {
                        if let Some((clean, names)) = scrub_text(&decode_str(raw)) {
                            let encoded = serde_json::to_string(&clean).unwrap_or_default();
                            cut(&mut out, &mut copied, start, end, encoded.as_bytes());
                            let path = path_text(&w.path(), false);
                            let line = lines.of(start);
                            log.push(
                                if path.is_empty() {
                                    names[0].to_string()
                                } else {
                                    path
                                },
                                line,
                                Removed::Credential,
                                names.len(),
                            );
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    // A dropped value the file never closes (cut short) goes to the end,
    // and what it holds with it: nothing in it was looked at.
    if let Some((_, from, key, n)) = dropping {
        cut(&mut out, &mut copied, from, b.len(), b"");
        log.push(path_text(&w.path(), true), lines.of(key), Removed::Texts, n);
    }
    out.extend_from_slice(&b[copied.min(b.len())..]);
    let removed = log
        .0
        .into_iter()
        .filter(|r| r.kind == Removed::Credential || r.count > 0)
        .collect();
    Scrubbed {
        bytes: out,
        removed,
    }
}

fn scrub_lines(text: &str) -> Scrubbed {
    // The whole text at once: a value may follow its name on the next line.
    let mut lines = Lines {
        b: text.as_bytes(),
        at: 0,
        line: 1,
    };
    let mut log = Log::default();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (start, end, name) in secrets_in_text(text) {
        out.push_str(&text[last..start]);
        out.push_str(MARKER);
        last = end;
        log.push(name.to_string(), lines.of(start), Removed::Credential, 1);
    }
    out.push_str(&text[last..]);
    Scrubbed {
        bytes: out.into_bytes(),
        removed: log.0,
    }
}

/// A YAML mapping, scrubbed and written again; `None` when the text is not
/// a YAML mapping (a log, CSV).
fn scrub_yaml(name: &str, text: &str, keep_texts: bool) -> Result<Option<Scrubbed>, ReadError> {
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    if !super::detect::starts_yaml_mapping(first)
        || super::detect::classify(name, &super::detect::Input::Text(text.to_string())).is_ok()
    {
        return Ok(None);
    }
    let Ok(mut v @ serde_yaml::Value::Mapping(_)) = serde_yaml::from_str::<serde_yaml::Value>(text)
    else {
        return Ok(None);
    };
    let mut log = Log::default();
    let mut path = Vec::new();
    yaml_walk(&mut v, &mut path, false, keep_texts, &mut log);
    if log.0.is_empty() {
        return Ok(Some(Scrubbed {
            bytes: text.as_bytes().to_vec(),
            removed: Vec::new(),
        }));
    }
    let bytes = serde_yaml::to_string(&v)
        .map_err(|e| {
            ReadError::new(
                ErrorKind::Syntax,
                name,
                format!("the YAML could not be written again: {e}"),
            )
        })?
        .into_bytes();
    Ok(Some(Scrubbed {
        bytes,
        removed: log.0.into_iter().filter(|r| r.count > 0).collect(),
    }))
}

fn yaml_walk(
    v: &mut serde_yaml::Value,
    path: &mut Vec<Seg>,
    secret: bool,
    keep_texts: bool,
    log: &mut Log,
) {
    use serde_yaml::Value as Y;
    match v {
        Y::Mapping(m) => {
            let keys: Vec<Y> = m.keys().cloned().collect();
            for k in keys {
                let key = match &k {
                    Y::String(s) => s.clone(),
                    other => serde_yaml::to_string(other)
                        .unwrap_or_default()
                        .trim()
                        .to_string(),
                };
                if !keep_texts && (key == "generated_texts" || is_guidellm_text(path, &key)) {
                    let texts = match m.get(&k) {
                        Some(Y::Sequence(s)) => s.len(),
                        Some(Y::String(_)) => 1,
                        _ => 0,
                    };
                    m.remove(&k);
                    path.push(Seg::Key(key));
                    log.push(path_text(path, true), 0, Removed::Texts, texts);
                    path.pop();
                    continue;
                }
                path.push(Seg::Key(key.clone()));
                if let Some(child) = m.get_mut(&k) {
                    yaml_walk(
                        child,
                        path,
                        secret || is_credential_key(&key),
                        keep_texts,
                        log,
                    );
                }
                path.pop();
            }
        }
        Y::Sequence(s) => {
            for (i, item) in s.iter_mut().enumerate() {
                path.push(Seg::Index(i));
                yaml_walk(item, path, secret, keep_texts, log);
                path.pop();
            }
        }
        Y::String(s) if secret && is_secret_value(s) => {
            *s = MARKER.to_string();
            log.push(path_text(path, false), 0, Removed::Credential, 1);
        }
        Y::Number(_) if secret => {
            *v = Y::String(MARKER.to_string());
            log.push(path_text(path, false), 0, Removed::Credential, 1);
        }
        Y::String(s) => {
            if let Some((clean, names)) = scrub_text(s) {
                *s = clean;
                log.push(path_text(path, false), 0, Removed::Credential, names.len());
            }
        }
        _ => {}
    }
}

/// The first credential `bytes` still hold: its key path (or, for text,
/// the name that gives it away) and its 1-based line.
pub fn holds_credential(bytes: &[u8]) -> Option<(String, usize)> {
    if super::detect::reads_as_json(bytes) {
        // `check` asks this of every kept file at every load: a glance at
        // the strings alone clears nearly every file (a detailed result is
        // mostly numbers), and only a file it cannot clear is walked.
        if !glance::json_may_hold_credential(bytes) {
            return None;
        }
        let s = scrub_json(bytes, true);
        return s
            .removed
            .into_iter()
            .find(|r| r.kind == Removed::Credential)
            .map(|r| (r.path, r.line));
    }
    let text = String::from_utf8_lossy(bytes);
    let (start, _, name) = *secrets_in_text(&text).first()?;
    let line = memchr::memchr_iter(b'\n', &text.as_bytes()[..start]).count() + 1;
    Some((name.to_string(), line))
}
