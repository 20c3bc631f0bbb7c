//! Reading the table: the CSV cells named by a chart spec become series (a
//! legend name and a colour each) and their values, as bars over categories
//! or points over a numeric x. Takes a [`ChartInput`]; hands a [`Data`] to
//! layout, drawing and the summary, or a [`ChartError`] naming the line and
//! column at fault.

use super::cdf::{steps, Spread};
use super::text::one_line;
use super::{ChartError, ChartInput, MAX_CHART_VALUES};
use crate::record::{ChartKind, ChartSpec, Table};
use std::collections::BTreeMap;

/// Okabe-Ito colours, in their published order, without black (invisible on a
/// dark page) and with yellow moved last (faint on a light page).
pub(super) const PALETTE: [Rgb; 7] = [
    Rgb(0xE6, 0x9F, 0x00),
    Rgb(0x56, 0xB4, 0xE9),
    Rgb(0x00, 0x9E, 0x73),
    Rgb(0x00, 0x72, 0xB2),
    Rgb(0xD5, 0x5E, 0x00),
    Rgb(0xCC, 0x79, 0xA7),
    Rgb(0xF0, 0xE4, 0x42),
];

/// A colour: red, green, blue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Rgb(pub(super) u8, pub(super) u8, pub(super) u8);

impl Rgb {
    /// `#RRGGBB`.
    pub(super) fn hex(self) -> String {
        format!("#{:02X}{:02X}{:02X}", self.0, self.1, self.2)
    }
}

/// One series: a name for the legend and a colour.
pub(super) struct Series {
    pub(super) name: String,
    pub(super) color: Rgb,
}

/// The series of a chart, keyed by (series cell, y column index).
pub(super) struct SeriesSet {
    pub(super) list: Vec<Series>,
    index: BTreeMap<(String, usize), usize>,
    palette_next: usize,
}

impl SeriesSet {
    fn new() -> Self {
        SeriesSet {
            list: Vec::new(),
            index: BTreeMap::new(),
            palette_next: 0,
        }
    }

    /// The index of the series for a row's series cell (if the chart has a
    /// series column) and y column (if the chart has several), created on
    /// first sight.
    fn get(&mut self, input: &ChartInput, cell: Option<&str>, y: Option<usize>) -> usize {
        let key = (cell.unwrap_or("").to_string(), y.unwrap_or(0));
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let y_name = y
            .and_then(|k| input.spec.y.get(k))
            .map(|name| column_title(input, name));
        let engine = cell.and_then(|c| {
            let color = input.engine_colors.get(c).and_then(|h| parse_hex(h))?;
            Some((input.engine_names.get(c).map_or(c, String::as_str), color))
        });
        let shown = |c: &str| -> String {
            let name = engine.map_or(c, |(n, _)| n);
            if name.trim().is_empty() {
                "(blank)".to_string()
            } else {
                one_line(name)
            }
        };
        let name = match (cell, y_name) {
            (Some(c), Some(y)) => format!("{} – {}", shown(c), one_line(&y)),
            (Some(c), None) => shown(c),
            (None, Some(y)) => one_line(&y),
            // One series of a distribution is its x column's.
            (None, None) => one_line(&column_title(
                input,
                input.spec.y.first().unwrap_or(&input.spec.x),
            )),
        };
        // An engine keeps its colour only when it names the whole series.
        let color = match engine {
            Some((_, color)) if y.is_none() => color,
            _ => {
                let c = PALETTE[self.palette_next % PALETTE.len()];
                self.palette_next += 1;
                c
            }
        };
        self.list.push(Series { name, color });
        self.index.insert(key, self.list.len() - 1);
        self.list.len() - 1
    }
}

/// One bar slot of a bar chart: a value (or none) in a category and lane.
pub(super) struct Bar {
    pub(super) cat: usize,
    pub(super) lane: usize,
    pub(super) series: usize,
    pub(super) value: Option<f64>,
    /// The CSV cell, trimmed, for labels and the summary.
    pub(super) text: String,
}

/// One point of a line or scatter chart.
#[derive(Clone)]
pub(super) struct Point {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) x_text: String,
    pub(super) y_text: String,
}

