//! Real files, imported and built: every result file of
//! `<shared>/results/` and every run folder of `<shared>/recorded-runs/`
//! goes through `findings import` into a copy of the minimal site, which
//! must then check and build; the published tables hold the figures the
//! file holds (as `results::read` gives them, which `tests/results_shared.rs`
//! holds to the files and their INDEX.md), and the run page and JSON give
//! the server-side facts. The files are other projects' data and are never
//! copied into the repository: the folder comes from `FINDINGS_SHARED`
//! (`.ci/run` sets it to `../shared`). Unset, the test says so and passes;
//! set to a folder that is not there, it fails.
//!
//! Run it with `FINDINGS_SHARED=../shared cargo test --test import_shared`.
#![allow(missing_docs)]

mod common;
use common::Site;
use findings::results;
use std::path::{Path, PathBuf};

fn shared() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("FINDINGS_SHARED") else {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "import_shared: FINDINGS_SHARED is not set, so the shared files are not imported (set it to the shared folder, e.g. ../shared)"
        );
        return None;
    };
    let dir = PathBuf::from(dir);
    assert!(
        dir.join("results/manifest.json").is_file() && dir.join("recorded-runs/INDEX.md").is_file(),
        "FINDINGS_SHARED={} has no results/manifest.json and recorded-runs/INDEX.md",
        dir.display()
    );
    Some(dir)
}

/// The site's engine for a tool's file, with a version for files that do
/// not record theirs (the fixture site knows vLLM and SGLang; the other
/// tools measured some serving engine, which the test names vLLM).
fn engine_of(tool: &str) -> (&'static str, &'static str) {
    match tool {
        "sglang" => ("sglang", "0.5.20"),
        _ => ("vllm", "0.30"),
    }
}

fn built(site: &Site) -> PathBuf {
    let out = site.root().join("out");
    let r = site.run(&["build", "--output", out.to_str().unwrap()]);
    assert_eq!(r.code, 0, "build failed:\n{}", r.stderr);
    out
}

