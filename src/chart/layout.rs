//! Layout: plans the picture around its labels, which plotters leaves to
//! its caller (its label areas and margins are sizes it is given). Takes
//! the chart input and its [`Data`]; picks both axes (their ticks are
//! plotters' key points, see `scale.rs`), wraps or turns category labels,
//! flows the legend into rows and sizes the margins and label areas, and
//! hands drawing a [`Plan`] for plotters' `ChartBuilder`.
//!
//! A chart is drawn at one pixel a unit, as wide as its column: its
//! heights and margins are pixels, and what runs along the x axis is
//! placed by its share of the plot's width (see `backend.rs`). So its text
//! is always shown at the size it was measured for, and the plan only has
//! to fit the narrowest width the drawing takes, [`DESIGN_WIDTH`] (a
//! phone's screen): every label that fits there fits any wider column too.

pub(super) use super::backend::LINE_H;
use super::data::{Data, Values};
use super::scale::{decimal, linear_axis, log_axis, min_tick_gap, Axis};
use super::text::{one_line, text_width, wrap};
use super::ChartInput;
use crate::record::ChartKind;

pub(super) const FONT: f64 = 12.0;
pub(super) const VALUE_FONT: f64 = 11.0;
/// The smallest text a chart writes, in px as shown: an axis title too
/// long for its axis is set down to this size, then wrapped.
pub(super) const MIN_FONT: f64 = 11.0;
/// The narrowest a chart is laid out for, margins included: a phone of 360
/// px, whose column a chart fills edge to edge (less 4 px a side). Below
/// it, the drawing keeps this width and its box scrolls sideways.
pub(super) const DESIGN_WIDTH: i32 = 350;
/// The widest a bar chart of a few bars is shown (a percentile ladder, two
/// setups side by side): wider, its bars would stand far apart.
const NARROW_WIDTH: i32 = 480;
/// The most bars a chart shown at most [`NARROW_WIDTH`] has.
const NARROW_BARS: usize = 4;
pub(super) const PLOT_HEIGHT: i32 = 300;
const LEGEND_ROW: i32 = 20;
/// Share of a category slot that its bars fill.
pub(super) const GROUP_WIDTH: f64 = 0.8;

/// How category labels are set.
pub(super) enum CatLabels {
    /// Horizontal, each label one or two lines: the mesh writes them, as
    /// the x axis's tick labels.
    Flat,
    /// Rotated 45°, each label one or more lines.
    Rotated(Vec<Vec<String>>),
}

pub(super) struct LegendItem {
    pub(super) series: usize,
    /// From the plot's left edge, in px.
    pub(super) x: i32,
    pub(super) y: i32,
    pub(super) lines: Vec<String>,
}

/// An axis title: its lines and their size.
pub(super) struct Title {
    pub(super) lines: Vec<String>,
    pub(super) size: f64,
}

/// Where everything goes, plus the axes. Heights and the margins beside
/// the plot are in px; what runs along the x axis is placed by its share
/// of the plot's width (see `backend.rs`).
pub(super) struct Plan {
    /// The narrowest the drawing is shown, margins included: below it,
    /// its box scrolls sideways.
    pub(super) min_width: i32,
    /// The widest it is shown, for a chart of a few bars.
    pub(super) max_width: Option<i32>,
    pub(super) height: i32,
    /// The margins left and right of the plot.
    pub(super) left: i32,
    pub(super) right: i32,
    /// The plot's top and bottom, from the drawing's top.
    pub(super) top: i32,
    pub(super) bottom: i32,
    pub(super) x: Axis,
    pub(super) y: Axis,
    pub(super) cat_labels: Option<CatLabels>,
    pub(super) legend: Vec<LegendItem>,
    pub(super) value_labels: bool,
    pub(super) x_title: Title,
    pub(super) y_title: Title,
}

