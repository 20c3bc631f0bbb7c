//! Runs: one `data/runs/<id>/run.yaml` each, with its setups, tables and
//! charts. Takes the run's folder (or, without the disk, its `run.yaml`
//! text and a way to get each table's text); hands on a [`Run`] whose
//! tables are read through `table`, or diagnostics.

use super::evidence::{self, ResultInput};
use super::fields::{self, describe, join, slug_field, Doc, Obj};
use super::files::{read_bytes, read_text};
use super::prose::list_break_warning;
use super::table::read_csv;
use super::yaml::{parse_yaml, Value};
use super::{
    is_slug, CHART_FIELDS, COLUMN_FIELDS, MARK_FIELDS, MAX_RECORD_BYTES, MAX_RESULT_BYTES,
    MAX_TABLE_BYTES, RUN_FIELDS, SETUP_FIELDS, TABLE_FIELDS,
};
use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::record::{ChartKind, ChartSpec, Column, Mark, Run, Setup, Table};
use std::path::Path;

pub(super) fn load_run(root: &Path, dir: &Path, diags: &mut Diagnostics) -> Option<Run> {
    let id = dir.file_name()?.to_string_lossy().to_string();
    let file = dir.join("run.yaml");
    if !is_slug(&id) {
        diags.push(
            Diagnostic::error(
                dir,
                Span::default(),
                format!("\"{id}\" is not a valid run id"),
            )
            .hint("name run folders with lowercase letters a-z, digits and '-'"),
        );
        return None;
    }
    // Read first, and ask why only when that fails: a system call less
    // for each of a site's runs.
    let text = match read_text(root, &file, MAX_RECORD_BYTES) {
        Ok(t) => t,
        Err(_) if !root.join(&file).exists() && root.join(&file).symlink_metadata().is_err() => {
            diags.push(
                Diagnostic::error(dir, Span::default(), "the run folder has no run.yaml").hint(
                    "every folder in data/runs/ is a run; add its run.yaml, or start the folder's name with _ to leave it out",
                ),
            );
            return None;
        }
        Err(d) => {
            diags.push(d);
            return None;
        }
    };
    read_run_text(root, dir, &text, diags)
}

/// Reads the run in `dir` (relative to `root`) from `text` as its
/// `run.yaml`, its tables and result files from the disk: what `findings
/// import` checks the `run.yaml` it would write with, before writing it.
pub fn parse_run_at(root: &Path, dir: &Path, text: &str) -> (Option<Run>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let run = read_run_text(root, dir, text, &mut diags);
    (run, diags)
}

fn read_run_text(root: &Path, dir: &Path, text: &str, diags: &mut Diagnostics) -> Option<Run> {
    let tables = |name: &str| {
        let rel = dir.join(name);
        // Reading succeeds only for a regular file; whether it is one is
        // asked only when reading fails.
        match read_text(root, &rel, MAX_TABLE_BYTES) {
            Ok(t) => TableText::Text(t),
            Err(_) if !root.join(&rel).is_file() => TableText::Missing,
            Err(d) => TableText::Unreadable(d),
        }
    };
    let results = |path: &str| results_input(root, &dir.join(path));
    parse_run(dir, text, &tables, &results, diags)
}

/// The bytes of a `results` entry of a run: a file, or the files of a
/// folder (an inferlint run folder), each read as safely as any record.
fn results_input(root: &Path, rel: &Path) -> ResultInput {
    let full = root.join(rel);
    let Ok(meta) = std::fs::metadata(&full) else {
        return match std::fs::symlink_metadata(&full) {
            // A link to nothing is reported by the reading.
            Ok(_) => match read_bytes(root, rel, MAX_RESULT_BYTES) {
                Ok(b) => ResultInput::File(b),
                Err(d) => ResultInput::Unreadable(d),
            },
            Err(_) => ResultInput::Missing,
        };
    };
    if !meta.is_dir() {
        return match read_bytes(root, rel, MAX_RESULT_BYTES) {
            Ok(b) => ResultInput::File(b),
            Err(d) => ResultInput::Unreadable(d),
        };
    }
    let mut listing = Diagnostics::new();
    let sub = rel.to_string_lossy().replace('\\', "/");
    let mut files = Vec::new();
    let mut unreadable: Vec<Diagnostic> = Vec::new();
    for f in super::files::list_dir(root, &sub, false, &mut listing) {
        match read_bytes(root, &f, MAX_RESULT_BYTES) {
            Ok(b) => files.push((
                f.file_name()
                    .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
                b,
            )),
            Err(d) => unreadable.push(d),
        }
    }
    unreadable.extend(listing.sorted());
    ResultInput::Folder(files, unreadable)
}

