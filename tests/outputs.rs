//! What the build writes besides pages: search index, feeds, sitemap, JSON
//! export, schemas, link previews, and the browser's version rules, which
//! must agree with the Rust ones (tests/version_cases.txt, run under node).
#![allow(missing_docs)]

mod common;
use common::{run_in, tree, Site};
use findings::model::Model;
use findings::outputs::export::{Export, FindingFile};
use findings::record::EngineEntry;
use findings::state::state_of;
use findings::version::Version;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds the site at `root` into a temporary folder.
fn build_into(root: &Path, extra: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("public");
    let mut args = vec!["build", "--output", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let o = run_in(root, &args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    (dir, out)
}

fn model_of(root: &Path) -> Model {
    findings::open(root, false)
        .unwrap_or_else(|d| panic!("{d:?}"))
        .0
}

fn read(out: &Path, rel: &str) -> String {
    std::fs::read_to_string(out.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn listed_ids(model: &Model) -> Vec<u32> {
    model.listed().map(|i| model.findings[i].id).collect()
}

/// `node`, which runs the browser's scripts; a test that needs it fails
/// when it is not installed (CI installs it: `.ci/run`), rather than pass
/// without running them.
fn node() -> Command {
    match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => Command::new("node"),
        Ok(o) => panic!(
            "`node --version` failed ({}), so the browser's scripts cannot be run: install Node.js (apt-get install nodejs)",
            o.status
        ),
        Err(e) => panic!(
            "`node` is not installed ({e}), so the browser's scripts cannot be run: install Node.js (apt-get install nodejs)"
        ),
    }
}

// ---------------------------------------------------------------- versions

/// A line of tests/version_cases.txt.
enum Case {
    Valid(Vec<String>),
    Order(Vec<String>),
    Same(Vec<String>),
    Invalid(String, String),
    Entry(String, Box<EngineEntry>, Vec<(Version, String)>),
    State(String, String, String),
}

fn v(s: &str) -> Version {
    Version::parse(s).unwrap_or_else(|e| panic!("{e}"))
}

fn cases() -> Vec<(usize, Case)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/version_cases.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let op = words.next().unwrap();
        let args: Vec<String> = words.map(str::to_string).collect();
        let case = match op {
            "valid" => Case::Valid(args),
            "order" => Case::Order(args.into_iter().filter(|w| w != "<").collect()),
            "same" => Case::Same(args),
            "invalid" => {
                let rest = line["invalid".len()..].trim_start();
                let mut de = serde_json::Deserializer::from_str(rest).into_iter::<String>();
                let text = de.next().unwrap().unwrap();
                let reason = rest[de.byte_offset()..].trim().to_string();
                Case::Invalid(text, reason)
            }
            "entry" => {
                let mut e = EngineEntry {
                    engine: "x".into(),
                    affected: vec![],
                    clean: vec![],
                    seen: vec![],
                    introduced_in: None,
                    fixed_in: None,
                    mitigated_in: None,
                    note: None,
                };
                let mut observed = Vec::new();
                for kv in &args[1..] {
                    let (key, vals) = kv.split_once('=').unwrap();
                    if key == "observed" {
                        for x in vals.split(',') {
                            let (ver, state) = x.split_once(':').unwrap();
                            observed.push((v(ver), state.to_string()));
                        }
                        continue;
                    }
                    let vals: Vec<Version> =
                        vals.split(',').filter(|s| !s.is_empty()).map(v).collect();
                    match key {
                        "affected" => e.affected = vals,
                        "clean" => e.clean = vals,
                        "seen" => e.seen = vals,
                        "introduced_in" => e.introduced_in = vals.into_iter().next(),
                        "fixed_in" => e.fixed_in = vals.into_iter().next(),
                        "mitigated_in" => e.mitigated_in = vals.into_iter().next(),
                        other => panic!("line {}: unknown key {other}", k + 1),
                    }
                }
                Case::Entry(args[0].clone(), Box::new(e), observed)
            }
            "state" => Case::State(args[0].clone(), args[1].clone(), args[2].clone()),
            other => panic!("line {}: unknown line kind {other}", k + 1),
        };
        out.push((k + 1, case));
    }
    out
}

#[test]
fn version_cases_hold_for_the_rust_rules() {
    let mut entries: BTreeMap<String, (EngineEntry, Vec<(Version, String)>)> = BTreeMap::new();
    let mut checked = 0;
    for (line, case) in cases() {
        match case {
            Case::Valid(vs) => {
                for s in vs {
                    assert!(
                        Version::parse(&s).is_ok(),
                        "line {line}: {s:?} should parse"
                    );
                    checked += 1;
                }
            }
            Case::Order(vs) => {
                for i in 0..vs.len() {
                    for j in i + 1..vs.len() {
                        assert!(v(&vs[i]) < v(&vs[j]), "line {line}: {} < {}", vs[i], vs[j]);
                        checked += 1;
                    }
                }
            }
            Case::Same(vs) => {
                for a in &vs {
                    for b in &vs {
                        assert_eq!(v(a), v(b), "line {line}");
                        checked += 1;
                    }
                }
            }
            Case::Invalid(text, reason) => {
                let err = Version::parse(&text).expect_err(&format!("line {line}: {text:?}"));
                assert_eq!(err.reason, reason, "line {line}: {text:?}");
                checked += 1;
            }
            Case::Entry(name, e, observed) => {
                entries.insert(name, (*e, observed));
            }
            Case::State(name, ver, want) => {
                // What the runs showed there: an observed affected state is
                // a run that showed the problem, a clean one a run that
                // showed it absent (the build's data, `observed`, holds the
                // state resolve gave).
                let (entry, observed) = &entries[&name];
                let at = v(&ver);
                let mut seen = findings::state::Seen::default();
                for (_, s) in observed.iter().filter(|(x, _)| *x == at) {
                    match s.as_str() {
                        "affected" => seen.shown = true,
                        _ => seen.absent = true,
                    }
                }
                let got = findings::state::resolve(entry, &at, seen).0;
                assert_eq!(got.as_str(), want, "line {line}: {name} at {ver}");
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} cases");
}

#[test]
fn version_cases_hold_for_the_browser_rules() {
    let mut node = node();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = node
        .current_dir(root)
        .args(["tests/js/versions.js", "cases", "tests/version_cases.txt"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "static/versions.js disagrees with tests/version_cases.txt:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.trim_end().ends_with(" 0 failed"), "{stdout}");
}

/// A small deterministic generator (xorshift), so the corpus is the same on
/// every run and every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Spellings, valid and not: every piece the grammar knows, combined at
/// random, in and out of order, with stray characters.
fn corpus() -> Vec<String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let releases = [
        "0",
        "1",
        "2",
        "0.28",
        "0.30",
        "0.3",
        "0.32",
        "0.32.0",
        "0.32.1",
        "1.3.0",
        "1.0",
        "007",
        "1.0.0.0",
        "0.5.20",
        "0.5.3",
        "10.20.30",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999999",
    ];
    let prefixes = ["", "", "", "v", "V", "vv", "b", "B", "vb"];
    let seps = ["", "", ".", "-", "_", "+", "--", ".-"];
    let pre = [
        "a", "alpha", "b", "beta", "rc", "c", "pre", "preview", "RC", "Alpha", "x", "nightly",
    ];
    let post = ["post", "rev", "r", "POST", "posts"];
    let nums = [
        "",
        "",
        "0",
        "1",
        "2",
        "3",
        "29",
        "010",
        "18446744073709551616",
    ];
    let junk = [
        " ", "\t", "\u{a0}", "\u{85}", "\u{feff}", "é", "１", ".", "-", "+", "#", "..", "rc", "dev",
    ];
    let mut out: Vec<String> = Vec::new();
    for (_, case) in cases() {
        match case {
            Case::Valid(vs) | Case::Order(vs) | Case::Same(vs) => out.extend(vs),
            Case::Invalid(t, _) => out.push(t),
            Case::State(_, ver, _) => out.push(ver),
            Case::Entry(..) => {}
        }
    }
    for _ in 0..4000 {
        let mut s = String::new();
        s.push_str(rng.pick(&prefixes));
        s.push_str(rng.pick(&releases));
        let mut parts: Vec<String> = Vec::new();
        for (labels, p) in [(&pre[..], 50), (&post[..], 30), (&["dev", "DEV"][..], 30)] {
            if rng.chance(p) {
                let mut part = rng.pick(&seps).to_string();
                part.push_str(rng.pick(labels));
                if rng.chance(70) {
                    part.push_str(rng.pick(&["", "", ".", "-", "_", "+", "--"]));
                    part.push_str(rng.pick(&nums));
                }
                parts.push(part);
            }
        }
        if rng.chance(10) {
            parts.reverse();
        }
        for p in parts {
            s.push_str(&p);
        }
        if rng.chance(8) {
            let j = rng.pick(&junk);
            if rng.chance(50) {
                s.insert_str(0, j);
            } else {
                s.push_str(j);
            }
        }
        out.push(s);
    }
    out.push(String::new());
    out
}

#[derive(serde::Deserialize)]
struct JsParsed {
    rank: Option<usize>,
    reason: Option<String>,
}

#[derive(serde::Deserialize)]
struct JsCorpus {
    parsed: Vec<JsParsed>,
    states: Vec<Vec<String>>,
}

#[test]
fn rust_and_browser_agree_on_a_corpus_of_spellings() {
    let corpus = corpus();
    let parsed: Vec<Result<Version, String>> = corpus
        .iter()
        .map(|s| Version::parse(s).map_err(|e| e.reason.to_string()))
        .collect();
    let valid: Vec<&Version> = parsed.iter().filter_map(|p| p.as_ref().ok()).collect();
    assert!(
        valid.len() > 1000 && valid.len() + 500 < corpus.len(),
        "{} valid",
        valid.len()
    );

    // Entries from valid spellings of the corpus, at random.
    let mut rng = Rng(42);
    let mut entries: Vec<EngineEntry> = Vec::new();
    let mut entry_json = Vec::new();
    for _ in 0..25 {
        let one = |rng: &mut Rng| valid[(rng.next() % valid.len() as u64) as usize].clone();
        let n = rng.next() % 3;
        let affected: Vec<Version> = (0..n).map(|_| one(&mut rng)).collect();
        let n = rng.next() % 2;
        let clean: Vec<Version> = (0..n).map(|_| one(&mut rng)).collect();
        let n = rng.next() % 2;
        let seen: Vec<Version> = (0..n).map(|_| one(&mut rng)).collect();
        let opt = |rng: &mut Rng| rng.chance(40).then(|| one(rng));
        let (introduced_in, fixed_in, mitigated_in) = (opt(&mut rng), opt(&mut rng), opt(&mut rng));
        let s = |v: &Version| v.as_str().to_string();
        entry_json.push(serde_json::json!({
            "affected": affected.iter().map(s).collect::<Vec<_>>(),
            "clean": clean.iter().map(s).collect::<Vec<_>>(),
            "seen": seen.iter().map(s).collect::<Vec<_>>(),
            "introduced_in": introduced_in.as_ref().map(s),
            "fixed_in": fixed_in.as_ref().map(s),
            "mitigated_in": mitigated_in.as_ref().map(s),
        }));
        entries.push(EngineEntry {
            engine: "x".into(),
            affected,
            clean,
            seen,
            introduced_in,
            fixed_in,
            mitigated_in,
            note: None,
        });
    }

    // Rust: dense ranks of the valid spellings, and every state.
    let mut sorted = valid.clone();
    sorted.sort();
    let rank = |x: &Version| {
        let mut r = 0;
        for (i, y) in sorted.iter().enumerate() {
            if i > 0 && sorted[i - 1] != *y {
                r += 1;
            }
            if *y == x {
                return r;
            }
        }
        unreachable!()
    };

    let mut node = node();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("corpus.json");
    std::fs::write(
        &input,
        serde_json::to_string(&serde_json::json!({"versions": corpus, "entries": entry_json}))
            .unwrap(),
    )
    .unwrap();
    let out = node
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tests/js/versions.js", "corpus"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let js: JsCorpus = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(js.parsed.len(), corpus.len());
    for ((text, rust), js) in corpus.iter().zip(&parsed).zip(&js.parsed) {
        match rust {
            Ok(ver) => assert_eq!(js.rank, Some(rank(ver)), "{text:?}: order differs"),
            Err(reason) => assert_eq!(js.reason.as_deref(), Some(reason.as_str()), "{text:?}"),
        }
    }
    for (k, e) in entries.iter().enumerate() {
        for (ver, js_state) in valid.iter().zip(&js.states[k]) {
            assert_eq!(state_of(e, ver).as_str(), js_state, "entry {k} at {ver}");
        }
    }
}

// ------------------------------------------------------------------ search

/// A word's numbers in a shard, as docs/json.md says they are written:
/// base64's URL-safe letters, five bits each, lowest first, the sixth bit
/// set on each letter but a number's last.
fn numbers(letters: &str) -> Vec<u64> {
    const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let (mut out, mut n, mut shift) = (Vec::new(), 0u64, 0);
    for c in letters.chars() {
        let d = LETTERS
            .find(c)
            .unwrap_or_else(|| panic!("{c:?} in {letters}")) as u64;
        n |= (d & 31) << shift;
        if d & 32 == 0 {
            out.push(n);
            (n, shift) = (0, 0);
        } else {
            shift += 5;
        }
    }
    assert_eq!(shift, 0, "{letters} ends inside a number");
    out
}

/// The search index of a built site, read back: each word with the
/// findings it occurs in and the fields (bits in `fields` order).
fn search_words(out: &Path) -> (serde_json::Value, BTreeMap<String, Vec<(u64, u64)>>) {
    let manifest: serde_json::Value =
        serde_json::from_str(&read(out, "search-index.json")).unwrap();
    let mut words = BTreeMap::new();
    for e in std::fs::read_dir(out.join("search-index")).unwrap() {
        let path = e.unwrap().path();
        // The runs' and workloads' index has folders of its own here
        // (docs/, entries/); the findings' shards are the files.
        if path.is_dir() {
            continue;
        }
        let shard: BTreeMap<String, String> =
            serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        for (w, coded) in shard {
            let mut id = 0;
            let postings = numbers(&coded)
                .iter()
                .map(|n| {
                    id += n / 32 + 1;
                    (id, n % 32)
                })
                .collect();
            assert!(
                words.insert(w.clone(), postings).is_none(),
                "{w} is in two shards"
            );
        }
    }
    (manifest, words)
}

#[test]
fn search_index_holds_every_listed_finding() {
    for root in [common::bundled(), common::fixture("minimal")] {
        let model = model_of(&root);
        let (_dir, out) = build_into(&root, &[]);
        let (manifest, words) = search_words(&out);
        assert_eq!(manifest["schema_version"], 3);
        assert_eq!(
            manifest["fields"],
            serde_json::json!(["title", "advice", "terms", "summary", "body"])
        );
        assert_eq!(manifest["shards"], "search-index/");
        let mut ids: Vec<u32> = words.values().flatten().map(|&(id, _)| id as u32).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(
            ids,
            listed_ids(&model),
            "every listed finding, and nothing else"
        );
        assert_eq!(manifest["count"], ids.len());
        let has = |word: &str, id: u32, bit: u64| {
            words.get(word).is_some_and(|p| {
                p.iter()
                    .any(|&(i, bits)| i == u64::from(id) && bits & bit != 0)
            })
        };
        for id in listed_ids(&model) {
            let f = model.finding(id).unwrap();
            for e in &f.engines {
                assert!(
                    has(&e.engine, id, 4),
                    "F{id}: engine {} is a term",
                    e.engine
                );
            }
            for tag in &f.tags {
                let first = tag.to_lowercase();
                let first = first
                    .split(|c: char| !c.is_alphanumeric() && !"._+/-".contains(c))
                    .next()
                    .unwrap();
                assert!(has(first, id, 4), "F{id}: tag {tag} is a term");
            }
            let advice = f.advice.to_lowercase();
            let word = advice
                .split(|c: char| !c.is_alphanumeric())
                .find(|w| w.len() > 2)
                .unwrap();
            assert!(has(word, id, 2), "F{id}: \"{word}\" of its advice");
        }
    }
}

#[test]
fn the_search_script_finds_by_number_title_version_and_body() {
    let (_dir, out) = build_into(&common::bundled(), &[]);
    let size: u64 = std::fs::read_dir(out.join("search-index"))
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum::<u64>()
        + std::fs::metadata(out.join("search-index.json"))
            .unwrap()
            .len();
    assert!(size < 60_000, "the index of 19 findings is {size} bytes");
    let mut node = node();
    let script = r#"
        var S = require(process.argv[1] + "/static/search.js");
        var fs = require("fs"), path = require("path");
        var load = function (p) { return Promise.resolve(JSON.parse(fs.readFileSync(path.join(process.argv[2], p), "utf8"))); };
        var qs = ["F7", "7", "engine core", "Stop the engine process", "0.32.0", "prefix cache", "fahrenheit",
          "nothing-matches-this", "cach"];
        S.open(load).then(function (ix) {
          return Promise.all(qs.map(function (q) { return ix.search(q); })).then(function (all) {
            var out = {};
            qs.forEach(function (q, k) { out[q] = all[k].map(function (h) { return h.id; }); });
            console.log(JSON.stringify(out));
          });
        }).catch(function (e) { console.error(e); process.exit(1); });
    "#;
    let o = node
        .args(["-e", script, env!("CARGO_MANIFEST_DIR")])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let hits: BTreeMap<String, Vec<u32>> = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(hits["F7"], [7], "a number finds its finding");
    assert_eq!(hits["7"][0], 7);
    assert_eq!(hits["engine core"][0], 7, "{:?}", hits["engine core"]);
    assert_eq!(hits["Stop the engine process"][0], 7, "advice is searched");
    assert!(hits["0.32.0"].contains(&2), "versions are searched");
    assert_eq!(hits["prefix cache"][0], 12);
    assert_eq!(hits["fahrenheit"][0], 16);
    assert!(hits["nothing-matches-this"].is_empty());
    assert!(
        hits["cach"].contains(&12),
        "a word's start finds it: {:?}",
        hits["cach"]
    );
}

#[test]
fn the_search_script_reads_the_keys_as_the_build_writes_them() {
    // The manifest names its shards as a trie (docs/json.md): read by the
    // script, it names each shard file on disk and no other, and the
    // example of docs/json.md reads as it says.
    let (_dir, out) = build_into(&common::bundled(), &[]);
    let script = r#"
        var S = require(process.argv[1] + "/static/search.js");
        var m = JSON.parse(require("fs").readFileSync(process.argv[2] + "/search-index.json", "utf8"));
        var t = S.trie(m.keys), d = S.trie("0~{.{3}}a{b}p~{r{-e{f}}}");
        console.log(JSON.stringify({ keys: Object.keys(t.keys).sort(), doc: Object.keys(d.keys).sort(),
          split: Object.keys(d.split).filter(function (k) { return k.length > 1; }).sort() }));
    "#;
    let o = node()
        .args(["-e", script, env!("CARGO_MANIFEST_DIR")])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got: BTreeMap<String, Vec<String>> = serde_json::from_slice(&o.stdout).unwrap();
    let mut files: Vec<String> = std::fs::read_dir(out.join("search-index"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let hex = p.file_stem().unwrap().to_str().unwrap().to_string();
            let bytes: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            String::from_utf8(bytes).unwrap()
        })
        .collect();
    files.sort();
    assert!(files.len() > 100, "{files:?}");
    assert_eq!(got["keys"], files);
    assert_eq!(
        got["doc"],
        ["0.", "0.3", "a", "ab", "pr", "pr-", "pre", "pref"]
    );
    assert_eq!(got["split"], ["0.", "pr", "pre"]);
}

#[test]
fn the_search_page_works_from_a_query_and_says_it_needs_js() {
    let (_dir, out) = build_into(&common::bundled(), &[]);
    let html = read(&out, "search/index.html");
    assert!(html.contains("<form class=\"search-form\" id=\"search-form\" role=\"search\" action=\"../search/\" method=\"get\">"));
    assert!(html.contains("name=\"q\""));
    assert!(html.contains("<noscript>") && html.contains("Search needs JavaScript."));
    assert!(html.contains("<script src=\"../search.js\" defer></script>"));
    assert!(
        !html.contains("http://") || !html.contains("<script src=\"http"),
        "no script from elsewhere"
    );
    // Every other page has the header's search box, a plain GET form.
    let home = read(&out, "index.html");
    assert!(home.contains(
        "<form class=\"site-search\" role=\"search\" action=\"./search/\" method=\"get\">"
    ));
    let f = read(
        &out,
        "findings/vllm-engine-core-survives-server-kill/index.html",
    );
    assert!(f.contains("action=\"../../search/\""));
    for (path, bytes) in tree(&out) {
        if path.ends_with(".js") {
            let js = String::from_utf8(bytes).unwrap();
            assert!(
                !js.contains("http://") && !js.contains("https://"),
                "{path} loads nothing from elsewhere"
            );
        }
    }
}

// --------------------------------------------------------------- filters

#[test]
fn home_filters_are_links_to_static_pages() {
    let site = Site::copy_of("minimal");
    let (_dir, out) = build_into(site.root(), &[]);
    let home = read(&out, "index.html");
    for href in [
        "href=\"./engines/vllm/\" data-value=\"vllm\" data-src=\"./engines/vllm/findings.json\"",
        "href=\"./groups/speed/\" data-value=\"speed\"",
        "href=\"./status/open/\" data-value=\"open\"",
        "href=\"./status/advice/\" data-value=\"advice\"",
    ] {
        assert!(home.contains(href), "home lacks {href}");
    }
    // Status pages list the listed findings of that status.
    let open = read(&out, "status/open/index.html");
    assert!(
        open.contains(">F7<") && !open.contains(">F9<") && !open.contains(">F3<"),
        "{open}"
    );
    let fixed = read(&out, "status/fixed/index.html");
    assert!(fixed.contains(">F9<") && !fixed.contains(">F7<"));
    let advice = read(&out, "status/advice/index.html");
    assert!(advice.contains("0 findings"));
    // Cards carry what the instant filters need; the data that covers every
    // finding is fetched when a filter is used, not embedded in the page.
    assert!(home.contains("data-status=\"open\" data-group=\"speed\" data-engines=\"vllm \""));
    assert!(home.contains("id=\"filters\" aria-labelledby=\"filters-heading\" data-total=\"2\" data-src=\"./filters.json\""));
    assert!(
        !home.contains("application/json"),
        "no data embedded in the home page"
    );
    let filters: serde_json::Value = serde_json::from_str(&read(&out, "filters.json")).unwrap();
    assert_eq!(
        filters["fields"],
        serde_json::json!(["id", "group", "status"])
    );
    let rows: Vec<(u64, &str, &str)> = filters["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let group = filters["groups"][r[1].as_u64().unwrap() as usize]
                .as_str()
                .unwrap();
            let status = filters["statuses"][r[2].as_u64().unwrap() as usize]
                .as_str()
                .unwrap();
            (r[0].as_u64().unwrap(), group, status)
        })
        .collect();
    let mut listed: Vec<u64> = rows.iter().map(|r| r.0).collect();
    listed.sort();
    assert_eq!(listed, [7, 9], "withdrawn findings are left out");
    assert!(rows.contains(&(7, "speed", "open")), "{rows:?}");
}

fn between<'a>(s: &'a str, start: &str, end: &str) -> &'a str {
    let i = s.find(start).unwrap_or_else(|| panic!("{start} not found")) + start.len();
    let j = s[i..].find(end).unwrap() + i;
    &s[i..j]
}

#[test]
fn engine_pages_point_your_version_at_the_engines_data() {
    let site = Site::copy_of("minimal");
    let model = model_of(site.root());
    let (_dir, out) = build_into(site.root(), &[]);
    let html = read(&out, "engines/vllm/index.html");
    assert!(html.contains("<section class=\"your-version\" id=\"your-version\" aria-labelledby=\"your-version-heading\" data-src=\"../../engines/vllm/findings.json\" data-name=\"vLLM\" hidden>"));
    assert!(html.contains("<script src=\"../../versions.js\" defer></script>"));
    assert!(
        !html.contains("application/json\" id="),
        "no data embedded in the page"
    );
    let data: serde_json::Value =
        serde_json::from_str(&read(&out, "engines/vllm/findings.json")).unwrap();
    assert_eq!(data["schema_version"], 1);
    assert_eq!(data["engine"]["id"], "vllm");
    let ix = &model.engines[0];
    let versions: Vec<&str> = data["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["v"].as_str().unwrap())
        .collect();
    assert_eq!(
        versions,
        ix.versions.iter().map(|v| v.as_str()).collect::<Vec<_>>()
    );
    assert_eq!(
        data["fields"],
        serde_json::json!(["id", "slug", "title", "status", "group", "note", "entry"])
    );
    let rows = data["findings"].as_array().unwrap();
    assert_eq!(rows.len(), ix.findings.len());
    for (row, &i) in rows.iter().zip(&ix.findings) {
        let f = &model.findings[i];
        let e = f.engines.iter().find(|e| e.engine == "vllm").unwrap();
        let row: serde_json::Map<String, serde_json::Value> = data["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap().to_string())
            .zip(row.as_array().unwrap().iter().cloned())
            .collect();
        assert_eq!(row["id"], f.id);
        assert_eq!(row["slug"], f.slug.as_str());
        assert_eq!(row["group"], f.group.as_str());
        let affected: Vec<&str> = e.affected.iter().map(|v| v.as_str()).collect();
        if affected.is_empty() {
            assert!(row["entry"].get("affected").is_none());
        } else {
            assert_eq!(row["entry"]["affected"], serde_json::json!(affected));
        }
        assert_eq!(
            row["entry"]["fixed_in"].as_str(),
            e.fixed_in.as_ref().map(|v| v.as_str())
        );
    }
    assert!(html.contains("<link rel=\"alternate\" type=\"application/atom+xml\" title=\"vLLM: new and updated findings\" href=\"../../engines/vllm/atom.xml\">"));
}

// ------------------------------------------------------------------- feeds

const ATOM: &str = "http://www.w3.org/2005/Atom";

struct Entry {
    id: String,
    title: String,
    link: String,
    updated: String,
    content: String,
}

/// The Atom child element `name` of `n`.
fn child<'a, 'i>(n: roxmltree::Node<'a, 'i>, name: &str) -> roxmltree::Node<'a, 'i> {
    n.children()
        .find(|c| {
            c.is_element() && c.tag_name().name() == name && c.tag_name().namespace() == Some(ATOM)
        })
        .unwrap_or_else(|| panic!("no <{name}>"))
}

/// Parses an Atom feed strictly enough to catch what readers reject.
fn parse_feed(xml: &str, base: &str) -> (String, String, Vec<Entry>) {
    let doc = roxmltree::Document::parse(xml).unwrap_or_else(|e| panic!("not XML: {e}"));
    let feed = doc.root_element();
    assert_eq!(feed.tag_name().name(), "feed");
    assert_eq!(feed.tag_name().namespace(), Some(ATOM));
    let text = |n: roxmltree::Node<'_, '_>| n.text().unwrap_or("").to_string();
    let rfc3339 = |s: &str| {
        assert!(
            s.len() == 20
                && s.ends_with("T00:00:00Z")
                && findings::record::Date::parse(&s[..10]).is_some(),
            "{s} is not an RFC 3339 date"
        );
    };
    // Required feed elements (RFC 4287 4.1.1): id, title, updated, and an author.
    let id = text(child(feed, "id"));
    assert!(id.starts_with(base), "{id}");
    let updated = text(child(feed, "updated"));
    rfc3339(&updated);
    assert!(!text(child(feed, "title")).is_empty());
    assert!(!text(child(child(feed, "author"), "name")).is_empty());
    let self_link = feed
        .children()
        .find(|c| c.tag_name().name() == "link" && c.attribute("rel") == Some("self"))
        .expect("a self link");
    assert_eq!(self_link.attribute("href"), Some(id.as_str()));
    let mut entries = Vec::new();
    for e in feed.children().filter(|c| c.tag_name().name() == "entry") {
        let link = e
            .children()
            .find(|c| c.tag_name().name() == "link" && c.attribute("rel") == Some("alternate"))
            .and_then(|l| l.attribute("href"))
            .expect("an alternate link")
            .to_string();
        let entry = Entry {
            id: text(child(e, "id")),
            title: text(child(e, "title")),
            link,
            updated: text(child(e, "updated")),
            content: text(child(e, "content")),
        };
        rfc3339(&entry.updated);
        rfc3339(&text(child(e, "published")));
        assert!(!text(child(e, "summary")).is_empty());
        assert_eq!(child(e, "content").attribute("type"), Some("html"));
        for url in [&entry.id, &entry.link] {
            assert!(url.starts_with(base), "{url} is not absolute under {base}");
        }
        entries.push(entry);
    }
    (id, updated, entries)
}

/// Every `href`/`src` of an HTML fragment.
fn urls_in(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        for (i, _) in html.match_indices(attr) {
            let rest = &html[i + attr.len()..];
            out.push(rest[..rest.find('"').unwrap()].to_string());
        }
    }
    out
}

#[test]
fn feeds_are_atom_with_the_right_entries_and_absolute_links() {
    for root in [common::bundled(), common::fixture("minimal")] {
        let model = model_of(&root);
        let base = model.site.base_url.clone();
        let (_dir, out) = build_into(&root, &[]);
        let changed = |id: u32| {
            let f = model.finding(id).unwrap();
            f.updated.unwrap_or(f.published)
        };
        let mut feeds = vec![(None, "atom.xml".to_string())];
        for e in &model.site.engines {
            feeds.push((Some(e.id.clone()), format!("engines/{}/atom.xml", e.id)));
        }
        for (engine, path) in feeds {
            let (id, updated, entries) = parse_feed(&read(&out, &path), &base);
            assert_eq!(id, format!("{base}{path}"));
            // The right entries: listed findings (of the engine), newest change first.
            let mut want: Vec<u32> = listed_ids(&model)
                .into_iter()
                .filter(|&i| {
                    engine.as_ref().is_none_or(|e| {
                        model
                            .finding(i)
                            .unwrap()
                            .engines
                            .iter()
                            .any(|x| &x.engine == e)
                    })
                })
                .collect();
            want.sort_by(|&a, &b| changed(b).cmp(&changed(a)).then(b.cmp(&a)));
            want.truncate(model.site.feed_entries);
            let got: Vec<String> = entries.iter().map(|e| e.id.clone()).collect();
            let want_ids: Vec<String> = want.iter().map(|i| format!("{base}f/{i}/")).collect();
            assert_eq!(got, want_ids, "{path}");
            if let Some(&first) = want.first() {
                assert_eq!(updated, format!("{}T00:00:00Z", changed(first)), "{path}");
            }
            for (e, &fid) in entries.iter().zip(&want) {
                let f = model.finding(fid).unwrap();
                assert_eq!(e.link, format!("{base}findings/{}/", f.slug));
                assert!(e.title.starts_with(&format!("F{fid}: ")));
                assert_eq!(e.updated, format!("{}T00:00:00Z", changed(fid)));
                assert!(!e.content.contains("@@root@@"), "{}", e.content);
                for url in urls_in(&e.content) {
                    assert!(
                        url.starts_with("http://")
                            || url.starts_with("https://")
                            || url.starts_with('#')
                            || url.starts_with("mailto:"),
                        "{path}: F{fid} links to {url}, relative to nothing in a feed reader"
                    );
                }
            }
        }
    }
    // The minimal fixture: F7 was updated after F9 was published; F3 is withdrawn.
    let (_dir, out) = build_into(&common::fixture("minimal"), &[]);
    let (_, _, entries) = parse_feed(&read(&out, "atom.xml"), "https://example.org/sub/");
    let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    assert!(
        !ids.contains(&"https://example.org/sub/f/3/"),
        "withdrawn findings leave the feed"
    );
}

#[test]
fn pages_link_their_feeds() {
    let (_dir, out) = build_into(&common::bundled(), &[]);
    let home = read(&out, "index.html");
    assert!(home.contains("<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Findings: serving open models: new and updated findings\" href=\"./atom.xml\">"));
    let f = read(
        &out,
        "findings/vllm-engine-core-survives-server-kill/index.html",
    );
    assert!(f.contains("type=\"application/atom+xml\"") && f.contains("href=\"../../atom.xml\""));
    assert!(f.contains("<link rel=\"alternate\" type=\"application/json\" title=\"F7 as JSON\" href=\"../../f/7.json\">"));
}

// ----------------------------------------------------------------- sitemap

#[test]
fn sitemap_lists_every_page_and_robots_points_to_it() {
    for root in [common::bundled(), common::fixture("minimal")] {
        let model = model_of(&root);
        let base = model.site.base_url.clone();
        let (_dir, out) = build_into(&root, &[]);
        let xml = read(&out, "sitemap.xml");
        let doc = roxmltree::Document::parse(&xml).unwrap();
        assert_eq!(doc.root_element().tag_name().name(), "urlset");
        assert_eq!(
            doc.root_element().tag_name().namespace(),
            Some("http://www.sitemaps.org/schemas/sitemap/0.9")
        );
        let locs: BTreeSet<String> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "loc")
            .map(|n| n.text().unwrap().to_string())
            .collect();
        // Every built HTML page but redirects and the 404 page.
        let pages: BTreeSet<String> = tree(&out)
            .into_iter()
            .filter(|(p, _)| p.ends_with(".html") && p != "404.html")
            .filter(|(_, b)| !String::from_utf8_lossy(b).contains("http-equiv=\"refresh\""))
            .map(|(p, _)| {
                let p = p.strip_suffix("index.html").unwrap_or(&p).to_string();
                format!("{base}{p}")
            })
            .collect();
        assert!(pages.len() > 20);
        assert_eq!(locs, pages, "the sitemap lists exactly the pages");
        // Finding pages carry the date of their last change.
        let f7 = model.finding(7).unwrap();
        let want = format!(
            "<loc>{base}findings/{}/</loc><lastmod>{}</lastmod>",
            f7.slug,
            f7.updated.unwrap_or(f7.published)
        );
        assert!(xml.contains(&want), "{want}");
        assert_eq!(
            read(&out, "robots.txt").lines().last().unwrap(),
            format!("Sitemap: {base}sitemap.xml")
        );
    }
}

// -------------------------------------------------------------------- JSON

#[test]
fn json_export_round_trips_into_the_record_model() {
    for (root, drafts) in [
        (common::bundled(), false),
        (common::fixture("minimal"), true),
    ] {
        let model = findings::open(&root, drafts).unwrap().0;
        let base = model.site.base_url.clone();
        let extra: &[&str] = if drafts { &["--drafts"] } else { &[] };
        let (_dir, out) = build_into(&root, extra);
        let text = read(&out, "findings.json");
        let export: Export = serde_json::from_str(&text).unwrap();
        // Stable key order: the file is exactly what the structs write back.
        assert_eq!(
            format!("{}\n", serde_json::to_string(&export).unwrap()),
            text
        );
        assert_eq!(
            export.schema_version,
            findings::outputs::export::SCHEMA_VERSION
        );
        assert_eq!(export.site.base_url, base);
        assert_eq!(export.findings.len(), model.findings.len());
        // How many states each source gave: the bundled site has all three.
        let mut sources: BTreeMap<&str, usize> = BTreeMap::new();
        for (x, f) in export.findings.iter().zip(&model.findings) {
            let i = model.by_id[&f.id];
            assert_eq!((x.id, &x.slug, &x.title), (f.id, &f.slug, &f.title));
            assert_eq!(x.advice, f.advice);
            assert_eq!(x.status, f.status.as_str());
            assert_eq!(x.published, f.published.to_string());
            assert_eq!(x.updated, f.updated.map(|d| d.to_string()));
            assert_eq!(x.listed, model.listed[i]);
            assert_eq!(x.draft, f.draft);
            assert_eq!(x.tags, f.tags);
            assert_eq!(x.models, f.models);
            assert_eq!(x.summary, f.summary);
            assert!(!x.summary_text.is_empty());
            assert_eq!(x.urls.page, format!("{base}findings/{}/", f.slug));
            assert_eq!(x.urls.permalink, format!("{base}f/{}/", f.id));
            assert_eq!(x.urls.json, format!("{base}f/{}.json", f.id));
            assert_eq!(x.engines.len(), f.engines.len());
            for (xe, e) in x.engines.iter().zip(&f.engines) {
                assert_eq!(xe.engine, e.engine);
                let parse = |s: &String| Version::parse(s).unwrap();
                assert_eq!(
                    xe.affected.iter().map(parse).collect::<Vec<_>>(),
                    e.affected
                );
                assert_eq!(xe.clean.iter().map(parse).collect::<Vec<_>>(), e.clean);
                assert_eq!(xe.seen.iter().map(parse).collect::<Vec<_>>(), e.seen);
                assert_eq!(xe.fixed_in.as_ref().map(parse), e.fixed_in);
                assert_eq!(xe.mitigated_in.as_ref().map(parse), e.mitigated_in);
                assert_eq!(xe.introduced_in.as_ref().map(parse), e.introduced_in);
                // The resolved states, held to the record's own lists and
                // bounds and to the runs' setups (not to the model's rule,
                // which the exporter serialises): every version the engine
                // has, once, in order, each release of site.yaml among them.
                let versions: Vec<Version> = xe.states.iter().map(|s| parse(&s.version)).collect();
                assert!(
                    versions.windows(2).all(|w| w[0] < w[1]),
                    "F{}: {} states out of order: {versions:?}",
                    f.id,
                    e.engine
                );
                let engine = model
                    .site
                    .engines
                    .iter()
                    .find(|x| x.id == e.engine)
                    .unwrap();
                for listed in engine
                    .releases
                    .iter()
                    .chain(&e.affected)
                    .chain(&e.clean)
                    .chain(&e.seen)
                {
                    assert!(versions.contains(listed), "F{}: no state at {listed}", f.id);
                }
                // The first entry of an engine is the one runs test.
                let first = f.engines.iter().position(|x| x.engine == e.engine)
                    == f.engines.iter().position(|x| std::ptr::eq(x, e));
                let low = e.introduced_in.as_ref().or_else(|| e.affected.iter().min());
                for (st, ver) in xe.states.iter().zip(&versions) {
                    let at = format!("F{} {} {ver}", f.id, e.engine);
                    for o in &st.observations {
                        // Each observation is of a run whose setup ran this
                        // engine at this version.
                        let run = model.runs.iter().find(|r| r.id == o.run).unwrap();
                        let setup = run.setups.iter().find(|s| s.name() == o.setup);
                        let setup = setup
                            .unwrap_or_else(|| panic!("{at}: no setup {} in {}", o.setup, o.run));
                        assert_eq!(setup.engine, e.engine, "{at}");
                        assert_eq!(
                            setup.version.as_ref().map(parse).as_ref(),
                            Some(ver),
                            "{at}"
                        );
                    }
                    let shown = st.observations.iter().any(|o| o.outcome == "shown");
                    let absent = st.observations.iter().any(|o| o.outcome == "absent");
                    let listed = if e.affected.contains(ver) {
                        Some("affected")
                    } else if e.clean.contains(ver) {
                        Some("clean")
                    } else if e.seen.contains(ver) {
                        Some("seen")
                    } else {
                        None
                    };
                    let bound = if e.fixed_in.as_ref().is_some_and(|x| ver >= x) {
                        "fixed"
                    } else if e.mitigated_in.as_ref().is_some_and(|x| ver >= x) {
                        "mitigated"
                    } else if low.is_some_and(|l| ver >= l) {
                        "in-range"
                    } else {
                        "unknown"
                    };
                    let want = match (listed, bound) {
                        (Some(state), _) => (state, "record"),
                        (None, "in-range" | "unknown") if first && shown => {
                            ("affected", "observed")
                        }
                        (None, "in-range" | "unknown") if first && absent => ("clean", "observed"),
                        (None, state) => (state, "inferred"),
                    };
                    assert_eq!((st.state.as_str(), st.source.as_str()), want, "{at}");
                    *sources.entry(want.1).or_insert(0) += 1;
                }
            }
            // The per-finding file holds the same finding.
            let one: FindingFile =
                serde_json::from_str(&read(&out, &format!("f/{}.json", f.id))).unwrap();
            assert_eq!(one.schema_version, export.schema_version);
            assert_eq!(&one.finding, x);
        }
        assert_eq!(export.runs.len(), model.runs.len());
        for (x, r) in export.runs.iter().zip(&model.runs) {
            assert_eq!((&x.id, &x.title), (&r.id, &r.title));
            assert_eq!(x.tables.len(), r.tables.len());
            for (xt, t) in x.tables.iter().zip(&r.tables) {
                assert_eq!((&xt.header, &xt.rows), (&t.header, &t.rows), "table data");
                // Each column by its CSV name, with what pages call it.
                let names = model.site.engine_names();
                for (xc, c) in xt.columns.iter().zip(&t.columns) {
                    assert_eq!((&xc.name, &xc.label), (&c.name, &c.title(&names)));
                }
                assert!(out.join(format!("runs/{}/{}", r.id, t.file)).is_file());
                assert_eq!(xt.url, format!("{base}runs/{}/{}", r.id, t.file));
            }
            assert_eq!(x.charts.len(), r.charts.len());
        }
        if !drafts {
            assert!(
                ["record", "observed", "inferred"]
                    .iter()
                    .all(|k| sources.get(k).is_some_and(|n| *n > 0)),
                "{sources:?}"
            );
            // The bundled site's run, with the label its run.yaml writes.
            let c1 = export
                .runs
                .iter()
                .find(|r| r.id == "c1-depth-ninfer-vs-vllm");
            let mtp = &c1.unwrap().tables[0].columns[2];
            assert_eq!(
                (mtp.name.as_str(), mtp.label.as_str()),
                ("vllm_mtp3", "vLLM 0.27.1 MTP@3")
            );
        }
    }
}

// ----------------------------------------------------------------- schemas

fn schema(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("schemas/{name}.schema.json"));
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&value).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn yaml(text: &str) -> serde_json::Value {
    serde_yaml::from_str(text).unwrap()
}

