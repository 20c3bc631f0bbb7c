//! An accuracy chart: scores with their 95% intervals across versions or
//! settings, a point with an interval whisker per category (plotters'
//! [`ErrorBar`](plotters::element::ErrorBar)), one colour per series (a
//! task or benchmark), drawn as the trend charts are (`trend.rs`): as wide
//! as its column, text at its size, a percentage axis ending at 100%
//! unless a score passes it.
//!
//! The accuracy pages fill an [`IntervalChart`] from their readers (the
//! scores and intervals a run's evaluation reports) and call
//! [`interval`]; the chart decides nothing about the scores, only draws
//! them.

use super::trend::{categorical, rgb, Categorical, Mark};
use super::RenderedChart;

/// A series of an accuracy chart: one task or benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct IntervalSeries {
    /// Its name in the legend (`gsm8k, 5-shot`).
    pub name: String,
    /// Its colour, `#rrggbb` (see [`super::series_colors`]).
    pub color: String,
}

/// A score with its interval.
#[derive(Debug, Clone, PartialEq)]
pub struct IntervalPoint {
    /// Its series, an index into [`IntervalChart::series`].
    pub series: usize,
    /// Its category (version or setting), an index into
    /// [`IntervalChart::categories`].
    pub category: usize,
    /// The score.
    pub score: f64,
    /// The interval's low end (of a 95% interval, as the reader computed
    /// it or the evaluation reported it).
    pub low: f64,
    /// The interval's high end.
    pub high: f64,
}

/// What [`interval`] draws.
#[derive(Debug, Clone, PartialEq)]
pub struct IntervalChart {
    /// Its id on the page (unique there).
    pub id: String,
    /// Its title.
    pub title: String,
    /// The x axis's title (`Engine version, in version order`, or the
    /// setting that differs: `KV cache dtype`).
    pub x_title: String,
    /// The y axis's title (`Accuracy (%)`).
    pub y_title: String,
    /// The categories, in the order to show them.
    pub categories: Vec<String>,
    /// The series.
    pub series: Vec<IntervalSeries>,
    /// The scores.
    pub points: Vec<IntervalPoint>,
    /// Whether scores are percentages: the axis then ends at 100% unless a
    /// score or interval passes it.
    pub percent: bool,
    /// Its description in one line of plain text (the page's table beside
    /// it gives every score).
    pub summary: String,
}

/// Draws `c` as SVG.
pub fn interval(c: &IntervalChart) -> RenderedChart {
    let svg = categorical(&Categorical {
        id: &c.id,
        class: "plot plot-interval",
        title: &c.title,
        x_title: &c.x_title,
        y_title: &c.y_title,
        categories: &c.categories,
        series: c
            .series
            .iter()
            .map(|s| (s.name.as_str(), rgb(&s.color)))
            .collect(),
        bands: Vec::new(),
        points: c
            .points
            .iter()
            .filter(|p| p.series < c.series.len())
            .map(|p| Mark {
                series: p.series,
                cat: p.category,
                value: p.score,
                low: p.low.min(p.score),
                high: p.high.max(p.score),
                hollow: false,
                regression: None,
                link: None,
            })
            .collect(),
        summary: &c.summary,
        percent: c.percent,
        error_bars: true,
    });
    RenderedChart {
        svg,
        summary: c.summary.clone(),
        figures: None,
    }
}
