//! Tests of the chart module: whole charts rendered from small tables (their
//! SVG, summary and errors), the tick and label helpers, and insta snapshots
//! of one chart of each kind. Takes nothing but its own fixtures; hands on
//! only pass or fail.

use super::draw::chart_id;
use super::scale::{fixed, linear_axis, log_axis, scientific};
use super::*;
use crate::record::{ChartKind, Column};

mod cdf;
mod labels;
mod phone;
mod seconds;
mod trend;
mod width;

/// A table from simple CSV text (no quoting); `units` gives the numeric
/// columns their unit.
fn table(csv: &str, units: &[(&str, &str)]) -> Table {
    let mut lines = csv.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap_or("")
        .split(',')
        .map(str::to_string)
        .collect();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let row_lines = (2..rows.len() + 2).collect();
    let columns = header
        .iter()
        .map(|h| Column {
            name: h.clone(),
            label: None,
            unit: units
                .iter()
                .find(|(n, _)| n == h)
                .map(|(_, u)| u.to_string()),
            description: String::new(),
        })
        .collect();
    Table {
        file: "results.csv".to_string(),
        title: "Results".to_string(),
        columns,
        header,
        rows,
        row_lines,
        path_in_yaml: "tables[0]".to_string(),
        derived: None,
    }
}

fn spec(kind: ChartKind, x: &str, y: &[&str]) -> ChartSpec {
    ChartSpec {
        id: "peak".to_string(),
        title: "Peak throughput".to_string(),
        table: "results.csv".to_string(),
        kind,
        x: x.to_string(),
        y: y.iter().map(|s| s.to_string()).collect(),
        series: None,
        x_label: None,
        y_label: None,
        log_x: false,
        log_y: false,
        caption: None,
        marks: Vec::new(),
        path_in_yaml: "charts[0]".to_string(),
    }
}

fn engines() -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let colors = [("vllm", "#1f77b4"), ("sglang", "#d62728")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let names = [("vllm", "vLLM"), ("sglang", "SGLang")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    (colors, names)
}

fn go(spec: &ChartSpec, table: &Table) -> Result<RenderedChart, ChartError> {
    let (colors, names) = engines();
    render(&ChartInput {
        spec,
        table,
        engine_colors: &colors,
        engine_names: &names,
    })
}

fn ok(spec: &ChartSpec, table: &Table) -> RenderedChart {
    match go(spec, table) {
        Ok(c) => c,
        Err(e) => panic!("chart failed: {e}"),
    }
}

fn err(spec: &ChartSpec, table: &Table) -> ChartError {
    match go(spec, table) {
        Ok(_) => panic!("chart should have failed"),
        Err(e) => e,
    }
}

/// The text of every `<text>` element, in order.
fn texts(svg: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find("<text") {
        rest = &rest[i..];
        let Some(open_end) = rest.find('>') else {
            break;
        };
        let Some(close) = rest.find("</text>") else {
            break;
        };
        let inner = &rest[open_end + 1..close];
        let mut plain = String::new();
        let mut in_tag = false;
        for c in inner.chars() {
            match c {
                '<' => {
                    in_tag = true;
                    if !plain.is_empty() {
                        plain.push(' ');
                    }
                }
                '>' => in_tag = false,
                c if !in_tag => plain.push(c),
                _ => {}
            }
        }
        out.push(plain.trim().to_string());
        rest = &rest[close + 7..];
    }
    out
}

/// The inside of `<g class="{class}">`.
fn group<'s>(svg: &'s str, class: &str) -> &'s str {
    let open = format!("<g class=\"{class}\"");
    let start = svg.find(&open).unwrap();
    let end = start + svg[start..].find("</g>").unwrap();
    &svg[start..end]
}

fn start_table() -> Table {
    table(
        "start,peak\ncompiled,266\nloaded compiled,407",
        &[("peak", "tokens/s")],
    )
}

