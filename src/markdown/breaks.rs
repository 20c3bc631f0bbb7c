//! Lists started by accident. CommonMark lets a list interrupt a
//! paragraph: a line that begins with `1.`, `1)`, `- `, `* ` or `+ ` ends
//! the paragraph above it even without a blank line, so a sentence wrapped
//! just before "1." or "- " turns its tail into a list. Takes the parser's
//! events with their offsets (so code blocks, block quotes and nested
//! lists are read as the renderer reads them); hands on each such list as
//! a [`ListBreak`].
//!
//! A list counts as an accident when it starts on the line right after a
//! paragraph's last line, in the same container, and nothing says the
//! author meant it: it has a single item, and the line before it does not
//! end with `:`. A list of two or more items, or one introduced by a colon,
//! is taken as meant. Under the text of a tight list item (`- item` and no
//! blank line), where a nested bullet list is the usual way to write one,
//! only a numbered list is suspect.

use crate::record::ListBreak;
use pulldown_cmark::{Event, Tag, TagEnd};
use std::ops::Range;

/// What came last in a container.
#[derive(Clone, Copy)]
enum Prev {
    Nothing,
    /// A paragraph ending here.
    Paragraph(usize),
    /// The inline text of a tight list item, ending here.
    ItemText(usize),
    /// Another block.
    Block,
}

/// An open container: its last child, and for a list that started right
/// after text, where it started and how many items it has.
struct Frame {
    prev: Prev,
    suspect: Option<usize>,
    items: usize,
}

impl Frame {
    fn new(suspect: Option<usize>) -> Frame {
        Frame {
            prev: Prev::Nothing,
            suspect,
            items: 0,
        }
    }
}

/// Follows the events of one body, [`Finder::event`] by event.
pub(super) struct Finder<'b> {
    body: &'b str,
    line_starts: &'b [usize],
    stack: Vec<Frame>,
    found: Vec<ListBreak>,
}

fn is_inline(tag: &Tag<'_>) -> bool {
    matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript
            | Tag::Link { .. }
            | Tag::Image { .. }
    )
}

fn is_inline_end(end: &TagEnd) -> bool {
    matches!(
        end,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
    )
}

impl<'b> Finder<'b> {
    /// A finder over `body`, whose lines start at `line_starts`.
    pub(super) fn new(body: &'b str, line_starts: &'b [usize]) -> Self {
        Finder {
            body,
            line_starts,
            stack: vec![Frame::new(None)],
            found: Vec::new(),
        }
    }

    /// The 1-based line of byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset)
    }

    /// The text of 1-based line `line`, without its line end.
    fn line_text(&self, line: usize) -> &'b str {
        let start = self.line_starts[line - 1];
        let end = self
            .line_starts
            .get(line)
            .map_or(self.body.len(), |&e| e - 1);
        self.body
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches('\r')
    }

    fn top(&mut self) -> &mut Frame {
        if self.stack.is_empty() {
            self.stack.push(Frame::new(None));
        }
        let last = self.stack.len() - 1;
        &mut self.stack[last]
    }

    /// Takes the next event and its source range.
    pub(super) fn event(&mut self, event: &Event<'_>, range: &Range<usize>) {
        match event {
            Event::Start(tag) if !is_inline(tag) => {
                // Under a tight item's text, a nested bullet list is how
                // Markdown is written; a nested numbered list of one item is
                // as unlikely there as in a paragraph.
                let after_text = match (tag, self.top().prev) {
                    (Tag::List(_), Prev::Paragraph(end)) => Some(end),
                    (Tag::List(Some(_)), Prev::ItemText(end)) => Some(end),
                    _ => None,
                };
                let suspect = match after_text {
                    Some(end) if end > 0 => {
                        let text_line = self.line_of(end - 1);
                        let introduced = self
                            .line_text(text_line)
                            .trim_end()
                            .trim_end_matches(['*', '_'])
                            .ends_with(':');
                        (self.line_of(range.start) == text_line + 1 && !introduced)
                            .then_some(range.start)
                    }
                    _ => None,
                };
                if matches!(tag, Tag::Item) {
                    self.top().items += 1;
                }
                self.stack.push(Frame::new(suspect));
            }
            Event::End(end) if !is_inline_end(end) => {
                let frame = self.stack.pop().unwrap_or_else(|| Frame::new(None));
                if let (TagEnd::List(_), Some(start), 1) = (end, frame.suspect, frame.items) {
                    self.report(start);
                }
                self.top().prev = match end {
                    TagEnd::Paragraph => Prev::Paragraph(range.end),
                    _ => Prev::Block,
                };
            }
            _ => self.top().prev = Prev::ItemText(range.end),
        }
    }

    fn report(&mut self, start: usize) {
        let line = self.line_of(start);
        let from = self.line_starts[line - 1];
        let text = self.body.get(start..).unwrap_or("");
        let text = text.lines().next().unwrap_or("").trim_end();
        let digits = text.chars().take_while(char::is_ascii_digit).count();
        let marker: String = text.chars().take(digits + 1).collect();
        self.found.push(ListBreak {
            line,
            column: self.body.get(from..start).unwrap_or("").chars().count() + 1,
            marker,
            text: text.to_string(),
        });
    }

    /// The lists found, in body order.
    pub(super) fn finish(self) -> Vec<ListBreak> {
        let mut found = self.found;
        found.sort_by_key(|b| (b.line, b.column));
        found
    }
}

