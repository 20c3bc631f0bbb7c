//! The workloads followed across versions: a page per workload
//! (`/workloads/<slug>/`) and their index (`/workloads/`).
//!
//! A workload's page leads with its verdict (its changes between versions
//! in the one summary every view uses: worse or better beyond noise,
//! within noise, untested, the same, not comparable, each counted apart),
//! says what makes it a workload, then for each headline metric draws a
//! chart against engine version (one line per series, an engine on its
//! hardware; each point linked to its run, its spread a whisker, a point
//! whose run a check flags hollow) and, under it, a table of every point
//! with its flags and the change from the version before with its band;
//! a regression no finding cites says so and offers the command that
//! starts one. Its points are also a CSV beside it (written by
//! `outputs::workloads`). The engine, version and home pages show the
//! changes through [`change_view`].
//!
//! Takes the model's trends ([`crate::model::Trends`]); hands the batch
//! the pages, each keyed by what it shows.

use super::batch::{Batch, Job};
use super::view::{object, page};
use super::Ctx;
use crate::chart::{self, TrendChart, TrendPoint, TrendSeries};
use crate::compare::trend::{Kind, MetricTrend, Point};
use crate::figures::Together;
use crate::markdown;
use crate::model::{ChangeRef, Followed, Model};
use crate::urls::{self, ROOT};
use crate::util::hash_of;
use serde_json::{json, Value};

/// A workload page's template.
const TEMPLATE: &str = "workload.html";
/// The index's template.
const INDEX: &str = "workloads.html";

/// Lists every workload's page, and the index.
pub(super) fn list<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) {
    let model = cx.model;
    let trends = &model.trends;
    if trends.followed.is_empty() {
        return;
    }
    for (w, f) in trends.followed.iter().enumerate() {
        let path = urls::workload(&f.slug);
        let members = move || key_of(cx, w);
        batch.lazy(cx.key(&path, &members), TEMPLATE, path.clone(), move || {
            workload_page(model, w, path)
        });
    }
    let members = || {
        trends
            .followed
            .iter()
            .map(|f| hash_of(format!("{:?}", (&f.slug, &f.trend))))
            .collect()
    };
    batch.lazy(
        cx.key(urls::WORKLOADS, &members),
        INDEX,
        urls::WORKLOADS.into(),
        move || index_page(model),
    );
}

/// What workload `w`'s page is made of: its trend (versions as spelled,
/// values, flags), its runs' files (titles, dates), and the findings its
/// changes cite (their list hashes).
pub(super) fn key_of(cx: &Ctx<'_>, w: usize) -> Vec<u64> {
    let model = cx.model;
    let f = &model.trends.followed[w];
    let mut m = vec![hash_of(format!("{:?}", (&f.slug, &f.trend, &f.cited)))];
    for r in f.runs(&model.trends) {
        m.push(model.runs[r].content_hash);
    }
    let cited: Vec<usize> = f.cited.iter().flatten().flatten().copied().collect();
    m.extend(cx.listing(&cited));
    m
}

/// A change as the engine, version and home pages list it: the workload,
/// the metric and series, the versions, the change in words, its kind,
/// the findings that cite it, and for a regression none cites, the
/// command that starts one.
pub(super) fn change_view(model: &Model, c: ChangeRef) -> Value {
    let t = &model.trends;
    let f = &t.followed[c.0];
    let mt = &f.trend.metrics[c.1];
    let ch = &mt.changes[c.2];
    let series = &f.trend.series[ch.series];
    let cited: Vec<Value> = f.cited[c.1][c.2]
        .iter()
        .map(|&i| {
            let finding = &model.findings[i];
            json!({
                "label": format!("F{}", finding.id),
                "url": format!("{ROOT}{}", urls::finding(&finding.slug)),
                "title_html": markdown::render_inline(&finding.title),
            })
        })
        .collect();
    let unit = mt.metric.unit.as_deref();
    let at = Together::of([ch.before.mean, ch.after.mean], unit);
    let command =
        (ch.kind() == Kind::Regression && cited.is_empty()).then(|| t.new_finding_command(c));
    json!({
        "workload": f.trend.title,
        "url": format!("{ROOT}{}#{}", urls::workload(&f.slug), anchor(&mt.metric.name)),
        "metric": mt.metric.label,
        "series": series.name(),
        "engine": series.engine_name,
        "from": ch.from.as_str(),
        "from_url": format!("{ROOT}{}", urls::version(&series.engine, model.version_page(&series.engine, &ch.from).as_str())),
        "to": ch.to.as_str(),
        "to_url": format!("{ROOT}{}", urls::version(&series.engine, model.version_page(&series.engine, &ch.to).as_str())),
        "values": format!("{} against {}", at.with_unit(ch.after.mean, unit), at.with_unit(ch.before.mean, unit)),
        "words": ch.words(),
        "kind": kind_key(ch.kind()),
        "kind_words": ch.kind().words(),
        "not_comparable": ch.not_comparable,
        "findings": cited,
        "command": command,
    })
}

