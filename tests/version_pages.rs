//! The version pages of the bundled site (issue 43, item 8): the verdict
//! under a version's title counts, of the findings that affect it, those
//! a run of this site showed on that version ("1 of them shown by this
//! site's runs"), and those findings lead the Affected section, before
//! the others in the order of their ids: the freshest evidence, and on
//! that very version. The recorded vLLM 0.30 run's page is held to the
//! same in `tests/compare.rs` (it needs the shared runs).
#![allow(missing_docs)]

mod common;
use std::path::Path;

fn built() -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let r = common::run_in(
        &common::bundled(),
        &[
            "build",
            "--output",
            out.path().join("site").to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    out
}

fn page(out: &Path, engine: &str, version: &str) -> String {
    std::fs::read_to_string(out.join(format!("site/engines/{engine}/{version}/index.html")))
        .unwrap()
}

/// The verdict under a version page's title, as its HTML writes it.
fn verdict(html: &str) -> &str {
    let start = html.find("<p class=\"version-verdict").unwrap();
    let text = &html[start..];
    let text = &text[text.find('>').unwrap() + 1..];
    &text[..text.find("</p>").unwrap()]
}

/// The findings of a version page's Affected section, in page order.
fn affected(html: &str) -> Vec<String> {
    let start = html.find("id=\"sec-affected\"").unwrap();
    let section = &html[start..];
    let section = &section[..section.find("</section>").unwrap()];
    section
        .match_indices("<article class=\"card card-compact")
        .map(|(i, _)| {
            let rest = &section[i..];
            let rest = &rest[rest.find("data-id=\"").unwrap() + 9..];
            format!("F{}", &rest[..rest.find('"').unwrap()])
        })
        .collect()
}

#[test]
fn a_version_page_counts_the_findings_a_run_showed_and_lists_them_first() {
    let out = built();
    // vLLM 0.28: F8 is shown by vllm-preemptions-log; F1, F2 and F7 are
    // affected by their records alone.
    let v028 = page(out.path(), "vllm", "0.28");
    assert_eq!(
        verdict(&v028),
        "vLLM 0.28: 4 findings affect it, 1 of them shown by this site&#39;s runs; 3 more are in range, untested."
    );
    assert_eq!(affected(&v028), ["F8", "F1", "F2", "F7"], "{v028}");
    // TensorRT-LLM 1.3.0rc29: every affected finding shown by a run.
    let trt = page(out.path(), "tensorrt-llm", "1.3.0rc29");
    assert_eq!(
        verdict(&trt),
        "TensorRT-LLM 1.3.0rc29: 3 findings affect it, 3 of them shown by this site&#39;s runs. <span class=\"muted\">A pre-release.</span>"
    );
    // vLLM 0.32.0: affected by records alone, none shown; in id order.
    let v032 = page(out.path(), "vllm", "0.32.0");
    assert!(
        verdict(&v032).starts_with("vLLM 0.32.0: 2 findings affect it; "),
        "{}",
        verdict(&v032)
    );
    let ids = affected(&v032);
    let mut sorted = ids.clone();
    sorted.sort_by_key(|id| id[1..].parse::<u32>().unwrap());
    assert_eq!(ids, sorted);
}
