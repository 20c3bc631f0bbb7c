//! What a report's own heading says, and the versions an issue's title
//! names.
//!
//! **The heading.** The few lines right above a report (at most
//! [`NEAR_LINES`] that hold text, never a line of the report before it)
//! are how people label what they paste: `vllm=0.6.2 w/ normal`, `#
//! SGLang`, `vLLM results`, `Before:`. They say which engine and version
//! the report ran on more surely than the rest of the text, the thread or
//! the repository the issue was filed in, so an SGLang issue whose report
//! is headed `vllm=0.6.2` is about vLLM. The nearest line that names one
//! engine decides (a line naming two, `vllm=0.6.2 vs sglang=0.3.2`, labels
//! no report); a short line of an engine's name and a word or two
//! ([`LABEL_WORDS`]: `results`, `output`, …) is a heading too, but a
//! command such as `vllm bench serve` is not: it names the client.
//!
//! **Before and after.** Where the issue names two versions of an engine
//! (an upgrade), a heading that says `Before:` (`Baseline`, `Old`,
//! `Previous`, `Original`) takes the earlier, one that says `After:`
//! (`New`, `Upgraded`) the later.
//!
//! **The title's versions.** "upgrading from 0.8.5 to 0.9.2", "0.6.2 =>
//! 0.6.3", "with 0.5.1(v0.5.0.post1 was fine)", "between v0.11.0rc1 and
//! v0.9.1": each version the title names, of the engine named before it
//! or, after a word such as `from`, `to`, `with`, `vs` or a sign such as
//! `=>` or `(`, of no engine by name (the issue's). A version after
//! another word (`CUDA 12.4`, `transformers 4.51.0`) is that thing's, and
//! left out. An issue is about every version its title names.
//!
//! Each line is read once, so a heading costs a few lines and a title its
//! length.

use super::{collapse, is_word, version_at, Clue, Names, Rank};
use std::collections::HashMap;

/// The most lines with text above a report that are read as its heading
/// (the tool's own lines before its banner not counted).
pub const NEAR_LINES: usize = 6;

/// What a benchmark client prints before its report, which is the
/// report's own and no heading: vLLM's and SGLang's run lines, progress
/// bars, the arguments they echo.
const CHATTER: &[&str] = &[
    "Traffic request rate",
    "Burstiness factor",
    "Maximum request concurrency",
    "Starting initial single prompt",
    "Initial test run completed",
    "Starting main benchmark",
    "Namespace(",
    "benchmark_args=",
    "tip: install termplotlib",
];

/// Whether a line is a client's own output before its report
/// ([`CHATTER`], a progress bar).
fn chatter(line: &str) -> bool {
    let l = line.trim();
    l.contains("%|") || CHATTER.iter().any(|c| l.starts_with(c))
}

/// Words that may stand beside an engine's name in a heading: `vLLM
/// results`, `SGLang output`, `# vllm`.
const LABEL_WORDS: &[&str] = &[
    "result",
    "results",
    "output",
    "outputs",
    "benchmark",
    "benchmarks",
    "numbers",
    "performance",
    "perf",
    "run",
    "server",
    "serving",
    "baseline",
    "engine",
    "latest",
    "main",
    "nightly",
    "w/",
    "with",
    "on",
    "for",
    "using",
    "normal",
    "default",
    "defaults",
];

/// Words a heading opens with that say which side of an upgrade a report
/// is.
const BEFORE: &[&str] = &["before", "baseline", "old", "previous", "original"];
const AFTER: &[&str] = &["after", "new", "upgraded"];

/// Words (and signs) after which a version in a title is of no engine by
/// name: the issue's own.
const LEADS: &[&str] = &[
    "from",
    "to",
    "with",
    "on",
    "in",
    "vs",
    "vs.",
    "versus",
    "and",
    "after",
    "before",
    "since",
    "between",
    "than",
    "over",
    "of",
    "at",
    "using",
    "version",
    "release",
    "->",
    "=>",
    "→",
    "(",
    "/",
    ",",
    "[",
    "regression",
    "degradation",
];

/// Which side of an upgrade a report's heading puts it on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// `Before:`: the version upgraded from.
    Before,
    /// `After:`: the version upgraded to.
    After,
}

/// What a report's heading says.
#[derive(Debug, Clone, Default)]
pub struct Near {
    /// The text the report is in ("the issue body", "comment 3").
    pub(super) place: String,
    /// The engine of the nearest line that names one.
    pub(super) engine: Option<Clue>,
    /// Each engine's nearest version.
    pub(super) versions: HashMap<usize, Clue>,
    /// The nearest version said of no engine by name (a short line such
    /// as `0.8.4`).
    pub(super) nameless: Option<Clue>,
    /// `Before:` or `After:`, and the words quoted.
    pub(super) side: Option<(Side, String)>,
}

impl Near {
    /// The nearest version of `engine` (or of none by name).
    pub(super) fn version_of(&self, engine: Option<usize>) -> Option<&Clue> {
        engine
            .and_then(|e| self.versions.get(&e))
            .or(self.nameless.as_ref())
    }
}

/// The words of a line as a heading reads them: its punctuation-only
/// parts (`#`, `**`, `-`) dropped, colons and asterisks trimmed.
fn heading_words(line: &str) -> Vec<String> {
    line.split_whitespace()
        .map(|w| w.trim_matches(|c: char| matches!(c, '#' | '*' | ':' | '`' | '>' | '_')))
        .filter(|w| !w.is_empty() && w.chars().any(char::is_alphanumeric))
        .map(str::to_string)
        .collect()
}

