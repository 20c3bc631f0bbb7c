//! Drawing: turns a [`Plan`] and its [`Data`] into the `<svg>` string,
//! written by hand, one element at a time.
//!
//! The drawing is as wide as its column and one pixel a unit, so its text
//! is shown at the size the layout measured. Its root's padding holds the
//! margins left and right of the plot (`style`), so that its own width,
//! `100%`, is the plot's: whatever runs along the x axis (tick labels,
//! category labels, value labels, vertical grid lines) is placed by its
//! share of it (`x="37.5%"`), and what sits beside the plot (the y axis's
//! labels and title) at negative x, in the padding. The data marks are
//! drawn in a nested `<svg>` of [`PLOT_UNITS`] across that is stretched
//! over the plot (`preserveAspectRatio="none"`): their strokes keep their
//! width (`vector-effect="non-scaling-stroke"`) and the points of a line
//! are round caps of strokes of no length, which stay round however the
//! plot is stretched. Takes the chart input, data, plan and summary; hands
//! [`render`](super::render) the finished SVG.

use super::data::{Data, Rgb, Values};
use super::layout::{
    CatLabels, Plan, Title, FONT, GROUP_WIDTH, LINE_H, PLOT_HEIGHT, PLOT_UNITS, VALUE_FONT,
};
use super::text::one_line;
use super::ChartInput;
use crate::record::ChartKind;
use crate::util::escape_html;
use std::fmt::Write as _;

/// Bars of a category: the x span of a lane, in categories.
fn lane_span(cat: usize, lane: usize, lanes: usize) -> (f64, f64) {
    let lanes = lanes.max(1) as f64;
    let lane_w = GROUP_WIDTH / lanes;
    let x0 = cat as f64 + (1.0 - GROUP_WIDTH) / 2.0 + lane as f64 * lane_w;
    // A thin gap between neighbouring bars of a group.
    let gap = if lanes > 1.0 { lane_w * 0.08 } else { 0.0 };
    (x0 + gap, x0 + lane_w - gap)
}

/// The three layers every chart draws in this order: the grid lines, the
/// plot area (a nested drawing `height` units tall at `top`, stretched
/// across the chart's width, holding `marks`), and the axes.
pub(super) fn plot_layers(
    svg: &mut String,
    grid: &str,
    top: impl std::fmt::Display,
    height: i32,
    marks: &str,
    axes: &str,
) {
    let _ = write!(
        svg,
        "<g class=\"plot-grid\" stroke=\"currentColor\" stroke-opacity=\"0.15\" \
         shape-rendering=\"crispEdges\">\n{grid}</g>\n"
    );
    let _ = write!(
        svg,
        "<svg class=\"plot-area\" y=\"{top}\" width=\"100%\" height=\"{height}\" \
         viewBox=\"0 0 {PLOT_UNITS} {height}\" preserveAspectRatio=\"none\" \
         overflow=\"visible\">\n<g class=\"plot-marks\">\n{marks}</g>\n</svg>\n"
    );
    let _ = write!(
        svg,
        "<g class=\"plot-axes\" stroke=\"currentColor\" shape-rendering=\"crispEdges\">\n{axes}</g>\n"
    );
}

/// A share of the plot's width as an SVG length: `37.5%`.
pub(super) fn pct(share: f64) -> String {
    let v = (share * 100.0 * 100.0).round() / 100.0;
    let v = if v == 0.0 { 0.0 } else { v };
    format!("{v}%")
}

/// A coordinate rounded to the pixel (or plot unit), as an integer.
pub(super) fn px(v: f64) -> i64 {
    v.round() as i64
}

