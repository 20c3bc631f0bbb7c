//! Pastes from anywhere, answered where they were made (issue 35, parts 3
//! and 4), through the real command against the bundled findings:
//!
//! - `findings lint --from-issue` of GitHub issues built here around the
//!   pastes of `tests/fixtures/pasted/` (written for these tests), as `gh
//!   issue view N --json title,body,comments,url` prints them and as the
//!   webhook payloads of `issues` and `issue_comment` events carry them:
//!   each report a setup named by where it was found ("comment 3, second
//!   report"), linked to it; `--format github-comment` compared with its
//!   snapshot; an issue with no report exits 0 and prints nothing; the
//!   answer's own comment is not read again; a payload that is no issue
//!   is refused with its key;
//! - what a paste cannot make the comment do: mention, link, HTML, a
//!   token echoed;
//! - `findings lint -` and `findings compare -` from standard input, and
//!   `compare --from-issue`: each report a side;
//! - the workflow that posts the comment (docs/workflows/
//!   answer-pasted-benchmarks.yml), read as YAML: when its job runs (its
//!   `if:` evaluated for each kind of event), its permissions, and that no
//!   text of the issue is written into a script.
#![allow(missing_docs)]

mod common;

use serde_json::json;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pasted")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `findings ARGS` run in the repository (its records are the findings:
/// "the records in ."), with `stdin` on standard input.
fn findings(args: &[&str], stdin: Option<&[u8]>) -> common::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_findings"))
        .args(args)
        .current_dir(common::bundled())
        .env("NO_COLOR", "1")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        // A command that refuses its arguments (`compare - -`) may exit
        // before it reads: its input is then not wanted, not an error.
        match child.stdin.take().unwrap().write_all(bytes) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            other => other.unwrap(),
        }
    }
    let out = child.wait_with_output().unwrap();
    common::Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

const ISSUE: &str = "https://github.com/me/bench/issues/41";

/// What `--format github-comment` says on stderr against the bundled
/// site, whose base_url is https://example.org/findings/.
const PLACEHOLDER_WARNING: &str = "warning: the comment's links start with https://example.org/findings/, whose host example.org is a placeholder, so no reader can open them; set base_url in site.yaml to where the site is published, or give --from the published site's address\n";

fn comment_url(id: usize) -> String {
    format!("{ISSUE}#issuecomment-{id}")
}

/// An issue as `gh issue view 41 --json title,body,comments,url` prints it
/// (the keys of the gh CLI's `api.Comment`), comment `i` numbered 100 + i.
fn gh_issue(body: &str, comments: &[&str]) -> String {
    let comments: Vec<serde_json::Value> = comments
        .iter()
        .enumerate()
        .map(|(i, c)| {
            json!({
                "id": format!("IC_kwDO{i}"),
                "author": {"login": format!("user{i}")},
                "authorAssociation": "NONE",
                "body": c,
                "createdAt": "2026-03-02T10:00:00Z",
                "includesCreatedEdit": false,
                "isMinimized": false,
                "minimizedReason": "",
                "reactionGroups": [],
                "url": comment_url(101 + i),
                "viewerDidAuthor": false
            })
        })
        .collect();
    json!({
        "title": "Output throughput flat from 8 to 32 requests at once",
        "body": body,
        "comments": comments,
        "url": ISSUE
    })
    .to_string()
}

