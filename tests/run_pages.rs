//! Run pages as a reviewer reads them: numbers rounded for reading
//! (`src/figures.rs`), the headline figures of a run made of result files,
//! each with the file it came from and the flag of a check that flags it,
//! the checks flags first, the client's and the server's throughput
//! squared in a sentence, the hardware (or how to give it), the model
//! named without its local path, a table of one row as a list of fields,
//! and long tables folded into a sample and their extremes, with every row
//! on pages of their own; and the runs index, each run with its figure,
//! flags and the findings it shows or that cite it. Fixture sites built
//! through the real command; assertions on the HTML a reader gets.
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
        .replace(" )", ")")
        .replace("( ", "(")
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
    // The server ran at most 2 of the 4 requests asked for at once: the
    // flag is said once, above the figures, naming the figures it is
    // for; the requests and the preemptions are not among them. Each
    // figure that a client and a server count apart names whose count
    // it is; the preemptions are counted as preemptions.
    for want in [
        "Flagged: ran ≤ 2 of 4, said once for output throughput, request throughput, time to first token, inter-token latency and concurrency (the figures marked).",
        "Output throughput client 421.1 tok/s · server's counter 390.2 tok/s from bench.json, after.snapshot.json",
        "Request throughput 0.4211 req/s from bench.json",
        "Time to first token p50 2,500 ms · p99 5,001 ms from bench.json",
        "Inter-token latency p50 6 ms · p99 9.25 ms from bench.json",
        "Requests completed 4 · failed 0 from bench.json",
        "Concurrency asked 4 · the client's peak 4 · most the server ran 2 from bench.json, run.series.jsonl",
        "Preemptions 3 from after.snapshot.json",
        "The server counted 3 preemptions during this run (one request can be preempted more than once)",
    ] {
        assert!(
            headline.contains(want),
            "headline lacks {want:?}: {headline}"
        );
    }
    assert_eq!(headline.matches("ran ≤ 2 of 4").count(), 1, "{headline}");
    assert!(!headline.contains("preempted 3 requests"), "{headline}");
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

/// The fixture site with inferlint's vLLM run imported as `vllm-run`: it
/// asked for 4 requests at once and the server ran at most 2, so
/// `concurrency-achieved` flags it; the files name no hardware. Hands back
/// the import's stderr.
fn import_vllm_run(site: &Site, more: &[&str]) -> String {
    let folder = results("inferlint/vllm-run");
    let mut args = vec![
        "import",
        "vllm-run",
        folder.to_str().unwrap(),
        "--engine",
        "vllm",
    ];
    args.extend_from_slice(more);
    let r = site.run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stderr
}

/// The text of the part of `html` from `start` to `end` (both texts).
fn between<'t>(t: &'t str, start: &str, end: &str) -> &'t str {
    let i = t
        .find(start)
        .unwrap_or_else(|| panic!("no {start:?} in {t}"));
    let j = t[i..].find(end).map_or(t.len(), |j| i + j);
    &t[i..j]
}

