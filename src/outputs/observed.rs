//! What the runs observed, in the JSON export: each version's state with
//! its source (`record`, `observed`, `inferred`) and the observations
//! behind it (`{run, setup, symptom, outcome, says}`), a finding's runs
//! that its record acknowledges, and each run's observations with the
//! findings they bear on. Takes the model; hands `export` these parts.

use crate::model::Model;
use crate::symptoms::observed::ObsRef;
use serde::{Deserialize, Serialize};

/// One observation, as a version's state and a run list it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservationExport {
    /// The run's id.
    pub run: String,
    /// The setup's name in the run.
    pub setup: String,
    /// The symptom (docs/symptoms.md).
    pub symptom: String,
    /// `shown`, `absent` or `cannot-tell`.
    pub outcome: String,
    /// The figures it rests on.
    pub says: String,
}

/// A run's observation, with the findings that name its symptom.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunObservationExport {
    /// The setup's name in the run.
    pub setup: String,
    /// The setup's engine.
    pub engine: String,
    /// The setup's version, as written.
    pub version: Option<String>,
    /// The symptom.
    pub symptom: String,
    /// `shown`, `absent` or `cannot-tell`.
    pub outcome: String,
    /// The figures it rests on.
    pub says: String,
    /// The ids of the findings that name the symptom.
    pub findings: Vec<u32>,
}

/// A run whose observations a finding's record acknowledges.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AcknowledgedExport {
    /// The run's id.
    pub run: String,
    /// The symptom meant, or `null` for all of the finding's.
    pub symptom: Option<String>,
    /// Why the record stands.
    pub reason: String,
}

/// Observation `o` of the model, as exported.
pub(super) fn observation(model: &Model, o: ObsRef) -> ObservationExport {
    let (run, x) = (&model.runs[o.0], model.observation(o));
    ObservationExport {
        run: run.id.clone(),
        setup: run
            .setups
            .get(x.setup)
            .map(|s| s.name())
            .unwrap_or_default(),
        symptom: x.symptom.to_string(),
        outcome: x.outcome.as_str().to_string(),
        says: x.says.clone(),
    }
}

/// Every observation of run `r`, with the findings that name each symptom.
pub(super) fn of_run(model: &Model, r: usize) -> Vec<RunObservationExport> {
    let run = &model.runs[r];
    model.observations[r]
        .iter()
        .map(|o| {
            let setup = &run.setups[o.setup];
            RunObservationExport {
                setup: setup.name(),
                engine: setup.engine.clone(),
                version: setup.version.clone(),
                symptom: o.symptom.to_string(),
                outcome: o.outcome.as_str().to_string(),
                says: o.says.clone(),
                findings: model
                    .symptom_findings
                    .get(o.symptom)
                    .into_iter()
                    .flatten()
                    .map(|&i| model.findings[i].id)
                    .collect(),
            }
        })
        .collect()
}

/// Finding `i`'s acknowledged runs.
pub(super) fn acknowledged(model: &Model, i: usize) -> Vec<AcknowledgedExport> {
    model.findings[i]
        .acknowledged
        .iter()
        .map(|a| AcknowledgedExport {
            run: a.run.clone(),
            symptom: a.symptom.clone(),
            reason: a.reason.clone(),
        })
        .collect()
}
