//! An inferlint run folder: what `inferlint xray` keeps of one run.
//!
//! Each file is told by its content, not its name: the client's result
//! (`bench.json` or `bench.jsonl`, in any client format of this module),
//! the two `/metrics` snapshots (`inferlint.snapshot/1`; the earlier by
//! its monotonic time is "before"), the time series
//! (`inferlint.series/1`), the engine's boot log, and `results.json` (the
//! checks inferlint ran) where present. Other files (`load.log`, the HTML
//! report) are listed as not read.
//!
//! From these come the `series` table and the facts a reviewer needs, each
//! naming its file: the engine (from the server's own metric names), its
//! version (boot log), the most requests the server ran (the largest
//! `running` of the series), preemptions during the run (after minus
//! before of `vllm:num_preemptions_total`, or of SGLang's
//! `sglang:num_retracted_requests_total`, which SGLang exports only after
//! the first retraction, so absent means 0; TensorRT-LLM has no counter,
//! and its pauses are counted from its log), the KV cache pool of the
//! start (boot log), SGLang's limit on running requests (boot log), and
//! the output tokens the server counted. The client's rows get the engine
//! and version where their file names none.

use super::bootlog;
use super::dates;
use super::detect::{self, Input};
use super::error::{ErrorKind, ReadError, Warning};
use super::fields::{self, Obj};
use super::file::{Fact, ResultFile};
use super::format::Format;
use super::json::Located;
use super::prometheus::Scrape;
use super::table::{Cell, Row, Table};
use super::vocabulary::{From, Keys, ResultCol as R, SeriesCol as S};
use serde_json::Value;

/// The keys of `run.series.jsonl`.
pub(super) static SERIES: Keys = Keys {
    tool: "inferlint `run.series.jsonl`",
    results: &[],
    requests: &[],
    series: &[
        (
            S::TS,
            From::Derived(
                "(`t_mono_ns` − the first sample's) / 10⁹ (`t_wall` where there is no `t_mono_ns`)",
            ),
        ),
        (S::Running, From::Key("running")),
        (S::Waiting, From::Key("waiting")),
        (S::KvUsage, From::Key("kv_usage")),
        (
            S::Preemptions,
            From::Derived("`preemptions` minus the first sample's"),
        ),
        (
            S::GenerationTokensPerS,
            From::Derived(
                "the change of `generation_tokens` over the time since the previous sample",
            ),
        ),
    ],
};

/// One check of inferlint's `results.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Its id (`T8`).
    pub tripwire: String,
    /// `pass`, `warn`, `fail`, `unknown` or `not_applicable`.
    pub status: String,
    /// What it found, figures included.
    pub message: String,
}

/// An inferlint run folder, read.
#[derive(Debug, Clone)]
pub struct RunFolder {
    /// The client's result files.
    pub files: Vec<ResultFile>,
    /// The time series, one row per sample.
    pub series: Table<S>,
    /// The server-side facts, each with its file.
    pub facts: Vec<Fact>,
    /// inferlint's checks, from `results.json`.
    pub checks: Vec<Check>,
    /// Files not read, by name: of no format this module reads, or the
    /// client's console report kept beside its result file (the file holds
    /// the same figures; a folder without one reads the console).
    pub not_read: Vec<String>,
    /// The format of each file read, by name, in name order.
    pub formats: Vec<(String, Format)>,
    /// Things worth a look.
    pub warnings: Vec<Warning>,
}

impl RunFolder {
    /// The first fact named `name`.
    pub fn fact(&self, name: &str) -> Option<&Fact> {
        self.facts.iter().find(|f| f.name == name)
    }
}

struct Snapshot<'a> {
    file: &'a str,
    mono_ns: Option<f64>,
    wall: Option<f64>,
    scrape: Scrape,
}

fn snapshot<'a>(file: &'a str, bytes: &[u8], v: &Located) -> Result<Snapshot<'a>, ReadError> {
    let o = Obj::top(&v.value, file, Some(bytes), v.offset, v.line);
    Ok(Snapshot {
        file,
        mono_ns: o.num("t_mono_ns")?,
        wall: o.num("t_wall")?,
        scrape: Scrape::parse(&o.text("text")?.unwrap_or_default()),
    })
}

