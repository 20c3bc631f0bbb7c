//! How much of a YAML text the parser must read to reach its verdict, so
//! that it never reads more: the linear pre-pass in front of `serde_yaml`.
//!
//! Two costs of the parser are not bounded by the limits `budget.rs` keeps.
//! serde_yaml has libyaml turn the whole document into events before the
//! first value is built, so a limit is checked only after all of the text
//! was parsed; and libyaml's scanner spends, on every token, time in
//! proportion to how deeply flow collections (`[`, `{`) are open at that
//! point, so a line of 100,000 `[` took most of a minute to be refused at
//! its 64th.
//!
//! Here libyaml runs alone, event by event, counting nesting and values
//! the way the budget will count them once aliases are expanded (an alias
//! stands for at least one value and never for less nesting, so the count
//! here is never above the budget's). At the first event past a limit it
//! stops, and [`needed`] is the number of bytes libyaml had read by then.
//! Parsing only those bytes gives the same events up to that one, hence
//! the same first error at the same position (the budget's, or one before
//! it); the parser then never sees deeper nesting than the limit plus what
//! it reads ahead, which is at most a few kilobytes.
//!
//! A text with few brackets and few bytes cannot nest flow collections deep
//! enough to be slow nor hold enough values to reach the limit; for it the
//! pre-pass is skipped, which is every record of an ordinary site.

use super::{MAX_YAML_DEPTH, MAX_YAML_VALUES};
use std::mem::MaybeUninit;

/// How many bytes libyaml is handed at a time: what it reads past what it
/// needs is less than this, so the cut lands at most this far beyond it.
const CHUNK: usize = 512;

/// The length of the prefix of `text` that parses to the same verdict as
/// the whole: `text.len()` unless a limit is reached before the end.
pub(super) fn needed(text: &str) -> usize {
    if !may_reach_a_limit(text) {
        return text.len();
    }
    // SAFETY: see `read_until_a_limit`; it needs only the text, which
    // outlives the call.
    let read = unsafe { read_until_a_limit(text.as_bytes()) };
    // libyaml reads whole characters, but a cut must never split one.
    match read {
        Some(n) if n < text.len() && text.is_char_boundary(n) => n,
        _ => text.len(),
    }
}

/// False when no event can pass a limit: each flow collection opens with
/// one `[` or `{` byte, and no text holds more than two values per byte.
fn may_reach_a_limit(text: &str) -> bool {
    text.len() * 2 > MAX_YAML_VALUES
        || memchr::memchr2_iter(b'[', b'{', text.as_bytes()).count() > MAX_YAML_DEPTH
}

/// The text libyaml reads, and how far it has read.
struct Input<'t> {
    text: &'t [u8],
    read: usize,
}

/// libyaml's read handler: the next [`CHUNK`] bytes at most.
///
/// # Safety
///
/// `data` is the `Input` given to `yaml_parser_set_input`, alive and not
/// otherwise borrowed while libyaml runs; `buffer` has room for `size`
/// bytes (libyaml's own raw buffer).
unsafe fn read_chunk(
    data: *mut std::ffi::c_void,
    buffer: *mut u8,
    size: u64,
    got: *mut u64,
) -> i32 {
    let input = &mut *data.cast::<Input<'_>>();
    let n = (size as usize)
        .min(CHUNK)
        .min(input.text.len() - input.read);
    std::ptr::copy_nonoverlapping(input.text.as_ptr().add(input.read), buffer, n);
    input.read += n;
    *got = n as u64;
    1
}

/// Parses events until one passes a limit, and returns how many bytes had
/// been read then. `None` when none does before the end, or libyaml stops
/// at an error first (the real parse stops there too).
///
/// # Safety
///
/// The calls are libyaml's, in the order serde_yaml makes them: the parser
/// is initialized before use and deleted once, each event deleted once it
/// is read, and the input handed to the read handler lives on this frame
/// until the parser is deleted, reached only through one pointer.
unsafe fn read_until_a_limit(text: &[u8]) -> Option<usize> {
    let mut input = Input { text, read: 0 };
    let input = &raw mut input;
    // libyaml's parser is big and must not move while it runs.
    let mut storage: Box<MaybeUninit<unsafe_libyaml::yaml_parser_t>> =
        Box::new(MaybeUninit::uninit());
    let parser = storage.as_mut_ptr();
    if unsafe_libyaml::yaml_parser_initialize(parser).fail {
        return None;
    }
    unsafe_libyaml::yaml_parser_set_encoding(parser, unsafe_libyaml::YAML_UTF8_ENCODING);
    unsafe_libyaml::yaml_parser_set_input(parser, read_chunk, input.cast());
    let (mut depth, mut values, mut documents) = (0usize, 0usize, 0usize);
    let mut found = None;
    loop {
        let mut event = MaybeUninit::<unsafe_libyaml::yaml_event_t>::uninit();
        if unsafe_libyaml::yaml_parser_parse(parser, event.as_mut_ptr()).fail {
            break;
        }
        let event = event.as_mut_ptr();
        let kind = (*event).type_;
        unsafe_libyaml::yaml_event_delete(event);
        match kind {
            unsafe_libyaml::YAML_SEQUENCE_START_EVENT
            | unsafe_libyaml::YAML_MAPPING_START_EVENT => {
                depth += 1;
                values += 1;
            }
            unsafe_libyaml::YAML_SEQUENCE_END_EVENT | unsafe_libyaml::YAML_MAPPING_END_EVENT => {
                depth = depth.saturating_sub(1)
            }
            unsafe_libyaml::YAML_SCALAR_EVENT | unsafe_libyaml::YAML_ALIAS_EVENT => values += 1,
            // serde_yaml reads one document; of a second it needs only to
            // know that it begins.
            unsafe_libyaml::YAML_DOCUMENT_START_EVENT => {
                documents += 1;
                if documents > 1 {
                    found = Some((*input).read);
                    break;
                }
            }
            unsafe_libyaml::YAML_STREAM_END_EVENT => break,
            _ => {}
        }
        if depth > MAX_YAML_DEPTH || values > MAX_YAML_VALUES {
            found = Some((*input).read);
            break;
        }
    }
    unsafe_libyaml::yaml_parser_delete(parser);
    drop(storage);
    found
}

