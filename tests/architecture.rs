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
    &["serve", "authoring", "init", "audit", "import"],
    // `findings lint`, and `findings trends` (the model's trends, said as
    // audit says its report).
    &["lint", "trends"],
    // (What `findings compare` reads, runs and files as lint does, is the
    // binary's: `src/main/compare/inputs.rs`. What the fuzz targets run is
    // theirs: `fuzz/checks.rs`, included by `tests/fuzz_regressions.rs`.)
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

// Inside `src/results/`: the files stand in layers of their own. The
// shared layer (the vocabulary, the table, what a file read is) names no
// reader; the readers build on it; what names every reader (the scan of a
// paste, the detection of a format, the reading of a file, the documented
// keys) stands above them. No file imports one above its own, so the
// folder has no import cycle.

/// The shared layer of `src/results/` (paths under it): what every reader
/// builds on. A file here may import only files here.
const RESULTS_SHARED: &[&str] = &[
    "error.rs",
    "json.rs",
    "fields.rs",
    "dates.rs",
    "table.rs",
    "vocabulary.rs",
    "format.rs",
    "file.rs",
    "console/text.rs",
    "console/context.rs",
    "console/report.rs",
];

/// The readers of `src/results/`: of the files the tools write, of a run
/// folder, and of the console reports people paste.
const RESULTS_READERS: &[&str] = &[
    "vllm.rs",
    "sglang.rs",
    "trtllm.rs",
    "genai_perf.rs",
    "aiperf.rs",
    "llama_bench.rs",
    "guidellm.rs",
    "inferlint.rs",
    "lm_eval.rs",
    "lm_eval_samples.rs",
    "console/vllm.rs",
    "console/sglang.rs",
    "console/trtllm.rs",
    "console/llama_bench.rs",
    "console/genai_perf.rs",
    "console/lm_eval.rs",
    "console/accuracy.rs",
];

fn results_dir() -> PathBuf {
    src().join("results")
}

/// The module path of a file of `src/results/` (`console/vllm.rs` →
/// `results::console::vllm`, `console/mod.rs` → `results::console`).
fn module_path(rel: &str) -> Vec<String> {
    let mut m = vec!["results".to_string()];
    let rel = rel.trim_end_matches(".rs");
    for part in rel.split('/') {
        if part != "mod" {
            m.push(part.to_string());
        }
    }
    m
}

/// The spans of the inline modules of `code` (`mod tests { … }`), where a
/// `super::` climbs out of the inline module first, not out of the file.
fn inline_mods(code: &str) -> Vec<(usize, usize)> {
    let b = code.as_bytes();
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(k) = code[from..].find("mod ") {
        let at = from + k;
        from = at + 4;
        if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_') {
            continue;
        }
        let rest = &code[at + 4..];
        let name_len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let after = rest[name_len..].trim_start();
        if name_len == 0 || !after.starts_with('{') {
            continue;
        }
        let open = code.len() - after.len();
        let mut depth = 0;
        let mut end = code.len();
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        spans.push((at, end));
    }
    spans
}

