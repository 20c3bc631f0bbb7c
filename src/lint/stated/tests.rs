//! The engine and version read from lines of real issues, the order of
//! what says it, and the repositories matched.

use super::*;

fn engines() -> Vec<CatalogEngine> {
    let e = |id: &str, name: &str, repo: Option<&str>, pkg: &str| CatalogEngine {
        id: id.into(),
        name: name.into(),
        repo: repo.map(String::from),
        packages: vec![pkg.into()],
        images: Vec::new(),
    };
    vec![
        e(
            "vllm",
            "vLLM",
            Some("https://github.com/vllm-project/vllm"),
            "vllm",
        ),
        e(
            "sglang",
            "SGLang",
            Some("https://github.com/sgl-project/sglang"),
            "sglang",
        ),
        e(
            "tensorrt-llm",
            "TensorRT-LLM",
            Some("https://github.com/NVIDIA/TensorRT-LLM"),
            "tensorrt-llm",
        ),
    ]
}

/// Each line as people wrote it in issues of the vLLM and SGLang
/// trackers (tests/fixtures/issues/README.md names them): the engine,
/// the version, the words quoted.
#[test]
fn lines_of_real_issues_say_what_ran() {
    let all = engines();
    let names = Names::new(&all, None);
    let one = |line: &str| {
        let c = names.read("x", line);
        let e = c
            .engine
            .as_ref()
            .map(|c| all[c.engine.unwrap()].id.as_str());
        let v = c
            .engine
            .as_ref()
            .and_then(|x| c.versions.get(&x.engine.unwrap()))
            .or(c.nameless.as_ref());
        (
            e.map(String::from),
            v.map(|v| (v.version.clone().unwrap(), v.quote.clone())),
        )
    };
    let some =
        |e: &str, v: &str, q: &str| (Some(e.to_string()), Some((v.to_string(), q.to_string())));
    assert_eq!(
        one("vLLM Version                 : 0.13.0"),
        some("vllm", "0.13.0", "vLLM Version : 0.13.0")
    );
    assert_eq!(
        one("vLLM Version                 : 0.9.2.dev98+gdec66d253 (git sha: dec66d253)"),
        some(
            "vllm",
            "0.9.2.dev98",
            "vLLM Version : 0.9.2.dev98+gdec66d253"
        )
    );
    assert_eq!(
        one("sglang: 0.4.0.post2"),
        some("sglang", "0.4.0.post2", "sglang: 0.4.0.post2")
    );
    assert_eq!(
        one("sglang，0.4.0.post2"),
        some("sglang", "0.4.0.post2", "sglang，0.4.0.post2")
    );
    assert_eq!(one("vllm==0.6.2"), some("vllm", "0.6.2", "vllm==0.6.2"));
    assert_eq!(
        one("[pip3] vllm==0.6.3.post1"),
        some("vllm", "0.6.3.post1", "vllm==0.6.3.post1")
    );
    assert_eq!(
        one("[Bug]: TTFT Performance Regression in vLLM v0.7.0 Compared to v0.6.1.post2"),
        some("vllm", "0.7.0", "vLLM v0.7.0")
    );
    assert_eq!(
        one("After upgrading from vLLM 0.6.1.post2 to vLLM 0.7.0, we observed"),
        some(
            "vllm",
            "0.7.0",
            "upgrading from vLLM 0.6.1.post2 to vLLM 0.7.0"
        )
    );
    assert_eq!(
        one("[Performance]: Performance decrease after upgrading from 0.8.5 to 0.9.2"),
        (
            None,
            Some(("0.9.2".into(), "upgrading from 0.8.5 to 0.9.2".into()))
        )
    );
    assert_eq!(
        one(" Initializing an LLM engine (v0.6.1.dev238+ge2c6e0a82) with config: model="),
        some(
            "vllm",
            "0.6.1.dev238",
            "LLM engine (v0.6.1.dev238+ge2c6e0a82"
        )
    );
    // The engine alone: the command that started the server.
    assert_eq!(
        one("python -m vllm.entrypoints.openai.api_server \\"),
        (Some("vllm".into()), None)
    );
    assert_eq!(
        one("python -m sglang.launch_server --model-path /mnt/home/Llama-3.1-8B-Instruct"),
        (Some("sglang".into()), None)
    );
    assert_eq!(
        one("star serve：`export CUDA_VISIBLE_DEVICES=0 vllm serve \"/data0/data/Qwen3-8B/\"`"),
        (Some("vllm".into()), None)
    );
    // Not an engine's version: a client, vLLM's V1 engine, another
    // project, a path, a commit.
    for line in [
        "vllm bench serve --backend openai-chat",
        "Here is the script I used with VLLM_USE_V1=1 and vllm v1",
        "[Misc]: vllm-ascend 0.13.0rc1 is slow",
        "/vllm-workspace/collect_env.py",
        "- SGLang Version: commit 947927bdb",
        "python3 -m sglang.bench_serving --backend sglang",
        // Text that is not ASCII after a name: read, never cut inside a
        // character.
        "vllm 版本号版本号",
        "vLLM: éééééééé",
        "upgrading 版本 from é to ü",
    ] {
        assert_eq!(one(line), (None, None), "{line}");
    }
}

