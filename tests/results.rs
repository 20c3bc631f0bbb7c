//! Result files of every format, read into the vocabulary (`src/results/`):
//! a test per format on hand-written fixtures under
//! `tests/fixtures/results/`, each quirk of the tools covered (bare
//! `Infinity`, `"inf"`, null concurrency, every request failed,
//! `"request_goodput:"`, append streams, sweep summaries, old and
//! refactored SGLang keys, …), asserting the rows as CSV, cell for cell.
//! Also: the exact text of the unknown-format and truncated-file errors,
//! and `docs/format.md` equal to what the vocabulary says.
#![allow(missing_docs)]

use findings::results::{self, Cell, Fact, ResultFile};
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/results")
        .join(rel)
}

fn name_of(rel: &str) -> String {
    rel.rsplit('/').next().unwrap().to_string()
}

fn read(rel: &str) -> ResultFile {
    let bytes = std::fs::read(fixture(rel)).unwrap();
    results::read(&name_of(rel), &bytes).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The facts as `name=value [source] (note)` lines.
fn facts(facts: &[Fact]) -> Vec<String> {
    facts
        .iter()
        .map(|f| {
            let v = match &f.value {
                Some(c) => c.csv(),
                None => "?".into(),
            };
            let note = f
                .note
                .as_ref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default();
            format!("{}={v} [{}]{note}", f.name, f.source)
        })
        .collect()
}

fn lines(s: &str) -> Vec<&str> {
    s.lines().collect()
}

// ---------------------------------------------------------------- vLLM

#[test]
fn vllm_serve_one_object_with_every_percentile_and_a_metadata_key() {
    let f = read("vllm/serve.json");
    assert_eq!(f.format, results::Format::VllmServe);
    assert_eq!(
        (f.tool, f.tool_version.as_deref()),
        ("vllm bench serve", None)
    );
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            "source,tool,model,max_concurrency,request_rate,num_prompts,completed,failed,duration_s,input_tokens,output_tokens,request_throughput,output_throughput,peak_output_throughput,total_token_throughput,peak_concurrent_requests,ttft_ms_mean,ttft_ms_p50,ttft_ms_p90,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p90,tpot_ms_p99,itl_ms_mean,itl_ms_p50,itl_ms_p90,itl_ms_p99,e2el_ms_mean,e2el_ms_p50,e2el_ms_p90,e2el_ms_p99",
            "serve.json,vllm bench serve,meta-llama/Llama-3.1-8B-Instruct,64,inf,200,198,2,41.5,202752,25344,4.771,610.7,702,5496.3,64,412.5,398.25,480,530.75,30.5,30.25,31,31.5,30.4,30.1,33,36.7,4285,4270.5,4350,4410.25",
        ]
    );
    assert_eq!(
        facts(&f.facts),
        [
            "tool=vllm bench serve [serve.json]",
            "model=meta-llama/Llama-3.1-8B-Instruct [serve.json]",
            "max_concurrency=64 [serve.json]",
            "request_rate=inf [serve.json]",
            "failed=2 [serve.json]",
            "backend=openai [serve.json]",
            "date=2026-01-15 [serve.json]",
        ]
    );
    // The file names no engine: `backend` is the API the client spoke.
    let row = &f.results.rows[0];
    assert_eq!(row.by_name("engine"), None);
    assert_eq!(row.by_name("request_rate"), Some(&Cell::Num(f64::INFINITY)));
    assert!(f.requests.is_empty() && f.warnings.is_empty());
}

#[test]
fn vllm_save_detailed_gives_one_row_per_completed_request_in_ms() {
    let f = read("vllm/detailed.json");
    assert_eq!(
        lines(&f.requests.to_csv()),
        [
            "source,ttft_ms,tpot_ms,e2el_ms,input_tokens,output_tokens,start_s",
            "detailed.json,100,25,200,100,5,0",
            "detailed.json,200,25.000000000000004,275,100,4,0.25",
        ]
    );
    // max_concurrency null: unlimited, so empty.
    assert_eq!(f.results.rows[0].by_name("max_concurrency"), None);
    assert_eq!(f.results.rows[0].by_name("failed"), Some(&Cell::Num(1.0)));
}

#[test]
fn vllm_legacy_append_stream_with_request_goodput_colon_and_bare_infinity() {
    let f = read("vllm/append-legacy-goodput.json");
    assert_eq!(f.tool, "vllm benchmark_serving.py");
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            "source,tool,model,request_rate,num_prompts,completed,duration_s,input_tokens,output_tokens,request_throughput,output_throughput,total_token_throughput,ttft_ms_mean,ttft_ms_p50,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p99,itl_ms_mean,itl_ms_p50,itl_ms_p99",
            "append-legacy-goodput.json,vllm benchmark_serving.py,meta-llama/Llama-3.1-8B-Instruct,1,120,120,99.5,120000,12000,1.206,120.6,1326.6,45,44.5,54.75,8.5,8.75,9.5,8.5,8.25,11.5",
            "append-legacy-goodput.json,vllm benchmark_serving.py,meta-llama/Llama-3.1-8B-Instruct,inf,2000,1015,37.75,1015000,101500,26.9,2690.5,29595.5,18107.25,18241.75,34829,106.5,122.75,132.5,106.5,36,235.75",
        ]
    );
    // No `failed` key in the older script: not counted, not 0.
    assert!(f.facts_named("failed").next().is_none());
    assert_eq!(
        facts(&f.facts)[2..4],
        [
            "request_rate=1 [append-legacy-goodput.json]",
            "request_rate=inf [append-legacy-goodput.json]"
        ]
    );
}

#[test]
fn vllm_every_request_failed_gives_no_latency_figures() {
    let f = read("vllm/all-failed.json");
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            "source,tool,model,request_rate,num_prompts,completed,failed,duration_s,input_tokens,output_tokens,request_throughput,output_throughput,peak_output_throughput,total_token_throughput,peak_concurrent_requests",
            "all-failed.json,vllm bench serve,Qwen/Qwen3-0.6B,inf,16,0,16,0.012,0,0,0,0,0,0,0",
        ]
    );
    assert_eq!(
        f.facts_named("failed").next().unwrap().value,
        Some(Cell::Num(16.0))
    );
}

