//! The charts an import gives a run, planned from the tables the loader
//! derived of its result files, none of them a chart of one bar:
//!
//! - output throughput and p99 time to first token against the setting
//!   the files sweep (the concurrency asked for, else the request rate);
//! - when nothing is swept, output throughput per setup (for two setups or
//!   more), and the percentile ladders of time to first token and of
//!   inter-token latency (or time per output token): each setup's median,
//!   p90 and p99 side by side, from the files' own percentiles;
//! - for llama-bench, tokens a second per test (`pp512`, `tg128`), each
//!   setup's bars side by side, where each setup has one row per test;
//! - the distribution of time to first token per setup, where the files
//!   keep each request (instead of its ladder);
//! - the requests the server ran, kept waiting and preempted over time,
//!   with the concurrency asked for marked, and the KV cache in use, where
//!   there is a series.
//!
//! Each chart is planned only of columns that have values in the rows it
//! plots (a line chart: rows with both its x and its y; a p99 that only
//! the files without a concurrency give is no point of a chart by
//! concurrency), and every chart planned is then read as `check` reads it
//! ([`crate::chart::check`]): one that could not be drawn (too many values,
//! say) is not planned. An import therefore never writes a default chart
//! that `check` refuses.
//!
//! Takes the run; hands back chart specs for `run.yaml`.

use crate::chart;
use crate::figures;
use crate::record::{ChartKind, ChartSpec, Mark, Run, Site, Table};
use std::collections::{BTreeMap, BTreeSet};

/// The default charts of `run`, each only where its table has the values
/// in the rows it plots, each one `check` can draw, and never a bar chart
/// of one bar.
pub(super) fn charts(run: &Run, site: &Site) -> Vec<ChartSpec> {
    let mut out = planned(run);
    let (colors, names) = engine_maps(site);
    out.retain(|spec| {
        run.tables
            .iter()
            .find(|t| t.file == spec.table)
            .is_some_and(|table| {
                chart::check(&chart::ChartInput {
                    spec,
                    table,
                    engine_colors: &colors,
                    engine_names: &names,
                })
                .is_ok()
            })
    });
    out
}

/// Whether `spec`, a chart of the run, can be drawn from the run's tables
/// as they are now (a chart kept from an earlier import may not be, when
/// the files added would make it draw too many values).
pub(super) fn drawable(run: &Run, site: &Site, spec: &ChartSpec) -> Result<(), String> {
    let Some(table) = run.tables.iter().find(|t| t.file == spec.table) else {
        // A chart of a table the run does not have: check says so.
        return Ok(());
    };
    let (colors, names) = engine_maps(site);
    chart::check(&chart::ChartInput {
        spec,
        table,
        engine_colors: &colors,
        engine_names: &names,
    })
    .map_err(|e| e.message)
}

type Names = BTreeMap<String, String>;

fn engine_maps(site: &Site) -> (Names, Names) {
    let colors = site
        .engines
        .iter()
        .map(|e| (e.id.clone(), e.color.clone()))
        .collect();
    let names = site
        .engines
        .iter()
        .map(|e| (e.id.clone(), e.name.clone()))
        .collect();
    (colors, names)
}

