//! The runs index (`/runs/`), newest first: each run with its date, the
//! engines and versions it measured, the model and hardware, the tool
//! that measured it, its workload (linked to the workload's page where
//! the site follows it across versions), its first headline figure with
//! the flags of the checks that flag it, and the findings it shows (or
//! shows absent) and those that cite it; and above it, a filter bar
//! (engine, version, model, hardware, tool, flagged) that
//! `static/runs.js` works, as the home page's findings filters work. The
//! bar is hidden without scripts: the list is then the whole index.
//!
//! The filters cover every run, whatever page the reader is on: the
//! script fetches `runs/filters.json` ([`urls::RUNS_DATA`]), written here
//! from the same entries the pages show ([`write_data`]), when a filter is
//! first used. Takes the model and the checks' verdicts; hands the batch
//! the index's pages.

use super::batch::{Batch, Job};
use super::headline::{self, Flag};
use super::paginate::Pager;
use super::view::{list_page, object};
use super::Ctx;
use crate::model::Model;
use crate::render::cards::Prepared;
use crate::render::RenderError;
use crate::sink::Output;
use crate::urls::{self, ROOT};
use crate::util::hash_of;
use crate::version::Version;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The runs index's template.
const TEMPLATE: &str = "runs.html";

/// The version of the data file's format; `static/runs.js` checks it.
const SCHEMA_VERSION: u32 = 1;

/// The most models, and hardware, the filter bar offers (the most used
/// first): a site of thousands of runs keeps a light index.
const MOST_CHIPS: usize = 12;

/// A finding an entry names: `F8`, its address and title.
#[derive(Serialize, Clone)]
struct FindingRef {
    label: String,
    url: String,
    title: String,
}

/// A run's workload: its title, and its page where the site follows it.
#[derive(Serialize, Clone)]
struct WorkloadRef {
    title: String,
    /// From the site's root, without [`ROOT`]; `None` where the site does
    /// not follow it.
    path: Option<String>,
    /// How many more workloads of the run the site follows.
    more: usize,
}

/// An engine a run measured, with its versions (as their pages spell
/// them, ascending).
#[derive(Serialize)]
struct Measured {
    id: String,
    name: String,
    versions: Vec<String>,
}

/// A run as the index shows it, and as the filters read it.
#[derive(Serialize)]
struct Entry {
    id: String,
    title: String,
    /// From the site's root, without [`ROOT`].
    path: String,
    date: String,
    date_long: String,
    engines: Vec<Measured>,
    model: Option<String>,
    hardware: Option<String>,
    /// The tool that measured it: its `client`, else its result files'.
    tool: Option<String>,
    /// What it measured: its first workload the site follows (and how
    /// many more), else its first result's workload in a line.
    workload: Option<WorkloadRef>,
    /// The first headline figure, in words.
    figure: Option<String>,
    flags: Vec<Flag>,
    /// The findings whose problem it shows, shows absent, and that cite it.
    shows: Vec<FindingRef>,
    absent: Vec<FindingRef>,
    cited: Vec<FindingRef>,
}

