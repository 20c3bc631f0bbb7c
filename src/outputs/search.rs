//! The search index: one small JSON file the search page fetches.
//!
//! Every listed finding is one row of `search-index.json`, an array of
//! fields named once in `fields` (not per row) to keep the file small:
//!
//! ```json
//! {"schema_version":1,
//!  "fields":["id","url","title","advice","status","summary","terms","body"],
//!  "items":[[7,"findings/x/","Stopping the server…","Stop the engine process too","open","…","vllm vLLM 0.28 …","…"]]}
//! ```
//!
//! `url` is relative to the site root. `terms` and `body` are the words a
//! finding is found by, worked out with its card (see
//! `crate::render::words`). The search script
//! (`static/search.js`) matches every typed word as a substring of these
//! fields and ranks by where it matched.

use crate::model::Model;
use crate::render::cards::FindingText;
use crate::sink::{Sink, WriteError};
use crate::urls;
use serde::Serialize;

/// The version of the index format; the script checks it.
pub const SCHEMA_VERSION: u32 = 1;

/// The field names, in row order.
pub const FIELDS: [&str; 8] = [
    "id", "url", "title", "advice", "status", "summary", "terms", "body",
];

#[derive(Serialize)]
struct Index<'a> {
    schema_version: u32,
    fields: [&'static str; 8],
    items: Vec<Item<'a>>,
}

/// One row, serialized as an array in the order of [`FIELDS`].
#[derive(Serialize)]
struct Item<'a>(
    u32,
    String,
    &'a str,
    &'a str,
    &'static str,
    &'a str,
    &'a str,
    &'a str,
);

/// Writes `search-index.json` for the listed findings of `model`.
pub fn index(
    model: &Model,
    texts: &[FindingText<'_>],
    out: &mut Sink<'_>,
) -> Result<(), WriteError> {
    let items: Vec<Item<'_>> = model
        .listed()
        .map(|i| {
            let f = &model.findings[i];
            let t = &texts[i];
            Item(
                f.id,
                urls::finding(&f.slug),
                t.title_text,
                &f.advice,
                f.status.as_str(),
                t.summary_text,
                t.search_terms,
                t.search_words,
            )
        })
        .collect();
    out.json(&Index {
        schema_version: SCHEMA_VERSION,
        fields: FIELDS,
        items,
    })?;
    out.put(b"\n")
}