#[cfg(test)]
mod tests {
    use crate::markdown::scan;

    /// (line, column, marker, text) of each accidental list in `body`.
    fn breaks(body: &str) -> Vec<(usize, usize, String, String)> {
        scan(body)
            .list_breaks
            .into_iter()
            .map(|b| (b.line, b.column, b.marker, b.text))
            .collect()
    }

    fn one(
        line: usize,
        column: usize,
        marker: &str,
        text: &str,
    ) -> Vec<(usize, usize, String, String)> {
        vec![(line, column, marker.to_string(), text.to_string())]
    }

    #[test]
    fn a_wrapped_line_that_starts_a_list_is_found() {
        let body = "Date from the source. PP=2048, TG=128, concurrency\n1. The client's tg t/s is tokens\ndivided by the wall time.\n";
        assert_eq!(
            breaks(body),
            one(2, 1, "1.", "1. The client's tg t/s is tokens")
        );
        assert_eq!(breaks("Up to\n1) ten.\n"), one(2, 1, "1)", "1) ten."));
        assert_eq!(
            breaks("NInfer is faster\n- by about 5 %.\n"),
            one(2, 1, "-", "- by about 5 %.")
        );
        assert_eq!(
            breaks("Intro.\n\nNInfer is\n+ faster.\n"),
            one(4, 1, "+", "+ faster.")
        );
    }

    #[test]
    fn nested_and_quoted_lines_are_read_as_rendered() {
        // Inside a tight list item, and inside a block quote.
        assert_eq!(
            breaks("- The run used concurrency\n  1. The rest.\n- Next.\n"),
            one(2, 3, "1.", "1. The rest.")
        );
        assert_eq!(
            breaks("> a quote at concurrency\n> 1. and on.\n"),
            one(2, 3, "1.", "1. and on.")
        );
        // Inside a loose item's second paragraph.
        assert_eq!(
            breaks("- First.\n\n  Then concurrency\n  1. again.\n"),
            one(4, 3, "1.", "1. again.")
        );
    }

    #[test]
    fn lists_the_author_meant_are_left_alone() {
        for body in [
            "Para.\n\n1. A list after a blank line.\n",
            "Steps:\n1. Only one, after a colon.\n",
            "**Steps:**\n1. After a bold colon.\n",
            "Two items:\n- a\n- b\n",
            "Two items without a colon\n1. first\n2. second\n",
            "A list in a list:\n- item\n  - nested\n",
            "- item without a colon\n  - nested bullet\n",
            "- Item text\n- Next item\n",
            "```\ncode at concurrency\n1. stays code\n```\n",
            "Text ending in 2\n2. is no list: only 1 can interrupt.\n",
            "## Heading\n1. After a heading.\n",
            "Line with 1. in the middle.\n",
        ] {
            assert_eq!(breaks(body), vec![], "{body:?}");
        }
    }
}
