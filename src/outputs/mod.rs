//! Stage 4, render, part three: the files the build writes beside the
//! pages, for readers' tools rather than their browsers.
//!
//! - [`search`]: the search index, cut into shards the search page fetches
//!   a few at a time;
//! - [`feed`]: the Atom feeds, site-wide and per engine;
//! - [`export`]: `findings.json` and one `f/<id>.json` per finding;
//! - [`sitemap`]: `sitemap.xml` (split past the protocol's limit) and
//!   `robots.txt`;
//! - [`browse`]: the compact data the filters and "your version" fetch;
//! - [`workloads`]: `workloads.json` and each workload's points as CSV;
//! - here too: each accuracy comparison's changed replies as CSV;
//! - here: the JSON Schemas of the record files, each run's CSV tables as
//!   published data, and the stylesheets of highlighted code.
//!
//! They take the model and the texts the cards already made of each
//! finding ([`FindingText`]), so nothing is rendered twice, and hand their
//! bytes to an [`Output`]. The sitemap is written last, from the pages
//! [`crate::pages`] wrote.

pub mod browse;
pub mod evidence;
pub mod export;
pub mod feed;
pub mod observed;
pub mod search;
mod search_docs;
pub mod sitemap;
pub mod workloads;

use crate::model::Model;
use crate::record::{RawFile, Table};
use crate::render::cards::{FindingText, SearchText};
use crate::render::reuse::Reuse;
use crate::sink::{Output, WriteError};
use crate::urls;
use crate::util::{hash_of, sha256_hex};
use rayon::prelude::*;
use std::path::Path;

/// Writes the search index, the JSON export, the feeds, `robots.txt` and
/// the schemas into `out`; returns how many files it wrote.
pub(crate) fn write<O: Output>(
    model: &Model,
    texts: &[FindingText<'_>],
    search: Vec<SearchText>,
    out: &O,
    reuse: &Reuse<'_>,
) -> Result<usize, WriteError> {
    let write_single = |path: &str, bytes: &[u8]| out.write(path, bytes);
    // The JSON export is streamed into its file (see `Output::write_with`).
    let ((index, export), feeds) = rayon::join(
        || {
            rayon::join(
                || search::write(model, texts, search, out, reuse),
                || {
                    out.write_with(urls::EXPORT, |sink| {
                        export::files(model, texts, reuse, &write_single, sink)
                    })
                },
            )
        },
        || feed::feeds(model, texts, reuse),
    );
    let mut n = index?;
    export?;
    n += 1 + model.findings.len();
    for (path, text) in &feeds {
        out.write(path, text.as_bytes())?;
        n += 1;
    }
    out.write(urls::ROBOTS, sitemap::robots(model).as_bytes())?;
    n += 1;
    for (name, text) in crate::assets::SCHEMAS {
        out.write(&urls::schema(name), text.as_bytes())?;
        n += 1;
    }
    // What the home page's filters and the engine pages' "your version"
    // box fetch when a reader uses them.
    let engines: Vec<(String, Vec<u8>)> = model
        .engines
        .par_iter()
        .map(|ix| {
            let id = &model.site.engines[ix.engine].id;
            (urls::engine_data(id), browse::engine(model, texts, ix))
        })
        .collect();
    for (path, bytes) in &engines {
        out.write(path, bytes)?;
        n += 1;
    }
    out.write(urls::FILTERS, &browse::filters(model))?;
    n += 1;
    // The workloads followed across versions, for scripts.
    workloads::write(model, out)?;
    n += 1;
    for (w, f) in model.trends.followed.iter().enumerate() {
        out.write(
            &urls::workload_csv(&f.slug),
            workloads::csv(model, w).as_bytes(),
        )?;
        n += 1;
    }
    // Every changed reply of each accuracy comparison, beside its page.
    for c in &model.comparisons {
        if let Some(a) = &c.accuracy {
            out.write(
                &urls::comparison_replies_csv(&c.spec.id),
                crate::compare::accuracy_report::changed_csv(a).as_bytes(),
            )?;
            n += 1;
        }
    }
    Ok(n)
}

/// Publishes each run's tables as CSV files beside its page, and the result
/// files they were read from as the run keeps them (`root` is the site
/// folder); returns how many files it wrote.
pub(crate) fn write_run_data<O: Output>(
    model: &Model,
    root: &Path,
    out: &O,
    reuse: &Reuse<'_>,
) -> Result<usize, WriteError> {
    Ok(model
        .runs
        .par_iter()
        .map(|run| {
            for t in &run.tables {
                let text = run_table_csv(t);
                out.write(&urls::run_file(&run.id, &t.file), text.as_bytes())?;
            }
            let folder = run.path.parent().unwrap_or(Path::new(""));
            let mut n = run.tables.len();
            for f in run.results.iter().flat_map(|s| &s.files) {
                publish_raw(root, folder, &run.id, f, out, reuse)?;
                n += 1;
            }
            Ok::<_, WriteError>(n)
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .sum::<usize>())
}

/// Publishes one result file as it is in the run's folder. Under `serve`,
/// a file whose hash is the one the last build published is kept without
/// reading it again (a detailed result can be tens of megabytes).
fn publish_raw<O: Output>(
    root: &Path,
    folder: &Path,
    run: &str,
    f: &RawFile,
    out: &O,
    reuse: &Reuse<'_>,
) -> Result<(), WriteError> {
    let rel = urls::run_file(run, &f.path);
    let key = reuse.enabled().then(|| hash_of(("raw file", &f.sha256)));
    if let Some(k) = key {
        if reuse.page_unchanged(&rel, k) && out.keep(&rel) {
            reuse.note_page(&rel, Some(k));
            return Ok(());
        }
    }
    let path = root.join(folder).join(&f.path);
    let bytes = std::fs::read(&path).map_err(crate::sink::at(&path))?;
    // The file was read and checked when the run was loaded; one changed
    // since would publish what no check has seen.
    if sha256_hex(&bytes) != f.sha256 {
        return Err(WriteError {
            path,
            source: std::io::Error::other("the file changed while the site was built; build again"),
        });
    }
    out.write(&rel, &bytes)?;
    reuse.note_page(&rel, key);
    Ok(())
}

/// The CSV as the site publishes it: the loaded header and rows, so the
/// published file is exactly what the charts and tables show.
fn run_table_csv(t: &Table) -> String {
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    let _ = w.write_record(&t.header);
    for r in &t.rows {
        let _ = w.write_record(r);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// Writes the stylesheets of highlighted code, light and dark; returns how
/// many it wrote.
pub(crate) fn write_stylesheets<O: Output>(out: &O) -> Result<usize, WriteError> {
    let (light, dark) = crate::markdown::highlight::stylesheets();
    out.write(urls::SYNTAX_LIGHT, light.as_bytes())?;
    out.write(urls::SYNTAX_DARK, dark.as_bytes())?;
    Ok(2)
}

/// Writes the sitemap of `pages` (one file, or an index and its parts for
/// a big site), once every page is rendered; returns how many files.
pub(crate) fn write_sitemaps<O: Output>(
    model: &Model,
    pages: &[String],
    out: &O,
) -> Result<usize, WriteError> {
    let sitemaps = sitemap::sitemap(model, pages);
    for (path, text) in &sitemaps {
        out.write(path, text.as_bytes())?;
    }
    Ok(sitemaps.len())
}
