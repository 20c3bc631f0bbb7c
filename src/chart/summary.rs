//! The summary: the chart's data said in one line of plain text, for the
//! SVG's `<desc>` and the figure's accessible description. Takes the chart
//! input and its [`Data`]; hands on a sentence that lists every value of a
//! small chart, or the counts and extremes of a big one.

use super::data::{Bar, Data, Point, Series, Values};
use super::text::one_line;
use super::ChartInput;
use crate::figures;
use crate::record::ChartKind;
use std::fmt::Write as _;

pub(super) fn summarize(input: &ChartInput, data: &Data) -> String {
    let spec = input.spec;
    let kind = match spec.kind {
        ChartKind::Bar => "Bar chart",
        ChartKind::GroupedBar => "Grouped bar chart",
        ChartKind::Line => "Line chart",
        ChartKind::Scatter => "Scatter plot",
        ChartKind::Cdf => return distribution(input, data),
    };
    let log = match (
        spec.log_x && !matches!(data.values, Values::Bars { .. }),
        spec.log_y,
    ) {
        (true, true) => " (logarithmic axes)",
        (true, false) => " (logarithmic x axis)",
        (false, true) => " (logarithmic y axis)",
        (false, false) => "",
    };
    let names = &data.series.list;
    let legend = names.len() > 1;
    let mut out = String::new();
    match &data.values {
        Values::Bars { cats, bars, .. } => {
            let _ = write!(out, "{kind} of {} by {}{log}: ", data.y_title, data.x_title);
            let value = |b: &Bar| match b.value {
                Some(_) => b.text.clone(),
                None => "no value".to_string(),
            };
            if bars.len() <= 12 {
                let per_cat = bars.len() > cats.len();
                // "compiled 266, loaded 407", unless the names hold commas.
                let commas = cats.iter().any(|c| c.contains([',', ';']))
                    || names.iter().any(|n| n.name.contains([',', ';']));
                let (sep, colon) = if commas { ("; ", ":") } else { (", ", "") };
                let mut parts = Vec::new();
                for (c, name) in cats.iter().enumerate() {
                    let mine: Vec<&Bar> = bars.iter().filter(|b| b.cat == c).collect();
                    let name = one_line(name);
                    if per_cat {
                        let inner: Vec<String> = mine
                            .iter()
                            .map(|b| format!("{} {}", names[b.series].name, value(b)))
                            .collect();
                        parts.push(format!("{name}: {}", inner.join(", ")));
                    } else {
                        for b in mine {
                            if legend {
                                parts.push(format!(
                                    "{name}{colon} {} ({})",
                                    value(b),
                                    names[b.series].name
                                ));
                            } else {
                                parts.push(format!("{name}{colon} {}", value(b)));
                            }
                        }
                    }
                }
                out.push_str(&parts.join(if per_cat { "; " } else { sep }));
            } else {
                let _ = write!(out, "{} bars in {} categories", bars.len(), cats.len());
                if legend {
                    let _ = write!(out, ", {}", series_list(names));
                }
                let with = |b: &Bar| {
                    let cat = one_line(cats.get(b.cat).map_or("", String::as_str));
                    if legend {
                        format!("{} ({cat}, {})", b.text, names[b.series].name)
                    } else {
                        format!("{} ({cat})", b.text)
                    }
                };
                let valued: Vec<&Bar> = bars.iter().filter(|b| b.value.is_some()).collect();
                let lo = valued
                    .iter()
                    .copied()
                    .min_by(|a, b| cmp_value(a.value, b.value));
                let hi = valued
                    .iter()
                    .copied()
                    .max_by(|a, b| cmp_value(a.value, b.value));
                if let (Some(lo), Some(hi)) = (lo, hi) {
                    let _ = write!(out, "; lowest {}, highest {}", with(lo), with(hi));
                }
            }
        }
        Values::Points(series) => {
            let _ = write!(
                out,
                "{kind} of {} against {}{log}: ",
                data.y_title, data.x_title
            );
            let total: usize = series.iter().map(Vec::len).sum();
            if total <= 8 {
                let mut parts = Vec::new();
                for (s, points) in series.iter().enumerate() {
                    if points.is_empty() {
                        continue;
                    }
                    let list: Vec<String> = points
                        .iter()
                        .map(|p| format!("{} at {}", p.y_text, p.x_text))
                        .collect();
                    if legend {
                        parts.push(format!("{}: {}", names[s].name, list.join(", ")));
                    } else {
                        parts.push(list.join(", "));
                    }
                }
                out.push_str(&parts.join("; "));
            } else {
                if legend {
                    let _ = write!(out, "{}, ", series_list(names));
                }
                let _ = write!(out, "{total} points");
                let all: Vec<&Point> = series.iter().flatten().collect();
                let by = |f: fn(&Point) -> f64| {
                    let lo = all.iter().copied().min_by(|a, b| f(a).total_cmp(&f(b)));
                    let hi = all.iter().copied().max_by(|a, b| f(a).total_cmp(&f(b)));
                    (lo, hi)
                };
                if let (Some(lo), Some(hi)) = by(|p| p.x) {
                    let _ = write!(out, "; x from {} to {}", lo.x_text, hi.x_text);
                }
                if let (Some(lo), Some(hi)) = by(|p| p.y) {
                    let _ = write!(out, "; y from {} to {}", lo.y_text, hi.y_text);
                }
            }
        }
    }
    marked(&mut out, data);
    out.push('.');
    one_line(&out)
}

