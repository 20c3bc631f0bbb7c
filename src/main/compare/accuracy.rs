//! `findings compare` on accuracy evaluations (issue 44): when every input
//! is a file (or a paste) an accuracy tool wrote (lm_eval's results file,
//! its sample log, its printed table, SGLang's or vLLM's gsm8k print),
//! each file is a side (a paste of several tables, a side per table),
//! read into the plain scores and answers that `findings::compare::accuracy`
//! compares. Two sides, the baseline first. A run of the site named by
//! its id (`data/runs/<id>`) whose setups hold scores (its derived table
//! `scores`, and `answers` where it derives them) and no result of speed
//! is an accuracy input too: a side per setup with scores, named as the
//! site's comparison pages name it, compared exactly as its files are.

use super::inputs::CompareError;
use findings::compare::accuracy::{AccuracySide, Answer, Score};
use findings::load;
use findings::results::vocabulary::{AnswerCol as A, ScoreCol as S};
use findings::results::{self, ResultFile};
use std::collections::BTreeMap;
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

/// The accuracy sides of run `input` of the site in `root`: `None` where
/// no run has that id, or where it is not an accuracy run (no setup with
/// scores, or a result of speed besides); `Some(Err)` where the run has
/// errors.
fn run_sides(
    input: &str,
    root: &Path,
    several: bool,
    names: &BTreeMap<String, String>,
) -> Option<Result<Vec<AccuracySide>, CompareError>> {
    if !load::is_slug(input) {
        return None;
    }
    let (run, diags) = load::load_one_run(root, input)?;
    let Some(run) = run.filter(|_| !diags.has_errors()) else {
        let first = diags.sorted().into_iter().next();
        return Some(Err(CompareError {
            message: first.map_or_else(
                || format!("run {input} could not be read"),
                |d| d.to_string(),
            ),
            hint: Some("`findings check` shows every error".to_string()),
        }));
    };
    if run.results.iter().any(|r| !r.rows.is_empty()) {
        return None;
    }
    let prefix = if several && run.setups.len() > 1 {
        format!("{}: ", run.id)
    } else {
        String::new()
    };
    let got = findings::compare::accuracy_sides_of_run(&run, &prefix, names);
    if got.is_empty() {
        return None;
    }
    Some(Ok(got.into_iter().map(|(_, a)| a).collect()))
}

/// The sides of `inputs` when every one is an accuracy file or an
/// accuracy run of the site in `root` (by id); `None` when one is not (a
/// run of speed, a speed benchmark's file): the comparison of speed reads
/// them.
pub(crate) fn accuracy_sides(
    inputs: &[String],
    root: &Path,
) -> Option<Result<Vec<AccuracySide>, CompareError>> {
    let mut sides = Vec::new();
    let mut of_runs = false;
    let names: BTreeMap<String, String> = if inputs.iter().any(|i| load::is_slug(i)) {
        load::load_site(root)
            .0
            .map(|s| s.engine_names())
            .unwrap_or_default()
    } else {
        BTreeMap::new()
    };
    for input in inputs {
        if let Some(got) = run_sides(input, root, inputs.len() > 1, &names) {
            of_runs = true;
            match got {
                Ok(got) => sides.extend(got),
                Err(e) => return Some(Err(e)),
            }
            continue;
        }
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
    // Two runs' sides of one name (two runs of vLLM 0.30) told apart by
    // their place, as the comparison of speed tells them.
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for s in &sides {
        *count.entry(s.name.clone()).or_default() += 1;
    }
    for (i, s) in sides.iter_mut().enumerate() {
        if of_runs && count.get(&s.name).is_some_and(|&n| n > 1) {
            s.name = format!("{} ({})", s.name, i + 1);
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
