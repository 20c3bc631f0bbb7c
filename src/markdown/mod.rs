//! Markdown: parser options, link rewriting, headings, and the "What to do" section.
//!
//! Bodies are CommonMark with tables, footnotes, strikethrough and task
//! lists. Raw HTML in a body is never passed through: it is shown as text
//! (escaped), which keeps pages free of injected markup without a sanitizer.
//! `finding:N` and `run:ID` links become site links; internal links are
//! written with [`ROOT`](crate::urls::ROOT) in front and made relative per page when the page is
//! written, so one rendering serves pages at any depth.

mod breaks;
pub mod highlight;

use crate::record::{BodyFacts, BodyLink};
use crate::util::escape_html;
use pulldown_cmark::{
    html, CodeBlockKind, CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd,
};
use std::collections::HashMap;

/// The parser options used for every piece of Markdown on the site.
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
}

/// The id of a heading: lowercase words joined by `-`.
pub fn slugify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("section");
    }
    out
}

/// Gives each heading a unique id, in document order.
#[derive(Default)]
struct HeadingIds {
    seen: HashMap<String, usize>,
}

impl HeadingIds {
    fn next(&mut self, text: &str) -> String {
        let base = slugify(text);
        let n = self.seen.entry(base.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            base
        } else {
            format!("{base}-{}", *n - 1)
        }
    }
}

/// True for link destinations a page may carry: web and mail addresses,
/// `finding:`/`run:` references, site paths, relative paths and fragments.
/// Anything with another scheme (`javascript:`, `data:`, `vbscript:` …) is not.
pub fn is_safe_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    match lower.find(':') {
        None => true,
        Some(i) => {
            // A colon after a '/', '?' or '#' is part of a path, not a scheme.
            if lower[..i].contains(['/', '?', '#']) {
                return true;
            }
            matches!(&lower[..i], "http" | "https" | "mailto" | "finding" | "run")
        }
    }
}

fn is_what_to_do(text: &str) -> bool {
    text.trim().eq_ignore_ascii_case("what to do")
}

/// Whether the fenced code block whose source is `block` (from its opening
/// fence to where it ends) has a closing fence: a last line of at least as
/// many of the same fence characters, and nothing else. An unclosed block
/// runs to the end of the body.
fn fence_closed(block: &str) -> bool {
    let mut lines = block.lines();
    let Some(open) = lines.next().map(str::trim_start) else {
        return false;
    };
    let Some(ch) = open.chars().next().filter(|c| *c == '`' || *c == '~') else {
        return false;
    };
    let width = open.chars().take_while(|&c| c == ch).count();
    let Some(last) = lines.rfind(|l| !l.trim().is_empty()) else {
        return false;
    };
    let last = last.trim();
    last.chars().all(|c| c == ch) && last.chars().count() >= width
}

/// Scans a body for links, headings, an unclosed code block and lists
/// started by accident (see `breaks`), without rendering it.
pub fn scan(body: &str) -> BodyFacts {
    let mut facts = BodyFacts::default();
    let mut ids = HeadingIds::default();
    let mut heading: Option<(HeadingLevel, String)> = None;
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', body.as_bytes()).map(|i| i + 1))
        .collect();
    let mut breaks = breaks::Finder::new(body, &line_starts);
    // The column of the last link, to count the next one's from there: a
    // line of 10^5 links is counted once, not once per link.
    let mut last: Option<(usize, usize, usize)> = None; // (line, byte, column)
    for (event, range) in Parser::new_ext(body, options()).into_offset_iter() {
        breaks.event(&event, &range);
        match event {
            Event::Start(
                Tag::Link {
                    dest_url,
                    link_type,
                    ..
                }
                | Tag::Image {
                    dest_url,
                    link_type,
                    ..
                },
            ) => {
                let dest_url = if link_type == LinkType::Email {
                    format!("mailto:{dest_url}").into()
                } else {
                    dest_url
                };
                let line = line_starts.partition_point(|&s| s <= range.start);
                let (from, at) = match last {
                    Some((l, byte, column)) if l == line && byte <= range.start => (byte, column),
                    _ => (line_starts[line - 1], 1),
                };
                let column = at + body[from..range.start].chars().count();
                last = Some((line, range.start, column));
                facts.links.push(BodyLink {
                    url: dest_url.to_string(),
                    line,
                    column,
                });
            }
            Event::Start(Tag::Heading { level, .. }) => heading = Some((level, String::new())),
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_)))
                if facts.unclosed_fence.is_none() && !fence_closed(&body[range.clone()]) =>
            {
                facts.unclosed_fence = Some(line_starts.partition_point(|&s| s <= range.start));
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, text)) = &mut heading {
                    text.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, text)) = heading.take() {
                    if level == HeadingLevel::H2 && is_what_to_do(&text) {
                        facts.has_what_to_do = true;
                    }
                    facts.heading_ids.push(ids.next(&text));
                }
            }
            _ => {}
        }
    }
    facts.list_breaks = breaks.finish();
    facts
}

