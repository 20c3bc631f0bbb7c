//! The noise between runs a site states (`site.yaml`'s `noise` list): for
//! every change, or for an engine, a workload or a metric, a bound in
//! percent, or the z-score (and window) its series' history is read
//! with. The most specific rule that names a change decides how it is
//! judged (`docs/trends.md`).

/// The z-score a series' history is read with where no rule says: about
/// 99.9% of a normal distribution's values lie within it on either side.
pub const DEFAULT_NOISE_Z: f64 = 3.0;
/// The most earlier versions a series' history reads where no rule says:
/// the recent ones, since a series' level moves with its releases.
pub const DEFAULT_NOISE_WINDOW: usize = 5;
/// The fewest earlier versions a history needs before it says anything.
pub const DEFAULT_NOISE_MIN_SAMPLE: usize = 3;

/// How a rule judges a change.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NoiseBound {
    /// A change within this many percent of the earlier value is noise.
    Percent(f64),
    /// The series' history read with this z-score, over at most `window`
    /// earlier versions and at least `min_sample`.
    Z {
        /// How many standard deviations from the history's mean.
        z: f64,
        /// The most earlier versions read.
        window: usize,
        /// The fewest it needs.
        min_sample: usize,
    },
}

/// A rule of `site.yaml`'s `noise` list.
#[derive(Debug, Clone, PartialEq)]
pub struct NoiseRule {
    /// Only the series of this engine (an id of `site.yaml`).
    pub engine: Option<String>,
    /// Only this workload: its id (`/workloads/<id>/`), or text of its
    /// title, in any case.
    pub workload: Option<String>,
    /// Only this metric (`output_throughput`, `tokens_per_s`, …).
    pub metric: Option<String>,
    /// How it judges.
    pub bound: NoiseBound,
    /// Where it is in `site.yaml` (`noise[2]`).
    pub path_in_yaml: String,
}

impl NoiseRule {
    /// Whether it names a change of engine `engine`'s series, of the
    /// workload `title` (whose id is `slug`), of metric `metric`.
    pub fn names(&self, engine: &str, title: &str, slug: &str, metric: &str) -> bool {
        self.engine.as_deref().is_none_or(|e| e == engine)
            && self.metric.as_deref().is_none_or(|m| m == metric)
            && self
                .workload
                .as_deref()
                .is_none_or(|w| w == slug || title.to_lowercase().contains(&w.to_lowercase()))
    }

    /// How specific it is: a metric outranks a workload, a workload an
    /// engine; each named part adds.
    pub fn rank(&self) -> u8 {
        u8::from(self.metric.is_some()) * 4
            + u8::from(self.workload.is_some()) * 2
            + u8::from(self.engine.is_some())
    }
}

/// The rule of `rules` that decides a change (see [`NoiseRule::names`]):
/// the most specific that names it, the first of equals.
pub fn noise_rule<'r>(
    rules: &'r [NoiseRule],
    engine: &str,
    title: &str,
    slug: &str,
    metric: &str,
) -> Option<&'r NoiseRule> {
    let mut best: Option<&NoiseRule> = None;
    for r in rules
        .iter()
        .filter(|r| r.names(engine, title, slug, metric))
    {
        if best.is_none_or(|b| r.rank() > b.rank()) {
            best = Some(r);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(
        engine: Option<&str>,
        workload: Option<&str>,
        metric: Option<&str>,
        p: f64,
    ) -> NoiseRule {
        NoiseRule {
            engine: engine.map(str::to_string),
            workload: workload.map(str::to_string),
            metric: metric.map(str::to_string),
            bound: NoiseBound::Percent(p),
            path_in_yaml: String::new(),
        }
    }

    #[test]
    fn the_most_specific_rule_decides() {
        let rules = [
            rule(None, None, None, 10.0),
            rule(Some("llama-cpp"), None, None, 5.0),
            rule(Some("llama-cpp"), Some("TG128"), None, 3.0),
            rule(None, None, Some("tokens_per_s"), 4.0),
        ];
        let of = |e: &str, t: &str, m: &str| noise_rule(&rules, e, t, "slug", m).map(|r| r.bound);
        let tg = "gpt-oss 20B MXFP4 MoE · tg128";
        assert_eq!(
            of("vllm", "Qwen3-8B", "output_throughput"),
            Some(NoiseBound::Percent(10.0))
        );
        assert_eq!(
            of("llama-cpp", "gpt-oss · pp512", "output_throughput"),
            Some(NoiseBound::Percent(5.0))
        );
        assert_eq!(
            of("llama-cpp", tg, "output_throughput"),
            Some(NoiseBound::Percent(3.0))
        );
        // A metric outranks a workload and an engine together.
        assert_eq!(
            of("llama-cpp", tg, "tokens_per_s"),
            Some(NoiseBound::Percent(4.0))
        );
        assert_eq!(
            noise_rule(&rules[1..3], "vllm", tg, "x", "tokens_per_s"),
            None
        );
        // A workload by its id.
        let by_id = [rule(None, Some("gpt-oss-20b-mxfp4-moe-tg128"), None, 2.0)];
        assert!(noise_rule(
            &by_id,
            "llama-cpp",
            tg,
            "gpt-oss-20b-mxfp4-moe-tg128",
            "tokens_per_s"
        )
        .is_some());
    }
}