pub(super) fn draw(input: &ChartInput, data: &Data, plan: &Plan, summary: &str) -> String {
    let spec = input.spec;
    let bars = matches!(data.values, Values::Bars { .. });
    let (t, b) = (plan.top, plan.bottom);
    let y_at = |v: f64| px(f64::from(t) + plan.py(v));

    // Grid: one faint line per value tick (and per x tick for numeric x),
    // not over the axis lines themselves.
    let mut grid = String::new();
    for (v, _) in plan.y.ticks.iter().filter(|t| t.0 != plan.y.lo) {
        let y = y_at(*v);
        let _ = writeln!(grid, "<line y1=\"{y}\" x2=\"100%\" y2=\"{y}\"/>");
    }
    if !bars {
        for (v, _) in plan.x.ticks.iter().filter(|t| t.0 != plan.x.lo) {
            let x = pct(plan.fx(*v));
            let _ = writeln!(grid, "<line x1=\"{x}\" y1=\"{t}\" x2=\"{x}\" y2=\"{b}\"/>");
        }
    }

    // Axes: the frame's bottom and left sides, tick marks, a zero line.
    let mut axes = String::new();
    let _ = writeln!(axes, "<line y1=\"{b}\" x2=\"100%\" y2=\"{b}\"/>");
    let _ = writeln!(axes, "<line y1=\"{t}\" y2=\"{b}\"/>");
    for (v, _) in &plan.y.ticks {
        let y = y_at(*v);
        let _ = writeln!(axes, "<line x1=\"-5\" y1=\"{y}\" y2=\"{y}\"/>");
    }
    if !bars {
        for (v, _) in &plan.x.ticks {
            let x = pct(plan.fx(*v));
            let _ = writeln!(
                axes,
                "<line x1=\"{x}\" y1=\"{b}\" x2=\"{x}\" y2=\"{}\"/>",
                b + 5
            );
        }
    }
    if bars && !plan.y.log && plan.y.lo < 0.0 && plan.y.hi > 0.0 {
        let y = y_at(0.0);
        let _ = writeln!(axes, "<line y1=\"{y}\" x2=\"100%\" y2=\"{y}\"/>");
    }

    let marks = marks(spec.kind, data, plan);
    let keys = legend_keys(spec.kind, data, plan);

    // Text.
    let mut text = Text::default();
    // Marks of the spec (a concurrency asked for): a dashed line across
    // the plot, its label above the line's right end.
    let mut rules = String::new();
    for (y, label) in &data.marks {
        let y = y_at(*y);
        let _ = writeln!(rules, "<line y1=\"{y}\" x2=\"100%\" y2=\"{y}\"/>");
        text.put(
            Pos::End(-4),
            y - 5,
            Anchor::End,
            Some("plot-rule"),
            &[one_line(label)],
        );
    }
    text.y_ticks(&plan.y.ticks, y_at);
    let label_top = i64::from(b) + 8;
    match &plan.cat_labels {
        Some(CatLabels::Flat(labels)) => {
            for (i, lines) in labels.iter().enumerate() {
                let x = plan.fx(i as f64 + 0.5);
                text.put(Pos::Share(x), label_top + 10, Anchor::Middle, None, lines);
            }
        }
        Some(CatLabels::Rotated(labels)) => {
            for (i, lines) in labels.iter().enumerate() {
                let x = plan.fx(i as f64 + 0.5);
                text.rotated(x, label_top, lines);
            }
        }
        None => {
            for (v, label) in &plan.x.ticks {
                text.put(
                    Pos::Share(plan.fx(*v)),
                    label_top + 10,
                    Anchor::Middle,
                    None,
                    std::slice::from_ref(label),
                );
            }
        }
    }
    if plan.value_labels {
        if let Values::Bars { lanes, bars, .. } = &data.values {
            let base = if plan.y.log { plan.y.lo } else { 0.0 };
            for bar in bars {
                let (x0, x1) = lane_span(bar.cat, bar.lane, *lanes);
                let x = plan.fx((x0 + x1) / 2.0);
                let (label, v) = match bar.value {
                    Some(v) => (bar.text.clone(), v),
                    None => ("n/a".to_string(), base),
                };
                let py = y_at(v);
                let y = if v < base { py + 12 } else { py - 4 };
                text.put(
                    Pos::Share(x),
                    y,
                    Anchor::Middle,
                    Some("plot-value"),
                    &[label],
                );
            }
        }
    }
    // Axis titles: x under the plot, y turned a quarter left beside it.
    let x_lines = plan.x_title.lines.len() as i64;
    let x_title_y = i64::from(plan.height) - 10 - (x_lines - 1) * i64::from(LINE_H);
    text.title(Pos::Share(0.5), x_title_y, None, &plan.x_title);
    text.title(
        Pos::Px(plan.y_title_x.into()),
        i64::from(t + b) / 2,
        Some(-90),
        &plan.y_title,
    );
    for item in &plan.legend {
        let dx = match spec.kind {
            ChartKind::Line | ChartKind::Cdf => 22,
            _ => 18,
        };
        text.put(
            Pos::Px(i64::from(item.x + dx)),
            i64::from(item.y + 11),
            Anchor::Start,
            Some("plot-legend"),
            &item.lines,
        );
    }

    // The document.
    let id = chart_id(input);
    let mut svg = String::with_capacity(marks.len() + text.buf.len() + grid.len() + 2048);
    let widths = match plan.max_width {
        Some(max) => format!("min-width: {}px; max-width: {max}px", plan.min_width),
        None => format!("min-width: {}px", plan.min_width),
    };
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot plot-{kind}\" \
         width=\"100%\" height=\"{h}\" overflow=\"visible\" \
         style=\"box-sizing: border-box; padding: 0 {r}px 0 {l}px; {widths}\" role=\"img\" \
         aria-labelledby=\"{id}-title {id}-desc\">\n\
         <title id=\"{id}-title\">{title}</title>\n\
         <desc id=\"{id}-desc\">{desc}</desc>\n",
        kind = spec.kind.as_str(),
        h = plan.height,
        l = plan.left,
        r = plan.right,
        title = escape_html(&one_line(&spec.title)),
        desc = escape_html(summary),
    );
    plot_layers(&mut svg, &grid, t, PLOT_HEIGHT, &marks, &axes);
    if !rules.is_empty() {
        let _ = write!(
            svg,
            "<g class=\"plot-rules\" stroke=\"currentColor\" stroke-width=\"1.5\" \
             stroke-dasharray=\"6 4\" shape-rendering=\"crispEdges\">\n{rules}</g>\n"
        );
    }
    if !keys.is_empty() {
        let _ = write!(svg, "<g class=\"plot-keys\">\n{keys}</g>\n");
    }
    let _ = write!(
        svg,
        "<g class=\"plot-labels\" fill=\"currentColor\" font-size=\"{FONT}\">\n{}</g>\n</svg>\n",
        text.buf
    );
    svg
}

