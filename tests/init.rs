//! `findings init` and what `site.yaml` may leave out: a new site is
//! written whole, builds at once without a warning, takes a new finding and
//! publishes it; a folder that has a site or records is refused and left
//! as it was, and so is one where writing fails half way. Each default of
//! `site.yaml` (the groups, an engine's colour, a known engine's fields)
//! as a reader of the built site sees it; the error for a missing
//! `site.yaml`; and `findings --version`.
#![allow(missing_docs)]

mod common;

use common::{run_from, run_in, tree};
use std::path::Path;

const FILES: &[&str] = &[
    "site.yaml",
    "findings/example-finding.md",
    "data/runs/.gitkeep",
    "README.md",
    ".gitignore",
    ".github/workflows/publish-site.yml",
    ".github/workflows/answer-pasted-benchmarks.yml",
    ".github/workflows/audit-deployment.yml",
];

fn init(dir: &Path, args: &[&str]) -> common::Output {
    let mut all = vec!["init"];
    all.extend_from_slice(args);
    run_from(dir, &all)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The one line `build` prints when it built without a warning.
fn assert_clean_build(out: &common::Output) {
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.starts_with("build: "), "{}", out.stderr);
    assert!(!out.stderr.contains("warning"), "{}", out.stderr);
}

#[test]
fn init_writes_a_site_that_builds_at_once_without_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let out = init(
        tmp.path(),
        &[
            "site",
            "--engine",
            "vllm",
            "--engine",
            "sglang",
            "--title",
            "Our serving notes",
            "--base-url",
            "https://notes.example.com/findings",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let listed: Vec<String> = FILES
        .iter()
        .map(|f| Path::new("site").join(f).display().to_string())
        .collect();
    assert_eq!(out.stdout.lines().collect::<Vec<_>>(), listed);
    assert_eq!(
        out.stderr,
        "init: 8 files into site\n  next: findings serve --root site --drafts   (the example finding is a draft: without --drafts the site has no findings yet)\n"
    );
    let site = tmp.path().join("site");
    let written: Vec<String> = tree(&site).into_iter().map(|(p, _)| p).collect();
    let mut want: Vec<String> = FILES.iter().map(|f| f.to_string()).collect();
    want.sort();
    assert_eq!(written, want);

    let yaml = read(&site.join("site.yaml"));
    assert!(yaml.contains("title: \"Our serving notes\"\n"), "{yaml}");
    assert!(yaml.contains("base_url: https://notes.example.com/findings/\n"));
    for id in [
        "changed-answers",
        "hidden-speed",
        "start-stop",
        "reporting",
        "vllm",
        "sglang",
    ] {
        assert!(yaml.contains(&format!("  - id: {id}\n")), "{id}: {yaml}");
    }
    assert!(!yaml.contains("tensorrt-llm\n"), "{yaml}");
    assert!(read(&site.join("findings/example-finding.md")).contains("\ndraft: true\n"));
    assert_eq!(
        read(&site.join(".gitignore")),
        "# What `findings build` writes, and the lock beside it.\n/public/\n/.public.*\n/.public-*\n"
    );
    let readme = read(&site.join("README.md"));
    assert!(readme.starts_with("# Our serving notes\n"), "{readme}");
    for command in [
        "findings serve",
        "findings new",
        "findings build",
        "findings import",
    ] {
        assert!(readme.contains(command), "{command}");
    }
    // The workflows of docs/workflows/, filled in for this site.
    for name in ["answer-pasted-benchmarks.yml", "audit-deployment.yml"] {
        let w = read(&site.join(".github/workflows").join(name));
        assert!(
            w.contains("\n  FINDINGS_SITE: https://notes.example.com/findings/\n"),
            "{name}"
        );
        assert!(
            w.contains(&format!(
                "\n  FINDINGS_REV: v{}\n",
                env!("CARGO_PKG_VERSION")
            )),
            "{name}"
        );
        assert!(!w.contains("FINDINGS_SITE: https://example.org"), "{name}");
    }
    let publish = read(&site.join(".github/workflows/publish-site.yml"));
    assert!(publish.contains("run: findings build --base-url \"$BASE_URL\""));

    // It builds: no warning, and the draft example is not published.
    let out = run_in(&site, &["build"]);
    assert_clean_build(&out);
    let public = site.join("public");
    let home = read(&public.join("index.html"));
    for title in [
        "Answers that changed",
        "Speed that a benchmark does not show",
        "Starting and stopping the server",
        "What the server reports",
        "Our serving notes",
    ] {
        assert!(home.contains(title), "{title}");
    }
    assert!(public.join("engines/vllm/index.html").is_file());
    assert!(public.join("engines/sglang/index.html").is_file());
    assert!(!public.join("f/1").exists(), "the draft was published");
    let strict = run_in(&site, &["check", "--strict"]);
    assert_eq!(strict.code, 0, "{}", strict.stderr);
    assert_eq!(
        strict.stderr,
        "check: 0 errors, 0 warnings in 1 finding and 0 runs\n"
    );
    // With --drafts the example is built too, still without a warning.
    let drafts = run_in(
        &site,
        &[
            "build",
            "--drafts",
            "--output",
            tmp.path().join("drafts").to_str().unwrap(),
        ],
    );
    assert_clean_build(&drafts);
    assert!(tmp.path().join("drafts/f/1/index.html").is_file());
    // Its draft line removed, the example as written is refused: its title
    // and advice are placeholders.
    let example = site.join("findings/example-finding.md");
    let text = read(&example);
    std::fs::write(&example, text.replacen("\ndraft: true\n", "\n", 1)).unwrap();
    let check = run_in(&site, &["check"]);
    assert_eq!(check.code, 1, "{}", check.stderr);
    let errors: Vec<&str> = check
        .stderr
        .lines()
        .filter(|l| l.contains(": error: "))
        .collect();
    assert_eq!(
        errors,
        [
            "findings/example-finding.md:3:1: error: `title`: title is still the example's placeholder \"An example: the sentence that says what happened\"",
            "findings/example-finding.md:5:1: error: `advice`: advice is still the placeholder \"Say what to do in a few words\"",
            "findings/example-finding.md:27:1: error: `body`: the body still has the placeholder \"The advice, as steps a reader can follow.\"",
        ]
    );
}

#[test]
fn a_finding_new_makes_is_refused_until_written_then_published() {
    let tmp = tempfile::tempdir().unwrap();
    let out = init(
        tmp.path(),
        &["site", "--engine", "vllm", "--engine", "sglang"],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let site = tmp.path().join("site");
    let title = "Prefix caching hid the cost of long prompts";
    let out = run_in(
        &site,
        &[
            "new",
            title,
            "--group",
            "hidden-speed",
            "--engine",
            "vllm",
            "--version",
            "0.30",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out
        .stdout
        .trim_end()
        .ends_with("findings/prefix-caching-hid-the-cost-of-long-prompts.md"));
    // Id 2: the draft example holds 1.
    assert!(
        read(&site.join("findings/prefix-caching-hid-the-cost-of-long-prompts.md"))
            .contains("\nid: 2\n")
    );
    // Its placeholders are refused, and nothing is written, until they
    // are replaced (issue 43: `new`'s skeleton was published as it was).
    let file = site.join("findings/prefix-caching-hid-the-cost-of-long-prompts.md");
    let refused = run_in(&site, &["build"]);
    assert_eq!(refused.code, 1, "{}", refused.stderr);
    assert!(
        refused.stderr.starts_with(
            "findings/prefix-caching-hid-the-cost-of-long-prompts.md:5:1: error: `advice`: advice is still the placeholder \"Say what to do in a few words\"\n"
        ),
        "{}",
        refused.stderr
    );
    assert!(refused.stderr.contains("4 errors"), "{}", refused.stderr);
    assert!(
        !site.join("public").exists(),
        "a refused build wrote the site"
    );
    let text = read(&file)
        .replace("Say what to do in a few words", "Count the prompt tokens")
        .replace(
            "What happened, on which versions, and how it showed.",
            "Cached prefixes hid how long the prompts were.",
        )
        .replace(
            "The figures, and a link to the run behind them once it exists (`findings new-run`).",
            "Time to first token stayed flat.",
        )
        .replace(
            "The actionable advice.",
            "Report prompt length beside TTFT.",
        );
    std::fs::write(&file, text).unwrap();
    let out = run_in(&site, &["build"]);
    assert_clean_build(&out);
    assert!(out.stderr.contains("(1 finding, 0 runs"), "{}", out.stderr);
    let page = read(&site.join("public/f/2/index.html"));
    assert!(page.contains(title), "{page}");
    assert!(read(&site.join("public/index.html")).contains(title));
    assert!(read(&site.join("public/engines/vllm/index.html")).contains("0.30"));
}

#[test]
fn init_refuses_a_folder_with_a_site_or_records_and_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    assert_eq!(init(tmp.path(), &["site"]).code, 0);
    let site = tmp.path().join("site");
    std::fs::write(site.join("findings/example-finding.md"), "edited\n").unwrap();
    let before = tree(tmp.path());
    let out = init(tmp.path(), &["site", "--engine", "sglang"]);
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "error: site already has site.yaml; nothing was written\n  \
         hint: `findings new` adds a finding to a site that exists\n"
    );
    assert_eq!(tree(tmp.path()), before);

    // Records without a site.yaml: refused too.
    for (rel, what) in [
        ("findings/7-cache.md", "records in findings/ (7-cache.md)"),
        ("data/runs/sweep/run.yaml", "records in data/runs/ (sweep)"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(rel);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "x\n").unwrap();
        let before = tree(dir.path());
        let out = init(dir.path(), &[]);
        assert_eq!(out.code, 1, "{}", out.stderr);
        assert_eq!(
            out.stderr.lines().next().unwrap(),
            format!("error: . already has {what}; nothing was written")
        );
        assert_eq!(tree(dir.path()), before, "{rel}");
    }
}

#[test]
fn init_keeps_the_files_a_fresh_clone_has() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("README.md"), "# Ours\n").unwrap();
    std::fs::create_dir(tmp.path().join(".git")).unwrap();
    let out = init(tmp.path(), &["--engine", "vllm"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(read(&tmp.path().join("README.md")), "# Ours\n");
    assert!(out
        .stderr
        .starts_with("note: ./README.md was there already and is kept as it was\n"));
    assert_eq!(out.stdout.lines().count(), FILES.len() - 1);
    assert!(!out.stdout.contains("README.md"));
    // Nothing of the staging folder is left behind.
    let names: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.starts_with(".findings-init")),
        "{names:?}"
    );
    assert_clean_build(&run_in(tmp.path(), &["build"]));
}

