//! Trends across versions: the measurements of many setups (each a setup
//! of a run at one engine version) gathered into workloads, as
//! `workload.rs` decides which measurements are of one workload, and in
//! each workload one series per engine and place (hardware, backend:
//! other hardware is never one series), each point a setup's value of a
//! headline metric with its noise (its repeats' range, or the spread its
//! tool printed), and the changes between consecutive versions of a
//! series.
//!
//! A change is judged by the one rule comparisons use ([`super::judge`]):
//! better or worse by the metric; beyond noise only where it exceeds the
//! noise between runs the site knows of: a bound stated for it (the
//! command's `--threshold`, a rule of `site.yaml`), the spread of repeated
//! runs of one version of the series, and the series' own history (the
//! versions before, as Bencher's z-score test reads a branch's); untested
//! where none of these applies. A version's value is that of its points the
//! checks flag least: those no check flags, where it has some (a run that
//! lost requests is drawn apart, not averaged in). A change across points whose setups
//! differ beyond the engine version (another client, other launch flags,
//! where both record them) is not comparable: it is shown, never called
//! a regression.
//!
//! Linear in the measurements: workloads are found through a hash map of
//! their exact part, then among the few that share it.
//!
//! Takes [`Source`]s; hands back [`Trend`]s, which the model files by
//! engine, version and run, and pages and `findings trends` show.

pub use super::Kind;
use super::{
    judged, widest_repeats, Bound, Change, Evidence, Flag, Measurement, Metric, Spread, Workload,
};
use crate::record::{Run, Site};
use crate::version::Version;
use std::collections::HashMap;
use std::sync::Arc;

/// The metrics a trend follows, in this order: the headline figures of
/// the serving benchmarks and llama-bench's tokens a second.
pub const TREND_METRICS: &[&str] = &[
    "output_throughput",
    "request_throughput",
    "ttft_ms_p50",
    "ttft_ms_p99",
    "tpot_ms_p50",
    "tpot_ms_p99",
    "tokens_per_s",
];

/// The metrics of [`TREND_METRICS`], as the comparisons name them.
pub fn trend_metrics() -> Vec<Metric> {
    TREND_METRICS
        .iter()
        .filter_map(|n| super::result_metric(n))
        .collect()
}

/// One setup of one run at one engine version, as a trend reads it.
#[derive(Debug, Clone)]
pub struct Source {
    /// The engine's id.
    pub engine: String,
    /// Its name as the site spells it.
    pub engine_name: String,
    /// The version measured.
    pub version: Version,
    /// The run's id.
    pub run: String,
    /// The setup's name in its run.
    pub setup: String,
    /// The client that measured it (the run's, else its result files'
    /// tool), where recorded.
    pub client: Option<String>,
    /// The engine's launch flags, where recorded.
    pub flags: Option<String>,
    /// What the checks flag of the setup.
    pub marks: Vec<Flag>,
    /// Its measurements, of [`trend_metrics`] in their order.
    pub measurements: Vec<Measurement>,
}

/// A series: one engine in one place.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The engine's id.
    pub engine: String,
    /// Its name.
    pub engine_name: String,
    /// Where it ran, in words (`Radeon 8060S Graphics, Vulkan`); `None`
    /// where not recorded.
    pub place: Option<String>,
    /// Where it ran, as workloads match it ([`Workload::place`]).
    pub place_key: String,
}

impl Series {
    /// As a legend names it: `llama.cpp on Radeon 8060S Graphics, Vulkan`,
    /// `vLLM (hardware not recorded)`.
    pub fn name(&self) -> String {
        match &self.place {
            Some(p) => format!("{} on {p}", self.engine_name),
            None => format!("{} (hardware not recorded)", self.engine_name),
        }
    }
}

/// One point: a setup's value of one metric.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// Its series, an index into [`Trend::series`].
    pub series: usize,
    /// The version measured.
    pub version: Version,
    /// Its source, an index into the sources the trends were made of.
    pub source: usize,
    /// The mean of its measurements.
    pub value: f64,
    /// Its noise's low end: the lowest measurement (each less the spread
    /// its tool printed).
    pub low: f64,
    /// Its noise's high end.
    pub high: f64,
    /// How many measurements.
    pub n: usize,
    /// The spread its tool printed of a single measurement.
    pub std: Option<f64>,
    /// What the checks flag of its setup: drawn apart.
    pub flags: Vec<Flag>,
    /// What the change to its version from the version before is, where
    /// its value is of this point (a regression, an improvement, within
    /// noise…), for a chart to mark; `None` for a series' first version
    /// and for a point its version's value leaves out.
    pub change: Option<Kind>,
    /// Its measurements, each with the spread its tool printed.
    values: Vec<(f64, Option<f64>)>,
}

