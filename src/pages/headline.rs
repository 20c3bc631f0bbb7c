//! A run's headline figures: for each setup its result files measured, what
//! a reviewer reads first, as figures with their units: output and request
//! throughput, time to first token, inter-token latency (or time per output
//! token where a tool writes no ITL) and end-to-end latency at p50 and p99,
//! the requests completed and failed, the concurrency asked for and the
//! most requests the server ran, and the preemptions. Each figure links to
//! the file it came from.
//!
//! A setup of one result gets a figure each ([`Tile`]s); a setup of several
//! (a sweep, repeats) gets a table with a row per result. A figure of a
//! setup that a check flags is marked, and the flag is said once above
//! them in a few words ("ran ≤ 11 of 32"), linked to the check; where a
//! setup has both the client's output throughput and the server counter's,
//! its figure names each ("client 316 tok/s · server's counter 295.2
//! tok/s"), and one sentence says how they square: the tokens each counted and the window each divided
//! them by. Takes a run made of result files (its entries' `rows` and
//! facts) and the checks' verdicts on it; hands the run page its
//! `headline`, and the runs index each run's first figure and its flags
//! ([`summary`]).

use crate::checks::{Outcome, Verdict};
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
    /// The checks that flag it, for a line above its figures or table,
    /// each said once.
    flags: Vec<Flag>,
    /// For a setup of one result: the figures its flags are about, in
    /// words ("output throughput, request throughput and concurrency").
    flagged_figures: Option<String>,
    /// For a setup of one result with both the client's output throughput
    /// and the server counter's: the sentence that squares them, as HTML.
    reconcile_html: Option<String>,
}

/// A check's flag on a figure, in a few words ("ran ≤ 11 of 32"), with
/// the check's name (the run page's checks box has an anchor for each).
#[derive(Serialize, Clone, PartialEq)]
pub(super) struct Flag {
    pub(super) text: String,
    pub(super) check: &'static str,
}

/// One figure: what it is, its values (a percentile or a count each, or
/// one value), and the files they came from.
#[derive(Serialize)]
struct Tile {
    label: &'static str,
    values: Vec<Part>,
    from: Vec<Link>,
    /// Whether a check flags what it shows (said once, above the
    /// figures).
    marked: bool,
    /// The flag of its own check (a lost request's, on the requests).
    flags: Vec<Flag>,
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
/// `checks` are the checks' verdicts on the run: a figure of a setup one
/// flags carries the flag.
pub(super) fn of(run: &Run, checks: &[Outcome]) -> Vec<SetupFigures> {
    let mut out = Vec::new();
    for (i, setup) in run.setups.iter().enumerate() {
        let mine = results_of(run, i);
        if mine.is_empty() {
            continue;
        }
        let flagged = flagged(checks, i);
        let mut figures = SetupFigures {
            setup: setup.name(),
            tiles: Vec::new(),
            header: Vec::new(),
            rows_html: String::new(),
            results: mine.len(),
            flags: Vec::new(),
            flagged_figures: None,
            reconcile_html: None,
        };
        if let [(source, row)] = mine[..] {
            figures.tiles = tiles(run, source, row, &flagged);
            figures.flags = setup_flags(source, row, &flagged);
            let marked: Vec<String> = figures
                .tiles
                .iter()
                .filter(|t| t.marked)
                .map(|t| t.label.to_lowercase())
                .collect();
            figures.flagged_figures = match &marked[..] {
                [] => None,
                [one] => Some(one.clone()),
                [rest @ .., last] => Some(format!("{} and {last}", rest.join(", "))),
            };
            figures.reconcile_html = reconcile(run, source, row);
        } else {
            let (header, html) = table(run, &mine);
            figures.header = header;
            figures.rows_html = html;
            figures.flags = flagged
                .iter()
                .map(|c| Flag {
                    text: format!("flagged: {c}"),
                    check: c,
                })
                .collect();
        }
        out.push(figures);
    }
    out
}

/// The results of setup `i` of `run`, each with its entry.
fn results_of(run: &Run, i: usize) -> Vec<(&ResultSource, &ResultRow)> {
    run.results
        .iter()
        .filter(|s| s.setup == Some(i))
        .flat_map(|s| s.rows.iter().map(move |r| (s, r)))
        .collect()
}

/// The checks that flag setup `i`: those flagged about it, or about the
/// run as a whole. A chart's check (`rate-from-two-readings`) flags no
/// figure.
fn flagged(checks: &[Outcome], i: usize) -> Vec<&'static str> {
    checks
        .iter()
        .filter(|o| o.verdict == Verdict::Flagged)
        .filter(|o| o.setups.is_empty() || o.setups.contains(&i))
        .filter(|o| o.check != "rate-from-two-readings")
        .map(|o| o.check)
        .collect()
}