fn engine_table() -> Table {
    table(
        "model,engine,tok_s\n\
         Llama-3.1-8B,vllm,1210\n\
         Llama-3.1-8B,sglang,1315\n\
         Qwen2.5-32B,vllm,402.5\n\
         Qwen2.5-32B,sglang,388\n\
         Mistral-7B,vllm,1390",
        &[("tok_s", "tokens/s")],
    )
}

fn latency_table() -> Table {
    table(
        "batch,engine,p50\n\
         1,vllm,12\n2,vllm,13.5\n8,vllm,21\n32,vllm,75\n64,vllm,190\n\
         1,sglang,11\n8,sglang,19\n2,sglang,12.5\n32,sglang,60\n64,sglang,140",
        &[("batch", "requests"), ("p50", "ms")],
    )
}

#[test]
fn bar_renders_with_title_desc_and_aria() {
    let c = ok(&spec(ChartKind::Bar, "start", &["peak"]), &start_table());
    let svg = &c.svg;
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.ends_with("</svg>\n"));
    assert!(svg.contains("role=\"img\""));
    let id = chart_id(&ChartInput {
        spec: &spec(ChartKind::Bar, "start", &["peak"]),
        table: &start_table(),
        engine_colors: &BTreeMap::new(),
        engine_names: &BTreeMap::new(),
    });
    assert!(id.starts_with("chart-peak-"));
    assert!(svg.contains(&format!("aria-labelledby=\"{id}-title {id}-desc\"")));
    // <title> and <desc> are the first children.
    let after_root = &svg[svg.find(">\n").unwrap() + 2..];
    assert!(after_root.starts_with(&format!(
        "<title id=\"{id}-title\">Peak throughput</title>\n<desc id=\"{id}-desc\">"
    )));
    assert_eq!(
        c.summary,
        "Bar chart of Peak (tokens/s) by Start: compiled 266, loaded compiled 407."
    );
    assert!(svg.contains(&c.summary));
    // Single series: no legend.
    assert!(!svg.contains("class=\"plot-legend\""));
    assert_eq!(svg.matches("<rect").count(), 2);
}

#[test]
fn bars_start_at_zero_with_round_ticks() {
    let c = ok(&spec(ChartKind::Bar, "start", &["peak"]), &start_table());
    let t = texts(&c.svg);
    assert!(t.contains(&"0".to_string()), "{t:?}");
    assert!(t.contains(&"100".to_string()), "{t:?}");
    assert!(t.contains(&"400".to_string()), "{t:?}");
    // Headroom: the axis goes past the largest bar.
    assert!(t.contains(&"500".to_string()), "{t:?}");
}

#[test]
fn categorical_order_is_kept() {
    let t = table("name,v\nzeta,3\nalpha,1\nmu,2", &[("v", "s")]);
    let c = ok(&spec(ChartKind::Bar, "name", &["v"]), &t);
    let labels = texts(&c.svg);
    let pos = |s: &str| labels.iter().position(|l| l == s).unwrap();
    assert!(pos("zeta") < pos("alpha") && pos("alpha") < pos("mu"));
    assert!(c.summary.contains("zeta 3, alpha 1, mu 2"));
}

#[test]
fn grouped_bar_uses_engine_colours_and_names() {
    let mut s = spec(ChartKind::GroupedBar, "model", &["tok_s"]);
    s.series = Some("engine".to_string());
    let c = ok(&s, &engine_table());
    assert!(c.svg.contains("#1F77B4"), "vllm colour");
    assert!(c.svg.contains("#D62728"), "sglang colour");
    let t = texts(&c.svg);
    assert!(t.contains(&"vLLM".to_string()) && t.contains(&"SGLang".to_string()));
    assert!(c.svg.contains("class=\"plot-legend\""));
    // One bar per (model, engine) pair, plus two legend swatches.
    assert_eq!(c.svg.matches("<rect").count(), 5 + 2);
    // Categories in order of first appearance (a label may wrap after a
    // hyphen at the narrowest width).
    let pos = |s: &str| t.iter().position(|l| l.replace("- ", "-") == s).unwrap();
    assert!(pos("Llama-3.1-8B") < pos("Qwen2.5-32B"));
    assert!(pos("Qwen2.5-32B") < pos("Mistral-7B"));
    assert_eq!(
        c.summary,
        "Grouped bar chart of Tok/s (tokens/s) by Model: Llama-3.1-8B: vLLM 1,210, \
         SGLang 1,315; Qwen2.5-32B: vLLM 402.5, SGLang 388; Mistral-7B: vLLM 1,390."
    );
}

