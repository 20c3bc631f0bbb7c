//! The document around what the backend drew: the root `<svg>` (its
//! margins as padding, so that its own width is the plot's; its least and
//! most widths), its `<title>` and `<desc>`, and the parts in the order
//! they paint: grid, marks (in the stretched plot area), axes, rules,
//! keys, markers, labels. plotters has no notion of a document's
//! accessible name or of groups a page's CSS can reach, so this is ours.

use super::{Frame, Layers, PLOT_UNITS};
use crate::util::escape_html;
use std::fmt::Write as _;

/// What the document's root says of itself.
pub(in crate::chart) struct Root<'a> {
    /// Its classes: `plot plot-bar`.
    pub(in crate::chart) class: &'a str,
    /// `img`, or `group` for a chart whose points are links.
    pub(in crate::chart) role: &'a str,
    /// The ids' stem: `<id>-title`, `<id>-desc`.
    pub(in crate::chart) id: &'a str,
    pub(in crate::chart) title: &'a str,
    pub(in crate::chart) desc: &'a str,
    /// The right margin, px.
    pub(in crate::chart) right: i32,
    /// The least width it is shown at, margins included, and the most.
    pub(in crate::chart) min_width: i32,
    pub(in crate::chart) max_width: Option<i32>,
}

/// The document: the root (with the margins as its padding, so that its
/// own width is the plot's), its `<title>` and `<desc>`, and the parts in
/// the order they paint: grid, marks, axes, rules, keys, markers, labels.
pub(in crate::chart) fn document(frame: &Frame, layers: &Layers, root: &Root) -> String {
    let mut p = layers.0.borrow_mut();
    p.flush_dots();
    p.close_paint();
    let plot_h = frame.bottom - frame.top;
    let widths = match root.max_width {
        Some(max) => format!("min-width: {}px; max-width: {max}px", root.min_width),
        None => format!("min-width: {}px", root.min_width),
    };
    let mut svg = String::with_capacity(
        p.grid.len() + p.marks.len() + p.axes.len() + p.labels.len() + p.markers.len() + 2048,
    );
    let id = root.id;
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{}\" width=\"100%\" height=\"{}\" \
         overflow=\"visible\" style=\"box-sizing: border-box; padding: 0 {}px 0 {}px; {widths}\" \
         role=\"{}\" aria-labelledby=\"{id}-title {id}-desc\">\n\
         <title id=\"{id}-title\">{}</title>\n<desc id=\"{id}-desc\">{}</desc>\n",
        root.class,
        frame.height,
        root.right,
        frame.left,
        root.role,
        escape_html(root.title),
        escape_html(root.desc),
    );
    let _ = write!(
        svg,
        "<g class=\"plot-grid\" stroke=\"currentColor\" stroke-opacity=\"0.15\" \
         shape-rendering=\"crispEdges\">\n{}</g>\n",
        p.grid
    );
    let _ = write!(
        svg,
        "<svg class=\"plot-area\" y=\"{}\" width=\"100%\" height=\"{plot_h}\" \
         viewBox=\"0 0 {PLOT_UNITS} {plot_h}\" preserveAspectRatio=\"none\" \
         overflow=\"visible\">\n<g class=\"plot-marks\">\n{}</g>\n</svg>\n",
        frame.top, p.marks
    );
    let _ = write!(
        svg,
        "<g class=\"plot-axes\" stroke=\"currentColor\" shape-rendering=\"crispEdges\">\n{}</g>\n",
        p.axes
    );
    if !p.rules.is_empty() {
        let _ = write!(
            svg,
            "<g class=\"plot-rules\" stroke=\"currentColor\" stroke-width=\"1.5\" \
             stroke-dasharray=\"6 4\" shape-rendering=\"crispEdges\">\n{}</g>\n",
            p.rules
        );
    }
    if !p.keys.is_empty() {
        let _ = write!(
            svg,
            "<g class=\"plot-keys\" fill=\"none\">\n{}</g>\n",
            p.keys
        );
    }
    if !p.markers.is_empty() {
        let _ = write!(
            svg,
            "<g class=\"plot-points\" fill=\"none\">\n{}\n</g>\n",
            p.markers
        );
    }
    let _ = write!(
        svg,
        "<g class=\"plot-labels\" fill=\"currentColor\" font-size=\"{}\">\n{}</g>\n</svg>\n",
        crate::chart::layout::FONT,
        p.labels
    );
    svg
}
