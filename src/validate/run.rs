//! The rules of one run: a chart at all, tables and chart ids listed once,
//! chart columns that exist (and hold numbers where an axis needs them),
//! positive values on log axes, the size limit, and the chart read as the
//! build will. Takes the run with the engines' colours and names; hands on
//! its diagnostics, at `run.yaml` or at the CSV row.

use super::hints::{Hints, Known};
use crate::chart;
use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::load::{parse_number, Loaded};
use crate::record::*;
use std::collections::{BTreeMap, HashMap, HashSet};

pub(super) fn check_run(
    loaded: &Loaded,
    run: &Run,
    colors: &BTreeMap<String, String>,
    names: &BTreeMap<String, String>,
    diags: &mut Diagnostics,
) {
    let file = &run.path;
    let e =
        |field: &str, msg: String| Diagnostic::error(file, run.spans.get(field), msg).field(field);
    // An accuracy run's page leads with its scores (and draws them where
    // it has two or more): its effect is seen without a chart listed.
    let scored = run
        .tables
        .iter()
        .any(|t| t.derived.as_deref() == Some("scores"));
    if run.charts.is_empty() && !scored {
        diags.push(
            Diagnostic::warning(file, run.spans.origin, "the run has no chart")
                .hint("add a chart under `charts:` so readers see the effect"),
        );
    }
    let mut seen = HashSet::new();
    for t in &run.tables {
        if !seen.insert(&t.file) {
            diags.push(e(
                &format!("{}.file", t.path_in_yaml),
                format!("table \"{}\" is listed twice", t.file),
            ));
        }
    }
    let mut hints = Hints::new();
    let mut by_file: HashMap<&str, usize> = HashMap::new();
    for (i, t) in run.tables.iter().enumerate() {
        by_file.entry(t.file.as_str()).or_insert(i);
    }
    let files = Known::new(run.tables.iter().map(|t| t.file.as_str()));
    let mut lookups: Vec<Option<Lookup<'_>>> = run.tables.iter().map(|_| None).collect();
    // The values of the charts read so far (see below).
    let mut read_values = 0usize;
    let mut seen = HashSet::new();
    for c in &run.charts {
        let p = &c.path_in_yaml;
        // This chart's own problems, to know whether it can be drawn.
        let mut mine = Diagnostics::new();
        if !c.id.is_empty() && !seen.insert(&c.id) {
            mine.push(e(
                &format!("{p}.id"),
                format!("chart id \"{}\" is used twice in this run", c.id),
            ));
        }
        let Some(&at) = by_file.get(c.table.as_str()) else {
            if !c.table.is_empty() {
                diags.push(
                    e(
                        &format!("{p}.table"),
                        format!("the run has no table \"{}\"", c.table),
                    )
                    .hint(hints.suggest(&c.table, &files, "tables")),
                );
            }
            diags.extend(mine);
            continue;
        };
        let table = &run.tables[at];
        if table.header.is_empty() {
            diags.extend(mine);
            continue; // the table itself is already reported
        }
        let look = &*lookups[at].get_or_insert_with(|| Lookup::new(table));
        let mut need = |field: String, col: &str, numeric: bool| {
            if col.is_empty() {
                return;
            }
            if !look.index.contains_key(col) {
                mine.push(
                    e(&field, format!("column \"{col}\" is not in {}", table.file))
                        .hint(hints.suggest(col, &look.header, "columns")),
                );
            } else if numeric && look.columns.get(col).is_some_and(|c| !c.is_numeric()) {
                mine.push(e(&field, format!("column \"{col}\" holds text, but this axis needs numbers")).hint(format!("give \"{col}\" a unit in the table's columns to make it numeric, or plot another column")));
            }
        };
        let numeric_x = matches!(
            c.kind,
            ChartKind::Line | ChartKind::Scatter | ChartKind::Cdf
        );
        need(format!("{p}.x"), &c.x, numeric_x);
        for (k, y) in c.y.iter().enumerate() {
            let field = if c.y.len() == 1 {
                format!("{p}.y")
            } else {
                format!("{p}.y[{k}]")
            };
            need(field, y, true);
        }
        if let Some(s) = &c.series {
            need(format!("{p}.series"), s, false);
        }
        if c.kind == ChartKind::Cdf && c.log_y {
            mine.push(
                e(
                    &format!("{p}.log_y"),
                    "a cdf chart's y axis is a share from 0 to 100%, which a logarithmic axis cannot show".to_string(),
                )
                .hint("remove `log_y`; `log_x` spreads out values of many sizes"),
            );
        }
        for (k, m) in c.marks.iter().enumerate() {
            if c.log_y && m.y <= 0.0 {
                mine.push(
                    e(
                        &format!("{p}.marks[{k}].y"),
                        format!(
                            "{} is not above zero, but the chart's y axis is logarithmic",
                            m.y
                        ),
                    )
                    .hint("mark a value above zero, or use a linear axis"),
                );
            }
        }
        let rel = run.path.with_file_name(&table.file);
        // What follows reads the chart's rows, as drawing it will: only for
        // a chart within its own limit, and while the charts of the run
        // stay within theirs together (a run of thousands of charts over
        // one big table took minutes to read, and would make a page no
        // one could open).
        let values = table.rows.len().saturating_mul(c.y.len());
        let mut read =
            values <= chart::MAX_CHART_VALUES && read_values <= chart::MAX_RUN_CHART_VALUES;
        if read {
            read_values = read_values.saturating_add(values);
            if read_values > chart::MAX_RUN_CHART_VALUES {
                read = false;
                mine.push(
                    e(
                        p,
                        format!(
                            "with chart \"{}\", the charts of this run would draw {read_values} values; the limit for one run is {}",
                            c.id,
                            chart::MAX_RUN_CHART_VALUES
                        ),
                    )
                    .hint("chart summaries of the data (its CSV tables are published in full anyway), or spread the charts over several runs"),
                );
            }
        }
        // Log axes need positive values; report the exact CSV cell.
        let mut log_cols: Vec<&str> = Vec::new();
        if c.log_x {
            log_cols.push(&c.x);
        }
        if c.log_y {
            log_cols.extend(c.y.iter().map(String::as_str));
        }
        for col in log_cols.into_iter().filter(|_| read) {
            let Some(&k) = look.index.get(col) else {
                continue;
            };
            for (row, line) in table.rows.iter().zip(&table.row_lines) {
                if let Some(v) = parse_number(&row[k]) {
                    if v <= 0.0 {
                        mine.push(
                            Diagnostic::error(
                                &rel,
                                Span::new(*line, 1),
                                format!(
                                    "{} is not above zero, but chart \"{}\" draws it on a log axis",
                                    row[k], c.id
                                ),
                            )
                            .field(col.to_string())
                            .hint("use a linear axis, or leave the cell empty"),
                        );
                    }
                }
            }
        }
        if values > chart::MAX_CHART_VALUES && !loaded.files_with_errors.contains(&rel) {
            mine.push(
                e(
                    p,
                    format!(
                        "chart \"{}\" would draw {values} values ({} rows × {} y columns); the limit is {}",
                        c.id,
                        table.rows.len(),
                        c.y.len(),
                        chart::MAX_CHART_VALUES
                    ),
                )
                .hint("chart a summary of the data (its CSV table is published in full anyway), or split it into several charts"),
            );
        }
        // Read the chart's data as the build will, when nothing above or in
        // the files it reads stands in the way: what only reading finds (a
        // column with no values, two values for one bar) is reported now
        // rather than when building.
        let drawable = mine.is_empty()
            && read
            && !c.id.is_empty()
            && !loaded.files_with_errors.contains(&run.path)
            && !loaded.files_with_errors.contains(&rel);
        diags.extend(mine);
        if !drawable {
            continue;
        }
        let input = chart::ChartInput {
            spec: c,
            table,
            engine_colors: colors,
            engine_names: names,
        };
        if let Err(ce) = chart::check(&input) {
            diags.push(chart_diagnostic(run, c, &rel, &ce));
        }
    }
}

