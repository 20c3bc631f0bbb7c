//! Drawing a run's chart with plotters: a [`ChartBuilder`] over the plan's
//! margins and label areas, the mesh (grid, axes, ticks, tick labels and
//! axis titles) configured from the plan's axes, the data as plotters
//! series and elements (rectangles for bars, [`LineSeries`] for lines and
//! distributions, circles for scatter points, text for the values over
//! bars), the spec's marks as rules, and the legend. All of it lands on
//! [`ColumnSvg`], our backend, which writes the `<svg>`. Takes the chart
//! input, data, plan and summary; hands [`render`](super::render) the SVG.
//!
//! Two things are drawn beside the mesh rather than by it: category labels
//! turned 45° (plotters turns text by quarters only, and places a turned
//! tick label across its tick), as [`Turned`] elements; and the legend,
//! which flows into rows above the plot as the plan laid it out
//! (plotters' series labels stack in a box inside the plot, measured with
//! its own font metrics rather than the backend's), as plotters elements.

use super::backend::{role, ColumnSvg, Frame, Layer, Layers, Root, PLOT_UNITS};
use super::data::{Data, Rgb, Values};
use super::layout::{CatLabels, Plan, FONT, GROUP_WIDTH, MIN_FONT, VALUE_FONT};
use super::scale::Coord;
use super::text::one_line;
use super::ChartInput;
use crate::record::ChartKind;
use plotters::coord::Shift;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{BackendCoord, DrawingErrorKind};

/// Bars of a category: the x span of a lane, in categories.
pub(super) fn lane_span(cat: usize, lane: usize, lanes: usize) -> (f64, f64) {
    let lanes = lanes.max(1) as f64;
    let lane_w = GROUP_WIDTH / lanes;
    let x0 = cat as f64 + (1.0 - GROUP_WIDTH) / 2.0 + lane as f64 * lane_w;
    // A thin gap between neighbouring bars of a group.
    let gap = if lanes > 1.0 { lane_w * 0.08 } else { 0.0 };
    (x0 + gap, x0 + lane_w - gap)
}

/// A plotters colour of ours.
pub(super) fn color(c: Rgb) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

/// A text style of `size` px in `role` (see [`role`]).
pub(super) fn text(role: &'static str, size: f64) -> TextStyle<'static> {
    TextStyle::from((FontFamily::Name(role), size)).color(&BLACK)
}

/// The page's colour: chrome is written as `currentColor` whatever it is
/// given; the grid is told apart by its opacity.
pub(super) const INK: RGBColor = BLACK;

/// A category label turned 45° down to the left from under its slot:
/// drawn by the backend (plotters turns text by quarters only).
pub(super) struct Turned {
    pub(super) at: (f64, f64),
    pub(super) lines: Vec<String>,
}

impl<'a> PointCollection<'a, (f64, f64)> for &'a Turned {
    type Point = &'a (f64, f64);
    type IntoIter = std::iter::Once<&'a (f64, f64)>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.at)
    }
}

impl Drawable<ColumnSvg> for Turned {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut pos: I,
        backend: &mut ColumnSvg,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<super::backend::Never>> {
        if let Some(p) = pos.next() {
            backend.turned_text(p, &self.lines);
        }
        Ok(())
    }
}

/// The frame of a plan: the canvas plotters draws on.
pub(super) fn frame(left: i32, right: i32, top: i32, bottom: i32, height: i32) -> Frame {
    Frame {
        left,
        top,
        bottom,
        // plotters maps an axis's range onto its area's pixels less the
        // last: a plot PLOT_UNITS + 1 px across spans PLOT_UNITS exactly.
        width: (left + PLOT_UNITS + 1 + right) as u32,
        height: height as u32,
    }
}

/// The mesh of a chart: grid lines at the value ticks (and at the x
/// ticks where `x_grid`), the axes with ticks 5 px long, tick labels, and
/// the axis titles at `title_size`.
#[allow(clippy::too_many_arguments)]
pub(super) fn mesh(
    chart: &mut ChartContext<'_, ColumnSvg, Cartesian2d<Coord, Coord>>,
    x: &super::scale::Axis,
    y: &super::scale::Axis,
    x_grid: bool,
    x_title: &str,
    y_title: &str,
    title_size: f64,
) -> Result<(), DrawingAreaErrorKind<super::backend::Never>> {
    let x_label = |v: &f64| x.label(*v);
    let y_label = |v: &f64| y.label(*v);
    let mut m = chart.configure_mesh();
    m.bold_line_style(INK.mix(0.15))
        .light_line_style(TRANSPARENT)
        .axis_style(INK)
        .set_all_tick_mark_size(5)
        .x_labels(x.ticks.len())
        .y_labels(y.ticks.len())
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .label_style(text(role::TICK, FONT))
        .axis_desc_style(text(role::AXIS_TITLE, title_size))
        .x_desc(x_title)
        .y_desc(y_title);
    if !x_grid {
        m.disable_x_mesh();
    }
    m.draw()
}

pub(super) fn draw(input: &ChartInput, data: &Data, plan: &Plan, summary: &str) -> String {
    let layers = Layers::default();
    let fr = frame(plan.left, plan.right, plan.top, plan.bottom, plan.height);
    // Drawing into a string cannot fail: the backend's error type has no
    // value, so a result here is always Ok.
    let _ = plot(input, data, plan, &layers, fr);
    let id = chart_id(input);
    super::backend::document(
        &fr,
        &layers,
        &Root {
            class: &format!("plot plot-{}", input.spec.kind.as_str()),
            role: "img",
            id: &id,
            title: &one_line(&input.spec.title),
            desc: summary,
            right: plan.right,
            min_width: plan.min_width,
            max_width: plan.max_width,
        },
    )
}

