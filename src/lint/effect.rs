//! What an observation would do to a finding's state at the version it
//! ran on, in words for `findings lint` and `findings import`: "shows F8
//! (preemptions-unlogged) on vLLM 0.33, a version F8 does not list:
//! importing this run makes it affected". The state is the site's (the
//! record, then what its runs already observed: `CatalogFinding::state`);
//! the rule is `crate::state::resolve`'s.

use crate::audit::source::CatalogFinding;
use crate::state::{state_of, State};
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
    let contradicts = |what: &str, fail: &str| {
        format!("a version {label} {what}: this run contradicts it, and {fail} until {label} is corrected or acknowledges the run")
    };
    let untested = matches!(record, State::InRange | State::Unknown);
    Some(match (outcome, record) {
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
    })
}