/// The payload of an `issue_comment` event (`created`), as GitHub sends it
/// (the keys the workflow and the lint read, and a few beside them).
fn comment_event(issue_body: Option<&str>, comment: &str, user_type: &str) -> serde_json::Value {
    json!({
        "action": "created",
        "issue": {
            "number": 41,
            "html_url": ISSUE,
            "title": "Output throughput flat",
            "body": issue_body,
            "user": {"login": "reporter", "type": "User"},
            "comments": 3
        },
        "comment": {
            "id": 777,
            "html_url": comment_url(777),
            "body": comment,
            "user": {"login": if user_type == "Bot" { "ci-bench[bot]" } else { "someone" }, "type": user_type}
        },
        "repository": {"full_name": "me/bench"},
        "sender": {"login": if user_type == "Bot" { "ci-bench[bot]" } else { "someone" }, "type": user_type}
    })
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The thread the snapshot answers: two vLLM reports in the body (one of
/// them lost two requests; its command carries a bearer token), a comment
/// of no report, two SGLang reports in a comment, the answer of an earlier
/// run of the workflow (which quotes a report, and is not read again), and
/// trtllm-bench's report in the last comment.
fn thread() -> String {
    let answer = format!(
        "{}\n### 1 benchmark report read against the findings\n\n```\n{}\n```\n",
        findings::issue::ANSWER_MARKER,
        fixture("trtllm-bench-latency-0.15.txt")
    );
    gh_issue(
        &fixture("vllm-issue-two-runs.md"),
        &[
            "Which GPU was this on?",
            &fixture("sglang-two-versions.md"),
            &answer,
            &format!(
                "On TensorRT-LLM, for comparison:\n\n```\n{}```\n",
                fixture("trtllm-bench-0.16-throughput.txt")
            ),
        ],
    )
}

#[test]
fn an_issue_of_several_reports_is_answered_in_one_comment() {
    let dir = tempfile::tempdir().unwrap();
    let payload = write(dir.path(), "issue.json", &thread());
    let p = payload.to_str().unwrap();
    let r = findings(
        &["lint", "--from-issue", p, "--format", "github-comment"],
        None,
    );
    // Two checks flag the reports: a lost request, and TensorRT-LLM's
    // pauses not counted (a flag of what the reports do not record: the
    // comment lists it with what they cannot tell). The bundled site's
    // base_url is a placeholder: said on stderr.
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stderr, PLACEHOLDER_WARNING);
    let c = &r.stdout;
    assert!(
        c.starts_with("<!-- findings: answer to pasted benchmark reports -->\n"),
        "{c}"
    );
    // Each report by where it was found, linked to it; the answer's own
    // comment (comment 3) is not read; comment 1 holds no report.
    for (name, url) in [
        ("the issue body, first report", ISSUE.to_string()),
        ("the issue body, second report", ISSUE.to_string()),
        ("comment 2, first report", comment_url(102)),
        ("comment 2, second report", comment_url(102)),
        ("comment 4", comment_url(104)),
    ] {
        assert!(c.contains(&format!("| [{name}]({url}) |")), "{name}:\n{c}");
    }
    assert!(!c.contains("comment 3"), "{c}");
    assert!(!c.contains("comment 1"), "{c}");
    assert!(c.contains("read 5 benchmark reports in the issue body and its 4 comments (one of them the answer of findings lint, not read)"), "{c}");
    // The token of the pasted command never reaches the comment.
    assert!(!c.contains("sk-test-0123456789abcdef"), "{c}");
    assert!(!c.contains("sk-live"), "{c}");
    insta::assert_snapshot!("issue_comment", c);

    // The table names the same reports, and points each flag at one.
    let t = findings(&["lint", "--from-issue", p], None);
    assert_eq!(t.code, 1, "{}", t.stderr);
    assert!(
        t.stdout.contains(&format!(
            "! no-lost-requests  the issue body, second report ({ISSUE})\n    the issue body, second report: 2 of 400 requests failed: the figures are of the completed requests only\n"
        )),
        "{}",
        t.stdout
    );
    // The thread names its engines ("vLLM 0.11.0" in the body, "SGLang
    // 0.3.0" in comment 2, trtllm-bench's own version line): three engines
    // under three clients is a flag of its own. The pasted reports hold no
    // count of preemptions, which only the servers record: the check
    // cannot tell, and that is no flag.
    assert!(
        t.stdout.contains(&format!(
            "! one-client  comment 2, first report ({ISSUE}#issuecomment-102)\n"
        )),
        "{}",
        t.stdout
    );
    assert!(
        t.stdout.contains("\n? cannot tell preemptions-read (F8, F10): cannot tell: the issue body, first report records no preemptions"),
        "{}",
        t.stdout
    );
    assert!(
        t.stdout.ends_with(
            "findings lint: 2 checks flag these reports: one-client, no-lost-requests\n"
        ),
        "{}",
        t.stdout
    );
    // JSON names each setup with its lines and address.
    let j = findings(&["lint", "--from-issue", p, "--format", "json"], None);
    let v: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
    let setups = v["runs"][0]["setups"].as_array().unwrap();
    let names: Vec<&str> = setups.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "the issue body, first report",
            "the issue body, second report",
            "comment 2, first report",
            "comment 2, second report",
            "comment 4"
        ]
    );
    assert_eq!(setups[4]["engine"], "tensorrt-llm");
    assert_eq!(setups[4]["version"], "0.16.0");
    assert_eq!(setups[2]["url"], comment_url(102));
    assert_eq!(v["issue"]["reports"], 5);
    assert_eq!(v["issue"]["url"], ISSUE);
    assert_eq!(v["inputs"], json!([p]));
}

