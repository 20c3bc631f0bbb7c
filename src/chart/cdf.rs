//! Distributions: a `cdf` chart's column of values becomes, per series, the
//! steps of its empirical cumulative distribution (the share of rows at or
//! below each value, in percent) and the percentiles a reader looks for.
//! Takes the values [`super::data`] read; hands back points for the line
//! drawing and a [`Spread`] per series for the summary and the data table.

use super::data::{Data, Point};
use crate::figures;

/// The most points one series' steps are drawn with: a distribution of
/// 50,000 requests is drawn through this many of its quantiles, which
/// no reader can tell from the whole staircase at the chart's width.
pub(super) const STEPS: usize = 400;

/// What a reader looks for in one series' distribution.
#[derive(Debug, Clone)]
pub(super) struct Spread {
    /// How many values it has.
    pub(super) count: usize,
    pub(super) p50: f64,
    pub(super) p90: f64,
    pub(super) p99: f64,
    pub(super) max: f64,
}

/// The steps of the distribution of `values` (sorted here, in `unit`) and
/// its spread; `None` for no values.
pub(super) fn steps(values: &mut [f64], unit: Option<&str>) -> Option<(Vec<Point>, Spread)> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let spread = Spread {
        count: n,
        p50: percentile(values, 50.0),
        p90: percentile(values, 90.0),
        p99: percentile(values, 99.0),
        max: values[n - 1],
    };
    // The staircase rises by 1/n at each value; with more values than
    // STEPS, it is sampled at STEPS evenly spaced shares, each drawn at the
    // value that reaches it (the rank ceil(share × n)).
    let ranks: Vec<usize> = if n <= STEPS {
        (1..=n).collect()
    } else {
        let mut r: Vec<usize> = (1..=STEPS).map(|k| (k * n).div_ceil(STEPS)).collect();
        r.dedup();
        r
    };
    let share = |rank: usize| 100.0 * rank as f64 / n as f64;
    let mut points = Vec::with_capacity(2 * ranks.len());
    let mut below = 0;
    for rank in ranks {
        let x = values[rank - 1];
        points.push(point(x, share(below), unit));
        points.push(point(x, share(rank), unit));
        below = rank;
    }
    Some((points, spread))
}

fn point(x: f64, y: f64, unit: Option<&str>) -> Point {
    Point {
        x,
        y,
        x_text: figures::cell(x, unit),
        y_text: figures::with_unit(y, Some("%")),
    }
}

/// A distribution's figures as a table: a row per series with its count,
/// median, 90th and 99th percentiles and highest value, each headed with
/// the values' unit; `None` for a chart that is not a distribution.
pub(super) fn figures(data: &Data) -> Option<(Vec<String>, Vec<Vec<String>>)> {
    if data.spreads.is_empty() {
        return None;
    }
    let unit = data.x_unit.as_deref();
    let headed = |name: &str| match unit {
        Some(u) => format!("{name} ({u})"),
        None => name.to_string(),
    };
    let header = vec![
        "Series".to_string(),
        "Values".to_string(),
        headed("Median"),
        headed("p90"),
        headed("p99"),
        headed("Highest"),
    ];
    let rows = data
        .spreads
        .iter()
        .zip(&data.series.list)
        .filter_map(|(sp, series)| {
            let sp = sp.as_ref()?;
            Some(vec![
                series.name.clone(),
                figures::number(sp.count as f64),
                figures::cell(sp.p50, unit),
                figures::cell(sp.p90, unit),
                figures::cell(sp.p99, unit),
                figures::cell(sp.max, unit),
            ])
        })
        .collect();
    Some((header, rows))
}

/// The `p`th percentile of sorted `values`, interpolated between the two
/// nearest ranks: the method of NumPy's default, which vLLM, SGLang and
/// genai-perf use for the percentiles they write, so a chart of a tool's
/// own requests agrees with the tool's p50 and p99.
pub(super) fn percentile(values: &[f64], p: f64) -> f64 {
    let rank = p / 100.0 * (values.len() - 1) as f64;
    let (lo, hi) = (rank.floor() as usize, rank.ceil() as usize);
    values[lo] + (values[hi] - values[lo]) * (rank - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_interpolate_as_numpy_does() {
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        // numpy.percentile(range(1, 11), [50, 90, 99]) = 5.5, 9.1, 9.91
        assert_eq!(percentile(&v, 50.0), 5.5);
        assert!((percentile(&v, 90.0) - 9.1).abs() < 1e-9);
        assert!((percentile(&v, 99.0) - 9.91).abs() < 1e-9);
        assert_eq!(percentile(&[7.0], 99.0), 7.0);
    }

    #[test]
    fn a_few_values_give_every_step() {
        let (points, spread) = steps(&mut [3.0, 1.0, 2.0, 2.0], Some("ms")).unwrap();
        let xy: Vec<(f64, f64)> = points.iter().map(|p| (p.x, p.y)).collect();
        assert_eq!(
            xy,
            [
                (1.0, 0.0),
                (1.0, 25.0),
                (2.0, 25.0),
                (2.0, 50.0),
                (2.0, 50.0),
                (2.0, 75.0),
                (3.0, 75.0),
                (3.0, 100.0)
            ]
        );
        assert_eq!((spread.count, spread.p50, spread.max), (4, 2.0, 3.0));
        assert_eq!(points[1].y_text, "25%");
        assert_eq!(points[1].x_text, "1");
    }

    #[test]
    fn many_values_are_drawn_through_at_most_steps_quantiles() {
        let mut v: Vec<f64> = (0..50_000).map(|i| f64::from(i % 977)).collect();
        let (points, spread) = steps(&mut v, None).unwrap();
        assert!(points.len() <= 2 * STEPS);
        assert_eq!(points.last().unwrap().y, 100.0);
        assert_eq!(points.last().unwrap().x, 976.0);
        assert_eq!(spread.count, 50_000);
        // Shares never fall.
        assert!(points.windows(2).all(|w| w[0].y <= w[1].y));
        assert!(steps(&mut [], None).is_none());
    }
}
