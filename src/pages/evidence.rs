//! What a run page says of its result files: each file with the tool (and
//! version) that wrote it, its size and SHA-256, linked to the copy the
//! site publishes; and the facts a reviewer needs (the endpoint, the model,
//! the concurrency asked for and the most requests the server ran,
//! preemptions, the KV cache of the start, failed requests), each linked
//! to the file it came from. Takes a run; hands the run page's context its
//! `evidence`.

use crate::checks::{Place, Verdict};
use crate::markdown;
use crate::model::Model;
use crate::record::{RawFile, ResultSource, Run, RunFact};
use crate::urls::{self, ROOT};
use crate::util::escape_html;
use serde::Serialize;

/// The facts a run page shows, in its order, with what it calls them. The
/// tool, version, engine and date are shown with the files or the setup.
const SHOWN: &[(&str, &str)] = &[
    ("report", "Where in the pasted text"),
    ("model", "Model"),
    ("endpoint", "Endpoint"),
    ("backend", "Client backend"),
    ("hardware", "Hardware"),
    ("max_concurrency", "Concurrency asked for"),
    ("request_rate", "Request rate asked for (req/s)"),
    ("max_running", "Most requests the server ran"),
    ("max_waiting", "Most requests waiting"),
    ("running_limit", "Running limit the server set"),
    ("preemptions", "Preemptions during the run"),
    ("kv_cache_tokens", "KV cache of the start (tokens)"),
    ("kv_cache_gib", "KV cache of the start (GiB)"),
    ("failed", "Failed requests"),
    ("server_output_tokens", "Output tokens, server's counter"),
    (
        "server_output_throughput",
        "Output throughput, server's counter (tok/s)",
    ),
    ("build_commit", "Build commit"),
];

/// One entry of the run's `results` as its page shows it.
#[derive(Serialize)]
pub(super) struct SourceView {
    path: String,
    setup: Option<String>,
    files: Vec<FileView>,
    facts: Vec<FactView>,
}

#[derive(Serialize)]
struct FileView {
    path: String,
    url: String,
    size: String,
    sha256: String,
    /// "vllm bench serve 0.28", or the format for a file no client wrote.
    written_by: Option<String>,
}

#[derive(Serialize)]
struct FactView {
    label: &'static str,
    /// Its values (a sweep's concurrencies are several), each with its
    /// note, as HTML: the notes the readers write name metrics in code.
    values: Vec<String>,
    /// The files they came from, each with its address on the site.
    sources: Vec<SourceLink>,
}

#[derive(Serialize, PartialEq)]
struct SourceLink {
    path: String,
    url: String,
}

/// The evidence of `run` for its page.
pub(super) fn of(run: &Run) -> Vec<SourceView> {
    run.results
        .iter()
        .map(|s| SourceView {
            path: s.path.clone(),
            setup: s.setup.and_then(|i| run.setups.get(i)).map(|s| s.name()),
            files: s.files.iter().map(|f| file(run, f)).collect(),
            facts: facts(run, s),
        })
        .collect()
}

fn file(run: &Run, f: &RawFile) -> FileView {
    let written_by = match (&f.tool, &f.tool_version, &f.format) {
        (Some(t), Some(v), _) => Some(format!("{t} {v}")),
        (Some(t), None, _) => Some(t.clone()),
        (None, _, Some(format)) => Some(format.clone()),
        _ => None,
    };
    FileView {
        path: f.path.clone(),
        url: format!("{ROOT}{}", urls::run_file(&run.id, &f.path)),
        size: crate::figures::bytes(f.bytes),
        sha256: f.sha256.clone(),
        written_by,
    }
}