#[test]
fn vllm_sweep_run_file_and_summary_array() {
    let run = read("vllm/sweep-run.json");
    assert_eq!(
        (run.format, run.tool),
        (results::Format::VllmServe, "vllm bench sweep serve")
    );
    let sum = read("vllm/sweep-summary.json");
    assert_eq!(
        (sum.format, sum.tool),
        (results::Format::VllmSweepSummary, "vllm bench sweep serve")
    );
    assert_eq!(
        lines(&sum.results.to_csv()),
        [
            "source,tool,model,max_concurrency,request_rate,num_prompts,completed,failed,duration_s,input_tokens,output_tokens,request_throughput,output_throughput,peak_output_throughput,total_token_throughput,peak_concurrent_requests,ttft_ms_mean,ttft_ms_p50,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p99,itl_ms_mean,itl_ms_p50,itl_ms_p99,e2el_ms_mean,e2el_ms_p50,e2el_ms_p99",
            "sweep-summary.json,vllm bench sweep serve,Qwen/Qwen3-0.6B,4,inf,16,16,0,2.5,512,256,6.4,102.4,120,307.2,4,120.5,60.25,410,9.5,9.25,11,9.5,8.75,20.5,262.75,200.5,560",
            "sweep-summary.json,vllm bench sweep serve,Qwen/Qwen3-0.6B,8,inf,16,16,0,1.25,512,256,12.8,204.8,120,614.4,4,120.5,60.25,410,9.5,9.25,11,9.5,8.75,20.5,262.75,200.5,560",
        ]
    );
    assert_eq!(
        lines(&run.results.to_csv())[1],
        lines(&sum.results.to_csv())[1].replace("sweep-summary", "sweep-run")
    );
    assert_eq!(
        facts(&sum.facts)[2..4],
        [
            "max_concurrency=4 [sweep-summary.json]",
            "max_concurrency=8 [sweep-summary.json]"
        ]
    );
}

#[test]
fn vllm_throughput_and_latency_files() {
    let t = read("vllm/throughput.json");
    assert_eq!(
        lines(&t.results.to_csv()),
        [
            "source,tool,num_prompts,duration_s,request_throughput,total_token_throughput",
            "throughput.json,vllm bench throughput,1000,35.25,28.368794326241133,32680.85106382979",
        ]
    );
    let l = read("vllm/latency.json");
    assert_eq!(
        lines(&l.results.to_csv()),
        [
            "source,tool,e2el_ms_mean,e2el_ms_p50,e2el_ms_p90,e2el_ms_p99",
            "latency.json,vllm bench latency,1234,1232,1250,1260"
        ]
    );
}

// ---------------------------------------------------------------- SGLang

#[test]
fn sglang_today_with_server_info_bare_infinity_and_a_sweep_of_lines() {
    let f = read("sglang/serve-server-info.jsonl");
    assert_eq!(f.format, results::Format::SglangServe);
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            "source,tool,engine,version,model,max_concurrency,request_rate,completed,duration_s,input_tokens,input_text_tokens,input_vision_tokens,output_tokens,output_tokens_retokenized,request_throughput,input_throughput,output_throughput,peak_output_throughput,total_token_throughput,peak_concurrent_requests,mean_concurrency,ttft_ms_mean,ttft_ms_p50,ttft_ms_p90,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p90,tpot_ms_p99,itl_ms_mean,itl_ms_p50,itl_ms_p90,itl_ms_p95,itl_ms_p99,e2el_ms_mean,e2el_ms_p50,e2el_ms_p90,e2el_ms_p99",
            "serve-server-info.jsonl,sglang bench_serving,sglang,0.5.5.post3,Qwen/Qwen2.5-3B-Instruct,8,inf,100,4.5,6145,6145,0,6180,6178,22.25,1365.5,1373.25,1500,2738.75,8,7.8,28.5,22.75,45,54.5,5.25,5.125,6,8,5.125,3.5,9,12,22.25,350.5,340.25,400,450.75",
            "serve-server-info.jsonl,sglang bench_serving,sglang,0.5.5.post3,Qwen/Qwen2.5-3B-Instruct,16,inf,100,3,6145,6145,0,6180,6178,33.25,2048.5,2060,2200,4108.5,16,15.5,38.5,32.75,55,64.5,6.25,6.125,7,9,6.125,4.5,10,13,23.25,450.5,440.25,500,550.75",
        ]
    );
    assert_eq!(
        facts(&f.facts),
        [
            "tool=sglang bench_serving [serve-server-info.jsonl]",
            "engine=sglang [serve-server-info.jsonl]",
            "version=0.5.5.post3 [serve-server-info.jsonl]",
            "model=Qwen/Qwen2.5-3B-Instruct [serve-server-info.jsonl]",
            "max_concurrency=8 [serve-server-info.jsonl]",
            "max_concurrency=16 [serve-server-info.jsonl]",
            "request_rate=inf [serve-server-info.jsonl]",
            "backend=sglang [serve-server-info.jsonl]",
        ]
    );
}

#[test]
fn sglang_old_eighteen_key_lines_have_only_what_they_have() {
    let f = read("sglang/serve-old-18-keys.jsonl");
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            "source,tool,request_rate,completed,duration_s,input_tokens,output_tokens,output_tokens_retokenized,output_throughput,ttft_ms_p50,itl_ms_p50,e2el_ms_mean,e2el_ms_p50",
            "serve-old-18-keys.jsonl,sglang bench_serving,inf,10000,412.5,10000,5120000,5115000,12412.5,10014.25,371.75,381236.5,374559.5",
            "serve-old-18-keys.jsonl,sglang bench_serving,4,1200,304.25,269081,226901,226285,746,68.25,13.75,3201.5,1988.5",
        ]
    );
    // No server_info: no engine, version or model (the importer asks).
    assert!(f.facts_named("engine").next().is_none() && f.facts_named("model").next().is_none());
}

