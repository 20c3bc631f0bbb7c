//! A trend chart: one metric of one workload against engine version, in
//! version order, one line per series (an engine on its hardware), each
//! point linked to its run, its noise drawn as a whisker with caps from
//! its low to its high end and as a band along its series' line, a point
//! whose run a check flags drawn hollow, and a point whose change from
//! the version before is a regression (as the site's model judged it:
//! [`TrendPoint::regression`]) drawn as a triangle with the change
//! written under it.
//!
//! It shares its drawing with the accuracy chart (`interval.rs`): values
//! over categories (versions, settings), evenly spaced, drawn with
//! plotters on our backend at one pixel a unit and as wide as its column,
//! laid out for the narrowest width a chart takes ([`DESIGN_WIDTH`], a
//! phone's), text never below 11 px. Category labels lie flat where they
//! fit, else turn 45°, and where even turned they would crowd, every
//! second (third, …) is labelled, the last always; the table under the
//! chart names every point. A whisker's caps are 14 px wide and its dot 7
//! px, so a whisker shorter than its dot still shows as a bar through it:
//! the noise is that small.
//!
//! Takes a [`TrendChart`]; hands back a [`RenderedChart`].

use super::backend::{role, ColumnSvg, Layer, Layers, Root};
use super::draw::{frame, mesh, text, Turned};
use super::layout::{fit_title, widest_label, DESIGN_WIDTH, FONT, LINE_H, MIN_FONT};
use super::scale::{linear_axis, Axis};
use super::text::{one_line, text_width, wrap};
use super::RenderedChart;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The plot's height: lower than a run chart's, as a workload's page
/// shows a chart per metric.
const PLOT_H: i32 = 220;
/// Half a whisker cap's width, px.
const CAP: i32 = 7;
/// The colour of a regression's mark: Okabe-Ito's vermillion, which reads
/// on a light and a dark page; its shape and label say it without colour.
const REGRESSION: RGBColor = RGBColor(0xD5, 0x5E, 0x00);

/// A series of a trend chart.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendSeries {
    /// Its name in the legend (`llama.cpp on Radeon 8060S Graphics`).
    pub name: String,
    /// Its colour, `#rrggbb`.
    pub color: String,
    /// The line through it: (version's index, value, low, high), the
    /// value each version's changes are judged by and its noise, which a
    /// band around the line shows.
    pub line: Vec<(usize, f64, f64, f64)>,
}

/// A point of a trend chart.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendPoint {
    /// Its series, an index into [`TrendChart::series`].
    pub series: usize,
    /// Its version, an index into [`TrendChart::versions`].
    pub version: usize,
    /// Its value, and its noise's low and high ends.
    pub value: f64,
    /// The low end.
    pub low: f64,
    /// The high end.
    pub high: f64,
    /// Drawn hollow: a check flags its run.
    pub hollow: bool,
    /// The change that makes it a regression, as the pages write it
    /// (`−2.5%`), where the site's model judged the change into its
    /// version a regression; drawn as a triangle with this under it.
    pub regression: Option<String>,
    /// Where it links: its run's page.
    pub href: String,
    /// What it says to a reader's assistive technology and on hover
    /// (`llama.cpp 8577: 1,577.96 tok/s ±12.64, run lb-8577`).
    pub label: String,
}

/// What [`trend`] draws.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendChart {
    /// Its id on the page (unique there).
    pub id: String,
    /// Its title.
    pub title: String,
    /// The y axis's title (`Tokens a second (tok/s)`).
    pub y_title: String,
    /// The versions, in version order.
    pub versions: Vec<String>,
    /// The series.
    pub series: Vec<TrendSeries>,
    /// The points.
    pub points: Vec<TrendPoint>,
    /// Its description in one line of plain text.
    pub summary: String,
}