/// The data of a chart, read from the table.
pub(super) enum Values {
    /// Bars over categories, in CSV order.
    Bars {
        cats: Vec<String>,
        lanes: usize,
        bars: Vec<Bar>,
    },
    /// Points over a numeric x, one list per series, sorted by x for lines.
    Points(Vec<Vec<Point>>),
}

pub(super) struct Data {
    pub(super) values: Values,
    /// The unit the x values are shown in (`%` for a fraction), if any.
    pub(super) x_unit: Option<String>,
    /// The unit the y values are shown in, when every y column shares it.
    pub(super) y_unit: Option<String>,
    /// The spec's marks, in the unit the y values are shown in.
    pub(super) marks: Vec<(f64, String)>,
    pub(super) series: SeriesSet,
    /// For a `cdf` chart, the spread of each series' values (by series).
    pub(super) spreads: Vec<Option<Spread>>,
    /// Points not drawn because a value of theirs is unbounded (`inf`).
    pub(super) not_drawn: usize,
    /// The x axis title.
    pub(super) x_title: String,
    /// The y axis title.
    pub(super) y_title: String,
}

fn row_line(table: &Table, r: usize) -> usize {
    table.row_lines.get(r).copied().unwrap_or(r + 2)
}

fn column_index(table: &Table, name: &str) -> Result<usize, ChartError> {
    table.index(name).ok_or_else(|| {
        let have = if table.header.is_empty() {
            "it has no header".to_string()
        } else {
            format!("its columns are {}", quoted_list(&table.header))
        };
        ChartError::new(
            None,
            Some(name),
            format!(
                "column \"{}\" is not in table \"{}\" ({have})",
                shorten(name),
                shorten(&table.file)
            ),
        )
    })
}

fn quoted_list(names: &[String]) -> String {
    let mut out = String::new();
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push('"');
        out.push_str(&shorten(n));
        out.push('"');
    }
    out
}

/// Cuts long cell text for messages.
fn shorten(s: &str) -> String {
    let s = one_line(s);
    if s.chars().count() > 40 {
        let mut t: String = s.chars().take(39).collect();
        t.push('…');
        t
    } else {
        s
    }
}

fn cell<'t>(table: &'t Table, r: usize, idx: usize, name: &str) -> Result<&'t str, ChartError> {
    let row = &table.rows[r];
    row.get(idx).map(|c| c.trim()).ok_or_else(|| {
        let line = row_line(table, r);
        ChartError::new(
            Some(line),
            Some(name),
            format!(
                "row {line}, column \"{}\": the row has {} cells, expected {}",
                shorten(name),
                row.len(),
                table.header.len().max(idx + 1)
            ),
        )
    })
}

/// Whether a cell says "no bound" (`inf`): a request rate of a benchmark
/// that sent every request at once, as the tools write it. No axis can
/// place it, so it is no value for a chart (and the summary says so).
pub(super) fn unbounded(text: &str) -> bool {
    let t = text.strip_prefix('+').unwrap_or(text);
    t.eq_ignore_ascii_case("inf") || t.eq_ignore_ascii_case("infinity")
}

/// Column `name`'s unit, if it has one.
fn unit_of<'t>(table: &'t Table, name: &str) -> Option<&'t str> {
    table
        .column(name)
        .and_then(|c| c.unit.as_deref())
        .map(str::trim)
        .filter(|u| !u.is_empty())
}

/// How a column's values are drawn and written, from its unit: a fraction
/// (a share from 0 to 1) is drawn and written in percent, as every page
/// shows it (see [`crate::figures`]); anything else as it is.
#[derive(Clone, Copy)]
struct Shown<'t> {
    factor: f64,
    unit: Option<&'t str>,
}

impl<'t> Shown<'t> {
    fn of(table: &'t Table, name: &str) -> Shown<'t> {
        match unit_of(table, name) {
            Some(u) if u == crate::figures::FRACTION => Shown {
                factor: 100.0,
                unit: Some("%"),
            },
            unit => Shown { factor: 1.0, unit },
        }
    }

    /// A value drawn, as readers read it.
    fn text(self, v: f64) -> String {
        crate::figures::cell(v, self.unit)
    }
}

/// Reads a numeric cell: `None` for an empty cell (no value) and for an
/// unbounded one (see [`unbounded`]).
fn number(text: &str, line: usize, name: &str, log: bool) -> Result<Option<f64>, ChartError> {
    if text.is_empty() || unbounded(text) {
        return Ok(None);
    }
    let at = || format!("row {line}, column \"{}\"", shorten(name));
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => {
            if log && v <= 0.0 {
                Err(ChartError::new(
                    Some(line),
                    Some(name),
                    format!(
                        "{}: a logarithmic axis needs values above zero, found \"{}\"",
                        at(),
                        shorten(text)
                    ),
                ))
            } else {
                Ok(Some(v))
            }
        }
        _ => Err(ChartError::new(
            Some(line),
            Some(name),
            format!("{}: expected a number, found \"{}\"", at(), shorten(text)),
        )),
    }
}

