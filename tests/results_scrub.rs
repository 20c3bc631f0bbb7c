//! The scrubbing pass of `src/results/scrub.rs`, on its own: credentials
//! replaced wherever they hide (keys at any depth, header maps, header and
//! command-line strings, URL passwords, Python reprs in logs), generated
//! texts dropped unless kept, everything else byte for byte as it was, and
//! `holds_credential` finding what a kept file still holds.
#![allow(missing_docs)]

use findings::results::scrub::{holds_credential, scrub, Removal};
use std::path::Path;

fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/results")
            .join(rel),
    )
    .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

fn said(removed: &[Removal]) -> Vec<String> {
    removed.iter().map(ToString::to_string).collect()
}

#[test]
fn aiperf_api_key_in_input_config_and_in_its_command_line() {
    let original = fixture("aiperf/schema-1.json");
    let s = scrub("profile_export_aiperf.json", &original, false).unwrap();
    assert_eq!(
        said(&s.removed),
        [
            "input_config.endpoint.api_key (line 158): a credential, replaced by [removed]",
            "input_config.cli_command (line 166): a credential, replaced by [removed]",
        ]
    );
    // Only the two values changed; every other byte is the file's.
    let expected = text(&original)
        .replace(
            "\"api_key\": \"sk-aiperf-secret-key\"",
            "\"api_key\": \"[removed]\"",
        )
        .replace(
            "--api-key \\\"sk-aiperf-secret-key\\\"",
            "--api-key \\\"[removed]\\\"",
        );
    assert_eq!(text(&s.bytes), expected);
    // The kept copy reads as before, and nothing is left to find.
    assert!(findings::results::read("x.json", &s.bytes).is_ok());
    assert_eq!(
        holds_credential(&original),
        Some(("input_config.endpoint.api_key".into(), 158))
    );
    assert_eq!(holds_credential(&s.bytes), None);
    // Scrubbing twice removes nothing more.
    assert_eq!(scrub("x.json", &s.bytes, false).unwrap().removed, []);
}

#[test]
fn a_header_string_keeps_its_scheme_and_loses_its_token() {
    let original = fixture("genai_perf/flat-input-config.json");
    let s = scrub("profile_export_genai_perf.json", &original, false).unwrap();
    assert_eq!(
        said(&s.removed),
        ["input_config.header[0] (line 118): a credential, replaced by [removed]"]
    );
    assert_eq!(
        text(&s.bytes),
        text(&original).replace("Bearer sk-flat-secret-123", "Bearer [removed]")
    );
}

#[test]
fn vllm_generated_texts_are_dropped_unless_kept() {
    let original = fixture("vllm/detailed.json");
    let s = scrub("bench.json", &original, false).unwrap();
    assert_eq!(
        said(&s.removed),
        ["generated_texts (line 5): 3 generated texts, dropped"]
    );
    assert_eq!(
        text(&s.bytes),
        text(&original).replace(
            ",\n \"generated_texts\": [\"Hello there, how are\", \"The answer is 42\", \"\"]",
            ""
        )
    );
    // The per-request rows do not need the texts.
    let before = findings::results::read("bench.json", &original).unwrap();
    let after = findings::results::read("bench.json", &s.bytes).unwrap();
    assert_eq!(after.requests, before.requests);
    let kept = scrub("bench.json", &original, true).unwrap();
    assert_eq!((kept.bytes, kept.removed), (original, vec![]));
}

