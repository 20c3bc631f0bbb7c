//! The shape of the code, checked like behaviour: the stages of the build
//! are modules stacked in layers, and a module may use the modules of the
//! layers below its own, never one of its own layer or above. That keeps
//! the dependencies pointing one way (no cycle can form), so each stage can
//! be read, tested and changed alone. Also: no source file grows past
//! [`MAX_LINES`], and every file opens with a `//!` paragraph saying its job.
//!
//! The layers are listed here and drawn in `docs/architecture.md`; a new
//! top-level module must be placed in one of them.
#![allow(missing_docs)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules of the library, bottom layer first. A module may
/// use any module of a lower layer. `lib.rs` and `main.rs` sit above them
/// all.
const LAYERS: &[&[&str]] = &[
    // Helpers every stage shares, and the vocabulary of diagnostics.
    &["util", "figures", "diagnostics", "version", "assets"],
    // The record types as the files describe them.
    &["record"],
    // What records mean: version states, the site's addresses, where files go.
    &["state", "urls", "sink"],
    // Libraries of the stages: Markdown (with highlighting), charts, and
    // the benchmark tools' result files.
    // ... runs set side by side, and a GitHub issue's texts.
    &["markdown", "chart", "results", "checks", "compare", "issue"],
    // What a run's evidence shows of a finding's problem (read through the
    // checks' view of a run).
    &["symptoms"],
    // Stage 1.
    &["load"],
    // Stage 2.
    &["validate"],
    // Stage 3.
    &["model"],
    // Stage 4: what pages and outputs share (templates, cards, charts,
    // links, what a rebuild may reuse) ...
    &["render"],
    // ... then the pages, and the generated files beside them.
    &["pages", "outputs"],
    // Stage 5.
    &["write"],
    // What `serve` keeps from one build to the next.
    &["incremental"],
    // The pipeline that runs the stages.
    &["pipeline"],
    // Commands and tools over the pipeline.
    &["serve", "authoring", "init", "audit", "import", "fuzz"],
    // `findings lint`, and `findings trends` (the model's trends, said as
    // audit says its report).
    &["lint", "trends"],
    // `findings compare` reads runs and files as lint does.
    &["compare_inputs"],
];

/// The longest a source file may be, in lines.
const MAX_LINES: usize = 800;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rs") {
            out.push(e.path().to_path_buf());
        }
    }
    out
}

/// The top-level module a file belongs to (`src/load/run.rs` → `load`),
/// or `None` for the crate's root files.
fn module_of(file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    let name = first.trim_end_matches(".rs").to_string();
    (name != "lib" && name != "main").then_some(name)
}

/// `code` without comments, string literals and character literals, so
/// that only paths the compiler sees are read (a doc comment may link to
/// any module, and a string may hold `//`).
fn code_only(code: &str) -> String {
    let b = code.as_bytes();
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &code[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |k| k + 2);
        } else if rest.starts_with("r\"") || rest.starts_with("r#") {
            let hashes = rest[1..].bytes().take_while(|&c| c == b'#').count();
            if rest.as_bytes().get(1 + hashes) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            let close = format!("\"{}", "#".repeat(hashes));
            let body = &rest[2 + hashes..];
            i += 2 + hashes + body.find(&close).map_or(body.len(), |k| k + close.len());
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{1}'), or a lifetime ('a).
            let lit = if rest[1..].starts_with('\\') {
                rest[2..].find('\'').map(|k| k + 3)
            } else {
                let c = rest[1..].chars().next().map_or(0, char::len_utf8);
                (rest[1 + c..].starts_with('\'')).then_some(c + 2)
            };
            match lit {
                Some(n) => {
                    i += n;
                    out.push_str("' '");
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The top-level modules `code` names through `crate::`, in `use crate::x`,
/// `use crate::{x, y::z}` and paths like `crate::x::f()`.
fn uses(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(k) = rest.find("crate::") {
        let before = rest[..k].chars().next_back();
        rest = &rest[k + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `$crate::`, `my_crate::`
        }
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level names of a use group, nested groups skipped.
            let mut depth = 0;
            let mut name = String::new();
            let mut at_start = true;
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        if !name.is_empty() {
                            out.insert(std::mem::take(&mut name));
                        }
                        at_start = true;
                    }
                    c if depth == 0 && at_start && (c.is_alphanumeric() || c == '_') => {
                        name.push(c)
                    }
                    c if depth == 0 && (!c.is_whitespace() || !name.is_empty()) => at_start = false,
                    _ => {}
                }
            }
            if !name.is_empty() {
                out.insert(name);
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Each top-level module and the modules it uses, from the sources.
fn graph() -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let mut g: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for file in rust_files(&src()) {
        let Some(module) = module_of(&file) else {
            continue;
        };
        let code = code_only(&std::fs::read_to_string(&file).unwrap());
        let rel = file.strip_prefix(src()).unwrap().display().to_string();
        let entry = g.entry(module.clone()).or_default();
        for used in uses(&code) {
            if used != module {
                entry.entry(used).or_default().push(format!("src/{rel}"));
            }
        }
    }
    g
}

#[test]
fn every_module_has_a_layer() {
    let missing: Vec<String> = graph()
        .keys()
        .filter(|m| layer_of(m).is_none())
        .cloned()
        .collect();
    assert!(
        missing.is_empty(),
        "modules in no layer of LAYERS (tests/architecture.rs): {missing:?}; place each, and draw it in docs/architecture.md"
    );
}

#[test]
fn dependencies_point_down_the_layers() {
    let mut wrong = Vec::new();
    for (module, used) in graph() {
        let Some(mine) = layer_of(&module) else {
            continue;
        };
        for (other, files) in used {
            match layer_of(&other) {
                Some(theirs) if theirs < mine => {}
                Some(theirs) => wrong.push(format!(
                    "{module} (layer {mine}) uses {other} (layer {theirs}) in {}",
                    files.join(", ")
                )),
                None => {} // not a module of ours (e.g. a macro's path)
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "a module may use only the layers below its own:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_source_file_is_too_long() {
    let long: Vec<String> = rust_files(&src())
        .into_iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(&f).unwrap().lines().count();
            (n > MAX_LINES).then(|| format!("{} has {n} lines", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "source files over {MAX_LINES} lines (split them by concern; move long tests to their own file):\n{}",
        long.join("\n")
    );
}

#[test]
fn every_source_file_says_its_job() {
    let silent: Vec<String> = rust_files(&src())
        .into_iter()
        .filter(|f| {
            !std::fs::read_to_string(f)
                .unwrap()
                .trim_start()
                .starts_with("//!")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        silent.is_empty(),
        "files without a `//!` paragraph at the top: {silent:?}"
    );
}

#[test]
fn the_reader_of_paths_sees_through_comments_and_strings() {
    let code = code_only(
        "use crate::{a, b::{c, d}, e as f};\n// crate::g\nlet s = \"crate::h\"; let c = '\"'; fn x<'a>(y: &'a str) { crate::i::j(r#\"crate::k\"#) }",
    );
    let want: BTreeSet<String> = ["a", "b", "e", "i"].iter().map(|s| s.to_string()).collect();
    assert_eq!(uses(&code), want);
}