impl Data {
    pub(super) fn read(input: &ChartInput) -> Result<Data, ChartError> {
        Data::read_with(input, true)
    }

    /// What [`Data::read`] would report, without writing the texts a
    /// reader sees (labels, axis titles), which cannot fail: validation
    /// reads every chart before it is drawn.
    pub(super) fn check(input: &ChartInput) -> Result<(), ChartError> {
        Data::read_with(input, false).map(|_| ())
    }

    /// The chart's data, with the texts a reader sees when `texts`.
    fn read_with(input: &ChartInput, texts: bool) -> Result<Data, ChartError> {
        let spec = input.spec;
        let table = input.table;
        let ix = column_index(table, &spec.x)?;
        if spec.kind == ChartKind::Cdf {
            return Data::distribution(input, ix);
        }
        if spec.y.is_empty() {
            return Err(ChartError::new(
                None,
                None,
                "the chart names no y column".to_string(),
            ));
        }
        let iy = spec
            .y
            .iter()
            .map(|y| column_index(table, y))
            .collect::<Result<Vec<_>, _>>()?;
        let is = match &spec.series {
            Some(s) => Some(column_index(table, s)?),
            None => None,
        };
        if table.rows.is_empty() {
            return Err(ChartError::new(
                None,
                None,
                "the table has no rows".to_string(),
            ));
        }
        let values = table.rows.len().saturating_mul(spec.y.len());
        if values > MAX_CHART_VALUES {
            return Err(ChartError::new(
                None,
                None,
                format!("the chart would draw {values} values; the limit is {MAX_CHART_VALUES}"),
            ));
        }
        let numeric_x = matches!(spec.kind, ChartKind::Line | ChartKind::Scatter);
        if numeric_x && !table.column(&spec.x).is_some_and(|c| c.is_numeric()) {
            return Err(ChartError::new(
                None,
                Some(&spec.x),
                format!(
                    "a {} chart needs a numeric x, but column \"{}\" has no unit",
                    spec.kind.as_str(),
                    shorten(&spec.x)
                ),
            ));
        }
        let multi_y = spec.y.len() > 1;
        let xs = Shown::of(table, &spec.x);
        let ys: Vec<Shown<'_>> = spec.y.iter().map(|y| Shown::of(table, y)).collect();
        let mut series = SeriesSet::new();
        let mut not_drawn = 0;
        let values = if numeric_x {
            let mut points: Vec<Vec<Point>> = Vec::new();
            for r in 0..table.rows.len() {
                let line = row_line(table, r);
                let xt = cell(table, r, ix, &spec.x)?;
                let x = number(xt, line, &spec.x, spec.log_x)?;
                let sc = match (is, &spec.series) {
                    (Some(i), Some(name)) => Some(cell(table, r, i, name)?),
                    _ => None,
                };
                for (k, (&yi, yname)) in iy.iter().zip(&spec.y).enumerate() {
                    let yt = cell(table, r, yi, yname)?;
                    let y = number(yt, line, yname, spec.log_y)?;
                    let s = series.get(input, sc, multi_y.then_some(k));
                    if points.len() <= s {
                        points.resize(s + 1, Vec::new());
                    }
                    if unbounded(xt) || unbounded(yt) {
                        not_drawn += 1;
                    }
                    if let (Some(x), Some(y)) = (x, y) {
                        let (x, y) = (x * xs.factor, y * ys[k].factor);
                        points[s].push(Point {
                            x,
                            y,
                            x_text: if texts { xs.text(x) } else { String::new() },
                            y_text: if texts { ys[k].text(y) } else { String::new() },
                        });
                    }
                }
            }
            if spec.kind == ChartKind::Line {
                for p in &mut points {
                    p.sort_by(|a, b| a.x.total_cmp(&b.x));
                }
            }
            if points.iter().all(Vec::is_empty) {
                return Err(no_values(spec));
            }
            Values::Points(points)
        } else {
            let grouped = spec.kind == ChartKind::GroupedBar;
            let mut cats: Vec<String> = Vec::new();
            let mut cat_index: BTreeMap<String, usize> = BTreeMap::new();
            let mut bars: Vec<Bar> = Vec::new();
            let mut seen: BTreeMap<(usize, usize), usize> = BTreeMap::new();
            for r in 0..table.rows.len() {
                let line = row_line(table, r);
                let xt = cell(table, r, ix, &spec.x)?;
                let cat = if grouped {
                    *cat_index.entry(xt.to_string()).or_insert_with(|| {
                        cats.push(xt.to_string());
                        cats.len() - 1
                    })
                } else {
                    cats.push(xt.to_string());
                    cats.len() - 1
                };
                let sc = match (is, &spec.series) {
                    (Some(i), Some(name)) => Some(cell(table, r, i, name)?),
                    _ => None,
                };
                for (k, (&yi, yname)) in iy.iter().zip(&spec.y).enumerate() {
                    let yt = cell(table, r, yi, yname)?;
                    let value = number(yt, line, yname, spec.log_y)?;
                    if unbounded(yt) {
                        not_drawn += 1;
                    }
                    let s = series.get(input, sc, multi_y.then_some(k));
                    if grouped {
                        if let Some(first) = seen.insert((cat, s), line) {
                            return Err(ChartError::new(
                                Some(line),
                                Some(spec.series.as_deref().unwrap_or(&spec.x)),
                                format!(
                                    "row {line}: a second value for \"{}\" in series \"{}\" \
                                     (the first is on row {first}); a grouped-bar chart takes \
                                     one row per x value and series",
                                    shorten(xt),
                                    shorten(&series.list[s].name)
                                ),
                            ));
                        }
                    }
                    let value = value.map(|v| v * ys[k].factor);
                    bars.push(Bar {
                        cat,
                        lane: if grouped { s } else { k },
                        series: s,
                        value,
                        text: match value {
                            _ if !texts => String::new(),
                            Some(v) => ys[k].text(v),
                            None => yt.to_string(),
                        },
                    });
                }
            }
            if bars.iter().all(|b| b.value.is_none()) {
                return Err(no_values(spec));
            }
            let lanes = if grouped {
                series.list.len()
            } else {
                spec.y.len()
            };
            Values::Bars { cats, lanes, bars }
        };
        // One unit for the y axis when every y column is shown in it; the
        // marks are in the y columns' unit, and drawn as they are.
        let y_unit = ys
            .iter()
            .all(|y| y.unit == ys[0].unit)
            .then_some(ys[0].unit)
            .flatten();
        let factor = if ys.iter().all(|y| y.factor == ys[0].factor) {
            ys[0].factor
        } else {
            1.0
        };
        let mut data = Data {
            values,
            x_unit: xs.unit.map(str::to_string),
            y_unit: y_unit.map(str::to_string),
            marks: spec
                .marks
                .iter()
                .map(|m| (m.y * factor, m.label.clone()))
                .collect(),
            series,
            spreads: Vec::new(),
            not_drawn,
            x_title: if texts { x_title(input) } else { String::new() },
            y_title: if texts { y_title(input) } else { String::new() },
        };
        if texts {
            data.in_seconds(spec);
        }
        Ok(data)
    }

