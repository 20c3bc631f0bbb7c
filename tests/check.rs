//! `findings check`: one broken fixture per validation rule, with the exact
//! diagnostic a person sees (file, line, column, field, message, hint).
#![allow(missing_docs)]

mod common;
use common::Site;

/// (what is broken, edits to the minimal fixture, the exact diagnostic).
type Case = (
    &'static str,
    &'static [(&'static str, &'static str, &'static str)],
    &'static str,
);

const F7: &str = "findings/cache-size.md";
const F9: &str = "findings/wrong-answers.md";
const RUN: &str = "data/runs/cache-sweep/run.yaml";
const CSV: &str = "data/runs/cache-sweep/starts.csv";

const CASES: &[Case] = &[
    (
        "unknown field",
        &[(F7, "status_note:", "statusnote:")],
        "findings/cache-size.md:7:1: error: `statusnote`: unknown field\n  hint: did you mean `status_note`?",
    ),
    (
        "missing required field",
        &[(F7, "advice: Pin the cache size\n", "")],
        "findings/cache-size.md:2:1: error: missing required field `advice`\n  hint: add `advice:` with a string",
    ),
    (
        "wrong type",
        &[(F7, "id: 7", "id: seven")],
        "findings/cache-size.md:2:1: error: `id`: expected a whole number of 1 or more, found the string \"seven\"",
    ),
    (
        "unquoted version",
        &[(F7, "affected: [\"0.28\", \"0.30\"]", "affected: [\"0.28\", 0.30]")],
        "findings/cache-size.md:12:24: error: `engines[0].affected[1]`: expected a version string, found the number 0.3\n  hint: quote it: \"0.30\" (unquoted, YAML reads 0.30 as the number 0.3)",
    ),
    (
        "malformed version",
        &[(F7, "\"0.30\"]", "\"0.30-nightly\"]")],
        "findings/cache-size.md:12:24: error: `engines[0].affected[1]`: \"0.30-nightly\" is not a version: unknown label; use rc, a, alpha, b, beta, post or dev\n  hint: versions look like 0.32.0, 1.3.0rc29, 2.0.0.dev3 or 0.6.0-rc.1",
    ),
    (
        "unknown group",
        &[(F7, "group: speed", "group: sped")],
        "findings/cache-size.md:4:1: error: `group`: unknown group \"sped\"\n  hint: did you mean \"speed\"?",
    ),
    (
        "unknown engine",
        &[(F7, "engine: vllm", "engine: vlm")],
        "findings/cache-size.md:11:5: error: `engines[0].engine`: unknown engine \"vlm\"\n  hint: did you mean \"vllm\"?",
    ),
    (
        "affected and clean",
        &[(F9, "    fixed_in: \"0.32.0\"", "    clean: [\"0.28.0\"]\n    fixed_in: \"0.32.0\"")],
        "findings/wrong-answers.md:12:13: error: `engines[0].clean[0]`: version \"0.28.0\" is listed both as affected and as clean\n  hint: a tested version is one or the other; remove it from one list",
    ),
    (
        "fixed_in not above affected",
        &[(F9, "fixed_in: \"0.32.0\"", "fixed_in: \"0.28\"")],
        "findings/wrong-answers.md:11:16: error: `engines[0].affected[0]`: affected version \"0.28\" is not below fixed_in \"0.28\"\n  hint: fixed_in names the first release with the fix, so it must be above every affected version",
    ),
    (
        "updated before published",
        &[(F7, "updated: 2026-09-01", "updated: 2026-08-01")],
        "findings/cache-size.md:9:1: error: `updated`: updated 2026-08-01 is before published 2026-08-17",
    ),
    (
        "impossible date",
        &[(F7, "published: 2026-08-17", "published: 2026-02-30")],
        "findings/cache-size.md:8:1: error: `published`: \"2026-02-30\" is not a date\n  hint: write dates as YYYY-MM-DD, e.g. 2026-08-17",
    ),
    (
        "duplicate id",
        &[(F9, "id: 9", "id: 7")],
        "findings/wrong-answers.md:2:1: error: `id`: id 7 is already used by findings/cache-size.md\n  hint: ids are permanent and never reused; give this finding the next free number",
    ),
    (
        "missing run",
        &[(F7, "runs: [cache-sweep]", "runs: [cache-swep]")],
        "findings/cache-size.md:21:8: error: `runs[0]`: run \"cache-swep\" does not exist\n  hint: did you mean \"cache-sweep\"?",
    ),
    (
        "missing chart",
        &[(F7, "runs: [cache-sweep]", "runs: [cache-sweep]\ncharts: [cache-sweep/cash]")],
        "findings/cache-size.md:22:10: error: `charts[0]`: run \"cache-sweep\" has no chart \"cash\"\n  hint: did you mean \"cache\"?",
    ),
    (
        "body link to a missing finding",
        &[(F7, "(finding:9#details)", "(finding:99)")],
        "findings/cache-size.md:28:38: error: `body`: no finding has id 99\n  hint: body links may be http(s)://, mailto:, finding:<id>, run:<run-id>, a site path starting with / or a #fragment",
    ),
    (
        "body link to a missing fragment",
        &[(F7, "(finding:9#details)", "(finding:9#detail)")],
        "findings/cache-size.md:28:38: error: `body`: finding 9 has no heading with the id \"detail\"\n  hint: body links may be http(s)://, mailto:, finding:<id>, run:<run-id>, a site path starting with / or a #fragment",
    ),
    (
        "javascript: link in a body",
        &[(F9, "[F7](finding:7)", "[F7](javascript:alert(1))")],
        "findings/wrong-answers.md:17:31: error: `body`: links with the scheme \"javascript:\" are not allowed\n  hint: body links may be http(s)://, mailto:, finding:<id>, run:<run-id>, a site path starting with / or a #fragment",
    ),
    (
        "site path that is not a page",
        &[(F9, "[F7](finding:7)", "[F7](/findings/nope/)")],
        "findings/wrong-answers.md:17:31: error: `body`: the site path \"/findings/nope/\" is not a page of this site\n  hint: body links may be http(s)://, mailto:, finding:<id>, run:<run-id>, a site path starting with / or a #fragment",
    ),
    (
        "data: URL in links",
        &[(F7, "url: https://github.com/vllm-project/vllm/issues/1", "url: data:text/html,x")],
        "findings/cache-size.md:19:5: error: `links[0].url`: \"data:text/html,x\" is not an allowed link\n  hint: links are http(s)://…, finding:<id> or run:<run-id>",
    ),
    (
        "no What to do section",
        &[(F9, "## What to do", "## Advice")],
        "findings/wrong-answers.md:17:1: error: `body`: the body has no `## What to do` section\n  hint: add a level-2 heading `## What to do` followed by the actionable advice",
    ),
    (
        "status fixed without fixed_in",
        &[(F9, "    fixed_in: \"0.32.0\"\n", "")],
        "findings/wrong-answers.md:6:1: error: `status`: status is fixed but no engine entry has fixed_in\n  hint: add fixed_in to the engine entry, or use status open or mitigated",
    ),
    (
        "alias that is a page",
        &[(F7, "aliases: [/old/cache/]", "aliases: [/findings/wrong-answers/]")],
        "findings/cache-size.md:22:11: error: `aliases[0]`: alias \"/findings/wrong-answers/\" is a page of the site itself\n  hint: an alias must be an old address that no page uses now",
    ),
    (
        "YAML syntax error",
        &[(F7, "title: The cache size `changed` between starts", "title: [unclosed")],
        "findings/cache-size.md:3:8: error: YAML syntax: the [list] opened here is never closed; the parser stopped at line 4, column 6 (did not find expected ',' or ']')\n  hint: close the [list] on the same line, and quote items that contain `,`, `[` or `]`",
    ),
    (
        "tab indentation",
        &[(F7, "  - engine: vllm", "\t- engine: vllm")],
        "findings/cache-size.md:11:1: error: a tab is used for indentation\n  hint: YAML indents with spaces only; replace the tab with spaces",
    ),
    (
        "front matter without closing ---",
        &[(F9, "---\nReplies changed.", "Replies changed.")],
        "findings/wrong-answers.md:1:1: error: the front matter has no closing `---`\n  hint: end the YAML fields with a line that holds only `---`",
    ),
    (
        "CSV cell that is not a number",
        &[(CSV, "94448", "fast")],
        "data/runs/cache-sweep/starts.csv:3:13: error: `cache`: expected a number, found \"fast\"\n  hint: numeric columns (those with a unit) take plain numbers like 1274 or 0.5, without thousands separators; leave the cell empty for no value",
    ),
    (
        "CSV ragged row",
        &[(CSV, "loaded,vllm,94448,407", "loaded,vllm,94448")],
        "data/runs/cache-sweep/starts.csv:3:1: error: row has 3 cells, the header has 4\n  hint: every row needs one cell per column; leave a cell empty for a missing value",
    ),
    (
        "CSV column not described",
        &[(CSV, "start,engine,cache,peak\ncompiled,vllm,51079,266\nloaded,vllm,94448,407", "start,engine,cache,peak,gpu\ncompiled,vllm,51079,266,1\nloaded,vllm,94448,407,1")],
        "data/runs/cache-sweep/run.yaml:14:5: error: `tables[0].columns`: column \"gpu\" of starts.csv is not described\n  hint: add `gpu: {unit: ..., description: ...}` under columns (leave out unit for a text column)",
    ),
    (
        "CSV table with no rows",
        &[(CSV, "compiled,vllm,51079,266\nloaded,vllm,94448,407\n", "")],
        "data/runs/cache-sweep/starts.csv:1:1: error: the table has a header but no rows\n  hint: add one row per measured point",
    ),
    (
        "chart column missing",
        &[(RUN, "y: cache", "y: cach")],
        "data/runs/cache-sweep/run.yaml:25:5: error: `charts[0].y`: column \"cach\" is not in starts.csv\n  hint: did you mean \"cache\"?",
    ),
    (
        "chart y column holds text",
        &[(RUN, "y: cache", "y: engine")],
        "data/runs/cache-sweep/run.yaml:25:5: error: `charts[0].y`: column \"engine\" holds text, but this axis needs numbers\n  hint: give \"engine\" a unit in the table's columns to make it numeric, or plot another column",
    ),
    (
        "log axis with a zero",
        &[(RUN, "    y: cache\n", "    y: cache\n    log_y: true\n"), (CSV, "51079", "0")],
        "data/runs/cache-sweep/starts.csv:2:1: error: `cache`: 0 is not above zero, but chart \"cache\" draws it on a log axis\n  hint: use a linear axis, or leave the cell empty",
    ),
    (
        "table path leaving the run folder",
        &[(RUN, "file: starts.csv", "file: ../../../site.yaml")],
        "data/runs/cache-sweep/run.yaml:12:5: error: `tables[0].file`: \"../../../site.yaml\" leaves the run folder\n  hint: name a CSV file inside the run's own folder, e.g. `throughput.csv`",
    ),
    (
        "missing table file",
        &[(RUN, "file: starts.csv", "file: start.csv")],
        "data/runs/cache-sweep/run.yaml:12:5: error: `tables[0].file`: the table file \"start.csv\" does not exist\n  hint: create data/runs/cache-sweep/start.csv or fix the name",
    ),
    (
        "engine colour",
        &[("site.yaml", "color: \"#d55e00\"", "color: orange")],
        "site.yaml:18:5: error: `engines[1].color`: \"orange\" is not a colour of the form #rrggbb\n  hint: write six hex digits after #, e.g. \"#0072b2\" (quoted: YAML reads # as a comment)",
    ),
    (
        "unknown site field",
        &[("site.yaml", "description:", "descripton:")],
        "site.yaml:3:1: error: `descripton`: unknown field\n  hint: did you mean `description`?",
    ),
];

