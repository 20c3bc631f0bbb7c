//! A trend chart: one metric of one workload against engine version, in
//! version order, one line per series (an engine on its hardware), each
//! point linked to its run, its noise drawn as a whisker from its low to
//! its high end and as a band along its series' line, and a point whose
//! run a check flags drawn hollow.
//!
//! It is drawn as the run charts are (`svg.rs`): at one pixel a unit, as
//! wide as its column, laid out for the narrowest width a chart takes
//! ([`DESIGN_WIDTH`], a phone's), text never below 11 px; what runs along
//! the x axis is placed by its share of the plot's width, the lines in a
//! nested drawing stretched over the plot. Versions are categories, evenly
//! spaced: their labels lie flat where they fit, else turn 45°, and where
//! even turned they would crowd, every second (third, …) is labelled, the
//! last always; the table under the chart names every point.
//!
//! Takes a [`TrendChart`]; hands back a [`RenderedChart`].

use super::layout::{fit_title, widest_label, DESIGN_WIDTH, FONT, LINE_H, PLOT_UNITS};
use super::scale::linear_axis;
use super::svg::{pct, plot_layers, px, Anchor, Pos, Text};
use super::text::{one_line, text_width, wrap};
use super::RenderedChart;
use crate::util::escape_html;
use std::fmt::Write as _;

