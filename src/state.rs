//! The per-version state rule: what a finding says about one engine version.
//!
//! Precedence, first match wins: **affected** (listed), **clean** (listed),
//! **seen** (listed), **fixed** (at or above `fixed_in`), **mitigated** (at
//! or above `mitigated_in`), **in range** (untested, but at or above
//! `introduced_in` or the lowest affected version, and below `fixed_in`;
//! with no fix, any version from there up), otherwise **unknown**.
//! Affected, clean and seen are tested states; the rest are inferred, and
//! pages show the difference. A seen version says the problem showed while
//! it ran but does not lie in the engine: it reads as neutral, never as a
//! fault, and implies nothing about other versions (an entry with only seen
//! versions has no range).

use crate::record::EngineEntry;
use crate::version::Version;
use serde::Serialize;

/// The state of one engine version for one finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Tested, and the problem showed.
    Affected,
    /// Tested, and it did not show.
    Clean,
    /// Tested, the problem showed, but it does not lie in the engine.
    Seen,
    /// At or above the release with the fix.
    Fixed,
    /// At or above the release whose defaults avoid it.
    Mitigated,
    /// Untested, but inside the range the problem is known to span.
    InRange,
    /// Nothing is known.
    Unknown,
}

impl State {
    /// Every state, in the order of the legend.
    pub const ALL: [State; 7] = [
        State::Affected,
        State::InRange,
        State::Seen,
        State::Mitigated,
        State::Fixed,
        State::Clean,
        State::Unknown,
    ];

    /// The spelling used in URLs, CSS classes and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Affected => "affected",
            State::Clean => "clean",
            State::Seen => "seen",
            State::Fixed => "fixed",
            State::Mitigated => "mitigated",
            State::InRange => "in-range",
            State::Unknown => "unknown",
        }
    }

    /// The words shown to readers.
    pub fn label(self) -> &'static str {
        match self {
            State::Affected => "affected",
            State::Clean => "clean",
            State::Seen => "seen",
            State::Fixed => "fixed",
            State::Mitigated => "mitigated",
            State::InRange => "in range",
            State::Unknown => "unknown",
        }
    }

    /// True for states that come from a test rather than an inference.
    pub fn is_tested(self) -> bool {
        matches!(self, State::Affected | State::Clean | State::Seen)
    }
}

/// The state of `version` under one engine entry of a finding.
pub fn state_of(entry: &EngineEntry, version: &Version) -> State {
    if entry.affected.contains(version) {
        return State::Affected;
    }
    if entry.clean.contains(version) {
        return State::Clean;
    }
    if entry.seen.contains(version) {
        return State::Seen;
    }
    if entry.fixed_in.as_ref().is_some_and(|f| version >= f) {
        return State::Fixed;
    }
    if entry.mitigated_in.as_ref().is_some_and(|m| version >= m) {
        return State::Mitigated;
    }
    let lowest = entry
        .introduced_in
        .as_ref()
        .or_else(|| entry.affected.iter().min());
    if let Some(low) = lowest {
        let below_fix = entry.fixed_in.as_ref().is_none_or(|f| version < f);
        if version >= low && below_fix {
            return State::InRange;
        }
    }
    State::Unknown
}

/// Where a version's state comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// The record lists the version (affected, clean, seen).
    Record,
    /// A run on the version showed the finding's symptom, or showed it
    /// absent, where the record leaves the version untested.
    Observed,
    /// Worked out from the record's bounds (fixed, mitigated, in range), or
    /// nothing is known (unknown).
    Inferred,
}

impl Source {
    /// The spelling of JSON: `record`, `observed`, `inferred`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Record => "record",
            Source::Observed => "observed",
            Source::Inferred => "inferred",
        }
    }
}

/// What the runs on one version showed of a finding's symptoms: whether
/// one showed it, and whether one showed it absent (acknowledged runs left
/// out).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seen {
    /// A run on the version showed a symptom.
    pub shown: bool,
    /// A run on the version showed a symptom absent.
    pub absent: bool,
}

