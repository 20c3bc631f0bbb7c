//! Console reports pasted into text (`src/results/console/`), read from
//! fixtures written for these tests (`tests/fixtures/pasted/`), each in
//! the layout its tool's printing code gives and the way people paste it:
//! a GitHub issue body with `<details>` and fences, a shell script's
//! comments, a quoted reply, server log lines between the report's lines,
//! several reports in one paste, reports cut off. Each row is asserted cell
//! for cell (as its CSV), with the facts (and where each came from) and the
//! warnings. The real pastes of `../shared/pasted` are read in
//! `tests/results_shared.rs`.
#![allow(missing_docs)]

use findings::results::{self, Format, ResultFile};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pasted")
        .join(name)
}

fn read(name: &str) -> ResultFile {
    let bytes = std::fs::read(fixture(name)).unwrap();
    results::read(name, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn csv(f: &ResultFile) -> Vec<String> {
    f.results.to_csv().lines().map(String::from).collect()
}

/// Each fact as `name=value [note]`.
fn facts(f: &ResultFile) -> Vec<String> {
    f.facts
        .iter()
        .map(|x| {
            let v = x.value.as_ref().map_or("?".into(), |c| c.csv());
            match &x.note {
                Some(n) => format!("{}={v} ({n})", x.name),
                None => format!("{}={v}", x.name),
            }
        })
        .collect()
}

fn warnings(f: &ResultFile) -> Vec<String> {
    f.warnings.iter().map(ToString::to_string).collect()
}

#[test]
fn vllm_two_runs_in_an_issue_body_become_two_reports() {
    let f = read("vllm-issue-two-runs.md");
    assert_eq!(f.format, Format::VllmServeReport);
    assert_eq!(
        results::detect(
            "x",
            &std::fs::read(fixture("vllm-issue-two-runs.md")).unwrap()
        )
        .unwrap(),
        Format::VllmServeReport
    );
    assert_eq!(
        csv(&f),
        [
            "source,report,tool,model,max_concurrency,request_rate,num_prompts,completed,failed,duration_s,input_tokens,output_tokens,request_throughput,output_throughput,peak_output_throughput,total_token_throughput,peak_concurrent_requests,ttft_ms_mean,ttft_ms_p50,ttft_ms_p90,ttft_ms_p95,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p90,tpot_ms_p95,tpot_ms_p99,itl_ms_mean,itl_ms_p50,itl_ms_p90,itl_ms_p95,itl_ms_p99,e2el_ms_mean,e2el_ms_p50,e2el_ms_p90,e2el_ms_p95,e2el_ms_p99",
            // The rate from the line vLLM prints before its banner; the
            // model and prompts from the command (continued over lines).
            "vllm-issue-two-runs.md,lines 19–59,vllm bench serve,Qwen/Qwen3-8B,8,inf,400,400,0,61.25,204800,102400,6.53,1671.84,1792,5015.51,16,48.12,45.03,61.77,70.4,95.18,4.58,4.51,4.92,5.1,5.87,4.57,4.4,5.02,5.33,9.61,1216.04,1210.55,1302.16,1340.87,1420.33",
            // A server's log line between its lines is passed over.
            "vllm-issue-two-runs.md,lines 68–110,vllm bench serve,Qwen/Qwen3-8B,32,16,400,398,2,59.7,203776,101888,6.67,1706.73,2048,5120.19,33,212.43,187.9,350.12,421.85,611.04,17.92,17.66,19.4,20.13,23.57,17.85,16.02,20.88,24.1,48.75,4781.66,4699.2,5302.48,5590.03,6120.57",
        ]
    );
    assert_eq!(
        facts(&f),
        [
            "tool=vllm bench serve",
            "max_concurrency=8",
            "max_concurrency=32",
            "request_rate=inf",
            "request_rate=16",
            "failed=2",
            "model=Qwen/Qwen3-8B (from the command line at line 15)",
            "report=lines 19–59",
            "model=Qwen/Qwen3-8B (from the command line at line 67)",
            "report=lines 68–110",
        ]
    );
    assert!(f.warnings.is_empty(), "{:?}", warnings(&f));
    // Each report alone, as a run's `report:` entry takes it.
    assert_eq!(f.reports.len(), 2);
    assert_eq!(f.reports[1].location, "lines 68–110");
    assert_eq!(f.reports[1].lines, (68, 110));
    let second = f.report(2).unwrap();
    assert_eq!(second.results.len(), 1);
    assert_eq!(
        facts(second),
        [
            "tool=vllm bench serve",
            "max_concurrency=32",
            "request_rate=16",
            "failed=2",
            "model=Qwen/Qwen3-8B (from the command line at line 67)",
            "report=lines 68–110",
        ]
    );
    assert!(f.report(3).is_none() && f.report(0).is_none());
}

#[test]
fn an_older_vllm_report_behind_comment_marks_cut_off_says_what_it_lacks() {
    let f = read("vllm-script-comments-cut-off.txt");
    assert_eq!(
        csv(&f),
        [
            "source,report,tool,model,max_concurrency,request_rate,num_prompts,completed,duration_s,input_tokens,output_tokens,request_throughput,output_throughput,total_token_throughput,ttft_ms_mean,ttft_ms_p50,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p99",
            // `Total Token throughput` (capital T), no `Failed requests`:
            // the older script, as the command says too.
            "vllm-script-comments-cut-off.txt,lines 7–22,vllm benchmark_serving.py,meta-llama/Llama-3.1-8B-Instruct,16,inf,64,64,21.19,65536,16384,3.02,773.21,3866.03,402.77,388.12,802.4,19.22,19.05,22.91",
        ]
    );
    assert_eq!(
        warnings(&f),
        ["vllm-script-comments-cut-off.txt:22: the report that starts at line 7 is cut off after line 22: read as far as it goes; missing: the section `Inter-token Latency`, and its closing line of `=`"]
    );
}

#[test]
fn sglang_2024_and_2025_reports_with_their_own_lines() {
    let f = read("sglang-two-versions.md");
    assert_eq!(f.format, Format::SglangServeReport);
    assert_eq!(
        csv(&f),
        [
            "source,report,tool,model,max_concurrency,request_rate,num_prompts,completed,duration_s,input_tokens,input_text_tokens,input_vision_tokens,output_tokens,output_tokens_retokenized,request_throughput,input_throughput,output_throughput,peak_output_throughput,total_token_throughput,peak_concurrent_requests,mean_concurrency,accept_length,ttft_ms_mean,ttft_ms_p50,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p99,itl_ms_mean,itl_ms_p50,itl_ms_p95,itl_ms_p99,e2el_ms_mean,e2el_ms_p50,e2el_ms_p90,e2el_ms_p99",
            // `Max reqeuest concurrency: not set` (2024's typo): unlimited,
            // empty; the model and prompts from the printed Namespace.
            "sglang-two-versions.md,lines 6–34,sglang bench_serving,meta-llama/Llama-3.1-8B-Instruct,,inf,500,500,44.81,112742,,,98433,98109,11.16,2515.95,2196.63,,4712.58,,,,7650.4,6998.2,15133.07,80.12,63.33,409.51,57.04,39.98,,401.15,18702.11,18044.6,,",
            "sglang-two-versions.md,lines 44–82,sglang bench_serving,Qwen/Qwen2.5-VL-7B-Instruct,16,inf,200,200,38.52,281600,25600,256000,25600,25588,5.19,7310.49,664.59,912,7975.08,16,15.71,2.84,802.33,760.19,1590.62,17.51,17.22,21.08,17.4,16.05,24.77,41.3,3025.47,2987.1,3410.88,3822.05",
        ]
    );
    assert_eq!(
        facts(&f),
        [
            "tool=sglang bench_serving",
            "max_concurrency=16",
            "request_rate=inf",
            "backend=sglang",
            "model=meta-llama/Llama-3.1-8B-Instruct (from the arguments printed at line 4)",
            "report=lines 6–34",
            "backend=sglang-oai-chat",
            "model=Qwen/Qwen2.5-VL-7B-Instruct (from the command line at line 40)",
            "report=lines 44–82",
        ]
    );
}

#[test]
fn trtllm_bench_old_layout_among_its_log_lines_states_engine_and_version() {
    // The layout of a trtllm-bench 0.16 console saved to a text file, with
    // the figures issue 35 quotes: TensorRT-LLM 0.16.0, Llama-3.1-70B,
    // 14,389.8 tok/s. Its log lines made it "a boot log" before.
    let f = read("trtllm-bench-0.16-throughput.txt");
    assert_eq!(f.format, Format::TrtllmBenchReport);
    assert_eq!(
        (f.tool, f.tool_version.as_deref()),
        ("trtllm-bench", Some("0.16.0"))
    );
    assert_eq!(
        csv(&f),
        [
            "source,report,tool,tool_version,engine,version,model,num_prompts,duration_s,request_throughput,output_throughput",
            // `Token Throughput` of the old layout is output tokens over
            // the total latency; the latency in ms is the duration in s.
            "trtllm-bench-0.16-throughput.txt,lines 11–41,trtllm-bench,0.16.0,tensorrt-llm,0.16.0,meta-llama/Llama-3.1-70B-Instruct,30000,266.8556894,112.4203,14389.8",
        ]
    );
    assert_eq!(
        facts(&f),
        [
            "tool=trtllm-bench",
            "tool_version=0.16.0",
            "engine=tensorrt-llm",
            "version=0.16.0",
            "model=meta-llama/Llama-3.1-70B-Instruct",
            "backend=tensorrt",
            "date=2026-03-02 (from the log lines before the report)",
            "report=lines 11–41",
        ]
    );
}

#[test]
fn trtllm_bench_new_layout_two_runs_with_breakdowns_and_decoding() {
    let f = read("trtllm-bench-pytorch-two-runs.md");
    assert_eq!(
        csv(&f),
        [
            "source,report,tool,tool_version,engine,version,model,num_prompts,duration_s,request_throughput,output_throughput,total_token_throughput,output_throughput_per_user,output_speed_per_user,output_throughput_per_gpu,mean_concurrency,accept_length,ttft_ms_mean,ttft_ms_p50,ttft_ms_p90,ttft_ms_p95,ttft_ms_p99,tpot_ms_mean,tpot_ms_p50,tpot_ms_p90,tpot_ms_p95,tpot_ms_p99,e2el_ms_mean,e2el_ms_p50,e2el_ms_p90,e2el_ms_p95,e2el_ms_p99",
            "trtllm-bench-pytorch-two-runs.md,lines 7–106,trtllm-bench,1.2.0rc2,tensorrt-llm,1.2.0rc2,meta-llama/Llama-3.3-70B-Instruct,1000,154.1924939,6.4854,3320.5521,9961.6563,52.9521,55.1858,830.138,63.8112,2.61,410.2291,380.55,702.9,801.13,1012.47,18.1206,17.95,20.41,21.22,23.87,9669.1104,9601.02,10422.87,10688.4,11244.91",
            "trtllm-bench-pytorch-two-runs.md,lines 113–212,trtllm-bench,1.2.0rc2,tensorrt-llm,1.2.0rc2,meta-llama/Llama-3.3-70B-Instruct,1000,135.1607061,7.3986,3788.094,11364.282,60.4014,63.8028,947.0235,63.8112,2.74,466.882,431.02,811.6,905.7,1190.25,15.6733,15.51,17.66,18.3,20.94,8476.6312,8420.11,9133.4,9377.62,9860.04",
        ]
    );
    assert!(facts(&f).contains(&"hardware=NVIDIA H200".to_string()));
    assert!(facts(&f).contains(&"backend=pytorch".to_string()));
    assert_eq!(f.reports.len(), 2);
}

#[test]
fn trtllm_bench_latency_report() {
    let f = read("trtllm-bench-latency-0.15.txt");
    assert_eq!(
        csv(&f),
        [
            "source,report,tool,tool_version,engine,version,model,num_prompts,duration_s,request_throughput,total_token_throughput,output_speed_per_user,ttft_ms_mean,tpot_ms_mean,e2el_ms_mean",
            // trtllm-bench's inter-token latency is per request: TPOT;
            // its generation throughput is a request's, after the first
            // token.
            "trtllm-bench-latency-0.15.txt,lines 6–59,trtllm-bench,0.15.0,tensorrt-llm,0.15.0,meta-llama/Llama-3.1-8B,100,110.155431,0.9078,232.4077,117.0221,16.8104,8.5452,1101.5543",
        ]
    );
}

#[test]
fn llama_bench_tables_with_their_build_lines_depths_and_settings() {
    let f = read("llama-bench-two-tables.md");
    assert_eq!(f.format, Format::LlamaBenchReport);
    assert_eq!(
        csv(&f),
        [
            "source,report,tool,tool_version,engine,version,model,test,n_prompt,n_gen,n_depth,tokens_per_s,tokens_per_s_std,backends,flash_attn,settings,model_params",
            "llama-bench-two-tables.md,lines 10–16,llama-bench,b4521,llama.cpp,b4521,llama 7B Q4_K - Medium,pp512,512,0,,10987.44,52.31,CUDA,,ngl=99,7250000000",
            "llama-bench-two-tables.md,lines 10–16,llama-bench,b4521,llama.cpp,b4521,llama 7B Q4_K - Medium,pp2048,2048,0,,9871.02,11.9,CUDA,,ngl=99,7250000000",
            "llama-bench-two-tables.md,lines 10–16,llama-bench,b4521,llama.cpp,b4521,llama 7B Q4_K - Medium,tg128,0,128,,158.63,0.21,CUDA,,ngl=99,7250000000",
            "llama-bench-two-tables.md,lines 20–27,llama-bench,b4521,llama.cpp,b4521,llama 7B Q4_K - Medium,pp512 @ d4096,512,0,4096,7210.16,30.02,CUDA,0,\"ngl=99, n_batch=512\",7250000000",
            "llama-bench-two-tables.md,lines 20–27,llama-bench,b4521,llama.cpp,b4521,llama 7B Q4_K - Medium,pp512 @ d4096,512,0,4096,8633.7,21.47,CUDA,1,\"ngl=99, n_batch=512\",7250000000",
            "llama-bench-two-tables.md,lines 20–27,llama-bench,b4521,llama.cpp,b4521,llama 7B Q4_K - Medium,tg128 @ d4096,0,128,4096,141.09,0.88,CUDA,1,\"ngl=99, n_batch=2048\",7250000000",
            "llama-bench-two-tables.md,lines 20–27,llama-bench,b4521,llama.cpp,b4521,llama 7B Q4_K - Medium,pp512+tg128,512,128,,1795.37,4.02,CUDA,1,\"ngl=99, n_batch=2048\",7250000000",
        ]
    );
    assert!(facts(&f).contains(
        &"hardware=NVIDIA GeForce RTX 4090 (from the backend's line at line 7)".to_string()
    ));
    assert!(facts(&f).contains(&"build_commit=9e4d2f7a".to_string()));
}

#[test]
fn genai_perf_2025_table_with_a_wrapped_name_commas_and_a_cut_name() {
    let f = read("genai-perf-2025-wrapped.md");
    assert_eq!(f.format, Format::GenaiPerfReport);
    assert_eq!(
        csv(&f),
        [
            "source,report,tool,model,max_concurrency,num_prompts,completed,request_throughput,request_goodput,output_throughput,output_speed_per_user,ttft_ms_mean,ttft_ms_p90,ttft_ms_p99,tpot_ms_mean,tpot_ms_p90,tpot_ms_p99,e2el_ms_mean,e2el_ms_p90,e2el_ms_p99",
            // `1,402.55`; the name wrapped over two lines; `Output Token
            // Throughput (tokens/s…` cut by the terminal, still one name.
            "genai-perf-2025-wrapped.md,lines 6–22,genai-perf,Qwen/Qwen3-8B,64,640,640,10.64,7.91,2738.96,44.62,251.07,488.13,1120.06,22.41,27.73,36.15,6012.48,7305.66,9402.18",
        ]
    );
}

#[test]
fn genai_perf_2024_in_a_quoted_reply_and_vllm_offline_lines_in_one_paste() {
    let f = read("genai-perf-2024-and-vllm-offline.md");
    assert_eq!(f.format, Format::GenaiPerfReport);
    assert_eq!(
        csv(&f),
        [
            "source,report,tool,model,num_prompts,request_throughput,output_throughput,total_token_throughput,ttft_ms_mean,ttft_ms_p90,ttft_ms_p99,tpot_ms_mean,tpot_ms_p90,tpot_ms_p99,e2el_ms_mean,e2el_ms_p50,e2el_ms_p90,e2el_ms_p99",
            // The throughputs printed after the table.
            "genai-perf-2024-and-vllm-offline.md,lines 3–13,genai-perf,,,1.12,143.52,,31.44,40.07,58.9,6.81,7.44,8.61,890.12,,950.31,990.01",
            // The old line of `benchmark_throughput.py`: tokens/s of prompt
            // and output together.
            "genai-perf-2024-and-vllm-offline.md,line 18,vllm benchmark_throughput.py,facebook/opt-125m,200,61.2,,15667.2,,,,,,,,,,",
            // Seconds to milliseconds by the printed digits.
            "genai-perf-2024-and-vllm-offline.md,lines 21–24,vllm benchmark_latency.py,facebook/opt-125m,,,,,,,,,,,412.5000122003257,410.77,,",
        ]
    );
    assert_eq!(
        f.results.rows[2].num(results::vocabulary::ResultCol::E2elMsMean),
        "412.50001220032573".parse().ok()
    );
    assert_eq!(
        warnings(&f),
        ["genai-perf-2024-and-vllm-offline.md:24: the report that starts at line 21 is cut off after line 24: read as far as it goes; missing: `75% percentile latency`, `90% percentile latency`, `99% percentile latency`"]
    );
    // Three tools in one paste: each is named.
    assert_eq!(
        f.facts_named("tool")
            .map(|t| t.value.as_ref().unwrap().csv())
            .collect::<Vec<_>>(),
        [
            "genai-perf",
            "vllm benchmark_throughput.py",
            "vllm benchmark_latency.py"
        ]
    );
}

#[test]
fn text_that_only_names_a_report_is_none() {
    // Prose that quotes a report's shape, a banner with nothing under it.
    for text in [
        "The old format was 'Throughput: X requests/s, Y tokens/s'.\n",
        "============ Serving Benchmark Result ============\n\nno figures here\n",
        "Avg latency: fast seconds\n",
    ] {
        let e = results::read("notes.txt", text.as_bytes()).unwrap_err();
        assert_eq!(e.kind, results::ErrorKind::UnknownFormat, "{text}");
    }
}

#[test]
fn a_paste_that_starts_like_yaml_or_json_is_still_a_paste() {
    // `Throughput: …` opens like a YAML mapping, `[TensorRT-LLM] …` like a
    // JSON array.
    let f = results::read(
        "t.txt",
        b"Throughput: 89.27 requests/s, 22853.37 total tokens/s, 11426.69 output tokens/s\n",
    )
    .unwrap();
    assert_eq!(f.format, Format::VllmThroughputReport);
    assert_eq!(
        csv(&f)[1],
        "t.txt,line 1,vllm bench throughput,89.27,11426.69,22853.37"
    );
    let trt = std::fs::read_to_string(fixture("trtllm-bench-0.16-throughput.txt")).unwrap();
    assert!(trt.starts_with("[TensorRT-LLM]"));
    assert_eq!(
        results::detect("t.txt", trt.as_bytes()).unwrap(),
        Format::TrtllmBenchReport
    );
}

#[test]
fn the_kept_copy_of_a_paste_holds_no_credential_and_reads_the_same() {
    let bytes = std::fs::read(fixture("vllm-issue-two-runs.md")).unwrap();
    let held = results::scrub::holds_credential(&bytes);
    assert!(held.is_some());
    let kept = results::scrub::scrub("p.md", &bytes, false).unwrap();
    let text = String::from_utf8(kept.bytes.clone()).unwrap();
    assert!(!text.contains("sk-test-0123456789abcdef") && !text.contains("sk-live-abcdefabcdef"));
    assert!(
        text.contains("--header \"Authorization: Bearer [removed]\""),
        "{text}"
    );
    assert!(
        text.contains("$ OPENAI_API_KEY=[removed] vllm bench serve"),
        "{text}"
    );
    assert_eq!(results::scrub::holds_credential(&kept.bytes), None);
    assert_eq!(
        results::read("p.md", &kept.bytes).unwrap().results,
        results::read("p.md", &bytes).unwrap().results
    );
}

#[test]
fn a_trtllm_overview_cut_short_says_which_lines_it_lacks() {
    let text = "[TensorRT-LLM] TensorRT-LLM version: 0.16.0\n===========================================================\n= PERFORMANCE OVERVIEW\n===========================================================\nNumber of requests:\t\t30000\nToken Throughput (tokens/sec):\t14389.8000\n";
    let f = results::read("cut.txt", text.as_bytes()).unwrap();
    assert_eq!(
        csv(&f),
        [
            "source,report,tool,tool_version,engine,version,num_prompts,output_throughput",
            "cut.txt,lines 2–6,trtllm-bench,0.16.0,tensorrt-llm,0.16.0,30000,14389.8",
        ]
    );
    assert_eq!(
        warnings(&f),
        ["cut.txt:6: the report that starts at line 2 is cut off after line 6: read as far as it goes; missing: `Request Throughput (req/sec)`, `Total Latency (ms)`"]
    );
}

#[test]
fn windows_line_ends_a_python_prompt_and_html_around_a_report() {
    // The old vLLM fixture, each line behind `>>> `, in a <pre>, with CRLF.
    let text = std::fs::read_to_string(fixture("vllm-script-comments-cut-off.txt")).unwrap();
    let mut pasted = String::from("<pre>\r\n");
    for line in text.lines() {
        pasted.push_str(&format!(">>> {}\r\n", line.trim_start_matches("# ")));
    }
    pasted.push_str("</pre>\r\n");
    let f = results::read("pre.html", pasted.as_bytes()).unwrap();
    let original = read("vllm-script-comments-cut-off.txt");
    let cells = |f: &ResultFile| {
        f.results.rows[0]
            .cells()
            .filter(|(c, _)| c.name != "source" && c.name != "report")
            .map(|(c, v)| (c.name, v.cloned()))
            .collect::<Vec<_>>()
    };
    assert_eq!(cells(&f), cells(&original));
    assert_eq!(f.reports[0].location, "lines 8–23");
}
