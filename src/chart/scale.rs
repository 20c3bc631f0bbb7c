//! Scales: an axis's range, its ticks and their labels, and the
//! coordinate plotters draws it in. The ticks are plotters' own key points
//! (round steps of 1, 2 and 5 × 10^k on a linear axis, powers of ten on a
//! logarithmic one), asked for with as many as fit; the range is snapped
//! outward to the linear step, so that an axis ends on a labelled tick;
//! the labels are written here (thousands separated, one number of
//! decimals per axis, a minus sign), which plotters' own formatting does
//! not do. [`Coord`] is the plotters [`Ranged`] coordinate of an axis,
//! linear, logarithmic or of categories (ticks at the middle of each
//! slot), whose key points are exactly the labelled ticks.

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::{IntoLogRange, LogCoord};
use std::ops::Range;

/// An axis: its range, whether it is logarithmic, and its labelled ticks.
#[derive(Clone, Debug)]
pub(super) struct Axis {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) log: bool,
    pub(super) ticks: Vec<(f64, String)>,
}

impl Axis {
    /// `n` categories, each a slot of width 1, ticks at their middles.
    pub(super) fn categories(n: usize, labels: impl Fn(usize) -> String) -> Axis {
        let n = n.max(1);
        Axis {
            lo: 0.0,
            hi: n as f64,
            log: false,
            ticks: (0..n).map(|i| (i as f64 + 0.5, labels(i))).collect(),
        }
    }

    /// The coordinate plotters draws this axis in.
    pub(super) fn coord(&self) -> Coord {
        Coord {
            lo: self.lo,
            hi: self.hi,
            log: self.log,
            ticks: self.ticks.iter().map(|t| t.0).collect(),
        }
    }

    /// The label of the tick at `v`, as the mesh writes it.
    pub(super) fn label(&self, v: f64) -> String {
        self.ticks
            .iter()
            .find(|t| t.0 == v)
            .map(|t| t.1.clone())
            .unwrap_or_default()
    }

