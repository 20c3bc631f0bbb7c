//! Workload identity on real files (issue 39): which measurements of the
//! shared result files, pastes and recorded runs are one workload, which
//! are not, and why, in the words a reader gets (`Workload::about` on a
//! workload's page, `Workload::line` in `compare`), and the series the
//! site follows across versions of them.
//!
//! The files are imported into a new site with the real command, as a
//! user would, and read back through the library (`findings::load`, then
//! `findings::compare::workload_of`, the one place that decides); the
//! series through `findings trends`. The shared files are other
//! projects' data and are never copied into the repository: the folder
//! comes from `FINDINGS_SHARED` (`.ci/run` sets it to `../shared`).
//! Unset, each test that needs it says so and passes; set to a folder
//! without them, it fails. The three vLLM result files of one workload on
//! 0.8.1, 0.8.2 and 0.8.3 that the issue names are not among the shared
//! files: that test makes its three files from the repository's own
//! `vllm bench serve` fixture.
//!
//! Run it with `FINDINGS_SHARED=../shared cargo test --test trends_identity`.
#![allow(missing_docs)]

mod common;
use common::{run_in, Output};
use findings::compare::{workload_of, Workload};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn shared() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("FINDINGS_SHARED") else {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "trends_identity: FINDINGS_SHARED is not set, so the shared files are not read (set it to the shared folder, e.g. ../shared)"
        );
        return None;
    };
    let dir = PathBuf::from(dir);
    assert!(
        dir.join("results/INDEX.md").is_file()
            && dir.join("pasted/INDEX.md").is_file()
            && dir.join("recorded-runs/INDEX.md").is_file()
            && dir.join("trendsets/INDEX.md").is_file(),
        "FINDINGS_SHARED={} lacks results/, pasted/, recorded-runs/ or trendsets/ with their INDEX.md",
        dir.display()
    );
    Some(dir)
}

/// A new site of vLLM, SGLang and llama.cpp.
fn new_site() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let r = common::run_from(
        dir.path(),
        &[
            "init",
            root.to_str().unwrap(),
            "--engine",
            "vllm",
            "--engine",
            "sglang",
            "--engine",
            "llama-cpp",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    (dir, root)
}

fn import(root: &Path, id: &str, input: &Path, more: &[&str]) {
    let mut args = vec!["import", id, input.to_str().unwrap()];
    args.extend(more);
    let r = run_in(root, &args);
    assert_eq!(r.code, 0, "{}: {}", input.display(), r.stderr);
}

/// The workload of every result row of each run of the site, by run id,
/// as the site reads them.
fn workloads(root: &Path) -> Vec<(String, Vec<Workload>)> {
    let loaded = findings::load::load(root);
    assert!(
        !loaded.diagnostics.has_errors(),
        "{:?}",
        loaded.diagnostics.sorted()
    );
    loaded
        .runs
        .iter()
        .map(|run| {
            let hw = findings::compare::hardware_of(run);
            let ws = run
                .results
                .iter()
                .flat_map(|s| s.rows.iter())
                .map(|row| workload_of(row, hw))
                .collect();
            (run.id.clone(), ws)
        })
        .collect()
}

fn of<'w>(all: &'w [(String, Vec<Workload>)], run: &str) -> &'w [Workload] {
    &all.iter().find(|(id, _)| id == run).unwrap().1
}

/// The first workload of `run` whose tool's test is `test`.
fn test<'w>(all: &'w [(String, Vec<Workload>)], run: &str, t: &str) -> &'w Workload {
    of(all, run)
        .iter()
        .find(|w| w.test.as_deref() == Some(t))
        .unwrap_or_else(|| panic!("{run} has no {t}"))
}

/// What a workload's page says of part `what` (its value).
fn part(w: &Workload, what: &str) -> String {
    w.about()
        .into_iter()
        .find(|(p, _, _)| p == what)
        .map(|(_, v, _)| v)
        .unwrap_or_else(|| panic!("no {what} in {:?}", w.about()))
}

