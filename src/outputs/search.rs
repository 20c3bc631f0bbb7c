//! The search index, split so that a query fetches only what it needs.
//!
//! Every word of every listed finding (and each part of a compound word,
//! `engine-core`) points to the findings it occurs in and in which fields
//! (title, advice, terms, summary, body; see `crate::render::words` for
//! what `terms` and `body` hold). The words are
//! cut into shards by their first letters: a shard holds every word that
//! starts with its key, and a shard bigger than [`SHARD_BYTES`] is split by
//! one more letter, down to whole words. A query fetches the small
//! manifest, then one shard per word typed (two when its stem falls
//! elsewhere), then the JSON file of each finding it shows (`f/<id>.json`,
//! a few kilobytes). A site of 10,000 findings answers a query with a few
//! hundred kilobytes, where the single index it replaced weighed 17 MB.
//!
//! `search-index.json`, the manifest:
//!
//! ```json
//! {"schema_version":3,"fields":["title","advice","terms","summary","body"],
//!  "count":20,"keys":"0~{.}a~{b}…p~{r{e{f…}…}…}","shards":"search-index/"}
//! ```
//!
//! `keys` names every shard's key, as a trie in one string ([`trie`]):
//! each letter extends the key of the letters it stands in, `~` after it
//! says that key has no shard of its own (a first letter, of no word
//! alone), and `{…}` after it hold the keys one letter longer, which are
//! there because it was split. At 10,000 findings this is 4 KB, where a
//! list of the keys and of the split ones was 22.
//!
//! `search-index/<key>.json`, a shard, named by its key's UTF-8 bytes in
//! hexadecimal (`707265.json` for `pre`): `{"<word>": "<numbers>"}`, each
//! finding that has the word as one number `(id − previous id − 1) × 32 +
//! fields`, ids ascending, `fields` a bit per field in the manifest's
//! order, each number in letters of base64 ([`push_number`]: `B` is 1,
//! F1 in its title; `jC` is 67, two findings on in its title and
//! advice). A split key's own shard holds only the word equal to the
//! key.
//! The search script (`static/search.js`) finds every word that starts
//! with each word typed and ranks by where they matched.
//!
//! The runs and the workloads the site follows are searched too, from an
//! index of their own made the same way (`search_docs.rs`), which the
//! manifest names under `docs`.

use crate::model::Model;
use crate::render::cards::{FindingText, SearchText};
use crate::render::reuse::{Reuse, Words};
use crate::render::words::{lowercase, words};
use crate::sink::{Output, WriteError};
use crate::urls;
use rayon::prelude::*;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// The version of the index format; the script checks it.
pub const SCHEMA_VERSION: u32 = 3;

/// The fields a word is found in, in the order of their bits.
pub const FIELDS: [&str; 5] = ["title", "advice", "terms", "summary", "body"];

/// A shard over this many bytes is split by one more letter.
pub const SHARD_BYTES: usize = 16 * 1024;

/// The letters a shard key starts with, before any split.
const KEY_CHARS: usize = 2;

/// `search-index.json`.
#[derive(Serialize)]
struct Manifest {
    schema_version: u32,
    fields: [&'static str; 5],
    /// How many findings are indexed.
    count: usize,
    /// The key of every shard and which were split, as a [`trie`]: a
    /// word whose key is not here is in no finding, and nothing is
    /// fetched for it.
    keys: String,
    /// The folder of the shards, from the site root.
    shards: &'static str,
    /// The index of the runs and the workloads, where the site has any.
    #[serde(skip_serializing_if = "Option::is_none")]
    docs: Option<super::search_docs::DocsManifest>,
}

/// Each word and the findings it occurs in, ids ascending; sorted by word.
/// A sorted list, not a map: it is built once and then read in order.
pub(super) struct Postings(pub(super) Vec<(Box<str>, Coded)>);

#[cfg(test)]
impl Postings {
    /// The words, in order.
    fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(w, _)| &**w)
    }
}

