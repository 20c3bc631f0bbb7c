//! The words a finding is found by, worked out once per finding with its
//! card (see [`super::cards`]), for the search index (`outputs::search`).
//!
//! `terms` holds what a reader may type to narrow down: engine ids and
//! names with the versions the entry names, the status note, group title,
//! models, hardware and tags. `words` is not the body text but its
//! distinct words, lowercased, in order of first appearance, without
//! common English words and without words already found in the other
//! fields, cut at `BODY_CHARS`: enough to find a finding by what it talks
//! about, at a fraction of the size.

use crate::model::Model;
use crate::record::Finding;
use std::collections::HashSet;

/// The most characters of body words kept per finding.
pub(crate) const BODY_CHARS: usize = 1200;

/// A finding's `terms` and `words` fields (see the module's comment): its
/// engines, versions, notes, group, models, hardware and tags; and the
/// words of `body_text` not already in another field.
pub(crate) fn terms_and_words(
    model: &Model,
    f: &Finding,
    title_text: &str,
    summary_text: &str,
    body_text: String,
) -> (String, String) {
    let mut terms: Vec<String> = Vec::new();
    for e in &f.engines {
        terms.push(e.engine.clone());
        if let Some(eng) = model.site.engines.iter().find(|x| x.id == e.engine) {
            if eng.name.to_lowercase() != e.engine {
                terms.push(eng.name.clone());
            }
        }
        for v in e.versions() {
            terms.push(v.to_string());
        }
        terms.extend(e.note.clone());
    }
    terms.extend(f.status_note.clone());
    if let Some(g) = model.site.groups.iter().find(|g| g.id == f.group) {
        terms.push(g.title.clone());
    }
    terms.extend(f.models.iter().cloned());
    terms.extend(f.hardware.iter().cloned());
    terms.extend(f.tags.iter().cloned());
    let terms = terms.join(" ");
    let seen = format!("{title_text} {} {summary_text} {terms}", f.advice);
    let words = body_words(body_text, &seen, BODY_CHARS);
    (terms, words)
}

/// [`STOP`] as a set: a binary search of it was a fifth of this module's
/// time (a string comparison per step, for every word of every body).
fn stop_words() -> &'static HashSet<&'static str, foldhash::fast::FixedState> {
    static SET: std::sync::OnceLock<HashSet<&'static str, foldhash::fast::FixedState>> =
        std::sync::OnceLock::new();
    SET.get_or_init(|| STOP.iter().copied().collect())
}

/// The length of the longest word of [`STOP`]: a longer word is not looked up.
const STOP_LEN: usize = 7;

/// Common English words that carry nothing for search, sorted.
const STOP: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "before", "both", "but", "by", "can", "could", "did", "do", "does", "each", "either", "for",
    "from", "had", "has", "have", "how", "if", "in", "into", "is", "it", "its", "may", "more",
    "most", "much", "no", "nor", "not", "of", "on", "one", "only", "or", "other", "our", "out",
    "over", "same", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "those", "through", "to", "too", "two", "under", "until", "up", "us",
    "was", "we", "were", "what", "when", "where", "which", "while", "who", "why", "will", "with",
    "would", "you", "your",
];

/// The words of lowercased `text`: runs of letters, digits and `.-_+/`,
/// trimmed to start and end with a letter or digit (so versions and flags
/// stay whole: `0.32.0`, `max-model-len`).
pub(crate) fn words(lower: &str) -> impl Iterator<Item = &str> + '_ {
    // Either iterator, not a boxed one: no call through a vtable for
    // each word, and the search index's loop inlines the iterator's.
    if lower.is_ascii() {
        return Words::Ascii(ascii_words(lower));
    }
    let is_word = |c: char| c.is_alphanumeric() || matches!(c, '.' | '-' | '_' | '+' | '/');
    Words::Any(
        lower
            .split(move |c: char| !is_word(c))
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .filter(|w| !w.is_empty()),
    )
}

/// [`words`]' iterator: of ASCII text, a byte at a time, or of any text.
enum Words<A, B> {
    Ascii(A),
    Any(B),
}

impl<'t, A: Iterator<Item = &'t str>, B: Iterator<Item = &'t str>> Iterator for Words<A, B> {
    type Item = &'t str;

    #[inline]
    fn next(&mut self) -> Option<&'t str> {
        match self {
            Words::Ascii(a) => a.next(),
            Words::Any(b) => b.next(),
        }
    }
}

/// The bytes of a word: letters, digits and `.-_+/` (see [`words`]).
const WORD_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b'_' | b'+' | b'/');
        b += 1;
    }
    t
};