#[test]
fn other_series_take_the_palette_in_order() {
    let t = table(
        "mode,setup,v\na,eager,1\na,graphs,2\nb,eager,3\nb,graphs,4",
        &[("v", "s")],
    );
    let mut s = spec(ChartKind::GroupedBar, "mode", &["v"]);
    s.series = Some("setup".to_string());
    let c = ok(&s, &t);
    let orange = c.svg.find("#E69F00").unwrap();
    let blue = c.svg.find("#56B4E9").unwrap();
    assert!(orange < blue, "first series gets the first colour");
    assert!(!c.svg.contains("#1F77B4"));
}

#[test]
fn bar_with_series_colours_each_bar() {
    let t = table(
        "setup,engine,v\nA,vllm,10\nB,sglang,12\nC,tgi,9",
        &[("v", "s")],
    );
    let mut s = spec(ChartKind::Bar, "setup", &["v"]);
    s.series = Some("engine".to_string());
    let c = ok(&s, &t);
    assert!(c.svg.contains("#1F77B4") && c.svg.contains("#D62728"));
    assert!(c.svg.contains("#E69F00"), "tgi is not an engine: palette");
    assert!(texts(&c.svg).contains(&"tgi".to_string()));
    assert_eq!(
        c.summary,
        "Bar chart of V (s) by Setup: A 10 (vLLM), B 12 (SGLang), C 9 (tgi)."
    );
}

#[test]
fn several_y_columns_make_series_named_by_column() {
    let t = table(
        "engine,p50,p99\nvllm,12,40\nsglang,11,35",
        &[("p50", "ms"), ("p99", "ms")],
    );
    let c = ok(&spec(ChartKind::GroupedBar, "engine", &["p50", "p99"]), &t);
    let labels = texts(&c.svg);
    assert!(labels.contains(&"P50".to_string()) && labels.contains(&"P99".to_string()));
    // A shared unit titles the axis.
    assert!(labels.contains(&"ms".to_string()), "{labels:?}");
    assert!(c.svg.contains("#E69F00") && c.svg.contains("#56B4E9"));
    assert_eq!(
        c.summary,
        "Grouped bar chart of ms by Engine: vllm: P50 12, P99 40; sglang: P50 11, P99 35."
    );
    // Different units: the axis lists the columns.
    let t = table(
        "engine,p50,tok\nvllm,12,40\nsglang,11,35",
        &[("p50", "ms"), ("tok", "tokens")],
    );
    let c = ok(&spec(ChartKind::Bar, "engine", &["p50", "tok"]), &t);
    assert!(texts(&c.svg).contains(&"P50 (ms), Tok (tokens)".to_string()));
}

#[test]
fn line_sorts_x_and_draws_markers() {
    let mut s = spec(ChartKind::Line, "batch", &["p50"]);
    s.series = Some("engine".to_string());
    let c = ok(&s, &latency_table());
    let marks = group(&c.svg, "plot-marks");
    assert_eq!(marks.matches("<polyline").count(), 2, "two lines");
    // A dot at each point: one path of round caps per series, a stroke of
    // no length (`h0`) per point, round however the plot is stretched.
    assert_eq!(marks.matches("<path class=\"plot-dots\"").count(), 2);
    assert_eq!(marks.matches("h0").count(), 10, "points");
    assert_eq!(
        marks
            .matches("vector-effect=\"non-scaling-stroke\"")
            .count(),
        4
    );
    let keys = group(&c.svg, "plot-keys");
    assert_eq!(
        (
            keys.matches("<line").count(),
            keys.matches("<circle").count()
        ),
        (2, 2),
        "the legend's swatches"
    );
    // SGLang's rows are out of order in the file; its line is sorted.
    let sglang_line = c
        .svg
        .lines()
        .filter(|l| l.starts_with("<polyline") && l.contains("#D62728"))
        .find(|l| l.matches(',').count() == 5)
        .unwrap();
    let xs: Vec<i32> = sglang_line
        .split("points=\"")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .filter_map(|p| p.split(',').next()?.parse().ok())
        .collect();
    assert!(xs.windows(2).all(|w| w[0] <= w[1]), "{xs:?}");
    assert!(c.summary.starts_with(
        "Line chart of P50 (ms) against Batch (requests): 2 series (vLLM, SGLang), 10 points"
    ));
}

