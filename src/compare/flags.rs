//! What the checks flag of a side's run, where the flag says its figures
//! are not what its heading claims: it ran fewer requests at once than
//! asked (`concurrency-achieved`), it lost requests (`no-lost-requests`:
//! the figures are of the completed ones only), or engines were measured
//! under more than one client (`one-client`). The checks decide
//! (`crate::checks`, which the callers run: this layer cannot); a side
//! carries each flag of its setup, or of its run as a whole, and every
//! view marks it beside the side's name and says it under the verdict.
//!
//! Takes a check's name and message; hands back a [`Flag`], and the
//! sentence that names the flagged sides.

use super::verdict::{and_list, labels};
use super::Comparison;

/// The checks whose flag marks a side: each with its mark beside the
/// side's name, and what it says of one side and of several, in words that
/// follow their names (`{lost}` stands for how many requests each lost).
pub const FLAGGING_CHECKS: &[(&str, &str, &str, &str)] = &[
    (
        "concurrency-achieved",
        "ran fewer",
        "ran fewer requests at once than asked",
        "ran fewer requests at once than asked",
    ),
    (
        "no-lost-requests",
        "lost requests",
        "lost requests{lost}, so its figures are of the completed ones only",
        "lost requests{lost}, so their figures are of the completed ones only",
    ),
    (
        "one-client",
        "several clients",
        "is from a run that measured engines under more than one client or endpoint",
        "are from a run that measured engines under more than one client or endpoint",
    ),
];

/// A check's flag on a side.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Flag {
    /// The check (`no-lost-requests`).
    pub check: String,
    /// What it says of the side, in a few words (`lost requests`).
    pub mark: String,
    /// The check's own message ("vLLM 0.30.0: 16 of 32 requests failed: …").
    pub message: String,
}

impl Flag {
    /// The flag of check `check`, which said `message`, where the check is
    /// one of [`FLAGGING_CHECKS`].
    pub fn of(check: &str, message: &str) -> Option<Flag> {
        let (_, mark, ..) = FLAGGING_CHECKS.iter().find(|(c, ..)| *c == check)?;
        Some(Flag {
            check: check.to_string(),
            mark: (*mark).to_string(),
            message: message.to_string(),
        })
    }
}

/// The flagged sides in a sentence a check, in the order the checks are
/// listed: `Both sides ran fewer requests at once than asked (flagged by
/// concurrency-achieved). vLLM 0.30.0 lost requests (16 of 32), so its
/// figures are of the completed ones only (flagged by no-lost-requests).`;
/// `None` where no side is flagged.
pub fn flagged(c: &Comparison) -> Option<String> {
    let names = labels(c);
    let mut out = Vec::new();
    for (check, _, one, many) in FLAGGING_CHECKS {
        let sides: Vec<usize> = (0..c.sides.len())
            .filter(|&s| c.sides[s].flags.iter().any(|f| f.check == *check))
            .collect();
        if sides.is_empty() {
            continue;
        }
        let who = match (sides.len(), c.sides.len()) {
            (2, 2) => "Both sides".to_string(),
            (n, all) if n == all => format!("All {all} sides"),
            _ => and_list(&sides.iter().map(|&s| names[s].clone()).collect::<Vec<_>>()),
        };
        // How many each lost, where its results say.
        let lost: Vec<String> = sides
            .iter()
            .filter_map(|&s| {
                let words: Vec<String> = c
                    .contexts
                    .iter()
                    .filter_map(|w| w[s].lost_words())
                    .collect();
                (!words.is_empty()).then(|| words.join(", "))
            })
            .collect();
        let lost =
            if lost.len() == sides.len() && lost.len() > 1 && lost.iter().all(|l| *l == lost[0]) {
                format!(" ({} each)", lost[0])
            } else if lost.len() == sides.len() {
                format!(" ({})", lost.join("; "))
            } else {
                String::new()
            };
        let words = if sides.len() == 1 { one } else { many };
        out.push(format!(
            "{who} {} (flagged by {check}).",
            words.replace("{lost}", &lost)
        ));
    }
    (!out.is_empty()).then(|| out.join(" "))
}

impl super::Side {
    /// Takes the flag of check `check`, which said `message` of `setups`
    /// of this side's run (of the run as a whole where empty), where the
    /// check is one of [`FLAGGING_CHECKS`] and the side is of one of those
    /// setups (a side of no one setup takes a flag of the run as a whole
    /// only). Each flag once.
    pub fn flag(&mut self, check: &str, message: &str, setups: &[usize]) {
        let about = setups.is_empty() || self.setup.is_some_and(|i| setups.contains(&i));
        if let Some(f) = Flag::of(check, message).filter(|_| about) {
            if !self.flags.contains(&f) {
                self.flags.push(f);
            }
        }
    }
}
