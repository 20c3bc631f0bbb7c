//! lm-evaluation-harness's results file, read from its writer
//! (`lm_eval/loggers/evaluation_tracker.py`, `save_results_aggregated`)
//! and from the files of every version since 0.3:
//!
//! - `results`: per task an object of metric keys. Since 0.4 a key names
//!   its filter, `exact_match,strict-match`, with its standard error under
//!   `exact_match_stderr,strict-match`; 0.3 wrote `acc` and `acc_stderr`
//!   (read as filter `none`). A standard error may be `"N/A"` or a bare
//!   `NaN` (no value), `alias`, `name` and `sample_len` are no metric.
//! - group rows: 0.4.0–0.4.2 kept them under `groups` too (read once);
//!   `group_subtasks` names each group's tasks.
//! - `n-shot` per task (0.3: `config.num_fewshot`), `n-samples` per task
//!   (`effective`: the questions scored), `higher_is_better` per task and
//!   metric, `versions` (`"Yaml"`, `0`, `"0"`, `3.0`; not read).
//! - `config`: `model` the backend (`vllm`, `sglang`, `hf`,
//!   `local-completions`…), `model_args` a string `k=v,k=v` or an object,
//!   `limit` a number (float since 0.4), `gen_kwargs`.
//! - `pretty_env_info` (torch's `collect_env`, sometimes an error text):
//!   where it lists `vllm==0.x`, the engine's version.
//!
//! The engine is the backend when the backend is an engine (`vllm`,
//! `sglang`); a client (`local-completions`) or a library the site does
//! not list (`hf`) names none, and the import's `--engine` says what
//! served it. The settings that change answers (`kv_cache_dtype`, the
//! speculative settings, the parallelism) are facts with the key they came
//! from. [`model_args`] and [`setting_facts`] are shared with the pasted
//! table's header line (`console/lm_eval.rs`).

use super::error::ReadError;
use super::fields::{entries, number, Obj};
use super::file::{same_format, Fact, Out};
use super::format::Format;
use super::json::Located;
use super::table::Row;
use super::vocabulary::ScoreCol as S;
use serde_json::Value;

/// The program, as the tables name it.
pub(super) const TOOL: &str = "lm-evaluation-harness";

/// The keys of `results.<task>` that are no metric.
const NOT_METRICS: &[&str] = &["alias", "name", "sample_len", "samples", " "];

/// lm_eval's backends that are serving engines, and the engine each is.
const ENGINE_BACKENDS: &[(&str, &str)] = &[
    ("vllm", "vllm"),
    ("vllm-vlm", "vllm"),
    ("sglang", "sglang"),
    ("sglang-generate", "sglang"),
];

/// The engine a backend is, if it is one.
pub(super) fn engine_of_backend(backend: &str) -> Option<&'static str> {
    ENGINE_BACKENDS
        .iter()
        .find(|(b, _)| *b == backend)
        .map(|(_, e)| *e)
}

/// `model_args` as lm_eval takes them: `k=v,k=v` (a value may hold
/// commas inside brackets or quotes), or a Python dict as its table's
/// header prints it (`{'model': 'x', 'base_url': …}`).
pub(super) fn model_args(text: &str) -> Vec<(String, String)> {
    let t = text.trim();
    let (inner, dict) = match t.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        Some(i) => (i, true),
        None => (t, false),
    };
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0);
    for (i, c) in inner.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '{' | '[' | '(') => depth += 1,
            (None, '}' | ']' | ')') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    let unquote = |s: &str| s.trim().trim_matches(|c| c == '\'' || c == '"').to_string();
    parts
        .into_iter()
        .filter_map(|p| {
            let (k, v) = if dict {
                p.split_once(':')?
            } else {
                p.split_once('=')?
            };
            let k = unquote(k);
            (!k.is_empty()).then(|| (k, unquote(v)))
        })
        .collect()
}

