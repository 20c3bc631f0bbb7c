//! What a measurement measured: the one place that decides when two
//! measurements are of one workload, used by `findings compare`, the
//! version pages' "what changed", and the trends across versions.
//!
//! A workload is:
//!
//! - the **model**, by its file or repository name in any case
//!   (`/models/Qwen3-8B` and `qwen/qwen3-8b` are one model); a llama-bench
//!   model type is read without its size class and with its parameters
//!   (`gpt-oss ?B MXFP4 MoE` of a build that did not know the size, and
//!   `gpt-oss 20B MXFP4 MoE`, both of 20.91 B parameters, are one model;
//!   so are `llama 7B mostly Q4_0` of a build of 2023 and `llama 7B Q4_0`);
//! - the **input and output lengths** of its requests: those the client
//!   was asked for where both files record them (`random_input_len`,
//!   `random_output_len`), else the measured means per completed request,
//!   within [`super::LENGTH_TOLERANCE`] of each other (generation that
//!   stops at an end of text makes two runs of one command measure
//!   different means);
//! - the **concurrency and request rate** the client was asked for, exactly
//!   (a sweep's points are workloads of their own);
//! - the **tool's own test**: llama-bench's `pp512`, `tg128` and
//!   `pp512 @ d4096` are three workloads, and its settings (`ngl`,
//!   `threads`, `n_batch`, flash attention, …) tell a sweep's points apart,
//!   compared where both record them (a build whose table has no `mmap`
//!   column says nothing of it); `ngl` of 99 or more is every layer (99 is
//!   llama-bench's own default for "all"), whichever number was typed;
//! - **where it ran**, where recorded: the hardware (its name without the
//!   vendor's, `AMD Radeon 8060S Graphics` is `Radeon 8060S Graphics`) and
//!   llama-bench's backend (`Vulkan`, `ROCm`). Two measurements on other
//!   hardware are never of one workload as `compare` matches them, and
//!   never one series of a trend ([`Workload::place`]).
//!
//! A comparison told that its sides measured one workload
//! (`--same-workload`) matches on the concurrency and rate alone. A hand
//! table's workload is the cells of the columns it is keyed by.
//!
//! Takes a result row (and the hardware of its run) or a table's key cells;
//! hands back a [`Workload`], its words ([`Workload::line`],
//! [`Workload::about`]) and its matches.

use super::LENGTH_TOLERANCE;
use crate::figures;
use crate::record::ResultRow;

/// What was measured, matched exactly on `exact` and on the lengths,
/// settings and place (see [`Workload::matches`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// Each part as a reader reads it: (what, value), `("asked for", "32 at once")`.
    pub parts: Vec<(String, String)>,
    /// The parts matched exactly, as one key: the model, the tool's test,
    /// the concurrency and rate.
    pub exact: String,
    /// The parts matched when the sides are said to measure one workload:
    /// the concurrency and rate, as one key.
    pub loose: String,
    /// The mean input and output lengths in tokens, where known.
    pub lengths: [Option<f64>; 2],
    /// The input and output lengths the client was asked for, where the
    /// file records them.
    pub requested: [Option<f64>; 2],
    /// The concurrency the client was asked for, where it was bounded.
    pub concurrency: Option<f64>,
    /// The model as the file names it, without its local path.
    pub model: Option<String>,
    /// The tool's own test (llama-bench's `pp512`), where it has one.
    pub test: Option<String>,
    /// The tool's settings that tell a sweep's points apart, as (name,
    /// value) with the value read for matching (`ngl` 99 or more is
    /// `all`), sorted by name.
    pub settings: Vec<(String, String)>,
    /// The hardware, as recorded.
    pub hardware: Option<String>,
    /// llama-bench's backend (`Vulkan`), where recorded.
    pub backend: Option<String>,
    /// For an accuracy score (issue 44), what it scored: its task, filter,
    /// metric, examples and limit; `None` for a speed measurement.
    pub score: Option<ScoreOf>,
}

