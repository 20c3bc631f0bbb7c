//! Drawing: turns a [`Plan`] and its [`Data`] into the `<svg>` string.
//! plotters draws the grid, axes and marks, each in its own pass; text is
//! written here as plain `<text>` elements. Takes the chart input, data,
//! plan and summary; hands [`render`](super::render) the finished SVG.

use super::data::{Data, Values};
use super::layout::{CatLabels, Plan, BASE_WIDTH, FONT, GROUP_WIDTH, LINE_H, VALUE_FONT};
use super::scale::Axis;
use super::text::one_line;
use super::{ChartError, ChartInput};
use crate::record::ChartKind;
use crate::util::escape_html;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::drawing::DrawingAreaErrorKind;
use plotters::prelude::*;
use std::fmt::Write as _;

/// A plotters axis coordinate made from an [`Axis`].
pub(super) trait AxisCoord: Ranged<ValueType = f64> + Sized {
    fn make(axis: &Axis) -> Self;
}

impl AxisCoord for RangedCoordf64 {
    fn make(axis: &Axis) -> Self {
        (axis.lo..axis.hi).into()
    }
}

impl AxisCoord for LogCoord<f64> {
    fn make(axis: &Axis) -> Self {
        (axis.lo..axis.hi).log_scale().into()
    }
}

type Area<'b, X, Y> = DrawingArea<SVGBackend<'b>, Cartesian2d<X, Y>>;
type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

fn coord<X: AxisCoord, Y: AxisCoord>(plan: &Plan) -> Cartesian2d<X, Y> {
    Cartesian2d::new(
        X::make(&plan.x),
        Y::make(&plan.y),
        (plan.left..plan.right, plan.bottom..plan.top),
    )
}

/// Runs one plotters pass over a fresh SVG backend and returns the elements
/// it drew (without plotters' own `<svg>` wrapper).
fn pass<X: AxisCoord, Y: AxisCoord>(
    plan: &Plan,
    f: impl for<'b> FnOnce(&DrawingArea<SVGBackend<'b>, Shift>, &Area<'b, X, Y>) -> DrawResult,
) -> Result<String, ChartError> {
    let mut buf = String::new();
    {
        let size = (plan.width.max(1) as u32, plan.height.max(1) as u32);
        let root = SVGBackend::with_string(&mut buf, size).into_drawing_area();
        let area = root.apply_coord_spec(coord::<X, Y>(plan));
        f(&root, &area).map_err(draw_error)?;
        root.present().map_err(draw_error)?;
    }
    let start = buf
        .find("<svg")
        .and_then(|s| buf[s..].find('>').map(|e| s + e + 1));
    let end = buf.rfind("</svg>");
    match (start, end) {
        (Some(s), Some(e)) if s <= e => Ok(buf[s..e].trim_start_matches('\n').to_string()),
        _ => Err(ChartError::new(
            None,
            None,
            "could not draw the chart: the SVG backend wrote no document".to_string(),
        )),
    }
}

fn draw_error(e: DrawingAreaErrorKind<std::io::Error>) -> ChartError {
    ChartError::new(None, None, format!("could not draw the chart: {e}"))
}

/// Makes a chrome pass (grid or axes) follow the page's text colour: those
/// passes draw only in black, so every black becomes `currentColor`.
fn to_current_color(s: &str) -> String {
    s.replace("\"#000000\"", "\"currentColor\"")
        .replace(" opacity=\"1\"", "")
}

/// Bars of a category: the x span of a lane.
fn lane_span(cat: usize, lane: usize, lanes: usize) -> (f64, f64) {
    let lanes = lanes.max(1) as f64;
    let lane_w = GROUP_WIDTH / lanes;
    let x0 = cat as f64 + (1.0 - GROUP_WIDTH) / 2.0 + lane as f64 * lane_w;
    // A thin gap between neighbouring bars of a group.
    let gap = if lanes > 1.0 { lane_w * 0.08 } else { 0.0 };
    (x0 + gap, x0 + lane_w - gap)
}

