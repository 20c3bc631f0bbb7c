//! Rebuilds under `serve` (a [`findings::Session`]): after each kind of
//! edit, the site the session updated in place must equal, file for file
//! and byte for byte, a clean build of the same folder.
#![allow(missing_docs)]

mod common;
use common::tree;
use std::path::Path;
use std::time::{Duration, SystemTime};

fn opts(root: &Path, output: &Path) -> findings::BuildOptions {
    findings::BuildOptions {
        root: root.to_path_buf(),
        output: output.to_path_buf(),
        base_url: None,
        drafts: false,
    }
}

/// Sets the modification time of every file written in the last minute an
/// hour back, so the session's record cache trusts their stamps (files
/// modified in the last seconds are always read again) and the cache is
/// exercised. Files aged before are left alone: touching them would change
/// their stamps and make the cache read every file again.
fn age(root: &Path) {
    let now = SystemTime::now();
    let old = now - Duration::from_secs(3600);
    let recent = |e: &walkdir::DirEntry| {
        e.metadata()
            .ok()
            .and_then(|m| m.modified().ok())
            .is_some_and(|t| t + Duration::from_secs(60) > now)
    };
    for e in walkdir::WalkDir::new(root).into_iter().flatten() {
        if e.file_type().is_file() && recent(&e) {
            let f = std::fs::File::options().write(true).open(e.path()).unwrap();
            f.set_modified(old).unwrap();
        }
    }
}

struct Bench {
    site: common::Site,
    session: findings::Session,
    live: tempfile::TempDir,
}

impl Bench {
    fn new() -> Bench {
        // The bundled site's own inputs.
        let site = common::Site {
            dir: tempfile::tempdir().unwrap(),
        };
        let repo = common::bundled();
        let inputs = ["site.yaml", "findings", "data", "templates", "static"];
        let walk = walkdir::WalkDir::new(&repo)
            .into_iter()
            .filter_entry(|e| e.depth() != 1 || inputs.iter().any(|i| e.file_name() == *i));
        for e in walk.flatten() {
            let rel = e.path().strip_prefix(&repo).unwrap();
            if e.file_type().is_dir() {
                std::fs::create_dir_all(site.path(&rel.to_string_lossy())).unwrap();
            } else {
                std::fs::copy(e.path(), site.path(&rel.to_string_lossy())).unwrap();
            }
        }
        age(site.root());
        let live = tempfile::tempdir().unwrap();
        let mut session = findings::Session::new();
        session
            .build(&opts(site.root(), &live.path().join("site")))
            .expect("the first build");
        Bench {
            site,
            session,
            live,
        }
    }

    fn out(&self) -> std::path::PathBuf {
        self.live.path().join("site")
    }

    /// Rebuilds with the session and checks the result against a clean build.
    fn rebuild_and_compare(&mut self, what: &str) {
        age(self.site.root());
        self.session
            .build(&opts(self.site.root(), &self.out()))
            .unwrap_or_else(|e| panic!("{what}: rebuild failed: {e}"));
        let clean = tempfile::tempdir().unwrap();
        findings::build(&opts(self.site.root(), &clean.path().join("site")))
            .unwrap_or_else(|e| panic!("{what}: clean build failed: {e}"));
        let (got, want) = (tree(&self.out()), tree(&clean.path().join("site")));
        let names = |t: &[(String, Vec<u8>)]| t.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(names(&got), names(&want), "{what}: the files differ");
        for ((name, a), (_, b)) in got.iter().zip(&want) {
            assert!(a == b, "{what}: {name} differs from a clean build");
        }
    }
}