fn trendset(shared: &Path, build: &str) -> PathBuf {
    let dir = shared.join("trendsets/llamacpp-strixhalo-gpt-oss-20b-vulkan");
    std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("b{build}-"))
        })
        .unwrap()
}

/// llama-bench: the tool's own tests and settings tell workloads apart;
/// the model's size class a build did not know, `ngl` typed as 999 or 99,
/// a table without the `mmap` column and the vendor's name in the device
/// string do not.
#[test]
fn llama_bench_reports_are_one_workload_where_test_settings_model_and_place_agree() {
    let Some(shared) = shared() else { return };
    let (_dir, root) = new_site();
    for b in ["6119", "7938", "8577", "9187"] {
        import(
            &root,
            &format!("b{b}"),
            &trendset(&shared, b),
            &["--engine", "llama-cpp", "--date", "2026-01-01"],
        );
    }
    let pasted = shared.join("pasted/llama_bench");
    import(
        &root,
        "depth",
        &pasted.join("07_llama.cpp-llama-bench-README-depth.txt"),
        &[
            "--engine",
            "llama-cpp",
            "--version",
            "b5000",
            "--date",
            "2026-01-01",
        ],
    );
    import(
        &root,
        "threads",
        &pasted.join("01_llama.cpp-pr8672-threadpool-cpu.txt"),
        &["--engine", "llama-cpp", "--date", "2026-01-01"],
    );
    let all = workloads(&root);

    // One workload: build 6119's `gpt-oss ?B MXFP4 MoE` at ngl 999 and
    // 8577's `gpt-oss 20B MXFP4 MoE` at ngl 99, both of 20.91 B.
    let (old, new) = (test(&all, "b6119", "pp512"), test(&all, "b8577", "pp512"));
    assert_eq!(old.model.as_deref(), Some("gpt-oss ?B MXFP4 MoE"));
    assert_eq!(new.model.as_deref(), Some("gpt-oss 20B MXFP4 MoE"));
    assert!(old.matches(new, false), "{old:?}\n{new:?}");
    assert_eq!(
        part(old, "Settings"),
        "fa 1, mmap 0, ngl 99 or more (every layer)"
    );
    assert_eq!(part(new, "Settings"), part(old, "Settings"));
    // 7938's table has no mmap column: it says nothing of it.
    let no_mmap = test(&all, "b7938", "tg128");
    assert_eq!(
        part(no_mmap, "Settings"),
        "fa 1, ngl 99 or more (every layer)"
    );
    assert!(no_mmap.matches(test(&all, "b8577", "tg128"), false));
    // 9187's device string gains "AMD": the same place.
    let amd = test(&all, "b9187", "tg128");
    assert_eq!(amd.hardware.as_deref(), Some("AMD Radeon 8060S Graphics"));
    assert!(amd.same_place(no_mmap));
    assert_eq!(amd.place(), no_mmap.place());
    assert_eq!(
        part(amd, "Where it ran"),
        "AMD Radeon 8060S Graphics, Vulkan"
    );

    // Not one workload: pp512 and tg128 of one report, by the tool's test.
    let tg = test(&all, "b8577", "tg128");
    assert!(!new.matches(tg, false));
    assert_eq!(
        (part(new, "Test"), part(tg, "Test")),
        ("pp512".to_string(), "tg128".to_string())
    );
    assert_eq!(
        new.line(),
        "gpt-oss 20B MXFP4 MoE · pp512 · on Radeon 8060S Graphics, Vulkan"
    );
    assert_eq!(
        tg.line(),
        "gpt-oss 20B MXFP4 MoE · tg128 · on Radeon 8060S Graphics, Vulkan"
    );
    // Nor pp512 at an empty context and at a depth of 512 tokens.
    let depth = of(&all, "depth");
    let tests: Vec<&str> = depth.iter().filter_map(|w| w.test.as_deref()).collect();
    assert_eq!(tests, ["pp512", "tg128", "pp512 @ d512", "tg128 @ d512"]);
    assert!(!depth[0].matches(&depth[2], false));
    assert_eq!(
        depth[2].line(),
        "qwen2 7B Q4_K - Medium · pp512 @ d512 · on CUDA"
    );
    // Nor another model on other hardware and backend.
    assert!(!depth[0].same_measure(new) && !depth[0].same_place(new));
    assert_eq!(part(&depth[0], "Where it ran"), "CUDA");
    // A sweep over threads: each thread count a workload of its own,
    // told apart by the settings its page shows.
    let threads: Vec<&Workload> = of(&all, "threads")
        .iter()
        .filter(|w| w.test.as_deref() == Some("pp512"))
        .collect();
    assert_eq!(threads.len(), 3);
    assert_eq!(threads[0].exact, threads[1].exact, "model and test alike");
    assert!(!threads[0].matches(threads[1], false));
    let shown: Vec<String> = threads.iter().map(|w| part(w, "Settings")).collect();
    assert_eq!(shown, ["threads 4", "threads 6", "threads 8"]);
}

