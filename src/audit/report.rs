//! An audit, written for its reader: a table for a terminal, JSON for
//! tools, Markdown for a pull-request comment or a job summary, and GitHub
//! workflow commands that annotate the line pinning each version.
//!
//! Every format carries the same findings, states and problems; only the
//! shape differs. Each finding is written `F7` and linked to its permanent
//! address.

use super::{Audit, Catalog, Deployment, Hit};
use crate::state::State;
use serde::Serialize;
use std::fmt::Write as _;

/// The version of the JSON shape below.
pub const SCHEMA_VERSION: u32 = 1;

/// One line about the outcome, for every format.
pub fn verdict(a: &Audit) -> String {
    let failing = a.failing();
    let errors = a.problems.iter().filter(|p| p.is_error).count();
    let mut s = if a.deployments.is_empty() {
        "no engine versions to check".to_string()
    } else if failing == 0 {
        format!(
            "no finding fails this audit (it fails on {})",
            a.fail_on.describe()
        )
    } else {
        format!(
            "{} {} this audit (it fails on {})",
            failing,
            if failing == 1 {
                "finding fails"
            } else {
                "findings fail"
            },
            a.fail_on.describe()
        )
    };
    if errors > 0 {
        let _ = write!(
            s,
            "; {} could not be read, so the audit is incomplete",
            if errors == 1 {
                "1 pin".to_string()
            } else {
                format!("{errors} pins")
            }
        );
    }
    s
}

fn heading(c: &Catalog, d: &Deployment) -> String {
    format!("{} {}", c.engines[d.engine].name, d.version)
}

fn pinned_at(d: &Deployment) -> String {
    d.pins
        .iter()
        .map(|p| format!("{} ({})", p.place(), p.text))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The table for a terminal.
pub fn table(c: &Catalog, a: &Audit) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Findings from {}", a.source);
    if a.deployments.is_empty() {
        let _ = writeln!(out, "\n{}", nothing_found(c, a));
    }
    for d in &a.deployments {
        let _ = writeln!(out, "\n{}: pinned at {}", heading(c, d), pinned_at(d));
        if d.hits.is_empty() {
            let _ = writeln!(
                out,
                "  no finding has an entry for {}",
                c.engines[d.engine].name
            );
            continue;
        }
        let w = d
            .hits
            .iter()
            .map(|h| c.findings[h.finding].id.to_string().len() + 1)
            .max()
            .unwrap_or(2);
        for h in d.hits.iter().filter(|h| h.applies()) {
            let f = &c.findings[h.finding];
            let mark = if h.fails { "!" } else { " " };
            let _ = writeln!(
                out,
                "{mark} {:w$}  {:9}  {}",
                format!("F{}", f.id),
                h.state.label(),
                f.title
            );
            let pad = " ".repeat(w + 4);
            let _ = writeln!(out, "{pad}{} (overall: {})", f.advice, f.status);
            if !f.what_to_do.is_empty() {
                let _ = writeln!(out, "{pad}What to do: {}", f.what_to_do);
            }
            let _ = writeln!(out, "{pad}{}", f.url);
        }
        if let Some(rest) = others(c, d) {
            let _ = writeln!(out, "  {rest}");
        }
    }
    for p in &a.problems {
        let kind = if p.is_error { "error" } else { "note" };
        let _ = writeln!(
            out,
            "\n{}: {kind}: {}\n  hint: {}",
            p.place(),
            p.message,
            p.hint
        );
    }
    let _ = writeln!(out, "\n{}", verdict(a));
    out
}

/// The findings with an entry for the engine that say nothing to act on
/// at this version (fixed, clean, unknown), in one line.
fn others(c: &Catalog, d: &Deployment) -> Option<String> {
    let mut parts = Vec::new();
    for state in [State::Fixed, State::Clean, State::Unknown] {
        let ids: Vec<String> = d
            .hits
            .iter()
            .filter(|h| h.state == state)
            .map(|h| format!("F{}", c.findings[h.finding].id))
            .collect();
        if !ids.is_empty() {
            parts.push(format!("{}: {}", state.label(), ids.join(", ")));
        }
    }
    (!parts.is_empty()).then(|| {
        format!(
            "Also with an entry for {}, nothing to act on at {}: {}",
            c.engines[d.engine].name,
            d.version,
            parts.join("; ")
        )
    })
}