#[test]
fn an_issue_without_a_report_gets_no_comment() {
    let dir = tempfile::tempdir().unwrap();
    let payload = write(
        dir.path(),
        "issue.json",
        &gh_issue(
            "vLLM 0.30 hangs at start; log below.\n\n```\nINFO 03-02 10:00:01 Starting vLLM API server on http://0.0.0.0:8000\n```\n",
            &["Same here.", "Throughput: X requests/s is what the docs say"],
        ),
    );
    let p = payload.to_str().unwrap();
    let r = findings(
        &["lint", "--from-issue", p, "--format", "github-comment"],
        None,
    );
    // Nothing to answer: no output, and stderr says why.
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (
            0,
            "",
            "findings lint: no comment: no benchmark report in the issue body and its 2 comments\n"
        )
    );
    let t = findings(&["lint", "--from-issue", p], None);
    assert_eq!(t.code, 0, "{}", t.stderr);
    assert_eq!(
        t.stdout,
        "Findings from the records in .\n\nfindings lint: no benchmark report in the issue body and its 2 comments\n"
    );
    // An issue whose only text is the answer of findings lint.
    let answered = write(
        dir.path(),
        "answered.json",
        &gh_issue(
            "",
            &[&format!("{}\nold answer", findings::issue::ANSWER_MARKER)],
        ),
    );
    let r = findings(
        &[
            "lint",
            "--from-issue",
            answered.to_str().unwrap(),
            "--format",
            "github-comment",
        ],
        None,
    );
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (
            0,
            "",
            "findings lint: no comment: no benchmark report in the issue (no body) and its comment (the answer of findings lint, not read)\n"
        )
    );
}

#[test]
fn a_webhook_payload_names_its_comment() {
    let dir = tempfile::tempdir().unwrap();
    let event = comment_event(None, &fixture("trtllm-bench-0.16-throughput.txt"), "User");
    let payload = write(dir.path(), "event.json", &event.to_string());
    let r = findings(
        &[
            "lint",
            "--from-issue",
            payload.to_str().unwrap(),
            "--format",
            "github-comment",
        ],
        None,
    );
    // trtllm-bench's report alone asks for no concurrency or rate: no
    // check flags it, and no finding of the site applies to TensorRT-LLM
    // 0.16.0: there is nothing to answer, and stderr says so.
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (
            0,
            "",
            "findings lint: no comment: 1 benchmark report in the issue (no body) and its comment: no finding of the site applies to TensorRT-LLM 0.16.0; no check finds anything in it; there is no other report to compare it with\n"
        )
    );
    // The report is named by the payload's one comment, and linked to it.
    let j = findings(
        &[
            "lint",
            "--from-issue",
            payload.to_str().unwrap(),
            "--format",
            "json",
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
    let setup = &v["runs"][0]["setups"][0];
    assert_eq!(
        (
            &setup["name"],
            &setup["url"],
            &setup["engine"],
            &setup["version"]
        ),
        (
            &json!("the comment"),
            &json!(comment_url(777)),
            &json!("tensorrt-llm"),
            &json!("0.16.0")
        )
    );
    assert_eq!(v["issue"]["read"], "the issue (no body) and its comment");
    // An `issues` event: the body alone, linked to the issue.
    let mut opened = event.clone();
    opened.as_object_mut().unwrap().remove("comment");
    opened["action"] = json!("opened");
    opened["issue"]["body"] = json!(fixture("vllm-issue-two-runs.md"));
    let payload = write(dir.path(), "opened.json", &opened.to_string());
    let j = findings(
        &[
            "lint",
            "--from-issue",
            payload.to_str().unwrap(),
            "--format",
            "json",
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!(
        v["runs"][0]["setups"][1]["name"],
        "the issue body, second report"
    );
    assert_eq!(v["runs"][0]["setups"][1]["url"], ISSUE);
    assert_eq!(v["issue"]["read"], "the issue body");
}

#[test]
fn a_payload_that_is_no_issue_is_refused_with_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let hint = "  hint: give the output of `gh issue view N --json title,body,comments,url`, or the payload of an `issues` or `issue_comment` event (a workflow's $GITHUB_EVENT_PATH)\n";
    for (name, text, error) in [
        (
            "number.json",
            r#"{"title": "t", "body": "b", "comments": [{"body": "fine"}, {"body": 7}]}"#,
            "`comments[1].body` is a number; expected text",
        ),
        (
            "list.json",
            r#"[{"body": "b"}]"#,
            "not a GitHub issue: the JSON is a list, not an object",
        ),
        (
            "pr.json",
            r#"{"pull_request": {"body": "b"}, "action": "opened"}"#,
            "not a GitHub issue: it has no `body` or `comments` (as `gh issue view --json` writes) and no `issue` (as a webhook payload has); its keys: action, pull_request",
        ),
        (
            "cut.json",
            r#"{"body": "b", "comments": ["#,
            "not JSON: EOF while parsing a list at line 1 column 27",
        ),
        (
            "comment.json",
            r#"{"issue": {"body": "b"}, "comment": "text"}"#,
            "`comment` is text; expected an object",
        ),
    ] {
        let path = write(dir.path(), name, text);
        let p = path.to_str().unwrap();
        let r = findings(&["lint", "--from-issue", p, "--format", "github-comment"], None);
        assert_eq!(r.code, 2, "{name}: {}", r.stdout);
        assert_eq!(r.stdout, "", "{name}");
        assert_eq!(r.stderr, format!("error: {p}: {error}\n{hint}"), "{name}");
    }
    // From standard input, the file is `-`.
    let r = findings(&["lint", "--from-issue", "-"], Some(b"   "));
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: -: standard input is empty; pipe `gh issue view N --json title,body,comments,url` into it\n"
    );
    let r = findings(&["lint", "--from-issue", "-"], Some(b"{}"));
    assert_eq!(
        r.stderr,
        format!("error: -: not a GitHub issue: it has no `body` or `comments` (as `gh issue view --json` writes) and no `issue` (as a webhook payload has)\n{hint}")
    );
    // --from-issue reads the issue's reports as the run: no files beside.
    let r = findings(&["lint", "a.json", "--from-issue", "-"], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot be used with"), "{}", r.stderr);
}

/// A comment of `vllm bench serve`'s report, the command printed before
/// it as `benchmark_serving.py` does (`Namespace(…)`), with a model name
/// and a key chosen to act in a comment if they could.
fn hostile_report() -> String {
    "Ran it like this on vLLM 0.30.0, @octocat please look:\n\n```\nNamespace(backend='vllm', model='@octocat <img src=x onerror=alert(1)> [x](javascript:alert(1))', max_concurrency=4, num_prompts=40, api_key='sk-secret-123456')\n$ curl -H \"Authorization: Bearer sk-abcdef987654\" http://localhost:8000/v1/models\n============ Serving Benchmark Result ============\nSuccessful requests:                     40\nBenchmark duration (s):                  10.00\nTotal input tokens:                      4000\nTotal generated tokens:                  2000\nRequest throughput (req/s):              4.00\nOutput token throughput (tok/s):         200.00\n---------------Time to First Token----------------\nMean TTFT (ms):                          20.00\nMedian TTFT (ms):                        19.00\nP99 TTFT (ms):                           40.00\n==================================================\n```\n".to_string()
}

/// The comment without its code spans: what GitHub renders as Markdown.
fn outside_code(comment: &str) -> String {
    let mut out = String::new();
    for (i, part) in comment.split('`').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
        }
    }
    out
}

