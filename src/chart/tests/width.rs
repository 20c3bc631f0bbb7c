//! How wide a chart is drawn: a bar chart of a few bars narrower than the
//! rest, saying its width to the stylesheet, so that it fits a phone. Takes
//! the fixtures of `tests.rs`; hands on only pass or fail.

use super::{ok, spec, start_table, table};
use crate::record::ChartKind;

#[test]
fn a_few_bars_are_drawn_narrow_and_more_at_full_width() {
    // Two bars (and four, as two series of two): a drawing of 480 that
    // says its width to the stylesheet, so that it fits a phone.
    let narrow = ok(&spec(ChartKind::Bar, "start", &["peak"]), &start_table()).svg;
    assert!(
        narrow.contains(r#"viewBox="0 0 480 370" width="480" height="370" style="--chart-w: 480""#),
        "{narrow}"
    );
    let four = table(
        "setup,run,tok_s\na,1,10\na,2,11\nb,1,12\nb,2,13",
        &[("tok_s", "tokens/s")],
    );
    let mut grouped = spec(ChartKind::GroupedBar, "setup", &["tok_s"]);
    grouped.series = Some("run".to_string());
    assert!(ok(&grouped, &four).svg.contains(r#"width="480""#));
    // Five bars: the usual 720, with nothing for the stylesheet to read.
    let five = table(
        "start,peak\na,1\nb,2\nc,3\nd,4\ne,5",
        &[("peak", "tokens/s")],
    );
    let wide = ok(&spec(ChartKind::Bar, "start", &["peak"]), &five).svg;
    assert!(
        wide.contains(r#"width="720""#) && !wide.contains("--chart-w"),
        "{wide}"
    );
}
