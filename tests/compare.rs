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
    // The verdict first; the fixture's files lost 2 of their 200
    // requests each, which the check flags on both sides.
    assert_eq!(
        r.stdout,
        "vLLM 0.30 against 0.29: output throughput +0.8%, within the spread of 2 repeated runs (±1.7%).\n\
         Both sides lost requests (2 of 200 each), so their figures are of the completed ones only (flagged by no-lost-requests).\n\
         \n\
         Compared: vLLM 0.29 (baseline, 2 files; flagged: lost requests), vLLM 0.30 (2 files; flagged: lost requests)\n\
         \n\
         Llama-3.1-8B-Instruct · 1,024 in, 128 out (tokens a request) · asked for 64 at once · rate unlimited\n  \
         vLLM 0.29: 2 of 200 requests lost\n  \
         vLLM 0.30: 2 of 200 requests lost\n  \
         metric             vLLM 0.29                    vLLM 0.30                    change\n  \
         Output throughput  605 tok/s (600–610, 2 runs)  610 tok/s (605–615, 2 runs)  +0.8%, within noise (±1.7%)\n"
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
        serde_json::json!({
            "better": 1, "worse": 0, "same": 0, "beyond_noise": 1, "within_noise": 0, "untested": 0,
            "words": "vLLM 0.30 against 0.29: output throughput +16% better, beyond the spread of 2 repeated runs (±1.7%).",
        })
    );
    assert_eq!(v["workloads"][0]["verdict"], v["verdict"]);
    // Markdown, for an issue.
    let md = site.run(&["compare", "v029", "v030", "--format", "markdown"]);
    assert!(md.stdout.contains("| metric | vLLM 0.29 | vLLM 0.30 | change |\n|---|---:|---:|---|\n| Output throughput | 605.0 tok/s (600.0–610.0, 2 runs) | 702.5 tok/s (700.0–705.0, 2 runs) | +16% better, beyond noise (±1.7%) |\n"), "{}", md.stdout);
    // A latency that went up is worse, one that went down better, a
    // throughput that went up better, and one that did not move the
    // same: each metric's direction as the tools define it (a time is
    // better lower, a rate higher), independent of the code's table.
    let files = tempfile::tempdir().unwrap();
    let moved = serve_file(
        files.path(),
        "moved.json",
        &[
            ("output_throughput", 700.0.into()),
            ("p99_ttft_ms", 600.0.into()),
            ("median_itl_ms", 25.0.into()),
            ("p50_itl_ms", 25.0.into()),
            ("p99_e2el_ms", 4410.25.into()),
        ],
    );
    let base = serve_file(files.path(), "base.json", &[]);
    let json = site.run(&[
        "compare",
        base.to_str().unwrap(),
        moved.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let direction = |metric: &str| -> String {
        let row = v["workloads"][0]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["metric"] == metric)
            .unwrap_or_else(|| panic!("no row of {metric}"));
        row["changes"][1]["direction"].as_str().unwrap().to_string()
    };
    // 610.7 → 700 tok/s; 530.75 → 600 ms; 30.1 → 25 ms; 4,410.25 → 4,410.25 ms.
    assert_eq!(direction("output_throughput"), "better");
    assert_eq!(direction("ttft_ms_p99"), "worse");
    assert_eq!(direction("itl_ms_p50"), "better");
    assert_eq!(direction("e2el_ms_p99"), "same");
    assert_eq!(direction("tpot_ms_p50"), "same");
    let higher: Vec<(String, bool)> = v["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["name"].as_str().unwrap().to_string(),
                m["higher_is_better"].as_bool().unwrap(),
            )
        })
        .collect();
    for (name, higher) in &higher {
        let rate = name.contains("throughput") || name == "tokens_per_s";
        assert_eq!(
            *higher, rate,
            "{name}: a rate is better higher, a time lower"
        );
    }
    assert_eq!(
        (
            v["verdict"]["better"].as_u64(),
            v["verdict"]["worse"].as_u64()
        ),
        (Some(2), Some(1)),
        "{}",
        v["verdict"]
    );
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
    assert!(r.stdout.contains("untested: single runs of each side and no bound to judge them by, so the change is not tested against noise, only its size is known"), "{}", r.stdout);
    assert!(
        r.stdout.starts_with("vLLM 0.30 (b.json) against vLLM 0.30 (a.json): both metrics untested, single runs: worse on 1 (TTFT p99 +13%), better on 1 (output throughput +15%).\n"),
        "{}",
        r.stdout
    );
    // A stated bound judges them.
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
        r.stdout.contains("+15%, within noise (±20%)"),
        "{}",
        r.stdout
    );
    // Without --noise, the noise the site states (site.yaml's rule for
    // vLLM's output throughput) judges them; the latency, which no rule
    // names, stays untested.
    let mut yaml = site.read("site.yaml");
    yaml.push_str("noise:\n  - engine: vllm\n    metric: output_throughput\n    percent: 10\n");
    site.write("site.yaml", &yaml);
    let r = site.run(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--engine",
        "vllm",
        "--metric",
        "output_throughput",
        "--metric",
        "ttft_ms_p99",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let rows = &v["workloads"][0]["rows"];
    assert_eq!(
        rows[0]["changes"][1]["words"],
        "+15% better, beyond the noise site.yaml states (±10%)"
    );
    assert_eq!(rows[1]["changes"][1]["noise"], "untested");
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
        r.stdout.contains("other.json measured:\n  Llama-3.1-8B-Instruct · 1,024 in, 128 out (tokens a request) · asked for 8 at once · rate unlimited\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .starts_with("no workload in common: nothing to compare\n"),
        "{}",
        r.stdout
    );
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
    // The record states the report's noise of a one-sample sweep, ±5–10%,
    // at its top: +0.5% and −7.7% are within it, neither better nor worse.
    for row in [
        "0 127.1 tok/s 117.3 tok/s −7.7%, within noise (±10%)",
        "4,096 87.1 tok/s 87.5 tok/s +0.5%, within noise (±10%)",
        "8,192 73.1 tok/s 76.7 tok/s +4.9%, within noise (±10%)",
        "16,384 44.3 tok/s 56.0 tok/s +26% better, beyond noise (±10%)",
        "32,768 24.2 tok/s 32.7 tok/s +35% better, beyond noise (±10%)",
    ] {
        assert!(text.contains(row), "{row}\n{text}");
    }
    // Its verdict names the sides in its title's order, NInfer first.
    assert!(
        text.contains("NInfer NVFP4 against vLLM 0.27.1 MTP@3, each change vLLM 0.27.1 MTP@3&#39;s: better on 2 of 5 workloads beyond noise (context depth 32,768 +35%, context depth 16,384 +26%); 3 within noise (context depth 0 −7.7%, …)."),
        "{text}"
    );
    assert!(
        text.contains("Context depth NInfer NVFP4 (baseline) vLLM 0.27.1 MTP@3 0 127.1"),
        "{text}"
    );
    assert!(
        page.contains("<span class=\"change change-within noise-within\"><span class=\"change-head\">−7.7%,</span>"),
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
    // The page's main, as a snapshot (`INSTA_UPDATE=always cargo test
    // --test compare`, then `git diff`).
    insta::assert_snapshot!("bundled_comparison_main", main_of(&page));
}

/// The `<main>` element of a page, as it is written.
fn main_of(html: &str) -> &str {
    let start = html.find("<main").unwrap();
    let end = html.find("</main>").unwrap() + "</main>".len();
    &html[start..end]
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
        text.contains("Workload vLLM 0.29 (baseline) flagged: lost requests vLLM 0.30 flagged: lost requests Llama-3.1-8B-Instruct · 1,024 in, 128 out (tokens a request) · asked for 64 at once · rate unlimited 605.0 tok/s (600.0–610.0, 2 runs) 702.5 tok/s (700.0–705.0, 2 runs) +16% better, beyond noise"),
        "{text}"
    );
    // The 0.30 page lists its run and what changed since 0.29, every
    // metric the two measured.
    let version =
        seen(&std::fs::read_to_string(out.path().join("engines/vllm/0.30/index.html")).unwrap());
    assert!(version.contains("Runs of vLLM 0.30"), "{version}");
    assert!(version.contains("What changed since 0.29"), "{version}");
    // Its verdict first, under the page's, over every metric both
    // measured, and said once: judged as the workload's series judges it
    // (two runs of each version: their spread is the noise).
    assert!(
        version.contains("vLLM 0.30: 1 finding affects it; 1 more is in range, untested. vLLM 0.30 against 0.29: better on 1 of 10 metrics beyond noise (output throughput +16%); the same on 9. What changed ."),
        "{version}"
    );
    assert_eq!(
        version.matches("vLLM 0.30 against 0.29:").count(),
        1,
        "{version}"
    );
    assert!(
        version.contains("What changed since 0.29 The workloads that 0.29 and 0.30 both measured, 0.29 the baseline; every run of a version counts as a measurement of it. The verdict is under the page's title. Flagged. Both sides lost requests (2 of 200 each), so their figures are of the completed ones only (flagged by no-lost-requests)."),
        "{version}"
    );
    assert!(
        version.contains("Output throughput 605.0 tok/s (600.0–610.0, 2 runs) 702.5 tok/s (700.0–705.0, 2 runs) +16% better, beyond noise (±1.7%)"),
        "{version}"
    );
    assert!(
        version.contains("TTFT p99 530.8 ms (2 runs, alike) 530.8 ms (2 runs, alike) 0% the same"),
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
        home.contains("Runs compared vLLM 0.29 against 0.30 vLLM 0.29 against 0.30, each change vLLM 0.30&#39;s: output throughput +16% better, beyond the spread of 2 repeated runs (±1.7%). Both sides lost requests (2 of 200 each), so their figures are of the completed ones only (flagged by no-lost-requests). The index of comparisons"),
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
            .contains("\nb.json measured:\n  Llama-3.1-8B-Instruct · 1,024 in, 111 out (tokens a request) · asked for 64 at once · rate unlimited\n"),
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
             Llama-3.1-8B-Instruct · 1,024 in, 128 out (tokens a request) · asked for 64 at once · rate unlimited\n  \
             a.json: 2 of 200 requests lost\n  \
             b.json: 2 of 200 requests lost\n  \
             b.json: measured Llama-3.1-8B-Instruct · 1,024 in, 111 out (tokens a request) · asked for 64 at once · rate unlimited, taken as this workload (--same-workload)\n  \
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
        r.stdout.contains("\nLlama-3.1-8B-Instruct · asked 1,024 in, 128 out; measured 1,024 in, 128 out (tokens a request) · asked for 64 at once · rate unlimited\n"),
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
            "Qwen3-8B · 88 in, 1,000 out (tokens a request) · asked for 4 at once · rate unlimited\n  \
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
    // The verdict first, then the flags; the pools held every request
    // asked for (4 × 1,088 tokens against 32,336: 29 whole requests), so
    // the numbers do not explain why fewer ran: what is known is said,
    // and that the pools do not explain the cap.
    assert!(
        r.stdout.starts_with(
            "vLLM 0.30.0 (start-2) against vLLM 0.30.0 (start-1): output throughput −29% worse, single runs: not tested against noise.\n\
             Both sides ran fewer requests at once than asked (flagged by concurrency-achieved).\n\
             Servers, vLLM 0.30.0 (start-2) against vLLM 0.30.0 (start-1): KV cache the same (32,336 tokens); at most 2 requests at once on each; 3 preemptions on each.\n\
             Fewer ran than asked: 4 requests of 88 + 1,000 tokens ask for 4,352 tokens of KV cache; the pools held 32,336 (vLLM 0.30.0 (start-1)) and 32,336 (vLLM 0.30.0 (start-2)), about 29 and 29 whole requests; the servers ran at most 2 and 2: the pools do not explain the cap; the servers counted 3 and 3 preemptions.\n\
             \n\
             Compared: vLLM 0.30.0 (start-1) (baseline, 1 file; flagged: ran fewer), vLLM 0.30.0 (start-2) (1 file; flagged: ran fewer)\n"
        ),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("Why fewer ran"), "{}", r.stdout);
    // Where no records are at hand, no finding is named.
    let nowhere = tempfile::tempdir().unwrap();
    let r = common::run_in(nowhere.path(), &["compare", a, b]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("ran fewer: "), "{}", r.stdout);
    assert!(!r.stdout.contains("F7"), "{}", r.stdout);
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
        text.contains("Two starts of vLLM 0.30 vLLM 0.30.0 (2) against vLLM 0.30.0 (1): 1 of 2 metrics untested, single runs: worse on 1 (output throughput −29%); the same on 1. Flagged. Both sides ran fewer requests at once than asked (flagged by concurrency-achieved). Their values are marked “ran ≤N of M”: figures of fewer requests at once than the workload’s heading says. See F7 : The cache size changed between starts."),
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
    // The verdict is the first paragraph of the page's main text.
    let first = page.find("<p class=\"compare-verdict\">").unwrap();
    assert!(
        first < page.find("<table").unwrap() && first < page.find("ran-fewer-note").unwrap(),
        "{page}"
    );
}

/// The shared recorded runs (`recorded-runs/` of the folder
/// `FINDINGS_SHARED` names, else of `../shared` beside the checkout, as
/// `.ci/run` has it). Other projects' data, read where it is and never
/// copied into the repository; without it these tests fail, they do not
/// pass by skipping.
fn recorded(run: &str) -> String {
    let shared = std::env::var_os("FINDINGS_SHARED").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        PathBuf::from,
    );
    let runs = shared.join("recorded-runs");
    assert!(
        runs.join("INDEX.md").is_file(),
        "the shared recorded runs are not in {}: set FINDINGS_SHARED to the shared folder (these tests read vllm-0.29/live and vllm-0.30/live)",
        runs.display()
    );
    runs.join(run).display().to_string()
}