pub(super) fn draw<X: AxisCoord, Y: AxisCoord>(
    input: &ChartInput,
    data: &Data,
    plan: &Plan,
    summary: &str,
) -> Result<String, ChartError> {
    let spec = input.spec;
    let to_px = coord::<X, Y>(plan);
    let bars = matches!(data.values, Values::Bars { .. });
    let chrome = BLACK;

    // Grid: one line per value tick (and per x tick for numeric x).
    let grid = pass::<X, Y>(plan, |_, area| {
        let style = chrome.mix(0.15).stroke_width(1);
        // Not over the axis lines themselves.
        for (v, _) in plan.y.ticks.iter().filter(|t| t.0 != plan.y.lo) {
            area.draw(&PathElement::new(
                vec![(plan.x.lo, *v), (plan.x.hi, *v)],
                style,
            ))?;
        }
        if !bars {
            for (v, _) in plan.x.ticks.iter().filter(|t| t.0 != plan.x.lo) {
                area.draw(&PathElement::new(
                    vec![(*v, plan.y.lo), (*v, plan.y.hi)],
                    style,
                ))?;
            }
        }
        Ok(())
    })?;

    // Axes: the frame's bottom and left sides, tick marks, a zero line.
    let axes = pass::<X, Y>(plan, |root, _| {
        let style = chrome.stroke_width(1);
        let (l, r, t, b) = (plan.left, plan.right, plan.top, plan.bottom);
        root.draw(&PathElement::new(vec![(l, b), (r, b)], style))?;
        root.draw(&PathElement::new(vec![(l, t), (l, b)], style))?;
        for (v, _) in &plan.y.ticks {
            let (_, py) = to_px.translate(&(plan.x.lo, *v));
            root.draw(&PathElement::new(vec![(l - 5, py), (l, py)], style))?;
        }
        if !bars {
            for (v, _) in &plan.x.ticks {
                let (px, _) = to_px.translate(&(*v, plan.y.lo));
                root.draw(&PathElement::new(vec![(px, b), (px, b + 5)], style))?;
            }
        }
        if bars && !plan.y.log && plan.y.lo < 0.0 && plan.y.hi > 0.0 {
            let (_, py) = to_px.translate(&(plan.x.lo, 0.0));
            root.draw(&PathElement::new(vec![(l, py), (r, py)], style))?;
        }
        Ok(())
    })?;

    // Marks: bars, lines with their points, scatter points, legend swatches.
    let marks = pass::<X, Y>(plan, |root, area| {
        match &data.values {
            Values::Bars { lanes, bars, .. } => {
                let base = if plan.y.log { plan.y.lo } else { 0.0 };
                for b in bars {
                    let Some(v) = b.value else { continue };
                    let (x0, x1) = lane_span(b.cat, b.lane, *lanes);
                    let color = data.series.list[b.series].color;
                    area.draw(&Rectangle::new([(x0, base), (x1, v)], color.filled()))?;
                }
            }
            Values::Points(series) => {
                for (s, points) in series.iter().enumerate() {
                    let color = data.series.list[s].color;
                    let xy: Vec<(f64, f64)> = points.iter().map(|p| (p.x, p.y)).collect();
                    if spec.kind == ChartKind::Line {
                        let style = color.filled().stroke_width(2);
                        for e in LineSeries::new(xy, style).point_size(3) {
                            area.draw(&e)?;
                        }
                    } else if spec.kind == ChartKind::Cdf {
                        // Steps, without a dot at each: there may be hundreds.
                        area.draw(&PathElement::new(xy, color.stroke_width(2)))?;
                    } else {
                        for p in xy {
                            area.draw(&Circle::new(p, 4, color.mix(0.85).filled()))?;
                        }
                    }
                }
            }
        }
        for item in &plan.legend {
            let color = data.series.list[item.series].color;
            let (x, cy) = (item.x, item.y + 7);
            match spec.kind {
                ChartKind::Bar | ChartKind::GroupedBar => {
                    root.draw(&Rectangle::new(
                        [(x, cy - 6), (x + 12, cy + 6)],
                        color.filled(),
                    ))?;
                }
                ChartKind::Line => {
                    root.draw(&PathElement::new(
                        vec![(x, cy), (x + 16, cy)],
                        color.stroke_width(2),
                    ))?;
                    root.draw(&Circle::new((x + 8, cy), 3, color.filled()))?;
                }
                ChartKind::Cdf => {
                    root.draw(&PathElement::new(
                        vec![(x, cy), (x + 16, cy)],
                        color.stroke_width(2),
                    ))?;
                }
                ChartKind::Scatter => {
                    root.draw(&Circle::new((x + 6, cy), 4, color.mix(0.85).filled()))?;
                }
            }
        }
        Ok(())
    })?;

    // Text, laid out here.
    let mut text = Text::default();
    let (l, r, t, b) = (plan.left, plan.right, plan.top, plan.bottom);

    // Marks of the spec (a concurrency asked for): a dashed line across
    // the plot, its label above the line's right end. Written here rather
    // than by plotters, which draws a dashed line as one element per dash.
    let mut rules = String::new();
    for (y, label) in &data.marks {
        let (_, py) = to_px.translate(&(plan.x.lo, *y));
        let _ = writeln!(
            rules,
            "<line x1=\"{l}\" y1=\"{py}\" x2=\"{r}\" y2=\"{py}\"/>"
        );
        text.put(
            r - 4,
            py - 5,
            Anchor::End,
            Some("plot-rule"),
            &[one_line(label)],
        );
    }
    for (v, label) in &plan.y.ticks {
        let (_, py) = to_px.translate(&(plan.x.lo, *v));
        text.put(
            l - 8,
            py + 4,
            Anchor::End,
            None,
            std::slice::from_ref(label),
        );
    }
    let label_top = b + 8;
    match (&plan.cat_labels, &data.values) {
        (Some(CatLabels::Flat(labels)), _) => {
            for (i, lines) in labels.iter().enumerate() {
                let (px, _) = to_px.translate(&(i as f64 + 0.5, plan.y.lo));
                text.put(px, label_top + 10, Anchor::Middle, None, lines);
            }
        }
        (Some(CatLabels::Rotated(labels)), _) => {
            for (i, lines) in labels.iter().enumerate() {
                let (px, _) = to_px.translate(&(i as f64 + 0.5, plan.y.lo));
                text.rotated(px + 4, label_top + 4, -45, Anchor::End, lines);
            }
        }
        (None, _) => {
            for (v, label) in &plan.x.ticks {
                let (px, _) = to_px.translate(&(*v, plan.y.lo));
                text.put(
                    px,
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
                let (px, _) = to_px.translate(&((x0 + x1) / 2.0, base));
                let (label, v) = match bar.value {
                    Some(v) => (bar.text.clone(), v),
                    None => ("n/a".to_string(), base),
                };
                let (_, py) = to_px.translate(&((x0 + x1) / 2.0, v));
                let y = if v < base { py + 12 } else { py - 4 };
                text.put(px, y, Anchor::Middle, Some("plot-value"), &[label]);
            }
        }
    }
    // Axis titles.
    let x_title_y = plan.height - 10;
    text.sized(
        (l + r) / 2,
        x_title_y,
        Anchor::Middle,
        "plot-axis-title",
        plan.x_title_size,
        None,
        &data.x_title,
    );
    text.sized(
        plan.y_title_x,
        (t + b) / 2,
        Anchor::Middle,
        "plot-axis-title",
        plan.y_title_size,
        Some(-90),
        &data.y_title,
    );
    for item in &plan.legend {
        let dx = match spec.kind {
            ChartKind::Line | ChartKind::Cdf => 22,
            _ => 18,
        };
        text.put(
            item.x + dx,
            item.y + 11,
            Anchor::Start,
            Some("plot-legend"),
            &item.lines,
        );
    }

    // The document.
    let id = chart_id(input);
    let mut svg = String::with_capacity(grid.len() + axes.len() + marks.len() + 4096);
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot plot-{kind}\" \
         viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\"{narrow} role=\"img\" \
         aria-labelledby=\"{id}-title {id}-desc\">\n\
         <title id=\"{id}-title\">{title}</title>\n\
         <desc id=\"{id}-desc\">{desc}</desc>\n",
        kind = spec.kind.as_str(),
        w = plan.width,
        h = plan.height,
        // A drawing narrower than most is shown at the scale they are
        // (style.css reads its width), not stretched to the column.
        narrow = if plan.width < BASE_WIDTH {
            format!(" style=\"--chart-w: {}\"", plan.width)
        } else {
            String::new()
        },
        title = escape_html(&one_line(&spec.title)),
        desc = escape_html(summary),
    );
    let _ = write!(
        svg,
        "<g class=\"plot-grid\" shape-rendering=\"crispEdges\">\n{}</g>\n",
        to_current_color(&grid)
    );
    let _ = write!(
        svg,
        "<g class=\"plot-marks\">\n{}</g>\n",
        marks.replace(" opacity=\"1\"", "")
    );
    let _ = write!(
        svg,
        "<g class=\"plot-axes\" shape-rendering=\"crispEdges\">\n{}</g>\n",
        to_current_color(&axes)
    );
    if !rules.is_empty() {
        let _ = write!(
            svg,
            "<g class=\"plot-rules\" stroke=\"currentColor\" stroke-width=\"1.5\" \
             stroke-dasharray=\"6 4\" shape-rendering=\"crispEdges\">\n{rules}</g>\n"
        );
    }
    let _ = write!(
        svg,
        "<g class=\"plot-labels\" fill=\"currentColor\" font-size=\"{}\">\n{}</g>\n</svg>\n",
        FONT, text.buf
    );
    Ok(svg)
}

