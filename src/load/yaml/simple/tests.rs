//! The fast path against serde_yaml: records' shapes, what it must leave
//! to serde_yaml, scalars, and random texts.

use super::*;

fn slow(text: &str) -> Option<Value> {
    serde_yaml::from_str::<Value>(text).ok()
}

/// The fast path reads `text` as serde_yaml does, or leaves it to it.
fn agrees(text: &str) -> bool {
    match parse(text) {
        None => true,
        Some(fast) => slow(text).is_some_and(|s| same(&fast, &s)),
    }
}

#[test]
fn reads_what_records_are_made_of() {
    let text = "id: 19\ntitle: The chat template decided\nsummary: >-\n  With vLLM's stock template,\n  it gave up.\n\n  Second paragraph.\npublished: 2026-08-17\nengines:\n  - engine: vllm\n    seen: [\"0.27.1\"]\n    note: Stock chat template; see F3.\n  - engine: ninfer\n    affected: ['0.32', 0.33]\nmodels: [\"Qwen3.8-27B\"]\ntags: [chat-template, tool-calling]\nlinks:\n- label: \"F16: the grader\"\n  url: finding:16\nruns: []\ncolumns:\n  batch: {unit: \"requests\", description: \"requests at once\"}\nempty:\nratio: 0.5\nneg: -3\nyes: no\nflag: true\nnotes: |\n  line one\n    indented\n\n  after a blank\n";
    let fast = parse(text).expect("in the fast path");
    assert!(same(&fast, &slow(text).unwrap()));
    assert_eq!(
        fast["summary"].as_str(),
        Some("With vLLM's stock template, it gave up.\nSecond paragraph.")
    );
    assert_eq!(
        fast["notes"].as_str(),
        Some("line one\n  indented\n\nafter a blank\n")
    );
    assert_eq!(fast["published"].as_str(), Some("2026-08-17"));
    assert!(fast["engines"][1]["affected"][1].is_f64());
}

#[test]
fn leaves_the_rest_to_serde_yaml() {
    for text in [
        "a: &x 1\nb: *x\n",
        "a: !tag 1\n",
        "a: \"esc\\n\"\n",
        "a: b # comment\n",
        "\"quoted key\": 1\n",
        "a: first\n  continued\n",
        "a: 1\na: 2\n",
        "a:\tb\n",
        "---\na: 1\n",
        "a: [1,\n  2]\n",
        "a: 0x1f\n",
        "a: +1\n",
        "a: -0\n",
        "a: 99999999999999999999\n",
        "a: |+\n  kept\n\n",
        "a: |2\n   x\n",
        "a: >\n  x\n    more\n  y\n",
        "a: [1, 2, ]\n",
        "a: {b: 1, b: 2}\n",
        "true: 1\n",
        "1: one\n",
        "- - nested\n",
        "a: b: c\n",
        "plain scalar document\n",
        "",
        "a:\r\n  b\r\n",
    ] {
        assert!(parse(text).is_none(), "{text:?} should go to serde_yaml");
    }
}

#[test]
fn scalars_resolve_as_in_serde_yaml() {
    for v in [
        "0",
        "7",
        "0.32",
        "1.0",
        "-2",
        "-2.5",
        "1e5",
        "1e999",
        "0123",
        "-0123",
        "0.",
        "2023-07-14",
        "1.2.3",
        "8x7b",
        "inf",
        "nan",
        "NaN",
        "Infinity",
        "null",
        "Null",
        "~",
        "TRUE",
        "False",
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "a#b",
        "x:y",
        "http://x/y",
        "don't",
        "a \"b\"",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "0.0",
        "00.5",
        "-",
        "-x",
        "--x",
        ".5",
        "a  b",
    ] {
        for text in [
            format!("k: {v}\n"),
            format!("k: [{v}]\n"),
            format!("- {v}\n"),
        ] {
            assert!(agrees(&text), "{text:?}");
        }
    }
}

/// Random texts, line by line, from pieces of YAML, valid and not:
/// whatever the fast path accepts, serde_yaml reads the same. The seed
/// is printed on failure; `YAML_SEED=<n>` runs another.
#[test]
fn random_texts_agree_with_serde_yaml() {
    const KEYS: &[&str] = &[
        "a", "b", "key", "k-2", "x.y", "_u", "null", "1", "\"q\"", "a b",
    ];
    const VALUES: &[&str] = &[
        "x",
        "plain text",
        "1",
        "0.5",
        "-3",
        "007",
        "1e3",
        "true",
        "Null",
        "~",
        "2024-01-02",
        "\"quoted\"",
        "'it''s'",
        "\"un",
        "'un",
        "[]",
        "{}",
        "[a, 1, \"b\"]",
        "[a, [b, c]]",
        "{u: 1, v: [x]}",
        "{u: }",
        "[a,]",
        "a: b",
        "a #c",
        "a#c",
        "é",
        "&x y",
        "*x",
        "!t v",
        "|",
        "|-",
        ">",
        ">-",
        "|+",
        "- x",
        "-",
        "x:",
        "http://h/p",
        "\"a\" b",
        "[a",
        "{a: 1",
        "0x1",
        ".5",
        "+1",
        "-0",
        "'a' #c",
    ];
    const TEXT: &[&str] = &[
        "line",
        "more words",
        "",
        "   deeper",
        "#hash",
        "- dash",
        "k: v",
    ];
    let seed: u64 = std::env::var("YAML_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_f1d1);
    let mut state = seed;
    let mut rand = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut accepted = 0;
    for round in 0..40_000 {
        let mut text = String::new();
        for _ in 0..1 + rand(8) {
            let indent = [0, 0, 2, 2, 4, 1, 3][rand(7)];
            text.push_str(&" ".repeat(indent));
            // Mostly the shapes records use, now and then anything.
            let key = if rand(6) == 0 {
                KEYS[rand(KEYS.len())]
            } else {
                KEYS[rand(3)]
            };
            match rand(8) {
                0..=2 => text.push_str(&format!("{key}: {}", VALUES[rand(VALUES.len())])),
                3 => text.push_str(&format!("{key}:")),
                4 => text.push_str(&format!("- {}", VALUES[rand(VALUES.len())])),
                5 => text.push_str(&format!("- {key}: {}", VALUES[rand(VALUES.len())])),
                6 => text.push_str(&format!("# {}", VALUES[rand(VALUES.len())])),
                _ => text.push_str(TEXT[rand(TEXT.len())]),
            }
            text.push('\n');
            if text.ends_with("|\n") || text.ends_with(">\n") || text.ends_with("-\n") {
                for _ in 0..rand(4) {
                    text.push_str(&" ".repeat(indent + [1, 2, 2, 4][rand(4)]));
                    text.push_str(TEXT[rand(TEXT.len())]);
                    text.push('\n');
                }
            }
        }
        if rand(4) == 0 {
            text.pop();
        }
        if let Some(fast) = parse(&text) {
            accepted += 1;
            let slow = slow(&text);
            assert!(
                slow.as_ref().is_some_and(|s| same(&fast, s)),
                "YAML_SEED={seed}, round {round}: {text:?}\nfast: {fast:?}\nserde_yaml: {slow:?}"
            );
        }
    }
    assert!(accepted > 3000, "only {accepted} texts took the fast path");
}
