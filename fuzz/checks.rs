//! What the fuzz targets run (`fuzz/fuzz_targets/`, see docs/fuzzing.md),
//! beside them: each target includes this file (`#[path]`), and so does
//! `tests/fuzz_regressions.rs`, so that `cargo test` feeds every input the
//! fuzzer ever found to the very same code. It drives the library through
//! its public paths only (`findings::load`, `findings::results`, …), and
//! the library carries none of it.
//!
//! Each function takes arbitrary bytes, runs them through the loader the way
//! `findings check` would (or, for result files, the way an import would;
//! for pasted console reports and GitHub issues, the way `findings lint`
//! and `import` would), and panics if an invariant breaks: a panic inside
//! `findings`, a diagnostic or error that points outside its file, versions
//! that order inconsistently, a scrubbed copy that still holds a credential
//! or that no longer reads, a fact read off a scrubbed paste that holds
//! one, or a reading that differs from the same reading again.
//!
//! The functions that take records hand back what they saw, so that a test
//! feeding good records can hold them to it (`tests/fuzz_regressions.rs`).

use findings::diagnostics::Diagnostic;
use findings::load::{self, decode_text, Loaded, TableText};
use findings::results::{self, scrub, Reader};
use findings::version::Version;
use std::path::Path;

/// What a target saw of its input, for a test that feeds it good records
/// (the fuzzer itself looks only for panics).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Seen {
    /// Whether the input read as what it stands for: a finding, a run, both
    /// versions of a pair.
    pub read: bool,
    /// Every error and warning found, as `findings check` prints them:
    /// reading the record, then the checks between records.
    pub problems: Vec<String>,
}

impl Seen {
    fn problems<'d>(&mut self, diags: impl IntoIterator<Item = &'d Diagnostic>) {
        self.problems
            .extend(diags.into_iter().map(Diagnostic::to_string));
    }
}

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
pub(crate) fn finding(data: &[u8]) -> Seen {
    let file = Path::new("findings/fuzz.md");
    let mut seen = Seen::default();
    let text = match decode_text(file, data.to_vec()) {
        Ok(t) => t,
        Err(d) => {
            assert!(d.span.line >= 1);
            seen.problems([&d]);
            return seen;
        }
    };
    let (f, diags) = load::parse_finding_text(file, &text);
    assert_positions(diags.iter(), file, &text);
    seen.problems(diags.iter());
    seen.read = f.is_some();
    if let Some(f) = f {
        assert_eq!(
            format!("{:?}", f.facts),
            format!("{:?}", findings::markdown::scan(&f.body))
        );
        for l in &f.facts.links {
            assert!(l.line >= 1 && l.column >= 1);
        }
        let _ = findings::markdown::render(&f.body, &|_| None);
        let _ = findings::markdown::render_inline(&f.title);
        let _ = findings::markdown::plain_text(&f.title);
    }
    seen
}

/// The parts of a run target's input: the `run.yaml` up to the first line
/// that starts with `===`, then at each such line a table's text, named by
/// what follows `=== ` (a line `===` alone: the text of every table not
/// named).
struct RunInput<'d> {
    yaml: &'d [u8],
    tables: Vec<(Option<String>, &'d [u8])>,
}