#[test]
fn a_flagged_figure_carries_its_flag_and_the_flags_come_before_the_passes() {
    let site = Site::copy_of("minimal");
    import_vllm_run(&site, &[]);
    let (_dir, out) = build(&site);
    let html = page(&out, "runs/vllm-run/index.html");
    let t = text(&html);
    // The flag links the check that says why, once, above the figures;
    // no separator stands before it, and the figures it is for are
    // marked.
    assert!(
        html.contains("<p class=\"figures-flags\">Flagged: <a class=\"figure-flag\" href=\"#check-concurrency-achieved\">ran ≤ 2 of 4</a>, said once for"),
        "{html}"
    );
    assert_eq!(html.matches("ran ≤ 2 of 4</a>").count(), 1, "{html}");
    assert!(!html.contains("</span><a class=\"figure-flag\""), "{html}");
    assert!(html.contains("<div class=\"figure figure-flagged\"><dt>Output throughput</dt>"));
    assert!(html.contains("<div class=\"figure\"><dt>Requests</dt>"));
    assert!(html.contains("<li class=\"check check-flagged\" id=\"check-concurrency-achieved\">"));
    // The checks follow the figures, before the charts: the flag first,
    // then the passes, whatever the registry's order (which puts
    // preemptions-read first).
    let headline = t.find("Headline figures").unwrap();
    let checks = t.find("Checked against the findings").unwrap();
    let charts = t.find("Charts Time to first token").unwrap();
    assert!(headline < checks && checks < charts, "{t}");
    let box_ = between(&t, "Checked against the findings", "Charts");
    let verdicts: Vec<&str> = box_
        .split_whitespace()
        .filter(|w| ["flagged", "passed", "cannot", "acknowledged"].contains(w))
        .collect();
    assert_eq!(verdicts, ["flagged", "passed", "passed"], "{box_}");
    assert!(box_.starts_with(
        "Checked against the findings flagged concurrency-achieved: vLLM 0.30.0: asked for 4 requests at once"
    ), "{box_}");

    // A check the run breaks on purpose is acknowledged, not flagged: the
    // figures carry no flag.
    let yaml = site.read("data/runs/vllm-run/run.yaml");
    site.write(
        "data/runs/vllm-run/run.yaml",
        &format!("{yaml}acknowledged:\n  - check: concurrency-achieved\n    reason: it is the evidence of the gauge\n"),
    );
    let (_dir, out) = build(&site);
    let t = text(&page(&out, "runs/vllm-run/index.html"));
    assert!(
        t.contains(
            "Output throughput client 421.1 tok/s · server's counter 390.2 tok/s from bench.json"
        ),
        "{t}"
    );
    assert!(!t.contains("ran ≤"), "{t}");
    assert!(!t.contains("Flagged:"), "{t}");
}

#[test]
fn the_clients_and_the_servers_throughput_are_squared_in_one_sentence() {
    let site = Site::copy_of("minimal");
    import_vllm_run(&site, &[]);
    let (_dir, out) = build(&site);
    let html = page(&out, "runs/vllm-run/index.html");
    let t = text(&html);
    // bench.json: 4,000 output tokens over its duration, 9.5 s; the
    // snapshots: vllm:generation_tokens_total 144 before, 4,144 after,
    // their monotonic clocks 181 s and 191.25 s.
    let said = "The client's 421.1 tok/s and the server counter's 390.2 tok/s are the same 4,000 output tokens over two windows: the 9.5 s the client timed (bench.json) and the 10.25 s between the server's snapshots before and after the run (after.snapshot.json).";
    assert!(t.contains(said), "{t}");
    // Near the figures: in the headline's box, before the checks.
    assert!(between(&t, "Headline figures", "Checked against the findings").contains(said));
    assert!(html.contains("(<a href=\"../../runs/vllm-run/raw/vllm-run/after.snapshot.json\">after.snapshot.json</a>)."));

    // Counters that disagree: each its tokens and its window.
    let after = "data/runs/vllm-run/raw/vllm-run/after.snapshot.json";
    let snapshot = site.read(after);
    assert!(snapshot.contains("} 4144.0"));
    site.write(after, &snapshot.replace("} 4144.0", "} 4044.0"));
    let (_dir, out) = build(&site);
    let t = text(&page(&out, "runs/vllm-run/index.html"));
    assert!(
        t.contains("The client's 421.1 tok/s are 4,000 output tokens over the 9.5 s it timed (bench.json); the server counter's 380.5 tok/s are 3,900 tokens over the 10.25 s between its snapshots before and after the run (after.snapshot.json)."),
        "{t}"
    );
}

