//! Scales: round ticks and their labels. Takes the range of the values on
//! an axis (and, for a logarithmic axis, a test of whether ticks crowd);
//! hands layout an [`Axis`] with its snapped range and labelled ticks, and
//! the gap between neighbouring ticks at a given length.

/// An axis: its range, whether it is logarithmic, and its labelled ticks.
pub(super) struct Axis {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) log: bool,
    pub(super) ticks: Vec<(f64, String)>,
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

/// Picks a round step (1, 2, 2.5 or 5 × 10^k) giving about `target` intervals
/// over `lo..hi` and snaps the range outward to it.
pub(super) fn linear_axis(lo: f64, hi: f64, target: usize) -> Axis {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else if lo == 0.0 {
        (0.0, 1.0)
    } else {
        let d = lo.abs() * 0.1;
        (lo - d, hi + d)
    };
    let raw = (hi - lo) / target.max(1) as f64;
    let k = raw.log10().floor() as i32;
    let step = [(1, 0), (2, 0), (25, -1), (5, 0), (1, 1)]
        .iter()
        .map(|&(m, dk)| decimal(m, k + dk))
        .find(|&s| s >= raw * (1.0 - 1e-9))
        .unwrap_or_else(|| decimal(1, k + 1));
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

/// A logarithmic axis over `lo..hi` (both above zero), snapped outward to
/// d × 10^k (d = 1..9). Ticks go at powers of ten, with 2 and 5 × 10^k too
/// when the range spans few decades; `fits` says whether a choice of ticks
/// can be labelled without crowding, and the first choice that fits wins:
/// 1-2-5 ticks, then every decade, then every second decade, and so on.
pub(super) fn log_axis(lo: f64, hi: f64, fits: impl Fn(&Axis) -> bool) -> Axis {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo / 2.0, hi * 2.0)
    };
    let klo = lo.log10().floor() as i32 - 1;
    let khi = hi.log10().ceil() as i32 + 1;
    let mut bounds: Vec<f64> = Vec::new();
    for k in klo..=khi {
        for d in 1..=9 {
            bounds.push(decimal(d, k));
        }
    }
    let lo_s = bounds
        .iter()
        .rev()
        .find(|&&b| b <= lo * (1.0 + 1e-9))
        .map_or(lo, |&b| b);
    let hi_s = bounds
        .iter()
        .find(|&&b| b >= hi * (1.0 - 1e-9))
        .map_or(hi, |&b| b);
    let inside = |v: f64| v >= lo_s * (1.0 - 1e-9) && v <= hi_s * (1.0 + 1e-9);
    // (value, exponent, mantissa) of every 1-2-5 tick in range.
    let cands: Vec<(f64, i32, u32)> = (klo..=khi)
        .flat_map(|k| [1, 2, 5].map(|m| (decimal(m, k), k, m)))
        .filter(|c| inside(c.0))
        .collect();
    let decades: Vec<(f64, i32, u32)> = cands.iter().copied().filter(|c| c.2 == 1).collect();
    let mut choices: Vec<Vec<(f64, i32, u32)>> = Vec::new();
    if decades.len() <= 3 {
        choices.push(cands.clone());
    }
    for every in 1..=decades.len().max(1) {
        let pick: Vec<_> = decades.iter().copied().step_by(every).collect();
        if pick.len() >= 2 || every == 1 {
            choices.push(pick);
        }
    }
    let make = |chosen: &[(f64, i32, u32)]| {
        let mut chosen = chosen.to_vec();
        if chosen.len() < 2 {
            // Too narrow for round ticks: label both ends.
            chosen = [lo_s, hi_s]
                .iter()
                .map(|&v| (v, v.log10().floor() as i32, 0))
                .collect();
        }
        let max = chosen.iter().fold(0.0f64, |m, c| m.max(c.0));
        let min_k = chosen.iter().map(|c| c.1).min().unwrap_or(0);
        let sci = max >= 1e9 || min_k < -6;
        let ticks = chosen
            .iter()
            .map(|&(v, k, _)| {
                let label = if sci {
                    scientific(v)
                } else {
                    fixed(v, (-k).max(0) as usize)
                };
                (v, label)
            })
            .collect();
        Axis {
            lo: lo_s,
            hi: hi_s,
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
    let pos = |v: f64| {
        if axis.log {
            (v.ln() - axis.lo.ln()) / (axis.hi.ln() - axis.lo.ln())
        } else {
            (v - axis.lo) / (axis.hi - axis.lo)
        }
    };
    axis.ticks
        .windows(2)
        .map(|w| (pos(w[1].0) - pos(w[0].0)).abs() * length)
        .fold(f64::INFINITY, f64::min)
}
