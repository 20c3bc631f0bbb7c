//! Lists cut into pages of `page_size` entries (`site.yaml`), so that no
//! page grows with the number of findings, engines or runs.
//!
//! The first page of a list keeps the list's address; the others are
//! `<list>page/2/`, `<list>page/3/`, … ([`urls::page`]). A [`Pager`] takes
//! the list's address and length and hands on, for each page, its path, the
//! range of entries it holds, and the navigation templates draw (numbered
//! links with `rel="prev"` and `rel="next"`, see the `pagination` macro).

use crate::urls::{self, ROOT};
use serde::Serialize;
use std::ops::Range;

/// The pages of one list.
pub(super) struct Pager {
    base: String,
    entries: usize,
    size: usize,
}

/// The navigation of one page of a list, as templates see it
/// (`pagination`; absent when the list fits on one page).
#[derive(Serialize, Hash)]
pub(super) struct Nav {
    /// This page's number, from 1.
    current: usize,
    /// How many pages the list has.
    pages: usize,
    /// How many entries the whole list has.
    entries: usize,
    /// The number of this page's first and last entry, from 1.
    first: usize,
    last: usize,
    /// The previous and next pages.
    pub(super) prev: Option<String>,
    pub(super) next: Option<String>,
    /// The numbered links: the first and last page, and those around this
    /// one; `None` stands for a gap.
    links: Vec<Option<PageLink>>,
}

/// A numbered link to a page of the list.
#[derive(Serialize, Hash)]
struct PageLink {
    number: usize,
    url: String,
    current: bool,
}

/// How many pages on each side of the current one the navigation numbers.
const AROUND: usize = 2;

impl Pager {
    /// The pages of the list at `base` (a site path) of `entries` entries,
    /// `size` to a page.
    pub(super) fn new(base: &str, entries: usize, size: usize) -> Pager {
        Pager {
            base: base.to_string(),
            entries,
            size: size.max(1),
        }
    }

    /// How many pages there are (at least one).
    pub(super) fn pages(&self) -> usize {
        urls::page_count(self.entries, self.size)
    }

    /// The site path of page `n`.
    pub(super) fn path(&self, n: usize) -> String {
        urls::page(&self.base, n)
    }

    /// The entries page `n` holds.
    pub(super) fn range(&self, n: usize) -> Range<usize> {
        let start = ((n - 1) * self.size).min(self.entries);
        start..(start + self.size).min(self.entries)
    }

    /// The page that holds entry `i` (from 0).
    pub(super) fn page_of(&self, i: usize) -> usize {
        i / self.size + 1
    }

    /// The navigation of page `n`, or `None` when the list has one page
    /// (so a short list looks as it always did).
    pub(super) fn nav(&self, n: usize) -> Option<Nav> {
        let pages = self.pages();
        if pages <= 1 {
            return None;
        }
        let url = |k: usize| format!("{ROOT}{}", self.path(k));
        let mut links = Vec::new();
        let mut last_shown = 0;
        for k in 1..=pages {
            let near = k + AROUND >= n && k <= n + AROUND;
            if k == 1 || k == pages || near {
                if last_shown + 1 < k {
                    links.push(None);
                }
                links.push(Some(PageLink {
                    number: k,
                    url: url(k),
                    current: k == n,
                }));
                last_shown = k;
            }
        }
        let range = self.range(n);
        Some(Nav {
            current: n,
            pages,
            entries: self.entries,
            first: range.start + 1,
            last: range.end,
            prev: (n > 1).then(|| url(n - 1)),
            next: (n < pages).then(|| url(n + 1)),
            links,
        })
    }

    /// The title of page `n`: `title` alone for the first page, with the
    /// page's number for the others (each page has a title of its own).
    pub(super) fn title(&self, title: &str, n: usize) -> String {
        if n <= 1 {
            title.to_string()
        } else {
            format!("{title} (page {n} of {})", self.pages())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_keep_the_first_address_and_number_the_rest() {
        let p = Pager::new("tags/moe/", 65, 30);
        assert_eq!(p.pages(), 3);
        assert_eq!(p.path(1), "tags/moe/");
        assert_eq!(p.path(3), "tags/moe/page/3/");
        assert_eq!(p.range(1), 0..30);
        assert_eq!(p.range(3), 60..65);
        assert_eq!(p.page_of(59), 2);
        assert_eq!(p.title("Tag: moe", 2), "Tag: moe (page 2 of 3)");
        assert!(Pager::new("x/", 30, 30).nav(1).is_none());
        assert_eq!(Pager::new("x/", 0, 30).pages(), 1);
        let nav = p.nav(2).unwrap();
        assert_eq!((nav.first, nav.last), (31, 60));
        assert_eq!(nav.prev.as_deref(), Some("@@root@@/tags/moe/"));
        assert_eq!(nav.next.as_deref(), Some("@@root@@/tags/moe/page/3/"));
    }

    #[test]
    fn long_lists_number_the_ends_and_the_pages_around_this_one() {
        let p = Pager::new("x/", 200, 10);
        let shown: Vec<Option<usize>> = p
            .nav(10)
            .unwrap()
            .links
            .iter()
            .map(|l| l.as_ref().map(|l| l.number))
            .collect();
        assert_eq!(
            shown,
            [
                Some(1),
                None,
                Some(8),
                Some(9),
                Some(10),
                Some(11),
                Some(12),
                None,
                Some(20)
            ]
        );
        let first: Vec<Option<usize>> = p
            .nav(1)
            .unwrap()
            .links
            .iter()
            .map(|l| l.as_ref().map(|l| l.number))
            .collect();
        assert_eq!(first, [Some(1), Some(2), Some(3), None, Some(20)]);
    }
}