/// The engine whose metrics a scrape holds.
fn engine_of(s: &Scrape) -> Option<&'static str> {
    if s.has_prefix("vllm:") {
        Some("vllm")
    } else if s.has_prefix("sglang:") {
        Some("sglang")
    } else if s.has_prefix("trtllm_") {
        Some("tensorrt-llm")
    } else {
        None
    }
}

pub(super) fn read_folder(files: &[(String, Vec<u8>)]) -> Result<RunFolder, ReadError> {
    let mut sorted: Vec<&(String, Vec<u8>)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut folder = RunFolder {
        files: Vec::new(),
        series: Table::default(),
        facts: Vec::new(),
        checks: Vec::new(),
        not_read: Vec::new(),
        formats: Vec::new(),
        warnings: Vec::new(),
    };
    let mut snaps = Vec::new();
    let mut series_engine: Option<(String, &str)> = None;
    let mut series_file = None;
    let mut boot: Option<(&str, bootlog::Boot)> = None;
    let mut pasted = Vec::new();
    for (name, bytes) in sorted {
        super::file::check_size(name, bytes)?;
        let input = detect::parse_input(name, bytes)?;
        let format = match detect::classify(name, &input) {
            Ok(f) => f,
            Err(e) if e.kind == ErrorKind::UnknownFormat => {
                folder.not_read.push(name.clone());
                continue;
            }
            Err(e) => return Err(e),
        };
        folder.formats.push((name.clone(), format));
        match (format, &input) {
            (Format::InferlintSnapshot, Input::Json(p)) => {
                for v in &p.values {
                    snaps.push(snapshot(name, bytes, v)?);
                }
            }
            (Format::InferlintSeries, Input::Json(p)) => {
                if series_file.is_some() {
                    folder.warnings.push(warning(
                        name,
                        "a second time series in the folder: only the first is read",
                    ));
                    continue;
                }
                series_file = Some(name.as_str());
                let engine = p
                    .values
                    .first()
                    .and_then(|h| h.value.get("engine"))
                    .and_then(Value::as_str);
                series_engine = engine.map(|e| (e.to_string(), name.as_str()));
                folder.series = series(name, bytes, &p.values)?;
            }
            (Format::InferlintResults, Input::Json(p)) => {
                folder.checks = checks(name, bytes, &p.values)?
            }
            (Format::ServerLog, Input::Text(t)) => {
                if boot.is_some() {
                    folder.warnings.push(warning(
                        name,
                        "a second boot log in the folder: only the first is read",
                    ));
                    continue;
                }
                boot = Some((name.as_str(), bootlog::read(t)));
            }
            // The client's console, kept beside its result file: read
            // below only where the folder has no result file of its own.
            (f, _) if f.is_report() => pasted.push((name, bytes, input, format)),
            _ => folder
                .files
                .push(super::read::read_input(name, bytes, input, format)?),
        }
    }
    let read_pasted = folder.files.is_empty();
    for (name, bytes, input, format) in pasted {
        if read_pasted {
            folder
                .files
                .push(super::read::read_input(name, bytes, input, format)?);
        } else {
            folder.not_read.push(name.clone());
        }
    }
    if folder.files.is_empty() && snaps.is_empty() && series_file.is_none() && boot.is_none() {
        return Err(ReadError::new(
            ErrorKind::Folder,
            "run folder",
            "not an inferlint run folder: it holds no benchmark result, no snapshot, no time series and no boot log",
        ));
    }
    // Before and after by the monotonic clock; by the wall clock in
    // recordings without it.
    snaps.sort_by(|a, b| match (a.mono_ns, b.mono_ns) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        _ => a.wall.unwrap_or(0.0).total_cmp(&b.wall.unwrap_or(0.0)),
    });
    server_facts(
        &mut folder,
        &snaps,
        series_engine,
        series_file,
        boot.as_ref(),
    );
    if folder.files.is_empty() {
        if let Some(file) = counters_result(&folder, &snaps, boot.as_ref()) {
            folder.files.push(file?);
        }
    }
    fill_engine(&mut folder);
    Ok(folder)
}