/// A change between two consecutive versions of one series.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendChange {
    /// Its series.
    pub series: usize,
    /// The earlier version.
    pub from: Version,
    /// The later one.
    pub to: Version,
    /// The earlier version's value (of its points the checks flag least).
    pub before: Spread,
    /// The later version's.
    pub after: Spread,
    /// The change, its direction and noise.
    pub change: Change,
    /// Why the setups cannot be compared, where they differ beyond the
    /// version (`another client: genai-perf against vllm bench serve`);
    /// `None` where they can.
    pub not_comparable: Option<String>,
    /// The sources of the points the earlier value is of.
    pub from_sources: Vec<usize>,
    /// The sources of the points the later value is of.
    pub to_sources: Vec<usize>,
}

impl TrendChange {
    /// Whether the setups can be compared.
    pub fn comparable(&self) -> bool {
        self.not_comparable.is_none()
    }

    /// What the change is, for a reader.
    pub fn kind(&self) -> Kind {
        if self.comparable() {
            self.change.kind()
        } else {
            Kind::NotComparable
        }
    }
}

/// One metric of a workload: its points in version order, and its changes.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricTrend {
    /// The metric.
    pub metric: Metric,
    /// Its points, by series, then version, then source.
    pub points: Vec<Point>,
    /// The changes between consecutive versions of each series, by series
    /// then version.
    pub changes: Vec<TrendChange>,
}

/// One workload across versions.
#[derive(Debug, Clone, PartialEq)]
pub struct Trend {
    /// What was measured (its first measurement, with the settings every
    /// measurement recorded).
    pub workload: Workload,
    /// Its title: the model, the test or lengths, the concurrency and
    /// rate (and the settings where two workloads' titles would be alike).
    pub title: String,
    /// Its series, in order of engine, then place.
    pub series: Vec<Series>,
    /// Each metric some point measured, in [`TREND_METRICS`]'s order.
    pub metrics: Vec<MetricTrend>,
    /// The sources that measured it, each once, ascending.
    pub sources: Vec<usize>,
}

impl Trend {
    /// Whether it sets something side by side: two versions of a series,
    /// or two series. A workload measured once has nothing to follow.
    pub fn followed(&self) -> bool {
        self.metrics.iter().any(|m| {
            let mut seen: Vec<(usize, &Version)> = Vec::new();
            for p in &m.points {
                if !seen.iter().any(|(s, v)| *s == p.series && *v == &p.version) {
                    seen.push((p.series, &p.version));
                }
                if seen.len() > 1 {
                    return true;
                }
            }
            false
        })
    }
}

/// The title of a workload: the model as its file names it, the test or
/// the lengths, and the concurrency and rate asked for.
pub fn title_of(w: &Workload) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(m) = &w.model {
        parts.push(m.clone());
    }
    if let Some(t) = &w.test {
        parts.push(t.clone());
    }
    if let Some(s) = &w.score {
        parts.extend(s.words());
    }
    let tokens = |[i, o]: [f64; 2]| {
        format!(
            "{} in, {} out",
            crate::figures::number(i.round()),
            crate::figures::number(o.round())
        )
    };
    match (w.requested, w.lengths) {
        ([Some(i), Some(o)], _) => parts.push(tokens([i, o])),
        (_, [Some(i), Some(o)]) => parts.push(tokens([i, o])),
        _ => {}
    }
    for (what, v) in &w.parts {
        match what.as_str() {
            "asked for" => parts.push(v.clone()),
            "rate" if v == "unlimited" => parts.push("rate unlimited".to_string()),
            "rate" => parts.push(v.clone()),
            _ => {}
        }
    }
    if parts.is_empty() {
        parts.push("a workload".to_string());
    }
    parts.join(" · ")
}

