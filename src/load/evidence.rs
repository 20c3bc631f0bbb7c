//! A run's result files: the `results` list of `run.yaml` (each a file or an
//! inferlint run folder under the run's folder, and the setup it measured)
//! read with [`crate::results`] into the run's evidence, and the tables
//! `derive:` declares made from it. Takes the run's parsed YAML, its setups
//! and a way to get each entry's bytes; hands on [`ResultSource`]s (the
//! files with their sizes and hashes, the facts) and the derived
//! [`Table`]s, or diagnostics at the file, line and column a reader
//! stopped at.
//!
//! The files are the source of truth: nothing derived is written back to
//! the folder, and each file is read once per load (under `serve`, once per
//! change: the run's record is kept while no file of its folder changed).

use super::fields::{join, Doc, Obj};
use super::yaml::Value;
use super::RESULT_FIELDS;
use crate::diagnostics::{Diagnostic, Span};
use crate::record::{Column, RawFile, ResultRow, ResultSource, RunFact, Setup, Table};
use crate::results::vocabulary::{AnswerCol, RequestCol, ResultCol, ScoreCol, SeriesCol};
use crate::results::{self, Cell, Columns, ReadError, ResultFile};
use std::path::Path;

/// What `parse_run` gets for the path of a `results` entry.
pub enum ResultInput {
    /// Nothing there.
    Missing,
    /// It could not be read; the diagnostic says why.
    Unreadable(Diagnostic),
    /// A file's bytes.
    File(Vec<u8>),
    /// A folder's files: each by its name within the folder, with its
    /// bytes, in name order; and what could not be read of it.
    Folder(Vec<(String, Vec<u8>)>, Vec<Diagnostic>),
}

/// The vocabulary's tables, as the run's derived tables draw on them.
pub(super) const DERIVED: &[&str] = &["results", "requests", "series", "scores", "answers"];

/// The run's evidence: each entry of `results` read, and the rows of the
/// three tables (by column name, in the vocabulary's order, with the
/// run's own `setup` column) over all of them.
#[derive(Default)]
pub(super) struct Evidence {
    pub(super) sources: Vec<ResultSource>,
    results: Rows,
    requests: Rows,
    series: Rows,
    scores: Rows,
    answers: Rows,
}

