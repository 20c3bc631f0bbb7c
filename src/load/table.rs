//! A run's CSV tables. Takes a table's text (or why it is missing or
//! unreadable) and its description in `run.yaml`; fills in the [`Table`]'s
//! header, rows and row lines, with a diagnostic for each bad shape,
//! undescribed or missing column, and cell that is not a number.

use super::fields::join;
use super::run::TableText;
use super::MAX_TABLE_ROWS;
use crate::diagnostics::{listing, Diagnostic, Diagnostics, Span};
use crate::record::{Column, Spans, Table};
use std::cell::RefCell;
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
    // A record's position is where reading it began, which is before any
    // blank lines the parser skipped; count those to get the record's own line.
    let line_of = |p: &Position| -> usize {
        let skipped = text
            .as_bytes()
            .get(p.byte..)
            .unwrap_or_default()
            .iter()
            .take_while(|b| **b == b'\n')
            .count();
        p.line + skipped
    };
    // Where each cell of a record starts, as file positions: quoted cells
    // may hold commas and line ends, so the record's text is walked, once
    // for all its cells (a row may have thousands that are wrong).
    // The last position is where the walk stopped: the end of the record.
    let cells_at = |p: &Position| -> Vec<Span> {
        let rest = text.get(p.byte..).unwrap_or_default();
        let rest = rest.trim_start_matches('\n');
        let (mut line, mut col) = (line_of(p), 1);
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
    with_parser(|parser| {
        let mut records = Records::new(&text, parser);
        let Some(header_rec) = records.next() else {
            diags.push(
                Diagnostic::error(&rel, Span::new(1, 1), "the table is empty")
                    .hint("write a header row, then one row per point"),
            );
            return;
        };
        let header: Vec<String> = header_rec.iter().map(|s| s.trim().to_string()).collect();
        let header_line = line_of(&header_rec.at);
        let header_cells = cells_at(&header_rec.at);
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
            let line = line_of(&rec.at);
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
                    let at = cell(cells.get_or_insert_with(|| cells_at(&rec.at)), k);
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
    });
}

/// Where reading a record began, as the csv crate counts it: the byte
/// offset and the line (from 1) before any blank lines skipped on the way.
struct Position {
    byte: usize,
    line: usize,
}

/// One record of a table: where reading it began, and its cells.
struct Record {
    at: Position,
    /// The cells' bytes, one after the other.
    bytes: Vec<u8>,
    /// Where each cell ends in `bytes`.
    ends: Vec<usize>,
}

impl Record {
    fn len(&self) -> usize {
        self.ends.len()
    }

    /// The cells. The text was UTF-8 and cells are cut at ASCII commas,
    /// quotes and line ends, so each cell is UTF-8 too.
    fn iter(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(a, &b)| std::str::from_utf8(&self.bytes[a..b]).unwrap_or_default())
    }
}

thread_local! {
    /// A CSV parser per thread, built once: building one makes its state
    /// machine, which cost more than reading a table of a few rows (a fifth
    /// of `check`). (csv-core's own copy of a parser drops the machine, so
    /// it is reset, not copied.)
    static PARSER: RefCell<csv_core::Reader> = RefCell::new(csv_core::Reader::new());
}

/// Runs `read` with this thread's parser, as good as new (or a new one
/// when the thread's parser is in use).
fn with_parser<R>(read: impl FnOnce(&mut csv_core::Reader) -> R) -> R {
    PARSER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut parser) => {
            parser.reset();
            read(&mut parser)
        }
        Err(_) => read(&mut csv_core::Reader::new()),
    })
}

/// The records of a CSV text, read as the csv crate reads them (comma,
/// double quotes, any line end; rows of any length): the same cells and
/// the same positions, with a parser built once per thread instead of
/// once per table.
struct Records<'t, 'p> {
    parser: &'p mut csv_core::Reader,
    input: &'t [u8],
    /// How much of `input` is read.
    read: usize,
    done: bool,
}

impl<'t, 'p> Records<'t, 'p> {
    /// The records of `text`, read by `parser`, which must be new or reset.
    fn new(text: &'t str, parser: &'p mut csv_core::Reader) -> Records<'t, 'p> {
        Records {
            parser,
            input: text.as_bytes(),
            read: 0,
            done: false,
        }
    }
}

impl Iterator for Records<'_, '_> {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        use csv_core::ReadRecordResult;
        if self.done {
            return None;
        }
        let mut record = Record {
            at: Position {
                byte: self.read,
                line: self.parser.line() as usize,
            },
            bytes: vec![0; 64],
            ends: vec![0; 8],
        };
        let (mut wrote, mut ended) = (0, 0);
        loop {
            let (result, read, bytes, ends) = self.parser.read_record(
                &self.input[self.read..],
                &mut record.bytes[wrote..],
                &mut record.ends[ended..],
            );
            self.read += read;
            wrote += bytes;
            ended += ends;
            match result {
                // The whole text is given at once: the next call, with
                // nothing left, tells the parser the text ended.
                ReadRecordResult::InputEmpty => {}
                ReadRecordResult::OutputFull => {
                    let n = record.bytes.len() * 2;
                    record.bytes.resize(n, 0);
                }
                ReadRecordResult::OutputEndsFull => {
                    let n = record.ends.len() * 2;
                    record.ends.resize(n, 0);
                }
                ReadRecordResult::Record => {
                    record.bytes.truncate(wrote);
                    record.ends.truncate(ended);
                    return Some(record);
                }
                ReadRecordResult::End => {
                    self.done = true;
                    return None;
                }
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every record as the csv crate reads it: its byte, its line and its cells.
    fn by_csv_crate(text: &str) -> Vec<(usize, usize, Vec<String>)> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        reader
            .records()
            .map(|r| {
                let r = r.unwrap();
                let p = r.position().unwrap();
                let cells = r.iter().map(str::to_string).collect();
                (p.byte() as usize, p.line() as usize, cells)
            })
            .collect()
    }

    #[test]
    fn records_are_read_as_the_csv_crate_reads_them() {
        let texts = [
            "",
            "\n\n",
            "a,b\n1,2\n",
            "a,b\n1,2",
            "a,b\r\n1,2\r\n\r\n3,4\r\n",
            "\n\na,b\n\n\n1,2\n\n",
            "a,\"b,\nc\"\n\"x\"\"y\",2\n",
            "a,\"unclosed\n1,2\n",
            "\u{feff}a,b\n1,2\n",
            "a,b\n\u{feff}1,2\n",
            "only\n",
            "a,b,c\n1\n1,2,3,4\n,,\n",
            "é,ü\n\"ç\",ñ\n",
        ];
        let long = format!("{},{}\n", "x".repeat(300), "y,".repeat(40));
        for text in texts.iter().copied().chain([long.as_str()]) {
            let ours: Vec<(usize, usize, Vec<String>)> = with_parser(|parser| {
                Records::new(text, parser)
                    .map(|r| {
                        let cells = r.iter().map(str::to_string).collect();
                        (r.at.byte, r.at.line, cells)
                    })
                    .collect()
            });
            assert_eq!(ours, by_csv_crate(text), "{text:?}");
        }
    }
}