/// The data marks, in the plot's own units ([`PLOT_UNITS`] across, px
/// down): bars, lines with a round dot at each point, a distribution's
/// steps, scatter points.
fn marks(kind: ChartKind, data: &Data, plan: &Plan) -> String {
    let mut out = String::new();
    let x_at = |v: f64| px(plan.fx(v) * PLOT_UNITS);
    let y_at = |v: f64| px(plan.py(v));
    match &data.values {
        Values::Bars { lanes, bars, .. } => {
            let base = if plan.y.log { plan.y.lo } else { 0.0 };
            for bar in bars {
                let Some(v) = bar.value else { continue };
                let (x0, x1) = lane_span(bar.cat, bar.lane, *lanes);
                let (x0, x1) = (x_at(x0), x_at(x1));
                let (ya, yb) = (y_at(v), y_at(base));
                let _ = writeln!(
                    out,
                    "<rect x=\"{x0}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                    ya.min(yb),
                    x1 - x0,
                    (ya - yb).abs(),
                    data.series.list[bar.series].color.hex()
                );
            }
        }
        Values::Points(series) => {
            for (s, points) in series.iter().enumerate() {
                let color = data.series.list[s].color.hex();
                // Points that fall on one pixel are drawn once.
                let mut xy: Vec<(i64, i64)> =
                    points.iter().map(|p| (x_at(p.x), y_at(p.y))).collect();
                xy.dedup();
                match kind {
                    ChartKind::Line | ChartKind::Cdf => {
                        let _ = writeln!(
                            out,
                            "<polyline points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" \
                             stroke-linejoin=\"round\" vector-effect=\"non-scaling-stroke\"/>",
                            points_attr(&xy)
                        );
                        // A distribution's steps have no dot at each: there
                        // may be hundreds.
                        if kind == ChartKind::Line {
                            out.push_str(&dots(&xy, &color, 6, None));
                        }
                    }
                    _ => out.push_str(&dots(&xy, &color, 8, Some("0.85"))),
                }
            }
        }
    }
    out
}

