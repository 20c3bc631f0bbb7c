//! The `run.yaml` an import writes, as data: made anew, or from the run as
//! it is (every field kept, so that what a person wrote survives a second
//! import), then written out as YAML in the order the format documents.
//! Takes the loader's [`Run`] and what the import read; hands back text.

use super::{ImportError, ImportOptions};
use crate::record::{ChartKind, ChartSpec, Run, Site, Table};
use crate::results::{Cell, Fact};

/// The tables result files give, with the title a new run gives each.
const DERIVED_TITLES: [(&str, &str); 5] = [
    ("results", "Results, one row per benchmark and setting"),
    ("requests", "Requests, one row per request"),
    ("series", "The server's gauges and counters over the run"),
    ("scores", "Scores, one row per task, filter and metric"),
    ("answers", "Answers, one row per question and filter"),
];

/// A setup of the run.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SetupDraft {
    pub(super) engine: String,
    pub(super) version: String,
    pub(super) flags: Option<String>,
    pub(super) label: String,
}

/// An entry of the run's `results`.
#[derive(Debug, Clone)]
pub(super) struct ResultEntry {
    pub(super) path: String,
    pub(super) setup: String,
    /// The report of a pasted text of several that the entry takes.
    pub(super) report: Option<usize>,
}

/// A table of the run: a CSV file of its folder, or one derived from its
/// result files, with the columns `run.yaml` describes (a derived table's
/// labels and descriptions that differ from the vocabulary's).
#[derive(Debug, Clone)]
struct TableDraft {
    derive: Option<String>,
    file: String,
    title: String,
    columns: Vec<ColumnDraft>,
}

/// A column as `run.yaml` describes it: name, label, unit, description.
type ColumnDraft = (String, Option<String>, Option<String>, Option<String>);

/// A `run.yaml` to write.
#[derive(Debug, Clone, Default)]
pub(super) struct Draft {
    title: Option<String>,
    date: Option<String>,
    setups: Vec<SetupDraft>,
    /// Setups as the run has them, without a version (client-only runs).
    loose_setups: Vec<(String, Option<String>, Option<String>)>,
    model: Option<String>,
    hardware: Option<String>,
    client: Option<String>,
    endpoint: Option<String>,
    source: Option<String>,
    notes: Option<String>,
    results: Vec<ResultEntry>,
    tables: Vec<TableDraft>,
    charts: Vec<ChartSpec>,
}

impl Draft {
    /// The run as it is, every field kept.
    pub(super) fn of(run: &Run) -> Draft {
        let mut d = Draft::results_of(run);
        d.title = Some(run.title.clone());
        d.date = Some(run.date.to_string());
        d.model = run.model.clone();
        d.hardware = run.hardware.clone();
        d.client = run.client.clone();
        d.endpoint = run.endpoint.clone();
        d.source = run.source.clone();
        d.notes = run.notes.clone();
        d.tables = run.tables.iter().map(table_draft).collect();
        d.charts = run.charts.clone();
        d
    }

    /// Only the run's setups and result files: what `--force` keeps.
    pub(super) fn results_of(run: &Run) -> Draft {
        let mut d = Draft::default();
        for s in &run.setups {
            match &s.version {
                Some(v) => d.setups.push(SetupDraft {
                    engine: s.engine.clone(),
                    version: v.clone(),
                    flags: s.flags.clone(),
                    label: s.name(),
                }),
                None => d
                    .loose_setups
                    .push((s.engine.clone(), s.flags.clone(), s.label.clone())),
            }
        }
        d.results = run
            .results
            .iter()
            .map(|r| ResultEntry {
                path: r.path.clone(),
                setup: r
                    .setup
                    .and_then(|i| run.setups.get(i))
                    .map(|s| s.name())
                    .unwrap_or_default(),
                report: r.report,
            })
            .collect();
        d
    }

    /// Adds `setup` unless the run has it; returns its name. A setup of the
    /// same name that measured something else (another engine or version,
    /// other flags its files record) is in the way; one without flags
    /// takes those a file of it records.
    pub(super) fn add_setup(&mut self, setup: SetupDraft) -> Result<String, String> {
        if let Some(s) = self.setups.iter_mut().find(|s| s.label == setup.label) {
            if s.engine != setup.engine || s.version != setup.version {
                return Err(format!(
                    "the run has a setup named \"{}\" already, of {} {}; name the new one with --setup",
                    s.label, s.engine, s.version
                ));
            }
            match (&s.flags, setup.flags) {
                (Some(a), Some(b)) if *a != b => {
                    return Err(format!(
                        "the run has a setup named \"{}\" already, with the flags {a}; this file records {b}: name the new one with --setup",
                        s.label
                    ))
                }
                (None, Some(b)) => s.flags = Some(b),
                _ => {}
            }
            return Ok(s.label.clone());
        }
        let name = setup.label.clone();
        self.setups.push(setup);
        Ok(name)
    }

