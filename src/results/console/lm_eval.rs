//! lm-evaluation-harness's printed results table, as people paste it,
//! read from its printer (`lm_eval/utils.py`, `make_table`): a Markdown
//! table (pytablewriter's) with the columns `Tasks` (or `Groups` for the
//! groups' table), `Version`, `Filter`, `n-shot`, `Metric`, an arrow
//! column (`↑`, `↓`; `_` where a paste lost it, none in versions before
//! 0.4.3), `Value`, a `±` column, `Stderr`. A task's second and later rows
//! leave its name empty; the tasks of a group follow it as ` - name`. The
//! line above it, where the paste has it, is the run's header:
//! `vllm (pretrained=…,tensor_parallel_size=2), gen_kwargs: (None), limit:
//! None, num_fewshot: 5, batch_size: auto` (a client's arguments print as
//! a Python dict: `local-completions ({'model': …})`). Pastes lose the
//! leading pipe or the separator row; both are read. Several tables in
//! one paste (before and after a change) are several reports.

use super::report::{lm_eval_cells as cells, starts_report, Taken};
use super::text::number;
use crate::results::file::{Fact, Out};
use crate::results::format::Format;
use crate::results::lm_eval::{backend_facts, model_args, setting_facts, TOOL};
use crate::results::table::Row;
use crate::results::vocabulary::ScoreCol as S;

/// The run's header line lm_eval prints above its table: its backend,
/// its arguments (text), `limit` and `num_fewshot`.
pub(super) struct Header {
    backend: String,
    args: String,
    limit: Option<f64>,
}

/// Reads the header line, if `line` is one.
pub(super) fn header(line: &str) -> Option<Header> {
    let l = line.trim();
    let end = l.find("), gen_kwargs:")?;
    let open = l.find(" (")?;
    if open >= end {
        return None;
    }
    let backend = l[..open].trim().trim_start_matches(['#', '>', '$', ' ']);
    if backend.is_empty() || backend.contains(' ') {
        return None;
    }
    let after = |key: &str| {
        l[end..]
            .split_once(key)
            .map(|(_, r)| r.split(',').next().unwrap_or("").trim())
    };
    Some(Header {
        backend: backend.to_string(),
        args: l[open + 2..end].to_string(),
        limit: after("limit: ").and_then(number),
    })
}

/// Where each column is: the task, filter, n-shot, metric, arrow, value
/// and standard error.
struct Columns {
    task: usize,
    filter: Option<usize>,
    n_shot: Option<usize>,
    metric: usize,
    arrow: Option<usize>,
    value: usize,
    stderr: Option<usize>,
}

fn columns(header: &[&str]) -> Option<Columns> {
    let at = |name: &str| header.iter().position(|c| *c == name);
    let metric = at("Metric")?;
    let value = at("Value")?;
    Some(Columns {
        task: 0,
        filter: at("Filter"),
        n_shot: at("n-shot"),
        metric,
        arrow: (metric + 1 < value && header[metric + 1].is_empty()).then_some(metric + 1),
        value,
        stderr: at("Stderr"),
    })
}

pub(super) fn read(name: &str, lines: &[&str], start: usize, head: Option<(usize, &str)>) -> Taken {
    let mut out = Out {
        tool: TOOL,
        ..Out::default()
    };
    let header_cells = cells(lines[start]).unwrap_or_default();
    let mut first = start;
    if let Some((at, h)) = head.and_then(|(at, l)| header(l).map(|h| (at, h))) {
        let said = format!("the header line at line {}", at + 1);
        out.facts.extend(backend_facts(&h.backend, &said, name));
        out.facts
            .extend(setting_facts(&model_args(&h.args), &said, name));
        if let Some(l) = h.limit {
            out.facts
                .push(Fact::num("limit", l, name).note(format!("from {said}")));
        }
        if at + 1 == start {
            first = at;
        }
    }
    let Some(cols) = columns(&header_cells) else {
        return Taken {
            format: Format::LmEvalTableReport,
            first,
            last: start,
            out,
            next: start + 1,
        };
    };
    let mut i = start + 1;
    // The separator row, where the paste kept it.
    if lines.get(i).and_then(|l| cells(l)).is_some_and(|c| {
        c.iter()
            .all(|x| !x.is_empty() && x.chars().all(|ch| ch == '-' || ch == ':'))
    }) {
        i += 1;
    }
    let mut last = start;
    let mut task = String::new();
    // The group a row is in: the ` - ` rows under a top row are its
    // group's, and so are the top row's own (`top`: its name and rows).
    let mut group: Option<String> = None;
    let mut top: (String, Vec<usize>) = (String::new(), Vec::new());
    let mut rows: Vec<(Row<S>, Option<String>)> = Vec::new();
    while i < lines.len() && !starts_report(lines, i) {
        let Some(c) = cells(lines[i]) else { break };
        if c.len() < header_cells.len() {
            break;
        }
        last = i;
        i += 1;
        let cell = |k: Option<usize>| k.and_then(|k| c.get(k)).copied().unwrap_or("");
        let named = cell(Some(cols.task));
        if let Some(sub) = named.strip_prefix('-') {
            task = sub.trim().to_string();
            group = Some(top.0.clone());
            for &r in &top.1 {
                rows[r].1 = Some(top.0.clone());
            }
        } else if !named.is_empty() {
            task = named.to_string();
            group = None;
            top = (task.clone(), Vec::new());
        }
        let Some(value) = number(cell(Some(cols.value))) else {
            continue;
        };
        let mut row = Row::default();
        row.set_text(S::Task, Some(task.as_str()));
        row.set_text(S::Filter, Some(cell(cols.filter)));
        row.set_text(S::Metric, Some(cell(Some(cols.metric))));
        row.set_num(S::NShot, number(cell(cols.n_shot)));
        row.set_num(S::Value, Some(value));
        row.set_num(S::Stderr, number(cell(cols.stderr)));
        let hib = match cell(cols.arrow) {
            "↑" => Some("true"),
            "↓" => Some("false"),
            _ => None,
        };
        row.set_text(S::HigherIsBetter, hib);
        if group.is_none() && top.0 == task {
            top.1.push(rows.len());
        }
        rows.push((row, group.clone()));
    }
    for (mut row, group) in rows {
        row.set_text(S::Group, group);
        out.scores.push(row);
    }
    Taken {
        format: Format::LmEvalTableReport,
        first,
        last,
        out,
        next: i.max(start + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_line() {
        let h = header("vllm (pretrained=a/b,kv_cache_dtype=fp8), gen_kwargs: (None), limit: 200.0, num_fewshot: 5, batch_size: auto").unwrap();
        assert_eq!(
            (h.backend.as_str(), h.args.as_str(), h.limit),
            ("vllm", "pretrained=a/b,kv_cache_dtype=fp8", Some(200.0))
        );
    }
}
