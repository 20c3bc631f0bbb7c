//! The change between reports of one workload that a thread (or a paste)
//! holds: the reports set side by side as `findings compare --from-issue`
//! sets them (`crate::compare`: workloads matched in its one place, each
//! metric's change and its noise), so that the comment says a change in
//! the words `compare` says it in.
//!
//! A side is an engine version where the reports ran two or more (the
//! reports of one version together, their measurements of one workload
//! repeats), else a report. The baseline is the version an issue names as
//! upgraded from, else the earliest version of one engine, else the first
//! report; the others follow, the earlier first. Each side carries what
//! the lint's checks flag of its reports, as `compare` marks it.
//!
//! Takes the run the reports make and the lint's verdicts; hands back a
//! [`Change`], or nothing where no two sides share a workload.

use crate::checks::{Outcome, Verdict, UNKNOWN_ENGINE};
use crate::compare::{self, Comparison, Options, Side};
use crate::record::Run;
use crate::version::Version;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The reports of one workload set side by side.
#[derive(Debug, Clone)]
pub struct Change {
    /// As `compare` makes it: the baseline first.
    pub comparison: Comparison,
    /// The setups (reports) of each side, in the comparison's order.
    pub sides: Vec<Vec<usize>>,
}

impl Change {
    /// The verdict, as `findings compare` writes it first: its words, then
    /// the sides the checks flag.
    pub fn verdict(&self) -> String {
        compare::report::verdict(&self.comparison)
    }
}

/// The most sides a comment sets side by side: a thread of more reports
/// (a sweep pasted whole) is compared with `findings compare
/// --from-issue`, whose tables are made for it.
pub const MAX_SIDES: usize = 6;

/// The most reports a comment looks for a change among: a thread of more
/// is a sweep, which `findings compare --from-issue` sets side by side
/// (and the lint stays linear in the reports it reads).
pub const MAX_REPORTS: usize = 200;

/// The change between the reports of `run` (its setups), as [`sides`]
/// sets them; `None` where fewer than two sides, or more than
/// [`MAX_SIDES`], have figures, where the run holds more than
/// [`MAX_REPORTS`] reports, or where none shares a workload with the
/// baseline.
pub fn between(
    run: &Run,
    names: &BTreeMap<String, String>,
    outcomes: &[Outcome],
    from: Option<(&str, &str)>,
    source: &str,
) -> Option<Change> {
    if run.setups.len() > MAX_REPORTS {
        return None;
    }
    let every = compare::all_metrics();
    let (mut sides, setups): (Vec<Side>, Vec<Vec<usize>>) =
        self::sides(run, names, outcomes, from, source, &every)
            .into_iter()
            .unzip();
    if !(2..=MAX_SIDES).contains(&sides.len()) {
        return None;
    }
    compare::unique_names(&mut sides);
    let metrics = compare::keep_metrics(&[], &mut sides, &every);
    let comparison = compare::compare(&sides, &metrics, Options::default());
    (!comparison.is_empty()).then_some(Change {
        comparison,
        sides: setups,
    })
}

/// The reports of `run` (an issue's, or a paste's) as sides of a
/// comparison on `metrics`, each with the setups it holds: one per engine
/// version where the reports ran two or more, else one per report, named
/// by the engines' names (`names`, by id) and where the report was found
/// (`vLLM 0.30 (comment 2)`), each measurement read from `source`, each
/// side flagged by `outcomes` (the checks' verdicts on the run); the
/// baseline first (`from`: the version an issue names as upgraded from,
/// by engine id). `findings compare --from-issue` sets an issue's reports
/// side by side with it, so the comment's change is the one it prints.
pub fn sides(
    run: &Run,
    names: &BTreeMap<String, String>,
    outcomes: &[Outcome],
    from: Option<(&str, &str)>,
    source: &str,
    metrics: &[compare::Metric],
) -> Vec<(Side, Vec<usize>)> {
    let mut each = compare::sides_of_run(run, "", metrics, names);
    for o in outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Flagged | Verdict::Acknowledged))
    {
        for side in &mut each {
            side.flag(o.check, &o.message, &o.setups);
        }
    }
    for side in &mut each {
        name_by_engine(side, names, source);
    }
    let parse = |v: &Option<String>| v.as_deref().and_then(|v| Version::parse(v).ok());
    // One side per engine version, where the reports ran two or more;
    // each side found by its key in a map, so that thousands of reports
    // are set in one pass.
    let key = |s: &Side| (s.engine.clone(), parse(&s.version));
    let keys: HashSet<(Option<String>, Option<Version>)> = each.iter().map(key).collect();
    let by_version = keys.len() > 1 && keys.iter().all(|(_, v)| v.is_some());
    let mut sides: Vec<(Side, Vec<usize>)> = Vec::new();
    let mut at: HashMap<(Option<String>, Option<Version>), usize> = HashMap::new();
    for s in each {
        let setup = s.setup.unwrap_or_default();
        if !by_version {
            sides.push((s, vec![setup]));
            continue;
        }
        let k = key(&s);
        if let Some(&i) = at.get(&k) {
            let (side, setups) = &mut sides[i];
            side.measurements.extend(s.measurements);
            for f in s.flags {
                if !side.flags.contains(&f) {
                    side.flags.push(f);
                }
            }
            setups.push(setup);
            continue;
        }
        at.insert(k, sides.len());
        let mut side = s;
        side.name = version_name(&side);
        sides.push((side, vec![setup]));
    }
    // The baseline: the version upgraded from, else the earliest of one
    // engine; the rest, the earlier first (a sort that keeps the thread's
    // order where versions do not say).
    let one_engine = sides.iter().all(|(s, _)| s.engine == sides[0].0.engine);
    if by_version && one_engine {
        sides.sort_by_key(|a| parse(&a.0.version));
    }
    if let Some((engine, version)) = from {
        let v = Version::parse(version).ok();
        if let Some(k) = sides.iter().position(|(s, _)| {
            s.engine.as_deref() == Some(engine) && parse(&s.version) == v && v.is_some()
        }) {
            let base = sides.remove(k);
            sides.insert(0, base);
        }
    }
    sides
}

/// A side of one engine version: `vLLM 0.9.2`, or the report where the
/// engine is not known.
fn version_name(side: &Side) -> String {
    let engine = side
        .engine_name
        .clone()
        .or_else(|| side.engine.clone())
        .filter(|e| e != UNKNOWN_ENGINE && !e.is_empty());
    match (engine, &side.version) {
        (Some(e), Some(v)) => format!("{e} {v}"),
        (Some(e), None) => e,
        (None, _) => side.name.clone(),
    }
}

/// Names `side` by its engine (as the site spells it, `names` by id) and
/// version, its own name after them in brackets (`vLLM 0.30.0 (report 2)`),
/// where the report named an engine; and sources each of its measurements
/// by `source`. What `lint` and `compare` both say of a report's side.
pub fn name_by_engine(side: &mut Side, names: &BTreeMap<String, String>, source: &str) {
    let own = std::mem::take(&mut side.name);
    side.name = match side.engine.as_deref() {
        Some(id) if id != UNKNOWN_ENGINE && !id.is_empty() => {
            let engine = names.get(id).map_or(id, String::as_str);
            match &side.version {
                Some(v) => format!("{engine} {v} ({own})"),
                None => format!("{engine} ({own})"),
            }
        }
        _ => own,
    };
    for m in &mut side.measurements {
        m.source = source.to_string();
    }
}