fn front_matter(text: &str) -> &str {
    let rest = text.strip_prefix("---\n").unwrap();
    &rest[..rest.find("\n---\n").unwrap() + 1]
}

fn errors(v: &jsonschema::Validator, value: &serde_json::Value) -> Vec<String> {
    v.iter_errors(value)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn schemas_accept_the_bundled_records_and_reject_bad_ones() {
    let (site_s, finding_s, run_s) = (schema("site"), schema("finding"), schema("run"));
    let mut checked = 0;
    for root in [common::bundled(), common::fixture("minimal")] {
        let e = errors(
            &site_s,
            &yaml(&std::fs::read_to_string(root.join("site.yaml")).unwrap()),
        );
        assert!(e.is_empty(), "site.yaml: {e:?}");
        for entry in std::fs::read_dir(root.join("findings")).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let e = errors(&finding_s, &yaml(front_matter(&text)));
            assert!(e.is_empty(), "{}: {e:?}", path.display());
            checked += 1;
        }
        for entry in std::fs::read_dir(root.join("data/runs")).unwrap() {
            let path = entry.unwrap().path().join("run.yaml");
            let e = errors(&run_s, &yaml(&std::fs::read_to_string(&path).unwrap()));
            assert!(e.is_empty(), "{}: {e:?}", path.display());
            checked += 1;
        }
    }
    assert!(checked > 40);

    // Each broken copy of a good record fails, as `findings check` would.
    let good = std::fs::read_to_string(
        common::bundled().join("findings/ngram-speculative-decoding-changed-answers.md"),
    )
    .unwrap();
    let good = front_matter(&good).to_string();
    for (from, to) in [
        ("status: fixed", "stauts: fixed"),
        (
            "affected: [\"0.28\", \"0.30\"]",
            "affected: [\"0.28\", 0.30]",
        ),
        ("fixed_in: \"0.32.0\"", "fixed_in: \"0.32.0-nightly\""),
        ("status: fixed", "status: done"),
        ("id: 2\n", "id: \"2\"\n"),
        ("published: 2026-10-05", "published: 2026-10-5"),
        ("group: changed-answers\n", ""),
        (
            "    url: https://github.com/vllm-project/vllm/pull/56531",
            "    url: javascript:alert(1)",
        ),
    ] {
        assert_eq!(good.matches(from).count(), 1, "{from}");
        let bad = good.replacen(from, to, 1);
        assert!(
            !finding_s.is_valid(&yaml(&bad)),
            "the finding schema accepts {to:?}"
        );
    }
    let site = std::fs::read_to_string(common::bundled().join("site.yaml")).unwrap();
    for (from, to) in [
        ("color: \"#0072B2\"", "color: \"blue\""),
        ("base_url: https://", "base_url: ftp://"),
    ] {
        let bad = site.replacen(from, to, 1);
        assert_ne!(bad, site);
        assert!(
            !site_s.is_valid(&yaml(&bad)),
            "the site schema accepts {to:?}"
        );
    }
    let run =
        std::fs::read_to_string(common::fixture("minimal").join("data/runs/cache-sweep/run.yaml"))
            .unwrap();
    for (from, to) in [
        ("title:", "titel:"),
        ("date: 2026-08-17", "date: yesterday"),
    ] {
        let bad = run.replacen(from, to, 1);
        assert_ne!(bad, run, "{from}");
        assert!(
            !run_s.is_valid(&yaml(&bad)),
            "the run schema accepts {to:?}"
        );
    }
}

