//! The drawing backend: where plotters hands over what it laid out, and
//! the `<svg>` a page embeds is written. [`ColumnSvg`] implements the
//! [`DrawingBackend`] trait plotters publishes (as its own SVG backend,
//! plotters-svg, does); it writes what plotters-svg cannot: a chart as wide
//! as its column, strokes that do not scale, text that keeps its size,
//! classes and `currentColor` for the page's theme, links on points.
//!
//! plotters draws on a canvas of [`PLOT_UNITS`] across for the plot (plus
//! its margins in px), one pixel a unit down. The backend reads each x
//! against that plot: left of it, px from the plot's left edge (the y
//! axis's labels and title, written in the root's padding); inside it, a
//! share of the plot's width (`x="37.5%"`), so that whatever runs along
//! the x axis follows the column's width while its text keeps its size.
//! The data marks (bars, lines, bands) are written in a nested `<svg>` of
//! [`PLOT_UNITS`] across, stretched over the plot, their strokes
//! non-scaling; round dots are round-capped strokes of no length, which
//! stay round however the plot is stretched.
//!
//! What a primitive is for comes from the [`Layer`] the chart code draws
//! in (set between plotters calls through [`Layers`]): the mesh's lines
//! (grid, faint; axes and ticks, opaque) and labels are the page's colour
//! (`currentColor`, for dark mode), whatever colour plotters was given;
//! marks keep their series' colours; a legend's keys are placed in px
//! from the plot's left edge; a marker (a point with its whisker, a
//! flagged or regressed point) is drawn in px around its centre, which
//! stands at its share of the width. A text's role (tick label, axis
//! title, legend, value, rule) travels as its font family's name: the
//! SVG names no font family, so the page's font applies. Text is measured
//! with [`super::text::text_width`] (no font files are read).

mod document;
mod markers;
mod write;

pub(super) use document::{document, Root};
use write::{
    circle_paint, hex, opacity, push_escaped, push_int, push_pair, push_rect, push_x, Paint, X,
};

use super::text::text_width;
use crate::util::escape_html;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};
use std::cell::RefCell;
use std::fmt::Write as _;
use std::rc::Rc;

/// The plot's own units across: plotters lays the plot out this wide,
/// and the marks are drawn in a nested drawing of this width stretched
/// over the column.
pub(super) const PLOT_UNITS: i32 = 1000;
/// The height of one line of text, in px.
pub(super) const LINE_H: i32 = 14;

/// What the chart code is drawing, which says how each primitive is
/// written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Layer {
    /// The mesh: grid lines (drawn faint), axes and ticks, tick labels
    /// and axis titles, in the page's colour.
    Chrome,
    /// The data: bars, lines, bands, dots, in their series' colours.
    Marks,
    /// Marks of the spec (a concurrency asked for): dashed rules.
    Rules,
    /// The legend: keys in px from the plot's left edge.
    Keys,
    /// Markers drawn in px around their centre: a point with its whisker.
    Markers,
}

/// A text's role, named as its font family: becomes its class.
pub(super) mod role {
    /// A tick or category label.
    pub(crate) const TICK: &str = "plot-tick";
    /// An axis title.
    pub(crate) const AXIS_TITLE: &str = "plot-axis-title";
    /// A legend entry.
    pub(crate) const LEGEND: &str = "plot-legend";
    /// A value over a bar.
    pub(crate) const VALUE: &str = "plot-value";
    /// A rule's label.
    pub(crate) const RULE: &str = "plot-rule";
    /// A marker's label (a regression's change).
    pub(crate) const MARKER: &str = "plot-marker-label";
}

/// Where the plot stands on the canvas plotters draws on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    /// The plot's left edge, in canvas px (the left margin's width).
    pub(super) left: i32,
    /// Its top and bottom, in px.
    pub(super) top: i32,
    pub(super) bottom: i32,
    /// The canvas: margins and the plot's [`PLOT_UNITS`].
    pub(super) width: u32,
    pub(super) height: u32,
}

impl Frame {
    fn x(&self, x: i32) -> X {
        let rel = x - self.left;
        if (0..=PLOT_UNITS).contains(&rel) {
            X::Share(f64::from(rel) / f64::from(PLOT_UNITS))
        } else if rel > PLOT_UNITS {
            X::Share(1.0)
        } else {
            X::Px(rel)
        }
    }
}