/// Rows of one derived table: each a cell per column name.
#[derive(Default)]
struct Rows {
    rows: Vec<Vec<(&'static str, String)>>,
}

/// The columns of `results` every derived table of it has, whether or not
/// a file gives them (empty cells then): the names issue 21 fixed. The
/// others (llama-bench's, guidellm's time per token with the first) appear
/// when a file gives them.
const ALWAYS: &[&str] = &[
    "source",
    "tool",
    "tool_version",
    "engine",
    "version",
    "model",
    "max_concurrency",
    "request_rate",
    "num_prompts",
    "completed",
    "failed",
    "duration_s",
    "input_tokens",
    "output_tokens",
    "request_throughput",
    "output_throughput",
    "total_token_throughput",
    "ttft_ms_mean",
    "ttft_ms_p50",
    "ttft_ms_p90",
    "ttft_ms_p99",
    "tpot_ms_mean",
    "tpot_ms_p50",
    "tpot_ms_p90",
    "tpot_ms_p99",
    "itl_ms_mean",
    "itl_ms_p50",
    "itl_ms_p90",
    "itl_ms_p99",
    "e2el_ms_mean",
    "e2el_ms_p50",
    "e2el_ms_p90",
    "e2el_ms_p99",
];

/// Reads the `results` entries of a run whose setups are `setups`, `input`
/// giving each entry's bytes. `dir` is the run's folder, relative to the
/// root, for the diagnostics.
pub(super) fn read(
    doc: &mut Doc<'_>,
    obj: Obj<'_>,
    dir: &Path,
    setups: &[Setup],
    input: &dyn Fn(&str) -> ResultInput,
) -> Evidence {
    let mut ev = Evidence::default();
    let mut pasted: std::collections::HashMap<String, Pasted> = std::collections::HashMap::new();
    // Each setup by its name (the first of a name), looked up once per
    // entry.
    let mut by_name: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, s) in setups.iter().enumerate() {
        by_name.entry(s.name()).or_insert(i);
    }
    for (i, e) in doc.list(obj, "results").iter().enumerate() {
        let path_in_yaml = format!("results[{i}]");
        let Some(eo) = doc.object(e, &path_in_yaml, RESULT_FIELDS) else {
            continue;
        };
        let Some(path) = doc.req_string(eo, "path") else {
            continue;
        };
        let path = path.trim_end_matches('/').to_string();
        if !inside_run(&path) {
            doc.error_hint(
                &join(&path_in_yaml, "path"),
                format!("\"{path}\" leaves the run folder"),
                Some("keep result files in the run's folder, e.g. `raw/bench.json`, and name them relative to it"),
            );
            continue;
        }
        let named = doc.opt_string(eo, "setup");
        // One report of a pasted text (1-based), where the paste holds
        // several that measured different setups.
        let report = match doc.get(eo, "report") {
            Some(v) => match doc.positive_int(v, &join(&path_in_yaml, "report")) {
                Some(n) => Some(n as usize),
                None => continue,
            },
            None => None,
        };
        let setup = match (&named, setups.len()) {
            (Some(name), _) => {
                let found = by_name.get(name.as_str()).copied();
                if found.is_none() {
                    let names: Vec<String> =
                        setups.iter().map(|s| format!("\"{}\"", s.name())).collect();
                    doc.error_hint(
                        &join(&path_in_yaml, "setup"),
                        format!("no setup is named \"{name}\""),
                        Some(&format!(
                            "name one of the run's setups: {} (a setup's name is its `label`, else its engine and version)",
                            names.join(", ")
                        )),
                    );
                }
                found
            }
            (None, 1) => Some(0),
            (None, _) => None,
        };
        if named.is_some() && setup.is_none() {
            // Reported above; the rows would name no setup.
            continue;
        }
        let mut source = ResultSource {
            path: path.clone(),
            folder: false,
            setup,
            report,
            files: Vec::new(),
            facts: Vec::new(),
            rows: Vec::new(),
            path_in_yaml: path_in_yaml.clone(),
        };
        let fail = |d: &mut Doc<'_>, e: ReadError| d.diags.push(diagnostic(dir, e));
        // Another report of a pasted text read for an earlier entry: taken
        // from it, so that a paste of many reports is read once, not once
        // per report.
        if let (Some(n), Some(text)) = (report, pasted.get(&path)) {
            match one_report(&path, &text.read, n) {
                Ok(file) => {
                    warn(doc, dir, &file.warnings);
                    source.files.push(text.raw(&path, &file));
                    if resolve_setup(doc, &mut source, &file.facts, setups) {
                        add_file(&mut ev, &mut source, &file, &text.bytes, setups);
                        ev.sources.push(source);
                    }
                }
                Err(e) => fail(doc, e),
            }
            continue;
        }
        match input(&path) {
            ResultInput::Missing => {
                doc.error_hint(
                    &join(&path_in_yaml, "path"),
                    format!("there is no file or folder \"{path}\" in the run's folder"),
                    Some("`findings import` copies result files into the run's `raw/` folder"),
                );
                continue;
            }
            ResultInput::Unreadable(d) => {
                doc.diags.push(d);
                continue;
            }
            ResultInput::File(bytes) => {
                if refuse_credential(doc, dir, &path, &bytes) {
                    continue;
                }
                let read = results::read(&path, &bytes).and_then(|f| match report {
                    None => Ok(f),
                    Some(n) => {
                        let one = one_report(&path, &f, n);
                        let text = Pasted {
                            sha256: crate::util::sha256_hex(&bytes),
                            bytes: bytes.clone(),
                            read: f,
                        };
                        pasted.insert(path.clone(), text);
                        one
                    }
                });
                match read {
                    Ok(file) => {
                        warn(doc, dir, &file.warnings);
                        source.files.push(match pasted.get(&path) {
                            Some(text) if report.is_some() => text.raw(&path, &file),
                            _ => raw_file(&path, &bytes, Some(&file)),
                        });
                        if !resolve_setup(doc, &mut source, &file.facts, setups) {
                            continue;
                        }
                        add_file(&mut ev, &mut source, &file, &bytes, setups);
                    }
                    Err(e) => {
                        fail(doc, e);
                        continue;
                    }
                }
            }
            ResultInput::Folder(..) if report.is_some() => {
                doc.error_hint(
                    &join(&path_in_yaml, "report"),
                    format!("\"{path}\" is a run folder; `report` picks a report of a pasted text"),
                    Some("leave `report` out for a run folder"),
                );
                continue;
            }
            ResultInput::Folder(files, unreadable) => {
                source.folder = true;
                for d in unreadable {
                    doc.diags.push(d);
                }
                let named: Vec<(String, Vec<u8>)> = files
                    .into_iter()
                    .map(|(n, b)| (format!("{path}/{n}"), b))
                    .collect();
                if named.iter().any(|(n, b)| refuse_credential(doc, dir, n, b)) {
                    continue;
                }
                match results::read_folder(&named) {
                    Ok(folder) => {
                        warn(doc, dir, &folder.warnings);
                        for file in &folder.files {
                            warn(doc, dir, &file.warnings);
                        }
                        for (name, bytes) in &named {
                            let read = folder.files.iter().find(|f| f.source == *name);
                            let mut raw = raw_file(name, bytes, read);
                            if read.is_none() {
                                raw.format = folder
                                    .formats
                                    .iter()
                                    .find(|(n, _)| n == name)
                                    .map(|(_, f)| f.name().to_string());
                            }
                            source.files.push(raw);
                        }
                        let said: Vec<results::Fact> = folder
                            .files
                            .iter()
                            .flat_map(|f| f.facts.iter().cloned())
                            .chain(folder.facts.iter().cloned())
                            .collect();
                        if !resolve_setup(doc, &mut source, &said, setups) {
                            continue;
                        }
                        for file in &folder.files {
                            let bytes = named
                                .iter()
                                .find(|(n, _)| *n == file.source)
                                .map_or(&[][..], |(_, b)| b.as_slice());
                            add_file(&mut ev, &mut source, file, bytes, setups);
                        }
                        source.facts.extend(folder.facts.iter().map(fact));
                        let name = setup_name(&source, setups);
                        for row in &folder.series.rows {
                            let mut cells = cells_of(row);
                            cells.push(("source", path.clone()));
                            cells.push(("setup", name.clone()));
                            ev.series.rows.push(cells);
                        }
                    }
                    Err(e) => {
                        fail(doc, e);
                        continue;
                    }
                }
            }
        }
        ev.sources.push(source);
    }
    ev
}

