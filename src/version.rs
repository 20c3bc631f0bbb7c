//! Engine versions: parsing and ordering.
//!
//! Engines publish versions in two spellings, PEP 440 (`1.3.0rc29`,
//! `2.0.0.dev3`, `1.0.post1`) and SemVer pre-releases (`0.6.0-rc.1`). Both
//! parse into one [`Version`] that orders numerically segment by segment,
//! with missing segments counting as zero, so `0.32` equals `0.32.0`.
//! llama.cpp tags its releases by build number, `b6119`: a `b` followed
//! by digits alone is that build, the version `6119`, so that builds
//! order as numbers (`b9187 < b10000`). A version keeps the text it was
//! written with, for display.
//!
//! The same rules are implemented once more in the site's JavaScript
//! ("your version" box); `tests/version_cases.txt` is the shared table both
//! are tested against.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

/// The kind of a pre-release, in ascending order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PreKind {
    /// `a`, `alpha`
    Alpha,
    /// `b`, `beta`
    Beta,
    /// `rc`, `c`, `pre`, `preview`
    Rc,
}

/// A parsed engine version. Equality and ordering ignore spelling: `v0.32`,
/// `0.32` and `0.32.0` are the same version.
#[derive(Debug, Clone)]
pub struct Version {
    raw: String,
    release: Vec<u64>,
    pre: Option<(PreKind, u64)>,
    post: Option<u64>,
    dev: Option<u64>,
}

/// Why a string is not a version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{text}\" is not a version: {reason}")]
pub struct VersionError {
    /// The string as written.
    pub text: String,
    /// What made it fail.
    pub reason: &'static str,
}

impl Version {
    /// Parses a version as engines write it. See the module docs.
    pub fn parse(text: &str) -> Result<Version, VersionError> {
        let fail = |reason| VersionError {
            text: text.to_string(),
            reason,
        };
        let s = text.trim();
        if s.is_empty() {
            return Err(fail("it is empty"));
        }
        if s != text {
            return Err(fail("it has spaces around it"));
        }
        let s = s
            .strip_prefix('v')
            .or_else(|| s.strip_prefix('V'))
            .or_else(|| build_number(s))
            .unwrap_or(s);
        let lower = s.to_ascii_lowercase();
        let bytes = lower.as_bytes();

        // Release: digits separated by dots.
        let mut release = Vec::new();
        let mut i = 0;
        loop {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if start == i {
                return Err(fail(if release.is_empty() {
                    "it must start with a number"
                } else {
                    "a dot must be followed by a number"
                }));
            }
            release.push(number(&lower[start..i]).ok_or_else(|| fail("a number is too large"))?);
            if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
                i += 1;
                continue;
            }
            break;
        }

        let mut v = Version {
            raw: text.to_string(),
            release,
            pre: None,
            post: None,
            dev: None,
        };

        // Suffixes: [sep] label [sep] [number], in the order pre, post, dev.
        let mut rest = &lower[i..];
        let mut stage = 0; // 0: pre allowed, 1: post allowed, 2: dev allowed, 3: nothing
        while !rest.is_empty() {
            let after_sep = rest.trim_start_matches(['.', '-', '_', '+']);
            if after_sep.len() + 1 < rest.len() {
                return Err(fail("separators may not repeat"));
            }
            let label_len = after_sep
                .bytes()
                .take_while(|b| b.is_ascii_alphabetic())
                .count();
            let label = &after_sep[..label_len];
            if label.is_empty() {
                return Err(fail(
                    "expected a label such as rc, a, b, post or dev after the numbers",
                ));
            }
            let tail = &after_sep[label_len..];
            let num_part = tail.trim_start_matches(['.', '-', '_']);
            let sep_len = tail.len() - num_part.len();
            if sep_len > 1 {
                return Err(fail("separators may not repeat"));
            }
            let digits = num_part.bytes().take_while(|b| b.is_ascii_digit()).count();
            if sep_len == 1 && digits == 0 {
                return Err(fail(
                    "a separator after a label must be followed by a number",
                ));
            }
            let n = if digits == 0 {
                0
            } else {
                number(&num_part[..digits]).ok_or_else(|| fail("a number is too large"))?
            };
            rest = &num_part[digits..];
            let kind = match label {
                "a" | "alpha" => Some(PreKind::Alpha),
                "b" | "beta" => Some(PreKind::Beta),
                "rc" | "c" | "pre" | "preview" => Some(PreKind::Rc),
                _ => None,
            };
            match (kind, label) {
                (Some(k), _) if stage == 0 => {
                    v.pre = Some((k, n));
                    stage = 1;
                }
                (None, "post" | "rev" | "r") if stage <= 1 => {
                    v.post = Some(n);
                    stage = 2;
                }
                (None, "dev") if stage <= 2 => {
                    v.dev = Some(n);
                    stage = 3;
                }
                (Some(_), _) | (None, "post" | "rev" | "r" | "dev") => {
                    return Err(fail("its parts are out of order (pre-release, post, dev)"))
                }
                _ => {
                    return Err(fail(
                        "unknown label; use rc, a, alpha, b, beta, post or dev",
                    ))
                }
            }
        }
        Ok(v)
    }

    /// The version as it was written in the record.
    pub fn as_str(&self) -> &str {
        &self.raw
    }

    /// True for pre-releases and dev releases.
    pub fn is_prerelease(&self) -> bool {
        self.pre.is_some() || (self.dev.is_some() && self.post.is_none())
    }

    /// The release numbers with trailing zeros removed, so equal versions
    /// compare and hash alike.
    fn trimmed_release(&self) -> &[u64] {
        let mut n = self.release.len();
        while n > 1 && self.release[n - 1] == 0 {
            n -= 1;
        }
        &self.release[..n]
    }

    /// Sort key of the suffix, PEP 440 style: dev-only releases sort before
    /// every pre-release, pre-releases before the release, post after it.
    fn suffix_key(&self) -> (u8, u64, u8, u64, u8, u64) {
        // (pre class, pre number, post class, post number, dev class, dev number)
        let (pre_class, pre_n) = match (self.pre, self.post, self.dev) {
            (None, None, Some(_)) => (0, 0), // 1.0.dev3: below 1.0a1
            (Some((k, n)), _, _) => (1 + k as u8, n),
            (None, _, _) => (5, 0), // the release itself
        };
        let (post_class, post_n) = match self.post {
            None => (0, 0),
            Some(n) => (1, n),
        };
        let (dev_class, dev_n) = match self.dev {
            Some(n) => (0, n), // a dev release sorts below the same thing without dev
            None => (1, 0),
        };
        (pre_class, pre_n, post_class, post_n, dev_class, dev_n)
    }
}

