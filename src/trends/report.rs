//! How `findings trends` says what it selected: the verdict first, in the
//! one summary every page uses (`compare::summary`: worse or better beyond
//! noise, within noise, untested with the largest named, the same, not
//! comparable, each counted apart), then each workload with its own
//! verdict, and each metric and series as a table of its versions (value
//! and spread, run and flags, the change from the version before with its
//! band of noise), and under a regression no finding cites, the command
//! that starts one. The formats: a terminal's table, Markdown, and GitHub
//! workflow commands.
//!
//! Takes the model and the selection; hands back text.

use crate::audit::report::command;
use crate::compare::trend::{changes_summary, Kind, MetricTrend, Point, TrendChange};
use crate::compare::Said;
use crate::figures::{self, Together};
use crate::model::{Model, Picked, Selection};
use crate::urls;
use std::fmt::Write as _;

/// The changes of `picked` as a summary names them, after their
/// workload's title where several are picked.
fn said<'m>(model: &'m Model, picked: &[Picked]) -> Vec<Said<'m>> {
    let titled = picked.len() > 1;
    let mut out = Vec::new();
    for p in picked {
        let t = &model.trends.followed[p.workload].trend;
        for (m, _, cs) in &p.metrics {
            let mt = &t.metrics[*m];
            out.extend(cs.iter().map(|&c| mt.changes[c].said(t, mt, titled)));
        }
    }
    out
}

/// The verdict in one sentence: the workloads, and their changes as the
/// one summary says them.
pub(super) fn verdict(model: &Model, picked: &[Picked], sel: &Selection) -> String {
    let mut scope = String::new();
    if let Some(e) = &sel.engine {
        let name = model
            .site
            .engines
            .iter()
            .find(|x| &x.id == e)
            .map_or(e.as_str(), |x| x.name.as_str());
        let _ = write!(scope, " of {name}");
    }
    if let Some(v) = &sel.since {
        let _ = write!(scope, " since {v}");
    }
    if picked.is_empty() {
        return format!(
            "No workload{scope} is followed across versions: a workload is followed once two versions of an engine (or two engines) measured it."
        );
    }
    let workloads = if picked.len() == 1 {
        "1 workload".to_string()
    } else {
        format!("{} workloads", picked.len())
    };
    let items = said(model, picked);
    if items.is_empty() {
        return format!(
            "{workloads}{scope}: no change between versions yet (each series has one version)."
        );
    }
    format!("{workloads}{scope}, {}.", changes_summary(&items))
}

/// The verdict of one picked workload, its changes alone.
fn workload_verdict(model: &Model, p: &Picked) -> String {
    let mut out = changes_summary(&said(model, std::slice::from_ref(p)));
    if let Some(first) = out.get(..1) {
        out = format!("{}{}", first.to_uppercase(), &out[1..]);
    }
    out.push('.');
    out
}

/// The rows of one series of a metric: (version, value, run with flags,
/// change), the change on the first row of its version.
fn rows(
    model: &Model,
    mt: &MetricTrend,
    points: &[&Point],
    changes: &[&TrendChange],
) -> Vec<[String; 4]> {
    let unit = mt.metric.unit.as_deref();
    // A score is shown with its interval's ends, not its spread.
    let ends = unit == Some(figures::FRACTION);
    let at = Together::of(
        points.iter().flat_map(|p| {
            if ends {
                [p.value, p.low, p.high]
            } else {
                [p.value, p.value - p.low, p.high - p.value]
            }
        }),
        unit,
    );
    let mut out = Vec::new();
    let mut last: Option<&crate::version::Version> = None;
    for p in points {
        let first = last != Some(&p.version);
        last = Some(&p.version);
        let run = &model.runs[model.trends.run_of(p.source)];
        let mut who = run.id.clone();
        if !p.flags.is_empty() {
            let marks: Vec<&str> = p.flags.iter().map(|f| f.mark.as_str()).collect();
            let _ = write!(who, " [flagged: {}]", marks.join(", "));
        }
        let change = if first {
            changes
                .iter()
                .find(|c| c.to == p.version)
                .map(|c| c.words())
                .unwrap_or_default()
        } else {
            String::new()
        };
        out.push([
            if first {
                p.version.to_string()
            } else {
                String::new()
            },
            value_words(p, unit, &at),
            who,
            change,
        ]);
    }
    out
}