/// A kind as a CSS class and a key: `regression`, `within`.
fn kind_key(k: Kind) -> &'static str {
    match k {
        Kind::Regression => "regression",
        Kind::Improvement => "improvement",
        Kind::Within => "within",
        Kind::Untested => "untested",
        Kind::Same => "same",
        Kind::NotComparable => "not-comparable",
    }
}

/// A metric's anchor on its workload's page.
fn anchor(metric: &str) -> String {
    format!("m-{}", metric.replace('_', "-"))
}

/// The verdict of a workload in words, as every view of it says it
/// ([`crate::compare::trend::verdict`]).
pub(super) fn verdict(f: &Followed) -> String {
    crate::compare::trend::verdict(&f.trend)
}

/// A point's value and noise: `1,577.96 tok/s`, `±12.64`; `605 tok/s`,
/// `600–610 (2)`; an accuracy score, `78.0%`, `95% interval 75.8–80.2`.
fn point_words(p: &Point, unit: Option<&str>, at: &Together) -> (String, String) {
    let v = at.with_unit(p.value, unit);
    let noise = match (p.n, p.std) {
        (1, Some(_)) if unit == Some(crate::figures::FRACTION) => format!(
            "95% interval {}–{}",
            at.number(p.low, unit),
            at.number(p.high, unit)
        ),
        (1, Some(s)) => format!("±{}", at.number(s, unit)),
        (1, None) => "1 measurement".to_string(),
        (n, _) => format!(
            "{}–{} ({n} measurements)",
            at.number(p.low, unit),
            at.number(p.high, unit)
        ),
    };
    (v, noise)
}

