//! Every input the fuzz targets found a problem with, and the edges each
//! target's inputs are kept for, fed to the same code they run
//! (`fuzz/checks.rs`, included here as `fuzz`), as ordinary tests. A new crash from `cargo fuzz run
//! <target>` goes into `tests/fuzz_regressions/<target>/` once fixed. And
//! the targets' own view of good input: the bundled records read clean,
//! every console reader finds the reports of the fixture pastes, an issue
//! built of them is read whole. See docs/fuzzing.md.
#![allow(missing_docs)]

/// What the fuzz targets run, the very file they include.
#[path = "../fuzz/checks.rs"]
mod fuzz;

use findings::results::{self, Reader};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The input files of a target's folder, by name (hidden files aside).
fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = root().join("tests/fuzz_regressions").join(target);
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// Feeds every input of `target`'s folder to `f`, and hands back what it
/// saw of each; fails on the first that panics, and when the folder holds
/// fewer than `at_least` inputs.
fn each<T>(target: &str, at_least: usize, f: fn(&[u8]) -> T) -> Vec<(String, T)> {
    let all = inputs(target);
    assert!(
        all.len() >= at_least.max(1),
        "tests/fuzz_regressions/{target}/ holds {} inputs, expected at least {at_least}",
        all.len()
    );
    let mut seen = Vec::new();
    for (name, data) in all {
        match std::panic::catch_unwind(|| f(&data)) {
            Ok(s) => seen.push((name, s)),
            Err(_) => panic!("tests/fuzz_regressions/{target}/{name} fails again"),
        }
    }
    seen
}

/// The inputs of a folder and whether each must read: every file named,
/// every name a file.
fn expect_read(target: &str, seen: &[(String, fuzz::Seen)], expected: &[(&str, bool)]) {
    let names: Vec<&str> = seen.iter().map(|(n, _)| n.as_str()).collect();
    let mut want: Vec<&str> = expected.iter().map(|(n, _)| *n).collect();
    want.sort();
    assert_eq!(
        names, want,
        "the inputs of tests/fuzz_regressions/{target}/"
    );
    for (name, s) in seen {
        let read = expected.iter().find(|(n, _)| n == name).unwrap().1;
        assert_eq!(s.read, read, "{target}/{name}: {:?}", s.problems);
        if read {
            assert_eq!(s.problems, Vec::<String>::new(), "{target}/{name}");
        } else {
            assert!(
                !s.problems.is_empty(),
                "{target}/{name} was refused without a word"
            );
        }
    }
}

#[test]
fn load_finding() {
    let seen = each("load_finding", 5, fuzz::finding);
    expect_read(
        "load_finding",
        &seen,
        &[
            ("body-of-unclosed-fences-and-links", true),
            ("bom-and-crlf-line-ends", true),
            ("front-matter-never-closed", false),
            ("not-utf8-in-the-body", false),
            ("title-of-markdown-and-html", true),
        ],
    );
    let refused = |name: &str| &seen.iter().find(|(n, _)| n == name).unwrap().1.problems;
    assert_eq!(
        refused("front-matter-never-closed"),
        &["findings/fuzz.md:1:1: error: the front matter has no closing `---`\n  hint: end the YAML fields with a line that holds only `---`"]
    );
    assert_eq!(
        refused("not-utf8-in-the-body"),
        &["findings/fuzz.md:36:7: error: the file is not valid UTF-8\n  hint: save it as UTF-8"]
    );
}

#[test]
fn load_run() {
    let seen = each("load_run", 3, fuzz::run);
    // Found by the fuzzer: a table named `run.yaml` was read from the
    // CSV text and its errors blamed on run.yaml, at a line past its end
    // (a quote never closed made the row); such a table is now refused.
    let (_, s) = seen
        .iter()
        .find(|(n, _)| n == "table-named-run-yaml-with-a-quote-never-closed")
        .unwrap();
    assert_eq!(
        s.problems,
        ["data/runs/fuzz/run.yaml:33:5: error: `tables[0].file`: \"run.yaml\" is the run's own file, not a table\n  hint: name the table's CSV file in the run's folder, e.g. `throughput.csv`"]
    );
}

#[test]
fn version() {
    let seen = each("version", 10, fuzz::version);
    expect_read(
        "version",
        &seen,
        &[
            ("a-word", false),
            ("empty", false),
            ("llama-cpp-build-number", true),
            ("local-label", false),
            ("not-utf8", false),
            ("nul-only", false),
            ("post-release-after-its-release", true),
            ("rc-before-its-release", true),
            ("trailing-zero-is-the-same-version", true),
            ("v-prefix-and-dashed-rc", true),
        ],
    );
}