/// Every `pattern` in a schema.
fn patterns(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("pattern", serde_json::Value::String(p)) => out.push(p.clone()),
                    _ => patterns(x, out),
                }
            }
        }
        serde_json::Value::Array(xs) => xs.iter().for_each(|x| patterns(x, out)),
        _ => {}
    }
}

#[test]
fn the_schema_version_pattern_agrees_with_the_parser() {
    // One version pattern, the same in every schema and field.
    let mut all = Vec::new();
    for name in ["finding", "run", "site"] {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("schemas/{name}.schema.json"));
        let value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        patterns(&value, &mut all);
    }
    let versions: BTreeSet<&String> = all.iter().filter(|p| p.starts_with("^[vV]?")).collect();
    assert_eq!(
        versions.len(),
        1,
        "the version patterns differ: {versions:#?}"
    );
    assert!(all.iter().filter(|p| p.starts_with("^[vV]?")).count() >= 7);
    let pattern = versions.into_iter().next().unwrap();
    let v = jsonschema::validator_for(&serde_json::json!({"type": "string", "pattern": pattern}))
        .unwrap();
    let mut n = 0;
    for s in corpus() {
        let parsed = Version::parse(&s);
        if matches!(&parsed, Err(e) if e.reason == "a number is too large") {
            continue; // a pattern cannot count digits against u64::MAX
        }
        assert_eq!(
            v.is_valid(&serde_json::json!(s)),
            parsed.is_ok(),
            "{s:?}: {parsed:?}"
        );
        n += 1;
    }
    assert!(n > 3000);
}