#[test]
fn a_failed_init_takes_back_what_it_wrote() {
    let tmp = tempfile::tempdir().unwrap();
    // `.github` is a file: the workflows, moved last, cannot go in.
    std::fs::write(tmp.path().join(".github"), "not a folder\n").unwrap();
    let before = tree(tmp.path());
    let out = init(tmp.path(), &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with("error: cannot write ./.github/workflows: "),
        "{}",
        out.stderr
    );
    assert!(out
        .stderr
        .ends_with("\ninit: stopped; what was written is taken back\n"));
    assert_eq!(out.stdout, "");
    assert_eq!(tree(tmp.path()), before);
    let left: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, [".github"]);
}

#[test]
fn init_refuses_options_that_cannot_be_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            &["site", "--engine", "vLLM"][..],
            "error: --engine \"vLLM\" is not an engine id: use lowercase letters a-z, digits and '-' (vllm, sglang, tensorrt-llm, llama-cpp)\n",
        ),
        (
            &["site", "--engine", "vllm", "--engine", "vllm"][..],
            "error: --engine vllm is given twice\n",
        ),
        (
            &["site", "--base-url", "example.org"][..],
            "error: --base-url \"example.org\" is not an http(s) address (e.g. https://example.org/findings/)\n",
        ),
    ] {
        let out = init(tmp.path(), args);
        assert_eq!(out.code, 2, "{args:?}");
        assert_eq!(out.stderr, message);
        assert!(!tmp.path().join("site").exists(), "{args:?}");
    }
}

