//! Tests of what a comparison says first: the verdict in words and its
//! counts, the sides' names and the title made of them, the flags the
//! checks put on a side, how the servers differ, the shortfall the runs'
//! own numbers explain, and which findings are cited for which engine.
//! The figures are those of the recorded vLLM 0.29 and 0.30 runs
//! (`vllm-0.29/live`, `vllm-0.30/live`: `bench.json`, the boot logs and the
//! metrics), typed here by hand.

use super::super::*;
use crate::record::{EngineEntry, ResultRow};

/// The eight metrics `vllm bench serve` saves, with each file's values in
/// their order: output and request throughput, TTFT, ITL and TPOT p50
/// and p99.
const LIVE: [(&str, f64, f64); 8] = [
    ("output_throughput", 341.41443857471637, 316.03420583269417),
    ("request_throughput", 0.3414144385747164, 0.3160342058326942),
    ("ttft_ms_p50", 28406.215088500005, 28409.534440000018),
    ("ttft_ms_p99", 72663.78722787002, 68574.34539346),
    ("itl_ms_p50", 22.770677999972122, 25.42304700011755),
    ("itl_ms_p99", 25.545648479985616, 31.690492390041307),
    ("tpot_ms_p50", 23.7487337777778, 26.598151595595557),
    ("tpot_ms_p99", 31.307475330620637, 35.72409582740738),
];

fn metrics() -> Vec<Metric> {
    LIVE.iter()
        .map(|(n, ..)| result_metric(n).unwrap())
        .collect()
}

/// A row of the workload both runs measured (32 requests of 88 tokens in
/// and 1,000 out, 32 at once), with `value` of each metric.
fn live_row(value: impl Fn(&(&str, f64, f64)) -> f64) -> ResultRow {
    let texts: Vec<String> = LIVE.iter().map(|m| value(m).to_string()).collect();
    let mut cells: Vec<(&'static str, String)> = vec![
        ("model", "/models/Qwen3.8-27B-W4A16-AutoRound".into()),
        ("max_concurrency", "32".into()),
        ("request_rate", "inf".into()),
        ("num_prompts", "32".into()),
        ("completed", "32".into()),
        ("failed", "0".into()),
        ("input_tokens", "2816".into()),
        ("output_tokens", "32000".into()),
    ];
    for ((name, ..), t) in LIVE.iter().zip(texts) {
        cells.push((name, t));
    }
    ResultRow {
        cells,
        requested: [None, None],
    }
}

/// What each server recorded: most running, preemptions, KV cache pool.
fn server(running: f64, preemptions: f64, kv: f64) -> Context {
    Context {
        max_running: Some(running),
        preemptions: Some(preemptions),
        kv_cache_tokens: Some(kv),
        sent: Some(32.0),
        lost: Some(0.0),
        ..Context::default()
    }
}

/// The side of vLLM `version` of one run of `row`.
fn vllm(version: &str, row: &ResultRow, ctx: Context) -> Side {
    let mut side = Side::of_rows(
        format!("vLLM {version}"),
        Some("vllm".into()),
        Some(version.into()),
        [(row, format!("live{version}/bench.json"), ctx)],
        &metrics(),
        None,
    );
    side.engine_name = Some("vLLM".into());
    side.setup = Some(0);
    side
}

fn live() -> Comparison {
    let (a, b) = (live_row(|m| m.1), live_row(|m| m.2));
    compare(
        &[
            vllm("0.29.0", &a, server(10.0, 21.0, 26_093.0)),
            vllm("0.30.0", &b, server(11.0, 22.0, 29_127.0)),
        ],
        &metrics(),
        Options::default(),
    )
}