/// Where a run's observation and the record disagree about a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conflict {
    /// A symptom shown on a version the record calls clean, fixed or
    /// mitigated (the state it calls it): an error.
    ShownWhere(State),
    /// A symptom absent on a version the record lists as affected: a
    /// warning.
    AbsentWhereAffected,
}

/// The state of `version` under `entry`, with what the runs on it showed:
/// the record's listings come first; a version it leaves untested (in
/// range or unknown) becomes affected when a run shows a symptom there and
/// clean when one shows it absent (a run that shows it wins over one that
/// does not: the problem exists on that version); every other state is the
/// record's. Returns the state, its source, and the conflict between the
/// runs and the record, if any.
pub fn resolve(
    entry: &EngineEntry,
    version: &Version,
    seen: Seen,
) -> (State, Source, Option<Conflict>) {
    let state = state_of(entry, version);
    let conflict = match state {
        State::Clean | State::Fixed | State::Mitigated if seen.shown => {
            Some(Conflict::ShownWhere(state))
        }
        State::Affected if seen.absent => Some(Conflict::AbsentWhereAffected),
        _ => None,
    };
    let (state, source) = match state {
        State::Affected | State::Clean | State::Seen => (state, Source::Record),
        State::InRange | State::Unknown if seen.shown => (State::Affected, Source::Observed),
        State::InRange | State::Unknown if seen.absent => (State::Clean, Source::Observed),
        _ => (state, Source::Inferred),
    };
    (state, source, conflict)
}

