//! Real pastes, read, linted and imported: every console report of
//! `<shared>/pasted/` (copied from public issues, pull requests, READMEs
//! and the tools' documentation) with the figures its INDEX.md lists. Each
//! is read by `results::read`, the reader `findings lint` and `findings
//! import` use; `findings lint` reads it; `findings import` makes a run of
//! it that checks and builds, with the figures in the published table. The
//! pastes are other people's text and are never copied into the
//! repository: the folder comes from `FINDINGS_SHARED` (`.ci/run` sets it
//! to `../shared`). Unset, the test says so and passes.
//!
//! Run it with `FINDINGS_SHARED=../shared cargo test --test pasted_shared`.
#![allow(missing_docs)]

mod common;
use common::Site;
use findings::results::{self, vocabulary::ResultCol as R, Cell, ResultFile};
use std::path::{Path, PathBuf};

fn shared() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("FINDINGS_SHARED") else {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "pasted_shared: FINDINGS_SHARED is not set, so the shared pastes are not read (set it to the shared folder, e.g. ../shared)"
        );
        return None;
    };
    let dir = PathBuf::from(dir).join("pasted");
    assert!(
        dir.join("INDEX.md").is_file(),
        "FINDINGS_SHARED has no pasted/INDEX.md ({})",
        dir.display()
    );
    Some(dir)
}

/// Each paste INDEX.md lists, with the figures it states (as written).
fn index(dir: &Path) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(dir.join("INDEX.md")).unwrap();
    text.lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let file = l[3..].split('`').next().unwrap().to_string();
            let last = l
                .trim_end_matches('|')
                .trim_end()
                .rsplit('|')
                .next()
                .unwrap();
            let figures = last
                .trim()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .split(',')
                .map(|f| f.trim().to_string())
                .filter(|f| !f.is_empty())
                .collect();
            (file, figures)
        })
        .collect()
}

