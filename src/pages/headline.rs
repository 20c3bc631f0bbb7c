//! A run's headline figures: for each setup its result files measured, what
//! a reviewer reads first, as figures with their units: output and request
//! throughput, time to first token, inter-token latency (or time per output
//! token where a tool writes no ITL) and end-to-end latency at p50 and p99,
//! the requests completed and failed, the concurrency asked for and the
//! most requests the server ran, and the preemptions. Each figure links to
//! the file it came from.
//!
//! A setup of one result gets a figure each ([`Tile`]s); a setup of several
//! (a sweep, repeats) gets a table with a row per result. Takes a run made
//! of result files (its entries' `rows` and facts); hands the run page its
//! `headline`.

use crate::figures;
use crate::record::{ResultRow, ResultSource, Run, RunFact};
use crate::urls::{self, ROOT};
use crate::util::escape_html;
use serde::Serialize;

/// The figures of one setup.
#[derive(Serialize)]
pub(super) struct SetupFigures {
    /// The setup's name.
    setup: String,
    /// For a setup of one result: its figures.
    tiles: Vec<Tile>,
    /// For a setup of several: the headings and the rows, as HTML.
    header: Vec<String>,
    rows_html: String,
    /// How many results the setup has.
    results: usize,
}

/// One figure: what it is, its values (a percentile or a count each, or
/// one value), and the files they came from.
#[derive(Serialize)]
struct Tile {
    label: &'static str,
    values: Vec<Part>,
    from: Vec<Link>,
}

/// One value of a figure: `p99 73.45 s`.
#[derive(Serialize, Clone)]
struct Part {
    name: Option<&'static str>,
    value: String,
    /// Why it is unknown, or how it was read, as HTML.
    note_html: Option<String>,
}

#[derive(Serialize, PartialEq, Clone)]
struct Link {
    name: String,
    url: String,
}

/// A figure of a result row: its label, and the columns it shows (the
/// first group of columns with a value wins: ITL, else TPOT), each with the
/// name of the value.
struct Metric {
    label: &'static str,
    groups: &'static [&'static [(&'static str, Option<&'static str>)]],
}

/// The figures read from a result row, in the order they are shown.
const METRICS: &[Metric] = &[
    Metric {
        label: "Output throughput",
        groups: &[&[("output_throughput", None)]],
    },
    Metric {
        label: "Request throughput",
        groups: &[&[("request_throughput", None)]],
    },
    Metric {
        label: "Tokens a second",
        groups: &[&[("tokens_per_s", None), ("tokens_per_s_std", Some("±"))]],
    },
    Metric {
        label: "Time to first token",
        groups: &[&[("ttft_ms_p50", Some("p50")), ("ttft_ms_p99", Some("p99"))]],
    },
    Metric {
        label: "Inter-token latency",
        groups: &[&[("itl_ms_p50", Some("p50")), ("itl_ms_p99", Some("p99"))]],
    },
    Metric {
        label: "Time per output token",
        groups: &[&[("tpot_ms_p50", Some("p50")), ("tpot_ms_p99", Some("p99"))]],
    },
    Metric {
        label: "End-to-end latency",
        groups: &[&[("e2el_ms_p50", Some("p50")), ("e2el_ms_p99", Some("p99"))]],
    },
    Metric {
        label: "Requests",
        groups: &[&[("completed", Some("completed")), ("failed", Some("failed"))]],
    },
];

/// The units of the columns a headline reads (those of the vocabulary).
fn unit(column: &str) -> Option<&'static str> {
    match column {
        "output_throughput" | "tokens_per_s" | "tokens_per_s_std" => Some("tok/s"),
        "request_throughput" => Some("req/s"),
        "completed" | "failed" | "max_concurrency" => None,
        c if c.contains("_ms_") => Some("ms"),
        _ => None,
    }
}

