//! A comparison as JSON, for scripts: every value with every digit, as
//! `docs/compare.md` describes the keys. The `verdict` counts the changes
//! (better, worse, same; beyond noise, within, untested) with the words
//! every view leads with, for the whole comparison and per workload. Each
//! change has its `direction` (`better`, `worse` or `same`, never null),
//! each workload what each side's evidence recorded of its server
//! (`context`), each side what the checks flag of its run (`flags`);
//! `servers` says how the servers differ, `shortfall` where the runs'
//! numbers explain why fewer requests ran than asked, and `ran_fewer`
//! names the sides that did, with the findings about it where known.
//!
//! Takes a [`Comparison`]; hands back text.

use super::{servers, shortfalls, Comparison, SideContext, Span, Verdict};
use serde_json::{json, Value};

fn span(s: Option<Span>) -> Value {
    s.map_or(Value::Null, |s| json!({"min": s.min, "max": s.max}))
}

/// The verdict as `docs/compare.md` fixes its keys (every comparison's
/// JSON, accuracy's too, writes it here).
pub(super) fn verdict(v: &Verdict) -> Value {
    json!({
        "better": v.better,
        "worse": v.worse,
        "same": v.same,
        "beyond_noise": v.beyond_noise,
        "within_noise": v.within_noise,
        "untested": v.untested,
        "words": v.words,
    })
}

fn context(c: &SideContext) -> Value {
    json!({
        "asked": c.asked,
        "max_running": span(c.max_running),
        "running_limit": span(c.running_limit),
        "preemptions": span(c.preemptions),
        "kv_cache_tokens": span(c.kv_cache_tokens),
        "sent": span(c.sent),
        "lost": span(c.lost),
        "ran_fewer": c.ran_fewer(),
        "words": c.words(),
    })
}

/// JSON, for scripts: every value with every digit (docs/compare.md).
pub fn json(c: &Comparison) -> String {
    let workloads: Vec<Value> = c
        .workloads
        .iter()
        .enumerate()
        .map(|(w, workload)| {
            let rows: Vec<Value> = c
                .rows_of(w)
                .iter()
                .map(|r| {
                    let shown = r.shown(c.metrics[r.metric].unit.as_deref());
                    json!({
                        "metric": c.metrics[r.metric].name,
                        "values": r.values.iter().zip(&shown).map(|(v, text)| v.map_or(Value::Null, |v| json!({
                            "n": v.n, "mean": v.mean, "min": v.min, "max": v.max, "shown": text,
                        }))).collect::<Vec<_>>(),
                        "changes": r.changes.iter().map(|ch| ch.map_or(Value::Null, |ch| json!({
                            "pct": ch.pct,
                            "shown": ch.shown(),
                            "direction": ch.direction.as_str(),
                            "noise": ch.noise.key(),
                            "words": ch.long_words(),
                        }))).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({
                "workload": workload.line(),
                "parts": workload.parts.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
                "context": c.contexts[w].iter().map(context).collect::<Vec<_>>(),
                "taken_as_one": c.taken_as_one[w].iter().map(|(s, line)| json!({"side": s, "measured": line})).collect::<Vec<_>>(),
                "verdict": verdict(&Verdict::of_workload(c, w)),
                "rows": rows,
            })
        })
        .collect();
    let fewer = c.ran_fewer();
    let ran_fewer = if fewer.is_empty() {
        Value::Null
    } else {
        json!({
            "check": super::CONCURRENCY_CHECK,
            "sides": fewer,
            "findings": c.cited.iter().map(|f| json!({
                "id": format!("F{}", f.id), "title": f.title, "url": f.url,
            })).collect::<Vec<_>>(),
        })
    };
    let v = json!({
        "sides": c.sides.iter().enumerate().map(|(s, side)| json!({
            "name": side.name,
            "baseline": s == 0,
            "engine": side.engine,
            "version": side.version,
            "sources": side.sources,
            "unmatched": c.unmatched[s],
            "flags": side.flags.iter().map(|f| json!({
                "check": f.check, "mark": f.mark, "message": f.message,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "metrics": c.metrics.iter().map(|m| json!({
            "name": m.name, "label": m.label, "unit": m.unit, "higher_is_better": m.higher_is_better,
        })).collect::<Vec<_>>(),
        "stated_noise_pct": c.stated_noise,
        "same_workload": c.same_workload,
        "measured": c.measured,
        "workloads": workloads,
        "ran_fewer": ran_fewer,
        "verdict": verdict(&Verdict::of(c)),
        "flagged": super::flagged(c),
        "servers": servers(c),
        "shortfall": shortfalls(c).iter().map(|s| json!({
            "workload": s.workload,
            "asked": s.asked,
            "tokens_a_request": s.tokens,
            "kv_cache_needed": s.needed,
            "sides": s.sides.iter().map(|(side, kv, p)| json!({
                "side": side, "kv_cache_tokens": span(Some(*kv)), "preemptions": span(*p),
            })).collect::<Vec<_>>(),
            "explains": s.explains,
            "words": s.words,
        })).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}