/// A pasted text whose reports `results` entries take one by one
/// (`report: N`), read once.
struct Pasted {
    bytes: Vec<u8>,
    sha256: String,
    read: ResultFile,
}

impl Pasted {
    /// The kept file as the entry that takes report `file` lists it.
    fn raw(&self, path: &str, file: &ResultFile) -> RawFile {
        RawFile {
            path: path.to_string(),
            bytes: self.bytes.len() as u64,
            sha256: self.sha256.clone(),
            format: Some(file.format.name().to_string()),
            tool: Some(file.tool.to_string()),
            tool_version: file.tool_version.clone(),
        }
    }
}

/// Report `n` of a pasted text, alone; an error at the file when it is no
/// paste or has fewer reports.
fn one_report(path: &str, file: &ResultFile, n: usize) -> Result<ResultFile, ReadError> {
    if let Some(r) = file.report(n) {
        return Ok(r.clone());
    }
    let message = if file.reports.is_empty() {
        format!(
            "`report: {n}` picks a report of a pasted text, but this is a file of {}",
            file.format.name()
        )
    } else {
        format!(
            "`report: {n}`: the text holds {} report{} ({})",
            file.reports.len(),
            if file.reports.len() == 1 { "" } else { "s" },
            file.reports
                .iter()
                .enumerate()
                .map(|(i, r)| format!("{} at {}", i + 1, r.location))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    Err(ReadError::new_at_file(path, message)
        .with_hint("name one of its reports, or leave `report` out to take them all"))
}

/// The derived table `kind` (one of [`DERIVED`]) over the run's evidence:
/// its columns described from the vocabulary (units, definitions), with
/// `overrides` (labels, descriptions from `run.yaml`) over them.
pub(super) fn table(
    ev: &Evidence,
    kind: &str,
    file: String,
    title: String,
    overrides: Vec<Column>,
    path_in_yaml: String,
) -> Table {
    let rows = match kind {
        "results" => &ev.results,
        "requests" => &ev.requests,
        "scores" => &ev.scores,
        "answers" => &ev.answers,
        _ => &ev.series,
    };
    let all = vocabulary_of(kind);
    // The vocabulary's columns that this table shows, then its own.
    let mut header: Vec<&'static str> = all
        .iter()
        .filter(|c| {
            kind != "results"
                || ALWAYS.contains(&c.name)
                || rows
                    .rows
                    .iter()
                    .any(|r| r.iter().any(|(n, _)| *n == c.name))
        })
        .map(|c| c.name)
        .collect();
    if kind == "series" {
        header.push("source");
    }
    header.push("setup");
    let columns = header
        .iter()
        .map(|&name| {
            let mut c = default_column(&all, name);
            if let Some(mine) = overrides.iter().find(|c| c.name == name) {
                if mine.label.is_some() {
                    c.label = mine.label.clone();
                }
                if !mine.description.is_empty() {
                    c.description = mine.description.clone();
                }
            }
            c
        })
        .collect();
    let body: Vec<Vec<String>> = rows
        .rows
        .iter()
        .map(|r| {
            header
                .iter()
                .map(|h| {
                    r.iter()
                        .find(|(n, _)| n == h)
                        .map(|(_, v)| v.clone())
                        .unwrap_or_default()
                })
                .collect()
        })
        .collect();
    Table {
        file,
        title,
        columns,
        header: header.iter().map(|h| h.to_string()).collect(),
        row_lines: (0..body.len()).map(|i| i + 2).collect(),
        rows: body,
        path_in_yaml,
        derived: Some(kind.to_string()),
    }
}

/// Every column a derived table of `kind` may have, as the vocabulary
/// describes it (what an import leaves out of `run.yaml`).
pub fn derived_columns(kind: &str) -> Vec<Column> {
    let all = vocabulary_of(kind);
    let mut names: Vec<&'static str> = all.iter().map(|c| c.name).collect();
    if kind == "series" {
        names.push("source");
    }
    names.push("setup");
    names.iter().map(|n| default_column(&all, n)).collect()
}

fn vocabulary_of(kind: &str) -> Vec<&'static results::vocabulary::Column> {
    match kind {
        "results" => ResultCol::ALL.iter().collect(),
        "requests" => RequestCol::ALL.iter().collect(),
        "scores" => ScoreCol::ALL.iter().collect(),
        "answers" => AnswerCol::ALL.iter().collect(),
        _ => SeriesCol::ALL.iter().collect(),
    }
}

/// Column `name` of a derived table whose vocabulary is `all`, with its
/// unit, definition and label.
fn default_column(all: &[&'static results::vocabulary::Column], name: &str) -> Column {
    let voc = all.iter().find(|c| c.name == name);
    let (unit, description) = match voc {
        Some(c) => (unit_of(c), c.definition.to_string()),
        None if name == "source" => (None, "The run folder the sample was read from.".into()),
        None => (
            None,
            "The run's setup the row measured, by its name in the run's setups.".into(),
        ),
    };
    Column {
        name: name.to_string(),
        label: super::labels::label_of(name),
        unit,
        description,
    }
}

/// A vocabulary column's unit as a run table writes it: a numeric column
/// needs one (it is what makes a column numeric), so a share or a flag
/// without a unit gets a word for it.
fn unit_of(c: &results::vocabulary::Column) -> Option<String> {
    use results::vocabulary::Kind;
    match (c.kind, c.unit) {
        (Kind::Text, _) => None,
        (Kind::Number, "") if c.name == "kv_usage" => Some("fraction".into()),
        (Kind::Number, "") => Some("value".into()),
        (Kind::Number, u) => Some(u.to_string()),
    }
}

/// Adds one result file's rows and facts to the evidence (`bytes`: the
/// file's, for the lengths its client was asked for). A row whose file
/// records no engine or version (vLLM's, genai-perf's, AIPerf's) takes
/// its setup's: the run says what it measured.
fn add_file(
    ev: &mut Evidence,
    source: &mut ResultSource,
    file: &ResultFile,
    bytes: &[u8],
    setups: &[Setup],
) {
    let name = setup_name(source, setups);
    let setup = source.setup.and_then(|i| setups.get(i));
    // What the client was asked, from the keys of a JSON file; a pasted
    // text has none (and is not read again for each of its reports).
    let asked = if file.format.is_report() {
        vec![[None, None]; file.results.rows.len()]
    } else {
        super::requested::requested(bytes, file.results.rows.len())
    };
    for (row, requested) in file.results.rows.iter().zip(asked) {
        let mut cells = cells_of(row);
        if let Some(s) = setup {
            fill(&mut cells, "engine", Some(&s.engine));
            fill(&mut cells, "version", s.version.as_deref());
        }
        source.rows.push(ResultRow {
            cells: cells.clone(),
            requested,
        });
        cells.push(("setup", name.clone()));
        ev.results.rows.push(cells);
    }
    add_rows(&mut ev.requests, &file.requests, &name);
    add_rows(&mut ev.scores, &file.scores, &name);
    add_rows(&mut ev.answers, &file.answers, &name);
    source.facts.extend(file.facts.iter().map(fact));
}

/// Adds a table's rows to a derived table's, each with its setup's name.
fn add_rows<C: Columns>(into: &mut Rows, table: &results::Table<C>, setup: &str) {
    for row in &table.rows {
        let mut cells = cells_of(row);
        cells.push(("setup", setup.to_string()));
        into.rows.push(cells);
    }
}

/// Finds the setup of an entry that names none, in a run of several: the
/// one whose engine and version the files record, when exactly one is.
/// Reports the entry and returns false when none can be told.
fn resolve_setup(
    doc: &mut Doc<'_>,
    source: &mut ResultSource,
    facts: &[results::Fact],
    setups: &[Setup],
) -> bool {
    if source.setup.is_some() {
        return true;
    }
    let said = |name: &str| {
        facts
            .iter()
            .find(|f| f.name == name)
            .and_then(|f| f.value.as_ref())
            .map(Cell::csv)
    };
    let (engine, version) = (said("engine"), said("version"));
    let matching: Vec<usize> = setups
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            engine.as_deref() == Some(s.engine.as_str())
                && version.as_deref() == s.version.as_deref()
        })
        .map(|(i, _)| i)
        .collect();
    if let [one] = matching[..] {
        source.setup = Some(one);
        return true;
    }
    let names: Vec<String> = setups.iter().map(|s| format!("\"{}\"", s.name())).collect();
    doc.error_hint(
        &source.path_in_yaml,
        format!(
            "which setup \"{}\" measured is not said, and the run has {} setups",
            source.path,
            setups.len()
        ),
        Some(&format!("add `setup:` with one of {}", names.join(", "))),
    );
    false
}