// ------------------------------------------------------ site.yaml defaults

/// A folder with only `site.yaml`, built; returns the build's output and
/// the site's export (`findings.json`).
fn build_site_yaml(yaml: &str) -> (common::Output, serde_json::Value, tempfile::TempDir) {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("site.yaml"), yaml).unwrap();
    let out = run_in(tmp.path(), &["build"]);
    let json = std::fs::read_to_string(tmp.path().join("public/findings.json"))
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap_or_default();
    (out, json, tmp)
}

fn engines(json: &serde_json::Value) -> Vec<(String, String, String)> {
    json["site"]["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["id"].as_str().unwrap().to_string(),
                e["name"].as_str().unwrap().to_string(),
                e["color"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_smallest_site_yaml_builds_with_the_standard_groups() {
    let (out, json, tmp) =
        build_site_yaml("title: Mine\nbase_url: https://example.com/mine\nengines: [{id: vllm}]\n");
    assert_clean_build(&out);
    let groups: Vec<(&str, &str)> = json["site"]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_str().unwrap(), g["title"].as_str().unwrap()))
        .collect();
    assert_eq!(
        groups,
        [
            ("changed-answers", "Answers that changed"),
            ("hidden-speed", "Speed that a benchmark does not show"),
            ("start-stop", "Starting and stopping the server"),
            ("reporting", "What the server reports"),
        ]
    );
    assert_eq!(
        json["site"]["groups"][1]["blurb"],
        "Throughput figures that look fine on paper but hide the client, the cache, \
         a concurrency cap or the workload that decides real speed."
    );
    let home = read(&tmp.path().join("public/index.html"));
    assert!(home.contains("What changes between one start and the next"));
    // The known engine's name, address, packages and images; the first colour.
    let e = &json["site"]["engines"][0];
    assert_eq!(e["name"], "vLLM");
    assert_eq!(e["repo"], "https://github.com/vllm-project/vllm");
    assert_eq!(e["color"], "#0072b2");
    assert_eq!(e["packages"], serde_json::json!(["vllm"]));
    assert_eq!(e["images"], serde_json::json!(["vllm/vllm-openai"]));

    // `groups: []` is no groups, as written.
    let (out, json, _t) = build_site_yaml(
        "title: Mine\nbase_url: https://example.com/\ngroups: []\nengines: [{id: vllm}]\n",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(json["site"]["groups"], serde_json::json!([]));
}

#[test]
fn engines_without_a_colour_take_the_palette_in_order_skipping_those_written() {
    let yaml = "title: T\nbase_url: https://example.com/\nengines:\n  \
                - {id: a, name: A}\n  - {id: b, name: B, color: \"#0072B2\"}\n  \
                - {id: c, name: C}\n  - {id: d, name: D, color: \"#123456\"}\n  \
                - {id: e, name: E}\n";
    let (out, json, _t) = build_site_yaml(yaml);
    assert_clean_build(&out);
    let colors: Vec<(String, String)> = engines(&json)
        .into_iter()
        .map(|(id, _, c)| (id, c))
        .collect();
    let want = [
        ("a", "#d55e00"),
        ("b", "#0072b2"),
        ("c", "#009e73"),
        ("d", "#123456"),
        ("e", "#cc79a7"),
    ];
    assert_eq!(colors, want.map(|(a, b)| (a.to_string(), b.to_string())));
    // The same on every build.
    let (_, again, _t) = build_site_yaml(yaml);
    assert_eq!(engines(&again), engines(&json));

    // Past the palette: the colours repeat, with a warning at the entry.
    let five = "title: T\nbase_url: https://example.com/\nengines:\n  \
                - {id: vllm}\n  - {id: sglang}\n  - {id: tensorrt-llm}\n  \
                - {id: llama-cpp}\n  - {id: ninfer, name: NInfer}\n";
    let (out, json, _t) = build_site_yaml(five);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stderr.lines().take(2).collect::<Vec<_>>().join("\n"),
        "site.yaml:8:3: warning: `engines[4]`: engine \"ninfer\" has no `color`, and the palette's 4 colours are taken: it is drawn in #0072b2, as another engine is\n  \
         hint: give it a `color` of its own (\"#rrggbb\"), so that charts tell the two apart"
    );
    assert_eq!(engines(&json)[4].2, "#0072b2");
}

#[test]
fn a_known_engine_gets_what_its_entry_leaves_out() {
    let yaml = "title: T\nbase_url: https://example.com/\nengines:\n  \
                - id: llama-cpp\n  \
                - id: sglang\n    name: SGLang (ours)\n    packages: []\n  \
                - id: tensorrt-llm\n    repo: https://example.com/trt\n";
    let (out, json, _t) = build_site_yaml(yaml);
    assert_clean_build(&out);
    let e = &json["site"]["engines"];
    assert_eq!(e[0]["name"], "llama.cpp");
    assert_eq!(e[0]["repo"], "https://github.com/ggml-org/llama.cpp");
    assert_eq!(e[0]["packages"], serde_json::json!([]));
    assert_eq!(e[0]["images"], serde_json::json!([]));
    // Written fields win, `packages: []` included; the rest is the default.
    assert_eq!(e[1]["name"], "SGLang (ours)");
    assert_eq!(e[1]["repo"], "https://github.com/sgl-project/sglang");
    assert_eq!(e[1]["packages"], serde_json::json!([]));
    assert_eq!(e[1]["images"], serde_json::json!(["lmsysorg/sglang"]));
    assert_eq!(e[2]["name"], "TensorRT-LLM");
    assert_eq!(e[2]["repo"], "https://example.com/trt");
    assert_eq!(e[2]["packages"], serde_json::json!(["tensorrt-llm"]));
    assert_eq!(
        e[2]["images"],
        serde_json::json!(["nvcr.io/nvidia/tensorrt-llm/release"])
    );
}

#[test]
fn a_default_gives_way_to_an_entry_that_writes_the_same_package() {
    // Before defaults this site was valid; a default must not make it
    // invalid: the fork's own `packages` keeps `vllm`.
    let yaml = "title: T\nbase_url: https://example.com/\nengines:\n  \
                - id: vllm\n  \
                - {id: vllm-fork, name: Our vLLM, packages: [vllm]}\n";
    let (out, json, _t) = build_site_yaml(yaml);
    assert_clean_build(&out);
    let e = &json["site"]["engines"];
    assert_eq!(e[0]["packages"], serde_json::json!([]));
    assert_eq!(e[0]["images"], serde_json::json!(["vllm/vllm-openai"]));
    assert_eq!(e[1]["packages"], serde_json::json!(["vllm"]));
}

#[test]
fn an_engine_findings_does_not_know_needs_its_name() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("site.yaml"),
        "title: T\nbase_url: https://example.com/\nengines:\n  - id: mine\n",
    )
    .unwrap();
    let out = run_in(tmp.path(), &["check"]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "site.yaml:4:3: error: `engines[0]`: missing required field `name`\n  \
         hint: add `name:` with the name readers see; only the engines findings knows by id (vllm, sglang, tensorrt-llm, llama-cpp) have one without it\n\
         check: 1 error, 0 warnings in 0 findings and 0 runs\n"
    );
}

