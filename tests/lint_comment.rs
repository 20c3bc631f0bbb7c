//! The comment `findings lint --from-issue FILE --format github-comment`
//! posts (issue 38, part 6; issue 43, part 4), on issue texts of the vLLM,
//! vLLM-Ascend, SGLang and llama.cpp trackers (`tests/fixtures/issues/`,
//! trimmed; its README names each source), against the bundled records
//! (the repository's `findings/`, `data/` and `site.yaml`):
//!
//! - a comment only where the lint has something for the issue (a finding
//!   that applies at a version it is about, a check that found something,
//!   a change between two reports of one workload); otherwise no output,
//!   exit 0, and the reason on stderr, for every thread;
//! - an issue in vllm-project/vllm whose environment says `vLLM Version:
//!   0.30.0` is answered with vLLM 0.30.0 and the findings that affect it
//!   (F2, F6, F7) as `findings audit` lists them, and no finding of NInfer,
//!   SGLang or TensorRT-LLM; one in sgl-project/sglang saying `sglang:
//!   0.5.20` with SGLang 0.5.20, F4 and F5; one whose title names two
//!   versions with the findings at both; an upgrade's reports headed
//!   `Before:` on the version upgraded from;
//! - two llama.cpp builds of one workload: the comment leads with the
//!   change in the words `findings compare --from-issue` prints, and each
//!   report names its own models;
//! - where the engine and version were read: an environment dump, a pin,
//!   the title, a report's heading (which outranks the repository), the
//!   command that started the server, the report's `Backend:` line, the
//!   issue's repository or a plugin of it; vLLM's old
//!   `benchmark_serving.py` named as vLLM's, not SGLang's;
//! - no local path, whichever folder the command runs from; the site named
//!   by its title and `base_url`, and a warning on stderr when that is a
//!   placeholder; at most 2,500 characters outside `<details>` for one
//!   report; the same bytes every time;
//! - the other formats cite no other engine's finding either.
#![allow(missing_docs)]

mod common;

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What `--format github-comment` says on stderr against the bundled
/// site, whose base_url is https://example.org/findings/.
const PLACEHOLDER_WARNING: &str = "warning: the comment's links start with https://example.org/findings/, whose host example.org is a placeholder, so no reader can open them; set base_url in site.yaml to where the site is published, or give --from the published site's address\n";

