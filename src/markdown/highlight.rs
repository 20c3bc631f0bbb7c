//! Code highlighting with syntect, as CSS classes.
//!
//! The syntax set is loaded once, on the first code block (a site without
//! code never pays for it). Output uses classes prefixed `hl-`, never inline
//! colours, so one stylesheet serves light mode and another dark mode; both
//! are generated here from syntect's bundled themes.
//!
//! syntect runs on the Oniguruma regex engine (`default-onig`, built with the
//! machine's C compiler): highlighting dominates a build's CPU time, and
//! Oniguruma halved it against the pure-Rust `fancy-regex` backend on the
//! benchmark corpus (1.7 s to 0.9 s of CPU for 1,000 findings).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;
use syntect::highlighting::ThemeSet;
use syntect::html::{css_for_theme_with_class_style, line_tokens_to_classed_spans, ClassStyle};
use syntect::parsing::{ParseState, ScopeStack, SyntaxSet};
use syntect::util::LinesWithEndings;

const STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "hl-" };

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// Highlights `code` written in `lang` (a fence's info string). Returns the
/// inner HTML of a `<code>` element, or `None` when the language is unknown
/// (the caller then escapes the code as plain text).
pub fn highlight(code: &str, lang: &str) -> Option<String> {
    let lang = lang.split([' ', ',', '{']).next().unwrap_or("").trim();
    if lang.is_empty() {
        return None;
    }
    let set = syntaxes();
    let syntax = set.find_syntax_by_token(lang).or_else(|| match lang {
        "sh" | "shell" | "console" | "zsh" => set.find_syntax_by_token("bash"),
        "yml" => set.find_syntax_by_token("yaml"),
        _ => None,
    })?;
    // What syntect's ClassedHTMLGenerator does, line by line, with each
    // line's result looked up first in this thread's LINES cache. States
    // and results are shared, not copied: a line found in the cache costs
    // two reference counts, not a copy of syntect's parser state.
    let mut state = Rc::new(LineState {
        parse: ParseState::new(syntax),
        scopes: ScopeStack::new(),
    });
    let mut html = String::with_capacity(code.len() * 4);
    let mut open_spans = 0;
    LINES.with_borrow_mut(|cache| {
        for line in LinesWithEndings::from(code) {
            let done = match cache.get(line, &state) {
                Some(done) => Rc::clone(done),
                None => {
                    let mut next = LineState::clone(&state);
                    let ops = next.parse.parse_line(line, set).ok()?;
                    let (text, delta) =
                        line_tokens_to_classed_spans(line, &ops, STYLE, &mut next.scopes).ok()?;
                    let done = Rc::new(Highlighted {
                        html: text,
                        open_delta: delta,
                        after: Rc::new(next),
                    });
                    cache.insert(line, Rc::clone(&state), Rc::clone(&done));
                    done
                }
            };
            html.push_str(&done.html);
            open_spans += done.open_delta;
            state = Rc::clone(&done.after);
        }
        Some(())
    })?;
    for _ in 0..open_spans {
        html.push_str("</span>");
    }
    Some(html)
}

/// Where highlighting stands between two lines: syntect's parser state and
/// the scopes open in the HTML. A line's HTML depends on nothing else.
#[derive(Clone, PartialEq, Eq)]
struct LineState {
    parse: ParseState,
    scopes: ScopeStack,
}

/// One line highlighted from a given state.
struct Highlighted {
    html: String,
    open_delta: isize,
    after: Rc<LineState>,
}

/// A line's starting state and what it gives, as the cache keeps them.
type Entry = (Rc<LineState>, Rc<Highlighted>);

/// Cached lines by their text, hashed with foldhash (SipHash was most of a
/// lookup's cost).
type Lines = HashMap<String, Vec<Entry>, foldhash::fast::FixedState>;

