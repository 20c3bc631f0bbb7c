//! The checks (`src/checks/`), each on a run that trips it, one that passes
//! and one it cannot tell, with the exact message; runs typed by hand (CSV
//! tables that use the vocabulary's names) and runs read from result files
//! (the fixtures of `tests/fixtures/results/`). Then what the site and
//! `check` make of them, and `findings lint`.
#![allow(missing_docs)]

mod common;
use findings::checks::{evaluate, Outcome, Verdict};
use findings::load::{parse_run_text, parse_run_with, ResultInput, TableText};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn names() -> BTreeMap<String, String> {
    [
        ("vllm", "vLLM"),
        ("sglang", "SGLang"),
        ("tensorrt-llm", "TensorRT-LLM"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect()
}

/// A run typed by hand: `setups` and `tables` are run.yaml text, `csv` the
/// tables' files.
fn typed(setups: &str, extra: &str, tables: &str, csv: &[(&str, &str)]) -> Vec<Outcome> {
    let text = format!("title: T\ndate: 2026-10-05\nsetups:\n{setups}{extra}tables:\n{tables}");
    let files: BTreeMap<String, String> = csv
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    let (run, diags) = parse_run_text(
        Path::new("data/runs/t"),
        &text,
        &|name| match files.get(name) {
            Some(t) => TableText::Text(t.clone()),
            None => TableText::Missing,
        },
    );
    assert!(!diags.has_errors(), "{:?}", diags.sorted());
    evaluate(&run.expect("the run"), &names())
}

fn fixture(rel: &str) -> PathBuf {
    // An absolute path is a folder the test made.
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/results")
        .join(rel)
}

/// A run of result files: each (entry path, fixture) with its setup.
fn read(setups: &str, entries: &[(&str, &str, &str)], extra: &str) -> Vec<Outcome> {
    let mut results = String::from("results:\n");
    let mut inputs: BTreeMap<String, PathBuf> = BTreeMap::new();
    for (path, file, setup) in entries {
        results.push_str(&format!("  - path: {path}\n    setup: {setup}\n"));
        inputs.insert(path.to_string(), fixture(file));
    }
    let text = format!(
        "title: T\ndate: 2026-10-05\nsetups:\n{setups}{results}{extra}tables:\n  - derive: results\n    title: R\n  - derive: series\n    title: S\n"
    );
    let (run, diags) = parse_run_with(Path::new("data/runs/t"), &text, &|path| {
        let Some(p) = inputs.get(path) else {
            return ResultInput::Missing;
        };
        if p.is_dir() {
            let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(p)
                .unwrap()
                .flatten()
                .map(|e| {
                    (
                        e.file_name().to_string_lossy().into_owned(),
                        std::fs::read(e.path()).unwrap(),
                    )
                })
                .collect();
            files.sort();
            ResultInput::Folder(files, Vec::new())
        } else {
            ResultInput::File(std::fs::read(p).unwrap())
        }
    });
    assert!(!diags.has_errors(), "{:?}", diags.sorted());
    evaluate(&run.expect("the run"), &names())
}

fn said<'o>(outcomes: &'o [Outcome], check: &str) -> Option<(&'o Verdict, &'o str)> {
    outcomes
        .iter()
        .find(|o| o.check == check)
        .map(|o| (&o.verdict, o.message.as_str()))
}

const TWO_ENGINES: &str =
    "  - engine: vllm\n    version: \"0.30\"\n  - engine: sglang\n    version: \"0.5.20\"\n";

fn clients_table(rows: &str) -> (String, String) {
    (
        "  - file: t.csv\n    title: T\n    columns:\n      engine: {description: E}\n      client: {description: C}\n      endpoint: {description: P}\n      output_throughput: {unit: tok/s, description: O}\n".to_string(),
        format!("engine,client,endpoint,output_throughput\n{rows}"),
    )
}

#[test]
fn one_client_flags_two_clients_passes_one_and_cannot_tell_without_an_endpoint() {
    let (t, csv) = clients_table(
        "vllm,vllm bench serve,/v1/completions,1274\nsglang,sglang.bench_serving,/generate,1342\n",
    );
    let o = typed(TWO_ENGINES, "", &t, &[("t.csv", &csv)]);
    assert_eq!(
        said(&o, "one-client"),
        Some((&Verdict::Flagged, "the 2 engines were measured under 2 clients (vllm bench serve; sglang.bench_serving): engines compare only under one client and one endpoint"))
    );
    let (t, csv) = clients_table(
        "vllm,vllm bench serve,/v1/completions,1274\nsglang,vllm bench serve,/v1/completions,799\n",
    );
    let o = typed(TWO_ENGINES, "", &t, &[("t.csv", &csv)]);
    assert_eq!(
        said(&o, "one-client"),
        Some((&Verdict::Passed, "the 2 engines were measured under one client (vllm bench serve) at one endpoint (/v1/completions)"))
    );
    let (t, csv) = clients_table("vllm,vllm bench serve,,1274\nsglang,vllm bench serve,,799\n");
    let o = typed(TWO_ENGINES, "", &t, &[("t.csv", &csv)]);
    assert_eq!(
        said(&o, "one-client"),
        Some((
            &Verdict::CannotTell,
            "cannot tell: the run records no endpoint (its client: vllm bench serve)"
        ))
    );
    // One engine: nothing to compare, the check says nothing.
    let o = typed("  - engine: vllm\n", "", &t, &[("t.csv", &csv)]);
    assert_eq!(said(&o, "one-client"), None);
}

#[test]
fn concurrency_achieved_from_a_series_a_table_and_the_running_gauge_of_tensorrt_llm() {
    // The recorded run folder: 4 asked for, and its series.
    let vllm = "  - label: vLLM 0.30\n    engine: vllm\n    version: \"0.30\"\n";
    let o = read(vllm, &[("raw/run", "inferlint/vllm-run", "vLLM 0.30")], "");
    assert_eq!(
        said(&o, "concurrency-achieved"),
        Some((&Verdict::Flagged, "vLLM 0.30: asked for 4 requests at once; the server never ran more than 2, so figures said to be at that concurrency are of fewer requests at once"))
    );
    // A table: two rows, one short of what it asked.
    let t = "  - file: c.csv\n    title: C\n    columns:\n      client: {description: C}\n      max_concurrency: {unit: requests, description: A}\n      max_running: {unit: requests, description: R}\n";
    let sglang = "  - engine: sglang\n    version: \"0.5.20\"\n";
    let o = typed(
        sglang,
        "",
        t,
        &[("c.csv", "client,max_concurrency,max_running\nown,32,32\n")],
    );
    assert_eq!(
        said(&o, "concurrency-achieved"),
        Some((
            &Verdict::Passed,
            "asked for 32, ran 32 at once (in c.csv, line 2)"
        ))
    );
    let csv = "client,max_concurrency,max_running\nvllm bench serve,32,29\nown,32,32\n";
    let o = typed(sglang, "", t, &[("c.csv", csv)]);
    assert_eq!(
        said(&o, "concurrency-achieved"),
        Some((&Verdict::Flagged, "asked for 32 requests at once; the server never ran more than 29 (in c.csv, line 2), so figures said to be at that concurrency are of fewer requests at once"))
    );
    // TensorRT-LLM's gauge alone cannot tell: it counts waiting requests.
    let csv = "client,max_concurrency,max_running\nvllm bench serve,32,32\n";
    let o = typed(
        "  - engine: tensorrt-llm\n    version: \"1.3.0rc29\"\n",
        "",
        t,
        &[("c.csv", csv)],
    );
    assert_eq!(
        said(&o, "concurrency-achieved"),
        Some((&Verdict::CannotTell, "cannot tell: TensorRT-LLM's running gauge says 32 of the 32 asked for, but it counts requests waiting for memory as running, and the run records no count of requests streaming at once (in c.csv, line 2)"))
    );
    // A result file alone: asked for, but nothing says what ran.
    let o = read(
        vllm,
        &[("raw/serve.json", "vllm/serve.json", "vLLM 0.30")],
        "",
    );
    assert_eq!(
        said(&o, "concurrency-achieved"),
        Some((&Verdict::CannotTell, "cannot tell: vLLM 0.30: asked for 64 requests at once, but the run records no count of the requests the server ran (its running gauge, or the client's count of requests streaming)"))
    );
}

#[test]
fn preemptions_read_counts_them_flags_their_absence_and_cannot_tell_a_reset_counter() {
    let vllm = "  - label: vLLM 0.30\n    engine: vllm\n    version: \"0.30\"\n";
    let o = read(vllm, &[("raw/run", "inferlint/vllm-run", "vLLM 0.30")], "");
    let (v, m) = said(&o, "preemptions-read").unwrap();
    assert_eq!(v, &Verdict::Passed, "{m}");
    assert!(m.starts_with("preemptions recorded (vLLM 0.30: "), "{m}");
    let o = read(
        vllm,
        &[("raw/serve.json", "vllm/serve.json", "vLLM 0.30")],
        "",
    );
    assert_eq!(
        said(&o, "preemptions-read"),
        Some((&Verdict::Flagged, "vLLM 0.30 records no preemptions (vLLM logs none: read `vllm:num_preemptions_total` before and after the run); its latency figures may hold requests that were preempted and computed again"))
    );
    // A count known to be unknown: the counter went down between the
    // snapshots (the server restarted during the run).
    let reset = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(fixture("inferlint/vllm-run"))
        .unwrap()
        .flatten()
    {
        std::fs::copy(e.path(), reset.path().join(e.file_name())).unwrap();
    }
    let after = reset.path().join("after.snapshot.json");
    let text = std::fs::read_to_string(&after).unwrap();
    std::fs::write(
        &after,
        text.replace(
            "model_name=\\\"qwen3\\\"} 5.0",
            "model_name=\\\"qwen3\\\"} 1.0",
        ),
    )
    .unwrap();
    assert_ne!(
        std::fs::read_to_string(&after).unwrap(),
        text,
        "the counter is edited"
    );
    let o = read(
        vllm,
        &[("raw/run", reset.path().to_str().unwrap(), "vLLM 0.30")],
        "",
    );
    assert_eq!(
        said(&o, "preemptions-read"),
        Some((&Verdict::CannotTell, "cannot tell how many requests were preempted: unknown: `vllm:num_preemptions_total` went down between the snapshots (2 → 1): the server restarted"))
    );
    let t = "  - file: p.csv\n    title: P\n    columns:\n      max_concurrency: {unit: requests, description: A}\n      preemptions: {unit: requests, description: P}\n";
    let o = typed(
        vllm,
        "",
        t,
        &[("p.csv", "max_concurrency,preemptions\n32,21\n")],
    );
    assert_eq!(
        said(&o, "preemptions-read"),
        Some((&Verdict::Passed, "preemptions recorded (vLLM 0.30: 21 during the run); the latency figures include the requests preempted and computed again"))
    );
    // SGLang logs each one itself: not this check's.
    let o = typed(
        "  - engine: sglang\n",
        "",
        t,
        &[("p.csv", "max_concurrency,preemptions\n32,\n")],
    );
    assert_eq!(said(&o, "preemptions-read"), None);
}

#[test]
fn kv_cache_recorded_for_starts_alike() {
    let starts = "  - label: start 1\n    engine: vllm\n    version: \"0.30\"\n    flags: --x\n  - label: start 2\n    engine: vllm\n    version: \"0.30\"\n    flags: --x\n";
    let t = "  - file: k.csv\n    title: K\n    columns:\n      setup: {description: S}\n      kv_cache_tokens: {unit: tokens, description: K}\n";
    let o = typed(
        starts,
        "",
        t,
        &[(
            "k.csv",
            "setup,kv_cache_tokens\nstart 1,32336\nstart 2,47888\n",
        )],
    );
    assert_eq!(
        said(&o, "kv-cache-recorded"),
        Some((&Verdict::Passed, "the KV cache size of each start is recorded (start 1: 32,336 tokens; start 2: 47,888 tokens)"))
    );
    let o = typed(
        starts,
        "",
        t,
        &[("k.csv", "setup,kv_cache_tokens\nstart 1,32336\nstart 2,\n")],
    );
    assert_eq!(
        said(&o, "kv-cache-recorded"),
        Some((&Verdict::Flagged, "start 1, start 2 compared with the same flags, but start 2 records no KV cache size, which differs from one start to the next"))
    );
    let flagless = "  - label: start 1\n    engine: vllm\n    version: \"0.30\"\n  - label: start 2\n    engine: vllm\n    version: \"0.30\"\n";
    let o = typed(
        flagless,
        "",
        t,
        &[(
            "k.csv",
            "setup,kv_cache_tokens\nstart 1,32336\nstart 2,47888\n",
        )],
    );
    assert_eq!(
        said(&o, "kv-cache-recorded"),
        Some((
            &Verdict::CannotTell,
            "cannot tell whether the starts had the same flags: their setups record no flags"
        ))
    );
}

#[test]
fn rate_from_two_readings_flags_a_rate_between_readings_of_sglang() {
    let sglang = "  - label: SGLang 0.5.20\n    engine: sglang\n    version: \"0.5.20\"\n";
    let chart = |y: &str| {
        format!("charts:\n  - id: rate\n    title: R\n    table: series.csv\n    kind: line\n    x: t_s\n    y: {y}\n")
    };
    let o = read(
        sglang,
        &[("raw/run", "inferlint/sglang-run", "SGLang 0.5.20")],
        &chart("generation_tokens_per_s"),
    );
    assert_eq!(
        said(&o, "rate-from-two-readings"),
        Some((&Verdict::Flagged, "chart \"rate\" draws the generation rate between successive readings of the server's counter, which moves only when a request completes: take the rate from two readings, before and after the run"))
    );
    let o = read(
        sglang,
        &[("raw/run", "inferlint/sglang-run", "SGLang 0.5.20")],
        &chart("running"),
    );
    assert_eq!(
        said(&o, "rate-from-two-readings"),
        Some((
            &Verdict::Passed,
            "no chart draws a rate between successive readings of the server's counters"
        ))
    );
    let t = "  - file: s.csv\n    title: S\n    columns:\n      t_s: {unit: s, description: T}\n      tokens: {unit: tok/s, description: R}\n";
    let text = "charts:\n  - id: typed\n    title: R\n    table: s.csv\n    kind: line\n    x: t_s\n    y: tokens\n";
    let o = typed(
        sglang,
        "",
        &format!("{t}{text}"),
        &[("s.csv", "t_s,tokens\n0,10\n1,20\n")],
    );
    assert_eq!(
        said(&o, "rate-from-two-readings"),
        Some((&Verdict::CannotTell, "cannot tell whether chart \"typed\" draws \"tokens\" from the server's counters: its table does not say where the rate came from"))
    );
}

#[test]
fn no_lost_requests_flags_failed_ones() {
    let vllm = "  - label: vLLM 0.30\n    engine: vllm\n    version: \"0.30\"\n";
    let o = read(
        vllm,
        &[("raw/failed.json", "vllm/all-failed.json", "vLLM 0.30")],
        "",
    );
    let (v, m) = said(&o, "no-lost-requests").unwrap();
    assert_eq!(v, &Verdict::Flagged, "{m}");
    assert_eq!(
        m,
        "vLLM 0.30: 16 of 16 requests failed: the figures are of the completed requests only"
    );
    let o = read(vllm, &[("raw/run", "inferlint/vllm-run", "vLLM 0.30")], "");
    assert_eq!(
        said(&o, "no-lost-requests"),
        Some((&Verdict::Passed, "every request completed (1 result)"))
    );
    let t = "  - file: r.csv\n    title: R\n    columns:\n      completed: {unit: requests, description: C}\n";
    let o = typed(vllm, "", t, &[("r.csv", "completed\n31\n")]);
    assert_eq!(
        said(&o, "no-lost-requests"),
        Some((&Verdict::CannotTell, "cannot tell: r.csv, line 2 records that 31 requests completed, but not how many were sent or failed"))
    );
}

#[test]
fn an_acknowledged_check_is_shown_as_acknowledged_never_as_passed() {
    let (t, csv) = clients_table("vllm,a,/x,1\nsglang,b,/x,2\n");
    let ack = "acknowledged:\n  - check: one-client\n    reason: The pitfall itself.\n";
    let o = typed(TWO_ENGINES, ack, &t, &[("t.csv", &csv)]);
    let one = o.iter().find(|o| o.check == "one-client").unwrap();
    assert_eq!(one.verdict, Verdict::Acknowledged);
    assert_eq!(one.reason.as_deref(), Some("The pitfall itself."));
    // Acknowledging a check that passes changes nothing: it passes.
    let (t, csv) = clients_table("vllm,a,/x,1\nsglang,a,/x,2\n");
    let o = typed(TWO_ENGINES, ack, &t, &[("t.csv", &csv)]);
    assert_eq!(said(&o, "one-client").unwrap().0, &Verdict::Passed);
}

#[test]
fn check_warns_of_each_flag_citing_its_findings_and_strict_fails_on_it() {
    let site = minimal_naming_checks("concurrency-achieved");
    site.edit(
        "data/runs/cache-sweep/run.yaml",
        "tables:\n",
        "tables:\n  - file: c.csv\n    title: C\n    columns:\n      max_concurrency: {unit: requests, description: Asked}\n      max_running: {unit: requests, description: Ran}\n",
    );
    site.write(
        "data/runs/cache-sweep/c.csv",
        "max_concurrency,max_running\n32,10\n",
    );
    let r = site.run(&["check"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "data/runs/cache-sweep/c.csv:2:1: warning: concurrency-achieved: asked for 32 requests at once; the server never ran more than 10 (in c.csv, line 2), so figures said to be at that concurrency are of fewer requests at once (see F7)\n  hint: fix the run, or if it breaks the check on purpose, say why: `acknowledged: [{check: concurrency-achieved, reason: …}]` in data/runs/cache-sweep/run.yaml\ndata/runs/cache-sweep/run.yaml:1:1: warning: preemptions-read: vLLM 0.30 records no preemptions (vLLM logs none: read `vllm:num_preemptions_total` before and after the run); its latency figures may hold requests that were preempted and computed again\n  hint: fix the run, or if it breaks the check on purpose, say why: `acknowledged: [{check: preemptions-read, reason: …}]` in data/runs/cache-sweep/run.yaml\ncheck: 0 errors, 2 warnings in 4 findings and 1 run\n"
    );
    assert_eq!(site.run(&["check", "--strict"]).code, 1);
    // The page of F1 lists the run; the run's page the verdict.
    let out = tempfile::tempdir().unwrap();
    let o = out.path().join("s");
    assert_eq!(
        site.run(&["build", "--output", o.to_str().unwrap()]).code,
        0
    );
    let f1 = std::fs::read_to_string(o.join("findings/cache-size/index.html")).unwrap();
    assert!(f1.contains("Runs this finding's checks flagged"));
    assert!(f1.contains("check-flagged"), "{f1}");
    let page = std::fs::read_to_string(o.join("runs/cache-sweep/index.html")).unwrap();
    assert!(page.contains("Checked against the findings"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(o.join("findings.json")).unwrap()).unwrap();
    let f = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == 7)
        .unwrap();
    assert_eq!(f["checks"], serde_json::json!(["concurrency-achieved"]));
    assert_eq!(f["flagged_runs"][0]["run"], "cache-sweep");
    let checks = json["runs"][0]["checks"].as_array().unwrap();
    let c = checks
        .iter()
        .find(|c| c["name"] == "concurrency-achieved")
        .unwrap();
    assert_eq!(c["verdict"], "flagged");
    assert_eq!(c["findings"], serde_json::json!([7]));
}

#[test]
fn lint_reports_the_findings_a_benchmark_falls_into() {
    let site = minimal_naming_checks("preemptions-read, no-lost-requests");
    let failed = fixture("vllm/all-failed.json");
    let r = site.run(&["lint", failed.to_str().unwrap(), "--engine", "vllm"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains("! no-lost-requests  "), "{}", r.stdout);
    assert!(r.stdout.contains("    F7   The cache size changed between starts\n         Advice: Pin the cache size\n         What to do: Set the cache size explicitly.\n         https://example.org/sub/f/7/\n"), "{}", r.stdout);
    assert!(
        r.stdout.ends_with(
            "findings lint: 2 checks flag these files: preemptions-read, no-lost-requests\n"
        ),
        "{}",
        r.stdout
    );
    let gh = site.run(&[
        "lint",
        failed.to_str().unwrap(),
        "--engine",
        "vllm",
        "--format",
        "github",
    ]);
    assert_eq!(gh.code, 1);
    assert!(
        gh.stdout
            .starts_with(&format!("::warning file={},line=", failed.display())),
        "{}",
        gh.stdout
    );
    assert!(
        gh.stdout.contains("title=preemptions-read (see F7)::"),
        "{}",
        gh.stdout
    );
    let json = site.run(&[
        "lint",
        failed.to_str().unwrap(),
        "--engine",
        "vllm",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["flagged"], 2);
    // A run folder that does what the advice says passes: exit 0.
    let good = fixture("inferlint/vllm-run");
    let r = site.run(&["lint", good.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // A passed check cites the findings that name it, as the run page does.
    assert!(
        r.stdout.contains("\n✓ passed no-lost-requests (F7): "),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .ends_with("findings lint: no check flags these files (2 checks checked)\n"),
        "{}",
        r.stdout
    );
    // A file of no known format: the lint cannot be done.
    let odd = tempfile::tempdir().unwrap();
    let f = odd.path().join("odd.json");
    std::fs::write(&f, "{}").unwrap();
    let r = site.run(&["lint", f.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// A folder of run folders is linted run folder by run folder, each
/// under its heading, the files beside them left out and said to be; a
/// folder with no run folder under it is an error (exit 2), not a pass.
#[test]
fn lint_walks_a_folder_of_run_folders() {
    let site = minimal_naming_checks("concurrency-achieved, preemptions-read");
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    for (from, to) in [
        ("inferlint/vllm-run", "vllm/first"),
        ("inferlint/sglang-run", "sglang/second"),
    ] {
        let dest = runs.join(to);
        std::fs::create_dir_all(&dest).unwrap();
        for e in std::fs::read_dir(fixture(from)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dest.join(e.file_name())).unwrap();
        }
    }
    std::fs::write(runs.join("README.md"), "Runs of the week.\n").unwrap();
    std::fs::write(runs.join(".hidden"), "not listed").unwrap();
    let r = site.run(&["lint", runs.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let first = runs.join("vllm/first");
    let second = runs.join("sglang/second");
    let at_first = r.stdout.find(&format!("\n{}\n", first.display()));
    let at_second = r.stdout.find(&format!("\n{}\n", second.display()));
    assert!(
        at_second.is_some() && at_first.is_some() && at_second < at_first,
        "in name order: {}",
        r.stdout
    );
    assert!(
        r.stdout.contains(&format!(
            "{}\n! concurrency-achieved  {}:",
            first.display(),
            first.join("run.series.jsonl").display()
        )),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("\n1 file outside the run folders not linted (name a file to lint it)\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .ends_with("\nfindings lint: 2 of 2 runs flagged: concurrency-achieved (2 runs)\n"),
        "{}",
        r.stdout
    );
    // Naming the two folders makes them one run of two setups.
    let both = site.run(&["lint", first.to_str().unwrap(), second.to_str().unwrap()]);
    assert!(
        !both.stdout.contains(&format!("\n{}\n", first.display())),
        "{}",
        both.stdout
    );
    assert!(
        both.stdout
            .ends_with("\nfindings lint: 1 check flags these files: concurrency-achieved\n"),
        "{}",
        both.stdout
    );
    // A folder of folders with no run in them.
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(empty.join("a/b")).unwrap();
    std::fs::write(empty.join("notes.txt"), "nothing run yet\n").unwrap();
    let none = site.run(&["lint", empty.to_str().unwrap()]);
    assert_eq!(none.code, 2, "{}{}", none.stdout, none.stderr);
    assert!(
        none.stderr.contains(&format!(
            "error: no run folder under {}: a run folder holds the files a benchmark wrote",
            empty.display()
        )),
        "{}",
        none.stderr
    );
}

const BEGIN: &str = "<!-- generated from src/checks (the registry) and the bundled findings: do not edit below; tests/checks.rs checks it -->\n";
const END: &str = "<!-- end of the generated part -->\n";

/// docs/checks.md says what the registry says, and names the bundled
/// findings that name each check. `UPDATE_DOCS=1 cargo test --test checks`
/// writes it again.
#[test]
fn docs_checks_md_is_the_registry() {
    let loaded = findings::load::load(&common::bundled());
    let mut cited: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut bundled: Vec<_> = loaded.findings.iter().collect();
    bundled.sort_by_key(|f| f.id);
    for f in bundled {
        for c in &f.checks {
            cited.entry(c.clone()).or_default().push(format!(
                "F{}: {}",
                f.id,
                findings::markdown::plain_text(&f.title)
            ));
        }
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/checks.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (head, rest) = doc.split_once(BEGIN).expect("the begin marker");
    let (body, tail) = rest.split_once(END).expect("the end marker");
    let generated = format!("\n{}", findings::checks::markdown(&cited));
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{head}{BEGIN}{generated}{END}{tail}")).unwrap();
        return;
    }
    assert!(
        body == generated,
        "docs/checks.md is out of date: run `UPDATE_DOCS=1 cargo test --test checks`"
    );
    // Every check is named by a bundled finding.
    for c in findings::checks::CHECKS {
        assert!(
            cited.contains_key(c.name),
            "no bundled finding names {}",
            c.name
        );
    }
}

/// The editors' schemas know the checks the registry has, by name.
#[test]
fn the_schemas_name_every_check() {
    let names: Vec<serde_json::Value> = findings::checks::names()
        .into_iter()
        .map(serde_json::Value::from)
        .collect();
    let read = |f: &str| -> serde_json::Value {
        serde_json::from_str(
            &std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("schemas")
                    .join(f),
            )
            .unwrap(),
        )
        .unwrap()
    };
    assert_eq!(
        read("finding.schema.json")["properties"]["checks"]["items"]["enum"],
        serde_json::Value::from(names.clone())
    );
    assert_eq!(
        read("run.schema.json")["properties"]["acknowledged"]["items"]["properties"]["check"]
            ["enum"],
        serde_json::Value::from(names)
    );
}

/// `--from` a built site: the findings and their checks come from its
/// `findings.json`, as `findings audit --from` reads them, and the flags
/// carry the published site's addresses.
#[test]
fn lint_takes_the_findings_from_a_built_site() {
    let site = minimal_naming_checks("concurrency-achieved");
    let out = site.root().join("built");
    let b = site.run(&["build", "--output", out.to_str().unwrap()]);
    assert_eq!(b.code, 0, "{}", b.stderr);
    let run = fixture("inferlint/vllm-run");
    // Run from a folder with no records: the findings are the built site's.
    let elsewhere = tempfile::tempdir().unwrap();
    let r = common::run_from(
        elsewhere.path(),
        &[
            "lint",
            run.to_str().unwrap(),
            "--from",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with(&format!(
            "Findings from {}\n\n! concurrency-achieved  {}:",
            out.join("findings.json").display(),
            run.join("run.series.jsonl").display()
        )),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("    F7   The cache size changed between starts\n         Advice: Pin the cache size\n         What to do: Set the cache size explicitly.\n         https://example.org/sub/f/7/\n"), "{}", r.stdout);
    assert!(
        r.stdout
            .ends_with("\nfindings lint: 1 check flags these files: concurrency-achieved\n"),
        "{}",
        r.stdout
    );
}

/// The `minimal` fixture with its cache-size finding naming `checks` (a
/// comma-separated list) as the checks that carry its advice.
fn minimal_naming_checks(checks: &str) -> common::Site {
    let site = common::Site::copy_of("minimal");
    site.edit(
        "findings/cache-size.md",
        "runs: [cache-sweep]",
        &format!("runs: [cache-sweep]\nchecks: [{checks}]"),
    );
    site
}
