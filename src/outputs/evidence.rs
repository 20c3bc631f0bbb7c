//! A run's result files in the JSON export: each entry of its `results`
//! with the setup it measured, its files (address, size, SHA-256, the tool
//! that wrote each) and the facts read from them, each naming its file.
//! Takes a run; hands `export::run` the `results` of its export.

use crate::model::Model;
use crate::record::Run;
use crate::urls;
use serde::{Deserialize, Serialize};

/// One entry of a run's `results`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultSourceExport {
    /// The path in the run's folder (`raw/vllm-c32.json`, or a folder).
    pub path: String,
    /// Whether it is a folder (an inferlint run folder).
    pub folder: bool,
    /// The name of the setup it measured.
    pub setup: Option<String>,
    /// For a pasted text of several reports, the one the entry takes
    /// (1-based); `null` takes them all.
    #[serde(default)]
    pub report: Option<usize>,
    /// Its files.
    pub files: Vec<RawFileExport>,
    /// What the files say.
    pub facts: Vec<FactExport>,
}

/// A result file as the site publishes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RawFileExport {
    /// Its path in the run's folder.
    pub path: String,
    /// Its published copy.
    pub url: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// The SHA-256 of its bytes, in hex.
    pub sha256: String,
    /// The format it was read as, or `null` for a file no reader takes.
    pub format: Option<String>,
    /// The program that wrote it.
    pub tool: Option<String>,
    /// That program's version, where the file records it.
    pub tool_version: Option<String>,
}

/// One fact read from a result file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FactExport {
    /// Its name (see docs/format.md, "Result files").
    pub name: String,
    /// Its value as text, or `null` when known to be unknown.
    pub value: Option<String>,
    /// Its value as a number, when it is one (`null` for unbounded).
    pub number: Option<f64>,
    /// The file it came from, in the run's folder.
    pub source: String,
    /// How it was read, or why it is unknown.
    pub note: Option<String>,
}

/// The `results` of `run`'s export; `base` is the site's address.
pub(super) fn of(run: &Run, base: &str) -> Vec<ResultSourceExport> {
    run.results
        .iter()
        .map(|s| ResultSourceExport {
            path: s.path.clone(),
            folder: s.folder,
            setup: s.setup.and_then(|i| run.setups.get(i)).map(|s| s.name()),
            report: s.report,
            files: s
                .files
                .iter()
                .map(|f| RawFileExport {
                    path: f.path.clone(),
                    url: format!("{base}{}", urls::run_file(&run.id, &f.path)),
                    bytes: f.bytes,
                    sha256: f.sha256.clone(),
                    format: f.format.clone(),
                    tool: f.tool.clone(),
                    tool_version: f.tool_version.clone(),
                })
                .collect(),
            facts: s
                .facts
                .iter()
                .map(|f| FactExport {
                    name: f.name.clone(),
                    value: f.value.clone(),
                    number: f.number.filter(|n| n.is_finite()),
                    source: f.source.clone(),
                    note: f.note.clone(),
                })
                .collect(),
        })
        .collect()
}

/// A check's verdict on a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckExport {
    /// The check's name (`one-client`; docs/checks.md).
    pub name: String,
    /// `passed`, `flagged`, `cannot tell` or `acknowledged`.
    pub verdict: String,
    /// What it found.
    pub message: String,
    /// For an acknowledged check, the run's reason.
    pub reason: Option<String>,
    /// The ids of the findings whose advice it carries.
    pub findings: Vec<u32>,
}

/// A run a finding's checks flagged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlaggedExport {
    /// The run's id.
    pub run: String,
    /// The check.
    pub check: String,
    /// `flagged` or `acknowledged`.
    pub verdict: String,
}

/// The checks' verdicts on run `r` of `model`.
pub(super) fn checks(model: &Model, r: usize) -> Vec<CheckExport> {
    model.checks[r]
        .iter()
        .map(|o| CheckExport {
            name: o.check.to_string(),
            verdict: o.verdict.as_str().to_string(),
            message: o.message.clone(),
            reason: o.reason.clone(),
            findings: model
                .cites(r, o.check)
                .into_iter()
                .map(|i| model.findings[i].id)
                .collect(),
        })
        .collect()
}

/// The runs finding `i`'s checks flagged.
pub(super) fn flagged(model: &Model, i: usize) -> Vec<FlaggedExport> {
    model.flagged[i]
        .iter()
        .map(|&(r, k)| FlaggedExport {
            run: model.runs[r].id.clone(),
            check: model.checks[r][k].check.to_string(),
            verdict: model.checks[r][k].verdict.as_str().to_string(),
        })
        .collect()
}