    /// Milliseconds from 10,000 on are read as seconds (see
    /// [`crate::figures`]): an axis in ms whose values reach that far is
    /// drawn, labelled and described in seconds, unless the spec titles
    /// the axis itself with words other than `… (ms)` (they may name the
    /// unit in their own way).
    fn in_seconds(&mut self, spec: &ChartSpec) {
        let far = |(lo, hi): (f64, f64)| lo.abs().max(hi.abs()) >= 10_000.0;
        let ms = |u: &Option<String>| u.as_deref() == Some("ms");
        let points = matches!(self.values, Values::Points(_));
        let own = |l: &Option<String>| {
            l.as_deref()
                .is_some_and(|l| !l.trim_end().ends_with("(ms)"))
        };
        let y = ms(&self.y_unit) && !own(&spec.y_label) && far(self.y_range());
        let x = points && ms(&self.x_unit) && !own(&spec.x_label) && far(self.x_range());
        if y {
            self.y_unit = Some("s".into());
            self.y_title = to_seconds(&self.y_title);
            for m in &mut self.marks {
                m.0 /= 1000.0;
            }
        }
        if x {
            self.x_unit = Some("s".into());
            self.x_title = to_seconds(&self.x_title);
        }
        let shown = |v: f64| crate::figures::cell(v, Some("s"));
        match &mut self.values {
            Values::Bars { bars, .. } if y => {
                for b in bars {
                    if let Some(v) = &mut b.value {
                        *v /= 1000.0;
                        b.text = shown(*v);
                    }
                }
            }
            Values::Points(series) if x || y => {
                for p in series.iter_mut().flatten() {
                    if x {
                        p.x /= 1000.0;
                        p.x_text = shown(p.x);
                    }
                    if y {
                        p.y /= 1000.0;
                        p.y_text = shown(p.y);
                    }
                }
            }
            _ => {}
        }
    }

