//! `findings audit`: the findings that apply to the engine versions a
//! deployment runs, for a terminal, a pull request or CI.
//!
//! Four steps, one module each:
//!
//! 1. [`source`]: the findings to check against, as a [`Catalog`]: the
//!    records in a folder (through the same loader and model as `build`),
//!    or a published site's `findings.json`, from a path or over HTTP;
//! 2. [`inputs`]: the files a deployment already has (requirements, `pip
//!    freeze` output, `uv.lock`, `pyproject.toml`, Dockerfiles, compose
//!    files, Kubernetes manifests), read into [`inputs::Reference`]s: a
//!    package and what pins it, or an image and its tag, with file and line;
//! 3. [`resolve`]: references matched to engines through `site.yaml`'s
//!    `packages` and `images`, as [`Pin`]s (an engine at one version) or
//!    [`Problem`]s (a pin that names no version: a range, `latest`, a URL);
//! 4. [`audit`] here: each pinned version against each finding, by the same
//!    state rule as the site and `findings list`
//!    ([`source::CatalogFinding::state`]: the versions the site's runs
//!    tested, then [`crate::state::state_of`]); then
//!    [`report`] writes the result as a table, JSON, Markdown or GitHub
//!    workflow commands.
//!
//! A pin that cannot be read is reported, never guessed: the run then exits
//! 2, like a source that cannot be read, so CI never passes on an audit
//! that did not happen.

pub mod inputs;
pub mod report;
pub mod resolve;
pub mod source;

pub use resolve::{Pin, Problem};
pub use source::{Catalog, CatalogEngine, CatalogFinding};

use crate::state::State;
use crate::version::Version;

/// Which states fail a run (`--fail-on`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOn {
    /// Only versions tested and found affected.
    Affected,
    /// Affected, and untested versions inside a known range (the default:
    /// a range is what a reviewer would act on too).
    InRange,
    /// Nothing: report only.
    Never,
}

impl FailOn {
    /// Whether a finding in `state` fails the run. Seen, clean, fixed,
    /// mitigated and unknown never do.
    pub fn fails(self, state: State) -> bool {
        match self {
            FailOn::Affected => state == State::Affected,
            FailOn::InRange => matches!(state, State::Affected | State::InRange),
            FailOn::Never => false,
        }
    }

    /// The spelling on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            FailOn::Affected => "affected",
            FailOn::InRange => "in-range",
            FailOn::Never => "never",
        }
    }

    /// The states that fail, in words.
    pub fn describe(self) -> &'static str {
        match self {
            FailOn::Affected => "affected",
            FailOn::InRange => "affected or in range",
            FailOn::Never => "nothing (--fail-on never)",
        }
    }
}

/// One engine version a deployment runs, with every place that pins it.
#[derive(Debug, Clone)]
pub struct Deployment {
    /// Index into [`Catalog::engines`].
    pub engine: usize,
    /// The version, as first written.
    pub version: Version,
    /// The pins that name it, in the order read.
    pub pins: Vec<Pin>,
    /// The findings with an entry for the engine, most severe state first.
    pub hits: Vec<Hit>,
}

/// One finding's state at a deployed version.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    /// Index into [`Catalog::findings`].
    pub finding: usize,
    /// Its state there.
    pub state: State,
    /// Whether this state fails the run.
    pub fails: bool,
}

impl Hit {
    /// Whether the finding says something about this version that a
    /// deployment should read: affected, in range, seen or mitigated.
    /// Fixed, clean and unknown ones are only listed.
    pub fn applies(&self) -> bool {
        matches!(
            self.state,
            State::Affected | State::InRange | State::Seen | State::Mitigated
        )
    }
}

/// What `findings audit` found.
#[derive(Debug, Clone)]
pub struct Audit {
    /// Where the findings came from, in words.
    pub source: String,
    /// The threshold.
    pub fail_on: FailOn,
    /// Each engine version pinned, in the order of `site.yaml`, then by version.
    pub deployments: Vec<Deployment>,
    /// Pins that name no version. An error unless another input pins the
    /// same engine (then a note).
    pub problems: Vec<Problem>,
    /// The files read, as given.
    pub files: Vec<String>,
}

impl Audit {
    /// Whether a finding at or above the threshold applies.
    pub fn failed(&self) -> bool {
        self.deployments
            .iter()
            .any(|d| d.hits.iter().any(|h| h.fails))
    }

    /// Whether a pin could not be read and nothing else gave its engine a
    /// version: the audit is incomplete.
    pub fn incomplete(&self) -> bool {
        self.problems.iter().any(|p| p.is_error)
    }

    /// The number of (deployment, finding) pairs that fail the run.
    pub fn failing(&self) -> usize {
        self.deployments
            .iter()
            .map(|d| d.hits.iter().filter(|h| h.fails).count())
            .sum()
    }

    /// The exit status: 2 when the audit is incomplete, 1 when a finding
    /// fails it, else 0.
    pub fn exit_status(&self) -> u8 {
        if self.incomplete() {
            2
        } else if self.failed() {
            1
        } else {
            0
        }
    }
}

/// Checks every pinned version against every listed finding that has an
/// entry for its engine: the same findings, with the same states, as
/// `findings list --engine E --version V`.
pub fn audit(
    catalog: &Catalog,
    pins: Vec<Pin>,
    problems: Vec<Problem>,
    files: Vec<String>,
    fail_on: FailOn,
) -> Audit {
    let mut deployments: Vec<Deployment> = Vec::new();
    for pin in pins {
        match deployments
            .iter_mut()
            .find(|d| d.engine == pin.engine && d.version == pin.version)
        {
            Some(d) => d.pins.push(pin),
            None => deployments.push(Deployment {
                engine: pin.engine,
                version: pin.version.clone(),
                pins: vec![pin],
                hits: Vec::new(),
            }),
        }
    }
    deployments.sort_by(|a, b| a.engine.cmp(&b.engine).then(a.version.cmp(&b.version)));
    for d in &mut deployments {
        let id = &catalog.engines[d.engine].id;
        d.hits = catalog
            .findings
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let state = f.state(id, &d.version)?;
                Some(Hit {
                    finding: i,
                    state,
                    fails: fail_on.fails(state),
                })
            })
            .collect();
        // Most severe first (the legend's order), then as `list` orders them.
        d.hits
            .sort_by_key(|h| (State::ALL.iter().position(|s| *s == h.state), h.finding));
    }
    Audit {
        source: catalog.source.clone(),
        fail_on,
        deployments,
        problems,
        files,
    }
}