    /// Adds `entry` unless the run lists its path (and report) already.
    pub(super) fn add_result(&mut self, entry: ResultEntry) {
        if !self
            .results
            .iter()
            .any(|r| r.path == entry.path && r.report == entry.report)
        {
            self.results.push(entry);
        }
    }

    /// The fields a new run needs, from the options, else from the files:
    /// its title, the day it ran (the latest day a file records), the
    /// model, hardware, client and endpoint. A run's own values are kept.
    pub(super) fn fill(
        &mut self,
        site: &Site,
        opts: &ImportOptions,
        facts: &[&Fact],
    ) -> Result<(), ImportError> {
        let first = |name: &str| {
            facts
                .iter()
                .find(|f| f.name == name)
                .and_then(|f| f.value.as_ref())
                .map(Cell::csv)
        };
        let distinct = |name: &str| {
            let mut v: Vec<String> = Vec::new();
            for f in facts.iter().filter(|f| f.name == name) {
                if let Some(c) = &f.value {
                    let s = c.csv();
                    if !v.contains(&s) {
                        v.push(s);
                    }
                }
            }
            v
        };
        if let Some(d) = opts.date {
            self.date = Some(d.to_string());
        } else if self.date.is_none() {
            // The latest day a benchmark tool wrote: a run of several days
            // is dated by its last. A day read from the server snapshots'
            // clock (a UTC day, noted so) only where no tool wrote one: a
            // run vLLM dates 20260930 in its local time is the 30th, though
            // the snapshots' UTC clock had passed midnight.
            let written: Vec<String> = facts
                .iter()
                .filter(|f| f.name == "date" && f.note.is_none())
                .filter_map(|f| f.value.as_ref().map(Cell::csv))
                .collect();
            self.date = written
                .into_iter()
                .max()
                .or_else(|| distinct("date").into_iter().max());
        }
        if self.date.is_none() {
            return Err(ImportError::Usage(
                "no file records the day it ran; pass --date YYYY-MM-DD".into(),
            ));
        }
        if opts.model.is_some() {
            self.model = opts.model.clone();
        } else if self.model.is_none() {
            self.model = first("model");
        }
        if opts.hardware.is_some() {
            self.hardware = opts.hardware.clone();
        } else if self.hardware.is_none() {
            self.hardware = first("hardware");
        }
        if self.client.is_none() {
            let tools = distinct("tool");
            if !tools.is_empty() {
                self.client = Some(tools.join(", "));
            }
        }
        if self.endpoint.is_none() {
            let endpoints = distinct("endpoint");
            if endpoints.len() == 1 {
                self.endpoint = endpoints.into_iter().next();
            }
        }
        if opts.title.is_some() {
            self.title = opts.title.clone();
        }
        if self.title.is_none() {
            self.title = Some(self.made_title(site));
        }
        Ok(())
    }

    /// Whether the run says what hardware it ran on.
    pub(super) fn has_hardware(&self) -> bool {
        self.hardware
            .as_deref()
            .is_some_and(|h| !h.trim().is_empty())
    }

    /// "vLLM 0.28 and SGLang 0.5.20 under vllm bench serve, Qwen3-8B".
    fn made_title(&self, _site: &Site) -> String {
        let setups: Vec<&str> = self.setups.iter().map(|s| s.label.as_str()).collect();
        let mut t = join_and(&setups);
        if let Some(c) = &self.client {
            t.push_str(&format!(" under {c}"));
        }
        if let Some(m) = &self.model {
            // The last part of a local path or a hub id: the model's name,
            // short enough for a title.
            let short = m.trim_end_matches('/').rsplit('/').next().unwrap_or(m);
            t.push_str(&format!(", {short}"));
        }
        t
    }

    /// The draft deriving every table the vocabulary has, to learn which
    /// the result files give rows to (see [`Draft::derive_tables`]).
    pub(super) fn probing(&self) -> Draft {
        let mut d = self.clone();
        for (kind, title) in DERIVED_TITLES {
            d.derive(kind, title);
        }
        d
    }