/// The chart of one metric of workload `f`.
fn chart_of(
    model: &Model,
    f: &Followed,
    mt: &MetricTrend,
    colors: &[String],
) -> chart::RenderedChart {
    let t = &model.trends;
    let mut versions: Vec<&crate::version::Version> =
        mt.points.iter().map(|p| &p.version).collect();
    versions.sort();
    versions.dedup();
    let at_version =
        |v: &crate::version::Version| versions.iter().position(|x| *x == v).unwrap_or(0);
    let unit = mt.metric.unit.as_deref();
    let together = Together::of(mt.points.iter().map(|p| p.value), unit);
    // A share is drawn in % of the questions, as its values are written.
    let share = crate::compare::in_points(&mt.metric);
    let k = if share { 100.0 } else { 1.0 };
    let series: Vec<TrendSeries> = f
        .trend
        .series
        .iter()
        .enumerate()
        .map(|(s, ser)| TrendSeries {
            name: ser.name(),
            color: colors[s].clone(),
            line: mt
                .line(s)
                .iter()
                .map(|(v, x)| (at_version(v), x.mean * k, x.min * k, x.max * k))
                .collect(),
        })
        .collect();
    let points: Vec<TrendPoint> = mt
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let run = &model.runs[t.run_of(p.source)];
            let (value, noise) = point_words(p, unit, &together);
            let engine = &f.trend.series[p.series].engine_name;
            // A single measurement has no noise to say (nor a whisker):
            // its label is its value and its run.
            let mut label = if p.n == 1 && p.std.is_none() {
                format!("{engine} {}: {value}, run {}", p.version, run.id)
            } else {
                format!("{engine} {}: {value}, {noise}, run {}", p.version, run.id)
            };
            if !p.flags.is_empty() {
                let marks: Vec<&str> = p.flags.iter().map(|f| f.mark.as_str()).collect();
                label.push_str(&format!(", flagged: {}", marks.join(", ")));
            }
            TrendPoint {
                series: p.series,
                version: at_version(&p.version),
                value: p.value * k,
                low: p.low * k,
                high: p.high * k,
                hollow: !p.flags.is_empty(),
                regression: crate::model::regression_into(mt, i).map(|ch| ch.change.shown()),
                href: format!("{ROOT}{}", urls::run(&run.id)),
                label,
            }
        })
        .collect();
    let first = mt.points.first();
    let last = mt.points.last();
    let summary = match (first, last) {
        (Some(a), Some(b)) => format!(
            "{} of {} by engine version, {} point{} from {} to {}: {} at {} to {} at {}.",
            mt.metric.label,
            f.trend.title,
            mt.points.len(),
            if mt.points.len() == 1 { "" } else { "s" },
            versions.first().map_or("", |v| v.as_str()),
            versions.last().map_or("", |v| v.as_str()),
            together.with_unit(a.value, unit),
            a.version,
            together.with_unit(b.value, unit),
            b.version
        ),
        _ => String::new(),
    };
    let y_title = match unit {
        Some(_) if share => format!("{} (%)", mt.metric.label),
        Some(u) => format!("{} ({u})", mt.metric.label),
        None => mt.metric.label.clone(),
    };
    chart::trend(&TrendChart {
        id: format!("trend-{}-{}", f.slug, anchor(&mt.metric.name)),
        title: format!("{}: {}", mt.metric.label, f.trend.title),
        y_title,
        versions: versions.iter().map(|v| v.to_string()).collect(),
        series,
        points,
        summary,
    })
}

