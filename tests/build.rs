//! `findings build`: what a reader sees on the built pages, redirects,
//! determinism, and that a failed build leaves the previous site alone.
#![allow(missing_docs)]

mod common;
use common::{run_in, tree, Site};

/// Builds `site` into `<site>/public` and returns the output folder.
fn build(site: &Site) -> std::path::PathBuf {
    let out = site.run(&["build"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    site.path("public")
}

fn page(out: &std::path::Path, rel: &str) -> String {
    std::fs::read_to_string(out.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The text of an HTML fragment as a reader sees it: tags removed, block
/// boundaries as spaces, spaces folded.
fn text(html: &str) -> String {
    const INLINE: &[&str] = &["a", "span", "code", "em", "strong", "time", "abbr", "label"];
    let mut out = String::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('>').map_or(rest.len(), |j| i + j + 1);
        let tag = rest[i + 1..end].trim_start_matches('/');
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if !INLINE.contains(&name.as_str()) {
            out.push(' ');
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    let out = out
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The classes after `state ` of each cell in the matrix row of finding
/// `label` (`"affected tested"`, `"in-range inferred"`, …).
fn matrix_row(html: &str, label: &str) -> Vec<String> {
    let i = html
        .find(&format!("<span class=\"fid\">{label}</span>"))
        .unwrap_or_else(|| panic!("no row for {label}"));
    let row = &html[i..i + html[i..].find("</tr>").unwrap()];
    row.match_indices("class=\"state state-")
        .map(|(k, _)| {
            let rest = &row[k + 19..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

/// The HTML of the element that starts at the first match of `start`.
fn section<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let i = html
        .find(start)
        .unwrap_or_else(|| panic!("{start} not found"));
    let j = html[i..].find(end).map_or(html.len(), |j| i + j);
    &html[i..j]
}

#[test]
fn summary_line_counts_pages_and_time() {
    let site = Site::copy_of("minimal");
    let out = site.run(&["build"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let line = out.stderr.trim();
    assert!(
        line.starts_with("build: 31 pages (3 findings, 1 run, 2 charts) and "),
        "{line}"
    );
    assert!(line.ends_with(" ms"), "{line}");
}

#[test]
fn home_lists_groups_in_site_order_without_withdrawn_or_drafts() {
    let site = Site::copy_of("minimal");
    let out = build(&site);
    let home = page(&out, "index.html");
    let speed = home.find("id=\"speed\"").unwrap();
    let answers = home.find("id=\"answers\"").unwrap();
    assert!(speed < answers, "groups follow site.yaml order");
    let t = text(&home);
    assert!(
        t.contains("F7 The cache size changed between starts"),
        "{t}"
    );
    assert!(t.contains("Pin the cache size"));
    assert!(t.contains("open Seen on two releases"));
    assert!(t.contains("vLLM 0.28, 0.30"));
    assert!(t.contains("F9 Answers changed under speculation"));
    assert!(t.contains("Fixed in 0.32.0; before that, replies changed."));
    assert!(
        !t.contains("An old claim"),
        "withdrawn findings leave lists"
    );
    assert!(!t.contains("A draft"), "drafts are left out");
    assert!(!out.join("findings/draft-idea").exists());
}

#[test]
fn finding_page_shows_facts_body_and_link_box() {
    let site = Site::copy_of("minimal");
    let out = build(&site);
    let html = page(&out, "findings/cache-size/index.html");
    assert!(html
        .contains("<title>F7: The cache size changed between starts · Fixture findings</title>"));
    assert!(html.contains(
        "<h1 id=\"finding-title\">The cache size <code>changed</code> between starts</h1>"
    ));
    let facts = text(section(&html, "<aside class=\"facts\"", "</aside>"));
    for want in [
        "vLLM",
        "affected 0.28, 0.30",
        // The versions the site treats as in range, as it resolves them.
        "in range 0.29, 0.32.0 untested",
        "V1 runner only",
        "Qwen3-8B",
        "RTX 5090",
        "17 August 2026",
        "1 September 2026",
        "kv-cache",
    ] {
        assert!(facts.contains(want), "facts box lacks {want:?}: {facts}");
    }
    // Found by us, on a site that names no author: no one is named, least
    // of all "us".
    assert!(!facts.contains("Found by"), "{facts}");
    // The "What to do" section is set apart.
    let wtd = section(&html, "<section class=\"what-to-do\"", "</section>");
    assert!(text(wtd).contains("Set the cache size explicitly."));
    // finding: and run: links are site links, relative to the page.
    assert!(html.contains("href=\"../../runs/cache-sweep/\">the sweep</a>"));
    assert!(html.contains("href=\"../../findings/wrong-answers/#details\">the other finding</a>"));
    // Headings carry ids and visible self-links.
    assert!(html
        .contains("<h2 id=\"what-we-saw\">What we saw <a class=\"anchor\" href=\"#what-we-saw\""));
    // Code is highlighted with classes, not inline colours.
    assert!(html.contains("<pre class=\"code\" data-lang=\"bash\" tabindex=\"0\">"));
    assert!(html.contains("class=\"hl-"));
    assert!(!html.contains("style=\"color"));
    // The link box: permanent URL and the Markdown for a GitHub issue.
    assert!(html.contains("https://example.org/sub/f/7/"));
    assert!(html.contains(
        "value=\"[F7: The cache size changed between starts](https://example.org/sub/f/7/)\""
    ));
    assert!(
        !html.contains("[#7"),
        "never #7, which GitHub turns into an issue link"
    );
    // Backlinks: F9 links here.
    let back = text(section(&html, "class=\"backlinks\"", "</section>"));
    assert!(
        back.contains("F9 Answers changed under speculation"),
        "{back}"
    );
    // Charts of its runs, with their data.
    assert!(html.contains("<figure class=\"chart\" id=\"chart-cache-sweep-cache\""));
    // Numbers as readers read them (the CSV keeps them as written).
    assert!(html.contains("<td class=\"num\">51,079</td>"));
    assert!(html.contains("href=\"../../runs/cache-sweep/starts.csv\""));
}

#[test]
fn withdrawn_and_superseded_pages_keep_a_banner() {
    let site = Site::copy_of("minimal");
    let out = build(&site);
    let t = text(&page(&out, "findings/old-claim/index.html"));
    assert!(
        t.contains("Withdrawn on 20 August 2026. The measurement was wrong."),
        "{t}"
    );
    assert!(t.contains("Superseded. A newer finding replaces this one: F7: The cache size changed between starts."), "{t}");
}

#[test]
fn short_urls_and_aliases_redirect() {
    let site = Site::copy_of("minimal");
    let out = build(&site);
    let short = page(&out, "f/7/index.html");
    assert!(short
        .contains("<meta http-equiv=\"refresh\" content=\"0; url=../../findings/cache-size/\">"));
    assert!(short.contains(
        "<link rel=\"canonical\" href=\"https://example.org/sub/findings/cache-size/\">"
    ));
    let alias = page(&out, "old/cache/index.html");
    assert!(alias.contains("url=../../findings/cache-size/"));
}

#[test]
fn engine_matrix_and_version_pages() {
    let site = Site::copy_of("minimal");
    let out = build(&site);
    let html = page(&out, "engines/vllm/index.html");
    // Versions in order, releases and versions seen in records merged.
    let head = text(section(&html, "<thead>", "</thead>"));
    assert_eq!(head, "Finding 0.28 0.29 0.30 0.32.0");
    let row = |label: &str| matrix_row(&html, label);
    assert_eq!(
        row("F7"),
        [
            "affected tested",
            "in-range inferred",
            "affected tested",
            "in-range inferred"
        ]
    );
    assert_eq!(
        row("F9"),
        [
            "affected tested",
            "in-range inferred",
            "in-range inferred",
            "fixed inferred"
        ]
    );
    assert!(
        !html.contains(">F3<"),
        "withdrawn findings leave the matrix"
    );

    let v = text(&page(&out, "engines/vllm/0.29/index.html"));
    assert!(v.contains("vLLM 0.29: what to watch for"));
    let affected = v.find("Affected").unwrap();
    let in_range = v.find("In range, untested").unwrap();
    let f7 = v.find("F7 The cache size").unwrap();
    assert!(
        affected < in_range && in_range < f7,
        "0.29 is untested for F7: {v}"
    );
    let fixed = text(&page(&out, "engines/vllm/0.32.0/index.html"));
    let i = fixed.find("Fixed before this version").unwrap();
    assert!(fixed[i..].contains("F9 Answers changed under speculation"));
    let sglang = text(&page(&out, "engines/sglang/0.5.20/index.html"));
    let i = sglang.find("Clean").unwrap();
    assert!(sglang[i..].contains("F9"));
}

#[test]
fn group_tag_model_and_run_pages() {
    let site = Site::copy_of("minimal");
    let out = build(&site);
    let g = text(&page(&out, "groups/speed/index.html"));
    assert!(g.contains("Things that are slow.") && g.contains("F7") && !g.contains("An old claim"));
    let t = text(&page(&out, "tags/kv-cache/index.html"));
    assert!(
        t.contains("2 findings") && t.contains("F7") && t.contains("F9"),
        "{t}"
    );
    let m = text(&page(&out, "models/qwen3-8b/index.html"));
    assert!(m.contains("F7"));
    let r = text(&page(&out, "runs/cache-sweep/index.html"));
    for want in [
        "Cache size per start",
        "17 August 2026",
        "vLLM 0.30",
        "--max-num-seqs 16",
        "RTX 5090",
        "vllm bench serve",
        // The label as written, and a name made readable without one; the
        // columns list names the CSV's column beside its label.
        "KV cache (tokens)",
        "Peak (tokens/s)",
        "KV cache (tokens) cache KV cache size printed at start",
        "94,448",
        "F7 The cache size",
    ] {
        assert!(r.contains(want), "run page lacks {want:?}: {r}");
    }
    assert_eq!(
        page(&out, "runs/cache-sweep/starts.csv"),
        "start,engine,cache,peak\ncompiled,vllm,51079,266\nloaded,vllm,94448,407\n"
    );
    assert!(out.join("404.html").exists());
}

#[test]
fn drafts_flag_and_base_url_override() {
    let site = Site::copy_of("minimal");
    let out = site.run(&[
        "build",
        "--drafts",
        "--base-url",
        "https://mirror.example/x",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let html = page(&site.path("public"), "findings/draft-idea/index.html");
    assert!(html.contains("https://mirror.example/x/f/12/"));
    assert!(html.contains("Draft."));
}

#[test]
fn building_twice_gives_identical_bytes() {
    let site = Site::copy_of("minimal");
    let first = tree(&build(&site));
    let second = tree(&build(&site));
    assert_eq!(first.len(), second.len());
    for (a, b) in first.iter().zip(&second) {
        assert!(a == b, "{} differs between builds", a.0);
    }
}

#[test]
fn a_failed_build_leaves_the_previous_site_untouched() {
    let site = Site::copy_of("minimal");
    let before = tree(&build(&site));
    site.edit("findings/cache-size.md", "group: speed", "group: nope");
    let out = site.run(&["build"]);
    assert_eq!(out.code, 1);
    assert!(out
        .stderr
        .contains("findings/cache-size.md:4:1: error: `group`: unknown group \"nope\""));
    assert!(
        out.stderr
            .ends_with("build: stopped, 1 error; nothing was written\n"),
        "{}",
        out.stderr
    );
    assert_eq!(tree(&site.path("public")), before);
    // No staging folders are left beside the output.
    let leftovers: Vec<_> = std::fs::read_dir(site.root())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".public"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_template_error_leaves_the_previous_site_untouched() {
    let site = Site::copy_of("minimal");
    let before = tree(&build(&site));
    site.write(
        "templates/list.html",
        "{% extends \"base.html\" %}{% block main %}{{ nothing.here }}{% endblock main %}",
    );
    let out = site.run(&["build"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("error: template list.html failed for page /groups/"),
        "{}",
        out.stderr
    );
    assert_eq!(tree(&site.path("public")), before);
}

#[test]
fn the_bundled_site_builds_with_the_known_states() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("public");
    let out = run_in(
        &common::bundled(),
        &["build", "--output", out_dir.to_str().unwrap()],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let home = text(&page(&out_dir, "index.html"));
    let order: Vec<usize> = [
        "Answers that changed",
        "Speed that a benchmark does not show",
        "Starting and stopping the server",
        "What the server reports",
    ]
    .iter()
    .map(|g| home.find(g).unwrap_or_else(|| panic!("{g}")))
    .collect();
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "groups in site.yaml order"
    );
    let vllm = page(&out_dir, "engines/vllm/index.html");
    let head = text(section(&vllm, "<thead>", "</thead>"));
    let versions: Vec<&str> = head.split(' ').skip(1).collect();
    let cell = |label: &str, version: &str| {
        let col = versions.iter().position(|v| *v == version).unwrap();
        let state = &matrix_row(&vllm, label)[col];
        state.split(' ').next().unwrap().to_string()
    };
    assert_eq!(cell("F1", "0.28"), "affected", "MTP finding on 0.28");
    assert_eq!(cell("F2", "0.32.0"), "fixed", "n-gram finding on 0.32.0");
    let f7 = page(
        &out_dir,
        "findings/vllm-engine-core-survives-server-kill/index.html",
    );
    assert!(f7.contains("[F7: Stopping the server left the engine holding the GPU](https://example.org/findings/f/7/)"));
}

/// Every `href`/`src` value in `html`.
fn links(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        for (i, _) in html.match_indices(attr) {
            let rest = &html[i + attr.len()..];
            out.push(rest[..rest.find('"').unwrap_or(0)].replace("&amp;", "&"));
        }
    }
    out
}

/// The internal links and fragments of the site in `out_dir` that lead
/// nowhere, and how many links were checked.
fn broken_links(out_dir: &std::path::Path) -> (Vec<String>, usize) {
    let files = tree(out_dir);
    let html: std::collections::HashMap<String, String> = files
        .iter()
        .filter(|(p, _)| p.ends_with(".html"))
        .map(|(p, b)| (p.clone(), String::from_utf8(b.clone()).unwrap()))
        .collect();
    let mut broken = Vec::new();
    let mut checked = 0;
    for (path, text) in &html {
        if path == "404.html" {
            continue; // links from the site's absolute address, checked by the base_url test
        }
        for link in links(text) {
            if link.starts_with("http://")
                || link.starts_with("https://")
                || link.starts_with("mailto:")
            {
                continue;
            }
            checked += 1;
            let (target, frag) = match link.split_once('#') {
                Some((t, f)) => (t.to_string(), Some(f.to_string())),
                None => (link.clone(), None),
            };
            let base = std::path::Path::new(path).parent().unwrap().to_path_buf();
            let mut resolved = base.join(&target);
            // Normalise `..` and `.` without touching the disk.
            let mut parts: Vec<String> = Vec::new();
            for c in resolved.components() {
                match c {
                    std::path::Component::ParentDir if parts.pop().is_none() => {
                        broken.push(format!("{path}: {link} leaves the site"));
                    }
                    std::path::Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
                    _ => {}
                }
            }
            resolved = parts.iter().collect();
            let mut file = resolved.to_string_lossy().into_owned();
            if target.is_empty() {
                file = path.clone();
            } else if target.ends_with('/') || file.is_empty() || out_dir.join(&file).is_dir() {
                file = if file.is_empty() {
                    "index.html".into()
                } else {
                    format!("{file}/index.html")
                };
            }
            if !out_dir.join(&file).is_file() {
                broken.push(format!("{path}: {link} -> {file} does not exist"));
                continue;
            }
            if let Some(frag) = frag.filter(|f| !f.is_empty()) {
                let ok = html
                    .get(&file)
                    .is_some_and(|t| t.contains(&format!("id=\"{frag}\"")));
                if !ok {
                    broken.push(format!("{path}: {link} -> no id \"{frag}\" in {file}"));
                }
            }
        }
    }
    (broken, checked)
}

#[test]
fn every_internal_link_and_fragment_resolves() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("public");
    let out = run_in(
        &common::bundled(),
        &["build", "--output", out_dir.to_str().unwrap()],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (broken, checked) = broken_links(&out_dir);
    assert!(checked > 1000, "only {checked} links checked");
    assert!(
        broken.is_empty(),
        "{} broken links:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

#[test]
fn a_withdrawn_findings_page_links_only_to_pages_that_exist() {
    // F3 is withdrawn, and alone uses a tag, a model and an engine: the
    // tag and model have no page, the engine and its versions do.
    let site = Site::copy_of("minimal");
    site.edit(
        "site.yaml",
        "  - id: sglang\n",
        "  - id: lonely\n    name: Lonely\n    color: \"#009e73\"\n  - id: sglang\n",
    );
    site.edit(
        "findings/old-claim.md",
        "engines:\n",
        "tags: [only-withdrawn]\nmodels: [Lonely-1B]\nengines:\n  - engine: lonely\n    affected: [\"3.1\"]\n",
    );
    let out = build(&site);
    let page = page(&out, "findings/old-claim/index.html");
    assert!(
        page.contains("<span class=\"tag\">only-withdrawn</span>"),
        "{page}"
    );
    assert!(!page.contains("tags/only-withdrawn/") && !page.contains("models/lonely-1b/"));
    assert!(page.contains("href=\"../../engines/lonely/3.1/\">3.1</a>"));
    assert!(out.join("engines/lonely/3.1/index.html").is_file());
    let (broken, checked) = broken_links(&out);
    assert!(checked > 100, "only {checked} links checked");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_bundled_run_shows_a_chart_with_its_data() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("public");
    let out = run_in(
        &common::bundled(),
        &["build", "--output", out_dir.to_str().unwrap()],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let runs: Vec<_> = std::fs::read_dir(common::bundled().join("data/runs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(runs.len() >= 16, "{runs:?}");
    for run in runs {
        let html = page(&out_dir, &format!("runs/{run}/index.html"));
        let figures = html.matches("<figure class=\"chart\"").count();
        assert!(figures >= 1, "run {run} has no chart");
        assert_eq!(
            html.matches("<svg xmlns").count(),
            figures,
            "run {run}: every chart is drawn"
        );
        assert!(
            html.matches("<title").count() > figures,
            "run {run}: every SVG has a title"
        );
        assert_eq!(
            html.matches("<details class=\"chart-data\">").count(),
            figures,
            "run {run}: data beside every chart"
        );
    }
    // Legends and table headers name columns by their labels, never by
    // the CSV's names.
    let c1 = page(&out_dir, "runs/c1-depth-ninfer-vs-vllm/index.html");
    let legends: Vec<&str> = c1
        .split("class=\"plot-legend\">")
        .skip(1)
        .filter_map(|s| s.split('<').next())
        .collect();
    assert_eq!(
        legends,
        [
            "NInfer NVFP4",
            "vLLM 0.27.1 MTP@3",
            "Cold NInfer groupwise-int",
            "Low end",
            "High end"
        ]
    );
    assert!(c1.contains("<th scope=\"col\">vLLM 0.27.1 MTP@3 (tok/s)</th>"));
    assert!(c1.contains("3 series (NInfer NVFP4, vLLM 0.27.1 MTP@3, Cold NInfer groupwise-int)"));
    for entry in std::fs::read_dir(common::bundled().join("data/runs")).unwrap() {
        let dir = entry.unwrap().path();
        let run = dir.file_name().unwrap().to_string_lossy().into_owned();
        let html = page(&out_dir, &format!("runs/{run}/index.html"));
        let after = |tag: &str| -> Vec<String> {
            html.split(tag)
                .skip(1)
                .filter_map(|s| Some(s.split('<').next()?.to_string()))
                .collect()
        };
        let mut shown = after("class=\"plot-legend\">");
        shown.extend(after("<th scope=\"col\">"));
        for csv in std::fs::read_dir(&dir).unwrap() {
            let csv = csv.unwrap().path();
            if csv.extension().is_none_or(|x| x != "csv") {
                continue;
            }
            let text = std::fs::read_to_string(&csv).unwrap();
            for name in text.lines().next().unwrap().split(',') {
                assert!(
                    !shown
                        .iter()
                        .any(|s| s.split(" (").next() == Some(name) && name.contains('_')),
                    "run {run} shows the column name {name:?}"
                );
            }
        }
    }
    // A reader finds the CSV's values in the table under the chart, with
    // their thousands separated.
    let kv = page(
        &out_dir,
        "findings/vllm-kv-cache-size-depends-on-compile/index.html",
    );
    for v in ["51,079", "94,448", "95,412"] {
        assert!(kv.contains(&format!("<td class=\"num\">{v}</td>")), "{v}");
    }
}

#[test]
fn version_links_lead_to_one_page_whatever_the_spelling() {
    let site = Site::copy_of("minimal");
    site.edit(
        "findings/wrong-answers.md",
        "fixed_in: \"0.32.0\"",
        "fixed_in: \"v0.32\"",
    );
    let out = build(&site);
    let html = page(&out, "findings/wrong-answers/index.html");
    assert!(
        html.contains("<a href=\"../../engines/vllm/0.32.0/\">v0.32</a>"),
        "{html}"
    );
    assert!(!out.join("engines/vllm/v0.32").exists());
    // Versions measured in runs get a page as well.
    assert!(out.join("engines/vllm/0.30/index.html").exists());
}

#[test]
fn unsafe_links_in_run_notes_are_not_live() {
    let site = Site::copy_of("minimal");
    site.edit(
        "data/runs/cache-sweep/run.yaml",
        "notes: The first start compiled the model.",
        "notes: \"[x](javascript:alert(1))\"",
    );
    let out = build(&site);
    let html = page(&out, "runs/cache-sweep/index.html");
    assert!(!html.contains("javascript:"));
}

/// Whole pages of the minimal fixture, pinned: any change in what a reader
/// gets shows up as a reviewed diff (`cargo insta review`, or
/// `INSTA_UPDATE=always cargo test` then `git diff`).
#[test]
fn page_snapshots() {
    let site = Site::copy_of("minimal");
    let out = build(&site);
    for (name, rel) in [
        ("finding_page", "findings/cache-size/index.html"),
        ("engine_matrix", "engines/vllm/index.html"),
        ("version_page", "engines/vllm/0.29/index.html"),
        ("home_page", "index.html"),
        ("redirect_page", "f/7/index.html"),
    ] {
        insta::assert_snapshot!(name, page(&out, rel));
    }
}

/// The minimal fixture with one finding more in its first group, a page of
/// one entry, one finding per group on the home page and one feed entry.
fn paged() -> Site {
    let site = Site::copy_of("minimal");
    site.edit(
        "site.yaml",
        "engines:\n",
        "page_size: 1\nhome_entries: 1\nfeed_entries: 1\nengines:\n",
    );
    let extra = site
        .read("findings/cache-size.md")
        .replace("id: 7\n", "id: 20\n")
        .replace("aliases: [/old/cache/]\n", "");
    site.write("findings/cache-size-again.md", &extra);
    // A second run, for a second page of runs.
    for file in ["run.yaml", "starts.csv"] {
        let text = site.read(&format!("data/runs/cache-sweep/{file}"));
        site.write(&format!("data/runs/cache-sweep-2/{file}"), &text);
    }
    site
}

#[test]
fn lists_are_cut_into_pages_with_numbered_links() {
    let site = paged();
    let out = build(&site);
    // Page 1 keeps the list's address; page 2 has its own, and each links
    // the other with rel prev/next, in the head and in the navigation.
    let first = page(&out, "tags/kv-cache/index.html");
    let second = page(&out, "tags/kv-cache/page/2/index.html");
    assert!(first.contains(">F7<") && !first.contains(">F9<"), "{first}");
    assert!(second.contains(">F9<") && !second.contains(">F7<"));
    assert!(first.contains("<link rel=\"next\" href=\"../../tags/kv-cache/page/2/\">"));
    assert!(!first.contains("rel=\"prev\""));
    assert!(second.contains("<link rel=\"prev\" href=\"../../../../tags/kv-cache/\">"));
    assert!(second.contains("<title>Tag: kv-cache (page 2 of 3) · Fixture findings</title>"));
    assert!(second.contains(
        "<link rel=\"canonical\" href=\"https://example.org/sub/tags/kv-cache/page/2/\">"
    ));
    let nav = section(&second, "<nav class=\"pagination\"", "</nav>");
    assert!(
        nav.contains("<p class=\"pagination-range\">2–2 of 3</p>"),
        "{nav}"
    );
    assert!(nav.contains("<a href=\"../../../../tags/kv-cache/page/2/\" aria-current=\"page\"><span class=\"visually-hidden\">Page </span>2</a>"), "{nav}");
    assert!(nav.contains("rel=\"prev\"") && nav.contains("rel=\"next\""));
    assert!(out.join("tags/kv-cache/page/3/index.html").is_file());
    assert!(!out.join("tags/kv-cache/page/4/").exists());
    // Every list paginates: groups, statuses, versions, runs, engines.
    for p in [
        "groups/speed/page/2/index.html",
        "engines/vllm/0.28/page/2/index.html",
        "engines/vllm/page/2/index.html",
        "engines/page/2/index.html",
        "runs/page/2/index.html",
    ] {
        assert!(out.join(p).is_file(), "{p} is missing");
    }
    // The sitemap lists the later pages.
    let sitemap = page(&out, "sitemap.xml");
    assert!(sitemap.contains("<loc>https://example.org/sub/tags/kv-cache/page/2/</loc>"));
    assert!(sitemap.contains("<loc>https://example.org/sub/engines/vllm/0.28/page/2/</loc>"));
    // The home page shows each group's first finding and links to the rest.
    let home = page(&out, "index.html");
    let speed = section(&home, "<section class=\"group\" id=\"speed\"", "</section>");
    assert_eq!(speed.matches("<article class=\"card").count(), 1);
    assert!(
        speed.contains("<a href=\"./groups/speed/\">All 2 findings in Speed</a>"),
        "{speed}"
    );
    // The feed holds feed_entries entries.
    assert_eq!(page(&out, "atom.xml").matches("<entry>").count(), 1);
    // Links to later pages are checked like any site path.
    site.edit(
        "findings/wrong-answers.md",
        "## What to do",
        "See [the rest](/tags/kv-cache/page/2/) and [nothing](/tags/kv-cache/page/9/).\n\n## What to do",
    );
    let run = site.run(&["check"]);
    let err = &run.stderr;
    assert!(
        err.contains("/tags/kv-cache/page/9/") && !err.contains("page/2/"),
        "{err}"
    );
}

#[test]
fn the_runs_index_lists_newest_first_with_the_findings_and_engines_of_each_run() {
    let site = Site::copy_of("minimal");
    let run = site.read("data/runs/cache-sweep/run.yaml");
    let csv = site.read("data/runs/cache-sweep/starts.csv");
    let setups = "setups:\n  - engine: vllm\n    version: \"0.30\"\n    flags: --max-num-seqs 16\n";
    for (id, title, setups_now) in [
        // Same day: by title, whatever the case.
        (
            "a-newer",
            "Zeta sweep",
            "setups:\n  - engine: vllm\n    version: \"0.30\"\n  - engine: sglang\n  - engine: vllm\n    version: \"0.28\"\n  - engine: tool-eval-bench\n  - engine: vllm\n    version: \"0.30.0\"\n",
        ),
        ("b-same-day", "alpha sweep", setups),
    ] {
        let text = run
            .replace("title: Cache size per start", &format!("title: {title}"))
            .replace("date: 2026-08-17", "date: 2026-09-02")
            .replace(setups, setups_now);
        site.write(&format!("data/runs/{id}/run.yaml"), &text);
        site.write(&format!("data/runs/{id}/starts.csv"), &csv);
    }
    site.edit(
        "findings/wrong-answers.md",
        "id: 9\n",
        "id: 9\nruns: [a-newer, cache-sweep]\n",
    );
    let out = build(&site);
    let html = page(&out, "runs/index.html");
    let list = section(&html, "<ul class=\"run-list\" id=\"run-list\">", "</ul>");
    assert_eq!(
        text(list),
        "alpha sweep 2 September 2026 · vLLM 0.30 · Qwen3-8B · RTX 5090 · vllm bench serve no finding cites it, and it shows none \
         Zeta sweep 2 September 2026 · vLLM 0.28, 0.30; SGLang; tool-eval-bench · Qwen3-8B · RTX 5090 · vllm bench serve cited by F9 \
         Cache size per start 17 August 2026 · vLLM 0.30 · Qwen3-8B · RTX 5090 · vllm bench serve cited by F7, F9"
    );
    // The F-numbers link the findings' pages, never as #7.
    let cache = section(list, "Cache size per start", "</li>");
    assert!(
        cache.contains("<a href=\"../findings/cache-size/\" title=\"The cache size changed between starts\">F7</a>, <a href=\"../findings/wrong-answers/\" title=\"Answers changed under speculation\">F9</a>"),
        "{cache}"
    );
    assert!(!html.contains("#7") && !html.contains("#9"));

    // Cut into pages, in the same order.
    site.edit("site.yaml", "engines:\n", "page_size: 1\nengines:\n");
    let out = build(&site);
    for (p, title) in [
        ("runs/index.html", "alpha sweep"),
        ("runs/page/2/index.html", "Zeta sweep"),
        ("runs/page/3/index.html", "Cache size per start"),
    ] {
        let list = text(section(
            &page(&out, p),
            "<ul class=\"run-list\" id=\"run-list\">",
            "</ul>",
        ));
        assert!(list.starts_with(title), "{p}: {list}");
        assert_eq!(list.matches("RTX 5090 ").count(), 1, "{p}: {list}");
    }
}

/// "Found by" names who: the site's author for a finding found by `us`,
/// the engine's developers for `upstream`, the community for `community`.
#[test]
fn found_by_names_who_found_it() {
    let site = Site::copy_of("minimal");
    site.edit(
        "site.yaml",
        "description: A small site for tests.\n",
        "description: A small site for tests.\nauthor: The Fixture Lab\n",
    );
    let out = build(&site);
    let facts = |out: &std::path::Path| {
        let html = std::fs::read_to_string(out.join("findings/cache-size/index.html")).unwrap();
        text(section(&html, "<aside class=\"facts\"", "</aside>"))
    };
    assert!(
        facts(&out).contains("Found by The Fixture Lab"),
        "{}",
        facts(&out)
    );
    for (who, says) in [
        ("upstream", "Found by the vLLM developers"),
        ("community", "Found by the community"),
    ] {
        let text = site.read("findings/cache-size.md");
        let edited = text.replacen("group:", &format!("found_by: {who}\ngroup:"), 1);
        site.write("findings/cache-size.md", &edited);
        let out = build(&site);
        assert!(facts(&out).contains(says), "{who}: {}", facts(&out));
        site.write("findings/cache-size.md", &text);
    }
}