impl<'d> RunInput<'d> {
    fn split(data: &'d [u8]) -> RunInput<'d> {
        // The starts of the lines `===` and `=== name`, each after a line end.
        let marks: Vec<usize> = memchr::memmem::find_iter(data, b"\n===")
            .map(|i| i + 1)
            .filter(|&i| matches!(data.get(i + 3), Some(b'\n' | b' ')))
            .collect();
        let Some(&first) = marks.first() else {
            return RunInput {
                yaml: data,
                tables: Vec::new(),
            };
        };
        let mut tables = Vec::new();
        for (k, &at) in marks.iter().enumerate() {
            let end = marks.get(k + 1).copied().unwrap_or(data.len());
            let line_end = memchr::memchr(b'\n', &data[at..end]).map_or(end, |n| at + n + 1);
            let name = String::from_utf8_lossy(&data[at + 3..line_end])
                .trim()
                .to_string();
            tables.push(((!name.is_empty()).then_some(name), &data[line_end..end]));
        }
        RunInput {
            yaml: &data[..first],
            tables,
        }
    }
}

/// Bytes as a run: up to the first line `===`, its `run.yaml`; after it,
/// the text of its tables (`=== name.csv` for one table's, `===` for every
/// other's). The run is read, checked against a small site, and its charts
/// drawn, as `check` does; a table named `run.yaml` is the run's own text,
/// as on the disk, and `missing.csv` is missing.
pub(crate) fn run(data: &[u8]) -> Seen {
    let input = RunInput::split(data);
    let dir = Path::new("data/runs/fuzz");
    let file = dir.join("run.yaml");
    let mut seen = Seen::default();
    let text = match decode_text(&file, input.yaml.to_vec()) {
        Ok(t) => t,
        Err(d) => {
            seen.problems([&d]);
            return seen;
        }
    };
    let texts: Vec<(Option<String>, Result<String, Diagnostic>)> = input
        .tables
        .iter()
        .map(|(name, bytes)| {
            let csv_file = dir.join(name.as_deref().unwrap_or("t.csv"));
            (name.clone(), decode_text(&csv_file, bytes.to_vec()))
        })
        .collect();
    // The text of a table, by its name; as the disk would give it.
    let text_of = |name: &str| -> Option<&Result<String, Diagnostic>> {
        texts
            .iter()
            .find(|(n, _)| n.as_deref() == Some(name))
            .or_else(|| texts.iter().find(|(n, _)| n.is_none()))
            .map(|(_, t)| t)
    };
    let tables = |name: &str| match (text_of(name), name) {
        (_, "missing.csv") => TableText::Missing,
        (_, "run.yaml") => TableText::Text(text.clone()),
        (None, _) => TableText::Text(String::new()),
        (Some(Ok(t)), _) => TableText::Text(t.clone()),
        (Some(Err(d)), _) => TableText::Unreadable(d.clone()),
    };
    let (r, diags) = load::parse_run_text(dir, &text, &tables);
    for d in diags.iter() {
        if d.file == file {
            assert_positions([d], &file, &text);
        } else {
            let name = d.file.file_name().map(|n| n.to_string_lossy().into_owned());
            match name.as_deref().and_then(text_of) {
                Some(Ok(t)) => assert_positions([d], &d.file, t),
                Some(Err(_)) => {}
                None => assert_positions([d], &d.file, ""),
            }
        }
    }
    let (site, site_diags) = load::parse_site_text(SITE);
    assert!(site_diags.is_empty());
    let mut loaded = Loaded {
        site,
        files_with_errors: diags.iter().map(|d| d.file.clone()).collect(),
        ..Loaded::default()
    };
    seen.read = r.is_some();
    seen.problems(diags.iter());
    loaded.runs.extend(r.map(std::sync::Arc::new));
    seen.problems(findings::validate::validate(&loaded).iter());
    seen
}

/// Bytes as versions: the text up to a first `\0` and the text after it.
/// Each that parses must read again as itself, and the two must compare,
/// hash and test equal consistently.
pub(crate) fn version(data: &[u8]) -> Seen {
    let mut seen = Seen::default();
    let Ok(s) = std::str::from_utf8(data) else {
        seen.problems.push("not UTF-8".into());
        return seen;
    };
    let (a, b) = s.split_once('\0').unwrap_or((s, "0"));
    let (x, y) = match (Version::parse(a), Version::parse(b)) {
        (Ok(x), Ok(y)) => (x, y),
        (x, y) => {
            seen.problems
                .extend(x.err().into_iter().chain(y.err()).map(|e| e.to_string()));
            return seen;
        }
    };
    seen.read = true;
    for v in [&x, &y] {
        assert_eq!(Version::parse(v.as_str()).as_ref(), Ok(v));
        assert_eq!(Version::parse(&v.to_string()).as_ref(), Ok(v), "{v}");
        assert_eq!(v.cmp(v), std::cmp::Ordering::Equal);
        assert!(!findings::urls::version("e", v.as_str()).is_empty());
    }
    assert_eq!(x.cmp(&y), y.cmp(&x).reverse());
    assert_eq!(x == y, x.cmp(&y) == std::cmp::Ordering::Equal);
    if x == y {
        use std::hash::{BuildHasher, RandomState};
        let s = RandomState::new();
        assert_eq!(s.hash_one(&x), s.hash_one(&y), "{x} and {y}");
    }
    seen
}

/// An error about `data` points inside it: a line it has, a column within
/// that line (or just after its end).
fn assert_inside(e: &findings::results::ReadError, data: &[u8]) {
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
pub(crate) fn result_file(data: &[u8]) {
    use findings::results::{self, scrub};
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

/// The first credential in what a read report says (its facts' values and
/// notes, its warnings): what `lint`'s comment and `import`'s `run.yaml`
/// would carry out of a paste.
fn credential_in(file: &results::ResultFile) -> Option<String> {
    let facts = file.facts.iter().flat_map(|f| {
        [f.value.as_ref().map(results::Cell::csv), f.note.clone()]
            .into_iter()
            .flatten()
    });
    let warnings = file.warnings.iter().map(|w| w.message.clone());
    facts
        .chain(warnings)
        .find(|t| scrub::holds_credential(t.as_bytes()).is_some())
}

/// The lines of the reports, each inside the text, in order, none over
/// another.
fn assert_report_lines(reports: &[results::Report], lines: usize) {
    let mut after = 0;
    for r in reports {
        let (a, b) = r.lines;
        assert!(
            after < a && a <= b && b <= lines,
            "{} after line {after}, of {lines}",
            r.location
        );
        after = b;
        for w in &r.read.warnings {
            assert!(
                w.line <= lines,
                "warning at line {} of {lines}: {w:?}",
                w.line
            );
        }
    }
}

/// Bytes as a paste that holds console reports of `reader`'s tool (one
/// target per reader, `src/results/console/`): the reports that reader
/// reads (the others' left aside), each inside the text; the same again
/// when read again, and with `\r\n` line ends; the paste scrubbed holds no
/// credential and gives the same reports, whose facts hold none; and the
/// whole paste read as `results::read` reads a file.
pub(crate) fn console(reader: Reader, data: &[u8]) -> Vec<results::Report> {
    let name = "paste.txt";
    let text = String::from_utf8_lossy(data);
    let lines = text.split('\n').count();
    let reports = results::read_reports_of(reader, name, &text).unwrap_or_else(|e| {
        assert_inside(&e, text.as_bytes());
        Vec::new()
    });
    assert_report_lines(&reports, lines);
    for r in &reports {
        assert!(
            reader.formats().contains(&r.read.format),
            "{reader:?} read {:?}",
            r.read.format
        );
    }
    let again = results::read_reports_of(reader, name, &text).unwrap_or_default();
    assert_eq!(format!("{reports:?}"), format!("{again:?}"), "read twice");
    if !text.contains('\r') {
        let crlf = text.replace('\n', "\r\n");
        let crlf = results::read_reports_of(reader, name, &crlf).unwrap_or_default();
        assert_eq!(
            format!("{reports:?}"),
            format!("{crlf:?}"),
            "with \\r\\n line ends"
        );
    }
    match scrub::scrub(name, text.as_bytes(), false) {
        Ok(s) => {
            assert_eq!(
                scrub::holds_credential(&s.bytes),
                None,
                "{:?}",
                String::from_utf8_lossy(&s.bytes)
            );
            let kept = String::from_utf8_lossy(&s.bytes);
            let read = results::read_reports_of(reader, name, &kept).unwrap_or_default();
            let at = |rs: &[results::Report]| rs.iter().map(|r| r.lines).collect::<Vec<_>>();
            assert_eq!(at(&read), at(&reports), "the scrubbed paste's reports");
            for r in &read {
                if let Some(t) = credential_in(&r.read) {
                    panic!(
                        "{}: a fact of the scrubbed paste holds a credential: {t:?}",
                        r.location
                    );
                }
            }
        }
        Err(e) => assert_inside(&e, text.as_bytes()),
    }
    if let Err(e) = results::read(name, text.as_bytes()) {
        assert_inside(&e, text.as_bytes());
    }
    reports
}

/// Bytes as what `findings lint --from-issue` reads: `gh issue view
/// --json` or a webhook payload (`src/issue.rs`). An error names the file;
/// an issue read holds only texts with something in them, in the order of
/// the thread, and reads the same again; each text, scrubbed as `lint`
/// scrubs it, holds no credential, and the reports read off it carry none
/// in their facts. What it hands back is the issue's texts, for a test.
pub(crate) fn issue(data: &[u8]) -> Option<findings::issue::Issue> {
    use findings::issue::{self, Place, ANSWER_MARKER};
    let file = "issue.json";
    let read = match issue::read(file, data) {
        Ok(i) => i,
        Err(e) => {
            assert_eq!(e.file, file);
            assert!(!e.message.is_empty() && e.to_string().starts_with("issue.json: "));
            return None;
        }
    };
    assert_eq!(issue::read(file, data).as_ref(), Ok(&read), "read twice");
    assert!(read.texts.len() + read.answers <= read.comments + 1);
    let _ = read.read_what();
    let mut last = None;
    for t in &read.texts {
        assert!(!t.body.trim().is_empty() && !t.body.contains(ANSWER_MARKER));
        let n = match t.place {
            Place::Body => 0,
            Place::Comment(n) => n,
            Place::TheComment => 1,
        };
        assert!(last.is_none_or(|l| l < n), "{:?} after {last:?}", t.place);
        assert!(
            n <= read.comments,
            "{:?} of {} comments",
            t.place,
            read.comments
        );
        last = Some(n);
        let name = t.place.name();
        let Ok(kept) = scrub::scrub(&name, t.body.as_bytes(), false) else {
            continue;
        };
        assert_eq!(scrub::holds_credential(&kept.bytes), None, "{name}");
        match results::read(&name, &kept.bytes) {
            Ok(f) => {
                let lines = String::from_utf8_lossy(&kept.bytes).split('\n').count();
                assert_report_lines(&f.reports, lines);
                if let Some(c) = credential_in(&f) {
                    panic!("{name}: a fact read off the scrubbed text holds a credential: {c:?}");
                }
            }
            Err(e) => assert_inside(&e, &kept.bytes),
        }
    }
    Some(read)
}