#[test]
fn check_env_names_several_engines_and_the_issue_decides() {
    let all = engines();
    let dump =
        "Python: 3.11.5\nsglang: 0.4.0.post2\nflashinfer: 0.1.6+cu121torch2.4\nvllm: 0.6.3.post1\n";
    // In SGLang's tracker, SGLang; elsewhere, the first named.
    let at = |url: Option<&str>| {
        let names = Names::new(&all, url);
        let c = names.read("comment 1", dump);
        all[c.engine.unwrap().engine.unwrap()].id.clone()
    };
    assert_eq!(
        at(Some("https://github.com/sgl-project/sglang/issues/2805")),
        "sglang"
    );
    assert_eq!(at(None), "sglang");
    let names = Names::new(&all, Some("https://github.com/vllm-project/vllm/issues/1"));
    let c = names.read("comment 1", dump);
    assert_eq!(all[c.engine.as_ref().unwrap().engine.unwrap()].id, "vllm");
    // Each engine keeps its own version.
    assert_eq!(c.versions[&0].version.as_deref(), Some("0.6.3.post1"));
    assert_eq!(c.versions[&1].version.as_deref(), Some("0.4.0.post2"));
}

#[test]
fn the_order_of_what_says_it() {
    let all = engines();
    let names = Names::new(&all, Some("https://github.com/vllm-project/vllm/issues/9"));
    let body = names.read("the issue body", "vLLM Version: 0.30.0\n");
    let sg = names.read("comment 2", "sglang: 0.5.20\n");
    // The repository alone: the engine, no version.
    let s = names.resolve(&Report::default(), (None, None), None, &Thread::default());
    assert_eq!(
        s.engine.unwrap().whence,
        Whence::Repo("vllm-project/vllm".into())
    );
    assert_eq!(s.version, None);
    // The body's environment gives both.
    let s = names.resolve(
        &Report::default(),
        (None, None),
        None,
        &Thread::new(std::slice::from_ref(&body), &names, ""),
    );
    assert_eq!(s.engine.as_ref().unwrap().value, "vllm");
    assert_eq!(
        s.version.unwrap().whence.words("version"),
        "`vLLM Version: 0.30.0` in the issue body"
    );
    // The report's backend names SGLang: the body's vLLM version is
    // not SGLang's, comment 2's is.
    let s = names.resolve(
        &Report {
            backend: Some("sglang"),
            ..Report::default()
        },
        (None, None),
        None,
        &Thread::new(&[body.clone(), sg], &names, ""),
    );
    assert_eq!(
        s.engine.as_ref().unwrap().whence.words("engine"),
        "the report's `Backend: sglang` line"
    );
    assert_eq!(s.version.unwrap().value, "0.5.20");
    // The options win over every text; the report's own lines over them.
    let s = names.resolve(
        &Report::default(),
        (Some("sglang"), Some("0.5.20")),
        None,
        &Thread::new(std::slice::from_ref(&body), &names, ""),
    );
    assert_eq!(
        (s.engine.unwrap().whence, s.version.unwrap().whence),
        (Whence::Given, Whence::Given)
    );
    let s = names.resolve(
        &Report {
            engine: Some("tensorrt-llm"),
            version: Some("0.16.0"),
            ..Report::default()
        },
        (Some("vllm"), Some("0.30")),
        None,
        &Thread::new(&[body], &names, ""),
    );
    assert_eq!(s.engine.unwrap().value, "tensorrt-llm");
    assert_eq!(s.version.unwrap().value, "0.16.0");
    // An API any server speaks says nothing.
    let s = names.resolve(
        &Report {
            backend: Some("openai"),
            ..Report::default()
        },
        (None, None),
        None,
        &Thread::default(),
    );
    assert_eq!(
        s.engine.unwrap().whence,
        Whence::Repo("vllm-project/vllm".into())
    );
}

