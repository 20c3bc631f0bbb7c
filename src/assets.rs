//! The files the binary carries into every site, so that any folder builds
//! without copying them: the built-in static files (CSS and the browser
//! scripts) and the JSON Schemas of the record files. A site's own
//! `static/` files are copied over the built-in ones.

/// The built-in static files (CSS, JS), by name.
pub const STATIC: &[(&str, &str)] = &[
    ("style.css", include_str!("../static/style.css")),
    ("site.js", include_str!("../static/site.js")),
    ("versions.js", include_str!("../static/versions.js")),
    ("search.js", include_str!("../static/search.js")),
    ("filters.js", include_str!("../static/filters.js")),
    ("runs.js", include_str!("../static/runs.js")),
    ("your-version.js", include_str!("../static/your-version.js")),
];

/// The JSON Schemas of the record files, published under `schemas/`.
pub const SCHEMAS: &[(&str, &str)] = &[
    ("finding", include_str!("../schemas/finding.schema.json")),
    ("run", include_str!("../schemas/run.schema.json")),
    ("site", include_str!("../schemas/site.schema.json")),
    (
        "workloads",
        include_str!("../schemas/workloads.schema.json"),
    ),
];

/// The built-in static files as a site ships them: without the comments
/// and the indentation, which are for the reader of this repository's
/// source, not for the browser. Made once a process.
pub fn shipped() -> &'static [(&'static str, String)] {
    static SHIPPED: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();
    SHIPPED.get_or_init(|| {
        STATIC
            .iter()
            .map(|&(name, text)| {
                let lean = if name.ends_with(".css") {
                    lean_css(text)
                } else {
                    lean_js(text)
                };
                (name, lean)
            })
            .collect()
    })
}

/// `css` without its comments (a `/*` inside a string is kept), each line
/// without its indentation, and no blank line.
fn lean_css(css: &str) -> String {
    let mut bare = String::with_capacity(css.len());
    let mut chars = css.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                bare.push(c);
                if c == '\\' {
                    bare.extend(chars.next());
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '/' && chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for d in chars.by_ref() {
                    if last == '*' && d == '/' {
                        break;
                    }
                    last = d;
                }
            }
            None => {
                if c == '"' || c == '\'' {
                    quote = Some(c);
                }
                bare.push(c);
            }
        }
    }
    unindent(&bare, |_| false)
}

/// `js` without its lines that are only a comment (`// …`), each line
/// without its indentation, and no blank line. A line break is kept
/// wherever there was one, so the script parses as it did. A script with
/// a template literal (`` ` ``) in its code, whose lines may be text, is
/// shipped as it is.
fn lean_js(js: &str) -> String {
    let comment = |l: &str| l.trim_start().starts_with("//");
    if js.lines().any(|l| !comment(l) && l.contains('`')) {
        return js.to_string();
    }
    unindent(js, comment)
}

/// Each line of `text` without its indentation, less the blank ones and
/// those `drop` names.
fn unindent(text: &str, drop: impl Fn(&str) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let l = line.trim_start();
        if l.is_empty() || drop(l) {
            continue;
        }
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_indentation_are_left_out() {
        let css = "/* The page. */\n.a::before { content: \"/* kept */\"; }\n\n  .b {\n    color: red; /* why */\n  }\n";
        assert_eq!(
            lean_css(css),
            ".a::before { content: \"/* kept */\"; }\n.b {\ncolor: red;\n}\n"
        );
        let js = "// What it does.\nfunction f(a) {\n  // Why.\n  return a + \"//\"; // kept\n}\n";
        assert_eq!(
            lean_js(js),
            "function f(a) {\nreturn a + \"//\"; // kept\n}\n"
        );
        let template = "var t = `a\n  b`;\n";
        assert_eq!(lean_js(template), template);
        // Every built-in file is smaller, and none is emptied.
        for ((name, text), (_, lean)) in STATIC.iter().zip(shipped()) {
            assert!(
                lean.len() < text.len() && lean.len() > text.len() / 2,
                "{name}"
            );
        }
    }
}