    /// A `cdf` chart's data: the values of column `ix` (x) by series, each
    /// drawn as the steps of its distribution (see [`super::cdf`]).
    fn distribution(input: &ChartInput, ix: usize) -> Result<Data, ChartError> {
        let (spec, table) = (input.spec, input.table);
        if table.rows.is_empty() {
            return Err(ChartError::new(
                None,
                None,
                "the table has no rows".to_string(),
            ));
        }
        if !table.column(&spec.x).is_some_and(|c| c.is_numeric()) {
            return Err(ChartError::new(
                None,
                Some(&spec.x),
                format!(
                    "a cdf chart needs a numeric x, but column \"{}\" has no unit",
                    shorten(&spec.x)
                ),
            ));
        }
        let is = match &spec.series {
            Some(s) => Some(column_index(table, s)?),
            None => None,
        };
        let xs = Shown::of(table, &spec.x);
        let mut series = SeriesSet::new();
        let mut values: Vec<Vec<f64>> = Vec::new();
        let mut not_drawn = 0;
        for r in 0..table.rows.len() {
            let line = row_line(table, r);
            let xt = cell(table, r, ix, &spec.x)?;
            let sc = match (is, &spec.series) {
                (Some(i), Some(name)) => Some(cell(table, r, i, name)?),
                _ => None,
            };
            let s = series.get(input, sc, None);
            if values.len() <= s {
                values.resize(s + 1, Vec::new());
            }
            if let Some(x) = number(xt, line, &spec.x, spec.log_x)? {
                values[s].push(x * xs.factor);
            } else if unbounded(xt) {
                not_drawn += 1;
            }
        }
        // Milliseconds from 10,000 on are read as seconds (see `in_seconds`).
        let far = values.iter().flatten().any(|v| v.abs() >= 10_000.0);
        let own = spec
            .x_label
            .as_deref()
            .is_some_and(|l| !l.trim_end().ends_with("(ms)"));
        let unit = if xs.unit == Some("ms") && far && !own {
            for v in values.iter_mut().flatten() {
                *v /= 1000.0;
            }
            Some("s")
        } else {
            xs.unit
        };
        let (points, spreads): (Vec<Vec<Point>>, Vec<Option<Spread>>) = values
            .iter_mut()
            .map(|v| match steps(v, unit) {
                Some((p, s)) => (p, Some(s)),
                None => (Vec::new(), None),
            })
            .unzip();
        if points.iter().all(Vec::is_empty) {
            return Err(ChartError::new(
                None,
                Some(&spec.x),
                format!(
                    "column \"{}\" has no values to plot (every cell is empty)",
                    shorten(&spec.x)
                ),
            ));
        }
        // Each step is two points: the limit counts steps, as other charts
        // count values.
        let drawn: usize = points.iter().map(|p| p.len() / 2).sum();
        if drawn > MAX_CHART_VALUES {
            return Err(ChartError::new(
                None,
                spec.series.as_deref(),
                format!(
                    "the chart would draw {drawn} values in {} series; the limit is {MAX_CHART_VALUES}",
                    series.list.len()
                ),
            ));
        }
        Ok(Data {
            values: Values::Points(points),
            x_unit: unit.map(str::to_string),
            y_unit: Some("%".to_string()),
            marks: spec.marks.iter().map(|m| (m.y, m.label.clone())).collect(),
            series,
            spreads,
            not_drawn,
            x_title: if unit == xs.unit {
                x_title(input)
            } else {
                to_seconds(&x_title(input))
            },
            y_title: y_title(input),
        })
    }
}