/// The plot's height: lower than a run chart's, as a workload's page
/// shows a chart per metric.
const PLOT_H: i32 = 220;

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
    let n = c.versions.len().max(1);
    // The value axis takes in every point's noise.
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
    let y = linear_axis(lo2, hi + pad, 5);
    let plot_h = f64::from(PLOT_H);
    let y_title = fit_title(&c.y_title, plot_h);
    let y_labels_w = widest_label(&y).ceil() as i32 + 8;
    let y_block = y_title.lines.len() as i32 * LINE_H;
    let left = 8 + y_block + 10 + y_labels_w;
    let right = 24;
    let width = DESIGN_WIDTH;
    let slot = f64::from(width - left - right) / n as f64;

    // The versions' labels: flat where each fits its slot, else turned;
    // every k-th where even turned they would crowd.
    let widest = c
        .versions
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

    // The legend: the series, and the hollow point's meaning where one is
    // drawn, flowing into rows as wide as the drawing allows.
    let mut keys: Vec<(Option<usize>, String)> = Vec::new();
    if c.series.len() > 1 {
        keys.extend(
            c.series
                .iter()
                .enumerate()
                .map(|(i, s)| (Some(i), s.name.clone())),
        );
    }
    if c.points.iter().any(|p| p.hollow) {
        keys.push((None, "flagged by a check".to_string()));
    }
    let mut legend: Vec<(Option<usize>, i32, i32, Vec<String>)> = Vec::new();
    let mut top = 16;
    if !keys.is_empty() {
        let x1 = width - left - 8;
        let (mut x, mut yy, mut row_lines) = (0, 8, 1);
        for (s, name) in keys {
            let lines = wrap(&name, f64::from(x1 - 22), FONT, 0, true).unwrap_or_default();
            let w = 22
                + lines
                    .iter()
                    .map(|l| text_width(l, FONT))
                    .fold(0.0, f64::max)
                    .ceil() as i32;
            if x > 0 && x + w > x1 {
                yy += 20 + (row_lines - 1) * LINE_H;
                x = 0;
                row_lines = 1;
            }
            row_lines = row_lines.max(lines.len() as i32);
            legend.push((s, x, yy, lines));
            x += w + 16;
        }
        top = yy + 20 + (row_lines - 1) * LINE_H + 10;
    }
    let bottom = top + PLOT_H;
    let x_title = fit_title(
        "Engine version, in version order",
        f64::from(width - left - right),
    );
    let height = bottom + 8 + label_block + 10 + x_title.lines.len() as i32 * LINE_H + 8;
    let share_x = |i: usize| (i as f64 + 0.5) / n as f64;
    let py = |v: f64| f64::from(PLOT_H) * (1.0 - (v - y.lo) / (y.hi - y.lo));
    let y_at = |v: f64| px(f64::from(top) + py(v));

    let mut grid = String::new();
    for (v, _) in y.ticks.iter().filter(|t| t.0 != y.lo) {
        let yy = y_at(*v);
        let _ = writeln!(grid, "<line y1=\"{yy}\" x2=\"100%\" y2=\"{yy}\"/>");
    }
    let mut axes = String::new();
    let _ = writeln!(axes, "<line y1=\"{bottom}\" x2=\"100%\" y2=\"{bottom}\"/>");
    let _ = writeln!(axes, "<line y1=\"{top}\" y2=\"{bottom}\"/>");
    for (v, _) in &y.ticks {
        let yy = y_at(*v);
        let _ = writeln!(axes, "<line x1=\"-5\" y1=\"{yy}\" y2=\"{yy}\"/>");
    }
    for i in 0..c.versions.len() {
        let x = pct(share_x(i));
        let _ = writeln!(
            axes,
            "<line x1=\"{x}\" y1=\"{bottom}\" x2=\"{x}\" y2=\"{}\"/>",
            bottom + 5
        );
    }

    // The lines and whiskers, in the plot's own units.
    let mut marks = String::new();
    for s in &c.series {
        // The band: the line's high ends forth, its low ends back.
        if s.line.len() > 1 && s.line.iter().any(|l| l.3 > l.2) {
            let forth = s
                .line
                .iter()
                .map(|&(i, _, _, hi)| format!("{},{}", px(share_x(i) * PLOT_UNITS), px(py(hi))));
            let back =
                s.line.iter().rev().map(|&(i, _, lo, _)| {
                    format!("{},{}", px(share_x(i) * PLOT_UNITS), px(py(lo)))
                });
            let _ = writeln!(
                marks,
                "<polygon class=\"plot-band\" points=\"{}\" fill=\"{}\" fill-opacity=\"0.18\" stroke=\"none\"/>",
                forth.chain(back).collect::<Vec<_>>().join(" "),
                s.color
            );
        }
        let pts: Vec<String> = s
            .line
            .iter()
            .map(|&(i, v, _, _)| format!("{},{}", px(share_x(i) * PLOT_UNITS), px(py(v))))
            .collect();
        if pts.len() > 1 {
            let _ = writeln!(
                marks,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" \
                 stroke-linejoin=\"round\" vector-effect=\"non-scaling-stroke\"/>",
                pts.join(" "),
                s.color
            );
        }
    }
    for p in &c.points {
        if p.high > p.low {
            let x = px(share_x(p.version) * PLOT_UNITS);
            let _ = writeln!(
                marks,
                "<line class=\"plot-noise\" x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"{}\" \
                 stroke-width=\"2\" stroke-opacity=\"0.6\" vector-effect=\"non-scaling-stroke\"/>",
                px(py(p.high)),
                px(py(p.low)),
                c.series[p.series].color
            );
        }
    }
    // The points, over everything, each a link to its run.
    let mut dots = String::new();
    for p in &c.points {
        let color = &c.series[p.series].color;
        let fill = if p.hollow {
            "transparent"
        } else {
            color.as_str()
        };
        let _ = writeln!(
            dots,
            "<a href=\"{}\" aria-label=\"{}\"><circle class=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" \
             fill=\"{fill}\" stroke=\"{color}\" stroke-width=\"2\"><title>{}</title></circle></a>",
            escape_html(&p.href),
            escape_html(&p.label),
            if p.hollow {
                "plot-point plot-flagged"
            } else {
                "plot-point"
            },
            pct(share_x(p.version)),
            y_at(p.value),
            if p.hollow { 4 } else { 3 },
            escape_html(&p.label)
        );
    }
    let mut keys_svg = String::new();
    for (s, x, yy, _) in &legend {
        let cy = yy + 7;
        match s {
            Some(i) => {
                let color = &c.series[*i].color;
                let _ = writeln!(
                    keys_svg,
                    "<line x1=\"{x}\" y1=\"{cy}\" x2=\"{}\" y2=\"{cy}\" stroke=\"{color}\" stroke-width=\"2\"/>\n\
                     <circle cx=\"{}\" cy=\"{cy}\" r=\"3\" fill=\"{color}\"/>",
                    x + 16,
                    x + 8
                );
            }
            None => {
                let _ = writeln!(
                    keys_svg,
                    "<circle cx=\"{}\" cy=\"{cy}\" r=\"4\" fill=\"transparent\" stroke=\"currentColor\" stroke-width=\"2\"/>",
                    x + 8
                );
            }
        }
    }

    let mut text = Text::default();
    text.y_ticks(&y.ticks, y_at);
    let label_top = i64::from(bottom) + 8;
    let last = c.versions.len().saturating_sub(1);
    for (i, v) in c.versions.iter().enumerate() {
        // Every k-th, and the last, unless it would crowd the one before.
        let shown = i % every == 0 || (i == last && last % every >= every / 2);
        if !shown {
            continue;
        }
        let lines = vec![one_line(v)];
        if flat {
            text.put(
                Pos::Share(share_x(i)),
                label_top + 10,
                Anchor::Middle,
                None,
                &lines,
            );
        } else {
            text.rotated(share_x(i), label_top, &lines);
        }
    }
    let x_lines = x_title.lines.len() as i64;
    let x_title_y = i64::from(height) - 10 - (x_lines - 1) * i64::from(LINE_H);
    text.title(Pos::Share(0.5), x_title_y, None, &x_title);
    text.title(
        Pos::Px((-(y_labels_w + 13) - (y_block - LINE_H)).into()),
        i64::from(top + bottom) / 2,
        Some(-90),
        &y_title,
    );
    for (s, x, yy, lines) in &legend {
        let dx = if s.is_some() { 22 } else { 16 };
        text.put(
            Pos::Px(i64::from(x + dx)),
            i64::from(yy + 11),
            Anchor::Start,
            Some("plot-legend"),
            lines,
        );
    }

    let id = &c.id;
    let mut svg = String::with_capacity(marks.len() + dots.len() + text.buf.len() + 2048);
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot plot-trend\" \
         width=\"100%\" height=\"{height}\" overflow=\"visible\" \
         style=\"box-sizing: border-box; padding: 0 {right}px 0 {left}px; min-width: {width}px\" \
         role=\"group\" aria-labelledby=\"{id}-title {id}-desc\">\n\
         <title id=\"{id}-title\">{}</title>\n\
         <desc id=\"{id}-desc\">{}</desc>\n",
        escape_html(&one_line(&c.title)),
        escape_html(&c.summary),
    );
    plot_layers(&mut svg, &grid, top, PLOT_H, &marks, &axes);
    let _ = write!(svg, "<g class=\"plot-points\">\n{dots}</g>\n");
    if !keys_svg.is_empty() {
        let _ = write!(svg, "<g class=\"plot-keys\">\n{keys_svg}</g>\n");
    }
    let _ = write!(
        svg,
        "<g class=\"plot-labels\" fill=\"currentColor\" font-size=\"{FONT}\">\n{}</g>\n</svg>\n",
        text.buf
    );
    RenderedChart {
        svg,
        summary: c.summary.clone(),
        figures: None,
    }
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
