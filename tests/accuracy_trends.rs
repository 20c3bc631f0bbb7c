//! Accuracy across versions (issue 44 item 4, joining the workloads of
//! issue 39) on `tests/fixtures/accuracy-trends/`: five lm_eval results
//! files of Qwen3-8B on gsm8k, 5-shot, on vLLM 0.28, 0.29 (two runs), 0.30
//! and 0.31 (figures made up). A workload is the task, filter, metric,
//! n-shot, limit and model: strict-match and flexible-extract are two.
//! Each point is a run's score with its 95% interval (its standard error),
//! which widens the noise between runs (here the spread of 0.29's two
//! runs) and never stands in for it; a change is in points. What a reader
//! sees: `findings trends` (its first line, each workload, its exit code
//! on a regression), the workload page and `workloads.json`.
#![allow(missing_docs)]

mod common;
use common::Site;
use serde_json::Value;
use std::path::PathBuf;

const STRICT: &str = "qwen3-8b-gsm8k-strict-match-exact-match-5-shot";

fn build(site: &Site) -> (tempfile::TempDir, PathBuf) {
    let out = tempfile::tempdir().unwrap();
    let o = out.path().join("site");
    let r = site.run(&["build", "--output", o.to_str().unwrap()]);
    assert_eq!(r.code, 0, "build failed: {}", r.stderr);
    // Its runs list no chart: their pages lead with their scores, so no
    // warning asks for one.
    assert!(
        !r.stderr.contains("warning"),
        "a warning on runs of scores: {}",
        r.stderr
    );
    (out, o)
}

