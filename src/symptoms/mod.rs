//! Symptoms: what a run's evidence shows of a finding's problem. A check
//! (`crate::checks`) asks whether a run was measured as a finding advises;
//! a symptom asks whether the run shows the finding's problem itself, on
//! the engine version it ran: vLLM's preemptions with no log line, SGLang
//! lowering its running limit, a KV pool that jumps between starts. A
//! finding names its symptoms (`symptoms:` in its front matter), and what
//! the runs show of them makes the versions they ran tested (see
//! `crate::state::resolve` and the model).
//!
//! Each symptom is one file, declared in [`SYMPTOMS`]: its name, the
//! claim it detects, what it reads, and the function that decides, for
//! one setup of one run (an engine and version), one of three
//! [`Outcome`]s, always with the figures it rests on:
//!
//! - **shown**: the run shows the problem ("22 preemptions counted by
//!   `vllm:num_preemptions_total`; no line of the log mentions one");
//! - **absent**: the conditions that would show it were met and it did not
//!   show (requests were preempted and the log records them);
//! - **cannot tell**: the run lacks what would decide (no preemption
//!   happened; there is no log).
//!
//! A symptom that finds none of what it reads in a run says nothing of it.
//! Each detector is specific to its finding's claim: a client that sent
//! too few requests is not SGLang lowering its limit.
//!
//! Takes a [`Run`] through [`Evidence`] (the same view of its facts, tables
//! and fields the checks read); hands validation, the model, `findings
//! lint` and `findings import` the observations.

mod answers;
mod gauge;
mod limit;
pub mod observed;
mod orphan;
mod pauses;
mod pool;
mod preemptions;
mod readings;

use crate::checks::{Evidence, Place, Value};
use crate::record::Run;
use std::collections::BTreeMap;

/// What a run shows of a symptom, on one setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The run shows the problem.
    Shown,
    /// The conditions that would show it were met, and it did not show.
    Absent,
    /// The run lacks what would decide.
    CannotTell,
}

impl Outcome {
    /// The spelling of JSON and CSS classes: `shown`, `absent`,
    /// `cannot-tell`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Shown => "shown",
            Outcome::Absent => "absent",
            Outcome::CannotTell => "cannot-tell",
        }
    }

    /// The words pages and reports use.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Shown => "shows",
            Outcome::Absent => "absent",
            Outcome::CannotTell => "cannot tell",
        }
    }
}

/// What one symptom says of one setup of a run.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Observation {
    /// The symptom's name.
    pub symptom: &'static str,
    /// The setup, an index into the run's `setups`.
    pub setup: usize,
    /// What the run shows.
    pub outcome: Outcome,
    /// The figures it rests on, for people.
    pub says: String,
    /// Where the decisive evidence is.
    pub at: Place,
}

/// A symptom's verdict on one setup: the outcome, what it rests on, and
/// where.
pub type Detected = (Outcome, String, Place);

/// One symptom: its name, the claim it detects and what it reads (for the
/// docs), the engines it reads, and the function that decides.
pub struct Symptom {
    /// The name findings name it by.
    pub name: &'static str,
    /// The problem it detects, in a sentence.
    pub claim: &'static str,
    /// What it reads.
    pub reads: &'static str,
    /// When it is shown, absent, or cannot tell.
    pub decides: &'static str,
    /// The engines whose setups it reads; empty for any engine.
    pub engines: &'static [&'static str],
    /// The outcome on setup `i` of the run, or `None` when the run holds
    /// none of what the symptom reads for that setup.
    pub detect: fn(&Evidence<'_>, usize) -> Option<Detected>,
}

/// Every symptom, in the order pages list them.
pub const SYMPTOMS: &[&Symptom] = &[
    &preemptions::SYMPTOM,
    &pauses::SYMPTOM,
    &limit::SYMPTOM,
    &pool::SYMPTOM,
    &readings::SYMPTOM,
    &gauge::SYMPTOM,
    &orphan::SYMPTOM,
    &answers::CHANGED,
    &answers::REPEATED,
    &answers::GAP,
    &answers::BELOW,
];

