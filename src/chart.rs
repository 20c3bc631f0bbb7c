//! Charts: one chart spec and its table in, one self-contained SVG string out.
//!
//! This module owns everything between a validated [`ChartSpec`] (from
//! `run.yaml`) plus its [`Table`] (the CSV, as text) and the `<svg>` element
//! that a page embeds inline. Data enters through [`ChartInput`]: the spec,
//! the table, and the site's engine colours and display names. It leaves as a
//! [`RenderedChart`]: the SVG markup and a one-line plain-text summary of the
//! data (the page's accessible description). Anything wrong with the data
//! leaves as a [`ChartError`] that names the CSV line and column at fault;
//! nothing here panics, prints or touches the file system.
//!
//! How a chart is made:
//!
//! 1. The table's cells are read into series (bars or points). A series named
//!    after an engine takes the engine's colour; others take colours from a
//!    colour-blind-safe palette (Okabe-Ito), in order of first appearance.
//! 2. Axes get round ticks (1, 2, 2.5, 5 × 10^k, or powers of ten on a
//!    logarithmic axis), bar value axes start at zero, and the layout is sized
//!    around the labels: long category labels wrap onto two lines or are
//!    rotated, and the picture grows rather than cutting or overlapping them.
//! 3. plotters (SVG backend) draws the grid, the axes and the data marks, each
//!    in its own pass so that every colour in the grid and axis passes can be
//!    turned into `currentColor` without guessing. plotters cannot measure
//!    text without font files, so text is laid out here (with a width table
//!    for a typical sans-serif face) and written as plain `<text>` elements
//!    without a font family: the page's font applies.
//!
//! The SVG follows the page's theme: text, axes and ticks use `currentColor`,
//! grid lines use `currentColor` at low opacity, and there is no background.
//! Text has no font family (an inline SVG inherits the page's) and a size of
//! 12px set on its group; page CSS should not override that size, since the
//! layout was measured for it. Hooks for CSS, none of which the page must
//! define: the root's `plot plot-<kind>`, and the groups `plot-grid`,
//! `plot-marks`, `plot-axes` and `plot-labels`, whose texts may carry
//! `plot-value`, `plot-axis-title` or `plot-legend`.
//!
//! The root has `role="img"` and `aria-labelledby` pointing at its `<title>`
//! and `<desc>`, whose ids derive from the chart id and a hash of the input,
//! so several charts can sit on one page. Output bytes depend only on input.

use crate::record::{ChartKind, ChartSpec, Table};
use crate::util::escape_html;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::drawing::DrawingAreaErrorKind;
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What [`render`] needs: a chart spec, its table, and the site's engines.
pub struct ChartInput<'a> {
    /// The chart spec from `run.yaml`.
    pub spec: &'a ChartSpec,
    /// The table the spec draws from.
    pub table: &'a Table,
    /// Colours for series named after engines: engine id -> "#rrggbb".
    pub engine_colors: &'a BTreeMap<String, String>,
    /// Display names for engine ids (legend shows "vLLM" not "vllm").
    pub engine_names: &'a BTreeMap<String, String>,
}

/// A chart, ready to be embedded in a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedChart {
    /// The `<svg>` element, starting with `<svg` and ending with `</svg>\n`.
    pub svg: String,
    /// One-line plain-text summary of the data, used in `<desc>` and as the
    /// figure's accessible description.
    pub summary: String,
}

/// Why a chart could not be drawn, said for people.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ChartError {
    /// The CSV file line of the offending row, when a row is at fault.
    pub row_line: Option<usize>,
    /// The column at fault, when one is.
    pub column: Option<String>,
    /// What was found and what was expected.
    pub message: String,
}

impl ChartError {
    fn new(row_line: Option<usize>, column: Option<&str>, message: String) -> Self {
        ChartError {
            row_line,
            column: column.map(str::to_string),
            message,
        }
    }
}

/// The most values one chart may draw: table rows × `y` columns. Bigger
/// charts make pages of many megabytes that no reader can take in;
/// `findings check` reports them (see `validate`), and [`render`] refuses
/// them too.
pub const MAX_CHART_VALUES: usize = 10_000;

/// Draws one chart as SVG, with a plain-text summary of its data.
///
/// Returns an error naming the CSV line and column when the table cannot be
/// drawn as the spec asks (a missing column, a cell that is not a number, a
/// value at or below zero on a logarithmic axis, no rows, no values).
pub fn render(input: &ChartInput) -> Result<RenderedChart, ChartError> {
    let data = Data::read(input)?;
    let summary = summarize(input, &data);
    let plan = Plan::new(input, &data);
    let svg = match (plan.x.log, plan.y.log) {
        (false, false) => draw::<RangedCoordf64, RangedCoordf64>(input, &data, &plan, &summary),
        (true, false) => draw::<LogCoord<f64>, RangedCoordf64>(input, &data, &plan, &summary),
        (false, true) => draw::<RangedCoordf64, LogCoord<f64>>(input, &data, &plan, &summary),
        (true, true) => draw::<LogCoord<f64>, LogCoord<f64>>(input, &data, &plan, &summary),
    }?;
    Ok(RenderedChart { svg, summary })
}

/// Finds every problem [`render`] would report, without drawing: all of
/// them come from reading the table (drawing into a string cannot fail), so
/// `check` and validation need not pay for the SVG.
pub fn check(input: &ChartInput) -> Result<(), ChartError> {
    Data::read(input).map(|_| ())
}

// ---------------------------------------------------------------------------
// Reading the table
// ---------------------------------------------------------------------------

/// Okabe-Ito colours, in their published order, without black (invisible on a
/// dark page) and with yellow moved last (faint on a light page).
const PALETTE: [RGBColor; 7] = [
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0xF0, 0xE4, 0x42),
];

/// One series: a name for the legend and a colour.
struct Series {
    name: String,
    color: RGBColor,
}

