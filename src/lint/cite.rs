//! Which findings a lint cites, and what it leads with.
//!
//! A finding is cited for a report only when it is about the report's
//! engine, or about no engine in particular: a vLLM report that lost a
//! request is not answered with NInfer's admission cap, nor an SGLang one
//! with TensorRT-LLM's gauge. Which engines a finding is about is
//! [`crate::record::engines_about`]'s rule, with the engines the site's
//! runs observed it on. Where a report's engine is not known, nothing is
//! left out.
//!
//! Where a report's version is known, the findings that apply to it come
//! first, as `findings audit` lists them ([`crate::audit::audit`]: the
//! same states, in the same order): [`AtVersion`].

use super::stated::{whence_words, Said, Whence};
use super::LintSetup;
use crate::audit::source::{Catalog, CatalogFinding};
use crate::audit::{self, FailOn, Pin};
use crate::checks::UNKNOWN_ENGINE;
use crate::state::State;
use crate::version::Version;

/// Whether `f` is about `engine` (its id): its record says the problem
/// lies there ([`crate::record::engines_about`], the one rule the site's
/// pages, `check` and `compare` follow too), or the site's runs observed
/// it there.
pub fn about(f: &CatalogFinding, engine: &str) -> bool {
    f.observed
        .iter()
        .any(|(e, _, s)| e == engine && matches!(s, State::Affected | State::Seen))
        || crate::record::engines_about(&f.entries).contains(&engine)
}

/// Whether `f` says its problem of no engine.
pub fn about_none(f: &CatalogFinding) -> bool {
    crate::record::engines_about(&f.entries).is_empty()
        && !f
            .observed
            .iter()
            .any(|(_, _, s)| matches!(s, State::Affected | State::Seen))
}

/// Whether `f` is cited for reports on `engines`: about one of them, or
/// about none; always where one engine is not known.
pub fn cites<'e>(f: &CatalogFinding, mut engines: impl Iterator<Item = &'e str>) -> bool {
    let mut any = false;
    let mut hit = false;
    for e in engines.by_ref() {
        any = true;
        if e == UNKNOWN_ENGINE || about(f, e) {
            hit = true;
            break;
        }
    }
    hit || !any || about_none(f)
}

/// The findings that apply at one version the reports ran on.
#[derive(Debug, Clone)]
pub struct AtVersion {
    /// The engine's id.
    pub engine: String,
    /// Its name on the site.
    pub name: String,
    /// The version, as the reports' source wrote it.
    pub version: String,
    /// Where the engine was read, for the first report on this version.
    pub engine_from: Option<Whence>,
    /// Where the version was read.
    pub version_from: Option<Whence>,
    /// Each finding that applies (affected, in range, seen, mitigated),
    /// with its state there, most severe first, as `findings audit` lists
    /// them.
    pub hits: Vec<(State, CatalogFinding)>,
    /// The findings with an entry for the engine that say nothing to act
    /// on at this version (fixed, clean, unknown).
    pub rest: usize,
    /// Whether the title alone names it: no report ran it.
    pub titled: bool,
}

impl AtVersion {
    /// "vLLM 0.30.0".
    pub fn head(&self) -> String {
        format!("{} {}", self.name, self.version)
    }

    /// Where the engine and version were read, what was read written by
    /// `code`: "vLLM 0.30.0, both from `vLLM Version: 0.30.0` in the issue
    /// body".
    pub fn whence(&self, code: &dyn Fn(&str) -> String) -> String {
        whence_words(
            &self.name,
            self.version_from
                .as_ref()
                .map(|w| (self.version.as_str(), w)),
            self.engine_from.as_ref(),
            code,
        )
    }

    /// Whether setup `s` ran this version.
    pub fn ran(&self, s: &LintSetup) -> bool {
        s.engine == self.engine
            && s.version
                .as_deref()
                .is_some_and(|v| Version::parse(v).ok() == Version::parse(&self.version).ok())
    }

    /// How many findings apply in `state`.
    pub fn count(&self, state: State) -> usize {
        self.hits.iter().filter(|(s, _)| *s == state).count()
    }

    /// "3 findings affect it; 4 in range, untested; 1 mitigated", "no
    /// finding lists it as affected, in range, seen or mitigated" (never
    /// "applies": a finding cited for what a report cannot tell would
    /// contradict it): the listing in a line.
    pub fn verdict(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        for (state, one, many) in [
            (State::Affected, "affects it", "affect it"),
            (State::InRange, "in range, untested", "in range, untested"),
            (State::Seen, "seen on it", "seen on it"),
            (State::Mitigated, "mitigated", "mitigated"),
        ] {
            let n = self.count(state);
            if n == 0 {
                continue;
            }
            let words = if n == 1 { one } else { many };
            parts.push(match (parts.is_empty(), n) {
                (true, 1) => format!("1 finding {words}"),
                (true, n) => format!("{n} findings {words}"),
                (false, n) => format!("{n} {words}"),
            });
        }
        if parts.is_empty() {
            "no finding lists it as affected, in range, seen or mitigated".into()
        } else {
            parts.join("; ")
        }
    }
}