#[test]
fn repositories_match_as_github_writes_them() {
    assert_eq!(
        repository("https://github.com/vllm-project/vllm/issues/19954#issuecomment-1").as_deref(),
        Some("vllm-project/vllm")
    );
    assert_eq!(
        repository("https://github.com/NVIDIA/TensorRT-LLM.git").as_deref(),
        Some("nvidia/tensorrt-llm")
    );
    assert_eq!(repository("https://gitlab.com/a/b"), None);
    assert_eq!(repository("https://github.com/a"), None);
}

#[test]
fn a_plugin_repository_of_an_engine_is_that_engine() {
    let all = engines();
    let at = |url: &str| {
        let names = Names::new(&all, Some(url));
        names
            .resolve(&Report::default(), (None, None), None, &Thread::default())
            .engine
            .map(|e| (e.value, e.whence.words("engine")))
    };
    assert_eq!(
        at("https://github.com/vllm-project/vllm-ascend/issues/12577"),
        Some((
            "vllm".to_string(),
            "the issue's repository `vllm-project/vllm-ascend` (a plugin of vLLM)".to_string()
        ))
    );
    assert_eq!(
        at("https://github.com/vllm-project/vllm/issues/1"),
        Some((
            "vllm".to_string(),
            "the issue's repository `vllm-project/vllm`".to_string()
        ))
    );
    // Another owner's repository, or one that only starts alike, is not.
    assert_eq!(at("https://github.com/someone/vllm-ascend/issues/1"), None);
    assert_eq!(at("https://github.com/vllm-project/vllmx/issues/1"), None);
}

#[test]
fn sglang_bench_servings_backend_names_the_server_it_measured() {
    let all = engines();
    let names = Names::new(&all, Some("https://github.com/sgl-project/sglang/issues/1"));
    let of = |backend: &str, tool: Option<&str>| {
        names
            .resolve(
                &Report {
                    backend: Some(backend),
                    tool,
                    ..Report::default()
                },
                (None, None),
                None,
                &Thread::default(),
            )
            .engine
            .map(|e| (e.value, e.whence.words("engine")))
            .unwrap()
    };
    let sglang = Some("sglang bench_serving");
    assert_eq!(
        of("vllm", sglang),
        (
            "vllm".to_string(),
            "the report's `Backend: vllm` line".to_string()
        )
    );
    assert_eq!(of("trt", sglang).0, "tensorrt-llm");
    assert_eq!(of("sglang-oai", sglang).0, "sglang");
    // Another client's backend `vllm` is an API any server speaks: the
    // repository's engine.
    assert_eq!(
        of("vllm", Some("vllm bench serve")),
        (
            "sglang".to_string(),
            "the issue's repository `sgl-project/sglang`".to_string()
        )
    );
}

/// The heading of a report, the lines above it nearest first.
fn heading(names: &Names<'_>, above: &[&str]) -> Near {
    names.near("the issue body", above.iter().rev().copied())
}

#[test]
fn a_reports_heading_says_what_it_ran_on() {
    let all = engines();
    // sgl-project/sglang#1639: an SGLang issue, its first report headed
    // with vLLM's version below a line that names both engines.
    let names = Names::new(
        &all,
        Some("https://github.com/sgl-project/sglang/issues/1639"),
    );
    let near = heading(
        &names,
        &[
            "I have just benchmarked vllm=0.6.2 vs sglang=0.3.2 on 2 H100s w/ 8b llama3 and tp=2",
            "",
            "Below are the stats and command lines so that it's reproducible by others.",
            "",
            "vllm=0.6.2 w/ normal",
            "",
            "```",
        ],
    );
    let body = names.read(
        "the issue body",
        "I have just benchmarked vllm=0.6.2 vs sglang=0.3.2 on 2 H100s\nvllm=0.6.2 w/ normal\n",
    );
    let s = names.resolve(
        &Report {
            near: Some(&near),
            ..Report::default()
        },
        (None, None),
        Some(&body),
        &Thread::default(),
    );
    let engine = s.engine.unwrap();
    assert_eq!(
        (
            engine.value.as_str(),
            engine.whence.words("engine"),
            s.version.unwrap().whence.words("version")
        ),
        (
            "vllm",
            "`vllm=0.6.2` in the issue body".to_string(),
            "`vllm=0.6.2` in the issue body".to_string()
        )
    );
    // A heading of a name and a word: `# SGLang`, `vLLM results`.
    for (line, id) in [("# SGLang", 1), ("vLLM results", 0), ("**SGLang:**", 1)] {
        let near = heading(&names, &[line, "```"]);
        assert_eq!(near.engine.and_then(|c| c.engine), Some(id), "{line}");
    }
    // The client's command is no heading: it names the client.
    for line in [
        "vllm bench serve --model Qwen/Qwen3-8B",
        "$ vllm bench serve",
        "How would you like to use vllm",
    ] {
        let near = heading(&names, &[line]);
        assert!(near.engine.is_none(), "{line}");
    }
    // A heading further up than NEAR_LINES lines with text is not read;
    // the client's own lines before its banner do not count.
    let mut above = vec!["# SGLang"];
    above.extend(["x"; NEAR_LINES]);
    assert!(heading(&names, &above).engine.is_none());
    let near = heading(
        &names,
        &[
            "# SGLang",
            "Starting initial single prompt test run...",
            "Initial test run completed. Starting main benchmark run...",
            "Traffic request rate: 30.0",
            "Burstiness factor: 1.0 (Poisson process)",
            "Maximum request concurrency: None",
            "100%|██████████| 10000/10000 [07:31<00:00, 22.16it/s]",
        ],
    );
    assert_eq!(near.engine.and_then(|c| c.engine), Some(1));
}