/// The page of workload `w`.
fn workload_page(model: &Model, w: usize, path: String) -> Job {
    let t = &model.trends;
    let f = &t.followed[w];
    let engine_color = |id: &str| {
        model
            .site
            .engines
            .iter()
            .find(|e| e.id == id)
            .map(|e| e.color.as_str())
    };
    let colors = chart::series_colors(
        &f.trend
            .series
            .iter()
            .map(|s| engine_color(&s.engine))
            .collect::<Vec<_>>(),
    );
    let several = f.trend.series.len() > 1;
    let metrics: Vec<Value> = f
        .trend
        .metrics
        .iter()
        .enumerate()
        .map(|(m, mt)| {
            let unit = mt.metric.unit.as_deref();
            let together = Together::of(mt.points.iter().map(|p| p.value), unit);
            let drawn = chart_of(model, f, mt, &colors);
            let mut last: Option<(usize, &crate::version::Version)> = None;
            let mut rows: Vec<Value> = mt
                .points
                .iter()
                .map(|p| {
                    let run = &model.runs[t.run_of(p.source)];
                    let series = &f.trend.series[p.series];
                    let first = last != Some((p.series, &p.version));
                    last = Some((p.series, &p.version));
                    let change = mt
                        .changes
                        .iter()
                        .enumerate()
                        .find(|(_, c)| first && c.series == p.series && c.to == p.version)
                        .map(|(c, ch)| {
                            json!({
                                "words": ch.words(),
                                "kind": kind_key(ch.kind()),
                                "kind_words": ch.kind().words(),
                                "not_comparable": ch.not_comparable,
                                "flagged_from": ch.from_sources.iter().any(|&s| mt.points.iter().any(|q| q.source == s && !q.flags.is_empty())),
                                "index": c,
                            })
                        });
                    let (value, noise) = point_words(p, unit, &together);
                    json!({
                        "series": series.name(),
                        "color": colors[p.series],
                        "version": p.version.as_str(),
                        "version_url": format!("{ROOT}{}", urls::version(&series.engine, model.version_page(&series.engine, &p.version).as_str())),
                        "first": first,
                        "value": value,
                        "noise": noise,
                        "run": {"id": run.id, "title": run.shown_title(), "url": format!("{ROOT}{}", urls::run(&run.id)), "date": run.date.to_string()},
                        "flags": p.flags.iter().map(|fl| json!({"check": fl.check, "mark": fl.mark, "message": fl.message})).collect::<Vec<_>>(),
                        "change": change,
                    })
                })
                .collect();
            let points = rows.len();
            let folded = fold(&mut rows);
            let notes: Vec<Value> = mt
                .changes
                .iter()
                .enumerate()
                .filter(|(_, ch)| ch.kind() == Kind::Regression)
                .map(|(c, _)| change_view(model, (w, m, c)))
                .collect();
            let share = crate::compare::in_points(&mt.metric);
            json!({
                "id": anchor(&mt.metric.name),
                "label": mt.metric.label,
                "unit": if share { Some("%") } else { mt.metric.unit.as_deref() },
                "share": share,
                "better": if mt.metric.higher_is_better { "higher" } else { "lower" },
                "chart": {"svg": drawn.svg, "summary": drawn.summary},
                "rows": rows,
                "points": points,
                "folded": folded,
                "regressions": notes,
                "flagged": mt.points.iter().any(|p| !p.flags.is_empty()),
                "noisy": mt.points.iter().any(|p| p.high > p.low),
            })
        })
        .collect();
    let about: Vec<Value> = f
        .trend
        .workload
        .about()
        .into_iter()
        .map(|(part, value, how)| json!({"part": part, "value": value, "how": how}))
        .collect();
    let verdict = verdict(f);
    let title = f.trend.title.clone();
    Job {
        template: TEMPLATE,
        page: page(
            model,
            path,
            title.clone(),
            format!("{title} across engine versions: {verdict}"),
            "workload",
        ),
        data: object([
            ("title", title.into()),
            ("verdict", verdict.into()),
            ("about", about.into()),
            ("scored", f.trend.workload.score.is_some().into()),
            ("several", several.into()),
            (
                "series",
                f.trend
                    .series
                    .iter()
                    .zip(&colors)
                    .map(|(s, c)| json!({"name": s.name(), "color": c}))
                    .collect::<Vec<_>>()
                    .into(),
            ),
            ("metrics", metrics.into()),
            (
                "csv_url",
                format!("{ROOT}{}", urls::workload_csv(&f.slug)).into(),
            ),
            ("json_url", format!("{ROOT}{}", urls::WORKLOADS_JSON).into()),
            ("runs", f.runs(t).len().into()),
        ]),
    }
}

/// The most points a workload's table lists one by one; past it, the
/// page would outgrow its HTML budget (200 points of six metrics made
/// pages of 1 MB), so the table is folded ([`fold`]).
const ROWS_SHOWN: usize = 40;

/// Folds a table of more than [`ROWS_SHOWN`] points to the rows that say
/// something: the first point of each version of each series (its value,
/// and the change from the version before) and every point a check
/// flags; each kept first row counts the further points of its version
/// it stands for (`more`), which the CSV lists. Hands back whether it
/// folded.
fn fold(rows: &mut Vec<Value>) -> bool {
    if rows.len() <= ROWS_SHOWN {
        return false;
    }
    let mut kept: Vec<Value> = Vec::new();
    for row in rows.drain(..) {
        let first = row["first"].as_bool().unwrap_or(false);
        let flagged = row["flags"].as_array().is_some_and(|f| !f.is_empty());
        if first || flagged {
            kept.push(row);
        } else if let Some(head) = kept
            .iter_mut()
            .rev()
            .find(|k| k["first"].as_bool().unwrap_or(false))
        {
            let more = head["more"].as_u64().unwrap_or(0) + 1;
            head["more"] = more.into();
        }
    }
    *rows = kept;
    true
}

