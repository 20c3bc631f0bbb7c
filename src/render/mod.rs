//! Stage 4, render, part one: what the pages ([`crate::pages`]) and the
//! files beside them ([`crate::outputs`]) share, made once per build.
//!
//! - [`templates`]: the site's tera templates over the built-in ones;
//! - [`cards`]: each finding's card and texts, from a parse of its body;
//! - [`words`]: the words the search index finds each finding by;
//! - [`charts`]: each chart drawn once, with its figure;
//! - [`tables`]: run tables as pages show them, long ones folded;
//! - [`links`]: `finding:` and `run:` links, and bodies rendered with them;
//! - [`reuse`]: what a rebuild may take over from the last build, and the
//!   keys that say when.
//!
//! Everything here writes site paths with the [`crate::urls::ROOT`] marker in
//! front; pages are made relative as they are written. Nothing here
//! writes a file.

pub mod cards;
pub mod charts;
pub mod links;
pub mod reuse;
pub mod tables;
pub mod templates;
pub mod words;

use crate::sink::WriteError;

/// What went wrong while rendering.
/// What went wrong while rendering.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A template failed (user templates can be wrong).
    #[error("template {template} failed for page /{page}: {message}")]
    Template {
        /// Template name.
        template: String,
        /// Page path.
        page: String,
        /// Tera's explanation, with its causes.
        message: String,
    },
    /// A chart could not be drawn.
    #[error("{file}: chart \"{chart}\": {message}")]
    Chart {
        /// The run.yaml.
        file: String,
        /// Chart id.
        chart: String,
        /// Why.
        message: String,
    },
    /// Writing failed.
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// Table rows as HTML: `<tr><td>…</td></tr>`, each cell escaped as a
/// template escapes a value. The run page's tables and the data table of a
/// chart's figure paste it (`rows_html`) rather than loop over every cell
/// in the template, which was most of those templates' time.
pub(crate) fn table_rows_html(rows: &[Vec<String>]) -> String {
    let mut html = String::with_capacity(
        rows.iter().flatten().map(|c| c.len() + 9).sum::<usize>() + rows.len() * 9,
    );
    for row in rows {
        html.push_str("<tr>");
        for cell in row {
            html.push_str("<td>");
            html.push_str(&crate::util::escape_html(cell));
            html.push_str("</td>");
        }
        html.push_str("</tr>");
    }
    html
}