/// `model_args` of a results file: the string, or the object's keys with
/// their values as text (JSON for objects).
fn model_args_value(v: &Value) -> Vec<(String, String)> {
    match v {
        Value::String(s) => model_args(s),
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| {
                let text = match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (k.clone(), text)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The settings of `model_args` that change what a model answers, each
/// as a fact: (the key or keys it is read from, the fact).
const SETTINGS: &[(&[&str], &str)] = &[
    (&["kv_cache_dtype"], "kv_cache_dtype"),
    (
        &["tensor_parallel_size", "tp_size", "tp"],
        "tensor_parallel_size",
    ),
    (
        &["pipeline_parallel_size", "pp_size"],
        "pipeline_parallel_size",
    ),
    (&["data_parallel_size", "dp_size"], "data_parallel_size"),
    (
        &[
            "speculative_config",
            "speculative_model",
            "num_speculative_tokens",
            "speculative_algorithm",
            "speculative_draft_model_path",
        ],
        "speculative",
    ),
];

/// The facts `args` give (the model, the settings of [`SETTINGS`]), each
/// noting `said` (where the arguments were read: "`config.model_args`").
pub(super) fn setting_facts(args: &[(String, String)], said: &str, file: &str) -> Vec<Fact> {
    let mut facts = Vec::new();
    let get = |k: &str| args.iter().find(|(a, _)| a == k).map(|(_, v)| v.as_str());
    if let Some((k, m)) = ["pretrained", "model"]
        .iter()
        .find_map(|k| get(k).map(|m| (k, m)))
    {
        facts.push(Fact::text("model", m, file).note(format!("from {said}: `{k}`")));
    }
    for (keys, fact) in SETTINGS {
        let said_here: Vec<String> = keys
            .iter()
            .filter_map(|k| get(k).map(|v| format!("{k}={v}")))
            .collect();
        if said_here.is_empty() {
            continue;
        }
        let value = if *fact == "speculative" {
            said_here.join(",")
        } else {
            said_here[0].split_once('=').map_or("", |x| x.1).to_string()
        };
        facts.push(Fact::text(fact, value, file).note(format!("from {said}")));
    }
    facts
}

/// The facts of the backend: itself, and the engine when it is one.
pub(super) fn backend_facts(backend: &str, said: &str, file: &str) -> Vec<Fact> {
    let mut facts = vec![Fact::text("backend", backend, file).note(format!("from {said}"))];
    if let Some(e) = engine_of_backend(backend) {
        facts.push(Fact::text("engine", e, file).note(format!(
            "from {said}: lm_eval's `{backend}` backend runs it"
        )));
    }
    facts
}

/// The version of vLLM or SGLang `pretty_env_info` lists (`vllm==0.9.1`,
/// `[pip3] vllm==0.9.1`, `vLLM Version: 0.9.1`), for `engine`.
fn engine_version(env: &str, engine: &str) -> Option<String> {
    for line in env.lines() {
        let l = line.trim().trim_start_matches("[pip3]").trim();
        let l = l.trim_start_matches("[pip]").trim();
        let v = l
            .strip_prefix(&format!("{engine}=="))
            .or_else(|| {
                l.to_ascii_lowercase()
                    .starts_with(&format!("{engine} version:"))
                    .then(|| l.split_once(':').map_or("", |x| x.1))
            })
            .map(str::trim)
            .and_then(|v| v.split_whitespace().next());
        if let Some(v) = v.filter(|v| v.chars().next().is_some_and(|c| c.is_ascii_digit())) {
            return Some(v.to_string());
        }
    }
    None
}

pub(super) fn read(name: &str, bytes: Option<&[u8]>, values: &[Located]) -> Result<Out, ReadError> {
    let es = entries(values);
    same_format(name, &es, Format::LmEvalResults)?;
    let mut out = Out {
        tool: TOOL,
        ..Out::default()
    };
    for e in &es {
        let o = e.obj(name, bytes);
        read_one(&o, &mut out)?;
    }
    Ok(out)
}

fn read_one(o: &Obj<'_>, out: &mut Out) -> Result<(), ReadError> {
    let file = o.file;
    if out.tool_version.is_none() {
        out.tool_version = o.text("lm_eval_version")?;
    }
    let config = o.get("config");
    let backend = config
        .and_then(|c| c.get("model"))
        .and_then(Value::as_str)
        .map(str::to_string);
    if let Some(b) = &backend {
        out.facts.extend(backend_facts(b, "`config.model`", file));
    }
    let args = config
        .and_then(|c| c.get("model_args"))
        .map(model_args_value)
        .unwrap_or_default();
    out.facts
        .extend(setting_facts(&args, "`config.model_args`", file));
    if let Some(engine) = backend.as_deref().and_then(engine_of_backend) {
        if let Some(v) = o
            .get("pretty_env_info")
            .and_then(Value::as_str)
            .and_then(|env| engine_version(env, engine))
        {
            out.facts.push(
                Fact::text("version", v.clone(), file)
                    .note(format!("from `pretty_env_info`: `{engine}=={v}`")),
            );
        }
    }
    if let Some(limit) = config
        .and_then(|c| c.get("limit"))
        .and_then(|v| number(v).ok().flatten())
    {
        out.facts
            .push(Fact::num("limit", limit, file).note("from `config.limit`"));
    }
    if let Some(d) = o
        .num("date")
        .ok()
        .flatten()
        .and_then(super::dates::from_unix)
    {
        out.facts.push(Fact::text("date", d, file));
    }
    let fewshot_all = config
        .and_then(|c| c.get("num_fewshot"))
        .and_then(|v| number(v).ok().flatten());
    // Each task's group, from `group_subtasks`; a group names itself.
    let mut group_of: std::collections::BTreeMap<&str, &str> = Default::default();
    if let Some(Value::Object(gs)) = o.get("group_subtasks") {
        for (g, subs) in gs {
            if let Some(subs) = subs.as_array().filter(|s| !s.is_empty()) {
                group_of.insert(g, g);
                for s in subs.iter().filter_map(Value::as_str) {
                    group_of.entry(s).or_insert(g);
                }
            }
        }
    }
    let Some(results) = o.get("results") else {
        return Ok(());
    };
    let Value::Object(tasks) = results else {
        return Err(o.wrong("results", results, "an object of tasks"));
    };
    let mut rows: Vec<(&str, &Value)> = tasks.iter().map(|(k, v)| (k.as_str(), v)).collect();
    // 0.4.0–0.4.2: the groups' rows under `groups` as well.
    if let Some(Value::Object(groups)) = o.get("groups") {
        for (g, v) in groups {
            group_of.insert(g, g);
            if !tasks.contains_key(g) {
                rows.push((g, v));
            }
        }
    }
    for (task, metrics) in rows {
        let Value::Object(m) = metrics else {
            return Err(o.wrong(&format!("results.{task}"), metrics, "an object of metrics"));
        };
        let n_shot = o
            .get("n-shot")
            .and_then(|n| n.get(task))
            .and_then(|v| number(v).ok().flatten())
            .or(fewshot_all);
        let n = o.get("n-samples").and_then(|n| n.get(task)).and_then(|v| {
            v.get("effective")
                .and_then(|e| number(e).ok().flatten())
                .or_else(|| number(v).ok().flatten())
        });
        for (key, v) in m {
            if NOT_METRICS.contains(&key.as_str()) {
                continue;
            }
            let (metric, filter) = key.split_once(',').unwrap_or((key.as_str(), "none"));
            if metric.ends_with("_stderr") {
                continue;
            }
            // A metric of text (a list of predictions a task left
            // unaggregated) is no score.
            let Ok(Some(value)) = number(v) else { continue };
            let stderr_key = if key.contains(',') {
                format!("{metric}_stderr,{filter}")
            } else {
                format!("{metric}_stderr")
            };
            let stderr = m.get(&stderr_key).and_then(|s| number(s).ok().flatten());
            let hib = o
                .get("higher_is_better")
                .and_then(|h| h.get(task))
                .and_then(|h| h.get(metric))
                .and_then(Value::as_bool);
            let mut row = Row::default();
            row.set_text(S::Task, Some(task));
            row.set_text(S::Filter, Some(filter));
            row.set_text(S::Metric, Some(metric));
            row.set_num(S::NShot, n_shot);
            row.set_num(S::Value, Some(value));
            row.set_num(S::Stderr, stderr);
            row.set_num(S::N, n);
            row.set_text(S::HigherIsBetter, hib.map(|b| b.to_string()));
            row.set_text(S::Group, group_of.get(task).copied());
            out.scores.push(row);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_args_in_both_shapes() {
        assert_eq!(
            model_args("pretrained=a/b,speculative_config={\"method\":\"ngram\",\"n\":3},tensor_parallel_size=2"),
            vec![
                ("pretrained".into(), "a/b".into()),
                ("speculative_config".into(), "{\"method\":\"ngram\",\"n\":3}".into()),
                ("tensor_parallel_size".into(), "2".into()),
            ]
        );
        assert_eq!(
            model_args("{'model': 'zai-org/GLM-5.2-FP8', 'num_concurrent': 256}"),
            vec![
                ("model".into(), "zai-org/GLM-5.2-FP8".into()),
                ("num_concurrent".into(), "256".into()),
            ]
        );
    }

    #[test]
    fn engine_versions_from_env() {
        assert_eq!(
            engine_version(
                "Versions of relevant libraries:\n[pip3] torch==2.5\n[pip3] vllm==0.9.1\n",
                "vllm"
            ),
            Some("0.9.1".into())
        );
        assert_eq!(
            engine_version("vLLM Version: 0.10.0rc1\n", "vllm"),
            Some("0.10.0rc1".into())
        );
        assert_eq!(
            engine_version("'NoneType' object has no attribute", "vllm"),
            None
        );
    }
}
