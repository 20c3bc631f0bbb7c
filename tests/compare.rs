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
         llama-3.1-8b-instruct · 1,024 in, 128 out (tokens a request) · concurrency 64 · rate unlimited\n  \
         metric             vLLM 0.29                    vLLM 0.30                    change\n  \
         Output throughput  605 tok/s (600–610, 2 runs)  610 tok/s (605–615, 2 runs)  +0.8% within noise\n\
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
    assert_eq!(
        row["values"][0],
        serde_json::json!({"n": 2, "mean": 605.0, "min": 600.0, "max": 610.0})
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
    assert!(md.stdout.contains("| metric | vLLM 0.29 | vLLM 0.30 | change |\n|---|---:|---:|---|\n| Output throughput | 605 tok/s (600–610, 2 runs) | 702.5 tok/s (700–705, 2 runs) | +16% beyond noise (better) |\n"), "{}", md.stdout);
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
            "  Output throughput  610.7 tok/s         700 tok/s           +15% untested\n  \
             TTFT p99           530.8 ms            600 ms              +13% untested\n"
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
    assert!(r.stdout.contains("+15% within ±20%"), "{}", r.stdout);
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
        r.stdout.contains("other.json measured:\n  llama-3.1-8b-instruct · 1,024 in, 128 out (tokens a request) · concurrency 8 · rate unlimited\n"),
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
    for row in [
        "0 127.1 tok/s 117.3 tok/s −8% untested",
        "4,096 87.1 tok/s 87.5 tok/s +0.5% untested",
        "8,192 73.1 tok/s 76.7 tok/s +5% untested",
        "16,384 44.3 tok/s 56 tok/s +26% untested",
        "32,768 24.2 tok/s 32.7 tok/s +35% untested",
    ] {
        assert!(text.contains(row), "{row}\n{text}");
    }
    assert!(
        text.contains("Context depth NInfer NVFP4 (baseline) vLLM 0.27.1 MTP@3 Change"),
        "{text}"
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
        text.contains("Workload vLLM 0.29 (baseline) vLLM 0.30 Change llama-3.1-8b-instruct · 1,024 in, 128 out (tokens a request) · concurrency 64 · rate unlimited 605 tok/s (600–610, 2 runs) 702.5 tok/s (700–705, 2 runs) +16% beyond noise (better)"),
        "{text}"
    );
    // The 0.30 page lists its run and what changed since 0.29, every
    // metric the two measured.
    let version =
        seen(&std::fs::read_to_string(out.path().join("engines/vllm/0.30/index.html")).unwrap());
    assert!(version.contains("Runs of vLLM 0.30"), "{version}");
    assert!(version.contains("What changed since 0.29"), "{version}");
    assert!(
        version.contains("Output throughput 605 tok/s (600–610, 2 runs) 702.5 tok/s (700–705, 2 runs) +16% beyond noise (better)"),
        "{version}"
    );
    assert!(
        version
            .contains("TTFT p99 530.8 ms (2 runs, alike) 530.8 ms (2 runs, alike) 0% within noise"),
        "{version}"
    );
    // The 0.29 page has no earlier version to compare with.
    let first =
        seen(&std::fs::read_to_string(out.path().join("engines/vllm/0.29/index.html")).unwrap());
    assert!(first.contains("Runs of vLLM 0.29"), "{first}");
    assert!(!first.contains("What changed since"), "{first}");
}