/// Resolves the path that `s` starts with (after its first segment was
/// taken as `base`), with use groups (`{a, b::c}`), into the modules it
/// names: it descends while a segment is a module of `known`, and the
/// module where it stops is the one used (`super::file::Fact` uses
/// `results::file`; `super::Fact` uses `results`).
fn resolve(
    base: Vec<String>,
    s: &str,
    known: &BTreeSet<Vec<String>>,
    out: &mut BTreeSet<Vec<String>>,
) {
    let mut cur = base;
    let mut s = s;
    loop {
        if let Some(group) = s.strip_prefix('{') {
            let mut depth = 0;
            let mut item_start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        resolve(cur.clone(), group[item_start..i].trim(), known, out);
                        return;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        resolve(cur.clone(), group[item_start..i].trim(), known, out);
                        item_start = i + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let name: String = s
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() || name == "self" {
            out.insert(cur);
            return;
        }
        let mut next = cur.clone();
        next.push(name.clone());
        if !known.contains(&next) {
            out.insert(cur);
            return;
        }
        cur = next;
        match s[name.len()..].strip_prefix("::") {
            Some(rest) => s = rest,
            None => {
                out.insert(cur);
                return;
            }
        }
    }
}

/// The modules of `src/results/` that `code`, the file at module path
/// `me`, imports or names: through `crate::results::`, `super::` (out of
/// its inline modules first), `self::`, and the modules it declares.
fn results_uses(code: &str, me: &[String], known: &BTreeSet<Vec<String>>) -> BTreeSet<Vec<String>> {
    let children: BTreeSet<String> = known
        .iter()
        .filter(|m| m.len() == me.len() + 1 && m.starts_with(me))
        .map(|m| m[me.len()].clone())
        .collect();
    let inline = inline_mods(code);
    let b = code.as_bytes();
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < code.len() {
        let starts_path =
            i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':');
        let rest = &code[i..];
        if !starts_path || !(b[i].is_ascii_alphabetic() || b[i] == b'_') {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let word_len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let word = &rest[..word_len];
        let Some(after) = rest[word_len..].strip_prefix("::") else {
            i += word_len;
            continue;
        };
        match word {
            "crate" => {
                if let Some(r) = after.strip_prefix("results") {
                    match r.strip_prefix("::") {
                        Some(r) => resolve(vec!["results".into()], r, known, &mut out),
                        None => {
                            out.insert(vec!["results".into()]);
                        }
                    }
                }
            }
            "super" => {
                let mut climbs: usize = 1;
                let mut r = after;
                while let Some(more) = r.strip_prefix("super::") {
                    climbs += 1;
                    r = more;
                }
                let inside = inline.iter().filter(|(a, z)| *a < i && i < *z).count();
                let up = climbs.saturating_sub(inside);
                let base = me[..me.len().saturating_sub(up)].to_vec();
                resolve(base, r, known, &mut out);
                i = code.len() - r.len();
                continue;
            }
            "self" => resolve(me.to_vec(), after, known, &mut out),
            w if children.contains(w) => resolve(me.to_vec(), rest, known, &mut out),
            _ => {}
        }
        i += word_len + 2;
    }
    out.remove(me);
    out
}

/// Each file of `src/results/` (by its path there) and the files it
/// imports.
fn results_graph() -> BTreeMap<String, BTreeSet<String>> {
    let dir = results_dir();
    let files: Vec<(String, String)> = rust_files(&dir)
        .into_iter()
        .map(|f| {
            let rel = f
                .strip_prefix(&dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, code_only(&std::fs::read_to_string(&f).unwrap()))
        })
        .collect();
    let by_module: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|(rel, _)| (module_path(rel), rel.clone()))
        .collect();
    let known: BTreeSet<Vec<String>> = by_module.keys().cloned().collect();
    files
        .iter()
        .map(|(rel, code)| {
            let used = results_uses(code, &module_path(rel), &known)
                .iter()
                .filter_map(|m| by_module.get(m).cloned())
                .collect();
            (rel.clone(), used)
        })
        .collect()
}

#[test]
fn results_shared_layer_names_no_reader() {
    let g = results_graph();
    for f in RESULTS_SHARED.iter().chain(RESULTS_READERS) {
        assert!(
            g.contains_key(*f),
            "src/results/{f} is listed in tests/architecture.rs but does not exist"
        );
    }
    let mut wrong = Vec::new();
    for shared in RESULTS_SHARED {
        for used in &g[*shared] {
            if !RESULTS_SHARED.contains(&used.as_str()) {
                let what = if RESULTS_READERS.contains(&used.as_str()) {
                    "the reader"
                } else {
                    ""
                };
                wrong.push(
                    format!("src/results/{shared} uses {what} src/results/{used}")
                        .replace("  ", " "),
                );
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "a file of the shared layer of src/results/ (RESULTS_SHARED) may import only files of that layer; move what it needs into the layer, or what it holds above the readers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn results_files_import_no_cycle() {
    let g = results_graph();
    // A depth-first walk: a file met again while on the path closes a cycle.
    fn walk<'g>(
        f: &'g str,
        g: &'g BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<&'g str>,
        done: &mut BTreeSet<&'g str>,
    ) -> Option<Vec<String>> {
        if let Some(k) = path.iter().position(|p| *p == f) {
            let mut cycle: Vec<String> = path[k..].iter().map(|s| s.to_string()).collect();
            cycle.push(f.to_string());
            return Some(cycle);
        }
        if !done.insert(f) {
            return None;
        }
        path.push(f);
        for used in &g[f] {
            if let Some(c) = walk(used, g, path, done) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for f in g.keys() {
        if let Some(cycle) = walk(f, &g, &mut Vec::new(), &mut done) {
            panic!(
                "the files of src/results/ import one another in a circle: {}",
                cycle.join(" → ")
            );
        }
    }
}

#[test]
fn the_results_reader_of_paths_resolves_super_groups_and_tests() {
    let known: BTreeSet<Vec<String>> = [
        "mod.rs",
        "file.rs",
        "vllm.rs",
        "console/mod.rs",
        "console/text.rs",
        "console/vllm.rs",
    ]
    .iter()
    .map(|f| module_path(f))
    .collect();
    let code = code_only(
        "use super::text::bare;\nuse super::{report, Taken};\nuse crate::results::{file::{Fact, Out}, vllm};\n// super::super::mod\nfn f() { vllm::x(); }\n#[cfg(test)]\nmod tests { use super::*; fn g() { super::super::text::lines(\"\"); } }",
    );
    let used = results_uses(&code, &module_path("console/vllm.rs"), &known);
    let want: BTreeSet<Vec<String>> = ["console/text.rs", "console/mod.rs", "file.rs", "vllm.rs"]
        .iter()
        .map(|f| module_path(f))
        .collect();
    assert_eq!(used, want);
}