/// `x,y x,y …`.
fn points_attr(xy: &[(i64, i64)]) -> String {
    let mut s = String::with_capacity(xy.len() * 8);
    for (i, (x, y)) in xy.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{x},{y}");
    }
    s
}

/// A dot at each point: a stroke of no length with round caps, `size` px
/// across whatever the plot's stretch.
fn dots(xy: &[(i64, i64)], color: &str, size: u32, opacity: Option<&str>) -> String {
    let mut d = String::with_capacity(xy.len() * 10);
    for (x, y) in xy {
        let _ = write!(d, "M{x} {y}h0");
    }
    let opacity = opacity
        .map(|o| format!(" stroke-opacity=\"{o}\""))
        .unwrap_or_default();
    format!(
        "<path class=\"plot-dots\" d=\"{d}\" stroke=\"{color}\" stroke-width=\"{size}\"{opacity} \
         stroke-linecap=\"round\" vector-effect=\"non-scaling-stroke\"/>\n"
    )
}

/// The legend's swatches, in px from the plot's left edge: a square for
/// bars, a line with its dot for lines, a line for a distribution, a dot
/// for scatter points.
fn legend_keys(kind: ChartKind, data: &Data, plan: &Plan) -> String {
    let mut out = String::new();
    for item in &plan.legend {
        let c: Rgb = data.series.list[item.series].color;
        let color = c.hex();
        let (x, cy) = (item.x, item.y + 7);
        let _ = match kind {
            ChartKind::Bar | ChartKind::GroupedBar => writeln!(
                out,
                "<rect x=\"{x}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{color}\"/>",
                cy - 6
            ),
            ChartKind::Line => writeln!(
                out,
                "<line x1=\"{x}\" y1=\"{cy}\" x2=\"{}\" y2=\"{cy}\" stroke=\"{color}\" stroke-width=\"2\"/>\n\
                 <circle cx=\"{}\" cy=\"{cy}\" r=\"3\" fill=\"{color}\"/>",
                x + 16,
                x + 8
            ),
            ChartKind::Cdf => writeln!(
                out,
                "<line x1=\"{x}\" y1=\"{cy}\" x2=\"{}\" y2=\"{cy}\" stroke=\"{color}\" stroke-width=\"2\"/>",
                x + 16
            ),
            ChartKind::Scatter => writeln!(
                out,
                "<circle cx=\"{}\" cy=\"{cy}\" r=\"4\" fill=\"{color}\" fill-opacity=\"0.85\"/>",
                x + 6
            ),
        };
    }
    out
}

#[derive(Clone, Copy)]
pub(super) enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn attr(self) -> &'static str {
        match self {
            Anchor::Start => "",
            Anchor::Middle => " text-anchor=\"middle\"",
            Anchor::End => " text-anchor=\"end\"",
        }
    }
}

/// Where a text goes across: px from the plot's left edge (negative: in
/// the margin beside it), a share of the plot's width, or px from its
/// right edge.
#[derive(Clone, Copy)]
pub(super) enum Pos {
    Px(i64),
    Share(f64),
    End(i64),
}

impl Pos {
    /// Its `x` (and `dx`) attributes.
    fn attrs(self) -> (String, String) {
        match self {
            Pos::Px(x) => (x.to_string(), String::new()),
            Pos::Share(s) => (pct(s), String::new()),
            Pos::End(dx) => ("100%".to_string(), format!(" dx=\"{dx}\"")),
        }
    }
}