#[test]
fn log_axes_render_with_decade_ticks() {
    let mut s = spec(ChartKind::Line, "batch", &["p50"]);
    s.series = Some("engine".to_string());
    s.log_x = true;
    s.log_y = true;
    let c = ok(&s, &latency_table());
    let t = texts(&c.svg);
    for tick in ["1", "10", "100"] {
        assert!(t.contains(&tick.to_string()), "{tick} in {t:?}");
    }
    assert!(c.summary.contains("(logarithmic axes)"));
    let t = table("x,y\n1,0.002\n10,0.03\n100,4000", &[("x", "s"), ("y", "s")]);
    let mut s = spec(ChartKind::Scatter, "x", &["y"]);
    s.log_y = true;
    let labels = texts(&ok(&s, &t).svg);
    assert!(labels.contains(&"0.01".to_string()), "{labels:?}");
    assert!(labels.contains(&"1,000".to_string()), "{labels:?}");
}

#[test]
fn scatter_renders_points_per_series() {
    let mut s = spec(ChartKind::Scatter, "batch", &["p50"]);
    s.series = Some("engine".to_string());
    let c = ok(&s, &latency_table());
    let marks = group(&c.svg, "plot-marks");
    assert_eq!(marks.matches("<path class=\"plot-dots\"").count(), 2);
    assert_eq!(marks.matches("h0").count(), 10);
    assert!(!marks.contains("<polyline"));
    assert_eq!(group(&c.svg, "plot-keys").matches("<circle").count(), 2);
}

#[test]
fn empty_cells_are_skipped() {
    let t = table("x,y\n1,5\n2,\n3,7\n,8", &[("x", "s"), ("y", "s")]);
    let c = ok(&spec(ChartKind::Line, "x", &["y"]), &t);
    assert_eq!(
        c.summary,
        "Line chart of Y (s) against X (s): 5 at 1, 7 at 3."
    );
    let t = table("x,y\na,5\nb,\nc,7", &[("y", "s")]);
    let c = ok(&spec(ChartKind::Bar, "x", &["y"]), &t);
    assert_eq!(c.svg.matches("<rect").count(), 2);
    assert!(c.summary.contains("b no value"));
}

#[test]
fn hostile_text_is_escaped() {
    let evil = "<script>alert(1)</script> & \"q\" 'a'";
    let t = Table {
        rows: vec![
            vec![evil.to_string(), evil.to_string(), "3".to_string()],
            vec!["b".to_string(), "vllm".to_string(), "4".to_string()],
        ],
        ..table("name,who,v", &[("v", evil)])
    };
    let t = Table {
        row_lines: vec![2, 3],
        ..t
    };
    let mut s = spec(ChartKind::Bar, "name", &["v"]);
    s.title = evil.to_string();
    s.series = Some("who".to_string());
    s.x_label = Some(evil.to_string());
    let c = ok(&s, &t);
    assert!(!c.svg.contains("<script"), "{}", c.svg);
    assert!(!c.svg.contains("\"q\""));
    let escaped = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;a&#39;";
    assert!(c.svg.contains(&format!("-title\">{escaped}</title>")));
    // The category, the series (legend) and the axis title.
    assert!(c.svg.matches(escaped).count() >= 3, "{}", c.svg);
    // The summary stays plain text; the SVG escapes it.
    assert!(c.summary.contains(evil));
    assert!(!c.svg.contains(&c.summary));
    // Hostile chart ids cannot break out of attributes either.
    let mut s = spec(ChartKind::Bar, "name", &["v"]);
    s.id = "a\"><script>".to_string();
    let c = ok(&s, &t);
    assert!(!c.svg.contains("<script"));
    assert!(c.svg.contains("id=\"chart-a---script--"), "{}", c.svg);
}

