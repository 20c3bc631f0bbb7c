//! The input and output lengths a benchmark's client was asked for, where
//! its result file records them: `random_input_len` and
//! `random_output_len` at the top of each result object (SGLang's
//! `bench_serving` writes them in every line; `vllm bench sweep serve`
//! merges the parameters it sweeps into each run's file, and `vllm bench
//! serve --metadata random_output_len=…` adds them as text). They are
//! the lengths of a random dataset only: a line whose `dataset_name` is
//! another (`sharegpt`) keeps SGLang's defaults, which nothing asked for.
//!
//! They are not a column of the vocabulary (`crate::results`): no table
//! publishes them; the comparisons match workloads on them before the
//! measured means, which differ between two runs of one command when
//! generation stops at an end of text. Read from the bytes the loader
//! already holds, and only where the file names such a key at all.

use memchr::memmem;
use serde_json::{Map, Value};

/// The keys of the requested input and output lengths, in each spelling.
const KEYS: [&[&str]; 2] = [
    &["random_input_len", "random-input-len"],
    &["random_output_len", "random-output-len"],
];

/// The requested lengths for each of `rows` results read from `bytes`:
/// one per JSON object of the file where there are as many objects as
/// rows (in order), else the lengths every object agrees on, else none.
pub(super) fn requested(bytes: &[u8], rows: usize) -> Vec<[Option<f64>; 2]> {
    let none = vec![[None, None]; rows];
    if memmem::find(bytes, b"random_").is_none() && memmem::find(bytes, b"random-").is_none() {
        return none;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return none;
    };
    let text = without_bare_numbers(text);
    let mut objects: Vec<[Option<f64>; 2]> = Vec::new();
    for value in serde_json::Deserializer::from_str(&text).into_iter::<Value>() {
        match value {
            Ok(Value::Object(o)) => objects.push(of(&o)),
            Ok(Value::Array(items)) => objects.extend(items.iter().filter_map(|i| match i {
                Value::Object(o) => Some(of(o)),
                _ => None,
            })),
            Ok(_) => {}
            // Not JSON (a YAML report, a CSV, a log): nothing recorded.
            Err(_) => return none,
        }
    }
    if objects.len() == rows {
        return objects;
    }
    match objects.split_first() {
        Some((first, rest)) if rest.iter().all(|o| o == first) => vec![*first; rows],
        _ => none,
    }
}

/// The requested lengths of one result object.
fn of(o: &Map<String, Value>) -> [Option<f64>; 2] {
    let random = o
        .get("dataset_name")
        .and_then(Value::as_str)
        .is_none_or(|d| d.starts_with("random"));
    if !random {
        return [None, None];
    }
    KEYS.map(|names| {
        names
            .iter()
            .find_map(|k| match o.get(*k)? {
                Value::Number(n) => n.as_f64(),
                Value::String(s) => s.trim().parse::<f64>().ok(),
                _ => None,
            })
            .filter(|n| n.is_finite() && *n > 0.0)
    })
}

/// `text` with the bare `Infinity`, `-Infinity` and `NaN` that Python's
/// `json` writes (SGLang's request rate) made `null`, outside strings, so
/// that a strict parser reads the rest. One pass, linear.
fn without_bare_numbers(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("Infinity") && !text.contains("NaN") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if c == '"' {
            in_string = true;
        } else if let Some(word) = ["-Infinity", "Infinity", "NaN"]
            .into_iter()
            .find(|w| rest.starts_with(w))
        {
            out.push_str("null");
            rest = &rest[word.len()..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_asked_for_a_random_dataset_line_by_line() {
        let jsonl = concat!(
            "{\"dataset_name\": \"random\", \"request_rate\": Infinity, \"random_input_len\": 1024, \"random_output_len\": 128}\n",
            "{\"dataset_name\": \"sharegpt\", \"request_rate\": 4.0, \"random_input_len\": 1024, \"random_output_len\": 1024, \"tag\": \"NaN in a string\"}\n",
        );
        assert_eq!(
            requested(jsonl.as_bytes(), 2),
            vec![[Some(1024.0), Some(128.0)], [None, None]]
        );
    }

    #[test]
    fn a_sweeps_parameters_and_metadata_as_text() {
        // One object for two rows: the lengths it gives hold for both.
        let one = r#"{"model_id": "m", "random_output_len": "256", "random-input-len": 512}"#;
        assert_eq!(
            requested(one.as_bytes(), 2),
            vec![[Some(512.0), Some(256.0)]; 2]
        );
        // An array of run objects, one per row.
        let summary = r#"[{"random_output_len": 64}, {"random_output_len": 128}]"#;
        assert_eq!(
            requested(summary.as_bytes(), 2),
            vec![[None, Some(64.0)], [None, Some(128.0)]]
        );
        // Objects that disagree and are not one per row: none.
        assert_eq!(requested(summary.as_bytes(), 3), vec![[None, None]; 3]);
        // No such key, or not JSON: none.
        assert_eq!(requested(b"{\"x\": 1}", 1), vec![[None, None]]);
        assert_eq!(requested(b"random_output_len: 5\n", 1), vec![[None, None]]);
    }
}