#[test]
fn sglang_details_texts_and_a_first_or_only_member() {
    let s = scrub(
        "bench.jsonl",
        &fixture("sglang/serve-refactored-details.jsonl"),
        false,
    )
    .unwrap();
    assert_eq!(
        said(&s.removed),
        ["details.generated_texts (line 1): 3 generated texts, dropped"]
    );
    assert!(!text(&s.bytes).contains("Hello there"));
    assert_eq!(
        text(
            &scrub(
                "a.json",
                br#"{"generated_texts": ["a", "b"], "b": 1}"#,
                false
            )
            .unwrap()
            .bytes
        ),
        r#"{ "b": 1}"#
    );
    assert_eq!(
        text(
            &scrub("a.json", br#"{"generated_texts": []}"#, false)
                .unwrap()
                .bytes
        ),
        "{}"
    );
    assert_eq!(
        text(
            &scrub(
                "a.json",
                b"{\"a\": [1, {\"generated_texts\": [\"x\"]}], \"b\": 2}",
                false
            )
            .unwrap()
            .bytes
        ),
        "{\"a\": [1, {}], \"b\": 2}"
    );
}

#[test]
fn bare_infinity_and_null_credentials_stay_as_they_are() {
    let original = fixture("sglang/serve-server-info.jsonl");
    let s = scrub("bench.jsonl", &original, false).unwrap();
    // `"api_key": null` holds no credential; the bare `Infinity` is kept.
    assert_eq!((s.removed, s.bytes), (vec![], original.clone()));
    assert!(text(&original).contains("\"request_rate\": Infinity"));
    assert_eq!(holds_credential(&original), None);
}

#[test]
fn guidellm_header_map_masked_key_and_request_texts() {
    let s = scrub("benchmarks.json", &fixture("guidellm/v0.3.json"), false).unwrap();
    assert_eq!(
        said(&s.removed),
        [
            "benchmarks[0].worker.backend_info.headers.Authorization (line 1): a credential, replaced by [removed]",
            "benchmarks[*].requests.successful[*].prompt (line 1): 2 generated texts, dropped",
            "benchmarks[*].requests.successful[*].output (line 1): 2 generated texts, dropped",
            "benchmarks[*].requests.errored[*].prompt (line 1): 1 generated text, dropped",
        ]
    );
    let kept = text(&s.bytes);
    assert!(
        kept.contains("\"headers\": {\"Authorization\": \"[removed]\"}"),
        "{}",
        &kept[..200]
    );
    assert!(!kept.contains("Once upon a time") && !kept.contains("\"output\""));
    let f = findings::results::read("benchmarks.json", &s.bytes).unwrap();
    assert_eq!(f.requests.len(), 2);
    // guidellm writes its own key masked: nothing to remove.
    let v7 = scrub("benchmarks.json", &fixture("guidellm/v0.7.json"), true).unwrap();
    assert_eq!(v7.removed, []);
}

#[test]
fn yaml_is_scrubbed_and_written_again_in_its_key_order() {
    let yaml = "config:\n  spec:\n    backend:\n      target: http://admin:hunter2@10.0.0.5:8000\n      api_key: sk-yaml-1\n      headers:\n        Authorization: Bearer abc\n    zeta: 1\n  alpha: 2\n";
    let s = scrub("benchmarks.yaml", yaml.as_bytes(), false).unwrap();
    assert_eq!(
        text(&s.bytes),
        "config:\n  spec:\n    backend:\n      target: http://admin:[removed]@10.0.0.5:8000\n      api_key: '[removed]'\n      headers:\n        Authorization: '[removed]'\n    zeta: 1\n  alpha: 2\n"
    );
    assert_eq!(
        said(&s.removed),
        [
            "config.spec.backend.target: a credential, replaced by [removed]",
            "config.spec.backend.api_key: a credential, replaced by [removed]",
            "config.spec.backend.headers.Authorization: a credential, replaced by [removed]",
        ]
    );
    assert_eq!(
        holds_credential(yaml.as_bytes()),
        Some(("url password".into(), 4))
    );
    // The bundled YAML report has nothing to remove, and stays byte for byte.
    let report = fixture("guidellm/v0.2-synchronous.yaml");
    assert_eq!(scrub("r.yaml", &report, true).unwrap().bytes, report);
}

#[test]
fn a_boot_log_line_by_line() {
    let log = "INFO env: HF_TOKEN=hf_abcdef123 CUDA_VISIBLE_DEVICES=0\n[2026-10-01] server_args={'model_path': '/m', 'api_key': 'sk-live-9', 'admin_api_key': None, 'max_tokens': 100}\nrun: vllm serve /m --api-key k-123 --max-num-seqs 32\nOutput Token Throughput (tok/s): 1274.0\n";
    let s = scrub("boot.log", log.as_bytes(), false).unwrap();
    assert_eq!(
        text(&s.bytes),
        "INFO env: HF_TOKEN=[removed] CUDA_VISIBLE_DEVICES=0\n[2026-10-01] server_args={'model_path': '/m', 'api_key': '[removed]', 'admin_api_key': None, 'max_tokens': 100}\nrun: vllm serve /m --api-key [removed] --max-num-seqs 32\nOutput Token Throughput (tok/s): 1274.0\n"
    );
    assert_eq!(
        said(&s.removed),
        [
            "hf_token (line 1): a credential, replaced by [removed]",
            "api_key (line 2): a credential, replaced by [removed]",
            "api_key (line 3): a credential, replaced by [removed]",
        ]
    );
    assert_eq!(
        holds_credential(log.as_bytes()),
        Some(("hf_token".into(), 1))
    );
    assert_eq!(holds_credential(&s.bytes), None);
}

/// A shell command pasted over several lines: the option's value is on the
/// next line, after the line continuation (`\`), which a pass line by line
/// never saw.
#[test]
fn an_option_whose_value_follows_a_line_continuation() {
    let paste = "$ vllm bench serve --model m --api-key \\\n    sk-abcdef0123456789 --num-prompts 3\r\n$ curl -H x --api-key \\\r\n\t'k-2' &&\nTotal: 3 tokens --api-key \\\n\n";
    let s = scrub("paste.txt", paste.as_bytes(), false).unwrap();
    assert_eq!(
        text(&s.bytes),
        "$ vllm bench serve --model m --api-key \\\n    [removed] --num-prompts 3\r\n$ curl -H x --api-key \\\r\n\t'[removed]' &&\nTotal: 3 tokens --api-key \\\n\n"
    );
    assert_eq!(
        said(&s.removed),
        [
            "api_key (line 2): a credential, replaced by [removed]",
            "api_key (line 4): a credential, replaced by [removed]",
        ]
    );
    assert_eq!(
        holds_credential(paste.as_bytes()),
        Some(("api_key".into(), 2))
    );
    assert_eq!(holds_credential(&s.bytes), None);
}

#[test]
fn names_that_only_look_like_credentials_are_left_alone() {
    // AIPerf's metric names, token counts and a tokenizer are no secrets.
    let json = br#"{"time_to_first_token": {"unit": "ms", "avg": 82.5}, "output_token_count": {"avg": 3}, "max_tokens": 100, "tokenizer": "Qwen/Qwen3-8B", "note": "--output-tokens-mean 300 max_tokens=100 token count: 5 at http://host:8000/v1"}"#;
    let s = scrub("x.json", json, false).unwrap();
    assert_eq!((s.removed, s.bytes), (vec![], json.to_vec()));
    assert_eq!(holds_credential(json), None);
    // SGLang's log counts tokens in words that end in `-token`.
    let log = b"[2026-10-01] Prefill batch, #new-seq: 1, #new-token: 6, #cached-token: 0, token usage: 0.00, #pending-token: 0, input throughput (token/s): 2.78\n";
    assert_eq!(holds_credential(log), None);
    assert_eq!(scrub("boot.log", log, false).unwrap().removed, []);
}

/// `holds_credential` glances at a JSON file's strings before it walks the
/// file: the glance must never clear a file the walk would flag. Every
/// fixture, and credentials spelled to slip past a glance, give the answer
/// the full scrub gives.
#[test]
fn the_quick_look_for_credentials_agrees_with_the_full_pass() {
    use findings::results::scrub::Removed;
    let full = |b: &[u8]| {
        scrub("x.json", b, true)
            .unwrap()
            .removed
            .iter()
            .any(|r| r.kind == Removed::Credential)
    };
    let mut cases: Vec<Vec<u8>> = Vec::new();
    for dir in
        walkdir::WalkDir::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/results"))
            .into_iter()
            .flatten()
            .filter(|e| e.file_type().is_file())
    {
        cases.push(std::fs::read(dir.path()).unwrap());
    }
    for tricky in [
        r#"{"api\u005fkey": "sk-live-1"}"#,
        r#"{"headers": {"Authorization": "Bearer abc"}}"#,
        r#"{"cmd": "aiperf --api-key sk-2 --url x"}"#,
        r#"{"url": "http://user:hunter2@host:8000/v1"}"#,
        r#"{"token": 12345}"#,
        r#"{"password": {"value": "x"}}"#,
        r#"{"note": "\u0074oken=abc"}"#,
        r#"{"api_key": null, "n": [1, 2, 3], "token": "****"}"#,
        r#"{"model": "m", "ttfts": [0.1, 0.2]}"#,
    ] {
        cases.push(tricky.as_bytes().to_vec());
    }
    let mut flagged = 0;
    for b in &cases {
        if !b.starts_with(b"{") && !b.starts_with(b"[") {
            continue;
        }
        let quick = holds_credential(b).is_some();
        assert_eq!(
            quick,
            full(b),
            "{}",
            String::from_utf8_lossy(&b[..b.len().min(200)])
        );
        flagged += usize::from(quick);
    }
    assert!(flagged >= 7, "the tricky cases are found: {flagged}");
}
