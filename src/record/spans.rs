//! Where each field of a record's YAML sits, for diagnostics: the map of
//! field paths to positions, worked out on the first question.

use crate::diagnostics::Span;
use std::collections::HashMap;

/// The longest field path under which fields get positions of their own,
/// in bytes. A field under a longer one (a key of hundreds of characters,
/// or many such keys nested) is placed at the nearest parent of at most
/// this length: positions stay exact for every field a record may have,
/// and mapping a document costs at most this much per field more than the
/// length of its own key, however long the keys above it.
pub const MAX_SPAN_PATH: usize = 256;

/// Field paths and their positions, as a YAML document's scanner finds them.
pub type FieldMap = HashMap<String, Span, foldhash::fast::FixedState>;

/// Where each field of a YAML document sits: `engines[0].fixed_in` → line 9, column 5.
///
/// Worked out when first asked for, not when the document is read: only a
/// diagnostic needs a position, and a record that validates cleanly never
/// asks. Mapping the fields of every document as it was read was 2% of a
/// build's instructions (89 million of 4,065 million at 1,000 findings).
/// What is kept instead is the text, which holds each key once, where the
/// map held a string of each field's whole path.
#[derive(Debug, Clone, Default)]
pub struct Spans {
    fields: Option<std::sync::Arc<LazyFields>>,
    /// For lists some of whose items could not be read: the original
    /// position of each item that was kept, so that `engines[0].affected[1]`
    /// still names the item as written after `affected[0]` was dropped.
    items: HashMap<String, Vec<usize>>,
    /// Where the document starts (front matter starts on line 2 of a finding).
    pub origin: Span,
}

/// A document's text and the scanner that maps its fields, run once, on
/// the first question. The scanner is handed in by the reader (`load`),
/// which this module may not call.
#[derive(Debug)]
struct LazyFields {
    text: std::sync::Arc<str>,
    first_line: usize,
    scan: fn(&str, usize) -> FieldMap,
    map: std::sync::OnceLock<FieldMap>,
}

impl Spans {
    /// The positions of the fields of `text`, which starts on `first_line`
    /// of its file, to be mapped by `scan` when first asked for.
    pub fn lazy(
        text: std::sync::Arc<str>,
        first_line: usize,
        scan: fn(&str, usize) -> FieldMap,
    ) -> Spans {
        Spans {
            fields: Some(std::sync::Arc::new(LazyFields {
                text,
                first_line,
                scan,
                map: std::sync::OnceLock::new(),
            })),
            items: HashMap::new(),
            origin: Span::new(first_line, 1),
        }
    }

    fn map(&self) -> Option<&FieldMap> {
        let f = self.fields.as_deref()?;
        Some(f.map.get_or_init(|| (f.scan)(&f.text, f.first_line)))
    }

    /// Records that the items kept from the list at `list` were, in the
    /// file, at `positions`.
    pub fn set_items(&mut self, list: String, positions: Vec<usize>) {
        self.items.insert(list, positions);
    }

    /// The path of the `k`-th kept item of the list at `list`, with the
    /// item's position as written: `engines[0].affected[1]`.
    pub fn item(&self, list: &str, k: usize) -> String {
        let n = self
            .items
            .get(list)
            .and_then(|p| p.get(k).copied())
            .unwrap_or(k);
        format!("{list}[{n}]")
    }

    /// True when the file has a key or item at exactly `path`.
    pub fn has(&self, path: &str) -> bool {
        self.map().is_some_and(|m| m.contains_key(path))
    }

    /// The position of `path`, or of its nearest parent that has one, or the
    /// start of the document.
    pub fn get(&self, path: &str) -> Span {
        let Some(map) = self.map() else {
            return self.origin;
        };
        if let Some(s) = map.get(path) {
            return *s;
        }
        // Of the parents, only those up to MAX_SPAN_PATH long have fields
        // placed under them: start at the longest of those, which keeps a
        // path of 10^5 dots from costing 10^5 lookups of as many bytes.
        let mut p = path;
        if p.len() > MAX_SPAN_PATH {
            match p
                .rmatch_indices(['.', '['])
                .map(|(i, _)| i)
                .find(|i| *i <= MAX_SPAN_PATH)
            {
                Some(i) => p = &p[..i],
                None => return self.origin,
            }
        } else {
            match p.rfind(['.', '[']) {
                Some(i) => p = &p[..i],
                None => return self.origin,
            }
        }
        loop {
            if let Some(s) = map.get(p) {
                return *s;
            }
            match p.rfind(['.', '[']) {
                Some(i) => p = &p[..i],
                None => return self.origin,
            }
        }
    }
}
