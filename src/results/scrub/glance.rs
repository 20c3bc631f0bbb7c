//! A quick look for credentials in JSON: the strings alone, a memchr from
//! one quote to the next, so that `check`, which asks this of every kept
//! file at every load, clears a file of numbers at almost no cost; only a
//! file it cannot clear is walked by the full pass of `scrub`.

use super::keys::{is_credential_key, is_secret_value};
use crate::results::json;

/// Whether JSON `b` may hold a credential, from its strings alone: false
/// when no key names a credential with a value that could be one, and no
/// string value holds a word free text gives a credential away by. Linear,
/// and a memchr from one quote to the next, so a file of numbers costs
/// almost nothing. True is no verdict: the full pass then decides.
pub(super) fn json_may_hold_credential(b: &[u8]) -> bool {
    use memchr::{memchr, memchr2};
    /// The end (one past the closing quote) of the string opening at `i`.
    fn string_end(b: &[u8], i: usize) -> Option<usize> {
        let mut j = i + 1;
        loop {
            let k = j + memchr2(b'"', b'\\', &b[j..])?;
            if b[k] == b'\\' {
                j = k + 2;
                if j > b.len() {
                    return None;
                }
            } else {
                return Some(k + 1);
            }
        }
    }
    fn next_byte(b: &[u8], from: usize) -> Option<(usize, u8)> {
        b[from..]
            .iter()
            .position(|c| !c.is_ascii_whitespace())
            .map(|p| (from + p, b[from + p]))
    }
    // Words that, inside a string, may give a credential away (the free
    // text rules of `secrets_in_text`).
    const TELLING: &[&[u8]] = &[
        b"key", b"token", b"auth", b"bearer", b"pass", b"secret", b"cookie", b"://",
    ];
    let telling = |s: &[u8]| {
        let lower = s.to_ascii_lowercase();
        TELLING
            .iter()
            .any(|w| memchr::memmem::find(&lower, w).is_some())
    };
    let mut i = 0;
    while let Some(q) = memchr(b'"', &b[i..]) {
        let start = i + q;
        // An unclosed string: the full pass says what it is.
        let Some(end) = string_end(b, start) else {
            return true;
        };
        // Escapes (`\u005f`) decoded, so that no spelling hides a key.
        let decoded;
        let inner: &[u8] = if b[start + 1..end - 1].contains(&b'\\') {
            decoded = json::decode_str(&b[start..end]);
            decoded.as_bytes()
        } else {
            &b[start + 1..end - 1]
        };
        match next_byte(b, end) {
            Some((colon, b':')) => {
                let key = String::from_utf8_lossy(inner);
                if is_credential_key(&key) {
                    match next_byte(b, colon + 1) {
                        // null: nothing to hide.
                        Some((_, b'n')) => {}
                        Some((v, b'"')) => {
                            let Some(vend) = string_end(b, v) else {
                                return true;
                            };
                            if is_secret_value(&json::decode_str(&b[v..vend])) {
                                return true;
                            }
                            i = vend;
                            continue;
                        }
                        // A number, an object or a list under such a key.
                        _ => return true,
                    }
                }
            }
            _ if telling(inner) => return true,
            _ => {}
        }
        i = end;
    }
    false
}