#[test]
fn a_title_names_the_versions_an_issue_is_about() {
    let all = engines();
    let names = Names::new(&all, Some("https://github.com/vllm-project/vllm/issues/1"));
    let versions = |title: &str| -> Vec<(Option<usize>, String, String)> {
        names
            .title_versions(title)
            .into_iter()
            .map(|c| (c.engine, c.version.unwrap(), c.quote))
            .collect()
    };
    let nameless = |v: &str, q: &str| (None, v.to_string(), q.to_string());
    // The titles of real issues.
    assert_eq!(
        versions("[Performance]: Performance decrease after upgrading from 0.8.5 to 0.9.2"),
        [nameless("0.8.5", "0.8.5"), nameless("0.9.2", "0.9.2")]
    );
    assert_eq!(
        versions("[Performance]: speed regression 0.6.2 => 0.6.3?"),
        [nameless("0.6.2", "0.6.2"), nameless("0.6.3", "0.6.3")]
    );
    assert_eq!(
        versions(
            "[Bug]: Performance : slow inference for FP8 on L20 with 0.5.1(v0.5.0.post1 was fine)"
        ),
        [
            nameless("0.5.1", "0.5.1"),
            nameless("0.5.0.post1", "v0.5.0.post1")
        ]
    );
    assert_eq!(
        versions("[Bug][PERF]: Qwen2.5 performance degradation 0.8.4 -> 0.8.5"),
        [nameless("0.8.4", "0.8.4"), nameless("0.8.5", "0.8.5")]
    );
    assert_eq!(
        versions("[Bug] vllm0.8.5 vs sglang0.4.6 ,sglang0.4.6 slower than vllm,please check"),
        [
            (Some(0), "0.8.5".to_string(), "vllm0.8.5".to_string()),
            (Some(1), "0.4.6".to_string(), "sglang0.4.6".to_string()),
            (Some(1), "0.4.6".to_string(), "sglang0.4.6".to_string()),
        ]
    );
    // A version of another thing is not the engine's.
    assert!(versions("Qwen2.5-VL with CUDA 12.4 and transformers 4.51.0 is slow").is_empty());
    // The issue's versions, and the one upgraded from.
    let title = "[Performance]: Performance decrease after upgrading from 0.8.5 to 0.9.2";
    let thread = Thread::new(&[], &names, title);
    let said: Vec<(String, String)> = names
        .issue_versions(&thread, Some("vllm"))
        .into_iter()
        .map(|(e, s)| (e, s.value))
        .collect();
    assert_eq!(
        said,
        [
            ("vllm".to_string(), "0.8.5".to_string()),
            ("vllm".to_string(), "0.9.2".to_string())
        ]
    );
    assert_eq!(
        names.upgraded_from(&thread, "vllm").as_deref(),
        Some("0.8.5")
    );
    // Without a direction, the earlier is the one upgraded from.
    let thread = Thread::new(
        &[],
        &names,
        "[Misc]: Performance regression between v0.11.0rc1 and v0.9.1",
    );
    assert_eq!(
        names.upgraded_from(&thread, "vllm").as_deref(),
        Some("0.9.1")
    );
    // A heading on a side of the upgrade takes its version.
    let near = heading(&names, &["Before:", "Traffic request rate: 30.0"]);
    let s = names.resolve(
        &Report {
            near: Some(&near),
            ..Report::default()
        },
        (None, None),
        None,
        &Thread::new(&[], &names, title),
    );
    let v = s.version.unwrap();
    assert_eq!(
        (v.value.as_str(), v.whence.words("version")),
        (
            "0.8.5",
            "`Before:` in the issue body (the title's `0.8.5`)".to_string()
        )
    );
}