#[test]
fn control_characters_and_newlines_are_cleaned() {
    let t = table("name,v\nline one\u{1}\u{0}x,3", &[("v", "s")]);
    let mut s = spec(ChartKind::Bar, "name", &["v"]);
    s.title = "two\nlines".to_string();
    let c = ok(&s, &t);
    assert!(!c.svg.contains('\u{1}') && !c.svg.contains('\u{0}'));
    assert!(c.svg.contains(">two lines</title>"));
    assert!(!c.summary.contains('\n'));
}

#[test]
fn error_missing_column() {
    let e = err(&spec(ChartKind::Bar, "start", &["nope"]), &start_table());
    assert_eq!(e.row_line, None);
    assert_eq!(e.column.as_deref(), Some("nope"));
    assert_eq!(
        e.message,
        "column \"nope\" is not in table \"results.csv\" (its columns are \"start\", \"peak\")"
    );
    let mut s = spec(ChartKind::Bar, "start", &["peak"]);
    s.series = Some("engine".to_string());
    assert_eq!(err(&s, &start_table()).column.as_deref(), Some("engine"));
    let e = err(&spec(ChartKind::Bar, "begin", &["peak"]), &start_table());
    assert_eq!(e.column.as_deref(), Some("begin"));
}

#[test]
fn error_no_rows() {
    let e = err(
        &spec(ChartKind::Bar, "start", &["peak"]),
        &table("start,peak", &[("peak", "s")]),
    );
    assert_eq!(
        e,
        ChartError::new(None, None, "the table has no rows".to_string())
    );
    assert_eq!(e.to_string(), "the table has no rows");
}

#[test]
fn error_not_a_number() {
    let t = table("start,peak\na,1\nb,2\nc,fast", &[("peak", "s")]);
    let e = err(&spec(ChartKind::Bar, "start", &["peak"]), &t);
    assert_eq!(e.row_line, Some(4));
    assert_eq!(e.column.as_deref(), Some("peak"));
    assert_eq!(
        e.message,
        "row 4, column \"peak\": expected a number, found \"fast\""
    );
    // NaN parses in Rust but is no number to draw.
    let t = table("start,peak\na,NaN", &[("peak", "s")]);
    let e = err(&spec(ChartKind::Bar, "start", &["peak"]), &t);
    assert_eq!(
        e.message,
        "row 2, column \"peak\": expected a number, found \"NaN\""
    );
    // `inf` (a request rate of requests sent all at once, as the tools
    // write it) has no place on an axis: it is not drawn, and said so.
    let t = table("start,peak\na,inf\nb,2", &[("peak", "s")]);
    let c = ok(&spec(ChartKind::Bar, "start", &["peak"]), &t);
    assert!(
        c.summary
            .ends_with("; 1 value at an unbounded value (inf), not drawn."),
        "{}",
        c.summary
    );
    // A non-number as x of a line chart.
    let t = table("x,y\n1,2\nbig,3", &[("x", "s"), ("y", "s")]);
    let e = err(&spec(ChartKind::Line, "x", &["y"]), &t);
    assert_eq!((e.row_line, e.column.as_deref()), (Some(3), Some("x")));
    assert_eq!(
        e.message,
        "row 3, column \"x\": expected a number, found \"big\""
    );
}

