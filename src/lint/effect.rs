//! What an observation would do to a finding's state at the version it
//! ran on, in words for `findings lint` and `findings import`: "shows F8
//! (preemptions-unlogged) on vLLM 0.33, a version F8 does not list:
//! importing this run makes it affected". The state is the site's (the
//! record, then what its runs already observed: `CatalogFinding::state`);
//! the rule is `crate::state::resolve`'s. `findings import` says the same
//! of the run it made ([`of_run`], against the site without it).

use crate::audit::source::CatalogFinding;
use crate::model::Model;
use crate::state::{resolve, state_of, Seen, State};
use crate::symptoms::Outcome;
use crate::version::Version;

/// What observing `outcome` on `engine` (named `name`) at `version` does to
/// finding `f`, by `doing` ("importing this run"); `None` for a cannot-tell.
pub fn effect(
    f: &CatalogFinding,
    engine: &str,
    name: &str,
    version: Option<&str>,
    outcome: Outcome,
    doing: &str,
) -> Option<String> {
    if outcome == Outcome::CannotTell {
        return None;
    }
    let label = format!("F{}", f.id);
    let Some(entry) = f.entries.iter().find(|e| e.engine == engine) else {
        return Some(format!(
            "{label} has no entry for {name}: it tests nothing of it"
        ));
    };
    let Some(v) = version.and_then(|v| Version::parse(v).ok()) else {
        return Some("the setup has no version: it tests none".to_string());
    };
    let record = state_of(entry, &v);
    let now = f.state(engine, &v).unwrap_or(record);
    Some(phrase(&label, record, now, outcome, doing))
}

/// The words of [`effect`]: `record` is the version's state as the record
/// has it, `now` as the site has it before the run, `label` the finding's
/// (`F8`).
fn phrase(label: &str, record: State, now: State, outcome: Outcome, doing: &str) -> String {
    let contradicts = |what: &str, fail: &str| {
        format!("a version {label} {what}: this run contradicts it, and {fail} until {label} is corrected or acknowledges the run")
    };
    let untested = matches!(record, State::InRange | State::Unknown);
    match (outcome, record) {
        (Outcome::Shown, State::Affected) => format!("as {label} lists"),
        (Outcome::Shown, State::Seen) => format!("a version {label} lists as seen"),
        (Outcome::Shown, State::Clean) => contradicts("lists as clean", "`check` and `build` fail"),
        (Outcome::Shown, State::Fixed) => contradicts("says is fixed", "`check` and `build` fail"),
        (Outcome::Shown, State::Mitigated) => {
            contradicts("says is mitigated", "`check` and `build` fail")
        }
        (Outcome::Shown, _) if untested && now == State::Affected => {
            "a version that runs already show affected".to_string()
        }
        (Outcome::Shown, _) => {
            format!("a version {label} does not list: {doing} makes it affected")
        }
        (_, State::Affected) => contradicts("lists as affected", "`check` warns"),
        (_, State::Clean) => format!("as {label} lists"),
        (_, State::Fixed) => format!("a version {label} says is fixed"),
        (_, State::Mitigated) => format!("a version {label} says is mitigated"),
        (_, State::Seen) => format!("a version {label} lists as seen"),
        (_, _) if now == State::Affected => {
            "a version other runs show affected: it stays affected".to_string()
        }
        (_, _) if now == State::Clean => "a version that runs already show clean".to_string(),
        (_, _) => format!("a version {label} does not list: {doing} makes it clean"),
    }
}

/// What run `id` of `model` shows of the findings' symptoms, and what that
/// did to each finding's state at the version it ran (against the site
/// without the run): "shows F8 (preemptions-unlogged) on vLLM 0.33, a
/// version F8 does not list: this import makes it affected", each with the
/// figures ("live: 22 preemptions counted by …"). Shown first, then
/// absent; what it cannot tell is left to `findings lint`.
pub fn of_run(model: &Model, id: &str) -> Vec<(String, String)> {
    let Some(&r) = model.run_by_id.get(id) else {
        return Vec::new();
    };
    let run = &model.runs[r];
    let mut out: Vec<(Outcome, String, String)> = Vec::new();
    for o in &model.observations[r] {
        if o.outcome == Outcome::CannotTell {
            continue;
        }
        let setup = &run.setups[o.setup];
        let name = model
            .site
            .engines
            .iter()
            .find(|e| e.id == setup.engine)
            .map_or(setup.engine.as_str(), |e| e.name.as_str());
        let version = setup
            .version
            .as_deref()
            .and_then(|v| Version::parse(v).ok());
        for &i in model.symptom_findings.get(o.symptom).into_iter().flatten() {
            let f = &model.findings[i];
            let label = format!("F{}", f.id);
            let verb = if o.outcome == Outcome::Shown {
                "shows"
            } else {
                "shows absent"
            };
            let head = format!(
                "{verb} {label} ({}) on {name}{}",
                o.symptom,
                setup
                    .version
                    .as_deref()
                    .map(|v| format!(" {v}"))
                    .unwrap_or_default()
            );
            let e = f.engines.iter().position(|x| x.engine == setup.engine);
            let effect = match (e, &version) {
                (None, _) => format!("{label} has no entry for {name}: it tests nothing of it"),
                (_, None) => "the setup has no version: it tests none".to_string(),
                (Some(e), Some(v)) => {
                    let entry = &f.engines[e];
                    let at = model.observed_at(i, e, v);
                    let acknowledged =
                        at.is_some_and(|at| at.acknowledged.iter().any(|(x, _)| x.0 == r));
                    if acknowledged {
                        format!("{label} acknowledges the run: it decides nothing")
                    } else {
                        // The site without this run's observations.
                        let others = |list: &[(usize, usize)]| list.iter().any(|x| x.0 != r);
                        let seen = Seen {
                            shown: at.is_some_and(|at| others(&at.shown)),
                            absent: at.is_some_and(|at| others(&at.absent)),
                        };
                        let (before, _, _) = resolve(entry, v, seen);
                        phrase(&label, state_of(entry, v), before, o.outcome, "this import")
                    }
                }
            };
            out.push((
                o.outcome,
                format!("{head}, {effect}"),
                format!("{}: {}", setup.name(), o.says),
            ));
        }
    }
    out.sort_by_key(|(o, _, _)| *o);
    out.into_iter().map(|(_, h, s)| (h, s)).collect()
}