/// What to say when the inputs pin no engine.
fn nothing_found(c: &Catalog, a: &Audit) -> String {
    let names: Vec<String> = c
        .engines
        .iter()
        .flat_map(|e| e.packages.iter().chain(&e.images))
        .cloned()
        .collect();
    let files = if a.files.is_empty() {
        "the arguments".to_string()
    } else {
        a.files.join(", ")
    };
    if names.is_empty() {
        format!("{files} name no engine: the site lists no packages or images for its engines, so only --engine ID=VERSION can name one")
    } else {
        format!("{files} name no engine (looked for: {})", names.join(", "))
    }
}

/// JSON, for tools.
pub fn json(c: &Catalog, a: &Audit) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        schema_version: u32,
        source: &'a str,
        fail_on: &'a str,
        failed: bool,
        incomplete: bool,
        exit_status: u8,
        deployments: Vec<Dep<'a>>,
        problems: Vec<Prob<'a>>,
    }
    #[derive(Serialize)]
    struct Dep<'a> {
        engine: &'a str,
        engine_name: &'a str,
        version: &'a str,
        pinned_at: Vec<At<'a>>,
        findings: Vec<Found<'a>>,
    }
    #[derive(Serialize)]
    struct At<'a> {
        file: Option<&'a str>,
        line: Option<usize>,
        text: &'a str,
    }
    #[derive(Serialize)]
    struct Found<'a> {
        id: u32,
        label: String,
        title: &'a str,
        state: State,
        tested: bool,
        applies: bool,
        fails: bool,
        status: &'a str,
        advice: &'a str,
        what_to_do: &'a str,
        url: &'a str,
    }
    #[derive(Serialize)]
    struct Prob<'a> {
        engine: &'a str,
        file: &'a str,
        line: usize,
        text: &'a str,
        message: &'a str,
        hint: &'a str,
        severity: &'a str,
    }
    let found = |h: &Hit| {
        let f = &c.findings[h.finding];
        Found {
            id: f.id,
            label: format!("F{}", f.id),
            title: &f.title,
            state: h.state,
            tested: h.state.is_tested(),
            applies: h.applies(),
            fails: h.fails,
            status: &f.status,
            advice: &f.advice,
            what_to_do: &f.what_to_do,
            url: &f.url,
        }
    };
    let out = Out {
        schema_version: SCHEMA_VERSION,
        source: &a.source,
        fail_on: a.fail_on.as_str(),
        failed: a.failed(),
        incomplete: a.incomplete(),
        exit_status: a.exit_status(),
        deployments: a
            .deployments
            .iter()
            .map(|d| Dep {
                engine: &c.engines[d.engine].id,
                engine_name: &c.engines[d.engine].name,
                version: d.version.as_str(),
                pinned_at: d
                    .pins
                    .iter()
                    .map(|p| At {
                        file: p.file.as_deref(),
                        line: p.file.as_ref().map(|_| p.line),
                        text: &p.text,
                    })
                    .collect(),
                findings: d.hits.iter().map(found).collect(),
            })
            .collect(),
        problems: a
            .problems
            .iter()
            .map(|p| Prob {
                engine: &c.engines[p.engine].id,
                file: &p.file,
                line: p.line,
                text: &p.text,
                message: &p.message,
                hint: &p.hint,
                severity: if p.is_error { "error" } else { "note" },
            })
            .collect(),
    };
    serde_json::to_string_pretty(&out).unwrap_or_default() + "\n"
}

/// Markdown for a GitHub issue, pull-request comment or job summary.
pub fn markdown(c: &Catalog, a: &Audit) -> String {
    let mut out = String::from("## findings audit\n\n");
    let _ = writeln!(out, "**{}.**\n", capitalize(&verdict(a)));
    let _ = writeln!(out, "Findings from {}.", cell(&a.source));
    if a.deployments.is_empty() {
        let _ = writeln!(out, "\n{}.", cell(&nothing_found(c, a)));
    }
    for d in &a.deployments {
        let _ = writeln!(out, "\n### {}\n", cell(&heading(c, d)));
        let places: Vec<String> = d
            .pins
            .iter()
            .map(|p| match &p.file {
                Some(f) => format!("`{}` line {} (`{}`)", f, p.line, p.text),
                None => format!("`{}`", p.text),
            })
            .collect();
        let _ = writeln!(out, "Pinned in {}.\n", places.join(", "));
        if d.hits.is_empty() {
            let _ = writeln!(
                out,
                "No finding has an entry for {}.",
                cell(&c.engines[d.engine].name)
            );
            continue;
        }
        if d.hits.iter().any(Hit::applies) {
            out.push_str("| Finding | State | Advice | What to do |\n|---|---|---|---|\n");
        }
        for h in d.hits.iter().filter(|h| h.applies()) {
            let f = &c.findings[h.finding];
            let state = if h.fails {
                format!("**{}**", h.state.label())
            } else {
                h.state.label().to_string()
            };
            let _ = writeln!(
                out,
                "| [F{}]({}): {} | {} | {} | {} |",
                f.id,
                f.url,
                cell(&f.title),
                state,
                cell(&f.advice),
                cell(&f.what_to_do)
            );
        }
        if let Some(rest) = others(c, d) {
            let _ = writeln!(out, "\n{}.", cell(&rest));
        }
    }
    if !a.problems.is_empty() {
        out.push_str("\n### Pins that name no version\n\n");
        for p in &a.problems {
            let kind = if p.is_error { "Error" } else { "Note" };
            let _ = writeln!(
                out,
                "- {kind}, `{}` line {}: {} ({})",
                p.file,
                p.line,
                cell(&p.message),
                cell(&p.hint)
            );
        }
    }
    out
}