/// The findings that apply at each engine version `setups` ran on, then
/// at each version an issue's title names (`named`: the engine's id and
/// the version, with where it was read), each once in that order, as
/// `findings audit` lists them; an engine the site does not have, or a
/// version that does not parse, has none.
pub(super) fn at_versions(
    catalog: &Catalog,
    setups: &[&LintSetup],
    named: &[(String, Said)],
) -> Vec<AtVersion> {
    let mut out: Vec<AtVersion> = Vec::new();
    // Each version once, found in a set: a thread of thousands of reports
    // is listed in one pass.
    let mut seen: std::collections::HashSet<(String, Version)> = std::collections::HashSet::new();
    // Each version: its engine, the version, where each was read, and
    // whether the title alone names it.
    let ran = setups.iter().filter_map(|s| {
        Some((
            s.engine.clone(),
            s.version.clone()?,
            s.engine_from.clone(),
            s.version_from.clone(),
            false,
        ))
    });
    let title = named.iter().map(|(engine, v)| {
        // The engine as the first report of it says, else unsaid.
        let engine_from = setups
            .iter()
            .find(|s| s.engine == *engine)
            .and_then(|s| s.engine_from.clone());
        (
            engine.clone(),
            v.value.clone(),
            engine_from,
            Some(v.whence.clone()),
            true,
        )
    });
    for (engine, version, engine_from, version_from, titled) in ran.chain(title) {
        let (engine, version) = (&engine, &version);
        let Some(i) = catalog.engine(engine) else {
            continue;
        };
        let Ok(v) = Version::parse(version) else {
            continue;
        };
        if !seen.insert((engine.clone(), v.clone())) {
            continue;
        }
        let pin = Pin {
            engine: i,
            version: v,
            file: None,
            line: 0,
            text: format!("{engine}=={version}"),
        };
        let done = audit::audit(catalog, vec![pin], Vec::new(), Vec::new(), FailOn::InRange);
        let Some(d) = done.deployments.into_iter().next() else {
            continue;
        };
        let (hits, rest): (Vec<_>, Vec<_>) = d.hits.into_iter().partition(audit::Hit::applies);
        out.push(AtVersion {
            engine: engine.clone(),
            name: catalog.engines[i].name.clone(),
            version: version.clone(),
            engine_from,
            version_from,
            hits: hits
                .into_iter()
                .map(|h| (h.state, catalog.findings[h.finding].clone()))
                .collect(),
            rest: rest.len(),
            titled,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::EngineEntry;

    fn finding(entries: Vec<EngineEntry>) -> CatalogFinding {
        CatalogFinding {
            id: 1,
            title: "t".into(),
            status: "open".into(),
            advice: "a".into(),
            what_to_do: String::new(),
            url: "u".into(),
            entries,
            checks: Vec::new(),
            symptoms: Vec::new(),
            observed: Vec::new(),
        }
    }

    fn entry(engine: &str, affected: &[&str], clean: &[&str]) -> EngineEntry {
        EngineEntry {
            engine: engine.into(),
            affected: affected
                .iter()
                .map(|v| Version::parse(v).unwrap())
                .collect(),
            clean: clean.iter().map(|v| Version::parse(v).unwrap()).collect(),
            seen: Vec::new(),
            introduced_in: None,
            fixed_in: None,
            mitigated_in: None,
            note: None,
        }
    }

    #[test]
    fn an_entry_that_only_compares_is_not_about_its_engine() {
        // F15 as the bundled site has it: NInfer's (a note), vLLM clean.
        let f15 = finding(vec![
            entry("ninfer", &[], &[]),
            entry("vllm", &[], &["0.27.1"]),
        ]);
        assert!(!about(&f15, "vllm"));
        assert!(about(&f15, "ninfer"));
        assert!(!cites(&f15, ["vllm"].into_iter()));
        assert!(!about_none(&f15));
        // No entry: about no engine, cited everywhere.
        assert!(about_none(&finding(Vec::new())));
        assert!(cites(&finding(Vec::new()), ["sglang"].into_iter()));
        // F10: TensorRT-LLM affected, vLLM a note.
        let f10 = finding(vec![
            entry("tensorrt-llm", &["1.3.0rc29"], &[]),
            entry("vllm", &[], &[]),
        ]);
        assert!(about(&f10, "tensorrt-llm"));
        assert!(!cites(&f10, ["vllm"].into_iter()));
        assert!(cites(&f10, ["sglang", "tensorrt-llm"].into_iter()));
        assert!(cites(&f10, [UNKNOWN_ENGINE].into_iter()));
        // What the site's runs observed counts.
        let mut seen = f15.clone();
        seen.observed.push((
            "vllm".into(),
            Version::parse("0.30").unwrap(),
            State::Affected,
        ));
        assert!(about(&seen, "vllm"));
    }
}