/// The tests' way to build postings by hand; [`postings`] builds them sorted.
#[cfg(test)]
impl FromIterator<(String, Coded)> for Postings {
    fn from_iter<I: IntoIterator<Item = (String, Coded)>>(items: I) -> Self {
        let mut v: Vec<(Box<str>, Coded)> = items.into_iter().map(|(w, c)| (w.into(), c)).collect();
        v.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Postings(v)
    }
}

/// The findings a word occurs in, already as its shard writes them: each
/// as the number `(id − previous id) × 32 + fields`, kept in LEB128 (seven
/// bits a byte). Most numbers take a byte or two, where an `(id, fields)`
/// pair took eight: the index of 10,000 findings was the build's peak of
/// memory.
#[derive(Debug, Default, Clone)]
pub(super) struct Coded {
    /// The id of the last finding added.
    last: u32,
    bytes: Vec<u8>,
}

impl Coded {
    /// Adds finding `id` (above the last one) with the fields `bits`.
    pub(super) fn push(&mut self, id: u32, bits: u8) {
        let mut n = u64::from(id - self.last) * 32 + u64::from(bits);
        self.last = id;
        while n >= 0x80 {
            self.bytes.push((n as u8 & 0x7f) | 0x80);
            n >>= 7;
        }
        self.bytes.push(n as u8);
    }

    /// The numbers, in order.
    fn numbers(&self) -> impl Iterator<Item = u64> + '_ {
        let mut bytes = self.bytes.iter();
        std::iter::from_fn(move || {
            let (mut n, mut shift) = (0u64, 0);
            loop {
                let b = *bytes.next()?;
                n |= u64::from(b & 0x7f) << shift;
                if b < 0x80 {
                    return Some(n);
                }
                shift += 7;
            }
        })
    }
}