#[test]
fn schemas_are_published_with_the_site() {
    let (_dir, out) = build_into(&common::fixture("minimal"), &[]);
    for name in ["finding", "run", "site"] {
        let rel = format!("schemas/{name}.schema.json");
        let repo = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(&rel)).unwrap();
        assert_eq!(std::fs::read(out.join(&rel)).unwrap(), repo, "{rel}");
    }
}

// ----------------------------------------------------------- link previews

fn meta(html: &str, attr: &str, name: &str) -> Option<String> {
    let key = format!("<meta {attr}=\"{name}\" content=\"");
    let i = html.find(&key)? + key.len();
    Some(html[i..i + html[i..].find('"')?].to_string())
}

#[test]
fn every_page_has_a_link_preview() {
    let (_dir, out) = build_into(&common::bundled(), &[]);
    let mut n = 0;
    for (path, bytes) in tree(&out) {
        if !path.ends_with(".html") {
            continue;
        }
        let html = String::from_utf8(bytes).unwrap();
        if html.contains("http-equiv=\"refresh\"") {
            continue; // redirects point to their target with rel=canonical
        }
        let canonical = between(&html, "<link rel=\"canonical\" href=\"", "\"").to_string();
        assert!(
            canonical.starts_with("https://example.org/findings/"),
            "{path}"
        );
        for (attr, name) in [
            ("property", "og:title"),
            ("property", "og:description"),
            ("name", "description"),
        ] {
            let v = meta(&html, attr, name).unwrap_or_else(|| panic!("{path}: no {name}"));
            assert!(!v.trim().is_empty(), "{path}: empty {name}");
        }
        assert_eq!(meta(&html, "property", "og:url"), Some(canonical), "{path}");
        assert_eq!(
            meta(&html, "name", "twitter:card").as_deref(),
            Some("summary"),
            "{path}"
        );
        n += 1;
    }
    assert!(n > 100);
    // A finding's preview: its number and title, then its advice and summary.
    let model = model_of(&common::bundled());
    let f = model.finding(7).unwrap();
    let html = read(&out, &format!("findings/{}/index.html", f.slug));
    let title = meta(&html, "property", "og:title").unwrap();
    assert_eq!(
        title,
        "F7: Stopping the server left the engine holding the GPU"
    );
    let desc = meta(&html, "property", "og:description").unwrap();
    assert!(desc.starts_with("Stop the engine process too. "), "{desc}");
    assert_eq!(
        meta(&html, "property", "og:type").as_deref(),
        Some("article")
    );
    assert_eq!(
        meta(&html, "property", "og:url").as_deref(),
        Some("https://example.org/findings/findings/vllm-engine-core-survives-server-kill/")
    );
}

