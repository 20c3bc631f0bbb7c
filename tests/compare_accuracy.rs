//! `findings compare` on accuracy runs (issue 44), on the fixtures of
//! `tests/fixtures/evals/`: two sample logs of the same six gsm8k
//! questions compared question by question (the replies that changed,
//! right → wrong, a repeated token, McNemar's exact test), two
//! byte-identical logs ("no reply changed"), two pasted tables compared
//! by their intervals, the fixed `paired` object of `--format json`, and
//! an import whose `--engine` contradicts the file.
#![allow(missing_docs)]

mod common;

use common::{run_from, Site};
use std::path::Path;

fn evals() -> &'static Path {
    Path::new("tests/fixtures/evals")
}

const A: &str = "samples_gsm8k_2026-01-01T10-00-00.000001.jsonl";
const B: &str = "samples_gsm8k_2026-01-02T10-00-00.000001.jsonl";
const SAME: &str = "samples_gsm8k_2026-01-03T10-00-00.000001.jsonl";

#[test]
fn paired_logs_say_which_answers_changed() {
    let r = run_from(evals(), &["compare", A, B]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = r.stdout.lines().next().unwrap();
    assert_eq!(
        first,
        "samples_gsm8k_2026-01-02T10-00-00.000001.jsonl against samples_gsm8k_2026-01-01T10-00-00.000001.jsonl: both scores within noise (gsm8k strict-match exact_match −33 points (2 of 6 replies changed: 2 answers right → wrong, 0 wrong → right), gsm8k flexible-extract exact_match −17 points (2 of 6 replies changed: 1 answer right → wrong, 0 wrong → right))"
    );
    assert!(r.stdout.contains(
        "  paired on 6 questions: 2 replies changed (1 repeat the text before), 2 answers right → wrong, 0 wrong → right, McNemar p 0.5\n"
    ), "{}", r.stdout);
    // The changed reply side by side, where it first differs marked.
    assert!(r.stdout.contains(
        "  question h2: right → wrong\n    She needs 3 ⟦bolts.⏎#### 3⟧\n    She needs 3 ⟦3 3 3 bolts.⏎#### 3 3⟧\n"
    ), "{}", r.stdout);
}

#[test]
fn json_gives_the_paired_object_and_the_verdict() {
    let r = run_from(evals(), &["compare", A, B, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["scores"][0]["paired"],
        serde_json::json!({"questions": 6, "changed": 2, "right_to_wrong": 2, "wrong_to_right": 0, "repeated": 1, "p_value": 0.5})
    );
    assert_eq!(v["verdict"]["worse"], 2);
    assert_eq!(v["verdict"]["within_noise"], 2);
    assert_eq!(v["scores"][0]["changed_replies"][0]["repeated"], true);
    assert_eq!(v["scores"][0]["changed_replies"][1]["repeated"], false);
}

#[test]
fn byte_identical_logs_change_no_reply() {
    let r = run_from(evals(), &["compare", A, SAME]);
    assert_eq!(
        r.stdout.lines().next().unwrap(),
        "samples_gsm8k_2026-01-03T10-00-00.000001.jsonl against samples_gsm8k_2026-01-01T10-00-00.000001.jsonl: no reply changed"
    );
}

#[test]
fn two_tables_of_one_paste_by_their_intervals() {
    let r = run_from(evals(), &["compare", "table.txt"]);
    assert_eq!(
        r.stdout.lines().next().unwrap(),
        "table.txt (lines 9–11) against table.txt (lines 2–6): worse on 1 of 2 scores beyond noise (gsm8k flexible-extract exact_match −18 points); 1 untested, single runs: worse on 1 (gsm8k strict-match exact_match −18 points)"
    );
}

#[test]
fn three_sides_are_refused() {
    let r = run_from(evals(), &["compare", A, B, SAME]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("an accuracy comparison sets two runs side by side; these inputs hold 3"),
        "{}",
        r.stderr
    );
}

#[test]
fn an_engine_that_contradicts_the_file_is_an_error() {
    let site = Site::copy_of("minimal");
    let file = std::fs::canonicalize(evals().join("results_0.4.json")).unwrap();
    let before = common::tree(site.root());
    let r = site.run(&[
        "import",
        "acc",
        file.to_str().unwrap(),
        "--engine",
        "sglang",
        "--version",
        "0.5.0",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains(
        "error: raw/results_0.4.json records the engine vllm (from `config.model`: lm_eval's `vllm` backend runs it); --engine sglang contradicts it: leave --engine out, or import the file of the run sglang served"
    ), "{}", r.stderr);
    assert_eq!(common::tree(site.root()), before, "nothing changed on disk");
}

#[test]
fn a_run_page_leads_with_its_scores() {
    let site = Site::copy_of("minimal");
    let dir = std::fs::canonicalize(evals()).unwrap();
    let r = site.run(&[
        "import",
        "acc",
        dir.join("results_0.4.json").to_str().unwrap(),
        "--hardware",
        "1× H100 80GB",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = tempfile::tempdir().unwrap();
    let o = out.path().join("public");
    let r = site.run(&["build", "--output", o.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let page = std::fs::read_to_string(o.join("runs/acc/index.html")).unwrap();
    let scores = page
        .find("id=\"scores-heading\"")
        .expect("a scores section");
    let tables = page.find("Headline figures").unwrap_or(page.len());
    assert!(scores < tables, "the scores lead");
    assert!(page.contains(
        "<tr><td>gsm8k</td><td>flexible-extract</td><td>exact_match</td><td class=\"num\">5</td><td class=\"num\">0.78</td><td class=\"num\">0.7568–0.8015</td><td class=\"num\">1319</td></tr>"
    ), "the interval of an N/A stderr comes from the questions: Wilson's score interval");
    assert!(page.contains(
        "<tr><td>gsm8k</td><td>strict-match</td><td>exact_match</td><td class=\"num\">5</td><td class=\"num\">0.25</td><td class=\"num\">0.2261–0.2739</td><td class=\"num\">1319</td></tr>"
    ));
    // The shares drawn (issue 45: the accuracy chart, through plotters):
    // each with its interval as a whisker, one colour per task, filter and
    // metric, described in words for a screen reader.
    let chart = &page[page
        .find("<figure class=\"chart scores-chart\">")
        .expect("a scores chart")..];
    let chart = &chart[..chart.find("</figure>").unwrap()];
    assert!(chart.contains(
        "<desc id=\"scores-acc-desc\">Scores of vLLM 0.11.2 under lm-evaluation-harness, Qwen3-8B by setup, each with its 95% interval: gsm8k, flexible-extract, exact_match on vLLM 0.11.2 78% (75.68–80.15%); gsm8k, strict-match, exact_match on vLLM 0.11.2 25% (22.61–27.39%); mmlu, acc on vLLM 0.11.2 61% (61–61%); mmlu_stem, acc on vLLM 0.11.2 52% (50.43–53.57%).</desc>"
    ), "{chart}");
    // A whisker from 75.68% to 80.15% and its dot, per share.
    assert_eq!(
        chart.matches("<path class=\"plot-interval\"").count(),
        4,
        "{chart}"
    );
    assert_eq!(
        chart.matches("<circle class=\"plot-interval\"").count(),
        4,
        "{chart}"
    );
}

/// `findings compare` given the ids of two accuracy runs of a site
/// (`tests/fixtures/accuracy/`, imported from the two logs above) compares
/// their scores, question by question, exactly as comparing their files
/// does: the same table and JSON, the sides named by their setups.
#[test]
fn run_ids_of_accuracy_runs_compare_as_their_files() {
    let site = Site::copy_of("accuracy");
    let by_id = site.run(&["compare", "acc-a", "acc-b"]);
    assert_eq!(by_id.code, 0, "{}", by_id.stderr);
    let by_file = run_from(
        site.root(),
        &[
            "compare",
            &format!("data/runs/acc-a/raw/{A}"),
            &format!("data/runs/acc-b/raw/{B}"),
        ],
    );
    assert_eq!(by_file.code, 0, "{}", by_file.stderr);
    // Alike but for the sides' names (and the header's widths, which
    // follow them).
    let body = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("task filter metric"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        body(&by_id.stdout),
        body(
            &by_file
                .stdout
                .replace(A, "vLLM 0.29")
                .replace(B, "vLLM 0.30")
        )
    );
    assert!(
        by_id.stdout.starts_with("vLLM 0.30 against vLLM 0.29: both scores within noise (gsm8k strict-match exact_match −33 points (2 of 6 replies changed: 2 answers right → wrong, 0 wrong → right)"),
        "{}",
        by_id.stdout
    );
    let json = site.run(&["compare", "acc-a", "acc-b", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let paired = &v["scores"][0]["paired"];
    assert_eq!(paired["questions"], 6, "{}", json.stdout);
    assert_eq!(paired["right_to_wrong"], 2, "{}", json.stdout);
}

/// Import puts the settings of lm_eval's `model_args` that change what a
/// model answers (`kv_cache_dtype`, the speculative settings) into the
/// setup's flags (issue 44): a trend then tells a run with them from one
/// without ("other launch flags"), and a second file of one setup with
/// other flags is refused.
#[test]
fn import_puts_the_answer_settings_of_model_args_into_the_flags() {
    let site = Site::copy_of("minimal");
    let dir = std::fs::canonicalize(evals()).unwrap();
    let file = dir.join("results_0.4.json");
    let r = site.run(&["import", "acc", file.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let yaml = site.read("data/runs/acc/run.yaml");
    assert!(
        yaml.contains("  - label: vLLM 0.11.2\n    engine: vllm\n    version: \"0.11.2\"\n    flags: \"kv_cache_dtype=fp8, speculative_config={\\\"method\\\":\\\"ngram\\\",\\\"num_speculative_tokens\\\":5}\"\n"),
        "{yaml}"
    );
    // The same setup, other flags: refused, nothing written.
    let other = site.path("other.json");
    std::fs::write(
        &other,
        std::fs::read_to_string(&file).unwrap().replace(
            "\"kv_cache_dtype\": \"fp8\"",
            "\"kv_cache_dtype\": \"auto\"",
        ),
    )
    .unwrap();
    let r = site.run(&["import", "acc", other.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr.contains("the run has a setup named \"vLLM 0.11.2\" already, with the flags kv_cache_dtype=fp8, speculative_config={\"method\":\"ngram\",\"num_speculative_tokens\":5}; this file records kv_cache_dtype=auto, speculative_config={\"method\":\"ngram\",\"num_speculative_tokens\":5}: name the new one with --setup"),
        "{}",
        r.stderr
    );
    assert_eq!(site.read("data/runs/acc/run.yaml"), yaml);
}
