//! `one-client` (F4): engines compared under one client and one endpoint.
//! The same SGLang server ran 1.7 times faster under its own benchmark
//! client than under `vllm bench serve`: a comparison of engines holds only
//! when every engine met the same client at the same endpoint.

use super::evidence::{Evidence, Place, Value};
use super::{Check, Decided, Verdict, UNKNOWN_ENGINE};

pub(super) const CHECK: Check = Check {
    name: "one-client",
    reads: "the client of each result (the tool that wrote the file, a `client` column, or the run's `client`) and the endpoint it called (an `endpoint` fact or column, or the run's `endpoint`), in a run whose setups are of two or more engines",
    flags: "a run that compares engines under more than one client, or at more than one endpoint; cannot tell when the run records no client or no endpoint",
    unknown: "which client measured each engine, and at which endpoint",
    flags_what_is_missing: false,
    decide,
};

fn decide(ev: &Evidence<'_>) -> Option<Decided> {
    // Setups whose files do not say which engine served them compare no
    // engines that are known.
    let engines: Vec<&str> = ev
        .engines()
        .into_iter()
        .filter(|e| *e != UNKNOWN_ENGINE)
        .collect();
    if engines.len() < 2 {
        return None;
    }
    // The clients and endpoints of the engines compared: not those of
    // setups of no named engine.
    let known = |v: &Value| {
        v.setup
            .is_none_or(|i| ev.engine_of(Some(i)) != Some(UNKNOWN_ENGINE))
    };
    let distinct = |name: &str| -> Vec<String> {
        let mut seen = std::collections::BTreeSet::new();
        ev.values(name)
            .into_iter()
            .filter(|v| known(v) && !v.text.is_empty() && seen.insert(v.text.clone()))
            .map(|v| v.text)
            .collect()
    };
    let clients = distinct("client");
    let endpoints = distinct("endpoint");
    let second = |name: &str, list: &[String]| {
        ev.values(name)
            .into_iter()
            .find(|v| known(v) && list.get(1) == Some(&v.text))
            .map_or(Place::Run, |v| v.at)
    };
    let compared = engines.len();
    Some(if clients.len() > 1 {
        (
            Verdict::Flagged,
            format!(
                "the {compared} engines were measured under {} clients ({}): engines compare only under one client and one endpoint",
                clients.len(),
                clients.join("; ")
            ),
            second("client", &clients),
            Vec::new(),
        )
    } else if endpoints.len() > 1 {
        (
            Verdict::Flagged,
            format!(
                "the {compared} engines were measured at {} endpoints ({}): engines compare only under one client and one endpoint",
                endpoints.len(),
                endpoints.join("; ")
            ),
            second("endpoint", &endpoints),
            Vec::new(),
        )
    } else if clients.is_empty() {
        (
            Verdict::CannotTell,
            "cannot tell: the run records no client".to_string(),
            Place::Run,
            Vec::new(),
        )
    } else if endpoints.is_empty() {
        (
            Verdict::CannotTell,
            format!(
                "cannot tell: the run records no endpoint (its client: {})",
                clients[0]
            ),
            Place::Run,
            Vec::new(),
        )
    } else {
        (
            Verdict::Passed,
            format!(
                "the {compared} engines were measured under one client ({}) at one endpoint ({})",
                clients[0], endpoints[0]
            ),
            Place::Run,
            Vec::new(),
        )
    })
}