/// A rendered body.
#[derive(Debug, Default, Clone)]
pub struct Rendered {
    /// The HTML, with the "What to do" section wrapped in
    /// `<section class="what-to-do">`.
    pub html: String,
    /// The first paragraph as plain text (the default summary).
    pub first_paragraph: String,
    /// Whether the body has a code block (the page then links the highlight CSS).
    pub has_code: bool,
}

/// Turns `finding:N` / `run:ID` into site paths (with [`ROOT`](crate::urls::ROOT) in front);
/// `None` leaves the link as written.
pub type Resolver<'a> = &'a (dyn Fn(&str) -> Option<String> + Sync);

/// Renders a body.
pub fn render(body: &str, resolve: Resolver<'_>) -> Rendered {
    render_part(body, resolve, false)
}

/// The "What to do" section of a body, the same bytes [`render`] gives it
/// (see [`what_to_do_section`]), or nothing. Code outside the section is
/// not highlighted: highlighting is most of rendering a body, and the
/// feeds want only this section of each.
pub fn render_what_to_do(body: &str, resolve: Resolver<'_>) -> String {
    what_to_do_section(&render_part(body, resolve, true).html).to_string()
}

/// The "What to do" section of a rendered body, as the renderer wraps it
/// (`<section class="what-to-do">…</section>`), or nothing. A body holds no
/// raw HTML of its own, so the first `</section>` after it closes it.
pub fn what_to_do_section(html: &str) -> &str {
    let Some(start) = html.find("<section class=\"what-to-do\"") else {
        return "";
    };
    let rest = &html[start..];
    const CLOSE: &str = "</section>\n";
    match rest.find(CLOSE) {
        Some(end) => &rest[..end + CLOSE.len()],
        None => rest,
    }
}

