//! From observations to versions: each run's observations (shown or
//! absent) filed under the findings that name their symptom, by engine
//! entry and version. A finding's version then resolves with what the
//! runs on it showed (`crate::state::resolve`). Validation reads the
//! conflicts with the record, the model the states, the pages and the
//! exports the runs behind each.
//!
//! An observation counts for a finding's entry of the setup's engine, at
//! the setup's version (`0.30.0` and `0.30` are one version): a finding
//! with no entry for an engine learns nothing of it, and a setup without a
//! version tests none. A run the finding acknowledges (`acknowledged:` in
//! its front matter, for one symptom or all) is filed apart, with the
//! reason: it decides nothing.

use super::{Observation, Outcome};
use crate::record::{Finding, Run};
use crate::state::Seen;
use crate::version::Version;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// An observation: the index of its run, and its index among that run's
/// observations.
pub type ObsRef = (usize, usize);

/// What the runs on one version showed of one finding's symptoms.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AtVersion {
    /// The runs' observations that show a symptom there.
    pub shown: Vec<ObsRef>,
    /// Those that show one absent.
    pub absent: Vec<ObsRef>,
    /// Those of runs the finding acknowledges, each with the index of the
    /// acknowledgment in the finding's `acknowledged`.
    pub acknowledged: Vec<(ObsRef, usize)>,
}

impl AtVersion {
    /// Whether a run showed a symptom, or showed one absent (acknowledged
    /// runs left out).
    pub fn seen(&self) -> Seen {
        Seen {
            shown: !self.shown.is_empty(),
            absent: !self.absent.is_empty(),
        }
    }

    /// Every observation that bears on the state, shown first, then
    /// absent, each in run order.
    pub fn deciding(&self) -> impl Iterator<Item = ObsRef> + '_ {
        self.shown.iter().chain(&self.absent).copied()
    }
}

/// For one finding: per engine entry (its index in `engines`), the
/// versions runs observed, ascending.
pub type FindingObserved = Vec<(usize, BTreeMap<Version, AtVersion>)>;

/// What every run showed of every finding's symptoms: for each finding (in
/// the order given), per engine entry, per version. `observations` holds
/// each run's (in the order of `runs`).
pub fn by_finding(
    findings: &[Arc<Finding>],
    runs: &[Arc<Run>],
    observations: &[Vec<Observation>],
) -> Vec<FindingObserved> {
    let mut naming: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, f) in findings.iter().enumerate() {
        for s in &f.symptoms {
            naming.entry(s.as_str()).or_default().push(i);
        }
    }
    let mut out: Vec<FindingObserved> = vec![Vec::new(); findings.len()];
    if naming.is_empty() {
        return out;
    }
    for (r, (run, obs)) in runs.iter().zip(observations).enumerate() {
        for (k, o) in obs.iter().enumerate() {
            if o.outcome == Outcome::CannotTell {
                continue;
            }
            let Some(setup) = run.setups.get(o.setup) else {
                continue;
            };
            let Some(version) = setup
                .version
                .as_deref()
                .and_then(|v| Version::parse(v).ok())
            else {
                continue;
            };
            for &i in naming.get(o.symptom).into_iter().flatten() {
                let f = &findings[i];
                let Some(e) = f.engines.iter().position(|e| e.engine == setup.engine) else {
                    continue;
                };
                let slot = match out[i].iter().position(|(x, _)| *x == e) {
                    Some(p) => p,
                    None => {
                        out[i].push((e, BTreeMap::new()));
                        out[i].len() - 1
                    }
                };
                let at = out[i][slot].1.entry(version.clone()).or_default();
                let ack = f.acknowledged.iter().position(|a| {
                    a.run == run.id && a.symptom.as_deref().is_none_or(|s| s == o.symptom)
                });
                match (ack, o.outcome) {
                    (Some(a), _) => at.acknowledged.push(((r, k), a)),
                    (None, Outcome::Shown) => at.shown.push((r, k)),
                    _ => at.absent.push((r, k)),
                }
            }
        }
    }
    for f in &mut out {
        f.sort_by_key(|(e, _)| *e);
    }
    out
}