/// A `cdf` chart said in words: each series' median, 90th and 99th
/// percentiles and highest value, over how many values.
fn distribution(input: &ChartInput, data: &Data) -> String {
    let names = &data.series.list;
    let mut out = format!("Cumulative distribution of {}", data.x_title);
    if input.spec.log_x {
        out.push_str(" (logarithmic x axis)");
    }
    out.push_str(": ");
    let parts: Vec<String> = data
        .spreads
        .iter()
        .enumerate()
        .filter_map(|(s, spread)| {
            let sp = spread.as_ref()?;
            let who = if names.len() > 1 {
                format!("{}: ", names[s].name)
            } else {
                String::new()
            };
            let unit = data.x_unit.as_deref();
            Some(format!(
                "{who}median {}, p90 {}, p99 {}, highest {} ({} values)",
                figures::cell(sp.p50, unit),
                figures::cell(sp.p90, unit),
                figures::cell(sp.p99, unit),
                figures::cell(sp.max, unit),
                figures::number(sp.count as f64)
            ))
        })
        .collect();
    out.push_str(&parts.join("; "));
    marked(&mut out, data);
    out.push('.');
    one_line(&out)
}

/// The spec's marks, after the data: "; marked: concurrency asked for at
/// 32"; and the values no axis can place.
fn marked(out: &mut String, data: &Data) {
    if data.not_drawn > 0 {
        let _ = write!(
            out,
            "; {} at an unbounded value (inf), not drawn",
            match data.not_drawn {
                1 => "1 value".to_string(),
                n => format!("{n} values"),
            }
        );
    }
    let marks: Vec<String> = data
        .marks
        .iter()
        .map(|(y, label)| {
            format!(
                "{} at {}",
                one_line(label),
                figures::cell(*y, data.y_unit.as_deref())
            )
        })
        .collect();
    if !marks.is_empty() {
        let _ = write!(out, "; marked: {}", marks.join(", "));
    }
}

fn cmp_value(a: Option<f64>, b: Option<f64>) -> std::cmp::Ordering {
    a.unwrap_or(f64::NAN).total_cmp(&b.unwrap_or(f64::NAN))
}

fn series_list(names: &[Series]) -> String {
    let shown: Vec<&str> = names.iter().take(6).map(|s| s.name.as_str()).collect();
    let more = names.len().saturating_sub(6);
    if more > 0 {
        format!(
            "{} series ({}, and {more} more)",
            names.len(),
            shown.join(", ")
        )
    } else {
        format!("{} series ({})", names.len(), shown.join(", "))
    }
}