/// The headline figures of `run`, one entry per setup its result files
/// measured, in the order of its setups; empty for a run typed by hand.
pub(super) fn of(run: &Run) -> Vec<SetupFigures> {
    let mut out = Vec::new();
    for (i, setup) in run.setups.iter().enumerate() {
        let mine: Vec<(&ResultSource, &ResultRow)> = run
            .results
            .iter()
            .filter(|s| s.setup == Some(i))
            .flat_map(|s| s.rows.iter().map(move |r| (s, r)))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let mut figures = SetupFigures {
            setup: setup.name(),
            tiles: Vec::new(),
            header: Vec::new(),
            rows_html: String::new(),
            results: mine.len(),
        };
        if let [(source, row)] = mine[..] {
            figures.tiles = tiles(run, source, row);
        } else {
            let (header, html) = table(run, &mine);
            figures.header = header;
            figures.rows_html = html;
        }
        out.push(figures);
    }
    out
}

/// The address of `path`, a file of run `run`'s folder.
fn link(run: &Run, path: &str) -> Link {
    Link {
        name: path.rsplit('/').next().unwrap_or(path).to_string(),
        url: format!("{ROOT}{}", urls::run_file(&run.id, path)),
    }
}

/// The values of `metric` in `row`: the first group of its columns that
/// has one.
fn values(metric: &Metric, row: &ResultRow) -> Vec<Part> {
    for group in metric.groups {
        let parts: Vec<Part> = group
            .iter()
            .filter_map(|&(col, name)| {
                let x = row.num(col)?;
                Some(Part {
                    name,
                    value: figures::with_unit(x, unit(col)),
                    note_html: None,
                })
            })
            .collect();
        if !parts.is_empty() {
            return parts;
        }
    }
    Vec::new()
}

/// The facts the server's own records give of the entry, as a value: the
/// most requests it ran, the preemptions during the run.
fn fact<'s>(source: &'s ResultSource, name: &str) -> Option<(Part, &'s RunFact)> {
    let f = source.facts.iter().find(|f| f.name == name)?;
    let value = match (f.number, &f.value) {
        (Some(n), _) => figures::number(n),
        (None, Some(v)) => v.clone(),
        (None, None) => "unknown".to_string(),
    };
    Some((
        Part {
            name: None,
            value,
            // How a known figure was read is on the run's "What the files
            // say"; an unknown one says why here.
            note_html: f
                .number
                .is_none()
                .then_some(f.note.as_deref())
                .flatten()
                .map(crate::markdown::render_inline),
        },
        f,
    ))
}

/// The figures of a setup of one result.
fn tiles(run: &Run, source: &ResultSource, row: &ResultRow) -> Vec<Tile> {
    let from_row = || {
        row.get("source")
            .map(|p| vec![link(run, p)])
            .unwrap_or_default()
    };
    let mut out: Vec<Tile> = METRICS
        .iter()
        .filter_map(|m| {
            let values = values(m, row);
            // Time per output token only where the file has no ITL.
            if m.label == "Time per output token"
                && (row.num("itl_ms_p50").is_some() || row.num("itl_ms_p99").is_some())
            {
                return None;
            }
            (!values.is_empty()).then(|| Tile {
                label: m.label,
                values,
                from: from_row(),
            })
        })
        .collect();
    // The concurrency asked for, beside what the server ran.
    let mut concurrency = Vec::new();
    let mut from = Vec::new();
    if let Some(asked) = row.num("max_concurrency") {
        concurrency.push(Part {
            name: Some("asked"),
            value: figures::number(asked),
            note_html: None,
        });
        from.extend(from_row());
    } else if row.get("request_rate").is_some() {
        concurrency.push(Part {
            name: Some("asked"),
            value: "unlimited".to_string(),
            note_html: None,
        });
        from.extend(from_row());
    }
    if let Some((mut part, f)) = fact(source, "max_running") {
        part.name = Some("most the server ran");
        concurrency.push(part);
        let l = link(run, &f.source);
        if !from.contains(&l) {
            from.push(l);
        }
    }
    if !concurrency.is_empty() {
        out.push(Tile {
            label: "Concurrency",
            values: concurrency,
            from,
        });
    }
    if let Some((part, f)) = fact(source, "preemptions") {
        out.push(Tile {
            label: "Preemptions",
            values: vec![part],
            from: vec![link(run, &f.source)],
        });
    }
    out
}