/// The series of a chart, keyed by (series cell, y column index).
struct SeriesSet {
    list: Vec<Series>,
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
        let y_name = y.and_then(|k| input.spec.y.get(k)).map(String::as_str);
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
            (Some(c), Some(y)) => format!("{} – {}", shown(c), one_line(y)),
            (Some(c), None) => shown(c),
            (None, Some(y)) => one_line(y),
            (None, None) => input
                .spec
                .y
                .first()
                .map_or_else(String::new, |y| one_line(y)),
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
struct Bar {
    cat: usize,
    lane: usize,
    series: usize,
    value: Option<f64>,
    /// The CSV cell, trimmed, for labels and the summary.
    text: String,
}

/// One point of a line or scatter chart.
#[derive(Clone)]
struct Point {
    x: f64,
    y: f64,
    x_text: String,
    y_text: String,
}

/// The data of a chart, read from the table.
enum Values {
    /// Bars over categories, in CSV order.
    Bars {
        cats: Vec<String>,
        lanes: usize,
        bars: Vec<Bar>,
    },
    /// Points over a numeric x, one list per series, sorted by x for lines.
    Points(Vec<Vec<Point>>),
}

struct Data {
    values: Values,
    series: SeriesSet,
    /// The x axis title.
    x_title: String,
    /// The y axis title.
    y_title: String,
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

/// Reads a numeric cell: `None` for an empty cell (no value).
fn number(text: &str, line: usize, name: &str, log: bool) -> Result<Option<f64>, ChartError> {
    if text.is_empty() {
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
    fn read(input: &ChartInput) -> Result<Data, ChartError> {
        let spec = input.spec;
        let table = input.table;
        let ix = column_index(table, &spec.x)?;
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
        let mut series = SeriesSet::new();
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
                    if let (Some(x), Some(y)) = (x, y) {
                        points[s].push(Point {
                            x,
                            y,
                            x_text: xt.to_string(),
                            y_text: yt.to_string(),
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
                    bars.push(Bar {
                        cat,
                        lane: if grouped { s } else { k },
                        series: s,
                        value,
                        text: yt.to_string(),
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
        Ok(Data {
            values,
            series,
            x_title: x_title(input),
            y_title: y_title(input),
        })
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

fn x_title(input: &ChartInput) -> String {
    let spec = input.spec;
    match &spec.x_label {
        Some(l) => one_line(l),
        None => input
            .table
            .column(&spec.x)
            .map_or_else(|| one_line(&spec.x), |c| one_line(&c.label())),
    }
}

fn y_title(input: &ChartInput) -> String {
    let spec = input.spec;
    if let Some(l) = &spec.y_label {
        return one_line(l);
    }
    let label = |y: &String| {
        input
            .table
            .column(y)
            .map_or_else(|| y.clone(), |c| c.label())
    };
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
                return one_line(first);
            }
        }
        return one_line(&spec.y.iter().map(label).collect::<Vec<_>>().join(", "));
    }
    spec.y
        .first()
        .map(label)
        .map_or_else(String::new, |l| one_line(&l))
}

// ---------------------------------------------------------------------------
// Text: cleaning, escaping, measuring, wrapping
// ---------------------------------------------------------------------------

/// Collapses whitespace (newlines included) to single spaces and drops
/// characters XML cannot hold.
fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            space = !out.is_empty();
        } else if c.is_control() || matches!(c, '\u{FFFE}' | '\u{FFFF}') {
            continue;
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

/// Advance widths of ASCII 32..=126 in a Helvetica-like face, in 1/1000 em.
const ASCII_WIDTHS: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // ' '../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0-9
    278, 278, 584, 584, 584, 556, 1015, // :..@
    667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, // A-M
    722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, // N-Z
    278, 278, 278, 469, 556, 333, // [..`
    556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, // a-m
    556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, // n-z
    334, 260, 334, 584, // {..~
];

fn char_width(c: char) -> u32 {
    let u = c as u32;
    if (32..=126).contains(&u) {
        return u32::from(ASCII_WIDTHS[(u - 32) as usize]);
    }
    let wide = matches!(u,
        0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x1F300..=0x1FAFF
        | 0x20000..=0x3FFFD);
    if wide {
        1000
    } else {
        600
    }
}

/// Estimated width of `s` in px at `size` px, with a margin for wider faces.
fn text_width(s: &str, size: f64) -> f64 {
    let units: u32 = s.chars().map(char_width).sum();
    f64::from(units) * size / 1000.0 * 1.08
}

/// Breaks `s` into lines no wider than `width` px, at spaces or after `-`,
/// `_`, `/`, `,`, `.` or `:`. `None` if it needs more than `max_lines` lines
/// or a piece alone is too wide (unless `force`, which lets pieces overflow).
fn wrap(s: &str, width: f64, size: f64, max_lines: usize, force: bool) -> Option<Vec<String>> {
    let mut pieces: Vec<String> = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        cur.push(c);
        if matches!(c, ' ' | '-' | '_' | '/' | ',' | '.' | ':') {
            pieces.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        pieces.push(cur);
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for p in pieces {
        let candidate = format!("{line}{p}");
        if line.is_empty() || text_width(candidate.trim_end(), size) <= width {
            line = candidate;
        } else {
            lines.push(line.trim_end().to_string());
            line = p;
        }
        if !force && text_width(line.trim_end(), size) > width {
            return None;
        }
    }
    if !line.trim_end().is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_string());
    }
    (force || lines.len() <= max_lines).then_some(lines)
}

// ---------------------------------------------------------------------------
// Numbers: round ticks and their labels
// ---------------------------------------------------------------------------

/// An axis: its range, whether it is logarithmic, and its labelled ticks.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    ticks: Vec<(f64, String)>,
}

/// `m × 10^k` exactly as a decimal literal would give it.
fn decimal(m: u32, k: i32) -> f64 {
    format!("{m}e{k}").parse().unwrap_or(f64::NAN)
}

/// The number of decimals needed to show multiples of `step` exactly.
fn decimals_for(step: f64) -> usize {
    (0..=12)
        .find(|&d| {
            let scaled = step * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-6 * scaled.abs().max(1.0)
        })
        .unwrap_or(12)
}

/// Formats tick values that all use the same number of decimals; thousands
/// get separators; very large or small values use `e` notation.
fn format_ticks(values: &[f64], decimals: usize) -> Vec<String> {
    let max = values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if max >= 1e9 || decimals > 6 {
        return values.iter().map(|&v| scientific(v)).collect();
    }
    values.iter().map(|&v| fixed(v, decimals)).collect()
}

/// `v` with `decimals` decimals, trailing zeros trimmed, thousands separated.
fn fixed(v: f64, decimals: usize) -> String {
    let s = format!("{:.*}", decimals, v.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f.trim_end_matches('0')),
        None => (s.as_str(), ""),
    };
    let mut out = String::new();
    let digits = int.len();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (digits - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    let zero = out.chars().all(|c| c == '0' || c == '.' || c == ',');
    if v < 0.0 && !zero {
        out.insert(0, '−');
    }
    out
}

fn scientific(v: f64) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    let e = v.abs().log10().floor() as i32;
    let mut m = v / 10f64.powi(e);
    let mut e = e;
    if (m.abs() * 100.0).round() >= 1000.0 {
        m /= 10.0;
        e += 1;
    }
    format!("{}e{e}", fixed(m, 2))
}

/// Picks a round step (1, 2, 2.5 or 5 × 10^k) giving about `target` intervals
/// over `lo..hi` and snaps the range outward to it.
fn linear_axis(lo: f64, hi: f64, target: usize) -> Axis {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else if lo == 0.0 {
        (0.0, 1.0)
    } else {
        let d = lo.abs() * 0.1;
        (lo - d, hi + d)
    };
    let raw = (hi - lo) / target.max(1) as f64;
    let k = raw.log10().floor() as i32;
    let step = [(1, 0), (2, 0), (25, -1), (5, 0), (1, 1)]
        .iter()
        .map(|&(m, dk)| decimal(m, k + dk))
        .find(|&s| s >= raw * (1.0 - 1e-9))
        .unwrap_or_else(|| decimal(1, k + 1));
    let i0 = (lo / step + 1e-9).floor() as i64;
    let i1 = (hi / step - 1e-9).ceil() as i64;
    let values: Vec<f64> = (i0..=i1).map(|i| i as f64 * step).collect();
    let labels = format_ticks(&values, decimals_for(step));
    Axis {
        lo: i0 as f64 * step,
        hi: i1 as f64 * step,
        log: false,
        ticks: values.into_iter().zip(labels).collect(),
    }
}

/// A logarithmic axis over `lo..hi` (both above zero), snapped outward to
/// d × 10^k (d = 1..9). Ticks go at powers of ten, with 2 and 5 × 10^k too
/// when the range spans few decades; `fits` says whether a choice of ticks
/// can be labelled without crowding, and the first choice that fits wins:
/// 1-2-5 ticks, then every decade, then every second decade, and so on.
fn log_axis(lo: f64, hi: f64, fits: impl Fn(&Axis) -> bool) -> Axis {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo / 2.0, hi * 2.0)
    };
    let klo = lo.log10().floor() as i32 - 1;
    let khi = hi.log10().ceil() as i32 + 1;
    let mut bounds: Vec<f64> = Vec::new();
    for k in klo..=khi {
        for d in 1..=9 {
            bounds.push(decimal(d, k));
        }
    }
    let lo_s = bounds
        .iter()
        .rev()
        .find(|&&b| b <= lo * (1.0 + 1e-9))
        .map_or(lo, |&b| b);
    let hi_s = bounds
        .iter()
        .find(|&&b| b >= hi * (1.0 - 1e-9))
        .map_or(hi, |&b| b);
    let inside = |v: f64| v >= lo_s * (1.0 - 1e-9) && v <= hi_s * (1.0 + 1e-9);
    // (value, exponent, mantissa) of every 1-2-5 tick in range.
    let cands: Vec<(f64, i32, u32)> = (klo..=khi)
        .flat_map(|k| [1, 2, 5].map(|m| (decimal(m, k), k, m)))
        .filter(|c| inside(c.0))
        .collect();
    let decades: Vec<(f64, i32, u32)> = cands.iter().copied().filter(|c| c.2 == 1).collect();
    let mut choices: Vec<Vec<(f64, i32, u32)>> = Vec::new();
    if decades.len() <= 3 {
        choices.push(cands.clone());
    }
    for every in 1..=decades.len().max(1) {
        let pick: Vec<_> = decades.iter().copied().step_by(every).collect();
        if pick.len() >= 2 || every == 1 {
            choices.push(pick);
        }
    }
    let make = |chosen: &[(f64, i32, u32)]| {
        let mut chosen = chosen.to_vec();
        if chosen.len() < 2 {
            // Too narrow for round ticks: label both ends.
            chosen = [lo_s, hi_s]
                .iter()
                .map(|&v| (v, v.log10().floor() as i32, 0))
                .collect();
        }
        let max = chosen.iter().fold(0.0f64, |m, c| m.max(c.0));
        let min_k = chosen.iter().map(|c| c.1).min().unwrap_or(0);
        let sci = max >= 1e9 || min_k < -6;
        let ticks = chosen
            .iter()
            .map(|&(v, k, _)| {
                let label = if sci {
                    scientific(v)
                } else {
                    fixed(v, (-k).max(0) as usize)
                };
                (v, label)
            })
            .collect();
        Axis {
            lo: lo_s,
            hi: hi_s,
            log: true,
            ticks,
        }
    };
    let mut last = None;
    for c in &choices {
        let axis = make(c);
        if fits(&axis) {
            return axis;
        }
        last = Some(axis);
    }
    last.unwrap_or_else(|| make(&[]))
}

/// The smallest distance between neighbouring ticks of `axis` drawn over
/// `length` px.
fn min_tick_gap(axis: &Axis, length: f64) -> f64 {
    let pos = |v: f64| {
        if axis.log {
            (v.ln() - axis.lo.ln()) / (axis.hi.ln() - axis.lo.ln())
        } else {
            (v - axis.lo) / (axis.hi - axis.lo)
        }
    };
    axis.ticks
        .windows(2)
        .map(|w| (pos(w[1].0) - pos(w[0].0)).abs() * length)
        .fold(f64::INFINITY, f64::min)
}

fn widest_label(axis: &Axis) -> f64 {
    axis.ticks
        .iter()
        .map(|t| text_width(&t.1, FONT))
        .fold(0.0, f64::max)
}

// ---------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------

const FONT: f64 = 12.0;
const VALUE_FONT: f64 = 11.0;
const LINE_H: i32 = 14;
const BASE_WIDTH: i32 = 720;
const PLOT_HEIGHT: i32 = 300;
const LEGEND_ROW: i32 = 20;
/// Share of a category slot that its bars fill.
const GROUP_WIDTH: f64 = 0.8;

/// How category labels are set.
enum CatLabels {
    /// Horizontal, each label one or two lines.
    Flat(Vec<Vec<String>>),
    /// Rotated 45°, each label one or more lines.
    Rotated(Vec<Vec<String>>),
}

struct LegendItem {
    series: usize,
    x: i32,
    y: i32,
    lines: Vec<String>,
}

/// Where everything goes, in pixels, plus the axes.
struct Plan {
    width: i32,
    height: i32,
    left: i32,
    right: i32,
    top: i32,
    bottom: i32,
    x: Axis,
    y: Axis,
    cat_labels: Option<CatLabels>,
    legend: Vec<LegendItem>,
    value_labels: bool,
    y_title_size: f64,
    /// Where the y title's baseline runs (it is turned a quarter left).
    y_title_x: i32,
    x_title_size: f64,
}

impl Plan {
    fn new(input: &ChartInput, data: &Data) -> Plan {
        let spec = input.spec;
        let mut width = BASE_WIDTH;
        let plot_h = f64::from(PLOT_HEIGHT);

        // The value axis.
        let (ylo, yhi) = data.y_range();
        let bars = matches!(data.values, Values::Bars { .. });
        let y = if spec.log_y {
            // Bars rise from the floor of a logarithmic axis: put it at a
            // power of ten at least half a decade below the smallest bar, so
            // that bar shows.
            let floor = if bars {
                decimal(1, (ylo / 3.0).log10().floor() as i32)
            } else {
                ylo
            };
            log_axis(floor, yhi * 1.2, |a| {
                a.ticks.len() <= 8 && min_tick_gap(a, plot_h) >= 2.0 * f64::from(LINE_H)
            })
        } else if bars {
            let (lo, hi) = (ylo.min(0.0), yhi.max(0.0));
            let pad = (hi - lo) * 0.08;
            let lo = if lo < 0.0 { lo - pad } else { lo };
            let hi = if hi > 0.0 || lo == 0.0 { hi + pad } else { hi };
            linear_axis(lo, hi, 5)
        } else {
            let (mut lo, mut hi) = (ylo, yhi);
            if lo > 0.0 && lo <= 0.5 * hi {
                lo = 0.0;
            }
            if hi < 0.0 && hi >= 0.5 * lo {
                hi = 0.0;
            }
            let pad = (hi - lo) * 0.06;
            let lo2 = if lo != 0.0 { lo - pad } else { lo };
            let hi2 = if hi != 0.0 { hi + pad } else { hi };
            // Padding never makes a positive range show negatives.
            let lo2 = if lo >= 0.0 { lo2.max(0.0) } else { lo2 };
            let hi2 = if hi <= 0.0 { hi2.min(0.0) } else { hi2 };
            linear_axis(lo2, hi2, 5)
        };
        let y_title_w = text_width(&data.y_title, FONT);
        let y_title_size = if y_title_w > plot_h {
            (FONT * plot_h / y_title_w).floor().max(8.0)
        } else {
            FONT
        };
        // Room for the y title, the tick labels and the tick marks.
        let y_labels_w = widest_label(&y).ceil() as i32 + 8;
        let mut left = 8 + LINE_H + 10 + y_labels_w;
        let mut right = 24;

        // The x axis and its labels.
        let mut x = Axis {
            lo: 0.0,
            hi: 1.0,
            log: false,
            ticks: Vec::new(),
        };
        let mut cat_labels = None;
        let label_block;
        let mut value_labels = false;
        match &data.values {
            Values::Bars { cats, lanes, bars } => {
                let n = cats.len().max(1);
                x.hi = n as f64;
                let slot = |width: i32, left: i32| f64::from(width - left - right) / n as f64;
                let avail = slot(width, left) - 8.0;
                let flat: Option<Vec<Vec<String>>> = cats
                    .iter()
                    .map(|c| wrap(&one_line(c), avail, FONT, 2, false))
                    .collect();
                match flat {
                    Some(labels) => {
                        let lines = labels.iter().map(Vec::len).max().unwrap_or(1) as i32;
                        label_block = lines * LINE_H;
                        cat_labels = Some(CatLabels::Flat(labels));
                    }
                    None => {
                        // Rotated labels: one line each, unless very long.
                        let labels: Vec<Vec<String>> = cats
                            .iter()
                            .map(|c| wrap(&one_line(c), 260.0, FONT, 0, true).unwrap_or_default())
                            .collect();
                        let lines = labels.iter().map(Vec::len).max().unwrap_or(1) as i32;
                        let diag = std::f64::consts::FRAC_1_SQRT_2;
                        // Neighbouring rotated labels must not touch: widen
                        // the picture if the slots are too narrow.
                        let need = f64::from(lines * LINE_H - 2) / diag + 3.0;
                        if slot(width, left) < need {
                            width = left + right + (need * n as f64).ceil() as i32;
                        }
                        let s = slot(width, left);
                        let mut reach = 0.0f64;
                        let mut need_left = 0.0f64;
                        for (i, l) in labels.iter().enumerate() {
                            let w = l.iter().map(|t| text_width(t, FONT)).fold(0.0, f64::max);
                            let h = f64::from(l.len() as i32 * LINE_H);
                            reach = reach.max(w * diag + h * diag);
                            let cx = (i as f64 + 0.5) * s;
                            need_left = need_left.max(w * diag + 8.0 - cx);
                        }
                        if f64::from(left) < need_left {
                            let extra = need_left.ceil() as i32 - left;
                            left += extra;
                            width += extra;
                        }
                        label_block = reach.ceil() as i32;
                        cat_labels = Some(CatLabels::Rotated(labels));
                    }
                }
                // Value labels over bars, when every one fits its lane.
                let lane_px = slot(width, left) * GROUP_WIDTH / (*lanes).max(1) as f64;
                value_labels = bars.len() <= 40
                    && bars.iter().all(|b| {
                        b.value.is_none() || text_width(&b.text, VALUE_FONT) <= lane_px - 2.0
                    });
            }
            Values::Points(_) => {
                let (xlo, xhi) = data.x_range();
                let plot_w = |left: i32, right: i32| f64::from(width - left - right);
                let mut target = ((plot_w(left, right) / 100.0) as usize).clamp(2, 8);
                // Margins grow for the end labels, which narrows the plot, so
                // settle the ticks in a few rounds.
                for _ in 0..4 {
                    let pw = plot_w(left, right);
                    let fits = |a: &Axis| min_tick_gap(a, pw) >= widest_label(a) + 12.0;
                    x = if spec.log_x {
                        log_axis(xlo, xhi, fits)
                    } else {
                        loop {
                            let a = linear_axis(xlo, xhi, target);
                            if fits(&a) || target <= 1 {
                                break a;
                            }
                            target -= 1;
                        }
                    };
                    let half = |t: Option<&(f64, String)>| {
                        t.map_or(0, |t| (text_width(&t.1, FONT) / 2.0).ceil() as i32 + 8)
                    };
                    let (l2, r2) = (
                        left.max(half(x.ticks.first())),
                        right.max(half(x.ticks.last())),
                    );
                    if (l2, r2) == (left, right) {
                        break;
                    }
                    (left, right) = (l2, r2);
                }
                label_block = LINE_H;
            }
        }
        let x_title_w = text_width(&data.x_title, FONT);
        let plot_w = f64::from(width - left - right);
        let x_title_size = if x_title_w > plot_w {
            (FONT * plot_w / x_title_w).floor().max(8.0)
        } else {
            FONT
        };

        // The legend, above the plot, aligned with it, flowing into rows; a
        // name too long for a row wraps onto more lines.
        let mut legend = Vec::new();
        let mut top = 16;
        if data.series.list.len() > 1 {
            let (x0, x1) = (left.min(width / 3), width - 16);
            let (mut x, mut y, mut row_lines) = (x0, 8, 1);
            for (i, s) in data.series.list.iter().enumerate() {
                let room = f64::from(x1 - x0 - 22);
                let lines = wrap(&s.name, room, FONT, 0, true).unwrap_or_default();
                let text_w = lines
                    .iter()
                    .map(|l| text_width(l, FONT))
                    .fold(0.0, f64::max);
                let w = 22 + text_w.ceil() as i32;
                if x > x0 && x + w > x1 {
                    y += LEGEND_ROW + (row_lines - 1) * LINE_H;
                    x = x0;
                    row_lines = 1;
                }
                row_lines = row_lines.max(lines.len() as i32);
                legend.push(LegendItem {
                    series: i,
                    x,
                    y,
                    lines,
                });
                x += w + 16;
            }
            top = y + LEGEND_ROW + (row_lines - 1) * LINE_H + 10;
        }

        let bottom_margin = 8 + label_block + 10 + LINE_H + 8;
        let height = top + PLOT_HEIGHT + bottom_margin;
        Plan {
            width,
            height,
            left,
            right: width - right,
            top,
            bottom: top + PLOT_HEIGHT,
            x,
            y,
            cat_labels,
            legend,
            value_labels,
            y_title_size,
            y_title_x: left - y_labels_w - 10 - 3,
            x_title_size,
        }
    }
}

impl Data {
    /// The smallest and largest y value.
    fn y_range(&self) -> (f64, f64) {
        let ys: Box<dyn Iterator<Item = f64> + '_> = match &self.values {
            Values::Bars { bars, .. } => Box::new(bars.iter().filter_map(|b| b.value)),
            Values::Points(p) => Box::new(p.iter().flatten().map(|p| p.y)),
        };
        min_max(ys)
    }

