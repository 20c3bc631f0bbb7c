//! The tables result files become: rows of cells, one cell per column of a
//! table of the [vocabulary](super::vocabulary), empty (`None`) where the
//! file has no such figure. Never 0 for a missing figure: an empty cell and
//! a measured 0 mean different things on a chart. A column says what it
//! holds ([`Column`], [`Kind`]); which columns there are is the
//! vocabulary's to say, which builds on this file (and is re-exported
//! there: `vocabulary::Column`).

use std::marker::PhantomData;

/// Whether a column holds numbers or text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Numbers.
    Number,
    /// Text.
    Text,
}

/// One column of the vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// Its name, as the CSV header writes it.
    pub name: &'static str,
    /// Numbers or text.
    pub kind: Kind,
    /// The unit, empty for text and plain counts without one.
    pub unit: &'static str,
    /// What it means.
    pub definition: &'static str,
}

/// The columns of one table of the vocabulary (an enum per table, made by
/// the `columns!` macro of `vocabulary.rs`).
pub trait Columns: Copy + Eq + std::fmt::Debug + 'static {
    /// The table's name (`results`).
    const TABLE: &'static str;
    /// Every column, in order.
    const ALL: &'static [Column];
    /// The column's position in [`Columns::ALL`].
    fn index(self) -> usize;
    /// The column's description.
    fn column(self) -> &'static Column {
        &Self::ALL[self.index()]
    }
    /// The column's name.
    fn name(self) -> &'static str {
        self.column().name
    }
}

/// One cell's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// A number (never NaN; infinite only for an unlimited request rate).
    Num(f64),
    /// Text.
    Text(String),
}

impl Cell {
    /// The number, if the cell holds one.
    pub fn as_num(&self) -> Option<f64> {
        match self {
            Cell::Num(x) => Some(*x),
            Cell::Text(_) => None,
        }
    }

    /// The text, if the cell holds text.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Cell::Text(s) => Some(s),
            Cell::Num(_) => None,
        }
    }

    /// The value as it is written in a CSV file: numbers in their shortest
    /// exact form (`32000`, `336.2985474784618`, `inf`).
    pub fn csv(&self) -> String {
        match self {
            Cell::Num(x) => format_number(*x),
            Cell::Text(s) => s.clone(),
        }
    }
}

/// A number as the CSV tables write it.
pub fn format_number(x: f64) -> String {
    if x == f64::INFINITY {
        "inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{x}")
    }
}

/// One row of a table with columns `C`.
#[derive(Clone, PartialEq)]
pub struct Row<C: Columns> {
    cells: Vec<Option<Cell>>,
    _columns: PhantomData<C>,
}

impl<C: Columns> Default for Row<C> {
    fn default() -> Self {
        Row {
            cells: vec![None; C::ALL.len()],
            _columns: PhantomData,
        }
    }
}

impl<C: Columns> std::fmt::Debug for Row<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut m = f.debug_map();
        for (col, cell) in C::ALL.iter().zip(&self.cells) {
            if let Some(cell) = cell {
                m.entry(&col.name, cell);
            }
        }
        m.finish()
    }
}

impl<C: Columns> Row<C> {
    /// The cell of `col`.
    pub fn get(&self, col: C) -> Option<&Cell> {
        self.cells[col.index()].as_ref()
    }

    /// The number in `col`.
    pub fn num(&self, col: C) -> Option<f64> {
        self.get(col).and_then(Cell::as_num)
    }

    /// The text in `col`.
    pub fn text(&self, col: C) -> Option<&str> {
        self.get(col).and_then(Cell::as_text)
    }

    /// Every column with its cell, in vocabulary order.
    pub fn cells(&self) -> impl Iterator<Item = (&'static Column, Option<&Cell>)> + '_ {
        C::ALL.iter().zip(self.cells.iter().map(Option::as_ref))
    }

    /// The cell of the column named `name` (`None` also for an unknown name).
    pub fn by_name(&self, name: &str) -> Option<&Cell> {
        let i = C::ALL.iter().position(|c| c.name == name)?;
        self.cells[i].as_ref()
    }

    /// Sets `col` to a number; NaN leaves it empty.
    pub(crate) fn set_num(&mut self, col: C, x: Option<f64>) {
        debug_assert_eq!(col.column().kind, Kind::Number, "{col:?}");
        self.cells[col.index()] = x.filter(|x| !x.is_nan()).map(Cell::Num);
    }

    /// Sets `col` to text; empty text leaves it empty.
    pub(crate) fn set_text(&mut self, col: C, s: Option<impl Into<String>>) {
        debug_assert_eq!(col.column().kind, Kind::Text, "{col:?}");
        self.cells[col.index()] = s.map(Into::into).filter(|s| !s.is_empty()).map(Cell::Text);
    }

    /// Sets `col` only when it is empty.
    pub(crate) fn fill_text(&mut self, col: C, s: Option<&str>) {
        if self.get(col).is_none() {
            self.set_text(col, s);
        }
    }
}

/// A table: rows, all with the columns `C`.
#[derive(Clone, PartialEq)]
pub struct Table<C: Columns> {
    /// The rows, in the order of the file.
    pub rows: Vec<Row<C>>,
}

impl<C: Columns> Default for Table<C> {
    fn default() -> Self {
        Table { rows: Vec::new() }
    }
}

impl<C: Columns> std::fmt::Debug for Table<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.rows).finish()
    }
}

impl<C: Columns> Table<C> {
    /// Whether the table has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// The columns that have a value in at least one row, in vocabulary
    /// order: what a CSV of this table holds.
    pub fn used_columns(&self) -> Vec<&'static Column> {
        C::ALL
            .iter()
            .enumerate()
            .filter(|(i, _)| self.rows.iter().any(|r| r.cells[*i].is_some()))
            .map(|(_, c)| c)
            .collect()
    }

    /// The table as CSV: a header of the [used columns](Table::used_columns),
    /// then one line per row; an empty cell where a row has no value.
    pub fn to_csv(&self) -> String {
        let used: Vec<usize> = C::ALL
            .iter()
            .enumerate()
            .filter(|(i, _)| self.rows.iter().any(|r| r.cells[*i].is_some()))
            .map(|(i, _)| i)
            .collect();
        let mut w = csv::WriterBuilder::new()
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        let header: Vec<&str> = used.iter().map(|&i| C::ALL[i].name).collect();
        // Writing into a Vec cannot fail.
        let _ = w.write_record(&header);
        for r in &self.rows {
            let line: Vec<String> = used
                .iter()
                .map(|&i| r.cells[i].as_ref().map(Cell::csv).unwrap_or_default())
                .collect();
            let _ = w.write_record(&line);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    pub(crate) fn push(&mut self, row: Row<C>) {
        self.rows.push(row);
    }
}