/// A point's value and noise: `1,577.96 tok/s (±12.64)`, `605 tok/s
/// (600–610, 2 runs)`; an accuracy score with its 95% interval, `78.0%
/// (95% interval 75.8–80.2)`.
pub(super) fn value_words(p: &Point, unit: Option<&str>, at: &Together) -> String {
    let v = at.with_unit(p.value, unit);
    match (p.n, p.std) {
        (1, Some(_)) if unit == Some(figures::FRACTION) => format!(
            "{v} (95% interval {}–{})",
            at.number(p.low, unit),
            at.number(p.high, unit)
        ),
        (1, Some(s)) => format!("{v} (±{})", at.number(s, unit)),
        (1, None) => v,
        (n, _) => format!(
            "{v} ({}–{}, {n} measurements)",
            at.number(p.low, unit),
            at.number(p.high, unit)
        ),
    }
}

/// The points and changes of `picked` by metric and series: (metric
/// trend, series, its points, its changes).
type Part<'m> = (&'m MetricTrend, usize, Vec<&'m Point>, Vec<&'m TrendChange>);

fn parts<'m>(model: &'m Model, p: &Picked) -> Vec<(usize, Part<'m>)> {
    let f = &model.trends.followed[p.workload];
    let mut out = Vec::new();
    for (m, points, changes) in &p.metrics {
        let mt = &f.trend.metrics[*m];
        for s in 0..f.trend.series.len() {
            let ps: Vec<&Point> = points
                .iter()
                .map(|&i| &mt.points[i])
                .filter(|x| x.series == s)
                .collect();
            if ps.is_empty() {
                continue;
            }
            let cs: Vec<&TrendChange> = changes
                .iter()
                .map(|&i| &mt.changes[i])
                .filter(|x| x.series == s)
                .collect();
            out.push((*m, (mt, s, ps, cs)));
        }
    }
    out
}

/// The regressions of a series that no finding cites, with the command
/// that starts one; and those cited, with the findings.
fn citations(model: &Model, w: usize, m: usize, changes: &[&TrendChange]) -> Vec<String> {
    let f = &model.trends.followed[w];
    let mut out = Vec::new();
    for (c, ch) in f.trend.metrics[m].changes.iter().enumerate() {
        if ch.kind() != Kind::Regression || !changes.iter().any(|x| std::ptr::eq(*x, ch)) {
            continue;
        }
        let cited = &f.cited[m][c];
        if cited.is_empty() {
            out.push(format!(
                "{}: a regression no finding cites; start one: {}",
                ch.to,
                model.trends.new_finding_command((w, m, c))
            ));
        } else {
            let ids: Vec<String> = cited
                .iter()
                .map(|&i| format!("F{}", model.findings[i].id))
                .collect();
            out.push(format!(
                "{}: a regression cited by {}",
                ch.to,
                ids.join(", ")
            ));
        }
    }
    out
}

/// A table for a terminal.
pub(super) fn table(model: &Model, picked: &[Picked], sel: &Selection) -> String {
    let mut out = verdict(model, picked, sel);
    out.push('\n');
    for p in picked {
        let f = &model.trends.followed[p.workload];
        let _ = write!(
            out,
            "\n{}\n  {}{}\n  {}\n",
            f.trend.title,
            model.site.base_url,
            urls::workload(&f.slug),
            workload_verdict(model, p)
        );
        for (m, (mt, s, points, changes)) in parts(model, p) {
            let _ = writeln!(out, "  {} · {}", mt.metric.label, f.trend.series[s].name());
            let mut all = vec![[
                "version".to_string(),
                "value".to_string(),
                "run".to_string(),
                "change".to_string(),
            ]];
            all.extend(rows(model, mt, &points, &changes));
            let width = |k: usize| all.iter().map(|r| r[k].chars().count()).max().unwrap_or(0);
            let w = [width(0), width(1), width(2)];
            for r in &all {
                let line = format!(
                    "    {:<a$}  {:<b$}  {:<c$}  {}",
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    a = w[0],
                    b = w[1],
                    c = w[2]
                );
                let _ = writeln!(out, "{}", line.trim_end());
            }
            for line in citations(model, p.workload, m, &changes) {
                let _ = writeln!(out, "    {line}");
            }
        }
    }
    out
}