    /// The smallest and largest x value of a line or scatter chart.
    fn x_range(&self) -> (f64, f64) {
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

// ---------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------

/// A plotters axis coordinate made from an [`Axis`].
trait AxisCoord: Ranged<ValueType = f64> + Sized {
    fn make(axis: &Axis) -> Self;
}

impl AxisCoord for RangedCoordf64 {
    fn make(axis: &Axis) -> Self {
        (axis.lo..axis.hi).into()
    }
}

impl AxisCoord for LogCoord<f64> {
    fn make(axis: &Axis) -> Self {
        (axis.lo..axis.hi).log_scale().into()
    }
}

type Area<'b, X, Y> = DrawingArea<SVGBackend<'b>, Cartesian2d<X, Y>>;
type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

fn coord<X: AxisCoord, Y: AxisCoord>(plan: &Plan) -> Cartesian2d<X, Y> {
    Cartesian2d::new(
        X::make(&plan.x),
        Y::make(&plan.y),
        (plan.left..plan.right, plan.bottom..plan.top),
    )
}

/// Runs one plotters pass over a fresh SVG backend and returns the elements
/// it drew (without plotters' own `<svg>` wrapper).
fn pass<X: AxisCoord, Y: AxisCoord>(
    plan: &Plan,
    f: impl for<'b> FnOnce(&DrawingArea<SVGBackend<'b>, Shift>, &Area<'b, X, Y>) -> DrawResult,
) -> Result<String, ChartError> {
    let mut buf = String::new();
    {
        let size = (plan.width.max(1) as u32, plan.height.max(1) as u32);
        let root = SVGBackend::with_string(&mut buf, size).into_drawing_area();
        let area = root.apply_coord_spec(coord::<X, Y>(plan));
        f(&root, &area).map_err(draw_error)?;
        root.present().map_err(draw_error)?;
    }
    let start = buf
        .find("<svg")
        .and_then(|s| buf[s..].find('>').map(|e| s + e + 1));
    let end = buf.rfind("</svg>");
    match (start, end) {
        (Some(s), Some(e)) if s <= e => Ok(buf[s..e].trim_start_matches('\n').to_string()),
        _ => Err(ChartError::new(
            None,
            None,
            "could not draw the chart: the SVG backend wrote no document".to_string(),
        )),
    }
}

fn draw_error(e: DrawingAreaErrorKind<std::io::Error>) -> ChartError {
    ChartError::new(None, None, format!("could not draw the chart: {e}"))
}

/// Makes a chrome pass (grid or axes) follow the page's text colour: those
/// passes draw only in black, so every black becomes `currentColor`.
fn to_current_color(s: &str) -> String {
    s.replace("\"#000000\"", "\"currentColor\"")
        .replace(" opacity=\"1\"", "")
}

fn parse_hex(s: &str) -> Option<RGBColor> {
    let h = s.trim().strip_prefix('#')?;
    if h.len() != 6 || !h.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some(RGBColor(byte(0)?, byte(2)?, byte(4)?))
}

/// Bars of a category: the x span of a lane.
fn lane_span(cat: usize, lane: usize, lanes: usize) -> (f64, f64) {
    let lanes = lanes.max(1) as f64;
    let lane_w = GROUP_WIDTH / lanes;
    let x0 = cat as f64 + (1.0 - GROUP_WIDTH) / 2.0 + lane as f64 * lane_w;
    // A thin gap between neighbouring bars of a group.
    let gap = if lanes > 1.0 { lane_w * 0.08 } else { 0.0 };
    (x0 + gap, x0 + lane_w - gap)
}

fn draw<X: AxisCoord, Y: AxisCoord>(
    input: &ChartInput,
    data: &Data,
    plan: &Plan,
    summary: &str,
) -> Result<String, ChartError> {
    let spec = input.spec;
    let to_px = coord::<X, Y>(plan);
    let bars = matches!(data.values, Values::Bars { .. });
    let chrome = BLACK;

    // Grid: one line per value tick (and per x tick for numeric x).
    let grid = pass::<X, Y>(plan, |_, area| {
        let style = chrome.mix(0.15).stroke_width(1);
        // Not over the axis lines themselves.
        for (v, _) in plan.y.ticks.iter().filter(|t| t.0 != plan.y.lo) {
            area.draw(&PathElement::new(
                vec![(plan.x.lo, *v), (plan.x.hi, *v)],
                style,
            ))?;
        }
        if !bars {
            for (v, _) in plan.x.ticks.iter().filter(|t| t.0 != plan.x.lo) {
                area.draw(&PathElement::new(
                    vec![(*v, plan.y.lo), (*v, plan.y.hi)],
                    style,
                ))?;
            }
        }
        Ok(())
    })?;

    // Axes: the frame's bottom and left sides, tick marks, a zero line.
    let axes = pass::<X, Y>(plan, |root, _| {
        let style = chrome.stroke_width(1);
        let (l, r, t, b) = (plan.left, plan.right, plan.top, plan.bottom);
        root.draw(&PathElement::new(vec![(l, b), (r, b)], style))?;
        root.draw(&PathElement::new(vec![(l, t), (l, b)], style))?;
        for (v, _) in &plan.y.ticks {
            let (_, py) = to_px.translate(&(plan.x.lo, *v));
            root.draw(&PathElement::new(vec![(l - 5, py), (l, py)], style))?;
        }
        if !bars {
            for (v, _) in &plan.x.ticks {
                let (px, _) = to_px.translate(&(*v, plan.y.lo));
                root.draw(&PathElement::new(vec![(px, b), (px, b + 5)], style))?;
            }
        }
        if bars && !plan.y.log && plan.y.lo < 0.0 && plan.y.hi > 0.0 {
            let (_, py) = to_px.translate(&(plan.x.lo, 0.0));
            root.draw(&PathElement::new(vec![(l, py), (r, py)], style))?;
        }
        Ok(())
    })?;

    // Marks: bars, lines with their points, scatter points, legend swatches.
    let marks = pass::<X, Y>(plan, |root, area| {
        match &data.values {
            Values::Bars { lanes, bars, .. } => {
                let base = if plan.y.log { plan.y.lo } else { 0.0 };
                for b in bars {
                    let Some(v) = b.value else { continue };
                    let (x0, x1) = lane_span(b.cat, b.lane, *lanes);
                    let color = data.series.list[b.series].color;
                    area.draw(&Rectangle::new([(x0, base), (x1, v)], color.filled()))?;
                }
            }
            Values::Points(series) => {
                for (s, points) in series.iter().enumerate() {
                    let color = data.series.list[s].color;
                    let xy: Vec<(f64, f64)> = points.iter().map(|p| (p.x, p.y)).collect();
                    if spec.kind == ChartKind::Line {
                        let style = color.filled().stroke_width(2);
                        for e in LineSeries::new(xy, style).point_size(3) {
                            area.draw(&e)?;
                        }
                    } else {
                        for p in xy {
                            area.draw(&Circle::new(p, 4, color.mix(0.85).filled()))?;
                        }
                    }
                }
            }
        }
        for item in &plan.legend {
            let color = data.series.list[item.series].color;
            let (x, cy) = (item.x, item.y + 7);
            match spec.kind {
                ChartKind::Bar | ChartKind::GroupedBar => {
                    root.draw(&Rectangle::new(
                        [(x, cy - 6), (x + 12, cy + 6)],
                        color.filled(),
                    ))?;
                }
                ChartKind::Line => {
                    root.draw(&PathElement::new(
                        vec![(x, cy), (x + 16, cy)],
                        color.stroke_width(2),
                    ))?;
                    root.draw(&Circle::new((x + 8, cy), 3, color.filled()))?;
                }
                ChartKind::Scatter => {
                    root.draw(&Circle::new((x + 6, cy), 4, color.mix(0.85).filled()))?;
                }
            }
        }
        Ok(())
    })?;

    // Text, laid out here.
    let mut text = Text::default();
    let (l, r, t, b) = (plan.left, plan.right, plan.top, plan.bottom);
    for (v, label) in &plan.y.ticks {
        let (_, py) = to_px.translate(&(plan.x.lo, *v));
        text.put(
            l - 8,
            py + 4,
            Anchor::End,
            None,
            std::slice::from_ref(label),
        );
    }
    let label_top = b + 8;
    match (&plan.cat_labels, &data.values) {
        (Some(CatLabels::Flat(labels)), _) => {
            for (i, lines) in labels.iter().enumerate() {
                let (px, _) = to_px.translate(&(i as f64 + 0.5, plan.y.lo));
                text.put(px, label_top + 10, Anchor::Middle, None, lines);
            }
        }
        (Some(CatLabels::Rotated(labels)), _) => {
            for (i, lines) in labels.iter().enumerate() {
                let (px, _) = to_px.translate(&(i as f64 + 0.5, plan.y.lo));
                text.rotated(px + 4, label_top + 4, -45, Anchor::End, lines);
            }
        }
        (None, _) => {
            for (v, label) in &plan.x.ticks {
                let (px, _) = to_px.translate(&(*v, plan.y.lo));
                text.put(
                    px,
                    label_top + 10,
                    Anchor::Middle,
                    None,
                    std::slice::from_ref(label),
                );
            }
        }
    }
    if plan.value_labels {
        if let Values::Bars { lanes, bars, .. } = &data.values {
            let base = if plan.y.log { plan.y.lo } else { 0.0 };
            for bar in bars {
                let (x0, x1) = lane_span(bar.cat, bar.lane, *lanes);
                let (px, _) = to_px.translate(&((x0 + x1) / 2.0, base));
                let (label, v) = match bar.value {
                    Some(v) => (bar.text.clone(), v),
                    None => ("n/a".to_string(), base),
                };
                let (_, py) = to_px.translate(&((x0 + x1) / 2.0, v));
                let y = if v < base { py + 12 } else { py - 4 };
                text.put(px, y, Anchor::Middle, Some("plot-value"), &[label]);
            }
        }
    }
    // Axis titles.
    let x_title_y = plan.height - 10;
    text.sized(
        (l + r) / 2,
        x_title_y,
        Anchor::Middle,
        "plot-axis-title",
        plan.x_title_size,
        None,
        &data.x_title,
    );
    text.sized(
        plan.y_title_x,
        (t + b) / 2,
        Anchor::Middle,
        "plot-axis-title",
        plan.y_title_size,
        Some(-90),
        &data.y_title,
    );
    for item in &plan.legend {
        let dx = match spec.kind {
            ChartKind::Line => 22,
            _ => 18,
        };
        text.put(
            item.x + dx,
            item.y + 11,
            Anchor::Start,
            Some("plot-legend"),
            &item.lines,
        );
    }

    // The document.
    let id = chart_id(input);
    let mut svg = String::with_capacity(grid.len() + axes.len() + marks.len() + 4096);
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot plot-{kind}\" \
         viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" \
         aria-labelledby=\"{id}-title {id}-desc\">\n\
         <title id=\"{id}-title\">{title}</title>\n\
         <desc id=\"{id}-desc\">{desc}</desc>\n",
        kind = spec.kind.as_str(),
        w = plan.width,
        h = plan.height,
        title = escape_html(&one_line(&spec.title)),
        desc = escape_html(summary),
    );
    let _ = write!(
        svg,
        "<g class=\"plot-grid\" shape-rendering=\"crispEdges\">\n{}</g>\n",
        to_current_color(&grid)
    );
    let _ = write!(
        svg,
        "<g class=\"plot-marks\">\n{}</g>\n",
        marks.replace(" opacity=\"1\"", "")
    );
    let _ = write!(
        svg,
        "<g class=\"plot-axes\" shape-rendering=\"crispEdges\">\n{}</g>\n",
        to_current_color(&axes)
    );
    let _ = write!(
        svg,
        "<g class=\"plot-labels\" fill=\"currentColor\" font-size=\"{}\">\n{}</g>\n</svg>\n",
        FONT, text.buf
    );
    Ok(svg)
}

#[derive(Clone, Copy)]
enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn attr(self) -> &'static str {
        match self {
            Anchor::Start => "",
            Anchor::Middle => " text-anchor=\"middle\"",
            Anchor::End => " text-anchor=\"end\"",
        }
    }
}