#[test]
fn the_live_runs_worse_on_six_of_eight_metrics_in_words_and_counts() {
    let c = live();
    let v = Verdict::of(&c);
    assert_eq!(
        v.words,
        "vLLM 0.30.0 against 0.29.0: 7 of 8 metrics untested, single runs: worse on 6 (ITL p99 +24%, output throughput −7.4%, …), better on 1 (TTFT p99 −5.6%); the same on 1."
    );
    assert_eq!(
        (v.worse, v.better, v.same),
        (6, 1, 1),
        "throughput down twice, ITL and TPOT up four times; TTFT p99 down; TTFT p50 +0.01%"
    );
    assert_eq!((v.beyond_noise, v.within_noise, v.untested), (0, 0, 8));
    // One workload: its verdict is the whole's.
    assert_eq!(Verdict::of_workload(&c, 0), v);
    // Titled as its verdict reads: the changed side against the baseline.
    assert_eq!(title(&c), "vLLM 0.30.0 against 0.29.0");
    let json: serde_json::Value = serde_json::from_str(&report::json(&c)).unwrap();
    assert_eq!(
        json["verdict"],
        serde_json::json!({"better": 1, "worse": 6, "same": 1, "beyond_noise": 0, "within_noise": 0, "untested": 8, "words": v.words})
    );
    assert_eq!(json["workloads"][0]["verdict"], json["verdict"]);
    // The text and Markdown lead with it.
    assert!(report::table(&c).starts_with(&format!("{}\n", v.words)));
    assert!(report::markdown(&c).starts_with(&format!("### findings compare\n\n**{}**\n", v.words)));
}

#[test]
fn the_servers_differ_and_the_kv_cache_does_not_explain_the_shortfall() {
    let c = live();
    assert_eq!(
        servers(&c).as_deref(),
        Some("Servers, vLLM 0.30.0 against 0.29.0: KV cache +12% (29,127 tokens against 26,093); at most 11 requests at once against 10; 22 preemptions against 21.")
    );
    let s = shortfalls(&c);
    assert_eq!(s.len(), 1);
    // 32 × (88 + 1,000) asked for; each pool held 23 and 26 whole
    // requests of 1,088 tokens, more than the 10 and 11 the servers ran:
    // the pools do not explain the cap, and the words say so.
    assert_eq!(
        (s[0].asked, s[0].tokens, s[0].needed, s[0].explains),
        (32.0, [88.0, 1000.0], 34_816.0, false)
    );
    assert_eq!(
        s[0].sides.iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![0, 1]
    );
    assert_eq!(
        s[0].words,
        "32 requests of 88 + 1,000 tokens ask for 34,816 tokens of KV cache; the pools held 26,093 (vLLM 0.29.0) and 29,127 (vLLM 0.30.0), about 23 and 26 whole requests; the servers ran at most 10 and 11: the pools do not explain the cap; the servers counted 21 and 22 preemptions."
    );
    let table = report::table(&c);
    assert!(table.contains("\nFewer ran than asked: 32 requests of 88 + 1,000 tokens"));
    assert!(!table.contains("Why fewer ran"), "{table}");
    let json: serde_json::Value = serde_json::from_str(&report::json(&c)).unwrap();
    assert_eq!(json["shortfall"][0]["explains"], false);
}

#[test]
fn a_pool_that_holds_no_more_than_ran_explains_the_cap() {
    // A pool of 5,930 tokens holds 5 whole requests of 1,088, and the
    // server ran at most 5: the pool explains it. The other side's pool
    // held 26 whole requests against its 11: it does not.
    let (a, b) = (live_row(|m| m.1), live_row(|m| m.2));
    let c = compare(
        &[
            vllm("0.29.0", &a, server(5.0, 0.0, 5_930.0)),
            vllm("0.30.0", &b, server(11.0, 1.0, 29_127.0)),
        ],
        &metrics(),
        Options::default(),
    );
    let s = shortfalls(&c);
    assert_eq!(s.len(), 2);
    assert_eq!((s[0].explains, s[0].sides[0].0), (true, 0));
    assert_eq!(
        s[0].words,
        "32 requests of 88 + 1,000 tokens ask for 34,816 tokens of KV cache; the pool held 5,930 (vLLM 0.29.0), about 5 whole requests; the server ran at most 5: the pool explains the cap."
    );
    assert_eq!((s[1].explains, s[1].sides[0].0), (false, 1));
    assert_eq!(
        s[1].words,
        "32 requests of 88 + 1,000 tokens ask for 34,816 tokens of KV cache; the pool held 29,127 (vLLM 0.30.0), about 26 whole requests; the server ran at most 11: the pool does not explain the cap; the server counted 1 preemption."
    );
    let table = report::table(&c);
    assert!(table.contains("\nWhy fewer ran: 32 requests of 88 + 1,000 tokens ask for 34,816 tokens of KV cache; the pool held 5,930"), "{table}");
    assert!(table.contains("\nFewer ran than asked: 32 requests of 88 + 1,000 tokens ask for 34,816 tokens of KV cache; the pool held 29,127"), "{table}");
    // Without the pools, or with every request run: none.
    let bare = |r: f64| Context {
        max_running: Some(r),
        ..Context::default()
    };
    let c = compare(
        &[
            vllm("0.29.0", &a, bare(10.0)),
            vllm("0.30.0", &b, bare(32.0)),
        ],
        &metrics(),
        Options::default(),
    );
    assert!(shortfalls(&c).is_empty());
    assert_eq!(
        servers(&c).as_deref(),
        Some("Servers, vLLM 0.30.0 against 0.29.0: at most 32 requests at once against 10.")
    );
    assert!(!report::table(&c).contains("Fewer ran than asked"));
    assert!(!report::table(&c).contains("Why fewer ran"));
}