#[test]
fn error_log_axis_needs_positive_values() {
    let t = table("x,y\n1,2\n2,0\n3,-1", &[("x", "s"), ("y", "s")]);
    let mut s = spec(ChartKind::Line, "x", &["y"]);
    s.log_y = true;
    let e = err(&s, &t);
    assert_eq!((e.row_line, e.column.as_deref()), (Some(3), Some("y")));
    assert_eq!(
        e.message,
        "row 3, column \"y\": a logarithmic axis needs values above zero, found \"0\""
    );
    let t = table("x,y\n0,2", &[("x", "s"), ("y", "s")]);
    let mut s = spec(ChartKind::Scatter, "x", &["y"]);
    s.log_x = true;
    let e = err(&s, &t);
    assert_eq!((e.row_line, e.column.as_deref()), (Some(2), Some("x")));
}

#[test]
fn error_line_needs_numeric_x() {
    let e = err(&spec(ChartKind::Line, "start", &["peak"]), &start_table());
    assert_eq!((e.row_line, e.column.as_deref()), (None, Some("start")));
    assert_eq!(
        e.message,
        "a line chart needs a numeric x, but column \"start\" has no unit"
    );
    let e = err(
        &spec(ChartKind::Scatter, "start", &["peak"]),
        &start_table(),
    );
    assert_eq!(
        e.message,
        "a scatter chart needs a numeric x, but column \"start\" has no unit"
    );
}

#[test]
fn error_short_row_and_no_values_and_duplicates() {
    let mut t = start_table();
    t.rows[1].truncate(1);
    let e = err(&spec(ChartKind::Bar, "start", &["peak"]), &t);
    assert_eq!((e.row_line, e.column.as_deref()), (Some(3), Some("peak")));
    assert_eq!(
        e.message,
        "row 3, column \"peak\": the row has 1 cells, expected 2"
    );

    let t = table("start,peak\na,\nb,", &[("peak", "s")]);
    let e = err(&spec(ChartKind::Bar, "start", &["peak"]), &t);
    assert_eq!(
        e.message,
        "column \"peak\" has no values to plot (every cell is empty)"
    );

    let mut t = engine_table();
    t.rows
        .push(vec!["Llama-3.1-8B".into(), "vllm".into(), "1".into()]);
    t.row_lines.push(7);
    let mut s = spec(ChartKind::GroupedBar, "model", &["tok_s"]);
    s.series = Some("engine".to_string());
    let e = err(&s, &t);
    assert_eq!((e.row_line, e.column.as_deref()), (Some(7), Some("engine")));
    assert_eq!(
        e.message,
        "row 7: a second value for \"Llama-3.1-8B\" in series \"vLLM\" (the first is on \
         row 2); a grouped-bar chart takes one row per x value and series"
    );
}

#[test]
fn output_is_deterministic() {
    let mut s = spec(ChartKind::Line, "batch", &["p50"]);
    s.series = Some("engine".to_string());
    let a = ok(&s, &latency_table());
    let b = ok(&s, &latency_table());
    assert_eq!(a, b);
    let mut s = spec(ChartKind::GroupedBar, "model", &["tok_s"]);
    s.series = Some("engine".to_string());
    assert_eq!(ok(&s, &engine_table()), ok(&s, &engine_table()));
}

#[test]
fn ids_differ_between_charts_with_the_same_id() {
    let a = ok(&spec(ChartKind::Bar, "start", &["peak"]), &start_table());
    let other = table("start,peak\nx,1", &[("peak", "s")]);
    let b = ok(&spec(ChartKind::Bar, "start", &["peak"]), &other);
    let id = |svg: &str| svg.split("<title id=\"").nth(1).unwrap()[..30].to_string();
    assert_ne!(id(&a.svg), id(&b.svg));
}