#[test]
fn a_paste_cannot_act_in_the_comment() {
    let dir = tempfile::tempdir().unwrap();
    let payload = write(dir.path(), "issue.json", &gh_issue(&hostile_report(), &[]));
    let r = findings(
        &[
            "lint",
            "--from-issue",
            payload.to_str().unwrap(),
            "--format",
            "github-comment",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let c = &r.stdout;
    // The model is shown as typed, in a code span; nothing of it outside.
    assert!(
        c.contains("| `@octocat <img src=x onerror=alert(1)> [x](javascript:alert(1))` |"),
        "{c}"
    );
    let md = outside_code(c);
    for bad in ["@octocat", "<img", "javascript:", "sk-secret", "sk-abcdef"] {
        assert!(!md.contains(bad), "{bad} outside a code span:\n{c}");
    }
    assert!(!c.contains("sk-secret") && !c.contains("sk-abcdef"), "{c}");
    // The only HTML is the marker, the folds (<details>, <summary>) and
    // the closing line's <sub>.
    let tags: Vec<&str> = md
        .match_indices('<')
        .map(|(i, _)| &md[i..(i + 5).min(md.len())])
        .collect();
    assert!(
        tags.iter().all(|t| *t == "<!-- "
            || ["<sub>", "</sub", "<deta", "</det", "<summ", "</sum"]
                .iter()
                .any(|ok| t.starts_with(ok))),
        "{tags:?}"
    );
}

#[test]
fn a_report_of_no_stated_engine_cites_no_engines_finding() {
    // A report that lost requests, in a repository of no engine, naming
    // none: the comment is posted for the flag, and cites no finding of
    // an engine (F15 is NInfer's), since the report's may be any other.
    let report = serve_report(1671.84, 95.18)
        .replacen("$ vllm bench serve ", "$ my-bench ", 1)
        .replace(
            "Successful requests:                     400",
            "Successful requests:                     398",
        )
        .replace(
            "Failed requests:                         0",
            "Failed requests:                         2",
        );
    let dir = tempfile::tempdir().unwrap();
    let payload = write(
        dir.path(),
        "issue.json",
        &gh_issue(&format!("```\n{report}```\n"), &[]),
    );
    let r = findings(
        &[
            "lint",
            "--from-issue",
            payload.to_str().unwrap(),
            "--format",
            "github-comment",
        ],
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.contains(&format!(
            "- **`no-lost-requests`** in [the issue body]({ISSUE}): 2 of 400 requests failed: the figures are of the completed requests only\n"
        )),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("/f/"), "{}", r.stdout);
    // The table, for the reader who runs it, leaves nothing out.
    let t = findings(&["lint", "--from-issue", payload.to_str().unwrap()], None);
    assert!(t.stdout.contains("F15 "), "{}", t.stdout);
}

/// `vllm bench serve`'s report of one run, as it prints it.
fn serve_report(throughput: f64, ttft_p99: f64) -> String {
    format!(
        "$ vllm bench serve --model Qwen/Qwen3-8B --dataset-name random --random-input-len 512 --random-output-len 256 --num-prompts 400 --max-concurrency 8\n\
============ Serving Benchmark Result ============\n\
Successful requests:                     400\n\
Failed requests:                         0\n\
Maximum request concurrency:             8\n\
Benchmark duration (s):                  61.25\n\
Total input tokens:                      204800\n\
Total generated tokens:                  102400\n\
Request throughput (req/s):              6.53\n\
Output token throughput (tok/s):         {throughput:.2}\n\
---------------Time to First Token----------------\n\
Mean TTFT (ms):                          48.12\n\
Median TTFT (ms):                        45.03\n\
P99 TTFT (ms):                           {ttft_p99:.2}\n\
==================================================\n"
    )
}

#[test]
fn standard_input_is_read_by_lint_and_compare() {
    let paste = format!(
        "Before:\n\n```\n{}```\n\nAfter:\n\n```\n{}```\n",
        serve_report(1671.84, 95.18),
        serve_report(1805.5, 88.0)
    );
    // lint -: a setup per report, each flag at its report's first line.
    let r = findings(
        &["lint", "-", "--engine", "vllm", "--version", "0.30"],
        Some(paste.as_bytes()),
    );
    // A paste cannot hold the server's count of preemptions: the check
    // cannot tell, which is no flag and no failure.
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("\n? cannot tell preemptions-read (F8): cannot tell: standard input, lines 5–18 records no preemptions (vLLM logs none: read `vllm:num_preemptions_total` before and after the run); standard input, lines 25–38 records no preemptions (vLLM logs none: read `vllm:num_preemptions_total` before and after the run); their latency figures may hold requests that were preempted and computed again; a client's report pasted as text cannot hold what only the server records\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .ends_with("\nfindings lint: no check flags these files (4 checks checked)\n"),
        "{}",
        r.stdout
    );
    // The same text as a file reads alike, named by the file.
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "before-after.md", &paste);
    let f = findings(
        &[
            "lint",
            file.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ],
        None,
    );
    assert_eq!(
        f.stdout
            .replace(&file.display().to_string(), "-")
            .replace("before-after.md", "standard input"),
        r.stdout
    );
    // compare -: each report a side, the first the baseline.
    let c = findings(
        &[
            "compare",
            "-",
            "--engine",
            "vllm",
            "--version",
            "0.30",
            "--metric",
            "output_throughput",
            "--format",
            "json",
        ],
        Some(paste.as_bytes()),
    );
    assert_eq!(c.code, 0, "{}{}", c.stdout, c.stderr);
    let v: serde_json::Value = serde_json::from_str(&c.stdout).unwrap();
    let sides: Vec<&str> = v["sides"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        sides,
        [
            "vLLM 0.30 (standard input, lines 5–18)",
            "vLLM 0.30 (standard input, lines 25–38)"
        ]
    );
    assert_eq!(v["workloads"][0]["rows"][0]["changes"][1]["shown"], "+8%");
    // Standard input can be read once.
    let twice = findings(&["compare", "-", "-"], Some(b"x"));
    assert_eq!(
        (twice.code, twice.stderr.as_str()),
        (
            2,
            "error: - (standard input) is named twice; it can be read once\n"
        )
    );
}

#[test]
fn compare_sets_the_reports_of_an_issue_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let payload = write(
        dir.path(),
        "issue.json",
        &gh_issue(
            &format!("On 0.29:\n\n```\n{}```\n", serve_report(1671.84, 95.18)),
            &[
                "Can you try 0.30?",
                &format!("0.30:\n\n```\n{}```\n", serve_report(1500.0, 120.0)),
            ],
        ),
    );
    let p = payload.to_str().unwrap();
    let c = findings(
        &[
            "compare",
            "--from-issue",
            p,
            "--metric",
            "output_throughput",
            "--metric",
            "ttft_ms_p99",
        ],
        None,
    );
    assert_eq!(c.code, 0, "{}{}", c.stdout, c.stderr);
    assert!(
        c.stdout.starts_with(
            "comment 2 against the issue body: both metrics untested, single runs: worse on 2 (TTFT p99 +26%, output throughput −10%).\n\
             \n\
             Compared: the issue body (baseline, 1 file), comment 2 (1 file)\n"
        ),
        "{}",
        c.stdout
    );
    assert!(c.stdout.contains("−10% worse, untested"), "{}", c.stdout);
    // No report in the issue: nothing to compare.
    let none = write(dir.path(), "none.json", &gh_issue("hello", &[]));
    let c = findings(&["compare", "--from-issue", none.to_str().unwrap()], None);
    assert_eq!(c.code, 2);
    assert!(
        c.stderr.starts_with(&format!(
            "error: {}: the issue holds no benchmark report to compare\n",
            none.display()
        )),
        "{}",
        c.stderr
    );
}