/// What a result file gives after the fuzz target has run on it: the
/// format it reads as and its rows, or the first line of its error; and
/// how many credentials the scrub takes out of it.
fn result_outcome(data: &[u8]) -> (String, usize) {
    fuzz::result_file(data);
    let read = match results::read("bench.json", data) {
        Ok(r) => format!("{}: {} rows", r.format.name(), r.results.rows.len()),
        Err(e) => format!("refused: {}", e.to_string().lines().next().unwrap_or("")),
    };
    let removed = results::scrub::scrub("bench.json", data, false).map_or(0, |s| s.removed.len());
    (read, removed)
}

#[test]
fn result_file() {
    let seen = each("result_file", 8, result_outcome);
    let got: Vec<(&str, &str, usize)> = seen
        .iter()
        .map(|(n, (read, removed))| (n.as_str(), read.as_str(), *removed))
        .collect();
    assert_eq!(got, RESULT_FILE_OUTCOMES);
}

/// Each input of `tests/fuzz_regressions/result_file/`, what it reads as
/// and how many credentials the scrub removes: every file named, so that
/// one removed or one read otherwise fails.
const RESULT_FILE_OUTCOMES: &[(&str, &str, usize)] = &[
    (
        "broken-json-whose-quotes-pair-anew-after-a-pass",
        "refused: bench.json:1:40: invalid JSON: expected value",
        2,
    ),
    (
        "generated-texts-never-closed-hiding-a-key",
        "refused: bench.json:1:8: invalid JSON: expected `:`",
        2,
    ),
    (
        "guidellm-cut-short-with-a-report-pasted-into-an-output",
        "vLLM `vllm bench serve` console report (pasted): 1 rows",
        0,
    ),
    ("guidellm-yaml-with-credentials", "guidellm report (YAML): 1 rows", 2),
    (
        "llama-bench-array-left-open",
        "llama.cpp `llama-bench -o json` or `-o jsonl`: 1 rows",
        0,
    ),
    (
        "log-with-escaped-quotes",
        "refused: bench.json: this is a vLLM, SGLang or TensorRT-LLM boot log, part of a run folder, not a benchmark client's result file",
        2,
    ),
    (
        "number-in-a-key-place-under-a-credential",
        "refused: bench.json:13:19: invalid JSON: key must be a string",
        11,
    ),
    (
        "sglang-line-cut-short",
        "refused: bench.json:2:15: the file ends where a value was expected: it was cut short, or is not complete JSON",
        1,
    ),
];

/// Found by the fuzzer: a guidellm file cut short, with a console report
/// pasted into a request's `output` (its line ends raw, so no JSON), reads
/// as the paste it is; the scrub took it for JSON and dropped that output,
/// and the scrubbed copy no longer read. It is now scrubbed as the text it
/// is read as: the report, and so the copy, kept whole.
#[test]
fn a_broken_json_file_read_as_a_paste_is_scrubbed_as_text() {
    let data = std::fs::read(root().join(
        "tests/fuzz_regressions/result_file/guidellm-cut-short-with-a-report-pasted-into-an-output",
    ))
    .unwrap();
    let read = results::read("bench.json", &data).unwrap();
    assert_eq!(read.format, results::Format::VllmServeReport);
    let kept = results::scrub::scrub("bench.json", &data, false).unwrap();
    assert_eq!(kept.bytes, data);
    assert!(kept.removed.is_empty(), "{:?}", kept.removed);
    let again = results::read("bench.json", &kept.bytes).unwrap();
    assert_eq!(
        again.results.rows.len(),
        1,
        "the scrubbed copy's report: {:?}",
        again.warnings
    );
    assert_eq!(format!("{:?}", again.facts), format!("{:?}", read.facts));
}

/// The bundled records, as the seed corpus holds them (fuzz/seed.sh), read
/// by the targets clean: every finding and every run (each with all its
/// tables, checked against the targets' small site) reads, with no error
/// or warning, so that a broken record or a target that stops looking
/// fails here.
#[test]
fn the_targets_accept_the_bundled_records() {
    let root = root();
    let mut findings_read = 0;
    let files: Vec<PathBuf> = std::fs::read_dir(root.join("findings"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    for path in &files {
        let seen = fuzz::finding(&std::fs::read(path).unwrap());
        assert!(seen.read, "{}: {:?}", path.display(), seen.problems);
        assert_eq!(seen.problems, Vec::<String>::new(), "{}", path.display());
        findings_read += 1;
    }
    assert_eq!(findings_read, files.len());
    assert!(findings_read >= 19, "{findings_read} findings");
    let mut runs_read = 0;
    for e in std::fs::read_dir(root.join("data/runs")).unwrap() {
        let dir = e.unwrap().path();
        let mut data = std::fs::read(dir.join("run.yaml")).unwrap();
        let mut csvs: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "csv"))
            .collect();
        csvs.sort();
        for csv in csvs {
            let name = csv.file_name().unwrap().to_string_lossy().into_owned();
            data.extend_from_slice(format!("=== {name}\n").as_bytes());
            data.extend(std::fs::read(csv).unwrap());
        }
        let seen = fuzz::run(&data);
        assert!(seen.read, "{}: {:?}", dir.display(), seen.problems);
        assert_eq!(seen.problems, Vec::<String>::new(), "{}", dir.display());
        runs_read += 1;
    }
    assert!(runs_read >= 19, "{runs_read} runs");
    for v in [
        "0.32.0",
        "0.32\u{0}0.32.0",
        "1.3.0rc29\u{0}1.3.0",
        "v0.6.0-rc.1\u{0}0.6.0rc1",
    ] {
        let seen = fuzz::version(v.as_bytes());
        assert!(seen.read, "{v:?}: {:?}", seen.problems);
    }
}