/// The name of the setup `source` measured, or empty while it is not known.
fn setup_name(source: &ResultSource, setups: &[Setup]) -> String {
    source
        .setup
        .and_then(|s| setups.get(s))
        .map(Setup::name)
        .unwrap_or_default()
}

/// Sets column `name` of `cells` to `value` when the row has no value
/// there, keeping the vocabulary's order of the columns.
fn fill(cells: &mut Vec<(&'static str, String)>, name: &'static str, value: Option<&str>) {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return;
    };
    if cells.iter().any(|(n, _)| *n == name) {
        return;
    }
    let order = |n: &str| ResultCol::ALL.iter().position(|c| c.name == n);
    let at = order(name);
    let i = cells
        .iter()
        .position(|(n, _)| order(n) > at)
        .unwrap_or(cells.len());
    cells.insert(i, (name, value.to_string()));
}

/// A row's cells that have a value, by column name.
fn cells_of<C: Columns>(row: &results::Row<C>) -> Vec<(&'static str, String)> {
    row.cells()
        .filter_map(|(c, v)| v.map(|v| (c.name, v.csv())))
        .collect()
}

fn fact(f: &results::Fact) -> RunFact {
    RunFact {
        name: f.name.to_string(),
        value: f.value.as_ref().map(Cell::csv),
        number: f.value.as_ref().and_then(Cell::as_num),
        source: f.source.clone(),
        note: f.note.clone(),
    }
}

