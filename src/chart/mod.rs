//! Charts: one chart spec and its table in, one self-contained SVG string out.
//!
//! This module owns everything between a validated [`ChartSpec`] (from
//! `run.yaml`) plus its [`Table`] (the CSV, as text) and the `<svg>` element
//! that a page embeds inline. Data enters through [`ChartInput`]: the spec,
//! the table, and the site's engine colours and display names. It leaves as a
//! [`RenderedChart`]: the SVG markup and a one-line plain-text summary of the
//! data (the page's accessible description). Anything wrong with the data
//! leaves as a [`ChartError`] that names the CSV line and column at fault;
//! nothing here panics, prints or touches the file system.
//!
//! How a chart is made:
//!
//! 1. The table's cells are read into series (bars or points). A series named
//!    after an engine takes the engine's colour; others take colours from a
//!    colour-blind-safe palette (Okabe-Ito), in order of first appearance.
//! 2. Axes get round ticks (plotters' key points: 1, 2 or 5 × 10^k, or
//!    powers of ten on a logarithmic axis), bar value axes start at zero, a
//!    percentage axis ends at 100% unless a value goes over it, and the
//!    layout is sized around the labels for the narrowest width a chart is
//!    shown at (a phone's, 350 px): long category labels wrap onto two
//!    lines or are turned, x ticks are as many as fit there, and the
//!    picture grows (its box scrolls) rather than cutting or overlapping
//!    them.
//! 3. plotters draws it: a `ChartBuilder` over the plan's margins and label
//!    areas, its mesh, and plotters' series and elements for the data, on
//!    [`backend::ColumnSvg`], a `DrawingBackend` of ours that writes the
//!    SVG at one pixel a unit and as wide as its column, so its text is
//!    always shown at the size it was laid out for (12 px, values over bars
//!    11 px, never below 11 px): the plot is stretched across the column
//!    and what runs along the x axis is placed by its share of the plot's
//!    width. Text is measured with a width table for a typical sans-serif
//!    face (no font files) and written without a font family: the page's
//!    font applies.
//!
//! One file per step: `data` reads the table into series, `scale` picks the
//! axes' ticks and writes their labels, `text` measures and wraps text,
//! `layout` plans the picture around its labels, `draw` draws it with
//! plotters onto `backend`, and `summary` says the data in one line of
//! plain text. This file holds the public API and runs the steps. `trend`
//! draws a workload's metric against engine version (its points linked to
//! their runs, their noise as whiskers, flagged points hollow, a
//! regression the site's model found marked), and `interval` an accuracy
//! chart (scores with their 95% intervals over versions or settings), both
//! with the same scales, text, plotters types and backend.
//!
//! The SVG follows the page's theme: text, axes and ticks use `currentColor`,
//! grid lines use `currentColor` at low opacity, and there is no background.
//! Text has no font family (an inline SVG inherits the page's) and a size of
//! 12px set on its group; page CSS should not override that size, since the
//! layout was measured for it. The root's `style` holds its margins (as
//! padding) and the least width it is shown at (and for a few bars the
//! most); a page gives it its column's width. Hooks for CSS, none of which
//! the page must define: the root's `plot plot-<kind>`, the nested
//! `plot-area`, and the groups `plot-grid`, `plot-marks`, `plot-axes`,
//! `plot-rules`, `plot-keys` (the legend's swatches), `plot-points` (a
//! trend's or accuracy chart's points: `plot-point`, `plot-flagged`,
//! `plot-regression`) and `plot-labels`, whose texts may carry
//! `plot-value`, `plot-axis-title`, `plot-rule`, `plot-legend` or
//! `plot-marker-label`.
//!
//! The root has `role="img"` and `aria-labelledby` pointing at its `<title>`
//! and `<desc>`, whose ids derive from the chart id and a hash of the input,
//! so several charts can sit on one page. Output bytes depend only on input.

mod backend;
mod cdf;
mod data;
mod draw;
mod interval;
mod layout;
mod scale;
mod summary;
#[cfg(test)]
mod tests;
mod text;
mod trend;

pub use interval::{interval, IntervalChart, IntervalPoint, IntervalSeries};
pub use trend::{series_colors, trend, TrendChart, TrendPoint, TrendSeries};

use crate::record::{ChartSpec, Table};
use data::Data;
use draw::draw;
use layout::Plan;
use std::collections::BTreeMap;
use summary::summarize;

/// What [`render`] needs: a chart spec, its table, and the site's engines.
pub struct ChartInput<'a> {
    /// The chart spec from `run.yaml`.
    pub spec: &'a ChartSpec,
    /// The table the spec draws from.
    pub table: &'a Table,
    /// Colours for series named after engines: engine id -> "#rrggbb".
    pub engine_colors: &'a BTreeMap<String, String>,
    /// Display names for engine ids (legend shows "vLLM" not "vllm").
    pub engine_names: &'a BTreeMap<String, String>,
}

/// A chart, ready to be embedded in a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedChart {
    /// The `<svg>` element, starting with `<svg` and ending with `</svg>\n`.
    pub svg: String,
    /// One-line plain-text summary of the data, used in `<desc>` and as the
    /// figure's accessible description.
    pub summary: String,
    /// The figures to show beside the chart when they are not the table's
    /// rows: a `cdf` chart's percentiles per series (header, then rows).
    /// `None` shows the table as it is.
    pub figures: Option<(Vec<String>, Vec<Vec<String>>)>,
}

/// Why a chart could not be drawn, said for people.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ChartError {
    /// The CSV file line of the offending row, when a row is at fault.
    pub row_line: Option<usize>,
    /// The column at fault, when one is.
    pub column: Option<String>,
    /// What was found and what was expected.
    pub message: String,
}

impl ChartError {
    fn new(row_line: Option<usize>, column: Option<&str>, message: String) -> Self {
        ChartError {
            row_line,
            column: column.map(str::to_string),
            message,
        }
    }
}

/// The most values one chart may draw: table rows × `y` columns. Bigger
/// charts make pages of many megabytes that no reader can take in;
/// `findings check` reports them (see `validate`), and [`render`] refuses
/// them too.
pub const MAX_CHART_VALUES: usize = 10_000;

/// The most values the charts of one run may draw together. Each is read
/// row by row to be checked and drawn, so a run of thousands of charts of
/// one big table took minutes to check (and would make a page no reader
/// could open); `findings check` reports the chart that goes over.
pub const MAX_RUN_CHART_VALUES: usize = 100_000;

/// Draws one chart as SVG, with a plain-text summary of its data.
///
/// Returns an error naming the CSV line and column when the table cannot be
/// drawn as the spec asks (a missing column, a cell that is not a number, a
/// value at or below zero on a logarithmic axis, no rows, no values).
pub fn render(input: &ChartInput) -> Result<RenderedChart, ChartError> {
    let data = Data::read(input)?;
    let summary = summarize(input, &data);
    let plan = Plan::new(input, &data);
    let svg = draw(input, &data, &plan, &summary);
    let figures = cdf::figures(&data);
    Ok(RenderedChart {
        svg,
        summary,
        figures,
    })
}

/// Finds every problem [`render`] would report, without drawing: all of
/// them come from reading the table (drawing into a string cannot fail), so
/// `check` and validation need not pay for the SVG.
pub fn check(input: &ChartInput) -> Result<(), ChartError> {
    Data::check(input)
}