/// A bundled finding or run broken is seen broken: the targets look.
#[test]
fn the_targets_see_a_broken_record() {
    let finding =
        std::fs::read_to_string(root().join("findings/client-ttft-first-sse-event.md")).unwrap();
    let broken = finding.replacen("status:", "statu:", 1);
    let seen = fuzz::finding(broken.as_bytes());
    assert!(!seen.read && !seen.problems.is_empty(), "{seen:?}");
    let run =
        std::fs::read_to_string(root().join("data/runs/tool-eval-short-suite/run.yaml")).unwrap();
    let csv =
        std::fs::read_to_string(root().join("data/runs/tool-eval-short-suite/scores.csv")).unwrap();
    // A chart of a column the table does not have: found by validation.
    let bad = run.replacen("y: score", "y: scores", 1);
    let seen = fuzz::run(format!("{bad}=== scores.csv\n{csv}").as_bytes());
    assert!(seen.read);
    assert_eq!(
        seen.problems,
        ["data/runs/fuzz/run.yaml:66:5: error: `charts[0].y`: column \"scores\" is not in scores.csv\n  hint: did you mean \"score\"?"]
    );
}

/// The pastes of the fixtures and, where `FINDINGS_SHARED` is set, of the
/// shared folder.
fn pastes() -> Vec<(String, Vec<u8>)> {
    let mut dirs = vec![root().join("tests/fixtures/pasted")];
    if let Some(shared) = std::env::var_os("FINDINGS_SHARED") {
        dirs.push(Path::new(&shared).join("pasted"));
    }
    let mut out = Vec::new();
    for dir in dirs {
        for e in walkdir::WalkDir::new(&dir).sort_by_file_name() {
            let e = e.unwrap();
            let p = e.path();
            if e.file_type().is_file() && p.file_name().is_some_and(|n| n != "INDEX.md") {
                out.push((p.display().to_string(), std::fs::read(p).unwrap()));
            }
        }
    }
    out
}

/// Each console reader's target, on every paste: together the readers
/// find the reports a whole reading finds, each reader its own tool's.
#[test]
fn the_console_targets_find_the_reports_of_every_paste() {
    let all = pastes();
    assert!(all.len() >= 9, "{} pastes", all.len());
    let mut found = 0;
    for (name, data) in &all {
        let whole = results::read("paste.txt", data).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want: Vec<((usize, usize), results::Format)> = whole
            .reports
            .iter()
            .map(|r| (r.lines, r.read.format))
            .collect();
        let mut got = Vec::new();
        for reader in Reader::ALL {
            for r in fuzz::console(reader, data) {
                assert!(reader.formats().contains(&r.read.format));
                got.push((r.lines, r.read.format));
            }
        }
        got.sort_by_key(|(lines, _)| *lines);
        assert_eq!(got, want, "{name}");
        found += got.len();
    }
    assert!(found >= 13, "{found} reports");
}

/// The issue target on issues built of the pastes, as `gh issue view
/// --json` and a webhook write them: each read whole (the body and the
/// comment, findings lint's own answer left out).
#[test]
fn the_issue_target_reads_issues_of_the_pastes() {
    let mut read = 0;
    for (name, data) in pastes() {
        let body = String::from_utf8_lossy(&data).into_owned();
        let gh = serde_json::json!({
            "title": "[Performance]: slower on vLLM 0.30.0",
            "url": "https://github.com/vllm-project/vllm/issues/1",
            "body": format!("vLLM Version: 0.30.0\n\n```text\n{body}\n```\n"),
            "comments": [
                {"body": body, "url": "https://github.com/vllm-project/vllm/issues/1#issuecomment-2"},
                {"body": "<!-- findings: answer to pasted benchmark reports -->\nanswer", "url": "u3"},
            ],
        });
        let issue = fuzz::issue(gh.to_string().as_bytes()).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(
            (issue.texts.len(), issue.comments, issue.answers),
            (2, 2, 1),
            "{name}"
        );
        let event = serde_json::json!({
            "action": "created",
            "issue": {"html_url": "https://github.com/o/r/issues/1", "title": "t", "body": null},
            "comment": {"html_url": "https://github.com/o/r/issues/1#issuecomment-9", "body": body},
        });
        let issue = fuzz::issue(event.to_string().as_bytes()).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(issue.texts.len(), 1, "{name}");
        read += 1;
    }
    assert!(read >= 9);
    assert!(fuzz::issue(b"{\"issue\": 7}").is_none());
    assert!(fuzz::issue(b"").is_none());
}