/// A copy of the bundled site (its records, templates and static files)
/// with the recorded runs of vLLM 0.29 and 0.30 imported as live29 and
/// live30, and, with `compared`, set side by side in site.yaml as
/// `c-live`, with no title.
fn bundled_with_live_runs(compared: bool) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let from = common::bundled();
    for part in ["findings", "data", "site.yaml", "templates", "static"] {
        for e in walkdir::WalkDir::new(from.join(part)) {
            let e = e.unwrap();
            let to = root.path().join(e.path().strip_prefix(&from).unwrap());
            if e.file_type().is_dir() {
                std::fs::create_dir_all(&to).unwrap();
            } else {
                std::fs::copy(e.path(), &to).unwrap();
            }
        }
    }
    for (id, run, version) in [
        ("live29", "vllm-0.29/live", "0.29.0"),
        ("live30", "vllm-0.30/live", "0.30.0"),
    ] {
        let r = common::run_in(
            root.path(),
            &[
                "import",
                id,
                &recorded(run),
                "--engine",
                "vllm",
                "--version",
                version,
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    if compared {
        let yaml = root.path().join("site.yaml");
        let mut text = std::fs::read_to_string(&yaml).unwrap();
        text.push_str("compare:\n  - id: c-live\n    runs: [live29, live30]\n");
        std::fs::write(&yaml, text).unwrap();
    }
    root
}

/// What the recorded runs show, worked out by hand from their files:
/// `bench.json` (output throughput 341.41 → 316.03 tok/s, request
/// throughput 0.3414 → 0.3160 req/s: both worse; TTFT p50 28,406.2 →
/// 28,409.5 ms: +0.01%, the same; TTFT p99 72,663.8 → 68,574.3 ms: better;
/// ITL p50 22.77 → 25.42, ITL p99 25.55 → 31.69, TPOT p50 23.75 → 26.60,
/// TPOT p99 31.31 → 35.72 ms: all worse), the boot logs (KV cache pools of
/// 26,093 and 29,127 tokens) and the metrics (at most 10 and 11 running,
/// 21 and 22 preemptions); 32 requests of 2,816 / 32 = 88 tokens in and
/// 32,000 / 32 = 1,000 out.
const LIVE_VERDICT: &str = "vLLM 0.30.0 against 0.29.0: 7 of 8 metrics untested, single runs: worse on 6 (ITL p99 +24%, output throughput −7.4%, …), better on 1 (TTFT p99 −5.6%); the same on 1.";
const LIVE_SERVERS: &str = "Servers, vLLM 0.30.0 against 0.29.0: KV cache +12% (29,127 tokens against 26,093); at most 11 requests at once against 10; 22 preemptions against 21.";
/// The pools of the live runs held 23 and 26 whole requests of 1,088
/// tokens, more than the 10 and 11 their servers ran: they do not
/// explain the cap, and the comparison says so rather than "why".
const LIVE_WHY: &str = "Fewer ran than asked: 32 requests of 88 + 1,000 tokens ask for 34,816 tokens of KV cache; the pools held 26,093 (vLLM 0.29.0) and 29,127 (vLLM 0.30.0), about 23 and 26 whole requests; the servers ran at most 10 and 11: the pools do not explain the cap; the servers counted 21 and 22 preemptions.";

#[test]
fn the_recorded_vllm_runs_lead_with_their_verdict_and_cite_no_other_engines_finding() {
    let root = bundled_with_live_runs(false);
    let run = |args: &[&str]| {
        let r = common::run_in(
            root.path(),
            &[&["compare", "live29", "live30"][..], args].concat(),
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let text = run(&[]);
    assert!(
        text.starts_with(&format!(
            "{LIVE_VERDICT}\n\
             Both sides ran fewer requests at once than asked (flagged by concurrency-achieved).\n\
             {LIVE_SERVERS}\n\
             {LIVE_WHY}\n\
             \n\
             Compared: vLLM 0.29.0 (baseline, 1 file; flagged: ran fewer), vLLM 0.30.0 (1 file; flagged: ran fewer)\n"
        )),
        "{text}"
    );
    let markdown = run(&["--format", "markdown"]);
    assert!(
        markdown.starts_with(&format!("### findings compare\n\n**{LIVE_VERDICT}**\n\n")),
        "{markdown}"
    );
    assert!(
        markdown.contains(&format!("\n\n{LIVE_WHY}\n\n")),
        "{markdown}"
    );
    let v: serde_json::Value = serde_json::from_str(&run(&["--format", "json"])).unwrap();
    let verdict = serde_json::json!({
        "better": 1, "worse": 6, "same": 1, "beyond_noise": 0, "within_noise": 0, "untested": 8,
        "words": LIVE_VERDICT,
    });
    assert_eq!(v["verdict"], verdict);
    assert_eq!(v["workloads"][0]["verdict"], verdict);
    assert_eq!(v["servers"], LIVE_SERVERS);
    assert_eq!(v["shortfall"][0]["kv_cache_needed"], 34_816.0);
    assert_eq!(
        v["shortfall"][0]["tokens_a_request"],
        serde_json::json!([88.0, 1000.0])
    );
    for (s, kv, preempted) in [(0, 26_093.0, 21.0), (1, 29_127.0, 22.0)] {
        let side = &v["shortfall"][0]["sides"][s];
        assert_eq!(side["kv_cache_tokens"]["max"], kv);
        assert_eq!(side["preemptions"]["max"], preempted);
        assert_eq!(v["sides"][s]["flags"][0]["check"], "concurrency-achieved");
    }
    // F5 (SGLang's) and F9 (TensorRT-LLM's) carry the check, but neither
    // is about vLLM: nothing is offered as the reason but the runs' own
    // numbers.
    assert_eq!(v["ran_fewer"]["sides"], serde_json::json!([0, 1]));
    assert_eq!(v["ran_fewer"]["findings"], serde_json::json!([]));
    for out in [&text, &markdown] {
        for f in ["F5", "F9", "SGLang ran", "TensorRT-LLM counted"] {
            assert!(!out.contains(f), "{f} cited for two vLLM sides:\n{out}");
        }
    }
    // The same from a published site's findings (--from).
    let out = tempfile::tempdir().unwrap();
    let built = common::run_in(
        root.path(),
        &["build", "--output", out.path().to_str().unwrap()],
    );
    assert_eq!(built.code, 0, "{}", built.stderr);
    let from = run(&["--from", out.path().to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&from).unwrap();
    assert_eq!(v["ran_fewer"]["findings"], serde_json::json!([]));
    assert_eq!(v["verdict"]["worse"], 6);
}

#[test]
fn the_recorded_runs_compared_on_the_site_say_it_first() {
    let root = bundled_with_live_runs(true);
    // A run's comparison may leave its title out too.
    let c1 = root
        .path()
        .join("data/runs/c1-depth-ninfer-vs-vllm/run.yaml");
    let yaml = std::fs::read_to_string(&c1).unwrap();
    let titled =
        "    title: NInfer NVFP4 against vLLM 0.27.1 MTP@3 at concurrency 1, by context depth\n";
    assert!(yaml.contains(titled));
    std::fs::write(&c1, yaml.replace(titled, "")).unwrap();
    let out = build(root.path());
    let c1 = seen(
        &std::fs::read_to_string(
            out.path()
                .join("compare/c1-depth-nvfp4-vs-vllm-mtp3/index.html"),
        )
        .unwrap(),
    );
    assert!(
        c1.starts_with("Comparisons vLLM 0.27.1 MTP@3 against NInfer NVFP4 Comparison vLLM 0.27.1 MTP@3 against NInfer NVFP4 The report's own comparison"),
        "{c1}"
    );
    let page = std::fs::read_to_string(out.path().join("compare/c-live/index.html")).unwrap();
    let text = seen(&page);
    // Titled by its sides as its verdict names them, the record giving
    // none; the verdict, the flags, the servers and why fewer ran before
    // the first table.
    assert!(
        text.starts_with(&format!(
            "Comparisons vLLM 0.30.0 against 0.29.0 Comparison vLLM 0.30.0 against 0.29.0 {LIVE_VERDICT} \
             Flagged. Both sides ran fewer requests at once than asked (flagged by concurrency-achieved). \
             Their values are marked “ran ≤N of M”: figures of fewer requests at once than the workload’s heading says. \
             {LIVE_SERVERS} {LIVE_WHY} Qwen3.8-27B-W4A16-AutoRound"
        )),
        "{text}"
    );
    assert!(
        page.contains(&format!("<p class=\"compare-verdict\">{LIVE_VERDICT}</p>")),
        "{page}"
    );
    insta::assert_snapshot!("recorded_runs_comparison_main", main_of(&page));
    assert!(
        page.contains("<title>vLLM 0.30.0 against 0.29.0 · "),
        "{page}"
    );
    for f in [
        "F5",
        "F9",
        "/f/5/",
        "/f/9/",
        "sglang-hybrid",
        "running-gauge",
    ] {
        assert!(!page.contains(f), "the comparison cites {f}");
    }
    // The 0.30 page: the same verdict under its own, said once, and
    // "What changed since 0.29" through the same view, citing neither.
    let version = std::fs::read_to_string(out.path().join("engines/vllm/0.30/index.html")).unwrap();
    let words = LIVE_VERDICT.replace("0.30.0 against 0.29.0", "0.30 against 0.29");
    assert!(
        version.contains(&format!("<p class=\"version-trend compare-verdict\">{words} <a href=\"#changed-heading\">What changed</a>.</p>")),
        "{version}"
    );
    assert_eq!(version.matches(words.as_str()).count(), 1, "{version}");
    // Its own verdict first: of the four findings that affect it, F8 is
    // the one live30 showed, counted so and listed first (issue 43).
    assert!(
        version.contains("<p class=\"version-verdict has-affected\">vLLM 0.30: 4 findings affect it, 1 of them shown by this site&#39;s runs; 3 more are in range, untested.</p>"),
        "{version}"
    );
    let section = &version[version.find("id=\"sec-affected\"").unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    let ids: Vec<&str> = section
        .match_indices("<article class=\"card card-compact")
        .map(|(i, _)| {
            let rest = &section[i..];
            let rest = &rest[rest.find("data-id=\"").unwrap() + 9..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(ids, ["8", "2", "6", "7"], "F8, shown by live30, first");
    let changed = &version[version.find("id=\"changed-heading\"").unwrap()..];
    let changed = &changed[..changed.find("</section>").unwrap()];
    assert!(
        changed.contains("<span class=\"change-head\">−7.4% worse,</span> <span class=\"change-noise\" title=\"−7.4% worse, single runs: not tested against noise\">untested</span>"),
        "{changed}"
    );
    for f in ["F5", "F9", "/f/5/", "/f/9/"] {
        assert!(!changed.contains(f), "what changed cites {f}");
    }
    // The lists: the verdict and the flags in a line.
    let index = seen(&std::fs::read_to_string(out.path().join("compare/index.html")).unwrap());
    assert!(
        index.contains(&format!("vLLM 0.30.0 against 0.29.0 {LIVE_VERDICT} Both sides ran fewer requests at once than asked (flagged by concurrency-achieved).")),
        "{index}"
    );
    let home = seen(&std::fs::read_to_string(out.path().join("index.html")).unwrap());
    assert!(home.contains(LIVE_VERDICT), "{home}");
    assert!(
        !home.contains("0 changes beyond noise, 0 within noise"),
        "{home}"
    );
}

#[test]
fn a_side_whose_run_lost_requests_is_flagged() {
    // vllm-0.30/capped: 16 of its 32 requests failed.
    let root = bundled_with_live_runs(false);
    let capped = recorded("vllm-0.30/capped");
    let r = common::run_in(root.path(), &["compare", "live29", &capped]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "\nBoth sides ran fewer requests at once than asked (flagged by concurrency-achieved). \
             vLLM 0.30.0 lost requests (16 of 32), so its figures are of the completed ones only (flagged by no-lost-requests).\n"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("vLLM 0.30.0 (capped) (1 file; flagged: ran fewer, lost requests)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("  vLLM 0.30.0 (capped): ran at most 11 requests at once of the 32 asked; 11 preemptions; KV cache 29,127 tokens; 16 of 32 requests lost\n"),
        "{}",
        r.stdout
    );
    let json = common::run_in(
        root.path(),
        &["compare", "live29", &capped, "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let checks: Vec<&str> = v["sides"][1]["flags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["check"].as_str().unwrap())
        .collect();
    assert_eq!(checks, vec!["concurrency-achieved", "no-lost-requests"]);
    assert_eq!(
        v["workloads"][0]["context"][1]["lost"],
        serde_json::json!({"min": 16.0, "max": 16.0})
    );
    assert_eq!(v["sides"][0]["flags"].as_array().unwrap().len(), 1);
}