// The workflow that answers pastes.

fn workflow() -> serde_yaml::Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("docs/workflows/answer-pasted-benchmarks.yml");
    serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The value at `path` (`github.event.comment.user.type`) of an event, as
/// a GitHub expression reads it (null when missing).
fn context(event_name: &str, payload: &serde_json::Value, path: &str) -> serde_json::Value {
    let mut parts = path.split('.');
    assert_eq!(parts.next(), Some("github"), "{path}");
    match parts.next() {
        Some("event_name") => json!(event_name),
        Some("event") => {
            let mut v = payload;
            for p in parts {
                match v.get(p) {
                    Some(x) => v = x,
                    None => return serde_json::Value::Null,
                }
            }
            v.clone()
        }
        other => panic!("the condition reads github.{other:?}, which this test does not model"),
    }
}

/// The `if:` of the workflow's job, evaluated for an event: GitHub's
/// expressions as the condition uses them (`==`, `!=`, `&&`, `||`, `!`,
/// parentheses, `null`, strings, `github.…`), truthiness as GitHub has it.
fn runs(condition: &str, event_name: &str, payload: &serde_json::Value) -> bool {
    let tokens = tokenize(condition);
    let mut at = 0;
    let v = or(&tokens, &mut at, (event_name, payload));
    assert_eq!(
        at,
        tokens.len(),
        "left over in {condition:?}: {:?}",
        &tokens[at..]
    );
    truthy(&v)
}

