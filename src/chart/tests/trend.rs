//! Trend and accuracy charts from made-up fixtures: a regressed point is
//! marked by shape and a label (not colour alone), whiskers show with
//! caps wider than their dot, flagged points are hollow, points link to
//! their runs; an accuracy chart draws each score with its interval on a
//! percentage axis that ends at 100%.

use crate::chart::{
    interval, trend, IntervalChart, IntervalPoint, IntervalSeries, TrendChart, TrendPoint,
    TrendSeries,
};

fn point(series: usize, version: usize, value: f64, noise: f64) -> TrendPoint {
    TrendPoint {
        series,
        version,
        value,
        low: value - noise,
        high: value + noise,
        hollow: false,
        regression: None,
        href: format!("/runs/r{series}-{version}/"),
        label: format!("b{version}: {value}, run r{series}-{version}"),
    }
}

pub(super) fn fixture() -> TrendChart {
    let versions: Vec<String> = ["998", "1105", "4023", "6119", "8577", "10040"]
        .iter()
        .map(|v| v.to_string())
        .collect();
    let a = [80.9, 81.2, 81.1, 83.0, 80.9, 81.3];
    let b = [61.0, 62.5, 62.0, 63.1, 63.0, 64.2];
    let mut points = Vec::new();
    for (i, v) in a.iter().enumerate() {
        points.push(point(0, i, *v, 0.06));
    }
    for (i, v) in b.iter().enumerate() {
        points.push(point(1, i, *v, 1.5));
    }
    // 8577: −2.5% from 6119, judged a regression by the site's model.
    points[4].regression = Some("−2.5%".to_string());
    // A flagged run.
    points[7].hollow = true;
    let line = |vals: &[f64], noise: f64| -> Vec<(usize, f64, f64, f64)> {
        vals.iter()
            .enumerate()
            .map(|(i, v)| (i, *v, v - noise, v + noise))
            .collect()
    };
    TrendChart {
        id: "trend-tg128".to_string(),
        title: "tg128: llama 7B Q4_0".to_string(),
        y_title: "Tokens a second (tok/s)".to_string(),
        versions,
        series: vec![
            TrendSeries {
                name: "llama.cpp on Radeon 8060S Graphics".to_string(),
                color: "#e69f00".to_string(),
                line: line(&a, 0.06),
            },
            TrendSeries {
                name: "llama.cpp on RTX 4090".to_string(),
                color: "#56b4e9".to_string(),
                line: line(&b, 1.5),
            },
        ],
        points,
        summary: "tg128 by engine version, 12 points.".to_string(),
    }
}

fn accuracy() -> IntervalChart {
    IntervalChart {
        id: "accuracy-gsm8k".to_string(),
        title: "Accuracy by KV cache dtype".to_string(),
        x_title: "KV cache dtype".to_string(),
        y_title: "Accuracy (%)".to_string(),
        categories: vec!["auto".into(), "fp8".into(), "fp8_e5m2".into()],
        series: vec![
            IntervalSeries {
                name: "gsm8k, 5-shot".to_string(),
                color: "#009e73".to_string(),
            },
            IntervalSeries {
                name: "mmlu".to_string(),
                color: "#cc79a7".to_string(),
            },
        ],
        points: vec![
            IntervalPoint {
                series: 0,
                category: 0,
                score: 98.1,
                low: 96.9,
                high: 99.4,
            },
            IntervalPoint {
                series: 0,
                category: 1,
                score: 90.8,
                low: 89.2,
                high: 92.3,
            },
            IntervalPoint {
                series: 0,
                category: 2,
                score: 84.1,
                low: 82.1,
                high: 86.0,
            },
            IntervalPoint {
                series: 1,
                category: 0,
                score: 71.5,
                low: 70.8,
                high: 72.2,
            },
            IntervalPoint {
                series: 1,
                category: 1,
                score: 71.1,
                low: 70.4,
                high: 71.8,
            },
            IntervalPoint {
                series: 1,
                category: 2,
                score: 69.9,
                low: 69.2,
                high: 70.6,
            },
        ],
        percent: true,
        summary: "gsm8k and mmlu by KV cache dtype.".to_string(),
    }
}

#[test]
fn snapshot_trend() {
    insta::assert_snapshot!(trend(&fixture()).svg);
}

#[test]
fn snapshot_accuracy_intervals() {
    insta::assert_snapshot!(interval(&accuracy()).svg);
}

#[test]
fn a_regression_is_marked_by_shape_and_words() {
    let svg = trend(&fixture()).svg;
    // One triangle, in the points' group, with the change written by it.
    assert_eq!(
        svg.matches("<polygon class=\"plot-point plot-regression\"")
            .count(),
        1,
        "{svg}"
    );
    assert!(svg.contains(">−2.5%</text>"), "{svg}");
    assert!(
        svg.contains(">regression, beyond noise</text>"),
        "the legend says what it is"
    );
    // Without the model's word, nothing is marked: the chart decides
    // nothing of its own.
    let mut c = fixture();
    c.points[4].regression = None;
    let svg = trend(&c).svg;
    assert!(!svg.contains("plot-regression") && !svg.contains("−2.5%"));
}

#[test]
fn whiskers_have_caps_wider_than_their_dot() {
    let svg = trend(&fixture()).svg;
    // A whisker of ±0.06 is under a pixel; its caps, 14 px across, still
    // show beside its 6 px dot.
    assert!(svg.contains("<path class=\"plot-noise\""), "{svg}");
    assert!(svg.contains("M-7 ") && svg.contains("H7"), "{svg}");
    assert_eq!(
        svg.matches("class=\"plot-noise\"").count(),
        12,
        "one whisker a point"
    );
    assert_eq!(
        svg.matches("<polygon class=\"plot-band\"").count(),
        2,
        "a band a series"
    );
    // A plain dot of its series' colour: 2 px and the 2 px stroke its
    // series' group gives it, 3 px in all, as plotters asked.
    assert!(svg.contains("<g stroke=\"#E69F00\" fill=\"#E69F00\" stroke-width=\"2\">"));
    assert!(svg.contains("<circle cy=\"128\" r=\"2\"/>"), "{svg}");
    // Each point links to its run, named once, by its title.
    assert_eq!(svg.matches("<a href=\"/runs/").count(), 12);
    assert_eq!(svg.matches("</title></a>").count(), 12);
    assert!(!svg.contains("aria-label="), "{svg}");
    // The flagged one is hollow.
    assert_eq!(svg.matches("class=\"plot-point plot-flagged\"").count(), 1);
}

#[test]
fn accuracy_axis_ends_at_100_and_each_score_has_its_interval() {
    let svg = interval(&accuracy()).svg;
    assert!(svg.contains(">100</text>"), "{svg}");
    // Padding would have taken it past 100: a share has no more.
    assert!(
        !svg.contains(">105</text>") && !svg.contains(">110</text>"),
        "{svg}"
    );
    // plotters' error bars: a whisker and two caps (one path), and a dot,
    // per score.
    let dots = svg.matches("<circle class=\"plot-interval\"").count();
    let bars = svg.matches("<path class=\"plot-interval\"").count();
    assert_eq!((dots, bars), (6, 6), "{svg}");
    assert!(svg.contains("role=\"img\""));
}