type DrawResult = Result<(), DrawingAreaErrorKind<super::backend::Never>>;

fn plot(input: &ChartInput, data: &Data, plan: &Plan, layers: &Layers, fr: Frame) -> DrawResult {
    let spec = input.spec;
    let root: DrawingArea<ColumnSvg, Shift> =
        ColumnSvg::new(fr, layers.clone()).into_drawing_area();
    let bars = matches!(data.values, Values::Bars { .. });
    let mut chart = ChartBuilder::on(&root)
        .margin_top(plan.top)
        .margin_left(8)
        .margin_right(plan.right)
        .margin_bottom(7)
        .x_label_area_size(plan.height - plan.bottom - 8)
        .y_label_area_size(plan.left - 8)
        .build_cartesian_2d(plan.x.coord(), plan.y.coord())?;

    layers.set(Layer::Chrome);
    let title_size = plan.x_title.size.min(plan.y_title.size).max(MIN_FONT);
    mesh(
        &mut chart,
        &plan.x,
        &plan.y,
        !bars,
        &plan.x_title.lines.join("\n"),
        &plan.y_title.lines.join("\n"),
        title_size,
    )?;
    // A zero line across bars that go below it.
    if bars && !plan.y.log && plan.y.lo < 0.0 && plan.y.hi > 0.0 {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(plan.x.lo, 0.0), (plan.x.hi, 0.0)],
            INK,
        )))?;
    }
    if let Some(CatLabels::Rotated(labels)) = &plan.cat_labels {
        // Under the axis, 8 px down: turned labels hang from there.
        let y = plan.y.lo;
        chart.draw_series(labels.iter().enumerate().map(|(i, lines)| Turned {
            at: (i as f64 + 0.5, y),
            lines: lines.clone(),
        }))?;
    }

    layers.set(Layer::Marks);
    match &data.values {
        Values::Bars { lanes, bars, .. } => {
            let base = if plan.y.log { plan.y.lo } else { 0.0 };
            chart.draw_series(bars.iter().filter_map(|b| {
                let v = b.value?;
                let (x0, x1) = lane_span(b.cat, b.lane, *lanes);
                let c = color(data.series.list[b.series].color);
                Some(Rectangle::new([(x0, v), (x1, base)], c.filled()))
            }))?;
            if plan.value_labels {
                chart.draw_series(bars.iter().map(|bar| {
                    let (x0, x1) = lane_span(bar.cat, bar.lane, *lanes);
                    let (label, v) = match bar.value {
                        Some(v) => (bar.text.clone(), v),
                        None => ("n/a".to_string(), base),
                    };
                    let v_pos = if v < base { VPos::Top } else { VPos::Bottom };
                    let style = text(role::VALUE, VALUE_FONT).pos(Pos::new(HPos::Center, v_pos));
                    let gap = if v < base { 2 } else { -4 };
                    EmptyElement::at(((x0 + x1) / 2.0, v)) + Text::new(label, (0, gap), style)
                }))?;
            }
        }
        Values::Points(series) => {
            for (s, points) in series.iter().enumerate() {
                let c = color(data.series.list[s].color);
                let xy = points.iter().map(|p| (p.x, p.y));
                match spec.kind {
                    ChartKind::Line => {
                        chart.draw_series(
                            LineSeries::new(xy, c.filled().stroke_width(2)).point_size(3),
                        )?;
                    }
                    // A distribution's steps have no dot at each: there
                    // may be hundreds.
                    ChartKind::Cdf => {
                        chart.draw_series(LineSeries::new(xy, c.stroke_width(2)))?;
                    }
                    _ => {
                        chart.draw_series(xy.map(|p| Circle::new(p, 4, c.mix(0.85).filled())))?;
                    }
                }
            }
        }
    }

    // The spec's marks: a dashed rule across the plot, its label above
    // the rule's right end.
    if !data.marks.is_empty() {
        layers.set(Layer::Rules);
        for (y, label) in &data.marks {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(plan.x.lo, *y), (plan.x.hi, *y)],
                INK,
            )))?;
            let style = text(role::RULE, FONT).pos(Pos::new(HPos::Right, VPos::Bottom));
            chart.draw_series(std::iter::once(Text::new(
                one_line(label),
                (plan.x.hi, *y),
                style,
            )))?;
        }
    }

    // The legend: keys and names, in px from the plot's left edge.
    layers.set(Layer::Keys);
    for item in &plan.legend {
        let c = color(data.series.list[item.series].color);
        let (x, cy) = (plan.left + item.x, item.y + 7);
        let key: DynElement<ColumnSvg, (i32, i32)> = match spec.kind {
            ChartKind::Bar | ChartKind::GroupedBar => {
                Rectangle::new([(x, cy - 6), (x + 12, cy + 6)], c.filled()).into_dyn()
            }
            ChartKind::Line => (EmptyElement::at((x, cy))
                + PathElement::new(vec![(0, 0), (16, 0)], c.stroke_width(2))
                + Circle::new((8, 0), 3, c.filled()))
            .into_dyn(),
            ChartKind::Cdf => {
                PathElement::new(vec![(x, cy), (x + 16, cy)], c.stroke_width(2)).into_dyn()
            }
            ChartKind::Scatter => Circle::new((x + 6, cy), 4, c.mix(0.85).filled()).into_dyn(),
        };
        root.draw(&key)?;
        let dx = match spec.kind {
            ChartKind::Line | ChartKind::Cdf => 22,
            _ => 18,
        };
        root.draw(&Text::new(
            item.lines.join("\n"),
            (x + dx, item.y + 7),
            text(role::LEGEND, FONT).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    root.present()
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