/// Text for a Markdown table cell or list item: one line; `|` escaped
/// everywhere (GitHub splits a row on it even inside code); `\` and `<`
/// escaped outside code spans only, since inside them they are shown as
/// written.
fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_code = false;
    for c in s.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                out.push(c);
            }
            '|' => out.push_str("\\|"),
            '\n' | '\r' => out.push(' '),
            '\\' if !in_code => out.push_str("\\\\"),
            '<' if !in_code => out.push_str("&lt;"),
            _ => out.push(c),
        }
    }
    out
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// GitHub Actions workflow commands: one annotation per finding on each
/// line that pins the version (an error when the finding fails the run, a
/// warning when it applies without failing it, a notice otherwise), and one
/// per problem.
pub fn github(c: &Catalog, a: &Audit) -> String {
    let mut out = String::new();
    for d in &a.deployments {
        for h in d.hits.iter().filter(|h| h.applies()) {
            let f = &c.findings[h.finding];
            let level = if h.fails {
                "error"
            } else if matches!(h.state, State::Affected | State::InRange) {
                "warning"
            } else {
                "notice"
            };
            let title = format!("F{} {} on {}", f.id, h.state.label(), heading(c, d));
            let mut message = format!("{}\nAdvice: {} (overall: {})", f.title, f.advice, f.status);
            if !f.what_to_do.is_empty() {
                let _ = write!(message, "\nWhat to do: {}", f.what_to_do);
            }
            let _ = write!(message, "\n{}", f.url);
            for p in &d.pins {
                command(&mut out, level, p.file.as_deref(), p.line, &title, &message);
            }
        }
        if let Some(rest) = others(c, d) {
            let title = format!("{}: other findings", heading(c, d));
            for p in &d.pins {
                command(&mut out, "notice", p.file.as_deref(), p.line, &title, &rest);
            }
        }
    }
    for p in &a.problems {
        let level = if p.is_error { "error" } else { "notice" };
        let title = format!("{} version not readable", c.engines[p.engine].name);
        let message = format!("{}\n{}", p.message, p.hint);
        command(&mut out, level, Some(&p.file), p.line, &title, &message);
    }
    let _ = writeln!(out, "findings audit: {}", verdict(a));
    out
}

/// An error that stopped the audit before it had a report (a source or an
/// input that cannot be read), as a workflow command, so that the run's
/// annotations say why it failed.
pub fn github_error(
    file: Option<&str>,
    line: Option<usize>,
    message: &str,
    hint: Option<&str>,
) -> String {
    let mut out = String::new();
    let text = match hint {
        Some(h) => format!("{message}\nhint: {h}"),
        None => message.to_string(),
    };
    let mut props = Vec::new();
    if let Some(f) = file {
        props.push(format!("file={}", property(f)));
        if let Some(l) = line {
            props.push(format!("line={l}"));
        }
    }
    props.push("title=findings audit could not run".to_string());
    let _ = writeln!(out, "::error {}::{}", props.join(","), data(&text));
    out
}

pub(crate) fn command(
    out: &mut String,
    level: &str,
    file: Option<&str>,
    line: usize,
    title: &str,
    message: &str,
) {
    let mut props = Vec::new();
    if let Some(f) = file {
        props.push(format!("file={}", property(f)));
        props.push(format!("line={line}"));
    }
    props.push(format!("title={}", property(title)));
    let _ = writeln!(out, "::{level} {}::{}", props.join(","), data(message));
}

/// Escapes a workflow command's message.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_command_escapes() {
        assert_eq!(data("50% of it\nnext"), "50%25 of it%0Anext");
        assert_eq!(property("a:b,c"), "a%3Ab%2Cc");
        assert_eq!(cell("a | b\n<c>"), "a \\| b &lt;c>");
        assert_eq!(cell("`x<y\\z` and <z>"), "`x<y\\z` and &lt;z>");
    }
}