#[test]
fn sglang_refactored_keys_and_details() {
    let f = read("sglang/serve-refactored-details.jsonl");
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            "source,tool,max_concurrency,request_rate,completed,duration_s,input_tokens,output_tokens,output_tokens_retokenized,request_throughput,output_throughput,total_token_throughput,mean_concurrency,ttft_ms_mean,ttft_ms_p50,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p99,itl_ms_mean,itl_ms_p50,itl_ms_p99,e2el_ms_mean,e2el_ms_p50,e2el_ms_p99",
            "serve-refactored-details.jsonl,sglang bench_serving,4,2,2,1.5,200,9,9,1.25,6,139.5,1.9,150,150,199,25,25,25,25,25,25,237.5,237.5,274.25",
        ]
    );
    // Per-request arrays under `details`, in seconds; the failed request
    // is left out; e2el is TTFT plus the gaps.
    assert_eq!(
        lines(&f.requests.to_csv()),
        [
            "source,ttft_ms,tpot_ms,e2el_ms,input_tokens,output_tokens",
            "serve-refactored-details.jsonl,100,25,200,100,5",
            "serve-refactored-details.jsonl,200,25.000000000000004,275,100,4",
        ]
    );
}

#[test]
fn sglang_every_request_failed_nan_and_a_trace_rate() {
    let f = read("sglang/all-failed-trace.jsonl");
    // NaN latencies (a mean over nothing) and the zeros beside them are no
    // figures; `"trace"` is no rate.
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            "source,tool,engine,version,model,max_concurrency,completed,duration_s,input_tokens,input_text_tokens,input_vision_tokens,output_tokens,output_tokens_retokenized,request_throughput,input_throughput,output_throughput,peak_output_throughput,total_token_throughput,peak_concurrent_requests",
            "all-failed-trace.jsonl,sglang bench_serving,sglang,0.5.20,/models/Qwen3-8B,32,0,12,0,0,0,0,0,0,0,0,0,0,0",
        ]
    );
}

#[test]
fn sglang_one_batch_server() {
    let f = read("sglang/one-batch.jsonl");
    assert_eq!(f.format, results::Format::SglangOneBatch);
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            "source,tool,max_concurrency,num_prompts,input_tokens,output_tokens,output_throughput,total_token_throughput,ttft_ms_mean,e2el_ms_mean",
            "one-batch.jsonl,sglang bench_one_batch_server,1,1,1024,16,31.22,2029.27,,512.5",
            "one-batch.jsonl,sglang bench_one_batch_server,16,16,16384,256,520.31,20480,250,812.5",
        ]
    );
}

// ---------------------------------------------------------------- inferlint

fn folder(rel: &str) -> results::RunFolder {
    let dir = fixture(rel);
    let mut files = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        files.push((
            p.file_name().unwrap().to_string_lossy().into_owned(),
            std::fs::read(&p).unwrap(),
        ));
    }
    results::read_folder(&files).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn inferlint_vllm_folder_series_facts_checks_and_the_rows_engine() {
    let f = folder("inferlint/vllm-run");
    assert_eq!(
        facts(&f.facts),
        [
            "engine=vllm [before.snapshot.json]",
            "version=0.30.0 [boot.log]",
            "max_running=2 [run.series.jsonl]",
            "max_waiting=2 [run.series.jsonl]",
            "preemptions=3 [after.snapshot.json] (`vllm:num_preemptions_total` after minus before: 2 → 5)",
            "preemptions_counted=3 [after.snapshot.json] (`vllm:num_preemptions_total` after minus before)",
            "preemption_log_lines=0 [boot.log]",
            "counter_readings=3 [run.series.jsonl] (readings of the series taken while requests ran, each after another reading)",
            "counter_moves=3 [run.series.jsonl] (it took 5 values in all 5 readings)",
            "kv_cache_tokens=32336 [boot.log]",
            "kv_cache_gib=4.44 [boot.log]",
            "server_output_tokens=4000 [after.snapshot.json] (`vllm:generation_tokens_total` after minus before)",
            "server_output_throughput=390.2439024390244 [after.snapshot.json] (over 10.250 s between the snapshots)",
            "date=2026-10-01 [before.snapshot.json] (the snapshots' wall clock, as a UTC day)",
        ]
    );
    // From the first sample; preemptions within the run; the rate from
    // the counter's deltas; a null gauge stays empty.
    assert_eq!(
        lines(&f.series.to_csv()),
        [
            "t_s,running,waiting,kv_usage,preemptions,generation_tokens_per_s",
            "0,0,0,0,0,",
            "0.25,2,2,0.5,0,400",
            "0.5,2,2,0.75,1,800",
            "0.75,1,1,,3,400",
            "1,0,0,0,3,14400",
        ]
    );
    assert_eq!(f.files.len(), 1);
    let bench = &f.files[0];
    assert_eq!(
        (bench.source.as_str(), bench.format),
        ("bench.json", results::Format::VllmServe)
    );
    // The client's file names no engine; the folder's server does.
    assert_eq!(
        lines(&bench.results.to_csv())[1],
        "bench.json,vllm bench serve,vllm,0.30.0,/models/Qwen3-8B,4,inf,4,4,0,9.5,352,4000,0.42105263157894735,421.05263157894734,500,458.10526315789474,4,3000.5,2500.25,5000.75,6.5,6.25,7.5,6.5,6,9.25"
    );
    assert_eq!(f.checks.len(), 2);
    assert_eq!(
        (
            f.checks[1].tripwire.as_str(),
            f.checks[1].status.as_str(),
            f.checks[1].message.as_str()
        ),
        (
            "T8",
            "fail",
            "requested 4 concurrent, server never ran more than 2"
        )
    );
    // The client's console beside its result file is not read: the file
    // holds the same figures (it is no boot log either).
    assert_eq!(f.not_read, ["load.log"]);
}