/// A run's table as `parse_run` gets it.
pub enum TableText {
    /// No such file.
    Missing,
    /// The file could not be read; the diagnostic says why.
    Unreadable(Diagnostic),
    /// The file's text, as [`decode_text`](super::decode_text) makes it.
    Text(String),
}

/// Reads one run from the text of its `run.yaml`, without touching the disk:
/// `dir` is the run's folder relative to the root (`data/runs/<id>`), and
/// `tables` gives the text of each table file named in it. Problems go to the
/// returned diagnostics. This is what `findings check` does for each run,
/// minus reading files; the fuzz targets call it.
pub fn parse_run_text(
    dir: &Path,
    text: &str,
    tables: &dyn Fn(&str) -> TableText,
) -> (Option<Run>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let run = parse_run(dir, text, tables, &|_| ResultInput::Missing, &mut diags);
    (run, diags)
}

/// Reads a run from `text` as its `run.yaml`, with no table files and the
/// result files `results` gives by path: what `findings lint` checks a
/// benchmark's files as, without a site folder.
pub fn parse_run_with(
    dir: &Path,
    text: &str,
    results: &dyn Fn(&str) -> ResultInput,
) -> (Option<Run>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let run = parse_run(dir, text, &|_| TableText::Missing, results, &mut diags);
    (run, diags)
}