fn tokenize(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let cs: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '\'' {
            let mut j = i + 1;
            while cs[j] != '\'' {
                j += 1;
            }
            out.push(cs[i..=j].iter().collect());
            i = j + 1;
        } else if "()".contains(c) {
            out.push(c.to_string());
            i += 1;
        } else if "=!&|".contains(c) {
            let two: String = cs[i..(i + 2).min(cs.len())].iter().collect();
            if ["==", "!=", "&&", "||"].contains(&two.as_str()) {
                out.push(two);
                i += 2;
            } else {
                out.push(c.to_string());
                i += 1;
            }
        } else {
            let mut j = i;
            while j < cs.len() && (cs[j].is_alphanumeric() || "._-".contains(cs[j])) {
                j += 1;
            }
            assert!(j > i, "cannot read {:?}", &s[i..]);
            out.push(cs[i..j].iter().collect());
            i = j;
        }
    }
    out
}

/// An event as a condition reads it: its name and its payload.
type Ev<'a> = (&'a str, &'a serde_json::Value);

fn or(t: &[String], at: &mut usize, ev: Ev<'_>) -> serde_json::Value {
    let mut v = and(t, at, ev);
    while t.get(*at).map(String::as_str) == Some("||") {
        *at += 1;
        let r = and(t, at, ev);
        v = if truthy(&v) { v } else { r };
    }
    v
}