#[test]
fn inferlint_sglang_folder_retraction_counter_absent_before_and_a_lowered_limit() {
    let f = folder("inferlint/sglang-run");
    assert_eq!(
        facts(&f.facts),
        [
            "engine=sglang [before.snapshot.json]",
            "max_running=1 [run.series.jsonl]",
            "max_waiting=2 [run.series.jsonl]",
            "preemptions=1 [after.snapshot.json] (`sglang:num_retracted_requests_total` after minus before: 0 → 1 (absent before: SGLang exports it after the first retraction))",
            "preemptions_counted=1 [after.snapshot.json] (`sglang:num_retracted_requests_total` after minus before)",
            "preemption_log_lines=0 [boot.log]",
            "running_limit_cause=mamba state cache [boot.log] (`max_running_requests is capped to … by the …` in the boot log)",
            "recurrent_state=no [boot.log] (the start allocated no Mamba cache)",
            "start_args=4eb1f0bfefae [boot.log] (a digest of the arguments printed at line 1)",
            "counter_readings=2 [run.series.jsonl] (readings of the series taken while requests ran, each after another reading)",
            "counter_moves=1 [run.series.jsonl] (it took 3 values in all 4 readings)",
            "kv_cache_tokens=17675 [boot.log]",
            "running_limit=1 [boot.log] (capped by the mamba state cache)",
            "server_output_tokens=3000 [after.snapshot.json] (`sglang:generation_tokens_total` after minus before)",
            "server_output_throughput=100 [after.snapshot.json] (over 30.000 s between the snapshots)",
            "date=2026-10-01 [before.snapshot.json] (the snapshots' wall clock, as a UTC day)",
        ]
    );
    // SGLang's own client names the version (server_info), with its bare
    // Infinity rate.
    assert_eq!(
        lines(&f.files[0].results.to_csv())[1],
        "bench.jsonl,sglang bench_serving,sglang,0.5.20,/root/models/Qwen3-8B,3,inf,3,20,264,264,0,3000,2998,0.15,13.2,150,163.2,3,1,120.5,110.25,130,132,6.375,6.25,6.75,7,6.5,6.25,7,7.5,9,6500,6000,7000,7200"
    );
    assert_eq!(
        lines(&f.series.to_csv()),
        [
            "t_s,running,waiting,kv_usage,preemptions,generation_tokens_per_s",
            "0,0,0,0,0,",
            "0.5,1,2,0.25,0,0",
            "1,1,2,0.25,1,2000",
            "1.5,0,0,0,1,4000"
        ]
    );
}

#[test]
fn inferlint_tensorrt_llm_folder_pauses_from_the_log_and_no_gauges() {
    let f = folder("inferlint/trtllm-run");
    assert_eq!(
        facts(&f.facts),
        [
            "engine=tensorrt-llm [before.snapshot.json]",
            "version=1.3.0rc29 [boot.log]",
            "max_running=? [run.series.jsonl] (the series has no `running` values: the server exported no such gauge (TensorRT-LLM: only with `enable_iter_perf_stats`))",
            "max_waiting=? [run.series.jsonl] (the series has no `waiting` values: the server exported no such gauge (TensorRT-LLM: only with `enable_iter_perf_stats`))",
            "preemptions=2 [boot.log] (paused requests: TensorRT-LLM has no preemption counter, so its log's `request ID … -> pause` lines are counted)",
            "preemptions_counted=? [after.snapshot.json] (no metric of the snapshots counts preempted or paused requests: `trtllm_num_paused_requests` is a gauge of the requests paused at the moment, not a count of pauses)",
            "preemption_log_lines=2 [boot.log] (the first at line 4: `[TRT-LLM] [I] [batchmgr][RANK 0] MaxUtilizationScheduler: request ID 72 -> pause`)",
            "kv_cache_tokens=20960 [boot.log] (the last of 2 prints; before it: 17408)",
            "kv_cache_gib=2.88 [boot.log]",
            "server_output_tokens=2000 [after.snapshot.json] (`trtllm_generation_tokens_total` after minus before)",
            "server_output_throughput=200 [after.snapshot.json] (over 10.000 s between the snapshots)",
            "date=2026-10-01 [before.snapshot.json] (the snapshots' wall clock, as a UTC day)",
        ]
    );
    let bench = &f.files[0];
    assert_eq!(
        (bench.format, bench.tool),
        (
            results::Format::TrtllmServe,
            "tensorrt_llm benchmark_serving"
        )
    );
    assert_eq!(
        lines(&bench.results.to_csv()),
        [
            "source,tool,engine,version,model,max_concurrency,request_rate,num_prompts,completed,duration_s,input_tokens,output_tokens,request_throughput,output_throughput,total_token_throughput,ttft_ms_mean,ttft_ms_p50,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p99,itl_ms_mean,itl_ms_p50,itl_ms_p99",
            "bench.json,tensorrt_llm benchmark_serving,tensorrt-llm,1.3.0rc29,qwen3-8b,2,inf,2,2,8,176,2000,0.25,250,272,363.5,370.75,375.25,7.75,7.5,8.25,7.75,7.25,12.5",
        ]
    );
    assert_eq!(
        lines(&f.series.to_csv()),
        ["t_s,generation_tokens_per_s", "0,", "1,0", "2,2000"]
    );
}

#[test]
fn a_folder_of_nothing_it_knows_is_an_error() {
    let e = results::read_folder(&[("notes.txt".into(), b"hello".to_vec())]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "run folder: not an inferlint run folder: it holds no benchmark result, no snapshot, no time series and no boot log"
    );
}

// ---------------------------------------------------------------- errors