/// Lists the pages of the index.
pub(super) fn list<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) {
    let model = cx.model;
    let order = Arc::new(order(model));
    let names = Arc::new(Names::of(model));
    let bar = Arc::new(bar(model, &names));
    let bar_hash = hash_of(serde_json::to_string(&*bar).unwrap_or_default());
    let pager = Pager::new(urls::RUNS, model.runs.len(), model.site.page_size);
    for n in 1..=pager.pages() {
        let path = pager.path(n);
        let range = pager.range(n);
        let entries: Vec<usize> = order[range.clone()].to_vec();
        // What an entry shows: the run's own file, the findings that cite
        // it (their list hashes: number, address, title), and those that
        // name a symptom it observed, with their states on its versions.
        let members = || {
            let mut m = vec![bar_hash, model.runs.len() as u64];
            for &r in &entries {
                let mut naming = Vec::new();
                for o in &model.observations[r] {
                    naming.extend(model.symptom_findings.get(o.symptom).into_iter().flatten());
                }
                let workload = model
                    .trends
                    .by_run
                    .get(r)
                    .and_then(|ws| ws.first())
                    .map(|&w| {
                        (
                            &model.trends.followed[w].slug,
                            &model.trends.followed[w].trend.title,
                            model.trends.by_run[r].len(),
                        )
                    });
                m.push(hash_of((
                    model.runs[r].content_hash,
                    cx.listing(&model.citations[r]),
                    cx.listing(&naming),
                    super::observed::run_key(model, r),
                    workload,
                )));
            }
            m
        };
        let key = cx.key(&path, &members);
        let bar = bar.clone();
        let names = names.clone();
        batch.later(key, TEMPLATE, path, range.len(), move || {
            let rows: Vec<Entry> = entries
                .iter()
                .map(|&r| entry(model, cx.prepared, r, &names))
                .collect();
            let pager = Pager::new(urls::RUNS, model.runs.len(), model.site.page_size);
            let (page, pagination) = list_page(
                model,
                &pager,
                n,
                "Runs",
                "The measurements behind the findings".into(),
                "runs",
            );
            Job {
                template: TEMPLATE,
                page,
                data: object([
                    ("runs", serde_json::to_value(rows).unwrap_or_default()),
                    ("total", model.runs.len().into()),
                    ("filters", serde_json::to_value(&*bar).unwrap_or_default()),
                    ("pagination", pagination),
                ]),
            }
        });
    }
}

/// Writes `runs/filters.json`: every run's entry in the index's order, as
/// rows of the fields `fields` names, for `static/runs.js`.
pub(super) fn write_data<O: Output>(
    model: &Model,
    prepared: &[Prepared],
    out: &O,
) -> Result<(), RenderError> {
    const FIELDS: [&str; 15] = [
        "path",
        "title",
        "date",
        "date_long",
        "setups",
        "model",
        "hardware",
        "figure",
        "flags",
        "shows",
        "absent",
        "cited",
        "measured",
        "tool",
        "workload",
    ];
    let names = Names::of(model);
    let bar = bar(model, &names);
    // Streamed a run at a time, each row serialized straight into the
    // file: ten thousand runs held as JSON values were the build's peak
    // of memory.
    out.write_with(urls::RUNS_DATA, |sink| -> Result<(), RenderError> {
        sink.put(b"{\"schema_version\":")?;
        sink.json(&SCHEMA_VERSION)?;
        sink.put(b",\"fields\":")?;
        sink.json(&FIELDS)?;
        sink.put(b",\"engines\":")?;
        sink.json(&bar.engines)?;
        sink.put(b",\"runs\":[")?;
        for (k, r) in order(model).into_iter().enumerate() {
            if k > 0 {
                sink.put(b",")?;
            }
            let e = entry(model, prepared, r, &names);
            let setups: Vec<[&str; 2]> = e
                .engines
                .iter()
                .flat_map(|m| {
                    let none = m.versions.is_empty().then_some("");
                    m.versions
                        .iter()
                        .map(|v| [m.id.as_str(), v.as_str()])
                        .chain(none.map(|v| [m.id.as_str(), v]))
                })
                .collect();
            let flags: Vec<[&str; 2]> =
                e.flags.iter().map(|f| [f.text.as_str(), f.check]).collect();
            let measured = e
                .engines
                .iter()
                .map(|m| {
                    if m.versions.is_empty() {
                        m.name.clone()
                    } else {
                        format!("{} {}", m.name, m.versions.join(", "))
                    }
                })
                .collect::<Vec<_>>()
                .join("; ");
            sink.json(&(
                &e.path,
                &e.title,
                &e.date,
                &e.date_long,
                setups,
                &e.model,
                &e.hardware,
                &e.figure,
                flags,
                refs(&e.shows),
                refs(&e.absent),
                refs(&e.cited),
                measured,
                &e.tool,
                e.workload.as_ref().map(|w| (&w.title, &w.path, w.more)),
            ))?;
        }
        Ok(sink.put(b"]}")?)
    })
}

