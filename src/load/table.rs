//! A run's CSV tables. Takes a table's text (or why it is missing or
//! unreadable) and its description in `run.yaml`; fills in the [`Table`]'s
//! header, rows and row lines, with a diagnostic for each bad shape,
//! undescribed or missing column, and cell that is not a number.

use super::fields::join;
use super::run::TableText;
use super::MAX_TABLE_ROWS;
use crate::diagnostics::{listing, Diagnostic, Diagnostics, Span};
use crate::record::{Column, Spans, Table};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// Reads a run's CSV table, checking shape, descriptions and numbers.
pub(super) fn read_csv(
    tables_text: &dyn Fn(&str) -> TableText,
    dir: &Path,
    table: &mut Table,
    diags: &mut Diagnostics,
    yaml_path: &str,
    spans: &Spans,
    described: bool,
) {
    let rel = dir.join(&table.file);
    let run_yaml = dir.join("run.yaml");
    let text = match tables_text(&table.file) {
        TableText::Text(t) => t,
        TableText::Unreadable(d) => {
            diags.push(d);
            return;
        }
        TableText::Missing => {
            diags.push(
                Diagnostic::error(
                    &run_yaml,
                    spans.get(&join(yaml_path, "file")),
                    format!("the table file \"{}\" does not exist", table.file),
                )
                .field(join(yaml_path, "file"))
                .hint(format!("create {} or fix the name", rel.display())),
            );
            return;
        }
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    // The csv crate gives a record the line where reading it began, which is
    // before any blank lines it skipped; count those to get the record's own line.
    let line_of = |p: Option<&csv::Position>| -> usize {
        p.map_or(0, |p| {
            let skipped = text
                .as_bytes()
                .get(p.byte() as usize..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| **b == b'\n')
                .count();
            p.line() as usize + skipped
        })
    };
    // Where each cell of a record starts, as file positions: quoted cells
    // may hold commas and line ends, so the record's text is walked, once
    // for all its cells (a row may have thousands that are wrong).
    // The last position is where the walk stopped: the end of the record.
    let cells_at = |p: Option<&csv::Position>| -> Vec<Span> {
        let Some(p) = p else {
            return vec![Span::new(0, 1)];
        };
        let start = p.byte() as usize;
        let rest = text.get(start..).unwrap_or_default();
        let rest = rest.trim_start_matches('\n');
        let (mut line, mut col) = (line_of(Some(p)), 1);
        let mut quoted = false;
        let mut starts = vec![Span::new(line, col)];
        for c in rest.chars() {
            match c {
                '"' => quoted = !quoted,
                '\n' if !quoted => break,
                _ => {}
            }
            if c == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
            if c == ',' && !quoted {
                starts.push(Span::new(line, col));
            }
        }
        starts.push(Span::new(line, col));
        starts
    };
    // Cell `k` of a record whose positions are `cells` (the walk may find
    // fewer cells than the CSV reader, around a stray quote: those are at
    // the end of the record).
    let cell = |cells: &[Span], k: usize| -> Span {
        cells[..cells.len() - 1]
            .get(k)
            .or(cells.last())
            .copied()
            .unwrap_or(Span::new(0, 1))
    };
    let mut records = reader.records();
    let (header, header_line) = match records.next() {
        Some(Ok(h)) => (
            h.iter().map(|s| s.trim().to_string()).collect::<Vec<_>>(),
            (line_of(h.position()), h),
        ),
        Some(Err(e)) => {
            diags.push(Diagnostic::error(
                &rel,
                Span::new(line_of(e.position()).max(1), 1),
                format!("CSV: {e}"),
            ));
            return;
        }
        None => {
            diags.push(
                Diagnostic::error(&rel, Span::new(1, 1), "the table is empty")
                    .hint("write a header row, then one row per point"),
            );
            return;
        }
    };
    let (header_line, header_rec) = header_line;
    let header_cells = cells_at(header_rec.position());
    // The first description of each column, and the names seen so far.
    let mut described_as: HashMap<&str, &Column> = HashMap::new();
    for c in &table.columns {
        described_as.entry(c.name.as_str()).or_insert(c);
    }
    let mut named: HashSet<&str> = HashSet::new();
    for (i, h) in header.iter().enumerate() {
        let at = cell(&header_cells, i);
        if h.is_empty() {
            diags.push(
                Diagnostic::error(&rel, at, format!("column {} has no name", i + 1))
                    .hint("give every column a name in the first row (a trailing comma makes an empty one)"),
            );
        } else if !named.insert(h) {
            diags.push(Diagnostic::error(
                &rel,
                at,
                format!("column \"{h}\" appears twice in the header"),
            ));
        } else if described && !described_as.contains_key(h.as_str()) {
            diags.push(
                Diagnostic::error(&run_yaml, spans.get(&join(yaml_path, "columns")), format!("column \"{h}\" of {} is not described", table.file))
                    .field(join(yaml_path, "columns"))
                    .hint(format!("add `{h}: {{unit: ..., description: ...}}` under columns (leave out unit for a text column)")),
            );
        }
    }
    let in_header: HashSet<&str> = header.iter().map(String::as_str).collect();
    for c in table.columns.iter().filter(|_| described) {
        if !in_header.contains(c.name.as_str()) {
            let p = format!("{yaml_path}.columns.{}", c.name);
            diags.push(
                Diagnostic::error(
                    &run_yaml,
                    spans.get(&p),
                    format!(
                        "column \"{}\" is described but not in {}",
                        c.name, table.file
                    ),
                )
                .field(p)
                .hint(format!(
                    "the header of {} has: {}",
                    table.file,
                    listing(&header)
                )),
            );
        }
    }
    // Whether each column of the header is numeric (described with a unit).
    let numeric: Vec<bool> = header
        .iter()
        .map(|h| described_as.get(h.as_str()).is_some_and(|c| c.is_numeric()))
        .collect();
    let mut data_records = 0;
    for rec in records {
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                diags.push(Diagnostic::error(
                    &rel,
                    Span::new(line_of(e.position()), 1),
                    format!("CSV: {e}"),
                ));
                break;
            }
        };
        let line = line_of(rec.position());
        if rec.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        data_records += 1;
        if table.rows.len() >= MAX_TABLE_ROWS {
            diags.push(Diagnostic::error(
                &rel,
                Span::new(line, 1),
                format!("the table has more than {MAX_TABLE_ROWS} rows"),
            ));
            break;
        }
        if rec.len() != header.len() {
            let hint = if rec.iter().any(|c| c.contains('\n')) {
                "a cell that starts with a quote (\") runs to the next quote, across lines; is a closing quote missing?"
            } else {
                "every row needs one cell per column; leave a cell empty for a missing value"
            };
            diags.push(
                Diagnostic::error(
                    &rel,
                    Span::new(line, 1),
                    format!(
                        "row has {}, the header has {}",
                        crate::diagnostics::plural(rec.len(), "cell", "cells"),
                        header.len()
                    ),
                )
                .hint(hint),
            );
            continue;
        }
        let row: Vec<String> = rec.iter().map(|s| s.trim().to_string()).collect();
        let mut cells: Option<Vec<Span>> = None;
        for (k, value) in row.iter().enumerate() {
            if numeric[k] && !value.is_empty() && parse_number(value).is_none() {
                let at = cell(cells.get_or_insert_with(|| cells_at(rec.position())), k);
                diags.push(
                    Diagnostic::error(&rel, at, format!("expected a number, found \"{value}\""))
                        .field(header[k].clone())
                        .hint("numeric columns (those with a unit) take plain numbers like 1274 or 0.5, without thousands separators; leave the cell empty for no value"),
                );
            }
        }
        table.rows.push(row);
        table.row_lines.push(line);
    }
    if data_records == 0 {
        diags.push(
            Diagnostic::error(
                &rel,
                Span::new(header_line, 1),
                "the table has a header but no rows",
            )
            .hint("add one row per measured point"),
        );
    }
    table.header = header;
}

/// Parses a CSV number: plain decimal, optional sign and exponent; finite.
pub fn parse_number(s: &str) -> Option<f64> {
    let ok = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    if !ok {
        return None;
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}