impl Plan {
    pub(super) fn new(input: &ChartInput, data: &Data) -> Plan {
        let spec = input.spec;
        let few_bars = matches!(&data.values, Values::Bars { cats, lanes, .. }
            if cats.len().max(1) * lanes.max(&1) <= NARROW_BARS);
        let mut min_width = DESIGN_WIDTH;
        let plot_h = f64::from(PLOT_HEIGHT);
        let y = value_axis(input, data);
        let y_title = fit_title(&data.y_title, plot_h);
        // Room for the y title, the tick labels and the tick marks.
        let y_labels_w = widest_label(&y).ceil() as i32 + 8;
        let y_block = y_title.lines.len() as i32 * LINE_H;
        let mut left = 8 + y_block + 10 + y_labels_w;
        let mut right = 24;

        // The x axis and its labels, at the narrowest width.
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
                let slot = |width: i32, left: i32| f64::from(width - left - right) / n as f64;
                let avail = slot(min_width, left) - 8.0;
                let flat: Option<Vec<Vec<String>>> = cats
                    .iter()
                    .map(|c| wrap(&one_line(c), avail, FONT, 2, false))
                    .collect();
                match flat {
                    Some(labels) => {
                        let lines = labels.iter().map(Vec::len).max().unwrap_or(1) as i32;
                        label_block = lines * LINE_H;
                        x = Axis::categories(n, |i| labels[i].join("\n"));
                        cat_labels = Some(CatLabels::Flat);
                    }
                    None => {
                        // Rotated labels: one line each, unless very long.
                        let labels: Vec<Vec<String>> = cats
                            .iter()
                            .map(|c| wrap(&one_line(c), 260.0, FONT, 0, true).unwrap_or_default())
                            .collect();
                        let lines = labels.iter().map(Vec::len).max().unwrap_or(1) as i32;
                        let diag = std::f64::consts::FRAC_1_SQRT_2;
                        // Neighbouring rotated labels must not touch, and
                        // the first reach left from under their slots: the
                        // margin grows for them, and the drawing takes more
                        // width where its slots get too narrow (its box
                        // scrolls on a phone).
                        let need = f64::from(lines * LINE_H - 2) / diag + 3.0;
                        let mut reach = 0.0f64;
                        for _ in 0..4 {
                            if slot(min_width, left) < need {
                                min_width = left + right + (need * n as f64).ceil() as i32;
                            }
                            let s = slot(min_width, left);
                            reach = 0.0;
                            let mut need_left = 0.0f64;
                            for (i, l) in labels.iter().enumerate() {
                                let w = l.iter().map(|t| text_width(t, FONT)).fold(0.0, f64::max);
                                let h = f64::from(l.len() as i32 * LINE_H);
                                reach = reach.max(w * diag + h * diag);
                                let cx = (i as f64 + 0.5) * s;
                                need_left = need_left.max(w * diag + 8.0 - cx);
                            }
                            if f64::from(left) >= need_left {
                                break;
                            }
                            left = need_left.ceil() as i32;
                        }
                        if slot(min_width, left) < need {
                            min_width = left + right + (need * n as f64).ceil() as i32;
                        }
                        label_block = reach.ceil() as i32;
                        x = Axis::categories(n, |_| String::new());
                        cat_labels = Some(CatLabels::Rotated(labels));
                    }
                }
                // Value labels over bars, when every one fits its lane at
                // the narrowest width.
                let lane_px = slot(min_width, left) * GROUP_WIDTH / (*lanes).max(1) as f64;
                value_labels = bars.len() <= 40
                    && bars.iter().all(|b| {
                        b.value.is_none() || text_width(&b.text, VALUE_FONT) <= lane_px - 2.0
                    });
            }
            Values::Points(_) => {
                let (xlo, xhi) = data.x_range();
                let plot_w = |left: i32, right: i32| f64::from(min_width - left - right);
                // Margins grow for the end labels, which narrows the plot, so
                // settle the ticks in a few rounds.
                for _ in 0..4 {
                    let pw = plot_w(left, right);
                    let fits = |a: &Axis| min_tick_gap(a, pw) >= widest_label(a) + 12.0;
                    x = if spec.log_x {
                        log_axis(xlo, xhi, fits)
                    } else {
                        // Of the round steps whose labels fit, the one
                        // whose axis overshoots the data least (on a tie,
                        // the one nearest five intervals).
                        let near_five = |a: &Axis| a.ticks.len().abs_diff(6);
                        (2..=8)
                            .map(|target| linear_axis(xlo, xhi, target))
                            .filter(|a| fits(a))
                            .min_by(|a, b| {
                                (a.hi - a.lo)
                                    .total_cmp(&(b.hi - b.lo))
                                    .then(near_five(a).cmp(&near_five(b)))
                            })
                            .unwrap_or_else(|| linear_axis(xlo, xhi, 1))
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
        let x_title = fit_title(&data.x_title, f64::from(min_width - left - right));

        // The legend, above the plot, from its left edge, flowing into rows
        // as wide as the narrowest drawing allows; a name too long for a
        // row wraps onto more lines.
        let mut legend = Vec::new();
        let mut top = 16;
        if data.series.list.len() > 1 {
            let x1 = min_width - left - 8;
            let (mut x, mut y, mut row_lines) = (0, 8, 1);
            for (i, s) in data.series.list.iter().enumerate() {
                let room = f64::from(x1 - 22);
                let lines = wrap(&s.name, room, FONT, 0, true).unwrap_or_default();
                let text_w = lines
                    .iter()
                    .map(|l| text_width(l, FONT))
                    .fold(0.0, f64::max);
                let w = 22 + text_w.ceil() as i32;
                if x > 0 && x + w > x1 {
                    y += LEGEND_ROW + (row_lines - 1) * LINE_H;
                    x = 0;
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

        let x_title_block = x_title.lines.len() as i32 * LINE_H;
        let bottom_margin = 8 + label_block + 10 + x_title_block + 8;
        let height = top + PLOT_HEIGHT + bottom_margin;
        Plan {
            min_width,
            max_width: few_bars.then_some(NARROW_WIDTH.max(min_width)),
            height,
            left,
            right,
            top,
            bottom: top + PLOT_HEIGHT,
            x,
            y,
            cat_labels,
            legend,
            value_labels,
            x_title,
            y_title,
        }
    }
}

/// The value axis, which takes in the marks too. A percentage axis ends at
/// 100% unless a value (or a mark) goes over it: a share has no more.
fn value_axis(input: &ChartInput, data: &Data) -> Axis {
    let spec = input.spec;
    let plot_h = f64::from(PLOT_HEIGHT);
    let (ylo, yhi) = data
        .marks
        .iter()
        .fold(data.y_range(), |(lo, hi), (y, _)| (lo.min(*y), hi.max(*y)));
    let bars = matches!(data.values, Values::Bars { .. });
    let percent = data.y_unit.as_deref() == Some("%") && ylo >= 0.0 && yhi <= 100.0;
    let cap = |hi: f64| if percent { hi.min(100.0) } else { hi };
    if spec.kind == ChartKind::Cdf {
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
        linear_axis(lo, cap(hi), 5)
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
        // 100 is a multiple of every round step up to it, so a capped
        // axis ends there.
        linear_axis(lo2, cap(hi2), 5)
    }
}

/// An axis title set along `length` px: at [`FONT`], else smaller down to
/// [`MIN_FONT`], else at that size on as many lines as it takes.
pub(super) fn fit_title(title: &str, length: f64) -> Title {
    let w = text_width(title, FONT);
    if w <= length {
        return Title {
            lines: vec![title.to_string()],
            size: FONT,
        };
    }
    let size = (FONT * length / w).floor().max(MIN_FONT);
    let lines = if text_width(title, size) <= length {
        vec![title.to_string()]
    } else {
        wrap(title, length, size, 0, true).unwrap_or_else(|| vec![title.to_string()])
    };
    Title { lines, size }
}

pub(super) fn widest_label(axis: &Axis) -> f64 {
    axis.ticks
        .iter()
        .map(|t| text_width(&t.1, FONT))
        .fold(0.0, f64::max)
}
