//! Issue 43's numbers, as a reader reads them on the site the issue tried:
//! the bundled site with the recorded vLLM 0.28, 0.29 and 0.30 runs
//! imported (`live28`, `live29`, `live30`, compared as `c-live`) and the
//! shared llama.cpp series imported (`llama-b<build>`). Each value is in
//! the unit its label names; a counter's count is named for what it
//! counts; an explanation only where the run's numbers give one; whose
//! count each figure is; no local path on any page; a llama-bench run's
//! headline names its tests; every run in the index has its figure; the
//! run dated as its tool wrote it; the flag said once; the model as its
//! file spells it; one filter entry per model and per GPU.
//!
//! The files come from `FINDINGS_SHARED` (never copied into the
//! repository); without it the tests say so and pass. Run with
//! `FINDINGS_SHARED=../shared cargo test --test site_numbers`.
#![allow(missing_docs)]

mod common;
use common::run_in;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn shared() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("FINDINGS_SHARED") else {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "site_numbers: FINDINGS_SHARED is not set, so issue 43's site is not built (set it to the shared folder, e.g. ../shared)"
        );
        return None;
    };
    let dir = PathBuf::from(dir);
    assert!(
        dir.join("recorded-runs/INDEX.md").is_file() && dir.join("trendsets/INDEX.md").is_file(),
        "FINDINGS_SHARED={} has no recorded-runs/INDEX.md and trendsets/INDEX.md",
        dir.display()
    );
    Some(dir)
}

/// The site, built once for every test: (its folder, the output).
fn site() -> Option<&'static (tempfile::TempDir, PathBuf)> {
    static SITE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let shared = shared()?;
    Some(SITE.get_or_init(|| build(&shared)))
}