fn and(t: &[String], at: &mut usize, ev: Ev<'_>) -> serde_json::Value {
    let mut v = cmp(t, at, ev);
    while t.get(*at).map(String::as_str) == Some("&&") {
        *at += 1;
        let r = cmp(t, at, ev);
        v = if truthy(&v) { r } else { v };
    }
    v
}

fn cmp(t: &[String], at: &mut usize, ev: Ev<'_>) -> serde_json::Value {
    let l = unary(t, at, ev);
    match t.get(*at).map(String::as_str) {
        Some(op @ ("==" | "!=")) => {
            let op = op.to_string();
            *at += 1;
            let r = unary(t, at, ev);
            // GitHub compares strings without regard to case.
            let eq = match (&l, &r) {
                (serde_json::Value::String(a), serde_json::Value::String(b)) => {
                    a.eq_ignore_ascii_case(b)
                }
                _ => l == r,
            };
            json!(if op == "==" { eq } else { !eq })
        }
        _ => l,
    }
}

fn unary(t: &[String], at: &mut usize, ev: Ev<'_>) -> serde_json::Value {
    let tok = t[*at].clone();
    *at += 1;
    match tok.as_str() {
        "!" => json!(!truthy(&unary(t, at, ev))),
        "(" => {
            let v = or(t, at, ev);
            assert_eq!(t[*at], ")");
            *at += 1;
            v
        }
        "null" => serde_json::Value::Null,
        "true" => json!(true),
        "false" => json!(false),
        s if s.starts_with('\'') => json!(s.trim_matches('\'')),
        s => context(ev.0, ev.1, s),
    }
}

fn truthy(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Null => false,
        serde_json::Value::Bool(b) => *b,
        serde_json::Value::Number(n) => n.as_f64() != Some(0.0),
        serde_json::Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

#[test]
fn the_workflow_answers_people_and_never_a_bot() {
    let w = workflow();
    // On issues opened or edited, and comments created.
    assert_eq!(
        serde_yaml::to_string(&w["on"]).unwrap(),
        "issues:\n  types:\n  - opened\n  - edited\nissue_comment:\n  types:\n  - created\n"
    );
    let jobs = w["jobs"].as_mapping().unwrap();
    assert_eq!(jobs.len(), 1);
    let job = &w["jobs"]["answer"];
    let condition = job["if"].as_str().unwrap();
    let human = comment_event(Some("body"), "a report", "User");
    let bot = comment_event(Some("body"), "a report", "Bot");
    assert!(runs(condition, "issue_comment", &human), "{condition}");
    assert!(!runs(condition, "issue_comment", &bot), "{condition}");
    // A person's comment relayed by a bot (the actor a bot).
    let mut relayed = human.clone();
    relayed["sender"]["type"] = json!("Bot");
    assert!(!runs(condition, "issue_comment", &relayed));
    // A comment on a pull request's conversation.
    let mut on_pr = human.clone();
    on_pr["issue"]["pull_request"] =
        json!({"url": "https://api.github.com/repos/me/bench/pulls/41"});
    assert!(!runs(condition, "issue_comment", &on_pr));
    // An issue opened by a person, and one opened by a bot.
    let mut opened = human.clone();
    opened.as_object_mut().unwrap().remove("comment");
    opened["action"] = json!("opened");
    assert!(runs(condition, "issues", &opened));
    let mut by_bot = opened.clone();
    by_bot["issue"]["user"]["type"] = json!("Bot");
    assert!(!runs(condition, "issues", &by_bot));
    // An issue edited by a bot (a label bot rewriting the body).
    let mut edited = opened.clone();
    edited["action"] = json!("edited");
    edited["sender"]["type"] = json!("Bot");
    assert!(!runs(condition, "issues", &edited));
}

#[test]
fn the_workflow_asks_for_issues_write_alone_and_writes_no_issue_text_into_a_script() {
    let w = workflow();
    // No permission for the workflow as a whole; the job writes issues.
    assert_eq!(
        serde_yaml::to_string(&w["permissions"]).unwrap(),
        "{}\n",
        "workflow-level permissions"
    );
    let job = &w["jobs"]["answer"];
    assert_eq!(
        serde_yaml::to_string(&job["permissions"]).unwrap(),
        "issues: write\n"
    );
    let steps = job["steps"].as_sequence().unwrap();
    let scripts: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
    assert!(!scripts.is_empty());
    let all = scripts.join("\n");
    // No expression in a script at all: what the event says is read from
    // the payload file, by jq, or passed in `env:`.
    for s in &scripts {
        assert!(!s.contains("${{"), "an expression in a script:\n{s}");
    }
    for step in steps {
        for (k, v) in step["env"].as_mapping().into_iter().flatten() {
            let v = serde_yaml::to_string(v).unwrap();
            for text in ["body", "title", "comment.", "head_ref", "label"] {
                assert!(
                    !(v.contains("github.event") && v.contains(text)),
                    "env {k:?} takes text of the event: {v}"
                );
            }
        }
    }
    assert!(all.contains("\"$GITHUB_EVENT_PATH\""), "{all}");
    assert!(all.contains("findings lint --from-issue"), "{all}");
    assert!(all.contains("--format github-comment"), "{all}");
    // It finds its own answer by the marker the comment starts with, among
    // the comments of github-actions[bot], and updates it (PATCH) rather
    // than post a second; it posts only when the comment is not empty.
    assert!(all.contains(findings::issue::ANSWER_MARKER), "{all}");
    assert!(all.contains("github-actions[bot]"), "{all}");
    assert!(
        all.contains("--method PATCH \"repos/$GITHUB_REPOSITORY/issues/comments/$id\""),
        "{all}"
    );
    assert!(
        all.contains("--method POST \"repos/$GITHUB_REPOSITORY/issues/$number/comments\""),
        "{all}"
    );
    assert!(all.contains("[ ! -s \"$comment\" ]"), "{all}");
    // One run per issue at a time, so that two events never post two.
    assert_eq!(
        w["concurrency"]["cancel-in-progress"],
        serde_yaml::Value::Bool(false)
    );
    assert!(w["concurrency"]["group"]
        .as_str()
        .unwrap()
        .contains("github.event.issue.number"));
}

/// `vllm bench throughput`'s one-line reports, `n` of them, one a line.
fn one_liners(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "Throughput: {}.5 requests/s, {}.0 tokens/s\n",
                1 + i % 7,
                100 + i
            )
        })
        .collect()
}