/// Writes the manifest and the shards of the listed findings of `model`;
/// returns how many files it wrote.
pub(crate) fn write<O: Output>(
    model: &Model,
    texts: &[FindingText<'_>],
    search: Vec<SearchText>,
    out: &O,
    reuse: &Reuse<'_>,
) -> Result<usize, WriteError> {
    let postings = postings(model, texts, search, reuse);
    // Each shard is written as soon as it is made: only the keys wait for
    // the manifest.
    let mut keys: Vec<(String, bool)> = Vec::new();
    shard(&postings, &mut |key, split, bytes| {
        out.write(&urls::search_shard(key), bytes)?;
        keys.push((key.to_string(), split));
        Ok(())
    })?;
    keys.sort_unstable();
    let (docs, written) = super::search_docs::write(model, out)?;
    let manifest = Manifest {
        schema_version: SCHEMA_VERSION,
        fields: FIELDS,
        count: model.listed().count(),
        keys: trie(&keys),
        shards: urls::SEARCH_SHARDS,
        docs,
    };
    out.write(urls::SEARCH_INDEX, &super::export::to_bytes(&manifest))?;
    Ok(1 + keys.len() + written)
}

/// A letter of the keys' trie: whether its key has a shard, whether it
/// was split, and the letters after it.
#[derive(Default)]
struct Node {
    key: bool,
    split: bool,
    next: BTreeMap<char, Node>,
}

/// Shard keys (each with whether it was split) as one string: the trie
/// of their letters, in order, each letter followed by `~` where its key
/// has no shard and by `{…}` (the letters after it) where it has any or
/// was split. `{`, `}` and `~` are in no word ([`words`]), so the string
/// reads back without escapes (`static/search.js`, `trie`).
pub(super) fn trie(keys: &[(String, bool)]) -> String {
    let mut root = Node::default();
    for (k, split) in keys {
        let mut node = &mut root;
        for c in k.chars() {
            node = node.next.entry(c).or_default();
        }
        node.key = true;
        node.split = *split;
    }
    fn push(out: &mut String, node: &Node) {
        for (c, n) in &node.next {
            out.push(*c);
            if !n.key {
                out.push('~');
            }
            if n.split || !n.next.is_empty() {
                out.push('{');
                push(out, n);
                out.push('}');
            }
        }
    }
    let mut out = String::new();
    push(&mut out, &root);
    out
}

/// A hash map with foldhash: the standard SipHash was a third of the
/// index's time (a lookup for every word of every finding).
type Map<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

/// Every word of the listed findings with where it occurs. Findings are
/// read a chunk at a time, in parallel within a chunk, so only one chunk's
/// words are held besides the index, and each chunk's search texts are
/// freed once read (`search` is every finding's, by index: 9 MB at 10,000
/// findings, which the index's own 12 MB came on top of); under `serve`
/// each finding's words are reused while its texts are the same.
fn postings(
    model: &Model,
    texts: &[FindingText<'_>],
    mut search: Vec<SearchText>,
    reuse: &Reuse<'_>,
) -> Postings {
    let listed: Vec<usize> = model.listed().collect();
    // Each word's number in `coded`: entries of a word and a number rather
    // than of a word and its postings keep the table small (75,000 words
    // at 10,000 findings, and the table doubles as it grows).
    let mut numbers: Map<Box<str>, u32> = Map::default();
    let mut coded: Vec<Coded> = Vec::new();
    for chunk in listed.chunks(512) {
        let own: Vec<SearchText> = chunk
            .iter()
            .map(|&i| std::mem::take(&mut search[i]))
            .collect();
        let lists: Vec<(u32, Found<'_>)> = chunk
            .par_iter()
            .zip(own.par_iter())
            .map_init(Map::default, |mine, (&i, s)| {
                let (f, t) = (&model.findings[i], &texts[i]);
                if !reuse.enabled() {
                    // Nothing is kept: the words stay borrowed from the texts.
                    return (f.id, Found::Made(words_of(&f.advice, t, s, mine)));
                }
                let key = reuse.key((
                    "search words",
                    t.title_text,
                    &f.advice,
                    &*s.terms,
                    t.summary_text,
                    &*s.words,
                ));
                let words = reuse.words(key, || {
                    words_of(&f.advice, t, s, mine)
                        .into_iter()
                        .map(|(w, bits)| (Box::from(&*w), bits))
                        .collect()
                });
                (f.id, Found::Kept(words))
            })
            .collect();
        // Findings are listed by id, so each word's list is in id order.
        for (id, found) in &lists {
            for (w, bits) in found.iter() {
                let n = match numbers.get(w) {
                    Some(&n) => n,
                    None => {
                        let n = coded.len() as u32;
                        numbers.insert(w.into(), n);
                        coded.push(Coded::default());
                        n
                    }
                };
                coded[n as usize].push(*id, bits);
            }
        }
    }
    let mut words: Vec<(Box<str>, u32)> = numbers.into_iter().collect();
    words.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Postings(
        words
            .into_iter()
            .map(|(w, n)| (w, std::mem::take(&mut coded[n as usize])))
            .collect(),
    )
}

/// A finding's words with their fields: as [`words_of`] made them, or as
/// a rebuild keeps them.
enum Found<'t> {
    Made(Vec<(Cow<'t, str>, u8)>),
    Kept(Words),
}

impl Found<'_> {
    fn iter(&self) -> Box<dyn Iterator<Item = (&str, u8)> + '_> {
        match self {
            Found::Made(v) => Box::new(v.iter().map(|(w, bits)| (&**w, *bits))),
            Found::Kept(v) => Box::new(v.iter().map(|(w, bits)| (&**w, *bits))),
        }
    }
}

/// The words of one finding, each with the fields it is in; `mine` is a
/// map to reuse, left empty.
fn words_of<'t>(
    advice: &'t str,
    t: &FindingText<'t>,
    s: &'t SearchText,
    mine: &mut Map<Cow<'t, str>, u8>,
) -> Vec<(Cow<'t, str>, u8)> {
    let fields = [t.title_text, advice, &s.terms, t.summary_text];
    for (bit, text) in fields.into_iter().enumerate() {
        for w in words(text) {
            add_word(mine, w, bit);
        }
    }
    // The body's words are already words, lowercased, one space between
    // each: split at the spaces, not read again a byte at a time.
    for w in s.words.split(' ').filter(|w| !w.is_empty()) {
        add_word(mine, w, FIELDS.len() - 1);
    }
    mine.drain().collect()
}

/// Marks `w` (and its parts) in `mine` as found in field `bit`.
/// Inlined into its two loops: a call per word was as much as its loop.
#[inline(always)]
fn add_word<'t>(mine: &mut Map<Cow<'t, str>, u8>, w: &'t str, bit: usize) {
    // Most words are a lowercase word and nothing else: taken as they
    // are, without a copy.
    if w.bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.')
    {
        *mine.entry(Cow::Borrowed(w)).or_default() |= 1 << bit;
        return;
    }
    for part in parts(w) {
        *mine.entry(Cow::Owned(part)).or_default() |= 1 << bit;
    }
}