/// The sources of the trends of `runs` (sorted by id, as the model has
/// them): each setup of a run that result files measured, at a version
/// (that parses) of an engine of `site`, with what `marks(run, setup)`
/// says the checks flag of it and its version as `spell(engine, version)`
/// spells it (`engine` an index of `site.engines`); and for each source,
/// its (run, setup). A site whose runs hold no result rows pays one pass
/// over its runs.
pub fn sources(
    site: &Site,
    runs: &[Arc<Run>],
    marks: &dyn Fn(usize, usize) -> Vec<Flag>,
    spell: &dyn Fn(usize, Version) -> Version,
) -> (Vec<Source>, Vec<(usize, usize)>) {
    let metrics = trend_metrics();
    let engine_at: HashMap<&str, usize> = site
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.as_str(), i))
        .collect();
    let mut sources: Vec<Source> = Vec::new();
    let mut at: Vec<(usize, usize)> = Vec::new();
    for (r, run) in runs.iter().enumerate() {
        let scores = run
            .tables
            .iter()
            .find(|t| t.derived.as_deref() == Some("scores"));
        if scores.is_none() && run.results.iter().all(|s| s.rows.is_empty()) {
            continue;
        }
        let hardware = super::hardware_of(run);
        for (i, setup) in run.setups.iter().enumerate() {
            let Some(&e) = engine_at.get(setup.engine.as_str()) else {
                continue;
            };
            let Some(version) = setup
                .version
                .as_deref()
                .and_then(|v| Version::parse(v).ok())
            else {
                continue;
            };
            let mut measurements = Vec::new();
            let mut tool = None;
            for s in run.results.iter().filter(|s| s.setup == Some(i)) {
                for (row, context) in s.rows.iter().zip(super::contexts_of(s)) {
                    tool = tool.or_else(|| row.get("tool").map(str::to_string));
                    measurements.push(Measurement::of_row(
                        row,
                        format!("{}/{}", run.id, s.path),
                        context,
                        &metrics,
                        hardware,
                    ));
                }
            }
            if let Some(t) = scores {
                measurements.extend(score_measurements(run, t, i, metrics.len(), hardware));
            }
            if measurements.is_empty() {
                continue;
            }
            sources.push(Source {
                engine: setup.engine.clone(),
                engine_name: site.engines[e].name.clone(),
                version: spell(e, version),
                run: run.id.clone(),
                setup: setup.name(),
                client: run.client.clone().or(tool),
                flags: setup.flags.clone(),
                marks: marks(r, i),
                measurements,
            });
            at.push((r, i));
        }
    }
    (sources, at)
}

/// The bound of noise stated for a change of a series of engine `engine`
/// (an id), of the workload titled `title`, of metric `metric` (a name
/// of [`TREND_METRICS`]): a rule of `site.yaml`, or the command's.
pub type Bounds<'b> = dyn Fn(&str, &str, &str) -> Option<Bound> + 'b;

