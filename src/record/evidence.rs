//! The evidence a run's tables are derived from: the result files its
//! `results` list names (as benchmark tools wrote them, kept under the
//! run's folder), each read into facts a reviewer needs, each fact saying
//! which file it came from. The load stage fills these; pages, the JSON
//! export and the checks of issue 22 read them.

use serde::Serialize;

/// One entry of a run's `results`: a result file, or an inferlint run
/// folder, and the setup it measured.
#[derive(Debug, Clone)]
pub struct ResultSource {
    /// The path as `run.yaml` gives it, relative to the run's folder
    /// (`raw/vllm-c32.json`, or a folder `raw/live`).
    pub path: String,
    /// Whether `path` is a folder (an inferlint run folder).
    pub folder: bool,
    /// The index of the setup it measured, in the run's `setups`.
    pub setup: Option<usize>,
    /// For a pasted text of several reports, the one the entry takes
    /// (1-based); `None` takes them all.
    pub report: Option<usize>,
    /// Every file read, in name order.
    pub files: Vec<RawFile>,
    /// What the files say, in the order they were read.
    pub facts: Vec<RunFact>,
    /// The rows of the `results` table its files give (one per benchmark
    /// and setting), each cell by its vocabulary column's name, as the CSV
    /// writes it; the engine and version are the setup's where the file
    /// records none. The run page's headline figures and the comparisons
    /// read them, whatever tables `run.yaml` derives.
    pub rows: Vec<ResultRow>,
    /// Where the entry is in `run.yaml` (`results[0]`).
    pub path_in_yaml: String,
}

impl ResultSource {
    /// The first fact named `name`.
    pub fn fact(&self, name: &str) -> Option<&RunFact> {
        self.facts.iter().find(|f| f.name == name)
    }

    /// Every fact named `name`.
    pub fn facts_named<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s RunFact> + 's {
        self.facts.iter().filter(move |f| f.name == name)
    }
}

/// A file kept under a run's folder, as the site publishes it.
#[derive(Debug, Clone, Serialize)]
pub struct RawFile {
    /// Its path relative to the run's folder (`raw/live/boot.log`).
    pub path: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// The SHA-256 of its bytes, in hex.
    pub sha256: String,
    /// The format it was read as (`vLLM bench serve`), or `None` for a
    /// file of a run folder that no reader takes (kept, not read).
    pub format: Option<String>,
    /// The program that wrote it, where known.
    pub tool: Option<String>,
    /// That program's version, where the file records it.
    pub tool_version: Option<String>,
}

/// One fact read from a result file or run folder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunFact {
    /// Its name (`preemptions`, `max_running`; see the vocabulary).
    pub name: String,
    /// The value as text, as a reader sees it (`21`, `http://…/v1`), or
    /// `None` when it is known to be unknown (`note` says why).
    pub value: Option<String>,
    /// The value as a number, when it is one.
    pub number: Option<f64>,
    /// The file it came from, relative to the run's folder.
    pub source: String,
    /// How it was read, or why it is unknown.
    pub note: Option<String>,
}

/// One row of a `results` table: its cells by column name, as the CSV
/// writes them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResultRow {
    /// The cells that have a value, in the vocabulary's order.
    pub cells: Vec<(&'static str, String)>,
    /// The input and output lengths of a request the client was asked
    /// for, where the file records them (`random_input_len` and
    /// `random_output_len` of a random dataset): no column of the
    /// vocabulary, read for the comparisons, which match workloads on
    /// them before the measured means.
    pub requested: [Option<f64>; 2],
}

impl ResultRow {
    /// The cell of column `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.cells
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The number in column `name` (`inf` is infinite).
    pub fn num(&self, name: &str) -> Option<f64> {
        let v = self.get(name)?;
        if v.eq_ignore_ascii_case("inf") {
            return Some(f64::INFINITY);
        }
        v.parse::<f64>().ok().filter(|x| !x.is_nan())
    }
}
