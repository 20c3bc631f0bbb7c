//! What a measurement measured, as a comparison matches it: the model (by
//! its file or repository name, in any case: `/models/Qwen3-8B` and
//! `qwen/qwen3-8b` are one model), the mean input and output lengths of
//! its requests (within [`super::LENGTH_TOLERANCE`] of each other), and
//! the concurrency and request rate the client was asked for (exactly).
//! A hand table's workload is the cells of the columns it is keyed by.
//!
//! Takes a result row or a table's key cells; hands back a [`Workload`].

use super::LENGTH_TOLERANCE;
use crate::figures;
use crate::record::ResultRow;

/// What was measured, matched exactly on `exact` and within the length
/// tolerance on `lengths`.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// Each part as a reader reads it: (what, value), `("Concurrency", "32")`.
    pub parts: Vec<(String, String)>,
    /// The parts matched exactly, as one key.
    pub exact: String,
    /// The mean input and output lengths in tokens, where known.
    pub lengths: [Option<f64>; 2],
}

impl Workload {
    /// A workload of key cells matched exactly (a hand table's).
    pub fn of_key(parts: Vec<(String, String)>) -> Workload {
        let exact = parts
            .iter()
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>()
            .join("\u{1f}");
        Workload {
            parts,
            exact,
            lengths: [None, None],
        }
    }

    /// Whether `other` measured this workload: the exact parts equal, and
    /// each length within the tolerance of this one's (or both unknown).
    pub fn matches(&self, other: &Workload) -> bool {
        self.exact == other.exact
            && self
                .lengths
                .iter()
                .zip(&other.lengths)
                .all(|(a, b)| match (a, b) {
                    (None, None) => true,
                    (Some(a), Some(b)) => (a - b).abs() <= LENGTH_TOLERANCE * a.abs().max(1.0),
                    _ => false,
                })
    }

    /// The workload in one line: `qwen3-8b · 1,024 in, 128 out · concurrency 32`.
    pub fn line(&self) -> String {
        self.parts
            .iter()
            .map(|(what, v)| {
                if what.is_empty() {
                    v.clone()
                } else {
                    format!("{what} {v}")
                }
            })
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

/// The workload of a result row.
pub fn workload_of(row: &ResultRow) -> Workload {
    let model = row
        .get("model")
        .map(|m| {
            m.trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or(m)
                .to_lowercase()
        })
        .unwrap_or_default();
    let per_request = |total: &str| {
        let done = row.num("completed").filter(|n| *n > 0.0)?;
        row.num(total).map(|t| t / done)
    };
    let lengths = [per_request("input_tokens"), per_request("output_tokens")];
    let concurrency = row.get("max_concurrency").unwrap_or("").to_string();
    let rate = match row.num("request_rate") {
        Some(r) if r.is_infinite() => "inf".to_string(),
        Some(r) => r.to_string(),
        None => String::new(),
    };
    let mut parts = Vec::new();
    if !model.is_empty() {
        parts.push((String::new(), model.clone()));
    }
    if let [Some(i), Some(o)] = lengths {
        parts.push((
            String::new(),
            format!(
                "{} in, {} out (tokens a request)",
                figures::number(i.round()),
                figures::number(o.round())
            ),
        ));
    }
    if !concurrency.is_empty() {
        parts.push(("concurrency".into(), concurrency.clone()));
    }
    match rate.as_str() {
        "" => {}
        "inf" => parts.push(("rate".into(), "unlimited".into())),
        r => parts.push(("rate".into(), format!("{r} req/s"))),
    }
    Workload {
        parts,
        exact: [model, concurrency, rate].join("\u{1f}"),
        lengths,
    }
}
