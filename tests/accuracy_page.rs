//! The page of a site comparison of two accuracy runs (issue 44 item 4),
//! on `tests/fixtures/accuracy/`: two runs imported from lm_eval sample
//! logs of the same six gsm8k questions (the files of
//! `tests/fixtures/evals/`), compared in `site.yaml`. The page shows the
//! verdict, the paired scores and counts, and the first changed replies
//! stacked, where they first differ marked; every changed reply is in the
//! CSV beside it; a reply holding HTML is escaped, one holding a
//! credential is scrubbed; 1,000 changed replies keep the page small.
#![allow(missing_docs)]

mod common;

use common::Site;
use std::path::PathBuf;

fn build(site: &Site) -> (tempfile::TempDir, PathBuf) {
    let out = tempfile::tempdir().unwrap();
    let o = out.path().join("public");
    let r = site.run(&["build", "--output", o.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    (out, o)
}

fn page(o: &std::path::Path) -> String {
    std::fs::read_to_string(o.join("compare/acc/index.html")).unwrap()
}

/// One line of an lm_eval sample log (gsm8k, one filter).
fn sample(id: usize, reply: &str, right: bool) -> String {
    serde_json::json!({
        "doc_id": id,
        "doc": {"question": format!("q{id}"), "answer": "#### 1"},
        "target": "1",
        "arguments": {"gen_args_0": {"arg_0": format!("Question: q{id}"), "arg_1": {"until": ["Question:"], "do_sample": false, "temperature": 0.0}}},
        "resps": [[reply]],
        "filtered_resps": [if right { "1" } else { "2" }],
        "filter": "strict-match",
        "metrics": ["exact_match"],
        "doc_hash": format!("h{id}"),
        "prompt_hash": format!("p{id}"),
        "target_hash": "t",
        "exact_match": if right { 1.0 } else { 0.0 },
    })
    .to_string()
}

/// Writes the logs of run `run` (its kept copy, replaced).
fn write_log(site: &Site, run: &str, lines: &[String]) {
    let dir = site.path(&format!("data/runs/{run}/raw"));
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::write(file, lines.join("\n") + "\n").unwrap();
}

#[test]
fn the_page_shows_the_verdict_the_paired_scores_and_the_changed_replies() {
    let site = Site::copy_of("accuracy");
    let (_out, o) = build(&site);
    let p = page(&o);
    assert!(p.contains("<h1>vLLM 0.30 against 0.29</h1>"), "{p}");
    assert!(p.contains(
        "<p class=\"compare-verdict\">both scores within noise (gsm8k strict-match exact_match −33 points (2 of 6 replies changed: 2 answers right → wrong, 0 wrong → right), gsm8k flexible-extract exact_match −17 points (2 of 6 replies changed: 1 answer right → wrong, 0 wrong → right))</p>"
    ), "the verdict as `findings compare` prints it: {p}");
    assert!(p.contains(
        "<h3 class=\"workload\">gsm8k strict-match exact_match</h3>\n<p class=\"accuracy-score\">vLLM 0.29 (baseline): 1 (95% interval 0.6097–1)<br>vLLM 0.30: 0.6667 (95% interval 0.3–0.9032)<br>Change: −33 points, within noise (±46 points)</p>\n<p class=\"small\">Paired on 6 questions: 2 replies changed, 1 of them repeating the text just before where it first differs; 2 answers right → wrong, 0 wrong → right; McNemar&#39;s exact test p 0.5.</p>"
    ), "{p}");
    assert!(p.contains(
        "<p>The 4 changed replies, each shown around where the two replies first differ, from there on marked; whether each answer was right. Every changed reply, whole: <a href=\"../../compare/acc/changed-replies.csv\">changed-replies.csv</a>.</p>"
    ), "{p}");
    assert!(p.contains(
        "<h3 class=\"workload\">gsm8k strict-match: 2 changed replies</h3>\n<ol class=\"changed-replies\">\n<li class=\"changed-reply\"><p><strong>Question <code>h2</code></strong>: vLLM 0.30's reply repeats the text just before where it first differs</p>\n<p>vLLM 0.29, right: <code>She needs 3 <mark>bolts.⏎#### 3</mark></code></p>\n<p>vLLM 0.30, wrong: <code>She needs 3 <mark>3 3 3 bolts.⏎#### 3 3</mark></code></p></li>"
    ), "{p}");
    // Listed with its verdict.
    let index = std::fs::read_to_string(o.join("compare/index.html")).unwrap();
    assert!(
        index.contains("both scores within noise (gsm8k strict-match"),
        "{index}"
    );
}

#[test]
fn every_changed_reply_is_in_the_csv() {
    let site = Site::copy_of("accuracy");
    let (_out, o) = build(&site);
    let csv = std::fs::read_to_string(o.join("compare/acc/changed-replies.csv")).unwrap();
    assert_eq!(
        csv,
        "task,filter,question,first_difference,before,after,right_before,right_after,repeated\n\
         gsm8k,strict-match,h2,12,\"She needs 3 bolts.\n#### 3\",\"She needs 3 3 3 3 bolts.\n#### 3 3\",1,0,1\n\
         gsm8k,strict-match,h4,8,\"He runs 540 meters.\n#### 540\",\"He runs 450 meters.\n#### 450\",1,0,0\n\
         gsm8k,flexible-extract,h2,12,\"She needs 3 bolts.\n#### 3\",\"She needs 3 3 3 3 bolts.\n#### 3 3\",1,1,1\n\
         gsm8k,flexible-extract,h4,8,\"He runs 540 meters.\n#### 540\",\"He runs 450 meters.\n#### 450\",1,0,0\n"
    );
}

#[test]
fn a_reply_holding_html_is_escaped() {
    let site = Site::copy_of("accuracy");
    write_log(&site, "acc-a", &[sample(0, "The answer is 1.", true)]);
    write_log(
        &site,
        "acc-b",
        &[sample(
            0,
            "The answer is <script>alert(1)</script> & 2.",
            false,
        )],
    );
    let (_out, o) = build(&site);
    let p = page(&o);
    assert!(!p.contains("<script>alert"), "{p}");
    assert!(p.contains(
        "<p>vLLM 0.30, wrong: <code>The answer is <mark>&lt;script&gt;alert(1)&lt;/script&gt; &amp; 2.</mark></code></p>"
    ), "{p}");
}

#[test]
fn a_reply_holding_a_credential_is_scrubbed_on_import() {
    let site = Site::copy_of("accuracy");
    let dir = tempfile::tempdir().unwrap();
    let log = dir
        .path()
        .join("samples_gsm8k_2026-01-05T10-00-00.000001.jsonl");
    std::fs::write(
        &log,
        sample(
            0,
            "The answer is 2. Authorization: Bearer sk-live-123456",
            false,
        ) + "\n",
    )
    .unwrap();
    write_log(&site, "acc-a", &[sample(0, "The answer is 1.", true)]);
    std::fs::remove_dir_all(site.path("data/runs/acc-b")).unwrap();
    let r = site.run(&[
        "import",
        "acc-b",
        log.to_str().unwrap(),
        "--engine",
        "vllm",
        "--version",
        "0.30",
        "--model",
        "m",
        "--hardware",
        "1× H100 80GB",
        "--date",
        "2026-01-02",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (_out, o) = build(&site);
    let p = page(&o);
    let csv = std::fs::read_to_string(o.join("compare/acc/changed-replies.csv")).unwrap();
    for text in [&p, &csv] {
        assert!(!text.contains("sk-live-123456"), "{text}");
    }
    assert!(
        csv.contains("The answer is 2. Authorization: Bearer [removed]"),
        "{csv}"
    );
}

#[test]
fn a_thousand_changed_replies_keep_the_page_small() {
    let site = Site::copy_of("accuracy");
    let long = "x".repeat(2000);
    let n = 1000;
    let a: Vec<String> = (0..n)
        .map(|i| sample(i, &format!("Reply {i}: {long} A"), true))
        .collect();
    let b: Vec<String> = (0..n)
        .map(|i| sample(i, &format!("Reply {i}: {long} B <&>"), i % 2 == 0))
        .collect();
    write_log(&site, "acc-a", &a);
    write_log(&site, "acc-b", &b);
    let (_out, o) = build(&site);
    let p = page(&o);
    // The page budget of issue 15 is 512 KiB; only the first replies, cut
    // around where they differ, are on the page.
    assert!(p.len() < 100 * 1024, "{} bytes", p.len());
    assert_eq!(p.matches("<li class=\"changed-reply\">").count(), 20);
    assert!(
        p.contains("<p>The first 20 of 1000 changed replies (at most 20 of a task and filter)"),
        "{p}"
    );
    assert!(
        p.contains(
            "<h3 class=\"workload\">gsm8k strict-match: the first 20 of 1000 changed replies</h3>"
        ),
        "{p}"
    );
    let csv = std::fs::read_to_string(o.join("compare/acc/changed-replies.csv")).unwrap();
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    assert_eq!(r.records().count(), 1000, "every changed reply, whole");
    assert!(csv.contains(&format!("Reply 999: {long} B <&>")));
}

#[test]
fn two_setups_of_one_run_are_compared_alike() {
    let site = Site::copy_of("accuracy");
    let dir = site.path("data/runs/two/raw");
    std::fs::create_dir_all(&dir).unwrap();
    for run in ["acc-a", "acc-b"] {
        for f in std::fs::read_dir(site.path(&format!("data/runs/{run}/raw"))).unwrap() {
            let f = f.unwrap();
            std::fs::copy(f.path(), dir.join(f.file_name())).unwrap();
        }
    }
    std::fs::write(
        site.path("data/runs/two/run.yaml"),
        "title: Two setups\ndate: 2026-01-02\nsetups:\n  - label: without\n    engine: vllm\n    version: \"0.30\"\n  - label: with\n    engine: vllm\n    version: \"0.30\"\nmodel: m\nhardware: 1× H100 80GB\nclient: lm-evaluation-harness\nresults:\n  - path: raw/samples_gsm8k_2026-01-01T10-00-00.000001.jsonl\n    setup: without\n  - path: raw/samples_gsm8k_2026-01-02T10-00-00.000001.jsonl\n    setup: with\ntables:\n  - derive: scores\n    title: Scores\n  - derive: answers\n    title: Answers\ncompare:\n  - id: two-setups\n",
    )
    .unwrap();
    let (_out, o) = build(&site);
    let p = std::fs::read_to_string(o.join("compare/two-setups/index.html")).unwrap();
    assert!(p.contains("<h1>with against without</h1>"), "{p}");
    assert!(p.contains(
        "<p class=\"compare-verdict\">both scores within noise (gsm8k strict-match exact_match −33 points (2 of 6 replies changed"
    ), "{p}");
    assert!(o.join("compare/two-setups/changed-replies.csv").is_file());
}