#[test]
fn theme_follows_the_page() {
    let mut s = spec(ChartKind::Line, "batch", &["p50"]);
    s.series = Some("engine".to_string());
    let svg = ok(&s, &latency_table()).svg;
    assert!(!svg.contains("#000000"), "no hard black");
    assert!(
        !svg.contains("#FFFFFF") && !svg.contains("white"),
        "no white"
    );
    assert!(!svg.contains("font-family"));
    assert!(svg.contains("<g class=\"plot-labels\" fill=\"currentColor\" font-size=\"12\">"));
    assert!(svg.contains("<g class=\"plot-grid\""));
    assert!(svg.contains("stroke=\"currentColor\""));
    // The grid is faint: its lines take the group's stroke.
    let grid = svg.split("<g class=\"plot-grid\"").nth(1).unwrap();
    let grid = &grid[..grid.find("</g>").unwrap()];
    assert!(grid.starts_with(" stroke=\"currentColor\" stroke-opacity=\"0.15\""));
    assert!(grid
        .lines()
        .skip(1)
        .all(|l| l.starts_with("<line") && !l.contains("stroke")));
    // Drawn at a pixel a unit, as wide as its column: no viewBox on the
    // root, the plot's own stretched across it.
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot plot-line\" width=\"100%\" height=\""));
    assert_eq!(svg.matches("viewBox=").count(), 1);
    assert!(svg.contains("<svg class=\"plot-area\" y=\""));
    assert!(svg.contains("viewBox=\"0 0 1000 300\" preserveAspectRatio=\"none\""));
}

#[test]
fn tick_labels_have_no_float_noise() {
    assert_eq!(fixed(0.30000000000000004, 1), "0.3");
    assert_eq!(fixed(1234567.0, 0), "1,234,567");
    assert_eq!(fixed(-2500.0, 0), "−2,500");
    assert_eq!(fixed(-0.0, 2), "0");
    let a = linear_axis(0.0, 0.7, 5);
    let labels: Vec<&str> = a.ticks.iter().map(|t| t.1.as_str()).collect();
    assert_eq!(labels, ["0", "0.2", "0.4", "0.6", "0.8"]);
    let a = linear_axis(0.0, 1.1, 5);
    let labels: Vec<&str> = a.ticks.iter().map(|t| t.1.as_str()).collect();
    // plotters' steps: 1, 2 or 5 × 10^k.
    assert_eq!(labels, ["0", "0.2", "0.4", "0.6", "0.8", "1", "1.2"]);
    let a = linear_axis(0.1, 0.3, 5);
    assert_eq!(a.ticks.first().map(|t| t.1.as_str()), Some("0.1"));
    assert_eq!(a.ticks.last().map(|t| t.1.as_str()), Some("0.3"));
    let a = linear_axis(0.0, 12000.0, 5);
    assert!(a.ticks.iter().any(|t| t.1 == "10,000"));
    assert_eq!(scientific(3e-7 * 1.0000000000000002), "3e-7");
    assert_eq!(scientific(2.5e9), "2.5e9");
    let a = log_axis(3.0, 70.0, |_| true);
    let labels: Vec<&str> = a.ticks.iter().map(|t| t.1.as_str()).collect();
    assert_eq!(labels, ["5", "10", "20", "50"]);
    assert_eq!((a.lo, a.hi), (3.0, 70.0));
    // Many decades: every decade, then every other one when crowded.
    let a = log_axis(1.0, 1e8, |a| a.ticks.len() <= 5);
    let labels: Vec<&str> = a.ticks.iter().map(|t| t.1.as_str()).collect();
    assert_eq!(labels, ["1", "100", "10,000", "1,000,000", "100,000,000"]);
}

#[test]
fn negative_bars_show_below_zero() {
    let t = table("name,delta\na,-20\nb,35", &[("delta", "%")]);
    let c = ok(&spec(ChartKind::Bar, "name", &["delta"]), &t);
    let labels = texts(&c.svg);
    assert!(labels.contains(&"0".to_string()));
    assert!(labels.iter().any(|l| l.starts_with('−')), "{labels:?}");
}

