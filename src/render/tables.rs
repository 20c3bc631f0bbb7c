//! Run tables as pages show them: every cell as readers read it (numbers
//! rounded by [`crate::figures`], with the column's unit in its heading),
//! numeric cells marked so that they line up, and a long table folded.
//!
//! A table of more than [`urls::TABLE_FOLD`] rows is shown by a summary:
//! an evenly spaced sample of its rows (the first and the last among them),
//! each numbered, then the lowest and the highest value of each numeric
//! column. Every row is one click away, on the table's own pages
//! ([`urls::run_table`], `pages/table.rs`), and in its CSV. Columns that
//! are empty in every row are left out of the view (the CSV keeps them).
//!
//! Takes a run's [`Table`]; hands pages the header and the rows as HTML
//! (`rows_html`: a template loop over every cell was most of a run page's
//! rendering).

use crate::record::Table;
use crate::urls::{self, ROOT};
use crate::util::push_escaped_html;
use serde::Serialize;
use std::collections::BTreeMap;

/// How many rows the summary of a folded table samples, the first and the
/// last among them.
pub(crate) const SAMPLE_ROWS: usize = 10;

/// A run table as a page shows it.
#[derive(Serialize, Clone)]
pub(crate) struct TableView {
    /// The headings of the columns shown, each with its unit; a folded
    /// table's first column numbers its rows.
    pub(crate) header: Vec<String>,
    /// The rows shown, as HTML.
    pub(crate) rows_html: String,
    /// How many rows the table has.
    pub(crate) total: usize,
    /// How many rows are shown (a folded table: its sample).
    pub(crate) shown: usize,
    /// Whether the table is folded into its summary.
    pub(crate) folded: bool,
    /// The first page of every row, for a folded table.
    pub(crate) all_url: Option<String>,
    /// The columns left out because no row has a value in them.
    pub(crate) empty_columns: Vec<String>,
    /// The rows shown, by their place in the table.
    #[serde(skip)]
    pub(crate) rows: Vec<usize>,
}

/// The columns of `table` that some row gives a value, by their place in
/// the header.
fn used_columns(table: &Table) -> Vec<usize> {
    (0..table.header.len())
        .filter(|&i| {
            table
                .rows
                .iter()
                .any(|r| r.get(i).is_some_and(|c| !c.trim().is_empty()))
        })
        .collect()
}

/// The view of `table` of run `run_id`: whole up to [`urls::TABLE_FOLD`]
/// rows, else its summary. `engines` names engine ids in headings.
pub(crate) fn view(run_id: &str, table: &Table, engines: &BTreeMap<String, String>) -> TableView {
    let used = used_columns(table);
    let empty_columns = (0..table.header.len())
        .filter(|i| !used.contains(i))
        .map(|i| heading(table, i, engines))
        .collect();
    let total = table.rows.len();
    let folded = total > urls::TABLE_FOLD;
    let mut header: Vec<String> = Vec::with_capacity(used.len() + 1);
    if folded {
        header.push("Row".to_string());
    }
    header.extend(used.iter().map(|&i| heading(table, i, engines)));
    let (rows_html, rows) = if folded {
        let sample = sample(total);
        (summary_html(table, &used, &sample), sample)
    } else {
        (
            rows_html(table, &used, 0..total, false),
            (0..total).collect(),
        )
    };
    TableView {
        header,
        rows_html,
        total,
        shown: rows.len(),
        folded,
        all_url: folded.then(|| format!("{ROOT}{}", urls::run_table(run_id, &table.file))),
        empty_columns,
        rows,
    }
}

/// Rows `range` of `table` with their numbers, as a page of every row
/// shows them, and the headings of the columns.
pub(crate) fn page(
    table: &Table,
    range: std::ops::Range<usize>,
    engines: &BTreeMap<String, String>,
) -> (Vec<String>, String) {
    let used = used_columns(table);
    let mut header = vec!["Row".to_string()];
    header.extend(used.iter().map(|&i| heading(table, i, engines)));
    (header, rows_html(table, &used, range, true))
}

/// Column `i`'s heading: its title and unit, or the CSV name of a column
/// `run.yaml` does not describe.
fn heading(table: &Table, i: usize, engines: &BTreeMap<String, String>) -> String {
    let h = &table.header[i];
    table
        .column(h)
        .map_or_else(|| h.clone(), |c| c.heading(engines))
}

/// The rows a summary samples of a table of `n` rows: evenly spaced,
/// the first and the last among them.
fn sample(n: usize) -> Vec<usize> {
    if n <= SAMPLE_ROWS {
        return (0..n).collect();
    }
    let mut rows: Vec<usize> = (0..SAMPLE_ROWS)
        .map(|k| (k * (n - 1) + (SAMPLE_ROWS - 1) / 2) / (SAMPLE_ROWS - 1))
        .collect();
    rows.dedup();
    rows
}

/// The units of the columns `used`, in their order (`None` for text).
fn units<'t>(table: &'t Table, used: &[usize]) -> Vec<Option<&'t str>> {
    used.iter()
        .map(|&i| {
            table
                .column(&table.header[i])
                .and_then(|c| c.unit.as_deref())
        })
        .collect()
}