#[test]
fn issue() {
    let seen = each("issue", 6, fuzz::issue);
    let texts: Vec<(&str, Option<usize>)> = seen
        .iter()
        .map(|(n, i)| (n.as_str(), i.as_ref().map(|i| i.texts.len())))
        .collect();
    assert_eq!(
        texts,
        [
            ("body-null-and-comments-null", Some(0)),
            ("comments-an-object-not-a-list", None),
            ("the-body-is-findings-own-answer", Some(0)),
            ("throughput-and-latency-lines-one-with-a-key", Some(2)),
            (
                "vllm-block-closed-by-the-rule-above-a-trtllm-section",
                Some(1)
            ),
            ("webhook-report-with-crlf-and-tokens", Some(1)),
        ]
    );
}

/// Found by the fuzzer (the `issue` target): a vLLM block closed by a rule
/// that is also the rule above a trtllm-bench section; both reports took
/// that line. The second now starts after the first.
#[test]
fn reports_never_share_a_line() {
    let (_, data) = inputs("issue")
        .into_iter()
        .find(|(n, _)| n == "vllm-block-closed-by-the-rule-above-a-trtllm-section")
        .unwrap();
    let issue = findings::issue::read("issue.json", &data).unwrap();
    let read = results::read("paste.txt", issue.texts[0].body.as_bytes()).unwrap();
    let at: Vec<(String, (usize, usize))> = read
        .reports
        .iter()
        .map(|r| (r.read.format.name().to_string(), r.lines))
        .collect();
    assert_eq!(
        at,
        [
            (
                "vLLM `vllm bench serve` console report (pasted)".to_string(),
                (1, 17)
            ),
            (
                "TensorRT-LLM `trtllm-bench` console report (pasted)".to_string(),
                (18, 25)
            ),
        ]
    );
}

/// Found by the fuzzer (the `genai_perf_console` target): a genai-perf
/// table cut into by a second copy of it (a paste gone wrong); the second
/// report took lines of the first. Each report is now its own lines.
#[test]
fn genai_perf_console() {
    let seen = each("genai_perf_console", 1, |d| {
        fuzz::console(Reader::GenaiPerf, d)
            .iter()
            .map(|r| r.lines)
            .collect::<Vec<_>>()
    });
    assert_eq!(
        seen,
        [(
            "a-table-cut-into-by-a-second-table".to_string(),
            vec![(11, 21), (22, 32)]
        )]
    );
}

/// Found by the fuzzer (the `result_file` target): JSON that is no JSON
/// (quotes that do not pair, a console report pasted in with its line
/// ends), where the second pass of the scrub pairs the quotes otherwise
/// than the first, and finds the `Authorization: Bearer` header the first
/// took for the text between strings. It is now scrubbed again until the
/// check finds nothing.
#[test]
fn broken_json_is_scrubbed_until_the_check_finds_nothing() {
    let (_, data) = inputs("result_file")
        .into_iter()
        .find(|(n, _)| n == "broken-json-whose-quotes-pair-anew-after-a-pass")
        .unwrap();
    let kept = results::scrub::scrub("bench.json", &data, false).unwrap();
    let said: Vec<String> = kept.removed.iter().map(ToString::to_string).collect();
    assert_eq!(
        said,
        [
            "openai_api_key (line 17): a credential, replaced by [removed]",
            "authorization (line 17): a credential, replaced by [removed]",
        ]
    );
    assert_eq!(results::scrub::holds_credential(&kept.bytes), None);
    assert!(!String::from_utf8_lossy(&kept.bytes).contains("sk-test-0123456789abcdef"));
}

/// Every fixture result file cut short at many places, and whole: the same
/// checks as the `result_file` target (a cut-short file is the usual way a
/// result file goes wrong).
#[test]
fn result_file_every_fixture_cut_short() {
    let root = root().join("tests/fixtures/results");
    let mut n = 0;
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let data = std::fs::read(entry.path()).unwrap();
        let step = (data.len() / 150).max(1);
        for cut in (0..=data.len()).step_by(step).chain([data.len()]) {
            let part = &data[..cut];
            if std::panic::catch_unwind(|| fuzz::result_file(part)).is_err() {
                panic!("{} cut at byte {cut} fails", entry.path().display());
            }
            n += 1;
        }
    }
    assert!(n > 1000, "result_file: {n} cuts");
}