#[test]
fn log_y_bars_rise_from_the_axis_floor() {
    let mut s = spec(ChartKind::Bar, "start", &["peak"]);
    s.log_y = true;
    let c = ok(&s, &start_table());
    let labels = texts(&c.svg);
    assert!(labels.contains(&"200".to_string()), "{labels:?}");
    let marks = group(&c.svg, "plot-marks");
    assert_eq!(marks.matches("<rect").count(), 2);
    assert!(c.summary.contains("(logarithmic y axis)"));
    // The smallest bar, on a power of ten, still shows: the floor is a
    // decade lower.
    let t = table("name,v\na,10\nb,1000", &[("v", "s")]);
    let mut s = spec(ChartKind::Bar, "name", &["v"]);
    s.log_y = true;
    let c = ok(&s, &t);
    assert!(texts(&c.svg).contains(&"1".to_string()), "{}", c.svg);
    let heights: Vec<i32> = group(&c.svg, "plot-marks")
        .split("height=\"")
        .skip(1)
        .filter_map(|h| h.split('"').next()?.parse().ok())
        .collect();
    assert!(heights.iter().all(|&h| h >= 50), "{heights:?}");
}

#[test]
fn summary_keeps_names_with_commas_apart() {
    let t = Table {
        rows: vec![
            vec!["NInfer, client".into(), "2".into()],
            vec!["NInfer, server".into(), "600".into()],
        ],
        row_lines: vec![2, 3],
        ..table("label,ms", &[("ms", "ms")])
    };
    let c = ok(&spec(ChartKind::Bar, "label", &["ms"]), &t);
    assert_eq!(
        c.summary,
        "Bar chart of Ms by Label: NInfer, client: 2; NInfer, server: 600."
    );
}

#[test]
fn renders_from_many_threads() {
    let t = engine_table();
    let mut s = spec(ChartKind::GroupedBar, "model", &["tok_s"]);
    s.series = Some("engine".to_string());
    let one = ok(&s, &t);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4).map(|_| scope.spawn(|| ok(&s, &t))).collect();
        for h in handles {
            assert_eq!(h.join().ok(), Some(one.clone()));
        }
    });
}

#[test]
fn renders_many_points_in_two_series() {
    // Speed is measured by the benchmark, not here; this checks that a
    // larger table renders whole.
    let rows: String = (1..=200)
        .map(|i| {
            format!(
                "\n{i},{},{}",
                i * 3,
                if i % 2 == 0 { "vllm" } else { "sglang" }
            )
        })
        .collect();
    let t = table(&format!("x,y,engine{rows}"), &[("x", "s"), ("y", "s")]);
    let mut s = spec(ChartKind::Line, "x", &["y"]);
    s.series = Some("engine".to_string());
    let svg = ok(&s, &t).svg;
    assert!(
        svg.contains("#1F77B4") && svg.contains("#D62728"),
        "both engine colours"
    );
}

#[test]
fn snapshot_bar() {
    let mut s = spec(ChartKind::Bar, "start", &["peak"]);
    s.y_label = Some("peak tokens/s".to_string());
    insta::assert_snapshot!(ok(&s, &start_table()).svg);
}

#[test]
fn snapshot_grouped_bar_engines() {
    let mut s = spec(ChartKind::GroupedBar, "model", &["tok_s"]);
    s.id = "by-model".to_string();
    s.title = "Throughput by model".to_string();
    s.series = Some("engine".to_string());
    insta::assert_snapshot!(ok(&s, &engine_table()).svg);
}

#[test]
fn snapshot_line_log_y() {
    let mut s = spec(ChartKind::Line, "batch", &["p50"]);
    s.id = "latency".to_string();
    s.title = "Median latency by batch size".to_string();
    s.series = Some("engine".to_string());
    s.log_y = true;
    insta::assert_snapshot!(ok(&s, &latency_table()).svg);
}

#[test]
fn snapshot_scatter() {
    let t = table(
        "prompt_tokens,ttft,setup\n\
         128,41,eager\n512,88,eager\n1024,160,eager\n2048,305,eager\n\
         128,35,graphs\n512,70,graphs\n1024,131,graphs\n2048,262,graphs",
        &[("prompt_tokens", "tokens"), ("ttft", "ms")],
    );
    let mut s = spec(ChartKind::Scatter, "prompt_tokens", &["ttft"]);
    s.id = "ttft".to_string();
    s.title = "Time to first token".to_string();
    s.series = Some("setup".to_string());
    s.y_label = Some("time to first token (ms)".to_string());
    insta::assert_snapshot!(ok(&s, &t).svg);
}
