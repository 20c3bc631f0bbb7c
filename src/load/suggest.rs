//! "Did you mean": the known name closest to a word, if the word is close
//! enough to be its typo, found in time that does not grow with the square
//! of the number of words and names.
//!
//! The closeness is the Damerau-Levenshtein distance (`strsim`), which
//! costs the product of the two lengths; a file of 10^5 unknown names,
//! each looked for among 10^4 known ones, asked for it 10^9 times. So each
//! known name is first given a lower bound of its distance from the word,
//! from lengths and letter counts alone ([`Letters`]), and distances are
//! computed in the order of those bounds, stopping where the bound passes
//! the best distance found: for a typo, one or two distances in all. The
//! checks of `validate`, whose names come from the site, also give a file a
//! budget of distance computations ([`Budget`]).

/// The longest name, in characters, that "did you mean" looks for or
/// offers: longer than any name a record uses (ids and names have 100 at
/// most), short enough that comparing two costs little.
const MAX_SUGGESTED_CHARS: usize = 256;

/// How many edits away from `known` a word still counts as its typo.
fn typo_distance(known: &str) -> usize {
    2.max(known.len() / 3)
}

/// How long a name is, and how often each character occurs in it (folded
/// into 128 classes, ASCII exactly): what bounds its distance from another
/// name from below. An edit (insertion, deletion, substitution,
/// transposition) changes the length by at most one and the counts by at
/// most two in all, so the edits from one name to another are at least the
/// difference of their lengths and half the difference of their counts.
#[derive(Clone)]
pub(crate) struct Letters {
    chars: usize,
    counts: [u16; 128],
}

impl Letters {
    /// The letters of `name`, unless it is too long to be suggested.
    pub(crate) fn of(name: &str) -> Option<Letters> {
        if name.len() > 4 * MAX_SUGGESTED_CHARS {
            return None;
        }
        let mut counts = [0u16; 128];
        let mut chars = 0;
        for c in name.chars() {
            counts[c as usize % 128] += 1;
            chars += 1;
        }
        Some(Letters { chars, counts })
    }
}

/// A word being looked for: its letters, and which classes occur in it.
struct Word<'w> {
    text: &'w str,
    letters: Letters,
    classes: Vec<usize>,
}

impl<'w> Word<'w> {
    fn of(text: &'w str) -> Option<Word<'w>> {
        let letters = Letters::of(text).filter(|l| l.chars <= MAX_SUGGESTED_CHARS)?;
        let mut classes: Vec<usize> = text.chars().map(|c| c as usize % 128).collect();
        classes.sort_unstable();
        classes.dedup();
        Some(Word {
            text,
            letters,
            classes,
        })
    }

    /// A lower bound of the distance from a name with `other` letters.
    fn lower_bound(&self, other: &Letters) -> usize {
        let mut apart = 0;
        let mut shared = 0;
        for &c in &self.classes {
            apart += usize::from(self.letters.counts[c].abs_diff(other.counts[c]));
            shared += usize::from(other.counts[c]);
        }
        // What `other` has of the classes the word lacks.
        apart += other.chars - shared;
        self.letters
            .chars
            .abs_diff(other.chars)
            .max(apart.div_ceil(2))
    }
}

/// What the distances of one file's hints may still cost, in cells of the
/// distance matrix (the product of the two lengths, plus a border).
pub(crate) struct Budget(pub(crate) usize);

/// The budget ran out: no suggestion was looked for to the end.
pub(crate) struct Spent;

/// The closest of `names` to `word` within a typo's distance (the smallest
/// distance; of equal ones, the first name in order), or `None`. Each name
/// comes with its letters, or `None` when it is too long to suggest.
fn search<'k, 'l>(
    word: &Word<'_>,
    names: impl Iterator<Item = (&'k str, Option<&'l Letters>)>,
    mut budget: Option<&mut Budget>,
) -> Result<Option<&'k str>, Spent> {
    let mut bounded: Vec<(usize, &str)> = names
        .filter_map(|(name, letters)| {
            let bound = word.lower_bound(letters?);
            (bound <= typo_distance(name)).then_some((bound, name))
        })
        .collect();
    bounded.sort_unstable();
    let mut best: Option<(usize, &str)> = None;
    for (bound, name) in bounded {
        if best.is_some_and(|(d, _)| bound > d) {
            break;
        }
        if let Some(b) = budget.as_deref_mut() {
            let cells = (word.letters.chars + 2) * (name.chars().count() + 2);
            b.0 = b.0.checked_sub(cells).ok_or(Spent)?;
        }
        let d = strsim::damerau_levenshtein(word.text, name);
        if d <= typo_distance(name) && best.is_none_or(|b| (d, name) < b) {
            best = Some((d, name));
        }
    }
    Ok(best.map(|(_, name)| name))
}

/// The closest of `known` to `word`, if it is close enough to be a typo:
/// within `max(2, len / 3)` edits of a known name. For a list known only
/// while reading (a derived table's columns); fixed lists go through
/// [`Fixed`].
pub(super) fn did_you_mean<'k>(word: &str, known: &[&'k str]) -> Option<&'k str> {
    let word = Word::of(word)?;
    let letters: Vec<Option<Letters>> = known.iter().map(|k| Letters::of(k)).collect();
    let names = known
        .iter()
        .copied()
        .zip(letters.iter().map(Option::as_ref));
    search(&word, names, None).ok().flatten()
}