    /// Adds the tables the result files give rows to in `probed` (the run
    /// as [`Draft::probing`] reads), that the run does not derive yet.
    pub(super) fn derive_tables(&mut self, probed: &Run) {
        for (kind, title) in DERIVED_TITLES {
            let rows = probed
                .tables
                .iter()
                .find(|t| t.derived.as_deref() == Some(kind))
                .map_or(0, |t| t.rows.len());
            if rows > 0 {
                self.derive(kind, title);
            }
        }
    }

    fn derive(&mut self, kind: &str, title: &str) {
        let derived = self
            .tables
            .iter()
            .any(|t| t.derive.as_deref() == Some(kind));
        if !derived {
            self.tables.push(TableDraft {
                derive: Some(kind.to_string()),
                file: format!("{kind}.csv"),
                title: title.to_string(),
                columns: Vec::new(),
            });
        }
    }

    /// The run's charts, as the draft has them so far.
    pub(super) fn charts(&self) -> &[ChartSpec] {
        &self.charts
    }

    /// Adds `chart` unless the run has a chart of its id; returns that id
    /// when the run's chart is not the one planned.
    pub(super) fn add_chart(&mut self, chart: ChartSpec) -> Option<String> {
        match self.charts.iter().find(|c| c.id == chart.id) {
            None => {
                self.charts.push(chart);
                None
            }
            Some(c) => {
                let same = (c.kind, &c.table, &c.x, &c.y, &c.series, &c.marks)
                    == (
                        chart.kind,
                        &chart.table,
                        &chart.x,
                        &chart.y,
                        &chart.series,
                        &chart.marks,
                    );
                (!same).then(|| c.id.clone())
            }
        }
    }

    /// The draft as `run.yaml` text.
    pub(super) fn to_yaml(&self) -> String {
        let mut y = String::new();
        let mut line = |s: String| {
            y.push_str(&s);
            y.push('\n');
        };
        line(format!(
            "title: {}",
            q(self.title.as_deref().unwrap_or("A run"))
        ));
        line(format!("date: {}", self.date.as_deref().unwrap_or("")));
        line("setups:".into());
        for s in &self.setups {
            line(format!("  - label: {}", q(&s.label)));
            line(format!("    engine: {}", q(&s.engine)));
            line(format!("    version: {}", dq(&s.version)));
            if let Some(f) = &s.flags {
                line(format!("    flags: {}", q(f)));
            }
        }
        for (engine, flags, label) in &self.loose_setups {
            line(format!("  - engine: {}", q(engine)));
            if let Some(l) = label {
                line(format!("    label: {}", q(l)));
            }
            if let Some(f) = flags {
                line(format!("    flags: {}", q(f)));
            }
        }
        for (key, v) in [
            ("model", &self.model),
            ("hardware", &self.hardware),
            ("client", &self.client),
            ("endpoint", &self.endpoint),
            ("source", &self.source),
        ] {
            if let Some(v) = v {
                line(format!("{key}: {}", q(v)));
            }
        }
        if let Some(n) = &self.notes {
            // A first line that starts with a space needs the block's
            // indentation said (`|2`), or YAML would take it for the indent.
            line(if n.starts_with([' ', '\t']) {
                "notes: |2".into()
            } else {
                "notes: |".into()
            });
            for l in n.trim_end_matches('\n').split('\n') {
                line(if l.is_empty() {
                    String::new()
                } else {
                    format!("  {l}")
                });
            }
        }
        if !self.results.is_empty() {
            line("results:".into());
            for r in &self.results {
                line(format!("  - path: {}", q(&r.path)));
                if let Some(n) = r.report {
                    line(format!("    report: {n}"));
                }
                if !r.setup.is_empty() {
                    line(format!("    setup: {}", q(&r.setup)));
                }
            }
        }
        line("tables:".into());
        for t in &self.tables {
            match &t.derive {
                Some(kind) => {
                    line(format!("  - derive: {kind}"));
                    if t.file != format!("{kind}.csv") {
                        line(format!("    file: {}", q(&t.file)));
                    }
                }
                None => line(format!("  - file: {}", q(&t.file))),
            }
            line(format!("    title: {}", q(&t.title)));
            if !t.columns.is_empty() || t.derive.is_none() {
                line("    columns:".into());
                for (name, label, unit, description) in &t.columns {
                    line(format!("      {}:", q(name)));
                    if let Some(l) = label {
                        line(format!("        label: {}", q(l)));
                    }
                    if let Some(u) = unit {
                        line(format!("        unit: {}", q(u)));
                    }
                    if let Some(d) = description {
                        line(format!("        description: {}", q(d)));
                    }
                }
            }
        }
        if !self.charts.is_empty() {
            line("charts:".into());
            for c in &self.charts {
                chart_yaml(c, &mut line);
            }
        }
        y
    }
}

