//! Performance across versions on real files (issue 39): the shared
//! llama.cpp series (`<shared>/trendsets/llamacpp-strixhalo-gpt-oss-20b-vulkan/`,
//! twelve llama-bench reports of one machine, builds 6119 to 9187)
//! imported into a new site as twelve runs, dated from its INDEX.md,
//! leaving `check` nothing to warn about; `findings trends` in every
//! format and its exit codes; `findings compare` of two builds; the
//! workload pages, their CSV and `workloads.json` against its schema.
//! Every figure asserted is one the files print (`1,577.96 ± 12.64`),
//! read from the files here, and every change is held to the rule, worked
//! out here again: its percent from the two values, its direction by the
//! metric, and its noise the series' history (the builds before it, at
//! most five and at least three, whose mean the new value must pass by 3
//! standard deviations, widened by its ±), untested before there are
//! three; llama-bench's ± alone tests nothing.
//!
//! The files are other projects' data and are never copied into the
//! repository: the folder comes from `FINDINGS_SHARED` (`.ci/run` sets it
//! to `../shared`). Unset, each test says so and passes; set to a folder
//! without the series, it fails. The workload identity on the other real
//! files (results, pastes, recorded runs) is in `tests/trends_identity.rs`.
//!
//! Run it with `FINDINGS_SHARED=../shared cargo test --test trends`.
#![allow(missing_docs)]

mod common;
use common::{run_in, Output};
use serde_json::Value;
use std::path::{Path, PathBuf};

const SERIES: &str = "trendsets/llamacpp-strixhalo-gpt-oss-20b-vulkan";

fn shared() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("FINDINGS_SHARED") else {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "trends: FINDINGS_SHARED is not set, so the shared llama.cpp series is not imported (set it to the shared folder, e.g. ../shared)"
        );
        return None;
    };
    let dir = PathBuf::from(dir);
    assert!(
        dir.join("trendsets/INDEX.md").is_file() && dir.join(SERIES).is_dir(),
        "FINDINGS_SHARED={} has no trendsets/INDEX.md and {SERIES}/",
        dir.display()
    );
    Some(dir)
}

/// A file of the series: its name, its day (from INDEX.md), its build,
/// and the figures its table prints for each test, (test, mean, ±).
struct Report {
    file: PathBuf,
    day: String,
    build: String,
    figures: Vec<(String, f64, f64)>,
}

/// The series as INDEX.md lists it (file and day), each file's figures
/// read from its Markdown table (`| … | pp512 | 1397.71 ± 70.15 |`) and
/// its build from its `build: <commit> (<number>)` line.
fn series(shared: &Path) -> Vec<Report> {
    let index = std::fs::read_to_string(shared.join("trendsets/INDEX.md")).unwrap();
    let mut out = Vec::new();
    for line in index.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5 || !cells[1].starts_with("`b") || !cells[1].ends_with(".log`") {
            continue;
        }
        let file = shared.join(SERIES).join(cells[1].trim_matches('`'));
        let text = std::fs::read_to_string(&file).unwrap();
        let build = text
            .lines()
            .find_map(|l| l.strip_prefix("build: "))
            .and_then(|l| l.split_once(" ("))
            .map(|(_, n)| n.trim_end_matches(')').to_string())
            .unwrap();
        let figures = text
            .lines()
            .filter(|l| l.starts_with("| gpt-oss"))
            .map(|l| {
                let c: Vec<&str> = l.split('|').map(str::trim).collect();
                let (test, ts) = (c[c.len() - 3], c[c.len() - 2]);
                let (mean, sd) = ts.split_once(" ± ").unwrap();
                (test.to_string(), mean.parse().unwrap(), sd.parse().unwrap())
            })
            .collect();
        out.push(Report {
            file,
            day: cells[3].to_string(),
            build,
            figures,
        });
    }
    assert_eq!(out.len(), 12, "INDEX.md lists twelve files of the series");
    out
}