/// Serving benchmarks: a sweep's points (request rates) are workloads of
/// their own, its repeats one; another model, lengths and concurrency is
/// another workload, and so are the same rate's runs on another dataset.
#[test]
fn a_serving_sweeps_points_are_workloads_of_their_own_and_its_repeats_one() {
    let Some(shared) = shared() else { return };
    let (_dir, root) = new_site();
    let vllm = shared.join("results/vllm");
    // A request-rate sweep (1, 10, 20, 30, 35, unlimited), run twice.
    import(
        &root,
        "sweep",
        &vllm.join("nerdalert__vllm-benchmark-graphs__results.json"),
        &["--engine", "vllm", "--version", "0.8.0"],
    );
    import(
        &root,
        "b200",
        &vllm.join("Scicom-AI-Enterprise-Organization__llm-benchmaq__benchmarks__vllm__runpod_b200__Qwen3-32B__run_1_TP8_DP1_CTX1024_C100_P100_O128.json"),
        &["--engine", "vllm", "--version", "0.11.0", "--date", "2026-04-09"],
    );
    // SGLang at rates 1, 2, 4, 8 and 16 on random prompts, then 4 and 8
    // on ShareGPT.
    import(
        &root,
        "h200",
        &shared.join("results/sglang/datacrunch-research__h200-benchmarks__sglang__outputs__llama_3_3_70b_online_output.jsonl"),
        &["--engine", "sglang", "--version", "0.4.0", "--date", "2024-12-14"],
    );
    let all = workloads(&root);
    let sweep = of(&all, "sweep");
    assert_eq!(sweep.len(), 12);
    let lines: Vec<String> = sweep.iter().map(Workload::line).collect();
    assert_eq!(
        lines[..6],
        [
            "Llama-3.1-8B-Instruct · 1,000 in, 100 out (tokens a request) · rate 1 req/s",
            "Llama-3.1-8B-Instruct · 1,000 in, 100 out (tokens a request) · rate 10 req/s",
            "Llama-3.1-8B-Instruct · 1,000 in, 100 out (tokens a request) · rate 20 req/s",
            "Llama-3.1-8B-Instruct · 1,000 in, 100 out (tokens a request) · rate 30 req/s",
            "Llama-3.1-8B-Instruct · 1,000 in, 100 out (tokens a request) · rate 35 req/s",
            "Llama-3.1-8B-Instruct · 1,000 in, 100 out (tokens a request) · rate unlimited",
        ]
    );
    // The second pass repeats the first, point for point.
    assert_eq!(lines[..6], lines[6..]);
    for i in 0..6 {
        assert!(sweep[i].matches(&sweep[i + 6], false), "{}", lines[i]);
        for j in (0..6).filter(|&j| j != i) {
            assert!(
                !sweep[i].matches(&sweep[j], false),
                "{} / {}",
                lines[i],
                lines[j]
            );
        }
    }
    assert_eq!(part(&sweep[0], "Request rate"), "1 req/s");
    assert_eq!(
        sweep[0]
            .about()
            .into_iter()
            .find(|(p, _, _)| p == "Request rate")
            .unwrap()
            .2,
        "as the client was asked, exactly: a sweep's points are workloads of their own"
    );
    // Another model, lengths and concurrency: not one workload.
    let b200 = &of(&all, "b200")[0];
    assert_eq!(
        b200.line(),
        "qwen3-32b · 1,024 in, 128 out (tokens a request) · asked for 100 at once · rate unlimited"
    );
    assert!(!b200.matches(&sweep[5], false));
    // SGLang at 4 req/s on random prompts and at 4 req/s on ShareGPT:
    // not one workload. The random lines record the lengths asked for
    // (1,024 in and out), the ShareGPT lines SGLang's unused defaults,
    // which are not read: their lengths are the measured means, less
    // than half.
    let h200 = of(&all, "h200");
    assert_eq!(h200.len(), 7);
    let (random, sharegpt) = (&h200[2], &h200[5]);
    assert_eq!(random.requested, [Some(1024.0), Some(1024.0)]);
    assert_eq!(sharegpt.requested, [None, None]);
    assert!(!random.matches(sharegpt, false));
    assert_eq!(
        random.line(),
        "asked 1,024 in, 1,024 out; measured 513 in, 507 out (tokens a request) · rate 4 req/s"
    );
    assert_eq!(
        sharegpt.line(),
        "224 in, 189 out (tokens a request) · rate 4 req/s"
    );
    let lengths = |w: &Workload| {
        w.about()
            .into_iter()
            .find(|(p, _, _)| p == "Lengths")
            .map(|(_, v, how)| (v, how))
            .unwrap()
    };
    assert_eq!(
        lengths(random),
        (
            "1,024 in, 1,024 out (tokens a request)".to_string(),
            "as the client was asked for them, exactly".to_string()
        )
    );
    assert_eq!(
        lengths(sharegpt),
        (
            "224 in, 189 out (tokens a request)".to_string(),
            "the measured means per completed request, within 10% of each other".to_string()
        )
    );
    // The ShareGPT lines at 4 and 8 req/s: one measure of lengths (224 and
    // 225 in, 189 and 192 out), two rates.
    assert!(!h200[5].matches(&h200[6], false));
    assert_eq!(h200[5].lengths[0].map(f64::round), Some(224.0));
    assert_eq!(h200[6].lengths[0].map(f64::round), Some(225.0));
}