/// An engine's name as site.yaml spells it; its id where site.yaml has no
/// such engine.
fn engine_name(model: &Model, id: &str) -> String {
    model
        .site
        .engines
        .iter()
        .find(|e| e.id == id)
        .map_or_else(|| id.to_string(), |e| e.name.clone())
}

/// A row's findings as `[label, url, title]` triples.
fn refs(v: &[FindingRef]) -> Vec<[&str; 3]> {
    v.iter()
        .map(|f| [f.label.as_str(), f.url.as_str(), f.title.as_str()])
        .collect()
}

/// The runs in the index's order: newest first, then by title, ignoring
/// case (then by id, so that the order never depends on the folder
/// listing).
fn order(model: &Model) -> Vec<usize> {
    let mut order: Vec<usize> = (0..model.runs.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (&model.runs[a], &model.runs[b]);
        rb.date
            .cmp(&ra.date)
            .then_with(|| ra.title.to_lowercase().cmp(&rb.title.to_lowercase()))
            .then_with(|| ra.title.cmp(&rb.title))
            .then_with(|| ra.id.cmp(&rb.id))
    });
    order
}

/// A finding as an entry names it.
fn finding_ref(model: &Model, prepared: &[Prepared], i: usize) -> FindingRef {
    let f = &model.findings[i];
    FindingRef {
        label: format!("F{}", f.id),
        url: urls::finding(&f.slug),
        title: prepared[i].card.title_text.clone(),
    }
}

/// The names the index and its filters show for the runs' models and
/// hardware: one name for each model and each piece of hardware, however
/// the runs' files spell it. A model is one where its key is
/// ([`crate::compare::model_key`]: `gpt-oss ?B MXFP4 MoE` of an early
/// llama-bench build and `gpt-oss 20B MXFP4 MoE` are one model of 20.91
/// billion parameters), hardware where [`crate::compare::hardware_key`]
/// is (`AMD Radeon 8060S Graphics` and `Radeon 8060S Graphics`); each is
/// named as most of its runs spell it (a tie: a name without `?`, then
/// the first in order).
#[derive(Default)]
struct Names {
    models: BTreeMap<String, String>,
    hardware: BTreeMap<String, String>,
}

impl Names {
    fn of(model: &Model) -> Names {
        // key -> spelling -> runs
        let mut models: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
        let mut hardware: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
        for run in &model.runs {
            if let Some(m) = run.model_name() {
                let params = run
                    .results
                    .iter()
                    .flat_map(|s| &s.rows)
                    .find_map(|r| r.num("model_params"));
                let key = crate::compare::model_key(&m, params);
                *models
                    .entry(key)
                    .or_default()
                    .entry(m.into_owned())
                    .or_default() += 1;
            }
            if let Some(h) = hardware_of(run) {
                let key = crate::compare::hardware_key(&h);
                *hardware.entry(key).or_default().entry(h).or_default() += 1;
            }
        }
        let canonical = |groups: BTreeMap<String, BTreeMap<String, usize>>| {
            let mut out = BTreeMap::new();
            for spellings in groups.into_values() {
                let best = spellings
                    .iter()
                    .max_by(|a, b| {
                        a.1.cmp(b.1)
                            .then(b.0.contains('?').cmp(&a.0.contains('?')))
                            .then(b.0.cmp(a.0))
                    })
                    .map(|(s, _)| s.clone())
                    .unwrap_or_default();
                for s in spellings.into_keys() {
                    out.insert(s, best.clone());
                }
            }
            out
        };
        Names {
            models: canonical(models),
            hardware: canonical(hardware),
        }
    }

    fn model(&self, run: &crate::record::Run) -> Option<String> {
        let m = run.model_name()?;
        Some(
            self.models
                .get(m.as_ref())
                .cloned()
                .unwrap_or_else(|| m.into_owned()),
        )
    }

    fn hardware(&self, run: &crate::record::Run) -> Option<String> {
        let h = hardware_of(run)?;
        Some(self.hardware.get(&h).cloned().unwrap_or(h))
    }
}

/// The hardware a run records, trimmed; `None` where it records none.
fn hardware_of(run: &crate::record::Run) -> Option<String> {
    run.hardware
        .as_deref()
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .map(str::to_string)
}

