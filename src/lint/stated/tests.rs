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
    let s = names.resolve((None, None), (None, None), None, None, &Thread::default());
    assert_eq!(
        s.engine.unwrap().whence,
        Whence::Repo("vllm-project/vllm".into())
    );
    assert_eq!(s.version, None);
    // The body's environment gives both.
    let s = names.resolve(
        (None, None),
        (None, None),
        None,
        None,
        &Thread::new(std::slice::from_ref(&body)),
    );
    assert_eq!(s.engine.as_ref().unwrap().value, "vllm");
    assert_eq!(
        s.version.unwrap().whence.words("version"),
        "`vLLM Version: 0.30.0` in the issue body"
    );
    // The report's backend names SGLang: the body's vLLM version is
    // not SGLang's, comment 2's is.
    let s = names.resolve(
        (None, None),
        (None, None),
        Some("sglang"),
        None,
        &Thread::new(&[body.clone(), sg]),
    );
    assert_eq!(
        s.engine.as_ref().unwrap().whence.words("engine"),
        "the report's `Backend: sglang` line"
    );
    assert_eq!(s.version.unwrap().value, "0.5.20");
    // The options win over every text; the report's own lines over them.
    let s = names.resolve(
        (None, None),
        (Some("sglang"), Some("0.5.20")),
        None,
        None,
        &Thread::new(std::slice::from_ref(&body)),
    );
    assert_eq!(
        (s.engine.unwrap().whence, s.version.unwrap().whence),
        (Whence::Given, Whence::Given)
    );
    let s = names.resolve(
        (Some("tensorrt-llm".into()), Some("0.16.0".into())),
        (Some("vllm"), Some("0.30")),
        None,
        None,
        &Thread::new(&[body]),
    );
    assert_eq!(s.engine.unwrap().value, "tensorrt-llm");
    assert_eq!(s.version.unwrap().value, "0.16.0");
    // An API any server speaks says nothing.
    let s = names.resolve(
        (None, None),
        (None, None),
        Some("openai"),
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
