//! The records of a findings folder, as the loader reads them.
//!
//! These types mirror the record format (`docs/format.md`) field for field.
//! They hold what one file says, already typed (versions parsed, dates
//! checked), plus the spans needed to point at a field later. Relations
//! between records (does the run exist? which findings link here?) are not
//! resolved here: `validate` checks them and `model` computes them.

use crate::version::Version;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

mod about;
mod column;
mod compare;
mod evidence;
mod model_name;
mod noise;
pub mod placeholder;
mod spans;
pub use about::engines_about;
pub use column::{readable_column_name, Column};
pub use compare::{CompareOf, CompareSpec};
pub use evidence::{RawFile, ResultRow, ResultSource, RunFact};
pub use model_name::model_name;
pub use noise::{
    noise_rule, NoiseBound, NoiseRule, DEFAULT_NOISE_MIN_SAMPLE, DEFAULT_NOISE_WINDOW,
    DEFAULT_NOISE_Z,
};
pub use spans::{FieldMap, Spans, MAX_SPAN_PATH};

/// A calendar date, `YYYY-MM-DD`. Dates only ever come from records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Year.
    pub year: u16,
    /// Month, 1-12.
    pub month: u8,
    /// Day, 1-31.
    pub day: u8,
}

impl Date {
    /// Parses `YYYY-MM-DD`, checking that the day exists.
    pub fn parse(s: &str) -> Option<Date> {
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let year: u16 = s[0..4].parse().ok()?;
        let month: u8 = s[5..7].parse().ok()?;
        let day: u8 = s[8..10].parse().ok()?;
        let leap =
            (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        (1..=days)
            .contains(&day)
            .then_some(Date { year, month, day })
    }

    /// "17 August 2026", for pages.
    pub fn long(&self) -> String {
        const MONTHS: [&str; 12] = [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ];
        format!(
            "{} {} {}",
            self.day,
            MONTHS[usize::from(self.month) - 1],
            self.year
        )
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl Serialize for Date {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// `site.yaml`.
#[derive(Debug, Clone)]
pub struct Site {
    /// A hash of `site.yaml`'s text (see [`Finding::content_hash`]).
    pub content_hash: u64,
    /// Site title.
    pub title: String,
    /// Where the site is published, always ending in `/`.
    pub base_url: String,
    /// One-line description.
    pub description: Option<String>,
    /// Who writes the site: the name a finding found by `us` is credited
    /// to ("Found by"). Left out, such findings name no one.
    pub author: Option<String>,
    /// Home page sections, in order.
    pub groups: Vec<Group>,
    /// The engines findings are about, in order.
    pub engines: Vec<Engine>,
    /// The engines the header names, by id, in order (`nav_engines`);
    /// empty for the default, the few with most findings (see
    /// `Model::nav_engines`).
    pub nav_engines: Vec<String>,
    /// How many entries a list page holds (`page_size`); later entries go
    /// to `…/page/2/` and on.
    pub page_size: usize,
    /// How many findings each group shows on the home page
    /// (`home_entries`), with a link to all of them.
    pub home_entries: usize,
    /// How many of the newest findings each feed carries (`feed_entries`).
    pub feed_entries: usize,
    /// The runs the site sets side by side.
    pub compare: Vec<CompareSpec>,
    /// The noise between runs the site states (`noise`), rule by rule.
    pub noise: Vec<NoiseRule>,
    /// Field positions.
    pub spans: Spans,
}

/// Whether a file's name of an engine (`llama.cpp`, `vLLM`, `sglang`)
/// names the engine of this id and display name: by either, in any case,
/// without punctuation (`llama.cpp` names `llama-cpp`). The one rule
/// `findings import` reads a file's engine by and `check` holds a setup to
/// it with.
pub fn names_engine(named: &str, id: &str, name: &str) -> bool {
    let plain = |s: &str| {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase()
    };
    let want = plain(named);
    !want.is_empty() && (plain(id) == want || plain(name) == want)
}

impl Site {
    /// The id of the engine a file's name of it names ([`names_engine`]).
    pub fn engine_named(&self, named: &str) -> Option<&str> {
        self.engines
            .iter()
            .find(|e| names_engine(named, &e.id, &e.name))
            .map(|e| e.id.as_str())
    }

    /// Engine ids and their display names.
    pub fn engine_names(&self) -> BTreeMap<String, String> {
        self.engines
            .iter()
            .map(|e| (e.id.clone(), e.name.clone()))
            .collect()
    }
}

/// The entries of a list page unless `page_size` says otherwise.
pub const DEFAULT_PAGE_SIZE: usize = 30;
/// The findings of each group on the home page unless `home_entries` says
/// otherwise.
pub const DEFAULT_HOME_ENTRIES: usize = 10;
/// The entries of a feed unless `feed_entries` says otherwise.
pub const DEFAULT_FEED_ENTRIES: usize = 50;
/// The most engines the header may name (`nav_engines`), and how many it
/// names without a choice.
pub const MAX_NAV_ENGINES: usize = 8;
/// How many engines the header names when `site.yaml` does not choose.
pub const DEFAULT_NAV_ENGINES: usize = 5;

/// A section of the home page.
#[derive(Debug, Clone)]
pub struct Group {
    /// Identifier used by findings.
    pub id: String,
    /// Heading.
    pub title: String,
    /// Markdown introduction.
    pub blurb: Option<String>,
}

/// An inference engine.
#[derive(Debug, Clone)]
pub struct Engine {
    /// Identifier used by findings and runs.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Source repository.
    pub repo: Option<String>,
    /// `#rrggbb`, used in every chart.
    pub color: String,
    /// Known releases, as listed.
    pub releases: Vec<Version>,
    /// The Python packages that install this engine (`vllm`), normalized
    /// (lowercase, runs of `-`, `_` and `.` as one `-`): `findings audit`
    /// reads their pins.
    pub packages: Vec<String>,
    /// The container image repositories of this engine
    /// (`vllm/vllm-openai`, `nvcr.io/nvidia/tensorrt-llm/release`), without
    /// tag: `findings audit` reads their tags.
    pub images: Vec<String>,
}

/// A Python package name as pip compares them (PEP 503): lowercase, with
/// each run of `-`, `_` and `.` written as one `-`.
pub fn package_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.trim().chars() {
        if matches!(c, '-' | '_' | '.') {
            if !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// An image repository as `findings audit` compares them: Docker Hub's
/// implied `docker.io/` and `library/` left out, lowercase.
pub fn image_repository(repo: &str) -> String {
    let r = repo.trim().to_ascii_lowercase();
    let r = r.strip_prefix("docker.io/").unwrap_or(&r);
    let r = r.strip_prefix("index.docker.io/").unwrap_or(r);
    r.strip_prefix("library/").unwrap_or(r).to_string()
}

/// The status of a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Still present in the newest tested version.
    Open,
    /// Fixed in a release.
    Fixed,
    /// Avoided by a default or a flag.
    Mitigated,
    /// A method pitfall, not an engine bug.
    Advice,
}

impl Status {
    /// All statuses, in display order.
    pub const ALL: [Status; 4] = [
        Status::Open,
        Status::Fixed,
        Status::Mitigated,
        Status::Advice,
    ];

    /// The spelling used in records and URLs.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Fixed => "fixed",
            Status::Mitigated => "mitigated",
            Status::Advice => "advice",
        }
    }
}

/// Who found a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FoundBy {
    /// The site's authors.
    Us,
    /// The engine's developers.
    Upstream,
    /// Someone else.
    Community,
}

impl FoundBy {
    /// The spelling used in records.
    pub fn as_str(self) -> &'static str {
        match self {
            FoundBy::Us => "us",
            FoundBy::Upstream => "upstream",
            FoundBy::Community => "community",
        }
    }
}

/// What a finding says about one engine's versions.
#[derive(Debug, Clone)]
pub struct EngineEntry {
    /// Engine id from `site.yaml`.
    pub engine: String,
    /// Tested, and the problem showed.
    pub affected: Vec<Version>,
    /// Tested, and it did not show.
    pub clean: Vec<Version>,
    /// The problem showed while this version ran, but it does not lie in
    /// the engine (a grader, a client, a chat template, a way of
    /// measuring): tested, neutral, and nothing is inferred from it.
    pub seen: Vec<Version>,
    /// First version with the problem.
    pub introduced_in: Option<Version>,
    /// First release with the fix.
    pub fixed_in: Option<Version>,
    /// First release whose defaults avoid it.
    pub mitigated_in: Option<Version>,
    /// Condition or scope.
    pub note: Option<String>,
}

impl EngineEntry {
    /// Every version the entry names, in the order of its fields:
    /// `affected`, `clean`, `seen`, `introduced_in`, `fixed_in`,
    /// `mitigated_in`. Each gets a page on the engine's matrix.
    pub fn versions(&self) -> impl Iterator<Item = &Version> {
        self.affected
            .iter()
            .chain(&self.clean)
            .chain(&self.seen)
            .chain(&self.introduced_in)
            .chain(&self.fixed_in)
            .chain(&self.mitigated_in)
    }
}

/// A link in a finding's `links` list.
#[derive(Debug, Clone)]
pub struct Link {
    /// Text shown.
    pub label: String,
    /// `http(s)://…`, `finding:<id>` or `run:<run-id>`.
    pub url: String,
    /// `issue`, `pr`, `patch`, `investigation`, `check`, `docs`.
    pub kind: Option<String>,
}

/// A withdrawn finding's notice.
#[derive(Debug, Clone)]
pub struct Withdrawn {
    /// When it was withdrawn.
    pub date: Date,
    /// Why.
    pub reason: String,
}

/// One finding: `findings/<slug>.md`.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Path relative to the site root.
    pub path: PathBuf,
    /// A hash of the file's text: everything the record holds comes from
    /// it, so rebuilds under `serve` use it to tell what changed.
    pub content_hash: u64,
    /// File name without `.md`.
    pub slug: String,
    /// Stable number.
    pub id: u32,
    /// Title, inline Markdown.
    pub title: String,
    /// Group id.
    pub group: String,
    /// Badge text.
    pub advice: String,
    /// Status.
    pub status: Status,
    /// Qualifier shown beside the status.
    pub status_note: Option<String>,
    /// One sentence for lists; `None` means "first paragraph of the body".
    pub summary: Option<String>,
    /// First published.
    pub published: Date,
    /// Last substantive change.
    pub updated: Option<Date>,
    /// Who found it.
    pub found_by: FoundBy,
    /// Per-engine version facts.
    pub engines: Vec<EngineEntry>,
    /// Models it was seen with.
    pub models: Vec<String>,
    /// GPUs it was seen on.
    pub hardware: Vec<String>,
    /// Free topics.
    pub tags: Vec<String>,
    /// Upstream issues, PRs, investigations.
    pub links: Vec<Link>,
    /// Run ids.
    pub runs: Vec<String>,
    /// `<run-id>/<chart-id>`; empty means every chart of its runs.
    pub charts: Vec<String>,
    /// The checks that carry the finding's advice (`crate::checks`).
    pub checks: Vec<String>,
    /// The symptoms that show its problem in a run's evidence
    /// (`crate::symptoms`): what the runs show of them makes the versions
    /// they ran tested.
    pub symptoms: Vec<String>,
    /// Runs whose observations contradict what the finding lists, each
    /// with the reason it stands.
    pub acknowledged: Vec<RunAcknowledgment>,
    /// Old site paths that redirect here.
    pub aliases: Vec<String>,
    /// Left out of the build unless `--drafts`.
    pub draft: bool,
    /// Withdrawal notice.
    pub withdrawn: Option<Withdrawn>,
    /// The finding that replaces this one.
    pub superseded_by: Option<u32>,
    /// Markdown body.
    pub body: String,
    /// The body's links and headings, found once when loading (for
    /// validation and backlinks).
    pub facts: BodyFacts,
    /// Line of the file on which the body starts.
    pub body_line: usize,
    /// Field positions.
    pub spans: Spans,
}