/// Run `r`'s entry; `names`: the one name of each model and hardware.
fn entry(model: &Model, prepared: &[Prepared], r: usize, names: &Names) -> Entry {
    let run = &model.runs[r];
    let (figure, flags) = headline::summary(run, &model.checks[r]);
    // The listed findings naming a symptom the run shows, or shows
    // absent, each once, by number.
    let mut shows: Vec<usize> = Vec::new();
    let mut absent: Vec<usize> = Vec::new();
    for o in &model.observations[r] {
        let into = match o.outcome {
            crate::symptoms::Outcome::Shown => &mut shows,
            crate::symptoms::Outcome::Absent => &mut absent,
            crate::symptoms::Outcome::CannotTell => continue,
        };
        for &i in model.symptom_findings.get(o.symptom).into_iter().flatten() {
            if model.listed[i] && !into.contains(&i) {
                into.push(i);
            }
        }
    }
    // Shown on one setup and absent on another: it shows it.
    absent.retain(|i| !shows.contains(i));
    shows.sort_unstable();
    absent.sort_unstable();
    let refs = |v: &[usize]| v.iter().map(|&i| finding_ref(model, prepared, i)).collect();
    Entry {
        id: run.id.clone(),
        title: run.shown_title().into_owned(),
        path: urls::run(&run.id),
        date: run.date.to_string(),
        date_long: run.date.long(),
        engines: measured(model, r),
        model: names.model(run),
        hardware: names.hardware(run),
        tool: tool_of(run),
        workload: workload_of(model, r),
        figure,
        flags,
        shows: refs(&shows),
        absent: refs(&absent),
        cited: refs(&model.citations[r]),
    }
}

/// The tool that measured a run: its `client`, else the tool its first
/// result file names.
fn tool_of(run: &crate::record::Run) -> Option<String> {
    run.client
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .or_else(|| {
            run.results
                .iter()
                .flat_map(|s| &s.rows)
                .find_map(|row| row.get("tool").map(str::to_string))
        })
}

/// Run `r`'s workload: the first the site follows, else the workload of
/// its first result row in a line.
fn workload_of(model: &Model, r: usize) -> Option<WorkloadRef> {
    let t = &model.trends;
    if let Some(&w) = t.by_run.get(r).and_then(|ws| ws.first()) {
        let f = &t.followed[w];
        return Some(WorkloadRef {
            title: f.trend.title.clone(),
            path: Some(urls::workload(&f.slug)),
            more: t.by_run[r].len() - 1,
        });
    }
    let run = &model.runs[r];
    let row = run.results.iter().flat_map(|s| &s.rows).next()?;
    let w = crate::compare::workload_of(row, crate::compare::hardware_of(run));
    let title = crate::compare::trend::title_of(&w);
    (title != "a workload").then_some(WorkloadRef {
        title,
        path: None,
        more: 0,
    })
}

/// Versions as parsed (for their order) and as their pages spell them.
type Versions = Vec<(Option<Version>, String)>;

/// The engines run `r`'s setups measured, in the order they first appear,
/// each under its display name (or the setup's free name) with its
/// versions as their pages spell them, ascending and each once.
fn measured(model: &Model, r: usize) -> Vec<Measured> {
    let run = &model.runs[r];
    let mut engines: Vec<(String, Versions)> = Vec::new();
    for s in &run.setups {
        let k = match engines.iter().position(|(e, _)| *e == s.engine) {
            Some(k) => k,
            None => {
                engines.push((s.engine.clone(), Vec::new()));
                engines.len() - 1
            }
        };
        if let Some(v) = s.version.as_deref() {
            let parsed = Version::parse(v).ok();
            let shown = parsed.as_ref().map_or_else(
                || v.to_string(),
                |p| model.version_page(&s.engine, p).to_string(),
            );
            let versions = &mut engines[k].1;
            // 0.30 and 0.30.0 are one version.
            if !versions.iter().any(|(p, w)| match (p, &parsed) {
                (Some(p), Some(q)) => p == q,
                _ => *w == shown,
            }) {
                versions.push((parsed, shown));
            }
        }
    }
    engines
        .into_iter()
        .map(|(id, mut versions)| {
            versions.sort_by(|a, b| a.0.cmp(&b.0));
            let name = engine_name(model, &id);
            Measured {
                id,
                name,
                versions: versions.into_iter().map(|(_, w)| w).collect(),
            }
        })
        .collect()
}

