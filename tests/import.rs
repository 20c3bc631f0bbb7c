//! `findings import`: result files (fixtures written for these tests, under
//! `tests/fixtures/results/`) into a copy of the minimal site, through the
//! real command, then `check` and `build` of the site, asserting what a
//! reader gets: the run.yaml written, the kept copies (no credential left),
//! the derived tables and charts, the run page's facts, the published raw
//! files and the JSON export.
#![allow(missing_docs)]

mod common;
use common::Site;
use std::path::PathBuf;

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/results")
        .join(rel)
}

fn import(site: &Site, args: &[&str]) -> common::Output {
    let mut all = vec!["import"];
    all.extend_from_slice(args);
    site.run(&all)
}

fn built(site: &Site) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let o = out.path().join("site");
    let r = site.run(&["build", "--output", o.to_str().unwrap()]);
    assert_eq!(r.code, 0, "build failed: {}", r.stderr);
    out
}

fn read(dir: &tempfile::TempDir, rel: &str) -> String {
    std::fs::read_to_string(dir.path().join("site").join(rel))
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn a_file_becomes_a_run_with_its_tables_charts_and_facts_and_no_credential() {
    let site = Site::copy_of("minimal");
    let file = fixture("aiperf/schema-1.json");
    let r = import(
        &site,
        &[
            "aiperf-c8",
            file.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.ends_with("data/runs/aiperf-c8/run.yaml\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains(
            "  removed input_config.endpoint.api_key (line 158): a credential, replaced by [removed]\n"
        ),
        "{}",
        r.stderr
    );
    // The copy keeps everything but the credential.
    let kept = site.read("data/runs/aiperf-c8/raw/schema-1.json");
    assert!(!kept.contains("sk-aiperf-secret-key"));
    assert!(kept.contains("\"api_key\": \"[removed]\""), "{kept}");
    let yaml = site.read("data/runs/aiperf-c8/run.yaml");
    assert!(
        yaml.contains("setups:\n  - label: vLLM 0.30\n    engine: vllm\n    version: \"0.30\"\n"),
        "{yaml}"
    );
    assert!(
        yaml.contains("results:\n  - path: raw/schema-1.json\n    setup: vLLM 0.30\n"),
        "{yaml}"
    );
    assert!(yaml.contains("  - derive: results\n"), "{yaml}");
    // check then passes (the run is new: a warning of AIPerf's own).
    let c = site.run(&["check"]);
    assert_eq!(c.code, 0, "{}", c.stderr);

    let out = built(&site);
    let page = read(&out, "runs/aiperf-c8/index.html");
    assert!(page.contains("Result files"));
    assert!(page.contains("What the files say"));
    assert!(
        page.contains("AIPerf"),
        "the tool that wrote the file is named"
    );
    // The published copy is the kept one, byte for byte, and its hash is shown.
    let published = read(&out, "runs/aiperf-c8/raw/schema-1.json");
    assert_eq!(published, kept);
    let sha = findings::util::sha256_hex(published.as_bytes());
    assert!(page.contains(&sha), "the page shows the file's SHA-256");
    let csv = read(&out, "runs/aiperf-c8/results.csv");
    assert!(csv.starts_with("source,tool,tool_version,engine,version,model,max_concurrency,request_rate,num_prompts,completed,failed,duration_s,input_tokens,output_tokens,request_throughput,output_throughput,total_token_throughput,ttft_ms_mean,"), "{csv}");
    // The export carries the files and their facts.
    let json: serde_json::Value = serde_json::from_str(&read(&out, "findings.json")).unwrap();
    let run = json["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "aiperf-c8")
        .unwrap();
    let source = &run["results"][0];
    assert_eq!(source["path"], "raw/schema-1.json");
    assert_eq!(source["setup"], "vLLM 0.30");
    assert_eq!(source["files"][0]["sha256"], sha.as_str());
    assert!(source["facts"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["name"] == "tool" && f["source"] == "raw/schema-1.json"));
}

#[test]
fn a_run_folder_gives_the_series_with_the_concurrency_asked_for_marked() {
    let site = Site::copy_of("minimal");
    let folder = fixture("inferlint/vllm-run");
    let r = import(
        &site,
        &["live", folder.to_str().unwrap(), "--engine", "vllm"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let yaml = site.read("data/runs/live/run.yaml");
    assert!(yaml.contains("  - path: raw/vllm-run\n"), "{yaml}");
    assert!(yaml.contains("  - derive: series\n"), "{yaml}");
    assert!(yaml.contains("  - id: running-waiting\n"), "{yaml}");
    assert!(
        yaml.contains("    marks:\n      - {y: 4, label: Concurrency asked for (4)}\n"),
        "{yaml}"
    );
    // Every file of the folder is kept, those no reader takes too.
    for f in [
        "bench.json",
        "boot.log",
        "before.snapshot.json",
        "after.snapshot.json",
        "run.series.jsonl",
        "load.log",
    ] {
        assert!(
            site.path(&format!("data/runs/live/raw/vllm-run/{f}"))
                .is_file(),
            "{f}"
        );
    }
    let out = built(&site);
    let page = read(&out, "runs/live/index.html");
    assert!(page.contains("Most requests the server ran"), "{page}");
    assert!(page.contains("Preemptions during the run"));
    assert!(page.contains("KV cache of the start (tokens)"));
    assert!(page.contains("class=\"plot-rules\""), "the mark is drawn");
    let series = read(&out, "runs/live/series.csv");
    assert!(
        series.starts_with(
            "t_s,running,waiting,kv_usage,preemptions,generation_tokens_per_s,source,setup\n"
        ),
        "{series}"
    );
}

/// The ids and y columns of the charts an import planned, in order.
fn planned_charts(yaml: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut id = None;
    for line in yaml.lines() {
        if let Some(rest) = line.strip_prefix("  - id: ") {
            id = Some(rest.to_string());
        } else if let (Some(rest), Some(_)) = (line.strip_prefix("    y: "), &id) {
            out.push((id.take().unwrap(), rest.to_string()));
        }
    }
    out
}

#[test]
fn one_setup_gets_its_percentile_ladders_and_never_a_chart_of_one_bar() {
    let site = Site::copy_of("minimal");
    let file = fixture("aiperf/schema-1.json");
    let r = import(
        &site,
        &[
            "one",
            file.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // No bar of the throughput alone: the ladders of the latencies instead.
    assert_eq!(
        planned_charts(&site.read("data/runs/one/run.yaml")),
        [
            (
                "ttft-percentiles".into(),
                "[ttft_ms_p50, ttft_ms_p90, ttft_ms_p99]".into()
            ),
            (
                "itl-percentiles".into(),
                "[itl_ms_p50, itl_ms_p90, itl_ms_p99]".into()
            ),
        ]
    );
    // A run folder with a series: the ladders of what bench.json gives, the
    // server's requests with its preemptions, and its KV cache.
    let folder = fixture("inferlint/vllm-run");
    let r = import(
        &site,
        &["live", folder.to_str().unwrap(), "--engine", "vllm"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let yaml = site.read("data/runs/live/run.yaml");
    assert_eq!(
        planned_charts(&yaml),
        [
            (
                "ttft-percentiles".into(),
                "[ttft_ms_p50, ttft_ms_p99]".into()
            ),
            ("itl-percentiles".into(), "[itl_ms_p50, itl_ms_p99]".into()),
            (
                "running-waiting".into(),
                "[running, waiting, preemptions]".into()
            ),
            ("kv-cache".into(), "kv_usage".into()),
        ] as [(String, String); 4]
    );
    // Preemptions named as what the counter counts, not as requests.
    assert!(
        yaml.contains(
            "    title: \"Requests the server ran and kept waiting, and its preemptions\"\n"
        ),
        "{yaml}"
    );
    assert!(
        yaml.contains("    y_label: Requests; preemptions\n"),
        "{yaml}"
    );
    let out = built(&site);
    let page = read(&out, "runs/one/index.html");
    assert!(
        page.contains("Time to first token: median to p99"),
        "{page}"
    );
    assert!(!page.contains("Output throughput per setup"), "{page}");
}

#[test]
fn requests_give_a_distribution_of_time_to_first_token() {
    let site = Site::copy_of("minimal");
    let file = fixture("vllm/detailed.json");
    let r = import(
        &site,
        &[
            "detailed",
            file.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Generated texts are dropped from the copy unless asked to keep them.
    assert!(
        r.stderr
            .contains("  removed generated_texts (line 5): 3 generated texts, dropped\n"),
        "{}",
        r.stderr
    );
    let yaml = site.read("data/runs/detailed/run.yaml");
    assert!(yaml.contains("  - derive: requests\n"), "{yaml}");
    assert!(yaml.contains("    kind: cdf\n    x: ttft_ms\n"), "{yaml}");
    let out = built(&site);
    let page = read(&out, "runs/detailed/index.html");
    assert!(page.contains("plot plot-cdf"));
    assert!(page.contains("Cumulative distribution of TTFT (ms)"));
    let requests = read(&out, "runs/detailed/requests.csv");
    assert!(
        requests.starts_with(
            "source,ttft_ms,tpot_ms,e2el_ms,input_tokens,output_tokens,start_s,setup\n"
        ),
        "{requests}"
    );
    // One row per completed request: two of the file's three completed.
    assert_eq!(requests.lines().count(), 3, "{requests}");
    // --keep-texts keeps them.
    let site = Site::copy_of("minimal");
    let r = import(
        &site,
        &[
            "detailed",
            file.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30",
            "--keep-texts",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(site
        .read("data/runs/detailed/raw/detailed.json")
        .contains("generated_texts"));
}

#[test]
fn importing_again_adds_files_and_never_overwrites_silently() {
    let site = Site::copy_of("minimal");
    let vllm = fixture("vllm/serve.json");
    let sglang = fixture("sglang/serve-server-info.jsonl");
    let args = [
        "two",
        vllm.to_str().unwrap(),
        "--engine",
        "vllm",
        "--version",
        "0.30",
    ];
    assert_eq!(import(&site, &args).code, 0);
    let first = site.read("data/runs/two/run.yaml");
    // The same file again changes nothing.
    let r = import(&site, &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("raw/serve.json: already kept, unchanged"),
        "{}",
        r.stderr
    );
    assert_eq!(site.read("data/runs/two/run.yaml"), first);
    // Another engine's file, which records its engine and version itself.
    let r = import(
        &site,
        &["two", sglang.to_str().unwrap(), "--engine", "vllm"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("note: raw/serve-server-info.jsonl records the engine sglang; --engine vllm is not used for it"),
        "{}",
        r.stderr
    );
    let yaml = site.read("data/runs/two/run.yaml");
    assert!(
        yaml.contains("  - label: SGLang 0.5.5.post3\n    engine: sglang\n"),
        "{yaml}"
    );
    assert!(
        yaml.contains("  - path: raw/serve-server-info.jsonl\n    setup: SGLang 0.5.5.post3\n"),
        "{yaml}"
    );
    assert!(
        yaml.starts_with("title: \"vLLM 0.30 under vllm bench serve"),
        "the title stays: {yaml}"
    );
    // A different file under a kept name is refused.
    let other = tempfile::tempdir().unwrap();
    let changed = other.path().join("serve.json");
    std::fs::write(
        &changed,
        std::fs::read_to_string(&vllm).unwrap().replace(
            "\"output_throughput\": 610.7",
            "\"output_throughput\": 400.5",
        ),
    )
    .unwrap();
    let r = import(
        &site,
        &[
            "two",
            changed.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ],
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("error: data/runs/two/raw/serve.json exists and differs from the file imported; remove it, import the new one under another name, or pass --force to replace it\nimport: nothing was written\n"),
        "{}",
        r.stderr
    );
    assert_eq!(site.read("data/runs/two/run.yaml"), yaml);
    // --force replaces it and writes run.yaml anew, keeping the files listed.
    let r = import(
        &site,
        &[
            "two",
            changed.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30",
            "--force",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(site.read("data/runs/two/raw/serve.json").contains("400.5"));
    assert!(site
        .read("data/runs/two/run.yaml")
        .contains("raw/serve-server-info.jsonl"));
    assert_eq!(site.run(&["check"]).code, 0);
}

/// Every folder and file under `dir`, with the bytes of each file.
fn data_tree(dir: &std::path::Path) -> Vec<(String, Option<Vec<u8>>)> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            let bytes = e
                .file_type()
                .is_file()
                .then(|| std::fs::read(e.path()).unwrap());
            (rel, bytes)
        })
        .collect()
}

/// vLLM's results at no concurrency (with their p99 TTFT) and SGLang's
/// one-batch results at batch sizes 1 and 16 (without one): the run
/// sweeps concurrency, and a chart of p99 TTFT by concurrency would have
/// no point, so it is not planned; `check` accepts the run.
#[test]
fn a_chart_by_the_setting_swept_is_planned_only_of_rows_that_have_both() {
    let site = Site::copy_of("minimal");
    let vllm = fixture("vllm/append-legacy-goodput.json");
    let sglang = fixture("sglang/one-batch.jsonl");
    let r = import(
        &site,
        &[
            "mix",
            vllm.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = import(
        &site,
        &[
            "mix",
            sglang.to_str().unwrap(),
            "--engine",
            "sglang",
            "--version",
            "0.5.20",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let yaml = site.read("data/runs/mix/run.yaml");
    assert!(
        yaml.contains(
            "  - id: output-throughput\n    title: Output throughput by concurrency asked for\n"
        ),
        "{yaml}"
    );
    assert!(!yaml.contains("ttft-p99"), "{yaml}");
    let c = site.run(&["check"]);
    assert_eq!(c.code, 0, "{}", c.stderr);
}

#[test]
fn an_import_refused_after_writing_a_copy_takes_it_back() {
    let site = Site::copy_of("minimal");
    let serve = fixture("vllm/serve.json");
    let sweep = fixture("vllm/sweep-run.json");
    let setup = ["--engine", "vllm", "--version", "0.30"];
    let mut args = vec!["c32", serve.to_str().unwrap()];
    args.extend(setup);
    assert_eq!(import(&site, &args).code, 0);
    let before = data_tree(&site.path("data"));
    // The sweep's copy is written first; then the second input, a file
    // of the kept name with other bytes, is refused: the sweep's copy and
    // every folder made for it are taken back.
    let other = tempfile::tempdir().unwrap();
    let changed = other.path().join("serve.json");
    let mut bytes = std::fs::read(&serve).unwrap();
    bytes.extend_from_slice(b"\n");
    std::fs::write(&changed, bytes).unwrap();
    let mut args = vec!["c32", sweep.to_str().unwrap(), changed.to_str().unwrap()];
    args.extend(setup);
    let r = import(&site, &args);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "error: data/runs/c32/raw/serve.json exists and differs from the file imported; "
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.ends_with("import: nothing was written\n"),
        "{}",
        r.stderr
    );
    assert!(data_tree(&site.path("data")) == before, "data/ changed");
    assert!(!site.path("data/runs/c32/raw/sweep-run.json").exists());
}

#[test]
fn what_an_import_cannot_do_is_said_and_nothing_is_written() {
    let site = Site::copy_of("minimal");
    let serve = fixture("vllm/serve.json");
    let s = serve.to_str().unwrap();
    let case = |args: &[&str], code: i32, message: &str| {
        let r = import(&site, args);
        assert_eq!(r.code, code, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(message), "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.ends_with("import: nothing was written\n"),
            "{}",
            r.stderr
        );
        assert!(
            !site.path("data/runs/bad").exists(),
            "{args:?} wrote something"
        );
    };
    case(
        &["bad", s, "--engine", "vllm"],
        2,
        "error: raw/serve.json does not record the version of vllm it measured; pass --version\n",
    );
    case(
        &["bad", s, "--version", "0.30"],
        2,
        "error: raw/serve.json does not record which engine it measured; pass --engine (one of vllm, sglang)\n",
    );
    case(
        &["bad", s, "--engine", "nope", "--version", "1"],
        2,
        "error: site.yaml has no engine \"nope\" (its engines: vllm, sglang)\n",
    );
    case(
        &["Bad", s, "--engine", "vllm", "--version", "0.30"],
        2,
        "error: \"Bad\" is not a valid run id: use lowercase letters a-z, digits and '-'\n",
    );
    let odd = tempfile::tempdir().unwrap();
    let f = odd.path().join("odd.json");
    std::fs::write(&f, "{\"hello\": 1}").unwrap();
    case(
        &["bad", f.to_str().unwrap(), "--engine", "vllm", "--version", "0.30"],
        1,
        "error: raw/odd.json: not a result file of a known format: the file holds a JSON object with the keys hello.\n",
    );
    let cut = odd.path().join("cut.json");
    let text = std::fs::read_to_string(&serve).unwrap();
    std::fs::write(&cut, &text[..text.len() / 2]).unwrap();
    let r = import(
        &site,
        &[
            "bad",
            cut.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.starts_with("error: raw/cut.json:1:"),
        "a truncated file names line and column: {}",
        r.stderr
    );
}

#[test]
fn a_file_over_the_limit_and_a_link_out_of_the_site_are_refused() {
    let site = Site::copy_of("minimal");
    // A sparse file: its size is over the limit, its blocks are not.
    let big = tempfile::tempdir().unwrap();
    let f = big.path().join("huge.json");
    std::fs::File::create(&f)
        .unwrap()
        .set_len(300 * 1024 * 1024)
        .unwrap();
    let r = import(
        &site,
        &[
            "huge",
            f.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("huge.json: the file is 314572800 bytes, over the limit of 268435456 bytes (256 MiB) for a result file"),
        "{}",
        r.stderr
    );
    // A kept file that is a link out of the site is not read, like any record.
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("serve.json");
    std::fs::copy(fixture("vllm/serve.json"), &target).unwrap();
    site.write(
        "data/runs/cache-sweep/run.yaml",
        &site.read("data/runs/cache-sweep/run.yaml").replacen(
            "tables:\n",
            "results:\n  - path: raw/serve.json\ntables:\n",
            1,
        ),
    );
    std::fs::create_dir_all(site.path("data/runs/cache-sweep/raw")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&target, site.path("data/runs/cache-sweep/raw/serve.json"))
            .unwrap();
        let c = site.run(&["check"]);
        assert_eq!(c.code, 1);
        assert!(
            c.stderr.contains("data/runs/cache-sweep/raw/serve.json: error: leads outside the site folder through a symbolic link"),
            "{}",
            c.stderr
        );
    }
}

#[test]
fn the_run_yaml_an_import_writes_is_valid_to_the_editors_schema() {
    let site = Site::copy_of("minimal");
    let folder = fixture("inferlint/vllm-run");
    let detailed = fixture("vllm/detailed.json");
    let r = import(
        &site,
        &[
            "both",
            folder.to_str().unwrap(),
            detailed.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schemas/run.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let yaml: serde_json::Value =
        serde_yaml::from_str(&site.read("data/runs/both/run.yaml")).unwrap();
    let errors: Vec<String> = v
        .iter_errors(&yaml)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    // And the schema refuses what check refuses.
    let mut bad = yaml.clone();
    bad["tables"][0]["derive"] = serde_json::json!("result");
    assert!(!v.is_valid(&bad));
    let mut bad = yaml;
    bad["results"][0]["stray"] = serde_json::json!(1);
    assert!(!v.is_valid(&bad));
}