#[test]
fn a_file_of_no_known_format_names_the_formats_and_their_keys() {
    let e = results::read("bench.json", br#"{"model": "x", "throughput": 3.5}"#).unwrap_err();
    assert_eq!(e.kind, results::ErrorKind::UnknownFormat);
    assert_eq!(
        e.to_string(),
        "bench.json: not a result file of a known format: the file holds a JSON object with the keys model, throughput.
  The format is told from the content; these are the formats and what each is known by:
    vLLM `vllm bench serve --save-result`: an object (or a stream of them) with `date`, `model_id`, `num_prompts` and `backend` or `endpoint_type`
    vLLM `vllm bench sweep serve` summary: an array of such objects with `run_number`
    vLLM `vllm bench throughput --output-json`: `elapsed_time` and `tokens_per_second`
    vLLM `vllm bench latency --output-json`: `avg_latency` and `percentiles`
    SGLang `bench_serving`: lines with `completed` and `total_output_tokens_retokenized` or `total_output_retokenized`
    SGLang `bench_one_batch_server`: `run_name`, `batch_size` and `overall_throughput`
    TensorRT-LLM `benchmark_serving --save-result`: the vLLM keys and `user_throughput` or `avg_decoded_tokens_per_iter`
    TensorRT-LLM `trtllm-bench --report_json`: objects `engine` and `performance`
    genai-perf `profile_export_genai_perf.json`: `input_config` with `perf_analyzer` or `model`, and metric objects with `unit` and `avg`
    AIPerf `profile_export_aiperf.json`: `input_config` with `endpoint.model_names`, or `was_cancelled`, `aiperf_version` or `records`
    llama.cpp `llama-bench -o json` or `-o jsonl`: objects with `build_commit` and `avg_ts`
    llama.cpp `llama-bench -o csv`: a header line starting `build_commit,build_number`
    guidellm report (JSON): `benchmarks`, a list of objects with `type_` `generative_benchmark`
    guidellm report (YAML): the same keys, in YAML
    inferlint snapshot: `schema` `inferlint.snapshot/1`
    inferlint time series: a first line with `schema` `inferlint.series/1`
    inferlint `results.json`: an array of objects with `tripwire` and `status`
    a vLLM, SGLang or TensorRT-LLM boot log: a start-up line such as `GPU KV cache size:`, `server_args=` or `[TRT-LLM] [I]`, and no console report
    vLLM `vllm bench serve` console report (pasted): a `Serving Benchmark Result` banner of `=`, then `Successful requests:` and the other lines of vLLM, up to a rule of `=`
    vLLM `vllm bench throughput` console line (pasted): `Throughput: N requests/s, N tokens/s`, or `N total tokens/s, N output tokens/s`
    vLLM `vllm bench latency` console report (pasted): `Avg latency: N seconds`, then `N% percentile latency: N seconds` lines
    SGLang `bench_serving` console report (pasted): the `Serving Benchmark Result` banner with SGLang's lines: `Backend:`, `Traffic request rate:`, `Total generated tokens (retokenized):`
    TensorRT-LLM `trtllm-bench` console report (pasted): sections headed `= ENGINE DETAILS`, `= PYTORCH BACKEND`, `= REQUEST DETAILS`, `= PERFORMANCE OVERVIEW` and others, old and new layouts
    llama.cpp `llama-bench` Markdown table (pasted): a table whose header has `model`, `test` and `t/s`, and its `build: <commit> (<number>)` line
    genai-perf console table (pasted): a table with a `Statistic` column and `avg`, `min`, `max`, `p99`, `p90`, `p75` columns, titled `NVIDIA GenAI-Perf` and `LLM Metrics`
    lm-evaluation-harness results file: an object with `results` (an object of tasks) and `versions`, `config` or `n-shot`
    lm-evaluation-harness sample log (`--log_samples`): lines with `doc_id` and `resps` or `filtered_resps`
    lm-evaluation-harness results table (pasted): a table whose header has `Tasks` or `Groups`, `Metric` and `Value`
    SGLang `benchmark/gsm8k` or `benchmark/mmlu` print (pasted): `Accuracy: N` then `Invalid: N` (gsm8k), or `Average accuracy: N` (mmlu)
    vLLM `tests/evals/gsm8k` print (pasted): `Accuracy: N` then `Invalid responses: N`; or `Evaluation Results:` then `task: {…}` lines of lm_eval's keys"
    );
    // The file's name plays no part: a known content under any name reads.
    assert!(results::read(
        "anything.txt",
        &std::fs::read(fixture("vllm/serve.json")).unwrap()
    )
    .is_ok());
    // A log whose first line has a colon is text, not broken YAML.
    let e = results::read(
        "load.log",
        b"Skipping import of cpp extensions: see https://example.org\nmore: words: here\n",
    )
    .unwrap_err();
    assert_eq!(e.kind, results::ErrorKind::UnknownFormat);
    let e = results::read("notes.txt", b"some words\n").unwrap_err();
    assert!(e.to_string().starts_with("notes.txt: not a result file of a known format: the file holds text that is not JSON, YAML or llama-bench CSV, and no console report of a known tool.\n"), "{e}");
}

#[test]
fn a_truncated_file_gives_its_line_and_column() {
    let full = std::fs::read_to_string(fixture("vllm/sweep-run.json")).unwrap();
    let cut = &full[..full.find("\"mean_ttft_ms\"").unwrap() + 8];
    let e = results::read("run=0.json", cut.as_bytes()).unwrap_err();
    assert_eq!(e.kind, results::ErrorKind::Syntax);
    assert_eq!(
        e.to_string(),
        "run=0.json:24:13: the file ends inside a string (a `\"` is missing): it was cut short, or is not complete JSON
  hint: a result file is read as its tool wrote it; an edited or cut-short copy cannot be read"
    );
    let e = results::read(
        "bench.jsonl",
        b"{\"completed\": 3, \"total_output_tokens_retokenized\": 4}\n{\"completed\": 3,, }\n",
    )
    .unwrap_err();
    assert_eq!(
        (e.line, e.column, e.message.as_str()),
        (2, 17, "invalid JSON: key must be a string")
    );
}

#[test]
fn a_wrong_value_under_a_known_key_names_the_key_and_where_it_is() {
    let text = std::fs::read_to_string(fixture("vllm/sweep-run.json"))
        .unwrap()
        .replace("\"completed\": 16", "\"completed\": \"all\"");
    let e = results::read("run=0.json", text.as_bytes()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "run=0.json:13:18: `completed`: \"all\" is not a number"
    );
}

#[test]
fn a_stream_of_two_tools_is_refused_at_the_line_of_the_stranger() {
    let mut text = std::fs::read_to_string(fixture("sglang/serve-old-18-keys.jsonl")).unwrap();
    text.push_str(&std::fs::read_to_string(fixture("vllm/serve.json")).unwrap());
    let e = results::read("mixed.jsonl", text.as_bytes()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "mixed.jsonl:3:1: this value is a vLLM `vllm bench serve --save-result` result, in a file of SGLang `bench_serving` results
  hint: one file holds the results of one tool; keep each tool's results in its own file"
    );
}

#[test]
fn a_file_over_the_limit_says_the_limit() {
    let big = vec![b' '; results::MAX_FILE_BYTES + 1];
    let e = results::read("huge.json", &big).unwrap_err();
    assert_eq!(
        e.to_string().lines().next().unwrap(),
        "huge.json: the file is 268435457 bytes, over the limit of 268435456 bytes (256 MiB) for a result file"
    );
}

#[test]
fn a_snapshot_alone_is_part_of_a_folder_not_a_result() {
    let b = std::fs::read(fixture("inferlint/vllm-run/before.snapshot.json")).unwrap();
    assert_eq!(
        results::detect("before.snapshot.json", &b).unwrap(),
        results::Format::InferlintSnapshot
    );
    let e = results::read("before.snapshot.json", &b).unwrap_err();
    assert_eq!(
        e.to_string(),
        "before.snapshot.json: this is inferlint snapshot, part of a run folder, not a benchmark client's result file
  hint: read the whole run folder, with its bench file, snapshots, series and boot log"
    );
}

// ---------------------------------------------------------------- TensorRT-LLM

#[test]
fn trtllm_bench_report_names_the_engine_and_its_version() {
    let f = read("trtllm/bench-report.json");
    assert_eq!(
        (f.format, f.tool, f.tool_version.as_deref()),
        (results::Format::TrtllmBench, "trtllm-bench", Some("1.2.0"))
    );
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            "source,tool,tool_version,engine,version,model,num_prompts,duration_s,request_throughput,output_throughput,total_token_throughput,output_throughput_per_user,output_speed_per_user,output_throughput_per_gpu,mean_concurrency,ttft_ms_mean,ttft_ms_p50,ttft_ms_p90,ttft_ms_p95,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p90,tpot_ms_p95,tpot_ms_p99,e2el_ms_mean,e2el_ms_p50,e2el_ms_p90,e2el_ms_p95,e2el_ms_p99",
            "bench-report.json,trtllm-bench,1.2.0,tensorrt-llm,1.2.0,Qwen/Qwen2.5-0.5B-Instruct,40,2.5,16,1024,3072,140,150,1024,7.5,40.5,35.25,60.5,70,90.75,6.5,6.25,7.5,8,9.25,450.25,440.5,520.25,560,600.75",
        ]
    );
    assert_eq!(
        facts(&f.facts)[5..],
        [
            "backend=pytorch [bench-report.json]",
            "hardware=NVIDIA L40S [bench-report.json]"
        ]
    );
}