/// Draws `c` as SVG.
pub fn trend(c: &TrendChart) -> RenderedChart {
    let svg = categorical(&Categorical {
        id: &c.id,
        class: "plot plot-trend",
        title: &c.title,
        x_title: "Engine version, in version order",
        y_title: &c.y_title,
        categories: &c.versions,
        series: c
            .series
            .iter()
            .map(|s| (s.name.as_str(), rgb(&s.color)))
            .collect(),
        bands: c.series.iter().map(|s| s.line.clone()).collect(),
        points: c
            .points
            .iter()
            .map(|p| Mark {
                series: p.series,
                cat: p.version,
                value: p.value,
                low: p.low,
                high: p.high,
                hollow: p.hollow,
                regression: p.regression.as_deref(),
                link: Some((&p.href, &p.label)),
            })
            .collect(),
        summary: &c.summary,
        percent: false,
        error_bars: false,
    });
    RenderedChart {
        svg,
        summary: c.summary.clone(),
        figures: None,
    }
}

/// `#rrggbb` as a plotters colour (grey where it is not one).
pub(super) fn rgb(hex: &str) -> RGBColor {
    let h = hex.trim_start_matches('#');
    let part = |i: usize| h.get(i..i + 2).and_then(|p| u8::from_str_radix(p, 16).ok());
    match (part(0), part(2), part(4)) {
        (Some(r), Some(g), Some(b)) if h.len() == 6 => RGBColor(r, g, b),
        _ => RGBColor(0x80, 0x80, 0x80),
    }
}

/// A point over a category, with its interval.
pub(super) struct Mark<'a> {
    pub(super) series: usize,
    pub(super) cat: usize,
    pub(super) value: f64,
    pub(super) low: f64,
    pub(super) high: f64,
    pub(super) hollow: bool,
    pub(super) regression: Option<&'a str>,
    /// Where it links, and what it says.
    pub(super) link: Option<(&'a str, &'a str)>,
}

/// Values over categories, as the trend and accuracy charts draw them.
pub(super) struct Categorical<'a> {
    pub(super) id: &'a str,
    pub(super) class: &'a str,
    pub(super) title: &'a str,
    pub(super) x_title: &'a str,
    pub(super) y_title: &'a str,
    pub(super) categories: &'a [String],
    pub(super) series: Vec<(&'a str, RGBColor)>,
    /// Per series, the line through it with its band: (category, value,
    /// low, high); none for points alone.
    pub(super) bands: Vec<Vec<(usize, f64, f64, f64)>>,
    pub(super) points: Vec<Mark<'a>>,
    pub(super) summary: &'a str,
    /// Values are percentages: the axis ends at 100% unless one passes it.
    pub(super) percent: bool,
    /// Intervals drawn as plotters' error bars (a dot as wide as its
    /// caps), rather than as whiskers with caps wider than their dot.
    pub(super) error_bars: bool,
}

/// A legend entry: a series' index, or a kind of mark.
#[derive(Clone, Copy)]
enum Key {
    Series(usize),
    Flagged,
    Regression,
}

