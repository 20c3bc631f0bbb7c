//! `findings compare` on accuracy evaluations (issue 44): when every input
//! is a file (or a paste) an accuracy tool wrote (lm_eval's results file,
//! its sample log, its printed table, SGLang's or vLLM's gsm8k print),
//! each file is a side (a paste of several tables, a side per table),
//! read into the plain scores and answers that `findings::compare::accuracy`
//! compares. Two sides, the baseline first.

use super::inputs::CompareError;
use findings::compare::accuracy::{AccuracySide, Answer, Score};
use findings::results::vocabulary::{AnswerCol as A, ScoreCol as S};
use findings::results::{self, ResultFile};
use std::path::Path;

fn fail(message: String, hint: &str) -> CompareError {
    CompareError {
        message,
        hint: Some(hint.to_string()),
    }
}

fn side(name: String, f: &ResultFile) -> AccuracySide {
    let text = |r: &results::Row<S>, c| r.text(c).unwrap_or("").to_string();
    let scores = f
        .scores
        .rows
        .iter()
        .filter_map(|r| {
            Some(Score {
                task: text(r, S::Task),
                filter: text(r, S::Filter),
                metric: text(r, S::Metric),
                n_shot: r.num(S::NShot),
                value: r.num(S::Value)?,
                stderr: r.num(S::Stderr),
                n: r.num(S::N),
                higher_is_better: r.text(S::HigherIsBetter) != Some("false"),
            })
        })
        .collect();
    let answers = f
        .answers
        .rows
        .iter()
        .map(|r| Answer {
            task: r.text(A::Task).unwrap_or("").to_string(),
            question: r.text(A::Question).unwrap_or("").to_string(),
            filter: r.text(A::Filter).unwrap_or("").to_string(),
            reply: r.text(A::Reply).unwrap_or("").to_string(),
            correct: r.num(A::Correct).map(|c| c > 0.0),
        })
        .collect();
    AccuracySide {
        name,
        scores,
        answers,
    }
}

/// The sides of `inputs` when every one is an accuracy file; `None` when
/// one is not (a run id, a speed benchmark's file): the comparison of
/// speed reads them.
pub(crate) fn accuracy_sides(inputs: &[String]) -> Option<Result<Vec<AccuracySide>, CompareError>> {
    let mut sides = Vec::new();
    for input in inputs {
        let path = Path::new(input);
        if !path.is_file() {
            return None;
        }
        let bytes = std::fs::read(path).ok()?;
        let f = results::read(input, &bytes).ok()?;
        if !f.format.is_accuracy() {
            return None;
        }
        // A side is named by its file's name (and where in a paste).
        let name = path
            .file_name()
            .map_or(input.clone(), |n| n.to_string_lossy().into_owned());
        if f.reports.len() > 1 {
            for r in &f.reports {
                sides.push(side(format!("{name} ({})", r.location), &r.read));
            }
        } else {
            sides.push(side(name, &f));
        }
    }
    if sides.len() != 2 {
        return Some(Err(fail(
            format!(
                "an accuracy comparison sets two runs side by side; these inputs hold {}",
                sides.len()
            ),
            "name two files (the baseline first), or one paste of two tables",
        )));
    }
    Some(Ok(sides))
}
