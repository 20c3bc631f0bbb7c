//! `concurrency-achieved` (F5, F9): a run that asked for a concurrency
//! records how many requests the server actually ran at once. SGLang
//! lowered its running limit to one request for a hybrid model while still
//! reporting the limit it was given; TensorRT-LLM's running gauge counts
//! requests that wait for memory. Either way a figure "at concurrency 32"
//! may be of fewer requests.

use super::evidence::{figure, Evidence, Place, Value};
use super::{Check, Decided, Verdict};
use std::collections::HashMap;

pub(super) const CHECK: Check = Check {
    name: "concurrency-achieved",
    reads: "the concurrency asked for (`max_concurrency`) and the most requests that ran at once: the client's count of requests streaming at once (`max_streaming`) where the run has it, else the server's running gauge (`max_running`); and SGLang's running limit from its log (`running_limit`)",
    flags: "a run whose server ran fewer requests at once than were asked for, or set a running limit below it; cannot tell when the run records no count of the requests run, or only TensorRT-LLM's running gauge, which counts waiting requests as running",
    unknown: "how many requests the server ran at once",
    flags_what_is_missing: false,
    decide,
};

/// How one case fared.
/// Each with the setup it is about, where known.
enum Said {
    Fewer(String, Place, Option<usize>),
    Unknown(String, Option<usize>),
    Reached(String, Option<usize>),
}

/// One case to decide: a row of a table that gives both what was asked
/// and what ran, or a setup of the run (its result files, or the run as a
/// whole).
struct Case {
    who: String,
    setup: Option<usize>,
    want: f64,
    limit: Option<(f64, Place)>,
    ran: Option<(f64, Place, bool)>,
    trt: bool,
}