#[test]
fn better_leads_where_more_changes_are_better_and_worse_is_named() {
    // 0.29 against 0.30: the other way round.
    let (a, b) = (live_row(|m| m.2), live_row(|m| m.1));
    let c = compare(
        &[
            vllm("0.30.0", &a, Context::default()),
            vllm("0.29.0", &b, Context::default()),
        ],
        &metrics(),
        Options::default(),
    );
    assert_eq!(
        Verdict::of(&c).words,
        "vLLM 0.29.0 against 0.30.0: 7 of 8 metrics untested, single runs: worse on 1 (TTFT p99 +6%), better on 6 (ITL p99 −19%, output throughput +8%, …); the same on 1."
    );
    // No record of the servers: nothing said of them.
    assert_eq!(servers(&c), None);
}

#[test]
fn repeats_and_a_stated_band_say_how_far_the_noise_was_tested() {
    let one = |v: f64| live_row(move |m| if m.0 == "output_throughput" { v } else { m.1 });
    let throughput = vec![result_metric("output_throughput").unwrap()];
    let side = |version: &str, rows: &[ResultRow]| {
        let mut s = Side::of_rows(
            format!("vLLM {version}"),
            Some("vllm".into()),
            Some(version.into()),
            rows.iter()
                .map(|r| (r, "f.json".to_string(), Context::default())),
            &throughput,
            None,
        );
        s.engine_name = Some("vLLM".into());
        s
    };
    let c = compare(
        &[
            side("0.29", &[one(600.0), one(610.0)]),
            side("0.30", &[one(700.0), one(705.0)]),
        ],
        &throughput,
        Options::default(),
    );
    let v = Verdict::of(&c);
    assert_eq!(
        v.words,
        "vLLM 0.30 against 0.29: output throughput +16% better, beyond the spread of 2 repeated runs (±1.7%)."
    );
    assert_eq!((v.better, v.beyond_noise, v.untested), (1, 1, 0));
    let c = compare(
        &[side("0.29", &[one(600.0)]), side("0.30", &[one(620.0)])],
        &throughput,
        Options {
            stated_noise: Some(5.0),
            ..Options::default()
        },
    );
    assert_eq!(
        Verdict::of(&c).words,
        "vLLM 0.30 against 0.29: output throughput +3.3%, within the bound given on the command line (±5%)."
    );
}