fn chart_yaml(c: &ChartSpec, line: &mut impl FnMut(String)) {
    line(format!("  - id: {}", q(&c.id)));
    line(format!("    title: {}", q(&c.title)));
    line(format!("    table: {}", q(&c.table)));
    if c.kind != ChartKind::Bar {
        line(format!("    kind: {}", c.kind.as_str()));
    }
    line(format!("    x: {}", q(&c.x)));
    match c.y.len() {
        0 => {}
        1 => line(format!("    y: {}", q(&c.y[0]))),
        _ => line(format!(
            "    y: [{}]",
            c.y.iter().map(|y| q(y)).collect::<Vec<_>>().join(", ")
        )),
    }
    for (key, v) in [
        ("series", &c.series),
        ("x_label", &c.x_label),
        ("y_label", &c.y_label),
    ] {
        if let Some(v) = v {
            line(format!("    {key}: {}", q(v)));
        }
    }
    if c.log_x {
        line("    log_x: true".into());
    }
    if c.log_y {
        line("    log_y: true".into());
    }
    if let Some(cap) = &c.caption {
        line(format!("    caption: {}", q(cap)));
    }
    if !c.marks.is_empty() {
        line("    marks:".into());
        for m in &c.marks {
            line(format!(
                "      - {{y: {}, label: {}}}",
                crate::results::format_number(m.y),
                q(&m.label)
            ));
        }
    }
}

/// A table of the run as `run.yaml` describes it: for a derived table, only
/// the labels and descriptions its author set over the vocabulary's.
fn table_draft(t: &Table) -> TableDraft {
    let columns = match &t.derived {
        Some(kind) => {
            let plain = crate::load::derived_columns(kind);
            t.columns
                .iter()
                .filter_map(|c| {
                    let d = plain.iter().find(|p| p.name == c.name)?;
                    let label = (c.label != d.label).then(|| c.label.clone()).flatten();
                    let description =
                        (c.description != d.description).then(|| c.description.clone());
                    (label.is_some() || description.is_some())
                        .then(|| (c.name.clone(), label, None, description))
                })
                .collect()
        }
        None => t
            .columns
            .iter()
            .map(|c| {
                (
                    c.name.clone(),
                    c.label.clone(),
                    c.unit.clone(),
                    Some(c.description.clone()),
                )
            })
            .collect(),
    };
    TableDraft {
        derive: t.derived.clone(),
        file: t.file.clone(),
        title: t.title.clone(),
        columns,
    }
}

/// "a", "a and b", "a, b and c".
fn join_and(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A YAML scalar: plain when that reads back as the same text, else in
/// double quotes.
fn q(s: &str) -> String {
    let plain = !s.is_empty()
        && !s.starts_with(|c: char| {
            c.is_whitespace() || "-?:,[]{}#&*!|>'\"%@`".contains(c) || c.is_ascii_digit()
        })
        && !s.ends_with(char::is_whitespace)
        && !s.contains(": ")
        && !s.contains(" #")
        // Flow collections (`marks: [{y: 32, label: …}]`) end at these.
        && !s.contains(['\n', '\t', '\\', '"', ',', '[', ']', '{', '}'])
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~"
        );
    if plain {
        s.to_string()
    } else {
        dq(s)
    }
}

/// A YAML scalar in double quotes (versions always are: `0.30` is not
/// `0.3`).
fn dq(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_read_back_as_written() {
        assert_eq!(q("vLLM 0.30"), "vLLM 0.30");
        assert_eq!(q("0.30"), "\"0.30\"");
        assert_eq!(q("a: b"), "\"a: b\"");
        assert_eq!(q("yes"), "\"yes\"");
        assert_eq!(q("/models/Qwen3-8B"), "/models/Qwen3-8B");
        assert_eq!(q("-x"), "\"-x\"");
        assert_eq!(q("say \"hi\""), "\"say \\\"hi\\\"\"");
        assert_eq!(dq("0.5.20"), "\"0.5.20\"");
        assert_eq!(join_and(&["a", "b", "c"]), "a, b and c");
    }
}
