//! `findings audit` against the bundled records: each input format with the
//! quirks of real files, each output format, `--from` a built site (a folder
//! and over HTTP from a server on 127.0.0.1), and the exit statuses.
#![allow(missing_docs)]

mod common;

use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `findings audit ARGS` in `dir` (inputs are named relative to it, as
/// in a repository's CI), with `stdin` on standard input.
fn audit_in(dir: &Path, args: &[&str], stdin: &str) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_findings"))
        .arg("audit")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run findings");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn bundled() -> String {
    common::bundled().display().to_string()
}

/// A folder holding `files`.
fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// A deployment as the issue describes it: vLLM 0.30.0 from pip, SGLang
/// 0.5.20 from its image.
fn deployment() -> tempfile::TempDir {
    repo(&[
        ("requirements.txt", "vllm==0.30.0\n"),
        (
            "Dockerfile",
            "# the router\nARG BASE=lmsysorg/sglang\nFROM ${BASE}:v0.5.20-cu126\n",
        ),
    ])
}

/// `findings list --engine E --version V`: finding id → state.
fn listed(engine: &str, version: &str) -> BTreeMap<u64, String> {
    let out = common::run_in(
        &common::bundled(),
        &[
            "list",
            "--engine",
            engine,
            "--version",
            version,
            "--format",
            "json",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows: Vec<Value> = serde_json::from_str(&out.stdout).unwrap();
    rows.iter()
        .map(|r| {
            (
                r["id"].as_u64().unwrap(),
                r["state"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The audit's JSON: for each deployment (`engine version`), id → state.
fn states(json: &Value) -> BTreeMap<String, BTreeMap<u64, String>> {
    json["deployments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let key = format!(
                "{} {}",
                d["engine"].as_str().unwrap(),
                d["version"].as_str().unwrap()
            );
            let found = d["findings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    (
                        f["id"].as_u64().unwrap(),
                        f["state"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            (key, found)
        })
        .collect()
}

fn expected() -> BTreeMap<String, BTreeMap<u64, String>> {
    BTreeMap::from([
        ("vllm 0.30.0".to_string(), listed("vllm", "0.30.0")),
        ("sglang 0.5.20".to_string(), listed("sglang", "0.5.20")),
    ])
}

/// The part of a table or Markdown report about one deployment.
fn section<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("{start:?} in\n{text}"));
    let rest = &text[from..];
    let to = rest.find(end).unwrap_or(rest.len());
    &rest[..to]
}

/// Every finding `findings list` gives, in a section of text, as `F<id>`.
fn assert_names_each(text: &str, list: &BTreeMap<u64, String>) {
    for id in list.keys() {
        let label = format!("F{id}");
        assert!(
            text.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == label),
            "{label} missing from\n{text}"
        );
    }
}

#[test]
fn requirements_and_a_dockerfile_give_what_list_gives_in_json() {
    let dir = deployment();
    let out = audit_in(
        dir.path(),
        &[
            "--root",
            &bundled(),
            "requirements.txt",
            "Dockerfile",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(states(&json), expected());
    assert_eq!(json["failed"], true);
    assert_eq!(json["exit_status"], 1);
    assert_eq!(json["fail_on"], "in-range");
    let vllm = &json["deployments"][0];
    assert_eq!(vllm["engine_name"], "vLLM");
    assert_eq!(
        vllm["pinned_at"],
        serde_json::json!([{"file": "requirements.txt", "line": 1, "text": "vllm==0.30.0"}])
    );
    let f7 = vllm["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == 7)
        .unwrap();
    assert_eq!(f7["label"], "F7");
    assert_eq!(f7["url"], "https://example.org/findings/f/7/");
    assert_eq!(f7["advice"], "Stop the engine process too");
    assert_eq!(f7["fails"], true);
    assert!(
        f7["what_to_do"]
            .as_str()
            .unwrap()
            .starts_with("When you stop vLLM, stop VLLM::EngineCore as well as the API server."),
        "{f7}"
    );
    assert_eq!(json["deployments"][1]["pinned_at"][0]["line"], 3);
}

#[test]
fn the_table_names_every_finding_with_its_state() {
    let dir = deployment();
    let out = audit_in(
        dir.path(),
        &["--root", &bundled(), "requirements.txt", "Dockerfile"],
        "",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let vllm = section(
        &out.stdout,
        "vLLM 0.30.0: pinned at requirements.txt:1 (vllm==0.30.0)",
        "SGLang",
    );
    let sglang = section(
        &out.stdout,
        "SGLang 0.5.20: pinned at Dockerfile:3 (${BASE}:v0.5.20-cu126)",
        "findings fail",
    );
    assert_names_each(vllm, &listed("vllm", "0.30.0"));
    assert_names_each(sglang, &listed("sglang", "0.5.20"));
    assert!(vllm.contains("! F7   affected   Stopping the server left the engine holding the GPU\n       Stop the engine process too (overall: open)\n       What to do: When you stop vLLM, stop VLLM::EngineCore"), "{vllm}");
    assert!(
        vllm.contains("  F1   mitigated  MTP speculative decoding repeated or skipped tokens"),
        "{vllm}"
    );
    assert!(
        vllm.contains("       https://example.org/findings/f/7/\n"),
        "{vllm}"
    );
    assert!(
        out.stdout
            .ends_with("\n9 findings fail this audit (it fails on affected or in range)\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn markdown_links_each_finding_for_a_pull_request_comment() {
    let dir = deployment();
    let out = audit_in(
        dir.path(),
        &[
            "--root",
            &bundled(),
            "requirements.txt",
            "Dockerfile",
            "--format",
            "markdown",
        ],
        "",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stdout.starts_with("## findings audit\n\n**9 findings fail this audit (it fails on affected or in range).**\n"), "{}", out.stdout);
    let vllm = section(&out.stdout, "### vLLM 0.30.0", "### SGLang");
    let sglang = section(&out.stdout, "### SGLang 0.5.20", "\n\n\n");
    assert_names_each(vllm, &listed("vllm", "0.30.0"));
    assert_names_each(sglang, &listed("sglang", "0.5.20"));
    assert!(vllm.contains("Pinned in `requirements.txt` line 1 (`vllm==0.30.0`).\n\n| Finding | State | Advice | What to do |\n|---|---|---|---|\n"), "{vllm}");
    assert!(vllm.contains("| [F7](https://example.org/findings/f/7/): Stopping the server left the engine holding the GPU | **affected** | Stop the engine process too | When you stop vLLM"), "{vllm}");
    assert!(vllm.contains("| [F1](https://example.org/findings/f/1/): MTP speculative decoding repeated or skipped tokens | mitigated |"), "{vllm}");
    // A cell never breaks the table: `<` is escaped, no line ends inside one.
    for row in vllm.lines().filter(|l| l.starts_with("| [F")) {
        assert!(row.ends_with(" |"), "{row}");
        assert!(!row.contains('<'), "{row}");
    }
}

#[test]
fn github_commands_annotate_the_line_that_pins_each_version() {
    let dir = deployment();
    let out = audit_in(
        dir.path(),
        &[
            "--root",
            &bundled(),
            "requirements.txt",
            "Dockerfile",
            "--format",
            "github",
        ],
        "",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let vllm: String = out
        .stdout
        .lines()
        .filter(|l| l.contains(" file=requirements.txt,line=1,"))
        .collect::<Vec<_>>()
        .join("\n");
    let sglang: String = out
        .stdout
        .lines()
        .filter(|l| l.contains(" file=Dockerfile,line=3,"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_names_each(&vllm, &listed("vllm", "0.30.0"));
    assert_names_each(&sglang, &listed("sglang", "0.5.20"));
    assert!(out.stdout.contains("::error file=requirements.txt,line=1,title=F7 affected on vLLM 0.30.0::Stopping the server left the engine holding the GPU%0AAdvice: Stop the engine process too (overall: open)%0AWhat to do: When you stop vLLM"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("::notice file=requirements.txt,line=1,title=F1 mitigated on vLLM 0.30.0::"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("%0Ahttps://example.org/findings/f/7/\n"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.ends_with(
        "findings audit: 9 findings fail this audit (it fails on affected or in range)\n"
    ));
}

#[test]
fn fail_on_chooses_which_states_fail_the_run() {
    // At vLLM 0.31 nothing is tested affected; seven findings are in range.
    let dir = repo(&[]);
    let root = bundled();
    let run = |extra: &[&str]| {
        let mut args = vec!["--root", root.as_str(), "--engine", "vllm=0.31"];
        args.extend_from_slice(extra);
        audit_in(dir.path(), &args, "")
    };
    let default = run(&[]);
    assert_eq!(default.code, 1, "{}", default.stdout);
    assert!(
        default
            .stdout
            .contains("vLLM 0.31: pinned at --engine (--engine vllm=0.31)"),
        "{}",
        default.stdout
    );
    assert!(
        default
            .stdout
            .ends_with("\n7 findings fail this audit (it fails on affected or in range)\n"),
        "{}",
        default.stdout
    );
    let affected = run(&["--fail-on", "affected"]);
    assert_eq!(affected.code, 0, "{}", affected.stdout);
    assert!(
        affected
            .stdout
            .ends_with("\nno finding fails this audit (it fails on affected)\n"),
        "{}",
        affected.stdout
    );
    assert!(
        affected.stdout.contains("  F2   in range   "),
        "{}",
        affected.stdout
    );
    let never = run(&["--fail-on", "never", "--engine", "vllm=0.30"]);
    assert_eq!(never.code, 0, "{}", never.stdout);
    // Seen and clean never fail: at 0.27.1, F16 is seen and F15 clean.
    let json = audit_in(
        dir.path(),
        &[
            "--root",
            &bundled(),
            "--engine",
            "vllm=0.27.1",
            "--format",
            "json",
        ],
        "",
    );
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    for f in v["deployments"][0]["findings"].as_array().unwrap() {
        let fails = matches!(f["state"].as_str().unwrap(), "affected" | "in-range");
        assert_eq!(f["fails"], fails, "{f}");
    }
    assert!(v["deployments"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["state"] == "seen"));
}

#[test]
fn every_input_format_with_the_quirks_of_real_files() {
    let dir = repo(&[
        (
            "requirements.txt",
            "# generated by pip-compile\n-r base.txt\nrequests==2.32.3 \\\n    --hash=sha256:aaaa\nvllm[audio]==0.30.0 ; sys_platform == \"linux\" \\\n    --hash=sha256:bbbb  # F7: stop the engine too\n",
        ),
        ("base.txt", "numpy==2.2.0\nsglang==0.5.20\n"),
        ("freeze.txt", "torch==2.9.0\ntensorrt_llm==1.3.0rc29\n"),
        (
            "uv.lock",
            "version = 1\n\n[[package]]\nname = \"vllm\"\nversion = \"0.30.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n",
        ),
        (
            "pyproject.toml",
            "[project]\nname = \"serve\"\ndependencies = [\"vllm>=0.30\", \"SGLang[all]==0.5.20\"]\n",
        ),
        (
            "deploy/compose.yaml",
            "services:\n  llm:\n    image: \"docker.io/vllm/vllm-openai:v0.30.0@sha256:0123abcd\"  # pinned\n  db:\n    image: postgres:17\n",
        ),
        (
            "deploy/k8s.yml",
            "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: trt\n          image: nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc29\n",
        ),
    ]);
    let out = audit_in(
        dir.path(),
        &[
            "--root",
            &bundled(),
            "--format",
            "json",
            "requirements.txt",
            "freeze.txt",
            "uv.lock",
            "pyproject.toml",
            "deploy/compose.yaml",
            "deploy/k8s.yml",
        ],
        "",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let pins: Vec<(String, Vec<String>)> = v["deployments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                format!(
                    "{} {}",
                    d["engine"].as_str().unwrap(),
                    d["version"].as_str().unwrap()
                ),
                d["pinned_at"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| {
                        format!(
                            "{}:{} {}",
                            p["file"].as_str().unwrap(),
                            p["line"],
                            p["text"].as_str().unwrap()
                        )
                    })
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        pins,
        vec![
            (
                "vllm 0.30.0".to_string(),
                vec![
                    "requirements.txt:5 vllm[audio]==0.30.0 ; sys_platform == \"linux\""
                        .to_string(),
                    "uv.lock:5 vllm 0.30.0".to_string(),
                    "deploy/compose.yaml:3 docker.io/vllm/vllm-openai:v0.30.0@sha256:0123abcd"
                        .to_string(),
                ]
            ),
            (
                "sglang 0.5.20".to_string(),
                vec![
                    "base.txt:2 sglang==0.5.20".to_string(),
                    "pyproject.toml:3 SGLang[all]==0.5.20".to_string()
                ]
            ),
            (
                "tensorrt-llm 1.3.0rc29".to_string(),
                vec![
                    "freeze.txt:2 tensorrt_llm==1.3.0rc29".to_string(),
                    "deploy/k8s.yml:8 nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc29".to_string()
                ]
            ),
        ]
    );
    // The pyproject range is pinned by uv.lock: a note, not an error.
    assert_eq!(
        v["problems"],
        serde_json::json!([{
            "engine": "vllm", "file": "pyproject.toml", "line": 3, "text": "vllm>=0.30",
            "message": "`vllm>=0.30` allows a range of vLLM versions (>=0.30), not one",
            "hint": "vLLM's version comes from requirements.txt:5 (vllm[audio]==0.30.0 ; sys_platform == \"linux\") instead",
            "severity": "note"
        }])
    );
}

#[test]
fn pip_freeze_on_standard_input() {
    let dir = repo(&[]);
    let out = audit_in(
        dir.path(),
        &["--root", &bundled(), "-", "--format", "github"],
        "certifi==2025.1.31\nvllm==0.32.0\n",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("::error file=-,line=2,title=F7 affected on vLLM 0.32.0::"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("title=vLLM 0.32.0%3A other findings::Also with an entry for vLLM, nothing to act on at 0.32.0: fixed: F2; unknown: "), "{}", out.stdout);
}

#[test]
fn a_pin_that_names_no_version_is_reported_not_guessed() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "requirements.txt",
            "vllm>=0.30\n",
            "requirements.txt:1: error: `vllm>=0.30` allows a range of vLLM versions (>=0.30), not one\n  hint: pin one version (vllm==VERSION; pip-compile, uv and pip freeze write these), audit the lock file, or pass --engine vllm=VERSION",
        ),
        (
            "Dockerfile",
            "FROM vllm/vllm-openai:latest\n",
            "Dockerfile:1: error: `vllm/vllm-openai:latest`: the tag \"latest\" names no version of vLLM\n  hint: use a release tag (vllm/vllm-openai:v0.30.0 style; a digest may follow it), or pass --engine vllm=VERSION",
        ),
        (
            "compose.yaml",
            "services:\n  llm:\n    image: lmsysorg/sglang@sha256:0123\n",
            "compose.yaml:3: error: `lmsysorg/sglang@sha256:0123` pins a SGLang image by digest alone, which names no version\n  hint: use a release tag (lmsysorg/sglang:v0.30.0 style; a digest may follow it), or pass --engine sglang=VERSION",
        ),
        (
            "Dockerfile",
            "FROM vllm/vllm-openai:${TAG}\n",
            "Dockerfile:1: error: `vllm/vllm-openai:${TAG}` takes its tag from $TAG, which has no value in this file\n  hint: give TAG a default in the file, or pass --engine vllm=VERSION",
        ),
        (
            "requirements.txt",
            "-e git+https://github.com/vllm-project/vllm@abc123#egg=vllm\n",
            "requirements.txt:1: error: `-e git+https://github.com/vllm-project/vllm@abc123#egg=vllm` installs vLLM from source, which names no version\n  hint: pass the version the source is at: --engine vllm=VERSION",
        ),
    ];
    for (file, text, expected) in cases {
        let dir = repo(&[(file, text)]);
        let out = audit_in(dir.path(), &["--root", &bundled(), file], "");
        assert_eq!(out.code, 2, "{text}: {}", out.stdout);
        assert!(out.stdout.contains(expected), "{text}:\n{}", out.stdout);
        assert!(
            out.stdout
                .ends_with("could not be read, so the audit is incomplete\n"),
            "{}",
            out.stdout
        );
        // --engine gives the version instead: the problem becomes a note.
        let id = if text.contains("sglang") {
            "sglang=0.5.20"
        } else {
            "vllm=0.30"
        };
        let out = audit_in(
            dir.path(),
            &["--root", &bundled(), file, "--engine", id],
            "",
        );
        assert_eq!(out.code, 1, "{text}: {}", out.stdout);
        assert!(out.stdout.contains(": note: "), "{}", out.stdout);
    }
}

#[test]
fn inputs_without_an_engine_say_what_was_looked_for() {
    let dir = repo(&[
        ("requirements.txt", "flask==3.1.0\n"),
        ("Dockerfile", "FROM python:3.12\n"),
    ]);
    let out = audit_in(
        dir.path(),
        &["--root", &bundled(), "requirements.txt", "Dockerfile"],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("requirements.txt, Dockerfile name no engine (looked for: vllm, vllm/vllm-openai, sglang, lmsysorg/sglang, tensorrt-llm, nvcr.io/nvidia/tensorrt-llm/release)"), "{}", out.stdout);
    assert!(
        out.stdout.ends_with("\nno engine versions to check\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn bad_command_lines_exit_2() {
    let dir = repo(&[("notes.md", "vllm==0.30.0\n")]);
    let cases: &[(&[&str], &str)] = &[
        (&[], "error: nothing to audit: name the files that pin engine versions, or pass --engine ID=VERSION"),
        (&["--engine", "vllm"], "error: --engine vllm: expected ID=VERSION, e.g. --engine vllm=0.30"),
        (&["--engine", "vlm=0.30"], "error: --engine vlm=0.30: unknown engine \"vlm\"; known engines: vllm, sglang, tensorrt-llm, ninfer"),
        (&["--engine", "vllm=latest"], "error: --engine vllm=latest: \"latest\" is not a version: it must start with a number"),
        (&["notes.md"], "error: notes.md: cannot tell what kind of file this is from its name\n  hint: audit reads requirements files"),
        (&["missing.txt"], "error: missing.txt: cannot read it: "),
    ];
    let root = bundled();
    for (args, expected) in cases {
        let mut all = vec!["--root", root.as_str()];
        all.extend_from_slice(args);
        let out = audit_in(dir.path(), &all, "");
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(expected), "{args:?}:\n{}", out.stderr);
        assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
    }
}

/// Builds the bundled site once into a temporary folder.
fn built_site() -> &'static Path {
    static SITE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SITE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let out = dir.join("public");
        let o = common::run_in(
            &common::bundled(),
            &["build", "--output", out.to_str().unwrap()],
        );
        assert_eq!(o.code, 0, "{}", o.stderr);
        out
    })
}

/// Serves `body` at `/findings.json` (and 404 elsewhere) on 127.0.0.1;
/// returns the port.
fn serve(body: Vec<u8>) -> u16 {
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let port = server.server_addr().to_ip().unwrap().port();
    std::thread::spawn(move || {
        for request in server.incoming_requests() {
            let response = if request.url() == "/site/findings.json" {
                tiny_http::Response::from_data(body.clone())
            } else {
                tiny_http::Response::from_data(b"<!doctype html><title>Not found</title>".to_vec())
                    .with_status_code(404)
            };
            let _ = request.respond(response);
        }
    });
    port
}

#[test]
fn from_a_published_site_over_http_or_a_folder_gives_the_same_report() {
    let site = built_site();
    let body = std::fs::read(site.join("findings.json")).unwrap();
    let port = serve(body);
    let dir = deployment();
    let run = |from: &str| {
        let out = audit_in(
            dir.path(),
            &[
                "--from",
                from,
                "requirements.txt",
                "Dockerfile",
                "--format",
                "json",
            ],
            "",
        );
        assert_eq!(out.code, 1, "{from}: {}", out.stderr);
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        v
    };
    let local = audit_in(
        dir.path(),
        &[
            "--root",
            &bundled(),
            "requirements.txt",
            "Dockerfile",
            "--format",
            "json",
        ],
        "",
    );
    let mut local: Value = serde_json::from_str(&local.stdout).unwrap();
    for from in [
        format!("http://127.0.0.1:{port}/site/"),
        format!("http://127.0.0.1:{port}/site/findings.json"),
        site.display().to_string(),
    ] {
        let mut remote = run(&from);
        let expected_source = if from.ends_with('/') {
            format!("{from}findings.json")
        } else if from.starts_with("http") {
            from.clone()
        } else {
            format!("{from}/findings.json")
        };
        assert_eq!(remote["source"], expected_source.as_str());
        remote["source"] = Value::Null;
        local["source"] = Value::Null;
        assert_eq!(remote, local, "{from}");
        assert_eq!(states(&remote), expected());
    }
}

#[test]
fn an_unreachable_or_invalid_source_exits_2_never_all_clear() {
    let port = serve(b"not json".to_vec());
    let dir = deployment();
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let cases = [
        (format!("http://127.0.0.1:{closed}/findings.json"), format!("error: cannot fetch http://127.0.0.1:{closed}/findings.json: ")),
        (format!("http://127.0.0.1:{port}/elsewhere/"), format!("error: cannot fetch http://127.0.0.1:{port}/elsewhere/findings.json: http status: 404\n  hint: the site has no findings.json there")),
        (format!("http://127.0.0.1:{port}/site/findings.json"), format!("error: http://127.0.0.1:{port}/site/findings.json is not a findings.json this version can read: expected ident at line 1 column 2")),
        ("no/such/folder".to_string(), "error: cannot read no/such/folder: No such file or directory".to_string()),
    ];
    for (from, expected) in cases {
        let out = audit_in(dir.path(), &["--from", &from, "requirements.txt"], "");
        assert_eq!(out.code, 2, "{from}: {}", out.stdout);
        assert!(out.stdout.is_empty(), "{from}: {}", out.stdout);
        assert!(out.stderr.contains(&expected), "{from}:\n{}", out.stderr);
    }
}

#[test]
fn a_newer_export_is_refused_by_its_schema_version() {
    let site = built_site();
    let text = std::fs::read_to_string(site.join("findings.json")).unwrap();
    let dir = deployment();
    let newer = text.replacen("{\"schema_version\":1,", "{\"schema_version\":2,", 1);
    assert!(
        newer != text,
        "findings.json starts with its schema_version"
    );
    std::fs::write(dir.path().join("findings.json"), newer).unwrap();
    let out = audit_in(
        dir.path(),
        &["--from", "findings.json", "requirements.txt"],
        "",
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("error: findings.json has schema_version 2; this findings reads 1\n  hint: use the findings release that built the site"),
        "{}",
        out.stderr
    );
}

#[test]
fn what_reviewers_met_in_real_files() {
    let dir = repo(&[
        // A byte-order mark, as some Windows editors write.
        ("bom-requirements.txt", "\u{feff}vllm==0.30.0\n"),
        // A mirror keeps the repository path under another registry.
        (
            "mirror.yaml",
            "spec:\n  containers:\n    - image: registry.local:5000/lmsysorg/sglang:v0.5.20-b200\t# GPU build\n",
        ),
        // An editable install as `pip freeze` writes it, with no #egg=.
        (
            "freeze.txt",
            "# Editable install with no version control (tensorrt_llm==1.3.0rc29)\n-e /src/TensorRT-LLM\n",
        ),
    ]);
    let out = audit_in(
        dir.path(),
        &[
            "--root",
            &bundled(),
            "bom-requirements.txt",
            "mirror.yaml",
            "freeze.txt",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(out.code, 2, "{}", out.stdout);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let versions: Vec<String> = v["deployments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {} at {}:{}",
                d["engine"].as_str().unwrap(),
                d["version"].as_str().unwrap(),
                d["pinned_at"][0]["file"].as_str().unwrap(),
                d["pinned_at"][0]["line"]
            )
        })
        .collect();
    assert_eq!(
        versions,
        [
            "vllm 0.30.0 at bom-requirements.txt:1",
            "sglang 0.5.20 at mirror.yaml:3"
        ]
    );
    assert_eq!(v["problems"][0]["file"], "freeze.txt");
    assert_eq!(v["problems"][0]["line"], 2);
    assert_eq!(v["problems"][0]["severity"], "error");
    assert_eq!(
        v["problems"][0]["message"],
        "`-e /src/TensorRT-LLM` installs TensorRT-LLM from source, which names no version"
    );
}

#[test]
fn a_package_pin_does_not_vouch_for_an_image() {
    // The container runs what its tag says, whatever pip installed beside it.
    let dir = repo(&[
        ("requirements.txt", "vllm==0.30.0\n"),
        ("Dockerfile", "FROM vllm/vllm-openai:latest\n"),
    ]);
    let out = audit_in(
        dir.path(),
        &["--root", &bundled(), "requirements.txt", "Dockerfile"],
        "",
    );
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(
        out.stdout.contains("Dockerfile:1: error: `vllm/vllm-openai:latest`: the tag \"latest\" names no version of vLLM\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn with_format_github_a_stop_is_annotated_too() {
    let dir = deployment();
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let from = format!("http://127.0.0.1:{closed}/");
    let out = audit_in(
        dir.path(),
        &["--from", &from, "requirements.txt", "--format", "github"],
        "",
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stdout.starts_with(&format!(
            "::error title=findings audit could not run::cannot fetch http://127.0.0.1:{closed}/findings.json: "
        )),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("%0Ahint: check the address and the network"),
        "{}",
        out.stdout
    );
    let out = audit_in(
        dir.path(),
        &["--root", &bundled(), "notes.md", "--format", "github"],
        "",
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stdout.starts_with("::error file=notes.md,title=findings audit could not run::notes.md: cannot tell what kind of file this is from its name%0Ahint: "),
        "{}",
        out.stdout
    );
}
