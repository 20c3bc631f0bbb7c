//! A run table's column as the records describe it, and what readers see
//! of it: its `label`, or a readable name made from the column's own name
//! (the rule of `docs/format.md` §8.2). Takes the site's engine names;
//! hands legends, axis titles and table headers their text.

use std::collections::BTreeMap;

/// A column of a run table.
#[derive(Debug, Clone)]
pub struct Column {
    /// Header name, as in the CSV (and the published CSV).
    pub name: String,
    /// What readers see instead of the name (`label`), as written.
    pub label: Option<String>,
    /// Unit; a column with a unit holds numbers.
    pub unit: Option<String>,
    /// What the column holds.
    pub description: String,
}

impl Column {
    /// True when cells must be numbers.
    pub fn is_numeric(&self) -> bool {
        self.unit.is_some()
    }

    /// What readers see for this column (legends, data tables, chart
    /// descriptions): its `label`, or one made from its name by
    /// [`readable_column_name`]. `engines` maps engine ids to their names.
    pub fn title(&self, engines: &BTreeMap<String, String>) -> String {
        match &self.label {
            Some(l) if !l.trim().is_empty() => l.trim().to_string(),
            _ => readable_column_name(&self.name, self.unit.as_deref(), engines),
        }
    }

    /// "Peak throughput (tokens/s)": the title with the unit, as axis
    /// titles and table headers show it; a title that is the unit itself
    /// ("Replies" in replies) is not followed by it again. A fraction is
    /// shown in percent, so its heading says `%` (see [`crate::figures`]).
    pub fn heading(&self, engines: &BTreeMap<String, String>) -> String {
        let title = self.title(engines);
        match &self.unit {
            Some(u) if !u.is_empty() && !u.trim().eq_ignore_ascii_case(&title) => {
                format!("{title} ({})", crate::figures::heading_unit(u))
            }
            _ => title,
        }
    }

    /// A CSV cell of this column as readers see it (see
    /// [`crate::figures::cell_text`]).
    pub fn shown<'t>(&self, cell: &'t str) -> std::borrow::Cow<'t, str> {
        crate::figures::cell_text(cell, self.unit.as_deref())
    }
}

/// Abbreviations a column name may hold, as readers write them.
const COLUMN_WORDS: &[(&str, &str)] = &[
    ("cpu", "CPU"),
    ("gib", "GiB"),
    ("gpu", "GPU"),
    ("itl", "ITL"),
    ("kib", "KiB"),
    ("kv", "KV"),
    ("mib", "MiB"),
    ("mtp", "MTP"),
    ("tpot", "TPOT"),
    ("ttft", "TTFT"),
];

/// The units of time that `per_<unit>` shortens to `/<unit>`.
const PER_UNITS: &[&str] = &["s", "ms", "min", "h"];