/// The charts the tables call for, before they are read as `check` reads
/// them.
fn planned(run: &Run) -> Vec<ChartSpec> {
    let mut out = Vec::new();
    let requests = derived(run, "requests").filter(|t| has_values(t, "ttft_ms"));
    if let Some(t) = derived(run, "results") {
        let sweep = swept(t);
        // The throughput, where the rows the chart plots give it.
        let y = ["output_throughput", "tokens_per_s"]
            .into_iter()
            .find(|c| match sweep {
                Some(x) => plotted(t, x, c),
                None => has_values(t, c),
            });
        match (sweep, y) {
            (Some(x), Some(y)) => {
                let over = setting_words(x);
                out.push(chart(
                    "output-throughput",
                    &format!("Output throughput by {over}"),
                    t,
                    ChartKind::Line,
                    x,
                    &[y],
                    Some("setup"),
                ));
                if plotted(t, x, "ttft_ms_p99") {
                    out.push(chart(
                        "ttft-p99",
                        &format!("p99 time to first token by {over}"),
                        t,
                        ChartKind::Line,
                        x,
                        &["ttft_ms_p99"],
                        Some("setup"),
                    ));
                }
            }
            (None, y) if one_row_per_setup(t) => {
                // Several setups side by side; one setup alone has nothing
                // to stand beside, so no bar of its throughput.
                if let Some(y) = y.filter(|_| t.rows.len() > 1) {
                    out.push(chart(
                        "output-throughput",
                        "Output throughput per setup",
                        t,
                        ChartKind::Bar,
                        "setup",
                        &[y],
                        None,
                    ));
                }
                // The percentile ladders: from the files' own percentiles,
                // where no request is kept for a distribution.
                if requests.is_none() {
                    out.extend(ladder(
                        t,
                        "ttft-percentiles",
                        "Time to first token: median to p99",
                        "Time to first token (ms)",
                        &[&["ttft_ms_p50", "ttft_ms_p90", "ttft_ms_p99"]],
                    ));
                }
                out.extend(ladder(
                    t,
                    "itl-percentiles",
                    "Inter-token latency: median to p99",
                    "Inter-token latency (ms)",
                    &[&["itl_ms_p50", "itl_ms_p90", "itl_ms_p99"]],
                ));
                if !out.iter().any(|c| c.id == "itl-percentiles") {
                    out.extend(ladder(
                        t,
                        "tpot-percentiles",
                        "Time per output token: median to p99",
                        "Time per output token (ms)",
                        &[&["tpot_ms_p50", "tpot_ms_p90", "tpot_ms_p99"]],
                    ));
                }
            }
            _ => {}
        }
    }
    if let Some(t) = derived(run, "results").filter(|t| one_row_per_test(t)) {
        // llama-bench: its figure is tokens a second, one per test.
        let several = distinct(t, "setup").len() > 1;
        let mut c = chart(
            "tokens-per-test",
            "Tokens a second per test",
            t,
            if several {
                ChartKind::GroupedBar
            } else {
                ChartKind::Bar
            },
            "test",
            &["tokens_per_s"],
            several.then_some("setup"),
        );
        c.y_label = Some("Tokens a second (tok/s)".to_string());
        out.push(c);
    }
    if let Some(t) = requests {
        out.push(chart(
            "ttft-cdf",
            "Time to first token of each request",
            t,
            ChartKind::Cdf,
            "ttft_ms",
            &[],
            Some("setup"),
        ));
    }
    if let Some(t) = derived(run, "series").filter(|t| plotted(t, "t_s", "running")) {
        let y: Vec<&str> = ["running", "waiting", "preemptions"]
            .into_iter()
            .filter(|c| plotted(t, "t_s", c))
            .collect();
        let several = distinct(t, "setup").len() > 1;
        let preempted = y.contains(&"preemptions");
        let mut c = chart(
            "running-waiting",
            if preempted {
                // Preemptions are counted as preemptions (one request can
                // be preempted more than once), not as requests.
                "Requests the server ran and kept waiting, and its preemptions"
            } else {
                "Requests the server ran and kept waiting"
            },
            t,
            ChartKind::Line,
            "t_s",
            &y,
            several.then_some("setup"),
        );
        c.y_label = Some(
            if preempted {
                "Requests; preemptions"
            } else {
                "Requests"
            }
            .to_string(),
        );
        // The concurrency the client asked for, when the run asked for one.
        if let Some(results) = derived(run, "results") {
            let asked: BTreeSet<String> = distinct(results, "max_concurrency")
                .into_iter()
                .filter(|v| v.parse::<f64>().is_ok_and(f64::is_finite))
                .collect();
            if let [one] = asked.iter().collect::<Vec<_>>()[..] {
                if let Ok(y) = one.parse::<f64>() {
                    c.marks.push(Mark {
                        y,
                        label: format!("Concurrency asked for ({})", figures::number(y)),
                    });
                }
            }
        }
        out.push(c);
    }
    if let Some(t) = derived(run, "series").filter(|t| plotted(t, "t_s", "kv_usage")) {
        let several = distinct(t, "setup").len() > 1;
        out.push(chart(
            "kv-cache",
            "KV cache in use over the run",
            t,
            ChartKind::Line,
            "t_s",
            &["kv_usage"],
            several.then_some("setup"),
        ));
    }
    out
}

