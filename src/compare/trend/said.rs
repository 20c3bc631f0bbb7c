//! The changes of the trends in words, through the one summary every
//! view uses ([`crate::compare::summary`]): a change as a summary names it
//! (`tokens a second −2.5% on llama.cpp 8577 against 7938`, after its
//! workload's title where several are summed up), and the verdict of a
//! set of changes (`11 changes between versions: better on 1 of 11
//! beyond noise (…); 8 within noise (…); 2 untested, single runs: …`),
//! which `findings trends` (its first line and each workload), the
//! workload pages, the engine pages and `/workloads/` all say.
//!
//! Takes trends and their changes; hands back words.

use super::{MetricTrend, Trend, TrendChange};
use crate::compare::verdict::lower;
use crate::compare::{summary, Noun, Said};

impl TrendChange {
    /// The change in a few words, as tables write it: `−2.5%, within
    /// noise (±9.4%)`, `+13% better, beyond noise (±7.7%)`; across setups
    /// that differ, `0%, not comparable (another client: …)`.
    pub fn words(&self) -> String {
        match &self.not_comparable {
            Some(why) => format!("{}, not comparable ({why})", self.change.shown()),
            None => self.change.words(),
        }
    }

    /// The change as a summary names it, of `mt` of `t`: its metric, then
    /// its percent, then the engine and versions; after `t`'s title where
    /// `titled`.
    pub fn said<'a>(&'a self, t: &'a Trend, mt: &'a MetricTrend, titled: bool) -> Said<'a> {
        Said::of(&self.change, self.kind(), move || {
            let metric = lower(&mt.metric.label);
            let what = if titled {
                format!("{}: {metric}", t.title)
            } else {
                metric
            };
            let after = format!(
                " on {} {} against {}",
                t.series[self.series].engine_name, self.to, self.from
            );
            (what, after)
        })
    }
}

/// The changes `items` summed up: `8 changes between versions: 5 of 8
/// untested, single runs: …; the same on 1; 2 not comparable`, without a
/// closing stop; that there is none where there is none.
pub fn changes_summary(items: &[Said<'_>]) -> String {
    match items.len() {
        0 => "no change between versions yet (each series has one version)".to_string(),
        1 => format!("1 change between versions: {}", summary(items, CHANGES)),
        n => format!("{n} changes between versions: {}", summary(items, CHANGES)),
    }
}

/// What a summary of trends counts: changes, which the sentence names
/// before the summary (`8 changes between versions: 5 of 8 untested`).
pub const CHANGES: Noun<'static> = Noun { one: "", many: "" };

/// The verdict of workload `t`: every change of every metric, named
/// without the title, a sentence: `11 changes between versions: better on
/// 1 of 11 beyond noise (…); 10 within noise (…).`
pub fn verdict(t: &Trend) -> String {
    let items: Vec<Said<'_>> = t
        .metrics
        .iter()
        .flat_map(|mt| mt.changes.iter().map(move |ch| ch.said(t, mt, false)))
        .collect();
    let mut out = changes_summary(&items);
    if let Some(first) = out.get(..1) {
        out = format!("{}{}", first.to_uppercase(), &out[1..]);
    }
    out.push('.');
    out
}