/// The symptom named `name`.
pub fn symptom(name: &str) -> Option<&'static Symptom> {
    SYMPTOMS.iter().copied().find(|s| s.name == name)
}

/// Every name, for messages and suggestions.
pub fn names() -> Vec<&'static str> {
    SYMPTOMS.iter().map(|s| s.name).collect()
}

/// What every symptom says of every setup of `run` (`names`: the site's
/// engines' names by id, for the messages), setup by setup, in
/// [`SYMPTOMS`]' order.
pub fn observe(run: &Run, names: &BTreeMap<String, String>) -> Vec<Observation> {
    observe_evidence(&Evidence::of(run, names))
}

/// What a run says of the findings: the outcomes of the checks, and the
/// observations of the symptoms, read from one gathering of its evidence
/// (each value both read is filed once).
pub fn judge(
    run: &Run,
    names: &BTreeMap<String, String>,
) -> (Vec<crate::checks::Outcome>, Vec<Observation>) {
    let ev = Evidence::of(run, names);
    (crate::checks::evaluate_evidence(&ev), observe_evidence(&ev))
}

/// [`observe`] on a run's evidence already gathered.
fn observe_evidence(ev: &Evidence<'_>) -> Vec<Observation> {
    let run = ev.run;
    let mut out = Vec::new();
    for (i, setup) in run.setups.iter().enumerate() {
        for s in SYMPTOMS {
            if !s.engines.is_empty() && !s.engines.contains(&setup.engine.as_str()) {
                continue;
            }
            if let Some((outcome, says, at)) = (s.detect)(ev, i) {
                out.push(Observation {
                    symptom: s.name,
                    setup: i,
                    outcome,
                    says,
                    at,
                });
            }
        }
    }
    out
}

/// Every symptom as `docs/symptoms.md` describes it, from the registry
/// (`cited`: for each symptom, the findings that name it, as "F8: title").
pub fn markdown(cited: &BTreeMap<String, Vec<String>>) -> String {
    let mut s = String::new();
    for x in SYMPTOMS {
        s.push_str(&format!("### `{}`\n\n", x.name));
        s.push_str(&format!("- **Detects**: {}.\n", x.claim));
        s.push_str(&format!("- **Reads**: {}.\n", x.reads));
        s.push_str(&format!("- **Decides**: {}.\n", x.decides));
        if !x.engines.is_empty() {
            s.push_str(&format!(
                "- **Engines**: {}.\n",
                x.engines
                    .iter()
                    .map(|e| format!("`{e}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        match cited.get(x.name).filter(|v| !v.is_empty()) {
            Some(by) => s.push_str(&format!("- **Named by**: {}.\n\n", by.join("; "))),
            None => s.push_str("- **Named by**: no finding of the bundled site.\n\n"),
        }
    }
    s
}

/// The first number among `values`, with its value.
fn first_number(values: &[Value]) -> Option<(f64, &Value)> {
    values.iter().find_map(|v| v.number.map(|n| (n, v)))
}

/// The first value known to be unknown (a fact with its reason and no
/// value), for a "cannot tell" that says why.
fn unknown(values: &[Value]) -> Option<&Value> {
    values
        .iter()
        .find(|v| v.text.is_empty() && v.number.is_none())
}

/// The first text among `values`.
fn first_text(values: &[Value]) -> Option<&Value> {
    values.iter().find(|v| !v.text.is_empty())
}

/// A count as a message writes it: `22 preemptions`, `1 preemption`.
fn count(n: f64, one: &str, many: &str) -> String {
    let word = if n == 1.0 { one } else { many };
    format!("{} {word}", crate::figures::number(n))
}

/// A note of a fact, without its leading "unknown: ", for a "cannot tell".
fn reason(v: &Value) -> String {
    let n = v.note.as_deref().unwrap_or("the value is unknown");
    n.strip_prefix("unknown: ").unwrap_or(n).to_string()
}

#[cfg(test)]
mod tests;