/// One engine setup measured in a run.
#[derive(Debug, Clone)]
pub struct Setup {
    /// Engine id, or a free name for client-only runs.
    pub engine: String,
    /// Version as written.
    pub version: Option<String>,
    /// Command-line flags.
    pub flags: Option<String>,
    /// What the run calls it ("vLLM 0.30, start 1"): the name its result
    /// files name it by and the derived tables' `setup` column holds.
    pub label: Option<String>,
}

impl Setup {
    /// The setup's name: its label, else its engine id and version as
    /// written (`vllm 0.30`).
    pub fn name(&self) -> String {
        match (&self.label, &self.version) {
            (Some(l), _) => l.clone(),
            (None, Some(v)) => format!("{} {v}", self.engine),
            (None, None) => self.engine.clone(),
        }
    }
}

/// A CSV table of a run, with its description.
#[derive(Debug, Clone)]
pub struct Table {
    /// File name within the run folder.
    pub file: String,
    /// Title.
    pub title: String,
    /// Column descriptions, in the order of `run.yaml`.
    pub columns: Vec<Column>,
    /// The CSV header, in file order (empty if the file could not be read).
    pub header: Vec<String>,
    /// Data rows, as text, in file order.
    pub rows: Vec<Vec<String>>,
    /// The file line of each row (for error messages).
    pub row_lines: Vec<usize>,
    /// Where the table is described in `run.yaml`.
    pub path_in_yaml: String,
    /// For a table derived from the run's result files, which table of the
    /// vocabulary it is (`results`, `requests` or `series`); `None` for a
    /// CSV file of the run's folder.
    pub derived: Option<String>,
}

