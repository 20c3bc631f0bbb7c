//! The browser's version rules (static/versions.js) against the Rust ones:
//! both are run on the shared table tests/version_cases.txt, and on a
//! generated corpus of spellings, which must give the same results.
#![allow(missing_docs)]

use findings::record::EngineEntry;
use findings::state::state_of;
use findings::version::Version;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// `node`, or None (with a note) when it is not installed.
fn node() -> Option<Command> {
    match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => Some(Command::new("node")),
        _ => {
            eprintln!(
                "SKIPPED: `node` is not installed, so the browser's scripts were not run; \
                 install Node.js to run this test"
            );
            None
        }
    }
}

// ---------------------------------------------------------------- versions

/// A line of tests/version_cases.txt.
enum Case {
    Valid(Vec<String>),
    Order(Vec<String>),
    Same(Vec<String>),
    Invalid(String, String),
    Entry(String, Box<EngineEntry>),
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
                    introduced_in: None,
                    fixed_in: None,
                    mitigated_in: None,
                    note: None,
                };
                for kv in &args[1..] {
                    let (key, vals) = kv.split_once('=').unwrap();
                    let vals: Vec<Version> =
                        vals.split(',').filter(|s| !s.is_empty()).map(v).collect();
                    match key {
                        "affected" => e.affected = vals,
                        "clean" => e.clean = vals,
                        "introduced_in" => e.introduced_in = vals.into_iter().next(),
                        "fixed_in" => e.fixed_in = vals.into_iter().next(),
                        "mitigated_in" => e.mitigated_in = vals.into_iter().next(),
                        other => panic!("line {}: unknown key {other}", k + 1),
                    }
                }
                Case::Entry(args[0].clone(), Box::new(e))
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
    let mut entries: BTreeMap<String, EngineEntry> = BTreeMap::new();
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
            Case::Entry(name, e) => {
                entries.insert(name, *e);
            }
            Case::State(name, ver, want) => {
                let got = state_of(&entries[&name], &v(&ver));
                assert_eq!(got.as_str(), want, "line {line}: {name} at {ver}");
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} cases");
}

#[test]
fn version_cases_hold_for_the_browser_rules() {
    let Some(mut node) = node() else { return };
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
    let prefixes = ["", "", "", "v", "V", "vv"];
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
        let opt = |rng: &mut Rng| rng.chance(40).then(|| one(rng));
        let (introduced_in, fixed_in, mitigated_in) = (opt(&mut rng), opt(&mut rng), opt(&mut rng));
        let s = |v: &Version| v.as_str().to_string();
        entry_json.push(serde_json::json!({
            "affected": affected.iter().map(s).collect::<Vec<_>>(),
            "clean": clean.iter().map(s).collect::<Vec<_>>(),
            "introduced_in": introduced_in.as_ref().map(s),
            "fixed_in": fixed_in.as_ref().map(s),
            "mitigated_in": mitigated_in.as_ref().map(s),
        }));
        entries.push(EngineEntry {
            engine: "x".into(),
            affected,
            clean,
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

    let Some(mut node) = node() else { return };
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