// ---------------------------------------------------------------- genai-perf and AIPerf

#[test]
fn genai_perf_flat_input_config_and_its_inter_token_latency_as_tpot() {
    let f = read("genai_perf/flat-input-config.json");
    assert_eq!(f.format, results::Format::GenaiPerf);
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            "source,tool,model,max_concurrency,completed,request_throughput,output_throughput,ttft_ms_mean,ttft_ms_p50,ttft_ms_p90,ttft_ms_p95,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p90,tpot_ms_p95,tpot_ms_p99,e2el_ms_mean,e2el_ms_p50,e2el_ms_p90,e2el_ms_p95,e2el_ms_p99",
            "flat-input-config.json,genai-perf,openai/gpt-oss-20b,4,60,0.5,25.75,2100.5,2000.25,3400,2100.5,4300.5,7.5,7.25,10.5,7.5,11.5,3100.5,3050.25,4300,3100.5,4800.75",
        ]
    );
    assert_eq!(
        facts(&f.facts)[3..],
        [
            "endpoint=http://vllm-service:80/v1/chat/completions [flat-input-config.json]",
            "backend=openai chat [flat-input-config.json]"
        ]
    );
}

#[test]
fn genai_perf_nested_input_config() {
    let f = read("genai_perf/nested-input-config.json");
    assert_eq!(
        lines(&f.results.to_csv())[1],
        "nested-input-config.json,genai-perf,meta-llama/Llama-3.1-8B-Instruct,64,1000,16.25,2091.5,33.5,95.5,80.25,150,95.5,240.75,29.75,29.5,30.75,29.75,31.75,3900.5,3890,4010,3900.5,4120.25"
    );
    assert_eq!(
        facts(&f.facts)[3],
        "endpoint=localhost:8000 [nested-input-config.json]"
    );
}

#[test]
fn aiperf_unversioned_records_layout_with_short_tags() {
    let f = read("aiperf/records-unversioned.json");
    assert_eq!(
        (f.format, f.tool_version.as_deref()),
        (results::Format::Aiperf, None)
    );
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            "source,tool,model,max_concurrency,num_prompts,completed,failed,duration_s,input_tokens,output_tokens,request_throughput,output_throughput,ttft_ms_mean,ttft_ms_p50,ttft_ms_p90,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p90,tpot_ms_p99,itl_ms_mean,itl_ms_p50,itl_ms_p90,itl_ms_p99,e2el_ms_mean,e2el_ms_p50,e2el_ms_p90,e2el_ms_p99",
            "records-unversioned.json,aiperf,openai/gpt-oss-20b,100,100,89,11,9.25,48950,21624,9.5,2320.75,2343.25,2369.25,3796.75,3833.5,27.75,27.5,32.75,33.75,27.5,22.75,24.75,140.5,9059.5,9097.25,9277.5,9297.75",
        ]
    );
    assert_eq!(
        facts(&f.facts)[4..],
        [
            "endpoint=localhost:9000 [records-unversioned.json]",
            "backend=chat [records-unversioned.json]",
            "date=2025-10-03 [records-unversioned.json]"
        ]
    );
}

#[test]
fn aiperf_schema_1_with_version_adjusted_percentiles_and_a_cancelled_run() {
    let f = read("aiperf/schema-1.json");
    assert_eq!(f.tool_version.as_deref(), Some("0.3.0"));
    // total_osl (reasoning included, what the throughput is computed
    // from), not total_output_tokens; adj_p* are not the percentiles.
    assert_eq!(
        lines(&f.results.to_csv())[1],
        "schema-1.json,aiperf,0.3.0,openai/gpt-oss-20b,1,100,98,2,392,19637,28348,0.25,54.5,82.75,82,84.75,99.5,99.5,18,18,18.5,19,19,17.75,17.75,18.25,21.75,21.75,5171.75,5230,5936.5,6433.5,6433.5"
    );
    assert_eq!(
        f.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["schema-1.json:1: AIPerf says the run was cancelled (`was_cancelled`): its figures cover only part of it"]
    );
}

// ---------------------------------------------------------------- llama-bench

const LLAMA_HEADER: &str = "source,tool,tool_version,engine,version,model,test,n_prompt,n_gen,n_depth,tokens_per_s,tokens_per_s_std,backends,flash_attn,model_params";

