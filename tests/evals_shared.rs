//! Real accuracy files, read: every file of `<shared>/evals/`
//! (lm-evaluation-harness results files and sample logs from public
//! repositories, lm_eval tables and gsm8k prints pasted in engines'
//! threads), with the figures `manifest.json` and the files themselves
//! give. Other projects' data, never copied into the repository: read
//! where it is, from the folder `FINDINGS_SHARED` names (`.ci/run` sets it
//! to `../shared`). Unset, the test says so and passes.
//!
//! Run it with `FINDINGS_SHARED=../shared cargo test --test evals_shared`.
#![allow(missing_docs)]

mod common;

use findings::results::vocabulary::{AnswerCol as A, ScoreCol as S};
use findings::results::{self, Format, ResultFile};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn shared() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("FINDINGS_SHARED") else {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "evals_shared: FINDINGS_SHARED is not set, so the shared files are not read (set it to the shared folder, e.g. ../shared)"
        );
        return None;
    };
    let dir = PathBuf::from(dir).join("evals");
    assert!(
        dir.join("manifest.json").is_file(),
        "FINDINGS_SHARED has no evals/manifest.json: {}",
        dir.display()
    );
    Some(dir)
}

fn read(path: &Path) -> ResultFile {
    let bytes = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy();
    results::read(&name, &bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn fact(f: &ResultFile, name: &str) -> Option<String> {
    f.facts_named(name)
        .next()
        .and_then(|x| x.value.as_ref())
        .map(|c| c.csv())
}

fn manifest(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Score `(filter, metric)` of `task`: (value, stderr, n).
fn score(
    f: &ResultFile,
    task: &str,
    filter: &str,
    metric: &str,
) -> (f64, Option<f64>, Option<f64>) {
    let r = f
        .scores
        .rows
        .iter()
        .find(|r| {
            r.text(S::Task) == Some(task)
                && r.text(S::Filter) == Some(filter)
                && r.text(S::Metric) == Some(metric)
        })
        .unwrap_or_else(|| panic!("{}: no {task} {filter} {metric}", f.source));
    (r.num(S::Value).unwrap(), r.num(S::Stderr), r.num(S::N))
}

/// Every file of the manifest reads, as the format of its kind, with a
/// score for each numeric metric its results hold; the backend and the
/// model the manifest names, and the engine where the backend is one.
#[test]
fn every_file_reads_as_its_kind() {
    let Some(dir) = shared() else { return };
    for m in manifest(&dir) {
        let rel = m["file"].as_str().unwrap();
        let f = read(&dir.join(rel));
        let kind = m["kind"].as_str().unwrap();
        let want = match kind {
            "lm_eval_results" => Format::LmEvalResults,
            "lm_eval_samples" => Format::LmEvalSamples,
            "pasted/lm_eval_table" => Format::LmEvalTableReport,
            "pasted/sglang_gsm8k" => Format::SglangAccuracyReport,
            "pasted/vllm_gsm8k" => Format::VllmGsm8kReport,
            other => panic!("{rel}: a kind this test does not know: {other}"),
        };
        assert_eq!(f.format, want, "{rel}");
        assert!(
            !f.scores.is_empty() || !f.answers.is_empty(),
            "{rel}: nothing read"
        );
        if kind == "lm_eval_results" {
            let backend = m["backend"].as_str().unwrap();
            assert_eq!(fact(&f, "backend").as_deref(), Some(backend), "{rel}");
            let engine = (backend == "vllm").then_some("vllm");
            assert_eq!(fact(&f, "engine").as_deref(), engine, "{rel}");
            // Every numeric metric of `results` is a score.
            let raw: Value =
                serde_json::from_slice(&std::fs::read(dir.join(rel)).unwrap()).unwrap();
            for (task, metrics) in raw["results"].as_object().unwrap() {
                for (key, v) in metrics.as_object().unwrap() {
                    let Some((metric, filter)) = key.split_once(',') else {
                        continue;
                    };
                    if metric.ends_with("_stderr") || !v.is_number() {
                        continue;
                    }
                    assert_eq!(
                        score(&f, task, filter, metric).0,
                        v.as_f64().unwrap(),
                        "{rel}"
                    );
                }
            }
        }
    }
}

#[test]
fn lm_eval_results_figures() {
    let Some(dir) = shared() else { return };
    let r = |name: &str| read(&dir.join("lm_eval_results").join(name));
    let phi = r("pmemoli__Data-Science-Thesis__src__data__benchmark_results__gsm8k__gsm8k-phi-3-mini_2025-08-07T11-42-40.066002.json");
    assert_eq!(
        score(&phi, "gsm8k", "strict-match", "exact_match"),
        (0.1, Some(0.09999999999999999), Some(10.0))
    );
    assert_eq!(
        score(&phi, "gsm8k", "flexible-extract", "exact_match"),
        (0.8, Some(0.13333333333333333), Some(10.0))
    );
    assert_eq!(fact(&phi, "limit").as_deref(), Some("10"));
    let kimi = r("vllm-project__tpu-inference__aime26__moonshotai__Kimi-K2.6__results_2026-05-01T17-15-07.409286.json");
    assert_eq!(fact(&kimi, "kv_cache_dtype").as_deref(), Some("fp8"));
    assert_eq!(fact(&kimi, "tensor_parallel_size").as_deref(), Some("8"));
    assert_eq!(
        fact(&kimi, "version"),
        None,
        "pretty_env_info lists no vllm=="
    );
    // "N/A" standard errors are no value.
    let luo = r("EleutherAI__lm-evaluation-harness__african_nlp_benchmarks__masakhaner_luo_prompt_2_0shot_2026-01-16T16-37-38.713565.json");
    assert_eq!(
        score(&luo, "masakhaner_luo_prompt_2", "flexible-extract", "f1").1,
        None
    );
    // 0.4.2's `groups` and `group_subtasks`.
    let steer = r("EleutherAI__lm-evaluation-harness__lm_evals__Meta-Llama-3-8B-Instruct__result_chat-steer.jsonl____data__public_models__huggingface__meta-llama__Meta-Llama-3-8B-Instruct__results_2024-06-03T04-21-11.183741.json");
    let groups: Vec<_> = steer.scores.rows.iter().map(|r| r.text(S::Group)).collect();
    assert!(groups.iter().all(|g| *g == Some("steer")), "{groups:?}");
    assert_eq!(steer.scores.len(), 6);
}

#[test]
fn sample_logs() {
    let Some(dir) = shared() else { return };
    let s = |name: &str| read(&dir.join("lm_eval_samples").join(name));
    let gsm = s("pmemoli__Data-Science-Thesis__src__data__benchmark_results__gsm8k__samples_gsm8k_2025-08-07T11-42-40.066002.jsonl");
    assert_eq!(gsm.answers.len(), 20, "10 questions, 2 filters");
    // The log scores as the results file: 0.1 strict, 0.8 flexible.
    assert_eq!(score(&gsm, "gsm8k", "strict-match", "exact_match").0, 0.1);
    assert_eq!(
        score(&gsm, "gsm8k", "flexible-extract", "exact_match").0,
        0.8
    );
    let a = s("EleutherAI__lm-evaluation-harness__african_nlp_benchmarks__samples_masakhaner_luo_prompt_2_2026-01-16T16-37-38.713565.jsonl");
    let b = s("EleutherAI__lm-evaluation-harness__african_nlp_benchmarks__samples_masakhaner_luo_prompt_2_2026-01-16T17-35-22.033409.jsonl");
    assert_eq!(a.answers.len(), 185);
    assert_eq!(a.answers, b.answers, "byte-identical logs read alike");
    assert_eq!(
        a.answers.rows[0].num(A::Correct),
        None,
        "f1 is scored over the set"
    );
    let kimi = s("vllm-project__tpu-inference__aime26__moonshotai__Kimi-K2.6__samples_aime26_2026-05-01T17-15-07.409286.jsonl");
    assert_eq!(kimi.answers.len(), 30);
    assert_eq!(score(&kimi, "aime26", "none", "exact_match").0, 23.0 / 30.0);
}

#[test]
fn pastes() {
    let Some(dir) = shared() else { return };
    let p = |name: &str| read(&dir.join("pasted").join(name));
    let two = p("lm_eval_table/vllm-project-vllm-14848-1.txt");
    assert_eq!(two.reports.len(), 2);
    assert_eq!(
        score(
            two.report(2).unwrap(),
            "gsm8k",
            "strict-match",
            "exact_match"
        ),
        (0.32, Some(0.0469), None)
    );
    let glm = p("lm_eval_table/vllm-project-vllm-46385-1.txt");
    assert_eq!(fact(&glm, "backend").as_deref(), Some("local-completions"));
    assert_eq!(fact(&glm, "engine"), None, "a client names no engine");
    assert_eq!(fact(&glm, "model").as_deref(), Some("zai-org/GLM-5.2-FP8"));
    let no_pipe = p("lm_eval_table/vllm-project-vllm-14766-3.txt");
    assert_eq!(score(&no_pipe, "arc_easy", "none", "acc_norm").0, 0.65);
    let sg = p("sglang_gsm8k/sgl-project-sglang-15464-1.txt");
    assert_eq!(sg.reports.len(), 2);
    assert_eq!(
        score(sg.report(1).unwrap(), "gsm8k", "none", "accuracy"),
        (0.605, None, Some(200.0))
    );
    assert_eq!(
        score(sg.report(2).unwrap(), "gsm8k", "none", "accuracy"),
        (0.81, None, Some(200.0))
    );
    let v = p("vllm_gsm8k/vllm-project-vllm-28594-1.txt");
    assert_eq!(score(&v, "gsm8k", "none", "invalid").0, 0.167);
    let wrapped = p("vllm_gsm8k/HabanaAI-vllm-fork-889-1.txt");
    assert_eq!(
        score(&wrapped, "gsm8k", "strict-match", "exact_match").0,
        0.953125
    );
}

/// `findings compare` on the shared pairs: the verdict's first line.
fn verdict(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    let r = common::run_from(dir, &all);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout.lines().next().unwrap_or("").to_string()
}

#[test]
fn compared_question_by_question() {
    let Some(dir) = shared() else { return };
    let s = dir.join("lm_eval_samples");
    let luo = |t: &str| {
        format!("EleutherAI__lm-evaluation-harness__african_nlp_benchmarks__samples_masakhaner_luo_prompt_2_{t}.jsonl")
    };
    let (zero, again, five) = (
        luo("2026-01-16T16-37-38.713565"),
        luo("2026-01-16T17-35-22.033409"),
        luo("2026-01-16T16-59-59.899345"),
    );
    assert_eq!(
        verdict(&s, &[&zero, &again]),
        format!("{again} against {zero}: no reply changed")
    );
    assert_eq!(
        verdict(&s, &[&zero, &five]),
        format!("{five} against {zero}: masakhaner_luo_prompt_2 flexible-extract: 173 of 185 replies changed (not graded one by one)")
    );
    let kimi = "vllm-project__tpu-inference__aime26__moonshotai__Kimi-K2.6__samples_aime26_2026-05-01T17-15-07.409286.jsonl";
    let qwen = "vllm-project__tpu-inference__eval_logs_397b_aime26__Qwen__Qwen3.5-397B-A17B-FP8__samples_aime26_2026-05-30T07-50-15.853953.jsonl";
    assert_eq!(
        verdict(&s, &[kimi, qwen]),
        format!("{qwen} against {kimi}: aime26 none exact_match +6.7 points (30 of 30 replies changed: 2 answers right → wrong, 4 wrong → right), within noise by McNemar's exact test (p 0.6875)")
    );
}

#[test]
fn pasted_before_and_after() {
    let Some(dir) = shared() else { return };
    let p = dir.join("pasted");
    assert_eq!(
        verdict(&p, &["lm_eval_table/vllm-project-vllm-14848-1.txt"]),
        "vllm-project-vllm-14848-1.txt (lines 9–12) against vllm-project-vllm-14848-1.txt (lines 2–5): better on both scores beyond noise (gsm8k strict-match exact_match +32 points, gsm8k flexible-extract exact_match +22 points)"
    );
    assert_eq!(
        verdict(&p, &["sglang_gsm8k/sgl-project-sglang-15464-1.txt"]),
        "sgl-project-sglang-15464-1.txt (lines 16–19) against sgl-project-sglang-15464-1.txt (lines 7–10): better on 1 of 2 scores beyond noise (gsm8k none accuracy +21 points); the same on 1"
    );
    assert_eq!(
        verdict(&p, &["lm_eval_table/vllm-project-vllm-46385-1.txt", "lm_eval_table/vllm-project-vllm-46385-2.txt"]),
        "vllm-project-vllm-46385-2.txt against vllm-project-vllm-46385-1.txt: both scores within noise (gsm8k flexible-extract exact_match −0.3 points, gsm8k strict-match exact_match −0.2 points)"
    );
}

/// The shared Kimi-K2.6 results file's `model_args` give
/// `kv_cache_dtype: fp8`: imported, it is the setup's flags (issue 44).
#[test]
fn import_takes_the_kv_cache_dtype_of_model_args_as_flags() {
    let Some(dir) = shared() else { return };
    let file = dir.join("lm_eval_results/vllm-project__tpu-inference__aime26__moonshotai__Kimi-K2.6__results_2026-05-01T17-15-07.409286.json");
    let site = common::Site::copy_of("minimal");
    let r = site.run(&[
        "import",
        "kimi",
        file.to_str().unwrap(),
        "--version",
        "0.11.2",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let yaml = site.read("data/runs/kimi/run.yaml");
    assert!(
        yaml.contains("    engine: vllm\n    version: \"0.11.2\"\n    flags: kv_cache_dtype=fp8\n"),
        "{yaml}"
    );
}