impl Table {
    /// The description of the column named `name`.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }

    /// The position of `name` in the CSV header.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }
}

/// Chart kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChartKind {
    /// One bar per row.
    Bar,
    /// Bars grouped by x, one per series or y column.
    GroupedBar,
    /// Points joined by lines over a numeric x.
    Line,
    /// Points over a numeric x.
    Scatter,
    /// The cumulative distribution of a numeric x: for each value, the
    /// share of the rows (of each series) at or below it.
    Cdf,
}

impl ChartKind {
    /// The spelling used in records.
    pub fn as_str(self) -> &'static str {
        match self {
            ChartKind::Bar => "bar",
            ChartKind::GroupedBar => "grouped-bar",
            ChartKind::Line => "line",
            ChartKind::Scatter => "scatter",
            ChartKind::Cdf => "cdf",
        }
    }
}

/// A chart spec in `run.yaml`.
#[derive(Debug, Clone)]
pub struct ChartSpec {
    /// Unique within the run.
    pub id: String,
    /// Title.
    pub title: String,
    /// Table file name.
    pub table: String,
    /// Kind (default `bar`).
    pub kind: ChartKind,
    /// X column.
    pub x: String,
    /// Y columns (at least one).
    pub y: Vec<String>,
    /// Column that splits rows into series.
    pub series: Option<String>,
    /// X axis title.
    pub x_label: Option<String>,
    /// Y axis title.
    pub y_label: Option<String>,
    /// Logarithmic x.
    pub log_x: bool,
    /// Logarithmic y.
    pub log_y: bool,
    /// Markdown caption.
    pub caption: Option<String>,
    /// Reference lines across the plot (a concurrency asked for, a limit).
    pub marks: Vec<Mark>,
    /// Where the chart is described in `run.yaml` (`charts[0]`).
    pub path_in_yaml: String,
}