#[test]
fn the_minimal_fixture_is_clean() {
    let site = Site::copy_of("minimal");
    let out = site.run(&["check"]);
    assert_eq!(
        out.stderr,
        "check: 0 errors, 0 warnings in 4 findings and 1 run\n"
    );
    assert_eq!(out.code, 0);
}

#[test]
fn each_rule_has_its_exact_message() {
    let mut failures = Vec::new();
    for (name, edits, expected) in CASES {
        let site = Site::copy_of("minimal");
        for (file, from, to) in *edits {
            site.edit(file, from, to);
        }
        let out = site.run(&["check"]);
        if out.code != 1 || !out.stderr.contains(expected) {
            failures.push(format!(
                "--- {name}: exit {}\nexpected:\n{expected}\ngot:\n{}",
                out.code, out.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn all_problems_are_reported_at_once_in_a_stable_order() {
    let site = Site::copy_of("minimal");
    site.edit(F9, "group: answers", "group: nope");
    site.edit(F7, "status: open", "status: opne");
    site.edit(CSV, "266", "many");
    let out = site.run(&["check"]);
    assert_eq!(out.code, 1);
    let lines: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| !l.starts_with("  hint"))
        .collect();
    assert_eq!(
        lines,
        [
            "data/runs/cache-sweep/starts.csv:2:21: error: `peak`: expected a number, found \"many\"",
            "findings/cache-size.md:6:1: error: `status`: \"opne\" is not one of open, fixed, mitigated, advice",
            "findings/wrong-answers.md:4:1: error: `group`: unknown group \"nope\"",
            "check: 3 errors, 0 warnings in 3 findings and 1 run",
        ]
    );
}

#[test]
fn json_output_carries_the_same_diagnostics() {
    let site = Site::copy_of("minimal");
    site.edit(F7, "group: speed", "group: sped");
    let out = site.run(&["check", "--format", "json"]);
    assert_eq!(out.code, 1);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        v,
        serde_json::json!([{
            "severity": "error",
            "file": "findings/cache-size.md",
            "line": 4,
            "column": 1,
            "field": "group",
            "message": "unknown group \"sped\"",
            "hint": "did you mean \"speed\"?"
        }])
    );
}

#[test]
fn the_bundled_site_is_clean() {
    let out = common::run_in(&common::bundled(), &["check"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // No warning either: the bundled records are the example others copy.
    assert!(
        out.stderr.starts_with("check: 0 errors, 0 warnings in "),
        "{}",
        out.stderr
    );
}