fn read(path: &Path) -> ResultFile {
    let name = path.file_name().unwrap().to_string_lossy();
    results::read(&name, &std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether `figure` (as INDEX.md writes it) is a figure of the file: a
/// throughput, a llama-bench rate, or `vllm bench latency`'s average in
/// seconds (held in ms, from the printed digits).
fn states(f: &ResultFile, figure: &str) -> bool {
    let x: f64 = figure.parse().unwrap();
    let ms: f64 = format!("{figure}e3").parse().unwrap();
    f.results.rows.iter().any(|r| {
        [R::RequestThroughput, R::OutputThroughput, R::TokensPerS]
            .iter()
            .any(|c| r.num(*c) == Some(x))
            || r.num(R::E2elMsMean) == Some(ms)
    })
}

#[test]
fn every_shared_paste_reads_with_the_figures_its_index_lists() {
    let Some(dir) = shared() else { return };
    let listed = index(&dir);
    assert_eq!(listed.len(), 17, "{listed:?}");
    for (file, figures) in &listed {
        let path = dir.join(file);
        let f = read(&path);
        assert!(f.format.is_report(), "{file}: {:?}", f.format);
        assert!(!figures.is_empty(), "{file}");
        for fig in figures {
            assert!(
                states(&f, fig),
                "{file}: {fig} not read:\n{}",
                f.results.to_csv()
            );
        }
        // Every row names where in the paste it was found, and every
        // report is a fact.
        assert!(
            f.results.rows.iter().all(|r| r.get(R::Report).is_some()),
            "{file}"
        );
        assert_eq!(f.facts_named("report").count(), f.reports.len(), "{file}");
        // The kept copy reads the same.
        let name = path.file_name().unwrap().to_string_lossy();
        let kept = results::scrub::scrub(&name, &std::fs::read(&path).unwrap(), false).unwrap();
        assert_eq!(read_bytes(&name, &kept.bytes).results, f.results, "{file}");
    }
    // What the INDEX does not list, read from the pastes themselves.
    let tt = read(&dir.join("vllm_serve/01_tt-inference-server-pr2119.txt"));
    let row = &tt.results.rows[0];
    assert_eq!(row.num(R::Failed), Some(1.0));
    assert_eq!(row.num(R::MaxConcurrency), Some(64.0));
    assert_eq!(row.num(R::PeakConcurrentRequests), Some(778.0));
    let before_after = read(&dir.join("vllm_throughput/01_vllm-pr8914.txt"));
    assert_eq!(before_after.reports.len(), 2);
    let trt = read(&dir.join("trtllm_bench/01_TensorRT-LLM-perf-benchmarking-v0.17-engine.txt"));
    assert_eq!(
        trt.results.rows[0].get(R::Version),
        Some(&Cell::Text("0.17.0".into()))
    );
    let glm = read(&dir.join("sglang_serve/02_sgl-cookbook-GLM-5.txt"));
    assert_eq!(glm.results.rows[0].num(R::AcceptLength), Some(3.48));
    assert_eq!(glm.results.rows[0].num(R::MeanConcurrency), Some(1.0));
    let depth = read(&dir.join("llama_bench/07_llama.cpp-llama-bench-README-depth.txt"));
    assert_eq!(
        depth
            .results
            .rows
            .iter()
            .map(|r| r.num(R::NDepth))
            .collect::<Vec<_>>(),
        [None, None, Some(512.0), Some(512.0)]
    );
}

fn read_bytes(name: &str, bytes: &[u8]) -> ResultFile {
    results::read(name, bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The engine and version an import gives a paste that states none (the
/// site's engines for the tools' own).
fn setup(file: &str) -> (&'static str, &'static str) {
    match file.split('/').next().unwrap() {
        "sglang_serve" => ("sglang", "0.5.20"),
        "trtllm_bench" => ("tensorrt-llm", "0.17.0"),
        "llama_bench" => ("llama-cpp", "3573"),
        _ => ("vllm", "0.30"),
    }
}

#[test]
fn every_shared_paste_is_linted_and_imported_with_its_figures() {
    let Some(dir) = shared() else { return };
    let site = Site::copy_of("minimal");
    // The engines the pastes measured.
    site.edit(
        "site.yaml",
        "engines:\n",
        "engines:\n  - id: tensorrt-llm\n    name: TensorRT-LLM\n    color: \"#76b900\"\n  - id: llama-cpp\n    name: llama.cpp\n    color: \"#7f7f7f\"\n",
    );
    let mut imported = Vec::new();
    for (i, (file, figures)) in index(&dir).iter().enumerate() {
        let path = dir.join(file);
        let (engine, version) = setup(file);
        // `findings lint` reads it (with the bundled findings' checks).
        let lint = common::run_in(
            &common::bundled(),
            &[
                "lint",
                path.to_str().unwrap(),
                "--engine",
                engine,
                "--version",
                version,
            ],
        );
        assert_ne!(lint.code, 2, "{file}: {}{}", lint.stdout, lint.stderr);
        let id = format!("paste-{i:02}");
        let r = site.run(&[
            "import",
            &id,
            path.to_str().unwrap(),
            "--engine",
            engine,
            "--version",
            version,
            "--date",
            "2026-01-01",
        ]);
        assert_eq!(r.code, 0, "{file}: {}", r.stderr);
        imported.push((id, file.clone(), figures.clone()));
    }
    let c = site.run(&["check"]);
    assert_eq!(c.code, 0, "{}", c.stderr);
    let out = site.root().join("out");
    let b = site.run(&["build", "--output", out.to_str().unwrap()]);
    assert_eq!(b.code, 0, "{}", b.stderr);
    for (id, file, figures) in imported {
        let table = std::fs::read_to_string(out.join("runs").join(&id).join("results.csv"))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        for fig in figures {
            let x: f64 = fig.parse().unwrap();
            let ms: f64 = format!("{fig}e3").parse().unwrap();
            let found = table.lines().skip(1).any(|l| {
                l.split(',')
                    .any(|cell| cell.parse::<f64>().is_ok_and(|c| c == x || c == ms))
            });
            assert!(found, "{file}: {fig} not in the published table:\n{table}");
        }
    }
}

/// `findings lint ARGS` in the repository (the bundled findings, "the
/// records in ."), with `stdin` on standard input.
fn lint_with_stdin(args: &[&str], stdin: &[u8]) -> common::Output {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_findings"))
        .arg("lint")
        .args(args)
        .current_dir(common::bundled())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    common::Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn every_shared_paste_is_linted_from_standard_input_as_from_its_file() {
    let Some(dir) = shared() else { return };
    for (file, _) in index(&dir) {
        let path = dir.join(&file);
        let (engine, version) = setup(&file);
        let args = ["--engine", engine, "--version", version];
        let piped = lint_with_stdin(
            &[&["-"][..], &args].concat(),
            &std::fs::read(&path).unwrap(),
        );
        let named = common::run_from(
            &common::bundled(),
            &[&["lint", path.to_str().unwrap()][..], &args].concat(),
        );
        assert_ne!(piped.code, 2, "{file}: {}", piped.stderr);
        assert_eq!(piped.code, named.code, "{file}");
        // The same report, named by where it came from.
        let name = path.file_name().unwrap().to_string_lossy();
        assert_eq!(
            piped.stdout,
            named
                .stdout
                .replace(&path.display().to_string(), "-")
                .replace(name.as_ref(), "standard input"),
            "{file}"
        );
    }
}

/// An issue as `gh issue view 7 --json title,body,comments,url` prints it.
fn gh_issue(body: &str, comments: &[String]) -> String {
    let url = "https://github.com/someone/bench/issues/7";
    serde_json::json!({
        "title": "Numbers from several engines",
        "url": url,
        "body": body,
        "comments": comments.iter().enumerate().map(|(i, c)| serde_json::json!({
            "author": {"login": format!("user{i}")},
            "body": c,
            "url": format!("{url}#issuecomment-{}", 900 + i),
        })).collect::<Vec<_>>(),
    })
    .to_string()
}

#[test]
fn an_issue_built_of_shared_pastes_is_answered_in_one_comment() {
    let Some(dir) = shared() else { return };
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let comments = vec![
        "Which version is this?".to_string(),
        read("sglang_serve/02_sgl-cookbook-GLM-5.txt"),
        read("vllm_throughput/01_vllm-pr8914.txt"),
        read("trtllm_bench/05_TensorRT-LLM-perf-overview-streaming-breakdowns.txt"),
        read("llama_bench/07_llama.cpp-llama-bench-README-depth.txt"),
        read("genai_perf/01_perf_analyzer-genai-perf-README-gpt2-trtllm.txt"),
    ];
    let tmp = tempfile::tempdir().unwrap();
    let payload = tmp.path().join("issue.json");
    std::fs::write(
        &payload,
        gh_issue(
            &read("vllm_serve/01_tt-inference-server-pr2119.txt"),
            &comments,
        ),
    )
    .unwrap();
    let r = common::run_from(
        &common::bundled(),
        &[
            "lint",
            "--from-issue",
            payload.to_str().unwrap(),
            "--format",
            "github-comment",
        ],
    );
    assert_ne!(r.code, 2, "{}", r.stderr);
    let c = &r.stdout;
    // Every report, by where it was found: the two one-liners of comment 3
    // are its first and second reports.
    for name in [
        "[the issue body](",
        "[comment 2](",
        "[comment 3, first report](",
        "[comment 3, second report](",
        "[comment 4](",
        "[comment 5](",
        "[comment 6](",
    ] {
        assert!(c.contains(name), "{name}:\n{c}");
    }
    assert!(!c.contains("[comment 1"), "{c}");
    assert!(
        c.contains("read 7 benchmark reports in the issue body and its 6 comments"),
        "{c}"
    );
    // The lost request of the body's report, with F15.
    assert!(c.contains("- **`no-lost-requests`** in [the issue body](https://github.com/someone/bench/issues/7): 1 of 1,000 requests failed"), "{c}");
    insta::assert_snapshot!("shared_issue_comment", c);
}
