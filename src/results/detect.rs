//! Which format a file is, told from its content and never from its name
//! (tools name their files after the model, the date or whatever
//! `--result-filename` said; `results.json` is a vLLM stream in one real
//! repository). Each format is known by the keys in
//! [`SIGNATURES`](super::format::SIGNATURES), read from the tools' source
//! (`bench-results.md`, section 7); a file that matches none is an error
//! that lists them all.
//!
//! JSON (one object, an array, a stream of objects, JSON Lines) is told by
//! its first value (`format.rs`: [`object_format`]); YAML by its keys once
//! parsed; llama-bench's CSV by its header; a server's boot log by the
//! lines its engine prints at start-up; a paste by the first line of a
//! console report (`console::first_format`). That last is why this module
//! stands above the readers and not beside the vocabulary: it asks the
//! console readers, and no reader asks it (they take [`Format`] from
//! `format.rs`).

use super::error::{ErrorKind, ReadError};
use super::format::{object_format, Format, SIGNATURES};
use super::json::{self, Located};
use serde_json::Value;

/// A file parsed as what it looks like, before its format is known.
pub(crate) enum Input {
    Json(json::Parsed),
    Yaml(Value),
    Csv(String),
    Text(String),
}

/// Lines that only a serving engine's own log prints at start-up.
const SERVER_LOG_LINES: &[&str] = &[
    "Initializing a V1 LLM engine",
    "GPU KV cache size:",
    "vLLM API server version",
    "server_args=",
    "KV Cache is allocated",
    "max_total_num_tokens=",
    "[TRT-LLM] [",
    "for max tokens in paged KV cache",
];

/// Whether `text` is an engine's log: one of its start-up lines, and not
/// the console of a benchmark client (which prints the engine's version
/// line too when it imports the engine, as TensorRT-LLM's does).
fn is_server_log(text: &str) -> bool {
    SERVER_LOG_LINES.iter().any(|l| text.contains(l)) && !text.contains("Serving Benchmark Result")
}

/// The text of `bytes`, or an error at the first byte that is not UTF-8.
pub(crate) fn utf8<'b>(file: &str, bytes: &'b [u8]) -> Result<&'b str, ReadError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let (line, column) = json::position(bytes, e.valid_up_to());
        ReadError::new(ErrorKind::NotUtf8, file, "the file is not valid UTF-8 text")
            .at(line, column)
            .hint("result files are JSON, YAML, CSV or text in UTF-8, as the tools write them")
    })
}

/// Whether a text that starts like JSON but is none is read as text: a
/// server log, or a paste that holds a console report.
fn is_log_or_paste(text: &str) -> bool {
    is_server_log(text) || super::console::first_format(text).is_some()
}

/// Whether `bytes` are read as JSON, as [`parse_input`] reads them: they
/// start like JSON, and parse as JSON or are no log or paste. What scrubs
/// a file asks, so that it takes out what a reading would find by the
/// rules of what the reading takes it for (a broken JSON file with a
/// report pasted into one of its strings is a paste, and a text).
pub(crate) fn reads_as_json(bytes: &[u8]) -> bool {
    json::looks_like_json(bytes)
        && !(std::str::from_utf8(bytes).is_ok_and(is_log_or_paste)
            && json::parse("", bytes, true).is_err())
}

/// Parses `bytes` as JSON when they start like JSON, else as text (kept
/// for CSV, YAML and logs).
pub(crate) fn parse_input(file: &str, bytes: &[u8]) -> Result<Input, ReadError> {
    if json::looks_like_json(bytes) {
        match json::parse(file, bytes, true) {
            Ok(p) => return Ok(Input::Json(p)),
            // A log whose first line is `[TensorRT-LLM] …` starts like a
            // JSON array; it is a log when it reads as one.
            Err(e) => match std::str::from_utf8(bytes) {
                Ok(t) if is_log_or_paste(t) => return Ok(Input::Text(t.to_string())),
                _ => return Err(e),
            },
        }
    }
    let text = utf8(file, bytes)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let header = first.trim_start().trim_start_matches('"');
    if header.starts_with("build_commit\",") || header.starts_with("build_commit,") {
        return Ok(Input::Csv(text.to_string()));
    }
    let is_log = is_server_log(text);
    // A paste that opens like YAML (`Throughput: 89.27 requests/s, …`) is
    // a console report, not a report of guidellm's.
    if !is_log && starts_yaml_mapping(first) && super::console::first_format(text).is_none() {
        // The one YAML format is guidellm's report; serde_yaml is used here
        // directly because the loader's wrapper sits in a higher layer.
        match serde_yaml::from_str::<Value>(text) {
            Ok(v @ Value::Object(_)) => return Ok(Input::Yaml(v)),
            Ok(_) => {}
            Err(e) => return Err(yaml_error(file, text, &e)),
        }
    }
    Ok(Input::Text(text.to_string()))
}