/// The words a query finds `word` (as written in the text) by, lowercased:
/// the word itself, and the parts of a compound (`engine-core`,
/// `max_model_len`, `runs/x`) or of a name in camel case
/// (`VLLM::EngineCore` gives `enginecore`, `engine` and `core`), so that a
/// query for any part finds it.
pub(super) fn parts(word: &str) -> Vec<String> {
    let mut out = vec![lowercase(word)];
    let mut add = |p: &str| {
        let p = lowercase(p);
        if !p.is_empty() && !out.contains(&p) {
            out.push(p);
        }
    };
    for piece in word.split(['-', '_', '/', '+']) {
        add(piece);
        // A lower-case letter followed by an upper-case one starts a part.
        let mut start = 0;
        let mut prev_lower = false;
        for (i, c) in piece.char_indices() {
            if c.is_uppercase() && prev_lower {
                add(&piece[start..i]);
                start = i;
            }
            prev_lower = c.is_lowercase();
        }
        if start > 0 {
            add(&piece[start..]);
        }
    }
    out
}

/// The first `n` characters of `w`.
fn prefix(w: &str, n: usize) -> &str {
    w.char_indices().nth(n).map_or(w, |(i, _)| &w[..i])
}

/// What [`shard`] hands each shard to: its key, whether it was split, its
/// bytes.
pub(super) type WriteShard<'a> = dyn FnMut(&str, bool, &[u8]) -> Result<(), WriteError> + 'a;

/// Cuts `postings` into shards, by the words' first [`KEY_CHARS`] letters,
/// each over [`SHARD_BYTES`] split by one letter more, and hands each to
/// `write` with its key, whether it was split (then it holds only the word
/// equal to its key) and its bytes.
pub(super) fn shard(postings: &Postings, write: &mut WriteShard<'_>) -> Result<(), WriteError> {
    // Each word by its place in `postings`, with what its entry weighs,
    // worked out once: a key split three times would otherwise weigh its
    // words four times.
    let words = &postings.0;
    let sizes: Vec<usize> = words.iter().map(|(w, c)| entry_size(w, c)).collect();
    let mut by_key: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, (w, _)) in words.iter().enumerate() {
        by_key.entry(prefix(w, KEY_CHARS)).or_default().push(i);
    }
    let mut todo: Vec<(usize, &str, Vec<usize>)> = by_key
        .into_iter()
        .map(|(k, ws)| (KEY_CHARS, k, ws))
        .collect();
    while let Some((n, key, ws)) = todo.pop() {
        // A key as long as its words cannot be split further.
        let size: usize = 2 + ws.iter().map(|&i| sizes[i]).sum::<usize>();
        if size <= SHARD_BYTES || ws.iter().all(|&i| words[i].0.chars().count() <= n) {
            write(key, false, &shard_bytes(postings, &ws))?;
            continue;
        }
        let mut sub: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        let mut own = Vec::new();
        for i in ws {
            let w = &words[i].0;
            if w.chars().count() <= n {
                own.push(i);
            } else {
                sub.entry(prefix(w, n + 1)).or_default().push(i);
            }
        }
        write(key, true, &shard_bytes(postings, &own))?;
        todo.extend(sub.into_iter().map(|(k, ws)| (n + 1, k, ws)));
    }
    Ok(())
}