/// The letters of the fixed lists of names one document is read against
/// (the fields of each part, the choices of a field), made once per list
/// rather than once per name looked for. A list is known by its address
/// and length: each is a `'static` slice of its own.
#[derive(Default)]
pub(crate) struct Fixed(std::collections::HashMap<(usize, usize), Vec<Option<Letters>>>);

impl Fixed {
    /// The closest of `known` to `word`, if it is close enough to be a
    /// typo: within `max(2, len / 3)` edits of a known name.
    pub(crate) fn did_you_mean(
        &mut self,
        word: &str,
        known: &'static [&'static str],
    ) -> Option<&'static str> {
        let word = Word::of(word)?;
        let letters = self
            .0
            .entry((known.as_ptr() as usize, known.len()))
            .or_insert_with(|| known.iter().map(|k| Letters::of(k)).collect());
        let names = known
            .iter()
            .copied()
            .zip(letters.iter().map(Option::as_ref));
        search(&word, names, None).ok().flatten()
    }
}

/// [`did_you_mean`] among names whose letters are made once (see
/// [`Letters::of`]), within `budget`.
pub(crate) fn closest<'k, 'l>(
    word: &str,
    names: impl Iterator<Item = (&'k str, Option<&'l Letters>)>,
    budget: &mut Budget,
) -> Result<Option<&'k str>, Spent> {
    match Word::of(word) {
        Some(word) => search(&word, names, Some(budget)),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the search replaced: the distance to every name.
    fn every_distance<'k>(word: &str, known: &[&'k str]) -> Option<&'k str> {
        known
            .iter()
            .map(|k| (strsim::damerau_levenshtein(word, k), *k))
            .filter(|(d, k)| *d <= typo_distance(k))
            .min()
            .map(|(_, k)| k)
    }

    #[test]
    fn finds_what_every_distance_finds() {
        static FIELDS: [&str; 3] = ["title", "tilte", "group"];
        let mut fixed = Fixed::default();
        for w in ["titel", "grop", "x", "title"] {
            assert_eq!(
                fixed.did_you_mean(w, &FIELDS),
                every_distance(w, &FIELDS),
                "{w:?}"
            );
        }
        let known = [
            "id",
            "title",
            "group",
            "advice",
            "status",
            "status_note",
            "summary",
            "published",
            "updated",
            "found_by",
            "engines",
            "engine",
            "affected",
            "clean",
            "seen",
            "fixed_in",
            "tilte",
            "ca",
            "abc",
            "vllm",
            "sglang",
            "kv-cache",
            "kv_cache",
            "cache-sweep",
            "é-ü",
            "ü-é",
            "Ünïcode",
        ];
        let words = [
            "titel",
            "tilte",
            "tiitle",
            "Title",
            "sttaus",
            "statusnote",
            "engnie",
            "egnine",
            "ac",
            "bca",
            "cab",
            "enigne",
            "vlmm",
            "sgalng",
            "kvcache",
            "cache_sweep",
            "x",
            "",
            "zzzzzz",
            "affetced",
            "cleen",
            "seeen",
            "e-ü",
            "üé",
            "Unicode",
            "id",
            "di",
        ];
        for w in words {
            assert_eq!(did_you_mean(w, &known), every_distance(w, &known), "{w:?}");
        }
    }

    #[test]
    fn finds_what_every_distance_finds_among_random_names() {
        // Short names over a few letters: many near one another, many ties.
        let alphabet: Vec<char> = "abcé-".chars().collect();
        let mut seed = 11u64;
        let mut next = move |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..300 {
            let mut name = |max: usize| -> String {
                let len = next(max);
                (0..len).map(|_| alphabet[next(alphabet.len())]).collect()
            };
            let count = 1 + name(12).len();
            let known: Vec<String> = (0..count).map(|_| name(9)).collect();
            let known: Vec<&str> = known.iter().map(String::as_str).collect();
            for _ in 0..10 {
                let w = name(9);
                assert_eq!(
                    did_you_mean(&w, &known),
                    every_distance(&w, &known),
                    "{w:?} {known:?}"
                );
            }
        }
    }

    #[test]
    fn a_budget_ends_the_search() {
        let names: Vec<String> = (0..100).map(|i| format!("engine-{i:02}")).collect();
        let letters: Vec<Option<Letters>> = names.iter().map(|n| Letters::of(n)).collect();
        let pairs = || {
            names
                .iter()
                .map(String::as_str)
                .zip(letters.iter().map(Option::as_ref))
        };
        let mut plenty = Budget(1_000_000);
        assert_eq!(
            closest("engine-7", pairs(), &mut plenty).ok().flatten(),
            Some("engine-07")
        );
        // One distance of 10 × 11 characters (with the border) costs 156 cells.
        assert!(closest("engine-7", pairs(), &mut Budget(100)).is_err());
        assert!(closest(&"x".repeat(300), pairs(), &mut Budget(0)).is_ok());
    }
}