/// What an accuracy score scored, the parts of its workload besides the
/// model: a workload of accuracy is the task, filter, metric, n-shot,
/// limit and model (issue 44), each matched exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreOf {
    /// The task (`gsm8k`).
    pub task: String,
    /// The filter (`strict-match`).
    pub filter: String,
    /// The metric (`exact_match`).
    pub metric: String,
    /// Examples before each question, where recorded.
    pub n_shot: Option<String>,
    /// The questions the run was limited to (lm_eval's `limit`), where
    /// recorded.
    pub limit: Option<String>,
    /// Whether a higher score is better (the `scores` table's
    /// `higher_is_better`; true where it does not say).
    pub higher_is_better: bool,
}

impl ScoreOf {
    /// Its parts in words, after the model in a title: `gsm8k
    /// strict-match exact_match`, `5-shot`, `limit 250`.
    pub fn words(&self) -> Vec<String> {
        let mut out = vec![[self.task.as_str(), &self.filter, &self.metric]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ")];
        if let Some(n) = &self.n_shot {
            out.push(format!("{n}-shot"));
        }
        if let Some(l) = &self.limit {
            out.push(format!("limit {l}"));
        }
        out
    }
}

/// The workload of an accuracy score of `model` (as the run names it)
/// on `hardware` where recorded: matched exactly on the model (as
/// [`model_key`] reads it), the task, filter, metric, n-shot and limit.
pub fn workload_of_score(model: Option<&str>, score: ScoreOf, hardware: Option<&str>) -> Workload {
    let model = model.map(str::trim).filter(|m| !m.is_empty());
    let key = model.map(|m| model_key(m, None)).unwrap_or_default();
    let exact = [
        "score",
        &key,
        &score.task,
        &score.filter,
        &score.metric,
        score.n_shot.as_deref().unwrap_or(""),
        score.limit.as_deref().unwrap_or(""),
    ]
    .join("\u{1f}");
    let shown = model.map(|m| {
        m.trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(m)
            .to_string()
    });
    let mut parts: Vec<(String, String)> = Vec::new();
    if let Some(m) = &shown {
        parts.push((String::new(), m.clone()));
    }
    parts.extend(score.words().into_iter().map(|w| (String::new(), w)));
    Workload {
        model: shown,
        hardware: hardware
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .map(str::to_string),
        score: Some(score),
        ..Workload::keyed(parts, exact)
    }
}

impl Workload {
    /// A workload of key cells matched exactly (a hand table's).
    pub fn of_key(parts: Vec<(String, String)>) -> Workload {
        let exact = parts
            .iter()
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>()
            .join("\u{1f}");
        Workload::keyed(parts, exact)
    }

    /// A workload of `parts` matched exactly on `exact`, and nothing else
    /// known of it.
    fn keyed(parts: Vec<(String, String)>, exact: String) -> Workload {
        Workload {
            parts,
            loose: exact.clone(),
            exact,
            lengths: [None, None],
            requested: [None, None],
            concurrency: None,
            model: None,
            test: None,
            settings: Vec::new(),
            hardware: None,
            backend: None,
            score: None,
        }
    }

    /// Whether `other` measured what this one measured, wherever it ran:
    /// the exact parts equal, each length the same (the lengths asked for
    /// where both record them, else the measured means within the
    /// tolerance of this one's, or both unknown), and the settings both
    /// record alike.
    pub fn same_measure(&self, other: &Workload) -> bool {
        self.exact == other.exact
            && (0..2).all(|k| match (self.requested[k], other.requested[k]) {
                (Some(a), Some(b)) => (a - b).abs() < 0.5,
                _ => match (self.lengths[k], other.lengths[k]) {
                    (None, None) => true,
                    (Some(a), Some(b)) => (a - b).abs() <= LENGTH_TOLERANCE * a.abs().max(1.0),
                    _ => false,
                },
            })
            && settings_agree(&self.settings, &other.settings)
    }

    /// Whether `other` ran where this one ran, as far as both record it:
    /// the same hardware and the same backend.
    pub fn same_place(&self, other: &Workload) -> bool {
        let agree = |a: &Option<String>, b: &Option<String>| match (a, b) {
            (Some(a), Some(b)) => hardware_key(a) == hardware_key(b),
            _ => true,
        };
        agree(&self.hardware, &other.hardware) && agree(&self.backend, &other.backend)
    }