/// [`render`], or with `section_only` the same up to the code blocks
/// outside the "What to do" section, which are left out.
fn render_part(body: &str, resolve: Resolver<'_>, section_only: bool) -> Rendered {
    let mut ids = HeadingIds::default();
    let mut events: Vec<Event<'_>> = Vec::new();
    let mut out = Rendered::default();
    let mut in_heading: Option<(HeadingLevel, usize, String)> = None;
    let mut code: Option<(String, String)> = None; // (lang, text)
    let mut first_para: Option<String> = None;
    let mut in_first_para = false;
    let mut section_open = false;
    let mut html_out = String::with_capacity(body.len() * 3 / 2);

    let flush = |events: &mut Vec<Event<'_>>, html_out: &mut String| {
        let start = html_out.len();
        html::push_html(html_out, events.drain(..));
        // Tables scroll sideways inside their own box (style.css): focusable,
        // so that keyboard users can scroll them. Raw HTML is escaped, so
        // every `<table>` here is a Markdown table.
        if html_out[start..].contains("<table>") {
            let tail = html_out
                .split_off(start)
                .replace("<table>", "<table tabindex=\"0\">");
            html_out.push_str(&tail);
        }
    };

    for event in Parser::new_ext(body, options()) {
        if let Some((_, text)) = &mut code {
            match event {
                Event::Text(t) => text.push_str(&t),
                Event::End(TagEnd::CodeBlock) => {
                    let (lang, text) = code.take().unwrap_or_default();
                    flush(&mut events, &mut html_out);
                    if section_open || !section_only {
                        html_out.push_str(&code_block(&text, &lang));
                    }
                    out.has_code = true;
                }
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(l) => l.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                code = Some((lang, String::new()));
            }
            Event::Start(Tag::Heading { level, .. }) => {
                in_heading = Some((level, events.len(), String::new()));
                events.push(Event::Text(CowStr::Borrowed(""))); // placeholder for the opening tag
            }
            Event::End(TagEnd::Heading(_)) => {
                let Some((level, at, text)) = in_heading.take() else {
                    continue;
                };
                let id = ids.next(&text);
                let n = level as usize;
                let wtd = level == HeadingLevel::H2 && is_what_to_do(&text);
                let mut open = String::new();
                if level == HeadingLevel::H2 && section_open {
                    open.push_str("</section>\n");
                    section_open = false;
                }
                if wtd {
                    open.push_str("<section class=\"what-to-do\" aria-labelledby=\"");
                    open.push_str(&id);
                    open.push_str("\">\n");
                    section_open = true;
                }
                // Pushed piece by piece: `format!` here cost more than the
                // heading's text.
                let digit = char::from(b'0' + n as u8);
                open.push_str("<h");
                open.push(digit);
                open.push_str(" id=\"");
                open.push_str(&id);
                open.push_str("\">");
                events[at] = Event::Html(CowStr::from(open));
                let mut close = String::with_capacity(80 + id.len());
                close.push_str(" <a class=\"anchor\" href=\"#");
                close.push_str(&id);
                close.push_str("\" aria-label=\"Link to this section\">#</a></h");
                close.push(digit);
                close.push_str(">\n");
                events.push(Event::Html(CowStr::from(close)));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let dest = match resolve(&dest_url) {
                    Some(u) => CowStr::from(u),
                    None if link_type == LinkType::Email => {
                        CowStr::from(format!("mailto:{dest_url}"))
                    }
                    // Markdown outside finding bodies (blurbs, run notes) is not
                    // validated; an unsafe scheme never becomes a live link.
                    None if !is_safe_url(&dest_url) => CowStr::Borrowed("#"),
                    None => dest_url,
                };
                events.push(Event::Start(Tag::Link {
                    link_type: LinkType::Inline,
                    dest_url: dest,
                    title,
                    id,
                }));
            }
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                title,
                id,
            }) if !is_safe_url(&dest_url) => {
                events.push(Event::Start(Tag::Image {
                    link_type,
                    dest_url: CowStr::Borrowed(""),
                    title,
                    id,
                }));
            }
            Event::Html(raw) | Event::InlineHtml(raw) => {
                // Raw HTML is shown, never interpreted.
                events.push(Event::Text(raw));
            }
            Event::Start(Tag::Paragraph) => {
                if first_para.is_none() && in_heading.is_none() {
                    first_para = Some(String::new());
                    in_first_para = true;
                }
                events.push(Event::Start(Tag::Paragraph));
            }
            Event::End(TagEnd::Paragraph) => {
                in_first_para = false;
                events.push(Event::End(TagEnd::Paragraph));
            }
            Event::Text(t) => {
                if let Some((_, _, text)) = &mut in_heading {
                    text.push_str(&t);
                }
                if in_first_para {
                    if let Some(p) = &mut first_para {
                        p.push_str(&t);
                    }
                }
                events.push(Event::Text(t));
            }
            Event::Code(t) => {
                if let Some((_, _, text)) = &mut in_heading {
                    text.push_str(&t);
                }
                if in_first_para {
                    if let Some(p) = &mut first_para {
                        p.push_str(&t);
                    }
                }
                events.push(Event::Code(t));
            }
            Event::SoftBreak | Event::HardBreak if in_first_para => {
                if let Some(p) = &mut first_para {
                    p.push(' ');
                }
                events.push(event);
            }
            other => events.push(other),
        }
    }
    flush(&mut events, &mut html_out);
    if section_open {
        html_out.push_str("</section>\n");
    }
    out.html = html_out;
    out.first_paragraph = first_para.unwrap_or_default().trim().to_string();
    out
}

/// A code block. `tabindex="0"`: a block wider than the page scrolls
/// sideways, and keyboard users must be able to focus it to scroll it.
fn code_block(code: &str, lang: &str) -> String {
    let lang_name = lang.split([' ', ',', '{']).next().unwrap_or("");
    let inner = highlight::highlight(code, lang).unwrap_or_else(|| escape_html(code));
    if lang_name.is_empty() {
        format!("<pre class=\"code\" tabindex=\"0\"><code>{inner}</code></pre>\n")
    } else {
        let l = escape_html(lang_name);
        format!(
            "<pre class=\"code\" data-lang=\"{l}\" tabindex=\"0\"><code class=\"language-{l}\">{inner}</code></pre>\n"
        )
    }
}

/// What lists, the search index and the JSON export need of a body, as
/// plain text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BodyText {
    /// The first paragraph outside a heading, trimmed.
    pub first_paragraph: String,
    /// All the text, for the search index.
    pub all: String,
    /// The "What to do" section as one line: its paragraphs, list items and
    /// code, spaces folded; empty without the section. For the terminal and
    /// CI (`findings audit`), where a finding's advice must fit on a line.
    pub what_to_do: String,
}