/// The published CSV of `table` in run `id`, as rows of cells by column.
fn csv(out: &Path, id: &str, table: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    let path = out.join("runs").join(id).join(table);
    let mut r = csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|row| {
            header
                .iter()
                .cloned()
                .zip(row.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

#[test]
fn every_shared_result_file_imports_and_builds_with_its_figures() {
    let Some(shared) = shared() else { return };
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(shared.join("results/manifest.json")).unwrap(),
    )
    .unwrap();
    let site = Site::copy_of("minimal");
    let mut imported = Vec::new();
    for (i, entry) in manifest.as_array().unwrap().iter().enumerate() {
        let file = shared.join("results").join(entry["file"].as_str().unwrap());
        let (engine, version) = engine_of(entry["tool"].as_str().unwrap());
        let id = format!("shared-{i:02}");
        let mut args = vec![
            "import",
            &id,
            file.to_str().unwrap(),
            "--engine",
            engine,
            "--version",
            version,
        ];
        // A file that records no day is dated by its commit, where the
        // manifest knows it.
        let day = entry["commit_date"].as_str().map(|d| d[..10].to_string());
        let day = match day {
            Some(day) => day,
            None => {
                // No day anywhere: the import says so, and takes one given.
                let r = site.run(&args);
                assert_eq!(r.code, 2, "{}", r.stderr);
                assert!(
                    r.stderr.contains(
                        "error: no file records the day it ran; pass --date YYYY-MM-DD\n"
                    ),
                    "{}",
                    r.stderr
                );
                "2026-01-01".to_string()
            }
        };
        args.extend(["--date", &day]);
        let r = site.run(&args);
        assert_eq!(r.code, 0, "{}: {}", file.display(), r.stderr);
        imported.push((id, file, engine, version));
    }
    let c = site.run(&["check"]);
    assert_eq!(c.code, 0, "check after importing:\n{}", c.stderr);
    let out = built(&site);
    for (id, file, engine, version) in &imported {
        let name = file.file_name().unwrap().to_string_lossy();
        let read = results::read(&format!("raw/{name}"), &std::fs::read(file).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        // Every figure of every result, as the file gives it, is in the
        // published table, row for row.
        let rows = csv(&out, id, "results.csv");
        assert_eq!(rows.len(), read.results.len(), "{}", file.display());
        for (row, want) in rows.iter().zip(&read.results.rows) {
            for (col, cell) in want.cells() {
                let got = row.get(col.name).map(String::as_str).unwrap_or("");
                let mut want = cell.map(results::Cell::csv).unwrap_or_default();
                // A file that names no engine or version takes its setup's,
                // the ones given to the import.
                if want.is_empty() && col.name == "engine" {
                    want = engine.to_string();
                }
                if want.is_empty() && col.name == "version" {
                    want = version.to_string();
                }
                assert_eq!(got, want, "{} {}: {}", file.display(), id, col.name);
            }
        }
        if !read.requests.is_empty() {
            assert_eq!(
                csv(&out, id, "requests.csv").len(),
                read.requests.len(),
                "{}",
                file.display()
            );
        }
        // The kept copy is published with its hash, and holds no credential.
        let kept = std::fs::read(out.join("runs").join(id).join("raw").join(&*name)).unwrap();
        assert!(
            results::scrub::holds_credential(&kept).is_none(),
            "{}",
            file.display()
        );
        let page = std::fs::read_to_string(out.join("runs").join(id).join("index.html")).unwrap();
        assert!(
            page.contains(&findings::util::sha256_hex(&kept)),
            "{}",
            file.display()
        );
    }
}

#[test]
fn every_recorded_run_folder_imports_and_builds_with_its_facts() {
    let Some(shared) = shared() else { return };
    let runs = shared.join("recorded-runs");
    let site = Site::copy_of("minimal");
    let mut folders = Vec::new();
    for engine_dir in std::fs::read_dir(&runs).unwrap().flatten() {
        if !engine_dir.path().is_dir() {
            continue;
        }
        for run in std::fs::read_dir(engine_dir.path()).unwrap().flatten() {
            let p = run.path();
            // A run folder holds a time series or snapshots beside its
            // client's file (the others hold single checks' inputs).
            if p.join("before.snapshot.json").is_file() {
                folders.push(p);
            }
        }
    }
    folders.sort();
    assert!(folders.len() >= 16, "{} run folders", folders.len());
    let mut imported = Vec::new();
    for (i, folder) in folders.iter().enumerate() {
        let id = format!("recorded-{i:02}");
        // TensorRT-LLM is not an engine of the fixture site: its folders
        // are imported as vLLM's, which their facts do not depend on.
        let r = site.run(&[
            "import",
            &id,
            folder.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ]);
        if r.code != 0 && r.stderr.contains("which site.yaml") {
            continue;
        }
        assert_eq!(r.code, 0, "{}: {}", folder.display(), r.stderr);
        imported.push((id, folder));
    }
    let c = site.run(&["check"]);
    assert_eq!(c.code, 0, "check after importing:\n{}", c.stderr);
    let out = built(&site);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("findings.json")).unwrap()).unwrap();
    for (id, folder) in &imported {
        let name = folder.file_name().unwrap().to_string_lossy();
        let files: Vec<(String, Vec<u8>)> = {
            let mut v: Vec<_> = std::fs::read_dir(folder)
                .unwrap()
                .flatten()
                .filter(|e| e.path().is_file())
                .map(|e| {
                    (
                        format!("raw/{name}/{}", e.file_name().to_string_lossy()),
                        std::fs::read(e.path()).unwrap(),
                    )
                })
                .collect();
            v.sort();
            v
        };
        let want = results::read_folder(&files).unwrap();
        let run = json["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id.as_str())
            .unwrap();
        let facts = run["results"][0]["facts"].as_array().unwrap();
        for name in [
            "max_running",
            "preemptions",
            "kv_cache_tokens",
            "server_output_throughput",
        ] {
            let want = want
                .fact(name)
                .and_then(|f| f.value.clone())
                .map(|c| c.csv());
            let got = facts
                .iter()
                .find(|f| f["name"] == name)
                .and_then(|f| f["value"].as_str().map(String::from));
            assert_eq!(got, want, "{}: {name}", folder.display());
        }
        if want.fact("max_running").is_some_and(|f| f.value.is_some()) {
            assert_eq!(
                csv(&out, id, "series.csv").len(),
                want.series.len(),
                "{}",
                folder.display()
            );
            let page =
                std::fs::read_to_string(out.join("runs").join(id).join("index.html")).unwrap();
            assert!(
                // "... and kept waiting", with ", and its preemptions"
                // where the server counted any.
                page.contains("Requests the server ran"),
                "{}",
                folder.display()
            );
        }
    }
}

/// `findings lint` on the recorded runs, with the bundled findings: the
/// vLLM 0.28 run asked for 32 requests at once, the server never ran more
/// than 10 and preempted 21; the folder of all recorded runs is linted
/// run folder by run folder.
#[test]
fn lint_reads_the_recorded_runs() {
    let Some(shared) = shared() else { return };
    let runs = shared.join("recorded-runs");
    let bundled = common::bundled();
    let xray = runs.join("vllm-0.28/xray");
    let r = common::run_in(&bundled, &["lint", xray.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    // The flag cites no finding: the ones that name the check are SGLang's
    // (F5) and TensorRT-LLM's (F9), and this run is vLLM's.
    assert!(
        r.stdout.contains(&format!(
            "! concurrency-achieved  {}:1\n    xray: asked for 32 requests at once; the server never ran more than 10, so figures said to be at that concurrency are of fewer requests at once\n\n",
            xray.join("run.series.jsonl").display()
        )),
        "{}",
        r.stdout
    );
    for other in ["F5 ", "F9 ", "F10", "SGLang", "TensorRT-LLM"] {
        assert!(!r.stdout.contains(other), "{other}:\n{}", r.stdout);
    }
    assert!(
        r.stdout.contains("✓ passed preemptions-read (F8): preemptions recorded (xray: 21 during the run); the latency figures include the requests preempted and computed again\n"),
        "{}",
        r.stdout
    );
    // What the files show comes first: F8's problem, on a version its
    // record lists; then what they show absent, and cannot tell.
    assert!(
        r.stdout.contains("\n= shows F8 (preemptions-unlogged) on vLLM 0.28.0, as F8 lists\n    xray: 21 preemptions counted by `vllm:num_preemptions_total`; no line of the log mentions one\n    F8   Preempted requests left no line in the log\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("\n? cannot tell F6 (pool-size-jump) on vLLM 0.28.0: xray: this start printed a KV pool of 26,093 tokens, and the run has no other start of vLLM 0.28.0 with the same model and flags to hold it against\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.ends_with(
            "\nfindings lint: 1 check flags these files: concurrency-achieved; they show F8 (preemptions-unlogged)\n"
        ),
        "{}",
        r.stdout
    );
    // On a version F8 does not list, the lint says what importing the run
    // would make of it.
    let live = runs.join("vllm-0.30/live");
    let r = common::run_in(&bundled, &["lint", live.to_str().unwrap()]);
    assert!(
        r.stdout.contains("\n= shows F8 (preemptions-unlogged) on vLLM 0.30.0, a version F8 does not list: importing this run makes it affected\n    live: 22 preemptions counted by `vllm:num_preemptions_total`; no line of the log mentions one\n"),
        "{}",
        r.stdout
    );

    let all = common::run_in(&bundled, &["lint", runs.to_str().unwrap()]);
    assert_eq!(all.code, 1, "{}{}", all.stdout, all.stderr);
    assert!(
        all.stdout.ends_with("\nfindings lint: 9 of 20 runs flagged: concurrency-achieved (9 runs), no-lost-requests (1 run); the runs show F5 (running-limit-lowered) in 1 run, F8 (preemptions-unlogged) in 6 runs, F10 (pauses-uncounted) in 1 run, F11 (counter-moves-on-completion) in 8 runs\n"),
        "{}",
        all.stdout
    );
    // Each run folder under its own heading; the start-up logs beside them
    // are said to be left out.
    for folder in [
        "sglang-0.5/capped",
        "trtllm-1.3/pauses",
        "vllm-0.30/qwen3-8b-start2",
    ] {
        assert!(
            all.stdout
                .contains(&format!("\n{}\n", runs.join(folder).display())),
            "{folder}: {}",
            all.stdout
        );
    }
    assert!(
        all.stdout
            .contains("\n19 files outside the run folders not linted (name a file to lint it)\n"),
        "{}",
        all.stdout
    );
    let json = common::run_in(
        &bundled,
        &["lint", runs.to_str().unwrap(), "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["runs"].as_array().unwrap().len(), 20);
    assert_eq!(v["flagged"], 10);
}

/// `findings compare` on the recorded runs of one workload: vLLM 0.28's
/// xray run against 0.29's, each measured once.
#[test]
fn compare_sets_the_recorded_vllm_runs_side_by_side() {
    let Some(shared) = shared() else { return };
    let runs = shared.join("recorded-runs");
    let (a, b) = (runs.join("vllm-0.28/xray"), runs.join("vllm-0.29/live"));
    let r = common::run_in(
        &common::bundled(),
        &[
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--metric",
            "output_throughput",
            "--metric",
            "ttft_ms_p99",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "Qwen3.8-27B-W4A16-AutoRound · 88 in, 1,000 out (tokens a request) · asked for 32 at once · rate unlimited\n"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(
            "  Output throughput  336.3 tok/s, ran ≤10 of 32  341.4 tok/s, ran ≤10 of 32  +1.5% better, untested\n"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(
            "  TTFT p99           73.45 s, ran ≤10 of 32      72.66 s, ran ≤10 of 32      −1.1% better, untested\n"
        ),
        "{}",
        r.stdout
    );
}

/// Issue 34: three sides of one workload, vLLM 0.28 (xray) and 0.29
/// against SGLang 0.5.20, each with what its run folder says of the
/// server: none ran the 32 requests asked at once (10, 10 and 5), which
/// the comparison says beside each side, on its values and under its
/// verdict, citing the bundled finding of the check about SGLang (F5),
/// not TensorRT-LLM's (F9); SGLang's pool explains it (5,930 tokens hold
/// five requests of 1,088, and it ran 5); vLLM's do not (26,093 tokens
/// hold 23, and they ran 10), and the comparison says so. Every change
/// says which way it goes.
#[test]
fn compare_three_recorded_runs_with_what_their_servers_ran() {
    let Some(shared) = shared() else { return };
    let runs = shared.join("recorded-runs");
    let sides = [
        runs.join("vllm-0.28/xray"),
        runs.join("vllm-0.29/live"),
        runs.join("sglang-0.5/live"),
    ];
    let mut args = vec!["compare"];
    args.extend(sides.iter().map(|p| p.to_str().unwrap()));
    args.extend(["--metric", "output_throughput", "--metric", "ttft_ms_p99"]);
    let r = common::run_in(&common::bundled(), &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for line in [
        "Qwen3.8-27B-W4A16-AutoRound · 88 in, 1,000 out (tokens a request) · asked for 32 at once · rate unlimited\n",
        "  vLLM 0.28.0 (xray): ran at most 10 requests at once of the 32 asked; 21 preemptions; KV cache 26,093 tokens\n",
        "  vLLM 0.29.0 (live): ran at most 10 requests at once of the 32 asked; 21 preemptions; KV cache 26,093 tokens\n",
        "  SGLang (live): ran at most 5 requests at once of the 32 asked; running limit 10; 0 preemptions; KV cache 5,930 tokens\n",
        "  Output throughput  336.3 tok/s, ran ≤10 of 32  341.4 tok/s, ran ≤10 of 32  223.0 tok/s, ran ≤5 of 32  +1.5% better, untested      −34% worse, untested\n",
        "  TTFT p99           73.45 s, ran ≤10 of 32      72.66 s, ran ≤10 of 32      123.34 s, ran ≤5 of 32     −1.1% better, untested      +68% worse, untested\n",
        "\nran fewer: vLLM 0.28.0 (xray), vLLM 0.29.0 (live) and SGLang (live) ran fewer requests at once than the workload asked for",
        "\n  F5   SGLang ran a hybrid model one request at a time  https://example.org/findings/f/5/\n",
        "\nAll 3 sides ran fewer requests at once than asked (flagged by concurrency-achieved).\n",
        "\nWhy fewer ran: 32 requests of 88 + 1,000 tokens ask for 34,816 tokens of KV cache; the pool held 5,930 (SGLang (live)), about 5 whole requests; the server ran at most 5: the pool explains the cap.\n",
        "\nFewer ran than asked: 32 requests of 88 + 1,000 tokens ask for 34,816 tokens of KV cache; the pools held 26,093 (vLLM 0.28.0) and 26,093 (vLLM 0.29.0), about 23 and 23 whole requests; the servers ran at most 10 and 10: the pools do not explain the cap; the servers counted 21 and 21 preemptions.\n",
    ] {
        assert!(r.stdout.contains(line), "{line}\n{}", r.stdout);
    }
    assert!(!r.stdout.contains("F9"), "{}", r.stdout);
    args.extend(["--format", "json"]);
    let json = common::run_in(&common::bundled(), &args);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let mut directions = Vec::new();
    for row in v["workloads"][0]["rows"].as_array().unwrap() {
        for ch in row["changes"].as_array().unwrap().iter().skip(1) {
            directions.push(ch["direction"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(directions, ["better", "worse", "better", "worse"]);
    assert_eq!(v["ran_fewer"]["sides"], serde_json::json!([0, 1, 2]));
    assert_eq!(v["workloads"][0]["context"][2]["ran_fewer"], 5.0);
}

/// Issue 35, on a real SGLang file: its random lines record the lengths
/// asked for (1,024 in and out), so a second run whose outputs stopped 13%
/// shorter on average is the same workload; its ShareGPT lines, which
/// record SGLang's unused defaults, match on the measured means and are
/// not matched.
#[test]
fn compare_matches_the_lengths_sglang_asked_for() {
    let Some(shared) = shared() else { return };
    let file = shared.join("results/sglang/datacrunch-research__h200-benchmarks__sglang__outputs__llama_3_3_70b_online_output.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    // The same lines, each with 13% fewer output tokens.
    let shorter: String = text
        .lines()
        .map(|l| {
            let key = "\"total_output_tokens\": ";
            let at = l.find(key).unwrap() + key.len();
            let end = at + l[at..].find([',', '}']).unwrap();
            let n: f64 = l[at..end].trim().parse().unwrap();
            format!("{}{}{}\n", &l[..at], (n * 0.87).round(), &l[end..])
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let second = dir.path().join("second.jsonl");
    std::fs::write(&second, shorter).unwrap();
    let r = common::run_in(
        &common::bundled(),
        &[
            "compare",
            file.to_str().unwrap(),
            second.to_str().unwrap(),
            "--metric",
            "output_throughput",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let lines: Vec<&str> = v["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["workload"].as_str().unwrap())
        .collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(
        lines[0],
        "asked 1,024 in, 1,024 out; measured 509 in, 534 out (tokens a request) · rate 1 req/s"
    );
    // The two ShareGPT lines of each side found no match.
    assert_eq!(v["sides"][1]["unmatched"], 2);
}