    /// Whether `other` measured this workload: the same measure
    /// ([`Workload::same_measure`]) in the same place
    /// ([`Workload::same_place`]). With `same_workload`, the concurrency
    /// and rate alone.
    pub fn matches(&self, other: &Workload, same_workload: bool) -> bool {
        if same_workload {
            return self.loose == other.loose;
        }
        self.same_measure(other) && self.same_place(other)
    }

    /// Where it ran, as one key for a series of a trend: the hardware and
    /// backend as matched, empty for what is not recorded (a place of its
    /// own: a point whose hardware nobody wrote down joins no series of
    /// known hardware).
    pub fn place(&self) -> String {
        let key = |s: &Option<String>| s.as_deref().map(hardware_key).unwrap_or_default();
        format!("{}\u{1f}{}", key(&self.hardware), key(&self.backend))
    }

    /// Where it ran in words: `Radeon 8060S Graphics, Vulkan`; `None`
    /// where nothing is recorded.
    pub fn place_words(&self) -> Option<String> {
        let parts: Vec<&str> = [&self.hardware, &self.backend]
            .into_iter()
            .filter_map(|s| s.as_deref())
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// The workload in one line: `qwen3-8b · 1,024 in, 128 out (tokens a
    /// request) · asked for 32 at once · rate unlimited`, and where it ran
    /// (`· on H100`) where recorded.
    pub fn line(&self) -> String {
        let mut out = self.measure_line();
        if let Some(p) = self.place_words() {
            out.push_str(&format!(" · on {p}"));
        }
        out
    }

    /// The line without where it ran: what a workload's page is titled by.
    pub fn measure_line(&self) -> String {
        self.parts
            .iter()
            .map(|(what, v)| {
                if what.is_empty() {
                    v.clone()
                } else {
                    format!("{what} {v}")
                }
            })
            .collect::<Vec<_>>()
            .join(" · ")
    }

    /// What makes this a workload, part by part, as (what, its value, how
    /// it is matched), for a reader of its page.
    pub fn about(&self) -> Vec<(String, String, String)> {
        let mut out = Vec::new();
        if let Some(m) = &self.model {
            out.push((
                "Model".to_string(),
                m.clone(),
                "by its file or repository name, in any case; a local path is its last folder; llama-bench's model type without its size class, with its parameters".to_string(),
            ));
        }
        if let Some(s) = &self.score {
            let exactly = "exactly: another is a workload of its own".to_string();
            out.push(("Task".to_string(), s.task.clone(), exactly.clone()));
            out.push(("Filter".to_string(), s.filter.clone(), exactly.clone()));
            out.push(("Metric".to_string(), s.metric.clone(), exactly.clone()));
            out.push((
                "Examples (n-shot)".to_string(),
                s.n_shot
                    .clone()
                    .unwrap_or_else(|| "not recorded".to_string()),
                exactly.clone(),
            ));
            out.push((
                "Limit".to_string(),
                s.limit
                    .clone()
                    .unwrap_or_else(|| "none recorded".to_string()),
                exactly,
            ));
        }
        if let Some(t) = &self.test {
            out.push((
                "Test".to_string(),
                t.clone(),
                "the tool's own test: llama-bench's pp512, tg128 and pp512 @ d4096 are three workloads".to_string(),
            ));
        }
        let tokens = |[i, o]: [f64; 2]| {
            format!(
                "{} in, {} out (tokens a request)",
                figures::number(i.round()),
                figures::number(o.round())
            )
        };
        match (self.requested, self.lengths) {
            ([Some(i), Some(o)], _) => out.push((
                "Lengths".to_string(),
                tokens([i, o]),
                "as the client was asked for them, exactly".to_string(),
            )),
            (_, [Some(i), Some(o)]) => out.push((
                "Lengths".to_string(),
                tokens([i, o]),
                format!(
                    "the measured means per completed request, within {}% of each other",
                    figures::number(LENGTH_TOLERANCE * 100.0)
                ),
            )),
            _ => {}
        }
        for (what, v) in &self.parts {
            if what == "asked for" || what == "rate" {
                out.push((
                    if what == "rate" {
                        "Request rate".to_string()
                    } else {
                        "Concurrency".to_string()
                    },
                    v.clone(),
                    "as the client was asked, exactly: a sweep's points are workloads of their own"
                        .to_string(),
                ));
            }
        }
        if !self.settings.is_empty() {
            let shown: Vec<String> = self
                .settings
                .iter()
                .map(|(k, v)| {
                    if k == "ngl" && v == "all" {
                        "ngl 99 or more (every layer)".to_string()
                    } else {
                        format!("{k} {v}")
                    }
                })
                .collect();
            out.push((
                "Settings".to_string(),
                shown.join(", "),
                "the tool's settings, compared where both record them".to_string(),
            ));
        }
        out.push((
            "Where it ran".to_string(),
            self.place_words()
                .unwrap_or_else(|| "not recorded".to_string()),
            "the hardware (without the vendor's name) and backend, where recorded: other hardware is never one series".to_string(),
        ));
        out
    }
}

/// Whether two lists of settings agree on every name both hold.
fn settings_agree(a: &[(String, String)], b: &[(String, String)]) -> bool {
    a.iter().all(|(k, v)| {
        b.iter()
            .find(|(k2, _)| k2 == k)
            .is_none_or(|(_, v2)| v2 == v)
    })
}

/// A hardware name as matched: lower case, without the vendor's words
/// (`AMD`, `NVIDIA`, `Intel`, `GeForce`, `(R)`, `(TM)`), spaces collapsed.
pub fn hardware_key(name: &str) -> String {
    const VENDOR: [&str; 7] = [
        "amd",
        "nvidia",
        "intel",
        "geforce",
        "(r)",
        "(tm)",
        "corporation",
    ];
    name.to_lowercase()
        .replace("(r)", " ")
        .replace("(tm)", " ")
        .split_whitespace()
        .filter(|w| !VENDOR.contains(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A model as matched: its last path component in lower case; a
/// llama-bench model type without its size class (`20B`, `?B`) and the
/// word `mostly` builds of 2023 put before the quantization (`llama 7B
/// mostly Q4_0` is `llama 7B Q4_0` of a later build), with its parameters
/// where recorded (`gpt-oss mxfp4 moe · 20.91b`).
pub fn model_key(model: &str, params: Option<f64>) -> String {
    let last = model
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(model)
        .to_lowercase();
    let Some(p) = params.filter(|p| *p > 0.0) else {
        return last;
    };
    let size_class = |w: &str| {
        let Some(n) = w.strip_suffix(['b', 'm']) else {
            return false;
        };
        n == "?" || (!n.is_empty() && n.chars().all(|c| c.is_ascii_digit() || c == '.'))
    };
    let words: Vec<&str> = last
        .split_whitespace()
        .filter(|w| !size_class(w) && *w != "mostly")
        .collect();
    format!("{} · {:.2}b", words.join(" "), p / 1e9)
}

/// A llama-bench setting's name in words, as a workload's title names
/// it: `threads`, `batch size` (`n_batch`), `GPU layers` (`ngl`); one it
/// does not know, as the tool prints it.
pub(crate) fn setting_name(key: &str) -> &str {
    match key {
        "n_batch" => "batch size",
        "n_ubatch" => "micro-batch size",
        "ngl" => "GPU layers",
        "fa" => "flash attention",
        "type_k" => "K cache type",
        "type_v" => "V cache type",
        "sm" => "split mode",
        "ts" => "tensor split",
        "nkvo" => "KV cache on the CPU",
        "n_cpu_moe" => "MoE layers on the CPU",
        other => other,
    }
}

/// llama-bench's settings as matched: `name=value` pairs, flash attention
/// as `fa`, `ngl` of 99 or more as `all`; sorted by name.
fn settings_of(row: &ResultRow) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = row
        .get("settings")
        .unwrap_or("")
        .split(", ")
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| {
            let (k, v) = (k.trim().to_string(), v.trim().to_string());
            let all = k == "ngl" && v.parse::<f64>().is_ok_and(|n| n >= 99.0);
            (k, if all { "all".to_string() } else { v })
        })
        .collect();
    if let Some(fa) = row.get("flash_attn") {
        if !out.iter().any(|(k, _)| k == "fa") {
            out.push(("fa".to_string(), fa.to_string()));
        }
    }
    out.sort();
    out
}

/// llama-bench's test of a row: its `test` cell, else made from the
/// tokens it processed as the reader makes it.
fn test_of(row: &ResultRow) -> Option<String> {
    if let Some(t) = row.get("test") {
        return Some(t.to_string());
    }
    let (p, g) = (row.num("n_prompt")?, row.num("n_gen").unwrap_or(0.0));
    let whole = |x: f64| (x.round() as i64).to_string();
    let mut t = match (p > 0.0, g > 0.0) {
        (true, true) => format!("pp{}+tg{}", whole(p), whole(g)),
        (false, true) => format!("tg{}", whole(g)),
        _ => format!("pp{}", whole(p)),
    };
    if let Some(d) = row.num("n_depth").filter(|d| *d > 0.0) {
        t.push_str(&format!(" @ d{}", whole(d)));
    }
    Some(t)
}

/// The workload of a result row, of a run on `hardware` where recorded.
pub fn workload_of(row: &ResultRow, hardware: Option<&str>) -> Workload {
    let model = row.get("model").map(|m| {
        m.trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(m)
            .to_string()
    });
    let model_key = row
        .get("model")
        .map(|m| model_key(m, row.num("model_params")))
        .unwrap_or_default();
    let per_request = |total: &str| {
        let done = row.num("completed").filter(|n| *n > 0.0)?;
        row.num(total).map(|t| t / done)
    };
    let lengths = [per_request("input_tokens"), per_request("output_tokens")];
    let concurrency = row.get("max_concurrency").unwrap_or("").to_string();
    let rate = match row.num("request_rate") {
        Some(r) if r.is_infinite() => "inf".to_string(),
        Some(r) => r.to_string(),
        None => String::new(),
    };
    let test = test_of(row);
    let mut parts = Vec::new();
    if let Some(m) = &model {
        // As the file spells it (`gpt-oss 20B MXFP4 MoE`): the key
        // (`model_key`) is what is matched, in lower case.
        parts.push((String::new(), m.clone()));
    }
    if let Some(t) = &test {
        parts.push((String::new(), t.clone()));
    }
    let tokens = |[i, o]: [f64; 2]| {
        format!(
            "{} in, {} out",
            figures::number(i.round()),
            figures::number(o.round())
        )
    };
    match (row.requested, lengths) {
        ([Some(i), Some(o)], [Some(mi), Some(mo)]) => parts.push((
            String::new(),
            format!(
                "asked {}; measured {} (tokens a request)",
                tokens([i, o]),
                tokens([mi, mo])
            ),
        )),
        ([Some(i), Some(o)], _) => parts.push((
            String::new(),
            format!("asked {} (tokens a request)", tokens([i, o])),
        )),
        (_, [Some(i), Some(o)]) => parts.push((
            String::new(),
            format!("{} (tokens a request)", tokens([i, o])),
        )),
        _ => {}
    }
    let asked = row.num("max_concurrency").filter(|c| c.is_finite());
    if !concurrency.is_empty() {
        // What the client was asked for, not what the server ran: a
        // comparison says that beside each side.
        let shown = asked.map_or(concurrency.clone(), figures::number);
        parts.push(("asked for".into(), format!("{shown} at once")));
    }
    match rate.as_str() {
        "" => {}
        "inf" => parts.push(("rate".into(), "unlimited".into())),
        r => parts.push(("rate".into(), format!("{r} req/s"))),
    }
    let settings = settings_of(row);
    let clean = |s: Option<&str>| {
        s.map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    Workload {
        parts,
        exact: [
            model_key,
            test.clone().unwrap_or_default(),
            concurrency.clone(),
            rate.clone(),
        ]
        .join("\u{1f}"),
        loose: [concurrency, rate].join("\u{1f}"),
        lengths,
        requested: row.requested,
        concurrency: asked,
        model,
        test,
        settings,
        hardware: clean(hardware),
        backend: clean(row.get("backends")),
        score: None,
    }
}
