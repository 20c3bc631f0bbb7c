//! Layout: plans the picture around its labels. Takes the chart input and
//! its [`Data`]; picks both axes, wraps or rotates category labels, flows
//! the legend into rows and sizes the margins, and hands drawing a [`Plan`]
//! of where everything goes, in pixels.

use super::data::{Data, Values};
use super::scale::{decimal, linear_axis, log_axis, min_tick_gap, Axis};
use super::text::{one_line, text_width, wrap};
use super::ChartInput;
use crate::record::ChartKind;

pub(super) const FONT: f64 = 12.0;
pub(super) const VALUE_FONT: f64 = 11.0;
pub(super) const LINE_H: i32 = 14;
pub(super) const BASE_WIDTH: i32 = 720;
/// The width of a bar chart of a few bars (a percentile ladder, two
/// setups side by side). At [`BASE_WIDTH`] its bars stand far apart, and on
/// a phone, where charts keep their text at a readable size and scroll
/// sideways, half of it is off screen; at this width it fits a 390 px
/// screen with text of that same size (`--chart-w` in style.css).
const NARROW_WIDTH: i32 = 480;
/// The most bars a chart drawn at [`NARROW_WIDTH`] has.
const NARROW_BARS: usize = 4;
const PLOT_HEIGHT: i32 = 300;
const LEGEND_ROW: i32 = 20;
/// Share of a category slot that its bars fill.
pub(super) const GROUP_WIDTH: f64 = 0.8;

/// How category labels are set.
pub(super) enum CatLabels {
    /// Horizontal, each label one or two lines.
    Flat(Vec<Vec<String>>),
    /// Rotated 45°, each label one or more lines.
    Rotated(Vec<Vec<String>>),
}

pub(super) struct LegendItem {
    pub(super) series: usize,
    pub(super) x: i32,
    pub(super) y: i32,
    pub(super) lines: Vec<String>,
}

/// Where everything goes, in pixels, plus the axes.
pub(super) struct Plan {
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) left: i32,
    pub(super) right: i32,
    pub(super) top: i32,
    pub(super) bottom: i32,
    pub(super) x: Axis,
    pub(super) y: Axis,
    pub(super) cat_labels: Option<CatLabels>,
    pub(super) legend: Vec<LegendItem>,
    pub(super) value_labels: bool,
    pub(super) y_title_size: f64,
    /// Where the y title's baseline runs (it is turned a quarter left).
    pub(super) y_title_x: i32,
    pub(super) x_title_size: f64,
}

