//! How wide a chart is shown: at least as wide as a phone's column (its
//! box scrolls below that), as wide as its column above it, and a bar
//! chart of a few bars no wider than 480 px; the root says so in its
//! style, with its margins as padding. Takes the fixtures of `tests.rs`;
//! hands on only pass or fail.

use super::{ok, spec, start_table, table, texts};
use crate::record::ChartKind;

/// The root's `style`.
fn style(svg: &str) -> &str {
    let s = svg.split(" style=\"").nth(1).unwrap();
    &s[..s.find('"').unwrap()]
}

#[test]
fn a_few_bars_are_shown_at_most_480_wide_and_more_as_wide_as_their_column() {
    // Two bars (and four, as two series of two): at most 480 px.
    let narrow = ok(&spec(ChartKind::Bar, "start", &["peak"]), &start_table()).svg;
    assert!(
        narrow.contains(r#" width="100%" height="370" "#),
        "{narrow}"
    );
    assert_eq!(
        style(&narrow),
        "box-sizing: border-box; padding: 0 24px 0 64px; min-width: 350px; max-width: 480px"
    );
    let four = table(
        "setup,run,tok_s\na,1,10\na,2,11\nb,1,12\nb,2,13",
        &[("tok_s", "tokens/s")],
    );
    let mut grouped = spec(ChartKind::GroupedBar, "setup", &["tok_s"]);
    grouped.series = Some("run".to_string());
    assert!(style(&ok(&grouped, &four).svg).ends_with("max-width: 480px"));
    // Five bars: as wide as the column.
    let five = table(
        "start,peak\na,1\nb,2\nc,3\nd,4\ne,5",
        &[("peak", "tokens/s")],
    );
    let wide = ok(&spec(ChartKind::Bar, "start", &["peak"]), &five).svg;
    assert!(style(&wide).ends_with("min-width: 350px"), "{wide}");
}

#[test]
fn many_rotated_labels_make_the_drawing_wider_than_a_phone() {
    // Thirty labels turned 45°: each slot at least 20 px, as a line of
    // text turned needs, so the drawing takes more than a phone's width,
    // and its box scrolls there.
    let rows: String = (0..30).map(|i| format!("\nsetting {i},{i}")).collect();
    let t = table(&format!("name,v{rows}"), &[("v", "s")]);
    let svg = ok(&spec(ChartKind::Bar, "name", &["v"]), &t).svg;
    assert!(svg.contains("rotate(-45"));
    let min: i32 = style(&svg)
        .split("min-width: ")
        .nth(1)
        .and_then(|s| s.strip_suffix("px"))
        .unwrap()
        .parse()
        .unwrap();
    assert!(min > 30 * 20, "{min}");
}

#[test]
fn long_category_labels_wrap_or_rotate() {
    let t = table(
        "name,v\nthe quick brown fox,1\nover the lazy dog,2\nand again,3",
        &[("v", "s")],
    );
    let c = ok(&spec(ChartKind::Bar, "name", &["v"]), &t);
    assert!(c.svg.contains("<tspan"), "labels wrap onto two lines");
    assert!(!c.svg.contains("rotate(-45"));
    let rows: String = (0..30)
        .map(|i| format!("\nconfiguration number {i} with a long name,{i}"))
        .collect();
    let t = table(&format!("name,v{rows}"), &[("v", "s")]);
    let c = ok(&spec(ChartKind::Bar, "name", &["v"]), &t);
    assert!(c.svg.contains("rotate(-45"));
    // Every label is there in full.
    let labels = texts(&c.svg);
    for i in 0..30 {
        let want = format!("configuration number {i} with a long name");
        assert!(labels.iter().any(|l| l == &want), "{want}");
    }
}
