//! One result file read: [`read`] refuses a file over the size limit,
//! parses it as what it looks like and tells its format (`detect.rs`),
//! then runs the reader of that format (a file's: `vllm.rs` and the
//! others; a paste's: `console/`) and adds what every file shares
//! (`finish`). The one place that names every reader of a file, so it
//! stands above them; `inferlint.rs` reads the client's files of a run
//! folder through [`read_input`], and finishes the result it makes of the
//! server's counters with [`finish`].

use super::console::{self, Reader};
use super::detect::{self, Input};
use super::error::{ErrorKind, ReadError, Warning};
use super::file::{check_size, Fact, Out, Report, ResultFile};
use super::format::Format;
use super::json::{self, Located};
use super::table::Cell;
use super::vocabulary::{RequestCol, ResultCol};
use super::{aiperf, genai_perf, guidellm, llama_bench, sglang, trtllm, vllm};
use super::{lm_eval, lm_eval_samples};

/// Reads one result file. `name` is the file's name as it should appear in
/// messages and in each row's `source` column.
pub fn read(name: &str, bytes: &[u8]) -> Result<ResultFile, ReadError> {
    check_size(name, bytes)?;
    let input = detect::parse_input(name, bytes)?;
    let format = detect::classify(name, &input)?;
    read_input(name, bytes, input, format)
}

pub(super) fn read_input(
    name: &str,
    bytes: &[u8],
    input: detect::Input,
    format: Format,
) -> Result<ResultFile, ReadError> {
    let mut warnings = Vec::new();
    let values: Vec<Located> = match input {
        Input::Json(p) => {
            if let Some((items, line)) = p.open_array {
                if format != Format::LlamaBench {
                    // Only llama-bench leaves an array open by design; any
                    // other cut-short file is the error it is.
                    return Err(json::parse(name, bytes, false).err().unwrap_or_else(|| {
                        ReadError::new(ErrorKind::Syntax, name, "the file is not complete JSON")
                    }));
                }
                warnings.push(Warning {
                    file: name.to_string(),
                    line,
                    message: format!(
                        "the JSON array is not closed (llama-bench stopped before the end of its run?): read the {items} complete results, up to line {line}"
                    ),
                });
            }
            p.values
        }
        Input::Yaml(v) => vec![Located {
            value: v,
            offset: 0,
            line: 1,
        }],
        Input::Csv(text) => {
            return finish(name, format, llama_bench::read_csv(name, &text)?, warnings)
        }
        Input::Text(text) if format.is_report() => return read_pasted(name, &text, warnings),
        Input::Text(_) => Vec::new(),
    };
    // YAML has no byte positions to point errors at.
    let json_bytes = (format != Format::GuidellmYaml).then_some(bytes);
    let out = match format {
        Format::VllmServe | Format::VllmSweepSummary => {
            vllm::read_serve(name, json_bytes, &values)?
        }
        Format::VllmThroughput => vllm::read_throughput(name, json_bytes, &values)?,
        Format::VllmLatency => vllm::read_latency(name, json_bytes, &values)?,
        Format::SglangServe => sglang::read_serve(name, json_bytes, &values)?,
        Format::SglangOneBatch => sglang::read_one_batch(name, json_bytes, &values)?,
        Format::TrtllmServe => trtllm::read_serve(name, json_bytes, &values)?,
        Format::TrtllmBench => trtllm::read_bench(name, json_bytes, &values)?,
        Format::GenaiPerf => genai_perf::read(name, json_bytes, &values)?,
        Format::Aiperf => aiperf::read(name, json_bytes, &values)?,
        Format::LlamaBench => llama_bench::read_json(name, json_bytes, &values)?,
        Format::GuidellmJson | Format::GuidellmYaml => guidellm::read(name, json_bytes, &values)?,
        Format::LlamaBenchCsv => llama_bench::read_csv(name, detect::utf8(name, bytes)?)?,
        Format::LmEvalResults => lm_eval::read(name, json_bytes, &values)?,
        Format::LmEvalSamples => lm_eval_samples::read(name, json_bytes, &values)?,
        Format::VllmServeReport
        | Format::VllmThroughputReport
        | Format::VllmLatencyReport
        | Format::SglangServeReport
        | Format::TrtllmBenchReport
        | Format::LlamaBenchReport
        | Format::GenaiPerfReport
        | Format::LmEvalTableReport
        | Format::SglangAccuracyReport
        | Format::VllmGsm8kReport => {
            return read_pasted(name, detect::utf8(name, bytes)?, warnings)
        }
        Format::InferlintSnapshot
        | Format::InferlintSeries
        | Format::InferlintResults
        | Format::ServerLog => {
            return Err(ReadError::new(
                ErrorKind::UnknownFormat,
                name,
                format!(
                    "this is {}, part of a run folder, not a benchmark client's result file",
                    format.name()
                ),
            )
            .hint(
                "read the whole run folder, with its bench file, snapshots, series and boot log",
            ))
        }
    };
    finish(name, format, out, warnings)
}