#[test]
fn one_metric_at_several_workloads_names_the_workloads() {
    // A hand table's columns by context depth, as the bundled c1 run's.
    let depth = |d: &str, a: f64| Measurement {
        workload: Workload::of_key(vec![("Context depth".into(), d.into())]),
        values: vec![Some(a)],
        spreads: vec![None],
        source: "t.csv".into(),
        context: Context::default(),
    };
    let side = |name: &str, v: [f64; 3]| Side {
        name: name.into(),
        measurements: vec![
            depth("0", v[0]),
            depth("4,096", v[1]),
            depth("32,768", v[2]),
        ],
        ..Side::default()
    };
    let c = compare(
        &[
            side("NInfer NVFP4", [127.1, 87.1, 24.2]),
            side("vLLM 0.27.1 MTP@3", [117.3, 87.5, 32.7]),
        ],
        &[result_metric("output_throughput").unwrap()],
        Options::default(),
    );
    assert_eq!(
        Verdict::of(&c).words,
        "vLLM 0.27.1 MTP@3 against NInfer NVFP4: all 3 workloads untested, single runs: worse on 1 (context depth 0 −7.7%), better on 2 (context depth 32,768 +35%, context depth 4,096 +0.5%)."
    );
    assert_eq!(title(&c), "vLLM 0.27.1 MTP@3 against NInfer NVFP4");
    // Under its record's title, which names the baseline first, and with
    // the noise the record states (the report's ±5–10%, at its top): the
    // sides in the title's order, +0.5% and −7.7% within noise.
    let mut titled = compare(
        &[
            side("NInfer NVFP4", [127.1, 87.1, 24.2]),
            side("vLLM 0.27.1 MTP@3", [117.3, 87.5, 32.7]),
        ],
        &[result_metric("output_throughput").unwrap()],
        Options {
            stated_noise: Some(10.0),
            stated_by: Stated::Record,
            ..Options::default()
        },
    );
    titled.title =
        Some("NInfer NVFP4 against vLLM 0.27.1 MTP@3 at concurrency 1, by context depth".into());
    assert_eq!(
        Verdict::of(&titled).words,
        "NInfer NVFP4 against vLLM 0.27.1 MTP@3, each change vLLM 0.27.1 MTP@3's: better on 1 of 3 workloads beyond noise (context depth 32,768 +35%); 2 within noise (context depth 0 −7.7%, context depth 4,096 +0.5%)."
    );
    let v = Verdict::of(&titled);
    assert_eq!(
        (
            v.beyond_noise,
            v.within_noise,
            v.untested,
            v.better,
            v.worse
        ),
        (1, 2, 0, 2, 1),
        "the counts by direction stay facts of the sign"
    );
    // Per workload, its own counts.
    let v = Verdict::of_workload(&c, 0);
    assert_eq!((v.worse, v.better), (1, 0));
    assert_eq!(
        v.words,
        "vLLM 0.27.1 MTP@3 against NInfer NVFP4: output throughput −7.7% worse, single runs: not tested against noise."
    );
}

