//! What a measurement measured, as a comparison matches it: the model (by
//! its file or repository name, in any case: `/models/Qwen3-8B` and
//! `qwen/qwen3-8b` are one model), the input and output lengths of its
//! requests, and the concurrency and request rate the client was asked
//! for (exactly). Lengths match on what the client was asked for where
//! both files record it (`random_input_len`, `random_output_len`: the
//! lengths of a random dataset), else on the measured means per completed
//! request, within [`super::LENGTH_TOLERANCE`] of each other: generation
//! that stops at an end of text makes two runs of one command measure
//! different means. A comparison told that its sides measured one
//! workload (`--same-workload`) matches on the concurrency and rate alone.
//! A hand table's workload is the cells of the columns it is keyed by.
//!
//! Takes a result row or a table's key cells; hands back a [`Workload`].

use super::LENGTH_TOLERANCE;
use crate::figures;
use crate::record::ResultRow;

/// What was measured, matched exactly on `exact` and on the lengths (see
/// [`Workload::matches`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// Each part as a reader reads it: (what, value), `("asked for", "32 at once")`.
    pub parts: Vec<(String, String)>,
    /// The parts matched exactly, as one key.
    pub exact: String,
    /// The parts matched when the sides are said to measure one workload:
    /// the concurrency and rate, as one key.
    pub loose: String,
    /// The mean input and output lengths in tokens, where known.
    pub lengths: [Option<f64>; 2],
    /// The input and output lengths the client was asked for, where the
    /// file records them.
    pub requested: [Option<f64>; 2],
    /// The concurrency the client was asked for, where it was bounded.
    pub concurrency: Option<f64>,
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
            loose: exact.clone(),
            exact,
            lengths: [None, None],
            requested: [None, None],
            concurrency: None,
        }
    }

    /// Whether `other` measured this workload: the exact parts equal, and
    /// each length the same: the lengths asked for where both record them,
    /// else the measured means within the tolerance of this one's (or both
    /// unknown). With `same_workload`, the concurrency and rate alone.
    pub fn matches(&self, other: &Workload, same_workload: bool) -> bool {
        if same_workload {
            return self.loose == other.loose;
        }
        self.exact == other.exact
            && (0..2).all(|k| match (self.requested[k], other.requested[k]) {
                (Some(a), Some(b)) => (a - b).abs() < 0.5,
                _ => match (self.lengths[k], other.lengths[k]) {
                    (None, None) => true,
                    (Some(a), Some(b)) => (a - b).abs() <= LENGTH_TOLERANCE * a.abs().max(1.0),
                    _ => false,
                },
            })
    }

    /// The workload in one line: `qwen3-8b · 1,024 in, 128 out (tokens a
    /// request) · asked for 32 at once · rate unlimited`.
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
    let tokens = |[i, o]: [f64; 2]| {
        format!(
            "{} in, {} out",
            figures::number(i.round()),
            figures::number(o.round())
        )
    };
    match (row.requested, lengths) {
        ([Some(i), Some(o)], [Some(mi), Some(mo)]) => parts.push((
            String::new(),
            format!(
                "asked {}; measured {} (tokens a request)",
                tokens([i, o]),
                tokens([mi, mo])
            ),
        )),
        ([Some(i), Some(o)], _) => parts.push((
            String::new(),
            format!("asked {} (tokens a request)", tokens([i, o])),
        )),
        (_, [Some(i), Some(o)]) => parts.push((
            String::new(),
            format!("{} (tokens a request)", tokens([i, o])),
        )),
        _ => {}
    }
    let asked = row.num("max_concurrency").filter(|c| c.is_finite());
    if !concurrency.is_empty() {
        // What the client was asked for, not what the server ran: a
        // comparison says that beside each side.
        let shown = asked.map_or(concurrency.clone(), figures::number);
        parts.push(("asked for".into(), format!("{shown} at once")));
    }
    match rate.as_str() {
        "" => {}
        "inf" => parts.push(("rate".into(), "unlimited".into())),
        r => parts.push(("rate".into(), format!("{r} req/s"))),
    }
    Workload {
        parts,
        exact: [model, concurrency.clone(), rate.clone()].join("\u{1f}"),
        loose: [concurrency, rate].join("\u{1f}"),
        lengths,
        requested: row.requested,
        concurrency: asked,
    }
}