fn fixture(name: &str) -> Value {
    let path = common::fixture("issues").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// `findings lint --from-issue <payload> ARGS`, run from `cwd` (the
/// bundled site's folder unless `--root` says otherwise).
fn lint_in(cwd: &Path, payload: &Value, args: &[&str]) -> common::Output {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("issue.json");
    std::fs::write(&file, payload.to_string()).unwrap();
    let mut all = vec!["lint", "--from-issue", file.to_str().unwrap()];
    all.extend_from_slice(args);
    common::run_from(cwd, &all)
}

fn comment(payload: &Value) -> common::Output {
    lint_in(&common::bundled(), payload, &["--format", "github-comment"])
}

/// The comment with its `<details>` sections left out (a fold in a fold
/// with its outer one): what a maintainer reads without a click.
fn outside_details(c: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut rest = c;
    loop {
        let open = rest.find("<details>");
        let close = rest.find("</details>");
        let (at, opening) = match (open, close) {
            (Some(o), Some(k)) if o < k => (o, true),
            (_, Some(k)) => (k, false),
            (Some(o), None) => (o, true),
            (None, None) => break,
        };
        if depth == 0 {
            out.push_str(&rest[..at]);
        }
        if opening {
            depth += 1;
            rest = &rest[at + "<details>".len()..];
        } else {
            assert!(depth > 0, "a </details> closes nothing:\n{c}");
            depth -= 1;
            rest = &rest[at + "</details>".len()..];
        }
    }
    assert_eq!(depth, 0, "a <details> left open:\n{c}");
    out.push_str(rest);
    out
}

/// The findings the comment links to, by number.
fn linked(c: &str) -> BTreeSet<u32> {
    linked_at(c, "https://example.org/findings/")
}

/// The findings the comment links to under `base`, by number.
fn linked_at(c: &str, base: &str) -> BTreeSet<u32> {
    c.match_indices(&format!("({base}f/"))
        .filter_map(|(i, m)| {
            let tail = &c[i + m.len()..];
            tail[..tail.find('/')?].parse().ok()
        })
        .collect()
}

/// vllm-project/vllm#12845 (vLLM's issue template, its environment left
/// as the template's placeholder, a `vllm bench serve` report) with its
/// environment filled in as vllm-project/vllm#37666 filled it, the
/// version `collect_env.py` printed set to `version`.
fn vllm_issue_saying(version: &str) -> Value {
    let mut issue = fixture("vllm-12845.json");
    let env = fixture("vllm-37666.json")["body"]
        .as_str()
        .unwrap()
        .to_string();
    let details = &env[env.find("<details>").unwrap()..env.find("</details>").unwrap() + 10];
    let placeholder = "```text\nThe output of `python collect_env.py`\n```";
    let body = issue["body"].as_str().unwrap();
    assert!(body.contains(placeholder));
    issue["body"] = Value::from(body.replace(
        placeholder,
        &details.replace(
            "vLLM Version                 : 0.13.0",
            &format!("vLLM Version                 : {version}"),
        ),
    ));
    issue
}

/// sgl-project/sglang#2805 (a `bench_serving` report with `Backend:
/// sglang`, its version in the first line, `check_env`'s dump in comment
/// 1) with every `0.4.0.post2` read as `version`.
fn sglang_issue_saying(version: &str) -> Value {
    let text = fixture("sglang-2805.json").to_string();
    serde_json::from_str(&text.replace("0.4.0.post2", version)).unwrap()
}

/// The findings `findings audit` lists for `engine=version` on the bundled
/// records (those that apply: affected, in range, seen, mitigated).
fn audit_lists(engine_version: &str) -> BTreeSet<u32> {
    let r = common::run_in(
        &common::bundled(),
        &[
            "audit",
            "--engine",
            engine_version,
            "--format",
            "json",
            "--fail-on",
            "never",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let mut out = BTreeSet::new();
    for d in v["deployments"].as_array().unwrap() {
        for f in d["findings"].as_array().unwrap() {
            if ["affected", "in-range", "seen", "mitigated"].contains(&f["state"].as_str().unwrap())
            {
                out.insert(u32::try_from(f["id"].as_u64().unwrap()).unwrap());
            }
        }
    }
    out
}

#[test]
fn a_vllm_issue_saying_0_30_0_is_answered_with_what_affects_0_30() {
    let issue = vllm_issue_saying("0.30.0");
    let r = comment(&issue);
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    assert_eq!(r.stderr, PLACEHOLDER_WARNING);
    let c = &r.stdout;
    let shown = outside_details(c);
    // It names vLLM 0.30.0, and where both were read.
    assert!(
        c.starts_with("<!-- findings: answer to pasted benchmark reports -->\n### vLLM 0.30.0: 3 findings affect it; 4 in range, untested; 1 mitigated\n"),
        "{c}"
    );
    assert!(
        shown.contains(
            "Engine and version: vLLM 0.30.0, both from `vLLM Version : 0.30.0` in the issue body."
        ),
        "{c}"
    );
    // It leads with the findings that affect 0.30 (F2, F6, F7: the
    // bundled records list 0.30 affected), each with its state, advice
    // and permanent address, before what the checks flag.
    for (id, advice) in [
        (2, "Use n-gram only on vLLM 0.32.0 or later"),
        (6, "Pin the cache size"),
        (7, "Stop the engine process too"),
    ] {
        let line = format!("- **affected** [F{id}: ");
        let at = shown.find(&line).unwrap_or_else(|| panic!("F{id}:\n{c}"));
        let item = &shown[at..at + shown[at..].find('\n').unwrap()];
        assert!(
            item.contains(&format!(
                "](https://example.org/findings/f/{id}/): {advice}."
            )),
            "{item}"
        );
        assert!(at < shown.find("| report |").unwrap(), "{c}");
    }
    // Every finding it links to is one `findings audit` lists for
    // vLLM 0.30.0, and every one of those is linked.
    assert_eq!(linked(c), audit_lists("vllm=0.30.0"), "{c}");
    // No finding of NInfer, SGLang or TensorRT-LLM: F15 (NInfer's
    // admission cap, which names no-lost-requests), F4 and F5 (SGLang's),
    // F9, F10 and F11 (TensorRT-LLM's), nor their names.
    for id in [4, 5, 9, 10, 11, 15] {
        assert!(!c.contains(&format!("/f/{id}/")), "F{id}:\n{c}");
    }
    for name in ["NInfer", "SGLang", "TensorRT"] {
        assert!(!c.contains(name), "{name}:\n{c}");
    }
    // No local path.
    no_local_path(c);
    assert!(
        shown.chars().count() <= 2_500,
        "{} characters:\n{shown}",
        shown.chars().count()
    );
}

fn no_local_path(c: &str) {
    let root = common::bundled();
    assert!(!c.contains(root.to_str().unwrap()), "{c}");
    assert!(!c.contains("the records in"), "{c}");
    assert!(!c.contains("/tmp"), "{c}");
    assert!(
        c.contains("[Findings: serving open models](https://example.org/findings/)"),
        "{c}"
    );
}

#[test]
fn an_sglang_issue_saying_0_5_20_is_answered_with_f4_and_f5() {
    let issue = sglang_issue_saying("0.5.20");
    let r = comment(&issue);
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    assert_eq!(r.stderr, PLACEHOLDER_WARNING);
    let c = &r.stdout;
    let shown = outside_details(c);
    assert!(
        c.contains("\n### SGLang 0.5.20: 2 findings affect it\n"),
        "{c}"
    );
    assert!(
        shown.contains("Engine and version: SGLang from the report's `Backend: sglang` line, 0.5.20 from `sglang，0.5.20` in the issue body."),
        "{c}"
    );
    for id in [4, 5] {
        assert!(
            shown.contains(&format!("- **affected** [F{id}: ")),
            "F{id}:\n{c}"
        );
    }
    // F4 and F5, and nothing of another engine: the check_env dump's
    // `vllm: 0.5.20` is not this report's, and the lost requests are not
    // NInfer's admission cap.
    assert_eq!(linked(c), BTreeSet::from([4, 5]), "{c}");
    assert_eq!(linked(c), audit_lists("sglang=0.5.20"));
    assert!(!c.contains("vLLM 0.5.20"), "{c}");
    no_local_path(c);
    assert!(shown.chars().count() <= 2_500, "{shown}");

    // Without the body's first line, the version is check_env's, in
    // comment 1 (which names vLLM too: the report's engine decides).
    let mut issue = issue;
    let body = issue["body"]
        .as_str()
        .unwrap()
        .replacen("sglang，0.5.20\n", "", 1);
    issue["body"] = Value::from(body);
    let c = comment(&issue).stdout;
    assert!(
        c.contains("Engine and version: SGLang from the report's `Backend: sglang` line, 0.5.20 from `sglang: 0.5.20` in comment 1."),
        "{c}"
    );
    assert_eq!(linked(&c), BTreeSet::from([4, 5]), "{c}");
}

#[test]
fn the_comment_is_the_same_bytes_from_any_folder() {
    let issue = vllm_issue_saying("0.30.0");
    let here = comment(&issue);
    assert_eq!(comment(&issue).stdout, here.stdout);
    // From another folder, with --root: the same comment, no path in it.
    let elsewhere = tempfile::tempdir().unwrap();
    let root = common::bundled();
    let there = lint_in(
        elsewhere.path(),
        &issue,
        &[
            "--root",
            root.to_str().unwrap(),
            "--format",
            "github-comment",
        ],
    );
    assert_eq!(there.stderr, PLACEHOLDER_WARNING);
    assert_eq!(there.stdout, here.stdout);
    assert!(!there.stdout.contains(elsewhere.path().to_str().unwrap()));
}

/// The stderr of `--format github-comment` without the warning that the
/// bundled site's links lead nowhere (said whenever a comment is written).
fn without_warning(stderr: &str) -> String {
    stderr.replace(PLACEHOLDER_WARNING, "")
}

/// Every thread of tests/fixtures/issues, as its maintainer reads the
/// answer: a comment only where the lint has something for the issue (a
/// finding that applies at a version it is about, a check that found
/// something, a change between two reports of one workload); otherwise no
/// output, exit 0, and stderr says why.
#[test]
fn a_thread_is_answered_only_where_the_lint_has_something_for_it() {
    let posted = |file: &str, code: i32, first: &str| {
        let r = comment(&fixture(file));
        assert_eq!(r.code, code, "{file}: {}", r.stderr);
        assert_eq!(r.stderr, PLACEHOLDER_WARNING, "{file}");
        assert!(
            r.stdout
                .starts_with(&format!("{}\n{first}", findings::issue::ANSWER_MARKER)),
            "{file}:\n{}",
            r.stdout
        );
        // A comment never says a version has no finding and then cites
        // one (the versions without one are said in a line of their own).
        assert!(
            !r.stdout.contains("no finding applies"),
            "{file}:\n{}",
            r.stdout
        );
        no_local_path(&r.stdout);
    };
    posted(
        "llama.cpp-5986.json",
        0,
        "### What changed between the reports\n\n**llama.cpp 2392 against 1552: ",
    );
    posted(
        "sglang-2805.json",
        1,
        "### 1 benchmark report read against the findings\n\n`findings lint` read 1 benchmark report in the issue body and its comment against the findings of [Findings: serving open models](https://example.org/findings/). Engine and version: SGLang from the report's `Backend: sglang` line, 0.4.0.post2 from `sglang，0.4.0.post2` in the issue body. No finding of the site lists SGLang 0.4.0.post2 as affected, in range, seen or mitigated.\n\n#### What the reports' checks flag\n\n- **`no-lost-requests`** in [the issue body](https://github.com/sgl-project/sglang/issues/2805): 1,648 of 3,000 requests completed: the figures are of the completed requests only\n",
    );
    posted(
        "vllm-24005.json",
        1,
        "### 1 benchmark report read against the findings\n\n`findings lint` read 1 benchmark report in the issue body against the findings of [Findings: serving open models](https://example.org/findings/). Engine and version: vLLM from `vllm serve` in the issue body (no version stated).\n\n#### What the reports' checks flag\n\n",
    );
    for (file, why) in [
        // A report the site has nothing to say of: no version stated, and
        // a paste cannot show preemptions (cannot tell is no finding).
        (
            "vllm-12845.json",
            "1 benchmark report in the issue body: no report or title says which version ran; no check finds anything in it (1 cannot tell); there is no other report to compare it with",
        ),
        (
            "vllm-ascend-12577.json",
            "1 benchmark report in the issue body: no report or title says which version ran; no check finds anything in it (1 cannot tell); there is no other report to compare it with",
        ),
        // An upgrade: the issue is about both versions; the reports before
        // and after measured different rates.
        (
            "vllm-19954.json",
            "2 benchmark reports in the issue body and its comment: no finding of the site applies to vLLM 0.8.5 or 0.9.2; no check finds anything in them (2 cannot tell); no two of them measured one workload",
        ),
        (
            "vllm-19954-comment-event.json",
            "2 benchmark reports in the issue body and its comment: no finding of the site applies to vLLM 0.8.5 or 0.9.2; no check finds anything in them (2 cannot tell); no two of them measured one workload",
        ),
        (
            "vllm-9476.json",
            "1 benchmark report in the issue body: no finding of the site applies to vLLM 0.6.2 or 0.6.3; no check finds anything in it (1 cannot tell); there is no other report to compare it with",
        ),
        (
            "vllm-6240.json",
            "1 benchmark report in the issue (no body) and its comment: no finding of the site applies to vLLM 0.5.1 or 0.5.0.post1; no check finds anything in it (2 cannot tell); there is no other report to compare it with",
        ),
        (
            "sglang-1639.json",
            "2 benchmark reports in the issue body and its comment: no finding of the site applies to vLLM 0.6.2 or SGLang 0.3.2; no check finds anything in them (2 cannot tell); no two of them measured one workload",
        ),
        ("vllm-37666.json", "no benchmark report in the issue body"),
    ] {
        let r = comment(&fixture(file));
        let why = format!("findings lint: no comment: {why}\n");
        assert_eq!(
            (r.code, r.stdout.as_str(), r.stderr.as_str()),
            (0, "", why.as_str()),
            "{file}"
        );
    }
}

/// Where each thread's reports were read to have run, as `--format json`
/// gives it: (report, tool, engine, version, where the engine was read,
/// where the version was).
#[test]
fn each_report_is_read_as_its_own_lines_say() {
    let setups = |file: &str| -> Vec<[String; 6]> {
        let r = lint_in(&common::bundled(), &fixture(file), &["--format", "json"]);
        let v: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{file}: {e}"));
        let text = |x: &Value| x.as_str().map_or("null".to_string(), str::to_string);
        v["runs"][0]["setups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                [
                    text(&s["name"]),
                    text(&s["tool"]),
                    text(&s["engine"]),
                    text(&s["version"]),
                    text(&s["engine_from"]),
                    text(&s["version_from"]),
                ]
            })
            .collect()
    };
    let row = |a: [&str; 6]| a.map(str::to_string);
    for (file, want) in [
        // A plugin repository of an engine is that engine.
        (
            "vllm-ascend-12577.json",
            vec![row([
                "the issue body",
                "vllm bench serve",
                "vllm",
                "null",
                "the issue's repository `vllm-project/vllm-ascend` (a plugin of vLLM)",
                "null",
            ])],
        ),
        // A report's own heading outranks the repository: in SGLang's
        // tracker, the report headed `vllm=0.6.2` ran on vLLM, the one
        // headed `# SGLang` on SGLang (its version the thread's).
        (
            "sglang-1639.json",
            vec![
                row([
                    "the issue body",
                    "vllm benchmark_serving.py",
                    "vllm",
                    "0.6.2",
                    "`vllm=0.6.2` in the issue body",
                    "`vllm=0.6.2` in the issue body",
                ]),
                row([
                    "comment 1",
                    "vllm benchmark_serving.py",
                    "sglang",
                    "0.3.2",
                    "`# SGLang` in comment 1",
                    "`sglang=0.3.2` in the issue body",
                ]),
            ],
        ),
        // vLLM's benchmark_serving.py of 2024 printed `Input token
        // throughput`, which SGLang's bench_serving copied: the report is
        // vLLM's, not SGLang's.
        (
            "vllm-6240.json",
            vec![row([
                "comment 1",
                "vllm benchmark_serving.py",
                "vllm",
                "null",
                "the issue's repository `vllm-project/vllm`",
                "null",
            ])],
        ),
        // The report headed `Before:` ran the version upgraded from.
        (
            "vllm-19954.json",
            vec![
                row([
                    "the issue body",
                    "vllm benchmark_serving.py",
                    "vllm",
                    "0.8.5",
                    "the issue's repository `vllm-project/vllm`",
                    "`Before:` in the issue body (the title's `0.8.5`)",
                ]),
                row([
                    "comment 1",
                    "vllm benchmark_serving.py",
                    "vllm",
                    "0.9.2",
                    "the issue's repository `vllm-project/vllm`",
                    "`upgrading from 0.8.5 to 0.9.2` in the title",
                ]),
            ],
        ),
        // llama-bench's own version line.
        (
            "llama.cpp-5986.json",
            vec![
                row([
                    "the issue body, first report",
                    "llama-bench",
                    "llama-cpp",
                    "1552",
                    "the report itself",
                    "the report itself",
                ]),
                row([
                    "the issue body, second report",
                    "llama-bench",
                    "llama-cpp",
                    "2392",
                    "the report itself",
                    "the report itself",
                ]),
            ],
        ),
        (
            "vllm-9476.json",
            vec![row([
                "the issue body",
                "vllm benchmark_serving.py",
                "vllm",
                "0.6.2",
                "`vllm==0.6.2` in the issue body",
                "`vllm==0.6.2` in the issue body",
            ])],
        ),
        (
            "vllm-24005.json",
            vec![row([
                "the issue body",
                "vllm bench serve",
                "vllm",
                "null",
                "`vllm serve` in the issue body",
                "null",
            ])],
        ),
        (
            "sglang-2805.json",
            vec![row([
                "the issue body",
                "sglang bench_serving",
                "sglang",
                "0.4.0.post2",
                "the report's `Backend: sglang` line",
                "`sglang，0.4.0.post2` in the issue body",
            ])],
        ),
    ] {
        assert_eq!(setups(file), want, "{file}");
    }
    // The versions an issue is about: those its title names, and those
    // its reports ran.
    let versions = |file: &str| -> Vec<String> {
        let r = lint_in(&common::bundled(), &fixture(file), &["--format", "json"]);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        v["versions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                format!(
                    "{} {}",
                    x["name"].as_str().unwrap(),
                    x["version"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(
        versions("vllm-6240.json"),
        ["vLLM 0.5.1", "vLLM 0.5.0.post1"]
    );
    assert_eq!(versions("vllm-9476.json"), ["vLLM 0.6.2", "vLLM 0.6.3"]);
    assert_eq!(versions("vllm-19954.json"), ["vLLM 0.8.5", "vLLM 0.9.2"]);
}

/// ggml-org/llama.cpp#5986: one llama-bench table on build 1552 and one
/// on build 2392, each of two quantizations. The comment leads with the
/// change, in the words `findings compare --from-issue` prints, and each
/// row of the table names its own models.
#[test]
fn two_builds_of_one_workload_lead_with_the_change() {
    let issue = fixture("llama.cpp-5986.json");
    let r = comment(&issue);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let c = &r.stdout;
    // The verdict is compare's own first line, word for word.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("issue.json");
    std::fs::write(&file, issue.to_string()).unwrap();
    let compared = common::run_in(
        &common::bundled(),
        &["compare", "--from-issue", file.to_str().unwrap()],
    );
    assert_eq!(compared.code, 0, "{}", compared.stderr);
    let verdict = compared.stdout.lines().next().unwrap();
    assert!(
        verdict.starts_with(
            "llama.cpp 2392 against 1552: both workloads untested, single runs: worse on 2 ("
        ) && verdict.contains(" −33%)"),
        "{verdict}"
    );
    assert!(
        c.contains(&format!(
            "### What changed between the reports\n\n**{}**\n\n",
            findings::lint::comment::prose(verdict)
        )),
        "{c}"
    );
    assert!(
        c.contains("Set side by side as `findings compare --from-issue` sets them, the first the baseline: llama.cpp 1552 ([the issue body, first report](https://github.com/ggml-org/llama.cpp/issues/5986)) and llama.cpp 2392 ([the issue body, second report](https://github.com/ggml-org/llama.cpp/issues/5986)); on the 2 workloads they share.\n"),
        "{c}"
    );
    // Each report names its own models, and each figure its model.
    assert!(
        c.contains("| [the issue body, first report](https://github.com/ggml-org/llama.cpp/issues/5986) | `llama-bench` | llama.cpp `1552` | `llama 7B mostly Q4_0`, `llama 7B mostly Q5_K - Medium` | pp32 | `llama 7B mostly Q4_0`: pp32 11.19 ± 0.05 t/s; `llama 7B mostly Q5_K - Medium`: pp32 11.6 ± 0.09 t/s |\n"),
        "{c}"
    );
    assert!(
        c.contains("| [the issue body, second report](https://github.com/ggml-org/llama.cpp/issues/5986) | `llama-bench` | llama.cpp `2392` | `llama 7B Q4_0`, `llama 7B Q5_K - Medium` | pp32 | `llama 7B Q4_0`: pp32 7.48 ± 0.07 t/s; `llama 7B Q5_K - Medium`: pp32 6.71 ± 0.11 t/s |\n"),
        "{c}"
    );
    // The site has no finding of llama.cpp: none is cited.
    assert!(linked(c).is_empty(), "{c}");
    no_local_path(c);
}

/// vllm-project/vllm#6240 with its title's versions read as the bundled
/// site's (0.5.1 as 0.30.0, 0.5.0.post1 as 0.29): the issue is about both
/// versions, and the comment lists what applies at each, though its one
/// report states none.
#[test]
fn an_issue_naming_two_versions_is_answered_for_both() {
    let text = fixture("vllm-6240.json")
        .to_string()
        .replace("0.5.0.post1", "0.29")
        .replace("0.5.1", "0.30.0");
    let r = comment(&serde_json::from_str(&text).unwrap());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let c = &r.stdout;
    assert!(
        c.contains("`findings lint` read 1 benchmark report in the issue (no body) and its comment against the findings of [Findings: serving open models](https://example.org/findings/). Engine and version: vLLM from the issue's repository `vllm-project/vllm` (no version stated). The issue is about vLLM 0.30.0 (`0.30.0` in the title) and vLLM 0.29 (`v0.29` in the title) too.\n"),
        "{c}"
    );
    for heading in [
        "\n#### vLLM 0.30.0: 3 findings affect it; 4 in range, untested; 1 mitigated\n",
        "\n#### vLLM 0.29: 1 finding affects it; 6 in range, untested\n",
    ] {
        assert!(c.contains(heading), "{heading}\n{c}");
    }
    let mut both = audit_lists("vllm=0.30.0");
    both.extend(audit_lists("vllm=0.29"));
    assert_eq!(linked(c), both, "{c}");
    for id in [4, 5, 9, 10, 11, 15] {
        assert!(!c.contains(&format!("/f/{id}/")), "F{id}:\n{c}");
    }
    // The report is vLLM's old benchmark_serving.py, not SGLang's.
    assert!(
        c.contains("| comment 1 | `vllm benchmark_serving.py` | vLLM (no version stated) |"),
        "{c}"
    );
    assert!(!c.contains("sglang"), "{c}");
}

/// vllm-project/vllm#19954 with its upgrade read as the bundled site's
/// (0.8.5 as 0.29, 0.9.2 as 0.30): the report headed `Before:` ran 0.29,
/// the comment's 0.30; each version's findings are listed, and what the
/// reports cannot tell is folded, citing vLLM's findings only.
#[test]
fn an_upgrade_is_answered_for_the_versions_before_and_after() {
    let text = fixture("vllm-19954.json")
        .to_string()
        .replace("0.8.5", "0.29")
        .replace("0.9.2", "0.30");
    let r = comment(&serde_json::from_str(&text).unwrap());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let c = &r.stdout;
    assert!(
        c.starts_with(&format!("{}\n### 2 benchmark reports read against the findings\n\n`findings lint` read 2 benchmark reports in the issue body and its comment against the findings of [Findings: serving open models](https://example.org/findings/). Engine and version: vLLM from the issue's repository `vllm-project/vllm`, 0.29 from `Before:` in the issue body (the title's `0.29`); vLLM from the issue's repository `vllm-project/vllm`, 0.30 from `upgrading from 0.29 to 0.30` in the title.\n\n#### vLLM 0.29: 1 finding affects it; 6 in range, untested\n", findings::issue::ANSWER_MARKER)),
        "{c}"
    );
    assert!(
        c.contains("\n#### vLLM 0.30: 3 findings affect it; 4 in range, untested; 1 mitigated\n"),
        "{c}"
    );
    assert!(
        c.contains("| [the issue body](https://github.com/vllm-project/vllm/issues/19954) | `vllm benchmark_serving.py` | vLLM `0.29` |"),
        "{c}"
    );
    assert!(
        c.contains("| comment 1 | `vllm benchmark_serving.py` | vLLM `0.30` |"),
        "{c}"
    );
    for id in [4, 5, 9, 10, 11, 15] {
        assert!(!c.contains(&format!("/f/{id}/")), "F{id}:\n{c}");
    }
    // Cannot tell is folded, never a flag.
    let shown = outside_details(c);
    assert!(!shown.contains("preemptions-read"), "{shown}");
    assert!(
        c.contains("<sub>`findings lint`: no check flags these reports (2 checks checked)."),
        "{c}"
    );
}

/// No finding of another engine, in any format, for the reports of a
/// plugin repository (vllm-project/vllm-ascend: vLLM) and of an SGLang
/// issue whose report ran on vLLM.
#[test]
fn no_finding_of_another_engine_for_a_plugin_or_a_heading() {
    let root = common::bundled();
    for (file, others) in [
        (
            "vllm-ascend-12577.json",
            ["F4", "F5", "F9", "F10", "F11", "F15"],
        ),
        ("sglang-1639.json", ["F5", "F9", "F10", "F11", "F15", "F15"]),
    ] {
        let issue = fixture(file);
        for format in ["table", "markdown", "github"] {
            let r = lint_in(&root, &issue, &["--format", format]);
            assert_eq!(r.code, 0, "{file} {format}: {}", r.stderr);
            for other in others {
                let bare = other.trim_start_matches('F');
                assert!(
                    !r.stdout.contains(&format!("{other} "))
                        && !r.stdout.contains(&format!("{other})"))
                        && !r.stdout.contains(&format!("{other},"))
                        && !r.stdout.contains(&format!("/f/{bare}/")),
                    "{file} {format}: {other}\n{}",
                    r.stdout
                );
            }
        }
    }
    // The plugin's report: the preemptions a paste cannot show are a
    // "cannot tell" (vLLM's F8), never a flag.
    let t = lint_in(&root, &fixture("vllm-ascend-12577.json"), &[]);
    assert!(
        t.stdout.contains("\n? cannot tell preemptions-read (F8): cannot tell: the issue body records no preemptions (vLLM logs none: read `vllm:num_preemptions_total` before and after the run); its latency figures may hold requests that were preempted and computed again; a client's report pasted as text cannot hold what only the server records\n"),
        "{}",
        t.stdout
    );
    assert!(
        t.stdout
            .ends_with("\nfindings lint: no check flags these reports (2 checks checked)\n"),
        "{}",
        t.stdout
    );
    assert_eq!(without_warning(&t.stderr), "");
}

#[test]
fn a_lost_request_on_vllm_cites_no_other_engines_finding_in_any_format() {
    // vllm-project/vllm#24005: 1 of 500 requests completed. The findings
    // that name no-lost-requests are F15's alone (NInfer's admission cap):
    // the flag stands on its own words.
    let issue = fixture("vllm-24005.json");
    let c = comment(&issue);
    assert_eq!(c.code, 1, "{}", c.stderr);
    assert!(
        c.stdout.contains("- **`no-lost-requests`** in [the issue body](https://github.com/vllm-project/vllm/issues/24005): 1 of 500 requests completed: the figures are of the completed requests only\n"),
        "{}",
        c.stdout
    );
    let root = common::bundled();
    for format in ["table", "markdown", "github", "json", "github-comment"] {
        let r = lint_in(&root, &issue, &["--format", format]);
        assert_eq!(r.code, 1, "{format}: {}", r.stderr);
        for other in ["F15", "/f/15/", "NInfer", "F5:", "F9:", "/f/5/", "/f/9/"] {
            if format == "json" {
                continue;
            }
            assert!(!r.stdout.contains(other), "{format}: {other}\n{}", r.stdout);
        }
    }
    // JSON: the flag's findings are those cited; the symptoms' findings of
    // other engines are kept for scripts, marked `cited: false`.
    let j = lint_in(&root, &issue, &["--format", "json"]);
    let v: Value = serde_json::from_str(&j.stdout).unwrap();
    let lost = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "no-lost-requests")
        .unwrap();
    assert_eq!(lost["verdict"], "flagged");
    assert_eq!(lost["findings"], serde_json::json!([]));
    assert_eq!(v["runs"][0]["setups"][0]["engine"], "vllm");
    assert_eq!(
        v["runs"][0]["setups"][0]["engine_from"],
        "`vllm serve` in the issue body"
    );
    assert_eq!(
        v["site"],
        serde_json::json!({"title": "Findings: serving open models", "base_url": "https://example.org/findings/"})
    );
    for o in v["observations"].as_array().unwrap() {
        let cited = o["cited"].as_bool().unwrap();
        let id = o["finding"]["id"].as_u64().unwrap();
        assert_eq!(cited, ![4, 5, 9, 10, 11, 15].contains(&id), "{o}");
    }
}

/// A copy of the bundled records with `base_url` set to `url`.
fn bundled_at(url: &str) -> tempfile::TempDir {
    bundled_edited(url, &[])
}

/// A copy of the bundled records with `base_url` set to `url` and each
/// `(file, from, to)` of `edits` made.
fn bundled_edited(url: &str, edits: &[(&str, &str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = common::bundled();
    for sub in ["findings", "data"] {
        for e in walkdir::WalkDir::new(from.join(sub)) {
            let e = e.unwrap();
            let to: PathBuf = dir.path().join(e.path().strip_prefix(&from).unwrap());
            if e.file_type().is_dir() {
                std::fs::create_dir_all(&to).unwrap();
            } else {
                std::fs::copy(e.path(), &to).unwrap();
            }
        }
    }
    let site = std::fs::read_to_string(from.join("site.yaml")).unwrap();
    assert_eq!(
        site.matches("base_url: https://example.org/findings/\n")
            .count(),
        1
    );
    std::fs::write(
        dir.path().join("site.yaml"),
        site.replace(
            "base_url: https://example.org/findings/\n",
            &format!("base_url: {url}\n"),
        ),
    )
    .unwrap();
    for (file, from, to) in edits {
        let path = dir.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches(from).count(), 1, "{file}: {from}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }
    dir
}

#[test]
fn a_published_base_url_is_linked_and_a_placeholder_warned_of() {
    let site = bundled_at("https://findings.inference.dev/");
    let issue = vllm_issue_saying("0.30.0");
    let root = site.path().to_str().unwrap();
    let r = lint_in(
        site.path(),
        &issue,
        &["--root", root, "--format", "github-comment"],
    );
    assert_eq!(r.stderr, "");
    assert!(
        r.stdout.contains("against the findings of [Findings: serving open models](https://findings.inference.dev/)."),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("](https://findings.inference.dev/f/2/): "),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("example.org"), "{}", r.stdout);
    assert!(!r.stdout.contains(root), "{}", r.stdout);
    // A machine's own address is no published site either; the other
    // formats say nothing of it.
    let local = bundled_at("http://localhost:1111/");
    let root = local.path().to_str().unwrap();
    let r = lint_in(
        local.path(),
        &issue,
        &["--root", root, "--format", "github-comment"],
    );
    assert_eq!(
        r.stderr,
        "warning: the comment's links start with http://localhost:1111/, whose host localhost is a placeholder, so no reader can open them; set base_url in site.yaml to where the site is published, or give --from the published site's address\n"
    );
    let t = lint_in(local.path(), &issue, &["--root", root]);
    assert_eq!(t.stderr, "");
}

#[test]
fn the_findings_of_a_published_site_come_with_its_address() {
    // --from a built site's findings.json: its title and base_url, its
    // permanent addresses.
    let site = bundled_at("https://findings.inference.dev/");
    let out = site.path().join("public");
    let b = common::run_in(site.path(), &["build", "--output", out.to_str().unwrap()]);
    assert_eq!(b.code, 0, "{}", b.stderr);
    let json = out.join("findings.json");
    let issue = sglang_issue_saying("0.5.20");
    let elsewhere = tempfile::tempdir().unwrap();
    let r = lint_in(
        elsewhere.path(),
        &issue,
        &[
            "--from",
            json.to_str().unwrap(),
            "--format",
            "github-comment",
        ],
    );
    assert_eq!(r.stderr, "");
    assert!(
        r.stdout
            .contains("\n### SGLang 0.5.20: 2 findings affect it\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("against the findings of [Findings: serving open models](https://findings.inference.dev/)."),
        "{}",
        r.stdout
    );
    assert_eq!(
        linked_at(&r.stdout, "https://findings.inference.dev/"),
        BTreeSet::from([4, 5])
    );
    assert!(!r.stdout.contains(out.to_str().unwrap()), "{}", r.stdout);
    assert!(!r.stdout.contains("/tmp"), "{}", r.stdout);
}

#[test]
fn a_comment_on_one_report_folds_what_would_make_it_long() {
    // F2's advice a paragraph long (a site may write one): the listing
    // alone is over 2,500 characters, so the table, then the flags, then
    // the listing fold, and the heading still names the version.
    let long = "Use n-gram only on vLLM 0.32.0 or later, ".repeat(70);
    let site = bundled_edited(
        "https://findings.inference.dev/",
        &[(
            "findings/ngram-speculative-decoding-changed-answers.md",
            "advice: Use n-gram only on vLLM 0.32.0 or later\n",
            &format!("advice: {}\n", long.trim_end_matches(", ")),
        )],
    );
    let issue = vllm_issue_saying("0.30.0");
    let root = site.path().to_str().unwrap();
    let r = lint_in(
        site.path(),
        &issue,
        &["--root", root, "--format", "github-comment"],
    );
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    let c = &r.stdout;
    let shown = outside_details(c);
    assert!(
        shown.chars().count() <= 2_500,
        "{} characters:\n{shown}",
        shown.chars().count()
    );
    assert!(
        c.contains("\n### vLLM 0.30.0: 3 findings affect it; "),
        "{c}"
    );
    assert!(
        c.contains("<details><summary>The report read</summary>"),
        "{c}"
    );
    assert!(
        c.contains("<details><summary>The findings on vLLM 0.30.0</summary>"),
        "{c}"
    );
    assert!(
        c.contains("](https://findings.inference.dev/f/2/): Use n-gram only"),
        "{c}"
    );
    // Without the long advice, nothing folds but the in-range findings and
    // what the reports cannot tell.
    let c = comment(&issue).stdout;
    assert!(!c.contains("<summary>The report read</summary>"), "{c}");
    assert!(!c.contains("<summary>The findings on"), "{c}");
}
