//! What the fuzz targets run (`fuzz/`, see docs/fuzzing.md), kept in the
//! library so that `cargo test` can feed every input the fuzzer ever found
//! to the very same code (`tests/fuzz_regressions.rs`).
//!
//! Each function takes arbitrary bytes, runs them through the loader the way
//! `findings check` would (or, for result files, the way an import would),
//! and panics if an invariant breaks: a panic inside `findings`, a
//! diagnostic or error that points outside its file, versions that order
//! inconsistently, or a scrubbed result file that still holds a credential.

use crate::diagnostics::Diagnostic;
use crate::load::{self, decode_text, Loaded, TableText};
use crate::version::Version;
use std::path::Path;

/// A small `site.yaml` for the run target's records to be checked against.
const SITE: &str = "title: Fuzz\nbase_url: https://example.org/\ngroups:\n  - id: g\n    title: G\nengines:\n  - id: vllm\n    name: vLLM\n    color: \"#0072b2\"\n    releases: [\"0.30\"]\n  - id: sglang\n    name: SGLang\n    color: \"#d55e00\"\n";

/// Every diagnostic is in `file` and, when it has a position, inside `text`.
fn assert_positions<'d>(diags: impl IntoIterator<Item = &'d Diagnostic>, file: &Path, text: &str) {
    let lines = text.split('\n').count();
    for d in diags {
        assert_eq!(d.file, file, "{d}");
        assert!(d.span.line <= lines, "line {} of {lines}: {d}", d.span.line);
        if d.span.line > 0 {
            let line = text.split('\n').nth(d.span.line - 1).unwrap_or("");
            assert!(
                d.span.column <= line.chars().count() + 1,
                "column {} of {:?}: {d}",
                d.span.column,
                line
            );
        }
        let _ = d.to_string();
    }
}

/// Bytes as `findings/fuzz.md`: decoded, read as a finding, its body
/// scanned and rendered, its title rendered.
pub fn finding(data: &[u8]) {
    let file = Path::new("findings/fuzz.md");
    let text = match decode_text(file, data.to_vec()) {
        Ok(t) => t,
        Err(d) => {
            assert!(d.span.line >= 1);
            return;
        }
    };
    let (f, diags) = load::parse_finding_text(file, &text);
    assert_positions(diags.iter(), file, &text);
    if let Some(f) = f {
        assert_eq!(
            format!("{:?}", f.facts),
            format!("{:?}", crate::markdown::scan(&f.body))
        );
        for l in &f.facts.links {
            assert!(l.line >= 1 && l.column >= 1);
        }
        let _ = crate::markdown::render(&f.body, &|_| None);
        let _ = crate::markdown::render_inline(&f.title);
        let _ = crate::markdown::plain_text(&f.title);
    }
}

/// Bytes as a run: up to the first line `===`, its `run.yaml`; after it,
/// the text of its tables. The run is read, checked against a small site, and
/// its charts drawn, as `check` does.
pub fn run(data: &[u8]) {
    let (yaml, csv) = match data.windows(5).position(|w| w == b"\n===\n") {
        Some(i) => (&data[..i + 1], &data[i + 5..]),
        None => (data, &b""[..]),
    };
    let dir = Path::new("data/runs/fuzz");
    let file = dir.join("run.yaml");
    let Ok(text) = decode_text(&file, yaml.to_vec()) else {
        return;
    };
    let csv_file = dir.join("t.csv");
    let csv_text = decode_text(&csv_file, csv.to_vec());
    // Every table the run names has the same text, except `missing.csv`.
    let tables = |name: &str| match (&csv_text, name) {
        (_, "missing.csv") => TableText::Missing,
        (Ok(t), _) => TableText::Text(t.clone()),
        (Err(d), _) => TableText::Unreadable(d.clone()),
    };
    let (r, diags) = load::parse_run_text(dir, &text, &tables);
    for d in diags.iter() {
        if d.file != file {
            if let Ok(t) = &csv_text {
                assert_positions([d], &d.file, t);
            }
        } else {
            assert_positions([d], &file, &text);
        }
    }
    let (site, site_diags) = load::parse_site_text(SITE);
    assert!(site_diags.is_empty());
    let mut loaded = Loaded {
        site,
        files_with_errors: diags.iter().map(|d| d.file.clone()).collect(),
        ..Loaded::default()
    };
    loaded.runs.extend(r.map(std::sync::Arc::new));
    let _ = crate::validate::validate(&loaded);
}

/// Bytes as versions: the text up to a first `\0` and the text after it.
/// Each that parses must read again as itself, and the two must compare,
/// hash and test equal consistently.
pub fn version(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let (a, b) = s.split_once('\0').unwrap_or((s, "0"));
    let (Ok(x), Ok(y)) = (Version::parse(a), Version::parse(b)) else {
        return;
    };
    for v in [&x, &y] {
        assert_eq!(Version::parse(v.as_str()).as_ref(), Ok(v));
        assert_eq!(Version::parse(&v.to_string()).as_ref(), Ok(v), "{v}");
        assert_eq!(v.cmp(v), std::cmp::Ordering::Equal);
        assert!(!crate::urls::version("e", v.as_str()).is_empty());
    }
    assert_eq!(x.cmp(&y), y.cmp(&x).reverse());
    assert_eq!(x == y, x.cmp(&y) == std::cmp::Ordering::Equal);
    if x == y {
        use std::hash::{BuildHasher, RandomState};
        let s = RandomState::new();
        assert_eq!(s.hash_one(&x), s.hash_one(&y), "{x} and {y}");
    }
}

/// An error about `data` points inside it: a line it has, a column within
/// that line (or just after its end).
fn assert_inside(e: &crate::results::ReadError, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = e.to_string();
    if e.line == 0 {
        return;
    }
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(
        e.line <= lines.len(),
        "line {} of {}: {e}",
        e.line,
        lines.len()
    );
    let line = lines[e.line - 1];
    assert!(
        e.column >= 1 && e.column <= line.chars().count() + 1,
        "column {} of {line:?}: {e}",
        e.column
    );
}

/// Bytes as a benchmark result file: detected, read, scrubbed, and read as
/// a run folder. Errors point inside the bytes; the scrubbed copy holds no
/// credential, and reads whenever the original did.
pub fn result_file(data: &[u8]) {
    use crate::results::{self, scrub};
    let read = results::read("bench.json", data);
    if let Err(e) = &read {
        assert_inside(e, data);
    }
    if let Err(e) = results::detect("bench.json", data) {
        assert_inside(&e, data);
    }
    match scrub::scrub("bench.json", data, false) {
        Ok(s) => {
            assert_eq!(
                scrub::holds_credential(&s.bytes),
                None,
                "{:?}",
                String::from_utf8_lossy(&s.bytes)
            );
            if read.is_ok() {
                if let Err(e) = results::read("bench.json", &s.bytes) {
                    panic!(
                        "the scrubbed copy does not read: {e}\n{:?}",
                        String::from_utf8_lossy(&s.bytes)
                    );
                }
            }
        }
        Err(e) => assert_inside(&e, data),
    }
    let _ = scrub::holds_credential(data);
    if let Err(e) = results::read_folder(&[("bench.json".into(), data.to_vec())]) {
        let _ = e.to_string();
    }
}
