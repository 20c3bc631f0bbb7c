//! The symptoms on runs typed by hand: each outcome from the columns a
//! table gives, and a symptom that finds none of what it reads says
//! nothing. The recorded runs of `../shared` are read in
//! `tests/symptoms.rs`.

use super::*;
use crate::record::{Run, Setup, Table};

fn run(setups: &[(&str, &str)], header: &[&str], rows: &[&[&str]]) -> Run {
    Run {
        id: "r".into(),
        content_hash: 0,
        path: "data/runs/r/run.yaml".into(),
        title: "r".into(),
        date: crate::record::Date::parse("2026-10-01").unwrap(),
        setups: setups
            .iter()
            .map(|(e, v)| Setup {
                engine: e.to_string(),
                version: Some(v.to_string()),
                flags: None,
                label: None,
            })
            .collect(),
        model: None,
        hardware: None,
        client: None,
        endpoint: None,
        source: None,
        notes: None,
        results: Vec::new(),
        tables: vec![Table {
            file: "t.csv".into(),
            title: "t".into(),
            columns: Vec::new(),
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: rows
                .iter()
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect(),
            row_lines: (2..2 + rows.len()).collect(),
            path_in_yaml: "tables[0]".into(),
            derived: None,
        }],
        charts: Vec::new(),
        acknowledged: Vec::new(),
        compare: Vec::new(),
        spans: Default::default(),
    }
}

fn said(r: &Run, symptom: &str) -> Vec<(usize, Outcome, String)> {
    observe(r, &BTreeMap::new())
        .into_iter()
        .filter(|o| o.symptom == symptom)
        .map(|o| (o.setup, o.outcome, o.says))
        .collect()
}

#[test]
fn preemptions_unlogged_from_a_table() {
    let header = ["engine", "preemptions_counted", "preemption_log_lines"];
    let shown = run(&[("vllm", "0.28")], &header, &[&["vllm", "22", "0"]]);
    assert_eq!(
        said(&shown, "preemptions-unlogged"),
        [(0, Outcome::Shown, "22 preemptions counted by `vllm:num_preemptions_total`; no line of the log mentions one".to_string())]
    );
    let absent = run(&[("vllm", "0.28")], &header, &[&["vllm", "22", "22"]]);
    assert_eq!(said(&absent, "preemptions-unlogged")[0].1, Outcome::Absent);
    let none = run(&[("vllm", "0.28")], &header, &[&["vllm", "0", "0"]]);
    assert_eq!(
        said(&none, "preemptions-unlogged")[0].2,
        "cannot tell: no request was preempted (`vllm:num_preemptions_total` did not move), so the log had nothing to record"
    );
    // TensorRT-LLM counts none: its pause lines are the record.
    let trt = run(
        &[("tensorrt-llm", "1.3.0rc29")],
        &header,
        &[&["tensorrt-llm", "", "13"]],
    );
    assert_eq!(
        said(&trt, "preemptions-unlogged"),
        [(
            0,
            Outcome::Absent,
            "13 paused requests, each in the log as `request ID … -> pause`".to_string()
        )]
    );
    // A TensorRT-LLM log with no pause line says nothing of whether one
    // happened: TensorRT-LLM counts none, so no pause logged is not the
    // problem absent (which would make the version clean), it is unknown.
    let quiet = run(
        &[("tensorrt-llm", "1.3.0rc29")],
        &header,
        &[&["tensorrt-llm", "", "0"]],
    );
    assert_eq!(
        said(&quiet, "preemptions-unlogged"),
        [(
            0,
            Outcome::CannotTell,
            "cannot tell: the log records no pause, and TensorRT-LLM keeps no count to say whether one happened".to_string()
        )]
    );
    // Nor does a TensorRT-LLM run that keeps no log.
    let unlogged = run(
        &[("tensorrt-llm", "1.3.0rc29")],
        &["engine", "preemptions_counted"],
        &[&["tensorrt-llm", ""]],
    );
    assert_eq!(
        said(&unlogged, "preemptions-unlogged"),
        [(
            0,
            Outcome::CannotTell,
            "cannot tell: the run keeps no server log to read pauses from".to_string()
        )]
    );
    // An engine it does not read, and a run with none of it: nothing.
    let other = run(&[("ninfer", "1")], &header, &[&["ninfer", "3", "0"]]);
    assert!(said(&other, "preemptions-unlogged").is_empty());
    let unrelated = run(&[("vllm", "0.28")], &["engine", "score"], &[&["vllm", "1"]]);
    assert!(observe(&unrelated, &BTreeMap::new()).is_empty());
}

