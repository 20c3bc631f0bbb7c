//! The readers of accuracy evaluations (issue 44), on small files in the
//! tools' own formats (`tests/fixtures/evals/`): lm-evaluation-harness's
//! results file (0.3's keys and 0.4's, with `N/A` and a bare `NaN` for a
//! standard error, groups, `model_args` as an object), its sample log, its
//! printed table as pasted (a header line, no arrow column, no separator
//! row or leading pipe, two tables in one paste, a group table), SGLang's
//! and vLLM's gsm8k prints; and the error for a file that is not what it
//! seems.
#![allow(missing_docs)]

use findings::results::vocabulary::{AnswerCol as A, ScoreCol as S};
use findings::results::{self, Format, ResultFile, Row};

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(format!("tests/fixtures/evals/{name}")).unwrap()
}

fn read(name: &str) -> ResultFile {
    results::read(name, &bytes(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn fact(f: &ResultFile, name: &str) -> Option<(String, Option<String>)> {
    f.facts_named(name).next().map(|x| {
        (
            x.value.as_ref().map(|c| c.csv()).unwrap_or_default(),
            x.note.clone(),
        )
    })
}

/// A score row as `task filter metric n_shot value stderr n hib group`.
fn line(r: &Row<S>) -> String {
    let t = |c| r.text(c).unwrap_or("-").to_string();
    let n = |c| r.num(c).map_or("-".to_string(), |x| x.to_string());
    [
        t(S::Task),
        t(S::Filter),
        t(S::Metric),
        n(S::NShot),
        n(S::Value),
        n(S::Stderr),
        n(S::N),
        t(S::HigherIsBetter),
        t(S::Group),
    ]
    .join(" ")
}

fn lines(f: &ResultFile) -> Vec<String> {
    f.scores.rows.iter().map(line).collect()
}

#[test]
fn lm_eval_0_3_results() {
    let f = read("results_0.3.json");
    assert_eq!(f.format, Format::LmEvalResults);
    assert_eq!(
        lines(&f),
        [
            "hellaswag none acc 0 0.5 0.005 - - -",
            "hellaswag none acc_norm 0 0.65 0.0047 - - -",
        ]
    );
    assert_eq!(fact(&f, "backend").unwrap().0, "hf-causal-experimental");
    assert_eq!(fact(&f, "engine"), None, "hf names no engine");
    assert_eq!(fact(&f, "model").unwrap().0, "EleutherAI/pythia-160m");
}

#[test]
fn lm_eval_0_4_results_with_groups_and_settings() {
    let f = read("results_0.4.json");
    assert_eq!(f.tool, "lm-evaluation-harness");
    assert_eq!(f.tool_version.as_deref(), Some("0.4.9"));
    assert_eq!(
        lines(&f),
        [
            "gsm8k flexible-extract exact_match 5 0.78 - 1319 true -",
            "gsm8k strict-match exact_match 5 0.25 0.0122 1319 true -",
            "mmlu none acc - 0.61 - - true mmlu",
            "mmlu_stem none acc 0 0.52 0.008 3153 - mmlu",
        ]
    );
    let f_ = |n| fact(&f, n).unwrap();
    assert_eq!(
        f_("engine"),
        (
            "vllm".into(),
            Some("from `config.model`: lm_eval's `vllm` backend runs it".into())
        )
    );
    assert_eq!(
        f_("version"),
        (
            "0.11.2".into(),
            Some("from `pretty_env_info`: `vllm==0.11.2`".into())
        )
    );
    assert_eq!(f_("kv_cache_dtype").0, "fp8");
    assert_eq!(f_("tensor_parallel_size").0, "2");
    assert_eq!(
        f_("speculative"),
        (
            "speculative_config={\"method\":\"ngram\",\"num_speculative_tokens\":5}".into(),
            Some("from `config.model_args`".into())
        )
    );
    assert_eq!(f_("limit").0, "1319");
    assert_eq!(f_("date").0, "2026-01-01");
}

#[test]
fn a_client_backend_names_no_engine() {
    let f = read("results_hf.json");
    assert_eq!(fact(&f, "backend").unwrap().0, "local-completions");
    assert_eq!(fact(&f, "engine"), None);
    assert_eq!(
        fact(&f, "model").unwrap(),
        (
            "Qwen/Qwen3-8B".into(),
            Some("from `config.model_args`: `model`".into())
        )
    );
}

#[test]
fn a_results_file_that_is_not_what_it_seems() {
    let e = results::read("results_broken.json", &bytes("results_broken.json")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "results_broken.json:3:14: `results.gsm8k`: 0.5 is not an object of metrics"
    );
}

#[test]
fn lm_eval_sample_log() {
    let f = read("samples_gsm8k_2026-01-02T10-00-00.000001.jsonl");
    assert_eq!(f.format, Format::LmEvalSamples);
    assert_eq!(f.answers.len(), 12, "one row per question and filter");
    let r = &f.answers.rows[2];
    assert_eq!(r.text(A::Task), Some("gsm8k"));
    assert_eq!(r.text(A::Question), Some("h2"));
    assert_eq!(r.text(A::Filter), Some("strict-match"));
    assert_eq!(r.text(A::Target), Some("3"));
    assert_eq!(r.text(A::Reply), Some("She needs 3 3 3 3 bolts.\n#### 3 3"));
    assert_eq!(r.text(A::Extracted), Some("[invalid]"));
    assert_eq!(r.num(A::Correct), Some(0.0));
    // Each filter's share right, from the answers.
    assert_eq!(
        lines(&f),
        [
            "gsm8k strict-match exact_match - 0.6666666666666666 - 6 - -",
            "gsm8k flexible-extract exact_match - 0.8333333333333334 - 6 - -",
        ]
    );
    assert_eq!(
        fact(&f, "task").unwrap().1.as_deref(),
        Some("from the file name, `samples_<task>_<time>.jsonl`: the log does not name its task")
    );
}

#[test]
fn pasted_tables_two_in_one_paste() {
    let f = read("table.txt");
    assert_eq!(f.format, Format::LmEvalTableReport);
    assert_eq!(f.reports.len(), 2);
    assert_eq!(f.reports[0].location, "lines 2–6");
    assert_eq!(
        lines(f.report(1).unwrap()),
        [
            "gsm8k flexible-extract exact_match 5 0.784 0.026 - - -",
            "gsm8k strict-match exact_match 5 0.772 0.0265 - - -",
        ]
    );
    assert_eq!(
        lines(f.report(2).unwrap()),
        [
            "gsm8k flexible-extract exact_match 5 0.6 0.031 - - -",
            "gsm8k strict-match exact_match 5 0.592 - - - -",
        ]
    );
    let first = f.report(1).unwrap();
    assert_eq!(
        fact(first, "engine").unwrap(),
        (
            "vllm".into(),
            Some("from the header line at line 2: lm_eval's `vllm` backend runs it".into())
        )
    );
    assert_eq!(fact(first, "kv_cache_dtype").unwrap().0, "fp8");
    assert_eq!(fact(first, "limit").unwrap().0, "250");
    assert_eq!(
        fact(f.report(2).unwrap(), "engine"),
        None,
        "the second table has no header line"
    );
}

#[test]
fn pasted_group_table() {
    assert_eq!(
        lines(&read("groups.txt")),
        [
            "mmlu none acc - 0.61 0.004 - true mmlu",
            "humanities none acc - 0.55 0.007 - true mmlu",
            "stem none acc - 0.52 0.008 - true mmlu",
        ]
    );
}

#[test]
fn sglang_and_vllm_gsm8k_prints() {
    let f = read("sglang_gsm8k.txt");
    assert_eq!(f.format, Format::SglangAccuracyReport);
    assert_eq!(
        lines(&f),
        [
            "gsm8k none accuracy 8 0.605 - 200 true -",
            "gsm8k none invalid 8 0 - 200 false -",
        ]
    );
    assert_eq!(fact(&f, "engine").unwrap().0, "sglang");
    let v = read("vllm_gsm8k.txt");
    assert_eq!(v.format, Format::VllmGsm8kReport);
    assert_eq!(
        lines(&v),
        [
            "gsm8k none accuracy - 0.299 - 500 true -",
            "gsm8k none invalid - 0.167 - 500 false -",
        ]
    );
    assert_eq!(
        fact(&v, "engine"),
        None,
        "vLLM's script is a client of any server"
    );
}
