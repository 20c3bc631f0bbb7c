//! genai-perf's console table, read from its printing code
//! (`genai_perf/export_data/console_exporter.py` and `exporter_utils.py`):
//! a rich table titled `NVIDIA GenAI-Perf | LLM Metrics` (`LLM Metrics`
//! in 2024), a `Statistic` column and `avg`, `min`, `max`, `p99`, `p90`,
//! `p75`, one row per metric, in box characters (`┃ │ ━ ─`, or `|` and
//! `-` on a plain terminal). Values are written `1,234.56`; a figure it
//! lacks is `N/A` (throughputs have only `avg`), and was `-1.00` in 2024.
//!
//! The metric names were `Time to first token (ms)` (capitalised as a
//! sentence) and are now `Time To First Token (ms)` (title case); a name
//! longer than the column is wrapped over two lines, the values on the
//! first. Without streaming there are no time-to-first-token and
//! inter-token rows. The first versions printed the throughputs after the
//! table, `Output token throughput (per sec): 520.87`.
//!
//! genai-perf's inter-token latency is per request, after the first token:
//! TPOT, as its JSON export's is. The table names no model and no engine:
//! the command before it (`-m`) and `--engine`, `--version` fill them.

use super::context::{Context, Program};
use super::report::{starts_report, warning, Taken};
use super::text::{box_cells, label_value, number, Filling};
use super::vllm::from_command;
use crate::results::file::Out;
use crate::results::format::Format;
use crate::results::vocabulary::{From, Keys, ResultCol as R};

/// The cells of genai-perf's table, by row and column (`row / column`).
pub(super) static TABLE: Keys = Keys {
    tool: "genai-perf console table",
    results: &[
        (R::Tool, From::Derived("`genai-perf`")),
        (R::Model, From::Derived("the command before the table: `-m` or `--model`")),
        (R::MaxConcurrency, From::Derived("the command before the table: `--concurrency`")),
        (R::RequestRate, From::Derived("the command before the table: `--request-rate`")),
        (R::NumPrompts, From::Derived("the command before the table: `--request-count`")),
        (R::Completed, From::Key("Request Count (count) / avg|Request count / avg")),
        (R::RequestThroughput, From::Key("Request Throughput (per sec) / avg")),
        (R::RequestGoodput, From::Key("Request Goodput (per sec) / avg")),
        (R::OutputThroughput, From::Key("Output Token Throughput (tokens/sec) / avg|Output Token Throughput (per sec) / avg")),
        (R::OutputSpeedPerUser, From::Key("Output Token Throughput Per User (tokens/sec/user) / avg")),
        (R::TtftMsMean, From::Key("Time To First Token (ms) / avg")),
        (R::TtftMsP50, From::Key("Time To First Token (ms) / p50")),
        (R::TtftMsP90, From::Key("Time To First Token (ms) / p90")),
        (R::TtftMsP95, From::Key("Time To First Token (ms) / p95")),
        (R::TtftMsP99, From::Key("Time To First Token (ms) / p99")),
        (R::TpotMsMean, From::Key("Inter Token Latency (ms) / avg")),
        (R::TpotMsP50, From::Key("Inter Token Latency (ms) / p50")),
        (R::TpotMsP90, From::Key("Inter Token Latency (ms) / p90")),
        (R::TpotMsP95, From::Key("Inter Token Latency (ms) / p95")),
        (R::TpotMsP99, From::Key("Inter Token Latency (ms) / p99")),
        (R::E2elMsMean, From::Key("Request Latency (ms) / avg")),
        (R::E2elMsP50, From::Key("Request Latency (ms) / p50")),
        (R::E2elMsP90, From::Key("Request Latency (ms) / p90")),
        (R::E2elMsP95, From::Key("Request Latency (ms) / p95")),
        (R::E2elMsP99, From::Key("Request Latency (ms) / p99")),
    ],
    requests: &[],
    series: &[],
};

/// A row name cut short by a narrow terminal (`Output Token Throughput
/// (tokens/s…`): the one name of the table's that starts so, when only
/// one does.
fn untruncated(label: &str) -> String {
    let Some(head) = label.strip_suffix('…') else {
        return label.to_string();
    };
    let head = head.to_ascii_lowercase();
    let mut names: Vec<&str> = TABLE
        .results
        .iter()
        .filter_map(|(_, from)| match from {
            From::Key(k) => Some(*k),
            _ => None,
        })
        .flat_map(|k| k.split('|'))
        .filter_map(|k| k.split(" / ").next())
        .filter(|k| k.to_ascii_lowercase().starts_with(&head))
        .collect();
    names.sort_unstable();
    names.dedup();
    match names[..] {
        [one] => one.to_string(),
        _ => label.to_string(),
    }
}