#[test]
fn every_kind_of_edit_gives_the_site_a_clean_build_gives() {
    let mut b = Bench::new();
    let f17 = "findings/mtp-loses-at-32k-c4.md";

    b.site
        .edit(f17, "The 2026-08-17 report", "The report of 2026-08-17");
    b.rebuild_and_compare("a body edit");

    // F17 is linked from other findings: their backlinks show its title.
    b.site.edit(
        f17,
        "title: MTP lost to plain warm decoding",
        "title: MTP lost to plain decoding",
    );
    b.rebuild_and_compare("a title edit");

    b.site.edit(
        f17,
        "affected: [\"0.27.1\"]",
        "affected: [\"0.27.1\", \"0.27.9\"]",
    );
    b.rebuild_and_compare("a new version");

    // Without a summary, the card shows the first paragraph.
    let text = b.site.read(f17);
    let (head, rest) = text.split_once("summary: >-\n").unwrap();
    let rest = &rest[rest.find("published:").unwrap()..];
    b.site.write(f17, &format!("{head}{rest}"));
    b.rebuild_and_compare("the summary removed");
    b.site
        .edit(f17, "The report of 2026-08-17 on one", "The report on one");
    b.rebuild_and_compare("the first paragraph");

    // The run's page lists the findings that cite it.
    b.site.edit(f17, "runs: [vllm-mtp3-sweep]", "runs: []");
    b.rebuild_and_compare("a run no longer cited");
    b.site.edit(f17, "runs: []", "runs: [vllm-mtp3-sweep]");
    b.rebuild_and_compare("a run cited again");

    let text = b.site.read(f17).replace("id: 17", "id: 99");
    b.site.write("findings/a-new-one.md", &text);
    b.rebuild_and_compare("a new finding");

    std::fs::remove_file(b.site.path("findings/a-new-one.md")).unwrap();
    b.rebuild_and_compare("a finding removed");

    let csv = "data/runs/client-sse-ttft/ttft.csv";
    let data = b.site.read(csv);
    let changed = data.replacen("10500", "10400", 1);
    assert_ne!(data, changed);
    b.site.write(csv, &changed);
    b.rebuild_and_compare("a run's data");

    // What a run shows of a finding's symptom decides states on every
    // page that shows them: F8's run counting its preemptions in the log
    // turns its observation on vLLM 0.28 from shown to absent; TensorRT-LLM's
    // pause counter, from none to one, makes F10's problem absent and F8's
    // observation agree; a symptom dropped from a finding, and taken back.
    let preempted = "data/runs/vllm-preemptions-log/preemptions.csv";
    b.site.edit(preempted, "vllm,0.28,22,0", "vllm,0.28,22,22");
    b.rebuild_and_compare("an observation that flips");
    b.site.edit(preempted, "vllm,0.28,22,22", "vllm,0.29,22,0");
    b.rebuild_and_compare("an observation on a version no record lists");
    b.site.edit(
        "data/runs/tensorrt-llm-pauses/pauses.csv",
        "tensorrt-llm,1.3.0rc29,,13",
        "tensorrt-llm,1.3.0rc29,13,13",
    );
    b.rebuild_and_compare("a counter where there was none");
    let f8 = "findings/vllm-preemptions-not-logged.md";
    b.site.edit(f8, "symptoms: [preemptions-unlogged]\n", "");
    b.rebuild_and_compare("a symptom dropped");
    b.site.edit(
        f8,
        "checks: [preemptions-read]\n",
        "checks: [preemptions-read]\nsymptoms: [preemptions-unlogged]\n",
    );
    b.rebuild_and_compare("a symptom named again");
    // The runs index names the findings each run shows, with their titles.
    b.site.edit(
        f8,
        "title: Preempted requests left no line in the log",
        "title: Preempted requests left no log line",
    );
    b.rebuild_and_compare("the title of a finding a run shows");
    // A run that observed a finding's symptom is named on the finding's
    // page, in its export and in the engine's matrix: its title, and the
    // version it ran, which the observation counts for.
    let pauses = "data/runs/tensorrt-llm-pauses/run.yaml";
    b.site.edit(
        pauses,
        "title: Paused requests in TensorRT",
        "title: Requests paused in TensorRT",
    );
    b.rebuild_and_compare("the title of a run that observed");
    b.site
        .edit(pauses, "version: \"1.3.0rc29\"", "version: \"1.3.0rc30\"");
    b.rebuild_and_compare("the version an observing run ran");

    // The runs index is in date order: a new date moves the run.
    b.site.edit(
        "data/runs/client-sse-ttft/run.yaml",
        "date: 2026-08-17",
        "date: 2026-10-06",
    );
    b.rebuild_and_compare("a run's date");

    let yaml = b.site.read("site.yaml");
    b.site.write(
        "site.yaml",
        &yaml.replacen("title: \"Findings:", "title: \"New findings:", 1),
    );
    b.rebuild_and_compare("the site's title");

    b.site.write(
        "templates/404.html",
        "{% extends \"base.html\" %}{% block main %}<h1>Gone</h1>{% endblock main %}",
    );
    b.rebuild_and_compare("a template");

    b.site.write("static/extra.txt", "hello");
    b.rebuild_and_compare("a static file");
    std::fs::remove_file(b.site.path("static/extra.txt")).unwrap();
    b.rebuild_and_compare("a static file removed");
}