/// The keys of the result a run folder without a client's file gets from
/// the server's own counters (see [`counters_result`]).
pub(super) static COUNTERS: Keys = Keys {
    tool: COUNTERS_TOOL,
    results: &[
        (R::Model, From::Derived("the boot log's model (vLLM's `'model'` of its non-default args, SGLang's `'model_path'`)")),
        (R::Completed, From::Derived("after minus before of the requests counter (vLLM `vllm:request_success_total`, SGLang `sglang:num_requests_total`, every label summed)")),
        (R::InputTokens, From::Derived("after minus before of `vllm:prompt_tokens_total` (SGLang `sglang:prompt_tokens_total`)")),
        (R::OutputTokens, From::Derived("after minus before of `vllm:generation_tokens_total` (SGLang `sglang:generation_tokens_total`)")),
        (R::DurationS, From::Derived("the monotonic time between the two snapshots (the wall clock's without it): a window that holds the run and the moments around it")),
        (R::OutputThroughput, From::Derived("`output_tokens` / `duration_s`")),
        (R::RequestThroughput, From::Derived("`completed` / `duration_s`")),
        (R::MaxConcurrency, From::Derived("`completed`, where the series shows the server holding every request of the run at once (the most `running` + `waiting` of one sample equals `completed`): all were sent at once; else empty")),
        (R::RequestRate, From::Derived("`inf` on the same condition (all sent at once); else empty")),
    ],
    requests: &[],
    series: &[],
};

const COUNTERS_TOOL: &str = "the server's counters";