#[test]
fn llama_bench_json_jsonl_and_csv_read_alike() {
    let json = read("llama_bench/bench.json");
    assert_eq!(
        (json.format, json.tool, json.tool_version.as_deref()),
        (results::Format::LlamaBench, "llama-bench", Some("b6012"))
    );
    assert_eq!(
        lines(&json.results.to_csv()),
        [
            LLAMA_HEADER,
            "bench.json,llama-bench,b6012,llama.cpp,b6012,models/Qwen2.5-7B-Instruct-Q4_K_M.gguf,pp512,512,0,0,4266.666667,17.75,CUDA,0,7615616512",
            "bench.json,llama-bench,b6012,llama.cpp,b6012,models/Qwen2.5-7B-Instruct-Q4_K_M.gguf,tg128,0,128,0,119.844681,0.699739,CUDA,0,7615616512",
        ]
    );
    assert_eq!(
        facts(&json.facts)[5..],
        [
            "build_commit=5ab1c2d3 [bench.json]",
            "hardware=NVIDIA GeForce RTX 4090 [bench.json]",
            "date=2025-04-24 [bench.json]"
        ]
    );
    let jsonl = read("llama_bench/bench.jsonl");
    assert_eq!(
        lines(&jsonl.results.to_csv())[1..],
        [
            "bench.jsonl,llama-bench,b6012,llama.cpp,b6012,models/Qwen2.5-7B-Instruct-Q4_K_M.gguf,tg128,0,128,0,119.844681,0.699739,CUDA,0,7615616512",
            "bench.jsonl,llama-bench,b6012,llama.cpp,b6012,models/Qwen2.5-7B-Instruct-Q4_K_M.gguf,pp512+tg128 @ d4096,512,128,4096,515.5,2.25,CUDA,1,7615616512",
        ]
    );
    let csv = read("llama_bench/bench.csv");
    assert_eq!(csv.format, results::Format::LlamaBenchCsv);
    assert_eq!(
        lines(&csv.results.to_csv())[1..],
        [
            "bench.csv,llama-bench,b6012,llama.cpp,b6012,models/Qwen2.5-7B-Instruct-Q4_K_M.gguf,pp512,512,0,0,4266.666667,17.75,CUDA,0,7615616512",
            "bench.csv,llama-bench,b6012,llama.cpp,b6012,models/Qwen2.5-7B-Instruct-Q4_K_M.gguf,pp512+tg128 @ d4096,512,128,4096,515.5,2.25,CUDA,1,7615616512",
        ]
    );
}

#[test]
fn llama_bench_array_left_open_by_a_crash_is_read_as_far_as_it_goes() {
    let f = read("llama_bench/crashed-open-array.json");
    assert_eq!(f.results.len(), 2);
    assert_eq!(
        f.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["crashed-open-array.json:75: the JSON array is not closed (llama-bench stopped before the end of its run?): read the 2 complete results, up to line 75"]
    );
    // Any other tool's cut-short array is the error it is.
    let e = results::read("summary.json", b"[\n {\"date\": \"20260101-000000\", \"model_id\": \"m\", \"num_prompts\": 1, \"backend\": \"openai\", \"run_number\": 0},\n {\"date\":").unwrap_err();
    assert_eq!(
        (e.kind, e.line, e.column),
        (results::ErrorKind::Syntax, 3, 10)
    );
}

#[test]
fn llama_bench_old_build_with_backend_flags() {
    let f = read("llama_bench/old-backend-flags.jsonl");
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            "source,tool,tool_version,engine,version,model,test,n_prompt,n_gen,tokens_per_s,tokens_per_s_std,backends,flash_attn,model_params",
            "old-backend-flags.jsonl,llama-bench,b2990,llama.cpp,b2990,models/llama-2-7b.Q4_0.gguf,tg128,0,128,142.25,0.5,\"CUDA,BLAS\",0,6738415616",
        ]
    );
}

// ---------------------------------------------------------------- guidellm

const GUIDELLM_HEADER_TAIL: &str = "num_prompts,completed,failed,duration_s,input_tokens,output_tokens,request_throughput,output_throughput,total_token_throughput,ttft_ms_mean,ttft_ms_p50,ttft_ms_p90,ttft_ms_p95,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p90,tpot_ms_p95,tpot_ms_p99,e2el_ms_mean,e2el_ms_p50,e2el_ms_p90,e2el_ms_p95,e2el_ms_p99,tpot_incl_first_ms_mean,tpot_incl_first_ms_p50,tpot_incl_first_ms_p90,tpot_incl_first_ms_p99";

#[test]
fn guidellm_v0_3_json_median_for_p50_latency_in_seconds_and_its_requests() {
    let f = read("guidellm/v0.3.json");
    assert_eq!(
        (f.format, f.tool_version.as_deref()),
        (results::Format::GuidellmJson, None)
    );
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            &format!("source,tool,model,request_rate,{GUIDELLM_HEADER_TAIL}"),
            "v0.3.json,guidellm,Qwen/Qwen3-0.6B,10,4,2,1,60,248,66,0.033,1.1,4.9,250,250,250,250,263,142.75,142.5,230,248,260.9,1500,1500,2300,2480,3100,144.5,144.25,231,261.95",
        ]
    );
    assert_eq!(
        lines(&f.requests.to_csv()),
        [
            "source,ttft_ms,tpot_ms,e2el_ms,input_tokens,output_tokens,start_s",
            "v0.3.json,250,35.71428571428571,2500,128,64,0",
            "v0.3.json,250,250,500,120,2,0.5",
        ]
    );
    assert_eq!(
        facts(&f.facts)[3..],
        [
            "failed=1 [v0.3.json]",
            "endpoint=http://localhost:8000 [v0.3.json]",
            "backend=openai_http [v0.3.json]",
            "date=2025-09-23 [v0.3.json]"
        ]
    );
}

#[test]
fn guidellm_v0_5_json_with_metadata_and_top_level_args() {
    let f = read("guidellm/v0.5.json");
    assert_eq!(f.tool_version.as_deref(), Some("0.5.2"));
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            &format!("source,tool,tool_version,model,max_concurrency,{GUIDELLM_HEADER_TAIL}"),
            "v0.5.json,guidellm,0.5.2,meta-llama/Llama-3.1-8B-Instruct,16,1000,980,0,60.2,1003520,125440,16.25,2080,18720,95.5,80.25,150,240.75,253.29,29.75,29.5,30.75,31.75,33.84,3900,3850,4000,4100,4800,30.5,30.25,31.5,34.62",
        ]
    );
}