#[test]
fn the_setup_names_the_model_without_its_path_and_always_says_the_hardware() {
    let site = Site::copy_of("minimal");
    let stderr = import_vllm_run(&site, &[]);
    assert!(
        stderr.contains("note: no file names the hardware it ran on: the run page shows it as not recorded; `findings import vllm-run FILES --hardware \"1× H100 80GB\"` (or `hardware:` in its run.yaml) records it\n"),
        "{stderr}"
    );
    let (_dir, out) = build(&site);
    let html = page(&out, "runs/vllm-run/index.html");
    let t = text(&html);
    // The title and heading name the model, and so do the setup, the
    // results table and the files' facts: no local path on the page (the
    // CSV keeps it).
    assert!(html.contains(
        "<title>vLLM 0.30.0 under vllm bench serve, Qwen3-8B · Fixture findings</title>"
    ));
    assert!(html.contains("<h1>vLLM 0.30.0 under vllm bench serve, Qwen3-8B</h1>"));
    let setup = between(&t, "Setup", "Headline figures");
    assert_eq!(
        setup,
        "Setup vLLM 0.30.0 Model Qwen3-8B Hardware not recorded · give it with --hardware on findings import vllm-run Client vllm bench serve "
    );
    assert!(
        t.contains("What the files say Model Qwen3-8B from raw/vllm-run/bench.json"),
        "{t}"
    );
    assert!(
        html.contains("<div><dt>Model</dt><dd>Qwen3-8B</dd></div>"),
        "{html}"
    );
    assert!(!html.contains("/models/Qwen3-8B"), "{html}");
    assert!(page(&out, "runs/vllm-run/results.csv").contains(",/models/Qwen3-8B,"));

    // Given, it is shown, and the import says nothing more of it.
    let stderr = import_vllm_run(&site, &["--hardware", "1x NVIDIA GeForce RTX 5090 32 GB"]);
    assert!(!stderr.contains("hardware"), "{stderr}");
    let (_dir, out) = build(&site);
    let t = text(&page(&out, "runs/vllm-run/index.html"));
    assert!(
        t.contains("Hardware 1x NVIDIA GeForce RTX 5090 32 GB Client"),
        "{t}"
    );
    assert!(!t.contains("Hardware not recorded"), "{t}");

    // A run typed by hand: a title that spells out the model's local path
    // is headed with its name.
    let yaml = site.read("data/runs/cache-sweep/run.yaml");
    site.write(
        "data/runs/cache-sweep/run.yaml",
        &yaml
            .replace(
                "title: Cache size per start",
                "title: Cache size per start of /srv/llm/Qwen3-8B",
            )
            .replace("model: Qwen3-8B", "model: /srv/llm/Qwen3-8B"),
    );
    let (_dir, out) = build(&site);
    let html = page(&out, "runs/cache-sweep/index.html");
    assert!(
        html.contains("<h1>Cache size per start of Qwen3-8B</h1>"),
        "{html}"
    );
    assert!(text(&html).contains("Model Qwen3-8B Hardware"));
    assert!(!html.contains("/srv/llm"), "{html}");
    // A hand-typed run's hint names its run.yaml alone.
    let yaml = site.read("data/runs/cache-sweep/run.yaml");
    site.write(
        "data/runs/cache-sweep/run.yaml",
        &yaml.replace("hardware: RTX 5090\n", ""),
    );
    let (_dir, out) = build(&site);
    let t = text(&page(&out, "runs/cache-sweep/index.html"));
    assert!(
        t.contains(
            "Hardware not recorded · give it with hardware: in data/runs/cache-sweep/run.yaml "
        ),
        "{t}"
    );
}

