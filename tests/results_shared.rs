//! Real files, read: every result file of `<shared>/results/` (written by
//! the tools and committed in public repositories) and every run folder of
//! `<shared>/recorded-runs/` (inferlint's recordings), with the figures
//! their files and INDEX.md give. These files are other projects' data and
//! are never copied into the repository: the test reads them where they
//! are, from the folder the environment variable `FINDINGS_SHARED` names
//! (`.ci/run` sets it to `../shared`). Unset, the test says so and passes;
//! set to a folder that is not there, it fails.
//!
//! Run it with `FINDINGS_SHARED=../shared cargo test --test results_shared`.
#![allow(missing_docs)]

use findings::results::vocabulary::{ResultCol as R, SeriesCol as S};
use findings::results::{self, Cell, Format, ResultFile, RunFolder};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn shared() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("FINDINGS_SHARED") else {
        // Written past the test harness's capture, so that the skip shows.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "results_shared: FINDINGS_SHARED is not set, so the shared files are not read (set it to the shared folder, e.g. ../shared)"
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

fn read(path: &Path) -> ResultFile {
    let bytes = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy();
    results::read(&name, &bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn num(f: &ResultFile, row: usize, col: R) -> Option<f64> {
    f.results.rows[row].num(col)
}

fn text(f: &ResultFile, row: usize, col: R) -> Option<&str> {
    f.results.rows[row].text(col)
}

/// The file's own JSON values (with Python's bare Infinity read as a
/// string), to compare the rows with.
fn raw_values(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace(": Infinity", ": \"Infinity\"");
    let mut out: Vec<Value> = serde_json::Deserializer::from_str(&text)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    if let [Value::Array(items)] = out.as_slice() {
        out = items.clone();
    }
    out
}

fn json_num(v: &Value, key: &str) -> Option<f64> {
    match v.get(key)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) if s == "inf" || s == "Infinity" => Some(f64::INFINITY),
        _ => None,
    }
}

/// The vLLM- and SGLang-shaped files: each row equals its object, key for key.
fn same_as_file(path: &Path, f: &ResultFile, pairs: &[(R, &str)]) {
    let raw = raw_values(path);
    assert_eq!(raw.len(), f.results.len(), "{}", path.display());
    for (i, v) in raw.iter().enumerate() {
        for (col, key) in pairs {
            // A result with no completed request has no latency figures
            // (the file's 0.0 is a mean over nothing).
            let latency = key.ends_with("_ms");
            let want = if latency && json_num(v, "completed") == Some(0.0) {
                None
            } else {
                json_num(v, key)
            };
            assert_eq!(num(f, i, *col), want, "{} row {i} {key}", path.display());
        }
    }
}

#[test]
fn every_shared_result_file_reads_with_the_figures_it_holds() {
    let Some(dir) = shared() else { return };
    let results_dir = dir.join("results");
    let manifest: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(results_dir.join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest.len(), 20);
    let mut seen = Vec::new();
    for entry in &manifest {
        let file = entry["file"].as_str().unwrap();
        let path = results_dir.join(file);
        let f = read(&path);
        seen.push((file.to_string(), f.format, f.results.len()));
        // The kept copy reads to the same rows, and holds no credential;
        // only AIPerf's file of wellflat held one (a dummy `test_key`).
        let bytes = std::fs::read(&path).unwrap();
        let kept = results::scrub::scrub(file, &bytes, false).unwrap();
        let again = results::read(&f.source, &kept.bytes).unwrap();
        assert_eq!(again.results, f.results, "{file}");
        assert_eq!(
            results::scrub::holds_credential(&kept.bytes),
            None,
            "{file}"
        );
        let held = results::scrub::holds_credential(&bytes).is_some();
        assert_eq!(held, file.starts_with("aiperf/wellflat"), "{file}");
        let vllm_keys = [
            (R::Completed, "completed"),
            (R::DurationS, "duration"),
            (R::OutputThroughput, "output_throughput"),
            (R::RequestRate, "request_rate"),
            (R::MaxConcurrency, "max_concurrency"),
            (R::TtftMsP50, "median_ttft_ms"),
        ];
        match f.format {
            Format::VllmServe | Format::VllmSweepSummary => {
                same_as_file(&path, &f, &vllm_keys);
                same_as_file(
                    &path,
                    &f,
                    &[
                        (R::TtftMsP99, "p99_ttft_ms"),
                        (R::ItlMsMean, "mean_itl_ms"),
                        (R::Failed, "failed"),
                    ],
                );
            }
            Format::SglangServe => same_as_file(&path, &f, &vllm_keys[..5]),
            _ => {}
        }
    }
    let count = |fmt: Format| seen.iter().filter(|s| s.1 == fmt).count();
    assert_eq!(
        [
            count(Format::VllmServe),
            count(Format::VllmSweepSummary),
            count(Format::SglangServe),
            count(Format::GenaiPerf),
            count(Format::Aiperf),
            count(Format::LlamaBench),
            count(Format::GuidellmJson),
            count(Format::GuidellmYaml),
            count(Format::TrtllmBench),
        ],
        [5, 1, 3, 2, 2, 3, 2, 1, 1],
        "{seen:#?}"
    );
    let at = |name: &str| read(&results_dir.join(name));

    // vLLM (INDEX.md's notes).
    let f = at("vllm/Scicom-AI-Enterprise-Organization__llm-benchmaq__benchmarks__vllm__runpod_b200__Qwen3-32B__run_1_TP8_DP1_CTX1024_C100_P100_O128.json");
    assert_eq!(
        (
            text(&f, 0, R::Model),
            num(&f, 0, R::MaxConcurrency),
            num(&f, 0, R::RequestRate)
        ),
        (
            Some("/workspace/qwen3-32b"),
            Some(100.0),
            Some(f64::INFINITY)
        )
    );
    assert_eq!(num(&f, 0, R::E2elMsP99), Some(2372.1655100095086));
    let f = at("vllm/er0080__vllm-benchmarking__packages__api__tests__fixtures__vllm_sweep_v0.25.1__SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8__run=0.json");
    assert_eq!(
        (
            f.tool,
            num(&f, 0, R::MaxConcurrency),
            num(&f, 0, R::Completed)
        ),
        ("vllm bench sweep serve", Some(2.0), Some(8.0))
    );
    let f = at("vllm/er0080__vllm-benchmarking__packages__api__tests__fixtures__vllm_sweep_v0.25.1__SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8__summary.json");
    assert_eq!(f.results.len(), 2);
    let f = at("vllm/er0080__vllm-benchmarking__packages__protocol__tests__fixtures__bench_serve_all_requests_failed_v0.25.1.json");
    assert_eq!(
        (
            num(&f, 0, R::Completed),
            num(&f, 0, R::Failed),
            num(&f, 0, R::TtftMsMean),
            num(&f, 0, R::MaxConcurrency)
        ),
        (Some(0.0), Some(8.0), None, None)
    );
    let f = at("vllm/moguizhizi__learning_project__benchmarks__output__qwen2_5_vl_72B__differ__openai-chat-infqps-Qwen2.5-VL-72B-Instruct-20250923-143003.json");
    assert_eq!(
        (
            f.tool,
            num(&f, 0, R::NumPrompts),
            num(&f, 0, R::Failed),
            num(&f, 0, R::E2elMsMean)
        ),
        ("vllm benchmark_serving.py", Some(1.0), None, None)
    );
    let f = at("vllm/nerdalert__vllm-benchmark-graphs__results.json");
    let rates: Vec<f64> = (0..12)
        .map(|i| num(&f, i, R::RequestRate).unwrap())
        .collect();
    let inf = f64::INFINITY;
    assert_eq!(
        rates,
        [1.0, 10.0, 20.0, 30.0, 35.0, inf, 1.0, 10.0, 20.0, 30.0, 35.0, inf]
    );

    // SGLang.
    let f = at("sglang/datacrunch-research__h200-benchmarks__sglang__outputs__deepseek_dp_mla_output.jsonl");
    assert_eq!(
        (
            num(&f, 0, R::RequestRate),
            num(&f, 0, R::Completed),
            num(&f, 0, R::TtftMsMean)
        ),
        (Some(inf), Some(10000.0), None)
    );
    let f = at("sglang/datacrunch-research__h200-benchmarks__sglang__outputs__llama_3_3_70b_online_output.jsonl");
    assert_eq!(
        (0..7)
            .map(|i| num(&f, i, R::RequestRate).unwrap())
            .collect::<Vec<_>>(),
        [1.0, 2.0, 4.0, 8.0, 16.0, 4.0, 8.0]
    );
    assert_eq!(
        (num(&f, 0, R::TtftMsP50), num(&f, 0, R::TtftMsP99)),
        (Some(85.74514742940664), None)
    );
    let f = at(
        "sglang/TonyLi15__sglang-benchmark__benchmarks__results__agg_n100_in128_out128_c8.jsonl",
    );
    assert_eq!(
        (
            text(&f, 0, R::Engine),
            text(&f, 0, R::Version),
            text(&f, 0, R::Model),
            num(&f, 0, R::MaxConcurrency)
        ),
        (
            Some("sglang"),
            Some("0.5.5.post3"),
            Some("Qwen/Qwen2.5-3B-Instruct"),
            Some(8.0)
        )
    );

    // genai-perf and AIPerf.
    let f = at("genai_perf/wellflat__k8s-dev__bench__etl__profile_export_genai_perf@e3e57ba.json");
    assert_eq!(
        (
            num(&f, 0, R::Completed),
            num(&f, 0, R::MaxConcurrency),
            num(&f, 0, R::TpotMsMean)
        ),
        (Some(66.0), Some(1.0), Some(7.503457666666667))
    );
    let f = at("genai_perf/wellflat__k8s-dev__bench__etl__profile_export_genai_perf@e17e8f5.json");
    assert_eq!(
        (num(&f, 0, R::Completed), num(&f, 0, R::TtftMsP50)),
        (Some(35.0), Some(1416.927935))
    );
    let f = at("aiperf/ai-dynamo__aiperf__examples__artifacts__run1__profile_export_aiperf.json");
    assert_eq!(
        (
            num(&f, 0, R::Completed),
            num(&f, 0, R::Failed),
            num(&f, 0, R::TtftMsMean)
        ),
        (Some(89.0), Some(11.0), Some(2343.219436988764))
    );
    let path =
        results_dir.join("aiperf/wellflat__k8s-dev__bench__aiperf__profile_export_aiperf.json");
    let f = read(&path);
    assert_eq!(
        (
            num(&f, 0, R::Completed),
            num(&f, 0, R::OutputTokens),
            num(&f, 0, R::Failed)
        ),
        (Some(100.0), Some(28348.0), None)
    );
    // Its dummy api_key, in input_config and in the command line, is a credential.
    let bytes = std::fs::read(&path).unwrap();
    assert!(results::scrub::holds_credential(&bytes).is_some());
    let s = results::scrub::scrub("profile_export_aiperf.json", &bytes, false).unwrap();
    assert_eq!(s.removed.len(), 2);
    assert_eq!(results::scrub::holds_credential(&s.bytes), None);

    // llama-bench.
    let f = at("llama_bench/HamzahTariq11__llama.cpp-and-vLLM-benchmarks__tests__fixtures__llama_bench.json");
    assert_eq!(
        (
            f.results.len(),
            text(&f, 0, R::Version),
            num(&f, 0, R::FlashAttn),
            num(&f, 0, R::TokensPerSStd)
        ),
        (2, Some("b11254"), Some(-1.0), Some(0.0))
    );
    let f = at(
        "llama_bench/lhl__strix-halo-testing__llama-cpp-fix-wmma__llama32-1b.lhl-tune-decode.jsonl",
    );
    assert_eq!(
        (
            num(&f, 0, R::NPrompt),
            num(&f, 0, R::NGen),
            num(&f, 0, R::TokensPerS)
        ),
        (Some(0.0), Some(128.0), Some(192.744119))
    );
    let f = at("llama_bench/lhl__strix-halo-testing__llm-bench__Qwen3-32B-Q8_0__raw_runs.jsonl");
    assert_eq!(
        (f.results.len(), text(&f, 0, R::Version)),
        (260, Some("b5863"))
    );
    let vulkan = f
        .results
        .rows
        .iter()
        .filter(|r| r.text(R::Backends) == Some("Vulkan"))
        .count();
    assert_eq!(vulkan, 52);

    // guidellm.
    let f = at("guidellm/jhurlocker__guidellm-pipeline__utils__guidellm-wb__results__llama-3-2-3b_20250721_003902__benchmark-results.yaml");
    assert_eq!(
        (text(&f, 0, R::Model), num(&f, 0, R::MaxConcurrency)),
        (Some("llama-3-2-3b"), Some(1.0))
    );
    let f = at("guidellm/rsevilla87__guidellm-results-parser__example_output__benchmarks.json");
    assert_eq!(
        (
            num(&f, 0, R::RequestRate),
            num(&f, 0, R::Completed),
            num(&f, 0, R::NumPrompts),
            f.requests.len()
        ),
        (Some(10.0), Some(586.0), Some(609.0), 586)
    );
    assert_eq!(num(&f, 0, R::E2elMsMean), Some(2.3300955913986363 * 1000.0));
    // Each percentile under its own name: the file's p95 and p99 differ
    // (1,007 and 1,019 ms to the first token), so a swap cannot pass.
    assert_eq!(
        (
            num(&f, 0, R::TtftMsP95),
            num(&f, 0, R::TtftMsP99),
            num(&f, 0, R::E2elMsP95),
            num(&f, 0, R::E2elMsP99)
        ),
        (
            Some(1007.4176788330078),
            Some(1019.4225311279297),
            Some(2.3453574180603027 * 1000.0),
            Some(2.3493130207061768 * 1000.0)
        )
    );
    let f = at("guidellm/vllm-project__guidellm__tests__unit__entrypoints__assets__benchmarks_stripped@a1fe883.json");
    assert_eq!(
        (f.results.len(), f.requests.len(), text(&f, 0, R::Model)),
        (1, 1, Some("example_model"))
    );

    // trtllm-bench: the p95 outlier of gen_tps is not a column; the rest is.
    let f = at("trtllm_bench/masahiro-kubota__trtllm-latency__measurements__rtx4070ti_qwen25_0p5b_official_cli__reports__in16_out40_bs1.json");
    assert_eq!(
        (
            text(&f, 0, R::Version),
            num(&f, 0, R::NumPrompts),
            num(&f, 0, R::DurationS),
            num(&f, 0, R::TtftMsP99)
        ),
        (
            Some("1.2.0"),
            Some(20.0),
            Some(3.088041949),
            Some(171.75945299999998)
        )
    );
}

/// One row of recorded-runs/INDEX.md's table of run folders.
struct Expected {
    folder: &'static str,
    engine: &'static str,
    version: Option<&'static str>,
    /// completed, failed (None: the file does not count them), output tok/s (client)
    client: Option<(f64, Option<f64>, f64)>,
    max_running: Option<f64>,
    max_waiting: Option<f64>,
    preemptions: f64,
    kv_tokens: f64,
    /// server output tokens, and tok/s over the snapshots' time
    server: (f64, f64),
}

const fn run(
    folder: &'static str,
    (engine, version): (&'static str, Option<&'static str>),
    client: Option<(f64, Option<f64>, f64)>,
    running: (Option<f64>, Option<f64>),
    preemptions: f64,
    kv_tokens: f64,
    server: (f64, f64),
) -> Expected {
    Expected {
        folder,
        engine,
        version,
        client,
        max_running: running.0,
        max_waiting: running.1,
        preemptions,
        kv_tokens,
        server,
    }
}

const RUNS: &[Expected] = &[
    run(
        "vllm-0.28/xray",
        ("vllm", Some("0.28.0")),
        Some((32.0, Some(0.0), 336.30)),
        (Some(10.0), Some(27.0)),
        21.0,
        26093.0,
        (32000.0, 314.99),
    ),
    run(
        "vllm-0.28/live",
        ("vllm", Some("0.28.0")),
        None,
        (Some(10.0), Some(26.0)),
        22.0,
        26093.0,
        (32000.0, 341.44),
    ),
    run(
        "vllm-0.29/live",
        ("vllm", Some("0.29.0")),
        Some((32.0, Some(0.0), 341.41)),
        (Some(10.0), Some(27.0)),
        21.0,
        26093.0,
        (32000.0, 317.04),
    ),
    run(
        "vllm-0.30/live",
        ("vllm", Some("0.30.0")),
        Some((32.0, Some(0.0), 316.03)),
        (Some(11.0), Some(27.0)),
        22.0,
        29127.0,
        (32000.0, 295.22),
    ),
    run(
        "vllm-0.30/capped",
        ("vllm", Some("0.30.0")),
        Some((16.0, Some(16.0), 309.78)),
        (Some(11.0), Some(11.0)),
        11.0,
        29127.0,
        (16000.0, 271.82),
    ),
    run(
        "vllm-0.30/qwen3-8b-start1",
        ("vllm", Some("0.30.0")),
        Some((32.0, Some(0.0), 1274.01)),
        (Some(32.0), Some(7.0)),
        3.0,
        32336.0,
        (32000.0, 509.71),
    ),
    run(
        "vllm-0.30/qwen3-8b-start2",
        ("vllm", Some("0.30.0")),
        Some((32.0, Some(0.0), 1378.07)),
        (Some(32.0), Some(0.0)),
        0.0,
        47888.0,
        (32000.0, 877.34),
    ),
    run(
        "sglang-0.5/live",
        ("sglang", None),
        Some((32.0, Some(0.0), 222.97)),
        (Some(5.0), Some(27.0)),
        0.0,
        5930.0,
        (32000.0, 198.42),
    ),
    run(
        "sglang-0.5/capped",
        ("sglang", None),
        Some((32.0, Some(0.0), 54.38)),
        (Some(1.0), Some(31.0)),
        0.0,
        17675.0,
        (32000.0, 53.52),
    ),
    run(
        "sglang-0.5/qwen3-8b",
        ("sglang", None),
        Some((32.0, Some(0.0), 799.14)),
        (Some(29.0), Some(3.0)),
        0.0,
        32096.0,
        (32000.0, 642.10),
    ),
    run(
        "sglang-0.5/retraction",
        ("sglang", None),
        Some((32.0, Some(0.0), 797.50)),
        (Some(30.0), Some(3.0)),
        1.0,
        32096.0,
        (32000.0, 453.32),
    ),
    run(
        "sglang-0.5/qwen3-8b-own-client",
        ("sglang", Some("0.5.20")),
        Some((32.0, None, 1342.43)),
        (Some(32.0), Some(2.0)),
        3.0,
        32096.0,
        (32032.0, 855.91),
    ),
    run(
        "trtllm-1.3/qwen3-8b",
        ("tensorrt-llm", Some("1.3.0rc29")),
        Some((32.0, Some(0.0), 1389.21)),
        (Some(32.0), Some(0.0)),
        0.0,
        37760.0,
        (32000.0, 994.85),
    ),
    run(
        "trtllm-1.3/pauses",
        ("tensorrt-llm", Some("1.3.0rc29")),
        Some((32.0, Some(0.0), 1005.53)),
        (Some(32.0), Some(0.0)),
        13.0,
        20960.0,
        (32000.0, 748.77),
    ),
    run(
        "trtllm-1.3/qwen3-8b-own-client",
        ("tensorrt-llm", Some("1.3.0rc29")),
        Some((32.0, None, 1405.14)),
        (Some(32.0), Some(0.0)),
        0.0,
        37760.0,
        (33000.0, 494.19),
    ),
    run(
        "trtllm-1.3/no-iter-stats",
        ("tensorrt-llm", Some("1.3.0rc29")),
        Some((32.0, None, 1411.64)),
        (None, None),
        0.0,
        36192.0,
        (33000.0, 454.75),
    ),
];

fn folder(dir: &Path) -> RunFolder {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            files.push((
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            ));
        }
    }
    results::read_folder(&files).unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
}

