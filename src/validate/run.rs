//! The rules of one run: a chart at all, tables and chart ids listed once,
//! chart columns that exist (and hold numbers where an axis needs them),
//! positive values on log axes, the size limit, and the chart read as the
//! build will. Takes the run with the engines' colours and names; hands on
//! its diagnostics, at `run.yaml` or at the CSV row.

use super::suggest;
use crate::chart;
use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::load::{parse_number, Loaded};
use crate::record::*;
use std::collections::{BTreeMap, HashSet};

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
    if run.charts.is_empty() {
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
        let Some(table) = run.table(&c.table) else {
            if !c.table.is_empty() {
                let files: Vec<&str> = run.tables.iter().map(|t| t.file.as_str()).collect();
                diags.push(
                    e(
                        &format!("{p}.table"),
                        format!("the run has no table \"{}\"", c.table),
                    )
                    .hint(suggest(&c.table, &files, "tables")),
                );
            }
            diags.extend(mine);
            continue;
        };
        if table.header.is_empty() {
            diags.extend(mine);
            continue; // the table itself is already reported
        }
        let mut need = |field: String, col: &str, numeric: bool| {
            if col.is_empty() {
                return;
            }
            if table.index(col).is_none() {
                let hs: Vec<&str> = table.header.iter().map(String::as_str).collect();
                mine.push(
                    e(&field, format!("column \"{col}\" is not in {}", table.file))
                        .hint(suggest(col, &hs, "columns")),
                );
            } else if numeric && table.column(col).is_some_and(|c| !c.is_numeric()) {
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
        // Log axes need positive values; report the exact CSV cell.
        let rel = run.path.with_file_name(&table.file);
        let mut log_cols: Vec<&str> = Vec::new();
        if c.log_x {
            log_cols.push(&c.x);
        }
        if c.log_y {
            log_cols.extend(c.y.iter().map(String::as_str));
        }
        for col in log_cols {
            let Some(k) = table.index(col) else { continue };
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
        let values = table.rows.len().saturating_mul(c.y.len());
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