#[test]
fn pauses_uncounted_tells_a_missing_counter_from_a_missing_record() {
    let header = ["engine", "preemptions_counted", "preemption_log_lines"];
    // The bundled run's shape: the counter's cell empty, 13 log lines.
    let trt = run(
        &[("tensorrt-llm", "1.3.0rc29")],
        &header,
        &[&["tensorrt-llm", "", "13"]],
    );
    assert_eq!(
        said(&trt, "pauses-uncounted"),
        [(
            0,
            Outcome::Shown,
            "13 requests paused, each in the log; the run records no counter of them".to_string()
        )]
    );
    // Without the counter's column, nothing says whether one exists.
    let unsaid = run(
        &[("tensorrt-llm", "1.3.0rc29")],
        &["engine", "preemption_log_lines"],
        &[&["tensorrt-llm", "13"]],
    );
    assert_eq!(said(&unsaid, "pauses-uncounted")[0].1, Outcome::CannotTell);
    // vLLM counts its preemptions: absent.
    let vllm = run(&[("vllm", "0.30")], &header, &[&["vllm", "22", "0"]]);
    assert_eq!(
        said(&vllm, "pauses-uncounted"),
        [(
            0,
            Outcome::Absent,
            "22 preemptions during the run, and the server's counter counts them".to_string()
        )]
    );
}

#[test]
fn running_limit_lowered_needs_the_logs_limit_not_the_clients_count() {
    let header = [
        "engine",
        "running_limit",
        "running_limit_cause",
        "running_limit_asked",
        "max_running",
        "recurrent_state",
        "prefix_cache",
    ];
    let capped = run(
        &[("sglang", "0.5.20")],
        &header,
        &[&["sglang", "1", "mamba state cache", "32", "1", "yes", "on"]],
    );
    assert_eq!(
        said(&capped, "running-limit-lowered"),
        [(0, Outcome::Shown, "the log caps `max_running_requests` to 1 by the mamba state cache, below the 32 it was given; the server never ran more than 1 at once".to_string())]
    );
    // The server ran 5 of the 10 it was given, for want of memory: the
    // limit itself was kept.
    let kept = run(
        &[("sglang", "0.5.20")],
        &header,
        &[&["sglang", "10", "", "10", "5", "yes", "on"]],
    );
    assert_eq!(said(&kept, "running-limit-lowered")[0].1, Outcome::Absent);
    let off = run(
        &[("sglang", "0.5.20")],
        &header,
        &[&["sglang", "10", "", "10", "5", "yes", "off"]],
    );
    assert_eq!(
        said(&off, "running-limit-lowered")[0].2,
        "cannot tell: the prefix cache was off; the limit falls with it on"
    );
    let dense = run(
        &[("sglang", "0.5.20")],
        &header,
        &[&["sglang", "32", "", "32", "29", "no", "on"]],
    );
    assert_eq!(
        said(&dense, "running-limit-lowered")[0].1,
        Outcome::CannotTell
    );
    // Only SGLang's log says this.
    let vllm = run(
        &[("vllm", "0.30")],
        &header,
        &[&["vllm", "1", "x", "32", "1", "yes", "on"]],
    );
    assert!(said(&vllm, "running-limit-lowered").is_empty());
}