/// Whether `line` opens a YAML mapping as a report does (`benchmarks:`,
/// `metadata:`, or `---`): a key of one word, then `:` and a space or the
/// end of the line. A log line (`Skipping import …: …`) is no such line.
pub(crate) fn starts_yaml_mapping(line: &str) -> bool {
    let line = line.trim_end();
    if line == "---" {
        return true;
    }
    let key_end = line.find(':').unwrap_or(0);
    key_end > 0
        && line[..key_end]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        && line[key_end + 1..].chars().next().is_none_or(|c| c == ' ')
}

/// A YAML error at its line and column; at the end of a text without a
/// final line end libyaml may point one line past the last, which is put
/// at the end of the last line.
fn yaml_error(file: &str, text: &str, e: &serde_yaml::Error) -> ReadError {
    let full = e.to_string();
    let what = full.split(" at line ").next().unwrap_or(&full);
    let lines: Vec<&str> = text.split('\n').collect();
    let (line, column) = match e.location() {
        Some(l) if l.line() > lines.len() => (
            lines.len(),
            lines.last().map_or(0, |l| l.chars().count()) + 1,
        ),
        Some(l) => (
            l.line(),
            l.column().min(lines[l.line() - 1].chars().count() + 1),
        ),
        None => (0, 0),
    };
    ReadError::new(ErrorKind::Syntax, file, format!("invalid YAML: {what}"))
        .at(line, column)
        .hint("a result file is read as its tool wrote it; an edited or cut-short copy cannot be read")
}

/// The format of `bytes`. `name` is used only in messages.
pub fn detect(name: &str, bytes: &[u8]) -> Result<Format, ReadError> {
    super::file::check_size(name, bytes)?;
    classify(name, &parse_input(name, bytes)?)
}

/// The format of a parsed file.
pub(crate) fn classify(file: &str, input: &Input) -> Result<Format, ReadError> {
    match input {
        Input::Json(p) => classify_json(file, &p.values),
        Input::Yaml(v) => match object_format(v) {
            Some(Format::GuidellmJson) => Ok(Format::GuidellmYaml),
            _ => Err(unknown(file, &format!("YAML {}", shape(v)))),
        },
        Input::Csv(_) => Ok(Format::LlamaBenchCsv),
        Input::Text(t) => {
            // A console report first: a paste of trtllm-bench's output
            // carries TensorRT-LLM's log lines too.
            if let Some(f) = super::console::first_format(t) {
                Ok(f)
            } else if is_server_log(t) {
                Ok(Format::ServerLog)
            } else {
                Err(unknown(
                    file,
                    "text that is not JSON, YAML or llama-bench CSV, and no console report of a known tool",
                ))
            }
        }
    }
}

fn classify_json(file: &str, values: &[Located]) -> Result<Format, ReadError> {
    let Some(first) = values.first() else {
        return Err(unknown(file, "no JSON value at all"));
    };
    match &first.value {
        Value::Array(items) => {
            let Some(item) = items.first() else {
                return Err(unknown(file, "an empty JSON array"));
            };
            let f = object_format(item);
            match f {
                Some(Format::VllmServe) if item.get("run_number").is_some() => {
                    Ok(Format::VllmSweepSummary)
                }
                Some(Format::LlamaBench | Format::SglangOneBatch) => {
                    Ok(f.unwrap_or(Format::LlamaBench))
                }
                _ if item.get("tripwire").is_some() && item.get("status").is_some() => {
                    Ok(Format::InferlintResults)
                }
                _ => Err(unknown(
                    file,
                    &format!("a JSON array whose first item is {}", shape(item)),
                )),
            }
        }
        v => object_format(v).ok_or_else(|| unknown(file, &format!("a JSON {}", shape(v)))),
    }
}

/// What a value looks like, for the unknown-format message.
fn shape(v: &Value) -> String {
    match v {
        Value::Object(m) if m.is_empty() => "object with no keys".into(),
        Value::Object(m) => {
            let keys: Vec<&str> = m.keys().map(String::as_str).take(8).collect();
            let more = if m.len() > 8 {
                format!(", … ({} keys)", m.len())
            } else {
                String::new()
            };
            format!("object with the keys {}{more}", keys.join(", "))
        }
        Value::Array(_) => "array".into(),
        Value::String(_) => "string".into(),
        Value::Number(_) => "number".into(),
        Value::Bool(_) => "boolean".into(),
        Value::Null => "null".into(),
    }
}

fn unknown(file: &str, found: &str) -> ReadError {
    let mut msg = format!(
        "not a result file of a known format: the file holds {found}.\n  The format is told from the content; these are the formats and what each is known by:"
    );
    for (_, name, keys) in SIGNATURES {
        msg.push_str(&format!("\n    {name}: {keys}"));
    }
    ReadError::new(ErrorKind::UnknownFormat, file, msg)
}