#[test]
fn a_missing_site_yaml_points_to_init() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run_in(tmp.path(), &["build"]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "site.yaml: error: cannot read the file: it does not exist\n  \
         hint: a findings folder needs site.yaml at its root; is --root pointing at the right folder? To start a new site, run `findings init <folder>`\n\
         build: stopped, 1 error; nothing was written\n"
    );
}

#[test]
fn the_site_schema_follows_the_defaults() {
    let schema: serde_json::Value = serde_json::from_str(&read(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/site.schema.json"),
    ))
    .unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let yaml = |t: &str| -> serde_json::Value { serde_yaml::from_str(t).unwrap() };
    let tmp = tempfile::tempdir().unwrap();
    assert_eq!(init(tmp.path(), &["site"]).code, 0);
    let written = read(&tmp.path().join("site/site.yaml"));
    assert!(v.is_valid(&yaml(&written)), "{written}");
    let smallest = "title: T\nbase_url: https://example.com/\nengines: [{id: vllm}]\n";
    assert!(v.is_valid(&yaml(smallest)));
    let unknown = "title: T\nbase_url: https://example.com/\nengines: [{id: mine}]\n";
    assert!(!v.is_valid(&yaml(unknown)));
    let named = "title: T\nbase_url: https://example.com/\nengines: [{id: mine, name: Mine}]\n";
    assert!(v.is_valid(&yaml(named)));
}

#[test]
fn version_names_the_commit_it_was_built_from() {
    let out = run_from(Path::new(env!("CARGO_MANIFEST_DIR")), &["--version"]);
    assert_eq!(out.code, 0);
    let version = env!("CARGO_PKG_VERSION");
    let commit = env!("FINDINGS_COMMIT");
    if commit.is_empty() {
        assert_eq!(out.stdout, format!("findings {version}\n"));
    } else {
        assert_eq!(
            out.stdout,
            format!("findings {version} (commit {commit})\n")
        );
        assert_eq!(commit.len(), 12);
        assert!(commit.bytes().all(|b| b.is_ascii_hexdigit()));
    }
    // Built in a git work tree (this repository's), it is HEAD's commit.
    let head = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    if let Some(head) = head.ok().filter(|h| h.status.success()) {
        let head = String::from_utf8_lossy(&head.stdout);
        assert!(!commit.is_empty());
        assert!(head.starts_with(commit), "{head} vs {commit}");
    }
}