/// The trends of `sources`: every workload some source measured, each with
/// its series, points and changes, in order of title, each change judged
/// with the bound `bounds` states for it (see [`Bounds`]). Workloads
/// measured once are kept (see [`Trend::followed`]).
pub fn trends(sources: &[Source], bounds: &Bounds<'_>) -> Vec<Trend> {
    let mut metrics = trend_metrics();
    metrics.push(score_metric());
    // Each workload's representative, its members as (source,
    // measurement), and the workloads by exact part.
    let mut reps: Vec<Workload> = Vec::new();
    let mut members: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut by_key: HashMap<&str, Vec<usize>> = HashMap::new();
    for (s, src) in sources.iter().enumerate() {
        for (k, m) in src.measurements.iter().enumerate() {
            if m.values.iter().all(Option::is_none) {
                continue;
            }
            let found = by_key.get(m.workload.exact.as_str()).and_then(|ws| {
                ws.iter()
                    .copied()
                    .find(|&w| reps[w].same_measure(&m.workload))
            });
            let w = match found {
                Some(w) => {
                    // The settings every member recorded, so that a later
                    // member is held to them all.
                    for (key, v) in &m.workload.settings {
                        if !reps[w].settings.iter().any(|(k2, _)| k2 == key) {
                            reps[w].settings.push((key.clone(), v.clone()));
                            reps[w].settings.sort();
                        }
                    }
                    w
                }
                None => {
                    reps.push(m.workload.clone());
                    members.push(Vec::new());
                    by_key
                        .entry(m.workload.exact.as_str())
                        .or_default()
                        .push(reps.len() - 1);
                    reps.len() - 1
                }
            };
            members[w].push((s, k));
        }
    }
    let mut out: Vec<Trend> = reps
        .into_iter()
        .zip(members)
        .map(|(rep, members)| trend_of(rep, &members, sources, &metrics))
        .collect();
    // Titles alike (a sweep's points): the settings that differ between
    // them tell them apart, each by its name in words ("threads 8",
    // "batch size 512"); where none differs, every setting.
    let mut alike: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, t) in out.iter().enumerate() {
        alike.entry(t.title.clone()).or_default().push(i);
    }
    let mut titles: Vec<(usize, String)> = Vec::new();
    for members in alike.values().filter(|m| m.len() > 1) {
        let value = |i: usize, k: &str| {
            out[i]
                .workload
                .settings
                .iter()
                .find(|(k2, _)| k2 == k)
                .map(|(_, v)| v.as_str())
        };
        let mut keys: Vec<&str> = members
            .iter()
            .flat_map(|&i| out[i].workload.settings.iter().map(|(k, _)| k.as_str()))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let differ: Vec<&str> = keys
            .iter()
            .copied()
            .filter(|k| members.iter().any(|&i| value(i, k) != value(members[0], k)))
            .collect();
        for &i in members {
            let named: Vec<String> = out[i]
                .workload
                .settings
                .iter()
                .filter(|(k, _)| differ.is_empty() || differ.contains(&k.as_str()))
                .map(|(k, v)| format!("{} {v}", super::workload::setting_name(k)))
                .collect();
            if !named.is_empty() {
                titles.push((i, format!("{} · {}", out[i].title, named.join(", "))));
            }
        }
    }
    for (i, title) in titles {
        out[i].title = title;
    }
    out.sort_by(|a, b| {
        a.title
            .cmp(&b.title)
            .then_with(|| a.workload.exact.cmp(&b.workload.exact))
            .then_with(|| a.sources.cmp(&b.sources))
    });
    // The changes, once the titles a rule may name are final.
    for t in &mut out {
        judge_changes(t, sources, bounds);
    }
    out
}

/// Every change of `t` judged again by a bound of `pct` percent stated
/// on the command line (`findings trends --threshold`), the one test for
/// each, and each point's change kind with it.
pub fn restate(t: &mut Trend, pct: f64) {
    for mt in &mut t.metrics {
        let evidence = Evidence {
            bound: Some(Bound::Percent(pct, super::Stated::Command)),
            points: super::in_points(&mt.metric),
            ..Evidence::default()
        };
        for ch in &mut mt.changes {
            ch.change.noise = super::judge(&ch.before, &ch.after, ch.change.pct, &evidence);
        }
        mark_points(mt);
    }
}

/// Each point of `mt` marked with the kind of the change its value ends.
fn mark_points(mt: &mut MetricTrend) {
    for p in &mut mt.points {
        p.change = None;
    }
    for ch in &mt.changes {
        let kind = ch.kind();
        for p in mt.points.iter_mut().filter(|p| {
            p.series == ch.series && p.version == ch.to && ch.to_sources.contains(&p.source)
        }) {
            p.change = Some(kind);
        }
    }
}

/// The changes of every metric of `t`, each judged with the bound
/// `bounds` states for it, and each point's change kind.
pub fn judge_changes(t: &mut Trend, sources: &[Source], bounds: &Bounds<'_>) {
    for mt in &mut t.metrics {
        let series = &t.series;
        let bound = |s: usize| bounds(&series[s].engine, &t.title, &mt.metric.name);
        mt.changes = changes_of(&mt.points, sources, &mt.metric, &bound);
        mark_points(mt);
    }
}

