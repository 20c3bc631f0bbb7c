//! What the sides' own evidence says beside the verdict: how their
//! servers differ (the KV cache pool, the most requests run at once, the
//! running limit, the preemptions: what `context.rs` read of each side),
//! and, where a side ran fewer requests at once than the workload asked,
//! whether the run's own numbers explain it: the requests asked for, each
//! of its input and output tokens, need more KV cache than the pool held,
//! and the server preempted requests. "32 requests of 88 + 1,000 tokens
//! ask for 34,816 tokens of KV cache; the pools held 26,093 (vLLM 0.29.0)
//! and 29,127 (vLLM 0.30.0), and 21 and 22 requests were preempted."
//! Nothing is said where the numbers do not explain it.
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

/// A workload whose requests asked for more KV cache than the pools of
/// the sides that ran fewer of them at once held.
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
    /// Each side it explains: (side, its pool in tokens, its preemptions).
    pub sides: Vec<(usize, Span, Option<Span>)>,
    /// In words.
    pub words: String,
}

/// The workloads where a side ran fewer requests at once than asked and
/// its KV cache pool was smaller than the requests asked for at once
/// need, with what followed (the preemptions): the runs' own explanation.
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
        let needed = asked * (input + output);
        let sides: Vec<(usize, Span, Option<Span>)> = c.contexts[w]
            .iter()
            .enumerate()
            .filter(|(_, ctx)| ctx.ran_fewer().is_some())
            .filter_map(|(s, ctx)| {
                let kv = ctx.kv_cache_tokens.filter(|k| k.max < needed)?;
                Some((s, kv, ctx.preemptions))
            })
            .collect();
        if sides.is_empty() {
            continue;
        }
        let n = figures::number;
        let held: Vec<String> = sides
            .iter()
            .map(|(s, kv, _)| format!("{} ({})", kv.shown(), names[*s]))
            .collect();
        let mut words = format!(
            "{} requests of {} + {} tokens ask for {} tokens of KV cache; {} held {}",
            n(asked),
            n(input),
            n(output),
            n(needed),
            if sides.len() == 1 {
                "the pool"
            } else {
                "the pools"
            },
            and_list(&held)
        );
        let preempted: Option<Vec<Span>> = sides.iter().map(|(_, _, p)| *p).collect();
        match preempted {
            Some(p) if p.iter().any(|p| p.max > 0.0) => {
                let counts: Vec<String> = p.iter().map(Span::shown).collect();
                let one = p.len() == 1 && p[0].max == 1.0 && p[0].min == 1.0;
                words.push_str(&format!(
                    ", and {} {} preempted",
                    and_list(&counts),
                    if one { "request was" } else { "requests were" }
                ));
            }
            _ => words.push_str(": not every request fits at once"),
        }
        let at = if c.workloads.len() > 1 {
            format!("At {}: ", workload.line())
        } else {
            String::new()
        };
        out.push(Shortfall {
            workload: w,
            asked,
            tokens: [input, output],
            needed,
            sides,
            words: format!("{at}{words}."),
        });
    }
    out
}
