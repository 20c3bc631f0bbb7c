//! `site.yaml`'s `noise` list: the noise between runs the site states, a
//! rule per item. Each names what it is about (`engine`, `workload`,
//! `metric`, each optional: a rule that names none is about every change)
//! and how a change there is judged: `percent` (a bound: a change within
//! it is noise), or `z` (the series' history read with that z-score, over
//! at most `window` earlier versions, and at least `min_sample`). The
//! engine must be one of the file's own, the metric one the results know
//! (`compare`'s list). Takes a document being read and the engines' ids;
//! hands back the rules that read.

use super::fields::{describe, join, Doc, Obj};
use super::yaml::Value;
use super::NOISE_FIELDS;
use crate::record::{NoiseBound, NoiseRule};

/// The rules of `obj`'s `noise` list, of a site whose engines are
/// `engines` (their ids).
pub(super) fn read(doc: &mut Doc<'_>, obj: Obj<'_>, engines: &[&str]) -> Vec<NoiseRule> {
    let metrics: Vec<&str> = crate::compare::RESULT_METRICS
        .iter()
        .map(|(n, ..)| *n)
        .collect();
    let mut out: Vec<NoiseRule> = Vec::new();
    for (i, item) in doc.list(obj, "noise").iter().enumerate() {
        let path = format!("noise[{i}]");
        let Some(o) = doc.object(item, &path, NOISE_FIELDS) else {
            continue;
        };
        // A field misspelt is reported; the rule is then not read as one
        // that names less than it meant to.
        let misspelt = match item {
            Value::Mapping(m) => m
                .keys()
                .any(|k| !matches!(k, Value::String(k) if NOISE_FIELDS.contains(&k.as_str()))),
            _ => false,
        };
        let engine = doc.opt_string(o, "engine");
        if let Some(e) = engine.as_deref().filter(|e| !engines.contains(e)) {
            let hint = match super::suggest::did_you_mean(e, engines) {
                Some(s) => format!("did you mean \"{s}\"?"),
                None => format!("the engines of site.yaml: {}", engines.join(", ")),
            };
            doc.error_hint(
                &join(&path, "engine"),
                format!("unknown engine \"{e}\""),
                Some(hint),
            );
        }
        let workload = doc.opt_string(o, "workload");
        let metric = doc.opt_string(o, "metric");
        if let Some(m) = metric.as_deref().filter(|m| !metrics.contains(m)) {
            let hint = match super::suggest::did_you_mean(m, &metrics) {
                Some(s) => format!("did you mean \"{s}\"?"),
                None => format!("the metrics: {}", metrics.join(", ")),
            };
            doc.error_hint(
                &join(&path, "metric"),
                format!("unknown metric \"{m}\""),
                Some(hint),
            );
        }
        let percent = number(doc, o, "percent", |n| n > 0.0 && n <= 100.0).map_err(|found| {
            (
                format!("expected a bound in percent, more than 0 and at most 100, found {found}"),
                "write the run-to-run noise as a number: `percent: 5` for ±5%",
            )
        });
        let z = number(doc, o, "z", |n| n > 0.0 && n <= 10.0).map_err(|found| {
            (
                format!("expected a z-score, more than 0 and at most 10, found {found}"),
                "write how many standard deviations of the series' history a change must pass: `z: 3`",
            )
        });
        let mut whole = |key: &str| -> Option<usize> {
            let v = doc.get(o, key)?;
            doc.positive_int(v, &join(&path, key)).map(|n| n as usize)
        };
        let (window, min_sample) = (whole("window"), whole("min_sample"));
        let (percent, z) = match (percent, z) {
            (Ok(p), Ok(z)) => (p, z),
            (p, z) => {
                for (key, e) in [("percent", p.err()), ("z", z.err())] {
                    if let Some((message, hint)) = e {
                        doc.error_hint(&join(&path, key), message, Some(hint));
                    }
                }
                continue;
            }
        };
        let bound = match (percent, z) {
            (Some(_), Some(_)) => {
                doc.error_hint(
                    &join(&path, "z"),
                    "a rule gives `percent` or `z`, not both",
                    Some("keep `percent` for a bound you know, or `z` to read the series' history"),
                );
                continue;
            }
            (None, None) => {
                doc.error_hint(
                    &path,
                    "missing `percent` or `z`",
                    Some("add `percent: 5` (a change within ±5% is noise) or `z: 3` (a change must pass 3 standard deviations of the series' history)"),
                );
                continue;
            }
            (Some(p), None) => {
                for key in ["window", "min_sample"] {
                    if doc.get(o, key).is_some() {
                        doc.error_hint(
                            &join(&path, key),
                            format!("`{key}` is for a rule with `z`"),
                            Some("a `percent` bound reads no history; remove it, or give `z` instead"),
                        );
                    }
                }
                NoiseBound::Percent(p)
            }
            (None, Some(z)) => {
                let window = window.unwrap_or(crate::record::DEFAULT_NOISE_WINDOW);
                let min_sample = min_sample.unwrap_or(crate::record::DEFAULT_NOISE_MIN_SAMPLE);
                if min_sample < 2 {
                    doc.error_hint(
                        &join(&path, "min_sample"),
                        format!("expected 2 or more, found {min_sample}"),
                        Some("a standard deviation needs two values at least"),
                    );
                    continue;
                }
                if window < min_sample {
                    let at = if doc.get(o, "window").is_some() {
                        "window"
                    } else {
                        "min_sample"
                    };
                    doc.error_hint(
                        &join(&path, at),
                        format!("the window ({window}) is smaller than min_sample ({min_sample})"),
                        Some("the history reads at most `window` earlier versions and needs at least `min_sample` of them"),
                    );
                    continue;
                }
                NoiseBound::Z {
                    z,
                    window,
                    min_sample,
                }
            }
        };
        if misspelt {
            continue;
        }
        let rule = NoiseRule {
            engine,
            workload,
            metric,
            bound,
            path_in_yaml: path.clone(),
        };
        if let Some(first) = out.iter().find(|r| {
            (&r.engine, &r.workload, &r.metric) == (&rule.engine, &rule.workload, &rule.metric)
        }) {
            doc.error_hint(
                &path,
                format!("this rule names what {} names already", first.path_in_yaml),
                Some("keep one rule for each engine, workload and metric"),
            );
            continue;
        }
        out.push(rule);
    }
    out
}

/// The number at `key` of `o`, where `ok` holds of it; `Err` with what
/// was found where it does not.
fn number(
    doc: &mut Doc<'_>,
    o: Obj<'_>,
    key: &str,
    ok: impl Fn(f64) -> bool,
) -> Result<Option<f64>, String> {
    let Some(v) = doc.get(o, key) else {
        return Ok(None);
    };
    match v {
        Value::Number(n) => match n.as_f64().filter(|n| n.is_finite()) {
            Some(n) if ok(n) => Ok(Some(n)),
            _ => Err(describe(v)),
        },
        other => Err(describe(other)),
    }
}