/// A new site (`findings init --engine llama-cpp`) with the twelve files
/// imported, run `llama-b<build>` each, as a user would: the engine given,
/// the day from INDEX.md (no file records one), the version from the file.
fn imported(shared: &Path) -> (tempfile::TempDir, PathBuf, Vec<Report>) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let r = common::run_from(
        dir.path(),
        &["init", root.to_str().unwrap(), "--engine", "llama-cpp"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let reports = series(shared);
    for rep in &reports {
        let id = format!("llama-b{}", rep.build);
        let r = run_in(
            &root,
            &[
                "import",
                &id,
                rep.file.to_str().unwrap(),
                "--engine",
                "llama-cpp",
                "--date",
                &rep.day,
            ],
        );
        assert_eq!(r.code, 0, "{}: {}", rep.file.display(), r.stderr);
        assert!(
            !r.stderr.contains("warning"),
            "{}: {}",
            rep.file.display(),
            r.stderr
        );
    }
    (dir, root, reports)
}

/// The first line of `findings trends --engine llama-cpp` on the series.
const FIRST: &str = "2 workloads of llama.cpp, 22 changes between versions: better on 3 of 22 beyond noise (gpt-oss 20B MXFP4 MoE · pp512: tokens a second +64% on llama.cpp 6486 against 6182, …); 15 within noise (gpt-oss 20B MXFP4 MoE · pp512: tokens a second +11% on llama.cpp 6735 against 6486, …); 3 untested, single runs: better on 3 (gpt-oss 20B MXFP4 MoE · tg128: tokens a second +2.2% on llama.cpp 6182 against 6122, gpt-oss 20B MXFP4 MoE · pp512: tokens a second +0.5% on llama.cpp 6182 against 6122, gpt-oss 20B MXFP4 MoE · tg128: tokens a second +1% on llama.cpp 6122 against 6119); the same on 1.";

fn trends(root: &Path, more: &[&str]) -> Output {
    let mut args = vec!["trends"];
    args.extend(more);
    run_in(root, &args)
}

#[test]
fn the_series_imports_as_twelve_runs_that_check_leaves_without_a_warning() {
    let Some(shared) = shared() else { return };
    let (_dir, root, reports) = imported(&shared);
    let r = run_in(&root, &["check"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr, "check: 0 errors, 0 warnings in 1 finding and 12 runs\n",
        "the imports leave nothing to warn about"
    );
    // Each run is of the file's build, dated from INDEX.md, with the
    // setup's engine as the site names it and a chart of t/s per test.
    for rep in &reports {
        let yaml =
            std::fs::read_to_string(root.join(format!("data/runs/llama-b{}/run.yaml", rep.build)))
                .unwrap();
        for want in [
            format!("date: {}\n", rep.day),
            format!("    engine: llama-cpp\n    version: \"{}\"\n", rep.build),
            "client: llama-bench\n".to_string(),
            "charts:\n  - id: tokens-per-test\n".to_string(),
        ] {
            assert!(yaml.contains(&want), "{want:?} in\n{yaml}");
        }
    }
}

/// The table: the verdict, each workload apart, every build in version
/// order with its ± and its change, and the command that starts a
/// finding under the regression no finding cites.
#[test]
fn trends_lists_each_build_to_build_change_with_its_direction_and_noise() {
    let Some(shared) = shared() else { return };
    let (_dir, root, reports) = imported(&shared);
    let r = trends(&root, &["--engine", "llama-cpp"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = &r.stdout;
    // The first line: no regression (tg128's −2.5% at 8577 is within the
    // noise of the five builds before it), three changes beyond it, and
    // how many are untested and how large the largest is.
    assert!(out.starts_with(&format!("{FIRST}\n")), "{out}");
    for line in [
        "\ngpt-oss 20B MXFP4 MoE · pp512\n  https://example.org/workloads/gpt-oss-20b-mxfp4-moe-pp512/\n  11 changes between versions: better on 2 of 11 beyond noise (tokens a second +64% on llama.cpp 6486 against 6182, tokens a second +13% on llama.cpp 8577 against 7938); 7 within noise (tokens a second +11% on llama.cpp 6735 against 6486, …); 1 untested, single runs: better on 1 (tokens a second +0.5% on llama.cpp 6182 against 6122); the same on 1.\n  Tokens a second · llama.cpp on Radeon 8060S Graphics, Vulkan\n    version  value                    run          change\n    6119     728.38 tok/s (±8.17)     llama-b6119\n",
        "\n    6122     728.71 tok/s (±8.40)     llama-b6122  0% the same\n",
        "\n    6182     732.35 tok/s (±7.51)     llama-b6182  +0.5% better, untested\n",
        "\n    6486     1,204.49 tok/s (±13.52)  llama-b6486  +64% better, beyond noise (±2.8%)\n",
        "\n    6735     1,340.77 tok/s (±10.85)  llama-b6735  +11%, within noise (±85%)\n",
        "\n    7938     1,397.71 tok/s (±70.15)  llama-b7938  −2.2%, within noise (±24%)\n",
        "\n    8577     1,577.96 tok/s (±12.64)  llama-b8577  +13% better, beyond noise (±8.6%)\n",
        "\n    8743     1,574.45 tok/s (±16.63)  llama-b8743  −0.2%, within noise (±19%)\n",
        "\ngpt-oss 20B MXFP4 MoE · tg128\n  https://example.org/workloads/gpt-oss-20b-mxfp4-moe-tg128/\n  11 changes between versions: better on 1 of 11 beyond noise (tokens a second +4% on llama.cpp 6486 against 6182); 8 within noise (tokens a second +3.2% on llama.cpp 7423 against 7034, tokens a second +0.3% on llama.cpp 6735 against 6486, …); 2 untested, single runs: better on 2 (tokens a second +2.2% on llama.cpp 6182 against 6122, tokens a second +1% on llama.cpp 6122 against 6119).\n  Tokens a second · llama.cpp on Radeon 8060S Graphics, Vulkan\n",
        "\n    6122     70.49 tok/s (±0.04)  llama-b6122  +1% better, untested\n",
        "\n    6486     74.94 tok/s (±0.14)  llama-b6486  +4% better, beyond noise (±5.1%)\n",
        "\n    7938     80.99 tok/s (±0.06)  llama-b7938  +0.5%, within noise (±9.9%)\n",
        "\n    8577     78.94 tok/s (±0.01)  llama-b8577  −2.5%, within noise (±9.4%)\n",
        "\n    8743     79.03 tok/s (±0.17)  llama-b8743  +0.1%, within noise (±6%)\n",
        "\n    9187     79.78 tok/s (±0.23)  llama-b9187  +0.9%, within noise (±3.7%)\n",
    ] {
        assert!(out.contains(line), "{line}\n---\n{out}");
    }
    assert!(!out.contains("regression"), "{out}");
    // Every build, in build order (6119 before 9187, as numbers), in each
    // workload's table, once.
    let builds: Vec<&str> = reports.iter().map(|r| r.build.as_str()).collect();
    assert_eq!(builds.first(), Some(&"6119"));
    assert_eq!(builds.last(), Some(&"9187"));
    for section in out.split("\ngpt-oss 20B MXFP4 MoE · ").skip(1) {
        let rows: Vec<&str> = section
            .lines()
            .filter_map(|l| l.strip_prefix("    "))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|v| v.chars().all(|c| c.is_ascii_digit()))
            .collect();
        assert_eq!(rows, builds, "{section}");
    }
    // The tests are never averaged together: no value between the two.
    assert!(!out.contains("739.35"), "{out}");
}

/// The JSON names the issue fixes, each point the figure its file prints
/// and each change held to the rule.
#[test]
fn trends_json_has_the_files_figures_and_every_change_follows_the_rule() {
    let Some(shared) = shared() else { return };
    let (_dir, root, reports) = imported(&shared);
    let r = trends(&root, &["--engine", "llama-cpp", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let workloads = v["workloads"].as_array().unwrap();
    let ids: Vec<&str> = workloads
        .iter()
        .map(|w| w["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["gpt-oss-20b-mxfp4-moe-pp512", "gpt-oss-20b-mxfp4-moe-tg128"]
    );
    let mut total = 0;
    for (w, test) in workloads.iter().zip(["pp512", "tg128"]) {
        assert_eq!(w["title"], format!("gpt-oss 20B MXFP4 MoE · {test}"));
        let metrics = w["metrics"].as_array().unwrap();
        assert_eq!(metrics.len(), 1, "llama-bench's one metric");
        let m = &metrics[0];
        assert_eq!(m["metric"], "tokens_per_s");
        let points = m["points"].as_array().unwrap();
        assert_eq!(points.len(), 12, "{test}: every build a point");
        for (p, rep) in points.iter().zip(&reports) {
            let (_, mean, sd) = rep.figures.iter().find(|f| f.0 == test).unwrap();
            for key in [
                "engine", "version", "run", "setup", "value", "low", "high", "n", "flags",
            ] {
                assert!(p.get(key).is_some(), "{key} in {p}");
            }
            assert_eq!(p["engine"], "llama-cpp");
            assert_eq!(p["version"], rep.build.as_str());
            assert_eq!(p["run"], format!("llama-b{}", rep.build));
            assert_eq!(p["setup"], format!("llama.cpp {}", rep.build));
            assert_eq!(p["value"].as_f64().unwrap(), *mean, "{test} {}", rep.build);
            assert!((p["low"].as_f64().unwrap() - (mean - sd)).abs() < 1e-9);
            assert!((p["high"].as_f64().unwrap() - (mean + sd)).abs() < 1e-9);
            assert_eq!(p["n"], 1);
            assert_eq!(p["flags"], serde_json::json!([]));
        }
        let changes = m["changes"].as_array().unwrap();
        assert_eq!(changes.len(), 11, "{test}: a change per pair of builds");
        for (c, pair) in changes.iter().zip(points.windows(2)) {
            for key in [
                "from",
                "to",
                "pct",
                "direction",
                "noise",
                "comparable",
                "findings",
            ] {
                assert!(c.get(key).is_some(), "{key} in {c}");
            }
            let (a, b) = (&pair[0], &pair[1]);
            assert_eq!((&c["from"], &c["to"]), (&a["version"], &b["version"]));
            let (va, vb) = (a["value"].as_f64().unwrap(), b["value"].as_f64().unwrap());
            let pct = (vb - va) / va * 100.0;
            assert!((c["pct"].as_f64().unwrap() - pct).abs() < 1e-9, "{c}");
            // The noise, worked out again: the builds before it (at most
            // five, at least three), whose mean it must pass by 3 sample
            // standard deviations widened by its own ±, on the side it
            // moved to; the ± alone never tests a change.
            let i = points
                .iter()
                .position(|p| p["version"] == b["version"])
                .unwrap();
            let history: Vec<f64> = points[i.saturating_sub(5)..i]
                .iter()
                .map(|p| p["value"].as_f64().unwrap())
                .collect();
            let noise = if history.len() < 3 {
                "untested"
            } else {
                let n = history.len() as f64;
                let mean = history.iter().sum::<f64>() / n;
                let sd =
                    (history.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
                let reach = 3.0 * sd + (b["high"].as_f64().unwrap() - vb);
                if (vb > mean + reach && pct > 0.0) || (vb < mean - reach && pct < 0.0) {
                    "beyond"
                } else {
                    "within"
                }
            };
            assert_eq!(c["noise"], noise, "{c}");
            assert_eq!(
                c["noise_from"],
                if noise == "untested" {
                    Value::Null
                } else {
                    "history".into()
                },
                "{c}"
            );
            // Tokens a second: higher is better; a change rounding to 0%
            // is the same.
            let direction = if pct.abs() < 0.05 {
                "same"
            } else if pct > 0.0 {
                "better"
            } else {
                "worse"
            };
            assert_eq!(c["direction"], direction, "{c}");
            assert_eq!(c["comparable"], true);
            assert_eq!(c["findings"], serde_json::json!([]));
            total += 1;
        }
    }
    assert_eq!(total, 22);
    // 8577's −2.5% on tg128 is worse, and within the noise of the builds
    // before it (75.19 to 80.99 tok/s), not a regression; pp512's +13%
    // there is beyond theirs.
    let tg = &workloads[1]["metrics"][0];
    assert_eq!(tg["points"][9]["value"], 78.94);
    assert_eq!(tg["changes"][8]["from"], "7938");
    assert_eq!(tg["changes"][8]["to"], "8577");
    assert_eq!(tg["changes"][8]["direction"], "worse");
    assert_eq!(tg["changes"][8]["noise"], "within");
    assert_eq!(tg["changes"][8]["kind"], "within noise");
    assert_eq!(tg["changes"][8]["words"], "−2.5%, within noise (±9.4%)");
    assert_eq!(tg["points"][9]["change"], "within noise");
    assert!((tg["changes"][8]["pct"].as_f64().unwrap() - (-2.531176688480056)).abs() < 1e-9);
    let pp = &workloads[0]["metrics"][0];
    assert_eq!(pp["changes"][8]["direction"], "better");
    assert_eq!(pp["changes"][8]["noise"], "beyond");
    assert_eq!(pp["changes"][8]["kind"], "improvement");
    assert_eq!(pp["changes"][7]["direction"], "worse");
    assert_eq!(pp["changes"][7]["noise"], "within");
    // The first two changes of each: too few builds before them.
    assert_eq!(tg["changes"][0]["noise"], "untested");
    assert_eq!(tg["changes"][1]["noise"], "untested");
    assert_eq!(tg["changes"][2]["kind"], "improvement", "6486's +4%");
}

/// Exit codes for CI: 1 on a regression under `--fail-on regression`,
/// 0 under `never` or when `--since` leaves the regression out, 2 with
/// the reason when the trends cannot be said.
#[test]
fn trends_fails_on_a_regression_and_says_why_it_cannot_run() {
    let Some(shared) = shared() else { return };
    let (_dir, root, _) = imported(&shared);
    // No change of the series passes its noise in the worse direction.
    let r = trends(&root, &["--engine", "llama-cpp", "--fail-on", "regression"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.starts_with(&format!("{FIRST}\n")), "{}", r.stdout);
    // A CI job that accepts single runs states its bound: at 2%, 8577's
    // −2.5% on tg128 is a regression (the two builds' ± widen 2% to
    // 2.1%), and the job fails; at 5% nothing is.
    let r = trends(
        &root,
        &[
            "--engine",
            "llama-cpp",
            "--threshold",
            "2",
            "--fail-on",
            "regression",
        ],
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with("2 workloads of llama.cpp, 22 changes between versions: better on 8 of 22 beyond noise (gpt-oss 20B MXFP4 MoE · pp512: tokens a second +64% on llama.cpp 6486 against 6182, …), worse on 1 (gpt-oss 20B MXFP4 MoE · tg128: tokens a second −2.5% on llama.cpp 8577 against 7938); 12 within noise"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("\n    8577     78.94 tok/s (±0.01)  llama-b8577  −2.5% worse, beyond noise (±2.1%)\n")
            && r.stdout.contains("\n    8577: a regression no finding cites; start one: findings new \"Tokens a second −2.5% on llama.cpp 8577 against 7938 (gpt-oss 20B MXFP4 MoE · tg128)\" --group hidden-speed --engine llama-cpp --version 8577\n"),
        "{}",
        r.stdout
    );
    let r = trends(
        &root,
        &[
            "--engine",
            "llama-cpp",
            "--threshold",
            "5",
            "--fail-on",
            "regression",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let r = trends(&root, &["--threshold", "0"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: --threshold: 0 is not a bound in percent\n  hint: a number more than 0 and at most 100: --threshold 5 for ±5%\n"
    );
    let r = trends(&root, &["--engine", "llama-cpp", "--fail-on", "never"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = trends(&root, &["--since", "8577", "--fail-on", "regression"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with(
            "2 workloads since 8577, 4 changes between versions: all 4 within noise (gpt-oss 20B MXFP4 MoE · pp512: tokens a second +7.5% on llama.cpp 9187 against 8743, gpt-oss 20B MXFP4 MoE · pp512: tokens a second −0.2% on llama.cpp 8743 against 8577, …).\n"
        ),
        "{}",
        r.stdout
    );
    let r = trends(&root, &["--engine", "vllm"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        "error: unknown engine \"vllm\"\n  hint: the engines of site.yaml: llama-cpp\n"
    );
    let r = trends(&root, &["--workload", "tg256"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: no workload the site follows is \"tg256\" or has it in its title\n  hint: the workloads' ids: gpt-oss-20b-mxfp4-moe-pp512, gpt-oss-20b-mxfp4-moe-tg128\n"
    );
    let r = trends(&root, &["--since", "latest"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: --since: \"latest\" is not a version: it must start with a number\n  hint: a version as the site writes it: 0.30, 1.3.0rc29, b6119\n"
    );
    let nowhere = root.join("nowhere");
    let r = trends(&nowhere, &[]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "site.yaml: error: cannot read the file: it does not exist\n  hint: a findings folder needs site.yaml at its root; is --root pointing at the right folder? To start a new site, run `findings init <folder>`\nerror: the records have 1 error\n  hint: run `findings check`\n"
    );
    // Under GitHub Actions the reason is an annotation too.
    let r = trends(&root, &["--engine", "vllm", "--format", "github"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stdout,
        "::error title=findings trends could not run::unknown engine \"vllm\"%0Ahint: the engines of site.yaml: llama-cpp\n"
    );
    // One workload by id; `b`-prefixed builds are versions to --since.
    let r = trends(
        &root,
        &[
            "--workload",
            "gpt-oss-20b-mxfp4-moe-tg128",
            "--since",
            "b8577",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with(
            "1 workload since b8577, 2 changes between versions: both within noise (tokens a second +0.9% on llama.cpp 9187 against 8743, tokens a second +0.1% on llama.cpp 8743 against 8577).\n"
        ),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("pp512"), "{}", r.stdout);
}

#[test]
fn trends_as_markdown_and_as_github_workflow_commands() {
    let Some(shared) = shared() else { return };
    let (_dir, root, _) = imported(&shared);
    let r = trends(&root, &["--format", "markdown"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = FIRST.replace(" of llama.cpp,", ",");
    for line in [
        format!("**{first}**\n"),
        "\n### [gpt-oss 20B MXFP4 MoE · pp512](https://example.org/workloads/gpt-oss-20b-mxfp4-moe-pp512/)\n\n11 changes between versions: better on 2 of 11 beyond noise (tokens a second +64% on llama.cpp 6486 against 6182, tokens a second +13% on llama.cpp 8577 against 7938); 7 within noise (tokens a second +11% on llama.cpp 6735 against 6486, …); 1 untested, single runs: better on 1 (tokens a second +0.5% on llama.cpp 6182 against 6122); the same on 1.\n\nTokens a second · llama.cpp on Radeon 8060S Graphics, Vulkan\n\n| Version | Value | Run | Change |\n|---|--:|---|---|\n| 6119 | 728.38 tok/s (±8.17) | [llama-b6119](https://example.org/runs/llama-b6119/) |  |\n".to_string(),
        "\n| 8577 | 1,577.96 tok/s (±12.64) | [llama-b8577](https://example.org/runs/llama-b8577/) | +13% better, beyond noise (±8.6%) |\n".to_string(),
        "\n| 8577 | 78.94 tok/s (±0.01) | [llama-b8577](https://example.org/runs/llama-b8577/) | −2.5%, within noise (±9.4%) |\n".to_string(),
    ] {
        assert!(r.stdout.contains(&line), "{line}\n---\n{}", r.stdout);
    }
    let r = trends(&root, &["--format", "github"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(
        !lines.iter().any(|l| l.starts_with("::error")),
        "{}",
        r.stdout
    );
    let notices: Vec<&&str> = lines.iter().filter(|l| l.starts_with("::notice")).collect();
    assert_eq!(notices.len(), 3, "a notice per improvement");
    assert_eq!(
        notices[2],
        &"::notice title=Improvement%3A gpt-oss 20B MXFP4 MoE · tg128::Tokens a second +4%25 better on llama.cpp on Radeon 8060S Graphics, Vulkan 6486 against 6182: 74.94 tok/s against 72.05 tok/s, beyond the noise of the 3 versions before (±5.1%25, z 3).%0Ahttps://example.org/workloads/gpt-oss-20b-mxfp4-moe-tg128/"
    );
    assert_eq!(
        lines.last().copied(),
        Some(format!("findings trends: {first}").as_str())
    );
    // With a bound on the command line, the regression is an error.
    let r = trends(&root, &["--format", "github", "--threshold", "2"]);
    let errors: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("::error"))
        .collect();
    assert_eq!(
        errors,
        ["::error title=Regression%3A gpt-oss 20B MXFP4 MoE · tg128::Tokens a second −2.5%25 worse on llama.cpp on Radeon 8060S Graphics, Vulkan 8577 against 7938: 78.94 tok/s against 80.99 tok/s, beyond the bound given on the command line (±2.1%25).%0Ahttps://example.org/workloads/gpt-oss-20b-mxfp4-moe-tg128/%0ANo finding cites it; start one: findings new \"Tokens a second −2.5%25 on llama.cpp 8577 against 7938 (gpt-oss 20B MXFP4 MoE · tg128)\" --group hidden-speed --engine llama-cpp --version 8577"]
    );
}

/// `compare` of two builds: pp512 and tg128 as rows of their own, each
/// with its ±, which tests nothing: two single runs are untested, and say
/// how large their changes are; a bound stated judges them. The runs and
/// the files give the same.
#[test]
fn compare_of_two_builds_sets_each_test_apart_with_its_noise() {
    let Some(shared) = shared() else { return };
    let (_dir, root, reports) = imported(&shared);
    let file = |b: &str| {
        reports
            .iter()
            .find(|r| r.build == b)
            .unwrap()
            .file
            .to_str()
            .unwrap()
            .to_string()
    };
    let by_run = run_in(&root, &["compare", "llama-b7938", "llama-b8577"]);
    let by_file = run_in(&root, &["compare", &file("7938"), &file("8577")]);
    for r in [&by_run, &by_file] {
        assert_eq!(r.code, 0, "{}", r.stderr);
        for line in [
            "llama.cpp 8577 against 7938: both workloads untested, single runs: worse on 1 (tg128 −2.5%), better on 1 (pp512 +13%).\n",
            "\ngpt-oss 20B MXFP4 MoE · pp512 · on Radeon 8060S Graphics, Vulkan\n",
            "\ngpt-oss 20B MXFP4 MoE · tg128 · on Radeon 8060S Graphics, Vulkan\n",
        ] {
            assert!(r.stdout.contains(line), "{line}\n---\n{}", r.stdout);
        }
        assert!(!r.stdout.contains("739.35"), "{}", r.stdout);
        assert!(!r.stdout.contains("within noise\n"), "{}", r.stdout);
    }
    for line in [
        "  Tokens a second  1,398 tok/s (±70)  1,578 tok/s (±13)  +13% better, untested\n",
        "  Tokens a second  80.99 tok/s (±0.06)  78.94 tok/s (±0.01)  −2.5% worse, untested\n",
    ] {
        assert!(
            by_run.stdout.contains(line),
            "{line}\n---\n{}",
            by_run.stdout
        );
    }
    let json = run_in(
        &root,
        &["compare", "llama-b7938", "llama-b8577", "--format", "json"],
    );
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    let rows: Vec<(f64, f64, f64, f64, &str, &str)> = v["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            let row = &w["rows"][0];
            let f = |s: usize, k: &str| row["values"][s][k].as_f64().unwrap();
            (
                f(0, "mean"),
                f(0, "max") - f(0, "mean"),
                f(1, "mean"),
                f(1, "max") - f(1, "mean"),
                row["changes"][1]["direction"].as_str().unwrap(),
                row["changes"][1]["noise"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
    let (a, b) = (&rows[0], &rows[1]);
    assert!(near(a.0, 1397.71) && near(a.1, 70.15) && near(a.2, 1577.96) && near(a.3, 12.64));
    assert_eq!((a.4, a.5), ("better", "untested"));
    assert!(near(b.0, 80.99) && near(b.1, 0.06) && near(b.2, 78.94) && near(b.3, 0.01));
    assert_eq!((b.4, b.5), ("worse", "untested"));
    // A bound given judges them, widened by the two ±.
    let r = run_in(
        &root,
        &["compare", "llama-b7938", "llama-b8577", "--noise", "2"],
    );
    assert!(
        r.stdout.starts_with("llama.cpp 8577 against 7938: worse on 1 of 2 workloads beyond noise (tg128 −2.5%), better on 1 (pp512 +13%).\n"),
        "{}",
        r.stdout
    );
}

fn page(out: &Path, rel: &str) -> String {
    std::fs::read_to_string(out.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The built site: a page per workload with every build in its table and
/// a ± band in its chart, its CSV, the version and engine pages' words,
/// and `workloads.json` as `trends --format json` says it, valid against
/// its schema.
#[test]
fn the_site_has_a_page_per_workload_its_csv_and_workloads_json() {
    let Some(shared) = shared() else { return };
    let (dir, root, reports) = imported(&shared);
    let out = dir.path().join("public");
    let r = run_in(&root, &["build", "--output", out.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for (slug, test) in [
        ("gpt-oss-20b-mxfp4-moe-pp512", "pp512"),
        ("gpt-oss-20b-mxfp4-moe-tg128", "tg128"),
    ] {
        let html = page(&out, &format!("workloads/{slug}/index.html"));
        assert!(
            html.contains(&format!("<h1>gpt-oss 20B MXFP4 MoE · {test}</h1>")),
            "{slug}"
        );
        // The ± band of the versions and a whisker per point.
        assert!(html.contains("<polygon class=\"plot-band\""), "{slug}");
        assert_eq!(html.matches("class=\"plot-noise\"").count(), 12, "{slug}");
        // Each regression its table lists is marked in its chart, by a
        // triangle and the same change in words. Judged by the series' own
        // history, tg128's −2.5% at 8577 is within noise: no point is
        // marked (the fixture site of tests/workload_pages.rs, which states
        // its noise, holds a marked regression).
        let words = |after: &str, end: char| -> Vec<String> {
            html.match_indices(after)
                .map(|(i, m)| html[i + m.len()..].split(end).next().unwrap().to_string())
                .collect()
        };
        let table_says = words("trend-change change-regression\">", ' ');
        let chart_says = words("class=\"plot-marker-label\">", '<');
        assert_eq!(chart_says, table_says, "{slug}");
        assert_eq!(
            html.matches("plot-point plot-regression").count(),
            table_says.len(),
            "{slug}"
        );
        if test == "tg128" {
            assert!(chart_says.is_empty(), "{slug}: {chart_says:?}");
        }
        // Every build a row, in version order, linked to its run.
        let mut at = 0;
        for rep in &reports {
            let b = &rep.build;
            let row = format!(
                "<tr><th scope=\"row\"><a href=\"../../engines/llama-cpp/{b}/\">{b}</a><br><span class=\"small\">run <a class=\"run-id\" href=\"../../runs/llama-b{b}/\">llama-b{b}</a></span></th><td class=\"num\">"
            );
            let i = html[at..]
                .find(&row)
                .unwrap_or_else(|| panic!("{slug}: {b} after the build before"));
            at += i + row.len();
        }
        let csv_path = out.join(format!("workloads/{slug}/{slug}.csv"));
        let mut csv = csv::Reader::from_path(&csv_path).unwrap();
        assert_eq!(
            csv.headers().unwrap().iter().collect::<Vec<_>>(),
            [
                "metric", "unit", "engine", "series", "version", "run", "setup", "date", "value",
                "low", "high", "n", "flags"
            ]
        );
        let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 12);
        for (row, rep) in rows.iter().zip(&reports) {
            let (_, mean, _) = rep.figures.iter().find(|f| f.0 == test).unwrap();
            assert_eq!(&row[4], rep.build.as_str());
            assert_eq!(&row[7], rep.day.as_str());
            assert_eq!(row[8].parse::<f64>().unwrap(), *mean);
        }
    }
    // The values and their ±, rounded for reading as the page rounds a
    // series (pp512's to a tenth).
    let pp = page(&out, "workloads/gpt-oss-20b-mxfp4-moe-pp512/index.html");
    assert!(pp.contains("<td class=\"num\">1,578.0 tok/s<br><span class=\"muted small\">±12.6</span></td><td><span class=\"trend-change change-improvement\">+13% better, beyond noise (±8.6%)</span>"));
    let tg = page(&out, "workloads/gpt-oss-20b-mxfp4-moe-tg128/index.html");
    assert!(tg.contains("<td class=\"num\">78.94 tok/s<br><span class=\"muted small\">±0.01</span></td><td><span class=\"trend-change change-within\">−2.5%, within noise (±9.4%)</span>"));
    assert!(!tg.contains("workload-regression"), "{tg}");
    // What makes it a workload: the two oldest builds' ngl 999 and the
    // others' 99 are both every layer.
    assert!(tg.contains("<dt>Settings</dt><dd>fa 1, mmap 0, ngl 99 or more (every layer)"));
    assert!(tg.contains("<dt>Where it ran</dt><dd>Radeon 8060S Graphics, Vulkan"));
    // The later version's page says what changed, in the words trends
    // says it, once, with the same rounding: −2.5%, never −3%.
    let v8577 = page(&out, "engines/llama-cpp/8577/index.html");
    assert!(v8577.contains("<p class=\"version-trend compare-verdict\">llama.cpp 8577 against 7938: better on 1 of 2 workloads beyond noise (pp512 +13%); 1 within noise (tg128 −2.5%). <a href=\"#changed-heading\">What changed</a>.</p>"), "{v8577}");
    assert!(!v8577.contains("−3%"), "{v8577}");
    assert!(
        !v8577.contains("trend-heading"),
        "each change once: {v8577}"
    );
    let index = page(&out, "workloads/index.html");
    for slug in ["gpt-oss-20b-mxfp4-moe-pp512", "gpt-oss-20b-mxfp4-moe-tg128"] {
        assert!(
            index.contains(&format!("href=\"../workloads/{slug}/\"")),
            "{index}"
        );
    }

    let published: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("workloads.json")).unwrap())
            .unwrap();
    let said = trends(&root, &["--format", "json"]);
    assert_eq!(
        published,
        serde_json::from_str::<Value>(&said.stdout).unwrap(),
        "the site publishes what trends says"
    );
    let schema = schema("workloads");
    let errors: Vec<String> = schema
        .iter_errors(&published)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    // The schema holds the fixed names: a point without its value is not
    // valid, nor a change of an unknown direction.
    let mut bad = published.clone();
    bad["workloads"][0]["metrics"][0]["points"][0]
        .as_object_mut()
        .unwrap()
        .remove("value");
    assert!(!schema.is_valid(&bad));
    let mut bad = published;
    bad["workloads"][1]["metrics"][0]["changes"][8]["direction"] = "slower".into();
    assert!(!schema.is_valid(&bad));
    assert_eq!(
        std::fs::read(out.join("schemas/workloads.schema.json")).unwrap(),
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/workloads.schema.json"))
            .unwrap(),
        "the schema is published with the site"
    );
}

fn schema(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("schemas/{name}.schema.json"));
    let value: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&value).unwrap_or_else(|e| panic!("{name}: {e}"))
}