/// Rows `rows` of `table`, columns `used`, as `<tr>` elements, each
/// numbered (a `<th>` of its place from 1) when `numbered`.
fn rows_html(
    table: &Table,
    used: &[usize],
    rows: impl Iterator<Item = usize>,
    numbered: bool,
) -> String {
    let units = units(table, used);
    let mut html = String::new();
    for r in rows {
        let Some(row) = table.rows.get(r) else {
            continue;
        };
        html.push_str("<tr>");
        if numbered {
            html.push_str("<th scope=\"row\" class=\"num\">");
            html.push_str(&crate::figures::number((r + 1) as f64));
            html.push_str("</th>");
        }
        for (&i, unit) in used.iter().zip(&units) {
            let cell = row.get(i).map_or("", String::as_str);
            // A model is named without a local path (the CSV keeps it).
            if table.header[i] == "model" {
                push_cell(&mut html, &crate::record::model_name(cell), *unit);
            } else {
                push_cell(&mut html, cell, *unit);
            }
        }
        html.push_str("</tr>");
    }
    html
}

/// One cell: a number as readers read it, right-aligned; text as it is.
fn push_cell(html: &mut String, text: &str, unit: Option<&str>) {
    html.push_str(if unit.is_some() {
        "<td class=\"num\">"
    } else {
        "<td>"
    });
    push_escaped_html(html, &crate::figures::cell_text(text, unit));
    html.push_str("</td>");
}

/// A folded table's summary: the sampled rows, then the lowest and the
/// highest value of each numeric column.
fn summary_html(table: &Table, used: &[usize], sample: &[usize]) -> String {
    let mut html = rows_html(table, used, sample.iter().copied(), true);
    let units = units(table, used);
    // The extremes as the file writes them, so that each is shown as its
    // cell would be.
    let mut lo: Vec<Option<(f64, &str)>> = vec![None; used.len()];
    let mut hi: Vec<Option<(f64, &str)>> = vec![None; used.len()];
    for row in &table.rows {
        for (k, &i) in used.iter().enumerate() {
            if units[k].is_none() {
                continue;
            }
            let Some(text) = row.get(i).map(|c| c.trim()) else {
                continue;
            };
            let Ok(x) = text.parse::<f64>() else {
                continue;
            };
            if x.is_nan() {
                continue;
            }
            if lo[k].is_none_or(|(m, _)| x < m) {
                lo[k] = Some((x, text));
            }
            if hi[k].is_none_or(|(m, _)| x > m) {
                hi[k] = Some((x, text));
            }
        }
    }
    for (name, ends) in [("Lowest", &lo), ("Highest", &hi)] {
        html.push_str("<tr class=\"extreme\"><th scope=\"row\">");
        html.push_str(name);
        html.push_str("</th>");
        for (k, end) in ends.iter().enumerate() {
            push_cell(&mut html, end.map_or("", |(_, t)| t), units[k]);
        }
        html.push_str("</tr>");
    }
    html
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Column;

    fn table(rows: usize) -> Table {
        Table {
            file: "series.csv".into(),
            title: "Series".into(),
            columns: vec![
                Column {
                    name: "t_s".into(),
                    label: Some("Time".into()),
                    unit: Some("s".into()),
                    description: String::new(),
                },
                Column {
                    name: "kv_usage".into(),
                    label: Some("KV cache in use".into()),
                    unit: Some("fraction".into()),
                    description: String::new(),
                },
                Column {
                    name: "note".into(),
                    label: None,
                    unit: None,
                    description: String::new(),
                },
            ],
            header: vec!["t_s".into(), "kv_usage".into(), "note".into()],
            rows: (0..rows)
                .map(|r| {
                    vec![
                        format!("{}", r as f64 * 0.259172704000008),
                        format!("{}", (r % 7) as f64 / 7.0),
                        String::new(),
                    ]
                })
                .collect(),
            row_lines: (0..rows).map(|r| r + 2).collect(),
            path_in_yaml: "tables[0]".into(),
            derived: Some("series".into()),
        }
    }

    #[test]
    fn a_short_table_is_shown_whole_and_rounded() {
        let v = view("run", &table(3), &BTreeMap::new());
        assert!(!v.folded);
        assert_eq!(v.header, ["Time (s)", "KV cache in use (%)"]);
        assert_eq!(v.empty_columns, ["Note"]);
        assert_eq!(
            v.rows_html,
            "<tr><td class=\"num\">0</td><td class=\"num\">0</td></tr>\
             <tr><td class=\"num\">0.2592</td><td class=\"num\">14.29</td></tr>\
             <tr><td class=\"num\">0.5183</td><td class=\"num\">28.57</td></tr>"
        );
    }

    #[test]
    fn a_long_table_is_sampled_with_its_extremes() {
        let v = view("xray", &table(397), &BTreeMap::new());
        assert!(v.folded);
        assert_eq!(v.shown, SAMPLE_ROWS);
        assert_eq!(v.total, 397);
        assert_eq!(
            v.all_url.as_deref(),
            Some("@@root@@/runs/xray/tables/series/")
        );
        assert_eq!(v.header[0], "Row");
        // The first and the last row are numbered 1 and 397.
        assert!(v
            .rows_html
            .starts_with("<tr><th scope=\"row\" class=\"num\">1</th>"));
        assert!(v
            .rows_html
            .contains("<th scope=\"row\" class=\"num\">397</th><td class=\"num\">102.6</td>"));
        assert!(v.rows_html.contains(
            "<tr class=\"extreme\"><th scope=\"row\">Highest</th><td class=\"num\">102.6</td><td class=\"num\">85.71</td></tr>"
        ));
        assert_eq!(sample(397), [0, 44, 88, 132, 176, 220, 264, 308, 352, 396]);
        assert_eq!(sample(21).len(), SAMPLE_ROWS);
        assert_eq!(sample(21).last(), Some(&20));
    }
}