/// A table's header and columns by name, made once for the charts of the
/// run that read it (a run may have thousands of charts, a table thousands
/// of columns).
struct Lookup<'t> {
    /// The first position of each name in the header.
    index: HashMap<&'t str, usize>,
    /// The first description of each column.
    columns: HashMap<&'t str, &'t Column>,
    header: Known<'t>,
}

impl<'t> Lookup<'t> {
    fn new(table: &'t Table) -> Lookup<'t> {
        let mut index = HashMap::new();
        for (i, h) in table.header.iter().enumerate() {
            index.entry(h.as_str()).or_insert(i);
        }
        let mut columns = HashMap::new();
        for c in &table.columns {
            columns.entry(c.name.as_str()).or_insert(c);
        }
        Lookup {
            index,
            columns,
            header: Known::new(table.header.iter().map(String::as_str)),
        }
    }
}

/// A chart that cannot be drawn, as a diagnostic: at the CSV row when the
/// chart module names one, else at the chart in `run.yaml`.
fn chart_diagnostic(
    run: &Run,
    c: &ChartSpec,
    csv: &std::path::Path,
    e: &chart::ChartError,
) -> Diagnostic {
    // The chart module writes "row N, column \"c\": " or "row N: " in front
    // of row problems; the diagnostic's position says that already.
    let mut msg = e.message.as_str();
    if let Some(line) = e.row_line {
        let prefix = format!("row {line}");
        if let Some(rest) = msg.strip_prefix(&prefix) {
            let rest = match (&e.column, rest.strip_prefix(", column \"")) {
                (Some(_), Some(r)) => r.split_once("\": ").map_or(rest, |(_, r)| r),
                _ => rest.strip_prefix(": ").unwrap_or(rest),
            };
            msg = rest;
        }
    }
    let message = format!("chart \"{}\" cannot be drawn: {msg}", c.id);
    match e.row_line {
        Some(line) => {
            let d = Diagnostic::error(csv, Span::new(line, 1), message);
            match &e.column {
                Some(col) => d.field(col.clone()),
                None => d,
            }
        }
        None => Diagnostic::error(&run.path, run.spans.get(&c.path_in_yaml), message)
            .field(c.path_in_yaml.clone()),
    }
}