/// Adds what every file shares: each row's source and tool, and the facts
/// read off the rows (engine, version, model, the settings asked for, the
/// failed requests), in a fixed order.
pub(super) fn finish(
    name: &str,
    format: Format,
    mut out: Out,
    mut warnings: Vec<Warning>,
) -> Result<ResultFile, ReadError> {
    for row in &mut out.results.rows {
        row.set_text(ResultCol::Source, Some(name));
        row.fill_text(ResultCol::Tool, Some(out.tool));
        row.fill_text(ResultCol::ToolVersion, out.tool_version.as_deref());
    }
    for row in &mut out.requests.rows {
        row.set_text(RequestCol::Source, Some(name));
    }
    let mut facts = vec![Fact::text("tool", out.tool, name)];
    if let Some(v) = &out.tool_version {
        facts.push(Fact::text("tool_version", v.clone(), name));
    }
    for (fact, col) in [
        ("engine", ResultCol::Engine),
        ("version", ResultCol::Version),
        ("model", ResultCol::Model),
        ("max_concurrency", ResultCol::MaxConcurrency),
        ("request_rate", ResultCol::RequestRate),
    ] {
        // Distinct values in the order of the rows, in one pass; a value
        // the reader gives as a fact of its own (with a note: "from the
        // command line") is left to it.
        let mut seen = std::collections::BTreeSet::new();
        for f in out.facts.iter().filter(|f| f.name == fact) {
            if let Some(c) = &f.value {
                seen.insert(c.csv());
            }
        }
        for row in &out.results.rows {
            if let Some(c) = row.get(col) {
                if seen.insert(c.csv()) {
                    facts.push(Fact::new(fact, Some(c.clone()), name));
                }
            }
        }
    }
    let failed: Vec<f64> = out
        .results
        .rows
        .iter()
        .filter_map(|r| r.num(ResultCol::Failed))
        .collect();
    if !failed.is_empty() {
        facts.push(Fact::num("failed", failed.iter().sum(), name));
    }
    facts.append(&mut out.facts);
    warnings.append(&mut out.warnings);
    Ok(ResultFile {
        source: name.to_string(),
        format,
        tool: out.tool,
        tool_version: out.tool_version,
        facts,
        results: out.results,
        requests: out.requests,
        scores: out.scores,
        answers: out.answers,
        warnings,
        reports: Vec::new(),
    })
}

/// Reads the console reports of a pasted text ([`console`]): each a
/// [`Report`] with its rows (each naming where it was found, column
/// `report`) and facts, and all of them together as the file's.
fn read_pasted(name: &str, text: &str, warnings: Vec<Warning>) -> Result<ResultFile, ReadError> {
    let found = console::scan(name, text);
    let Some(head) = found.first() else {
        return Err(ReadError::new(
            ErrorKind::UnknownFormat,
            name,
            "no console report of a known tool in this text",
        ));
    };
    let (format, tool, tool_version) = (head.format, head.out.tool, head.out.tool_version.clone());
    let mut all = Out {
        tool,
        tool_version,
        ..Out::default()
    };
    let mut reports = Vec::new();
    let mut seen_facts = std::collections::HashSet::new();
    let mut tools: Vec<&'static str> = Vec::new();
    for f in found {
        let location = f.location();
        let mut out = f.out;
        for row in &mut out.results.rows {
            row.set_text(ResultCol::Report, Some(location.as_str()));
        }
        out.facts.push(Fact::text("report", location.clone(), name));
        if !tools.contains(&out.tool) {
            tools.push(out.tool);
        }
        all.results.rows.extend(out.results.rows.iter().cloned());
        all.scores.rows.extend(out.scores.rows.iter().cloned());
        for fact in &out.facts {
            // Each distinct fact once, found by a key rather than by a
            // search of those kept: a paste may hold thousands of reports.
            let key = (
                fact.name,
                fact.value.as_ref().map(Cell::csv),
                fact.source.clone(),
                fact.note.clone(),
            );
            if seen_facts.insert(key) {
                all.facts.push(fact.clone());
            }
        }
        all.warnings.extend(out.warnings.iter().cloned());
        let read = finish(name, f.format, out, Vec::new())?;
        reports.push(Report {
            location,
            lines: f.lines,
            read,
        });
    }
    let mut file = finish(name, format, all, warnings)?;
    // A paste of several tools' reports names each tool, after the first.
    for (k, t) in tools.into_iter().skip(1).enumerate() {
        file.facts.insert(1 + k, Fact::text("tool", t, name));
    }
    file.reports = reports;
    Ok(file)
}

/// The console reports of `text` that one reader reads, each as [`read`]
/// reads a report of a paste (the other tools' reports are left aside,
/// their lines read as the lines between reports): what the fuzz target
/// of each reader runs (`fuzz/checks.rs`).
pub fn read_reports_of(reader: Reader, name: &str, text: &str) -> Result<Vec<Report>, ReadError> {
    console::scan_with(name, text, Some(reader))
        .into_iter()
        .map(|f| {
            let (location, lines) = (f.location(), f.lines);
            let read = finish(name, f.format, f.out, Vec::new())?;
            Ok(Report {
                location,
                lines,
                read,
            })
        })
        .collect()
}