#[cfg(test)]
mod tests {
    use super::super::budget::{Budget, ValueSeed};
    use super::*;

    /// What serde_yaml says of `text` within the budget: the value, or the
    /// error with its position.
    fn verdict(text: &str) -> String {
        use serde::de::DeserializeSeed;
        let budget = Budget::default();
        match ValueSeed(&budget).deserialize(serde_yaml::Deserializer::from_str(text)) {
            Ok(v) => format!("{v:?}"),
            Err(e) => format!("{e} {:?}", e.location().map(|l| (l.line(), l.column()))),
        }
    }

    #[test]
    fn the_cut_changes_no_verdict() {
        let deep = |n: usize| "[".repeat(n);
        let texts = [
            // Past the depth limit: in a value, a list item, a second line.
            format!("title: {}\n", deep(2000)),
            format!("a: 1\nb:\n  - x\n  - {}\n", deep(2000)),
            format!("a: {{b: [{}\n", "{c: ".repeat(2000)),
            format!("a: {}\nb: 2\n", "- ".repeat(2000)),
            // Deeper than the limit, then closed, then a key: `[[…]]: x`
            // makes the outer bracket a key, which the cut must still see.
            format!("a: {{{}{}: x}}\n", deep(70), "]".repeat(70)),
            format!("a: [{}{}: x]\n", deep(70), "]".repeat(70)),
            // A problem before the limit is the verdict, not the depth.
            format!("a: 1\na: 2\nb: {}\n", deep(2000)),
            format!("a: *nowhere\nb: {}\n", deep(2000)),
            format!("a: &x [1]\nb: [*x, {}\n", deep(2000)),
            format!("a: \"open\nb: {}\n", deep(2000)),
            format!("a: 'x\n{}", deep(2000)),
            // Past the limit, then a long quoted text, or a line end inside
            // a quote, or an error far down.
            format!("a: {}\"{}\"\n", deep(80), "x".repeat(20_000)),
            format!("a: {}'{}\n'\n", deep(80), "y".repeat(5000)),
            format!("a: {}\n{}\n", deep(80), "b: :".repeat(3000)),
            // Brackets the scanner does not nest: quoted, in a block, in a
            // comment, closed as they go.
            format!("a: \"{}\"\n", deep(2000)),
            format!("a: |\n  {}\n", deep(2000)),
            format!("a: 1 # {}\n", deep(2000)),
            format!("a: [{}]\n", "[1], ".repeat(2000)),
            // A second document.
            format!("a: 1\n---\nb: {}\n", deep(2000)),
            format!("a: 1\n...\n{}\n", deep(2000)),
            format!("--- {}\n", deep(2000)),
            // Many values.
            format!("a: [{}]\n", "1, ".repeat(120_000)),
            format!("a: {{{}}}\n", "k, ".repeat(60_000)),
            "- \n".repeat(110_000),
            format!("a: [{}]\nb: {}\n", "1, ".repeat(99_990), deep(100)),
        ];
        for text in &texts {
            let cut = needed(text);
            assert_eq!(
                verdict(&text[..cut]),
                verdict(text),
                "cut at {cut} of {}: {:?}",
                text.len(),
                &text[..text.len().min(80)]
            );
        }
    }

    #[test]
    fn ordinary_records_are_read_whole() {
        let text = "title: x\ntags: [a, b]\nengines:\n  - engine: vllm\n";
        assert_eq!(needed(text), text.len());
        let many = format!("tags: [{}]\n", "[a], ".repeat(100));
        assert_eq!(needed(&many), many.len());
    }

    #[test]
    fn deep_nesting_is_cut_a_little_past_the_limit() {
        let text = format!("title: {}\n", "[".repeat(1_000_000));
        let n = needed(&text);
        assert!(n < 4 * 1024, "{n}");
        // Nesting within the limit, inside quotes or in a block scalar,
        // needs the whole text.
        for text in [
            format!("title: \"{}\"\n", "[".repeat(100_000)),
            format!("title: |\n  {}\n", "{".repeat(100_000)),
            format!("title: {}{}\n", "[".repeat(60), "]".repeat(60)).repeat(100),
        ] {
            assert_eq!(needed(&text), text.len());
        }
    }

    #[test]
    fn too_many_values_are_cut_past_the_limit() {
        let text = format!("tags: [{}]\n", "a, ".repeat(300_000));
        // The 100,001st value is the item at byte 300,000 or so.
        let n = needed(&text);
        assert!((299_000..304_000).contains(&n), "{n}");
    }
}
