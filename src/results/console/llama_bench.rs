//! llama-bench's default output, read from its printing code
//! (`tools/llama-bench/llama-bench.cpp`, `markdown_printer`): a Markdown
//! table of `model`, `size`, `params`, `backend`, the settings that are off
//! their defaults or swept (`ngl`, `threads`, `n_batch`, `type_k`, `fa`,
//! `mmap`, …), `test` and `t/s`, one row per test, then a line `build:
//! <commit> (<number>)` after a blank one.
//!
//! A test is `pp512` (512 prompt tokens), `tg128` (128 generated),
//! `pp512+tg128`, with `@ d4096` for a depth already in the KV cache; builds
//! of 2023 wrote `pp 512`, `tg 128` and types such as `llama 7B mostly
//! Q4_0`. `t/s` is the mean `±` the standard deviation over the
//! repetitions. The build is the version (llama.cpp releases are tagged
//! `b<number>`); where the table has no `build:` line after it, the last
//! one before it is taken (a paste that copied the command's output in a
//! fence and the table after), with a note. The settings columns go to
//! `settings` as `name=value`, the flash-attention column to `flash_attn`,
//! the backend to `backends`.

use super::context::{build_line, Context};
use super::report::{starts_report, warning, Taken};
use super::text::{number, pipe_cells};
use crate::results::file::{Fact, Out};
use crate::results::format::Format;
use crate::results::vocabulary::{From, Keys, ResultCol as R};

/// The columns of llama-bench's table.
pub(super) static TABLE: Keys = Keys {
    tool: "llama.cpp `llama-bench` Markdown table",
    results: &[
        (R::Tool, From::Derived("`llama-bench`")),
        (R::ToolVersion, From::Derived("the `build: <commit> (<number>)` line, as `b<number>`")),
        (R::Engine, From::Derived("`llama.cpp`")),
        (R::Version, From::Derived("the `build:` line's number, as llama.cpp tags its releases (`b<number>`)")),
        (R::Model, From::Key("model")),
        (R::Test, From::Derived("`test`, without its spaces (`pp 512` of 2023 is `pp512`)")),
        (R::NPrompt, From::Derived("`test`: `pp512` (or `pp 512`) is 512; 0 for a generation test")),
        (R::NGen, From::Derived("`test`: `tg128` is 128; 0 for a prompt test")),
        (R::NDepth, From::Derived("`test`: `@ d4096` is 4096")),
        (R::TokensPerS, From::Derived("`t/s`: the number before `±`")),
        (R::TokensPerSStd, From::Derived("`t/s`: the number after `±`")),
        (R::Backends, From::Key("backend")),
        (R::FlashAttn, From::Key("fa")),
        (R::Settings, From::Derived("the other columns but `size` and `params` (`ngl`, `threads`, `n_batch`, `type_k`, `mmap`, …), as `name=value`")),
        (R::ModelParams, From::Derived("`params`: `20.91 B` is 20,910,000,000 (`M` millions, `K` thousands)")),
    ],
    requests: &[],
    series: &[],
};

/// `pp512`, `tg 128`, `pp512+tg128 @ d4096`: prompt, generated, depth.
fn test(t: &str) -> Option<(f64, f64, Option<f64>)> {
    let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    let (main, depth) = match t.split_once('@') {
        Some((m, d)) => (
            m.to_string(),
            Some(d.strip_prefix('d')?.parse::<f64>().ok()?),
        ),
        None => (t.clone(), None),
    };
    let (mut pp, mut tg) = (0.0, 0.0);
    for part in main.split('+') {
        if let Some(n) = part.strip_prefix("pp") {
            pp = n.parse().ok()?;
        } else if let Some(n) = part.strip_prefix("tg") {
            tg = n.parse().ok()?;
        } else {
            return None;
        }
    }
    Some((pp, tg, depth))
}

/// A count of parameters as the table writes it: `20.91 B`, `354.55 M`.
fn params(cell: &str) -> Option<f64> {
    let c = cell.trim();
    let (n, scale) = match c.char_indices().last()? {
        (i, 'B' | 'b') => (&c[..i], 1e9),
        (i, 'M' | 'm') => (&c[..i], 1e6),
        (i, 'K' | 'k') => (&c[..i], 1e3),
        _ => (c, 1.0),
    };
    number(n).map(|x| (x * scale).round())
}