#[test]
fn new_outputs_are_listed_in_the_build_count_and_are_deterministic() {
    let site = Site::copy_of("minimal");
    let a = site.run(&["build"]);
    assert_eq!(a.code, 0, "{}", a.stderr);
    let first = tree(&site.path("public"));
    let b = site.run(&["build"]);
    assert_eq!(b.code, 0, "{}", b.stderr);
    assert_eq!(first, tree(&site.path("public")));
    for want in [
        "atom.xml",
        "engines/vllm/atom.xml",
        "engines/sglang/atom.xml",
        "findings.json",
        "f/7.json",
        "f/3.json",
        "robots.txt",
        "schemas/finding.schema.json",
        "search-index.json",
        "search.js",
        "search/index.html",
        "sitemap.xml",
        "status/open/index.html",
        "versions.js",
    ] {
        assert!(first.iter().any(|(p, _)| p == want), "no {want}");
    }
    assert!(
        !first.iter().any(|(p, _)| p == "f/12.json"),
        "drafts stay out"
    );
}

#[test]
fn new_pages_are_site_paths_for_links_and_aliases() {
    let site = Site::copy_of("minimal");
    site.edit(
        "findings/wrong-answers.md",
        "tags: [kv-cache, speculative-decoding]\n---\n",
        "tags: [kv-cache, speculative-decoding]\n---\nSee [search](/search/), [open ones](/status/open/), \
         [the feed](/atom.xml) and [the data](/findings.json).\n",
    );
    let out = site.run(&["check"]);
    assert_eq!(
        out.code, 0,
        "links to the new pages are valid: {}",
        out.stderr
    );
    site.edit(
        "findings/cache-size.md",
        "aliases: [/old/cache/]",
        "aliases: [/old/cache/, /atom.xml, /search/]",
    );
    let out = site.run(&["check"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("alias \"/atom.xml\" is a page of the site itself"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("alias \"/search/\" is a page of the site itself"),
        "{}",
        out.stderr
    );
}
