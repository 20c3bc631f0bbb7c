//! What the sides' own evidence says beside the verdict: how their
//! servers differ (the KV cache pool, the most requests run at once, the
//! running limit, the preemptions: what `context.rs` read of each side),
//! and, where a side ran fewer requests at once than the workload asked,
//! whether the run's own numbers explain it: the whole requests (each of
//! its input and output tokens) the KV cache pool held, against the most
//! the server ran. Where the pool held no more than the server ran, it
//! explains the cap; where it held more, the words say what is known and
//! what is not: "32 requests of 88 + 1,000 tokens ask for 34,816 tokens of
//! KV cache; the pools held 26,093 (vLLM 0.29.0) and 29,127 (vLLM 0.30.0),
//! about 23 and 26 whole requests; the servers ran at most 10 and 11: the
//! pools do not explain the cap; the servers counted 21 and 22
//! preemptions."
//!
//! Takes a [`Comparison`]; hands back sentences, and the shortfalls with
//! their numbers.

use super::verdict::{against, and_list, labels};
use super::{Comparison, SideContext, Span};
use crate::figures;

/// The spans of two measurements' worth of a value, as one.
fn join(a: Option<Span>, b: Option<Span>) -> Option<Span> {
    match (a, b) {
        (Some(a), Some(b)) => Some(Span {
            min: a.min.min(b.min),
            max: a.max.max(b.max),
        }),
        (a, b) => a.or(b),
    }
}

/// What side `s` recorded of its server over every workload.
fn of_side(c: &Comparison, s: usize) -> SideContext {
    c.contexts
        .iter()
        .fold(SideContext::default(), |acc, w| SideContext {
            asked: None,
            max_running: join(acc.max_running, w[s].max_running),
            running_limit: join(acc.running_limit, w[s].running_limit),
            preemptions: join(acc.preemptions, w[s].preemptions),
            kv_cache_tokens: join(acc.kv_cache_tokens, w[s].kv_cache_tokens),
            ..SideContext::default()
        })
}

fn one(s: Span) -> Option<f64> {
    (s.min == s.max).then_some(s.min)
}

/// How the servers of the sides differ from the baseline's, a sentence a
/// side: `Servers, vLLM 0.30.0 against 0.29.0: KV cache +12% (29,127
/// tokens against 26,093); at most 11 requests at once against 10; 22
/// preemptions against 21.` Only what both sides recorded is set side by
/// side; `None` where nothing is.
pub fn servers(c: &Comparison) -> Option<String> {
    if c.sides.len() < 2 || c.is_empty() {
        return None;
    }
    let names = labels(c);
    let base = of_side(c, 0);
    let mut out = Vec::new();
    for s in 1..c.sides.len() {
        let side = of_side(c, s);
        let mut parts = Vec::new();
        if let (Some(a), Some(b)) = (base.kv_cache_tokens, side.kv_cache_tokens) {
            parts.push(match (one(a), one(b)) {
                (Some(x), Some(y)) => match figures::change(x, y) {
                    Some(p) if p != "0%" => format!(
                        "KV cache {p} ({} tokens against {})",
                        figures::number(y),
                        figures::number(x)
                    ),
                    _ => format!("KV cache the same ({} tokens)", figures::number(x)),
                },
                _ => format!("KV cache {} tokens against {}", b.shown(), a.shown()),
            });
        }
        let pair = |a: Option<Span>, b: Option<Span>, what: &str, each: &str| {
            let (a, b) = (a?, b?);
            Some(if a == b {
                format!("{} {each}", what.replace("{}", &a.shown()))
            } else {
                format!("{} against {}", what.replace("{}", &b.shown()), a.shown())
            })
        };
        parts.extend(pair(
            base.max_running,
            side.max_running,
            "at most {} requests at once",
            "on each",
        ));
        parts.extend(pair(
            base.running_limit,
            side.running_limit,
            "running limit {}",
            "on each",
        ));
        if let (Some(a), Some(b)) = (base.preemptions, side.preemptions) {
            let noun = |s: Span| {
                if s.min == 1.0 && s.max == 1.0 {
                    "preemption"
                } else {
                    "preemptions"
                }
            };
            parts.push(if a == b {
                format!("{} {} on each", a.shown(), noun(a))
            } else {
                format!("{} {} against {}", b.shown(), noun(b), a.shown())
            });
        }
        if !parts.is_empty() {
            out.push(format!(
                "Servers, {}: {}.",
                against(c, &names, s),
                parts.join("; ")
            ));
        }
    }
    (!out.is_empty()).then(|| out.join(" "))
}