pub(super) fn read(name: &str, lines: &[&str], start: usize, cx: &Context) -> Taken {
    let header = pipe_cells(lines[start]).unwrap_or_default();
    let mut out = Out {
        tool: "llama-bench",
        ..Out::default()
    };
    let mut i = start + 1;
    if lines.get(i).and_then(|l| pipe_cells(l)).is_some_and(|c| {
        c.iter()
            .all(|x| !x.is_empty() && x.chars().all(|ch| ch == '-' || ch == ':'))
    }) {
        i += 1;
    }
    let mut rows = Vec::new();
    let mut last = i - 1;
    while i < lines.len() && !starts_report(lines, i) {
        let Some(c) = pipe_cells(lines[i]) else { break };
        if c.len() != header.len() {
            out.warnings.push(warning(
                name,
                i + 1,
                format!(
                    "the table that starts at line {} is cut off at line {}: that row has {} of its {} cells and is left out",
                    start + 1,
                    i + 1,
                    c.len(),
                    header.len()
                ),
            ));
            last = i;
            i += 1;
            break;
        }
        rows.push((i, c));
        last = i;
        i += 1;
    }
    // Its `build:` line, after a blank line.
    let mut build = None;
    for (j, &l) in lines.iter().enumerate().skip(i).take(3) {
        if let Some(b) = build_line(l) {
            build = Some((j, b));
            break;
        }
        if !l.trim().is_empty() {
            break;
        }
    }
    let next = match &build {
        Some((j, _)) => {
            last = *j;
            j + 1
        }
        None => i,
    };
    let (commit, number_, note) = match (&build, &cx.build) {
        (Some((_, (c, n))), _) => (Some(c.clone()), Some(n.clone()), None),
        (None, Some((line, c, n))) => (
            Some(c.clone()),
            Some(n.clone()),
            Some(format!(
                "from the `build:` line at line {line}, before the table"
            )),
        ),
        (None, None) => (None, None, None),
    };
    if number_.is_none() {
        out.warnings.push(warning(
            name,
            start + 1,
            format!(
                "the table that starts at line {} has no `build:` line after it: the version is not stated",
                start + 1
            ),
        ));
    }
    let version = number_.map(|n| format!("b{n}"));
    out.tool_version = version.clone();
    for (_, c) in &rows {
        let mut row = crate::results::table::Row::default();
        let mut settings = Vec::new();
        for (col, cell) in header.iter().zip(c) {
            match *col {
                "model" => row.set_text(R::Model, Some(*cell)),
                "size" => {}
                "params" => row.set_num(R::ModelParams, params(cell)),
                "backend" => row.set_text(R::Backends, Some(*cell)),
                "fa" => row.set_num(R::FlashAttn, number(cell)),
                "test" => {
                    if let Some((pp, tg, depth)) = test(cell) {
                        row.set_num(R::NPrompt, Some(pp));
                        row.set_num(R::NGen, Some(tg));
                        row.set_num(R::NDepth, depth);
                        row.set_text(
                            R::Test,
                            Some(crate::results::vocabulary::test_name(pp, tg, depth)),
                        );
                    }
                }
                "t/s" => {
                    let (avg, std) = cell.split_once('±').unwrap_or((cell, ""));
                    row.set_num(R::TokensPerS, number(avg));
                    row.set_num(R::TokensPerSStd, number(std));
                }
                other => settings.push(format!("{other}={cell}")),
            }
        }
        if !settings.is_empty() {
            row.set_text(R::Settings, Some(settings.join(", ")));
        }
        row.set_text(R::Tool, Some("llama-bench"));
        row.set_text(R::Engine, Some("llama.cpp"));
        row.set_text(R::Version, version.clone());
        row.set_text(R::ToolVersion, version.clone());
        out.results.push(row);
    }
    if let (Some(c), Some(v)) = (commit, &version) {
        let mut f = Fact::text("build_commit", c, name);
        let mut vf = Fact::text("version", v.as_str(), name);
        if let Some(n) = &note {
            f = f.note(n.clone());
            vf = vf.note(n.clone());
        }
        out.facts.push(f);
        out.facts.push(vf);
    }
    if let Some((line, gpu)) = &cx.gpu {
        out.facts.push(
            Fact::text("hardware", gpu.as_str(), name)
                .note(format!("from the backend's line at line {line}")),
        );
    }
    if rows.is_empty() {
        out.warnings.push(warning(
            name,
            start + 1,
            format!("the table that starts at line {} has no rows", start + 1),
        ));
    }
    Taken {
        format: Format::LlamaBenchReport,
        first: start,
        last,
        out,
        next: next.max(start + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_old_and_new() {
        assert_eq!(test("pp512"), Some((512.0, 0.0, None)));
        assert_eq!(test("tg 128"), Some((0.0, 128.0, None)));
        assert_eq!(test("pp4096+tg128"), Some((4096.0, 128.0, None)));
        assert_eq!(test("tg128 @ d512"), Some((0.0, 128.0, Some(512.0))));
        assert_eq!(test("bogus"), None);
    }

    #[test]
    fn params_as_the_table_writes_them() {
        assert_eq!(params("20.91 B"), Some(20_910_000_000.0));
        assert_eq!(params("354.55 M"), Some(354_550_000.0));
        assert_eq!(params("7"), Some(7.0));
        assert_eq!(params("?"), None);
    }
}
