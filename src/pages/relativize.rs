//! Links made relative as a page is written.
//!
//! Everything the build renders links with the [`ROOT`] marker in front of
//! site paths, so one rendering of a card or body serves pages at any
//! depth. [`Relativize`] sits between tera and the page's [`Sink`] and
//! replaces each marker that starts a URL with the page's way back to the
//! root (`../../`), a block at a time, so no page is ever whole in memory.

use crate::sink::{Sink, WriteError};
use crate::urls::ROOT;

/// Passes a page's HTML on to a [`Sink`] as tera writes it, with the root
/// marker in links replaced by the page's relative root: no page is ever
/// whole in memory (a home page of 10,000 findings is 12 MB). The marker is
/// only replaced where a URL starts (right after `href="`, `src="`,
/// `action="` or `url=`), so text that happens to contain it stays.
pub(super) struct Relativize<'s, 'o> {
    out: &'s mut Sink<'o>,
    root: &'s [u8],
    /// What came in and is not passed on yet. Tera writes a page in many
    /// small pieces; they are gathered here and replaced a block at a
    /// time. After a block, it keeps the end that may be the start of a
    /// marker the next write completes.
    buf: Vec<u8>,
    /// How much `buf` gathers before markers are replaced.
    block: usize,
    /// The last bytes passed on since the last marker (at most
    /// [`URL_START_MAX`]): whether the next marker starts a URL.
    recent: Vec<u8>,
    /// The first failed write, reported by [`Relativize::finish`] (tera
    /// only sees that writing failed).
    failed: Option<WriteError>,
}

/// What precedes a marker that starts a URL.
const URL_STARTS: [&[u8]; 4] = [b"href=\"", b"src=\"", b"action=\"", b"url="];

/// The longest of [`URL_STARTS`].
const URL_START_MAX: usize = 8;

/// How much of a page [`Relativize`] gathers before replacing markers.
const RELATIVIZE_BLOCK: usize = 16 * 1024;

impl<'s, 'o> Relativize<'s, 'o> {
    pub(super) fn new(out: &'s mut Sink<'o>, root: &'s str) -> Self {
        let root = if root.is_empty() { "./" } else { root };
        Relativize {
            out,
            root: root.as_bytes(),
            buf: Vec::with_capacity(RELATIVIZE_BLOCK + 1024),
            block: RELATIVIZE_BLOCK,
            recent: Vec::with_capacity(2 * URL_START_MAX),
            failed: None,
        }
    }

    /// Passes on what is gathered, but for a tail that may be a cut marker
    /// unless this is the `last` of the page; that tail stays in `buf`.
    fn pass(&mut self, last: bool) -> Result<(), WriteError> {
        let marker = ROOT.as_bytes();
        let mut rest = &self.buf[..];
        while let Some(i) = find_marker(rest) {
            let before = &rest[..i];
            let starts_url = URL_STARTS
                .iter()
                .any(|p| ends_with(&self.recent, before, p));
            self.out.put(before)?;
            self.out.put(if starts_url { self.root } else { marker })?;
            self.recent.clear();
            rest = &rest[i + marker.len()..];
        }
        let cut = if last {
            0
        } else {
            (1..marker.len().min(rest.len() + 1))
                .rev()
                .find(|&k| rest.ends_with(&marker[..k]))
                .unwrap_or(0)
        };
        let now = &rest[..rest.len() - cut];
        self.out.put(now)?;
        self.recent
            .extend_from_slice(&now[now.len().saturating_sub(URL_START_MAX)..]);
        if self.recent.len() > URL_START_MAX {
            self.recent.drain(..self.recent.len() - URL_START_MAX);
        }
        let kept = self.buf.len() - cut;
        self.buf.drain(..kept);
        Ok(())
    }

    /// Passes on the rest; the first failed write, if any.
    pub(super) fn finish(mut self) -> Result<(), WriteError> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.pass(true)
    }
}

/// Where the root marker first starts in `hay`. A page holds one every
/// few hundred bytes: its first byte (`@`, rare in HTML otherwise) found
/// by `memchr` and the rest compared costs less than a substring search
/// set up anew for each.
fn find_marker(hay: &[u8]) -> Option<usize> {
    let marker = ROOT.as_bytes();
    let mut from = 0;
    while let Some(k) = memchr::memchr(marker[0], &hay[from..]) {
        let i = from + k;
        if hay[i..].starts_with(marker) {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

/// Whether `recent` followed by `before` ends with `suffix`.
fn ends_with(recent: &[u8], before: &[u8], suffix: &[u8]) -> bool {
    if before.len() >= suffix.len() {
        return before.ends_with(suffix);
    }
    let (head, tail) = suffix.split_at(suffix.len() - before.len());
    before == tail && recent.ends_with(head)
}

impl std::io::Write for Relativize<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.failed.is_some() {
            return Err(std::io::Error::other("an earlier write failed"));
        }
        self.buf.extend_from_slice(buf);
        if self.buf.len() < self.block {
            return Ok(buf.len());
        }
        match self.pass(false) {
            Ok(()) => Ok(buf.len()),
            Err(e) => {
                let message = e.to_string();
                self.failed = Some(e);
                Err(std::io::Error::other(message))
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// The whole page at once, as the site was relativized before pages
    /// were streamed: the reference for [`Relativize`].
    fn whole(html: &str, root: &str) -> String {
        let root = if root.is_empty() { "./" } else { root };
        let mut out = String::new();
        let mut rest = html;
        while let Some(i) = rest.find(ROOT) {
            let before = &rest[..i];
            out.push_str(before);
            let starts_url = ["href=\"", "src=\"", "action=\"", "url="]
                .iter()
                .any(|p| before.ends_with(p));
            out.push_str(if starts_url { root } else { ROOT });
            rest = &rest[i + ROOT.len()..];
        }
        out.push_str(rest);
        out
    }

    /// `html` written through [`Relativize`] in pieces of `size` bytes,
    /// replaced in blocks of `block` bytes.
    fn streamed(html: &str, root: &str, size: usize, block: usize) -> String {
        let mut bytes = Vec::new();
        let path = std::path::PathBuf::from("page.html");
        let mut sink = crate::sink::Sink::new(&mut bytes, &path);
        let mut w = Relativize::new(&mut sink, root);
        w.block = block;
        for piece in html.as_bytes().chunks(size) {
            w.write_all(piece).unwrap();
        }
        w.finish().unwrap();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn streamed_pages_link_from_their_folder_however_tera_cuts_the_writes() {
        let html = format!(
            "<a href=\"{ROOT}findings/x/\">x</a> <img src=\"{ROOT}a.svg\"> \
             <form action=\"{ROOT}search/\"></form> <meta http-equiv=\"refresh\" content=\"0; url={ROOT}f/\"> \
             text that names {ROOT} stays; href=\"{ROOT}{ROOT}twice\" and @@root@ almost, \
             ends with href=\"{ROOT}"
        );
        let want = whole(&html, "../../");
        assert!(
            want.contains("href=\"../../findings/x/\"") && want.contains("names @@root@@/ stays")
        );
        for size in 1..=html.len() {
            for block in [1, 5, 9, 64, RELATIVIZE_BLOCK] {
                assert_eq!(
                    streamed(&html, "../../", size, block),
                    want,
                    "pieces of {size} bytes, blocks of {block}"
                );
            }
        }
        assert_eq!(
            streamed("<a href=\"@@root@@/\">", "", 3, 1),
            "<a href=\"./\">"
        );
    }
}
