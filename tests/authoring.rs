//! `list`, `show`, `new` and `new-run` against fixture folders and the bundled site.
#![allow(missing_docs)]

mod common;
use common::{run_in, Site};

#[test]
fn list_answers_what_affects_a_version() {
    let out = run_in(
        &common::bundled(),
        &[
            "list",
            "--engine",
            "vllm",
            "--version",
            "0.31",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows: Vec<serde_json::Value> = serde_json::from_str(&out.stdout).unwrap();
    let state = |id: u64| {
        rows.iter()
            .find(|r| r["id"] == id)
            .map(|r| r["state"].as_str().unwrap().to_string())
            .unwrap_or_else(|| panic!("F{id} missing"))
    };
    assert_eq!(
        state(1),
        "mitigated",
        "MTP: default runner clean since 0.30"
    );
    assert_eq!(
        state(2),
        "in-range",
        "n-gram: between 0.30 (affected) and 0.32.0 (fixed)"
    );
    assert_eq!(
        state(7),
        "in-range",
        "EngineCore: affected on 0.30 and 0.32.0"
    );
    assert_eq!(state(3), "unknown", "agent slowdown: only 0.32.0 tested");
    // Sorted by group order, then number; SGLang-only findings are not listed.
    let ids: Vec<u64> = rows.iter().map(|r| r["id"].as_u64().unwrap()).collect();
    assert_eq!(&ids[..2], &[1, 2]);
    assert!(!ids.contains(&5) && !ids.contains(&9));
}

#[test]
fn list_as_a_table() {
    let site = Site::copy_of("minimal");
    let out = site.run(&["list", "--engine", "vllm", "--version", "0.29"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "ID  STATE     GROUP    OVERALL    TITLE\n\
         F7  in range  speed    open       The cache size changed between starts\n\
         F9  in range  answers  fixed      Answers changed under speculation\n"
    );
    let by_status = site.run(&["list", "--status", "fixed"]);
    assert_eq!(by_status.stdout, "ID  GROUP    STATUS     TITLE\nF9  answers  fixed      Answers changed under speculation\n");
}

#[test]
fn show_prints_facts_and_url() {
    let site = Site::copy_of("minimal");
    let out = site.run(&["show", "F7"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("F7: The cache size changed between starts\nadvice:    Pin the cache size\nstatus:    open (Seen on two releases)\n"), "{}", out.stdout);
    assert!(out
        .stdout
        .contains("engine:    vLLM: affected 0.28, 0.30\n           V1 runner only\n"));
    assert!(out
        .stdout
        .ends_with("url:       https://example.org/sub/f/7/\n"));
    assert_eq!(
        site.run(&["show", "99"]).stderr,
        "error: no finding has id 99\n"
    );
}

#[test]
fn new_writes_records_that_check_accepts_and_never_overwrites() {
    let site = Site::copy_of("minimal");
    let out = site.run(&[
        "new",
        "Speculation slowed the agents",
        "--group",
        "speed",
        "--engine",
        "vllm",
        "--version",
        "0.32.0",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out
        .stdout
        .trim_end()
        .ends_with("findings/speculation-slowed-the-agents.md"));
    let text = site.read("findings/speculation-slowed-the-agents.md");
    assert!(
        text.starts_with("---\nid: 13\n"),
        "next free id after the draft's 12: {text}"
    );
    assert!(text.contains("## What to do"));
    let run = site.run(&[
        "new-run",
        "slow-agents",
        "--engine",
        "vllm",
        "--version",
        "0.32.0",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Its placeholders are refused, each on its field and line, so that
    // `new`'s skeleton cannot be published by accident (issue 43).
    let hint = "  hint: replace it with what the finding says, or add `draft: true` until it is ready (`findings serve --drafts` shows drafts)\n";
    let file = "findings/speculation-slowed-the-agents.md";
    let check = site.run(&["check"]);
    assert_eq!(check.code, 1, "{}", check.stderr);
    assert_eq!(
        check.stderr,
        format!(
            "{file}:5:1: error: `advice`: advice is still the placeholder \"Say what to do in a few words\"\n{hint}\
             {file}:12:1: error: `body`: the body still has the placeholder \"What happened, on which versions, and how it showed.\"\n{hint}\
             {file}:16:1: error: `body`: the body still has the placeholder \"The figures, and a link to the run behind them once it exists (`findings new-run`).\"\n{hint}\
             {file}:20:1: error: `body`: the body still has the placeholder \"The actionable advice.\"\n{hint}\
             check: 4 errors, 0 warnings in 5 findings and 2 runs\n"
        )
    );
    // Written, it checks clean; as a draft, it may keep them.
    let skeleton = site.read(file);
    let written = skeleton
        .replace(
            "Say what to do in a few words",
            "Turn speculation off for agents",
        )
        .replace(
            "What happened, on which versions, and how it showed.",
            "Agents ran slower with speculation on.",
        )
        .replace(
            "The figures, and a link to the run behind them once it exists (`findings new-run`).",
            "See the run.",
        )
        .replace("The actionable advice.", "Turn it off.");
    site.write(file, &written);
    let check = site.run(&["check"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert_eq!(
        check.stderr,
        "check: 0 errors, 0 warnings in 5 findings and 2 runs\n"
    );
    site.write(
        file,
        &skeleton.replacen("\nstatus: open\n", "\nstatus: open\ndraft: true\n", 1),
    );
    let check = site.run(&["check"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    let again = site.run(&[
        "new",
        "Speculation slowed the agents",
        "--group",
        "speed",
        "--engine",
        "vllm",
    ]);
    assert_eq!(again.code, 1);
    assert_eq!(
        again.stderr,
        "error: findings/speculation-slowed-the-agents.md already exists; not overwriting it\n"
    );
}
