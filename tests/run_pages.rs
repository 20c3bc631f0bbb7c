//! Run pages as a reviewer reads them: numbers rounded for reading
//! (`src/figures.rs`), the headline figures of a run made of result files,
//! each with the file it came from, and long tables folded into a sample
//! and their extremes, with every row on pages of their own. Fixture sites
//! built through the real command; assertions on the HTML a reader gets.
#![allow(missing_docs)]

mod common;
use common::Site;
use std::path::{Path, PathBuf};

fn results(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/results")
        .join(rel)
}

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

/// The text of an HTML page, tags taken out and spaces run together.
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut tag = false;
    for c in html.chars() {
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
}

/// Numbers with seven or more decimals, which no reader reads.
fn long_decimals(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'.' && i > 0 && b[i - 1].is_ascii_digit() {
            let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if n >= 7 {
                found.push(text[i.saturating_sub(4)..i + 1 + n].to_string());
            }
            i += n;
        }
        i += 1;
    }
    found
}

#[test]
fn an_imported_run_has_headline_figures_each_from_its_file() {
    let site = Site::copy_of("minimal");
    let folder = results("inferlint/vllm-run");
    let r = site.run(&[
        "import",
        "vllm-run",
        folder.to_str().unwrap(),
        "--engine",
        "vllm",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (_dir, out) = build(&site);
    let html = page(&out, "runs/vllm-run/index.html");
    let t = text(&html);
    let headline = &t[t.find("Headline figures").expect("no headline box")
        ..t.find("Checked against the findings").unwrap()];
    for want in [
        "Output throughput 421.1 tok/s from bench.json",
        "Request throughput 0.4211 req/s from bench.json",
        "Time to first token p50 2,500 ms · p99 5,001 ms from bench.json",
        "Inter-token latency p50 6 ms · p99 9.25 ms from bench.json",
        "Requests completed 4 · failed 0 from bench.json",
        "Concurrency asked 4 · most the server ran 2 from bench.json, run.series.jsonl",
        "Preemptions 3 from after.snapshot.json",
        "The server preempted 3 requests during this run",
    ] {
        assert!(
            headline.contains(want),
            "headline lacks {want:?}: {headline}"
        );
    }
    // Each figure links to the kept file it came from.
    assert!(html.contains("<a href=\"../../runs/vllm-run/raw/vllm-run/bench.json\">bench.json</a>"));
    assert!(html.contains(
        "<a href=\"../../runs/vllm-run/raw/vllm-run/after.snapshot.json\">after.snapshot.json</a>"
    ));
    // Nothing a person reads has seven decimals; the CSV keeps them all.
    assert_eq!(long_decimals(&t), Vec::<String>::new());
    let csv = page(&out, "runs/vllm-run/results.csv");
    assert!(csv.contains(",421.05263157894734,"), "{csv}");
}

#[test]
fn a_file_without_its_engine_takes_its_setups_in_the_results_table() {
    // AIPerf's export names no engine: the table's Engine and Version are
    // the setup's, as the import was told them.
    let site = Site::copy_of("minimal");
    let file = results("aiperf/schema-1.json");
    let r = site.run(&[
        "import",
        "aiperf-c8",
        file.to_str().unwrap(),
        "--engine",
        "vllm",
        "--version",
        "0.30",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (_dir, out) = build(&site);
    let csv = page(&out, "runs/aiperf-c8/results.csv");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(
        (at("tool"), at("engine"), at("version")),
        ("aiperf", "vllm", "0.30")
    );
    let t = text(&page(&out, "runs/aiperf-c8/index.html"));
    assert!(t.contains("aiperf 0.3.0 vllm 0.30"), "{t}");
}

/// A run typed by hand with a table of `n` rows (time, a fraction, a
/// count) and a line chart of it.
fn long_run(site: &Site, n: usize) {
    let mut csv = String::from("t_s,kv,running\n");
    for i in 0..n {
        csv.push_str(&format!(
            "{},{},{}\n",
            i as f64 * 0.259172704000008,
            (i % 10) as f64 / 10.0,
            i % 7
        ));
    }
    site.write("data/runs/long/series.csv", &csv);
    site.write(
        "data/runs/long/run.yaml",
        "title: A long series\ndate: 2026-08-17\nsetups:\n  - engine: vllm\n    version: \"0.30\"\n\
         tables:\n  - file: series.csv\n    title: Gauges over the run\n    columns:\n\
         \x20     t_s: {label: Time, unit: s, description: Seconds from the first sample}\n\
         \x20     kv: {label: KV cache in use, unit: fraction, description: Share of the pool}\n\
         \x20     running: {label: Running, unit: requests, description: Requests running}\n\
         charts:\n  - id: running\n    title: Running requests\n    table: series.csv\n\
         \x20   kind: line\n    x: t_s\n    y: running\n",
    );
}

#[test]
fn a_long_table_is_folded_with_every_row_a_click_away() {
    let site = Site::copy_of("minimal");
    long_run(&site, 1234);
    let (_dir, out) = build(&site);
    let html = page(&out, "runs/long/index.html");
    let t = text(&html);
    assert!(
        t.contains("1234 rows: 10 of them, evenly spaced from the first to the last, then each column's lowest and highest · all 1234 rows · series.csv"),
        "{t}"
    );
    // The sample: the first and the last row among ten, numbered; a
    // fraction in percent under a heading that says so.
    assert!(
        t.contains("Row Time (s) KV cache in use (%) Running (requests)"),
        "{t}"
    );
    assert!(html.contains("<tr><th scope=\"row\" class=\"num\">1</th><td class=\"num\">0</td><td class=\"num\">0</td><td class=\"num\">0</td></tr>"));
    assert!(html.contains("<th scope=\"row\" class=\"num\">1,234</th><td class=\"num\">319.6</td><td class=\"num\">30</td><td class=\"num\">1</td>"));
    assert!(html.contains(
        "<tr class=\"extreme\"><th scope=\"row\">Highest</th><td class=\"num\">319.6</td><td class=\"num\">90</td><td class=\"num\">6</td></tr>"
    ));
    assert_eq!(
        html.matches("<tr><th scope=\"row\" class=\"num\">").count(),
        20,
        "ten rows in the table, ten under the chart"
    );
    assert!(html.contains("<a href=\"../../runs/long/tables/series/\">all 1234 rows</a>"));
    assert_eq!(long_decimals(&t), Vec::<String>::new());
    // Every row, 500 to a page.
    let first = page(&out, "runs/long/tables/series/index.html");
    assert!(
        text(&first).contains("Every row of series.csv: rows 1 to 500 of 1234."),
        "{}",
        text(&first)
    );
    assert_eq!(first.matches("<tr><th scope=\"row\"").count(), 500);
    assert!(first.contains("<a href=\"../../../../runs/long/\">A long series</a>"));
    let last = page(&out, "runs/long/tables/series/page/3/index.html");
    assert!(text(&last).contains("rows 1001 to 1234 of 1234"));
    assert_eq!(last.matches("<tr><th scope=\"row\"").count(), 234);
    assert!(last.contains("<th scope=\"row\" class=\"num\">1,001</th>"));
    assert!(!out.join("runs/long/tables/series/page/4").exists());
    // A short table gets no pages of its own.
    assert!(!out.join("runs/cache-sweep/tables").exists());
}

#[test]
fn a_table_of_twenty_rows_is_shown_whole() {
    let site = Site::copy_of("minimal");
    long_run(&site, 20);
    let (_dir, out) = build(&site);
    let t = text(&page(&out, "runs/long/index.html"));
    assert!(t.contains("20 rows · series.csv"), "{t}");
    assert!(!t.contains("Lowest"));
    assert!(!out.join("runs/long/tables").exists());
}
