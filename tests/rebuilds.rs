//! Randomized rebuilds: seeded sequences of ordinary edits to a copy of the
//! bundled site, each followed by a rebuild under a [`findings::Session`]
//! (as `serve` does it), after which every file of the served folder must be
//! byte-equal to a clean build of the same folder with the same base URL.
//!
//! The first sequence makes every kind of edit once, in a shuffled order; the
//! others pick kinds at random. An edit that leaves the folder invalid (a
//! `fixed` status without a fix, a removed run a chart still names) is kept
//! for one rebuild, which must fail and leave the site as it was, and then
//! undone. The seed is printed; `FINDINGS_SEED=<n> cargo test --test
//! rebuilds` replays a sequence exactly.
#![allow(missing_docs)]

mod common;
use common::tree;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The base URL `serve` would give; both builds use it.
const BASE: &str = "http://127.0.0.1:4711/";
/// Sequences a run makes, and edits in each.
const SEQUENCES: usize = 3;
const RANDOM_EDITS: usize = 10;

fn opts(root: &Path, output: &Path) -> findings::BuildOptions {
    findings::BuildOptions {
        root: root.to_path_buf(),
        output: output.to_path_buf(),
        base_url: Some(BASE.to_string()),
        drafts: false,
    }
}

/// SplitMix64: small, seedable, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn words(&mut self, n: usize) -> String {
        const WORDS: &[&str] = &[
            "prefill",
            "decode",
            "cache",
            "counter",
            "gauge",
            "the",
            "server",
            "client",
            "ran",
            "slower",
            "twice",
            "`vllm:num_requests_running`",
            "*only*",
            "tokens",
            "restart",
            "drafts",
            "queue",
        ];
        (0..n)
            .map(|_| *self.pick(WORDS))
            .collect::<Vec<_>>()
            .join(" ")
    }
    /// A subset of `items` in their order, of at least `min` items.
    fn subset<T: Clone>(&mut self, items: &[T], min: usize) -> Vec<T> {
        loop {
            let v: Vec<T> = items.iter().filter(|_| self.chance(40)).cloned().collect();
            if v.len() >= min.min(items.len()) {
                return v;
            }
        }
    }
}

/// Every kind of edit the test makes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Title,
    Advice,
    Group,
    Summary,
    BodyLine,
    WhatToDo,
    FirstParagraph,
    BodyLink,
    Tags,
    Models,
    Versions,
    Status,
    Withdrawn,
    Draft,
    Updated,
    Aliases,
    Hardware,
    Checks,
    Acknowledged,
    Links,
    RunsCited,
    FindingAdded,
    FindingRemoved,
    FindingRenamed,
    CsvCell,
    ResultFile,
    ColumnUnit,
    ChartCaption,
    RunAdded,
    RunRemoved,
    RunTitle,
    RunNotes,
    RunDate,
    RunSetup,
    RunHardware,
    SiteTitle,
    SiteBlurb,
    SiteEngine,
    SitePageSize,
    SiteReleases,
    SiteEntries,
    Template,
    StaticFile,
}

const KINDS: &[Kind] = &[
    Kind::Title,
    Kind::Advice,
    Kind::Group,
    Kind::Summary,
    Kind::BodyLine,
    Kind::WhatToDo,
    Kind::FirstParagraph,
    Kind::BodyLink,
    Kind::Tags,
    Kind::Models,
    Kind::Versions,
    Kind::Status,
    Kind::Withdrawn,
    Kind::Draft,
    Kind::Updated,
    Kind::Aliases,
    Kind::Hardware,
    Kind::Checks,
    Kind::Acknowledged,
    Kind::Links,
    Kind::RunsCited,
    Kind::FindingAdded,
    Kind::FindingRemoved,
    Kind::FindingRenamed,
    Kind::CsvCell,
    Kind::ResultFile,
    Kind::ColumnUnit,
    Kind::ChartCaption,
    Kind::RunAdded,
    Kind::RunRemoved,
    Kind::RunTitle,
    Kind::RunNotes,
    Kind::RunDate,
    Kind::RunSetup,
    Kind::RunHardware,
    Kind::SiteTitle,
    Kind::SiteBlurb,
    Kind::SiteEngine,
    Kind::SitePageSize,
    Kind::SiteReleases,
    Kind::SiteEntries,
    Kind::Template,
    Kind::StaticFile,
];