/// For each of `versions` (distinct), how many of `entries` give it a
/// state other than [`State::Unknown`]: the count [`state_of`] gives for
/// every pair, in time linear in the versions the entries list (after
/// sorting), not in their product, which for one finding that lists 10^5
/// versions is 10^10.
///
/// An entry knows a version when it lists it, or when the version is at or
/// above the lowest of its bounds: `introduced_in` (else its lowest
/// affected version) starts the range, `fixed_in` and `mitigated_in` the
/// fixed and mitigated states that follow it.
pub fn known_counts(entries: &[&EngineEntry], versions: &[&Version]) -> Vec<usize> {
    let mut counts = vec![0usize; versions.len()];
    // foldhash: SipHash took longer than the rest of this function.
    let index: std::collections::HashMap<&Version, usize, foldhash::fast::FixedState> =
        versions.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    // Where each entry's own bound starts, if it has one.
    fn lowest(e: &EngineEntry) -> Option<&Version> {
        let start = e.introduced_in.as_ref().or_else(|| e.affected.iter().min());
        [start, e.fixed_in.as_ref(), e.mitigated_in.as_ref()]
            .into_iter()
            .flatten()
            .min()
    }
    // The versions at or above each bound, by walking both in order.
    let mut bounds: Vec<&Version> = entries.iter().filter_map(|e| lowest(e)).collect();
    bounds.sort_unstable();
    let mut order: Vec<usize> = (0..versions.len()).collect();
    order.sort_unstable_by(|a, b| versions[*a].cmp(versions[*b]));
    let mut below = 0;
    for i in order {
        while below < bounds.len() && bounds[below] <= versions[i] {
            below += 1;
        }
        counts[i] = below;
    }
    // The listed versions below the entry's bound, each once per entry.
    let mut counted_for = vec![usize::MAX; versions.len()];
    for (n, e) in entries.iter().enumerate() {
        let bound = lowest(e);
        for v in e.affected.iter().chain(&e.clean).chain(&e.seen) {
            let Some(&i) = index.get(v) else { continue };
            if counted_for[i] != n && bound.is_none_or(|b| v < b) {
                counted_for[i] = n;
                counts[i] += 1;
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    fn entry(
        affected: &[&str],
        clean: &[&str],
        introduced: Option<&str>,
        fixed: Option<&str>,
        mitigated: Option<&str>,
    ) -> EngineEntry {
        EngineEntry {
            engine: "vllm".into(),
            affected: affected.iter().map(|s| v(s)).collect(),
            clean: clean.iter().map(|s| v(s)).collect(),
            seen: Vec::new(),
            introduced_in: introduced.map(v),
            fixed_in: fixed.map(v),
            mitigated_in: mitigated.map(v),
            note: None,
        }
    }

    #[test]
    fn state_table() {
        // The n-gram finding: affected on 0.28 and 0.30, fixed in 0.32.0.
        let ngram = entry(&["0.28", "0.30"], &[], None, Some("0.32.0"), None);
        // The MTP finding: affected on 0.28, default runner clean since 0.30.
        let mtp = entry(&["0.28", "0.29"], &[], None, None, Some("0.30"));
        // An open bug seen on 0.5.20 only.
        let open = entry(&["0.5.20"], &[], None, None, None);
        // A bug introduced in 1.3.0rc29 with a clean check on 1.3.0rc3.
        let rc = entry(&[], &["1.3.0rc3"], Some("1.3.0rc29"), Some("1.4"), None);
        let cases: &[(&EngineEntry, &str, State)] = &[
            (&ngram, "0.28", State::Affected),
            (&ngram, "0.28.0", State::Affected),
            (&ngram, "0.29", State::InRange),
            (&ngram, "0.30", State::Affected),
            (&ngram, "0.31", State::InRange),
            (&ngram, "0.32.0rc1", State::InRange),
            (&ngram, "0.32.0", State::Fixed),
            (&ngram, "0.32", State::Fixed),
            (&ngram, "0.32.1", State::Fixed),
            (&ngram, "0.27.1", State::Unknown),
            (&mtp, "0.28", State::Affected),
            (&mtp, "0.30", State::Mitigated),
            (&mtp, "0.32.0", State::Mitigated),
            (&mtp, "0.27.1", State::Unknown),
            (&open, "0.5.20", State::Affected),
            (&open, "0.5.21", State::InRange),
            (&open, "0.5.2", State::Unknown),
            (&rc, "1.3.0rc3", State::Clean),
            (&rc, "1.3.0rc29", State::InRange),
            (&rc, "1.3.0", State::InRange),
            (&rc, "1.4.0", State::Fixed),
            (&rc, "1.2", State::Unknown),
        ];
        for (e, ver, want) in cases {
            assert_eq!(state_of(e, &v(ver)), *want, "version {ver}");
        }
    }

    #[test]
    fn seen_versions_are_tested_neutral_and_imply_no_range() {
        // A grader failed a correct answer while 0.27.1 ran.
        let mut grader = entry(&[], &[], None, None, None);
        grader.seen = vec![v("0.27.1")];
        assert_eq!(state_of(&grader, &v("0.27.1")), State::Seen);
        assert_eq!(state_of(&grader, &v("0.28")), State::Unknown, "no range");
        assert_eq!(state_of(&grader, &v("0.27")), State::Unknown);
        assert!(State::Seen.is_tested());
        // Beside a fault: seen is listed, so it wins over the range and the fix.
        let mut mixed = entry(&["0.28"], &[], None, Some("0.32.0"), None);
        mixed.seen = vec![v("0.30"), v("0.32.1")];
        assert_eq!(state_of(&mixed, &v("0.29")), State::InRange);
        assert_eq!(state_of(&mixed, &v("0.30")), State::Seen);
        assert_eq!(state_of(&mixed, &v("0.32.1")), State::Seen);
        assert_eq!(state_of(&mixed, &v("0.32.0")), State::Fixed);
    }

    #[test]
    fn listed_states_win_over_inferred_ones() {
        // A regression listed as affected above fixed_in is reported as affected.
        let e = entry(&["0.28", "0.33"], &["0.32.0"], None, Some("0.32.0"), None);
        assert_eq!(state_of(&e, &v("0.33")), State::Affected);
        assert_eq!(state_of(&e, &v("0.32.0")), State::Clean);
        assert!(State::Affected.is_tested() && !State::InRange.is_tested());
    }

    #[test]
    fn observations_test_untested_versions_and_conflict_with_listings() {
        // F8: affected on 0.28, nothing fixed; F2: fixed in 0.32.0.
        let f8 = entry(&["0.28"], &["0.31"], None, None, None);
        let shown = Seen {
            shown: true,
            absent: false,
        };
        let absent = Seen {
            shown: false,
            absent: true,
        };
        let both = Seen {
            shown: true,
            absent: true,
        };
        let none = Seen::default();
        let r = |e: &EngineEntry, ver: &str, s: Seen| resolve(e, &v(ver), s);
        // In range and unknown versions become tested by what runs show.
        assert_eq!(
            r(&f8, "0.30", shown),
            (State::Affected, Source::Observed, None)
        );
        assert_eq!(
            r(&f8, "0.33", shown),
            (State::Affected, Source::Observed, None)
        );
        assert_eq!(
            r(&f8, "0.30", absent),
            (State::Clean, Source::Observed, None)
        );
        assert_eq!(
            r(&f8, "0.27", absent),
            (State::Clean, Source::Observed, None)
        );
        assert_eq!(
            r(&f8, "0.30", both),
            (State::Affected, Source::Observed, None)
        );
        assert_eq!(
            r(&f8, "0.30", none),
            (State::InRange, Source::Inferred, None)
        );
        assert_eq!(
            r(&f8, "0.27", none),
            (State::Unknown, Source::Inferred, None)
        );
        // Listings stay, and say where runs disagree.
        assert_eq!(
            r(&f8, "0.28", shown),
            (State::Affected, Source::Record, None)
        );
        assert_eq!(
            r(&f8, "0.28", absent),
            (
                State::Affected,
                Source::Record,
                Some(Conflict::AbsentWhereAffected)
            )
        );
        assert_eq!(
            r(&f8, "0.31", shown),
            (
                State::Clean,
                Source::Record,
                Some(Conflict::ShownWhere(State::Clean))
            )
        );
        let f2 = entry(&["0.28"], &[], None, Some("0.32.0"), Some("0.31"));
        assert_eq!(
            r(&f2, "0.32.1", shown),
            (
                State::Fixed,
                Source::Inferred,
                Some(Conflict::ShownWhere(State::Fixed))
            )
        );
        assert_eq!(
            r(&f2, "0.31", shown),
            (
                State::Mitigated,
                Source::Inferred,
                Some(Conflict::ShownWhere(State::Mitigated))
            )
        );
        assert_eq!(
            r(&f2, "0.32.1", absent),
            (State::Fixed, Source::Inferred, None)
        );
    }

    #[test]
    fn known_counts_agree_with_state_of() {
        // Entries and versions from a small pool, picked by a fixed
        // sequence: every mix of lists and bounds, and versions spelt two
        // ways ("0.2" and "0.2.0").
        let pool = ["0.1", "0.2", "0.2.0", "0.3", "0.4rc1", "0.4", "0.5", "1.0"];
        let seed = std::cell::Cell::new(7u64);
        let next = |n: usize| {
            let s = seed
                .get()
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed.set(s);
            (s >> 33) as usize % n
        };
        let pick = |k: usize| -> Vec<Version> {
            (0..next(k)).map(|_| v(pool[next(pool.len())])).collect()
        };
        for _ in 0..300 {
            let entries: Vec<EngineEntry> = (0..next(5))
                .map(|_| EngineEntry {
                    engine: "vllm".into(),
                    affected: pick(4),
                    clean: pick(3),
                    seen: pick(2),
                    introduced_in: pick(2).pop(),
                    fixed_in: pick(2).pop(),
                    mitigated_in: pick(2).pop(),
                    note: None,
                })
                .collect();
            let mut versions: Vec<Version> = Vec::new();
            for s in pool {
                let s = v(s);
                if !versions.contains(&s) {
                    versions.push(s);
                }
            }
            let refs: Vec<&EngineEntry> = entries.iter().collect();
            let naive: Vec<usize> = versions
                .iter()
                .map(|ver| {
                    refs.iter()
                        .filter(|e| state_of(e, ver) != State::Unknown)
                        .count()
                })
                .collect();
            let vrefs: Vec<&Version> = versions.iter().collect();
            assert_eq!(known_counts(&refs, &vrefs), naive, "{entries:?}");
        }
    }
}
