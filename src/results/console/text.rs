//! Reading pasted lines as the tools printed them: a line's `label: value`
//! wherever a prefix put it (`# `, a shell prompt, a log line's head), the
//! tools' numbers (`1,234.56`, `inf`, `N/A`, `5.0689E+14`) with their
//! digits kept when a unit is changed, the rules of `=` and `-` that frame
//! the reports, and the labels of a reader's [`Keys`] matched to a line's
//! label (the longest that fits, case aside, so that `Peak output token
//! throughput` is not taken for `Output token throughput`).

use crate::results::table::Columns;
use crate::results::table::Row;
use crate::results::vocabulary::{Column, From, Keys, Kind, ResultCol as R};

/// The text's lines, without their line ends (`\n`, `\r\n`).
pub(super) fn lines(text: &str) -> Vec<&str> {
    text.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

/// A line without the prefixes a paste puts in front of what the tool
/// printed: blanks, Markdown quotes (`> `), comment marks (`# `), shell and
/// Python prompts (`$ `, `>>> `).
pub(super) fn bare(line: &str) -> &str {
    let mut l = line.trim();
    loop {
        let before = l.len();
        for p in ["> ", "# ", "$ ", ">>> ", "... "] {
            if let Some(rest) = l.strip_prefix(p) {
                l = rest.trim_start();
            }
        }
        if l == ">" || l == "#" {
            return "";
        }
        if l.len() == before {
            return l;
        }
    }
}

/// Whether the line is a rule of `ch` (20 or more, nothing else but the
/// paste's prefix): the line that closes a vLLM or SGLang report, or
/// frames trtllm-bench's sections.
pub(super) fn is_rule(line: &str, ch: char) -> bool {
    let l = bare(line);
    l.chars().count() >= 20 && l.chars().all(|c| c == ch)
}

/// The label and the value of a `label: value` line: the label is what
/// comes before the last colon followed by a blank (a log line's times and
/// a URL's colon are followed by none), its blanks made single spaces; the
/// value what follows, trimmed. `None` for a line without such a colon or
/// without a value.
pub(super) fn label_value(line: &str) -> Option<(String, &str)> {
    let b = line.as_bytes();
    let colon = (0..b.len())
        .rev()
        .find(|&i| b[i] == b':' && b.get(i + 1).is_none_or(|c| *c == b' ' || *c == b'\t'))?;
    let value = line[colon + 1..].trim();
    if value.is_empty() {
        return None;
    }
    let label = line[..colon]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (!label.is_empty()).then_some((label, value))
}

/// The first word of a value (`1.73`, `sglang`, `inf`).
pub(super) fn first_word(value: &str) -> &str {
    value.split_whitespace().next().unwrap_or("")
}

/// A number as the tools print it: digits with thousands separators
/// (genai-perf's `1,234.56`), `inf`, an exponent (`5.0689E+14`). `None`
/// for words that say there is none (`N/A`, `None`, `not set`, `trace`,
/// `nan`) and for anything else that is not a number.
pub(super) fn number(word: &str) -> Option<f64> {
    let w = word.trim().trim_end_matches(',');
    match w.to_ascii_lowercase().as_str() {
        "inf" | "+inf" | "infinity" => return Some(f64::INFINITY),
        "" | "-" | "n/a" | "na" | "none" | "nan" | "not" | "null" | "trace" => return None,
        _ => {}
    }
    let plain: String = w.chars().filter(|c| *c != ',').collect();
    plain.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// The number `word` times 10^`places`, from its digits rather than by a
/// multiplication (`5.2564156893700105` seconds are the double nearest
/// `5256.4156893700105` ms, which `× 1000.0` need not give).
pub(super) fn shifted(word: &str, places: i32) -> Option<f64> {
    let w = word.trim().trim_end_matches(',');
    number(w)?;
    let plain: String = w.chars().filter(|c| *c != ',').collect();
    let (mantissa, exp) = match plain.find(['e', 'E']) {
        Some(i) => (&plain[..i], plain[i + 1..].parse::<i32>().ok()?),
        None => (plain.as_str(), 0),
    };
    format!("{mantissa}e{}", exp + places)
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
}

/// Whether `label` ends with `key`, case aside, at the start of a word:
/// `(APIServer pid=1) INFO Mean TTFT (ms)` ends with `Mean TTFT (ms)`.
pub(super) fn ends_with_label(label: &str, key: &str) -> bool {
    if key.len() > label.len() {
        return false;
    }
    let at = label.len() - key.len();
    label.is_char_boundary(at)
        && label[at..].eq_ignore_ascii_case(key)
        && label[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
}

/// The column a printed label fills among `keys` (their `From::Key` and
/// `From::Seconds` alternatives), the longest label that fits, with the
/// alternative's rank (a lower rank is preferred when two lines give one
/// column) and whether the value is in seconds.
pub(super) fn column_of(keys: &Keys, label: &str) -> Option<(R, usize, bool)> {
    let mut best: Option<(R, usize, bool, usize)> = None;
    for &(col, from) in keys.results {
        let (alts, seconds) = match from {
            From::Key(p) => (p, false),
            From::Seconds(p) => (p, true),
            From::Derived(_) => continue,
        };
        for (rank, alt) in alts.split('|').enumerate() {
            if ends_with_label(label, alt) && best.is_none_or(|b| alt.len() > b.3) {
                best = Some((col, rank, seconds, alt.len()));
            }
        }
    }
    best.map(|(c, r, s, _)| (c, r, s))
}

/// A row being filled from printed lines: each cell keeps the rank of the
/// label that set it, so that `P50 TTFT` wins over `Median TTFT` whatever
/// their order, and a later line of the same label over an earlier one.
pub(super) struct Filling {
    pub(super) row: Row<R>,
    ranks: Vec<Option<usize>>,
}

impl Filling {
    pub(super) fn new() -> Filling {
        Filling {
            row: Row::default(),
            ranks: vec![None; R::ALL.len()],
        }
    }

    /// Sets `col` from `value` (seconds made milliseconds), unless a label
    /// of a lower rank set it. Returns whether the line gave a value.
    pub(super) fn set(&mut self, col: R, rank: usize, seconds: bool, value: &str) -> bool {
        if self.ranks[col.index()].is_some_and(|r| r < rank) {
            return false;
        }
        let word = first_word(value);
        let column: &Column = col.column();
        match column.kind {
            Kind::Number => {
                let x = if seconds {
                    shifted(word, 3)
                } else {
                    number(word)
                };
                self.row.set_num(col, x);
            }
            Kind::Text => self.row.set_text(col, Some(word)),
        }
        self.ranks[col.index()] = Some(rank);
        true
    }

    /// Sets `col` to `x` when no line set it.
    pub(super) fn fill_num(&mut self, col: R, x: Option<f64>) {
        if self.row.get(col).is_none() {
            self.row.set_num(col, x);
        }
    }

    /// Reads one `label: value` line into the row, by `keys`. Returns the
    /// column it set.
    pub(super) fn line(&mut self, keys: &Keys, label: &str, value: &str) -> Option<R> {
        let (col, rank, seconds) = column_of(keys, label)?;
        self.set(col, rank, seconds, value).then_some(col)
    }
}

/// The column separators of a rich table: heavy, light, and plain.
const BARS: [char; 3] = ['┃', '│', '|'];

/// The cells of a rich table line (genai-perf's) between its outer bars; `None` for a line
/// that is no row.
pub(super) fn box_cells(line: &str) -> Option<Vec<String>> {
    let a = line.find(BARS)?;
    let b = line.rfind(BARS)?;
    if b <= a {
        return None;
    }
    let inner = &line[a..b];
    // The first bar's own bytes.
    let skip = inner.chars().next().map_or(0, char::len_utf8);
    Some(
        inner[skip..]
            .split(BARS)
            .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect(),
    )
}

/// The cells of a Markdown table line, from its first `|` to its last
/// (llama-bench's table).
pub(super) fn pipe_cells(line: &str) -> Option<Vec<&str>> {
    let (a, b) = (line.find('|')?, line.rfind('|')?);
    (b > a).then(|| line[a + 1..b].split('|').map(str::trim).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_rules_and_labels() {
        assert_eq!(
            bare("  > # $ Successful requests: 3"),
            "Successful requests: 3"
        );
        assert!(is_rule(
            "# ==================================================",
            '='
        ));
        assert!(!is_rule(
            "============ Serving Benchmark Result ============",
            '='
        ));
        assert_eq!(
            label_value("(APIServer pid=1) INFO 09-02 13:08:10 Mean TTFT (ms):   12.5  "),
            Some((
                "(APIServer pid=1) INFO 09-02 13:08:10 Mean TTFT (ms)".into(),
                "12.5"
            ))
        );
        assert_eq!(
            label_value("[Latency] P50    : 3936.3022"),
            Some(("[Latency] P50".into(), "3936.3022"))
        );
        assert_eq!(label_value("see http://host:8000/v1"), None);
        assert!(ends_with_label("# Mean TTFT (ms)", "mean ttft (ms)"));
        assert!(!ends_with_label("Xmean TTFT (ms)", "mean ttft (ms)"));
    }

    #[test]
    fn numbers_keep_their_digits() {
        assert_eq!(number("1,234.56"), Some(1234.56));
        assert_eq!(number("inf"), Some(f64::INFINITY));
        assert_eq!(number("N/A"), None);
        assert_eq!(number("5.0689E+14"), Some(5.0689e14));
        assert_eq!(
            shifted("5.2564156893700105", 3),
            "5256.4156893700105".parse().ok()
        );
        assert_eq!(shifted("13525.6862", -3), Some(13.5256862));
        assert_eq!(shifted("1.5E+2", 3), Some(150_000.0));
    }
}