/// An axis title in milliseconds made one in seconds: `TTFT (ms)` is
/// `TTFT (s)`, the unit alone `ms` is `s`.
fn to_seconds(title: &str) -> String {
    if title == "ms" {
        return "s".to_string();
    }
    match title.trim_end().strip_suffix("(ms)") {
        Some(head) => format!("{head}(s)"),
        None => title.to_string(),
    }
}

fn no_values(spec: &ChartSpec) -> ChartError {
    let (col, msg) = if spec.y.len() == 1 {
        (
            Some(spec.y[0].as_str()),
            format!(
                "column \"{}\" has no values to plot (every cell is empty)",
                shorten(&spec.y[0])
            ),
        )
    } else {
        (
            None,
            format!(
                "columns {} have no values to plot (every cell is empty)",
                quoted_list(&spec.y)
            ),
        )
    };
    ChartError::new(None, col, msg)
}

/// What readers see for column `name`: its label, or its name made readable
/// (see [`crate::record::readable_column_name`]).
fn column_title(input: &ChartInput, name: &str) -> String {
    input
        .table
        .column(name)
        .map_or_else(|| name.to_string(), |c| c.title(input.engine_names))
}

/// Column `name`'s title with its unit: "Depth (tokens)".
fn column_heading(input: &ChartInput, name: &str) -> String {
    input
        .table
        .column(name)
        .map_or_else(|| name.to_string(), |c| c.heading(input.engine_names))
}

fn x_title(input: &ChartInput) -> String {
    let spec = input.spec;
    match &spec.x_label {
        Some(l) => one_line(l),
        None => one_line(&column_heading(input, &spec.x)),
    }
}

fn y_title(input: &ChartInput) -> String {
    let spec = input.spec;
    if let Some(l) = &spec.y_label {
        return one_line(l);
    }
    if spec.kind == ChartKind::Cdf {
        return "Share at or below (%)".to_string();
    }
    if spec.y.len() > 1 {
        let units: Vec<Option<&str>> = spec
            .y
            .iter()
            .map(|y| {
                input
                    .table
                    .column(y)
                    .and_then(|c| c.unit.as_deref())
                    .filter(|u| !u.is_empty())
            })
            .collect();
        if let Some(Some(first)) = units.first() {
            if units.iter().all(|u| *u == Some(*first)) {
                return one_line(crate::figures::heading_unit(first));
            }
        }
        let headings: Vec<String> = spec.y.iter().map(|y| column_heading(input, y)).collect();
        return one_line(&headings.join(", "));
    }
    spec.y
        .first()
        .map_or_else(String::new, |y| one_line(&column_heading(input, y)))
}

impl Data {
    /// The smallest and largest y value.
    pub(super) fn y_range(&self) -> (f64, f64) {
        let ys: Box<dyn Iterator<Item = f64> + '_> = match &self.values {
            Values::Bars { bars, .. } => Box::new(bars.iter().filter_map(|b| b.value)),
            Values::Points(p) => Box::new(p.iter().flatten().map(|p| p.y)),
        };
        min_max(ys)
    }

    /// The smallest and largest x value of a line or scatter chart.
    pub(super) fn x_range(&self) -> (f64, f64) {
        match &self.values {
            Values::Points(p) => min_max(p.iter().flatten().map(|p| p.x)),
            Values::Bars { cats, .. } => (0.0, cats.len() as f64),
        }
    }
}

fn min_max(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if lo.is_finite() && hi.is_finite() {
        (lo, hi)
    } else {
        (0.0, 1.0)
    }
}

fn parse_hex(s: &str) -> Option<Rgb> {
    let h = s.trim().strip_prefix('#')?;
    if h.len() != 6 || !h.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some(Rgb(byte(0)?, byte(2)?, byte(4)?))
}