/// Comparisons under `serve`: the first one a record names puts
/// "Comparisons" in every page's header, and a comparison whose sides ran
/// fewer requests than asked shows the titles of the findings it cites:
/// only those about its sides' engine or about no engine, so a finding
/// that comes to be about none is cited after a rebuild as after a clean
/// build, and an edit of its title is seen there too.
#[test]
fn comparisons_and_the_findings_they_cite_rebuild_as_a_clean_build() {
    let mut b = Bench::new();
    // The site's one comparison removed from its run.yaml: "Comparisons"
    // leaves every page's header.
    let c1 = "data/runs/c1-depth-ninfer-vs-vllm/run.yaml";
    let yaml = b.site.read(c1);
    b.site
        .write(c1, &yaml[..yaml.find("\ncompare:\n").unwrap() + 1]);
    b.rebuild_and_compare("the last comparison removed");
    let home = std::fs::read_to_string(b.out().join("index.html")).unwrap();
    assert!(!home.contains(">Comparisons</a>"), "{home}");
    b.site.write(c1, &yaml);
    b.rebuild_and_compare("a comparison named again");
    let folder = common::fixture("results/inferlint/vllm-run");
    for (id, version) in [("start-1", "0.30.0"), ("start-2", "0.30.0")] {
        let r = common::run_in(
            b.site.root(),
            &[
                "import",
                id,
                folder.to_str().unwrap(),
                "--engine",
                "vllm",
                "--version",
                version,
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    b.rebuild_and_compare("two runs imported");
    let yaml = b.site.read("site.yaml");
    b.site.write(
        "site.yaml",
        &format!("{yaml}\ncompare:\n  - id: starts\n    title: Two starts\n    runs: [start-1, start-2]\n"),
    );
    b.rebuild_and_compare("a comparison whose sides ran fewer than asked");
    // One side's figure changed: the other run's page shows the
    // comparison's verdict, which changes with it.
    let bench = "data/runs/start-2/raw/vllm-run/bench.json";
    b.site.edit(
        bench,
        "\"output_throughput\": 421.05263157894734",
        "\"output_throughput\": 300.0",
    );
    b.rebuild_and_compare("a run another run's comparison reads");
    let run = std::fs::read_to_string(b.out().join("runs/start-1/index.html")).unwrap();
    assert!(
        run.contains("1 of 8 metrics untested, single runs: worse on 1 (output throughput −29%); the same on 7."),
        "{run}"
    );
    // F5 carries the check, but it is SGLang's: not cited for two vLLM
    // sides.
    let page = std::fs::read_to_string(b.out().join("compare/starts/index.html")).unwrap();
    assert!(
        !page.contains("SGLang ran a hybrid model one request at a time"),
        "{page}"
    );
    // Its entry made one of where it was seen only: about no engine in
    // particular, and cited.
    b.site.edit(
        "findings/sglang-hybrid-one-request-at-a-time.md",
        "    affected: [\"0.5.20\"]",
        "    seen: [\"0.5.20\"]",
    );
    b.rebuild_and_compare("a finding of the check now about no engine in particular");
    let page = std::fs::read_to_string(b.out().join("compare/starts/index.html")).unwrap();
    assert!(
        page.contains("SGLang ran a hybrid model one request at a time"),
        "{page}"
    );
    b.site.edit(
        "findings/sglang-hybrid-one-request-at-a-time.md",
        "title: SGLang ran a hybrid model one request at a time",
        "title: SGLang ran a hybrid model one request at once",
    );
    b.rebuild_and_compare("a cited finding's title");
}

#[test]
fn a_failed_rebuild_leaves_the_site_as_the_last_good_build_left_it() {
    let mut b = Bench::new();
    let before = tree(&b.out());
    let f17 = "findings/mtp-loses-at-32k-c4.md";
    let good = b.site.read(f17);
    b.site.write(
        f17,
        &good.replace("group: hidden-speed", "group: no-such-group"),
    );
    age(b.site.root());
    let err = b.session.build(&opts(b.site.root(), &b.out()));
    assert!(matches!(err, Err(findings::BuildError::Invalid(_))));
    assert!(
        tree(&b.out()) == before,
        "the site changed after a failed rebuild"
    );

    // Fixed again, the next rebuild is exact.
    b.site
        .write(f17, &good.replace("The 2026-08-17 report", "The report"));
    b.rebuild_and_compare("after a failed rebuild");
}