impl Names<'_> {
    /// What the lines above a report say of it: `above` nearest first, in
    /// `place`.
    pub(in crate::lint) fn near<'l>(
        &self,
        place: &str,
        above: impl Iterator<Item = &'l str>,
    ) -> Near {
        let mut out = Near {
            place: place.to_string(),
            ..Near::default()
        };
        for line in above
            .filter(|l| !l.trim().is_empty() && !chatter(l))
            .take(NEAR_LINES)
        {
            let mut clues = self.line(line);
            let words = heading_words(line);
            if out.side.is_none() && words.len() <= 4 {
                let first = words.first().map(|w| w.to_lowercase());
                let side = match first.as_deref() {
                    Some(w) if BEFORE.contains(&w) => Some(Side::Before),
                    Some(w) if AFTER.contains(&w) => Some(Side::After),
                    _ => None,
                };
                if let Some(s) = side {
                    out.side = Some((s, collapse(line)));
                }
            }
            if words.len() <= 3 && clues.iter().all(|c| c.engine.is_none()) {
                if let Some(c) = self.label(line, &words) {
                    clues.push(c);
                }
            }
            let mut engines: Vec<usize> = clues.iter().filter_map(|c| c.engine).collect();
            engines.sort_unstable();
            engines.dedup();
            if engines.len() > 1 {
                // `vllm=0.6.2 vs sglang=0.3.2`: a comparison, no label.
                continue;
            }
            for c in clues {
                if out.engine.is_none() && c.engine.is_some() {
                    out.engine = Some(c.clone());
                }
                if c.version.is_none() {
                    continue;
                }
                match c.engine {
                    Some(e) => {
                        out.versions.entry(e).or_insert(c);
                    }
                    None => {
                        if out.nameless.is_none() {
                            out.nameless = Some(c);
                        }
                    }
                }
            }
        }
        out
    }

    /// A heading of a few words: an engine's name with [`LABEL_WORDS`]
    /// (`vLLM results`, `# SGLang`), or a version alone (`0.8.4`, `v0.9.2
    /// results`).
    fn label(&self, line: &str, words: &[String]) -> Option<Clue> {
        let mut engine = None;
        let mut version = None;
        for w in words {
            let lower = w.to_lowercase();
            if let Some(&e) = self.words.get(&crate::record::package_name(w)) {
                if engine.is_some_and(|x| x != e) {
                    return None;
                }
                engine = Some(e);
            } else if let Some((v, len)) = version_at(w) {
                if len != w.len() || version.is_some() {
                    return None;
                }
                version = Some(v);
            } else if !LABEL_WORDS.contains(&lower.as_str()) {
                return None;
            }
        }
        if engine.is_none() && version.is_none() {
            return None;
        }
        Some(Clue {
            engine,
            version,
            rank: Rank::Prose,
            quote: collapse(line),
        })
    }

    /// The versions a title names, in its order, each with the engine
    /// named right before it, or none by name after a word of [`LEADS`]
    /// (the engine); a version after any other word is another
    /// thing's.
    pub(super) fn title_versions(&self, title: &str) -> Vec<Clue> {
        let mut out: Vec<Clue> = Vec::new();
        let mut i = 0;
        while i < title.len() {
            let rest = &title[i..];
            let c = rest.chars().next().unwrap_or(' ');
            let starts = c.is_ascii_digit()
                || (matches!(c, 'v' | 'V') && rest[1..].starts_with(|d: char| d.is_ascii_digit()));
            let before = title[..i].chars().next_back();
            let apart = before.is_none_or(|b| !is_word(b) && b != '.');
            if !(starts && apart) {
                // An engine's name run into its version: `vllm0.8.5`.
                if is_word(c) && before.is_none_or(|b| !is_word(b)) {
                    let end = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
                    let word = &rest[..end];
                    let split = word.find(|c: char| c.is_ascii_digit()).filter(|&k| k > 0);
                    if let Some(k) = split {
                        if let Some(&e) = self.words.get(&crate::record::package_name(&word[..k])) {
                            if let Some((v, len)) = version_at(&rest[k..]) {
                                out.push(Clue {
                                    engine: Some(e),
                                    version: Some(v),
                                    rank: Rank::Prose,
                                    quote: collapse(&rest[..k + len]),
                                });
                                i += k + len;
                                continue;
                            }
                        }
                    }
                    i += end.max(1);
                    continue;
                }
                i += c.len_utf8();
                continue;
            }
            let Some((v, len)) = version_at(rest) else {
                i += c.len_utf8();
                continue;
            };
            // What stands before it: an engine's name, a lead, or another
            // word.
            let head = title[..i].trim_end_matches([' ', ':', '=', '，', ',']);
            let (word, sign) = {
                let end = head.len();
                let start = head
                    .rfind(|c: char| !(is_word(c) || c == '.'))
                    .map_or(0, |k| {
                        k + head[k..].chars().next().map_or(1, char::len_utf8)
                    });
                (&head[start..end], head[..end].chars().next_back())
            };
            let engine = self.words.get(&crate::record::package_name(word)).copied();
            let lead = word.is_empty()
                || LEADS.contains(&word.to_lowercase().as_str())
                || sign.is_some_and(|s| matches!(s, '(' | '/' | ',' | '[' | '→'))
                || head.ends_with("->")
                || head.ends_with("=>");
            if engine.is_some() || lead {
                let from = if engine.is_some() {
                    head.len() - word.len()
                } else {
                    i
                };
                out.push(Clue {
                    engine,
                    version: Some(v),
                    rank: Rank::Prose,
                    quote: collapse(&title[from..i + len]),
                });
            }
            i += len;
        }
        out
    }
}
