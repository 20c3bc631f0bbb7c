//! The Prometheus text format of a `/metrics` scrape, as far as the run
//! folder needs it: the sum of a metric's samples over all its label sets
//! (`vllm:num_preemptions_total{engine="0",model_name="…"} 21.0`). Label
//! values may hold spaces, braces and escaped quotes; comment lines
//! (`# HELP`, `# TYPE`) are skipped.

use std::collections::BTreeMap;

/// Every metric of a scrape with the sum of its samples.
#[derive(Debug, Default)]
pub(crate) struct Scrape {
    sums: BTreeMap<String, f64>,
}

impl Scrape {
    /// Reads the exposition text.
    pub(crate) fn parse(text: &str) -> Scrape {
        let mut sums = BTreeMap::new();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some((name, value)) = sample(line) {
                *sums.entry(name.to_string()).or_insert(0.0) += value;
            }
        }
        Scrape { sums }
    }

    /// The sum of the samples of `name`, or `None` when the scrape has none.
    pub(crate) fn sum(&self, name: &str) -> Option<f64> {
        self.sums.get(name).copied()
    }

    /// The first counter (a name ending in `_total`) whose name holds one
    /// of `words`, in name order.
    pub(crate) fn counter_about(&self, words: &[&str]) -> Option<String> {
        self.sums
            .keys()
            .find(|k| k.ends_with("_total") && words.iter().any(|w| k.contains(w)))
            .cloned()
    }

    /// Whether any metric's name starts with `prefix`.
    pub(crate) fn has_prefix(&self, prefix: &str) -> bool {
        self.sums
            .range(prefix.to_string()..)
            .next()
            .is_some_and(|(k, _)| k.starts_with(prefix))
    }
}

/// The name and value of one sample line; `None` for a line that is not one
/// or whose value is not a finite number.
fn sample(line: &str) -> Option<(&str, f64)> {
    let b = line.as_bytes();
    let name_end = line.find(|c: char| c == '{' || c.is_whitespace())?;
    let mut i = name_end;
    if b[i] == b'{' {
        let mut quoted = false;
        i += 1;
        while i < b.len() {
            match b[i] {
                b'\\' if quoted => i += 1,
                b'"' => quoted = !quoted,
                b'}' if !quoted => break,
                _ => {}
            }
            i += 1;
        }
        i += 1;
    }
    let value = line.get(i..)?.split_whitespace().next()?;
    let value = super::fields::number_text(value)??;
    value.is_finite().then_some((&line[..name_end], value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_over_label_sets_and_skips_comments() {
        let text = "# HELP x y\n# TYPE x counter\nx{a=\"1\"} 2.0\nx{a=\"a } \\\" b\"} 3\ny 7 1700000000\nz{} NaN\n";
        let s = Scrape::parse(text);
        assert_eq!(s.sum("x"), Some(5.0));
        assert_eq!(s.sum("y"), Some(7.0));
        assert_eq!(s.sum("z"), None);
        assert_eq!(s.sum("w"), None);
        assert!(s.has_prefix("x"));
        assert!(!s.has_prefix("vllm:"));
    }
}
