//! Authoring commands: `list` and `show` answer questions from the terminal,
//! `new` and `new-run` start records.
//!
//! `list` and `show` read the folder through the same loader and model as
//! `build`, so their states are the ones the site shows. `new` is the only
//! place that reads the clock: a new record's `published` date is today.

use crate::model::Model;
use crate::record::{Date, Finding};
use crate::state::{Source, State};
use crate::urls;
use crate::version::Version;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Filters for `findings list`.
#[derive(Debug, Default, Clone)]
pub struct ListQuery {
    /// Engine id.
    pub engine: Option<String>,
    /// Version of that engine.
    pub version: Option<Version>,
    /// Group id.
    pub group: Option<String>,
    /// Status (`open`, `fixed`, `mitigated`, `advice`).
    pub status: Option<String>,
}

/// One line of `findings list`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ListRow {
    /// Finding number.
    pub id: u32,
    /// `F7`.
    pub label: String,
    /// Plain-text title.
    pub title: String,
    /// Group id.
    pub group: String,
    /// Status.
    pub status: String,
    /// Advice badge.
    pub advice: String,
    /// The state at the queried version, when an engine and version were given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<State>,
    /// Where that state comes from: `record`, `observed` (runs on the
    /// version tested it) or `inferred`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// The runs that observed it, for an observed state.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub observed_by: Vec<String>,
    /// Permanent URL.
    pub url: String,
}

/// The listed findings that match `q`, sorted by group order, then number.
/// With an engine, only findings that have an entry for it; with a version
/// too, each row carries that version's state.
pub fn list(model: &Model, q: &ListQuery) -> Vec<ListRow> {
    let group_rank = |g: &str| {
        model
            .site
            .groups
            .iter()
            .position(|x| x.id == g)
            .unwrap_or(usize::MAX)
    };
    let mut rows: Vec<(usize, ListRow)> = model
        .listed()
        .filter(|&i| {
            q.group
                .as_ref()
                .is_none_or(|g| &model.findings[i].group == g)
        })
        .filter(|&i| {
            q.status
                .as_ref()
                .is_none_or(|s| model.findings[i].status.as_str() == s)
        })
        .filter_map(|i| {
            let f = &model.findings[i];
            let mut r = row(model, f, None);
            if let Some(e) = &q.engine {
                let k = f.engines.iter().position(|x| &x.engine == e)?;
                if let Some(v) = &q.version {
                    let (state, source, at) = model.state_at(i, k, v);
                    r.state = Some(state);
                    r.source = Some(source);
                    if source == Source::Observed {
                        let mut by: Vec<String> = at
                            .into_iter()
                            .flat_map(|at| at.deciding())
                            .map(|(run, _)| model.runs[run].id.clone())
                            .collect();
                        by.dedup();
                        r.observed_by = by;
                    }
                }
            }
            Some((group_rank(&f.group), r))
        })
        .collect();
    rows.sort_by_key(|(g, r)| (*g, r.id));
    rows.into_iter().map(|(_, r)| r).collect()
}

fn row(model: &Model, f: &Finding, state: Option<State>) -> ListRow {
    ListRow {
        id: f.id,
        label: format!("F{}", f.id),
        title: crate::markdown::plain_text(&f.title),
        group: f.group.clone(),
        status: f.status.as_str().to_string(),
        advice: f.advice.clone(),
        state,
        source: None,
        observed_by: Vec::new(),
        url: format!("{}{}", model.site.base_url, urls::short(f.id)),
    }
}

/// The state of a row as the table writes it: `affected`, or `affected
/// (observed)` for a state runs tested.
fn state_text(r: &ListRow) -> String {
    match (r.state, r.source) {
        (Some(s), Some(Source::Observed)) => format!("{} (observed)", s.label()),
        (Some(s), _) => s.label().to_string(),
        _ => String::new(),
    }
}

