//! The comment `findings lint --from-issue FILE --format github-comment`
//! posts (issue 38, part 6), on issue texts of the vLLM and SGLang
//! trackers (`tests/fixtures/issues/`, trimmed; its README names each
//! source), against the bundled records (the repository's `findings/`,
//! `data/` and `site.yaml`):
//!
//! - an issue in vllm-project/vllm whose environment says `vLLM Version:
//!   0.30.0` is answered with vLLM 0.30.0 and the findings that affect it
//!   (F2, F6, F7) as `findings audit` lists them, and no finding of NInfer,
//!   SGLang or TensorRT-LLM; one in sgl-project/sglang saying `sglang:
//!   0.5.20` with SGLang 0.5.20, F4 and F5;
//! - where the engine and version were read, in words: an environment
//!   dump, a pin, the title's upgrade, the command that started the
//!   server, the report's `Backend:` line, the issue's repository;
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

#[test]
fn real_issues_say_where_the_engine_and_version_came_from() {
    for (file, says, heading) in [
        // The template's environment left as its placeholder: the
        // repository alone.
        (
            "vllm-12845.json",
            "Engine and version: vLLM from the issue's repository `vllm-project/vllm` (no version stated).",
            "### 1 benchmark report read against the findings",
        ),
        // The title's upgrade: the version upgraded to.
        (
            "vllm-19954.json",
            "Engine and version: vLLM from the issue's repository `vllm-project/vllm`, 0.9.2 from `upgrading from 0.8.5 to 0.9.2` in the title.",
            "### vLLM 0.9.2: no finding applies to it",
        ),
        // The same thread, as the webhook of the comment's event.
        (
            "vllm-19954-comment-event.json",
            "Engine and version: vLLM from the issue's repository `vllm-project/vllm`, 0.9.2 from `upgrading from 0.8.5 to 0.9.2` in the title.",
            "### vLLM 0.9.2: no finding applies to it",
        ),
        // A pin in the body.
        (
            "vllm-9476.json",
            "Engine and version: vLLM 0.6.2, both from `vllm==0.6.2` in the issue body.",
            "### vLLM 0.6.2: no finding applies to it",
        ),
        // The command that started the server.
        (
            "vllm-24005.json",
            "Engine and version: vLLM from `vllm serve` in the issue body (no version stated).",
            "### 1 benchmark report read against the findings",
        ),
        // The report's backend; the version in prose, with a full-width
        // comma, before the check_env dump of comment 1.
        (
            "sglang-2805.json",
            "Engine and version: SGLang from the report's `Backend: sglang` line, 0.4.0.post2 from `sglang，0.4.0.post2` in the issue body.",
            "### SGLang 0.4.0.post2: no finding applies to it",
        ),
    ] {
        let r = comment(&fixture(file));
        assert!(r.code == 0 || r.code == 1, "{file}: {}", r.stderr);
        assert_eq!(r.stderr, PLACEHOLDER_WARNING, "{file}");
        let c = &r.stdout;
        assert!(c.contains(says), "{file}:\n{c}");
        assert!(c.contains(&format!("\n{heading}\n")), "{file}:\n{c}");
        no_local_path(c);
        // The findings that apply at no version here: none linked but
        // what the checks cite, about the engine.
        if heading.contains("no finding applies") {
            let version = heading.trim_start_matches("### ").split(':').next().unwrap();
            assert!(
                c.contains(&format!("No finding of the site applies to {version} (")),
                "{file}:\n{c}"
            );
        }
        let reports = c.matches("\n| [").count();
        if reports == 1 {
            let shown = outside_details(c);
            assert!(shown.chars().count() <= 2_500, "{file}: {shown}");
        }
    }
    // Several reports across the thread: the body's and comment 1's, each
    // linked where it was found.
    let c = comment(&fixture("vllm-19954.json")).stdout;
    assert!(c.contains("| [the issue body](https://github.com/vllm-project/vllm/issues/19954) | `vllm benchmark_serving.py` | vLLM `0.9.2` |"), "{c}");
    assert!(
        c.contains("| comment 1 | `vllm benchmark_serving.py` | vLLM `0.9.2` |"),
        "{c}"
    );
    let c = comment(&fixture("vllm-19954-comment-event.json")).stdout;
    assert!(
        c.contains("read 2 benchmark reports in the issue body and its comment"),
        "{c}"
    );
    assert!(c.contains("| the comment | "), "{c}");
    // An issue of the template and no report: no comment, no warning.
    let r = comment(&fixture("vllm-37666.json"));
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""));
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
