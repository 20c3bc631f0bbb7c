//! Tests of distributions (`cdf` charts) and of marks (reference lines):
//! the steps drawn, the summary and figures a reader gets, the errors, and
//! insta snapshots of a distribution of two setups and of a line with a
//! mark. Takes the fixtures of `tests.rs`; hands on only pass or fail.

use super::{err, ok, spec, table, texts};
use crate::record::{ChartKind, Mark};

/// Time to first token of eight requests under two setups.
fn requests() -> crate::record::Table {
    table(
        "source,ttft_ms\n\
         vllm,120\nvllm,80\nvllm,100\nvllm,400\n\
         sglang,90\nsglang,95\nsglang,,\nsglang,300",
        &[("ttft_ms", "ms")],
    )
}

fn ttft_cdf() -> crate::record::ChartSpec {
    let mut s = spec(ChartKind::Cdf, "ttft_ms", &[]);
    s.id = "ttft-cdf".to_string();
    s.title = "Time to first token, per request".to_string();
    s.series = Some("source".to_string());
    s
}

#[test]
fn a_distribution_says_its_percentiles_per_series() {
    let c = ok(&ttft_cdf(), &requests());
    // Percentiles as NumPy computes them: vLLM's four values 80, 100, 120
    // and 400 have a median of 110; the empty SGLang cell is no value.
    assert_eq!(
        c.summary,
        "Cumulative distribution of TTFT (ms): vLLM: median 110, p90 316, p99 391.6, \
         highest 400 (4 values); SGLang: median 95, p90 259, p99 295.9, highest 300 (3 values)."
    );
    let (header, rows) = c.figures.expect("a distribution has figures");
    assert_eq!(
        header,
        [
            "Series",
            "Values",
            "Median (ms)",
            "p90 (ms)",
            "p99 (ms)",
            "Highest (ms)"
        ]
    );
    assert_eq!(
        rows,
        [
            ["vLLM", "4", "110", "316", "391.6", "400"],
            ["SGLang", "3", "95", "259", "295.9", "300"]
        ]
    );
    assert!(c.svg.contains("class=\"plot plot-cdf\""));
    let t = texts(&c.svg);
    assert!(t.contains(&"Share at or below (%)".to_string()), "{t:?}");
    assert!(
        t.contains(&"100".to_string()),
        "the share axis ends at 100: {t:?}"
    );
}

#[test]
fn other_charts_show_their_table_as_it_is() {
    let mut s = spec(ChartKind::Line, "ttft_ms", &["ttft_ms"]);
    s.series = Some("source".to_string());
    assert!(ok(&s, &requests()).figures.is_none());
}

#[test]
fn a_distribution_needs_numbers_and_values() {
    let t = table("source,setup\nvllm,a\n", &[]);
    let mut s = spec(ChartKind::Cdf, "setup", &[]);
    s.series = Some("source".to_string());
    assert_eq!(
        err(&s, &t).message,
        "a cdf chart needs a numeric x, but column \"setup\" has no unit"
    );
    let t = table("source,ttft_ms\nvllm,\nsglang,\n", &[("ttft_ms", "ms")]);
    assert_eq!(
        err(&ttft_cdf(), &t).message,
        "column \"ttft_ms\" has no values to plot (every cell is empty)"
    );
    let t = table("source,ttft_ms\nvllm,fast\n", &[("ttft_ms", "ms")]);
    let e = err(&ttft_cdf(), &t);
    assert_eq!(
        e.message,
        "row 2, column \"ttft_ms\": expected a number, found \"fast\""
    );
    assert_eq!(e.row_line, Some(2));
}

#[test]
fn a_mark_is_a_dashed_line_with_its_label_and_counts_in_the_axis() {
    let t = table(
        "t_s,running\n0,4\n1,8\n2,10\n3,10",
        &[("t_s", "s"), ("running", "requests")],
    );
    let mut s = spec(ChartKind::Line, "t_s", &["running"]);
    s.marks = vec![Mark {
        y: 32.0,
        label: "Concurrency asked for".to_string(),
    }];
    let c = ok(&s, &t);
    assert!(c.svg.contains("<g class=\"plot-rules\""), "{}", c.svg);
    assert!(texts(&c.svg).contains(&"Concurrency asked for".to_string()));
    // The axis reaches the mark, well above the data's 10.
    assert!(
        texts(&c.svg).contains(&"30".to_string()),
        "{:?}",
        texts(&c.svg)
    );
    assert!(
        c.summary
            .ends_with("; marked: Concurrency asked for at 32."),
        "{}",
        c.summary
    );
}

#[test]
fn snapshot_cdf() {
    insta::assert_snapshot!(ok(&ttft_cdf(), &requests()).svg);
}

#[test]
fn snapshot_line_with_a_mark() {
    let t = table(
        "t_s,running,waiting\n0,2,30\n5,8,24\n10,10,22\n15,10,12\n20,6,0",
        &[
            ("t_s", "s"),
            ("running", "requests"),
            ("waiting", "requests"),
        ],
    );
    let mut s = spec(ChartKind::Line, "t_s", &["running", "waiting"]);
    s.id = "queue".to_string();
    s.title = "Running and waiting requests".to_string();
    s.marks = vec![Mark {
        y: 32.0,
        label: "Concurrency asked for (32)".to_string(),
    }];
    insta::assert_snapshot!(ok(&s, &t).svg);
}