/// A workload where sides ran fewer requests at once than asked, set
/// against what their KV cache pools held: the requests asked for, each
/// of its input and output tokens, the whole requests each pool held, and
/// the most each server ran.
#[derive(Debug, Clone, PartialEq)]
pub struct Shortfall {
    /// The workload's index.
    pub workload: usize,
    /// The requests asked for at once.
    pub asked: f64,
    /// The tokens of a request, in and out (asked for, else measured),
    /// rounded.
    pub tokens: [f64; 2],
    /// `asked` requests of `tokens` each: the KV cache they ask for.
    pub needed: f64,
    /// Each side: (side, its pool in tokens, its preemptions).
    pub sides: Vec<(usize, Span, Option<Span>)>,
    /// Whether the pools explain the cap: each held no more whole
    /// requests than its server ran at most. Where one held more, the
    /// pool does not explain it, and the words say so.
    pub explains: bool,
    /// In words.
    pub words: String,
}

/// A side that ran fewer than asked: (side, its pool in tokens, its
/// preemptions, the whole requests the pool held, the most it ran).
type Held = (usize, Span, Option<Span>, Span, Span);

/// The workloads where a side ran fewer requests at once than asked and
/// recorded its KV cache pool, with what the pool says of it: where each
/// pool held no more whole requests than its server ran, the runs' own
/// explanation ("the pool held about 5 whole requests, and the server ran
/// at most 5: the pool explains the cap"); where a pool held more, what is
/// known and what is not ("the pools held about 23 and 26 whole requests;
/// the servers ran at most 10 and 11: the pools do not explain the cap").
/// A workload may give one of each.
pub fn shortfalls(c: &Comparison) -> Vec<Shortfall> {
    let names = labels(c);
    let mut out = Vec::new();
    for (w, workload) in c.workloads.iter().enumerate() {
        let Some(asked) = workload.concurrency.filter(|a| *a > 0.0) else {
            continue;
        };
        let len = |k: usize| {
            workload.requested[k]
                .or(workload.lengths[k])
                .map(f64::round)
        };
        let (Some(input), Some(output)) = (len(0), len(1)) else {
            continue;
        };
        let each = input + output;
        if each <= 0.0 {
            continue;
        }
        let needed = asked * each;
        let mut explained: Vec<Held> = Vec::new();
        let mut not: Vec<Held> = Vec::new();
        for (s, ctx) in c.contexts[w].iter().enumerate() {
            if ctx.ran_fewer().is_none() {
                continue;
            }
            let (Some(kv), Some(ran)) =
                (ctx.kv_cache_tokens, ctx.max_running.or(ctx.running_limit))
            else {
                continue;
            };
            let whole = Span {
                min: (kv.min / each).floor(),
                max: (kv.max / each).floor(),
            };
            let side = (s, kv, ctx.preemptions, whole, ran);
            if whole.max <= ran.max {
                explained.push(side);
            } else {
                not.push(side);
            }
        }
        let n = figures::number;
        let at = if c.workloads.len() > 1 {
            format!("At {}: ", workload.line())
        } else {
            String::new()
        };
        for (group, explains) in [(explained, true), (not, false)] {
            if group.is_empty() {
                continue;
            }
            let one = group.len() == 1;
            let list =
                |f: &dyn Fn(&Held) -> String| and_list(&group.iter().map(f).collect::<Vec<_>>());
            let held = list(&|(s, kv, ..)| format!("{} ({})", kv.shown(), names[*s]));
            let whole = list(&|(.., w, _)| w.shown());
            let ran = list(&|(.., r)| r.shown());
            let (pool, server, verb) = if one {
                ("the pool", "the server", "explains")
            } else {
                ("the pools", "the servers", "explain")
            };
            let mut words = format!(
                "{} requests of {} + {} tokens ask for {} tokens of KV cache; {pool} held {held}, about {whole} whole request{}; {server} ran at most {ran}: ",
                n(asked),
                n(input),
                n(output),
                n(needed),
                if one && group[0].3.max == 1.0 { "" } else { "s" },
            );
            if explains {
                words.push_str(&format!("{pool} {verb} the cap"));
            } else {
                words.push_str(&format!(
                    "{pool} {} not explain the cap",
                    if one { "does" } else { "do" }
                ));
            }
            let preempted: Option<Vec<Span>> = group.iter().map(|g| g.2).collect();
            if let Some(p) = preempted.filter(|p| p.iter().any(|p| p.max > 0.0)) {
                let counts: Vec<String> = p.iter().map(Span::shown).collect();
                let single = p.len() == 1 && p[0].max == 1.0 && p[0].min == 1.0;
                words.push_str(&format!(
                    "; {} counted {} {}",
                    server,
                    and_list(&counts),
                    if single { "preemption" } else { "preemptions" }
                ));
            }
            out.push(Shortfall {
                workload: w,
                asked,
                tokens: [input, output],
                needed,
                sides: group.iter().map(|g| (g.0, g.1, g.2)).collect(),
                explains,
                words: format!("{at}{words}."),
            });
        }
    }
    out
}