#[test]
fn pool_size_jump_compares_starts_of_one_version_model_and_flags() {
    let header = ["setup", "kv_cache_tokens", "start_args"];
    let mut jump = run(
        &[("vllm", "0.30"), ("vllm", "0.30")],
        &header,
        &[&["start 1", "32336", "abc"], &["start 2", "47888", "abc"]],
    );
    jump.setups[0].label = Some("start 1".into());
    jump.setups[1].label = Some("start 2".into());
    assert_eq!(
        said(&jump, "pool-size-jump"),
        [
            (0, Outcome::Shown, "start 1 printed a KV pool of 32,336 tokens, start 2 47,888 with the same model and flags".to_string()),
            (1, Outcome::Shown, "start 2 printed a KV pool of 47,888 tokens, start 1 32,336 with the same model and flags".to_string()),
        ]
    );
    let mut other_flags = jump.clone();
    other_flags.tables[0].rows[1][2] = "def".into();
    assert!(said(&other_flags, "pool-size-jump")
        .iter()
        .all(|o| o.1 == Outcome::CannotTell));
    let mut same = jump.clone();
    same.tables[0].rows[1][1] = "32336".into();
    assert!(said(&same, "pool-size-jump")
        .iter()
        .all(|o| o.1 == Outcome::Absent));
}

#[test]
fn counter_moves_on_completion_by_the_share_of_readings() {
    let header = ["engine", "counter_readings", "counter_moves"];
    let r = run(
        &[("tensorrt-llm", "1.3.0rc29"), ("vllm", "0.30")],
        &header,
        &[&["tensorrt-llm", "126", "3"], &["vllm", "137", "89"]],
    );
    let s = said(&r, "counter-moves-on-completion");
    assert_eq!((s[0].0, s[0].1), (0, Outcome::Shown));
    assert_eq!(
        s[0].2,
        "the generated-token counter moved at 3 of the 126 readings taken while requests ran"
    );
    assert_eq!((s[1].0, s[1].1), (1, Outcome::Absent));
    let few = run(&[("vllm", "0.30")], &header, &[&["vllm", "9", "0"]]);
    assert_eq!(
        said(&few, "counter-moves-on-completion")[0].1,
        Outcome::CannotTell
    );
    let between = run(&[("vllm", "0.30")], &header, &[&["vllm", "100", "40"]]);
    assert_eq!(
        said(&between, "counter-moves-on-completion")[0].1,
        Outcome::CannotTell
    );
}

#[test]
fn running_gauge_counts_waiting_against_streams() {
    let header = ["max_concurrency", "max_running", "max_streaming"];
    let shown = run(
        &[("tensorrt-llm", "1.3.0rc29")],
        &header,
        &[&["32", "32", "24"]],
    );
    assert_eq!(
        said(&shown, "running-gauge-counts-waiting"),
        [(
            0,
            Outcome::Shown,
            "the running gauge reached 32 while no more than 24 requests streamed at once"
                .to_string()
        )]
    );
    let absent = run(&[("vllm", "0.30")], &header, &[&["32", "24", "24"]]);
    assert_eq!(
        said(&absent, "running-gauge-counts-waiting")[0].1,
        Outcome::Absent
    );
    let all = run(&[("vllm", "0.30")], &header, &[&["32", "32", "32"]]);
    assert_eq!(
        said(&all, "running-gauge-counts-waiting")[0].1,
        Outcome::CannotTell
    );
}

#[test]
fn engine_outlives_server_reads_yes_and_no() {
    let header = ["engine", "engine_outlived_server"];
    let r = run(
        &[("vllm", "0.30"), ("sglang", "0.5.20")],
        &header,
        &[&["vllm", "yes"], &["sglang", "no"]],
    );
    let s = said(&r, "engine-outlives-server");
    assert_eq!((s[0].1, s[1].1), (Outcome::Shown, Outcome::Absent));
}