/// A Markdown cell: pipes escaped, no line breaks.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Markdown for a pull request or a job summary.
pub(super) fn markdown(model: &Model, picked: &[Picked], sel: &Selection) -> String {
    let mut out = format!("**{}**\n", cell(&verdict(model, picked, sel)));
    let base = &model.site.base_url;
    for p in picked {
        let f = &model.trends.followed[p.workload];
        let _ = write!(
            out,
            "\n### [{}]({base}{})\n\n{}\n",
            cell(&f.trend.title),
            urls::workload(&f.slug),
            cell(&workload_verdict(model, p))
        );
        for (m, (mt, s, points, changes)) in parts(model, p) {
            let _ = write!(
                out,
                "\n{} · {}\n\n| Version | Value | Run | Change |\n|---|--:|---|---|\n",
                cell(&mt.metric.label),
                cell(&f.trend.series[s].name())
            );
            for (r, pt) in rows(model, mt, &points, &changes).iter().zip(&points) {
                let run = &model.runs[model.trends.run_of(pt.source)];
                let link = format!("[{}]({base}{})", cell(&r[2]), urls::run(&run.id));
                let _ = writeln!(
                    out,
                    "| {} | {} | {link} | {} |",
                    cell(&r[0]),
                    cell(&r[1]),
                    cell(&r[3])
                );
            }
            let notes = citations(model, p.workload, m, &changes);
            if !notes.is_empty() {
                out.push('\n');
                for n in notes {
                    match n.split_once("start one: ") {
                        Some((said, cmd)) => {
                            let _ = writeln!(out, "- {}start one: `{cmd}`", cell(said));
                        }
                        None => {
                            let _ = writeln!(out, "- {}", cell(&n));
                        }
                    }
                }
            }
        }
    }
    out
}

/// GitHub Actions workflow commands: an error per regression (with the
/// command that starts a finding where none cites it), a notice per
/// improvement, then the verdict.
pub(super) fn github(model: &Model, picked: &[Picked], sel: &Selection) -> String {
    let mut out = String::new();
    for p in picked {
        let f = &model.trends.followed[p.workload];
        for (m, _, cs) in &p.metrics {
            let mt = &f.trend.metrics[*m];
            for &c in cs {
                let ch = &mt.changes[c];
                let (level, what) = match ch.kind() {
                    Kind::Regression => ("error", "Regression"),
                    Kind::Improvement => ("notice", "Improvement"),
                    _ => continue,
                };
                let unit = mt.metric.unit.as_deref();
                let at = Together::of([ch.before.mean, ch.after.mean], unit);
                let mut message = format!(
                    "{} {} {} on {} {} against {}: {} against {}, {}.\n{}{}",
                    mt.metric.label,
                    ch.change.shown(),
                    ch.change.direction.as_str(),
                    f.trend.series[ch.series].name(),
                    ch.to,
                    ch.from,
                    at.with_unit(ch.after.mean, unit),
                    at.with_unit(ch.before.mean, unit),
                    ch.change.noise.words(),
                    model.site.base_url,
                    urls::workload(&f.slug)
                );
                if ch.kind() == Kind::Regression {
                    let cited = &f.cited[*m][c];
                    if cited.is_empty() {
                        let _ = write!(
                            message,
                            "\nNo finding cites it; start one: {}",
                            model.trends.new_finding_command((p.workload, *m, c))
                        );
                    } else {
                        let ids: Vec<String> = cited
                            .iter()
                            .map(|&i| format!("F{}", model.findings[i].id))
                            .collect();
                        let _ = write!(message, "\nCited by {}", ids.join(", "));
                    }
                }
                let title = format!("{what}: {}", f.trend.title);
                command(&mut out, level, None, 0, &title, &message);
            }
        }
    }
    let _ = writeln!(out, "findings trends: {}", verdict(model, picked, sel));
    out
}