/// A horizontal reference line of a chart: a value of the y axis and what
/// it stands for.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// Where the line runs, in the y column's unit.
    pub y: f64,
    /// What it is ("concurrency asked for").
    pub label: String,
}

/// One run: `data/runs/<id>/run.yaml` and its tables.
#[derive(Debug, Clone)]
pub struct Run {
    /// Folder name.
    pub id: String,
    /// A hash of `run.yaml` and the tables as loaded (see [`Finding::content_hash`]).
    pub content_hash: u64,
    /// Path of `run.yaml` relative to the site root.
    pub path: PathBuf,
    /// What was measured.
    pub title: String,
    /// When.
    pub date: Date,
    /// What was measured on.
    pub setups: Vec<Setup>,
    /// Model served.
    pub model: Option<String>,
    /// GPU and count.
    pub hardware: Option<String>,
    /// Load client.
    pub client: Option<String>,
    /// API endpoint.
    pub endpoint: Option<String>,
    /// Raw data or report.
    pub source: Option<String>,
    /// Markdown notes.
    pub notes: Option<String>,
    /// The result files the run's derived tables come from.
    pub results: Vec<ResultSource>,
    /// Tables.
    pub tables: Vec<Table>,
    /// Charts.
    pub charts: Vec<ChartSpec>,
    /// Checks the run breaks on purpose, each with its reason.
    pub acknowledged: Vec<Acknowledgment>,
    /// What the run sets side by side.
    pub compare: Vec<CompareSpec>,
    /// Field positions.
    pub spans: Spans,
}