fn parse_run(
    dir: &Path,
    text: &str,
    tables_text: &dyn Fn(&str) -> TableText,
    results_input: &dyn Fn(&str) -> ResultInput,
    diags: &mut Diagnostics,
) -> Option<Run> {
    let id = dir.file_name()?.to_string_lossy().to_string();
    let file = dir.join("run.yaml");
    let (value, spans, raw) = parse_yaml(&file, text, 1, diags)?;
    let mut doc = Doc::new(&file, &spans, &raw, diags);
    if value.is_null() {
        doc.error_hint(
            "",
            "the file is empty",
            Some("a run.yaml needs at least title, date, setups and tables"),
        );
        return None;
    }
    let obj = doc.object(&value, "", RUN_FIELDS)?;
    let title = doc.req_string(obj, "title");
    let date = doc.req_date(obj, "date");
    let mut setups = Vec::new();
    let mut setup_names = std::collections::HashSet::new();
    let setup_values = doc.req_list(obj, "setups");
    if matches!(doc.get(obj, "setups"), Some(Value::Sequence(l)) if l.is_empty()) {
        doc.error("setups", "at least one setup is required");
    }
    for (i, s) in setup_values.unwrap_or(&[]).iter().enumerate() {
        let path = format!("setups[{i}]");
        let Some(so) = doc.object(s, &path, SETUP_FIELDS) else {
            continue;
        };
        let engine = doc.req_string(so, "engine");
        let version = doc.get(so, "version").and_then(|v| {
            let p = join(&path, "version");
            doc.version(v, &p).map(|v| v.as_str().to_string())
        });
        let flags = doc.opt_string(so, "flags");
        let label = doc.opt_string(so, "label");
        if let Some(engine) = engine {
            let setup = Setup {
                engine,
                version,
                flags,
                label,
            };
            // Result files name their setup by its name, which must then
            // tell it from the others (a run of CSV tables names none).
            // (The names seen are kept in a set: a run may have a setup
            // per report of a long paste.)
            if doc.get(obj, "results").is_some() && !setup_names.insert(setup.name()) {
                doc.error_hint(
                    &path,
                    format!(
                        "a second setup named \"{}\", and result files name their setup",
                        setup.name()
                    ),
                    Some("give each setup a `label` of its own (\"vLLM 0.30, start 2\")"),
                );
            }
            setups.push(setup);
        }
    }
    let evidence = evidence::read(&mut doc, obj, dir, &setups, results_input);
    let model = doc.opt_string(obj, "model");
    let hardware = doc.opt_string(obj, "hardware");
    let client = doc.opt_string(obj, "client");
    let endpoint = doc.opt_string(obj, "endpoint");
    let source = doc.opt_string(obj, "source");
    if let Some(s) = &source {
        if !(s.starts_with("https://") || s.starts_with("http://")) {
            doc.error("source", format!("\"{s}\" is not an http(s) URL"));
        }
    }
    let notes = doc.opt_string(obj, "notes");
    if let Some(n) = &notes {
        for list in crate::markdown::scan(n).list_breaks {
            let at = notes_position(text, spans.get("notes"), n, list.line, list.column);
            doc.diags
                .push(list_break_warning(&file, at, "notes", &list));
        }
    }

    let mut tables = Vec::new();
    let table_values = doc.req_list(obj, "tables");
    if matches!(doc.get(obj, "tables"), Some(Value::Sequence(l)) if l.is_empty()) {
        doc.error("tables", "at least one table is required");
    }
    for (i, t) in table_values.unwrap_or(&[]).iter().enumerate() {
        let path = format!("tables[{i}]");
        let Some(to) = doc.object(t, &path, TABLE_FIELDS) else {
            continue;
        };
        if let Some(dv) = doc.get(to, "derive") {
            derived_table(&mut doc, to, dv, &path, &evidence, &mut tables);
            continue;
        }
        let file_name = doc.req_string(to, "file");
        let ttitle = doc.req_string(to, "title");
        // Whether the columns could be read, so that the CSV header is
        // compared with them only then.
        let described = matches!(doc.get(to, "columns"), Some(Value::Mapping(_)));
        let columns = read_columns(&mut doc, to, &path, true);
        let (Some(file_name), Some(ttitle)) = (file_name, ttitle) else {
            continue;
        };
        let mut table = Table {
            file: file_name,
            title: ttitle,
            columns,
            header: Vec::new(),
            rows: Vec::new(),
            row_lines: Vec::new(),
            path_in_yaml: path.clone(),
            derived: None,
        };
        if !safe_file_name(&table.file) {
            doc.error_hint(
                &join(&path, "file"),
                format!("\"{}\" leaves the run folder", table.file),
                Some("name a CSV file inside the run's own folder, e.g. `throughput.csv`"),
            );
        } else if table.file == "run.yaml" {
            // Read as a table, the run's own file would be blamed for a
            // table's errors, at its lines.
            doc.error_hint(
                &join(&path, "file"),
                "\"run.yaml\" is the run's own file, not a table",
                Some("name the table's CSV file in the run's folder, e.g. `throughput.csv`"),
            );
        } else {
            read_csv(
                tables_text,
                dir,
                &mut table,
                doc.diags,
                &path,
                &spans,
                described,
            );
        }
        tables.push(table);
    }

    let mut charts = Vec::new();
    for (i, c) in doc.list(obj, "charts").iter().enumerate() {
        let path = format!("charts[{i}]");
        let Some(co) = doc.object(c, &path, CHART_FIELDS) else {
            continue;
        };
        let cid = slug_field(&mut doc, co, "id");
        let ctitle = doc.req_string(co, "title");
        let table = doc.req_string(co, "table");
        let kind = match doc.choice(
            co,
            "kind",
            &["bar", "grouped-bar", "line", "scatter", "cdf"],
            false,
        ) {
            Some("grouped-bar") => ChartKind::GroupedBar,
            Some("line") => ChartKind::Line,
            Some("scatter") => ChartKind::Scatter,
            Some("cdf") => ChartKind::Cdf,
            _ => ChartKind::Bar,
        };
        let x = doc.req_string(co, "x");
        let y = match doc.get(co, "y") {
            // A distribution is of its x alone: the y axis is the share of
            // rows at or below each value.
            None if kind == ChartKind::Cdf => Vec::new(),
            Some(_) if kind == ChartKind::Cdf => {
                doc.error_hint(
                    &join(&path, "y"),
                    "a cdf chart takes no `y`: it draws the share of rows at or below each value of `x`",
                    Some("remove `y`, and name the column whose distribution to draw as `x`"),
                );
                Vec::new()
            }
            None => {
                doc.error_hint(
                    &path,
                    "missing required field `y`",
                    Some("add `y:` with a column name or a list of them"),
                );
                Vec::new()
            }
            Some(Value::Sequence(items)) => items
                .iter()
                .enumerate()
                .filter_map(|(k, v)| doc.string(v, &format!("{path}.y[{k}]")))
                .collect(),
            Some(v) => doc.string(v, &join(&path, "y")).into_iter().collect(),
        };
        let chart = ChartSpec {
            id: cid.unwrap_or_default(),
            title: ctitle.unwrap_or_default(),
            table: table.unwrap_or_default(),
            kind,
            x: x.unwrap_or_default(),
            y,
            series: doc.opt_string(co, "series"),
            x_label: doc.opt_string(co, "x_label"),
            y_label: doc.opt_string(co, "y_label"),
            log_x: doc.opt_bool(co, "log_x"),
            log_y: doc.opt_bool(co, "log_y"),
            caption: doc.opt_string(co, "caption"),
            marks: marks(&mut doc, co, &path),
            path_in_yaml: path,
        };
        charts.push(chart);
    }

    let acknowledged = super::check_names::acknowledged(&mut doc, obj);
    let compare = super::compare::read(&mut doc, obj, super::compare::Owner::Run);
    let content_hash = crate::util::hash_of((
        text,
        tables
            .iter()
            .map(|t| (&t.file, &t.header, &t.rows))
            .collect::<Vec<_>>(),
        evidence
            .sources
            .iter()
            .map(|s| s.files.iter().map(|f| &f.sha256).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
    ));
    Some(Run {
        id,
        content_hash,
        path: file.clone(),
        title: title?,
        date: date?,
        setups,
        model,
        hardware,
        client,
        endpoint,
        source,
        notes,
        results: evidence.sources,
        tables,
        charts,
        acknowledged,
        compare,
        spans,
    })
}

/// The `columns` of table `path`: each column's label, unit and
/// description. Required for a CSV table; a derived table's are optional.
fn read_columns(doc: &mut Doc<'_>, to: Obj<'_>, path: &str, required: bool) -> Vec<Column> {
    let mut columns = Vec::new();
    let cpath = join(path, "columns");
    match doc.get(to, "columns") {
        None if !required => {}
        None => {
            doc.error_hint(
                path,
                "missing required field `columns`",
                Some("describe every CSV column: `columns: {name: {unit: ..., description: ...}}`"),
            );
        }
        Some(Value::Mapping(m)) => {
            for (k, v) in m {
                let Some(name) = k.as_str() else {
                    doc.error(&cpath, "column names must be strings");
                    continue;
                };
                let colpath = join(&cpath, name);
                let Some(co) = doc.object(v, &colpath, COLUMN_FIELDS) else {
                    continue;
                };
                let unit = match doc.get(co, "unit") {
                    // A unit may be a bare word YAML reads as a number ("1"); keep it as text.
                    Some(Value::Number(n)) => Some(n.to_string()),
                    // A unit that is there but wrong is reported; the
                    // column still counts as numeric, so that charts
                    // on it are not reported as well.
                    Some(_) => doc.opt_string(co, "unit").or(Some(String::new())),
                    None => None,
                };
                // A derived column has the vocabulary's description.
                let description = if required {
                    doc.req_string(co, "description")
                } else {
                    doc.opt_string(co, "description")
                };
                let label = doc.opt_string(co, "label");
                columns.push(Column {
                    name: name.to_string(),
                    label,
                    unit,
                    description: description.unwrap_or_default(),
                });
            }
        }
        Some(other) => doc.error(
            &cpath,
            format!(
                "expected a mapping of column names, found {}",
                fields::describe(other)
            ),
        ),
    }
    columns
}

/// A table `derive:`d from the run's result files (`results`, `requests`
/// or `series`), published as `file` (by default `<table>.csv`).
fn derived_table(
    doc: &mut Doc<'_>,
    to: Obj<'_>,
    dv: &Value,
    path: &str,
    evidence: &evidence::Evidence,
    tables: &mut Vec<Table>,
) {
    let kind = evidence::derive_kind(doc, dv, &join(path, "derive"));
    let file = doc.opt_string(to, "file");
    let title = doc.req_string(to, "title");
    let columns = read_columns(doc, to, path, false);
    let (Some(kind), Some(title)) = (kind, title) else {
        return;
    };
    let file = file.unwrap_or_else(|| format!("{kind}.csv"));
    if !safe_file_name(&file) || !file.ends_with(".csv") {
        doc.error_hint(
            &join(path, "file"),
            format!("\"{file}\" is not a CSV file name in the run's folder"),
            Some("name the published table like `results.csv`, or leave `file` out"),
        );
        return;
    }
    let table = evidence::table(
        evidence,
        kind,
        file,
        title,
        columns.clone(),
        path.to_string(),
    );
    for c in &columns {
        let cpath = join(&join(path, "columns"), &c.name);
        if table.column(&c.name).is_none() {
            let names: Vec<&str> = table.header.iter().map(String::as_str).collect();
            let near = super::suggest::did_you_mean(&c.name, &names);
            doc.error_hint(
                &cpath,
                format!("the {kind} table has no column \"{}\"", c.name),
                Some(&match near {
                    Some(n) => format!("did you mean \"{n}\"?"),
                    None => format!("its columns are {}", names.join(", ")),
                }),
            );
        } else if c.unit.is_some() {
            doc.error_hint(
                &join(&cpath, "unit"),
                "a derived column's unit is the one its tools' files give",
                Some("remove `unit`; `label` and `description` may be set"),
            );
        }
    }
    tables.push(table);
}

/// Where column `column` of line `line` of the notes is in `run.yaml`, when
/// the notes are a literal block (`notes: |`), whose lines are the file's
/// lines below the key; otherwise (a folded or quoted value) the key's
/// position `key`, since the lines of the text are not those of the file.
fn notes_position(text: &str, key: Span, notes: &str, line: usize, column: usize) -> Span {
    let file_lines: Vec<&str> = text.lines().collect();
    let literal = file_lines
        .get(key.line.wrapping_sub(1))
        .and_then(|l| l.split_once(':'))
        .is_some_and(|(_, v)| v.trim_start().starts_with('|'));
    let (Some(written), Some(read)) = (
        file_lines.get(key.line + line - 1),
        notes.lines().nth(line - 1),
    ) else {
        return key;
    };
    match written.strip_suffix(read) {
        Some(indent) if literal && indent.chars().all(|c| c == ' ') => {
            Span::new(key.line + line, indent.len() + column)
        }
        _ => key,
    }
}

/// A table file must be a plain name inside the run folder.
fn safe_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.contains(['/', '\\'])
        && name != "."
        && name != ".."
        && !name.starts_with('.')
}