/// `findings list` as an aligned table. With a version, the state is that
/// version's, and the finding's own status is headed as the overall one.
pub fn list_table(rows: &[ListRow]) -> String {
    let with_state = rows.iter().any(|r| r.state.is_some());
    let mut out = String::new();
    let w = rows.iter().map(|r| r.label.len()).max().unwrap_or(2).max(2);
    let g = rows.iter().map(|r| r.group.len()).max().unwrap_or(5).max(5);
    let st = rows
        .iter()
        .map(|r| state_text(r).chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    if with_state {
        let _ = writeln!(
            out,
            "{:w$}  {:st$}  {:g$}  {:9}  TITLE",
            "ID", "STATE", "GROUP", "OVERALL"
        );
    } else {
        let _ = writeln!(out, "{:w$}  {:g$}  {:9}  TITLE", "ID", "GROUP", "STATUS");
    }
    for r in rows {
        if with_state {
            let _ = writeln!(
                out,
                "{:w$}  {:st$}  {:g$}  {:9}  {}",
                r.label,
                state_text(r),
                r.group,
                r.status,
                r.title
            );
        } else {
            let _ = writeln!(
                out,
                "{:w$}  {:g$}  {:9}  {}",
                r.label, r.group, r.status, r.title
            );
        }
    }
    out
}

/// `findings show <id>`: one finding's facts, as text.
pub fn show(model: &Model, id: u32) -> Option<String> {
    let f = model.finding(id)?;
    let mut out = String::new();
    let _ = writeln!(out, "F{}: {}", f.id, crate::markdown::plain_text(&f.title));
    let _ = writeln!(out, "advice:    {}", f.advice);
    let note = f
        .status_note
        .as_deref()
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    let _ = writeln!(out, "status:    {}{note}", f.status.as_str());
    let group = model
        .site
        .groups
        .iter()
        .find(|g| g.id == f.group)
        .map_or(f.group.as_str(), |g| g.title.as_str());
    let _ = writeln!(out, "group:     {group}");
    for e in &f.engines {
        let name = model
            .site
            .engines
            .iter()
            .find(|x| x.id == e.engine)
            .map_or(e.engine.as_str(), |x| x.name.as_str());
        let mut parts = Vec::new();
        let join = |vs: &[Version]| {
            vs.iter()
                .map(Version::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !e.affected.is_empty() {
            parts.push(format!("affected {}", join(&e.affected)));
        }
        if !e.clean.is_empty() {
            parts.push(format!("clean {}", join(&e.clean)));
        }
        if !e.seen.is_empty() {
            parts.push(format!("seen {} (not in the engine)", join(&e.seen)));
        }
        for (label, v) in [
            ("introduced in", &e.introduced_in),
            ("fixed in", &e.fixed_in),
            ("mitigated in", &e.mitigated_in),
        ] {
            if let Some(v) = v {
                parts.push(format!("{label} {v}"));
            }
        }
        // The versions runs tested where the record leaves them untested.
        let i = model.by_id.get(&f.id).copied();
        let k = f.engines.iter().position(|x| x.engine == e.engine);
        if let (Some(i), Some(k)) = (i, k) {
            if std::ptr::eq(&f.engines[k], e) {
                for (v, at) in model.observed[i]
                    .iter()
                    .filter(|(x, _)| *x == k)
                    .flat_map(|(_, at)| at)
                {
                    let (state, source, _) = model.state_at(i, k, v);
                    if source == Source::Observed {
                        let mut runs: Vec<&str> = at
                            .deciding()
                            .map(|(r, _)| model.runs[r].id.as_str())
                            .collect();
                        runs.dedup();
                        parts.push(format!(
                            "{} {} (observed: {})",
                            state.label(),
                            model.version_page(&e.engine, v),
                            runs.join(", ")
                        ));
                    }
                }
            }
        }
        if parts.is_empty() {
            parts.push("versions not stated".into());
        }
        let _ = writeln!(out, "engine:    {name}: {}", parts.join("; "));
        if let Some(n) = &e.note {
            let _ = writeln!(out, "           {n}");
        }
    }
    if !f.models.is_empty() {
        let _ = writeln!(out, "models:    {}", f.models.join(", "));
    }
    if !f.hardware.is_empty() {
        let _ = writeln!(out, "hardware:  {}", f.hardware.join(", "));
    }
    let _ = writeln!(out, "published: {}", f.published);
    if let Some(u) = f.updated {
        let _ = writeln!(out, "updated:   {u}");
    }
    if let Some(w) = &f.withdrawn {
        let _ = writeln!(out, "withdrawn: {} ({})", w.date, w.reason);
    }
    if !f.runs.is_empty() {
        let _ = writeln!(out, "runs:      {}", f.runs.join(", "));
    }
    let _ = writeln!(out, "file:      {}", f.path.display());
    let _ = writeln!(
        out,
        "url:       {}{}",
        model.site.base_url,
        urls::short(f.id)
    );
    Some(out)
}

/// Today's date from the system clock (UTC). Only `new` uses it.
pub fn today() -> Date {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_from_days((secs / 86_400) as i64)
}

/// Days since 1970-01-01 → calendar date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> Date {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = (yoe + era * 400 + i64::from(month <= 2)) as u16;
    Date { year, month, day }
}

/// A title turned into a file slug: `findings/<slug>.md`.
pub fn slug_of(title: &str) -> String {
    let plain = crate::markdown::plain_text(title);
    let mut s = crate::urls::segment(&plain).replace('.', "-");
    if s.len() > 60 {
        s.truncate(60);
        if let Some(i) = s.rfind('-') {
            s.truncate(i);
        }
    }
    s.trim_matches('-').to_string()
}

/// Why `new` refused.
#[derive(Debug, thiserror::Error)]
pub enum NewError {
    /// The target exists.
    #[error("{0} already exists; not overwriting it")]
    Exists(PathBuf),
    /// The name cannot be a slug or run id.
    #[error("{0}")]
    Invalid(String),
    /// Writing failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// The version a new finding names.
#[derive(Debug, Clone, Copy)]
pub struct NewVersion<'a> {
    /// As written.
    pub version: &'a str,
    /// Listed as seen (the problem showed while it ran, but not in the
    /// engine) rather than affected.
    pub seen: bool,
}

/// Writes a new finding with the next free id; returns its path.
pub fn new_finding(
    root: &Path,
    next_id: u32,
    title: &str,
    group: &str,
    engine: &str,
    version: Option<NewVersion<'_>>,
    today: Date,
) -> Result<PathBuf, NewError> {
    let slug = slug_of(title);
    if slug.is_empty() {
        return Err(NewError::Invalid(format!(
            "the title \"{title}\" gives no file name"
        )));
    }
    let rel = PathBuf::from("findings").join(format!("{slug}.md"));
    let versions = version.map_or_else(|| "[]".to_string(), |v| format!("[\"{}\"]", v.version));
    // Seen: the problem showed while the version ran, but not in the engine.
    let list = if version.is_some_and(|v| v.seen) {
        "seen"
    } else {
        "affected"
    };
    let title_yaml = serde_json::to_string(title).unwrap_or_default();
    // Placeholders `check` refuses on a published finding (record::placeholder).
    use crate::record::placeholder;
    let text = format!(
        "---\nid: {next_id}\ntitle: {title_yaml}\ngroup: {group}\nadvice: \"{advice}\"\nstatus: open\npublished: {today}\nengines:\n  - engine: {engine}\n    {list}: {versions}\n---\n{summary}\n\n## What we saw\n\n{seen}\n\n## What to do\n\n{todo}\n",
        advice = placeholder::ADVICE,
        summary = placeholder::NEW_BODY[0],
        seen = placeholder::NEW_BODY[1],
        todo = placeholder::NEW_BODY[2],
    );
    create(root, &rel, &text)?;
    Ok(rel)
}

/// Writes a new run folder with a run.yaml and an empty table; returns the run.yaml path.
pub fn new_run(
    root: &Path,
    id: &str,
    engine: &str,
    version: &str,
    today: Date,
) -> Result<PathBuf, NewError> {
    if !crate::load::is_slug(id) {
        return Err(NewError::Invalid(format!(
            "\"{id}\" is not a valid run id: use lowercase letters a-z, digits and '-'"
        )));
    }
    let dir = PathBuf::from("data/runs").join(id);
    let yaml = format!(
        "title: \"What was measured\"\ndate: {today}\nsetups:\n  - engine: {engine}\n    version: \"{version}\"\nnotes: Method and caveats.\ntables:\n  - file: results.csv\n    title: Results\n    columns:\n      setting: {{description: The setting measured}}\n      value: {{unit: tokens/s, description: The measured rate}}\ncharts:\n  - id: results\n    title: Results\n    table: results.csv\n    kind: bar\n    x: setting\n    y: value\n"
    );
    create(root, &dir.join("run.yaml"), &yaml)?;
    create(
        root,
        &dir.join("results.csv"),
        "setting,value\nbaseline,0\n",
    )?;
    Ok(dir.join("run.yaml"))
}

fn create(root: &Path, rel: &Path, text: &str) -> Result<(), NewError> {
    let path = root.join(rel);
    if path.exists() {
        return Err(NewError::Exists(rel.to_path_buf()));
    }
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(|source| NewError::Io {
            path: p.to_path_buf(),
            source,
        })?;
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|source| NewError::Io {
            path: rel.to_path_buf(),
            source,
        })?;
    std::io::Write::write_all(&mut f, text.as_bytes()).map_err(|source| NewError::Io {
        path: rel.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0).to_string(), "1970-01-01");
        assert_eq!(civil_from_days(20_786).to_string(), "2026-11-29");
        assert_eq!(civil_from_days(11_016).to_string(), "2000-02-29");
    }

    #[test]
    fn slugs_from_titles() {
        assert_eq!(
            slug_of("Stopping the server left the engine holding the GPU"),
            "stopping-the-server-left-the-engine-holding-the-gpu"
        );
        assert_eq!(
            slug_of("vLLM 0.32 `--kv-cache` crash!"),
            "vllm-0-32-kv-cache-crash"
        );
    }
}