#[derive(Clone, Copy)]
enum Anchor {
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

/// Text elements, written by hand (plotters cannot measure text without font
/// files, and its SVG text names a font family).
#[derive(Default)]
struct Text {
    buf: String,
}

impl Text {
    fn put(&mut self, x: i32, y: i32, anchor: Anchor, class: Option<&str>, lines: &[String]) {
        self.element(x, y, anchor, class, None, None, lines);
    }

    fn rotated(&mut self, x: i32, y: i32, angle: i32, anchor: Anchor, lines: &[String]) {
        self.element(x, y, anchor, None, None, Some(angle), lines);
    }

    #[allow(clippy::too_many_arguments)]
    fn sized(
        &mut self,
        x: i32,
        y: i32,
        anchor: Anchor,
        class: &str,
        size: f64,
        angle: Option<i32>,
        s: &str,
    ) {
        let size = (size != FONT).then_some(size);
        self.element(x, y, anchor, Some(class), size, angle, &[s.to_string()]);
    }

    #[allow(clippy::too_many_arguments)]
    fn element(
        &mut self,
        x: i32,
        y: i32,
        anchor: Anchor,
        class: Option<&str>,
        size: Option<f64>,
        angle: Option<i32>,
        lines: &[String],
    ) {
        if lines.iter().all(|l| l.is_empty()) {
            return;
        }
        let b = &mut self.buf;
        let _ = write!(b, "<text x=\"{x}\" y=\"{y}\"{}", anchor.attr());
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
                    "<tspan x=\"{x}\" dy=\"{LINE_H}\">{}</tspan>",
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