/// Draws `c` as an `<svg>` string.
pub(super) fn categorical(c: &Categorical) -> String {
    let n = c.categories.len().max(1);
    // The value axis takes in every point's interval.
    let (mut lo, mut hi) = c
        .points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| {
            (a.0.min(p.low.min(p.value)), a.1.max(p.high.max(p.value)))
        });
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if lo > 0.0 && lo <= 0.5 * hi {
        lo = 0.0;
    }
    let pad = ((hi - lo) * 0.08).max(hi.abs() * 0.01).max(1e-9);
    let lo2 = if lo == 0.0 {
        0.0
    } else {
        (lo - pad).max(0.0_f64.min(lo))
    };
    let mut hi2 = hi + pad;
    if c.percent && hi <= 100.0 && lo >= 0.0 {
        hi2 = hi2.min(100.0);
    }
    let y = linear_axis(lo2, hi2, 5);
    let y_title = fit_title(c.y_title, f64::from(PLOT_H));
    let y_labels_w = widest_label(&y).ceil() as i32 + 8;
    let y_block = y_title.lines.len() as i32 * LINE_H;
    let left = 8 + y_block + 10 + y_labels_w;
    let right = 24;
    let width = DESIGN_WIDTH;
    let slot = f64::from(width - left - right) / n as f64;

    // The categories' labels: flat where each fits its slot, else turned;
    // every k-th where even turned they would crowd.
    let widest = c
        .categories
        .iter()
        .map(|v| text_width(&one_line(v), FONT))
        .fold(0.0, f64::max);
    let flat = widest + 6.0 <= slot;
    let diag = std::f64::consts::FRAC_1_SQRT_2;
    let need = if flat {
        widest + 6.0
    } else {
        f64::from(LINE_H - 2) / diag + 3.0
    };
    let every = ((need / slot).ceil() as usize).max(1);
    let label_block = if flat {
        LINE_H
    } else {
        (widest * diag + f64::from(LINE_H) * diag).ceil() as i32
    };
    let last = c.categories.len().saturating_sub(1);
    let shown = |i: usize| i.is_multiple_of(every) || (i == last && last % every >= every / 2);
    let x = Axis::categories(n, |i| match c.categories.get(i) {
        Some(v) if flat && shown(i) => one_line(v),
        _ => String::new(),
    });

    // The legend: the series, and what a hollow point and a triangle
    // mean where one is drawn, flowing into rows as wide as the drawing
    // allows.
    let mut keys: Vec<(Key, String)> = Vec::new();
    if c.series.len() > 1 {
        keys.extend(
            c.series
                .iter()
                .enumerate()
                .map(|(i, s)| (Key::Series(i), s.0.to_string())),
        );
    }
    if c.points.iter().any(|p| p.hollow) {
        keys.push((Key::Flagged, "flagged by a check".to_string()));
    }
    if c.points.iter().any(|p| p.regression.is_some()) {
        keys.push((Key::Regression, "regression, beyond noise".to_string()));
    }
    let mut legend: Vec<(Key, i32, i32, Vec<String>)> = Vec::new();
    let mut top = 16;
    if !keys.is_empty() {
        let x1 = width - left - 8;
        let (mut xx, mut yy, mut row_lines) = (0, 8, 1);
        for (k, name) in keys {
            let lines = wrap(&name, f64::from(x1 - 22), FONT, 0, true).unwrap_or_default();
            let w = 22
                + lines
                    .iter()
                    .map(|l| text_width(l, FONT))
                    .fold(0.0, f64::max)
                    .ceil() as i32;
            if xx > 0 && xx + w > x1 {
                yy += 20 + (row_lines - 1) * LINE_H;
                xx = 0;
                row_lines = 1;
            }
            row_lines = row_lines.max(lines.len() as i32);
            legend.push((k, xx, yy, lines));
            xx += w + 16;
        }
        top = yy + 20 + (row_lines - 1) * LINE_H + 10;
    }
    let bottom = top + PLOT_H;
    let x_title = fit_title(c.x_title, f64::from(width - left - right));
    let height = bottom + 8 + label_block + 10 + x_title.lines.len() as i32 * LINE_H + 8;

    let layers = Layers::default();
    let fr = frame(left, right, top, bottom, height);
    let _ = plot(c, &layers, fr, (&x, &y), &legend, (flat, &shown), {
        let t = (&x_title, &y_title);
        (
            t.0.lines.join("\n"),
            t.1.lines.join("\n"),
            t.0.size.min(t.1.size),
        )
    });
    super::backend::document(
        &fr,
        &layers,
        &Root {
            class: c.class,
            role: if c.points.iter().any(|p| p.link.is_some()) {
                "group"
            } else {
                "img"
            },
            id: c.id,
            title: &one_line(c.title),
            desc: c.summary,
            right,
            min_width: width,
            max_width: None,
        },
    )
}

