//! Charts on a phone: drawn at a pixel a unit, no text is ever shown
//! below 11 px, whatever the width (the root has no viewBox to shrink it;
//! an axis title too long for its axis wraps rather than shrinks past 11
//! px), the x axis's labels fit the narrowest width a chart takes (350 px,
//! margins included), and a percentage axis ends at 100% unless a value
//! goes over it. Takes the fixtures of `tests.rs`; hands on only pass or
//! fail.

use super::{ok, spec, table, texts};
use crate::chart::layout::{DESIGN_WIDTH, FONT, MIN_FONT};
use crate::chart::text::text_width;
use crate::record::{ChartKind, Mark};

/// Every font size the SVG sets (the labels' group's and each text's own).
fn font_sizes(svg: &str) -> Vec<f64> {
    svg.split("font-size=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].parse().unwrap())
        .collect()
}

/// The root's padding, left and right, in px.
fn margins(svg: &str) -> (f64, f64) {
    let s = svg.split("padding: 0 ").nth(1).unwrap();
    let px: Vec<f64> = s
        .split("px")
        .take(3)
        .map(|p| p.trim().parse().unwrap_or(0.0))
        .collect();
    (px[2], px[0])
}

/// A run's gauges over 108 s: the KV cache in use (a fraction) and the
/// requests running.
fn series(kv_top: f64) -> crate::record::Table {
    let mut csv = String::from("t_s,kv_usage,running\n");
    for i in 0..=108 {
        let kv = if i == 60 {
            kv_top
        } else {
            0.9 * f64::from(i % 10) / 10.0
        };
        csv.push_str(&format!("{}.{},{kv},{}\n", i, i % 7, i % 12));
    }
    table(
        &csv,
        &[
            ("t_s", "s"),
            ("kv_usage", "fraction"),
            ("running", "requests"),
        ],
    )
}

#[test]
fn no_text_is_shown_below_eleven_px() {
    let mut long = spec(ChartKind::Line, "t_s", &["running"]);
    long.y_label = Some(
        "Requests the server ran at once, as its running gauge read them every 250 ms over the whole run"
            .to_string(),
    );
    long.x_label = Some(
        "Seconds from the first reading of the server's metrics to the last, as the recorder timed them"
            .to_string(),
    );
    let t = series(0.99);
    let svg = ok(&long, &t).svg;
    // Drawn at a pixel a unit: the only viewBox is the stretched plot's,
    // which holds no text.
    assert_eq!(svg.matches("viewBox=").count(), 1);
    let area = svg.split("<svg class=\"plot-area\"").nth(1).unwrap();
    assert!(!area[..area.find("</svg>").unwrap()].contains("<text"));
    let sizes = font_sizes(&svg);
    assert!(sizes.contains(&FONT), "{sizes:?}");
    assert!(sizes.iter().all(|&s| s >= MIN_FONT), "{sizes:?}");
    // The titles too long for their axes wrap onto more lines, whole.
    assert!(svg.matches("<tspan").count() >= 2, "{svg}");
    let all = texts(&svg)
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(all.contains("as the recorder timed them"), "{all}");
    assert!(all.contains("over the whole run"), "{all}");
    // Bars, with their values over them (11 px).
    let bars = table(
        "setup,ttft_p50,ttft_p99\nvLLM 0.30.0,28.41,68.57",
        &[("ttft_p50", "s"), ("ttft_p99", "s")],
    );
    let svg = ok(
        &spec(ChartKind::Bar, "setup", &["ttft_p50", "ttft_p99"]),
        &bars,
    )
    .svg;
    assert!(
        svg.contains("class=\"plot-value\" font-size=\"11\""),
        "{svg}"
    );
    assert!(font_sizes(&svg).iter().all(|&s| s >= MIN_FONT));
}

#[test]
fn the_x_labels_fit_the_narrowest_width() {
    let svg = ok(&spec(ChartKind::Line, "t_s", &["running"]), &series(0.99)).svg;
    assert!(svg.contains(&format!("min-width: {DESIGN_WIDTH}px")));
    let (left, right) = margins(&svg);
    let plot = f64::from(DESIGN_WIDTH) - left - right;
    // The tick labels under the plot, at their share of its width.
    let ticks: Vec<(f64, String)> = svg
        .lines()
        .filter(|l| l.starts_with("<text x=\"") && l.contains("%\" y=") && l.contains("middle\">"))
        .filter(|l| !l.contains("class="))
        .map(|l| {
            let share: f64 = l[9..l.find('%').unwrap()].parse().unwrap();
            let label = &l[l.find('>').unwrap() + 1..l.find("</text>").unwrap()];
            (share / 100.0 * plot, label.to_string())
        })
        .collect();
    let labels: Vec<&str> = ticks.iter().map(|t| t.1.as_str()).collect();
    assert_eq!(labels, ["0", "20", "40", "60", "80", "100", "120"]);
    for w in ticks.windows(2) {
        let room = w[1].0 - w[0].0;
        let need = (text_width(&w[0].1, FONT) + text_width(&w[1].1, FONT)) / 2.0;
        assert!(
            room >= need + 8.0,
            "{} and {}: {room} px apart",
            w[0].1,
            w[1].1
        );
    }
    // The end labels stay in the margins.
    let last = ticks.last().unwrap();
    assert!(text_width(&last.1, FONT) / 2.0 <= right, "{right}");
}

#[test]
fn a_percentage_axis_ends_at_100_unless_a_value_goes_over() {
    let kv = spec(ChartKind::Line, "t_s", &["kv_usage"]);
    // The y axis's labels, bottom to top.
    let axis = |svg: &str| -> Vec<String> {
        svg.lines()
            .filter(|l| l.starts_with("<text x=\"-10\""))
            .map(|l| l[l.find('>').unwrap() + 1..l.find("</text>").unwrap()].to_string())
            .collect()
    };
    // Up to 99.87% (a value the padding took to 125% before).
    let svg = ok(&kv, &series(0.9987)).svg;
    assert_eq!(axis(&svg), ["0", "20", "40", "60", "80", "100"], "{svg}");
    // Full: still 100.
    assert_eq!(axis(&ok(&kv, &series(1.0)).svg).last().unwrap(), "100");
    // Over: the axis takes it in.
    let over = axis(&ok(&kv, &series(1.2)).svg);
    let top: f64 = over.last().unwrap().parse().unwrap();
    assert!(top >= 120.0, "{over:?}");
    // A mark over 100% counts as a value.
    let mut marked = kv.clone();
    marked.marks = vec![Mark {
        y: 1.1,
        label: "Over the pool".to_string(),
    }];
    let top: f64 = axis(&ok(&marked, &series(0.5)).svg)
        .last()
        .unwrap()
        .parse()
        .unwrap();
    assert!(top > 100.0);
    // Bars of shares: 100 too.
    let shares = table("setup,hit\na,0.97\nb,0.42", &[("hit", "fraction")]);
    let svg = ok(&spec(ChartKind::Bar, "setup", &["hit"]), &shares).svg;
    assert_eq!(axis(&svg).last().unwrap(), "100", "{svg}");
    // Not a percentage: padded past the top value, as before.
    let counts = table("setup,n\na,97\nb,42", &[("n", "requests")]);
    let svg = ok(&spec(ChartKind::Bar, "setup", &["n"]), &counts).svg;
    let top: f64 = axis(&svg).last().unwrap().parse().unwrap();
    assert!(top > 100.0, "{svg}");
}
