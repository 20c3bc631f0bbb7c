//! Which engines a finding is about: the one rule that decides whether a
//! finding is cited for a run, a comparison or a pasted report on an
//! engine, so that another engine's finding is never offered as the
//! reason (`check`'s warnings, run pages, `compare`, `lint`).

use super::EngineEntry;

/// The engines a finding's record says its problem lies in, by id, each
/// once, in the order of its entries: what decides whether a finding is
/// cited for a run or a report on an engine (never another engine's
/// finding as the reason). In order:
///
/// 1. the engines whose entries say the problem showed in the engine
///    (`affected`, `introduced_in`, `fixed_in`, `mitigated_in`);
/// 2. where none does, none when an entry says it was `seen` (it lies in a
///    client, a grader, a way of measuring: no engine in particular);
/// 3. else the engines whose entries name no version at all (a note on an
///    engine whose versions nobody knows: NInfer's admission cap);
/// 4. else none: entries that only list clean versions compare, they do
///    not say where the problem is.
///
/// Empty means the finding is about no engine in particular. What the
/// site's runs observed adds to this where they are known (`lint`,
/// `Model::cites`).
pub fn engines_about(entries: &[EngineEntry]) -> Vec<&str> {
    let claims = |e: &&EngineEntry| {
        !e.affected.is_empty()
            || e.introduced_in.is_some()
            || e.fixed_in.is_some()
            || e.mitigated_in.is_some()
    };
    let mut out: Vec<&str> = if entries.iter().any(|e| claims(&e)) {
        entries
            .iter()
            .filter(claims)
            .map(|e| e.engine.as_str())
            .collect()
    } else if entries.iter().any(|e| !e.seen.is_empty()) {
        Vec::new()
    } else {
        entries
            .iter()
            .filter(|e| e.versions().next().is_none())
            .map(|e| e.engine.as_str())
            .collect()
    };
    let mut seen = std::collections::HashSet::new();
    out.retain(|e| seen.insert(*e));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::Version;

    fn entry(engine: &str, affected: &[&str], clean: &[&str], seen: &[&str]) -> EngineEntry {
        let vs = |xs: &[&str]| xs.iter().map(|x| Version::parse(x).unwrap()).collect();
        EngineEntry {
            engine: engine.into(),
            affected: vs(affected),
            clean: vs(clean),
            seen: vs(seen),
            introduced_in: None,
            fixed_in: None,
            mitigated_in: None,
            note: None,
        }
    }

    #[test]
    fn a_finding_is_about_the_engines_its_record_says_the_problem_lies_in() {
        // F5: SGLang affected; vLLM and TensorRT-LLM only compared (notes).
        let f5 = [
            entry("sglang", &["0.5.20"], &[], &[]),
            entry("vllm", &[], &[], &[]),
            entry("tensorrt-llm", &[], &[], &[]),
        ];
        assert_eq!(engines_about(&f5), ["sglang"]);
        // F15: NInfer's versions nobody knows; vLLM tested clean.
        let f15 = [
            entry("ninfer", &[], &[], &[]),
            entry("vllm", &[], &["0.27.1"], &[]),
        ];
        assert_eq!(engines_about(&f15), ["ninfer"]);
        // A chat template's problem, seen on vLLM, noted on NInfer: no
        // engine in particular.
        let template = [
            entry("vllm", &[], &[], &["0.27.1"]),
            entry("ninfer", &[], &[], &[]),
        ];
        assert!(engines_about(&template).is_empty());
        // Only clean versions: it says nothing of where the problem is.
        assert!(engines_about(&[entry("vllm", &[], &["0.30"], &[])]).is_empty());
        // A fix names its engine, once.
        let mut fixed = entry("vllm", &[], &[], &[]);
        fixed.fixed_in = Some(Version::parse("0.32.0").unwrap());
        assert_eq!(engines_about(&[fixed.clone(), fixed]), ["vllm"]);
    }
}