/// Highlighted lines by text and starting state. Code blocks repeat lines
/// (shebangs, `set -euo pipefail`, the same launch command in many
/// findings), and parsing a line is the costly part of highlighting, so a
/// line seen before in the same state is not parsed again; the result is
/// the same bytes, since syntect's output depends only on the line and the
/// state. Two generations bound the memory: when the current one is full it
/// becomes the old one, and lines found in the old one move back.
#[derive(Default)]
struct LineCache {
    current: Lines,
    old: Lines,
    /// Entries (line and state) in `current`.
    entries: usize,
}

/// Entries (a line in a state) per generation of the cache, per thread.
/// An entry holds syntect's parser state, a kilobyte or more: at 4,096
/// lines the caches held about 20 MB through a build of 10,000 findings,
/// and at 512 lines that build took the same CPU time. (At 256, 23 million
/// instructions more for 1,000 findings: lines fell out between repeats.)
const CACHED_LINES: usize = 1024;
/// Longer lines are rarely repeated; they are not cached.
const CACHED_LINE_BYTES: usize = 256;

impl LineCache {
    fn get(&mut self, line: &str, state: &Rc<LineState>) -> Option<&Rc<Highlighted>> {
        // The state is most often the very one a cached line ended in.
        let same = |s: &Rc<LineState>| Rc::ptr_eq(s, state) || **s == **state;
        let found = |m: &Lines| {
            m.get(line)
                .and_then(|v| v.iter().position(|(s, _)| same(s)))
        };
        if found(&self.current).is_none() {
            let k = found(&self.old)?;
            let entry = self.old.get_mut(line)?.swap_remove(k);
            self.insert(line, entry.0, entry.1);
        }
        let k = found(&self.current)?;
        self.current.get(line).map(|v| &v[k].1)
    }

    fn insert(&mut self, line: &str, state: Rc<LineState>, done: Rc<Highlighted>) {
        if line.len() > CACHED_LINE_BYTES {
            return;
        }
        if self.entries >= CACHED_LINES {
            self.old = std::mem::take(&mut self.current);
            self.entries = 0;
        }
        self.entries += 1;
        self.current
            .entry(line.to_string())
            .or_default()
            .push((state, done));
    }
}

thread_local! {
    static LINES: RefCell<LineCache> = RefCell::new(LineCache::default());
}

/// The stylesheets for highlighted code: (light, dark).
pub fn stylesheets() -> (String, String) {
    let themes = ThemeSet::load_defaults();
    let css = |name: &str| {
        themes
            .themes
            .get(name)
            .and_then(|t| css_for_theme_with_class_style(t, STYLE).ok())
            .unwrap_or_default()
    };
    (
        readable(&css("InspiredGitHub"), CODE_BG_LIGHT),
        readable(&css("base16-ocean.dark"), CODE_BG_DARK),
    )
}

/// The background of code blocks in static/style.css (`--surface-2`), light
/// and dark.
const CODE_BG_LIGHT: [u8; 3] = [0xf1, 0xf2, 0xf4];
const CODE_BG_DARK: [u8; 3] = [0x22, 0x26, 0x2c];