/// The trend of one workload: its members as (source, measurement).
fn trend_of(
    mut rep: Workload,
    members: &[(usize, usize)],
    sources: &[Source],
    metrics: &[Metric],
) -> Trend {
    // A model named with its size class unknown (`?B`) gives way to a
    // member's that knows it.
    if rep.model.as_deref().is_some_and(|m| m.contains('?')) {
        if let Some(m) = members
            .iter()
            .filter_map(|&(s, k)| sources[s].measurements[k].workload.model.as_ref())
            .find(|m| !m.contains('?'))
        {
            rep.model = Some(m.clone());
        }
    }
    // The series: engine and place.
    let mut series: Vec<(String, String, Series)> = Vec::new();
    let mut series_of: Vec<usize> = Vec::with_capacity(members.len());
    for &(s, k) in members {
        let w = &sources[s].measurements[k].workload;
        let key = (sources[s].engine.clone(), w.place());
        let i = match series
            .iter()
            .position(|(e, p, _)| *e == key.0 && *p == key.1)
        {
            Some(i) => i,
            None => {
                series.push((
                    key.0,
                    key.1,
                    Series {
                        engine: sources[s].engine.clone(),
                        engine_name: sources[s].engine_name.clone(),
                        place: w.place_words(),
                        place_key: w.place(),
                    },
                ));
                series.len() - 1
            }
        };
        series_of.push(i);
    }
    let mut order: Vec<usize> = (0..series.len()).collect();
    order.sort_by(|&a, &b| (&series[a].0, &series[a].1).cmp(&(&series[b].0, &series[b].1)));
    let mut rank = vec![0; series.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let series_list: Vec<Series> = order.iter().map(|&i| series[i].2.clone()).collect();
    let mut used_sources: Vec<usize> = members.iter().map(|&(s, _)| s).collect();
    used_sources.sort_unstable();
    used_sources.dedup();
    let mut trends = Vec::new();
    // A workload of accuracy has the score alone; one of speed, every
    // metric but it (a site without accuracy runs does no more per
    // workload than before).
    let scored = rep.score.is_some();
    for (k, metric) in metrics.iter().enumerate() {
        if super::in_points(metric) != scored {
            continue;
        }
        // Each (series, source)'s measurements of this metric: a point.
        let mut points: Vec<Point> = Vec::new();
        // Whether every measurement of each point records that it lost
        // no request: a sweep's row that lost none is not flagged for
        // another row of its run that did.
        let mut whole: Vec<bool> = Vec::new();
        let mut at: HashMap<(usize, usize), usize> = HashMap::new();
        for (&(s, m), &ser) in members.iter().zip(&series_of) {
            let meas = &sources[s].measurements[m];
            let Some(v) = meas
                .values
                .get(k)
                .copied()
                .flatten()
                .filter(|v| v.is_finite())
            else {
                continue;
            };
            let spread = meas.spreads.get(k).copied().flatten();
            let i = *at.entry((rank[ser], s)).or_insert_with(|| {
                points.push(Point {
                    series: rank[ser],
                    version: sources[s].version.clone(),
                    source: s,
                    value: 0.0,
                    low: 0.0,
                    high: 0.0,
                    n: 0,
                    std: None,
                    flags: sources[s].marks.clone(),
                    change: None,
                    values: Vec::new(),
                });
                whole.push(true);
                points.len() - 1
            });
            points[i].values.push((v, spread));
            whole[i] &= meas.context.lost == Some(0.0);
        }
        for (p, whole) in points.iter_mut().zip(&whole) {
            if *whole {
                p.flags.retain(|f| f.check != "no-lost-requests");
            }
        }
        if points.is_empty() {
            continue;
        }
        let share = super::in_points(metric);
        for p in &mut points {
            if let Some(sp) = Spread::of(&p.values) {
                (p.value, p.low, p.high, p.n, p.std) = (sp.mean, sp.min, sp.max, sp.n, sp.std);
            }
            if share {
                // A share's interval stays a share.
                (p.low, p.high) = (p.low.max(0.0), p.high.min(1.0));
            }
        }
        let mut metric = metric.clone();
        if let Some(s) = &rep.score {
            metric.higher_is_better = s.higher_is_better;
        }
        // In a version, the points its value is of (those the checks
        // flag least) first: a table that writes the change on a
        // version's first row writes it beside one of them.
        points.sort_by(|a, b| {
            (a.series, &a.version, a.flags.len(), &sources[a.source].run).cmp(&(
                b.series,
                &b.version,
                b.flags.len(),
                &sources[b.source].run,
            ))
        });
        trends.push(MetricTrend {
            metric,
            points,
            changes: Vec::new(),
        });
    }
    Trend {
        title: title_of(&rep),
        workload: rep,
        series: series_list,
        metrics: trends,
        sources: used_sources,
    }
}

/// Each version's value of each series of `points` (sorted by series,
/// then version): (series, version, its value, the points it is of). A
/// version's value is of its points the checks flag least: those no
/// check flags, where there are some (a run that lost requests is not
/// averaged in with one that did not).
fn version_values(points: &[Point]) -> Vec<(usize, Version, Spread, Vec<usize>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < points.len() {
        let mut j = i;
        while j < points.len()
            && points[j].series == points[i].series
            && points[j].version == points[i].version
        {
            j += 1;
        }
        let group = &points[i..j];
        let least = group.iter().map(|p| p.flags.len()).min().unwrap_or(0);
        let used: Vec<&Point> = group.iter().filter(|p| p.flags.len() == least).collect();
        let values: Vec<(f64, Option<f64>)> =
            used.iter().flat_map(|p| p.values.iter().copied()).collect();
        if let Some(value) = Spread::of(&values) {
            let sources = used.iter().map(|p| p.source).collect();
            out.push((points[i].series, points[i].version.clone(), value, sources));
        }
        i = j;
    }
    out
}

impl MetricTrend {
    /// The line of series `s`: each version's value (of its points the
    /// checks flag least) with its noise, in version order, as its
    /// changes are judged.
    pub fn line(&self, s: usize) -> Vec<(Version, Spread)> {
        version_values(&self.points)
            .into_iter()
            .filter(|v| v.0 == s)
            .map(|v| (v.1, v.2))
            .collect()
    }
}

/// The changes between consecutive versions of each series of `points`
/// (sorted by series, then version), each judged against the noise
/// between runs the series shows: the bound stated for its series
/// (`bound`), the widest repeats of one of its versions, and the values of
/// the versions before it whose setups it can be compared with.
fn changes_of(
    points: &[Point],
    sources: &[Source],
    metric: &Metric,
    bound: &dyn Fn(usize) -> Option<Bound>,
) -> Vec<TrendChange> {
    let mut out = Vec::new();
    let values = version_values(points);
    let mut i = 0;
    while i < values.len() {
        // One series: values[i..j].
        let series = values[i].0;
        let mut j = i;
        while j < values.len() && values[j].0 == series {
            j += 1;
        }
        let line = &values[i..j];
        let repeats = if super::in_points(metric) {
            super::widest_repeats_in_points(line.iter().map(|v| &v.2))
        } else {
            widest_repeats(line.iter().map(|v| &v.2))
        };
        let stated = bound(series);
        let window = match stated {
            Some(Bound::Z { window, .. }) => window,
            _ => super::DEFAULT_WINDOW,
        };
        for k in 1..line.len() {
            let ((_, pv, before, from), (_, v, after, to)) = (&line[k - 1], &line[k]);
            // The versions before, the latest last, as many as the window
            // reads, of setups this one can be compared with.
            let mut history: Vec<f64> = line[..k]
                .iter()
                .rev()
                .filter(|h| differences(&h.3, to, sources).is_none())
                .take(window)
                .map(|h| h.2.mean)
                .collect();
            history.reverse();
            let evidence = Evidence {
                bound: stated,
                repeats,
                history: &history,
                points: super::in_points(metric),
            };
            if let Some(ch) = judged(before, after, metric, &evidence) {
                out.push(TrendChange {
                    series,
                    from: pv.clone(),
                    to: v.clone(),
                    before: *before,
                    after: *after,
                    change: ch,
                    not_comparable: differences(from, to, sources),
                    from_sources: from.clone(),
                    to_sources: to.clone(),
                });
            }
        }
        i = j;
    }
    out
}

/// How the setups of `a` and `b` differ beyond the engine version, where
/// all of them record it: the client, the launch flags. `None` where they
/// do not.
fn differences(a: &[usize], b: &[usize], sources: &[Source]) -> Option<String> {
    let mut why = Vec::new();
    let field = |what: &str, get: &dyn Fn(&Source) -> Option<&str>, why: &mut Vec<String>| {
        let mut seen: Vec<&str> = Vec::new();
        for &s in a.iter().chain(b) {
            if let Some(v) = get(&sources[s]).map(str::trim).filter(|v| !v.is_empty()) {
                if !seen.contains(&v) {
                    seen.push(v);
                }
            }
        }
        if seen.len() > 1 {
            why.push(format!("{what}: {}", seen.join(" against ")));
        }
    };
    field("another client", &|s| s.client.as_deref(), &mut why);
    field("other launch flags", &|s| s.flags.as_deref(), &mut why);
    (!why.is_empty()).then(|| why.join("; "))
}

mod said;
mod scores;
mod slug;
pub use said::{changes_summary, verdict, CHANGES};
use scores::score_measurements;
pub use scores::score_metric;
pub use slug::{slug_of, slugs};

#[cfg(test)]
mod tests;