/// An engine of the filter bar, with its versions (those its runs
/// measured, ascending, as their pages spell them).
#[derive(Serialize)]
struct EngineChip {
    id: String,
    name: String,
    count: usize,
    versions: Vec<String>,
}

/// A model or a hardware of the filter bar.
#[derive(Serialize)]
struct Chip {
    value: String,
    count: usize,
}

/// What the filter bar offers, counted over every run.
#[derive(Serialize)]
struct Bar {
    engines: Vec<EngineChip>,
    models: Vec<Chip>,
    more_models: usize,
    hardware: Vec<Chip>,
    more_hardware: usize,
    tools: Vec<Chip>,
    more_tools: usize,
    /// Runs that record no hardware.
    no_hardware: usize,
    flagged: usize,
    data_url: String,
}

/// The filter bar: the engines (in site.yaml's order, then others by id),
/// the models and hardware (the most used first), and how many runs a
/// check flags.
fn bar(model: &Model, names: &Names) -> Bar {
    let mut engines: BTreeMap<String, (usize, Versions)> = BTreeMap::new();
    let mut models: BTreeMap<String, usize> = BTreeMap::new();
    let mut hardware: BTreeMap<String, usize> = BTreeMap::new();
    let mut tools: BTreeMap<String, usize> = BTreeMap::new();
    let (mut no_hardware, mut flagged) = (0, 0);
    for (r, run) in model.runs.iter().enumerate() {
        for m in measured(model, r) {
            let e = engines.entry(m.id).or_default();
            e.0 += 1;
            for v in m.versions {
                if !e.1.iter().any(|(_, w)| *w == v) {
                    e.1.push((Version::parse(&v).ok(), v));
                }
            }
        }
        if let Some(m) = names.model(run) {
            *models.entry(m).or_default() += 1;
        }
        if let Some(t) = tool_of(run) {
            *tools.entry(t).or_default() += 1;
        }
        match names.hardware(run) {
            Some(h) => *hardware.entry(h).or_default() += 1,
            None => no_hardware += 1,
        }
        if model.checks[r]
            .iter()
            .any(|o| o.verdict == crate::checks::Verdict::Flagged)
        {
            flagged += 1;
        }
    }
    let position = |id: &str| {
        model
            .site
            .engines
            .iter()
            .position(|e| e.id == id)
            .unwrap_or(usize::MAX)
    };
    let mut engine_chips: Vec<EngineChip> = engines
        .into_iter()
        .map(|(id, (count, mut versions))| {
            versions.sort_by(|a, b| a.0.cmp(&b.0));
            let name = engine_name(model, &id);
            EngineChip {
                id,
                name,
                count,
                versions: versions.into_iter().map(|(_, v)| v).collect(),
            }
        })
        .collect();
    engine_chips.sort_by(|a, b| position(&a.id).cmp(&position(&b.id)).then(a.id.cmp(&b.id)));
    let top = |counts: BTreeMap<String, usize>| -> (Vec<Chip>, usize) {
        let mut chips: Vec<Chip> = counts
            .into_iter()
            .map(|(value, count)| Chip { value, count })
            .collect();
        chips.sort_by(|a, b| b.count.cmp(&a.count).then(a.value.cmp(&b.value)));
        let more = chips.len().saturating_sub(MOST_CHIPS);
        chips.truncate(MOST_CHIPS);
        (chips, more)
    };
    let (models, more_models) = top(models);
    let (hardware, more_hardware) = top(hardware);
    let (tools, more_tools) = top(tools);
    Bar {
        engines: engine_chips,
        models,
        more_models,
        hardware,
        more_hardware,
        tools,
        more_tools,
        no_hardware,
        flagged,
        data_url: format!("{ROOT}{}", urls::RUNS_DATA),
    }
}