fn trends(root: &Path, more: &[&str]) -> Output {
    let mut args = vec!["trends"];
    args.extend(more);
    run_in(root, &args)
}

/// The recorded runs of vLLM 0.29 and 0.30 (`live`, one RTX 4090, the
/// same client command) make one series of their workload, each point
/// with the flag its check raises (the server ran at most 10 and 11 of
/// the 32 requests asked at once); 0.30's run that lost 16 requests
/// (`capped`) is drawn apart, not averaged in; SGLang's run of the
/// workload is a series of its own, and so is a run on hardware named.
#[test]
fn the_recorded_vllm_runs_make_one_series_with_their_flags() {
    let Some(shared) = shared() else { return };
    let runs = shared.join("recorded-runs");
    let (dir, root) = new_site();
    import(
        &root,
        "live029",
        &runs.join("vllm-0.29/live"),
        &["--engine", "vllm", "--version", "0.29.0"],
    );
    import(
        &root,
        "live030",
        &runs.join("vllm-0.30/live"),
        &["--engine", "vllm", "--version", "0.30.0"],
    );
    let r = trends(&root, &["--engine", "vllm"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for line in [
        "1 workload of vLLM, 6 changes between versions: 5 of 6 untested, single runs: worse on 4 (TPOT p99 +14% on vLLM 0.30.0 against 0.29.0, output throughput −7.4% on vLLM 0.30.0 against 0.29.0, …), better on 1 (TTFT p99 −5.6% on vLLM 0.30.0 against 0.29.0); the same on 1.\n",
        "\nQwen3.8-27B-W4A16-AutoRound · 88 in, 1,000 out · 32 at once · rate unlimited\n  https://example.org/workloads/qwen3.8-27b-w4a16-autoround-88-in-1000-out-32-at-once-rate-unlimited/\n  6 changes between versions: 5 of 6 untested, single runs: worse on 4 (TPOT p99 +14% on vLLM 0.30.0 against 0.29.0, output throughput −7.4% on vLLM 0.30.0 against 0.29.0, …), better on 1 (TTFT p99 −5.6% on vLLM 0.30.0 against 0.29.0); the same on 1.\n  Output throughput · vLLM (hardware not recorded)\n    version  value        run                           change\n    0.29.0   341.4 tok/s  live029 [flagged: ran fewer]\n    0.30.0   316.0 tok/s  live030 [flagged: ran fewer]  −7.4% worse, untested\n",
        "\n  TPOT p99 · vLLM (hardware not recorded)\n    version  value     run                           change\n    0.29.0   31.31 ms  live029 [flagged: ran fewer]\n    0.30.0   35.72 ms  live030 [flagged: ran fewer]  +14% worse, untested\n",
    ] {
        assert!(r.stdout.contains(line), "{line}\n---\n{}", r.stdout);
    }
    let bench = |v: &str| -> Value {
        serde_json::from_str(
            &std::fs::read_to_string(runs.join(format!("vllm-{v}/live/bench.json"))).unwrap(),
        )
        .unwrap()
    };
    let v: Value = serde_json::from_str(&trends(&root, &["--format", "json"]).stdout).unwrap();
    let w = &v["workloads"].as_array().unwrap()[..];
    assert_eq!(w.len(), 1, "one workload");
    assert_eq!(w[0]["series"].as_array().unwrap().len(), 1, "one series");
    let out = &w[0]["metrics"][0];
    assert_eq!(out["metric"], "output_throughput");
    let points = out["points"].as_array().unwrap();
    for (p, (version, file)) in points.iter().zip([("0.29.0", "0.29"), ("0.30.0", "0.30")]) {
        assert_eq!(p["version"], version);
        assert_eq!(p["value"], bench(file)["output_throughput"]);
        assert_eq!(p["flags"], serde_json::json!(["concurrency-achieved"]));
    }

    // 0.30's run that lost half its requests: a point of its own, flagged
    // for both, and not the value 0.30's change is judged by.
    import(
        &root,
        "capped030",
        &runs.join("vllm-0.30/capped"),
        &["--engine", "vllm", "--version", "0.30.0"],
    );
    // SGLang's run of the workload, and 0.30's on hardware named.
    import(
        &root,
        "sglang",
        &runs.join("sglang-0.5/live"),
        &["--engine", "sglang", "--version", "0.5.20"],
    );
    import(
        &root,
        "live030-4090",
        &runs.join("vllm-0.30/live"),
        &[
            "--engine",
            "vllm",
            "--version",
            "0.30.0",
            "--hardware",
            "NVIDIA GeForce RTX 4090",
        ],
    );
    let r = trends(&root, &["--workload", "qwen3.8"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("\n  Output throughput · vLLM (hardware not recorded)\n    version  value        run                                            change\n    0.29.0   341.4 tok/s  live029 [flagged: ran fewer]\n    0.30.0   316.0 tok/s  live030 [flagged: ran fewer]                   −7.4% worse, untested\n             309.8 tok/s  capped030 [flagged: ran fewer, lost requests]\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("\n  Output throughput · SGLang (hardware not recorded)\n"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("\n  Output throughput · vLLM on NVIDIA GeForce RTX 4090\n    version  value      run                                change\n    0.30.0   316 tok/s  live030-4090 [flagged: ran fewer]\n"), "{}", r.stdout);
    let v: Value = serde_json::from_str(&trends(&root, &["--format", "json"]).stdout).unwrap();
    let w = &v["workloads"][0];
    let series: Vec<&str> = w["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        series,
        [
            "SGLang (hardware not recorded)",
            "vLLM (hardware not recorded)",
            "vLLM on NVIDIA GeForce RTX 4090"
        ]
    );
    let out = &w["metrics"][0];
    let capped = out["points"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["run"] == "capped030")
        .unwrap();
    assert_eq!(
        capped["flags"],
        serde_json::json!(["concurrency-achieved", "no-lost-requests"])
    );
    let changes = out["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "no change across engines or places");
    let want = (bench("0.30")["output_throughput"].as_f64().unwrap()
        / bench("0.29")["output_throughput"].as_f64().unwrap()
        - 1.0)
        * 100.0;
    assert!((changes[0]["pct"].as_f64().unwrap() - want).abs() < 1e-9);

    // The workload's page draws the flagged points hollow and lists each
    // flag in its table.
    let out = dir.path().join("public");
    let b = run_in(&root, &["build", "--output", out.to_str().unwrap()]);
    assert_eq!(b.code, 0, "{}", b.stderr);
    let page = std::fs::read_to_string(out.join(
        "workloads/qwen3.8-27b-w4a16-autoround-88-in-1000-out-32-at-once-rate-unlimited/index.html",
    ))
    .unwrap();
    assert!(page.contains("lost requests"), "{page}");
    assert!(
        page.contains("class=\"plot-point plot-flagged\""),
        "hollow points"
    );
    assert!(page.contains("<tr class=\"flagged\">"), "flagged rows");
}

/// The same sweep imported at two versions, so that the site follows
/// its six workloads: only its unlimited-rate points lost requests (985
/// of 2,000 over both passes), so only they carry the flag; the others,
/// whose rows lost none, are not drawn apart for it.
/// vLLM 0.28's recording has no client's file, only the server's
/// snapshots, series and boot log: its result is read from the server's
/// counters (32 requests of 88 + 1,000 tokens, all held at once), so it
/// joins 0.29's and 0.30's series as a point of its own, flagged as they
/// are; its change to 0.29 (the client's figure) is shown as not
/// comparable, never as a change of the engine.
#[test]
fn vllm_0_28_s_recording_joins_the_series_from_the_servers_counters() {
    let Some(shared) = shared() else { return };
    let runs = shared.join("recorded-runs");
    let (_dir, root) = new_site();
    for v in ["0.28", "0.29", "0.30"] {
        import(
            &root,
            &format!("live{}", &v[2..]),
            &runs.join(format!("vllm-{v}/live")),
            &["--engine", "vllm", "--version", &format!("{v}.0")],
        );
    }
    let r = trends(&root, &["--engine", "vllm", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let w = v["workloads"].as_array().unwrap();
    assert_eq!(w.len(), 1, "one workload: {}", r.stdout);
    let out = &w[0]["metrics"][0];
    assert_eq!(out["metric"], "output_throughput");
    let points: Vec<(String, String, f64, Value)> = out["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["version"].as_str().unwrap().to_string(),
                p["run"].as_str().unwrap().to_string(),
                (p["value"].as_f64().unwrap() * 100.0).round() / 100.0,
                p["flags"].clone(),
            )
        })
        .collect();
    let flagged = serde_json::json!(["concurrency-achieved"]);
    assert_eq!(
        points,
        [
            (
                "0.28.0".to_string(),
                "live28".to_string(),
                341.44,
                flagged.clone()
            ),
            (
                "0.29.0".to_string(),
                "live29".to_string(),
                341.41,
                flagged.clone()
            ),
            ("0.30.0".to_string(), "live30".to_string(), 316.03, flagged),
        ]
    );
    let first = &out["changes"][0];
    assert_eq!(
        (&first["from"], &first["to"]),
        (&"0.28.0".into(), &"0.29.0".into())
    );
    assert_eq!(first["comparable"], false);
    assert_eq!(
        first["not_comparable"],
        "another client: the server's counters against vllm bench serve"
    );
    let second = &out["changes"][1];
    assert_eq!(second["comparable"], true);
    assert_eq!(second["direction"], "worse");
}

#[test]
fn a_sweeps_points_carry_the_flags_of_their_own_rows() {
    let Some(shared) = shared() else { return };
    let file = shared.join("results/vllm/nerdalert__vllm-benchmark-graphs__results.json");
    let (_dir, root) = new_site();
    import(
        &root,
        "a",
        &file,
        &["--engine", "vllm", "--version", "0.8.0"],
    );
    import(
        &root,
        "b",
        &file,
        &["--engine", "vllm", "--version", "0.8.1"],
    );
    let v: Value = serde_json::from_str(&trends(&root, &["--format", "json"]).stdout).unwrap();
    let flagged: Vec<(&str, bool)> = v["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            let points = w["metrics"][0]["points"].as_array().unwrap();
            assert_eq!(points.len(), 2);
            assert!(points.iter().all(|p| p["n"] == 2), "both passes, one point");
            (
                w["id"].as_str().unwrap(),
                points
                    .iter()
                    .all(|p| p["flags"] == serde_json::json!(["no-lost-requests"])),
            )
        })
        .collect();
    assert_eq!(
        flagged,
        [
            ("llama-3.1-8b-instruct-1000-in-100-out-1-req-s", false),
            ("llama-3.1-8b-instruct-1000-in-100-out-10-req-s", false),
            ("llama-3.1-8b-instruct-1000-in-100-out-20-req-s", false),
            ("llama-3.1-8b-instruct-1000-in-100-out-30-req-s", false),
            ("llama-3.1-8b-instruct-1000-in-100-out-35-req-s", false),
            ("llama-3.1-8b-instruct-1000-in-100-out-rate-unlimited", true),
        ]
    );
}

/// The vllm bench serve fixture with `changes` made to it, written as
/// `name` in `dir`.
fn serve_file(dir: &Path, name: &str, changes: &[(&str, Value)]) -> PathBuf {
    let mut v: Value = serde_json::from_str(
        &std::fs::read_to_string(common::fixture("results/vllm/serve.json")).unwrap(),
    )
    .unwrap();
    for (k, value) in changes {
        v[*k] = value.clone();
    }
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    path
}

/// Three result files of one workload on 0.8.1, 0.8.2 and 0.8.3, the
/// first of a run that lost requests (2 of 200): `compare` marks that
/// side, and the trend draws its point apart with the flag.
#[test]
fn a_side_that_lost_requests_is_marked_in_compare_and_in_the_trend() {
    let (dir, root) = new_site();
    let complete = |t: f64| -> Vec<(&'static str, Value)> {
        vec![
            ("completed", 200.into()),
            ("failed", 0.into()),
            ("total_input_tokens", 204_800.into()),
            ("total_output_tokens", 25_600.into()),
            ("output_throughput", t.into()),
        ]
    };
    let files = [
        ("0.8.1", serve_file(dir.path(), "v081.json", &[])),
        (
            "0.8.2",
            serve_file(dir.path(), "v082.json", &complete(1099.3)),
        ),
        (
            "0.8.3",
            serve_file(dir.path(), "v083.json", &complete(1111.5)),
        ),
    ];
    for (v, f) in &files {
        import(
            &root,
            &format!("v{}", v.replace('.', "")),
            f,
            &["--engine", "vllm", "--version", v],
        );
    }
    let r = run_in(
        &root,
        &["compare", "v081", "v082", "--metric", "output_throughput"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    for line in [
        "vLLM 0.8.1 lost requests (2 of 200), so its figures are of the completed ones only (flagged by no-lost-requests).\n",
        "Compared: vLLM 0.8.1 (baseline, 1 file; flagged: lost requests), vLLM 0.8.2 (1 file)\n",
        "  vLLM 0.8.1: 2 of 200 requests lost\n",
    ] {
        assert!(r.stdout.contains(line), "{line}\n---\n{}", r.stdout);
    }
    let r = trends(&root, &["--engine", "vllm"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("\n  Output throughput · vLLM (hardware not recorded)\n    version  value          run                            change\n    0.8.1    610.7 tok/s    v081 [flagged: lost requests]\n    0.8.2    1,099.3 tok/s  v082                           +80% better, untested\n    0.8.3    1,111.5 tok/s  v083                           +1.1% better, untested\n"),
        "{}",
        r.stdout
    );
    let out = dir.path().join("public");
    let b = run_in(&root, &["build", "--output", out.to_str().unwrap()]);
    assert_eq!(b.code, 0, "{}", b.stderr);
}
