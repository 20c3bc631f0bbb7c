//! Checks: each finding's advice applied to the runs, as code. A check is
//! small and named (`one-client`, `preemptions-read`, …), one file each,
//! declared in [`CHECKS`]: its name, what it reads, when it flags, and the
//! function that decides. The docs (`docs/checks.md`) and the tests go
//! through the registry, so a new check is one file and one line here.
//!
//! A check looks at a run through [`Evidence`] (`evidence.rs`): the facts
//! its result files give, the columns of its tables that use the
//! vocabulary's names (`max_concurrency`, `max_running`, `client`, …, a
//! table typed by hand as much as one read from a tool's file), and the
//! run's own fields. For a run it does not apply to it says nothing; for
//! one it applies to it says [`Verdict::Passed`], [`Verdict::Flagged`] or
//! [`Verdict::CannotTell`] ("cannot tell: the run records no …"), never
//! passing a run silently for want of data. A run may acknowledge a check
//! it breaks on purpose (`acknowledged` in `run.yaml`): it is then shown
//! as acknowledged, with its reason, never as passed.
//!
//! Takes a [`Run`]; hands validation its warnings and the model what the
//! run page, the finding pages, `findings lint` and the JSON export show.
//! Which findings carry a check's advice (`checks:` in their front matter)
//! is the model's to know.

mod concurrency;
mod evidence;
mod kv_cache;
mod lost_requests;
mod one_client;
mod preemptions;
mod rate;

pub use evidence::{Evidence, Place, Value};

use crate::record::Run;
use std::collections::BTreeMap;

/// What a check says of a run it applies to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The run does what the advice says.
    Passed,
    /// The run falls into the pitfall.
    Flagged,
    /// The run lacks what the check needs to decide.
    CannotTell,
    /// The run breaks the check on purpose; the reason is `run.yaml`'s.
    Acknowledged,
}

impl Verdict {
    /// The word pages and reports use.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::Flagged => "flagged",
            Verdict::CannotTell => "cannot tell",
            Verdict::Acknowledged => "acknowledged",
        }
    }
}

/// A check's verdict on one run, with what it found and where.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Outcome {
    /// The check's name.
    pub check: &'static str,
    /// Its verdict.
    pub verdict: Verdict,
    /// What it found, for people ("asked for 32 requests at once; the
    /// server never ran more than 10").
    pub message: String,
    /// Where the evidence is: a result file, a CSV row, or the run.
    pub at: Place,
    /// For an acknowledged check, the run's reason.
    pub reason: Option<String>,
    /// The setups the verdict is about, in the run's order, where the
    /// check tells them apart (the setups that record no preemptions);
    /// empty where it is about the run as a whole (engines compared).
    pub setups: Vec<usize>,
}

/// The engine of a setup whose files do not say which engine served them
/// and that no option names (`findings lint` of a client's report): checks
/// of one engine's pitfalls cannot tell rather than pass it by.
pub const UNKNOWN_ENGINE: &str = "unknown";

/// What a check decides of a run: its verdict, what it found, where, and
/// the setups it is about ([`Outcome::setups`]).
pub type Decided = (Verdict, String, Place, Vec<usize>);

/// One check: its name, what it reads and when it flags (for the docs and
/// `--help`), and the function that decides.
pub struct Check {
    /// The name findings and runs name it by.
    pub name: &'static str,
    /// What it reads, in a sentence.
    pub reads: &'static str,
    /// When it flags, and when it cannot tell, in a sentence.
    pub flags: &'static str,
    /// What a run leaves unknown when the check cannot tell, in a few
    /// words that follow "The reports cannot tell" ("how many requests
    /// were preempted"): `findings lint --format github-comment` lists it.
    pub unknown: &'static str,
    /// Whether a flag says that the run records nothing of what the check
    /// reads (no preemptions recorded, no KV cache size), so that the run
    /// leaves it unknown, rather than that what it records falls into the
    /// pitfall (a request lost, a limit lowered). `findings lint` makes
    /// such a flag "cannot tell" where the setups are reports pasted as
    /// text, which cannot hold what only the server records.
    pub flags_what_is_missing: bool,
    /// The verdict on a run, or `None` when the check does not apply.
    pub decide: fn(&Evidence<'_>) -> Option<Decided>,
}

/// Every check, in the order pages list them.
pub const CHECKS: &[&Check] = &[
    &one_client::CHECK,
    &preemptions::CHECK,
    &concurrency::CHECK,
    &kv_cache::CHECK,
    &rate::CHECK,
    &lost_requests::CHECK,
];

/// The check named `name`.
pub fn check(name: &str) -> Option<&'static Check> {
    CHECKS.iter().copied().find(|c| c.name == name)
}

/// Every name, for messages and suggestions.
pub fn names() -> Vec<&'static str> {
    CHECKS.iter().map(|c| c.name).collect()
}

/// The verdict of every check that applies to `run`, in [`CHECKS`]' order,
/// with the run's acknowledgments applied (`names`: the site's engines'
/// names by id, for the messages): an acknowledged check that does
/// not pass is shown as acknowledged, one that passes as passed (validation
/// says the acknowledgment is not needed).
pub fn evaluate(run: &Run, names: &BTreeMap<String, String>) -> Vec<Outcome> {
    evaluate_evidence(&Evidence::of(run, names))
}

/// [`evaluate`] on a run's evidence already gathered (what the symptoms
/// read too: the values each reads are filed once).
pub fn evaluate_evidence(ev: &Evidence<'_>) -> Vec<Outcome> {
    let run = ev.run;
    CHECKS
        .iter()
        .filter_map(|c| {
            let (verdict, message, at, setups) = (c.decide)(ev)?;
            let ack = run
                .acknowledged
                .iter()
                .find(|a| a.check == c.name)
                .filter(|_| verdict != Verdict::Passed);
            Some(Outcome {
                check: c.name,
                verdict: if ack.is_some() {
                    Verdict::Acknowledged
                } else {
                    verdict
                },
                message,
                at,
                reason: ack.map(|a| a.reason.clone()),
                setups,
            })
        })
        .collect()
}

/// Every check as `docs/checks.md` describes it, from the registry: its
/// name, what it reads and when it flags, and the findings that name it
/// (`cited`: for each check, the findings as "F4: title").
pub fn markdown(cited: &BTreeMap<String, Vec<String>>) -> String {
    let mut s = String::new();
    for c in CHECKS {
        s.push_str(&format!("### `{}`\n\n", c.name));
        s.push_str(&format!("- **Reads**: {}.\n", c.reads));
        s.push_str(&format!("- **Flags**: {}.\n", c.flags));
        let by = cited.get(c.name).map(|v| v.join("; ")).unwrap_or_default();
        if by.is_empty() {
            s.push_str("- **Named by**: no finding of the bundled site.\n\n");
        } else {
            s.push_str(&format!("- **Named by**: {by}.\n\n"));
        }
    }
    s
}