/// A percentile ladder: the median, p90 and p99 of one latency side by
/// side for each setup (the first of `choices` that the table has two or
/// more of), or nothing where it would be one bar.
fn ladder(
    t: &Table,
    id: &str,
    title: &str,
    y_label: &str,
    choices: &[&[&str]],
) -> Option<ChartSpec> {
    choices.iter().find_map(|cols| {
        let y: Vec<&str> = cols.iter().copied().filter(|c| has_values(t, c)).collect();
        (y.len() >= 2).then(|| {
            let mut c = chart(id, title, t, ChartKind::Bar, "setup", &y, None);
            c.y_label = Some(y_label.to_string());
            c
        })
    })
}

fn derived<'r>(run: &'r Run, kind: &str) -> Option<&'r Table> {
    run.tables
        .iter()
        .find(|t| t.derived.as_deref() == Some(kind))
        .filter(|t| !t.rows.is_empty())
}

fn chart(
    id: &str,
    title: &str,
    t: &Table,
    kind: ChartKind,
    x: &str,
    y: &[&str],
    series: Option<&str>,
) -> ChartSpec {
    ChartSpec {
        id: id.to_string(),
        title: title.to_string(),
        table: t.file.clone(),
        kind,
        x: x.to_string(),
        y: y.iter().map(|s| s.to_string()).collect(),
        series: series.map(str::to_string),
        x_label: None,
        y_label: None,
        log_x: false,
        log_y: false,
        caption: None,
        marks: Vec::new(),
        path_in_yaml: String::new(),
    }
}

/// The values of column `name`, each once, in row order.
fn distinct(t: &Table, name: &str) -> Vec<String> {
    let Some(i) = t.index(name) else {
        return Vec::new();
    };
    let mut seen = BTreeSet::new();
    t.rows
        .iter()
        .filter_map(|r| r.get(i))
        .filter(|v| !v.is_empty() && seen.insert(v.to_string()))
        .cloned()
        .collect()
}

/// A cell a chart can place: a finite number (not empty, not `inf`).
fn finite(v: Option<&String>) -> bool {
    v.is_some_and(|v| v.trim().parse::<f64>().is_ok_and(f64::is_finite))
}

/// Whether column `name` has a value a chart can place in some row.
fn has_values(t: &Table, name: &str) -> bool {
    t.index(name)
        .is_some_and(|i| t.rows.iter().any(|r| finite(r.get(i))))
}

/// Whether some row has both `x` and `y`: a point of a chart of `y`
/// against `x` (rows with only one of them are no point).
fn plotted(t: &Table, x: &str, y: &str) -> bool {
    let (Some(ix), Some(iy)) = (t.index(x), t.index(y)) else {
        return false;
    };
    t.rows
        .iter()
        .any(|r| finite(r.get(ix)) && finite(r.get(iy)))
}

/// The setting the files sweep: the concurrency asked for when some setup
/// has results at two or more, else the request rate likewise (values
/// no axis can place, such as `inf`, do not count).
fn swept(t: &Table) -> Option<&'static str> {
    let s = t.index("setup")?;
    ["max_concurrency", "request_rate"].into_iter().find(|col| {
        let Some(i) = t.index(col) else { return false };
        let mut per: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
        for r in &t.rows {
            let v = r.get(i).map(String::as_str).unwrap_or("");
            if v.parse::<f64>().is_ok_and(f64::is_finite) {
                per.entry(r[s].as_str()).or_default().insert(v.to_string());
            }
        }
        per.values().any(|v| v.len() >= 2)
    })
}

/// Whether each setup of `t` has one row per llama-bench test, each with
/// its tokens a second: what a chart of them per test draws (a sweep of
/// settings has several rows of a test, none of which is the bar).
fn one_row_per_test(t: &Table) -> bool {
    let (Some(s), Some(k), Some(y)) = (t.index("setup"), t.index("test"), t.index("tokens_per_s"))
    else {
        return false;
    };
    let mut seen = BTreeSet::new();
    t.rows.iter().all(|r| {
        finite(r.get(y))
            && r.get(k).is_some_and(|x| !x.is_empty())
            && seen.insert((r[s].as_str(), r[k].as_str()))
    })
}

fn one_row_per_setup(t: &Table) -> bool {
    t.index("setup").is_some_and(|s| {
        let setups: BTreeSet<&str> = t.rows.iter().map(|r| r[s].as_str()).collect();
        setups.len() == t.rows.len()
    })
}

fn setting_words(col: &str) -> &'static str {
    if col == "max_concurrency" {
        "concurrency asked for"
    } else {
        "request rate asked for"
    }
}
