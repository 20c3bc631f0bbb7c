//! The search index of the runs and of the workloads the site follows,
//! beside the findings' (`search.rs`, whose shards and words it shares):
//! each run and workload a numbered entry, its words (title; engines and
//! versions, model, hardware, tool, workload) cut into shards by their
//! first letters under `search-index/docs/`, and the entries themselves,
//! 64 a file, under `search-index/entries/` (`[kind, title, path,
//! line]`), which the search page fetches for the entries it shows. The
//! manifest names them under `docs`:
//!
//! ```json
//! "docs": {"count": 31, "keys": "0~{.}…", "per": 64,
//!          "shards": "search-index/docs/", "entries": "search-index/entries/"}
//! ```
//!
//! Takes the model; writes the files and hands back the manifest's part.

use super::search::{parts, shard, Coded, Postings};
use crate::model::Model;
use crate::render::words::{lowercase, words};
use crate::sink::{Output, WriteError};
use crate::urls;
use serde::Serialize;
use std::collections::HashMap;

/// Entries a file of `search-index/entries/`.
const PER: usize = 64;

/// The field bits of an entry's words, as the findings' index numbers its
/// fields: `title` and `terms`.
const TITLE: u8 = 1;
const TERMS: u8 = 1 << 2;

/// The manifest's `docs`.
#[derive(Serialize)]
pub(super) struct DocsManifest {
    count: usize,
    /// The shards' keys, as a trie ([`super::search::trie`]).
    keys: String,
    per: usize,
    shards: &'static str,
    entries: &'static str,
}

/// One entry: what the search page shows of it, and its words.
struct Doc {
    kind: &'static str,
    title: String,
    path: String,
    line: String,
    terms: String,
}

/// The runs (in id order), then the workloads (in title order).
fn docs(model: &Model) -> Vec<Doc> {
    let names = model.site.engine_names();
    let t = &model.trends;
    let mut out = Vec::with_capacity(model.runs.len() + t.followed.len());
    for (r, run) in model.runs.iter().enumerate() {
        let setups: Vec<String> = run
            .setups
            .iter()
            .map(|s| {
                let name = names.get(&s.engine).unwrap_or(&s.engine);
                match &s.version {
                    Some(v) => format!("{name} {v}"),
                    None => name.clone(),
                }
            })
            .collect();
        let mut line = vec![run.date.to_string()];
        line.extend(setups.iter().cloned());
        line.extend(run.model_name().map(|m| m.into_owned()));
        line.extend(run.hardware.clone());
        let mut terms = setups.join(" ");
        for s in &run.setups {
            terms.push(' ');
            terms.push_str(&s.engine);
        }
        for extra in [
            run.model.as_deref(),
            run.hardware.as_deref(),
            run.client.as_deref(),
        ]
        .into_iter()
        .flatten()
        {
            terms.push(' ');
            terms.push_str(extra);
        }
        terms.push(' ');
        terms.push_str(&run.id);
        for &w in t.by_run.get(r).into_iter().flatten() {
            terms.push(' ');
            terms.push_str(&t.followed[w].trend.title);
        }
        out.push(Doc {
            kind: "run",
            title: run.shown_title().into_owned(),
            path: urls::run(&run.id),
            line: line.join(" · "),
            terms,
        });
    }
    for f in &t.followed {
        let series: Vec<String> = f.trend.series.iter().map(|s| s.name()).collect();
        let mut terms = series.join(" ");
        for s in &f.trend.series {
            terms.push(' ');
            terms.push_str(&s.engine);
        }
        let mut versions: Vec<&crate::version::Version> = Vec::new();
        for m in &f.trend.metrics {
            terms.push(' ');
            terms.push_str(&m.metric.label);
            for p in &m.points {
                if !versions.contains(&&p.version) {
                    versions.push(&p.version);
                }
            }
        }
        for v in versions {
            terms.push(' ');
            terms.push_str(v.as_str());
        }
        out.push(Doc {
            kind: "workload",
            title: f.trend.title.clone(),
            path: urls::workload(&f.slug),
            line: series.join("; "),
            terms,
        });
    }
    out
}

/// Writes the shards and entries of the runs and workloads of `model`;
/// hands back the manifest's `docs` (`None` for a site of neither) and
/// how many files were written.
pub(super) fn write<O: Output>(
    model: &Model,
    out: &O,
) -> Result<(Option<DocsManifest>, usize), WriteError> {
    let docs = docs(model);
    if docs.is_empty() {
        return Ok((None, 0));
    }
    // Each word and the entries it is in (numbered from 1), in order.
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut coded: Vec<(Box<str>, Coded)> = Vec::new();
    for (k, d) in docs.iter().enumerate() {
        let mut mine: HashMap<String, u8> = HashMap::new();
        for (text, bit) in [(&d.title, TITLE), (&d.terms, TERMS)] {
            let lower = lowercase(text);
            for w in words(&lower) {
                for p in parts(w) {
                    *mine.entry(p).or_default() |= bit;
                }
            }
        }
        let mut mine: Vec<(String, u8)> = mine.into_iter().collect();
        mine.sort_unstable();
        for (w, bits) in mine {
            let n = *at.entry(w.clone()).or_insert_with(|| {
                coded.push((w.into_boxed_str(), Coded::default()));
                coded.len() - 1
            });
            coded[n].1.push(k as u32 + 1, bits);
        }
    }
    coded.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let postings = Postings(coded);
    let mut keys: Vec<(String, bool)> = Vec::new();
    shard(&postings, &mut |key, split, bytes| {
        out.write(&urls::search_doc_shard(key), bytes)?;
        keys.push((key.to_string(), split));
        Ok(())
    })?;
    keys.sort_unstable();
    let mut written = keys.len();
    for (n, chunk) in docs.chunks(PER).enumerate() {
        let rows: Vec<[&str; 4]> = chunk
            .iter()
            .map(|d| [d.kind, d.title.as_str(), d.path.as_str(), d.line.as_str()])
            .collect();
        let mut bytes = serde_json::to_vec(&rows).unwrap_or_default();
        bytes.push(b'\n');
        out.write(&urls::search_entries(n), &bytes)?;
        written += 1;
    }
    Ok((
        Some(DocsManifest {
            count: docs.len(),
            keys: super::search::trie(&keys),
            per: PER,
            shards: urls::SEARCH_DOC_SHARDS,
            entries: urls::SEARCH_ENTRIES,
        }),
        written,
    ))
}