/// A copy of the bundled site's inputs, a session that has built it, and
/// the folder the session serves.
struct Bench {
    site: common::Site,
    session: findings::Session,
    live: tempfile::TempDir,
    /// A modification time well in the past, advanced by a second for each
    /// file written, so that the session's record cache trusts the stamps of
    /// files that did not change (it reads again files modified within the
    /// last seconds) and must notice the ones that did.
    clock: SystemTime,
    /// Findings this run added (the only ones it removes: others are
    /// linked from elsewhere).
    added: Vec<String>,
    next_id: u32,
    log: String,
}

impl Bench {
    fn new() -> Bench {
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
        // A run read from result files (an inferlint run folder and a
        // vLLM file with every request), so that edits of those reach the
        // rebuilds too.
        let results = repo.join("tests/fixtures/results");
        findings::import::import(&findings::import::ImportOptions {
            root: site.root().to_path_buf(),
            run: "imported".into(),
            inputs: vec![
                results.join("inferlint/vllm-run"),
                results.join("vllm/detailed.json"),
            ],
            engine: Some("vllm".into()),
            version: Some("0.30".into()),
            ..Default::default()
        })
        .expect("the imported run");
        let clock = SystemTime::now() - Duration::from_secs(30 * 24 * 3600);
        for e in walkdir::WalkDir::new(site.root()).into_iter().flatten() {
            if e.file_type().is_file() {
                set_mtime(e.path(), clock);
            }
        }
        let live = tempfile::tempdir().unwrap();
        let mut session = findings::Session::new();
        session
            .build(&opts(site.root(), &live.path().join("site")))
            .expect("the first build");
        Bench {
            site,
            session,
            live,
            clock,
            added: Vec::new(),
            next_id: 100,
            log: String::new(),
        }
    }

    fn out(&self) -> PathBuf {
        self.live.path().join("site")
    }

    fn read(&self, rel: &str) -> String {
        self.site.read(rel)
    }

    /// Writes `rel` and gives it a modification time of its own.
    fn write(&mut self, rel: &str, text: &str) {
        self.site.write(rel, text);
        self.touch(rel);
    }

    fn touch(&mut self, rel: &str) {
        self.clock += Duration::from_secs(1);
        set_mtime(&self.site.path(rel), self.clock);
    }

    fn remove(&mut self, rel: &str) {
        std::fs::remove_file(self.site.path(rel)).unwrap();
    }

