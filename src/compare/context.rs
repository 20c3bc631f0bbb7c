//! What a side's evidence says of how its server ran a workload, beside
//! the client's figures: the most requests it ran at once against the
//! concurrency asked, its running limit, the preemptions during the run
//! and the KV cache pool of its start (the facts an inferlint run folder
//! gives, `crate::results`). A side whose server ran fewer requests at
//! once than the workload asked measured another load than its heading
//! says: the comparison marks its values and cites the findings of the
//! `concurrency-achieved` check ([`CONCURRENCY_CHECK`]), where the caller
//! knows them ([`Cite`]).
//!
//! Takes a run's result sources; hands back a [`Context`] per measurement
//! and a [`SideContext`] per side and workload.

use super::Comparison;
use crate::figures;
use crate::record::{EngineEntry, ResultSource};

/// The check whose findings speak of a server that ran fewer requests at
/// once than were asked for (F5 and F9 of the bundled records).
pub const CONCURRENCY_CHECK: &str = "concurrency-achieved";

/// What the server side of one measurement recorded.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Context {
    /// The most requests it ran at once (its running gauge).
    pub max_running: Option<f64>,
    /// SGLang: the most it would run at once, from its log.
    pub running_limit: Option<f64>,
    /// Preemptions (retractions, pauses) during the run.
    pub preemptions: Option<f64>,
    /// The KV cache pool of the start, in tokens.
    pub kv_cache_tokens: Option<f64>,
    /// The requests the client sent, where its result says.
    pub sent: Option<f64>,
    /// Those of them that failed or never completed, where its result
    /// says (what the check `no-lost-requests` reads).
    pub lost: Option<f64>,
}

/// The context of each row of `source`, in order. The facts of a run
/// folder are the server's over the whole load: the most requests run,
/// the running limit and the KV cache pool hold for every row when the
/// rows asked one concurrency (repeats of one load); the preemptions are
/// a count over the run and hold for a row only when it is the one. The
/// requests sent and lost are each row's own (`num_prompts`, `completed`,
/// `failed`).
pub fn contexts_of(source: &ResultSource) -> Vec<Context> {
    let rows = &source.rows;
    let number = |name: &str| source.fact(name).and_then(|f| f.number);
    let one_load = rows.first().is_some_and(|a| {
        rows.iter()
            .all(|r| r.get("max_concurrency") == a.get("max_concurrency"))
    });
    let shared = if one_load {
        Context {
            max_running: number("max_running"),
            running_limit: number("running_limit"),
            preemptions: if rows.len() == 1 {
                number("preemptions")
            } else {
                None
            },
            kv_cache_tokens: number("kv_cache_tokens"),
            ..Context::default()
        }
    } else {
        Context::default()
    };
    rows.iter()
        .map(|row| {
            let (sent, done, failed) = (
                row.num("num_prompts"),
                row.num("completed"),
                row.num("failed"),
            );
            let lost = match (failed, sent, done) {
                (Some(f), ..) if f > 0.0 => Some(f),
                (_, Some(n), Some(d)) if d < n => Some(n - d),
                (Some(f), ..) => Some(f),
                (None, Some(_), Some(_)) => Some(0.0),
                _ => None,
            };
            let sent = sent.or_else(|| Some(done? + failed?));
            Context {
                sent,
                lost,
                ..shared
            }
        })
        .collect()
}

/// The lowest and highest of the values a side's measurements recorded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// The lowest.
    pub min: f64,
    /// The highest.
    pub max: f64,
}

impl Span {
    fn add(span: &mut Option<Span>, v: Option<f64>) {
        let Some(v) = v.filter(|v| v.is_finite()) else {
            return;
        };
        *span = Some(match *span {
            Some(s) => Span {
                min: s.min.min(v),
                max: s.max.max(v),
            },
            None => Span { min: v, max: v },
        });
    }

    /// `10`, or `10–11` where the measurements differ.
    pub fn shown(&self) -> String {
        if self.min == self.max {
            figures::number(self.min)
        } else {
            format!(
                "{}–{}",
                figures::number(self.min),
                figures::number(self.max)
            )
        }
    }
}

/// What one side's measurements of one workload recorded of the server.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SideContext {
    /// The concurrency the workload asked for, where bounded.
    pub asked: Option<f64>,
    /// The most requests run at once, over the measurements.
    pub max_running: Option<Span>,
    /// The running limit, over the measurements.
    pub running_limit: Option<Span>,
    /// The preemptions, over the measurements.
    pub preemptions: Option<Span>,
    /// The KV cache pool in tokens, over the measurements.
    pub kv_cache_tokens: Option<Span>,
    /// The requests sent, over the measurements.
    pub sent: Option<Span>,
    /// The requests lost (failed, or never completed), over the
    /// measurements.
    pub lost: Option<Span>,
}

