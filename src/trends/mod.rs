//! `findings trends`: the workloads the site follows across engine
//! versions, their series and the changes between consecutive versions,
//! for a terminal (`table`), a pull request (`markdown`), a script
//! (`json`, the shape of the site's `workloads.json`) or a CI job
//! (`github`: workflow commands, an error per regression), so that a
//! nightly job can import its benchmark and fail on a slowdown
//! (`--fail-on regression`).
//!
//! The trends are the model's ([`crate::model::Trends`]), computed once
//! as the site's pages show them; this module selects (`--engine`,
//! `--workload`, `--since`) and says them, after judging every change
//! again by `--threshold` where given (a CI job that accepts single runs).
//!
//! Takes the model and the command's options; hands back the text and
//! whether a regression was found.

mod report;

use crate::compare::trend::Kind;
use crate::model::{Model, Picked, SelectError, Selection};
use crate::version::Version;

/// The formats of `findings trends`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// A table for a terminal.
    #[default]
    Table,
    /// JSON: the shape of `workloads.json` (docs/json.md).
    Json,
    /// Markdown for a pull request, an issue or a job summary.
    Markdown,
    /// GitHub Actions workflow commands: an error per regression, a
    /// notice per improvement, and the verdict.
    Github,
}

/// What `findings trends` was asked.
#[derive(Debug, Clone, Default)]
pub struct TrendsOptions {
    /// Only this engine's series.
    pub engine: Option<String>,
    /// Only this workload (its id, or text of its title).
    pub workload: Option<String>,
    /// Only points at this version or later, and changes from it on.
    pub since: Option<String>,
    /// How to say it.
    pub format: Format,
    /// A bound in percent to judge every change by, for a CI job that
    /// accepts single runs (`--threshold`): a change beyond it is a
    /// regression or an improvement, one within it noise.
    pub threshold: Option<f64>,
}

/// What `findings trends` says.
#[derive(Debug, Clone)]
pub struct TrendsReport {
    /// The text to print.
    pub text: String,
    /// How many regressions it lists.
    pub regressions: usize,
}

/// The trends of `model` that `opts` select, said in its format, each
/// change judged again by `opts.threshold` where given (the model's
/// trends are then changed in place); an error where the selection cannot
/// be made (an unknown engine, a workload no id or title names, a
/// `--since` that is no version, a threshold that is no percentage).
pub fn trends(model: &mut Model, opts: &TrendsOptions) -> Result<TrendsReport, SelectError> {
    if let Some(p) = opts.threshold {
        if !(p.is_finite() && p > 0.0 && p <= 100.0) {
            return Err(SelectError {
                message: format!("--threshold: {p} is not a bound in percent"),
                hint: "a number more than 0 and at most 100: --threshold 5 for ±5%".to_string(),
            });
        }
        for f in &mut model.trends.followed {
            crate::compare::trend::restate(&mut f.trend, p);
        }
    }
    let model: &Model = model;
    let since = match &opts.since {
        Some(v) => Some(Version::parse(v).map_err(|e| SelectError {
            message: format!("--since: {e}"),
            hint: "a version as the site writes it: 0.30, 1.3.0rc29, b6119".to_string(),
        })?),
        None => None,
    };
    let sel = Selection {
        engine: opts.engine.clone(),
        workload: opts.workload.clone(),
        since,
    };
    let picked = model.trends.select(&model.site, &sel)?;
    let regressions = count(model, &picked, Kind::Regression);
    let text = match opts.format {
        Format::Table => report::table(model, &picked, &sel),
        Format::Markdown => report::markdown(model, &picked, &sel),
        Format::Github => report::github(model, &picked, &sel),
        Format::Json => {
            let mut s =
                serde_json::to_string_pretty(&crate::outputs::workloads::json(model, &picked))
                    .unwrap_or_default();
            s.push('\n');
            s
        }
    };
    Ok(TrendsReport { text, regressions })
}

/// How many changes of `picked` are of `kind`.
fn count(model: &Model, picked: &[Picked], kind: Kind) -> usize {
    picked
        .iter()
        .flat_map(|p| {
            p.metrics
                .iter()
                .flat_map(move |(m, _, cs)| cs.iter().map(move |&c| (p.workload, *m, c)))
        })
        .filter(|&c| model.trends.change(c).kind() == kind)
        .count()
}