impl Plan {
    pub(super) fn new(input: &ChartInput, data: &Data) -> Plan {
        let spec = input.spec;
        let mut width = match &data.values {
            Values::Bars { cats, lanes, .. }
                if cats.len().max(1) * lanes.max(&1) <= NARROW_BARS =>
            {
                NARROW_WIDTH
            }
            _ => BASE_WIDTH,
        };
        let plot_h = f64::from(PLOT_HEIGHT);

        // The value axis, which takes in the marks too.
        let (ylo, yhi) = data
            .marks
            .iter()
            .fold(data.y_range(), |(lo, hi), (y, _)| (lo.min(*y), hi.max(*y)));
        let bars = matches!(data.values, Values::Bars { .. });
        let y = if spec.kind == ChartKind::Cdf {
            // A share, from none to all.
            linear_axis(0.0, 100.0, 5)
        } else if spec.log_y {
            // Bars rise from the floor of a logarithmic axis: put it at a
            // power of ten at least half a decade below the smallest bar, so
            // that bar shows.
            let floor = if bars {
                decimal(1, (ylo / 3.0).log10().floor() as i32)
            } else {
                ylo
            };
            log_axis(floor, yhi * 1.2, |a| {
                a.ticks.len() <= 8 && min_tick_gap(a, plot_h) >= 2.0 * f64::from(LINE_H)
            })
        } else if bars {
            let (lo, hi) = (ylo.min(0.0), yhi.max(0.0));
            let pad = (hi - lo) * 0.08;
            let lo = if lo < 0.0 { lo - pad } else { lo };
            let hi = if hi > 0.0 || lo == 0.0 { hi + pad } else { hi };
            linear_axis(lo, hi, 5)
        } else {
            let (mut lo, mut hi) = (ylo, yhi);
            if lo > 0.0 && lo <= 0.5 * hi {
                lo = 0.0;
            }
            if hi < 0.0 && hi >= 0.5 * lo {
                hi = 0.0;
            }
            let pad = (hi - lo) * 0.06;
            let lo2 = if lo != 0.0 { lo - pad } else { lo };
            let hi2 = if hi != 0.0 { hi + pad } else { hi };
            // Padding never makes a positive range show negatives.
            let lo2 = if lo >= 0.0 { lo2.max(0.0) } else { lo2 };
            let hi2 = if hi <= 0.0 { hi2.min(0.0) } else { hi2 };
            linear_axis(lo2, hi2, 5)
        };
        let y_title_w = text_width(&data.y_title, FONT);
        let y_title_size = if y_title_w > plot_h {
            (FONT * plot_h / y_title_w).floor().max(8.0)
        } else {
            FONT
        };
        // Room for the y title, the tick labels and the tick marks.
        let y_labels_w = widest_label(&y).ceil() as i32 + 8;
        let mut left = 8 + LINE_H + 10 + y_labels_w;
        let mut right = 24;

        // The x axis and its labels.
        let mut x = Axis {
            lo: 0.0,
            hi: 1.0,
            log: false,
            ticks: Vec::new(),
        };
        let mut cat_labels = None;
        let label_block;
        let mut value_labels = false;
        match &data.values {
            Values::Bars { cats, lanes, bars } => {
                let n = cats.len().max(1);
                x.hi = n as f64;
                let slot = |width: i32, left: i32| f64::from(width - left - right) / n as f64;
                let avail = slot(width, left) - 8.0;
                let flat: Option<Vec<Vec<String>>> = cats
                    .iter()
                    .map(|c| wrap(&one_line(c), avail, FONT, 2, false))
                    .collect();
                match flat {
                    Some(labels) => {
                        let lines = labels.iter().map(Vec::len).max().unwrap_or(1) as i32;
                        label_block = lines * LINE_H;
                        cat_labels = Some(CatLabels::Flat(labels));
                    }
                    None => {
                        // Rotated labels: one line each, unless very long.
                        let labels: Vec<Vec<String>> = cats
                            .iter()
                            .map(|c| wrap(&one_line(c), 260.0, FONT, 0, true).unwrap_or_default())
                            .collect();
                        let lines = labels.iter().map(Vec::len).max().unwrap_or(1) as i32;
                        let diag = std::f64::consts::FRAC_1_SQRT_2;
                        // Neighbouring rotated labels must not touch: widen
                        // the picture if the slots are too narrow.
                        let need = f64::from(lines * LINE_H - 2) / diag + 3.0;
                        if slot(width, left) < need {
                            width = left + right + (need * n as f64).ceil() as i32;
                        }
                        let s = slot(width, left);
                        let mut reach = 0.0f64;
                        let mut need_left = 0.0f64;
                        for (i, l) in labels.iter().enumerate() {
                            let w = l.iter().map(|t| text_width(t, FONT)).fold(0.0, f64::max);
                            let h = f64::from(l.len() as i32 * LINE_H);
                            reach = reach.max(w * diag + h * diag);
                            let cx = (i as f64 + 0.5) * s;
                            need_left = need_left.max(w * diag + 8.0 - cx);
                        }
                        if f64::from(left) < need_left {
                            let extra = need_left.ceil() as i32 - left;
                            left += extra;
                            width += extra;
                        }
                        label_block = reach.ceil() as i32;
                        cat_labels = Some(CatLabels::Rotated(labels));
                    }
                }
                // Value labels over bars, when every one fits its lane.
                let lane_px = slot(width, left) * GROUP_WIDTH / (*lanes).max(1) as f64;
                value_labels = bars.len() <= 40
                    && bars.iter().all(|b| {
                        b.value.is_none() || text_width(&b.text, VALUE_FONT) <= lane_px - 2.0
                    });
            }
            Values::Points(_) => {
                let (xlo, xhi) = data.x_range();
                let plot_w = |left: i32, right: i32| f64::from(width - left - right);
                let mut target = ((plot_w(left, right) / 100.0) as usize).clamp(2, 8);
                // Margins grow for the end labels, which narrows the plot, so
                // settle the ticks in a few rounds.
                for _ in 0..4 {
                    let pw = plot_w(left, right);
                    let fits = |a: &Axis| min_tick_gap(a, pw) >= widest_label(a) + 12.0;
                    x = if spec.log_x {
                        log_axis(xlo, xhi, fits)
                    } else {
                        loop {
                            let a = linear_axis(xlo, xhi, target);
                            if fits(&a) || target <= 1 {
                                break a;
                            }
                            target -= 1;
                        }
                    };
                    let half = |t: Option<&(f64, String)>| {
                        t.map_or(0, |t| (text_width(&t.1, FONT) / 2.0).ceil() as i32 + 8)
                    };
                    let (l2, r2) = (
                        left.max(half(x.ticks.first())),
                        right.max(half(x.ticks.last())),
                    );
                    if (l2, r2) == (left, right) {
                        break;
                    }
                    (left, right) = (l2, r2);
                }
                label_block = LINE_H;
            }
        }
        let x_title_w = text_width(&data.x_title, FONT);
        let plot_w = f64::from(width - left - right);
        let x_title_size = if x_title_w > plot_w {
            (FONT * plot_w / x_title_w).floor().max(8.0)
        } else {
            FONT
        };

        // The legend, above the plot, aligned with it, flowing into rows; a
        // name too long for a row wraps onto more lines.
        let mut legend = Vec::new();
        let mut top = 16;
        if data.series.list.len() > 1 {
            let (x0, x1) = (left.min(width / 3), width - 16);
            let (mut x, mut y, mut row_lines) = (x0, 8, 1);
            for (i, s) in data.series.list.iter().enumerate() {
                let room = f64::from(x1 - x0 - 22);
                let lines = wrap(&s.name, room, FONT, 0, true).unwrap_or_default();
                let text_w = lines
                    .iter()
                    .map(|l| text_width(l, FONT))
                    .fold(0.0, f64::max);
                let w = 22 + text_w.ceil() as i32;
                if x > x0 && x + w > x1 {
                    y += LEGEND_ROW + (row_lines - 1) * LINE_H;
                    x = x0;
                    row_lines = 1;
                }
                row_lines = row_lines.max(lines.len() as i32);
                legend.push(LegendItem {
                    series: i,
                    x,
                    y,
                    lines,
                });
                x += w + 16;
            }
            top = y + LEGEND_ROW + (row_lines - 1) * LINE_H + 10;
        }

        let bottom_margin = 8 + label_block + 10 + LINE_H + 8;
        let height = top + PLOT_HEIGHT + bottom_margin;
        Plan {
            width,
            height,
            left,
            right: width - right,
            top,
            bottom: top + PLOT_HEIGHT,
            x,
            y,
            cat_labels,
            legend,
            value_labels,
            y_title_size,
            y_title_x: left - y_labels_w - 10 - 3,
            x_title_size,
        }
    }
}

fn widest_label(axis: &Axis) -> f64 {
    axis.ticks
        .iter()
        .map(|t| text_width(&t.1, FONT))
        .fold(0.0, f64::max)
}
