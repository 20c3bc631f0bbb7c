//! The `compare:` list of `site.yaml` and of `run.yaml`: each item a
//! comparison with an id, a title where it gives one (else the model
//! titles it by its sides), and what it sets side by side. A run
//! names columns of one of its hand tables (`table`, `by`, `columns`) or
//! its setups (`setups`, or all of them); a site names runs (`runs`).
//! Whether the names exist is for validation, which sees the tables and
//! the runs. Takes a document being read; hands back the specs that read.

use super::fields::{describe, join, slug_field, Doc, Obj};
use super::yaml::Value;
use super::COMPARE_FIELDS;
use crate::record::{CompareOf, CompareSpec};

/// Where the list is: a run's sets columns or setups side by side, the
/// site's runs.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Owner {
    Run,
    Site,
}

/// The comparisons of `obj`'s `compare` list.
pub(super) fn read(doc: &mut Doc<'_>, obj: Obj<'_>, owner: Owner) -> Vec<CompareSpec> {
    let mut out = Vec::new();
    for (i, c) in doc.list(obj, "compare").iter().enumerate() {
        let path = format!("compare[{i}]");
        let Some(co) = doc.object(c, &path, COMPARE_FIELDS) else {
            continue;
        };
        let id = slug_field(doc, co, "id");
        let title = doc.opt_string(co, "title");
        let caption = doc.opt_string(co, "caption");
        let noise = noise(doc, co, &path);
        let metrics = doc.string_list(co, "metrics");
        let of = match owner {
            Owner::Site => {
                for key in ["table", "by", "columns", "better", "setups"] {
                    if doc.get(co, key).is_some() {
                        doc.error_hint(
                            &join(&path, key),
                            format!("`{key}` is for a run's comparison; the site's sets runs side by side"),
                            Some("name the runs with `runs: [run-a, run-b]`, or move the comparison into the run's run.yaml"),
                        );
                    }
                }
                let runs = doc.string_list(co, "runs");
                if runs.len() < 2 && doc.get(co, "runs").is_some() {
                    doc.error(
                        &join(&path, "runs"),
                        "name two runs or more to set side by side",
                    );
                } else if doc.get(co, "runs").is_none() {
                    doc.error_hint(
                        &path,
                        "missing required field `runs`",
                        Some("add `runs: [run-a, run-b]`: the run ids to set side by side, the baseline first"),
                    );
                }
                CompareOf::Runs { runs, metrics }
            }
            Owner::Run if doc.get(co, "table").is_some() => {
                let table = doc.req_string(co, "table").unwrap_or_default();
                let by = doc.string_list(co, "by");
                let columns = doc.string_list(co, "columns");
                if doc.get(co, "by").is_none() {
                    doc.error_hint(
                        &path,
                        "missing required field `by`",
                        Some("add `by: [depth]`: the columns whose cells name what was measured"),
                    );
                }
                if columns.len() < 2 {
                    doc.error_hint(
                        &join(&path, "columns"),
                        "name two columns or more to set side by side",
                        Some("`columns: [baseline, other]`: the first is the baseline"),
                    );
                }
                for key in ["setups", "runs", "metrics"] {
                    if doc.get(co, key).is_some() {
                        doc.error(
                            &join(&path, key),
                            format!("`{key}` is not for a comparison of a table's columns"),
                        );
                    }
                }
                let higher_is_better = match doc.choice(co, "better", &["higher", "lower"], false) {
                    Some("higher") => Some(true),
                    Some(_) => Some(false),
                    None => None,
                };
                CompareOf::Columns {
                    table,
                    by,
                    columns,
                    higher_is_better,
                }
            }
            Owner::Run => {
                for key in ["by", "columns", "better", "runs"] {
                    if doc.get(co, key).is_some() {
                        doc.error_hint(
                            &join(&path, key),
                            format!("`{key}` belongs to another kind of comparison"),
                            Some("a run compares its setups (`setups`, `metrics`) or a table's columns (`table`, `by`, `columns`); runs are compared in site.yaml"),
                        );
                    }
                }
                CompareOf::Setups {
                    setups: doc.string_list(co, "setups"),
                    metrics,
                }
            }
        };
        let Some(id) = id else {
            continue;
        };
        out.push(CompareSpec {
            id,
            title,
            caption,
            noise,
            of,
            path_in_yaml: path,
        });
    }
    out
}

/// An optional noise band in percent: a number from 0 to 100.
fn noise(doc: &mut Doc<'_>, co: Obj<'_>, path: &str) -> Option<f64> {
    let v = doc.get(co, "noise")?;
    let n = match v {
        Value::Number(n) => n
            .as_f64()
            .filter(|n| n.is_finite() && (0.0..=100.0).contains(n)),
        _ => None,
    };
    if n.is_none() {
        doc.error_hint(
            &join(path, "noise"),
            format!(
                "expected a band in percent from 0 to 100, found {}",
                describe(v)
            ),
            Some("write the run-to-run noise as a number: `noise: 5` for ±5%"),
        );
    }
    n
}