type DrawResult = Result<(), DrawingAreaErrorKind<super::backend::Never>>;

#[allow(clippy::type_complexity)]
fn plot(
    c: &Categorical,
    layers: &Layers,
    fr: super::backend::Frame,
    (x, y): (&Axis, &Axis),
    legend: &[(Key, i32, i32, Vec<String>)],
    (flat, shown): (bool, &dyn Fn(usize) -> bool),
    (x_title, y_title, title_size): (String, String, f64),
) -> DrawResult {
    let root = ColumnSvg::new(fr, layers.clone()).into_drawing_area();
    let mut chart = ChartBuilder::on(&root)
        .margin_top(fr.top)
        .margin_left(8)
        .margin_right(fr.width as i32 - fr.left - super::backend::PLOT_UNITS - 1)
        .margin_bottom(7)
        .x_label_area_size(fr.height as i32 - fr.bottom - 8)
        .y_label_area_size(fr.left - 8)
        .build_cartesian_2d(x.coord(), y.coord())?;
    layers.set(Layer::Chrome);
    mesh(
        &mut chart,
        x,
        y,
        false,
        &x_title,
        &y_title,
        title_size.max(MIN_FONT),
    )?;
    if !flat {
        chart.draw_series(
            c.categories
                .iter()
                .enumerate()
                .filter(|(i, _)| shown(*i))
                .map(|(i, v)| Turned {
                    at: (i as f64 + 0.5, y.lo),
                    lines: vec![one_line(v)],
                }),
        )?;
    }
    let at = |i: usize| i as f64 + 0.5;

    // The bands and lines, in the plot's own units.
    layers.set(Layer::Marks);
    for (s, line) in c.bands.iter().enumerate() {
        let color = c.series[s].1;
        if line.len() > 1 && line.iter().any(|l| l.3 > l.2) {
            layers.class(Some("plot-band"));
            let forth = line.iter().map(|&(i, _, _, hi)| (at(i), hi));
            let back = line.iter().rev().map(|&(i, _, lo, _)| (at(i), lo));
            chart.draw_series(std::iter::once(Polygon::new(
                forth.chain(back).collect::<Vec<_>>(),
                color.mix(0.18).filled(),
            )))?;
            layers.class(None);
        }
        if line.len() > 1 {
            chart.draw_series(LineSeries::new(
                line.iter().map(|&(i, v, _, _)| (at(i), v)),
                color.stroke_width(2),
            ))?;
        }
    }

    // The points over everything, each with its whisker, in px around its
    // centre; each a link where it has one. A series at a time, left to
    // right, its colour and stroke given once to all its points.
    layers.set(Layer::Markers);
    let mut order: Vec<&Mark> = c.points.iter().collect();
    order.sort_by_key(|p| (p.series, p.cat));
    let mut painted = None;
    for p in order {
        let color = c.series[p.series].1;
        if painted != Some(p.series) {
            layers.paint(Some((color.to_backend_color(), 2)));
            painted = Some(p.series);
        }
        if let Some((href, label)) = p.link {
            layers.link(href, label);
        }
        let (px, py) = chart.backend_coord(&(at(p.cat), p.value));
        if c.error_bars {
            layers.class(Some("plot-interval"));
            chart.draw_series(std::iter::once(ErrorBar::new_vertical(
                at(p.cat),
                p.low,
                p.value,
                p.high,
                color.filled().stroke_width(2),
                10,
            )))?;
        } else {
            if p.high > p.low {
                let (_, y_lo) = chart.backend_coord(&(at(p.cat), p.low));
                let (_, y_hi) = chart.backend_coord(&(at(p.cat), p.high));
                let style = color.stroke_width(2);
                layers.class(Some("plot-noise"));
                for path in [
                    vec![(px, y_hi), (px, y_lo)],
                    vec![(px - CAP, y_hi), (px + CAP, y_hi)],
                    vec![(px - CAP, y_lo), (px + CAP, y_lo)],
                ] {
                    root.draw(&PathElement::new(path, style))?;
                }
            }
            match (p.regression, p.hollow) {
                (Some(_), _) => {
                    layers.class(Some("plot-point plot-regression"));
                    root.draw(&TriangleMarker::new((px, py), 7, REGRESSION.filled()))?;
                }
                (None, true) => {
                    layers.class(Some("plot-point plot-flagged"));
                    root.draw(&Circle::new((px, py), 4, color.stroke_width(2)))?;
                }
                (None, false) => {
                    // The plain point, a chart's most: no class of its
                    // own (its link is the point).
                    layers.class(None);
                    root.draw(&Circle::new((px, py), 3, color.filled()))?;
                }
            }
        }
        layers.class(None);
        if p.link.is_some() {
            layers.unlink();
        }
    }
    // A regression's change, under its mark (over it where the mark is
    // low in the plot), in the page's colour.
    layers.set(Layer::Chrome);
    for p in &c.points {
        let Some(words) = p.regression else { continue };
        let (px, py) = chart.backend_coord(&(at(p.cat), p.value));
        let (_, y_lo) = chart.backend_coord(&(at(p.cat), p.low));
        let (_, y_hi) = chart.backend_coord(&(at(p.cat), p.high));
        let low_in_plot = py > (fr.top + fr.bottom) / 2;
        let (ty, v) = if low_in_plot {
            (y_hi.min(py - 8) - 4, VPos::Bottom)
        } else {
            (y_lo.max(py + 8) + 4, VPos::Top)
        };
        root.draw(&Text::new(
            words.to_string(),
            (px, ty),
            text(role::MARKER, FONT).pos(Pos::new(HPos::Center, v)),
        ))?;
    }

    layers.set(Layer::Keys);
    for (k, kx, ky, lines) in legend {
        let (kx, cy) = (fr.left + kx, ky + 7);
        let key: DynElement<ColumnSvg, (i32, i32)> = match *k {
            Key::Series(i) => {
                let color = c.series[i].1;
                (EmptyElement::at((kx, cy))
                    + PathElement::new(vec![(0, 0), (16, 0)], color.stroke_width(2))
                    + Circle::new((8, 0), 3, color.filled()))
                .into_dyn()
            }
            Key::Flagged => Circle::new((kx + 8, cy), 4, BLACK.stroke_width(2)).into_dyn(),
            Key::Regression => TriangleMarker::new((kx + 8, cy), 7, REGRESSION.filled()).into_dyn(),
        };
        root.draw(&key)?;
        let dx = match k {
            Key::Series(_) => 22,
            _ => 18,
        };
        root.draw(&Text::new(
            lines.join("\n"),
            (kx + dx, cy),
            text(role::LEGEND, FONT).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    layers.class(None);
    root.present()
}

/// The colours of a chart's series, given each one's engine colour where
/// the site has one: an engine's colour for its first series, the
/// palette's next colour not yet taken for the others (a second series of
/// one engine, on other hardware, is told apart).
pub fn series_colors(engine_colors: &[Option<&str>]) -> Vec<String> {
    let mut taken: Vec<String> = Vec::new();
    let mut out = Vec::with_capacity(engine_colors.len());
    let mut next = 0;
    for c in engine_colors {
        let own = c
            .map(str::to_ascii_lowercase)
            .filter(|c| !taken.contains(c));
        let color = own.unwrap_or_else(|| loop {
            let p = super::data::PALETTE[next % super::data::PALETTE.len()]
                .hex()
                .to_ascii_lowercase();
            next += 1;
            if !taken.contains(&p) || next > 2 * super::data::PALETTE.len() {
                break p;
            }
        });
        taken.push(color.clone());
        out.push(color);
    }
    out
}