/// The columns of a setup of several results: (heading, column, unit).
const COLUMNS: &[(&str, &str)] = &[
    ("Output throughput (tok/s)", "output_throughput"),
    ("Request throughput (req/s)", "request_throughput"),
    ("Tokens/s", "tokens_per_s"),
    ("TTFT p50 (ms)", "ttft_ms_p50"),
    ("TTFT p99 (ms)", "ttft_ms_p99"),
    ("ITL p50 (ms)", "itl_ms_p50"),
    ("ITL p99 (ms)", "itl_ms_p99"),
    ("TPOT p50 (ms)", "tpot_ms_p50"),
    ("TPOT p99 (ms)", "tpot_ms_p99"),
    ("E2E p50 (ms)", "e2el_ms_p50"),
    ("E2E p99 (ms)", "e2el_ms_p99"),
    ("Completed", "completed"),
    ("Failed", "failed"),
];

/// A setup of several results as a table: the setting of each (the
/// concurrency and rate asked for), its figures, the server's own where
/// its entry has one result, and its file.
fn table(run: &Run, mine: &[(&ResultSource, &ResultRow)]) -> (Vec<String>, String) {
    let has = |col: &str| mine.iter().any(|(_, r)| r.num(col).is_some());
    let itl = has("itl_ms_p50") || has("itl_ms_p99");
    let cols: Vec<&(&str, &str)> = COLUMNS
        .iter()
        .filter(|(_, c)| has(c) && !(itl && c.starts_with("tpot")))
        .collect();
    let one_each = |s: &ResultSource| s.rows.len() == 1;
    let server = |name: &str| {
        mine.iter()
            .any(|(s, _)| one_each(s) && s.facts_named(name).next().is_some())
    };
    let (ran, preempted) = (server("max_running"), server("preemptions"));
    let mut header = vec![
        "Concurrency asked".to_string(),
        "Request rate (req/s)".to_string(),
    ];
    header.extend(cols.iter().map(|(h, _)| h.to_string()));
    if ran {
        header.push("Most the server ran".into());
    }
    if preempted {
        header.push("Preemptions".into());
    }
    header.push("File".into());
    let mut html = String::new();
    let cell = |html: &mut String, text: &str| {
        html.push_str("<td class=\"num\">");
        html.push_str(&escape_html(text));
        html.push_str("</td>");
    };
    for (s, row) in mine {
        html.push_str("<tr>");
        cell(
            &mut html,
            &row.num("max_concurrency")
                .map_or_else(|| "unlimited".to_string(), figures::number),
        );
        cell(
            &mut html,
            &row.num("request_rate")
                .map_or_else(String::new, figures::number),
        );
        for (_, c) in &cols {
            cell(
                &mut html,
                &row.num(c)
                    .map_or_else(String::new, |x| figures::cell(x, unit(c))),
            );
        }
        for (shown, name) in [(ran, "max_running"), (preempted, "preemptions")] {
            if shown {
                let v = if one_each(s) {
                    fact(s, name).map(|(p, _)| p.value).unwrap_or_default()
                } else {
                    String::new()
                };
                cell(&mut html, &v);
            }
        }
        html.push_str("<td>");
        if let Some(p) = row.get("source") {
            let l = link(run, p);
            html.push_str(&format!(
                "<a href=\"{}\">{}</a>",
                escape_html(&l.url),
                escape_html(&l.name)
            ));
        }
        html.push_str("</td></tr>");
    }
    (header, html)
}