#[test]
fn guidellm_v0_7_json_with_config_spec_and_head_request_records() {
    let f = read("guidellm/v0.7.json");
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            &format!("source,tool,tool_version,model,max_concurrency,{GUIDELLM_HEADER_TAIL}"),
            "v0.7.json,guidellm,0.7.3,Qwen/Qwen3-8B,128,513,500,3,30,128000,128000,16.5,4224,8448,1200.5,1100.25,2000,2600.75,2731.29,45.5,45.25,50,55.5,58.78,12500,12250,14000,15500,16780,48.5,48.25,53,61.93",
        ]
    );
    assert_eq!(
        lines(&f.requests.to_csv())[1],
        "v0.7.json,200,25,1000,256,33,0"
    );
    assert_eq!(
        facts(&f.facts)[5],
        "endpoint=http://10.0.0.5:8000 [v0.7.json]"
    );
}

#[test]
fn guidellm_yaml_report() {
    let f = read("guidellm/v0.2-synchronous.yaml");
    assert_eq!(f.format, results::Format::GuidellmYaml);
    // A synchronous strategy runs one request at a time.
    assert_eq!(
        lines(&f.results.to_csv()),
        [
            &format!("source,tool,model,max_concurrency,{GUIDELLM_HEADER_TAIL}"),
            "v0.2-synchronous.yaml,guidellm,llama-3-2-3b,1,4,2,1,60,248,66,0.033,1.1,4.9,250,250,250,250,263,142.75,142.5,230,248,260.9,1500,1500,2300,2480,3100,144.5,144.25,231,261.95",
        ]
    );
}

// ---------------------------------------------------------------- docs

const BEGIN: &str = "<!-- generated from src/results/vocabulary.rs: do not edit below; tests/results.rs checks it -->\n";
const END: &str = "<!-- end of the generated part -->\n";

/// docs/format.md says what the code says: the formats, every column with
/// its unit, definition and each tool's key, and the facts.
/// `UPDATE_DOCS=1 cargo test --test results` writes it again.
#[test]
fn docs_results_md_is_the_vocabulary() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/format.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (head, rest) = doc
        .split_once(BEGIN)
        .expect("docs/format.md has the begin marker");
    let (body, tail) = rest
        .split_once(END)
        .expect("docs/format.md has the end marker");
    let generated = format!("\n{}\n", findings::results::docs::markdown());
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{head}{BEGIN}{generated}{END}{tail}")).unwrap();
        return;
    }
    assert!(
        body == generated,
        "docs/format.md is out of date: run `UPDATE_DOCS=1 cargo test --test results`"
    );
}

/// Every name the issue fixes is in the vocabulary, spelled as the checks
/// outside the project read it.
#[test]
fn the_fixed_column_names() {
    use findings::results::vocabulary::{RequestCol, ResultCol, SeriesCol};
    use findings::results::Columns;
    let names = |all: &[findings::results::vocabulary::Column]| {
        all.iter().map(|c| c.name).collect::<Vec<_>>()
    };
    let results = names(ResultCol::ALL);
    let mut fixed: Vec<String> = "source tool tool_version engine version model max_concurrency request_rate num_prompts completed failed duration_s input_tokens output_tokens request_throughput output_throughput total_token_throughput n_prompt n_gen n_depth tokens_per_s tokens_per_s_std"
        .split(' ')
        .map(String::from)
        .collect();
    for m in ["ttft", "tpot", "itl", "e2el"] {
        for s in ["mean", "p50", "p90", "p99"] {
            fixed.push(format!("{m}_ms_{s}"));
        }
    }
    for f in &fixed {
        assert!(results.contains(&f.as_str()), "results lacks {f}");
    }
    assert_eq!(
        names(RequestCol::ALL),
        [
            "source",
            "ttft_ms",
            "tpot_ms",
            "e2el_ms",
            "input_tokens",
            "output_tokens",
            "start_s"
        ]
    );
    assert_eq!(
        names(SeriesCol::ALL),
        [
            "t_s",
            "running",
            "waiting",
            "kv_usage",
            "preemptions",
            "generation_tokens_per_s"
        ]
    );
}

#[test]
fn a_yaml_report_that_does_not_parse_says_where_and_an_alias_bomb_is_refused() {
    let e = results::read(
        "benchmarks.yaml",
        b"benchmarks:\n- type_: generative_benchmark\n  config: {strategy: [1, 2}\n",
    )
    .unwrap_err();
    assert_eq!((e.kind, e.line), (results::ErrorKind::Syntax, 3));
    assert!(e.message.starts_with("invalid YAML: "), "{e}");
    // Nine levels of nine aliases: a billion strings if expanded.
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
    let mut prev = 'a';
    for n in 'b'..='j' {
        bomb.push_str(&format!(
            "{n}: &{n} [{}]\n",
            vec![format!("*{prev}"); 9].join(", ")
        ));
        prev = n;
    }
    bomb.push_str(&format!("benchmarks: [*{prev}]\n"));
    let e = results::read("benchmarks.yaml", bomb.as_bytes()).unwrap_err();
    assert_eq!(e.kind, results::ErrorKind::Syntax, "{e}");
}

#[test]
fn guidellm_v0_4_without_metadata_and_v0_6_with_the_target_in_backend_kwargs() {
    let v4 = read("guidellm/v0.4.json");
    assert_eq!(
        (
            v4.tool_version.as_deref(),
            v4.results.rows[0].text(results::vocabulary::ResultCol::Model)
        ),
        (None, Some("meta-llama/Llama-3.1-8B-Instruct"))
    );
    let v6 = read("guidellm/v0.6.json");
    assert_eq!(
        (
            v6.tool_version.as_deref(),
            v6.results.rows[0].text(results::vocabulary::ResultCol::Model)
        ),
        (Some("0.6.1"), Some("Qwen/Qwen3-8B"))
    );
    assert!(facts(&v6.facts).contains(&"endpoint=http://127.0.0.1:9000 [v0.6.json]".to_string()));
    // Its key, unmasked in backend_kwargs, is a credential.
    let raw = std::fs::read(fixture("guidellm/v0.6.json")).unwrap();
    assert_eq!(
        results::scrub::holds_credential(&raw),
        Some(("args.backend_kwargs.api_key".into(), 1))
    );
}