#[test]
fn a_flagged_side_is_marked_with_how_many_requests_it_lost() {
    let (a, b) = (live_row(|m| m.1), live_row(|m| m.2));
    // vllm-0.30/capped: 16 of the 32 requests failed.
    let capped = Context {
        lost: Some(16.0),
        ..server(11.0, 11.0, 29_127.0)
    };
    let mut base = vllm("0.29.0", &a, server(10.0, 21.0, 26_093.0));
    let mut other = vllm("0.30.0", &b, capped);
    // The run of one setup: flags about setup 0, or the run as a whole.
    let fewer = "vLLM 0.29.0: asked for 32 requests at once; the server never ran more than 10";
    base.flag("concurrency-achieved", fewer, &[0]);
    base.flag("concurrency-achieved", fewer, &[0]);
    base.flag("preemptions-read", "no preemptions recorded", &[]);
    other.flag(
        "no-lost-requests",
        "vLLM 0.30.0: 16 of 32 requests failed",
        &[],
    );
    other.flag("concurrency-achieved", "of another setup", &[1]);
    assert_eq!(
        base.flags.len(),
        1,
        "each flag once; a check that is no flag of a figure is none"
    );
    assert_eq!(
        other
            .flags
            .iter()
            .map(|f| f.mark.as_str())
            .collect::<Vec<_>>(),
        vec!["lost requests"]
    );
    let c = compare(&[base, other], &metrics(), Options::default());
    assert_eq!(
        flagged(&c).as_deref(),
        Some("vLLM 0.29.0 ran fewer requests at once than asked (flagged by concurrency-achieved). vLLM 0.30.0 lost requests (16 of 32), so its figures are of the completed ones only (flagged by no-lost-requests).")
    );
    assert_eq!(c.contexts[0][1].mark().as_deref(), Some("ran ≤11 of 32"));
    assert_eq!(c.contexts[0][0].mark().as_deref(), Some("ran ≤10 of 32"));
    let text = report::table(&c);
    assert!(text.contains("Compared: vLLM 0.29.0 (baseline, 1 file; flagged: ran fewer), vLLM 0.30.0 (1 file; flagged: lost requests)\n"), "{text}");
    assert!(text.contains("  vLLM 0.30.0: ran at most 11 requests at once of the 32 asked; 11 preemptions; KV cache 29,127 tokens; 16 of 32 requests lost\n"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&report::json(&c)).unwrap();
    assert_eq!(json["sides"][1]["flags"][0]["check"], "no-lost-requests");
    assert_eq!(
        json["sides"][1]["flags"][0]["message"],
        "vLLM 0.30.0: 16 of 32 requests failed"
    );
    assert_eq!(
        json["workloads"][0]["context"][1]["lost"],
        serde_json::json!({"min": 16.0, "max": 16.0})
    );
    // The one-line verdict of lists carries the flags.
    assert!(report::verdict(&c).ends_with("(flagged by no-lost-requests)."));
}

fn entry(engine: &str, affected: &[&str], seen: &[&str]) -> EngineEntry {
    let v = |vs: &[&str]| {
        vs.iter()
            .map(|v| crate::version::Version::parse(v).unwrap())
            .collect()
    };
    EngineEntry {
        engine: engine.into(),
        affected: v(affected),
        clean: Vec::new(),
        seen: v(seen),
        introduced_in: None,
        fixed_in: None,
        mitigated_in: None,
        note: None,
    }
}

fn cite(id: u32, entries: &[EngineEntry]) -> Cite {
    Cite {
        id,
        title: format!("F{id}"),
        url: None,
        engines: Cite::engines_of(entries),
    }
}

#[test]
fn only_findings_about_the_sides_engines_or_none_are_cited() {
    let all = [
        // F5 is SGLang's, F9 TensorRT-LLM's, F7 vLLM's; F3 lies in a
        // client, seen on vLLM and SGLang but about no engine.
        cite(
            3,
            &[
                entry("vllm", &[], &["0.27.1"]),
                entry("sglang", &[], &["0.5.20"]),
            ],
        ),
        cite(5, &[entry("sglang", &["0.5.20"], &[])]),
        cite(7, &[entry("vllm", &["0.30"], &[])]),
        cite(9, &[entry("tensorrt-llm", &["1.3.0rc29"], &[])]),
    ];
    assert!(all[0].engines.is_empty());
    assert_eq!(all[1].engines, vec!["sglang".to_string()]);
    let ids = |c: &Comparison| c.cited.iter().map(|f| f.id).collect::<Vec<_>>();
    let mut c = live();
    c.cited = cites_for(&c, &all);
    assert_eq!(ids(&c), vec![3, 7], "neither F5 nor F9 for two vLLM sides");
    // A side of SGLang that ran fewer: F5 too.
    let (a, b) = (live_row(|m| m.1), live_row(|m| m.2));
    let mut sglang = vllm("0.5.20", &b, server(5.0, 0.0, 5_930.0));
    sglang.engine = Some("sglang".into());
    sglang.engine_name = Some("SGLang".into());
    let mut c = compare(
        &[vllm("0.29.0", &a, server(32.0, 0.0, 60_000.0)), sglang],
        &metrics(),
        Options::default(),
    );
    assert_eq!(c.ran_fewer(), vec![1]);
    c.cited = cites_for(&c, &all);
    assert_eq!(ids(&c), vec![3, 5], "the side that ran fewer is SGLang's");
    assert!(report::table(&c).contains("  F5   F5\n"));
    // Nobody ran fewer: nothing cited.
    let c = compare(
        &[
            vllm("0.29.0", &a, server(32.0, 0.0, 60_000.0)),
            vllm("0.30.0", &b, server(32.0, 0.0, 60_000.0)),
        ],
        &metrics(),
        Options::default(),
    );
    assert!(cites_for(&c, &all).is_empty());
    // A side whose engine is not known cites no engine's finding.
    let mut unknown = vllm("0.30.0", &b, server(11.0, 22.0, 29_127.0));
    unknown.engine = None;
    let c = compare(
        &[vllm("0.29.0", &a, server(32.0, 0.0, 60_000.0)), unknown],
        &metrics(),
        Options::default(),
    );
    assert_eq!(
        cites_for(&c, &all).iter().map(|f| f.id).collect::<Vec<_>>(),
        vec![3]
    );
}

#[test]
fn sides_are_named_by_engine_and_version_unless_two_share_them() {
    let (a, b) = (live_row(|m| m.1), live_row(|m| m.2));
    let mut one = vllm("0.30.0", &a, Context::default());
    one.name = "vLLM 0.30.0 (start-1)".into();
    let mut two = vllm("0.30.0", &b, Context::default());
    two.name = "vLLM 0.30.0 (start-2)".into();
    let c = compare(&[one, two], &metrics(), Options::default());
    assert_eq!(
        labels(&c),
        vec!["vLLM 0.30.0 (start-1)", "vLLM 0.30.0 (start-2)"]
    );
    assert!(Verdict::of(&c).words.starts_with(
        "vLLM 0.30.0 (start-2) against vLLM 0.30.0 (start-1): 7 of 8 metrics untested"
    ));
    assert_eq!(
        title(&c),
        "vLLM 0.30.0 (start-2) against vLLM 0.30.0 (start-1)"
    );
    // Files named for where they were read, one engine: the versions.
    let mut x = vllm("0.28.0", &a, Context::default());
    x.name = "vLLM 0.28.0 (xray)".into();
    let mut y = vllm("0.29.0", &b, Context::default());
    y.name = "vLLM 0.29.0 (live)".into();
    let mut s = vllm("0.5.20", &b, Context::default());
    s.engine_name = Some("SGLang".into());
    let c = compare(&[x, y, s], &metrics(), Options::default());
    assert_eq!(
        title(&c),
        "vLLM 0.29.0 and SGLang 0.5.20 against vLLM 0.28.0"
    );
    assert!(Verdict::of(&c)
        .words
        .contains(" SGLang 0.5.20 against vLLM 0.28.0: "));
}

#[test]
fn thousands_of_workloads_and_sides_are_said_in_one_pass() {
    // 20,000 workloads (concurrencies) on two sides, the second 10% slower
    // at each; then 5,000 sides of one workload. The verdicts and the
    // names take time linear in them: a pass over every row for each
    // workload, or over every side for each side, took minutes here.
    let throughput = vec![result_metric("output_throughput").unwrap()];
    let at = |c: usize, t: f64| ResultRow {
        cells: vec![
            ("model", "m".into()),
            ("max_concurrency", c.to_string()),
            ("request_rate", "inf".into()),
            ("output_throughput", t.to_string()),
        ],
        requested: [None, None],
    };
    let n = 20_000;
    let rows = |t: f64| (1..=n).map(|c| at(c, t)).collect::<Vec<_>>();
    let (a, b) = (rows(100.0), rows(90.0));
    let side = |name: &str, rows: &[ResultRow]| {
        let mut s = Side::of_rows(
            format!("vLLM {name}"),
            Some("vllm".into()),
            Some(name.into()),
            rows.iter()
                .map(|r| (r, "f".to_string(), Context::default())),
            &throughput,
            None,
        );
        s.engine_name = Some("vLLM".into());
        s
    };
    let c = compare(
        &[side("0.29", &a), side("0.30", &b)],
        &throughput,
        Options::default(),
    );
    assert_eq!(c.workloads.len(), n);
    let v = Verdict::of(&c);
    assert_eq!((v.worse, v.untested), (n, n));
    assert_eq!(
        v.words,
        format!("vLLM 0.30 against 0.29: all {n} workloads untested, single runs: worse on {n} (asked for 1 at once −10%, …).")
    );
    let last: Vec<Verdict> = (n - 2..n).map(|w| Verdict::of_workload(&c, w)).collect();
    assert!(last.iter().all(|v| (v.worse, v.untested) == (1, 1)));
    assert_eq!(c.rows_of(n - 1).len(), 1);
    let table = report::table(&c);
    assert!(
        table.contains("\nm · asked for 20,000 at once · rate unlimited\n"),
        "{}",
        &table[table.len() - 400..]
    );
    // Sides of one name, thousands of them: none alone has its engine and
    // version, so each keeps its own name.
    let one = [at(32, 100.0)];
    let many: Vec<Side> = (0..5_000).map(|_| side("0.30", &one)).collect();
    let c = compare(&many, &throughput, Options::default());
    let names = labels(&c);
    assert_eq!(names.len(), 5_000);
    assert!(names.iter().all(|l| l == "vLLM 0.30"));
}