fn fact(f: &RunFolder, name: &str) -> Option<f64> {
    f.fact(name)
        .and_then(|x| x.value.as_ref())
        .and_then(Cell::as_num)
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[test]
fn every_recorded_run_folder_reads_with_the_figures_of_its_index() {
    let Some(dir) = shared() else { return };
    let runs = dir.join("recorded-runs");
    for want in RUNS {
        let f = folder(&runs.join(want.folder));
        let name = want.folder;
        assert_eq!(
            f.fact("engine").and_then(|x| x.value.clone()),
            Some(Cell::Text(want.engine.into())),
            "{name}"
        );
        let version = f
            .files
            .first()
            .and_then(|b| b.results.rows[0].text(R::Version).map(str::to_string));
        match &want.client {
            Some((completed, failed, tok_s)) => {
                assert_eq!(f.files.len(), 1, "{name}");
                let b = &f.files[0];
                assert_eq!(
                    b.results.rows[0].num(R::Completed),
                    Some(*completed),
                    "{name}"
                );
                assert_eq!(b.results.rows[0].num(R::Failed), *failed, "{name}");
                assert_eq!(
                    b.results.rows[0].num(R::OutputThroughput).map(round2),
                    Some(*tok_s),
                    "{name}"
                );
                assert_eq!(
                    b.results.rows[0].num(R::MaxConcurrency),
                    Some(32.0),
                    "{name}"
                );
                assert_eq!(
                    b.results.rows[0].text(R::Engine),
                    Some(want.engine),
                    "{name}"
                );
                assert_eq!(version.as_deref(), want.version, "{name}");
            }
            // No client's file: where both snapshots count tokens and
            // requests, one result read from the server's counters, whose
            // figure is the server's own (vllm-0.28/live: 32 requests of
            // 88 + 1,000 tokens, all held at once, 341.44 tok/s).
            None => {
                for b in &f.files {
                    assert_eq!(b.tool, "the server's counters", "{name}");
                    let row = &b.results.rows[0];
                    assert_eq!(
                        row.num(R::OutputThroughput).map(round2),
                        Some(want.server.1),
                        "{name}"
                    );
                    assert_eq!(row.num(R::OutputTokens), Some(want.server.0), "{name}");
                }
                if name == "vllm-0.28/live" {
                    let row = &f.files[0].results.rows[0];
                    assert_eq!(row.num(R::Completed), Some(32.0));
                    // 3 more than the 2,816 of the other recordings'
                    // clients: the counter counts every prompt between
                    // the snapshots, and 88.1 a request is within the
                    // workload's 10% of 88.
                    assert_eq!(row.num(R::InputTokens), Some(2819.0));
                    assert_eq!(row.num(R::MaxConcurrency), Some(32.0));
                    assert_eq!(
                        row.text(R::Model),
                        Some("/models/Qwen3.8-27B-W4A16-AutoRound")
                    );
                }
            }
        }
        assert_eq!(
            (fact(&f, "max_running"), fact(&f, "max_waiting")),
            (want.max_running, want.max_waiting),
            "{name}"
        );
        assert_eq!(fact(&f, "preemptions"), Some(want.preemptions), "{name}");
        assert_eq!(fact(&f, "kv_cache_tokens"), Some(want.kv_tokens), "{name}");
        assert_eq!(
            (
                fact(&f, "server_output_tokens"),
                fact(&f, "server_output_throughput").map(round2)
            ),
            (Some(want.server.0), Some(want.server.1)),
            "{name}"
        );
        // The series' own maximum is the fact, and its preemptions count
        // from 0 at the first sample.
        let max = f
            .series
            .rows
            .iter()
            .filter_map(|r| r.num(S::Running))
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
        assert_eq!(max, want.max_running, "{name}");
        assert!(
            f.series
                .rows
                .first()
                .is_some_and(|r| r.num(S::TS) == Some(0.0)),
            "{name}"
        );
    }
    // SGLang's lowered limit, and TensorRT-LLM's two prints of its pool.
    let capped = folder(&runs.join("sglang-0.5/capped"));
    let limit = capped.fact("running_limit").unwrap();
    assert_eq!(
        (limit.value.clone(), limit.note.as_deref()),
        (
            Some(Cell::Num(1.0)),
            Some("capped by the mamba state cache")
        )
    );
    let pauses = folder(&runs.join("trtllm-1.3/pauses"));
    assert_eq!(
        pauses.fact("kv_cache_tokens").unwrap().note.as_deref(),
        Some("the last of 2 prints; before it: 17408")
    );
    assert_eq!(fact(&pauses, "kv_cache_gib"), Some(2.88));
}

#[test]
fn every_other_recorded_file_reads_or_is_named_as_not_read() {
    let Some(dir) = shared() else { return };
    let runs = dir.join("recorded-runs");
    // Boot logs of single starts (INDEX.md's list of pool sizes).
    for (log, tokens) in [
        ("vllm-0.28/boot_cudagraphs.log", Some(26093.0)),
        ("vllm-0.28/boot_eager.log", Some(31554.0)),
        ("vllm-0.28/boot_fp8_triton.log", Some(41441.0)),
        ("vllm-0.28/boot_pool_level_hi.log", Some(13575.0)),
        ("vllm-0.28/boot_pool_level_lo.log", Some(12405.0)),
        ("vllm-0.28/boot_spec_backend_override.log", Some(19988.0)),
        ("vllm-0.30/boot_fail_cccl_headers.log", Some(29127.0)),
        ("vllm-0.30/boot_fail_link_cudart.log", Some(29127.0)),
        ("vllm-0.30/boot_fail_ptx_version.log", Some(29127.0)),
        ("vllm-0.28/boot_fail_accelerator.log", None),
        ("vllm-0.28/boot_fail_cccl_headers.log", None),
        ("vllm-0.29/boot_fail_uva_wsl.log", None),
        ("sglang-0.5/boot_fail_mamba_state.log", None),
        ("sglang-0.5/boot_fail_mem_advice.log", None),
        ("trtllm-1.3/boot_fail_compressed_tensors_w4a16.log", None),
        ("sglang-0.5/qwen3-8b-start2/boot.log", Some(32096.0)),
        ("trtllm-1.3/qwen3-8b-start2/boot.log", Some(37760.0)),
    ] {
        let bytes = std::fs::read(runs.join(log)).unwrap();
        assert_eq!(
            results::detect(log, &bytes).unwrap(),
            Format::ServerLog,
            "{log}"
        );
        let f = results::read_folder(&[("boot.log".into(), bytes)]).unwrap();
        assert_eq!(fact(&f, "kv_cache_tokens"), tokens, "{log}");
    }
    // No recorded file holds a credential (SGLang's `#new-token: 6` and
    // `token usage: 0.00` are counts), so the check stage keeps them all.
    for e in walkdir::WalkDir::new(&runs) {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let bytes = std::fs::read(e.path()).unwrap();
            assert_eq!(
                results::scrub::holds_credential(&bytes),
                None,
                "{}",
                e.path().display()
            );
        }
    }
    // A start that died before the engine printed anything of its own.
    let bytes = std::fs::read(runs.join("trtllm-1.3/boot_fail_no_cuda_home.log")).unwrap();
    assert_eq!(
        results::detect("boot.log", &bytes).unwrap_err().kind,
        results::ErrorKind::UnknownFormat
    );
    // The check inputs: a counter reset between two snapshots, two series.
    let metrics = folder(&runs.join("vllm-0.28/metrics"));
    assert_eq!(fact(&metrics, "preemptions"), Some(60.0));
    assert_eq!(
        metrics.not_read,
        [
            "preempted_after.prom",
            "preempted_before.prom",
            "restart_after.prom",
            "restart_before.prom"
        ]
    );
    let series = folder(&runs.join("vllm-0.28/series"));
    assert_eq!(series.warnings.len(), 1);
}