/// The bytes `"word":[…],` takes in a shard, without writing it: what
/// decides whether a shard is split (serializing every candidate shard to
/// measure it was most of the index's time).
fn entry_size(word: &str, postings: &Coded) -> usize {
    let numbers: usize = postings.numbers().map(|n| letters(written(n))).sum();
    // The word as a JSON string (words rarely need an escape, but count
    // it as written), a colon, the numbers' quotes and a comma after the
    // entry.
    let quoted = if word.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        serde_json::to_string(word).map_or(word.len() + 2, |s| s.len())
    } else {
        word.len() + 2
    };
    quoted + numbers + 4
}

/// The letters a shard writes its numbers in: base64's, the URL-safe
/// ones, none of which a JSON string escapes.
const LETTERS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// A finding's number as a shard writes it, `(id − previous id − 1) ×
/// 32 + fields`: one finding less than [`Coded`] counts, as ids only
/// ascend (a word in every finding is one letter a finding).
fn written(n: u64) -> u64 {
    n.saturating_sub(32)
}

/// How many letters [`push_number`] writes `n` in.
fn letters(mut n: u64) -> usize {
    let mut k = 1;
    while n >= 32 {
        n >>= 5;
        k += 1;
    }
    k
}

/// Appends `n` as letters of [`LETTERS`], five bits a letter, the lowest
/// first, each letter but the last with its sixth bit (32) set: `33` is
/// `hB`. Two letters for most findings of a word, where its decimal
/// digits and a comma took three or four.
fn push_number(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let d = (n & 31) as usize;
        n >>= 5;
        if n == 0 {
            out.push(LETTERS[d]);
            return;
        }
        out.push(LETTERS[d | 32]);
    }
}