/// What a run's index entry shows of its figures: the first figure of its
/// first setup of one result ("Output throughput 316 tok/s", with the
/// setup's name when the run has several setups), and the flags of every
/// setup, each once, then those of checks that flag no figure: a run is
/// flagged when this has any.
pub(super) fn summary(run: &Run, checks: &[Outcome]) -> (Option<String>, Vec<Flag>) {
    let mut figure = None;
    let mut flags: Vec<Flag> = Vec::new();
    for (i, setup) in run.setups.iter().enumerate() {
        let mine = results_of(run, i);
        let flagged = flagged(checks, i);
        match mine[..] {
            [(source, row)] => {
                let tiles = tiles(run, source, row, &flagged);
                if figure.is_none() {
                    figure = tiles.first().map(|t| {
                        let values: Vec<String> = t
                            .values
                            .iter()
                            .map(|p| match p.name {
                                Some(n) => format!("{n} {}", p.value),
                                None => p.value.clone(),
                            })
                            .collect();
                        let of = if run.setups.len() > 1 {
                            format!(" ({})", setup.name())
                        } else {
                            String::new()
                        };
                        format!("{} {}{of}", t.label, values.join(" · "))
                    });
                }
                let own = tiles.into_iter().flat_map(|t| t.flags);
                for f in setup_flags(source, row, &flagged).into_iter().chain(own) {
                    if !flags.contains(&f) {
                        flags.push(f);
                    }
                }
            }
            _ => {
                if figure.is_none() {
                    figure = tests_figure(&mine);
                }
                for c in flagged {
                    let f = Flag {
                        text: format!("flagged: {c}"),
                        check: c,
                    };
                    if !flags.contains(&f) {
                        flags.push(f);
                    }
                }
            }
        }
    }
    // A check that flags no figure (a chart's) still flags the run.
    for o in checks.iter().filter(|o| o.verdict == Verdict::Flagged) {
        if !flags.iter().any(|f| f.check == o.check) {
            flags.push(Flag {
                text: format!("flagged: {}", o.check),
                check: o.check,
            });
        }
    }
    (figure, flags)
}

