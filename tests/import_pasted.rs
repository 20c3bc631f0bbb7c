//! `findings import` of console reports pasted into text (fixtures written
//! for these tests, under `tests/fixtures/pasted/`), through the real
//! command: from a file and from standard input (`-`), a paste of several
//! reports made several setups (`report:` entries of `run.yaml`), the
//! kept copy scrubbed, then `check` and `build`, asserting what a reader
//! gets; and what a `report:` entry may not say. `findings lint` names the
//! files it reads as they were given.
#![allow(missing_docs)]

mod common;
use common::Site;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pasted")
        .join(name)
}

/// `findings ARGS --root SITE` with `stdin` on standard input.
fn run_with_stdin(site: &Site, args: &[&str], stdin: &[u8]) -> common::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_findings"))
        .args(args)
        .arg("--root")
        .arg(site.root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    common::Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The minimal site, with the engines the pastes measured.
fn site() -> Site {
    let site = Site::copy_of("minimal");
    site.edit(
        "site.yaml",
        "engines:\n",
        "engines:\n  - id: tensorrt-llm\n    name: TensorRT-LLM\n    color: \"#76b900\"\n  - id: llama-cpp\n    name: llama.cpp\n    color: \"#7f7f7f\"\n",
    );
    site
}

fn build(site: &Site) -> PathBuf {
    let out = site.root().join("out");
    let r = site.run(&["build", "--output", out.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    out
}

#[test]
fn a_paste_on_standard_input_of_two_reports_makes_two_setups() {
    let site = site();
    let paste = std::fs::read(fixture("vllm-issue-two-runs.md")).unwrap();
    let r = run_with_stdin(
        &site,
        &[
            "import",
            "issue-41",
            "-",
            "--engine",
            "vllm",
            "--version",
            "0.30",
            "--date",
            "2026-03-02",
        ],
        &paste,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Kept under a name of its bytes, its credentials out.
    let sha = findings::util::sha256_hex(&paste);
    let kept = format!("data/runs/issue-41/raw/pasted-{}.txt", &sha[..12]);
    assert!(
        r.stderr.contains(&format!("kept {kept} (5.4 KB)\n  removed authorization (line 15): a credential, replaced by [removed]\n  removed openai_api_key (line 67): a credential, replaced by [removed]\n")),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(&format!(
            "note: raw/pasted-{}.txt holds 2 reports (lines 19–59, lines 68–110): each is a setup of its own\n",
            &sha[..12]
        )),
        "{}",
        r.stderr
    );
    let text = site.read(&kept);
    assert!(!text.contains("sk-test-0123456789abcdef") && !text.contains("sk-live-abcdefabcdef"));
    let yaml = site.read("data/runs/issue-41/run.yaml");
    assert!(
        yaml.contains(&format!(
            "setups:\n  - label: vLLM 0.30 (lines 19–59)\n    engine: vllm\n    version: \"0.30\"\n  - label: vLLM 0.30 (lines 68–110)\n    engine: vllm\n    version: \"0.30\"\nmodel: Qwen/Qwen3-8B\nclient: vllm bench serve\nresults:\n  - path: raw/pasted-{0}.txt\n    report: 1\n    setup: vLLM 0.30 (lines 19–59)\n  - path: raw/pasted-{0}.txt\n    report: 2\n    setup: vLLM 0.30 (lines 68–110)\n",
            &sha[..12]
        )),
        "{yaml}"
    );
    // The same paste again is the same file: nothing changes.
    let again = run_with_stdin(
        &site,
        &[
            "import",
            "issue-41",
            "-",
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ],
        &paste,
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again
            .stderr
            .contains(&format!("{kept}: already kept, unchanged\n")),
        "{}",
        again.stderr
    );
    assert_eq!(site.read("data/runs/issue-41/run.yaml"), yaml);
    let out = build(&site);
    let csv = std::fs::read_to_string(out.join("runs/issue-41/results.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert!(
        rows[1].contains(",lines 19–59,vllm bench serve,")
            && rows[1].ends_with(",vLLM 0.30 (lines 19–59)"),
        "{csv}"
    );
    assert!(
        rows[2].contains(",1706.73,") && rows[2].ends_with(",vLLM 0.30 (lines 68–110)"),
        "{csv}"
    );
    // The run page says where each report was found.
    let page = std::fs::read_to_string(out.join("runs/issue-41/index.html")).unwrap();
    assert!(
        page.contains("Where in the pasted text"),
        "no location on the page"
    );
    assert!(page.contains("lines 68–110"));
    // The export names the report of each entry.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("findings.json")).unwrap()).unwrap();
    let run = json["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "issue-41")
        .unwrap();
    assert_eq!(run["results"][1]["report"], 2);
}

#[test]
fn the_trtllm_bench_console_imports_as_tensorrt_llm_0_16_with_its_throughput() {
    let site = site();
    let file = fixture("trtllm-bench-0.16-throughput.txt");
    let r = site.run(&["import", "trt-70b", file.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let yaml = site.read("data/runs/trt-70b/run.yaml");
    assert!(
        yaml.starts_with("title: \"TensorRT-LLM 0.16.0 under trtllm-bench, Llama-3.1-70B-Instruct\"\ndate: 2026-03-02\nsetups:\n  - label: TensorRT-LLM 0.16.0\n    engine: tensorrt-llm\n    version: \"0.16.0\"\nmodel: meta-llama/Llama-3.1-70B-Instruct\n"),
        "{yaml}"
    );
    let out = build(&site);
    let csv = std::fs::read_to_string(out.join("runs/trt-70b/results.csv")).unwrap();
    assert!(
        csv.contains(
            ",0.16.0,meta-llama/Llama-3.1-70B-Instruct,,,30000,,,266.8556894,,,112.4203,14389.8,,"
        ),
        "{csv}"
    );
    // The page rounds for reading (figures.rs), the CSV keeps the digits.
    let page = std::fs::read_to_string(out.join("runs/trt-70b/index.html")).unwrap();
    assert!(page.contains("14,390 tok/s"), "the headline throughput");
}

#[test]
fn llama_bench_tables_import_with_the_build_as_the_version() {
    let site = site();
    let file = fixture("llama-bench-two-tables.md");
    let r = site.run(&[
        "import",
        "llama-4090",
        file.to_str().unwrap(),
        "--date",
        "2026-02-01",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let yaml = site.read("data/runs/llama-4090/run.yaml");
    // Two tables of one build: two reports, two setups, each named by
    // where its table is.
    assert!(
        yaml.contains("  - label: llama.cpp 4521 (lines 10–16)\n    engine: llama-cpp\n    version: \"4521\"\n  - label: llama.cpp 4521 (lines 20–27)\n"),
        "{yaml}"
    );
    assert!(
        yaml.contains("hardware: NVIDIA GeForce RTX 4090\n"),
        "{yaml}"
    );
    assert_eq!(site.run(&["check"]).code, 0);
}

#[test]
fn a_text_of_no_report_is_refused_and_nothing_is_written() {
    let site = site();
    let r = run_with_stdin(
        &site,
        &[
            "import",
            "prose",
            "-",
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ],
        b"We saw the old format 'Throughput: X requests/s, Y tokens/s' in the README.\n",
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("not a result file of a known format: the file holds text that is not JSON, YAML or llama-bench CSV, and no console report of a known tool.\n"), "{}", r.stderr);
    assert!(
        r.stderr.ends_with("import: nothing was written\n"),
        "{}",
        r.stderr
    );
    assert!(!site.path("data/runs/prose").exists());
    let empty = run_with_stdin(&site, &["import", "prose", "-"], b"\n\n");
    assert_eq!(empty.code, 2);
    assert!(empty.stderr.contains("error: -: standard input is empty; paste a benchmark's report or pipe a result file into it\n"), "{}", empty.stderr);
    let twice = site.run(&["import", "prose", "-", "-"]);
    assert_eq!(twice.code, 2);
    assert!(
        twice
            .stderr
            .contains("error: - (standard input) is named twice; it can be read once\n"),
        "{}",
        twice.stderr
    );
}

#[test]
fn a_report_entry_names_a_report_the_paste_has() {
    let site = site();
    let file = fixture("vllm-issue-two-runs.md");
    let r = site.run(&[
        "import",
        "two",
        file.to_str().unwrap(),
        "--engine",
        "vllm",
        "--version",
        "0.30",
        "--date",
        "2026-03-02",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    site.edit(
        "data/runs/two/run.yaml",
        "    report: 2\n",
        "    report: 3\n",
    );
    let c = site.run(&["check"]);
    assert_eq!(c.code, 1);
    assert!(
        c.stderr.contains("data/runs/two/raw/vllm-issue-two-runs.md: error: `report: 3`: the text holds 2 reports (1 at lines 19–59, 2 at lines 68–110)\n  hint: name one of its reports, or leave `report` out to take them all\n"),
        "{}",
        c.stderr
    );
    site.edit(
        "data/runs/two/run.yaml",
        "    report: 3\n",
        "    report: 0\n",
    );
    let c = site.run(&["check"]);
    assert!(
        c.stderr.contains(
            "`results[1].report`: expected a whole number of 1 or more, found the number 0\n"
        ),
        "{}",
        c.stderr
    );
}

#[test]
fn lint_names_the_files_it_reads_as_given() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "no report here\n").unwrap();
    let r = common::run_in(&common::bundled(), &["lint", notes.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "error: {}: not a result file of a known format",
            notes.display()
        )),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("raw/"), "{}", r.stderr);
    // A paste reads as a file does.
    let paste = fixture("trtllm-bench-0.16-throughput.txt");
    let r = common::run_in(&common::bundled(), &["lint", paste.to_str().unwrap()]);
    assert_ne!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("findings lint: no check flags these files"),
        "{}",
        r.stdout
    );
}