/// A shard's file: each of `ws` with its findings, delta-coded, written
/// straight into bytes (a `serde_json::Map` of `Value`s cost an allocation
/// per number).
fn shard_bytes(postings: &Postings, ws: &[usize]) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + ws.len() * 32);
    out.push(b'{');
    for (k, &i) in ws.iter().enumerate() {
        let (w, coded) = &postings.0[i];
        if k > 0 {
            out.push(b',');
        }
        let _ = serde_json::to_writer(&mut out, &**w);
        out.extend_from_slice(b":\"");
        for n in coded.numbers() {
            push_number(&mut out, written(n));
        }
        out.push(b'"');
    }
    out.extend_from_slice(b"}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coded(p: &[(u32, u8)]) -> Coded {
        let mut c = Coded::default();
        for &(id, bits) in p {
            c.push(id, bits);
        }
        c
    }

    fn postings_of(words: &[(&str, &[(u32, u8)])]) -> Postings {
        words
            .iter()
            .map(|(w, p)| (w.to_string(), coded(p)))
            .collect()
    }

    /// Every shard of `p`: its key, whether it was split, its text.
    struct Written {
        key: String,
        split: bool,
        bytes: Vec<u8>,
    }

    fn shards_of(p: &Postings) -> Vec<Written> {
        let mut out = Vec::new();
        shard(p, &mut |key, split, bytes| {
            out.push(Written {
                key: key.to_string(),
                split,
                bytes: bytes.to_vec(),
            });
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn the_keys_are_one_trie() {
        let keys: Vec<(String, bool)> = [
            ("0.", true),
            ("0.3", false),
            ("a", false),
            ("ab", false),
            ("pr", true),
            ("pr-", false),
            ("pre", true),
            ("pref", false),
            ("éc", false),
        ]
        .iter()
        .map(|&(k, s)| (k.to_string(), s))
        .collect();
        assert_eq!(trie(&keys), "0~{.{3}}a{b}p~{r{-e{f}}}é~{c}");
        // A split key all of whose words were split off still says so.
        let keys = [("pr".to_string(), true)];
        assert_eq!(trie(&keys), "p~{r{}}");
    }

    #[test]
    fn postings_keep_their_numbers() {
        let p = [(1, 1), (2, 31), (1_000, 16), (u32::MAX, 3)];
        let expected: Vec<u64> = vec![33, 63, 998 * 32 + 16, u64::from(u32::MAX - 1_000) * 32 + 3];
        assert_eq!(coded(&p).numbers().collect::<Vec<_>>(), expected);
        // A byte or two for most findings.
        assert_eq!(coded(&[(1, 1), (3, 4)]).bytes.len(), 2);
    }

    #[test]
    fn shards_hold_their_prefix_and_split_when_big() {
        let many: Vec<(u32, u8)> = (1..=20_000).map(|i| (i, 16)).collect();
        let p = postings_of(&[
            ("prefill", &many),
            ("prefix", &many),
            ("pre", &[(3, 1)]),
            ("run", &[(1, 1), (4, 3)]),
        ]);
        let shards = shards_of(&p);
        let keys: Vec<(&str, bool)> = shards.iter().map(|s| (s.key.as_str(), s.split)).collect();
        // "pr" and "pre" are too big; "pref" still holds two big words, so
        // it splits down to the words themselves.
        assert!(
            keys.contains(&("pr", true)) && keys.contains(&("pre", true)),
            "{keys:?}"
        );
        assert!(keys.contains(&("ru", false)), "{keys:?}");
        let pre = shards.iter().find(|s| s.key == "pre").unwrap();
        // F3 in the title: 2×32+1, 65, is `hC` (1 + 32, then 2).
        assert_eq!(String::from_utf8_lossy(&pre.bytes), "{\"pre\":\"hC\"}\n");
        let ru = shards.iter().find(|s| s.key == "ru").unwrap();
        // F1 in the title (1), F4 in the title and advice (3): 0×32+1,
        // 2×32+3: 1 and 67, `B` and `jC`.
        assert_eq!(String::from_utf8_lossy(&ru.bytes), "{\"run\":\"BjC\"}\n");
        // Every word is in exactly one shard.
        for w in p.keys() {
            let n = shards
                .iter()
                .filter(|s| String::from_utf8_lossy(&s.bytes).contains(&format!("\"{w}\":")))
                .count();
            assert_eq!(n, 1, "{w}");
        }
    }

    #[test]
    fn compounds_and_camel_case_names_are_found_by_their_parts() {
        assert_eq!(parts("EngineCore"), ["enginecore", "engine", "core"]);
        assert_eq!(
            parts("max-model-len"),
            ["max-model-len", "max", "model", "len"]
        );
        assert_eq!(parts("0.32.0"), ["0.32.0"]);
        assert_eq!(parts("vLLM"), ["vllm", "v", "llm"]);
        assert_eq!(parts("kv"), ["kv"]);
    }

    #[test]
    fn sizes_are_measured_as_the_shard_writes_them() {
        let many: Vec<(u32, u8)> = (1..=300).map(|i| (i * 7, 3)).collect();
        let p = postings_of(&[("kv", &many), ("kv-cache", &[(9, 1), (12, 16)])]);
        let ws: Vec<usize> = (0..p.0.len()).collect();
        // Braces, and a comma after each entry but the last, which stands
        // for the file's final newline.
        let estimated: usize = 2 + p.0.iter().map(|(w, c)| entry_size(w, c)).sum::<usize>();
        assert_eq!(estimated, shard_bytes(&p, &ws).len());
    }

    #[test]
    fn numbers_and_sizes_are_written_as_the_script_reads_them() {
        for (n, written) in [
            (0, "A"),
            (31, "f"),
            (32, "gB"),
            (33, "hB"),
            (99, "jD"),
            (1023, "_f"),
            (1024, "ggB"),
            (u64::from(u32::MAX) * 32 + 31, "_______D"),
            (u64::MAX, "____________P"),
        ] {
            let mut out = Vec::new();
            push_number(&mut out, n);
            assert_eq!(String::from_utf8(out).unwrap(), written, "{n}");
            assert_eq!(letters(n), written.len(), "{n}");
        }
        for w in ["kv", "a\"b", "back\\slash", "tab\there", "é"] {
            let json = serde_json::to_string(w).unwrap();
            assert_eq!(
                entry_size(w, &coded(&[(1, 1)])),
                json.len() + "B".len() + 4,
                "{w}"
            );
        }
    }

    #[test]
    fn prefixes_count_characters() {
        assert_eq!(prefix("éa", 1), "é");
        assert_eq!(prefix("a", 2), "a");
    }
}
