//! The addresses of the workloads a site follows: each title as a URL
//! segment.

use super::Trend;
use crate::urls;
use std::collections::HashMap;

/// The addresses of the trends the site follows ([`Trend::followed`]), in
/// their order: each title as a URL segment ([`slug_of`]), a second
/// workload of one title `-2`, and so on.
pub fn slugs(trends: &[Trend]) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    trends
        .iter()
        .filter(|t| t.followed())
        .map(|t| {
            let base = slug_of(&t.title);
            let n = seen.entry(base.clone()).or_default();
            *n += 1;
            if *n == 1 {
                base
            } else {
                format!("{base}-{n}")
            }
        })
        .collect()
}

/// A workload's title as a URL segment: `1,000 out` is `1000-out`.
pub fn slug_of(title: &str) -> String {
    let b: Vec<char> = title.chars().collect();
    let plain: String = b
        .iter()
        .enumerate()
        .filter(|&(i, c)| {
            !(*c == ','
                && i > 0
                && b[i - 1].is_ascii_digit()
                && b.get(i + 1).is_some_and(char::is_ascii_digit))
        })
        .map(|(_, c)| *c)
        .collect();
    urls::segment(&plain)
}
