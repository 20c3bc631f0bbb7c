//! Tests of the comparison: workloads matched, repeats as spreads, the
//! noise verdicts and the formats' words. Hands on only pass or fail.

use super::*;

fn row(cells: &[(&'static str, &str)]) -> ResultRow {
    ResultRow {
        cells: cells.iter().map(|(k, v)| (*k, v.to_string())).collect(),
        requested: [None, None],
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
            .map(|(i, r)| (r, format!("{name}/{i}.json"), Context::default())),
        &metrics,
        None,
    )
}

fn throughput() -> Vec<Metric> {
    vec![result_metric("output_throughput").unwrap()]
}

fn noise(pct: f64) -> Options {
    Options {
        stated_noise: Some(pct),
        ..Options::default()
    }
}

#[test]
fn one_workload_matched_across_model_paths_and_close_lengths() {
    let a = side(
        "0.28",
        &[xray("/models/Qwen3.8-27B", "2816", "336.2985474784618")],
    );
    // Another path of the same model, inputs 5% longer: the same workload.
    let b = side("0.29", &[xray("Qwen/qwen3.8-27b", "2957", "350")]);
    let c = compare(&[a, b], &throughput(), Options::default());
    assert_eq!(c.workloads.len(), 1);
    assert_eq!(
        c.workloads[0].line(),
        // Named as the baseline's file spells the model, matched in
        // lower case.
        "Qwen3.8-27B · 88 in, 1,000 out (tokens a request) · asked for 32 at once · rate unlimited"
    );
    let ch = c.rows[0].changes[1].unwrap();
    assert_eq!(ch.shown(), "+4.1%");
    assert_eq!(ch.noise, Noise::Untested);
    // Untested, and still better: throughput went up.
    assert_eq!(ch.direction, Direction::Better);
    assert_eq!(ch.words(), "+4.1% better, untested");
    assert_eq!(
        report::verdict(&c),
        "0.29 against 0.28: output throughput +4.1% better, single runs: not tested against noise."
    );
}

#[test]
fn lengths_apart_or_another_concurrency_are_other_workloads() {
    let a = side("a", &[xray("m", "2816", "300")]);
    // Inputs 20% longer: another workload.
    let b = side("b", &[xray("m", "3380", "300")]);
    let c = compare(&[a, b], &throughput(), Options::default());
    assert!(c.is_empty());
    assert_eq!(c.unmatched, vec![1, 1]);
    assert_eq!(
        report::verdict(&c),
        "no workload in common: nothing to compare"
    );
    // The table says what each side measured instead.
    assert!(report::table(&c).contains(
        "\nb measured:\n  m · 106 in, 1,000 out (tokens a request) · asked for 32 at once · rate unlimited\n"
    ));
}

#[test]
fn repeats_that_overlap_are_within_noise() {
    let a = side("a", &[xray("m", "2816", "330"), xray("m", "2816", "340")]);
    let b = side("b", &[xray("m", "2816", "338"), xray("m", "2816", "345")]);
    let c = compare(&[a, b], &throughput(), Options::default());
    let r = &c.rows[0];
    assert_eq!(
        r.values[0],
        Some(Spread {
            n: 2,
            mean: 335.0,
            min: 330.0,
            max: 340.0,
            std: None,
            widen: 0.0,
            repeats_pct: Some(10.0 / 335.0 * 100.0),
        })
    );
    // One precision for the row: 341.5 has a tenth, so 335 has one too.
    assert_eq!(
        r.shown(Some("tok/s")),
        vec![
            Some("335.0 tok/s (330.0–340.0, 2 runs)".to_string()),
            Some("341.5 tok/s (338.0–345.0, 2 runs)".to_string())
        ]
    );
    // The repeats are 3% apart: a change of 1.9% is within that noise,
    // neither better nor worse.
    let ch = r.changes[1].unwrap();
    assert_eq!(ch.noise.key(), "within");
    assert_eq!(ch.shown(), "+1.9%");
    assert_eq!(ch.direction, Direction::Better);
    assert_eq!(ch.kind(), Kind::Within);
    assert_eq!(ch.words(), "+1.9%, within noise (±3%)");
}

#[test]
fn repeats_apart_are_beyond_noise_and_say_which_way() {
    let a = side("a", &[xray("m", "2816", "330"), xray("m", "2816", "334")]);
    let b = side("b", &[xray("m", "2816", "300"), xray("m", "2816", "304")]);
    let c = compare(&[a, b], &throughput(), Options::default());
    let ch = c.rows[0].changes[1].unwrap();
    assert_eq!(ch.noise.key(), "beyond");
    assert_eq!(
        ch.noise.words(),
        "beyond the spread of 2 repeated runs (±1.3%)"
    );
    assert_eq!(ch.direction, Direction::Worse);
    assert_eq!(ch.kind(), Kind::Regression);
    // Lower is better for a latency.
    assert!(!result_metric("ttft_ms_p99").unwrap().higher_is_better);
}

#[test]
fn directions_by_the_metric_and_the_change_as_shown() {
    // Throughput up is better, latency up is worse.
    assert_eq!(Direction::of(2.0, true), Direction::Better);
    assert_eq!(Direction::of(2.0, false), Direction::Worse);
    assert_eq!(Direction::of(-1.0, false), Direction::Better);
    // A change that rounds to 0% as shown is the same, either way.
    assert_eq!(figures::signed_percent(0.04), "0%");
    assert_eq!(Direction::of(0.04, true), Direction::Same);
    assert_eq!(Direction::of(-0.04, false), Direction::Same);
    assert_eq!(Direction::of(0.05, true), Direction::Better);
    // A unit says which way where a hand table does not.
    assert_eq!(higher_is_better_by_unit(Some("tok/s")), Some(true));
    assert_eq!(higher_is_better_by_unit(Some("ms")), Some(false));
    assert_eq!(higher_is_better_by_unit(Some("tokens")), None);
    assert_eq!(higher_is_better_by_unit(None), None);
}

#[test]
fn lengths_asked_for_match_before_the_measured_means() {
    // Two runs of one command: output stopped at an end of text in one,
    // 13% shorter on average; both asked for 1,000 tokens out.
    let mut a = xray("m", "2816", "300");
    let mut b = row(&[
        ("model", "m"),
        ("max_concurrency", "32"),
        ("request_rate", "inf"),
        ("completed", "32"),
        ("input_tokens", "2816"),
        ("output_tokens", "27840"),
        ("output_throughput", "290"),
    ]);
    let c = compare(
        &[
            side("a", std::slice::from_ref(&a)),
            side("b", std::slice::from_ref(&b)),
        ],
        &throughput(),
        Options::default(),
    );
    assert!(c.is_empty(), "measured means 13% apart are two workloads");
    a.requested = [Some(88.0), Some(1000.0)];
    b.requested = [Some(88.0), Some(1000.0)];
    let c = compare(
        &[
            side("a", std::slice::from_ref(&a)),
            side("b", std::slice::from_ref(&b)),
        ],
        &throughput(),
        Options::default(),
    );
    assert_eq!(c.workloads.len(), 1);
    assert_eq!(
        c.workloads[0].line(),
        "m · asked 88 in, 1,000 out; measured 88 in, 1,000 out (tokens a request) · asked for 32 at once · rate unlimited"
    );
    // Asked for other lengths: other workloads, however close the means.
    b.requested = [Some(88.0), Some(900.0)];
    let c = compare(
        &[
            side("a", std::slice::from_ref(&a)),
            side("b", std::slice::from_ref(&b)),
        ],
        &throughput(),
        Options::default(),
    );
    assert!(c.is_empty());
}

#[test]
fn said_to_be_one_workload_the_sides_match_and_the_output_says_so() {
    let a = side("a", &[xray("m", "2816", "300")]);
    let b = side("b", &[xray("other-model", "3380", "290")]);
    let same = Options {
        same_workload: true,
        ..Options::default()
    };
    let c = compare(&[a, b], &throughput(), same);
    assert_eq!(c.workloads.len(), 1);
    assert_eq!(
        c.taken_as_one[0],
        vec![(
            1,
            "other-model · 106 in, 1,000 out (tokens a request) · asked for 32 at once · rate unlimited"
                .to_string()
        )]
    );
    let text = report::table(&c);
    assert!(text.contains("Said to measure one workload (--same-workload): matched on concurrency and rate alone\n"), "{text}");
    assert!(text.contains("\n  b: measured other-model · 106 in, 1,000 out (tokens a request) · asked for 32 at once · rate unlimited, taken as this workload (--same-workload)\n"), "{text}");
    assert!(report::json(&c).contains("\"same_workload\": true"));
}

#[test]
fn a_side_that_ran_fewer_than_asked_is_marked_and_cited() {
    let ran = |max_running: f64, preemptions: f64| Context {
        max_running: Some(max_running),
        preemptions: Some(preemptions),
        kv_cache_tokens: Some(26_093.0),
        ..Context::default()
    };
    let metrics = throughput();
    let with = |name: &str, r: &ResultRow, c: Context| {
        Side::of_rows(
            name.into(),
            None,
            None,
            [(r, format!("{name}.json"), c)],
            &metrics,
            None,
        )
    };
    let a = with(
        "vLLM 0.28.0",
        &xray("m", "2816", "336.2985"),
        ran(10.0, 21.0),
    );
    let b = with("SGLang 0.5.20", &xray("m", "2816", "222.97"), ran(5.0, 0.0));
    let full = with("vLLM 0.30.0", &xray("m", "2816", "316.03"), ran(32.0, 1.0));
    let mut c = compare(&[a, b, full], &metrics, Options::default());
    assert_eq!(c.ran_fewer(), vec![0, 1]);
    assert_eq!(c.contexts[0][2].ran_fewer(), None);
    assert_eq!(
        c.contexts[0][0].words(),
        "ran at most 10 requests at once of the 32 asked; 21 preemptions; KV cache 26,093 tokens"
    );
    assert_eq!(
        c.contexts[0][2].words(),
        "ran at most 32 requests at once of the 32 asked; 1 preemption; KV cache 26,093 tokens"
    );
    c.cited = vec![Cite {
        id: 5,
        title: "SGLang ran a hybrid model one request at a time".into(),
        url: Some("https://example.org/f/5/".into()),
        engines: vec!["sglang".into()],
    }];
    let text = report::table(&c);
    // The row's values share their precision; the sides that ran fewer
    // are marked on their values.
    assert!(text.contains("  Output throughput  336.3 tok/s, ran ≤10 of 32  223.0 tok/s, ran ≤5 of 32  316.0 tok/s  −34% worse, untested   −6% worse, untested\n"), "{text}");
    assert!(text.contains("\nran fewer: vLLM 0.28.0 and SGLang 0.5.20 ran fewer requests at once than the workload asked for (marked \"ran ≤N of M\"). Their figures are of fewer requests at once than the workload's heading says (check concurrency-achieved).\n  F5   SGLang ran a hybrid model one request at a time  https://example.org/f/5/\n"), "{text}");
    // The verdict comes first, a sentence a side against the baseline.
    assert!(
        text.starts_with("SGLang 0.5.20 against vLLM 0.28.0: output throughput −34% worse, single runs: not tested against noise. vLLM 0.30.0 against vLLM 0.28.0: output throughput −6% worse, single runs: not tested against noise.\n"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&report::json(&c)).unwrap();
    assert_eq!(json["ran_fewer"]["sides"], serde_json::json!([0, 1]));
    assert_eq!(json["ran_fewer"]["findings"][0]["id"], "F5");
    assert_eq!(json["workloads"][0]["context"][1]["ran_fewer"], 5.0);
    assert_eq!(
        json["workloads"][0]["rows"][0]["changes"][1]["direction"],
        "worse"
    );
    assert!(report::markdown(&c).contains(
        "- [F5](https://example.org/f/5/): SGLang ran a hybrid model one request at a time\n"
    ));
}

#[test]
fn a_stated_band_judges_single_measurements() {
    let a = side("a", &[xray("m", "2816", "87.1")]);
    let b = side("b", &[xray("m", "2816", "87.5")]);
    let c = compare(&[a.clone(), b], &throughput(), noise(5.0));
    let ch = c.rows[0].changes[1].unwrap();
    assert_eq!(ch.noise.key(), "within");
    assert_eq!(
        ch.noise.words(),
        "within the bound given on the command line (±5%)"
    );
    let far = side("far", &[xray("m", "2816", "117.3")]);
    let c = compare(&[a, far], &throughput(), noise(5.0));
    let ch = c.rows[0].changes[1].unwrap();
    assert_eq!(ch.noise.key(), "beyond");
    assert_eq!(ch.words(), "+35% better, beyond noise (±5%)");
}

#[test]
fn the_terminal_table_lines_up() {
    let a = side("vLLM 0.28.0", &[xray("m", "2816", "336.2985474784618")]);
    let b = side(
        "vLLM 0.29",
        &[xray("m", "2816", "300"), xray("m", "2816", "302")],
    );
    let c = compare(&[a, b], &throughput(), Options::default());
    assert_eq!(
        report::table(&c),
        "vLLM 0.29 against vLLM 0.28.0: output throughput −10% worse, beyond the spread of 2 repeated runs (±0.7%).\n\
         \n\
         Compared: vLLM 0.28.0 (baseline, 1 file), vLLM 0.29 (2 files)\n\
         \n\
         m · 88 in, 1,000 out (tokens a request) · asked for 32 at once · rate unlimited\n  \
         metric             vLLM 0.28.0  vLLM 0.29                          change\n  \
         Output throughput  336.3 tok/s  301.0 tok/s (300.0–302.0, 2 runs)  −10% worse, beyond noise (±0.7%)\n"
    );
}

mod verdicts;