/// The parts of the document as they are drawn, each a group of its own.
#[derive(Default)]
pub(super) struct Parts {
    layer: Option<Layer>,
    /// The link the markers drawn now sit in: (href, label).
    link: Option<(String, String)>,
    /// Whether its `<a>` is open.
    link_open: bool,
    /// The colour and stroke width the markers drawn now take from the
    /// group around them.
    paint: Option<(BackendColor, u32)>,
    grid: String,
    marks: String,
    axes: String,
    rules: String,
    keys: String,
    markers: String,
    labels: String,
    /// Dots of one colour, size and opacity waiting to be written as one
    /// path: `M x y h0` each.
    dots: Option<(String, u32, String)>,
    /// The anchor markers are drawn around now (a share of the width).
    anchor: Option<i32>,
    /// The class of the marks' and markers' shapes drawn now.
    class: Option<&'static str>,
    /// A marker's lines waiting to be written as one path (a whisker and
    /// its caps): its `d`, and its attributes.
    lines: Option<(String, String)>,
}

/// The chart code's hold on the backend's state while plotters owns the
/// backend: the layer drawn in, links, and the parts once drawn.
#[derive(Clone, Default)]
pub(super) struct Layers(Rc<RefCell<Parts>>);

impl Layers {
    /// Draw what follows as `layer`.
    pub(super) fn set(&self, layer: Layer) {
        let mut p = self.0.borrow_mut();
        p.flush_dots();
        p.close_paint();
        p.layer = Some(layer);
    }

    /// The markers drawn until [`Layers::unlink`] link to `href`, and say
    /// `label` (on hover and to assistive technology).
    pub(super) fn link(&self, href: &str, label: &str) {
        let mut p = self.0.borrow_mut();
        p.end_link();
        p.link = Some((href.to_string(), label.to_string()));
    }

    /// The markers drawn next take `paint` (a colour and a stroke width)
    /// from a group around them, until it is set again: a series' points.
    pub(super) fn paint(&self, paint: Option<(BackendColor, u32)>) {
        let mut p = self.0.borrow_mut();
        match paint {
            Some((c, w)) => p.open_paint(c, w),
            None => p.close_paint(),
        }
    }

    /// The dots and shapes of markers drawn next carry `class`.
    pub(super) fn class(&self, class: Option<&'static str>) {
        self.0.borrow_mut().class = class;
    }

    /// Ends the link.
    pub(super) fn unlink(&self) {
        self.0.borrow_mut().end_link();
    }
}

/// The backend plotters draws on.
pub(super) struct ColumnSvg {
    frame: Frame,
    parts: Layers,
}

impl ColumnSvg {
    pub(super) fn new(frame: Frame, parts: Layers) -> Self {
        ColumnSvg { frame, parts }
    }

    /// A label turned 45° down to the left, hanging from 8 px under
    /// `at`: in a nested drawing placed at its share of the width, since
    /// a rotation needs its centre in px.
    pub(super) fn turned_text(&mut self, at: BackendCoord, lines: &[String]) {
        if lines.iter().all(|l| l.is_empty()) {
            return;
        }
        let x = self.frame.x(at.0);
        let y = at.1 + 8;
        let mut p = self.parts.0.borrow_mut();
        let b = &mut p.labels;
        let _ = write!(
            b,
            "<svg x=\"{x}\" y=\"{y}\" width=\"1\" height=\"1\" overflow=\"visible\">\
             <text x=\"4\" y=\"4\" text-anchor=\"end\" transform=\"rotate(-45 4 4)\">"
        );
        for (i, line) in lines.iter().enumerate() {
            if i == 0 {
                b.push_str(&escape_html(line));
            } else {
                let _ = write!(
                    b,
                    "<tspan x=\"4\" dy=\"{LINE_H}\">{}</tspan>",
                    escape_html(line)
                );
            }
        }
        b.push_str("</text></svg>\n");
    }
}

impl Parts {
    fn layer(&self) -> Layer {
        self.layer.unwrap_or(Layer::Chrome)
    }

    fn flush_dots(&mut self) {
        if let Some((d, size, attrs)) = self.dots.take() {
            let _ = writeln!(
                self.marks,
                "<path class=\"plot-dots\" d=\"{d}\"{attrs} stroke-width=\"{size}\" \
                 stroke-linecap=\"round\" vector-effect=\"non-scaling-stroke\"/>"
            );
        }
    }