fn raw_file(name: &str, bytes: &[u8], read: Option<&ResultFile>) -> RawFile {
    RawFile {
        path: name.to_string(),
        bytes: bytes.len() as u64,
        sha256: crate::util::sha256_hex(bytes),
        format: read.map(|f| f.format.name().to_string()),
        tool: read.map(|f| f.tool.to_string()),
        tool_version: read.and_then(|f| f.tool_version.clone()),
    }
}

/// Refuses a kept file that still holds a credential: the site would
/// publish it. True when it does.
fn refuse_credential(doc: &mut Doc<'_>, dir: &Path, name: &str, bytes: &[u8]) -> bool {
    let Some((key, line)) = results::scrub::holds_credential(bytes) else {
        return false;
    };
    doc.diags.push(
        Diagnostic::error(
            dir.join(name),
            Span::new(line.max(1), 1),
            format!("the file holds a credential (under `{key}`), which the site would publish"),
        )
        .hint("import it with `findings import`, which replaces credentials in the copy it keeps, or remove the value"),
    );
    true
}

fn warn(doc: &mut Doc<'_>, dir: &Path, warnings: &[results::Warning]) {
    for w in warnings {
        doc.diags.push(Diagnostic::warning(
            dir.join(&w.file),
            Span::new(w.line.max(1), 1),
            w.message.clone(),
        ));
    }
}

/// A reader's error as a diagnostic at the file in the run's folder.
fn diagnostic(dir: &Path, e: ReadError) -> Diagnostic {
    let span = if e.line > 0 {
        Span::new(e.line, e.column.max(1))
    } else {
        Span::default()
    };
    let mut d = Diagnostic::error(dir.join(&e.file), span, e.message);
    if let Some(f) = e.field {
        d = d.field(f);
    }
    match e.hint {
        Some(h) => d.hint(h),
        None => d,
    }
}

/// True for a path that stays inside the run's folder: relative, without
/// `.`, `..` or hidden parts.
fn inside_run(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && !path.contains('\\')
        && path
            .split('/')
            .all(|p| !p.is_empty() && !p.starts_with('.'))
}

/// Reads `doc`'s value `v` of a derived table's `derive` field.
pub(super) fn derive_kind(doc: &mut Doc<'_>, v: &Value, path: &str) -> Option<&'static str> {
    let s = doc.string(v, path)?;
    match DERIVED.iter().find(|d| **d == s) {
        Some(d) => Some(d),
        None => {
            doc.error_hint(
                path,
                format!("\"{s}\" is not a table result files give"),
                Some("derive one of: results, requests, series, scores, answers"),
            );
            None
        }
    }
}