/// A column's name made readable, for a column without a `label`
/// (`docs/format.md` §8.2 states the rule): the name is split into words
/// at `_`; leading words that spell an engine id (`vllm`, `tensorrt_llm`)
/// become the engine's name; `per` before a unit of time joins the words
/// around it (`tokens_per_s`: "tokens/s"); known abbreviations are written
/// as readers know them (`kv`: "KV", `ttft`: "TTFT", `mib`: "MiB"); a last
/// word that only repeats the unit is left out, since the unit is shown
/// beside the title, and one that is the time of a rate unit joins the
/// word before (`tok_s` in tokens/s: "Tok/s"); and the first letter is a
/// capital unless an engine's name or an abbreviation comes first.
/// `vllm_mtp3` is "vLLM mtp3", `low_tokens_per_s` "Low tokens/s", `ttft_ms`
/// (unit `ms`) "TTFT".
pub fn readable_column_name(
    name: &str,
    unit: Option<&str>,
    engines: &BTreeMap<String, String>,
) -> String {
    let mut words: Vec<&str> = name.split('_').filter(|w| !w.trim().is_empty()).collect();
    if words.is_empty() {
        return name.trim().to_string();
    }
    // A last word that is the unit again is left out; one that is the
    // "per" of the unit ("s" of `tok_s` in tokens/s) joins the word before.
    let mut per_unit = None;
    if let (Some(u), true) = (unit.map(str::trim), words.len() > 1) {
        let last = words[words.len() - 1];
        if last.eq_ignore_ascii_case(u) {
            words.pop();
        } else if PER_UNITS.contains(&last)
            && u.ends_with(&format!("/{last}"))
            && !words[words.len() - 2].eq_ignore_ascii_case("per")
        {
            per_unit = words.pop();
        }
    }
    // The longest run of leading words that spells an engine id (ids are
    // lowercase, with `-` where a column name has `_`).
    // One key, written over for each run of words (a string for each was
    // most of a chart's axis titles).
    let mut key = String::with_capacity(name.len());
    let engine = (1..=words.len()).rev().find_map(|k| {
        key.clear();
        for (j, w) in words[..k].iter().enumerate() {
            if j > 0 {
                key.push('-');
            }
            key.push_str(w);
        }
        key.make_ascii_lowercase();
        let named = engines.get(key.as_str())?;
        Some((k, named))
    });
    let (mut out, rest): (Vec<String>, &[&str]) = match engine {
        Some((k, named)) => (vec![named.clone()], &words[k..]),
        None => (Vec::new(), &words[..]),
    };
    // An engine's name or an abbreviation keeps its case at the start.
    let mut first_as_is = !out.is_empty();
    let mut i = 0;
    while i < rest.len() {
        let w = rest[i];
        if w.eq_ignore_ascii_case("per") && i + 1 < rest.len() && !out.is_empty() {
            let next = rest[i + 1];
            if PER_UNITS.iter().any(|u| next.eq_ignore_ascii_case(u)) {
                if let Some(last) = out.last_mut() {
                    last.push('/');
                    last.push_str(next);
                }
                i += 2;
                continue;
            }
        }
        match COLUMN_WORDS.iter().find(|(k, _)| w.eq_ignore_ascii_case(k)) {
            Some((_, shown)) => {
                first_as_is |= out.is_empty();
                out.push((*shown).to_string());
            }
            None => out.push(w.to_string()),
        }
        i += 1;
    }
    if let (Some(per), Some(word)) = (per_unit, out.last_mut()) {
        word.push('/');
        word.push_str(per);
    }
    let mut joined = out.join(" ");
    if !first_as_is {
        if let Some(c) = joined.chars().next() {
            joined = c.to_uppercase().chain(joined.chars().skip(1)).collect();
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engines() -> BTreeMap<String, String> {
        [
            ("vllm", "vLLM"),
            ("ninfer", "NInfer"),
            ("tensorrt-llm", "TensorRT-LLM"),
        ]
        .into_iter()
        .map(|(i, n)| (i.to_string(), n.to_string()))
        .collect()
    }

    fn readable(name: &str, unit: Option<&str>) -> String {
        readable_column_name(name, unit, &engines())
    }

    #[test]
    fn a_column_name_is_made_readable() {
        assert_eq!(readable("vllm_mtp3", Some("tok/s")), "vLLM mtp3");
        assert_eq!(
            readable("ninfer_groupwise_int", Some("tok/s")),
            "NInfer groupwise int"
        );
        assert_eq!(readable("tensorrt_llm_peak", None), "TensorRT-LLM peak");
        assert_eq!(readable("vllm", None), "vLLM");
        assert_eq!(readable("low_tokens_per_s", Some("tok/s")), "Low tokens/s");
        assert_eq!(
            readable("successful_tasks_per_hour", None),
            "Successful tasks per hour"
        );
        assert_eq!(readable("ttft_ms", Some("ms")), "TTFT");
        assert_eq!(readable("p95_ttft_s", Some("s")), "P95 TTFT");
        assert_eq!(readable("kv_cache_tokens", Some("tokens")), "KV cache");
        assert_eq!(readable("held_mib_low", Some("MiB")), "Held MiB low");
        assert_eq!(readable("depth", Some("tokens")), "Depth");
        assert_eq!(readable("tok_s", Some("tokens/s")), "Tok/s");
        assert_eq!(readable("tok_s", None), "Tok s");
        // "vllmx" is no engine; "per" before a word that is no unit of time stays.
        assert_eq!(readable("vllmx_per_run", None), "Vllmx per run");
        assert_eq!(readable("per_s", None), "Per s");
        assert_eq!(readable("__", None), "__");
    }

    #[test]
    fn a_label_wins_and_the_heading_adds_the_unit() {
        let mut c = Column {
            name: "vllm_mtp3".to_string(),
            label: None,
            unit: Some("tok/s".to_string()),
            description: String::new(),
        };
        assert_eq!(c.heading(&engines()), "vLLM mtp3 (tok/s)");
        c.label = Some(" vLLM 0.27.1, MTP@3 ".to_string());
        assert_eq!(c.title(&engines()), "vLLM 0.27.1, MTP@3");
        assert_eq!(c.heading(&engines()), "vLLM 0.27.1, MTP@3 (tok/s)");
        c.unit = None;
        assert_eq!(c.heading(&engines()), "vLLM 0.27.1, MTP@3");
        c.label = Some("Replies".to_string());
        c.unit = Some("replies".to_string());
        assert_eq!(c.heading(&engines()), "Replies");
    }
}