/// Where a folder holds no client's result file but both snapshots: one
/// result row from the server's own counters, after minus before (output
/// and prompt tokens, completed requests) over the time between the
/// snapshots, so that a recording without a bench file still measures its
/// workload. Its tool says where the figures came from: a trend never
/// compares them with a client's as if one client had measured both (the
/// window between snapshots is longer than the client's). `None` where
/// the engine has no such counters or nothing was generated.
fn counters_result(
    folder: &RunFolder,
    snaps: &[Snapshot<'_>],
    boot: Option<&(&str, bootlog::Boot)>,
) -> Option<Result<ResultFile, ReadError>> {
    let (before, after) = (snaps.first()?, snaps.last()?);
    if snaps.len() < 2 {
        return None;
    }
    let engine = folder.fact("engine")?.value.as_ref()?.as_text()?;
    let [gen, prompt, requests] = match engine {
        "vllm" => [
            "vllm:generation_tokens_total",
            "vllm:prompt_tokens_total",
            "vllm:request_success_total",
        ],
        "sglang" => [
            "sglang:generation_tokens_total",
            "sglang:prompt_tokens_total",
            "sglang:num_requests_total",
        ],
        _ => return None,
    };
    let delta = |name: &str| {
        let (x, y) = (before.scrape.sum(name)?, after.scrape.sum(name)?);
        (y >= x).then_some(y - x)
    };
    let secs = match (after.mono_ns, before.mono_ns) {
        (Some(y), Some(x)) => (y - x) / 1e9,
        _ => after.wall? - before.wall?,
    };
    let (tokens, completed) = (delta(gen)?, delta(requests)?);
    if !(tokens > 0.0 && completed > 0.0 && secs > 0.0) {
        return None;
    }
    let mut row = Row::default();
    row.set_text(R::Model, boot.and_then(|(_, b)| b.model.as_deref()));
    row.set_num(R::Completed, Some(completed));
    row.set_num(R::InputTokens, delta(prompt));
    row.set_num(R::OutputTokens, Some(tokens));
    row.set_num(R::DurationS, Some(secs));
    row.set_num(R::OutputThroughput, Some(tokens / secs));
    row.set_num(R::RequestThroughput, Some(completed / secs));
    let held = folder
        .series
        .rows
        .iter()
        .filter_map(|r| Some(r.num(S::Running)? + r.num(S::Waiting)?))
        .fold(f64::NAN, f64::max);
    if held == completed {
        row.set_num(R::MaxConcurrency, Some(completed));
        row.set_num(R::RequestRate, Some(f64::INFINITY));
    }
    let mut results = Table::default();
    results.push(row);
    let out = super::file::Out {
        tool: COUNTERS_TOOL,
        tool_version: None,
        results,
        facts: Vec::new(),
        warnings: Vec::new(),
        ..Default::default()
    };
    Some(super::read::finish(
        after.file,
        Format::InferlintSnapshot,
        out,
        Vec::new(),
    ))
}

fn warning(file: &str, message: &str) -> Warning {
    Warning {
        file: file.to_string(),
        line: 0,
        message: message.to_string(),
    }
}

/// The facts of the server side, in a fixed order.
fn server_facts(
    folder: &mut RunFolder,
    snaps: &[Snapshot<'_>],
    series_engine: Option<(String, &str)>,
    series_file: Option<&str>,
    boot: Option<&(&str, bootlog::Boot)>,
) {
    let facts = &mut folder.facts;
    let (before, after) = match snaps {
        [] => (None, None),
        [one] => (Some(one), None),
        [first, .., last] => (Some(first), Some(last)),
    };
    // The engine: its own metric names say it best; then the series
    // header (absent in older recordings, which are vLLM's); then the log.
    let engine = snaps
        .iter()
        .find_map(|s| engine_of(&s.scrape).map(|e| (e, s.file.to_string(), None)))
        .or_else(|| {
            series_engine.as_ref().map(|(e, f)| {
                let id = match e.as_str() {
                    "trtllm" | "tensorrt-llm" | "tensorrt_llm" => "tensorrt-llm",
                    "sglang" => "sglang",
                    _ => "vllm",
                };
                (id, f.to_string(), None)
            })
        })
        .or_else(|| boot.and_then(|(f, b)| b.engine.map(|e| (e, f.to_string(), None))))
        .or_else(|| series_file.map(|f| ("vllm", f.to_string(), Some("the series header names no engine: inferlint's older recordings are vLLM's"))));
    if let Some((e, file, note)) = &engine {
        let mut fact = Fact::text("engine", *e, file);
        if let Some(n) = note {
            fact = fact.note(*n);
        }
        facts.push(fact);
    }
    let engine = engine.map(|e| e.0);
    if let Some((file, b)) = boot {
        if let Some(v) = &b.version {
            facts.push(Fact::text("version", v.clone(), file));
        }
    }
    if let Some(file) = series_file {
        for (name, col, what) in [
            ("max_running", S::Running, "running"),
            ("max_waiting", S::Waiting, "waiting"),
        ] {
            let max = folder
                .series
                .rows
                .iter()
                .filter_map(|r| r.num(col))
                .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
            let mut fact = Fact::new(name, max.map(Cell::Num), file);
            if max.is_none() {
                fact = fact.note(format!("the series has no `{what}` values: the server exported no such gauge (TensorRT-LLM: only with `enable_iter_perf_stats`)"));
            }
            facts.push(fact);
        }
    }
    preemptions(
        facts,
        engine,
        before,
        after,
        boot,
        &folder.series,
        series_file,
    );
    counted_preemptions(facts, engine, before, after);
    if let Some((file, b)) = boot {
        boot_facts(facts, file, b);
    }
    if let Some(file) = series_file {
        counter_cadence(facts, &folder.series, file);
    }
    if let Some(t2) = folder.checks.iter().find(|c| c.tripwire == "T2") {
        let value = match t2.status.as_str() {
            "fail" | "warn" => Some(Cell::Text("yes".into())),
            "pass" => Some(Cell::Text("no".into())),
            _ => None,
        };
        let note = match &value {
            Some(_) => format!("inferlint T2: {}", t2.message),
            None => format!(
                "unknown: inferlint's T2 says `{}`: {}",
                t2.status, t2.message
            ),
        };
        facts.push(Fact::new("engine_outlived_server", value, "results.json").note(note));
    }
    if let Some((file, b)) = boot {
        if let Some(t) = b.kv_tokens {
            let mut fact = Fact::num("kv_cache_tokens", t, file);
            if !b.kv_tokens_before.is_empty() {
                let earlier: Vec<String> = b
                    .kv_tokens_before
                    .iter()
                    .map(|x| super::table::format_number(*x))
                    .collect();
                fact = fact.note(format!(
                    "the last of {} prints; before it: {}",
                    earlier.len() + 1,
                    earlier.join(", ")
                ));
            }
            facts.push(fact);
        }
        if let Some(g) = b.kv_gib {
            facts.push(Fact::num("kv_cache_gib", g, file));
        }
        if let Some(n) = b.running_limit.or(b.capped.as_ref().map(|c| c.0)) {
            let mut fact = Fact::num("running_limit", n, file);
            if let Some((_, why)) = &b.capped {
                fact = fact.note(format!("capped by the {why}"));
            }
            facts.push(fact);
        }
    }
    if let (Some(b), Some(a)) = (before, after) {
        let name = |e: Option<&str>| match e {
            Some("sglang") => "sglang:generation_tokens_total",
            Some("tensorrt-llm") => "trtllm_generation_tokens_total",
            _ => "vllm:generation_tokens_total",
        };
        if let (Some(x), Some(y)) = (b.scrape.sum(name(engine)), a.scrape.sum(name(engine))) {
            if y >= x {
                let secs = match (a.mono_ns, b.mono_ns) {
                    (Some(y), Some(x)) => (y - x) / 1e9,
                    _ => a.wall.unwrap_or(0.0) - b.wall.unwrap_or(0.0),
                };
                facts.push(
                    Fact::num("server_output_tokens", y - x, a.file)
                        .note(format!("`{}` after minus before", name(engine))),
                );
                if secs > 0.0 {
                    facts.push(
                        Fact::num("server_output_throughput", (y - x) / secs, a.file)
                            .note(format!("over {secs:.3} s between the snapshots")),
                    );
                }
            }
        }
    }
    if let Some(w) = before.and_then(|b| b.wall).and_then(dates::from_unix) {
        // The snapshots' wall clock as a UTC day: a benchmark tool's own
        // date (vLLM's local `20260930-201401`) outranks it (see
        // `import::draft`), so the run is dated as the tool wrote it.
        facts.push(
            Fact::text("date", w, before.map_or("", |b| b.file))
                .note("the snapshots' wall clock, as a UTC day"),
        );
    }
}

fn preemptions(
    facts: &mut Vec<Fact>,
    engine: Option<&str>,
    before: Option<&Snapshot<'_>>,
    after: Option<&Snapshot<'_>>,
    boot: Option<&(&str, bootlog::Boot)>,
    series: &Table<S>,
    series_file: Option<&str>,
) {
    let fact = match (engine, before, after) {
        (Some("tensorrt-llm"), ..) => match boot {
            Some((file, b)) => match b.pauses {
                Some(n) => Fact::num("preemptions", n as f64, file)
                    .note("paused requests: TensorRT-LLM has no preemption counter, so its log's `request ID … -> pause` lines are counted"),
                None => Fact::new("preemptions", None, file)
                    .note("unknown: TensorRT-LLM has no preemption counter, and its log has no INFO lines to count pauses from"),
            },
            None => Fact::new("preemptions", None, after.map_or("", |a| a.file))
                .note("unknown: TensorRT-LLM has no preemption counter, and the folder has no boot log"),
        },
        (Some(e), Some(b), Some(a)) => {
            let counter = if e == "sglang" { "sglang:num_retracted_requests_total" } else { "vllm:num_preemptions_total" };
            let absent_is_zero = e == "sglang";
            let read = |s: &Snapshot<'_>| s.scrape.sum(counter).or(absent_is_zero.then_some(0.0));
            match (read(b), read(a)) {
                (Some(x), Some(y)) if y >= x => Fact::num("preemptions", y - x, a.file).note(format!(
                    "`{counter}` after minus before: {} → {}{}",
                    super::table::format_number(x),
                    super::table::format_number(y),
                    if absent_is_zero && b.scrape.sum(counter).is_none() { " (absent before: SGLang exports it after the first retraction)" } else { "" }
                )),
                (Some(x), Some(y)) => Fact::new("preemptions", None, a.file).note(format!(
                    "unknown: `{counter}` went down between the snapshots ({} → {}): the server restarted",
                    super::table::format_number(x),
                    super::table::format_number(y)
                )),
                _ => Fact::new("preemptions", None, a.file).note(format!("unknown: the snapshots have no `{counter}`")),
            }
        }
        _ => {
            // No pair of snapshots: the series' own counter, if it has one.
            let values: Vec<f64> = series.rows.iter().filter_map(|r| r.num(S::Preemptions)).collect();
            match (series_file, values.last()) {
                (Some(file), Some(last)) => Fact::num("preemptions", *last, file).note("from the series (no pair of snapshots)"),
                _ => return,
            }
        }
    };
    facts.push(fact);
}

/// The preemptions the server's own counter counts, after minus before:
/// the same counter as `preemptions` on vLLM and SGLang; on TensorRT-LLM
/// (or any engine) a counter whose name says it counts preempted, paused
/// or retracted requests, when the scrape has one, else unknown with why.
fn counted_preemptions(
    facts: &mut Vec<Fact>,
    engine: Option<&str>,
    before: Option<&Snapshot<'_>>,
    after: Option<&Snapshot<'_>>,
) {
    let (Some(b), Some(a)) = (before, after) else {
        return;
    };
    let counter = match engine {
        Some("vllm") => Some("vllm:num_preemptions_total".to_string()),
        Some("sglang") => Some("sglang:num_retracted_requests_total".to_string()),
        _ => a.scrape.counter_about(&["preempt", "paus", "retract"]),
    };
    let Some(counter) = counter else {
        let gauge = if a.scrape.sum("trtllm_num_paused_requests").is_some() {
            ": `trtllm_num_paused_requests` is a gauge of the requests paused at the moment, not a count of pauses"
        } else {
            ""
        };
        facts.push(Fact::new("preemptions_counted", None, a.file).note(format!(
            "no metric of the snapshots counts preempted or paused requests{gauge}"
        )));
        return;
    };
    let absent_is_zero = engine == Some("sglang");
    let read = |s: &Snapshot<'_>| s.scrape.sum(&counter).or(absent_is_zero.then_some(0.0));
    let fact = match (read(b), read(a)) {
        (Some(x), Some(y)) if y >= x => Fact::num("preemptions_counted", y - x, a.file)
            .note(format!("`{counter}` after minus before")),
        (Some(_), Some(_)) => Fact::new("preemptions_counted", None, a.file).note(format!(
            "unknown: `{counter}` went down between the snapshots: the server restarted"
        )),
        _ => Fact::new("preemptions_counted", None, a.file)
            .note(format!("unknown: the snapshots have no `{counter}`")),
    };
    facts.push(fact);
}

/// What the boot log alone says, beyond the pool and the limit: the lines
/// that record a preemption, SGLang's limit as given, its prefix cache and
/// a hybrid model's recurrent state, and the digest of the arguments.
fn boot_facts(facts: &mut Vec<Fact>, file: &str, b: &bootlog::Boot) {
    match (b.preemption_lines, &b.first_preemption_line) {
        (Some(n), Some((line, text))) => facts.push(
            Fact::num("preemption_log_lines", n as f64, file).note(format!(
                "the first at line {line}: `{}`",
                text.replace('`', "'")
            )),
        ),
        (Some(n), None) => facts.push(Fact::num("preemption_log_lines", n as f64, file)),
        (None, _) => facts.push(
            Fact::new("preemption_log_lines", None, file)
                .note("unknown: the log has no INFO lines, where TensorRT-LLM writes its pauses"),
        ),
    }
    if let Some((_, why)) = &b.capped {
        facts.push(
            Fact::text("running_limit_cause", why.clone(), file)
                .note("`max_running_requests is capped to … by the …` in the boot log"),
        );
    }
    if let Some(n) = b.running_limit_asked {
        facts.push(
            Fact::num("running_limit_asked", n, file)
                .note("`max_running_requests` of `server_args`"),
        );
    }
    if let Some(on) = b.prefix_cache {
        facts.push(
            Fact::text("prefix_cache", if on { "on" } else { "off" }, file)
                .note("`disable_radix_cache` of `server_args`"),
        );
    }
    if let Some(yes) = b.recurrent_state {
        facts.push(
            Fact::text("recurrent_state", if yes { "yes" } else { "no" }, file).note(if yes {
                "the start allocated a Mamba cache"
            } else {
                "the start allocated no Mamba cache"
            }),
        );
    }
    if let Some((d, line)) = &b.start_args {
        facts.push(
            Fact::text("start_args", d.clone(), file)
                .note(format!("a digest of the arguments printed at line {line}")),
        );
    }
}

/// How often the generated-token counter moved while requests ran: of the
/// readings taken with requests running (`running` above 0, after the
/// first reading), those at which the counter had moved since the reading
/// before. The note gives how many values it took in all the readings.
fn counter_cadence(facts: &mut Vec<Fact>, series: &Table<S>, file: &str) {
    let rows = &series.rows;
    if rows.iter().all(|r| r.num(S::Running).is_none()) {
        return;
    }
    let with_rate: Vec<&Row<S>> = rows
        .iter()
        .filter(|r| r.num(S::GenerationTokensPerS).is_some())
        .collect();
    if with_rate.is_empty() {
        return;
    }
    let running: Vec<&&Row<S>> = with_rate
        .iter()
        .filter(|r| r.num(S::Running).is_some_and(|n| n > 0.0))
        .collect();
    let moved = running
        .iter()
        .filter(|r| r.num(S::GenerationTokensPerS).is_some_and(|x| x > 0.0))
        .count();
    let values = 1 + with_rate
        .iter()
        .filter(|r| r.num(S::GenerationTokensPerS).is_some_and(|x| x > 0.0))
        .count();
    facts.push(
        Fact::num("counter_readings", running.len() as f64, file)
            .note("readings of the series taken while requests ran, each after another reading"),
    );
    facts.push(Fact::num("counter_moves", moved as f64, file).note(format!(
        "it took {} values in all {} readings",
        values,
        with_rate.len() + 1
    )));
}

/// Gives the client's rows the engine and version the folder knows, where
/// their own file names none.
fn fill_engine(folder: &mut RunFolder) {
    let engine = folder.fact("engine").and_then(|f| f.value.clone());
    let version = folder.fact("version").and_then(|f| f.value.clone());
    for file in &mut folder.files {
        for row in &mut file.results.rows {
            if row.get(R::Engine).is_none() {
                row.set_text(R::Engine, engine.as_ref().and_then(Cell::as_text));
                if row.get(R::Version).is_none() {
                    row.set_text(R::Version, version.as_ref().and_then(Cell::as_text));
                }
            }
        }
    }
}

fn series(file: &str, bytes: &[u8], values: &[Located]) -> Result<Table<S>, ReadError> {
    let mut table = Table::default();
    let (mut t0, mut p0, mut prev): (Option<f64>, Option<f64>, Option<(f64, f64)>) =
        (None, None, None);
    for v in values.iter().skip(1) {
        let o = Obj::top(&v.value, file, Some(bytes), v.offset, v.line);
        let t = match o.num("t_mono_ns")? {
            Some(ns) => Some(ns / 1e9),
            None => o.num("t_wall")?,
        };
        let mut row = Row::default();
        super::vocabulary::fill(SERIES.series, &o, &mut row)?;
        if let Some(t) = t {
            let start = *t0.get_or_insert(t);
            row.set_num(S::TS, Some(t - start));
        }
        if let Some(p) = o.num("preemptions")? {
            let first = *p0.get_or_insert(p);
            row.set_num(S::Preemptions, Some(p - first));
        }
        let gen = o.num("generation_tokens")?;
        if let (Some(t), Some(g)) = (t, gen) {
            if let Some((pt, pg)) = prev {
                let rate = (g >= pg && t > pt).then(|| (g - pg) / (t - pt));
                row.set_num(S::GenerationTokensPerS, rate);
            }
            prev = Some((t, g));
        }
        table.push(row);
    }
    Ok(table)
}

fn checks(file: &str, bytes: &[u8], values: &[Located]) -> Result<Vec<Check>, ReadError> {
    let mut out = Vec::new();
    for e in fields::entries(values) {
        let o = e.obj(file, Some(bytes));
        out.push(Check {
            tripwire: o.text("tripwire")?.unwrap_or_default(),
            status: o.text("status")?.unwrap_or_default(),
            message: o.text("message")?.unwrap_or_default(),
        });
    }
    Ok(out)
}