/// A run whose observation of a finding's symptom contradicts what the
/// finding lists for that version (a symptom shown on a version it calls
/// clean, fixed or mitigated, or absent where it says affected), and why
/// the record stands: the run used a flag that brings the problem back, or
/// measured something else.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RunAcknowledgment {
    /// The run's id.
    pub run: String,
    /// The symptom, when only one of the finding's symptoms is meant.
    pub symptom: Option<String>,
    /// Why, for readers.
    pub reason: String,
    /// Where it is in the front matter (`acknowledged[0]`).
    pub path_in_yaml: String,
}

/// A check a run breaks on purpose: it is the evidence of that pitfall, or
/// its source lacks what the check reads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Acknowledgment {
    /// The check's name.
    pub check: String,
    /// Why, for readers.
    pub reason: String,
    /// Where it is in `run.yaml` (`acknowledged[0]`).
    pub path_in_yaml: String,
}

impl Run {
    /// The table stored in `file`.
    pub fn table(&self, file: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.file == file)
    }

    /// The chart with id `id`.
    pub fn chart(&self, id: &str) -> Option<&ChartSpec> {
        self.charts.iter().find(|c| c.id == id)
    }
}

/// A link found in a body, with its position (1-based, within the body).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyLink {
    /// The destination as written.
    pub url: String,
    /// Line within the body.
    pub line: usize,
    /// Column within the line.
    pub column: usize,
}

/// A list that a line in the middle of a paragraph starts by accident: a
/// wrapped line that begins with `1.` or `- ` (see `markdown::scan`). Its
/// position is 1-based, within the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListBreak {
    /// Line within the body.
    pub line: usize,
    /// Column of the list marker within the line.
    pub column: usize,
    /// The marker as written: `1.`, `1)`, `-`, `*` or `+`.
    pub marker: String,
    /// The line from its marker on.
    pub text: String,
}

impl ListBreak {
    /// True for a numbered list (`1.`, `1)`).
    pub fn is_numbered(&self) -> bool {
        self.marker.starts_with(|c: char| c.is_ascii_digit())
    }
}

/// What validation needs to know about a body.
#[derive(Debug, Default, Clone)]
pub struct BodyFacts {
    /// Every link and image destination.
    pub links: Vec<BodyLink>,
    /// Every heading id, in order.
    pub heading_ids: Vec<String>,
    /// Whether a level-2 heading "What to do" exists.
    pub has_what_to_do: bool,
    /// The line (within the body) of a fenced code block that is opened and
    /// never closed: it runs to the end of the body and swallows whatever
    /// follows, headings included.
    pub unclosed_fence: Option<usize>,
    /// Lists that begin on a line continuing a paragraph, where the author
    /// most likely wrapped a sentence rather than meant a list.
    pub list_breaks: Vec<ListBreak>,
}