/// The theme's text colours, each moved towards black (light background) or
/// white (dark) just enough to read at 4.5:1 against `bg`, the WCAG AA ratio
/// for text: syntect's bundled themes have comments and constants below it.
/// Rules that set their own background keep their colours.
fn readable(css: &str, bg: [u8; 3]) -> String {
    let mut out = String::with_capacity(css.len());
    for rule in css.split_inclusive('}') {
        if rule.contains("background-color") {
            out.push_str(rule);
            continue;
        }
        let mut rest = rule;
        while let Some(i) = rest.find("color: #") {
            let (before, after) = rest.split_at(i + "color: #".len());
            out.push_str(before);
            match after.get(..6).and_then(|h| u32::from_str_radix(h, 16).ok()) {
                Some(rgb) => {
                    let c = [(rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8];
                    let [r, g, b] = legible(c, bg);
                    out.push_str(&format!("{r:02x}{g:02x}{b:02x}"));
                    rest = &after[6..];
                }
                None => rest = after,
            }
        }
        out.push_str(rest);
    }
    out
}

/// `c`, mixed towards black or white until it reads at 4.5:1 on `bg`.
fn legible(c: [u8; 3], bg: [u8; 3]) -> [u8; 3] {
    let target = if luminance(bg) > 0.5 { 0.0 } else { 255.0 };
    for step in 0..=40 {
        let t = f64::from(step) / 40.0;
        let mixed = c.map(|x| (f64::from(x) + (target - f64::from(x)) * t).round() as u8);
        if contrast(mixed, bg) >= 4.6 {
            return mixed;
        }
    }
    [target as u8; 3]
}

fn luminance(c: [u8; 3]) -> f64 {
    let lin = |x: u8| {
        let v = f64::from(x) / 255.0;
        if v <= 0.039_28 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn colours(css: &str) -> Vec<[u8; 3]> {
        css.split_inclusive('}')
            .filter(|r| !r.contains("background-color"))
            .flat_map(|r| {
                r.match_indices("color: #")
                    .map(move |(i, _)| &r[i + 8..i + 14])
            })
            .map(|h| {
                let v = u32::from_str_radix(h, 16).unwrap();
                [(v >> 16) as u8, (v >> 8) as u8, v as u8]
            })
            .collect()
    }

    #[test]
    fn every_code_colour_reads_at_aa_contrast() {
        let (light, dark) = stylesheets();
        for (css, bg) in [(&light, CODE_BG_LIGHT), (&dark, CODE_BG_DARK)] {
            let cs = colours(css);
            assert!(cs.len() > 10, "too few colours found");
            for c in cs {
                assert!(
                    contrast(c, bg) >= 4.5,
                    "{c:?} on {bg:?}: {:.2}",
                    contrast(c, bg)
                );
            }
        }
        // A colour that already reads is kept as it is.
        assert_eq!(
            legible([0x18, 0x36, 0x91], CODE_BG_LIGHT),
            [0x18, 0x36, 0x91]
        );
    }

    /// syntect's own generator, without the line cache: the reference.
    fn uncached(code: &str, token: &str) -> String {
        let set = syntaxes();
        let syntax = set.find_syntax_by_token(token).unwrap();
        let mut gen = syntect::html::ClassedHTMLGenerator::new_with_class_style(syntax, set, STYLE);
        for line in LinesWithEndings::from(code) {
            gen.parse_html_for_line_which_includes_newline(line)
                .unwrap();
        }
        gen.finalize()
    }

    #[test]
    fn cached_lines_give_the_same_html_as_syntect() {
        // The same lines in different states: inside and outside a heredoc,
        // a Python string and a Rust block comment; first lines; repeats.
        let blocks = [
            ("bash", "#!/usr/bin/env bash\nset -euo pipefail\ncat <<EOF\nset -euo pipefail\necho \"$X\"\nEOF\nset -euo pipefail\necho \"$X\"\n"),
            ("bash", "set -euo pipefail\necho \"$X\"\n#!/usr/bin/env bash\n"),
            ("python", "x = \"\"\"\nimport os\n\"\"\"\nimport os\nprint(x)\n"),
            ("python", "import os\nprint(x)\n"),
            ("rust", "/*\nfn main() {}\n*/\nfn main() {}\n"),
            ("yaml", "a: |\n  b: 1\nb: 1\n"),
            ("bash", "echo 'unterminated\n"),
        ];
        for _ in 0..2 {
            for (lang, code) in blocks {
                assert_eq!(
                    highlight(code, lang).unwrap(),
                    uncached(code, lang),
                    "{lang}: {code}"
                );
            }
        }
        // Past a generation's size, the cache turns over and stays right.
        for n in 0..(CACHED_LINES + 50) {
            let code = format!("export N={n}\nset -euo pipefail\n");
            assert_eq!(highlight(&code, "bash").unwrap(), uncached(&code, "bash"));
        }
    }
}