#[test]
fn trends_lists_the_accuracy_workloads_in_the_words_of_every_trend() {
    let site = Site::copy_of("accuracy-trends");
    let r = site.run(&["trends"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "2 workloads, 6 changes between versions: worse on 1 of 6 beyond noise (Qwen3-8B · gsm8k strict-match exact_match · 5-shot: score −8 points on vLLM 0.30 against 0.29); 4 within noise (Qwen3-8B · gsm8k flexible-extract exact_match · 5-shot: score −0.5 points on vLLM 0.29 against 0.28, …); the same on 1.",
        "{}",
        r.stdout
    );
    for want in [
        "Qwen3-8B · gsm8k strict-match exact_match · 5-shot",
        "  3 changes between versions: worse on 1 of 3 beyond noise (score −8 points on vLLM 0.30 against 0.29); 1 within noise (score +0.4 points on vLLM 0.31 against 0.30); the same on 1.",
        "    0.30     70.00% (95% interval 67.53–72.47)  acc-030        −8 points worse, beyond noise (±5.5 points)",
        "    0.31     70.40% (95% interval 67.93–72.87)  acc-031        +0.4 points, within noise (±5.7 points)",
        "    0.30: a regression no finding cites; start one: findings new \"Score −8 points on vLLM 0.30 against 0.29 (Qwen3-8B · gsm8k strict-match exact_match · 5-shot)\" --group changed-answers --engine vllm --version 0.30",
        "  3 changes between versions: all 3 within noise (score −0.5 points on vLLM 0.29 against 0.28, …).",
    ] {
        assert!(lines.contains(&want), "no line {want:?} in:\n{}", r.stdout);
    }
    // A lower score is a regression: the job fails on it.
    let r = site.run(&["trends", "--fail-on", "regression"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
}

#[test]
fn a_score_lower_is_better_where_the_scores_say_so() {
    let site = Site::copy_of("accuracy-trends");
    for run in ["acc-028", "acc-029", "acc-029-again", "acc-030", "acc-031"] {
        let dir = site.path(&format!("data/runs/{run}/raw"));
        let file = std::fs::read_dir(&dir).unwrap().next().unwrap().unwrap();
        let rel = format!("data/runs/{run}/raw/{}", file.file_name().to_string_lossy());
        site.edit(&rel, "\"exact_match\": true", "\"exact_match\": false");
    }
    let r = site.run(&["trends", "--workload", STRICT, "--fail-on", "regression"]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stdout.starts_with("1 workload, 3 changes between versions: better on 1 of 3 beyond noise (score −8 points on vLLM 0.30 against 0.29)"),
        "{}",
        r.stdout
    );
}

#[test]
fn the_workload_page_says_its_verdict_its_parts_and_each_interval() {
    let site = Site::copy_of("accuracy-trends");
    let (_dir, out) = build(&site);
    let html = std::fs::read_to_string(out.join(format!("workloads/{STRICT}/index.html"))).unwrap();
    for want in [
        "<h1>Qwen3-8B · gsm8k strict-match exact_match · 5-shot</h1>",
        "<p class=\"workload-verdict\">3 changes between versions: worse on 1 of 3 beyond noise (score −8 points on vLLM 0.30 against 0.29); 1 within noise (score +0.4 points on vLLM 0.31 against 0.30); the same on 1.</p>",
        "<dt>Task</dt><dd>gsm8k ",
        "<dt>Filter</dt><dd>strict-match ",
        "<dt>Examples (n-shot)</dt><dd>5 ",
        "<dt>Limit</dt><dd>none recorded ",
        "A point's whisker is its run's 95% interval",
        "<title>vLLM 0.30: 70.0%, 95% interval 67.5–72.5, run acc-030</title>",
        ">Score (%)</text>",
        "<strong>Regression.</strong> Score −8 points worse, beyond noise (±5.5 points) on <a href=\"../../engines/vllm/0.30/\">vLLM 0.30</a> against <a href=\"../../engines/vllm/0.29/\">0.29</a> (70% against 78%).",
    ] {
        assert!(html.contains(want), "no {want:?} in the page");
    }
    // The later version's page says what changed there, in the same words.
    let version = std::fs::read_to_string(out.join("engines/vllm/0.30/index.html")).unwrap();
    assert!(
        version.contains(
            "5-shot</a>: Score <span class=\"change-words\">−8 points worse, beyond noise (±5.5 points)</span> on <a href=\"../../../engines/vllm/0.30/\">vLLM 0.30</a> against <a href=\"../../../engines/vllm/0.29/\">0.29</a> <span class=\"muted small\">(70% against 78%"
        ),
        "the version page"
    );
    // The index lists both workloads.
    let index = std::fs::read_to_string(out.join("workloads/index.html")).unwrap();
    assert!(index.contains("Qwen3-8B · gsm8k flexible-extract exact_match · 5-shot"));
}

#[test]
fn workloads_json_gives_each_score_with_its_interval_and_each_change_in_points() {
    let site = Site::copy_of("accuracy-trends");
    let (_dir, out) = build(&site);
    let j: Value =
        serde_json::from_slice(&std::fs::read(out.join("workloads.json")).unwrap()).unwrap();
    let w = j["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["id"] == STRICT)
        .expect("the strict-match workload");
    let parts: Vec<(&str, &str)> = w["workload"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["part"].as_str().unwrap(), p["value"].as_str().unwrap()))
        .collect();
    for want in [
        ("Model", "Qwen3-8B"),
        ("Task", "gsm8k"),
        ("Filter", "strict-match"),
        ("Metric", "exact_match"),
        ("Examples (n-shot)", "5"),
    ] {
        assert!(parts.contains(&want), "{want:?} in {parts:?}");
    }
    let m = &w["metrics"][0];
    assert_eq!(m["metric"], "value");
    assert_eq!(m["unit"], "fraction");
    assert_eq!(m["higher_is_better"], true);
    let p = &m["points"][0];
    assert_eq!(p["version"], "0.28");
    assert_eq!(p["value"], 0.78);
    // 0.78 ± 1.96 × 0.0114.
    assert!((p["low"].as_f64().unwrap() - 0.757656).abs() < 1e-9, "{p}");
    assert!((p["high"].as_f64().unwrap() - 0.802344).abs() < 1e-9, "{p}");
    let c = &m["changes"][1];
    assert_eq!(
        (c["from"].as_str(), c["to"].as_str()),
        (Some("0.29"), Some("0.30"))
    );
    assert!(
        (c["pct"].as_f64().unwrap() + 8.0).abs() < 1e-9,
        "in points: {c}"
    );
    assert_eq!(c["kind"], "regression");
    assert_eq!(c["noise_from"], "repeats");
    // 0.8 points between 0.29's runs, widened by the two 95% intervals'
    // half-widths (2.254 and 2.470 points).
    assert!(
        (c["noise_pct"].as_f64().unwrap() - 5.5236).abs() < 1e-9,
        "{c}"
    );
}