#[test]
fn a_table_of_one_row_reads_as_a_list_of_its_fields() {
    let site = Site::copy_of("minimal");
    import_vllm_run(&site, &[]);
    let (_dir, out) = build(&site);
    let html = page(&out, "runs/vllm-run/index.html");
    let tables = &html[html.find("<section class=\"tables\"").unwrap()..];
    let results = &tables[..tables.find("</dl>").unwrap()];
    assert!(results.contains("<dl class=\"row-fields\">"), "{results}");
    assert!(!results.contains("<table"), "{results}");
    for field in [
        "<div><dt>Source file</dt><dd>raw/vllm-run/bench.json</dd></div>",
        "<div><dt>Concurrency asked for (requests)</dt><dd class=\"num\">4</dd></div>",
        "<div><dt>Request rate asked for (req/s)</dt><dd class=\"num\">unlimited</dd></div>",
        "<div><dt>Output throughput (tok/s)</dt><dd class=\"num\">421.1</dd></div>",
    ] {
        assert!(results.contains(field), "{field} in {results}");
    }
    // A field's name never breaks inside a word on a phone ("Mode/l"
    // beside a long model name): it does not shrink, and wraps only
    // between words; the value wraps instead.
    let css = page(&out, "style.css");
    let rule = &css[css
        .find(".row-fields dt {")
        .expect("no .row-fields dt rule")..];
    let rule = &rule[..rule.find('}').unwrap()];
    for want in [
        "flex-shrink: 0",
        "overflow-wrap: normal",
        "word-break: normal",
    ] {
        assert!(rule.contains(want), "{want}: {rule}");
    }
    assert!(!rule.contains("min-width: 0"), "{rule}");
    // The series, of many rows, stays a table.
    let series = &tables[tables.find("The server&#39;s gauges").unwrap()..];
    assert!(
        series[..series.find("</div>").unwrap_or(series.len())].contains("<table class=\"data\">")
            || series.contains("<table class=\"data\">")
    );
}

#[test]
fn the_runs_index_gives_each_run_its_figure_flags_and_findings() {
    let site = Site::copy_of("minimal");
    // F7 names the symptom the run shows: 3 preemptions counted, none
    // logged.
    site.edit(
        "findings/cache-size.md",
        "tags: [kv-cache]\n",
        "tags: [kv-cache]\nsymptoms: [preemptions-unlogged]\n",
    );
    import_vllm_run(&site, &[]);
    let (_dir, out) = build(&site);
    let html = page(&out, "runs/index.html");
    let list = &html[html
        .find("<ul class=\"run-list\" id=\"run-list\">")
        .unwrap()..];
    let list = text(&list[..list.find("</ul>").unwrap()]);
    assert_eq!(
        list,
        "vLLM 0.30.0 under vllm bench serve, Qwen3-8B 30 September 2026 · vLLM 0.30 · Qwen3-8B · vllm bench serve \
         Qwen3-8B · 88 in, 1,000 out · 4 at once · rate unlimited \
         Output throughput client 421.1 tok/s · server's counter 390.2 tok/s ran ≤ 2 of 4 shows F7 \
         Cache size per start 17 August 2026 · vLLM 0.30 · Qwen3-8B · RTX 5090 · vllm bench serve cited by F7"
    );
    assert!(html.contains("<a class=\"figure-flag\" href=\"../runs/vllm-run/#check-concurrency-achieved\">ran ≤ 2 of 4</a>"));
    assert!(html.contains("<span class=\"run-shows\">shows <a href=\"../findings/cache-size/\" title=\"The cache size changed between starts\">F7</a></span>"));
    // The filter bar, hidden until its script shows it: counts over every
    // run.
    let bar = text(
        &html[html.find("id=\"run-filters\"").unwrap()
            ..html.find("<ul class=\"run-list\"").unwrap()],
    );
    assert!(
        html.contains("data-src=\"../runs/filters.json\" hidden>"),
        "{html}"
    );
    for want in [
        "Engine vLLM 2 runs",
        "Model Qwen3-8B 2 runs",
        "Hardware RTX 5090 1 run not recorded 1 run",
        "Checks flagged 1 run",
    ] {
        assert!(bar.contains(want), "{want}: {bar}");
    }
    // What the filters fetch: every run, as the index shows it.
    let data: serde_json::Value = serde_json::from_str(&page(&out, "runs/filters.json")).unwrap();
    assert_eq!(data["schema_version"], 1);
    assert_eq!(
        data["engines"],
        serde_json::json!([{"id": "vllm", "name": "vLLM", "count": 2, "versions": ["0.30"]}])
    );
    assert_eq!(
        data["runs"][0],
        serde_json::json!([
            "runs/vllm-run/",
            "vLLM 0.30.0 under vllm bench serve, Qwen3-8B",
            "2026-09-30",
            "30 September 2026",
            [["vllm", "0.30"]],
            "Qwen3-8B",
            null,
            "Output throughput client 421.1 tok/s · server's counter 390.2 tok/s",
            [["ran ≤ 2 of 4", "concurrency-achieved"]],
            [[
                "F7",
                "findings/cache-size/",
                "The cache size changed between starts"
            ]],
            [],
            [],
            "vLLM 0.30",
            "vllm bench serve",
            [
                "Qwen3-8B · 88 in, 1,000 out · 4 at once · rate unlimited",
                null,
                0
            ]
        ])
    );
    assert_eq!(data["runs"].as_array().unwrap().len(), 2);

    // Without a finding that names its symptom and none citing it, the
    // index says so.
    site.edit(
        "findings/cache-size.md",
        "tags: [kv-cache]\nsymptoms: [preemptions-unlogged]\n",
        "tags: [kv-cache]\n",
    );
    let (_dir, out) = build(&site);
    let t = text(&page(&out, "runs/index.html"));
    assert!(
        t.contains("ran ≤ 2 of 4 no finding cites it, and it shows none"),
        "{t}"
    );
}

