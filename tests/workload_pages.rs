//! Workload pages (issue 39) on a fixture site of four llama-bench runs
//! of one model on llama.cpp builds 998, 1002, 1105 and 10040
//! (`tests/fixtures/trends/`, figures made up, and the 3% of run-to-run
//! noise its site.yaml states for llama.cpp): the page of one workload
//! and its chart as snapshots, the points in version order (10040 after
//! 1105, as numbers), the regression that no finding cites with the
//! command that starts one, and the pages that link the workloads: the
//! index, the engine's, the later version's and the home page. Built
//! through the real command; assertions on the HTML a reader gets.
#![allow(missing_docs)]

mod common;
use common::Site;
use std::path::{Path, PathBuf};

const TG: &str = "workloads/llama-8b-q4-k-medium-tg128/index.html";

fn build(site: &Site) -> (tempfile::TempDir, PathBuf) {
    let out = tempfile::tempdir().unwrap();
    let o = out.path().join("site");
    let r = site.run(&["build", "--output", o.to_str().unwrap()]);
    assert_eq!(r.code, 0, "build failed: {}", r.stderr);
    (out, o)
}

fn page(out: &Path, rel: &str) -> String {
    std::fs::read_to_string(out.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The `<main>` of a page: what its template writes, without the header
/// and footer every page shares.
fn main_of(html: &str) -> &str {
    let i = html.find("<main").unwrap();
    &html[i..html.find("</main>").unwrap() + 7]
}

/// The chart of the page's first metric: its `<svg>`, the plot inside it
/// included.
fn chart_of(html: &str) -> &str {
    let i = html.find("<svg").unwrap();
    let start = html.find("<div class=\"chart-svg\">").unwrap();
    assert!(start < i);
    let end = i + html[i..].find("</svg>\n</div>").unwrap() + 6;
    &html[i..end]
}

#[test]
fn workload_page_and_chart_snapshots() {
    let site = Site::copy_of("trends");
    let (_dir, out) = build(&site);
    let html = page(&out, TG);
    insta::assert_snapshot!("workload_page", main_of(&html));
    insta::assert_snapshot!("workload_chart", chart_of(&html));
}

#[test]
fn a_workload_page_reads_in_version_order_with_its_regression() {
    let site = Site::copy_of("trends");
    let (_dir, out) = build(&site);
    let html = page(&out, TG);
    // The table: every build in version order, each with its run, value
    // and ±.
    let mut at = 0;
    for (b, v, sd) in [
        ("998", "21.40", "0.05"),
        ("1002", "21.46", "0.08"),
        ("1105", "20.12", "0.06"),
        ("10040", "22.85", "0.11"),
    ] {
        let row = format!(
            "<tr><th scope=\"row\"><a href=\"../../engines/llama-cpp/{b}/\">{b}</a><br><span class=\"small\">run <a class=\"run-id\" href=\"../../runs/llama-b{b}/\">llama-b{b}</a></span></th><td class=\"num\">{v} tok/s<br><span class=\"muted small\">±{sd}</span></td>"
        );
        let i = html[at..]
            .find(&row)
            .unwrap_or_else(|| panic!("{b} after the one before: {row}"));
        at += i + row.len();
    }
    // Judged by the noise site.yaml states, widened by the two builds' ±:
    // one change, one verdict, the same words wherever it is said.
    assert!(html.contains(
        "<span class=\"trend-change change-regression\">−6.2% worse, beyond noise (±3.7%)</span>"
    ));
    assert!(html
        .contains("<span class=\"trend-change change-within\">+0.3%, within noise (±3.6%)</span>"));
    // workloads.json marks the point the regression ends at, for a chart.
    let json: serde_json::Value = serde_json::from_str(&page(&out, "workloads.json")).unwrap();
    let tg = json["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["id"] == "llama-8b-q4-k-medium-tg128")
        .unwrap();
    let marks: Vec<(&str, &serde_json::Value)> = tg["metrics"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["version"].as_str().unwrap(), &p["change"]))
        .collect();
    assert_eq!(
        marks,
        [
            ("998", &serde_json::Value::Null),
            ("1002", &serde_json::json!("within noise")),
            ("1105", &serde_json::json!("regression")),
            ("10040", &serde_json::json!("improvement")),
        ]
    );
    let change = &tg["metrics"][0]["changes"][1];
    assert_eq!(
        (&change["noise_from"], &change["words"]),
        (
            &serde_json::json!("site"),
            &serde_json::json!("−6.2% worse, beyond noise (±3.7%)")
        )
    );
    assert!(html.contains("No finding cites it; start one with <code class=\"command\">findings new &quot;Tokens a second −6.2% on llama.cpp 1105 against 1002 (llama 8B Q4_K - Medium · tg128)&quot; --group hidden-speed --engine llama-cpp --version 1105</code>"));
    // The chart's points in the same order, left to right, each linked
    // to its run.
    let svg = chart_of(&html);
    let links: Vec<&str> = svg
        .match_indices("href=\"../../runs/")
        .map(|(i, m)| {
            let rest = &svg[i + m.len()..];
            &rest[..rest.find('/').unwrap()]
        })
        .collect();
    assert_eq!(
        links,
        ["llama-b998", "llama-b1002", "llama-b1105", "llama-b10040"]
    );
    // pp512 is a workload of its own, with its own page.
    let pp = page(&out, "workloads/llama-8b-q4-k-medium-pp512/index.html");
    assert!(pp.contains("<h1>llama 8B Q4_K - Medium · pp512</h1>"));
    assert!(!pp.contains("tg128</h1>"));

    // The pages that link it.
    let index = page(&out, "workloads/index.html");
    assert!(index.contains("href=\"../workloads/llama-8b-q4-k-medium-tg128/\""));
    let engine = page(&out, "engines/llama-cpp/index.html");
    assert!(engine.contains("href=\"../../workloads/llama-8b-q4-k-medium-tg128/\""));
    let later = page(&out, "engines/llama-cpp/1105/index.html");
    // Its verdict under its own, said once: the change of tg128 is not
    // listed a second time below.
    assert!(
        later.contains("<p class=\"version-trend compare-verdict\">llama.cpp 1105 against 1002: worse on 1 of 2 workloads beyond noise (tg128 −6.2%); 1 within noise (pp512 +3.1%). <a href=\"#changed-heading\">What changed</a>.</p>"),
        "{}",
        main_of(&later)
    );
    assert_eq!(
        later.matches("−6.2% worse, beyond noise (±3.7%)").count(),
        1,
        "the regression's line; the table's cell says it in two parts"
    );
    assert!(later
        .contains("<span class=\"change-head\">−6.2% worse,</span> <span class=\"change-noise\""));
    assert!(!later.contains("trend-heading"), "{}", main_of(&later));
    let home = page(&out, "index.html");
    assert!(
        home.contains("<section class=\"latest\""),
        "{}",
        main_of(&home)
    );
    assert!(
        home.contains("workloads/llama-8b-q4-k-medium-tg128/"),
        "{}",
        main_of(&home)
    );
}

/// The fixture's `noise` rule is what `schemas/site.schema.json` allows,
/// and a rule of both kinds, or of neither, is not.
#[test]
fn the_site_schema_holds_the_noise_rules() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/site.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let site = Site::copy_of("trends");
    let yaml: serde_json::Value = serde_yaml::from_str(&site.read("site.yaml")).unwrap();
    assert!(v.is_valid(&yaml), "{yaml}");
    for (rule, ok) in [
        (
            "{engine: llama-cpp, workload: tg128, metric: tokens_per_s, z: 2.5, window: 8}",
            true,
        ),
        ("{percent: 5, z: 3}", false),
        ("{engine: llama-cpp}", false),
        ("{percent: 0}", false),
        ("{metric: throughput, percent: 5}", false),
    ] {
        let mut y = yaml.clone();
        y["noise"] = serde_yaml::from_str(&format!("[{rule}]")).unwrap();
        assert_eq!(v.is_valid(&y), ok, "{rule}");
    }
}

#[test]
fn a_workload_of_many_points_folds_its_table_into_one_row_a_version() {
    // 45 more runs of build 1002, each a point of the same workload: 49
    // points in all, past the 40 a table lists one by one. The table
    // keeps the first point of each version, with its change, and says
    // how many more each stands for; the CSV lists them all.
    let site = Site::copy_of("trends");
    let from = site.path("data/runs/llama-b1002");
    for n in 1..=45 {
        let to = site.path(&format!("data/runs/llama-b1002-r{n}"));
        for e in walkdir::WalkDir::new(&from) {
            let e = e.unwrap();
            let target = to.join(e.path().strip_prefix(&from).unwrap());
            if e.file_type().is_dir() {
                std::fs::create_dir_all(&target).unwrap();
            } else {
                std::fs::copy(e.path(), &target).unwrap();
            }
        }
    }
    let (_dir, out) = build(&site);
    let html = page(&out, TG);
    let t = main_of(&html);
    let table = &t[t.find("<table class=\"data workload-points\">").unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    let rows = table.matches("<tr").count() - 1;
    assert_eq!(rows, 4, "one row a version: {table}");
    assert!(
        table.contains("run <a class=\"run-id\" href=\"../../runs/llama-b1002/\">llama-b1002</a> and 45 more</span>"),
        "{table}"
    );
    assert!(
        t.contains("49 points: the table shows the first of each version, with its change, and every point a check flags; the others are counted beside their version's first, and listed in the CSV"),
        "{t}"
    );
    let csv = page(
        &out,
        "workloads/llama-8b-q4-k-medium-tg128/llama-8b-q4-k-medium-tg128.csv",
    );
    assert_eq!(csv.matches("llama-b1002").count(), 46, "{csv}");
}

/// A `vllm bench serve --save-result` file of one run, as
/// `bench/trends.py` writes them: 32 requests at once, 1,024 tokens in and
/// 128 out, figures from `seed` (the same bytes on every run).
fn bench_json(model: &str, seed: u64) -> String {
    // A small linear congruential generator: a value in [0, 1) per call.
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let (conc, prompts, n_in, n_out) = (32.0, 128.0, 1024.0, 128.0);
    let tput = (800.0 + 400.0 * next()) * f64::sqrt(conc);
    let duration = prompts * n_out / tput;
    let (ttft, tpot) = (40.0 + 360.0 * next(), 8.0 + 32.0 * next());
    serde_json::json!({
        "date": "20260115-101530", "endpoint_type": "openai", "backend": "openai",
        "label": null, "model_id": model, "tokenizer_id": model, "num_prompts": prompts,
        "request_rate": "inf", "burstiness": 1.0, "max_concurrency": conc,
        "duration": duration, "completed": prompts, "failed": 0,
        "total_input_tokens": prompts * n_in, "total_output_tokens": prompts * n_out,
        "request_throughput": prompts / duration, "request_goodput": null,
        "output_throughput": tput, "total_token_throughput": tput * (n_in + n_out) / n_out,
        "max_output_tokens_per_s": tput * 1.2, "max_concurrent_requests": conc,
        "mean_ttft_ms": ttft, "median_ttft_ms": ttft, "std_ttft_ms": ttft / 10.0,
        "p99_ttft_ms": ttft * 1.5, "mean_tpot_ms": tpot, "median_tpot_ms": tpot,
        "std_tpot_ms": tpot / 10.0, "p99_tpot_ms": tpot * 1.3, "mean_itl_ms": tpot,
        "median_itl_ms": tpot, "std_itl_ms": tpot / 10.0, "p99_itl_ms": tpot * 2.0,
        "random_input_len": n_in, "random_output_len": n_out,
    })
    .to_string()
}

#[test]
fn a_workload_of_200_points_stays_within_the_html_budget() {
    // Issue 15's budget for any HTML file, 512 KiB, on a workload of 200
    // runs of one vLLM setup over 80 versions (two or three runs a
    // version), as `bench/trends.py`'s site has them: a page of six
    // charts of 200 linked points each, and their tables.
    let site = Site::copy_of("minimal");
    for n in 0..200u64 {
        let id = format!("bench-{n:05}");
        let version = format!("0.{}.{}", 40 + n % 80 / 10, n % 10);
        site.write(
            &format!("data/runs/{id}/run.yaml"),
            &format!(
                "title: \"Sweep for {id}\"\ndate: 2026-01-{:02}\nsetups:\n  - engine: vllm\n    version: \"{version}\"\nmodel: \"mixtral-8x7b\"\nhardware: \"A100\"\nresults:\n  - path: raw/bench.json\ntables:\n  - derive: results\n    title: Results\n",
                1 + n % 28
            ),
        );
        site.write(
            &format!("data/runs/{id}/raw/bench.json"),
            &bench_json("mixtral-8x7b", n),
        );
    }
    let (_dir, out) = build(&site);
    let mut pages: Vec<(u64, String)> = std::fs::read_dir(out.join("workloads"))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path().join("index.html");
            let len = std::fs::metadata(&p).ok()?.len();
            Some((len, p.display().to_string()))
        })
        .collect();
    pages.sort();
    let (largest, at) = pages.last().expect("a workload page");
    let html = std::fs::read_to_string(at).unwrap();
    // It is the page of the 200 points, with their six charts.
    assert_eq!(html.matches("<svg xmlns").count(), 6, "{at}");
    assert!(html.matches("href=\"../../runs/bench-").count() >= 6 * 200);
    // Each point still links to its run and says its version, value and
    // run.
    assert!(html.contains("href=\"../../runs/bench-00123/\""), "{at}");
    assert!(
        html.contains("<title>vLLM 0.44.3: 5,091 tok/s, run bench-00123</title>"),
        "{at}"
    );
    assert!(*largest < 512 * 1024, "{at}: {largest} bytes, over 512 KiB");
}