    /// Files under `dir` (relative to the root) whose names end in `ext`.
    fn files(&self, dir: &str, ext: &str) -> Vec<String> {
        let mut v: Vec<String> = walkdir::WalkDir::new(self.site.path(dir))
            .into_iter()
            .flatten()
            .filter(|e| e.file_type().is_file() && e.file_name().to_string_lossy().ends_with(ext))
            .map(|e| {
                e.path()
                    .strip_prefix(self.site.root())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        v.sort();
        v
    }

    /// Rebuilds with the session and holds the served folder to a clean
    /// build of the same folder. Returns false when the folder is invalid
    /// (the rebuild must then fail and change nothing).
    fn rebuild_and_compare(&mut self, what: &str) -> bool {
        let (_, diags) = findings::check(self.site.root());
        let before = diags.has_errors().then(|| tree(&self.out()));
        let result = self.session.build(&opts(self.site.root(), &self.out()));
        if let Some(before) = before {
            assert!(
                matches!(result, Err(findings::BuildError::Invalid(_))),
                "{}{what}: the folder is invalid, yet the rebuild did not fail",
                self.log
            );
            assert!(
                tree(&self.out()) == before,
                "{}{what}: a failed rebuild changed the site",
                self.log
            );
            return false;
        }
        result.unwrap_or_else(|e| panic!("{}{what}: rebuild failed: {e}", self.log));
        let clean = tempfile::tempdir().unwrap();
        findings::build(&opts(self.site.root(), &clean.path().join("site")))
            .unwrap_or_else(|e| panic!("{}{what}: clean build failed: {e}", self.log));
        let (got, want) = (tree(&self.out()), tree(&clean.path().join("site")));
        let names = |t: &[(String, Vec<u8>)]| t.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(
            names(&got),
            names(&want),
            "{}{what}: the served folder has other files than a clean build",
            self.log
        );
        let differ: Vec<&str> = got
            .iter()
            .zip(&want)
            .filter(|((_, a), (_, b))| a != b)
            .map(|((n, _), _)| n.as_str())
            .collect();
        assert!(
            differ.is_empty(),
            "{}{what}: these files differ from a clean build: {differ:?}",
            self.log
        );
        true
    }

    /// Makes one edit of `kind`, rebuilds and compares; an edit that made
    /// the folder invalid is then undone (and that rebuilt and compared too).
    fn step(&mut self, rng: &mut Rng, kind: Kind) {
        let saved = self.snapshot();
        let what = self.edit(rng, kind);
        let _ = writeln!(self.log, "  {kind:?}: {what}");
        if !self.rebuild_and_compare(&what) {
            let _ = writeln!(self.log, "    (invalid: undone)");
            self.restore(saved);
            assert!(
                self.rebuild_and_compare(&format!("{what}, undone")),
                "{}the folder is invalid after undoing an edit",
                self.log
            );
        }
    }

    /// Every input file with its text, to undo an edit.
    fn snapshot(&self) -> Vec<(String, String)> {
        let mut v = Vec::new();
        for dir in ["findings", "data", "templates", "static"] {
            for f in self.files(dir, "") {
                let text = self.read(&f);
                v.push((f, text));
            }
        }
        v.push(("site.yaml".into(), self.read("site.yaml")));
        v
    }

    fn restore(&mut self, saved: Vec<(String, String)>) {
        let now: Vec<String> = ["findings", "data", "templates", "static"]
            .iter()
            .flat_map(|d| self.files(d, ""))
            .collect();
        for f in now {
            if !saved.iter().any(|(s, _)| *s == f) {
                self.remove(&f);
                self.added.retain(|a| *a != f);
            }
        }
        // A run folder left without files is removed with them.
        for e in std::fs::read_dir(self.site.path("data/runs"))
            .unwrap()
            .flatten()
        {
            let _ = std::fs::remove_dir(e.path());
        }
        for (f, text) in saved {
            if !self.site.path(&f).exists() || self.read(&f) != text {
                self.write(&f, &text);
            }
        }
    }

    fn edit(&mut self, rng: &mut Rng, kind: Kind) -> String {
        let findings = self.files("findings", ".md");
        let f = rng.pick(&findings).clone();
        let text = self.read(&f);
        let (fm, body) = split(&text);
        let runs = self.run_ids();
        let edited = |fm: String, body: String| format!("---\n{fm}---\n{body}");
        match kind {
            Kind::Title => {
                let t = format!("title: {}\n", rng.words(4));
                self.write(&f, &edited(set_field(&fm, "title", &t), body));
                format!("{f}: {}", t.trim_end())
            }
            Kind::Advice => {
                let t = format!("advice: {}\n", rng.words(3));
                self.write(&f, &edited(set_field(&fm, "advice", &t), body));
                format!("{f}: {}", t.trim_end())
            }
            Kind::Group => {
                let g = rng.pick(&["changed-answers", "hidden-speed", "start-stop", "reporting"]);
                let t = format!("group: {g}\n");
                self.write(&f, &edited(set_field(&fm, "group", &t), body));
                format!("{f}: {}", t.trim_end())
            }
            Kind::Withdrawn => {
                let fm = if field_block(&fm, "withdrawn").is_some() {
                    remove_field(&fm, "withdrawn")
                } else if rng.chance(50) {
                    let ids = self.finding_ids();
                    set_field(
                        &fm,
                        "superseded_by",
                        &format!("superseded_by: {}\n", rng.pick(&ids)),
                    )
                } else {
                    set_field(
                        &fm,
                        "withdrawn",
                        &format!(
                            "withdrawn:\n  date: 2026-11-30\n  reason: {}\n",
                            rng.words(4)
                        ),
                    )
                };
                let fm = if rng.chance(30) {
                    remove_field(&fm, "superseded_by")
                } else {
                    fm
                };
                self.write(&f, &edited(fm, body));
                format!("{f}: withdrawn or superseded")
            }
            Kind::Draft => {
                let fm = if field_block(&fm, "draft").is_some() {
                    remove_field(&fm, "draft")
                } else {
                    set_field(&fm, "draft", "draft: true\n")
                };
                self.write(&f, &edited(fm, body));
                format!("{f}: draft toggled")
            }
            Kind::Updated => {
                let line = format!("updated: 2026-11-{:02}\n", 1 + rng.below(28));
                self.write(&f, &edited(set_field(&fm, "updated", &line), body));
                format!("{f}: {}", line.trim_end())
            }
            Kind::Aliases => {
                let line = format!("aliases: [/old/{}/]\n", rng.below(5));
                let fm = if rng.chance(30) {
                    remove_field(&fm, "aliases")
                } else {
                    set_field(&fm, "aliases", &line)
                };
                self.write(&f, &edited(fm, body));
                format!("{f}: aliases")
            }
            Kind::Hardware => {
                let hw = rng.subset(&["RTX 5090", "H100", "B200"], 0);
                let line = format!("hardware: [{}]\n", hw.join(", "));
                self.write(&f, &edited(set_field(&fm, "hardware", &line), body));
                format!("{f}: {}", line.trim_end())
            }
            Kind::Checks => {
                // The checks a finding names: its page and the pages of
                // the runs they flag change.
                let names = findings::checks::names();
                let pick = rng.subset(&names, 0);
                let line = format!("checks: [{}]\n", pick.join(", "));
                self.write(&f, &edited(set_field(&fm, "checks", &line), body));
                format!("{f}: {}", line.trim_end())
            }
            Kind::Acknowledged => {
                // A run's acknowledgments: drop them, or put them back.
                let rel = "data/runs/tensorrt-llm-running-gauge/run.yaml";
                let y = self.read(rel);
                let y = match field_block(&y, "acknowledged") {
                    Some(_) => set_field(&y, "acknowledged", ""),
                    None => set_field(
                        &y,
                        "acknowledged",
                        "acknowledged:\n  - check: concurrency-achieved\n    reason: The evidence of F9.\n",
                    ),
                };
                self.write(rel, &y);
                format!("{rel}: acknowledged toggled")
            }
            Kind::FindingRenamed => {
                let to = format!("findings/renamed-{}.md", rng.below(1000));
                let text = self.read(&f);
                self.remove(&f);
                self.write(&to, &text);
                if let Some(a) = self.added.iter_mut().find(|a| **a == f) {
                    *a = to.clone();
                }
                format!("{f} renamed {to}")
            }
            Kind::ColumnUnit | Kind::ChartCaption => {
                let run = rng.pick(&runs).clone();
                let rel = format!("data/runs/{run}/run.yaml");
                let y = self.read(&rel);
                let (needle, line) = if kind == Kind::ColumnUnit {
                    (
                        "        description: ",
                        format!("        description: {}", rng.words(3)),
                    )
                } else {
                    ("    caption: ", format!("    caption: {}.", rng.words(5)))
                };
                let Some(at) = y.find(needle) else {
                    return self.edit(rng, Kind::RunNotes);
                };
                let end = at + y[at..].find('\n').unwrap();
                let y = format!("{}{line}{}", &y[..at], &y[end..]);
                self.write(&rel, &y);
                format!("{rel}: {kind:?}")
            }
            Kind::RunAdded => {
                let from = rng.pick(&runs).clone();
                let id = format!("added-run-{}", rng.below(1000));
                for file in self.files(&format!("data/runs/{from}"), "") {
                    let text = self.read(&file);
                    let name = file.rsplit('/').next().unwrap();
                    self.write(&format!("data/runs/{id}/{name}"), &text);
                }
                format!("data/runs/{id} added, a copy of {from}")
            }
            Kind::RunRemoved => {
                let Some(added) = runs.iter().find(|r| r.starts_with("added-run-")).cloned() else {
                    return self.edit(rng, Kind::RunAdded);
                };
                std::fs::remove_dir_all(self.site.path(&format!("data/runs/{added}"))).unwrap();
                format!("data/runs/{added} removed")
            }
            Kind::Summary => {
                let fm = if rng.chance(30) {
                    remove_field(&fm, "summary")
                } else {
                    set_field(
                        &fm,
                        "summary",
                        &format!("summary: >-\n  {}.\n", rng.words(6)),
                    )
                };
                self.write(&f, &edited(fm, body));
                format!("{f}: summary")
            }
            Kind::BodyLine => {
                let mut lines: Vec<String> = body.lines().map(String::from).collect();
                let plain: Vec<usize> = (0..lines.len())
                    .filter(|&i| {
                        let l = lines[i].trim_start();
                        !l.is_empty() && !l.starts_with(['#', '`', '|', '<', '>', '-', '*'])
                    })
                    .collect();
                let i = *rng.pick(&plain);
                let words = rng.words(2);
                lines[i] = format!("{} {words}", lines[i]);
                self.write(&f, &edited(fm, lines.join("\n") + "\n"));
                format!("{f}: body line {}", i + 1)
            }
            Kind::WhatToDo => {
                // The end of the body is the end of its What to do section.
                let s = format!("{}{}.\n", body, rng.words(5));
                self.write(&f, &edited(fm, s));
                format!("{f}: a sentence at the end of What to do")
            }
            Kind::FirstParagraph => {
                let s = body.replacen(
                    |c: char| c.is_ascii_alphabetic(),
                    &format!("{} ", rng.words(1)),
                    1,
                );
                self.write(&f, &edited(fm, s));
                format!("{f}: the first paragraph")
            }
            Kind::BodyLink => {
                let target = if rng.chance(50) {
                    let ids = self.finding_ids();
                    format!("finding:{}", rng.pick(&ids))
                } else {
                    format!("run:{}", rng.pick(&runs))
                };
                let para = format!("\nSee [this]({target}) as well.\n");
                let s = match body.find("\n## ") {
                    Some(i) => format!("{}{para}{}", &body[..i], &body[i..]),
                    None => format!("{body}{para}"),
                };
                self.write(&f, &edited(fm, s));
                format!("{f}: a body link to {target}")
            }
            Kind::Tags => {
                let pool = [
                    "preemption",
                    "metrics",
                    "kv-cache",
                    "latency",
                    "new-tag",
                    "another-tag",
                ];
                let tags = rng.subset(&pool, 0);
                let line = format!("tags: [{}]\n", tags.join(", "));
                self.write(&f, &edited(set_field(&fm, "tags", &line), body));
                format!("{f}: {}", line.trim_end())
            }
            Kind::Models => {
                let pool = ["Qwen3-8B", "Qwen3.8-27B", "Llama-3.1-8B", "A new model"];
                let models = rng.subset(&pool, 0);
                let line = format!("models: [{}]\n", models.join(", "));
                self.write(&f, &edited(set_field(&fm, "models", &line), body));
                format!("{f}: {}", line.trim_end())
            }
            Kind::Versions => {
                let engines = engine_ids(&fm);
                let block = engines_block(rng, &engines);
                self.write(&f, &edited(set_field(&fm, "engines", &block), body));
                format!("{f}: engines\n{block}")
            }
            Kind::Status => {
                let s = rng.pick(&["open", "fixed", "mitigated", "advice"]);
                let line = format!("status: {s}\n");
                self.write(&f, &edited(set_field(&fm, "status", &line), body));
                format!("{f}: {}", line.trim_end())
            }
            Kind::Links => {
                let fm = if rng.chance(25) {
                    remove_field(&fm, "links")
                } else {
                    let ids = self.finding_ids();
                    let url = if rng.chance(50) {
                        format!("finding:{}", rng.pick(&ids))
                    } else {
                        "https://github.com/vllm-project/vllm/issues/1".to_string()
                    };
                    let item = format!(
                        "  - label: {}\n    url: {url}\n    kind: issue\n",
                        rng.words(3)
                    );
                    match field_block(&fm, "links") {
                        Some(old) => set_field(&fm, "links", &format!("{old}{item}")),
                        None => set_field(&fm, "links", &format!("links:\n{item}")),
                    }
                };
                self.write(&f, &edited(fm, body));
                format!("{f}: links")
            }
            Kind::RunsCited => {
                let cited = rng.subset(&runs, 0);
                let line = format!("runs: [{}]\n", cited.join(", "));
                self.write(&f, &edited(set_field(&fm, "runs", &line), body));
                format!("{f}: {}", line.trim_end())
            }
            Kind::FindingAdded => {
                let id = self.next_id;
                self.next_id += 1;
                let fm = set_field(&fm, "id", &format!("id: {id}\n"));
                let fm = remove_field(&fm, "aliases");
                let fm = set_field(
                    &fm,
                    "title",
                    &format!("title: Added {id} {}\n", rng.words(2)),
                );
                let name = format!("findings/added-{id}.md");
                self.write(&name, &edited(fm, body));
                self.added.push(name.clone());
                format!("{name} added, a copy of {f}")
            }
            Kind::FindingRemoved => {
                if self.added.is_empty() {
                    return self.edit(rng, Kind::FindingAdded);
                }
                let i = rng.below(self.added.len());
                let name = self.added.remove(i);
                self.remove(&name);
                format!("{name} removed")
            }
            Kind::CsvCell => {
                let csvs = self.files("data/runs", ".csv");
                let csv = rng.pick(&csvs).clone();
                let text = self.read(&csv);
                let mut lines: Vec<String> = text.lines().map(String::from).collect();
                let row = 1 + rng.below(lines.len() - 1);
                // Only cells that are plain numbers, so a numeric column stays one.
                let cells: Vec<String> = lines[row].split(',').map(String::from).collect();
                let numeric: Vec<usize> = (0..cells.len())
                    .filter(|&c| cells[c].parse::<f64>().is_ok())
                    .collect();
                if numeric.is_empty() {
                    return self.edit(rng, Kind::RunTitle);
                }
                let c = *rng.pick(&numeric);
                let mut cells = cells;
                cells[c] = format!("{}", 1 + rng.below(5000));
                lines[row] = cells.join(",");
                self.write(&csv, &(lines.join("\n") + "\n"));
                format!("{csv}: row {row}, cell {c}")
            }
            Kind::ResultFile => {
                // A figure of a kept result file: the derived tables, the
                // charts and the facts all come from it.
                let raws: Vec<String> = self
                    .files("data/runs/imported/raw", "")
                    .into_iter()
                    .filter(|f| f.ends_with("bench.json") || f.ends_with("detailed.json"))
                    .collect();
                let raw = rng.pick(&raws).clone();
                let text = self.read(&raw);
                let key = rng.pick(&["\"output_throughput\": ", "\"duration\": "]);
                let Some(at) = text.find(key) else {
                    return self.edit(rng, Kind::CsvCell);
                };
                let start = at + key.len();
                let end = start + text[start..].find([',', '}']).unwrap();
                let changed = format!("{}{}{}", &text[..start], 1 + rng.below(900), &text[end..]);
                self.write(&raw, &changed);
                format!("{raw}: {key}")
            }
            Kind::RunTitle
            | Kind::RunNotes
            | Kind::RunDate
            | Kind::RunSetup
            | Kind::RunHardware => {
                let run = rng.pick(&runs).clone();
                let rel = format!("data/runs/{run}/run.yaml");
                let y = self.read(&rel);
                let y = match kind {
                    Kind::RunTitle => set_field(&y, "title", &format!("title: {}\n", rng.words(5))),
                    Kind::RunNotes => {
                        let notes = format!("notes: |\n  {}.\n", rng.words(8));
                        set_field(&y, "notes", &notes)
                    }
                    Kind::RunDate => set_field(
                        &y,
                        "date",
                        &format!(
                            "date: 2026-{:02}-{:02}\n",
                            1 + rng.below(12),
                            1 + rng.below(28)
                        ),
                    ),
                    // The run page's setup and the runs index's entry
                    // and filter bar show the hardware (or how to give
                    // it) and the model, named without its local path.
                    Kind::RunHardware if rng.chance(40) => remove_field(&y, "hardware"),
                    Kind::RunHardware => {
                        let y =
                            set_field(&y, "hardware", &format!("hardware: 1x {}\n", rng.words(2)));
                        set_field(&y, "model", &format!("model: /models/{}\n", rng.words(1)))
                    }
                    _ => replace_setup_version(&y, rng),
                };
                self.write(&rel, &y);
                format!("{rel}: {kind:?}")
            }
            Kind::SiteTitle => {
                let y = self.read("site.yaml");
                let y = set_field(&y, "title", &format!("title: \"{}\"\n", rng.words(3)));
                self.write("site.yaml", &y);
                "site.yaml: title".into()
            }
            Kind::SiteBlurb => {
                let y = self.read("site.yaml");
                let at = y.find("    blurb: >-\n").expect("a group blurb");
                let y = format!(
                    "{}    blurb: >-\n      {}.\n{}",
                    &y[..at],
                    rng.words(6),
                    &y[at + "    blurb: >-\n".len()..]
                );
                self.write("site.yaml", &y);
                "site.yaml: a group's blurb".into()
            }
            Kind::SiteEngine => {
                let y = self.read("site.yaml");
                let y = if rng.chance(50) {
                    y.replacen("    name: SGLang\n", "    name: SGLang (sgl)\n", 1)
                        .replacen("    name: SGLang (sgl) (sgl)\n", "    name: SGLang\n", 1)
                } else {
                    let c = rng.pick(&["\"#0072B2\"", "\"#56B4E9\"", "\"#E69F00\""]);
                    let at = y.find("    color: ").unwrap();
                    let end = at + y[at..].find('\n').unwrap();
                    format!("{}    color: {c}{}", &y[..at], &y[end..])
                };
                self.write("site.yaml", &y);
                "site.yaml: an engine's name or colour".into()
            }
            Kind::SitePageSize => {
                let y = self.read("site.yaml");
                let n = rng.pick(&[2, 3, 5, 30]);
                let y = set_field(&y, "page_size", &format!("page_size: {n}\n"));
                self.write("site.yaml", &y);
                format!("site.yaml: page_size {n}")
            }
            Kind::SiteReleases => {
                let y = self.read("site.yaml");
                let v = rng.pick(&["\"0.31\"", "\"0.33.0\"", "\"0.26\""]);
                let y = y.replacen(
                    "releases: [\"0.27.1\"",
                    &format!("releases: [{v}, \"0.27.1\""),
                    1,
                );
                self.write("site.yaml", &y);
                format!("site.yaml: release {v}")
            }
            Kind::SiteEntries => {
                let y = self.read("site.yaml");
                let (k, n) = (
                    *rng.pick(&["home_entries", "feed_entries"]),
                    1 + rng.below(4),
                );
                let y = set_field(&y, k, &format!("{k}: {n}\n"));
                self.write("site.yaml", &y);
                format!("site.yaml: {k} {n}")
            }
            Kind::Template => {
                let (file, at) = *rng.pick(&[
                    ("templates/base.html", "</footer>"),
                    ("templates/macros.html", "</article>"),
                    ("templates/finding.html", "{% endblock main %}"),
                    ("templates/run.html", "{% endblock main %}"),
                ]);
                let t = self.read(file);
                let words = rng.words(2);
                let t = t.replacen(at, &format!("<p>{words}</p>{at}"), 1);
                self.write(file, &t);
                format!("{file}: {words}")
            }
            Kind::StaticFile => {
                let statics = self.files("static", "");
                let extra = statics.iter().find(|s| s.contains("extra")).cloned();
                match (extra, rng.below(3)) {
                    (Some(e), 0) => {
                        self.remove(&e);
                        format!("{e} removed")
                    }
                    (_, 1) => {
                        let css = format!(
                            "{}\n.x{} {{ color: red }}\n",
                            self.read("static/style.css"),
                            rng.below(99)
                        );
                        self.write("static/style.css", &css);
                        "static/style.css".into()
                    }
                    _ => {
                        let name = format!("static/extra-{}.txt", rng.below(3));
                        let words = rng.words(3);
                        self.write(&name, &words);
                        format!("{name}: {words}")
                    }
                }
            }
        }
    }

    fn run_ids(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.site.path("data/runs"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    fn finding_ids(&self) -> Vec<u32> {
        self.files("findings", ".md")
            .iter()
            .filter_map(|f| {
                let text = self.read(f);
                let line = text.lines().find(|l| l.starts_with("id: "))?;
                line[4..].trim().parse().ok()
            })
            .collect()
    }
}

fn set_mtime(path: &Path, t: SystemTime) {
    let f = std::fs::File::options().write(true).open(path).unwrap();
    f.set_modified(t).unwrap();
}

/// A finding's front matter (with its final line end) and body.
fn split(text: &str) -> (String, String) {
    let rest = text.strip_prefix("---\n").expect("front matter");
    let end = rest.find("\n---\n").expect("the closing ---");
    (
        rest[..end + 1].to_string(),
        rest[end + "\n---\n".len()..].to_string(),
    )
}

/// The lines of top-level field `key` in YAML `y` (its first line and the
/// indented ones after it), if it is there.
fn field_block(y: &str, key: &str) -> Option<String> {
    let (start, end) = field_range(y, key)?;
    Some(y[start..end].to_string())
}

fn field_range(y: &str, key: &str) -> Option<(usize, usize)> {
    let mut at = 0;
    let mut start = None;
    for line in y.split_inclusive('\n') {
        if let Some(s) = start {
            let top = !line.starts_with([' ', '\n', '#']);
            if top {
                return Some((s, at));
            }
        } else if line.starts_with(&format!("{key}:")) {
            start = Some(at);
        }
        at += line.len();
    }
    start.map(|s| (s, y.len()))
}

/// `y` with top-level field `key` replaced by `lines` (or added at the end).
fn set_field(y: &str, key: &str, lines: &str) -> String {
    match field_range(y, key) {
        Some((s, e)) => format!("{}{lines}{}", &y[..s], &y[e..]),
        None => format!("{y}{lines}"),
    }
}

fn remove_field(y: &str, key: &str) -> String {
    set_field(y, key, "")
}

/// The engine ids of a finding's `engines` entries.
fn engine_ids(fm: &str) -> Vec<String> {
    let block = field_block(fm, "engines").unwrap_or_default();
    block
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- engine: "))
        .map(|s| s.trim().to_string())
        .collect()
}

/// A new `engines` block for the same engines, with versions drawn from a
/// small ordered pool: affected below the fix, clean and seen apart.
fn engines_block(rng: &mut Rng, engines: &[String]) -> String {
    let mut s = String::from("engines:\n");
    for e in engines {
        let pool: &[&str] = if e == "vllm" {
            &["0.27.1", "0.28", "0.29", "0.30", "0.31", "0.32.0"]
        } else {
            &["0.5.19", "0.5.20", "1.3.0rc29", "1.4.0"]
        };
        let _ = writeln!(s, "  - engine: {e}");
        let q = |v: &[&str]| {
            v.iter()
                .map(|v| format!("\"{v}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match rng.below(4) {
            0 => {}
            1 => {
                let seen = rng.subset(pool, 1);
                let _ = writeln!(s, "    seen: [{}]", q(&seen));
            }
            _ => {
                let cut = 1 + rng.below(pool.len() - 1);
                let affected = rng.subset(&pool[..cut], 1);
                let _ = writeln!(s, "    affected: [{}]", q(&affected));
                if rng.chance(60) {
                    let _ = writeln!(s, "    fixed_in: \"{}\"", pool[cut]);
                    let clean = rng.subset(&pool[cut..], 0);
                    if !clean.is_empty() {
                        let _ = writeln!(s, "    clean: [{}]", q(&clean));
                    }
                }
            }
        }
        if rng.chance(30) {
            let _ = writeln!(s, "    note: {}", rng.words(3));
        }
    }
    s
}

/// A run.yaml with its first setup's version changed.
fn replace_setup_version(y: &str, rng: &mut Rng) -> String {
    let Some(at) = y.find("    version: ") else {
        return y.to_string();
    };
    let end = at + y[at..].find('\n').unwrap();
    let v = rng.pick(&["\"0.28\"", "\"0.29\"", "\"0.31\"", "\"0.5.20\""]);
    format!("{}    version: {v}{}", &y[..at], &y[end..])
}

fn seed() -> u64 {
    match std::env::var("FINDINGS_SEED") {
        Ok(s) => s.trim().parse().expect("FINDINGS_SEED is a whole number"),
        Err(_) => SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64 % 1_000_000_000)
            .unwrap_or(1),
    }
}

#[test]
fn random_edits_give_the_site_a_clean_build_gives() {
    let seed = seed();
    println!("rebuilds: seed {seed} (FINDINGS_SEED={seed} cargo test --test rebuilds replays it)");
    let mut rng = Rng(seed);
    for sequence in 0..SEQUENCES {
        let mut b = Bench::new();
        let _ = writeln!(
            b.log,
            "seed {seed} (FINDINGS_SEED={seed} replays it), sequence {sequence}:"
        );
        let kinds: Vec<Kind> = if sequence == 0 {
            // Every kind once, in a shuffled order.
            let mut k = KINDS.to_vec();
            for i in (1..k.len()).rev() {
                k.swap(i, rng.below(i + 1));
            }
            k
        } else {
            (0..RANDOM_EDITS).map(|_| *rng.pick(KINDS)).collect()
        };
        for kind in kinds {
            b.step(&mut rng, kind);
        }
        let invalid = b.log.matches("(invalid: undone)").count();
        let edits = b
            .log
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
            .count();
        println!("{}", b.log);
        println!("sequence {sequence}: {edits} edits, {invalid} of them undone as invalid");
        // Most edits must keep the folder valid, or the test says little.
        assert!(invalid * 3 <= edits, "{}too many invalid edits", b.log);
    }
}

#[test]
fn an_edit_to_what_to_do_reaches_the_json_of_a_rebuild() {
    // The edit of the issue that started this test: a sentence appended to
    // F8, which lands in its What to do section.
    let mut b = Bench::new();
    let f8 = "findings/vllm-preemptions-not-logged.md";
    let text = b.read(f8);
    b.write(
        f8,
        &format!("{text}Write the difference into the run's notes.\n"),
    );
    assert!(b.rebuild_and_compare("a sentence appended to F8"));
    let json = std::fs::read_to_string(b.out().join("f/8.json")).unwrap();
    assert!(json.contains("Write the difference into the run's notes."));
}