#[test]
fn a_paste_of_thousands_of_reports_is_read_in_one_pass() {
    // 5,000 reports, a setup each: the checks, the symptoms and the loader
    // file what they read by setup (they compared every setup with every
    // other, cubic in the reports: this paste took minutes), and the text
    // is read once for all its reports, not once for each. The comment
    // lists the first 30 and counts the rest.
    let dir = tempfile::tempdir().unwrap();
    let paste = write(dir.path(), "sweep.txt", &one_liners(5_000));
    let r = findings(
        &[
            "lint",
            paste.to_str().unwrap(),
            "--engine",
            "vllm",
            "--version",
            "0.30.0",
            "--format",
            "github-comment",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "\n### vLLM 0.30.0: 3 findings affect it; 4 in range, untested; 1 mitigated\n\n`findings lint` read 5,000 benchmark reports against the findings of "
        ),
        "{}",
        &r.stdout[..300]
    );
    assert!(
        r.stdout
            .contains("| sweep.txt, line 30 | `vllm bench throughput` |"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("sweep.txt, line 31 "), "{}", r.stdout);
    assert!(
        r.stdout.contains("\n… and 4,970 more reports, not listed here (`findings lint --format json` lists them all).\n"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.len() < 65_536);
    // An issue of as many reports, each headed with a version of its own:
    // each version is found once (in a set, not by a pass over those
    // found before), five versions' findings are listed, the others
    // counted, and the comment stays under GitHub's limit.
    let headed: String = one_liners(5_000)
        .lines()
        .enumerate()
        .map(|(i, l)| format!("vLLM 0.{i}.1 run:\n{l}\n\n"))
        .collect();
    let issue = write(dir.path(), "issue.json", &gh_issue(&headed, &[]));
    let r = findings(
        &[
            "lint",
            "--from-issue",
            issue.to_str().unwrap(),
            "--format",
            "github-comment",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout.matches("\n#### vLLM 0.").count(),
        5,
        "{}",
        &r.stdout[..2000]
    );
    assert!(
        r.stdout.contains("\n… and 4,968 more versions, not listed here (`findings lint --format json` lists them all).\n"),
        "{}",
        &r.stdout[..2000]
    );
    assert!(r.stdout.len() < 65_536, "{}", r.stdout.len());
    // One more is refused: a run of more setups is over what a run.yaml
    // holds.
    let over = write(dir.path(), "over.txt", &one_liners(5_001));
    let r = findings(&["lint", over.to_str().unwrap()], None);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        format!(
            "error: {}: the text holds 5,001 reports, over the limit of 5,000 reports a text is read as setups\n",
            over.display()
        )
    );
}