/// A border line: box corners and rules only (behind a paste's prefix).
fn is_border(line: &str) -> bool {
    let t = super::text::bare(line);
    !t.is_empty() && t.chars().all(|c| "━─┏┓┳┡┩╇┗┛┻└┘┴┯┷┠┨╋┼+-=| ".contains(c))
}

pub(super) fn read(name: &str, lines: &[&str], start: usize, cx: &Context) -> Taken {
    let header = box_cells(lines[start]).unwrap_or_default();
    // The title and the top border above the header belong to it.
    let mut first = start;
    for back in 1..=2 {
        let Some(l) = start.checked_sub(back).map(|k| lines[k]) else {
            break;
        };
        if is_border(l) || l.contains("Metrics") {
            first = start - back;
        } else {
            break;
        }
    }
    // Each row: its label (wrapped labels joined) and its values.
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let (mut last, mut i) = (start, start + 1);
    let mut closed = false;
    while i < lines.len() && !starts_report(lines, i) {
        let l = lines[i];
        if is_border(l) {
            last = i;
            i += 1;
            if l.contains('└') || l.contains('┘') || l.contains('┗') {
                closed = true;
                break;
            }
            continue;
        }
        let Some(c) = box_cells(l) else { break };
        let (label, values) = c
            .split_first()
            .map_or((String::new(), &[][..]), |(a, b)| (a.clone(), b));
        if values.iter().all(String::is_empty) {
            if let Some(r) = rows.last_mut() {
                r.0.push(' ');
                r.0.push_str(&label);
            }
        } else {
            rows.push((label, values.to_vec()));
        }
        last = i;
        i += 1;
    }
    let mut f = Filling::new();
    for (label, values) in &rows {
        let label = untruncated(label);
        for (stat, value) in header.iter().skip(1).zip(values) {
            // -1.00 was 2024's mark of a figure it did not have.
            if number(value) == Some(-1.0) {
                continue;
            }
            f.line(&TABLE, &format!("{label} / {stat}"), value);
        }
    }
    // The first versions printed the throughputs after the table.
    for (j, &l) in lines.iter().enumerate().skip(i).take(4) {
        if starts_report(lines, j) {
            break;
        }
        match label_value(l) {
            Some((label, value)) if label.ends_with("(per sec)") => {
                f.line(&TABLE, &format!("{label} / avg"), value);
                last = j;
                i = j + 1;
            }
            _ if l.trim().is_empty() => {}
            _ => break,
        }
    }
    let mut out = Out {
        tool: "genai-perf",
        ..Out::default()
    };
    if let Some(cmd) = cx
        .command
        .as_ref()
        .filter(|c| c.program == Program::GenaiPerf)
    {
        from_command(
            &mut f,
            &mut out.facts,
            name,
            cmd,
            &[
                (R::Model, &["-m", "--model"]),
                (R::MaxConcurrency, &["--concurrency"]),
                (R::RequestRate, &["--request-rate"]),
                (R::NumPrompts, &["--request-count"]),
            ],
        );
    }
    if rows.is_empty() {
        out.warnings.push(warning(
            name,
            start + 1,
            format!("the table that starts at line {} has no rows", start + 1),
        ));
    } else if !closed {
        out.warnings.push(warning(
            name,
            last + 1,
            format!(
                "the table that starts at line {} is cut off after line {}: read as far as it goes; missing: its bottom border, and any row after it",
                start + 1,
                last + 1
            ),
        ));
    }
    let mut row = f.row;
    row.set_text(R::Tool, Some("genai-perf"));
    out.results.push(row);
    Taken {
        format: Format::GenaiPerfReport,
        first,
        last,
        out,
        next: i.max(last + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_box_and_plain_tables() {
        assert_eq!(
            box_cells("│ Time to first token (ms) │  16.26 │    N/A │"),
            Some(vec![
                "Time to first token (ms)".to_string(),
                "16.26".to_string(),
                "N/A".to_string()
            ])
        );
        assert!(is_border("┡━━━━╇━━━━┩"));
        assert!(is_border("+------+-----+"));
    }
}