/// A run of two setups (the first the reference) with derived tables
/// `answers` and `scores` (rows: the setup's index first).
fn accuracy_run(
    answers: &[(usize, &str, &str, &str, &str)],
    scores: &[(usize, &str, &str, &str)],
) -> Run {
    let mut r = run(&[("vllm", "0.28.0"), ("vllm", "0.30.0")], &["x"], &[]);
    let names: Vec<String> = r.setups.iter().map(Setup::name).collect();
    let table = |kind: &str, header: &[&str], rows: Vec<Vec<String>>| Table {
        file: format!("{kind}.csv"),
        title: kind.into(),
        columns: Vec::new(),
        header: header.iter().map(|h| h.to_string()).collect(),
        row_lines: (2..2 + rows.len()).collect(),
        rows,
        path_in_yaml: "tables[0]".into(),
        derived: Some(kind.into()),
    };
    r.tables = vec![
        table(
            "answers",
            &["task", "question", "filter", "reply", "correct", "setup"],
            answers
                .iter()
                .map(|(s, q, f, reply, c)| {
                    vec![
                        "gsm8k".into(),
                        q.to_string(),
                        f.to_string(),
                        reply.to_string(),
                        c.to_string(),
                        names[*s].clone(),
                    ]
                })
                .collect(),
        ),
        table(
            "scores",
            &["task", "filter", "metric", "value", "n", "setup"],
            scores
                .iter()
                .map(|(s, f, v, n)| {
                    vec![
                        "gsm8k".into(),
                        f.to_string(),
                        "exact_match".into(),
                        v.to_string(),
                        n.to_string(),
                        names[*s].clone(),
                    ]
                })
                .collect(),
        ),
    ];
    r
}

#[test]
fn changed_answers_and_repeated_text() {
    let r = accuracy_run(
        &[
            (0, "h1", "none", "She needs 3 bolts.", "1"),
            (0, "h2", "none", "He runs 540 meters.", "1"),
            (1, "h1", "none", "She needs 3 3 bolts.", "1"),
            (1, "h2", "none", "He runs 540 meters.", "1"),
        ],
        &[],
    );
    assert_eq!(
        said(&r, "answers-changed"),
        [(
            1,
            Outcome::Shown,
            "1 of 2 replies differ from vllm 0.28.0's to the same questions".to_string()
        )]
    );
    assert_eq!(
        said(&r, "repeated-text"),
        [(1, Outcome::Shown, "1 of the 1 replies that changed (of 2) repeat the text just before where they first differ from vllm 0.28.0's".to_string())]
    );
    let same = accuracy_run(
        &[(0, "h1", "none", "A.", "1"), (1, "h1", "none", "A.", "1")],
        &[],
    );
    assert_eq!(said(&same, "answers-changed")[0].1, Outcome::Absent);
    assert_eq!(said(&same, "repeated-text")[0].1, Outcome::CannotTell);
    let other = accuracy_run(
        &[(0, "h1", "none", "A.", "1"), (1, "h9", "none", "A.", "1")],
        &[],
    );
    assert_eq!(
        said(&other, "answers-changed"),
        [(
            1,
            Outcome::CannotTell,
            "cannot tell: the reference, vllm 0.28.0, answered other questions".to_string()
        )]
    );
}

#[test]
fn extraction_gap_and_accuracy_below_reference() {
    let r = accuracy_run(
        &[],
        &[
            (0, "strict-match", "0.8", "1319"),
            (0, "flexible-extract", "0.81", "1319"),
            (1, "strict-match", "0.1", "1319"),
            (1, "flexible-extract", "0.8", "1319"),
        ],
    );
    assert_eq!(
        said(&r, "extraction-gap"),
        [
            (0, Outcome::Absent, "gsm8k exact_match: strict-match 0.8, flexible-extract 0.81: under 10 points apart".to_string()),
            (1, Outcome::Shown, "gsm8k exact_match: strict-match 0.1, flexible-extract 0.8: 70 points below on the same replies".to_string()),
        ]
    );
    let below = said(&r, "accuracy-below-reference");
    assert_eq!(below.len(), 1);
    assert_eq!(below[0].1, Outcome::Shown);
    assert_eq!(
        below[0].2,
        "gsm8k strict-match exact_match: 0.1 against vllm 0.28.0's 0.8, −70 points, beyond noise by the scores' 95% intervals (±2.7 points)"
    );
}
