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
    (css("InspiredGitHub"), css("base16-ocean.dark"))
}