/// What `/work/scratch/scenario.sh` does: the bundled site, the recorded
/// runs and the llama.cpp series imported, `c-live` compared, built.
fn build(shared: &Path) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let from = common::bundled();
    for part in ["findings", "data", "site.yaml", "templates", "static"] {
        for e in walkdir::WalkDir::new(from.join(part)) {
            let e = e.unwrap();
            let to = root.join(e.path().strip_prefix(&from).unwrap());
            if e.file_type().is_dir() {
                std::fs::create_dir_all(&to).unwrap();
            } else {
                std::fs::create_dir_all(to.parent().unwrap()).unwrap();
                std::fs::copy(e.path(), &to).unwrap();
            }
        }
    }
    for v in ["28", "29", "30"] {
        let folder = shared.join(format!("recorded-runs/vllm-0.{v}/live"));
        let r = run_in(
            &root,
            &[
                "import",
                &format!("live{v}"),
                folder.to_str().unwrap(),
                "--engine",
                "vllm",
                "--version",
                &format!("0.{v}.0"),
            ],
        );
        assert_eq!(r.code, 0, "live{v}: {}", r.stderr);
    }
    let yaml = root.join("site.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    let text = if text.contains("id: llama-cpp") {
        text
    } else {
        text.replacen("engines:\n", "engines:\n  - id: llama-cpp\n", 1)
    };
    std::fs::write(
        &yaml,
        format!("{text}compare:\n  - id: c-live\n    runs: [live29, live30]\n"),
    )
    .unwrap();
    let series = shared.join("trendsets/llamacpp-strixhalo-gpt-oss-20b-vulkan");
    let index = std::fs::read_to_string(shared.join("trendsets/INDEX.md")).unwrap();
    let mut n = 0;
    for line in index.lines().filter(|l| l.starts_with("| `b")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let file = cells[1].trim_matches('`');
        let day = cells[3];
        let build = file[1..].split('-').next().unwrap();
        let r = run_in(
            &root,
            &[
                "import",
                &format!("llama-b{build}"),
                series.join(file).to_str().unwrap(),
                "--engine",
                "llama-cpp",
                "--date",
                day,
            ],
        );
        assert_eq!(r.code, 0, "{file}: {}", r.stderr);
        n += 1;
    }
    assert_eq!(n, 12, "INDEX.md lists the series' twelve files");
    let out = dir.path().join("public");
    let r = run_in(&root, &["build", "--output", out.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    (dir, out)
}

fn page(out: &Path, rel: &str) -> String {
    std::fs::read_to_string(out.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The text of an HTML page's `<main>`, tags taken out and spaces run
/// together.
fn text(html: &str) -> String {
    let main = &html[html.find("<main").unwrap_or(0)..];
    let main = &main[..main.find("</main>").unwrap_or(main.len())];
    let mut out = String::new();
    let mut tag = false;
    for c in main.chars() {
        match c {
            '<' => tag = true,
            '>' => {
                tag = false;
                out.push(' ');
            }
            c if !tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&#39;", "'")
        .replace("&amp;", "&")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" ,", ",")
        .replace(" .", ".")
        .replace(" :", ":")
        .replace(" )", ")")
}

/// The text from `start` to `end`.
fn between<'t>(t: &'t str, start: &str, end: &str) -> &'t str {
    let i = t
        .find(start)
        .unwrap_or_else(|| panic!("no {start:?} in {t}"));
    let j = t[i..].find(end).map_or(t.len(), |j| i + j);
    &t[i..j]
}

#[test]
fn live30_reads_in_the_units_its_labels_name_with_whose_count_each_is() {
    let Some((_, out)) = site() else { return };
    let html = page(out, "runs/live30/index.html");
    let t = text(&html);
    // Dated as vllm bench serve wrote it (20260930), not by the
    // snapshots' UTC clock (1 October).
    assert!(t.starts_with("Run · 30 September 2026 "), "{t}");
    // The results table: TTFT in ms under its "(ms)" label.
    for want in [
        "TTFT mean (ms) 28,640 ",
        "TTFT median (ms) 28,410 ",
        "TTFT p99 (ms) 68,574 ",
    ] {
        assert!(t.contains(want), "{want}: {t}");
    }
    assert!(!t.contains("28.64 s"), "{t}");
    // The preemptions as preemptions, one sentence.
    assert!(t.contains("The server counted 22 preemptions during this run (one request can be preempted more than once)"), "{t}");
    assert!(!t.contains("preempted 22 requests"), "{t}");
    // The series' counter is a count of preemptions, its chart says so.
    assert!(!t.contains("Preemptions (requests)"), "{t}");
    assert!(
        t.contains("Requests the server ran and kept waiting, and its preemptions"),
        "{t}"
    );
    // Whose count: the client's 316 tok/s beside the server counter's,
    // the client's peak of 32 beside the 11 the server ran; the results
    // table's column says it is the client's.
    let headline = between(&t, "Headline figures", "What this run shows");
    for want in [
        "Output throughput client 316 tok/s · server's counter 295.2 tok/s from bench.json, after.snapshot.json",
        "Concurrency asked 32 · the client's peak 32 · most the server ran 11 from bench.json, run.series.jsonl",
        "Flagged: ran ≤ 11 of 32, said once for output throughput, request throughput, time to first token, inter-token latency and concurrency (the figures marked).",
    ] {
        assert!(headline.contains(want), "{want}: {headline}");
    }
    // Said once, and no stray "·" before a flag.
    assert_eq!(headline.matches("ran ≤ 11 of 32").count(), 1, "{headline}");
    assert!(!html.contains("</span><a class=\"figure-flag\""), "{html}");
    assert!(!html.contains("figure-sep\"> · </span><a class=\"figure-flag\""));
    assert!(
        t.contains("Client's peak concurrent requests (requests) 32 "),
        "{t}"
    );
    // The model by its name in the setup, the table and the facts.
    assert!(
        t.contains("Model Qwen3.8-27B-W4A16-AutoRound Hardware"),
        "{t}"
    );
}

#[test]
fn fewer_ran_than_asked_and_the_pools_do_not_explain_it() {
    let Some((_, out)) = site() else { return };
    let want = "Fewer ran than asked: 32 requests of 88 + 1,000 tokens ask for 34,816 tokens of KV cache; the pools held 26,093 (vLLM 0.29.0) and 29,127 (vLLM 0.30.0), about 23 and 26 whole requests; the servers ran at most 10 and 11: the pools do not explain the cap; the servers counted 21 and 22 preemptions.";
    let t = text(&page(out, "compare/c-live/index.html"));
    assert!(t.contains(want), "{t}");
    assert!(!t.contains("Why fewer ran"), "{t}");
    // The version page says the same, with its versions' names.
    let t = text(&page(out, "engines/vllm/0.30/index.html"));
    assert!(t.contains("the pools do not explain the cap"), "{t}");
    assert!(!t.contains("Why fewer ran"), "{t}");
    // The workload heading spells the model as its file does.
    assert!(
        t.contains("Qwen3.8-27B-W4A16-AutoRound · 88 in, 1,000 out"),
        "{t}"
    );
}

#[test]
fn no_page_shows_a_local_path() {
    let Some((_, out)) = site() else { return };
    for e in walkdir::WalkDir::new(out) {
        let e = e.unwrap();
        let p = e.path();
        if p.extension().is_some_and(|x| x == "html" || x == "svg") {
            let s = std::fs::read_to_string(p).unwrap();
            assert!(
                !s.contains("/models/Qwen3.8-27B-W4A16-AutoRound"),
                "{} shows the model's local path",
                p.display()
            );
        }
    }
}

#[test]
fn a_llama_bench_run_names_each_test_and_the_index_shows_its_figure() {
    let Some((_, out)) = site() else { return };
    let html = page(out, "runs/llama-b8577/index.html");
    let t = text(&html);
    let headline = between(&t, "Headline figures", "Charts");
    assert!(
        headline.contains("Test Tokens/s ± (tok/s) File pp512 1,578 12.64 b8577-"),
        "{headline}"
    );
    assert!(headline.contains(" tg128 78.94 0.01 b8577-"), "{headline}");
    assert!(!headline.contains("Concurrency"), "{headline}");
    assert!(!headline.contains("unlimited"), "{headline}");
    // Every run of result files has its figure in the index: the
    // llama-bench runs too.
    let data: serde_json::Value = serde_json::from_str(&page(out, "runs/filters.json")).unwrap();
    let runs = data["runs"].as_array().unwrap();
    let figure = |id: &str| {
        runs.iter()
            .find(|r| r[0] == format!("runs/{id}/"))
            .unwrap_or_else(|| panic!("{id}"))[7]
            .clone()
    };
    assert_eq!(
        figure("llama-b8577"),
        "pp512 1,578 tok/s ± 12.64 · tg128 78.94 tok/s ± 0.01"
    );
    for r in runs.iter().filter(|r| {
        let p = r[0].as_str().unwrap();
        p.starts_with("runs/llama-b") || p.starts_with("runs/live")
    }) {
        assert!(r[7].is_string(), "{} has no figure", r[0]);
    }
    assert!(text(&page(out, "runs/index.html"))
        .contains("pp512 1,578 tok/s ± 12.64 · tg128 78.94 tok/s ± 0.01"));
}

#[test]
fn the_runs_filter_lists_each_model_and_gpu_once() {
    let Some((_, out)) = site() else { return };
    let html = page(out, "runs/index.html");
    let bar = text(
        &html[html.find("id=\"run-filters\"").unwrap()
            ..html.find("<ul class=\"run-list\"").unwrap()],
    );
    assert!(bar.contains("gpt-oss 20B MXFP4 MoE 12 runs"), "{bar}");
    assert!(bar.contains("Radeon 8060S Graphics 12 runs"), "{bar}");
    assert!(!bar.contains("gpt-oss ?B"), "{bar}");
    assert!(!bar.contains("AMD Radeon"), "{bar}");
    // Each run's filter value is one the bar offers.
    let data: serde_json::Value = serde_json::from_str(&page(out, "runs/filters.json")).unwrap();
    for r in data["runs"].as_array().unwrap() {
        if let Some(m) = r[5].as_str() {
            assert!(m != "gpt-oss ?B MXFP4 MoE", "{}", r[0]);
        }
        if let Some(h) = r[6].as_str() {
            assert!(h != "AMD Radeon 8060S Graphics", "{}", r[0]);
        }
    }
}

#[test]
fn the_8577_page_says_each_change_once_in_one_rounding_with_the_models_own_spelling() {
    let Some((_, out)) = site() else { return };
    let t = text(&page(out, "engines/llama-cpp/8577/index.html"));
    assert!(t.contains("1 within noise (tg128 −2.5%)"), "{t}");
    assert!(!t.contains("−3%"), "{t}");
    // One row per workload in the one table of changes.
    assert_eq!(
        t.matches("gpt-oss 20B MXFP4 MoE · tg128 · on Radeon 8060S Graphics, Vulkan")
            .count(),
        1,
        "{t}"
    );
    assert!(t.contains("78.94 tok/s (±0.01) −2.5%, within noise"), "{t}");
    assert!(!t.contains("gpt-oss 20b mxfp4 moe"), "{t}");
}