/// A setup of several results of a tool's own tests (llama-bench), as
/// the runs index shows its figure: each test and its figure, "pp512
/// 1,578 tok/s ± 12.64 · tg128 78.94 tok/s ± 0.01"; `None` where a
/// result has no test or no tokens a second.
fn tests_figure(mine: &[(&ResultSource, &ResultRow)]) -> Option<String> {
    let parts: Option<Vec<String>> = mine
        .iter()
        .map(|(_, r)| {
            let test = r.get("test")?;
            let v = figures::with_unit(r.num("tokens_per_s")?, Some("tok/s"));
            Some(match r.num("tokens_per_s_std") {
                Some(sd) => format!("{test} {v} ± {}", figures::number(sd)),
                None => format!("{test} {v}"),
            })
        })
        .collect();
    parts.filter(|p| !p.is_empty()).map(|p| p.join(" · "))
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

/// A number of the result: its row's cell, else its entry's fact.
fn figure_of(source: &ResultSource, row: &ResultRow, name: &str) -> Option<f64> {
    row.num(name)
        .or_else(|| source.facts_named(name).find_map(|f| f.number))
        .filter(|x| x.is_finite())
}

/// The flag of check `check` on a result, in a few words from its own
/// figures: "ran ≤ 11 of 32", "lost 2 of 32".
fn flag_words(check: &'static str, source: &ResultSource, row: &ResultRow) -> Flag {
    let n = figures::number;
    let text = match check {
        "concurrency-achieved" => {
            let asked = figure_of(source, row, "max_concurrency");
            let limit = figure_of(source, row, "running_limit");
            let ran = figure_of(source, row, "max_streaming")
                .or_else(|| figure_of(source, row, "max_running"));
            match (asked, limit, ran) {
                (Some(a), Some(l), _) if l < a => format!("limit {} of {}", n(l), n(a)),
                (Some(a), _, Some(r)) if r < a => format!("ran ≤ {} of {}", n(r), n(a)),
                _ => "fewer at once than asked".to_string(),
            }
        }
        "no-lost-requests" => {
            let done = figure_of(source, row, "completed");
            let failed = figure_of(source, row, "failed");
            let sent = figure_of(source, row, "num_prompts").or_else(|| Some(done? + failed?));
            match (sent, done, failed) {
                (Some(s), _, Some(f)) if f > 0.0 => format!("lost {} of {}", n(f), n(s)),
                (Some(s), Some(d), _) if d < s => format!("lost {} of {}", n(s - d), n(s)),
                _ => "requests lost".to_string(),
            }
        }
        "preemptions-read" => "preemptions not recorded".to_string(),
        "kv-cache-recorded" => "KV cache not recorded".to_string(),
        "one-client" => "clients differ".to_string(),
        other => format!("flagged: {other}"),
    };
    Flag { text, check }
}

/// The checks whose flag stands once above a setup's figures, for every
/// figure measured under it ("ran ≤ 11 of 32"): all but a lost request's,
/// which its own figure (the requests) carries.
const OWN_TILE: &str = "no-lost-requests";

/// The flags said once above the figures of a setup of one result.
fn setup_flags(source: &ResultSource, row: &ResultRow, flagged: &[&'static str]) -> Vec<Flag> {
    flagged
        .iter()
        .filter(|c| **c != OWN_TILE)
        .map(|c| flag_words(c, source, row))
        .collect()
}

/// The figures of a setup of one result; `flagged`: the checks that flag
/// the setup. A measured figure is marked flagged (its border), and the
/// flags are said once, above the figures ([`setup_flags`]); the requests
/// carry the flag of their own check.
fn tiles(run: &Run, source: &ResultSource, row: &ResultRow, flagged: &[&'static str]) -> Vec<Tile> {
    let flags: Vec<Flag> = flagged.iter().map(|c| flag_words(c, source, row)).collect();
    let own =
        |check: &str| -> Vec<Flag> { flags.iter().filter(|f| f.check == check).cloned().collect() };
    let marked = flagged.iter().any(|c| *c != OWN_TILE);
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
                marked: m.label != "Requests" && marked,
                flags: if m.label == "Requests" {
                    own(OWN_TILE)
                } else {
                    Vec::new()
                },
            })
        })
        .collect();
    // The client's output throughput beside the server counter's, each
    // named for whose count it is, where both were read and differ.
    if let Some((server, f)) = server_throughput(source, row) {
        if let Some(t) = out.iter_mut().find(|t| t.label == "Output throughput") {
            if t.values.len() == 1 && t.values[0].value != server.value {
                t.values[0].name = Some("client");
                t.values.push(server);
                let l = link(run, &f.source);
                if !t.from.contains(&l) {
                    t.from.push(l);
                }
            }
        }
    }
    // The concurrency asked for, beside the client's own count of what it
    // kept in flight and what the server ran: whose count each is.
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
    if let Some(peak) = row.num("peak_concurrent_requests") {
        concurrency.push(Part {
            name: Some("the client's peak"),
            value: figures::number(peak),
            note_html: None,
        });
        if from.is_empty() {
            from.extend(from_row());
        }
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
            marked: !own("concurrency-achieved").is_empty(),
            flags: Vec::new(),
        });
    }
    if let Some((part, f)) = fact(source, "preemptions") {
        out.push(Tile {
            label: "Preemptions",
            values: vec![part],
            from: vec![link(run, &f.source)],
            marked: false,
            flags: Vec::new(),
        });
    }
    out
}

