//! The rules of the comparisons (`compare:` in `site.yaml` and `run.yaml`):
//! ids used once across the site (each is a page, `/compare/<id>/`), the
//! table, columns, setups and runs they name existing, columns compared
//! holding numbers, metrics known, and a comparison of result files only
//! where there are result files. Takes what was loaded; hands on one
//! diagnostic per problem, at the field.

use super::hints::{Hints, Known};
use crate::compare::{higher_is_better_by_unit, metric_names, result_metric};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::load::{parse_number, Loaded};
use crate::record::{CompareOf, CompareSpec, Run, Spans};
use std::collections::HashMap;
use std::path::Path;

pub(super) fn check(loaded: &Loaded, diags: &mut Diagnostics) {
    let Some(site) = &loaded.site else { return };
    let runs: HashMap<&str, &Run> = loaded.runs.iter().map(|r| (r.id.as_str(), &**r)).collect();
    let mut hints = Hints::new();
    let run_ids = Known::new(runs.keys().copied());
    // Where each id was first used, to name it when it comes again.
    let mut first: HashMap<String, String> = HashMap::new();
    let site_file = Path::new("site.yaml");
    let mut seen = |c: &CompareSpec, file: &Path, spans: &Spans, diags: &mut Diagnostics| {
        let at = file.display().to_string();
        if let Some(was) = first.get(c.id.as_str()) {
            let p = format!("{}.id", c.path_in_yaml);
            diags.push(
                Diagnostic::error(file, spans.get(&p), format!("comparison id \"{}\" is already used in {was}", c.id))
                    .field(p)
                    .hint("each comparison is a page of its own (/compare/<id>/): give it an id no other comparison has"),
            );
        }
        first.entry(c.id.clone()).or_insert(at);
    };
    for c in &site.compare {
        seen(c, site_file, &site.spans, diags);
        let e = |field: &str, msg: String| {
            let p = format!("{}.{field}", c.path_in_yaml);
            Diagnostic::error(site_file, site.spans.get(&p), msg).field(p)
        };
        if let CompareOf::Runs {
            runs: named,
            metrics,
        } = &c.of
        {
            for (i, id) in named.iter().enumerate() {
                match runs.get(id.as_str()) {
                    None if !loaded.broken_runs.contains(id) => diags.push(
                        e(&format!("runs[{i}]"), format!("no run \"{id}\" in data/runs/"))
                            .hint(hints.suggest(id, &run_ids, "runs")),
                    ),
                    Some(r) if r.results.is_empty() => diags.push(
                        e(&format!("runs[{i}]"), format!("run \"{id}\" has no result files to compare"))
                            .hint("a site's comparison sets runs made of result files side by side (`findings import`); compare a hand table's columns in its run.yaml"),
                    ),
                    _ => {}
                }
            }
            check_metrics(metrics, &e, diags);
        }
    }
    for run in loaded.runs.iter() {
        for c in &run.compare {
            seen(c, &run.path, &run.spans, diags);
            check_in_run(run, c, &mut hints, diags);
        }
    }
}

fn check_metrics(
    metrics: &[String],
    e: &dyn Fn(&str, String) -> Diagnostic,
    diags: &mut Diagnostics,
) {
    for (i, m) in metrics.iter().enumerate() {
        if result_metric(m).is_none() {
            diags.push(
                e(
                    &format!("metrics[{i}]"),
                    format!("\"{m}\" is not a metric a comparison reads"),
                )
                .hint(format!("the metrics: {}", metric_names())),
            );
        }
    }
}

fn check_in_run(run: &Run, c: &CompareSpec, hints: &mut Hints, diags: &mut Diagnostics) {
    let e = |field: &str, msg: String| {
        let p = format!("{}.{field}", c.path_in_yaml);
        Diagnostic::error(&run.path, run.spans.get(&p), msg).field(p)
    };
    match &c.of {
        CompareOf::Columns {
            table,
            by,
            columns,
            higher_is_better,
        } => {
            let Some(t) = run.tables.iter().find(|t| &t.file == table) else {
                let files = Known::new(run.tables.iter().map(|t| t.file.as_str()));
                diags.push(
                    e("table", format!("the run has no table \"{table}\""))
                        .hint(hints.suggest(table, &files, "tables")),
                );
                return;
            };
            if t.header.is_empty() {
                return; // the table's own problem is reported
            }
            // Every change reads better or worse: the comparison says which
            // way, or the compared columns' unit does.
            let unit = columns
                .first()
                .and_then(|c| t.column(c))
                .and_then(|c| c.unit.as_deref());
            // (A `better` that is not higher or lower is reported where it is read.)
            let said_better = run.spans.has(&format!("{}.better", c.path_in_yaml));
            if higher_is_better.is_none()
                && !said_better
                && higher_is_better_by_unit(unit).is_none()
            {
                let said = unit.map_or_else(
                    || "the compared columns have no unit".to_string(),
                    |u| format!("their unit \"{u}\" does not say"),
                );
                diags.push(
                    Diagnostic::error(&run.path, run.spans.get(&c.path_in_yaml), format!(
                        "say which way is better for \"{}\": {said}",
                        c.id
                    ))
                    .field(c.path_in_yaml.clone())
                    .hint("add `better: higher` (throughput, a rate) or `better: lower` (latency, a time); a unit in /s says higher, one in ms or s lower"),
                );
            }
            let names = Known::new(t.header.iter().map(String::as_str));
            for (list, cols, numeric) in [("by", by, false), ("columns", columns, true)] {
                for (i, col) in cols.iter().enumerate() {
                    let Some(k) = t.header.iter().position(|h| h == col) else {
                        diags.push(
                            e(
                                &format!("{list}[{i}]"),
                                format!("table \"{table}\" has no column \"{col}\""),
                            )
                            .hint(hints.suggest(col, &names, "columns")),
                        );
                        continue;
                    };
                    let bad = t.rows.iter().position(|r| {
                        r.get(k)
                            .is_some_and(|v| !v.is_empty() && parse_number(v).is_none())
                    });
                    if let (true, Some(row)) = (numeric, bad) {
                        diags.push(
                            e(&format!("{list}[{i}]"), format!(
                                "column \"{col}\" of \"{table}\" holds \"{}\" (row {}), not a number to compare",
                                t.rows[row][k],
                                row + 1
                            ))
                            .hint("compare columns of numbers; name the columns that say what was measured under `by`"),
                        );
                    }
                }
            }
        }
        CompareOf::Setups { setups, metrics } => {
            if run.results.is_empty() {
                diags.push(
                    e(
                        "setups",
                        "the run has no result files: a comparison of setups reads them".into(),
                    )
                    .hint("compare a hand table's columns instead: `table`, `by` and `columns`"),
                );
                return;
            }
            let known = Known::new(run.setups.iter().map(|s| s.label.as_deref().unwrap_or("")));
            let names: Vec<String> = run.setups.iter().map(|s| s.name()).collect();
            for (i, s) in setups.iter().enumerate() {
                if !names.contains(s) {
                    diags.push(
                        e(
                            &format!("setups[{i}]"),
                            format!("the run has no setup \"{s}\""),
                        )
                        .hint(hints.suggest(s, &known, "setups")),
                    );
                }
            }
            let listed = if setups.is_empty() {
                names.len()
            } else {
                setups.len()
            };
            if listed < 2 {
                diags.push(
                    e("setups", "a comparison needs two setups or more".into())
                        .hint("a run of one setup is compared with another run in site.yaml (`compare: [{id, title, runs: [a, b]}]`)"),
                );
            }
            check_metrics(metrics, &e, diags);
        }
        CompareOf::Runs { .. } => {}
    }
}
