//! llama.cpp's `llama-bench`: `-o json` (a pretty array, written test by
//! test, so a crashed run leaves it open: it is read as far as it goes,
//! with a warning), `-o jsonl` (one object per line), and `-o csv` (a
//! header, then every value quoted, booleans as `"0"`/`"1"`).
//!
//! One row per test: `n_prompt` and `n_gen` say what was measured (a
//! prompt test has `n_gen` 0, a generation test `n_prompt` 0), `avg_ts`
//! is tokens a second. The build names the engine's version: llama.cpp
//! releases are tagged `b<build_number>`. The field set grows across
//! builds; older ones have backend booleans (`cuda`, `metal`, …) instead of
//! `backends`, and `flash_attn` is a boolean or a number.

use super::dates;
use super::error::{ErrorKind, ReadError};
use super::fields::{entries, Obj};
use super::file::{push_distinct, same_format, Fact, Out};
use super::format::Format;
use super::json::Located;
use super::table::Row;
use super::vocabulary::{fill, test_name, From, Keys, ResultCol as R};
use serde_json::{Map, Value};

/// The keys of llama-bench's output.
pub(super) static KEYS: Keys = Keys {
    tool: "llama.cpp `llama-bench`",
    results: &[
        (R::Tool, From::Derived("`llama-bench`")),
        (R::ToolVersion, From::Derived("`b` and `build_number` (llama-bench is built with llama.cpp)")),
        (R::Engine, From::Derived("`llama.cpp`")),
        (R::Version, From::Derived("`b` and `build_number`, as llama.cpp tags its releases")),
        (R::Model, From::Key("model_filename|model_type")),
        (R::Test, From::Derived("`n_prompt`, `n_gen` and `n_depth`, as llama-bench's table names the test (`pp512`, `tg128`, `pp512 @ d4096`)")),
        (R::NPrompt, From::Key("n_prompt")),
        (R::NGen, From::Key("n_gen")),
        (R::NDepth, From::Key("n_depth")),
        (R::TokensPerS, From::Key("avg_ts")),
        (R::TokensPerSStd, From::Key("stddev_ts")),
        (R::Backends, From::Derived("`backends`; in older builds, the names of the backend flags that are true (`cuda`, `vulkan`, `metal`, `sycl`, `kompute`, `rpc`, `blas`)")),
        (R::FlashAttn, From::Derived("`flash_attn`: true 1, false 0, or its number (-1 auto)")),
        (R::ModelParams, From::Key("model_n_params")),
    ],
    requests: &[],
    series: &[],
};

const OLD_BACKEND_FLAGS: [(&str, &str); 7] = [
    ("cuda", "CUDA"),
    ("vulkan", "Vulkan"),
    ("metal", "Metal"),
    ("sycl", "SYCL"),
    ("kompute", "Kompute"),
    ("rpc", "RPC"),
    ("blas", "BLAS"),
];

/// A boolean as llama-bench writes it: JSON `true`/`false`, a number, or
/// CSV's quoted `"0"`/`"1"`.
fn flag(v: &Value) -> Option<f64> {
    match v {
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => super::fields::number(v).ok().flatten(),
    }
}

fn row(o: &Obj<'_>, out: &mut Out) -> Result<(), ReadError> {
    let mut row = Row::default();
    fill(KEYS.results, o, &mut row)?;
    let build = o.text("build_number")?.map(|n| format!("b{n}"));
    row.set_text(R::Engine, Some("llama.cpp"));
    row.set_text(R::Version, build.clone());
    row.set_text(R::ToolVersion, build.clone());
    if out.tool_version.is_none() {
        out.tool_version = build;
    }
    let backends = match o.text("backends")? {
        Some(b) => Some(b),
        None => {
            let on: Vec<&str> = OLD_BACKEND_FLAGS
                .iter()
                .filter(|(k, _)| o.get(k).and_then(flag) == Some(1.0))
                .map(|(_, name)| *name)
                .collect();
            (!on.is_empty()).then(|| on.join(","))
        }
    };
    row.set_text(R::Backends, backends);
    let n = |c: R| row.num(c).unwrap_or(0.0);
    let test = test_name(n(R::NPrompt), n(R::NGen), row.num(R::NDepth));
    row.set_text(R::Test, Some(test));
    row.set_num(R::FlashAttn, o.get("flash_attn").and_then(flag));
    out.results.push(row);
    if let Some(c) = o.text("build_commit")? {
        push_distinct(&mut out.facts, Fact::text("build_commit", c, o.file));
    }
    for key in ["gpu_info", "cpu_info"] {
        if let Some(h) = o.text(key)?.filter(|h| !h.is_empty()) {
            push_distinct(&mut out.facts, Fact::text("hardware", h, o.file));
            break;
        }
    }
    if let Some(d) = o.text("test_time")?.as_deref().and_then(dates::from_text) {
        push_distinct(&mut out.facts, Fact::text("date", d, o.file));
    }
    Ok(())
}

pub(super) fn read_json(
    file: &str,
    bytes: Option<&[u8]>,
    values: &[Located],
) -> Result<Out, ReadError> {
    let entries = entries(values);
    same_format(file, &entries, Format::LlamaBench)?;
    let mut out = Out {
        tool: "llama-bench",
        ..Out::default()
    };
    for e in &entries {
        row(&e.obj(file, bytes), &mut out)?;
    }
    Ok(out)
}

pub(super) fn read_csv(file: &str, text: &str) -> Result<Out, ReadError> {
    let mut out = Out {
        tool: "llama-bench",
        ..Out::default()
    };
    let mut rd = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let csv_error = |e: csv::Error| {
        let line = e.position().map_or(0, |p| p.line() as usize);
        ReadError::new(ErrorKind::Syntax, file, format!("invalid CSV: {e}")).at(line, 1)
    };
    let header = rd.headers().map_err(csv_error)?.clone();
    for record in rd.records() {
        let record = record.map_err(csv_error)?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        let map: Map<String, Value> = header
            .iter()
            .zip(record.iter())
            .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
            .collect();
        let v = Value::Object(map);
        row(&Obj::top(&v, file, None, 0, line), &mut out)?;
    }
    Ok(out)
}