/// Text elements, written by hand (plotters cannot measure text without font
/// files, and its SVG text names a font family).
#[derive(Default)]
struct Text {
    buf: String,
}

impl Text {
    fn put(&mut self, x: i32, y: i32, anchor: Anchor, class: Option<&str>, lines: &[String]) {
        self.element(x, y, anchor, class, None, None, lines);
    }

    fn rotated(&mut self, x: i32, y: i32, angle: i32, anchor: Anchor, lines: &[String]) {
        self.element(x, y, anchor, None, None, Some(angle), lines);
    }

    #[allow(clippy::too_many_arguments)]
    fn sized(
        &mut self,
        x: i32,
        y: i32,
        anchor: Anchor,
        class: &str,
        size: f64,
        angle: Option<i32>,
        s: &str,
    ) {
        let size = (size != FONT).then_some(size);
        self.element(x, y, anchor, Some(class), size, angle, &[s.to_string()]);
    }

    #[allow(clippy::too_many_arguments)]
    fn element(
        &mut self,
        x: i32,
        y: i32,
        anchor: Anchor,
        class: Option<&str>,
        size: Option<f64>,
        angle: Option<i32>,
        lines: &[String],
    ) {
        if lines.iter().all(|l| l.is_empty()) {
            return;
        }
        let b = &mut self.buf;
        let _ = write!(b, "<text x=\"{x}\" y=\"{y}\"{}", anchor.attr());
        if let Some(c) = class {
            let _ = write!(b, " class=\"{c}\"");
            if c == "plot-value" {
                let _ = write!(b, " font-size=\"{VALUE_FONT}\"");
            }
        }
        if let Some(s) = size {
            let _ = write!(b, " font-size=\"{s}\"");
        }
        if let Some(a) = angle {
            let _ = write!(b, " transform=\"rotate({a} {x} {y})\"");
        }
        b.push('>');
        for (i, line) in lines.iter().enumerate() {
            if i == 0 {
                b.push_str(&escape_html(line));
            } else {
                let _ = write!(
                    b,
                    "<tspan x=\"{x}\" dy=\"{LINE_H}\">{}</tspan>",
                    escape_html(line)
                );
            }
        }
        b.push_str("</text>\n");
    }
}