/// [`words`] of ASCII text, a byte at a time: the same words, without
/// decoding characters (splitting bodies by `char` was most of the index's
/// time), each byte's class read from a table.
fn ascii_words(lower: &str) -> AsciiWords<'_> {
    AsciiWords { text: lower, i: 0 }
}

/// [`ascii_words`]' iterator: a type of its own with an inlined `next`,
/// where a closure was a call per word of every body.
struct AsciiWords<'t> {
    text: &'t str,
    /// Where the next word is looked for.
    i: usize,
}

impl<'t> Iterator for AsciiWords<'t> {
    type Item = &'t str;

    /// Inlined: a call per word of every body was a fifth of its cost.
    #[inline(always)]
    fn next(&mut self) -> Option<&'t str> {
        let bytes = self.text.as_bytes();
        let mut i = self.i;
        loop {
            while i < bytes.len() && !WORD_BYTES[usize::from(bytes[i])] {
                i += 1;
            }
            if i == bytes.len() {
                self.i = i;
                return None;
            }
            let (mut start, mut end) = (i, i);
            while end < bytes.len() && WORD_BYTES[usize::from(bytes[end])] {
                end += 1;
            }
            i = end;
            while start < end && !bytes[start].is_ascii_alphanumeric() {
                start += 1;
            }
            while end > start && !bytes[end - 1].is_ascii_alphanumeric() {
                end -= 1;
            }
            if start < end {
                self.i = i;
                return Some(&self.text[start..end]);
            }
        }
    }
}

/// `s` lowercased, by the much faster ASCII path when it is ASCII.
pub(crate) fn lowercase(s: &str) -> String {
    if s.is_ascii() {
        s.to_ascii_lowercase()
    } else {
        s.to_lowercase()
    }
}

/// The distinct words of `text`, lowercased, in order of first appearance,
/// leaving out stop words, one-character words and the words of `seen`,
/// joined by spaces and cut at a word boundary within `limit` bytes.
/// `text` is taken by value to be lowercased in place: a body's text is
/// made for this alone, and a lowercased copy of it cost as much again.
pub(crate) fn body_words(mut text: String, seen: &str, limit: usize) -> String {
    let lower = if text.is_ascii() {
        text.make_ascii_lowercase();
        text
    } else {
        text.to_lowercase()
    };
    let seen = lowercase(seen);
    let mut taken = Taken::default();
    for w in words(&seen) {
        taken.insert(w);
    }
    new_words(words(&lower), taken, limit)
}

/// The words [`new_words`] has met. A word of up to 8 bytes is kept as
/// those bytes in a `u64` ([`short_key`]): most words are that short, and
/// a number hashes and compares in a few instructions, where a string's
/// hash and comparison were a third of the time of a body's words (every
/// word of every body is looked up).
struct Taken<'t> {
    /// The last short word met in each of [`RECENT`] slots, by a hash of
    /// its key: a body repeats its words, and about half of them are found
    /// here at the cost of a multiplication, before the set is asked. A key
    /// is put in a slot only once it is in `short`, so a word found in its
    /// slot was taken; 0, no word's key, marks an empty slot.
    recent: Vec<u64>,
    short: HashSet<u64, foldhash::fast::FixedState>,
    long: HashSet<&'t str, foldhash::fast::FixedState>,
}

/// How many slots [`Taken::recent`] has: four times the distinct words of
/// a body, so that few words share a slot.
const RECENT_BITS: u32 = 10;

impl Default for Taken<'_> {
    /// A body has a few hundred distinct words: room for them from the
    /// start, not a table grown and rehashed again and again.
    fn default() -> Self {
        Taken {
            recent: vec![0; 1 << RECENT_BITS],
            short: HashSet::with_capacity_and_hasher(512, Default::default()),
            long: HashSet::with_capacity_and_hasher(128, Default::default()),
        }
    }
}

impl<'t> Taken<'t> {
    /// Takes `w`; false if it was taken already. Inlined: a call per word
    /// of every body cost a fifth as much as the lookup.
    #[inline(always)]
    fn insert(&mut self, w: &'t str) -> bool {
        if w.len() > 8 {
            return self.long.insert(w);
        }
        let key = short_key(w.as_bytes());
        // Fibonacci hashing: the top bits of the product mix all bytes.
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - RECENT_BITS)) as usize;
        if self.recent[slot] == key {
            return false;
        }
        self.recent[slot] = key;
        self.short.insert(key)
    }
}