/// The server counter's output throughput of a result read from a
/// client's file, as a value named for whose it is.
fn server_throughput<'s>(source: &'s ResultSource, row: &ResultRow) -> Option<(Part, &'s RunFact)> {
    let f = source
        .facts_named("server_output_throughput")
        .find(|f| f.number.is_some_and(|x| x.is_finite() && x > 0.0))?;
    if row.get("source") == Some(f.source.as_str()) {
        return None;
    }
    Some((
        Part {
            name: Some("server's counter"),
            value: figures::with_unit(f.number?, Some("tok/s")),
            note_html: None,
        },
        f,
    ))
}

/// The columns of a setup of several results: (heading, column, unit).
const COLUMNS: &[(&str, &str)] = &[
    ("Output throughput (tok/s)", "output_throughput"),
    ("Request throughput (req/s)", "request_throughput"),
    ("Tokens/s", "tokens_per_s"),
    ("± (tok/s)", "tokens_per_s_std"),
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
    // A tool's own tests (llama-bench's pp512, tg128) name each row; such
    // a tool asks for no concurrency or rate, and no column says one.
    let tests = mine.iter().any(|(_, r)| r.get("test").is_some());
    let asked = !tests
        || mine
            .iter()
            .any(|(_, r)| r.get("max_concurrency").is_some() || r.get("request_rate").is_some());
    let mut header = Vec::new();
    if tests {
        header.push("Test".to_string());
    }
    if asked {
        header.push("Concurrency asked".to_string());
        header.push("Request rate (req/s)".to_string());
    }
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
        if tests {
            html.push_str("<th scope=\"row\">");
            html.push_str(&escape_html(row.get("test").unwrap_or("")));
            html.push_str("</th>");
        }
        if asked {
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
        }
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

/// Seconds as the tools print a run's duration, to the hundredth (101.25),
/// whole from 1,000 on.
fn seconds(x: f64) -> String {
    if x.abs() >= 1000.0 {
        return format!("{} s", figures::number(x.round()));
    }
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s} s")
}

/// Where a result has both the client's output throughput and the server
/// counter's: one sentence that squares them, as HTML, with the tokens
/// each counted and the window each divided them by (the client's own
/// duration, the time between the server's snapshots), each linked to its
/// file. Two figures of one run that differ by 7% are then read as what
/// they are: the same tokens over windows 7% apart.
fn reconcile(run: &Run, source: &ResultSource, row: &ResultRow) -> Option<String> {
    let positive = |x: f64| x.is_finite() && x > 0.0;
    let client = row.num("output_throughput").filter(|x| positive(*x))?;
    let tokens = row.num("output_tokens").filter(|x| positive(*x))?;
    let window = row
        .num("duration_s")
        .filter(|x| positive(*x))
        .unwrap_or(tokens / client);
    let number = |name: &'static str| {
        source
            .facts_named(name)
            .find_map(|f| f.number.filter(|x| positive(*x)).map(|x| (x, f)))
    };
    let (server, fact) = number("server_output_throughput")?;
    // A result read from the server's counters themselves (a folder
    // without a client's file) is that figure, not a second one.
    if row.get("source") == Some(fact.source.as_str()) {
        return None;
    }
    let (server_tokens, _) = number("server_output_tokens")?;
    let server_window = server_tokens / server;
    let file = |l: Link| {
        format!(
            "<a href=\"{}\">{}</a>",
            escape_html(&l.url),
            escape_html(&l.name)
        )
    };
    let client_file = row
        .get("source")
        .map(|p| format!(" ({})", file(link(run, p))))
        .unwrap_or_default();
    let server_file = format!(" ({})", file(link(run, &fact.source)));
    let tok = |x: f64| figures::with_unit(x, Some("tok/s"));
    let same = (tokens - server_tokens).abs() <= 0.005 * tokens.max(server_tokens);
    Some(if same {
        format!(
            "The client's {} and the server counter's {} are the same {} output tokens over two windows: the {} the client timed{client_file} and the {} between the server's snapshots before and after the run{server_file}.",
            tok(client),
            tok(server),
            figures::number(tokens),
            seconds(window),
            seconds(server_window),
        )
    } else {
        format!(
            "The client's {} are {} output tokens over the {} it timed{client_file}; the server counter's {} are {} tokens over the {} between its snapshots before and after the run{server_file}.",
            tok(client),
            figures::number(tokens),
            seconds(window),
            tok(server),
            figures::number(server_tokens),
            seconds(server_window),
        )
    })
}