/// A chart's `marks`: each a `y` value (a number) and a `label`.
fn marks(doc: &mut Doc<'_>, co: Obj<'_>, chart: &str) -> Vec<Mark> {
    let mut out = Vec::new();
    for (k, m) in doc.list(co, "marks").iter().enumerate() {
        let path = format!("{chart}.marks[{k}]");
        let Some(mo) = doc.object(m, &path, MARK_FIELDS) else {
            continue;
        };
        let label = doc.req_string(mo, "label");
        let y = match doc.get(mo, "y") {
            Some(Value::Number(n)) => n.as_f64().filter(|v| v.is_finite()),
            None => {
                doc.error_hint(
                    &path,
                    "missing required field `y`",
                    Some("add `y:` with the value where the line runs"),
                );
                None
            }
            Some(v) => {
                doc.error_hint(
                    &join(&path, "y"),
                    format!("expected a number, found {}", describe(v)),
                    Some("write the value without quotes or units, e.g. `y: 32`"),
                );
                None
            }
        };
        if let (Some(y), Some(label)) = (y, label) {
            out.push(Mark { y, label });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position and field of each warning `check` gives for `notes`.
    fn warnings_at(notes: &str) -> Vec<String> {
        let yaml = format!(
            "title: T\ndate: 2026-08-17\nsetups:\n  - engine: vllm\n{notes}tables:\n  - file: t.csv\n    title: T\n    columns:\n      a: {{unit: s, description: A}}\ncharts:\n  - {{id: c, title: C, table: t.csv, x: a, y: a}}\n"
        );
        let csv = |_: &str| TableText::Text("a\n1\n".to_string());
        let (run, diags) = parse_run_text(Path::new("data/runs/r"), &yaml, &csv);
        assert!(run.is_some());
        diags
            .iter()
            .map(|d| format!("{}:{} {:?}", d.span.line, d.span.column, d.field))
            .collect()
    }

    #[test]
    fn a_notes_warning_points_at_its_line_in_a_literal_block_and_at_the_key_otherwise() {
        let literal = "notes: |\n  One paragraph at concurrency\n  1. and on.\n";
        assert_eq!(warnings_at(literal), ["7:3 Some(\"notes\")"]);
        let indented = "notes: |-\n    Deeper at concurrency\n    1. and on.\n";
        assert_eq!(warnings_at(indented), ["7:5 Some(\"notes\")"]);
        // A quoted value's lines are not the file's: the key is blamed.
        let quoted = "notes: \"At concurrency\\n1. and on.\"\n";
        assert_eq!(warnings_at(quoted), ["5:1 Some(\"notes\")"]);
        assert_eq!(
            warnings_at("notes: |\n  Fine.\n\n  1. A list.\n"),
            Vec::<String>::new()
        );
    }
}