    /// Where `v` falls, from 0 (the low end) to 1 (the high end).
    pub(super) fn share(&self, v: f64) -> f64 {
        if self.log {
            (v.ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        }
    }
}

/// An axis as plotters draws it: linear or logarithmic over `lo..hi`,
/// its key points the axis's ticks.
#[derive(Clone, Debug)]
pub(super) struct Coord {
    lo: f64,
    hi: f64,
    log: bool,
    ticks: Vec<f64>,
}

impl Ranged for Coord {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let share = if self.log {
            (value.ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (value - self.lo) / (self.hi - self.lo)
        };
        let share = if share.is_finite() { share } else { 0.0 };
        (f64::from(limit.0) + share * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // The labelled ticks are the bold key points; light lines (the
        // mesh's finer grid) are not drawn.
        if hint.weight().allow_light_points() && hint.max_num_points() > self.ticks.len() {
            return Vec::new();
        }
        self.ticks.clone()
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

/// `m × 10^k` exactly as a decimal literal would give it.
pub(super) fn decimal(m: u32, k: i32) -> f64 {
    format!("{m}e{k}").parse().unwrap_or(f64::NAN)
}

/// The number of decimals needed to show multiples of `step` exactly.
fn decimals_for(step: f64) -> usize {
    (0..=12)
        .find(|&d| {
            let scaled = step * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-6 * scaled.abs().max(1.0)
        })
        .unwrap_or(12)
}

/// Formats tick values that all use the same number of decimals; thousands
/// get separators; very large or small values use `e` notation.
fn format_ticks(values: &[f64], decimals: usize) -> Vec<String> {
    let max = values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if max >= 1e9 || decimals > 6 {
        return values.iter().map(|&v| scientific(v)).collect();
    }
    values.iter().map(|&v| fixed(v, decimals)).collect()
}

/// `v` with `decimals` decimals, trailing zeros trimmed, thousands separated.
pub(super) fn fixed(v: f64, decimals: usize) -> String {
    let s = format!("{:.*}", decimals, v.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f.trim_end_matches('0')),
        None => (s.as_str(), ""),
    };
    let mut out = String::new();
    let digits = int.len();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (digits - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    let zero = out.chars().all(|c| c == '0' || c == '.' || c == ',');
    if v < 0.0 && !zero {
        out.insert(0, '−');
    }
    out
}

pub(super) fn scientific(v: f64) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    let e = v.abs().log10().floor() as i32;
    let mut m = v / 10f64.powi(e);
    let mut e = e;
    if (m.abs() * 100.0).round() >= 1000.0 {
        m /= 10.0;
        e += 1;
    }
    format!("{}e{e}", fixed(m, 2))
}

/// A linear axis over `lo..hi` with about `target` intervals: plotters'
/// key points for at most `target + 1` ticks give the step, and the
/// range is snapped outward to it.
pub(super) fn linear_axis(lo: f64, hi: f64, target: usize) -> Axis {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else if lo == 0.0 {
        (0.0, 1.0)
    } else {
        let d = lo.abs() * 0.1;
        (lo - d, hi + d)
    };
    let keys = RangedCoordf64::from(lo..hi).key_points(target.max(1) + 1);
    let step = match keys.as_slice() {
        [a, b, ..] => b - a,
        _ => (hi - lo) / target.max(1) as f64,
    };
    // The step as a round decimal (plotters' values carry float noise).
    let k = step.log10().floor() as i32;
    let ratio = step / 10f64.powi(k);
    let m = [1u32, 2, 5, 10]
        .into_iter()
        .min_by(|a, b| {
            (f64::from(*a) - ratio)
                .abs()
                .total_cmp(&(f64::from(*b) - ratio).abs())
        })
        .unwrap_or(1);
    let step = decimal(m, k);
    let i0 = (lo / step + 1e-9).floor() as i64;
    let i1 = (hi / step - 1e-9).ceil() as i64;
    let values: Vec<f64> = (i0..=i1).map(|i| i as f64 * step).collect();
    let labels = format_ticks(&values, decimals_for(step));
    Axis {
        lo: i0 as f64 * step,
        hi: i1 as f64 * step,
        log: false,
        ticks: values.into_iter().zip(labels).collect(),
    }
}

/// A logarithmic axis over `lo..hi` (both above zero): of plotters' key
/// points of a logarithmic range, the 1, 2 and 5 × 10^k where the range
/// spans few decades, else every decade, every second decade, and so on:
/// the first choice `fits` accepts.
pub(super) fn log_axis(lo: f64, hi: f64, fits: impl Fn(&Axis) -> bool) -> Axis {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo / 2.0, hi * 2.0)
    };
    // Every key point plotters gives at a density of nine between
    // decades (1 to 9 × 10^k), by mantissa. plotters starts them at the
    // first power of ten in its range, so they are asked for from the
    // power of ten below `lo`, and those under `lo` dropped.
    let floor = 10f64.powi(lo.log10().floor() as i32);
    let coord: LogCoord<f64> = (floor..hi).log_scale().into();
    let decades_spanned = ((hi / floor).log10().floor() as usize).max(1);
    let mut all: Vec<(f64, u32)> = coord
        .key_points(10 * decades_spanned)
        .into_iter()
        .filter(|v| *v >= lo * (1.0 - 1e-9))
        .map(|v| {
            let k = v.log10().floor() as i32;
            let m = (v / 10f64.powi(k)).round() as u32;
            (decimal(m, k), m)
        })
        .collect();
    all.dedup();
    let decades: Vec<f64> = all.iter().filter(|p| p.1 == 1).map(|p| p.0).collect();
    let mut choices: Vec<Vec<f64>> = Vec::new();
    if decades.len() <= 3 {
        choices.push(
            all.iter()
                .filter(|p| matches!(p.1, 1 | 2 | 5))
                .map(|p| p.0)
                .collect(),
        );
    }
    for every in 1..=decades.len().max(1) {
        let pick: Vec<f64> = decades.iter().copied().step_by(every).collect();
        if pick.len() >= 2 || every == 1 {
            choices.push(pick);
        }
    }
    let make = |values: &[f64]| {
        let values: Vec<f64> = if values.len() < 2 {
            vec![lo, hi]
        } else {
            values.to_vec()
        };
        let top = values.iter().fold(0.0f64, |m, v| m.max(*v));
        let low = values.iter().fold(f64::INFINITY, |m, v| m.min(*v));
        let sci = top >= 1e9 || low < 1e-6;
        let ticks = values
            .iter()
            .map(|&v| {
                let label = if sci {
                    scientific(v)
                } else {
                    let k = v.log10().floor() as i32;
                    fixed(v, (-k).max(0) as usize)
                };
                (v, label)
            })
            .collect();
        Axis {
            lo,
            hi,
            log: true,
            ticks,
        }
    };
    let mut last = None;
    for c in &choices {
        let axis = make(c);
        if fits(&axis) {
            return axis;
        }
        last = Some(axis);
    }
    last.unwrap_or_else(|| make(&[]))
}

/// The smallest distance between neighbouring ticks of `axis` drawn over
/// `length` px.
pub(super) fn min_tick_gap(axis: &Axis, length: f64) -> f64 {
    axis.ticks
        .windows(2)
        .map(|w| (axis.share(w[1].0) - axis.share(w[0].0)).abs() * length)
        .fold(f64::INFINITY, f64::min)
}