/// The `<main>` of a page: what its template writes, without the header
/// and footer every page shares.
fn main_of(html: &str) -> &str {
    let i = html.find("<main").unwrap();
    &html[i..html.find("</main>").unwrap() + 7]
}

#[test]
fn run_page_and_runs_index_snapshots() {
    let site = Site::copy_of("minimal");
    site.edit(
        "findings/cache-size.md",
        "tags: [kv-cache]\n",
        "tags: [kv-cache]\nsymptoms: [preemptions-unlogged]\n",
    );
    import_vllm_run(&site, &[]);
    let (_dir, out) = build(&site);
    insta::assert_snapshot!("run_page", main_of(&page(&out, "runs/vllm-run/index.html")));
    insta::assert_snapshot!("runs_index", main_of(&page(&out, "runs/index.html")));
}

#[test]
fn a_llama_bench_run_names_each_test_with_its_figure_and_no_concurrency() {
    // llama-bench's JSON: pp512 at 4,266.67 tok/s ± 17.75 and tg128 at
    // 119.84 ± 0.6997, one setup of two results. Its headline names each
    // test; it asked for no concurrency or rate, and no column says one.
    let site = Site::copy_of("minimal");
    let file = results("llama_bench/bench.json");
    let r = site.run(&[
        "import",
        "llama-run",
        file.to_str().unwrap(),
        "--engine",
        "vllm",
        "--version",
        "0.30.0",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (_dir, out) = build(&site);
    let t = text(&page(&out, "runs/llama-run/index.html"));
    let headline = between(&t, "Headline figures", "Charts");
    assert!(
        headline.contains("Test Tokens/s ± (tok/s) File pp512 4,267 17.75 bench.json tg128 119.8 0.6997 bench.json"),
        "{headline}"
    );
    assert!(!headline.contains("Concurrency asked"), "{headline}");
    assert!(!headline.contains("unlimited"), "{headline}");
    // The runs index shows its figure: each test and its tokens a second.
    let t = text(&page(&out, "runs/index.html"));
    assert!(
        t.contains("pp512 4,267 tok/s ± 17.75 · tg128 119.8 tok/s ± 0.6997"),
        "{t}"
    );
}
