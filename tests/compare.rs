//! `findings compare`: runs imported from result files (made here from the
//! vllm bench serve fixture, a figure changed in each), set side by side;
//! repeats that make a change "within noise" and repeats that do not, one
//! measurement each, files named directly, and what cannot be compared.
#![allow(missing_docs)]

mod common;

use common::Site;
use std::path::{Path, PathBuf};

/// The vllm bench serve fixture with `changes` made to it, written as
/// `name` in `dir`.
fn serve_file(dir: &Path, name: &str, changes: &[(&str, serde_json::Value)]) -> PathBuf {
    let mut v: serde_json::Value = serde_json::from_str(
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

/// Imports the files into run `id` of `site` as one setup of vLLM `version`.
fn import(site: &Site, id: &str, version: &str, files: &[PathBuf]) {
    let mut args = vec!["import", id];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    args.extend(["--engine", "vllm", "--version", version]);
    let r = site.run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// Two runs of two files each at throughputs `a` and `b`.
fn two_runs(a: [f64; 2], b: [f64; 2]) -> (Site, tempfile::TempDir) {
    let site = Site::copy_of("minimal");
    let files = tempfile::tempdir().unwrap();
    let made = |side: &str, t: [f64; 2]| -> Vec<PathBuf> {
        t.iter()
            .enumerate()
            .map(|(i, t)| {
                serve_file(
                    files.path(),
                    &format!("{side}-{}.json", i + 1),
                    &[("output_throughput", (*t).into())],
                )
            })
            .collect()
    };
    import(&site, "v029", "0.29", &made("v029", a));
    import(&site, "v030", "0.30", &made("v030", b));
    (site, files)
}

#[test]
fn repeats_that_overlap_make_a_change_within_noise() {
    let (site, _files) = two_runs([600.0, 610.0], [605.0, 615.0]);
    let r = site.run(&["compare", "v029", "v030", "--metric", "output_throughput"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "Compared: vLLM 0.29 (baseline, 2 files), vLLM 0.30 (2 files)\n\
         \n\
         llama-3.1-8b-instruct · 1,024 in, 128 out (tokens a request) · asked for 64 at once · rate unlimited\n  \
         metric             vLLM 0.29                    vLLM 0.30                    change\n  \
         Output throughput  605 tok/s (600–610, 2 runs)  610 tok/s (605–615, 2 runs)  +0.8% better, within noise\n\
         \n\
         findings compare: 1 workload in common; 0 changes beyond noise, 1 within noise\n"
    );
}

#[test]
fn repeats_apart_make_a_change_beyond_noise() {
    let (site, _files) = two_runs([600.0, 610.0], [700.0, 705.0]);
    let r = site.run(&[
        "compare",
        "v029",
        "v030",
        "--metric",
        "output_throughput",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let row = &v["workloads"][0]["rows"][0];
    assert_eq!(row["metric"], "output_throughput");
    // Every digit, and the value as shown, at the precision of its row.
    assert_eq!(
        row["values"][0],
        serde_json::json!({"n": 2, "mean": 605.0, "min": 600.0, "max": 610.0, "shown": "605.0 tok/s (600.0–610.0, 2 runs)"})
    );
    let change = &row["changes"][1];
    assert_eq!(change["shown"], "+16%");
    assert_eq!(change["noise"], "beyond");
    assert_eq!(change["direction"], "better");
    assert_eq!(v["sides"][0]["baseline"], true);
    assert_eq!(
        v["sides"][1]["sources"],
        serde_json::json!(["raw/v030-1.json", "raw/v030-2.json"])
    );
    assert_eq!(
        v["verdict"],
        "1 workload in common; 1 change beyond noise, 0 within noise"
    );
    // Markdown, for an issue.
    let md = site.run(&["compare", "v029", "v030", "--format", "markdown"]);
    assert!(md.stdout.contains("| metric | vLLM 0.29 | vLLM 0.30 | change |\n|---|---:|---:|---|\n| Output throughput | 605.0 tok/s (600.0–610.0, 2 runs) | 702.5 tok/s (700.0–705.0, 2 runs) | +16% better, beyond noise |\n"), "{}", md.stdout);
    // A latency that went up is worse, though not beyond noise; one
    // that did not move is the same.
    let json = site.run(&["compare", "v029", "v030", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    for row in v["workloads"][0]["rows"].as_array().unwrap() {
        let d = &row["changes"][1]["direction"];
        assert!(d == "better" || d == "worse" || d == "same", "{row}");
    }
    let ttft = v["workloads"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == "ttft_ms_p99")
        .unwrap();
    assert_eq!(ttft["changes"][1]["direction"], "same");
    assert_eq!(v["metrics"][0]["higher_is_better"], true);
}

#[test]
fn one_measurement_each_is_not_called_significant() {
    let site = Site::copy_of("minimal");
    let files = tempfile::tempdir().unwrap();
    let a = serve_file(files.path(), "a.json", &[]);
    let b = serve_file(
        files.path(),
        "b.json",
        &[
            ("output_throughput", 700.0.into()),
            ("p99_ttft_ms", 600.0.into()),
        ],
    );
    // Files named directly, each a side of its own.
    let r = site.run(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--engine",
        "vllm",
        "--version",
        "0.30",
        "--metric",
        "output_throughput",
        "--metric",
        "ttft_ms_p99",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "  Output throughput  610.7 tok/s         700.0 tok/s         +15% better, untested\n  \
             TTFT p99           530.8 ms            600.0 ms            +13% worse, untested\n"
        ),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("untested: each side measured the workload once, so the change is not tested against noise"), "{}", r.stdout);
    // A stated band judges them.
    let r = site.run(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--metric",
        "output_throughput",
        "--noise",
        "20",
    ]);
    assert!(
        r.stdout.contains("+15% better, within ±20%"),
        "{}",
        r.stdout
    );
}

#[test]
fn what_cannot_be_compared_is_said() {
    let site = Site::copy_of("minimal");
    let files = tempfile::tempdir().unwrap();
    let a = serve_file(files.path(), "a.json", &[]);
    let other = serve_file(files.path(), "other.json", &[("max_concurrency", 8.into())]);
    // No workload in common: exit 1, with what each side measured.
    let r = site.run(&["compare", a.to_str().unwrap(), other.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.contains("other.json measured:\n  llama-3.1-8b-instruct · 1,024 in, 128 out (tokens a request) · asked for 8 at once · rate unlimited\n"),
        "{}",
        r.stdout
    );
    assert!(r
        .stdout
        .ends_with("findings compare: no workload in common: nothing to compare\n"));
    // An unknown metric, a lone side, a name that is nothing: exit 2.
    let r = site.run(&[
        "compare",
        a.to_str().unwrap(),
        a.to_str().unwrap(),
        "--metric",
        "speed",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("error: unknown metric \"speed\"\n  hint: the metrics: output_throughput, request_throughput, tokens_per_s, ttft_ms_p50, ttft_ms_p99, itl_ms_p50, itl_ms_p99, tpot_ms_p50, tpot_ms_p99, e2el_ms_p50, e2el_ms_p99\n"), "{}", r.stderr);
    let r = site.run(&["compare", a.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("is one setup: a comparison needs two sides or more\n"),
        "{}",
        r.stderr
    );
    let r = site.run(&["compare", "no-such-run", a.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("error: no-such-run: no run of that id in "),
        "{}",
        r.stderr
    );
    // A published site that cannot be read, whatever the sides ran.
    let r = site.run(&[
        "compare",
        a.to_str().unwrap(),
        a.to_str().unwrap(),
        "--from",
        "no-such-site",
    ]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("error: cannot read no-such-site: "),
        "{}",
        r.stderr
    );
    // A run of hand tables has no result file to compare.
    let r = site.run(&["compare", "cache-sweep", a.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("error: cache-sweep: no result file gives it a figure to compare\n"),
        "{}",
        r.stderr
    );
}

/// The text a reader sees in `html`'s main, tags dropped, spaces joined.
fn seen(html: &str) -> String {
    let main = &html[html.find("<main").unwrap()..html.find("</main>").unwrap()];
    let mut out = String::new();
    let mut in_tag = false;
    for ch in main.chars() {
        match ch {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn build(root: &Path) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let r = common::run_in(root, &["build", "--output", out.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    out
}

#[test]
fn the_bundled_comparison_shows_the_reports_deltas() {
    let out = build(&common::bundled());
    let page = std::fs::read_to_string(
        out.path()
            .join("compare/c1-depth-nvfp4-vs-vllm-mtp3/index.html"),
    )
    .unwrap();
    let text = seen(&page);
    // NVFP4 the baseline; vLLM's change at each depth, as the report has it.
    // Each change better or worse by the table's `better: higher`, in
    // words; 56 has a tenth beside 44.3.
    for row in [
        "0 127.1 tok/s 117.3 tok/s −8% worse, untested",
        "4,096 87.1 tok/s 87.5 tok/s +0.5% better, untested",
        "8,192 73.1 tok/s 76.7 tok/s +5% better, untested",
        "16,384 44.3 tok/s 56.0 tok/s +26% better, untested",
        "32,768 24.2 tok/s 32.7 tok/s +35% better, untested",
    ] {
        assert!(text.contains(row), "{row}\n{text}");
    }
    assert!(
        text.contains("Context depth NInfer NVFP4 (baseline) vLLM 0.27.1 MTP@3 0 127.1"),
        "{text}"
    );
    assert!(
        page.contains("<span class=\"change change-worse noise-untested\"><span class=\"change-head\">−8% worse,</span>"),
        "{page}"
    );
    // The run links it, and the index lists it.
    let run = std::fs::read_to_string(out.path().join("runs/c1-depth-ninfer-vs-vllm/index.html"))
        .unwrap();
    assert!(
        run.contains("href=\"../../compare/c1-depth-nvfp4-vs-vllm-mtp3/\""),
        "{run}"
    );
    let index = seen(&std::fs::read_to_string(out.path().join("compare/index.html")).unwrap());
    assert!(
        index.contains("NInfer NVFP4 against vLLM 0.27.1 MTP@3 at concurrency 1, by context depth"),
        "{index}"
    );
}

#[test]
fn a_site_comparison_and_what_changed_on_the_version_page() {
    let (site, _files) = two_runs([600.0, 610.0], [700.0, 705.0]);
    let mut yaml = site.read("site.yaml");
    yaml.push_str("compare:\n  - id: v029-v030\n    title: vLLM 0.29 against 0.30\n    runs: [v029, v030]\n    metrics: [output_throughput]\n");
    site.write("site.yaml", &yaml);
    let out = build(site.root());
    let text =
        seen(&std::fs::read_to_string(out.path().join("compare/v029-v030/index.html")).unwrap());
    assert!(
        text.contains("Workload vLLM 0.29 (baseline) vLLM 0.30 llama-3.1-8b-instruct · 1,024 in, 128 out (tokens a request) · asked for 64 at once · rate unlimited 605.0 tok/s (600.0–610.0, 2 runs) 702.5 tok/s (700.0–705.0, 2 runs) +16% better, beyond noise"),
        "{text}"
    );
    // The 0.30 page lists its run and what changed since 0.29, every
    // metric the two measured.
    let version =
        seen(&std::fs::read_to_string(out.path().join("engines/vllm/0.30/index.html")).unwrap());
    assert!(version.contains("Runs of vLLM 0.30"), "{version}");
    assert!(version.contains("What changed since 0.29"), "{version}");
    assert!(
        version.contains("Output throughput 605.0 tok/s (600.0–610.0, 2 runs) 702.5 tok/s (700.0–705.0, 2 runs) +16% better, beyond noise"),
        "{version}"
    );
    assert!(
        version.contains(
            "TTFT p99 530.8 ms (2 runs, alike) 530.8 ms (2 runs, alike) 0% same, within noise"
        ),
        "{version}"
    );
    // Right after what affects the version, before the findings in range
    // and the other states: a reader about to upgrade asks both first.
    let at = |s: &str| version.find(s).expect(s);
    let changed = at("What changed since 0.29 The workloads");
    assert!(
        at("1 Affected Tested on this version") < changed,
        "{version}"
    );
    assert!(changed < at("1 In range, untested"), "{version}");
    assert!(changed < at("0 Mitigated: none."), "{version}");
    // The comparison is in the header of every page and on the home page.
    let home = std::fs::read_to_string(out.path().join("index.html")).unwrap();
    assert!(
        home.contains("<li><a href=\"./compare/\">Comparisons</a></li>"),
        "{home}"
    );
    let home = seen(&home);
    assert!(
        home.contains("Runs compared vLLM 0.29 against 0.30 vLLM 0.29 · vLLM 0.30: 1 workload in common; 1 change beyond noise, 0 within noise The index of comparisons"),
        "{home}"
    );
    let index = std::fs::read_to_string(out.path().join("compare/index.html")).unwrap();
    assert!(
        index.contains("<li><a href=\"../compare/\" aria-current=\"page\">Comparisons</a></li>"),
        "{index}"
    );
    // The 0.29 page has no earlier version to compare with.
    let first =
        seen(&std::fs::read_to_string(out.path().join("engines/vllm/0.29/index.html")).unwrap());
    assert!(first.contains("Runs of vLLM 0.29"), "{first}");
    assert!(!first.contains("What changed since"), "{first}");
}

/// Issue 35: two files of one `vllm bench serve` command whose measured
/// output lengths differ by 13% (generation stopped at an end of text)
/// are two workloads by their means; the lengths the files say were asked
/// for make them one, and `--same-workload` says so where they say none.
#[test]
fn lengths_asked_for_or_said_to_be_one_workload() {
    let site = Site::copy_of("minimal");
    let files = tempfile::tempdir().unwrap();
    let a = serve_file(files.path(), "a.json", &[]);
    // 25,344 output tokens over 198 requests (128 each) against 22,049
    // (111 each): 13% shorter.
    let short = [
        ("total_output_tokens", 22049.into()),
        ("output_throughput", 580.0.into()),
    ];
    let b = serve_file(files.path(), "b.json", &short);
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let metric = ["--metric", "output_throughput"];
    let r = site.run(&[&["compare", a, b][..], &metric].concat());
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("\nb.json measured:\n  llama-3.1-8b-instruct · 1,024 in, 111 out (tokens a request) · asked for 64 at once · rate unlimited\n"),
        "{}",
        r.stdout
    );
    // Said to be one workload: matched, and the output says so.
    let r = site.run(&[&["compare", a, b, "--same-workload"][..], &metric].concat());
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "Said to measure one workload (--same-workload): matched on concurrency and rate alone\n\
             \n\
             llama-3.1-8b-instruct · 1,024 in, 128 out (tokens a request) · asked for 64 at once · rate unlimited\n  \
             b.json: measured llama-3.1-8b-instruct · 1,024 in, 111 out (tokens a request) · asked for 64 at once · rate unlimited, taken as this workload (--same-workload)\n  \
             metric             a.json       b.json       change\n  \
             Output throughput  610.7 tok/s  580.0 tok/s  −5% worse, untested\n"
        ),
        "{}",
        r.stdout
    );
    let json = site.run(
        &[
            &["compare", a, b, "--same-workload", "--format", "json"][..],
            &metric,
        ]
        .concat(),
    );
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["same_workload"], true);
    assert_eq!(v["workloads"][0]["taken_as_one"][0]["side"], 1);
    // Files that record the lengths asked for (as `vllm bench sweep
    // serve` merges its parameters into each run's file) match on them.
    let asked = [
        ("random_input_len", 1024.into()),
        ("random_output_len", 128.into()),
    ];
    let a = serve_file(files.path(), "a-asked.json", &asked);
    let b = serve_file(
        files.path(),
        "b-asked.json",
        &[&asked[..], &short[..]].concat(),
    );
    let r = site.run(
        &[
            &["compare", a.to_str().unwrap(), b.to_str().unwrap()][..],
            &metric,
        ]
        .concat(),
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stdout.contains("\nllama-3.1-8b-instruct · asked 1,024 in, 128 out; measured 1,024 in, 128 out (tokens a request) · asked for 64 at once · rate unlimited\n"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("--same-workload"), "{}", r.stdout);
}

/// Two copies of the inferlint run folder of the fixtures (4 requests
/// asked, the server ran 2 at once, 3 preemptions, a KV cache of 32,336
/// tokens), the second at a lower throughput, in `dir`.
fn two_folders(dir: &Path) -> (PathBuf, PathBuf) {
    let from = common::fixture("results/inferlint/vllm-run");
    let copy = |name: &str, throughput: Option<f64>| {
        let to = dir.join(name);
        std::fs::create_dir_all(&to).unwrap();
        for e in std::fs::read_dir(&from).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
        if let Some(t) = throughput {
            let bench = to.join("bench.json");
            let mut v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&bench).unwrap()).unwrap();
            v["output_throughput"] = t.into();
            std::fs::write(&bench, serde_json::to_string_pretty(&v).unwrap()).unwrap();
        }
        to
    };
    (copy("start-1", None), copy("start-2", Some(300.0)))
}

#[test]
fn a_side_that_ran_fewer_than_asked_is_marked_citing_the_findings() {
    let site = Site::copy_of("minimal");
    // A finding that carries the check's advice, as F5 and F9 do.
    let f = site.read("findings/cache-size.md");
    site.write(
        "findings/cache-size.md",
        &f.replace(
            "tags: [kv-cache]",
            "tags: [kv-cache]\nchecks: [concurrency-achieved]",
        ),
    );
    let files = tempfile::tempdir().unwrap();
    let (a, b) = two_folders(files.path());
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let r = site.run(&["compare", a, b, "--metric", "output_throughput"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "qwen3-8b · 88 in, 1,000 out (tokens a request) · asked for 4 at once · rate unlimited\n  \
             vLLM 0.30.0 (start-1): ran at most 2 requests at once of the 4 asked; 3 preemptions; KV cache 32,336 tokens\n  \
             vLLM 0.30.0 (start-2): ran at most 2 requests at once of the 4 asked; 3 preemptions; KV cache 32,336 tokens\n  \
             metric             vLLM 0.30.0 (start-1)     vLLM 0.30.0 (start-2)     change\n  \
             Output throughput  421.1 tok/s, ran ≤2 of 4  300.0 tok/s, ran ≤2 of 4  −29% worse, untested\n"
        ),
        "{}",
        r.stdout
    );
    // The summary says so and cites the findings of the records at hand.
    assert!(
        r.stdout.contains(
            "ran fewer: vLLM 0.30.0 (start-1) and vLLM 0.30.0 (start-2) ran fewer requests at once than the workload asked for (marked \"ran ≤N of M\"). Their figures are of fewer requests at once than the workload's heading says (check concurrency-achieved).\n  \
             F7   The cache size changed between starts  https://example.org/sub/f/7/\n"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .ends_with("; 2 sides ran fewer requests at once than asked (see F7)\n"),
        "{}",
        r.stdout
    );
    // Where no records are at hand, no finding is named.
    let nowhere = tempfile::tempdir().unwrap();
    let r = common::run_in(nowhere.path(), &["compare", a, b]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("ran fewer: "), "{}", r.stdout);
    assert!(!r.stdout.contains("F7"), "{}", r.stdout);
    assert!(
        r.stdout
            .ends_with("2 sides ran fewer requests at once than asked\n"),
        "{}",
        r.stdout
    );
    // A published site's findings, with --from.
    let built = build(site.root());
    let from = built.path().to_str().unwrap();
    let r = common::run_in(
        nowhere.path(),
        &["compare", a, b, "--from", from, "--format", "json"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["ran_fewer"]["sides"], serde_json::json!([0, 1]));
    assert_eq!(v["ran_fewer"]["findings"][0]["id"], "F7");
    assert_eq!(
        v["workloads"][0]["context"][0]["max_running"],
        serde_json::json!({"min": 2.0, "max": 2.0})
    );
    assert_eq!(v["workloads"][0]["context"][0]["ran_fewer"], 2.0);

    // On the site: the page's note cites the finding, each value is
    // marked, and each side's context heads its workload.
    for (id, dir) in [("start-1", a), ("start-2", b)] {
        let r = site.run(&["import", id, dir, "--engine", "vllm", "--version", "0.30.0"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let mut yaml = site.read("site.yaml");
    yaml.push_str("compare:\n  - id: starts\n    title: Two starts of vLLM 0.30\n    runs: [start-1, start-2]\n    metrics: [output_throughput, ttft_ms_p99]\n");
    site.write("site.yaml", &yaml);
    let out = build(site.root());
    let page = std::fs::read_to_string(out.path().join("compare/starts/index.html")).unwrap();
    let text = seen(&page);
    assert!(
        text.contains("Fewer requests ran than asked. vLLM 0.30.0 (1) and vLLM 0.30.0 (2) ran fewer requests at once than the workload asked for (marked “ran ≤N of M”): their figures are of fewer requests at once than the workload’s heading says. See F7 : The cache size changed between starts."),
        "{text}"
    );
    assert!(
        page.contains("See <a href=\"../../findings/cache-size/\">F7</a>"),
        "{page}"
    );
    assert!(
        text.contains("vLLM 0.30.0 (1) : ran at most 2 requests at once of the 4 asked; 3 preemptions; KV cache 32,336 tokens"),
        "{text}"
    );
    assert!(
        text.contains("Output throughput 421.1 tok/s ran ≤2 of 4 300.0 tok/s ran ≤2 of 4 −29% worse, untested"),
        "{text}"
    );
    assert!(
        text.contains("2 sides ran fewer requests at once than asked (see F7)"),
        "{text}"
    );
}