/// A llama.cpp build tag, `b6119`: `b` (or `B`) and digits alone; the
/// digits, else `None`.
fn build_number(s: &str) -> Option<&str> {
    let n = s.strip_prefix('b').or_else(|| s.strip_prefix('B'))?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then_some(n)
}

fn number(digits: &str) -> Option<u64> {
    digits.parse().ok()
}

impl PartialEq for Version {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Version {}

impl Hash for Version {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.trimmed_release().hash(state);
        self.suffix_key().hash(state);
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (&self.release, &other.release);
        let len = a.len().max(b.len());
        for k in 0..len {
            let x = a.get(k).copied().unwrap_or(0);
            let y = b.get(k).copied().unwrap_or(0);
            match x.cmp(&y) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        self.suffix_key().cmp(&other.suffix_key())
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn parses_the_spellings_engines_use() {
        for s in [
            "0.28",
            "0.32.0",
            "0.5.20",
            "1.3.0rc29",
            "0.27.1",
            "2.0.0.dev3",
            "1.0.post1",
            "0.6.0-rc.1",
            "2.0.0-alpha.1",
            "1.0.0-beta.2",
            "2",
            "v0.30",
            "0.32.1rc2",
        ] {
            assert_eq!(v(s).as_str(), s);
        }
    }

    #[test]
    fn rejects_what_is_not_a_version() {
        for (s, reason) in [
            ("", "it is empty"),
            ("latest", "it must start with a number"),
            (
                "0.",
                "expected a label such as rc, a, b, post or dev after the numbers",
            ),
            ("0.30 ", "it has spaces around it"),
            (
                "1.0rc1a2",
                "its parts are out of order (pre-release, post, dev)",
            ),
            (
                "1.0-nightly",
                "unknown label; use rc, a, alpha, b, beta, post or dev",
            ),
            ("1..2", "separators may not repeat"),
        ] {
            let err = Version::parse(s).unwrap_err();
            assert_eq!(err.reason, reason, "for {s:?}");
        }
    }

    #[test]
    fn orders_as_the_format_says() {
        let ascending = [
            "0.5.20",
            "0.6.0-rc.1",
            "0.27.1",
            "0.28",
            "0.30",
            "0.32.0rc1",
            "0.32.0",
            "0.32.1",
            "1.0.dev1",
            "1.0a1",
            "1.0.0-beta.2",
            "1.0rc1",
            "1.0",
            "1.0.post1",
            "1.3.0rc3",
            "1.3.0rc29",
            "1.3.0",
            "2.0.0.dev3",
            "2.0.0-alpha.1",
            "2",
        ];
        for pair in ascending.windows(2) {
            assert!(v(pair[0]) < v(pair[1]), "{} < {}", pair[0], pair[1]);
        }
    }

    #[test]
    fn llama_cpp_build_numbers_order_as_numbers() {
        // The twelve builds of the shared llama.cpp series, then past a
        // power of ten: as numbers, never as text.
        let builds = [
            "6119", "6122", "6182", "6486", "6735", "7034", "7423", "7670", "7938", "8577", "8743",
            "9187", "b10000",
        ];
        for pair in builds.windows(2) {
            assert!(v(pair[0]) < v(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        assert_eq!(v("b6119"), v("6119"));
        assert_eq!(v("B6119"), v("6119"));
        assert_eq!(v("b6119").as_str(), "b6119");
        // A `b` after numbers is still a beta; `b` alone, or before
        // anything but digits, is no version.
        assert!(v("1.0b1") < v("1.0"));
        assert!(Version::parse("b").is_err());
        assert!(Version::parse("b1.2").is_err());
        assert!(Version::parse("beta").is_err());
    }

    #[test]
    fn missing_segments_count_as_zero() {
        assert_eq!(v("0.32"), v("0.32.0"));
        assert_eq!(v("v0.32"), v("0.32.0"));
        assert!(v("0.28") < v("0.28.1"), "0.28 means exactly 0.28.0");
        use std::collections::HashSet;
        let set: HashSet<Version> = [v("0.32"), v("0.32.0")].into_iter().collect();
        assert_eq!(set.len(), 1);
    }
}