fn decide(ev: &Evidence<'_>) -> Option<Decided> {
    let finite = |name: &str| -> Vec<Value> {
        ev.values(name)
            .into_iter()
            .filter(|v| v.number.is_some_and(f64::is_finite))
            .collect()
    };
    let asked = finite("max_concurrency");
    if asked.is_empty() {
        return None;
    }
    let (limit, streaming, running) = (
        finite("running_limit"),
        finite("max_streaming"),
        finite("max_running"),
    );
    let most = |vs: &[&Value]| -> Option<(f64, Place)> {
        vs.iter()
            .filter_map(|v| v.number.map(|n| (n, v.at.clone())))
            .fold(None, |m, (n, at)| match m {
                Some((x, _)) if x >= n => m,
                _ => Some((n, at)),
            })
    };
    let mut cases = Vec::new();
    // A row that gives both is decided on its own.
    let mut by_row = Vec::new();
    for a in &asked {
        if let Place::Row { table, line } = &a.at {
            let same = |v: &&Value| v.at == a.at;
            let s: Vec<&Value> = streaming.iter().filter(same).collect();
            let r: Vec<&Value> = running.iter().filter(same).collect();
            let l: Vec<&Value> = limit.iter().filter(same).collect();
            if !s.is_empty() || !r.is_empty() || !l.is_empty() {
                by_row.push(a.at.clone());
                cases.push(Case {
                    who: format!("in {table}, line {line}"),
                    setup: a.setup,
                    want: a.number.unwrap_or(0.0),
                    limit: most(&l),
                    ran: most(&s)
                        .map(|(n, p)| (n, p, true))
                        .or(most(&r).map(|(n, p)| (n, p, false))),
                    trt: ev.engine_of(a.setup) == Some("tensorrt-llm"),
                });
            }
        }
    }
    // The rest, per setup (a value of no setup stands for the run).
    // Filed by setup once, so that a run of thousands of setups (a paste
    // of as many reports) is decided in one pass.
    let by_row: std::collections::HashSet<Place> = by_row.into_iter().collect();
    let rest: Vec<&Value> = asked.iter().filter(|a| !by_row.contains(&a.at)).collect();
    let mut setups: Vec<Option<usize>> = Vec::new();
    let mut want: HashMap<Option<usize>, f64> = HashMap::new();
    for v in &rest {
        if !want.contains_key(&v.setup) {
            setups.push(v.setup);
        }
        let w = want.entry(v.setup).or_insert(0.0);
        *w = v.number.map_or(*w, |n| w.max(n));
    }
    let (limit, streaming, running) = (
        Filed::new(&limit, &by_row),
        Filed::new(&streaming, &by_row),
        Filed::new(&running, &by_row),
    );
    for s in setups {
        let st = streaming.of(s);
        cases.push(Case {
            who: ev.setup_name(s),
            setup: s,
            want: want.get(&s).copied().unwrap_or(0.0),
            limit: most(&limit.of(s)),
            ran: most(&st)
                .map(|(n, p)| (n, p, true))
                .or(most(&running.of(s)).map(|(n, p)| (n, p, false))),
            trt: ev.engine_of(s) == Some("tensorrt-llm"),
        });
    }
    let said: Vec<Said> = cases.into_iter().map(judge).collect();
    let fewer: Vec<(String, Place)> = said
        .iter()
        .filter_map(|s| match s {
            Said::Fewer(m, p, _) => Some((m.clone(), p.clone())),
            _ => None,
        })
        .collect();
    let unknown: Vec<&String> = said
        .iter()
        .filter_map(|s| match s {
            Said::Unknown(m, _) => Some(m),
            _ => None,
        })
        .collect();
    let reached: Vec<&String> = said
        .iter()
        .filter_map(|s| match s {
            Said::Reached(m, _) => Some(m),
            _ => None,
        })
        .collect();
    // The setups of the cases of one kind, each once, in the run's order.
    let about = |fewer: bool, unknown: bool| -> Vec<usize> {
        let mut v: Vec<usize> = said
            .iter()
            .filter_map(|s| match s {
                Said::Fewer(_, _, i) if fewer => *i,
                Said::Unknown(_, i) if unknown => *i,
                Said::Reached(_, i) if !fewer && !unknown => *i,
                _ => None,
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    Some(if let Some((_, at)) = fewer.first() {
        let m: Vec<&str> = fewer.iter().map(|(m, _)| m.as_str()).collect();
        (
            Verdict::Flagged,
            format!(
                "{}, so figures said to be at that concurrency are of fewer requests at once",
                m.join("; ")
            ),
            at.clone(),
            about(true, false),
        )
    } else if !unknown.is_empty() {
        let m: Vec<&str> = unknown.iter().map(|s| s.as_str()).collect();
        (
            Verdict::CannotTell,
            format!("cannot tell: {}", m.join("; ")),
            Place::Run,
            about(false, true),
        )
    } else {
        let m: Vec<&str> = reached.iter().map(|s| s.as_str()).collect();
        (
            Verdict::Passed,
            m.join("; "),
            Place::Run,
            about(false, false),
        )
    })
}

/// The values of a name that no row decided, filed by setup.
struct Filed<'v> {
    all: Vec<&'v Value>,
    by_setup: HashMap<Option<usize>, Vec<usize>>,
}

impl<'v> Filed<'v> {
    fn new(values: &'v [Value], by_row: &std::collections::HashSet<Place>) -> Filed<'v> {
        let all: Vec<&Value> = values.iter().filter(|v| !by_row.contains(&v.at)).collect();
        let mut by_setup: HashMap<Option<usize>, Vec<usize>> = HashMap::new();
        for (k, v) in all.iter().enumerate() {
            by_setup.entry(v.setup).or_default().push(k);
        }
        Filed { all, by_setup }
    }

    /// Those of setup `s` and of no setup, in their order; every one for
    /// the run as a whole (`None`).
    fn of(&self, s: Option<usize>) -> Vec<&'v Value> {
        if s.is_none() {
            return self.all.clone();
        }
        let mut at: Vec<usize> = Vec::new();
        for key in [s, None] {
            at.extend(self.by_setup.get(&key).into_iter().flatten());
        }
        at.sort_unstable();
        at.into_iter().map(|k| self.all[k]).collect()
    }
}

fn judge(c: Case) -> Said {
    let setup = c.setup;
    // A setup names itself first ("vLLM 0.30: asked for …"); a row says
    // where it is last ("asked for … (in concurrency.csv, line 2)").
    let row = c.who.starts_with("in ");
    let say = |m: String| {
        if row {
            format!("{m} ({})", c.who)
        } else {
            format!("{}: {m}", c.who)
        }
    };
    let want = figure(c.want);
    let requests = if c.want == 1.0 { "request" } else { "requests" };
    if let Some((l, at)) = c.limit.clone().filter(|(l, _)| *l < c.want) {
        return Said::Fewer(
            say(format!(
                "asked for {want} {requests} at once, but the server set its running limit to {}",
                figure(l)
            )),
            at,
            setup,
        );
    }
    match c.ran.clone() {
        None => Said::Unknown(
            say(format!(
                "asked for {want} {requests} at once, but the run records no count of the requests the server ran (its running gauge, or the client's count of requests streaming)"
            )),
            setup,
        ),
        Some((r, at, _)) if r < c.want => Said::Fewer(
            say(format!("asked for {want} {requests} at once; the server never ran more than {}", figure(r))),
            at,
            setup,
        ),
        Some((r, _, false)) if c.trt => Said::Unknown(
            say(format!(
                "TensorRT-LLM's running gauge says {} of the {want} asked for, but it counts requests waiting for memory as running, and the run records no count of requests streaming at once",
                figure(r)
            )),
            setup,
        ),
        Some((r, _, _)) => Said::Reached(
            say(format!("asked for {want}, ran {} at once", figure(r))),
            setup,
        ),
    }
}