impl SideContext {
    /// Adds one measurement's context.
    pub(super) fn add(&mut self, c: &Context) {
        Span::add(&mut self.max_running, c.max_running);
        Span::add(&mut self.running_limit, c.running_limit);
        Span::add(&mut self.preemptions, c.preemptions);
        Span::add(&mut self.kv_cache_tokens, c.kv_cache_tokens);
        Span::add(&mut self.sent, c.sent);
        Span::add(&mut self.lost, c.lost);
    }

    /// The requests lost, `16 of 32`, where some measurement lost any.
    pub fn lost_words(&self) -> Option<String> {
        let lost = self.lost.filter(|l| l.max > 0.0)?;
        Some(match self.sent {
            Some(sent) => format!("{} of {}", lost.shown(), sent.shown()),
            None => lost.shown(),
        })
    }

    /// Whether the evidence records anything of the server.
    pub fn is_empty(&self) -> bool {
        self.max_running.is_none()
            && self.running_limit.is_none()
            && self.preemptions.is_none()
            && self.kv_cache_tokens.is_none()
            && self.lost_words().is_none()
    }

    /// The fewest requests a measurement ran at once (or its server would
    /// run), where that is fewer than the workload asked for.
    pub fn ran_fewer(&self) -> Option<f64> {
        let asked = self.asked?;
        let lowest = [self.max_running, self.running_limit]
            .iter()
            .flatten()
            .map(|s| s.min)
            .fold(f64::INFINITY, f64::min);
        (lowest < asked).then_some(lowest)
    }

    /// What ran, in a few words, for a value that fewer requests
    /// measured than asked: `ran ≤10 of 32`. (Requests lost are said
    /// beside the side's name and in [`SideContext::words`].)
    pub fn mark(&self) -> Option<String> {
        self.ran_fewer()?;
        let asked = figures::number(self.asked?);
        let ran = self.max_running.or(self.running_limit)?;
        Some(format!("ran ≤{} of {asked}", ran.shown()))
    }

    /// Everything the evidence says, in words: `ran at most 10 requests
    /// at once of the 32 asked; 21 preemptions; KV cache 26,093 tokens`.
    pub fn words(&self) -> String {
        let mut out = Vec::new();
        if let Some(r) = self.max_running {
            let of = match self.asked {
                Some(a) => format!(" of the {} asked", figures::number(a)),
                None => String::new(),
            };
            out.push(format!("ran at most {} requests at once{of}", r.shown()));
        }
        if let Some(l) = self.running_limit {
            out.push(format!("running limit {}", l.shown()));
        }
        if let Some(p) = self.preemptions {
            let one = p.min == 1.0 && p.max == 1.0;
            out.push(format!(
                "{} preemption{}",
                p.shown(),
                if one { "" } else { "s" }
            ));
        }
        if let Some(k) = self.kv_cache_tokens {
            out.push(format!("KV cache {} tokens", k.shown()));
        }
        if let Some(l) = self.lost_words() {
            out.push(format!("{l} requests lost"));
        }
        if out.is_empty() {
            return "no record of the server's side (the requests it ran, preemptions, KV cache)"
                .to_string();
        }
        out.join("; ")
    }
}

/// A finding cited beside a side that ran fewer requests than asked.
#[derive(Debug, Clone, PartialEq)]
pub struct Cite {
    /// Its number.
    pub id: u32,
    /// Its title.
    pub title: String,
    /// Its permanent address, where known.
    pub url: Option<String>,
    /// The engines it is about ([`Cite::engines_of`]); empty where it is
    /// about no engine in particular.
    pub engines: Vec<String>,
}

impl Cite {
    /// The engines a finding is about, sorted
    /// ([`crate::record::engines_about`]); empty where it is about no
    /// engine in particular.
    pub fn engines_of(entries: &[EngineEntry]) -> Vec<String> {
        let mut out: Vec<String> = crate::record::engines_about(entries)
            .into_iter()
            .map(str::to_string)
            .collect();
        out.sort();
        out
    }
}

/// Of `all` (the findings of [`CONCURRENCY_CHECK`]), those `c` cites: none
/// where no side ran fewer requests at once than asked; else those about
/// the engine of a side that did (by its files, or flagged by the check),
/// or about no engine in particular. A side whose engine is not known
/// cites no engine's finding.
pub fn cites_for(c: &Comparison, all: &[Cite]) -> Vec<Cite> {
    let mut fewer = c.ran_fewer();
    fewer.extend((0..c.sides.len()).filter(|&s| {
        c.sides[s]
            .flags
            .iter()
            .any(|f| f.check == CONCURRENCY_CHECK)
    }));
    if fewer.is_empty() {
        return Vec::new();
    }
    let engines: Vec<&str> = fewer
        .iter()
        .filter_map(|&s| c.sides[s].engine.as_deref())
        .collect();
    all.iter()
        .filter(|f| f.engines.is_empty() || f.engines.iter().any(|e| engines.contains(&e.as_str())))
        .cloned()
        .collect()
}

/// `F5, F9`.
pub fn cited_ids(cited: &[Cite]) -> String {
    cited
        .iter()
        .map(|c| format!("F{}", c.id))
        .collect::<Vec<_>>()
        .join(", ")
}