/// A word of up to 8 bytes as `u64::from_le_bytes` reads it padded with
/// zeros, which no word holds (so no two words share a key), without
/// copying it into a buffer (a call to `memcpy` for each word): its first
/// and last bytes read as two numbers that overlap in the middle, where
/// they hold the same bytes.
#[inline(always)]
fn short_key(w: &[u8]) -> u64 {
    let n = w.len();
    match n {
        4..=8 => {
            let first = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let last = u32::from_le_bytes([w[n - 4], w[n - 3], w[n - 2], w[n - 1]]);
            u64::from(first) | u64::from(last) << (8 * (n - 4))
        }
        2..=3 => {
            let first = u16::from_le_bytes([w[0], w[1]]);
            let last = u16::from_le_bytes([w[n - 2], w[n - 1]]);
            u64::from(first) | u64::from(last) << (8 * (n - 2))
        }
        1 => u64::from(w[0]),
        _ => 0,
    }
}

/// [`body_words`]' loop: the words of `words` not in `taken` (nor stop
/// words, nor one character long), each once, joined within `limit` bytes.
#[inline]
fn new_words<'t>(
    words: impl Iterator<Item = &'t str>,
    mut taken: Taken<'t>,
    limit: usize,
) -> String {
    let stop = stop_words();
    let mut out = String::new();
    for w in words {
        // A word met before is skipped before the stop words are looked
        // up: a body repeats its words, and a stop word, once taken, is
        // skipped as met. The same words come out.
        if (w.len() <= 4 && w.chars().nth(1).is_none())
            || !taken.insert(w)
            || (w.len() <= STOP_LEN && stop.contains(w))
        {
            continue;
        }
        if out.len() + w.len() + 1 > limit {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_words_equal_the_char_split() {
        let text = "run --max-model-len=4096 on vllm 0.32.0, then... ./bench.py -v; \
                    a+b c/d _x_ .hidden. 1.2.3- (tp_size) 'quoted' \"x\" -- / ++";
        let by_char: Vec<&str> = text
            .split(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '-' | '_' | '+' | '/')))
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .filter(|w| !w.is_empty())
            .collect();
        assert_eq!(ascii_words(text).collect::<Vec<_>>(), by_char);
        assert!(by_char.contains(&"max-model-len") && by_char.contains(&"1.2.3"));
    }

    #[test]
    fn body_words_are_distinct_new_and_bounded() {
        let text = "The cache <b>size</b> changed; run `--max-model-len` on vLLM 0.30, \
                    then the cache size changed again.";
        let words = body_words(text.to_string(), "the size", 1000);
        assert_eq!(words, "cache changed run max-model-len vllm 0.30 again");
        let short = body_words(text.to_string(), "", 20);
        assert!(short.len() <= 20, "{short}");
        assert_eq!(short, "cache size changed");
    }

    /// [`body_words`] as it was before words were kept as numbers and the
    /// text lowercased in place: a set of strings, over a lowercased copy.
    fn body_words_by_strings(text: &str, seen: &str, limit: usize) -> String {
        let (lower, seen) = (lowercase(text), lowercase(seen));
        let mut taken: HashSet<&str> = words(&seen).collect();
        let mut out = String::new();
        for w in words(&lower) {
            if w.chars().count() == 1 || !taken.insert(w) || STOP.contains(&w) {
                continue;
            }
            if out.len() + w.len() + 1 > limit {
                break;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(w);
        }
        out
    }

    #[test]
    fn body_words_are_those_of_a_set_of_strings() {
        // Words of 7, 8 and 9 bytes (kept as numbers or as strings), ones
        // that differ only past their eighth byte or by case, words of
        // `seen` of both kinds, one-character words of two bytes, and text
        // that is not ASCII.
        let texts = [
            "Abcdefgh abcdefgh abcdefghi ABCDEFGHI abcdefghz abcdefg abcdefgh abcdefghij \
             abcdefghik prefill-chunk prefill-chunked x é ée the The vLLM vllm",
            "Überall Straße straße STRASSE max_model_len max_model_len 0.32.0 \
             1.2.3 0.32.0 naïve naïve ø Ø data/runs data/runs a+b",
            "",
            "the of and a",
        ];
        let seens = ["", "abcdefgh prefill-chunked", "straße vllm max_model_len"];
        for text in texts {
            for seen in seens {
                for limit in [0, 1, 3, 9, 10, 20, 40, 1200] {
                    assert_eq!(
                        body_words(text.to_string(), seen, limit),
                        body_words_by_strings(text, seen, limit),
                        "{text:?} {seen:?} {limit}"
                    );
                }
            }
        }
    }

    #[test]
    fn short_keys_are_the_bytes_padded_with_zeros() {
        let word = b"abcdefgh";
        for n in 0..=8 {
            let mut padded = [0u8; 8];
            padded[..n].copy_from_slice(&word[..n]);
            assert_eq!(short_key(&word[..n]), u64::from_le_bytes(padded), "{n}");
        }
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(STOP.iter().map(|w| w.len()).max(), Some(STOP_LEN));
    }
}