/// Text elements, written by hand: the layout measured them (with no font
/// files, from a width table), and they name no font family, so that the
/// page's applies.
#[derive(Default)]
pub(super) struct Text {
    pub(super) buf: String,
}

impl Text {
    /// The value axis's tick labels, right-aligned 8 px left of the plot,
    /// each centred on its tick (`y_at` gives a value's height).
    pub(super) fn y_ticks(&mut self, ticks: &[(f64, String)], y_at: impl Fn(f64) -> i64) {
        for (v, label) in ticks {
            self.put(
                Pos::Px(-8),
                y_at(*v) + 4,
                Anchor::End,
                None,
                std::slice::from_ref(label),
            );
        }
    }

    pub(super) fn put(
        &mut self,
        x: Pos,
        y: i64,
        anchor: Anchor,
        class: Option<&str>,
        lines: &[String],
    ) {
        self.element(x, y, anchor, class, None, None, lines);
    }

    /// A category label turned 45° down to the left from under its slot,
    /// in a nested drawing placed at its share of the width (a rotation
    /// needs a centre in px).
    pub(super) fn rotated(&mut self, share: f64, y: i64, lines: &[String]) {
        if lines.iter().all(|l| l.is_empty()) {
            return;
        }
        let _ = write!(
            self.buf,
            "<svg x=\"{}\" y=\"{y}\" width=\"1\" height=\"1\" overflow=\"visible\">",
            pct(share)
        );
        self.element(Pos::Px(4), 4, Anchor::End, None, None, Some(-45), lines);
        // The element ended its line; the nested drawing ends on it.
        self.buf.pop();
        self.buf.push_str("</svg>\n");
    }

    pub(super) fn title(&mut self, x: Pos, y: i64, angle: Option<i32>, title: &Title) {
        let size = (title.size != FONT).then_some(title.size);
        self.element(
            x,
            y,
            Anchor::Middle,
            Some("plot-axis-title"),
            size,
            angle,
            &title.lines,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn element(
        &mut self,
        x: Pos,
        y: i64,
        anchor: Anchor,
        class: Option<&str>,
        size: Option<f64>,
        angle: Option<i32>,
        lines: &[String],
    ) {
        if lines.iter().all(|l| l.is_empty()) {
            return;
        }
        let (x, dx) = x.attrs();
        let b = &mut self.buf;
        let _ = write!(b, "<text x=\"{x}\"{dx} y=\"{y}\"{}", anchor.attr());
        if let Some(c) = class {
            let _ = write!(b, " class=\"{c}\"");
            if c == "plot-value" {
                let _ = write!(b, " font-size=\"{VALUE_FONT}\"");
            }
        }
        if let Some(s) = size {
            let _ = write!(b, " font-size=\"{s}\"");
        }
        if let Some(a) = angle {
            let _ = write!(b, " transform=\"rotate({a} {x} {y})\"");
        }
        b.push('>');
        for (i, line) in lines.iter().enumerate() {
            if i == 0 {
                b.push_str(&escape_html(line));
            } else {
                let _ = write!(
                    b,
                    "<tspan x=\"{x}\"{dx} dy=\"{LINE_H}\">{}</tspan>",
                    escape_html(line)
                );
            }
        }
        b.push_str("</text>\n");
    }
}

/// `chart-<id>-<hash>`: readable, and unique on a page that shows charts of
/// several runs whose chart ids coincide.
pub(super) fn chart_id(input: &ChartInput) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |s: &str| {
        for byte in s.bytes().chain([0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    let spec = input.spec;
    feed(&spec.id);
    feed(&spec.title);
    feed(&spec.table);
    feed(&input.table.file);
    feed(&spec.x);
    for y in &spec.y {
        feed(y);
    }
    for row in &input.table.rows {
        for c in row {
            feed(c);
        }
    }
    let clean: String = spec
        .id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("chart-{clean}-{:08x}", hash as u32)
}
