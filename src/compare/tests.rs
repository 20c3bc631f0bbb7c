//! Tests of the comparison: workloads matched, repeats as spreads, the
//! noise verdicts and the formats' words. Hands on only pass or fail.

use super::*;

fn row(cells: &[(&'static str, &str)]) -> ResultRow {
    ResultRow {
        cells: cells.iter().map(|(k, v)| (*k, v.to_string())).collect(),
    }
}

/// A vllm bench serve row of the xray workload with `throughput`.
fn xray(model: &str, input: &str, throughput: &str) -> ResultRow {
    row(&[
        ("model", model),
        ("max_concurrency", "32"),
        ("request_rate", "inf"),
        ("completed", "32"),
        ("input_tokens", input),
        ("output_tokens", "32000"),
        ("output_throughput", throughput),
    ])
}

fn side(name: &str, rows: &[ResultRow]) -> Side {
    let metrics = [result_metric("output_throughput").unwrap()];
    Side::of_rows(
        name.to_string(),
        Some("vllm".into()),
        None,
        rows.iter()
            .enumerate()
            .map(|(i, r)| (r, format!("{name}/{i}.json"))),
        &metrics,
    )
}

fn throughput() -> Vec<Metric> {
    vec![result_metric("output_throughput").unwrap()]
}

#[test]
fn one_workload_matched_across_model_paths_and_close_lengths() {
    let a = side(
        "0.28",
        &[xray("/models/Qwen3.8-27B", "2816", "336.2985474784618")],
    );
    // Another path of the same model, inputs 5% longer: the same workload.
    let b = side("0.29", &[xray("Qwen/qwen3.8-27b", "2957", "350")]);
    let c = compare(&[a, b], &throughput(), None);
    assert_eq!(c.workloads.len(), 1);
    assert_eq!(
        c.workloads[0].line(),
        "qwen3.8-27b · 88 in, 1,000 out (tokens a request) · concurrency 32 · rate unlimited"
    );
    let ch = c.rows[0].changes[1].unwrap();
    assert_eq!(ch.shown(), "+4%");
    assert_eq!(ch.noise, Noise::Untested);
    assert_eq!(ch.direction(), None);
    assert_eq!(
        report::verdict(&c),
        "1 workload in common; 0 changes beyond noise, 0 within noise, 1 not tested against noise (one measurement each)"
    );
}

#[test]
fn lengths_apart_or_another_concurrency_are_other_workloads() {
    let a = side("a", &[xray("m", "2816", "300")]);
    // Inputs 20% longer: another workload.
    let b = side("b", &[xray("m", "3380", "300")]);
    let c = compare(&[a, b], &throughput(), None);
    assert!(c.is_empty());
    assert_eq!(c.unmatched, vec![1, 1]);
    assert_eq!(
        report::verdict(&c),
        "no workload in common: nothing to compare"
    );
    // The table says what each side measured instead.
    assert!(report::table(&c).contains(
        "\nb measured:\n  m · 106 in, 1,000 out (tokens a request) · concurrency 32 · rate unlimited\n"
    ));
}

#[test]
fn repeats_that_overlap_are_within_noise() {
    let a = side("a", &[xray("m", "2816", "330"), xray("m", "2816", "340")]);
    let b = side("b", &[xray("m", "2816", "338"), xray("m", "2816", "345")]);
    let c = compare(&[a, b], &throughput(), None);
    let r = &c.rows[0];
    assert_eq!(
        r.values[0],
        Some(Spread {
            n: 2,
            mean: 335.0,
            min: 330.0,
            max: 340.0
        })
    );
    assert_eq!(
        r.values[0].unwrap().shown(Some("tok/s")),
        "335 tok/s (330–340, 2 runs)"
    );
    let ch = r.changes[1].unwrap();
    assert_eq!(ch.noise, Noise::Within);
    assert_eq!(ch.shown(), "+2%");
    assert_eq!(ch.direction(), Some("level"));
}

#[test]
fn repeats_apart_are_beyond_noise_and_say_which_way() {
    let a = side("a", &[xray("m", "2816", "330"), xray("m", "2816", "334")]);
    let b = side("b", &[xray("m", "2816", "300"), xray("m", "2816", "304")]);
    let c = compare(&[a, b], &throughput(), None);
    let ch = c.rows[0].changes[1].unwrap();
    assert_eq!(ch.noise, Noise::Beyond);
    assert_eq!(ch.noise.words(), "beyond noise");
    assert_eq!(ch.direction(), Some("worse"));
    // Lower is better for a latency.
    let ttft = Metric {
        name: "ttft_ms_p99".into(),
        ..result_metric("ttft_ms_p99").unwrap()
    };
    assert_eq!(ttft.higher_is_better, Some(false));
}

#[test]
fn a_stated_band_judges_single_measurements() {
    let a = side("a", &[xray("m", "2816", "87.1")]);
    let b = side("b", &[xray("m", "2816", "87.5")]);
    let c = compare(&[a.clone(), b], &throughput(), Some(5.0));
    let ch = c.rows[0].changes[1].unwrap();
    assert_eq!(ch.noise, Noise::WithinStated(5.0));
    assert_eq!(ch.noise.words(), "within the stated noise (±5%)");
    let far = side("far", &[xray("m", "2816", "117.3")]);
    let c = compare(&[a, far], &throughput(), Some(5.0));
    assert_eq!(
        c.rows[0].changes[1].unwrap().noise,
        Noise::BeyondStated(5.0)
    );
}

#[test]
fn the_terminal_table_lines_up() {
    let a = side("vLLM 0.28.0", &[xray("m", "2816", "336.2985474784618")]);
    let b = side(
        "vLLM 0.29",
        &[xray("m", "2816", "300"), xray("m", "2816", "302")],
    );
    let c = compare(&[a, b], &throughput(), None);
    assert_eq!(
        report::table(&c),
        "Compared: vLLM 0.28.0 (baseline, 1 file), vLLM 0.29 (2 files)\n\
         \n\
         m · 88 in, 1,000 out (tokens a request) · concurrency 32 · rate unlimited\n  \
         metric             vLLM 0.28.0  vLLM 0.29                    change\n  \
         Output throughput  336.3 tok/s  301 tok/s (300–302, 2 runs)  −10% beyond noise (worse)\n\
         \n\
         findings compare: 1 workload in common; 1 change beyond noise, 0 within noise\n"
    );
}