    fn class_attr(&self) -> String {
        self.class
            .map(|c| format!(" class=\"{c}\""))
            .unwrap_or_default()
    }
}

/// What drawing into a string cannot do: fail.
#[derive(Debug)]
pub(super) struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no error")
    }
}

impl std::error::Error for Never {}

type Res = Result<(), DrawingErrorKind<Never>>;

impl DrawingBackend for ColumnSvg {
    type ErrorType = Never;

    fn get_size(&self) -> (u32, u32) {
        (self.frame.width, self.frame.height)
    }

    fn ensure_prepared(&mut self) -> Res {
        Ok(())
    }

    fn present(&mut self) -> Res {
        let mut p = self.parts.0.borrow_mut();
        p.flush_dots();
        p.close_paint();
        Ok(())
    }

    fn draw_pixel(&mut self, _point: BackendCoord, _color: BackendColor) -> Res {
        // Nothing here draws a pixel alone: every shape is written whole.
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Res {
        self.draw_path([from, to], style)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Res {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let f = self.frame;
        let pts: Vec<BackendCoord> = path.into_iter().collect();
        if pts.len() < 2 {
            return Ok(());
        }
        let mut p = self.parts.0.borrow_mut();
        match p.layer() {
            Layer::Chrome | Layer::Rules => {
                // Straight lines of the mesh, across or along the plot.
                let (a, b) = (pts[0], pts[pts.len() - 1]);
                let out = if p.layer() == Layer::Rules {
                    &mut p.rules
                } else if c.alpha < 1.0 {
                    &mut p.grid
                } else {
                    &mut p.axes
                };
                out.push_str("<line x1=\"");
                push_x(out, f.x(a.0));
                out.push_str("\" y1=\"");
                push_int(out, i64::from(a.1));
                out.push_str("\" x2=\"");
                push_x(out, f.x(b.0));
                out.push_str("\" y2=\"");
                push_int(out, i64::from(b.1));
                out.push_str("\"/>\n");
            }
            Layer::Marks => {
                p.flush_dots();
                let mut d = String::with_capacity(pts.len() * 8);
                let mut last = None;
                for (x, y) in &pts {
                    // Points that fall on one pixel are written once.
                    if last == Some((x, y)) {
                        continue;
                    }
                    if last.is_some() {
                        d.push(' ');
                    }
                    last = Some((x, y));
                    push_pair(&mut d, x - f.left, y - f.top, ',');
                }
                let class = p.class_attr();
                let _ = writeln!(
                    p.marks,
                    "<polyline{} points=\"{d}\" fill=\"none\" stroke=\"{}\"{} stroke-width=\"{}\" \
                     stroke-linejoin=\"round\" vector-effect=\"non-scaling-stroke\"/>",
                    class,
                    hex(c),
                    opacity("stroke-opacity", c.alpha),
                    style.stroke_width()
                );
            }
            Layer::Keys if pts.len() == 2 => {
                let (a, b) = (pts[0], pts[1]);
                let _ = writeln!(
                    p.keys,
                    "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
                    a.0 - f.left,
                    a.1,
                    b.0 - f.left,
                    b.1,
                    hex(c),
                    style.stroke_width()
                );
            }
            Layer::Keys => {
                let mut d = String::new();
                for (i, (x, y)) in pts.iter().enumerate() {
                    let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, x - f.left, y);
                }
                let _ = writeln!(
                    p.keys,
                    "<path d=\"{d}\" stroke=\"{}\" stroke-width=\"{}\"/>",
                    hex(c),
                    style.stroke_width()
                );
            }
            Layer::Markers => {
                let cx = (pts.iter().map(|q| q.0).min().unwrap_or(0)
                    + pts.iter().map(|q| q.0).max().unwrap_or(0))
                    / 2;
                p.anchor_at(&f, cx);
                let mut d = String::new();
                let around: Vec<(i32, i32)> = pts.iter().map(|&(x, y)| (x - cx, y)).collect();
                markers::push_path(&mut d, &around);
                let attrs = format!(
                    "{}{}",
                    p.class_attr(),
                    p.stroke_attrs(c, style.stroke_width())
                );
                // Lines of one look around one centre are one path.
                match &mut p.lines {
                    Some((dd, a)) if *a == attrs => dd.push_str(&d),
                    _ => {
                        p.flush_lines();
                        p.lines = Some((d, attrs));
                    }
                }
            }
        }
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        ul: BackendCoord,
        br: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Res {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let f = self.frame;
        let mut p = self.parts.0.borrow_mut();
        let (x0, x1) = (ul.0.min(br.0), ul.0.max(br.0));
        let (y0, y1) = (ul.1.min(br.1), ul.1.max(br.1));
        let paint = Paint(c, style.stroke_width(), fill);
        match p.layer() {
            Layer::Keys | Layer::Chrome | Layer::Rules => {
                push_rect(&mut p.keys, (x0 - f.left, y0, x1 - x0, y1 - y0), paint);
                p.keys.push('\n');
            }
            Layer::Marks => {
                p.flush_dots();
                push_rect(
                    &mut p.marks,
                    (x0 - f.left, y0 - f.top, x1 - x0, y1 - y0),
                    paint,
                );
                p.marks.push('\n');
            }
            Layer::Markers => {
                let cx = (x0 + x1) / 2;
                p.anchor_at(&f, cx);
                p.flush_lines();
                let none = if fill { p.no_stroke() } else { "" };
                let _ = write!(
                    p.markers,
                    "<rect x=\"{}\" y=\"{y0}\" width=\"{}\" height=\"{}\" {paint}{none}/>",
                    x0 - cx,
                    x1 - x0,
                    y1 - y0
                );
            }
        }
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Res {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let f = self.frame;
        let mut p = self.parts.0.borrow_mut();
        match p.layer() {
            Layer::Marks if fill => {
                // A dot: a stroke of no length with round caps, as wide
                // as the circle, whatever the plot's stretch. Dots of one
                // look go into one path.
                let attrs = format!(
                    " stroke=\"{}\"{}",
                    hex(c),
                    opacity("stroke-opacity", c.alpha)
                );
                let size = radius * 2;
                match &mut p.dots {
                    Some((d, s, a)) if *s == size && *a == attrs => {
                        d.push('M');
                        push_pair(d, center.0 - f.left, center.1 - f.top, ' ');
                        d.push_str("h0");
                    }
                    _ => {
                        p.flush_dots();
                        p.dots = Some((
                            format!("M{} {}h0", center.0 - f.left, center.1 - f.top),
                            size,
                            attrs,
                        ));
                    }
                }
            }
            Layer::Keys | Layer::Chrome | Layer::Rules => {
                let paint = circle_paint(c, style.stroke_width(), fill);
                let _ = writeln!(
                    p.keys,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{radius}\" {paint}/>",
                    center.0 - f.left,
                    center.1
                );
            }
            Layer::Marks | Layer::Markers => {
                p.anchor_at(&f, center.0);
                p.flush_lines();
                let class = p.class_attr();
                let w = style.stroke_width();
                match p.dot_radius(c, radius).filter(|_| fill) {
                    // A dot of its group's colour: the group's stroke,
                    // half of it outside, makes up its radius.
                    Some(r) => {
                        let _ = write!(p.markers, "<circle{class} cy=\"{}\" r=\"{r}\"/>", center.1);
                    }
                    None if fill => {
                        let none = p.no_stroke();
                        let _ = write!(
                            p.markers,
                            "<circle{class} cy=\"{}\" r=\"{radius}\" {}{none}/>",
                            center.1,
                            Paint(c, w, true)
                        );
                    }
                    None => {
                        // A hollow point is a link too: its inside takes
                        // the pointer (`transparent`, not `none`).
                        let attrs = p.stroke_attrs(c, w);
                        let _ = write!(
                            p.markers,
                            "<circle{class} cy=\"{}\" r=\"{radius}\" fill=\"transparent\"{attrs}/>",
                            center.1
                        );
                    }
                }
            }
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Res {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let f = self.frame;
        let pts: Vec<BackendCoord> = vert.into_iter().collect();
        let mut p = self.parts.0.borrow_mut();
        let layer = p.layer();
        let (dx, dy) = match layer {
            Layer::Markers => {
                let cx = (pts.iter().map(|q| q.0).min().unwrap_or(0)
                    + pts.iter().map(|q| q.0).max().unwrap_or(0))
                    / 2;
                p.anchor_at(&f, cx);
                p.flush_lines();
                (cx, 0)
            }
            Layer::Marks => {
                p.flush_dots();
                (f.left, f.top)
            }
            _ => (f.left, 0),
        };
        let mut d = String::with_capacity(pts.len() * 8);
        for (i, (x, y)) in pts.iter().enumerate() {
            if i > 0 {
                d.push(' ');
            }
            push_pair(&mut d, x - dx, y - dy, ',');
        }
        let class = match layer {
            Layer::Markers | Layer::Marks => p.class_attr(),
            _ => String::new(),
        };
        let none = match layer {
            Layer::Markers => p.no_stroke(),
            _ => "",
        };
        let el = format!(
            "<polygon{class} points=\"{d}\" fill=\"{}\"{}{none}/>",
            hex(c),
            opacity("fill-opacity", c.alpha)
        );
        match layer {
            Layer::Markers => p.markers.push_str(&el),
            Layer::Marks => {
                p.marks.push_str(&el);
                p.marks.push('\n');
            }
            _ => {
                p.keys.push_str(&el);
                p.keys.push('\n');
            }
        }
        Ok(())
    }

    fn draw_text<T: BackendTextStyle>(&mut self, text: &str, style: &T, pos: BackendCoord) -> Res {
        if text.is_empty() || style.color().alpha == 0.0 {
            return Ok(());
        }
        let f = self.frame;
        let size = style.size();
        let n = text.matches('\n').count() as i32 + 1;
        let anchor = style.anchor();
        // plotters places a text by a corner or middle of its box; SVG by
        // its first baseline.
        let first_baseline = match anchor.v_pos {
            VPos::Top => (size * 0.8).round() as i32,
            VPos::Center => (size * 0.35).round() as i32 - (n - 1) * LINE_H / 2,
            VPos::Bottom => -(size * 0.2).round() as i32 - (n - 1) * LINE_H,
        };
        let text_anchor = match anchor.h_pos {
            HPos::Left => "",
            HPos::Center => " text-anchor=\"middle\"",
            HPos::Right => " text-anchor=\"end\"",
        };
        let family = style.family();
        let class = match family.as_str() {
            "" | "sans-serif" | super::backend::role::TICK => None,
            r => Some(r),
        };
        let own_size = (size - super::layout::FONT).abs() >= 0.01;
        let mut p = self.parts.0.borrow_mut();
        // A legend's text is placed in px from the plot's left edge, as
        // its keys are.
        let x = if p.layer() == Layer::Keys {
            X::Px(pos.0 - f.left)
        } else {
            f.x(pos.0)
        };
        let y = pos.1;
        let b = &mut p.labels;
        let turned = matches!((style.transform(), x), (FontTransform::Rotate270, X::Px(_)));
        let baseline = if turned { y } else { y + first_baseline };
        b.push_str("<text x=\"");
        push_x(b, x);
        b.push_str("\" y=\"");
        push_int(b, i64::from(baseline));
        b.push('"');
        b.push_str(text_anchor);
        if let Some(c) = class {
            b.push_str(" class=\"");
            b.push_str(c);
            b.push('"');
        }
        if own_size {
            let _ = write!(b, " font-size=\"{size}\"");
        }
        if turned {
            // Turned a quarter left: what runs down the text's box runs
            // right on the page.
            let _ = write!(
                b,
                " transform=\"rotate(-90 {x} {y})\" dy=\"{first_baseline}\""
            );
        }
        b.push('>');
        for (i, line) in text.split('\n').enumerate() {
            if i == 0 {
                push_escaped(b, line);
            } else {
                let _ = write!(b, "<tspan x=\"{x}\" dy=\"{LINE_H}\">");
                push_escaped(b, line);
                b.push_str("</tspan>");
            }
        }
        b.push_str("</text>\n");
        Ok(())
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<Never>> {
        let size = style.size();
        let w = text
            .split('\n')
            .map(|l| text_width(l, size))
            .fold(0.0, f64::max);
        let lines = text.split('\n').count() as u32;
        Ok((
            w.ceil() as u32,
            size.ceil() as u32 + (lines - 1) * LINE_H as u32,
        ))
    }
}
