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

use std::sync::OnceLock;
use syntect::highlighting::ThemeSet;
use syntect::html::{css_for_theme_with_class_style, ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::SyntaxSet;
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
    let mut gen = ClassedHTMLGenerator::new_with_class_style(syntax, set, STYLE);
    for line in LinesWithEndings::from(code) {
        gen.parse_html_for_line_which_includes_newline(line).ok()?;
    }
    Some(gen.finalize())
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
}