/// The index: every workload followed, with its series and verdict.
fn index_page(model: &Model) -> Job {
    let t = &model.trends;
    let rows: Vec<Value> = t
        .followed
        .iter()
        .map(|f| {
            let mut versions: Vec<&crate::version::Version> = f
                .trend
                .metrics
                .iter()
                .flat_map(|m| m.points.iter().map(|p| &p.version))
                .collect();
            versions.sort();
            versions.dedup();
            json!({
                "title": f.trend.title,
                "url": format!("{ROOT}{}", urls::workload(&f.slug)),
                "series": f.trend.series.iter().map(|s| s.name()).collect::<Vec<_>>(),
                "versions": versions.len(),
                "first": versions.first().map(|v| v.as_str()),
                "last": versions.last().map(|v| v.as_str()),
                "verdict": verdict(f),
            })
        })
        .collect();
    let count = rows.len();
    Job {
        template: INDEX,
        page: page(
            model,
            urls::WORKLOADS.into(),
            "Workloads across versions".into(),
            "Each workload the site's runs measured on two versions or more, its headline figures against engine version, and what changed.".into(),
            "workloads",
        ),
        data: object([
            ("workloads", rows.into()),
            ("count", count.into()),
            (
                "json_url",
                format!("{ROOT}{}", urls::WORKLOADS_JSON).into(),
            ),
        ]),
    }
}

/// What the pages that list changes read of them: each change (its
/// values, versions, flags), its workload's title and address, its
/// series, and the findings that cite it (their list hashes).
pub(super) fn changes_key(cx: &Ctx<'_>, refs: &[ChangeRef]) -> Vec<u64> {
    let t = &cx.model.trends;
    let mut out = Vec::with_capacity(refs.len() + 1);
    for &c in refs {
        let f = &t.followed[c.0];
        let mt = &f.trend.metrics[c.1];
        let ch = &mt.changes[c.2];
        out.push(hash_of(format!(
            "{:?}",
            (
                &f.slug,
                &f.trend.title,
                &mt.metric,
                ch,
                &f.trend.series[ch.series]
            )
        )));
        out.extend(cx.listing(&f.cited[c.1][c.2]));
    }
    out
}

/// The changes that end at version `j` of engine `e` (an index of
/// `site.yaml`'s engines) beyond noise: regressions and improvements, as
/// an engine page lists them.
pub(super) fn at_version(model: &Model, e: usize, j: usize) -> Vec<ChangeRef> {
    let t = &model.trends;
    t.at_version
        .get(e)
        .and_then(|v| v.get(j))
        .map(|cs| {
            cs.iter()
                .copied()
                .filter(|&c| matches!(t.change(c).kind(), Kind::Regression | Kind::Improvement))
                .collect()
        })
        .unwrap_or_default()
}

/// An engine page's section on its workloads: each followed workload it
/// was measured on, with its verdict, and the regressions and
/// improvements at its versions, the newest version first (at most
/// [`ENGINE_CHANGES`]).
pub(super) fn engine_view(model: &Model, e: usize) -> Option<Value> {
    let t = &model.trends;
    let ws = t.by_engine.get(e).filter(|w| !w.is_empty())?;
    let workloads: Vec<Value> = ws
        .iter()
        .map(|&w| {
            let f = &t.followed[w];
            json!({
                "title": f.trend.title,
                "url": format!("{ROOT}{}", urls::workload(&f.slug)),
                "verdict": verdict(f),
            })
        })
        .collect();
    let refs = engine_changes(model, e);
    Some(json!({
        "workloads": workloads,
        "changes": refs.iter().map(|&c| change_view(model, c)).collect::<Vec<_>>(),
    }))
}

/// The most changes an engine page lists; its workloads' pages have them
/// all.
pub(super) const ENGINE_CHANGES: usize = 10;

/// The regressions and improvements at engine `e`'s versions, the newest
/// version first, at most [`ENGINE_CHANGES`].
pub(super) fn engine_changes(model: &Model, e: usize) -> Vec<ChangeRef> {
    let t = &model.trends;
    let Some(versions) = t.at_version.get(e) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for j in (0..versions.len()).rev() {
        out.extend(at_version(model, e, j));
        if out.len() >= ENGINE_CHANGES {
            break;
        }
    }
    out.truncate(ENGINE_CHANGES);
    out
}
