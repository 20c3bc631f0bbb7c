//! Tests of the axis in seconds: values in milliseconds that reach 10,000
//! are drawn, labelled and described in seconds, as `crate::figures` reads
//! them. Takes the fixtures of `tests.rs`; hands on only pass or fail.

use super::{ok, spec, table, texts};
use crate::record::ChartKind;

#[test]
fn milliseconds_from_ten_thousand_read_as_seconds() {
    // A bar axis in ms that reaches 73,447 ms is drawn, labelled and
    // described in seconds; one that stays below 10,000 keeps its ms.
    let t = table(
        "setup,ttft_p50,ttft_p99\nvLLM 0.28.0,28887.1,73447.80826035",
        &[("ttft_p50", "ms"), ("ttft_p99", "ms")],
    );
    let mut ladder = spec(ChartKind::Bar, "setup", &["ttft_p50", "ttft_p99"]);
    ladder.y_label = Some("Time to first token (ms)".into());
    let c = ok(&ladder, &t);
    let labels = texts(&c.svg);
    assert!(labels.iter().any(|l| l == "73.45"), "{labels:?}");
    assert!(labels.iter().any(|l| l == "28.89"), "{labels:?}");
    assert!(!labels.iter().any(|l| l.contains("73447")), "{labels:?}");
    assert!(
        labels.iter().any(|l| l == "Time to first token (s)"),
        "{labels:?}"
    );
    assert_eq!(
        c.summary,
        "Bar chart of Time to first token (s) by Setup: vLLM 0.28.0: TTFT p50 28.89, TTFT p99 73.45."
    );
    let below = table("setup,p99\na,25.3\nb,9999", &[("p99", "ms")]);
    let c = ok(&spec(ChartKind::Bar, "setup", &["p99"]), &below);
    assert_eq!(
        c.summary,
        "Bar chart of P99 (ms) by Setup: a 25.3, b 9,999."
    );
    // An axis the spec titles in its own words keeps the file's unit, and
    // each value is in that unit: milliseconds, not seconds under a title
    // in milliseconds.
    let mut own = spec(ChartKind::Bar, "setup", &["ttft_p50", "ttft_p99"]);
    own.y_label = Some("Milliseconds to first token".into());
    let c = ok(&own, &t);
    assert_eq!(
        c.summary,
        "Bar chart of Milliseconds to first token by Setup: vLLM 0.28.0: TTFT p50 28,887, TTFT p99 73,448."
    );
}
