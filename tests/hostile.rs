//! Hostile content: every text field of a site carries markup, quotes and
//! ampersands, and every place a link can hide tries a `javascript:`,
//! `data:` or `vbscript:` address. The tests read the bytes the build
//! writes: no markup from a record is ever live, and the text is still there,
//! escaped.
#![allow(missing_docs)]

mod common;

use common::Site;
use std::path::Path;

/// What every text field says.
const EVIL: &str = "<script>alert(1)</script>\"&'";
/// The same, escaped for HTML text and attributes (by the templates).
const EVIL_HTML: &str = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&#39;";
/// The same, escaped for HTML text by the Markdown renderer, which leaves
/// quotes alone outside attributes (they are harmless in text).
const EVIL_MD: &str = "&lt;script&gt;alert(1)&lt;/script&gt;\"&amp;'";

/// How often the escaped text appears, in either form.
fn escaped(s: &str) -> usize {
    s.matches(EVIL_HTML).count() + s.matches(EVIL_MD).count()
}

/// As a YAML double-quoted scalar.
fn y(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// As a CSV cell.
fn c(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// The minimal fixture with hostile text in every field that holds text.
fn hostile_site() -> Site {
    let site = Site::copy_of("minimal");
    let e = y(EVIL);
    // site.yaml: title, description, group titles and blurbs, engine names.
    site.write(
        "site.yaml",
        &format!(
            r##"title: {e}
base_url: https://example.org/sub/
description: {e}
groups:
  - id: speed
    title: {e}
    blurb: "{blurb}"
  - id: answers
    title: {e}
engines:
  - id: vllm
    name: {e}
    repo: "https://example.org/\"><script>alert(1)</script>"
    color: "#0072b2"
    releases: ["0.28", "0.29", "0.30", "0.32.0"]
  - id: sglang
    name: {e}
    color: "#d55e00"
"##,
            blurb = "Raw <script>alert(1)</script> and [a js link](javascript:alert(1)) and [data](data:text/html,x) and [vb](VBScript:x) and ![img](javascript:alert(1)) and <javascript:alert(1)>"
        ),
    );
    // A finding: title, advice, status_note, summary, models, hardware,
    // tags, links, engine note, and a body with raw HTML.
    site.write(
        "findings/cache-size.md",
        &format!(
            r#"---
id: 7
title: {title}
group: speed
advice: {e}
status: open
status_note: {e}
summary: {summary}
published: 2026-08-17
updated: 2026-09-01
engines:
  - engine: vllm
    affected: ["0.28", "0.30"]
    note: {e}
models: [{e}]
hardware: [{e}]
tags: [{e}, kv-cache]
links:
  - label: {e}
    url: "https://example.org/?q=\"><script>alert(1)</script>&x='"
    kind: issue
runs: [cache-sweep]
aliases: [/old/cache/]
---
The first start {raw} kept **less** cache: "quoted" & 'single'.

<script>alert(1)</script>

<img src=x onerror=alert(1)>

<a href="javascript:alert(1)">raw link</a>

## What we saw

See [the sweep](run:cache-sweep) and [the other finding](finding:9#details).

```html
<script>alert(1)</script>
```

## What to do

Set the cache size explicitly. {raw}
"#,
            // Not at the start: a line that starts with <script> is an HTML
            // block, whose Markdown is not read at all.
            title = y(&format!(
                "Cache {EVIL} ![img](javascript:alert(1)) [link](javascript:alert(1))"
            )),
            summary = y(&format!("Summary {EVIL} ![img](data:image/png,x)")),
            raw = EVIL,
        ),
    );
    site.edit(
        "findings/old-claim.md",
        "reason: The measurement was wrong.",
        &format!("reason: {e}"),
    );
    // A run: title, model, hardware, client, endpoint, notes, flags, table
    // title, column names, units and descriptions, CSV cells, chart title,
    // axis labels and caption.
    let col = y(EVIL);
    site.write(
        "data/runs/cache-sweep/run.yaml",
        &format!(
            r#"title: {e}
date: 2026-08-17
setups:
  - engine: vllm
    version: "0.30"
    flags: {e}
  - engine: {e}
model: {e}
hardware: {e}
client: {e}
endpoint: {e}
notes: "{notes}"
tables:
  - file: starts.csv
    title: {e}
    columns:
      {col}: {{description: {e}}}
      engine: {{description: {e}}}
      cache: {{unit: {e}, description: {e}}}
      peak: {{unit: tokens/s, description: {e}}}
charts:
  - id: cache
    title: {e}
    table: starts.csv
    kind: bar
    x: {col}
    y: cache
    x_label: {e}
    y_label: {e}
    caption: {caption}
  - id: peak
    title: {e}
    table: starts.csv
    kind: grouped-bar
    x: {col}
    y: peak
    series: engine
"#,
            notes = "Notes <script>alert(1)</script> [js](javascript:alert(1)) [d](data:text/html,x) ![i](vbscript:x)",
            caption = y(&format!("Caption {EVIL} ![img](javascript:alert(1))")),
        ),
    );
    site.write(
        "data/runs/cache-sweep/starts.csv",
        &format!(
            "{h},engine,cache,peak\n{v},vllm,51079,266\nloaded,{v},94448,407\n",
            h = c(EVIL),
            v = c(EVIL)
        ),
    );
    site
}

/// Files a browser interprets as markup or script.
fn is_markup(name: &str) -> bool {
    [".html", ".svg", ".xml", ".js", ".css"]
        .iter()
        .any(|x| name.ends_with(x))
}

/// Every string in a JSON value.
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// The tags of an HTML or SVG document: each `<...>`. Text from records is
/// escaped, so every `<` left starts a tag the templates or the chart made.
fn tags(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        let end = rest[i..].find('>').map_or(rest.len(), |e| i + e + 1);
        out.push(&rest[i..end]);
        rest = &rest[end..];
    }
    out
}

fn build(site: &Site, drafts: bool) -> Vec<(String, Vec<u8>)> {
    let mut args = vec!["build"];
    if drafts {
        args.push("--drafts");
    }
    let out = site.run(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    common::tree(&site.path("public"))
}

fn text(files: &[(String, Vec<u8>)], name: &str) -> String {
    let (_, bytes) = files
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name} was not written"));
    String::from_utf8(bytes.clone()).unwrap()
}

#[test]
fn the_hostile_site_passes_check() {
    let site = hostile_site();
    let out = site.run(&["check"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[test]
fn no_markup_from_a_record_is_live_in_any_output() {
    let site = hostile_site();
    let files = build(&site, true);
    let mut markup = 0;
    for (name, bytes) in &files {
        let s = String::from_utf8_lossy(bytes);
        if name.ends_with(".csv") || name.ends_with(".txt") {
            // Data and plain text (robots.txt), served as text/csv and
            // text/plain: published as written.
            continue;
        }
        if name.ends_with(".json") {
            // JSON is data too; it must parse, and hold the text as written.
            serde_json::from_str::<serde_json::Value>(&s).unwrap_or_else(|e| panic!("{name}: {e}"));
            continue;
        }
        assert!(is_markup(name), "unexpected kind of file: {name}");
        markup += 1;
        for bad in ["<script>alert", "<img src=x", "<a href=\"javascript"] {
            assert!(!s.contains(bad), "{name} contains {bad}");
        }
        // No tag carries an event handler (text may mention one, escaped).
        for tag in tags(&s) {
            let t = tag.to_ascii_lowercase();
            assert!(
                !t.split_whitespace()
                    .skip(1)
                    .any(|a| a.starts_with("on") && a.contains('=')),
                "{name}: an event handler in {tag}"
            );
        }
        for tag in tags(&s) {
            let t = tag.to_ascii_lowercase();
            for scheme in ["javascript:", "data:", "vbscript:"] {
                for attr in ["href=\"", "src=\"", "href='", "src='", "action=\"", "url="] {
                    assert!(
                        !t.contains(&format!("{attr}{scheme}")),
                        "{name}: a live {scheme} address in {tag}"
                    );
                }
            }
        }
        // A quote from a record never closes an attribute: every `"` in a
        // tag comes in pairs made by the templates.
        assert!(!s.contains("\"><script"), "{name}");
    }
    assert!(markup > 20, "only {markup} pages were checked");
}

#[test]
fn hostile_text_is_shown_escaped_where_it_belongs() {
    let site = hostile_site();
    let files = build(&site, false);
    let finding = text(&files, "findings/cache-size/index.html");
    // Title (page, heading, tab), advice, status note, summary, models,
    // hardware, tags, link label, engine note: each once at least.
    assert!(escaped(&finding) >= 10, "{}", escaped(&finding));
    assert!(
        finding.contains(&format!("<title>F7: Cache {EVIL_HTML}")),
        "title"
    );
    assert!(
        finding.contains(&format!("content=\"{EVIL_HTML}")),
        "meta attribute"
    );
    // The body: raw HTML shown as text, Markdown text escaped.
    assert!(
        finding.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "raw img"
    );
    assert!(finding.contains("&lt;a href=\"javascript:alert(1)\"&gt;raw link&lt;/a&gt;"));
    assert!(
        finding.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "raw script block"
    );
    assert!(finding.contains("\"quoted\" &amp; 'single'"), "body text");
    // The link field: its address is escaped inside the attribute.
    assert!(
        finding.contains("href=\"https://example.org/?q=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;x=&#39;\""),
        "link url"
    );
    // Images and links in the title and summary keep only their text.
    assert!(
        !finding.contains("<img"),
        "an image from a title or summary"
    );

    // The withdrawn finding's banner.
    let old = text(&files, "findings/old-claim/index.html");
    assert!(escaped(&old) >= 1, "withdrawn reason");

    // The run page: title, setup flags and free engine name, model,
    // hardware, client, endpoint, notes, table title, column names,
    // descriptions and units, cells.
    let run = text(&files, "runs/cache-sweep/index.html");
    assert!(escaped(&run) >= 12, "{}", escaped(&run));
    assert!(
        run.contains("Notes &lt;script&gt;alert(1)&lt;/script&gt;"),
        "notes"
    );
    // Links in notes with unsafe schemes are not live.
    assert!(run.contains("<a href=\"#\">js</a>"), "notes link");

    // Inline SVG: chart titles, axis titles, categories, legend.
    let svg_start = finding.find("<svg").expect("a chart on the finding page");
    let svg = &finding[svg_start..finding[svg_start..].find("</svg>").unwrap() + svg_start];
    assert!(!svg.contains("<script"));
    assert!(
        svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{svg}"
    );

    // Home, group, tag, model, engine and version pages list the finding.
    for page in [
        "index.html",
        "groups/speed/index.html",
        "tags/kv-cache/index.html",
        "engines/vllm/index.html",
        "engines/vllm/0.30/index.html",
    ] {
        let p = text(&files, page);
        assert!(escaped(&p) >= 1, "{page}");
        assert!(!p.contains("<script>alert"), "{page}");
    }
    // The group blurb: raw HTML as text, no live unsafe links or images.
    let home = text(&files, "index.html");
    assert!(
        home.contains("Raw &lt;script&gt;alert(1)&lt;/script&gt;"),
        "blurb"
    );
}

#[test]
fn the_published_csv_is_the_data_as_written() {
    let site = hostile_site();
    let files = build(&site, false);
    let csv = text(&files, "runs/cache-sweep/starts.csv");
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv.as_bytes());
    let rows: Vec<csv::StringRecord> = r.records().map(|r| r.unwrap()).collect();
    assert_eq!(&rows[0][0], EVIL);
    assert_eq!(&rows[1][0], EVIL);
    assert_eq!(&rows[2][1], EVIL);
}

#[test]
fn unsafe_links_in_bodies_are_rejected_by_check() {
    for link in [
        "javascript:alert(1)",
        "JAVASCRIPT:alert(1)",
        "data:text/html,x",
        "vbscript:msgbox(1)",
    ] {
        let site = hostile_site();
        site.edit(
            "findings/cache-size.md",
            "[the sweep](run:cache-sweep)",
            &format!("[the sweep](<{link}>)"),
        );
        let out = site.run(&["check"]);
        assert_eq!(out.code, 1, "{link}: {}", out.stderr);
        assert!(
            out.stderr.contains("are not allowed"),
            "{link}: {}",
            out.stderr
        );
        // And nothing is built.
        let out = site.run(&["build"]);
        assert_eq!(out.code, 1);
        assert!(!Path::new(&site.path("public")).exists());
    }
}

#[test]
fn json_and_feeds_carry_the_text_as_written() {
    let site = hostile_site();
    let files = build(&site, false);
    // JSON is data: the text is there as written, not escaped for HTML (a
    // page that shows it must escape it, as the site's own scripts do).
    let mut found = 0;
    for (name, bytes) in files.iter().filter(|(n, _)| n.ends_with(".json")) {
        let v: serde_json::Value = serde_json::from_slice(bytes).unwrap();
        let mut all = Vec::new();
        strings(&v, &mut all);
        found += all.iter().filter(|s| s.contains(EVIL)).count();
        assert!(
            !all.iter()
                .any(|s| s.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;")),
            "{name}: text escaped twice"
        );
    }
    assert!(found > 0, "no JSON file holds the text as written");
    // Feeds are XML: the text is escaped once for XML, and HTML content is
    // escaped inside that.
    assert!(files.iter().any(|(n, _)| n == "atom.xml"), "no feed");
    for (name, _) in files.iter().filter(|(n, _)| n.ends_with("atom.xml")) {
        let feed = text(&files, name);
        assert!(!feed.contains("<script>alert"), "{name}");
        assert!(
            feed.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{name}"
        );
    }
}
