//! "Did you mean": the hint for a name that is not known (a group, an
//! engine, a run, a chart, a table, a column) names the closest known one,
//! or else lists the known ones.
//!
//! One file may name 10^5 unknown things among 10^4 known ones. So each
//! list of known names is prepared once ([`Known`]: sorted, deduplicated,
//! its listing made and cut at
//! [`MAX_LISTED`](crate::diagnostics::MAX_LISTED), the letters each name's
//! search needs counted when first needed); and the checks of one file look
//! for a close name at most [`MAX_SEARCHES`] times, comparing at most
//! [`MAX_CELLS`] characters with characters ([`Hints`]). Later hints in that
//! file list the known names without searching.

use crate::diagnostics::listing;
use crate::load::{closest, Budget, Letters};
use std::sync::OnceLock;

/// How many times the checks of one file look for a close name.
pub(super) const MAX_SEARCHES: usize = 100;

/// What the distances the checks of one file compute may cost in all, in
/// characters compared with characters.
pub(super) const MAX_CELLS: usize = 10_000_000;

/// Names a hint may suggest, prepared once.
pub(super) struct Known<'a> {
    names: Vec<&'a str>,
    listing: String,
    letters: OnceLock<Vec<Option<Letters>>>,
}

impl<'a> Known<'a> {
    pub(super) fn new(names: impl IntoIterator<Item = &'a str>) -> Known<'a> {
        let mut names: Vec<&str> = names.into_iter().collect();
        names.sort_unstable();
        names.dedup();
        let listing = listing(&names);
        Known {
            names,
            listing,
            letters: OnceLock::new(),
        }
    }

    /// Whether `name` is one of them.
    pub(super) fn contains(&self, name: &str) -> bool {
        self.names.binary_search(&name).is_ok()
    }
}

/// The hints of one file's checks, and what their searches may still cost.
pub(super) struct Hints {
    searches_left: usize,
    cells: Budget,
}

impl Hints {
    pub(super) fn new() -> Hints {
        Hints {
            searches_left: MAX_SEARCHES,
            cells: Budget(MAX_CELLS),
        }
    }

    /// The closest known name, or `None`: also when this file's searches
    /// are spent, or this one would cost more than is left.
    fn closest<'k>(&mut self, word: &str, known: &Known<'k>) -> Option<&'k str> {
        if self.searches_left == 0 || known.names.is_empty() {
            return None;
        }
        self.searches_left -= 1;
        let letters = known
            .letters
            .get_or_init(|| known.names.iter().map(|n| Letters::of(n)).collect());
        let names = known
            .names
            .iter()
            .copied()
            .zip(letters.iter().map(Option::as_ref));
        match closest(word, names, &mut self.cells) {
            Ok(found) => found,
            Err(_) => {
                self.searches_left = 0;
                None
            }
        }
    }

    /// "did you mean …?", or the known names, or that there are none.
    pub(super) fn suggest(&mut self, word: &str, known: &Known<'_>, what: &str) -> String {
        match self.closest(word, known) {
            Some(s) => format!("did you mean \"{s}\"?"),
            None if known.names.is_empty() => format!("there are no {what} defined"),
            None => format!("known {what}: {}", known.listing),
        }
    }

    /// "did you mean …?", or where such a thing lives.
    pub(super) fn suggest_path(&mut self, word: &str, known: &Known<'_>, layout: &str) -> String {
        match self.closest(word, known) {
            Some(s) => format!("did you mean \"{s}\"?"),
            None => format!("a run lives in {layout}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::MAX_LISTED;

    #[test]
    fn lists_are_cut_and_searches_end() {
        let names: Vec<String> = (0..1000).map(|i| format!("engine-{i:04}")).collect();
        let known = Known::new(names.iter().map(String::as_str));
        assert!(known.contains("engine-0999") && !known.contains("engine-1000"));
        let mut hints = Hints::new();
        assert_eq!(
            hints.suggest("engine-0999x", &known, "engines"),
            "did you mean \"engine-0999\"?"
        );
        let list = hints.suggest("zzz", &known, "engines");
        assert!(
            list.starts_with("known engines: engine-0000, engine-0001, "),
            "{list}"
        );
        assert!(
            list.ends_with(&format!("engine-{:04} and 970 more", MAX_LISTED - 1)),
            "{list}"
        );
        for _ in 2..MAX_SEARCHES {
            hints.suggest("zzz", &known, "engines");
        }
        // The searches of this file are spent: the known names, unsearched.
        assert_eq!(hints.suggest("engine-0999x", &known, "engines"), list);
        assert_eq!(
            Hints::new().suggest("x", &Known::new([]), "groups"),
            "there are no groups defined"
        );
    }
}