/// The facts of one entry the page shows, in [`SHOWN`]'s order; a fact
/// that several results of a file give (a sweep's concurrencies) once,
/// with each value.
fn facts(run: &Run, s: &ResultSource) -> Vec<FactView> {
    let mut out = Vec::new();
    for (name, label) in SHOWN {
        let mut view = FactView {
            label,
            values: Vec::new(),
            sources: Vec::new(),
        };
        for f in s.facts_named(name) {
            let v = match &f.note {
                Some(n) => format!(
                    "{} ({})",
                    escape_html(&value(f)),
                    markdown::render_inline(n)
                ),
                None => escape_html(&value(f)),
            };
            if !view.values.contains(&v) {
                view.values.push(v);
            }
            let link = SourceLink {
                path: f.source.clone(),
                url: format!("{ROOT}{}", urls::run_file(&run.id, &f.source)),
            };
            if !view.sources.contains(&link) {
                view.sources.push(link);
            }
        }
        if !view.values.is_empty() {
            out.push(view);
        }
    }
    out
}

/// A check's verdict on the run, as its page shows it.
#[derive(Serialize)]
struct CheckView {
    name: &'static str,
    verdict: &'static str,
    /// The verdict as a class name (`flagged`, `cannot-tell`).
    class: String,
    message: String,
    reason: Option<String>,
    /// The findings whose advice it carries.
    findings: Vec<super::view::NamedLink>,
    /// The file or table row of the evidence, with its address.
    evidence: Option<SourceLink>,
}

/// The checks that apply to run `r` of `model`, for its "Checked against
/// the findings" box: flags first, passes last.
pub(super) fn checks(model: &Model, r: usize) -> Vec<impl Serialize> {
    let run = &model.runs[r];
    // Flags first, then what cannot be told, then what the run breaks on
    // purpose, then passes; each kind in the registry's order.
    let rank = |v: &Verdict| match v {
        Verdict::Flagged => 0,
        Verdict::CannotTell => 1,
        Verdict::Acknowledged => 2,
        Verdict::Passed => 3,
    };
    let mut outcomes: Vec<&crate::checks::Outcome> = model.checks[r].iter().collect();
    outcomes.sort_by_key(|o| rank(&o.verdict));
    outcomes
        .into_iter()
        .map(|o| CheckView {
            name: o.check,
            verdict: o.verdict.as_str(),
            class: o.verdict.as_str().replace(' ', "-"),
            message: markdown::render_inline(&o.message),
            reason: o.reason.clone(),
            findings: model
                .cites(r, o.check)
                .into_iter()
                .map(|i| {
                    let f = &model.findings[i];
                    super::view::NamedLink {
                        name: format!("F{}", f.id),
                        url: format!("{ROOT}{}", urls::finding(&f.slug)),
                    }
                })
                .collect(),
            evidence: match &o.at {
                Place::File { path, .. } => Some(SourceLink {
                    path: path.clone(),
                    url: format!("{ROOT}{}", urls::run_file(&run.id, path)),
                }),
                Place::Row { table, line } => Some(SourceLink {
                    path: format!("{table}, line {line}"),
                    url: format!("{ROOT}{}", urls::run_file(&run.id, table)),
                }),
                Place::Run => None,
            },
        })
        .collect::<Vec<_>>()
}

/// The preemptions the run recorded, when there were some: the run page
/// says so beside its figures, which then hold requests computed twice.
pub(super) fn preempted(run: &Run) -> Option<serde_json::Value> {
    let names = std::collections::BTreeMap::new();
    let ev = crate::checks::Evidence::of(run, &names);
    let n: f64 = ev
        .values("preemptions")
        .iter()
        .filter_map(|v| v.number)
        .filter(|n| n.is_finite())
        .sum();
    (n > 0.0).then(|| serde_json::json!({"count": n, "text": crate::figures::number(n)}))
}

/// A fact's value as a reader reads it: numbers rounded to what matters
/// (`336.3`, `26,093`), "unknown" with its reason for a fact known to be
/// unknown.
fn value(f: &RunFact) -> String {
    match (&f.number, &f.value) {
        (Some(n), _) => crate::figures::number(*n),
        // A model is named without a local path (findings.json keeps it).
        (None, Some(v)) if f.name == "model" => crate::record::model_name(v).into_owned(),
        (None, Some(v)) => v.clone(),
        (None, None) => "unknown".to_string(),
    }
}