/// A body's [`BodyText`], from one parse alone (no HTML, no highlighting):
/// at a fraction of the cost of [`render`].
pub fn text_of(body: &str) -> BodyText {
    let mut first: Option<String> = None;
    let mut in_first = false;
    let mut depth = 0usize; // inside a heading
    let mut all = String::with_capacity(body.len());
    // The heading being read, and where "What to do" stands: not yet met,
    // being read, or over (the next heading of its level or above ends it).
    let mut heading: Option<(HeadingLevel, String)> = None;
    let (mut in_advice, mut advice_over) = (false, false);
    let mut advice = String::new();
    for e in Parser::new_ext(body, options()) {
        match e {
            Event::Start(Tag::Heading { level, .. }) => {
                depth += 1;
                if in_advice && level <= HeadingLevel::H2 {
                    in_advice = false;
                    advice_over = true;
                }
                heading = Some((level, String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                depth = depth.saturating_sub(1);
                all.push(' ');
                if let Some((level, text)) = heading.take() {
                    if in_advice {
                        advice.push_str(&text);
                        advice.push(' ');
                    } else if !advice_over && level == HeadingLevel::H2 && is_what_to_do(&text) {
                        in_advice = true;
                    }
                }
            }
            Event::Start(Tag::Paragraph) if first.is_none() && depth == 0 => {
                first = Some(String::new());
                in_first = true;
            }
            Event::End(TagEnd::Paragraph) => {
                in_first = false;
                all.push(' ');
                if in_advice {
                    advice.push(' ');
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if in_first {
                    if let Some(p) = &mut first {
                        p.push_str(&t);
                    }
                }
                match &mut heading {
                    Some((_, text)) => text.push_str(&t),
                    None if in_advice => advice.push_str(&t),
                    None => {}
                }
                all.push_str(&t);
            }
            Event::Html(t) | Event::InlineHtml(t) => {
                if in_first {
                    if let Some(p) = &mut first {
                        p.push_str(&t);
                    }
                }
                all.push_str(&t);
            }
            Event::SoftBreak | Event::HardBreak => {
                if in_first {
                    if let Some(p) = &mut first {
                        p.push(' ');
                    }
                }
                if in_advice {
                    advice.push(' ');
                }
                all.push(' ');
            }
            Event::End(end) => {
                if in_advice
                    && matches!(
                        end,
                        TagEnd::Item
                            | TagEnd::CodeBlock
                            | TagEnd::BlockQuote(_)
                            | TagEnd::TableCell
                    )
                {
                    advice.push(' ');
                }
                all.push(' ');
            }
            _ => {}
        }
    }
    BodyText {
        first_paragraph: first.unwrap_or_default().trim().to_string(),
        all,
        what_to_do: one_line(&advice),
    }
}

/// `text`'s words joined by single spaces, without a vector of them first.
fn one_line(text: &str) -> String {
    let mut line = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    line
}

/// The "What to do" section of a body as one line of plain text (see
/// [`BodyText::what_to_do`]).
pub fn what_to_do_text(body: &str) -> String {
    text_of(body).what_to_do
}

/// Renders one line of inline Markdown (a title) without the paragraph.
pub fn render_inline(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 8);
    let events = Parser::new_ext(text, options()).filter_map(|e| match e {
        Event::Start(Tag::Paragraph) | Event::End(TagEnd::Paragraph) => None,
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::Link { .. }) | Event::End(TagEnd::Link) => None,
        // Titles, summaries and captions are not checked like bodies: an
        // image there keeps only its text, so no address from them is live.
        Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => None,
        other => Some(other),
    });
    html::push_html(&mut s, events);
    s.trim_end().to_string()
}

/// Reduces inline Markdown to plain text (for `<title>`, feeds, JSON, search).
pub fn plain_text(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for e in Parser::new_ext(text, options()) {
        match e {
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => {
                s.push_str(&t)
            }
            Event::SoftBreak | Event::HardBreak => s.push(' '),
            Event::End(TagEnd::Paragraph) => s.push(' '),
            _ => {}
        }
    }
    s.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::urls::ROOT;

    fn none(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn the_what_to_do_section_alone_is_the_section_of_the_whole_body() {
        let code = |lang: &str| format!("```{lang}\nexport A=1 # x\nrun --x \"y\"\n```\n");
        let bodies = [
            String::new(),
            "No section.\n\n## Notes\n\ntext\n".to_string(),
            format!(
                "Intro\n\n{}\n## What to do\n\nPin it.\n\n{}\n## Next\n\n{}",
                code("bash"),
                code("python"),
                code("bash")
            ),
            format!(
                "{}\n## What to do\n\n- a [link](finding:2)\n- b\n\n# Deeper\n\n{}",
                code("bash"),
                code("")
            ),
            format!(
                "## What to do\n\n{}\n## What to do\n\n{}",
                code("bash"),
                code("bash")
            ),
            format!(
                "## what to do\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n{}",
                code("sh")
            ),
        ];
        let resolve = |u: &str| (u == "finding:2").then(|| format!("{ROOT}findings/two/"));
        for body in &bodies {
            let whole = render(body, &resolve).html;
            assert_eq!(
                render_what_to_do(body, &resolve),
                what_to_do_section(&whole),
                "{body}"
            );
        }
        assert!(render_what_to_do(&bodies[2], &resolve).contains("language-python"));
    }

    #[test]
    fn headings_get_ids_and_self_links() {
        let r = render("## What we saw\n\ntext\n\n## What we saw\n", &none);
        assert!(r.html.contains(
            "<h2 id=\"what-we-saw\">What we saw <a class=\"anchor\" href=\"#what-we-saw\""
        ));
        assert!(r.html.contains("<h2 id=\"what-we-saw-1\">"));
    }

    #[test]
    fn what_to_do_is_set_apart() {
        let r = render(
            "Intro.\n\n## What to do\n\nPin it.\n\n## Details\n\nMore.\n",
            &none,
        );
        let wtd = r.html.find("<section class=\"what-to-do\"").unwrap();
        let close = r.html.find("</section>").unwrap();
        let pin = r.html.find("Pin it.").unwrap();
        let details = r.html.find("id=\"details\"").unwrap();
        assert!(wtd < pin && pin < close && close < details);
        assert_eq!(r.first_paragraph, "Intro.");
    }

    #[test]
    fn raw_html_is_shown_not_run() {
        let r = render(
            "Hi <script>alert(1)</script>\n\n<div onclick=x>y</div>\n",
            &none,
        );
        assert!(!r.html.contains("<script>"));
        assert!(r.html.contains("&lt;script&gt;"));
        assert!(!r.html.contains("<div"));
    }

    #[test]
    fn unsafe_schemes_never_become_links() {
        let r = render(
            "[a](javascript:alert(1)) [b](DATA:text/html,x) [c](https://e.org) [d](/x:y)",
            &none,
        );
        assert!(!r.html.to_ascii_lowercase().contains("javascript:"));
        assert!(!r.html.to_ascii_lowercase().contains("data:"));
        assert!(r.html.contains("href=\"https://e.org\""));
        assert!(r.html.contains("href=\"/x:y\""));
        assert!(is_safe_url("mailto:a@b.org") && !is_safe_url(" vbscript:x"));
    }

    #[test]
    fn links_are_resolved() {
        let resolve = |u: &str| u.strip_prefix("finding:").map(|n| format!("{ROOT}f/{n}/"));
        let r = render("See [F2](finding:2).", &resolve);
        assert!(r.html.contains(&format!("href=\"{ROOT}f/2/\"")));
    }

    #[test]
    fn scan_finds_links_with_positions() {
        let f = scan("Intro\n\nsee [x](run:abc) and [y](https://e.org)\n\n## What to do\n");
        assert_eq!(
            f.links[0],
            BodyLink {
                url: "run:abc".into(),
                line: 3,
                column: 5
            }
        );
        assert_eq!(f.links[1].url, "https://e.org");
        assert!(f.has_what_to_do);
        assert_eq!(f.heading_ids, vec!["what-to-do"]);
    }

    #[test]
    fn what_to_do_is_one_line_of_its_section() {
        let body = "Intro.\n\n## What to do\n\n- Stop `vllm` too;\n- check **twice**.\n\nThen wait.\n\n### Why\n\nNested.\n\n## Details\n\nLater.\n";
        assert_eq!(
            what_to_do_text(body),
            "Stop vllm too; check twice. Then wait. Why Nested."
        );
        assert_eq!(what_to_do_text("No section."), "");
    }

    #[test]
    fn text_of_matches_the_rendered_first_paragraph() {
        let body = "Intro with `code`\nand *more*.\n\n## What to do\n\nDo it.\n";
        let BodyText {
            first_paragraph: first,
            all,
            ..
        } = text_of(body);
        assert_eq!(first, render(body, &none).first_paragraph);
        assert_eq!(first, "Intro with code and more.");
        assert!(all.contains("What to do") && all.contains("Do it."));
    }

    #[test]
    fn inline_markdown_keeps_no_live_address() {
        let r = render_inline("A ![x](javascript:alert(1)) [y](data:text/html,z) <b>b</b>");
        assert_eq!(r, "A x y &lt;b&gt;b&lt;/b&gt;");
    }

    #[test]
    fn titles_render_inline_and_plain() {
        assert_eq!(
            render_inline("Use `--x` *now*"),
            "Use <code>--x</code> <em>now</em>"
        );
        assert_eq!(plain_text("Use `--x` *now*"), "Use --x now");
    }
}