/// `chart-<id>-<hash>`: readable, and unique on a page that shows charts of
/// several runs whose chart ids coincide.
fn chart_id(input: &ChartInput) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |s: &str| {
        for byte in s.bytes().chain([0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    let spec = input.spec;
    feed(&spec.id);
    feed(&spec.title);
    feed(&spec.table);
    feed(&input.table.file);
    feed(&spec.x);
    for y in &spec.y {
        feed(y);
    }
    for row in &input.table.rows {
        for c in row {
            feed(c);
        }
    }
    let clean: String = spec
        .id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("chart-{clean}-{:08x}", hash as u32)
}

// ---------------------------------------------------------------------------
// Summary
// ---------------------------------------------------------------------------

fn summarize(input: &ChartInput, data: &Data) -> String {
    let spec = input.spec;
    let kind = match spec.kind {
        ChartKind::Bar => "Bar chart",
        ChartKind::GroupedBar => "Grouped bar chart",
        ChartKind::Line => "Line chart",
        ChartKind::Scatter => "Scatter plot",
    };
    let log = match (
        spec.log_x && !matches!(data.values, Values::Bars { .. }),
        spec.log_y,
    ) {
        (true, true) => " (logarithmic axes)",
        (true, false) => " (logarithmic x axis)",
        (false, true) => " (logarithmic y axis)",
        (false, false) => "",
    };
    let names = &data.series.list;
    let legend = names.len() > 1;
    let mut out = String::new();
    match &data.values {
        Values::Bars { cats, bars, .. } => {
            let _ = write!(out, "{kind} of {} by {}{log}: ", data.y_title, data.x_title);
            let value = |b: &Bar| match b.value {
                Some(_) => b.text.clone(),
                None => "no value".to_string(),
            };
            if bars.len() <= 12 {
                let per_cat = bars.len() > cats.len();
                // "compiled 266, loaded 407", unless the names hold commas.
                let commas = cats.iter().any(|c| c.contains([',', ';']))
                    || names.iter().any(|n| n.name.contains([',', ';']));
                let (sep, colon) = if commas { ("; ", ":") } else { (", ", "") };
                let mut parts = Vec::new();
                for (c, name) in cats.iter().enumerate() {
                    let mine: Vec<&Bar> = bars.iter().filter(|b| b.cat == c).collect();
                    let name = one_line(name);
                    if per_cat {
                        let inner: Vec<String> = mine
                            .iter()
                            .map(|b| format!("{} {}", names[b.series].name, value(b)))
                            .collect();
                        parts.push(format!("{name}: {}", inner.join(", ")));
                    } else {
                        for b in mine {
                            if legend {
                                parts.push(format!(
                                    "{name}{colon} {} ({})",
                                    value(b),
                                    names[b.series].name
                                ));
                            } else {
                                parts.push(format!("{name}{colon} {}", value(b)));
                            }
                        }
                    }
                }
                out.push_str(&parts.join(if per_cat { "; " } else { sep }));
            } else {
                let _ = write!(out, "{} bars in {} categories", bars.len(), cats.len());
                if legend {
                    let _ = write!(out, ", {}", series_list(names));
                }
                let with = |b: &Bar| {
                    let cat = one_line(cats.get(b.cat).map_or("", String::as_str));
                    if legend {
                        format!("{} ({cat}, {})", b.text, names[b.series].name)
                    } else {
                        format!("{} ({cat})", b.text)
                    }
                };
                let valued: Vec<&Bar> = bars.iter().filter(|b| b.value.is_some()).collect();
                let lo = valued
                    .iter()
                    .copied()
                    .min_by(|a, b| cmp_value(a.value, b.value));
                let hi = valued
                    .iter()
                    .copied()
                    .max_by(|a, b| cmp_value(a.value, b.value));
                if let (Some(lo), Some(hi)) = (lo, hi) {
                    let _ = write!(out, "; lowest {}, highest {}", with(lo), with(hi));
                }
            }
        }
        Values::Points(series) => {
            let _ = write!(
                out,
                "{kind} of {} against {}{log}: ",
                data.y_title, data.x_title
            );
            let total: usize = series.iter().map(Vec::len).sum();
            if total <= 8 {
                let mut parts = Vec::new();
                for (s, points) in series.iter().enumerate() {
                    if points.is_empty() {
                        continue;
                    }
                    let list: Vec<String> = points
                        .iter()
                        .map(|p| format!("{} at {}", p.y_text, p.x_text))
                        .collect();
                    if legend {
                        parts.push(format!("{}: {}", names[s].name, list.join(", ")));
                    } else {
                        parts.push(list.join(", "));
                    }
                }
                out.push_str(&parts.join("; "));
            } else {
                if legend {
                    let _ = write!(out, "{}, ", series_list(names));
                }
                let _ = write!(out, "{total} points");
                let all: Vec<&Point> = series.iter().flatten().collect();
                let by = |f: fn(&Point) -> f64| {
                    let lo = all.iter().copied().min_by(|a, b| f(a).total_cmp(&f(b)));
                    let hi = all.iter().copied().max_by(|a, b| f(a).total_cmp(&f(b)));
                    (lo, hi)
                };
                if let (Some(lo), Some(hi)) = by(|p| p.x) {
                    let _ = write!(out, "; x from {} to {}", lo.x_text, hi.x_text);
                }
                if let (Some(lo), Some(hi)) = by(|p| p.y) {
                    let _ = write!(out, "; y from {} to {}", lo.y_text, hi.y_text);
                }
            }
        }
    }
    out.push('.');
    one_line(&out)
}

fn cmp_value(a: Option<f64>, b: Option<f64>) -> std::cmp::Ordering {
    a.unwrap_or(f64::NAN).total_cmp(&b.unwrap_or(f64::NAN))
}

fn series_list(names: &[Series]) -> String {
    let shown: Vec<&str> = names.iter().take(6).map(|s| s.name.as_str()).collect();
    let more = names.len().saturating_sub(6);
    if more > 0 {
        format!(
            "{} series ({}, and {more} more)",
            names.len(),
            shown.join(", ")
        )
    } else {
        format!("{} series ({})", names.len(), shown.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Column;

    /// A table from simple CSV text (no quoting); `units` gives the numeric
    /// columns their unit.
    fn table(csv: &str, units: &[(&str, &str)]) -> Table {
        let mut lines = csv.lines();
        let header: Vec<String> = lines
            .next()
            .unwrap_or("")
            .split(',')
            .map(str::to_string)
            .collect();
        let rows: Vec<Vec<String>> = lines
            .map(|l| l.split(',').map(str::to_string).collect())
            .collect();
        let row_lines = (2..rows.len() + 2).collect();
        let columns = header
            .iter()
            .map(|h| Column {
                name: h.clone(),
                unit: units
                    .iter()
                    .find(|(n, _)| n == h)
                    .map(|(_, u)| u.to_string()),
                description: String::new(),
            })
            .collect();
        Table {
            file: "results.csv".to_string(),
            title: "Results".to_string(),
            columns,
            header,
            rows,
            row_lines,
            path_in_yaml: "tables[0]".to_string(),
        }
    }

    fn spec(kind: ChartKind, x: &str, y: &[&str]) -> ChartSpec {
        ChartSpec {
            id: "peak".to_string(),
            title: "Peak throughput".to_string(),
            table: "results.csv".to_string(),
            kind,
            x: x.to_string(),
            y: y.iter().map(|s| s.to_string()).collect(),
            series: None,
            x_label: None,
            y_label: None,
            log_x: false,
            log_y: false,
            caption: None,
            path_in_yaml: "charts[0]".to_string(),
        }
    }

    fn engines() -> (BTreeMap<String, String>, BTreeMap<String, String>) {
        let colors = [("vllm", "#1f77b4"), ("sglang", "#d62728")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let names = [("vllm", "vLLM"), ("sglang", "SGLang")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        (colors, names)
    }

    fn go(spec: &ChartSpec, table: &Table) -> Result<RenderedChart, ChartError> {
        let (colors, names) = engines();
        render(&ChartInput {
            spec,
            table,
            engine_colors: &colors,
            engine_names: &names,
        })
    }

    fn ok(spec: &ChartSpec, table: &Table) -> RenderedChart {
        match go(spec, table) {
            Ok(c) => c,
            Err(e) => panic!("chart failed: {e}"),
        }
    }

    fn err(spec: &ChartSpec, table: &Table) -> ChartError {
        match go(spec, table) {
            Ok(_) => panic!("chart should have failed"),
            Err(e) => e,
        }
    }

    /// The text of every `<text>` element, in order.
    fn texts(svg: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = svg;
        while let Some(i) = rest.find("<text") {
            rest = &rest[i..];
            let Some(open_end) = rest.find('>') else {
                break;
            };
            let Some(close) = rest.find("</text>") else {
                break;
            };
            let inner = &rest[open_end + 1..close];
            let mut plain = String::new();
            let mut in_tag = false;
            for c in inner.chars() {
                match c {
                    '<' => {
                        in_tag = true;
                        if !plain.is_empty() {
                            plain.push(' ');
                        }
                    }
                    '>' => in_tag = false,
                    c if !in_tag => plain.push(c),
                    _ => {}
                }
            }
            out.push(plain.trim().to_string());
            rest = &rest[close + 7..];
        }
        out
    }

    /// The inside of `<g class="{class}">`.
    fn group<'s>(svg: &'s str, class: &str) -> &'s str {
        let open = format!("<g class=\"{class}\"");
        let start = svg.find(&open).unwrap();
        let end = start + svg[start..].find("</g>").unwrap();
        &svg[start..end]
    }

    fn start_table() -> Table {
        table(
            "start,peak\ncompiled,266\nloaded compiled,407",
            &[("peak", "tokens/s")],
        )
    }

    fn engine_table() -> Table {
        table(
            "model,engine,tok_s\n\
             Llama-3.1-8B,vllm,1210\n\
             Llama-3.1-8B,sglang,1315\n\
             Qwen2.5-32B,vllm,402.5\n\
             Qwen2.5-32B,sglang,388\n\
             Mistral-7B,vllm,1390",
            &[("tok_s", "tokens/s")],
        )
    }

    fn latency_table() -> Table {
        table(
            "batch,engine,p50\n\
             1,vllm,12\n2,vllm,13.5\n8,vllm,21\n32,vllm,75\n64,vllm,190\n\
             1,sglang,11\n8,sglang,19\n2,sglang,12.5\n32,sglang,60\n64,sglang,140",
            &[("batch", "requests"), ("p50", "ms")],
        )
    }

    #[test]
    fn bar_renders_with_title_desc_and_aria() {
        let c = ok(&spec(ChartKind::Bar, "start", &["peak"]), &start_table());
        let svg = &c.svg;
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>\n"));
        assert!(svg.contains("role=\"img\""));
        let id = chart_id(&ChartInput {
            spec: &spec(ChartKind::Bar, "start", &["peak"]),
            table: &start_table(),
            engine_colors: &BTreeMap::new(),
            engine_names: &BTreeMap::new(),
        });
        assert!(id.starts_with("chart-peak-"));
        assert!(svg.contains(&format!("aria-labelledby=\"{id}-title {id}-desc\"")));
        // <title> and <desc> are the first children.
        let after_root = &svg[svg.find(">\n").unwrap() + 2..];
        assert!(after_root.starts_with(&format!(
            "<title id=\"{id}-title\">Peak throughput</title>\n<desc id=\"{id}-desc\">"
        )));
        assert_eq!(
            c.summary,
            "Bar chart of peak (tokens/s) by start: compiled 266, loaded compiled 407."
        );
        assert!(svg.contains(&c.summary));
        // Single series: no legend.
        assert!(!svg.contains("class=\"plot-legend\""));
        assert_eq!(svg.matches("<rect").count(), 2);
    }

    #[test]
    fn bars_start_at_zero_with_round_ticks() {
        let c = ok(&spec(ChartKind::Bar, "start", &["peak"]), &start_table());
        let t = texts(&c.svg);
        assert!(t.contains(&"0".to_string()), "{t:?}");
        assert!(t.contains(&"100".to_string()), "{t:?}");
        assert!(t.contains(&"400".to_string()), "{t:?}");
        // Headroom: the axis goes past the largest bar.
        assert!(t.contains(&"500".to_string()), "{t:?}");
    }

    #[test]
    fn categorical_order_is_kept() {
        let t = table("name,v\nzeta,3\nalpha,1\nmu,2", &[("v", "s")]);
        let c = ok(&spec(ChartKind::Bar, "name", &["v"]), &t);
        let labels = texts(&c.svg);
        let pos = |s: &str| labels.iter().position(|l| l == s).unwrap();
        assert!(pos("zeta") < pos("alpha") && pos("alpha") < pos("mu"));
        assert!(c.summary.contains("zeta 3, alpha 1, mu 2"));
    }

    #[test]
    fn grouped_bar_uses_engine_colours_and_names() {
        let mut s = spec(ChartKind::GroupedBar, "model", &["tok_s"]);
        s.series = Some("engine".to_string());
        let c = ok(&s, &engine_table());
        assert!(c.svg.contains("#1F77B4"), "vllm colour");
        assert!(c.svg.contains("#D62728"), "sglang colour");
        let t = texts(&c.svg);
        assert!(t.contains(&"vLLM".to_string()) && t.contains(&"SGLang".to_string()));
        assert!(c.svg.contains("class=\"plot-legend\""));
        // One bar per (model, engine) pair, plus two legend swatches.
        assert_eq!(c.svg.matches("<rect").count(), 5 + 2);
        // Categories in order of first appearance.
        let pos = |s: &str| t.iter().position(|l| l == s).unwrap();
        assert!(pos("Llama-3.1-8B") < pos("Qwen2.5-32B"));
        assert!(pos("Qwen2.5-32B") < pos("Mistral-7B"));
        assert_eq!(
            c.summary,
            "Grouped bar chart of tok_s (tokens/s) by model: Llama-3.1-8B: vLLM 1210, \
             SGLang 1315; Qwen2.5-32B: vLLM 402.5, SGLang 388; Mistral-7B: vLLM 1390."
        );
    }

    #[test]
    fn other_series_take_the_palette_in_order() {
        let t = table(
            "mode,setup,v\na,eager,1\na,graphs,2\nb,eager,3\nb,graphs,4",
            &[("v", "s")],
        );
        let mut s = spec(ChartKind::GroupedBar, "mode", &["v"]);
        s.series = Some("setup".to_string());
        let c = ok(&s, &t);
        let orange = c.svg.find("#E69F00").unwrap();
        let blue = c.svg.find("#56B4E9").unwrap();
        assert!(orange < blue, "first series gets the first colour");
        assert!(!c.svg.contains("#1F77B4"));
    }

    #[test]
    fn bar_with_series_colours_each_bar() {
        let t = table(
            "setup,engine,v\nA,vllm,10\nB,sglang,12\nC,tgi,9",
            &[("v", "s")],
        );
        let mut s = spec(ChartKind::Bar, "setup", &["v"]);
        s.series = Some("engine".to_string());
        let c = ok(&s, &t);
        assert!(c.svg.contains("#1F77B4") && c.svg.contains("#D62728"));
        assert!(c.svg.contains("#E69F00"), "tgi is not an engine: palette");
        assert!(texts(&c.svg).contains(&"tgi".to_string()));
        assert_eq!(
            c.summary,
            "Bar chart of v (s) by setup: A 10 (vLLM), B 12 (SGLang), C 9 (tgi)."
        );
    }

    #[test]
    fn several_y_columns_make_series_named_by_column() {
        let t = table(
            "engine,p50,p99\nvllm,12,40\nsglang,11,35",
            &[("p50", "ms"), ("p99", "ms")],
        );
        let c = ok(&spec(ChartKind::GroupedBar, "engine", &["p50", "p99"]), &t);
        let labels = texts(&c.svg);
        assert!(labels.contains(&"p50".to_string()) && labels.contains(&"p99".to_string()));
        // A shared unit titles the axis.
        assert!(labels.contains(&"ms".to_string()), "{labels:?}");
        assert!(c.svg.contains("#E69F00") && c.svg.contains("#56B4E9"));
        assert_eq!(
            c.summary,
            "Grouped bar chart of ms by engine: vllm: p50 12, p99 40; sglang: p50 11, p99 35."
        );
        // Different units: the axis lists the columns.
        let t = table(
            "engine,p50,tok\nvllm,12,40\nsglang,11,35",
            &[("p50", "ms"), ("tok", "tokens")],
        );
        let c = ok(&spec(ChartKind::Bar, "engine", &["p50", "tok"]), &t);
        assert!(texts(&c.svg).contains(&"p50 (ms), tok (tokens)".to_string()));
    }

    #[test]
    fn line_sorts_x_and_draws_markers() {
        let mut s = spec(ChartKind::Line, "batch", &["p50"]);
        s.series = Some("engine".to_string());
        let c = ok(&s, &latency_table());
        let marks = group(&c.svg, "plot-marks");
        assert_eq!(
            marks.matches("<polyline").count(),
            2 + 2,
            "two lines, two legend"
        );
        assert_eq!(
            marks.matches("<circle").count(),
            10 + 2,
            "points, legend markers"
        );
        // SGLang's rows are out of order in the file; its line is sorted.
        let sglang_line = c
            .svg
            .lines()
            .filter(|l| l.starts_with("<polyline") && l.contains("#D62728"))
            .find(|l| l.matches(',').count() == 5)
            .unwrap();
        let xs: Vec<i32> = sglang_line
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .filter_map(|p| p.split(',').next()?.parse().ok())
            .collect();
        assert!(xs.windows(2).all(|w| w[0] <= w[1]), "{xs:?}");
        assert!(c.summary.starts_with(
            "Line chart of p50 (ms) against batch (requests): 2 series (vLLM, SGLang), 10 points"
        ));
    }

    #[test]
    fn log_axes_render_with_decade_ticks() {
        let mut s = spec(ChartKind::Line, "batch", &["p50"]);
        s.series = Some("engine".to_string());
        s.log_x = true;
        s.log_y = true;
        let c = ok(&s, &latency_table());
        let t = texts(&c.svg);
        for tick in ["1", "10", "100"] {
            assert!(t.contains(&tick.to_string()), "{tick} in {t:?}");
        }
        assert!(c.summary.contains("(logarithmic axes)"));
        let t = table("x,y\n1,0.002\n10,0.03\n100,4000", &[("x", "s"), ("y", "s")]);
        let mut s = spec(ChartKind::Scatter, "x", &["y"]);
        s.log_y = true;
        let labels = texts(&ok(&s, &t).svg);
        assert!(labels.contains(&"0.01".to_string()), "{labels:?}");
        assert!(labels.contains(&"1,000".to_string()), "{labels:?}");
    }

    #[test]
    fn scatter_renders_points_per_series() {
        let mut s = spec(ChartKind::Scatter, "batch", &["p50"]);
        s.series = Some("engine".to_string());
        let c = ok(&s, &latency_table());
        let marks = group(&c.svg, "plot-marks");
        assert_eq!(marks.matches("<circle").count(), 10 + 2);
        assert!(!marks.contains("<polyline"));
    }

    #[test]
    fn empty_cells_are_skipped() {
        let t = table("x,y\n1,5\n2,\n3,7\n,8", &[("x", "s"), ("y", "s")]);
        let c = ok(&spec(ChartKind::Line, "x", &["y"]), &t);
        assert_eq!(
            c.summary,
            "Line chart of y (s) against x (s): 5 at 1, 7 at 3."
        );
        let t = table("x,y\na,5\nb,\nc,7", &[("y", "s")]);
        let c = ok(&spec(ChartKind::Bar, "x", &["y"]), &t);
        assert_eq!(c.svg.matches("<rect").count(), 2);
        assert!(c.summary.contains("b no value"));
    }

    #[test]
    fn hostile_text_is_escaped() {
        let evil = "<script>alert(1)</script> & \"q\" 'a'";
        let t = Table {
            rows: vec![
                vec![evil.to_string(), evil.to_string(), "3".to_string()],
                vec!["b".to_string(), "vllm".to_string(), "4".to_string()],
            ],
            ..table("name,who,v", &[("v", evil)])
        };
        let t = Table {
            row_lines: vec![2, 3],
            ..t
        };
        let mut s = spec(ChartKind::Bar, "name", &["v"]);
        s.title = evil.to_string();
        s.series = Some("who".to_string());
        s.x_label = Some(evil.to_string());
        let c = ok(&s, &t);
        assert!(!c.svg.contains("<script"), "{}", c.svg);
        assert!(!c.svg.contains("\"q\""));
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;a&#39;";
        assert!(c.svg.contains(&format!("-title\">{escaped}</title>")));
        // The category, the series (legend) and the axis title.
        assert!(c.svg.matches(escaped).count() >= 3, "{}", c.svg);
        // The summary stays plain text; the SVG escapes it.
        assert!(c.summary.contains(evil));
        assert!(!c.svg.contains(&c.summary));
        // Hostile chart ids cannot break out of attributes either.
        let mut s = spec(ChartKind::Bar, "name", &["v"]);
        s.id = "a\"><script>".to_string();
        let c = ok(&s, &t);
        assert!(!c.svg.contains("<script"));
        assert!(c.svg.contains("id=\"chart-a---script--"), "{}", c.svg);
    }

    #[test]
    fn control_characters_and_newlines_are_cleaned() {
        let t = table("name,v\nline one\u{1}\u{0}x,3", &[("v", "s")]);
        let mut s = spec(ChartKind::Bar, "name", &["v"]);
        s.title = "two\nlines".to_string();
        let c = ok(&s, &t);
        assert!(!c.svg.contains('\u{1}') && !c.svg.contains('\u{0}'));
        assert!(c.svg.contains(">two lines</title>"));
        assert!(!c.summary.contains('\n'));
    }

    #[test]
    fn error_missing_column() {
        let e = err(&spec(ChartKind::Bar, "start", &["nope"]), &start_table());
        assert_eq!(e.row_line, None);
        assert_eq!(e.column.as_deref(), Some("nope"));
        assert_eq!(
            e.message,
            "column \"nope\" is not in table \"results.csv\" (its columns are \"start\", \"peak\")"
        );
        let mut s = spec(ChartKind::Bar, "start", &["peak"]);
        s.series = Some("engine".to_string());
        assert_eq!(err(&s, &start_table()).column.as_deref(), Some("engine"));
        let e = err(&spec(ChartKind::Bar, "begin", &["peak"]), &start_table());
        assert_eq!(e.column.as_deref(), Some("begin"));
    }

    #[test]
    fn error_no_rows() {
        let e = err(
            &spec(ChartKind::Bar, "start", &["peak"]),
            &table("start,peak", &[("peak", "s")]),
        );
        assert_eq!(
            e,
            ChartError::new(None, None, "the table has no rows".to_string())
        );
        assert_eq!(e.to_string(), "the table has no rows");
    }

    #[test]
    fn error_not_a_number() {
        let t = table("start,peak\na,1\nb,2\nc,fast", &[("peak", "s")]);
        let e = err(&spec(ChartKind::Bar, "start", &["peak"]), &t);
        assert_eq!(e.row_line, Some(4));
        assert_eq!(e.column.as_deref(), Some("peak"));
        assert_eq!(
            e.message,
            "row 4, column \"peak\": expected a number, found \"fast\""
        );
        // Infinity and NaN parse in Rust but cannot be drawn.
        let t = table("start,peak\na,inf", &[("peak", "s")]);
        let e = err(&spec(ChartKind::Bar, "start", &["peak"]), &t);
        assert_eq!(
            e.message,
            "row 2, column \"peak\": expected a number, found \"inf\""
        );
        // A non-number as x of a line chart.
        let t = table("x,y\n1,2\nbig,3", &[("x", "s"), ("y", "s")]);
        let e = err(&spec(ChartKind::Line, "x", &["y"]), &t);
        assert_eq!((e.row_line, e.column.as_deref()), (Some(3), Some("x")));
        assert_eq!(
            e.message,
            "row 3, column \"x\": expected a number, found \"big\""
        );
    }

    #[test]
    fn error_log_axis_needs_positive_values() {
        let t = table("x,y\n1,2\n2,0\n3,-1", &[("x", "s"), ("y", "s")]);
        let mut s = spec(ChartKind::Line, "x", &["y"]);
        s.log_y = true;
        let e = err(&s, &t);
        assert_eq!((e.row_line, e.column.as_deref()), (Some(3), Some("y")));
        assert_eq!(
            e.message,
            "row 3, column \"y\": a logarithmic axis needs values above zero, found \"0\""
        );
        let t = table("x,y\n0,2", &[("x", "s"), ("y", "s")]);
        let mut s = spec(ChartKind::Scatter, "x", &["y"]);
        s.log_x = true;
        let e = err(&s, &t);
        assert_eq!((e.row_line, e.column.as_deref()), (Some(2), Some("x")));
    }

    #[test]
    fn error_line_needs_numeric_x() {
        let e = err(&spec(ChartKind::Line, "start", &["peak"]), &start_table());
        assert_eq!((e.row_line, e.column.as_deref()), (None, Some("start")));
        assert_eq!(
            e.message,
            "a line chart needs a numeric x, but column \"start\" has no unit"
        );
        let e = err(
            &spec(ChartKind::Scatter, "start", &["peak"]),
            &start_table(),
        );
        assert_eq!(
            e.message,
            "a scatter chart needs a numeric x, but column \"start\" has no unit"
        );
    }

    #[test]
    fn error_short_row_and_no_values_and_duplicates() {
        let mut t = start_table();
        t.rows[1].truncate(1);
        let e = err(&spec(ChartKind::Bar, "start", &["peak"]), &t);
        assert_eq!((e.row_line, e.column.as_deref()), (Some(3), Some("peak")));
        assert_eq!(
            e.message,
            "row 3, column \"peak\": the row has 1 cells, expected 2"
        );

        let t = table("start,peak\na,\nb,", &[("peak", "s")]);
        let e = err(&spec(ChartKind::Bar, "start", &["peak"]), &t);
        assert_eq!(
            e.message,
            "column \"peak\" has no values to plot (every cell is empty)"
        );

        let mut t = engine_table();
        t.rows
            .push(vec!["Llama-3.1-8B".into(), "vllm".into(), "1".into()]);
        t.row_lines.push(7);
        let mut s = spec(ChartKind::GroupedBar, "model", &["tok_s"]);
        s.series = Some("engine".to_string());
        let e = err(&s, &t);
        assert_eq!((e.row_line, e.column.as_deref()), (Some(7), Some("engine")));
        assert_eq!(
            e.message,
            "row 7: a second value for \"Llama-3.1-8B\" in series \"vLLM\" (the first is on \
             row 2); a grouped-bar chart takes one row per x value and series"
        );
    }

    #[test]
    fn output_is_deterministic() {
        let mut s = spec(ChartKind::Line, "batch", &["p50"]);
        s.series = Some("engine".to_string());
        let a = ok(&s, &latency_table());
        let b = ok(&s, &latency_table());
        assert_eq!(a, b);
        let mut s = spec(ChartKind::GroupedBar, "model", &["tok_s"]);
        s.series = Some("engine".to_string());
        assert_eq!(ok(&s, &engine_table()), ok(&s, &engine_table()));
    }

    #[test]
    fn ids_differ_between_charts_with_the_same_id() {
        let a = ok(&spec(ChartKind::Bar, "start", &["peak"]), &start_table());
        let other = table("start,peak\nx,1", &[("peak", "s")]);
        let b = ok(&spec(ChartKind::Bar, "start", &["peak"]), &other);
        let id = |svg: &str| svg.split("<title id=\"").nth(1).unwrap()[..30].to_string();
        assert_ne!(id(&a.svg), id(&b.svg));
    }

    #[test]
    fn theme_follows_the_page() {
        let mut s = spec(ChartKind::Line, "batch", &["p50"]);
        s.series = Some("engine".to_string());
        let svg = ok(&s, &latency_table()).svg;
        assert!(!svg.contains("#000000"), "no hard black");
        assert!(
            !svg.contains("#FFFFFF") && !svg.contains("white"),
            "no white"
        );
        assert!(!svg.contains("font-family"));
        assert!(svg.contains("<g class=\"plot-labels\" fill=\"currentColor\" font-size=\"12\">"));
        assert!(svg.contains("<g class=\"plot-grid\""));
        assert!(svg.contains("stroke=\"currentColor\""));
        // The grid is faint.
        let grid = svg.split("<g class=\"plot-grid\"").nth(1).unwrap();
        let grid = &grid[..grid.find("</g>").unwrap()];
        assert!(grid.lines().skip(1).all(|l| l.contains("opacity=\"0.15\"")));
        assert!(svg.contains("viewBox=\"0 0 720 "));
    }

    #[test]
    fn long_category_labels_wrap_or_rotate() {
        let t = table(
            "name,v\nthe quick brown fox jumps,1\nover the lazy dog again,2\nand again,3\n\
             a fourth label that is long,4\nfive,5\nsix,6",
            &[("v", "s")],
        );
        let c = ok(&spec(ChartKind::Bar, "name", &["v"]), &t);
        assert!(c.svg.contains("<tspan"), "labels wrap onto two lines");
        assert!(!c.svg.contains("rotate(-45"));
        let rows: String = (0..30)
            .map(|i| format!("\nconfiguration number {i} with a long name,{i}"))
            .collect();
        let t = table(&format!("name,v{rows}"), &[("v", "s")]);
        let c = ok(&spec(ChartKind::Bar, "name", &["v"]), &t);
        assert!(c.svg.contains("rotate(-45"));
        // Every label is there in full.
        let labels = texts(&c.svg);
        for i in 0..30 {
            let want = format!("configuration number {i} with a long name");
            assert!(labels.iter().any(|l| l == &want), "{want}");
        }
    }

    #[test]
    fn tick_labels_have_no_float_noise() {
        assert_eq!(fixed(0.30000000000000004, 1), "0.3");
        assert_eq!(fixed(1234567.0, 0), "1,234,567");
        assert_eq!(fixed(-2500.0, 0), "−2,500");
        assert_eq!(fixed(-0.0, 2), "0");
        let a = linear_axis(0.0, 0.7, 5);
        let labels: Vec<&str> = a.ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["0", "0.2", "0.4", "0.6", "0.8"]);
        let a = linear_axis(0.0, 1.1, 5);
        let labels: Vec<&str> = a.ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["0", "0.25", "0.5", "0.75", "1", "1.25"]);
        let a = linear_axis(0.1, 0.3, 5);
        assert_eq!(a.ticks.first().map(|t| t.1.as_str()), Some("0.1"));
        assert_eq!(a.ticks.last().map(|t| t.1.as_str()), Some("0.3"));
        let a = linear_axis(0.0, 12000.0, 5);
        assert!(a.ticks.iter().any(|t| t.1 == "10,000"));
        assert_eq!(scientific(3e-7 * 1.0000000000000002), "3e-7");
        assert_eq!(scientific(2.5e9), "2.5e9");
        let a = log_axis(3.0, 70.0, |_| true);
        let labels: Vec<&str> = a.ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["5", "10", "20", "50"]);
        assert_eq!((a.lo, a.hi), (3.0, 70.0));
        // Many decades: every decade, then every other one when crowded.
        let a = log_axis(1.0, 1e8, |a| a.ticks.len() <= 5);
        let labels: Vec<&str> = a.ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["1", "100", "10,000", "1,000,000", "100,000,000"]);
    }

    #[test]
    fn negative_bars_show_below_zero() {
        let t = table("name,delta\na,-20\nb,35", &[("delta", "%")]);
        let c = ok(&spec(ChartKind::Bar, "name", &["delta"]), &t);
        let labels = texts(&c.svg);
        assert!(labels.contains(&"0".to_string()));
        assert!(labels.iter().any(|l| l.starts_with('−')), "{labels:?}");
    }

    #[test]
    fn log_y_bars_rise_from_the_axis_floor() {
        let mut s = spec(ChartKind::Bar, "start", &["peak"]);
        s.log_y = true;
        let c = ok(&s, &start_table());
        let labels = texts(&c.svg);
        assert!(labels.contains(&"200".to_string()), "{labels:?}");
        let marks = group(&c.svg, "plot-marks");
        assert_eq!(marks.matches("<rect").count(), 2);
        assert!(c.summary.contains("(logarithmic y axis)"));
        // The smallest bar, on a power of ten, still shows: the floor is a
        // decade lower.
        let t = table("name,v\na,10\nb,1000", &[("v", "s")]);
        let mut s = spec(ChartKind::Bar, "name", &["v"]);
        s.log_y = true;
        let c = ok(&s, &t);
        assert_eq!(texts(&c.svg).first().map(String::as_str), Some("1"));
        let heights: Vec<i32> = group(&c.svg, "plot-marks")
            .split("height=\"")
            .skip(1)
            .filter_map(|h| h.split('"').next()?.parse().ok())
            .collect();
        assert!(heights.iter().all(|&h| h >= 50), "{heights:?}");
    }

    #[test]
    fn summary_keeps_names_with_commas_apart() {
        let t = Table {
            rows: vec![
                vec!["NInfer, client".into(), "2".into()],
                vec!["NInfer, server".into(), "600".into()],
            ],
            row_lines: vec![2, 3],
            ..table("label,ms", &[("ms", "ms")])
        };
        let c = ok(&spec(ChartKind::Bar, "label", &["ms"]), &t);
        assert_eq!(
            c.summary,
            "Bar chart of ms (ms) by label: NInfer, client: 2; NInfer, server: 600."
        );
    }

    #[test]
    fn renders_from_many_threads() {
        let t = engine_table();
        let mut s = spec(ChartKind::GroupedBar, "model", &["tok_s"]);
        s.series = Some("engine".to_string());
        let one = ok(&s, &t);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..4).map(|_| scope.spawn(|| ok(&s, &t))).collect();
            for h in handles {
                assert_eq!(h.join().ok(), Some(one.clone()));
            }
        });
    }

    #[test]
    fn renders_many_points_in_two_series() {
        // Speed is measured by the benchmark, not here; this checks that a
        // larger table renders whole.
        let rows: String = (1..=200)
            .map(|i| {
                format!(
                    "\n{i},{},{}",
                    i * 3,
                    if i % 2 == 0 { "vllm" } else { "sglang" }
                )
            })
            .collect();
        let t = table(&format!("x,y,engine{rows}"), &[("x", "s"), ("y", "s")]);
        let mut s = spec(ChartKind::Line, "x", &["y"]);
        s.series = Some("engine".to_string());
        let svg = ok(&s, &t).svg;
        assert!(
            svg.contains("#1F77B4") && svg.contains("#D62728"),
            "both engine colours"
        );
    }

    #[test]
    fn snapshot_bar() {
        let mut s = spec(ChartKind::Bar, "start", &["peak"]);
        s.y_label = Some("peak tokens/s".to_string());
        insta::assert_snapshot!(ok(&s, &start_table()).svg);
    }

    #[test]
    fn snapshot_grouped_bar_engines() {
        let mut s = spec(ChartKind::GroupedBar, "model", &["tok_s"]);
        s.id = "by-model".to_string();
        s.title = "Throughput by model".to_string();
        s.series = Some("engine".to_string());
        insta::assert_snapshot!(ok(&s, &engine_table()).svg);
    }

    #[test]
    fn snapshot_line_log_y() {
        let mut s = spec(ChartKind::Line, "batch", &["p50"]);
        s.id = "latency".to_string();
        s.title = "Median latency by batch size".to_string();
        s.series = Some("engine".to_string());
        s.log_y = true;
        insta::assert_snapshot!(ok(&s, &latency_table()).svg);
    }

    #[test]
    fn snapshot_scatter() {
        let t = table(
            "prompt_tokens,ttft,setup\n\
             128,41,eager\n512,88,eager\n1024,160,eager\n2048,305,eager\n\
             128,35,graphs\n512,70,graphs\n1024,131,graphs\n2048,262,graphs",
            &[("prompt_tokens", "tokens"), ("ttft", "ms")],
        );
        let mut s = spec(ChartKind::Scatter, "prompt_tokens", &["ttft"]);
        s.id = "ttft".to_string();
        s.title = "Time to first token".to_string();
        s.series = Some("setup".to_string());
        s.y_label = Some("time to first token (ms)".to_string());
        insta::assert_snapshot!(ok(&s, &t).svg);
    }
}
