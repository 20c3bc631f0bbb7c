//! A lint as people and programs read it: a table for a terminal, JSON,
//! Markdown for a pull-request comment, and GitHub workflow commands
//! (annotations on the result file). Each flag comes with every finding
//! that names its check: its advice, "What to do" and permanent address.
//! What the files show of the findings' symptoms comes first, each with
//! what importing them would do to the version's state (`effect.rs`).

use super::effect::effect;
use super::{Lint, LintRun, Spot};
use crate::audit::report::command;
use crate::audit::source::CatalogFinding;
use crate::checks::{Outcome, Verdict};
use crate::symptoms::{Observation, Outcome as Seen};
use std::fmt::Write as _;

/// One observation of a run against one finding that names its symptom:
/// the setup's engine name and version, and what importing the run would
/// do to the finding's state there.
pub struct Said<'l> {
    /// The observation.
    pub observation: &'l Observation,
    /// The finding.
    pub finding: &'l CatalogFinding,
    /// The setup's engine, as the site names it.
    pub engine: String,
    /// The setup's version, as written.
    pub version: Option<&'l str>,
    /// The setup's name in the run.
    pub setup: &'l str,
    /// What importing the run does to the finding's state at that version.
    pub effect: Option<String>,
    /// Whether the lint cites the finding for this setup: about the
    /// setup's engine or about none, or with an entry for it whose problem
    /// the run shows there. The formats for people leave the others out;
    /// JSON keeps them, marked.
    pub cited: bool,
}

impl Said<'_> {
    /// "F8 (preemptions-unlogged) on vLLM 0.33".
    pub fn head(&self) -> String {
        format!(
            "F{} ({}) on {}{}",
            self.finding.id,
            self.observation.symptom,
            self.engine,
            self.version.map(|v| format!(" {v}")).unwrap_or_default()
        )
    }

    /// What the observation rests on, without "cannot tell: ".
    pub fn says(&self) -> &str {
        let s = self.observation.says.as_str();
        s.strip_prefix("cannot tell: ").unwrap_or(s)
    }
}

/// Each observation of `run`, once per finding that names its symptom and
/// is cited for its setup, shown first, then absent, then cannot tell.
pub fn observed<'l>(l: &'l Lint, run: &'l LintRun) -> Vec<Said<'l>> {
    let mut all = observed_all(l, run);
    all.retain(|s| s.cited);
    all
}

/// [`observed`], the findings not cited for a setup's engine kept and
/// marked (`cited: false`).
pub fn observed_all<'l>(l: &'l Lint, run: &'l LintRun) -> Vec<Said<'l>> {
    let mut out = Vec::new();
    for o in &run.observations {
        let Some(setup) = run.setups.get(o.setup) else {
            continue;
        };
        let (engine, version) = (&setup.engine, &setup.version);
        let name = l.engine_names.get(engine).unwrap_or(engine);
        // A finding about the setup's engine, or about none; and one with
        // an entry for it whose problem the run shows there (the run is
        // the evidence that it is about this engine too).
        let about = |f: &&CatalogFinding| {
            super::cite::cites(f, std::iter::once(engine.as_str()))
                || (o.outcome == Seen::Shown && f.entries.iter().any(|e| e.engine == *engine))
        };
        for f in l.symptom_findings.get(o.symptom).into_iter().flatten() {
            out.push(Said {
                cited: about(&f),
                observation: o,
                finding: f,
                engine: name.clone(),
                version: version.as_deref(),
                setup: &setup.name,
                effect: effect(
                    f,
                    engine,
                    name,
                    version.as_deref(),
                    o.outcome,
                    "importing this run",
                ),
            });
        }
    }
    out.sort_by_key(|s| s.observation.outcome);
    out
}

/// "; they show F8 (preemptions-unlogged)", or for a folder of runs
/// "; 2 runs show F8 (preemptions-unlogged)": the findings whose symptoms
/// the files show, each once; nothing when none.
fn shows(l: &Lint) -> String {
    let mut by: Vec<((u32, &str), usize)> = Vec::new();
    for run in &l.runs {
        let mut mine: Vec<(u32, &str)> = observed(l, run)
            .iter()
            .filter(|s| s.observation.outcome == Seen::Shown)
            .map(|s| (s.finding.id, s.observation.symptom))
            .collect();
        mine.sort_unstable();
        mine.dedup();
        for m in mine {
            match by.iter_mut().find(|(x, _)| *x == m) {
                Some((_, n)) => *n += 1,
                None => by.push((m, 1)),
            }
        }
    }
    by.sort_unstable();
    let by: Vec<(String, usize)> = by
        .into_iter()
        .map(|((id, symptom), n)| (format!("F{id} ({symptom})"), n))
        .collect();
    if by.is_empty() {
        return String::new();
    }
    if l.runs.len() == 1 {
        let all: Vec<&str> = by.iter().map(|(m, _)| m.as_str()).collect();
        return format!("; they show {}", all.join(", "));
    }
    let all: Vec<String> = by
        .iter()
        .map(|(m, n)| format!("{m} in {} run{}", n, if *n == 1 { "" } else { "s" }))
        .collect();
    format!("; the runs show {}", all.join(", "))
}

/// The last line of every format: how many checks flag the files (of
/// each run, when a folder of runs was linted), and the findings whose
/// symptoms they show.
pub fn verdict(l: &Lint) -> String {
    format!("{}{}", checks_verdict(l), shows(l))
}

fn checks_verdict(l: &Lint) -> String {
    if l.runs.is_empty() {
        let read = l.issue.as_ref().map_or("the inputs", |i| i.read.as_str());
        return format!("no benchmark report in {read}");
    }
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    if let [run] = l.runs.as_slice() {
        let flags: Vec<&str> = run.flags().map(|o| o.check).collect();
        let these = if run.from_issue {
            "these reports"
        } else {
            "these files"
        };
        return match flags.len() {
            0 if run.outcomes.is_empty() => format!("no check applies to {these}"),
            0 => format!(
                "no check flags {these} ({} checked)",
                plural(run.outcomes.len(), "check", "checks")
            ),
            1 => format!("1 check flags {these}: {}", flags[0]),
            n => format!("{n} checks flag {these}: {}", flags.join(", ")),
        };
    }
    // Each check that flags, with the number of runs it flags.
    let mut by_check: Vec<(&str, usize)> = Vec::new();
    for (_, o) in l.flags() {
        match by_check.iter_mut().find(|(c, _)| *c == o.check) {
            Some((_, n)) => *n += 1,
            None => by_check.push((o.check, 1)),
        }
    }
    let flagged = l.runs.iter().filter(|r| r.flags().next().is_some()).count();
    let runs = plural(l.runs.len(), "run", "runs");
    if by_check.is_empty() {
        return format!("no check flags these {runs}");
    }
    let each: Vec<String> = by_check
        .iter()
        .map(|(c, n)| format!("{c} ({})", plural(*n, "run", "runs")))
        .collect();
    format!("{flagged} of {runs} flagged: {}", each.join(", "))
}

/// The findings a verdict cites: those that name its check, about the
/// engine of its setups or about none ([`Lint::cited`]).
fn findings_of<'l>(l: &'l Lint, run: &LintRun, o: &Outcome) -> Vec<&'l CatalogFinding> {
    l.cited(run, o)
}

/// " (F8, F10)": the findings that name the check of `o`, each as `cite`
/// writes it; nothing where no finding names it.
fn cited(l: &Lint, run: &LintRun, o: &Outcome, cite: impl Fn(&CatalogFinding) -> String) -> String {
    let all: Vec<String> = findings_of(l, run, o).into_iter().map(cite).collect();
    if all.is_empty() {
        String::new()
    } else {
        format!(" ({})", all.join(", "))
    }
}

/// The runs, each with its heading when a folder of runs was linted.
fn runs(l: &Lint) -> impl Iterator<Item = (Option<String>, &LintRun)> {
    let headed = l.runs.len() > 1;
    l.runs.iter().map(move |r| (headed.then(|| r.name()), r))
}

/// A table for a terminal.
pub fn table(l: &Lint) -> String {
    let mut out = format!("Findings from {}\n", l.source);
    if !l.runs.is_empty() {
        out.push('\n');
    }
    for (heading, run) in runs(l) {
        if let Some(h) = heading {
            let _ = writeln!(out, "{h}");
        }
        let said = observed(l, run);
        for s in said.iter().filter(|s| s.observation.outcome == Seen::Shown) {
            let effect = s
                .effect
                .as_deref()
                .map(|e| format!(", {e}"))
                .unwrap_or_default();
            let _ = writeln!(out, "= shows {}{effect}", s.head());
            let _ = writeln!(out, "    {}: {}", s.setup, s.says());
            let f = s.finding;
            let _ = writeln!(out, "    F{:<3} {}", f.id, f.title);
            let _ = writeln!(out, "         Advice: {}", f.advice);
            let _ = writeln!(out, "         {}", f.url);
            out.push('\n');
        }
        for o in run.flags() {
            let _ = writeln!(out, "! {}  {}", o.check, run.place(o));
            let _ = writeln!(out, "    {}", o.message);
            for f in findings_of(l, run, o) {
                let _ = writeln!(out, "    F{:<3} {}", f.id, f.title);
                let _ = writeln!(out, "         Advice: {}", f.advice);
                if !f.what_to_do.is_empty() {
                    let _ = writeln!(out, "         What to do: {}", f.what_to_do);
                }
                let _ = writeln!(out, "         {}", f.url);
            }
            out.push('\n');
        }
        let rest: Vec<&Outcome> = run
            .outcomes
            .iter()
            .filter(|o| o.verdict != Verdict::Flagged)
            .collect();
        for o in &rest {
            let mark = if o.verdict == Verdict::Passed {
                "✓"
            } else {
                "?"
            };
            // The findings that name the check, as the run page cites them.
            let _ = writeln!(
                out,
                "{mark} {} {}{}: {}",
                o.verdict.as_str(),
                o.check,
                cited(l, run, o, |f| format!("F{}", f.id)),
                o.message
            );
        }
        let quiet: Vec<&Said<'_>> = said
            .iter()
            .filter(|s| s.observation.outcome != Seen::Shown)
            .collect();
        for s in &quiet {
            let mark = if s.observation.outcome == Seen::Absent {
                "- absent"
            } else {
                "? cannot tell"
            };
            let effect = s
                .effect
                .as_deref()
                .map(|e| format!("; {e}"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{mark} {}: {}: {}{effect}",
                s.head(),
                s.setup,
                s.says()
            );
        }
        if run.outcomes.is_empty() && l.runs.len() > 1 {
            let _ = writeln!(out, "  no check applies");
        }
        if l.runs.len() > 1 && (!rest.is_empty() || !quiet.is_empty() || run.outcomes.is_empty()) {
            out.push('\n');
        }
    }
    if !l.skipped.is_empty() {
        let _ = writeln!(
            out,
            "{} outside the run folders not linted (name a file to lint it)",
            match l.skipped.len() {
                1 => "1 file".to_string(),
                n => format!("{n} files"),
            }
        );
    }
    let _ = writeln!(out, "\nfindings lint: {}", verdict(l));
    out
}

/// The findings at each version the runs ran on, for JSON.
fn versions_json(l: &Lint) -> serde_json::Value {
    let tick = |t: &str| format!("`{t}`");
    serde_json::Value::Array(
        l.versions
            .iter()
            .map(|v| {
                serde_json::json!({
                    "engine": v.engine,
                    "name": v.name,
                    "version": v.version,
                    "engine_from": v.engine_from.as_ref().map(|w| w.words("engine")),
                    "version_from": v.version_from.as_ref().map(|w| w.words("version")),
                    "read_as": v.whence(&tick),
                    "verdict": v.verdict(),
                    "findings": v.hits.iter().map(|(state, f)| serde_json::json!({
                        "id": f.id, "label": format!("F{}", f.id), "title": f.title,
                        "state": state.as_str(), "advice": f.advice, "url": f.url,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

/// JSON, for scripts (docs/checks.md describes it).
pub fn json(l: &Lint) -> String {
    let mut checks: Vec<serde_json::Value> = Vec::new();
    for run in &l.runs {
        for o in &run.outcomes {
            let (file, line, report, url) = match run.place(o) {
                Spot::File(f, line) => (Some(f.display().to_string()), Some(line), None, None),
                Spot::Report(name, url) => (None, None, Some(name), url),
            };
            checks.push(serde_json::json!({
                "run": run.name(),
                "name": o.check,
                "verdict": o.verdict.as_str(),
                "message": o.message,
                "file": file,
                "line": line,
                "report": report,
                "url": url,
                "setups": o.setups.iter().filter_map(|&i| run.setups.get(i).map(|s| s.name.clone())).collect::<Vec<_>>(),
                "findings": findings_of(l, run, o).iter().map(|f| serde_json::json!({
                    "id": f.id, "label": format!("F{}", f.id), "title": f.title,
                    "advice": f.advice, "what_to_do": f.what_to_do, "url": f.url,
                })).collect::<Vec<_>>(),
            }));
        }
    }
    let mut observations: Vec<serde_json::Value> = Vec::new();
    for run in &l.runs {
        for s in observed_all(l, run) {
            let f = s.finding;
            observations.push(serde_json::json!({
                "cited": s.cited,
                "run": run.name(),
                "setup": s.setup,
                "engine": run.setups[s.observation.setup].engine,
                "version": s.version,
                "symptom": s.observation.symptom,
                "outcome": s.observation.outcome.as_str(),
                "says": s.observation.says,
                "finding": {"id": f.id, "label": format!("F{}", f.id), "title": f.title, "advice": f.advice, "url": f.url},
                "effect": s.effect,
            }));
        }
    }
    // Each path once: the texts of an issue share its payload.
    let paths = |ps: &mut dyn Iterator<Item = &std::path::PathBuf>| {
        let mut out: Vec<String> = Vec::new();
        for p in ps {
            let p = p.display().to_string();
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    };
    let v = serde_json::json!({
        "source": l.source,
        "site": {"title": l.title, "base_url": l.base_url},
        "versions": versions_json(l),
        "inputs": paths(&mut l.runs.iter().flat_map(|r| r.inputs.iter().map(|(_, p)| p))),
        "runs": l.runs.iter().map(|r| serde_json::json!({
            "run": r.name(),
            "folder": r.folder.as_ref().map(|f| f.display().to_string()),
            "inputs": paths(&mut r.inputs.iter().map(|(_, p)| p)),
            "setups": r.setups.iter().map(|s| serde_json::json!({
                "name": s.name,
                "engine": s.engine,
                "version": s.version,
                "engine_from": s.engine_from.as_ref().map(|w| w.words("engine")),
                "version_from": s.version_from.as_ref().map(|w| w.words("version")),
                "tool": s.tool,
                "lines": s.lines.map(|(a, b)| [a, b]),
                "url": s.url,
            })).collect::<Vec<_>>(),
            "flagged": r.flags().count(),
        })).collect::<Vec<_>>(),
        "skipped": paths(&mut l.skipped.iter()),
        "issue": l.issue.as_ref().map(|i| serde_json::json!({
            "path": i.path.display().to_string(),
            "url": i.url,
            "read": i.read,
            "reports": l.runs.iter().filter(|r| r.from_issue).map(|r| r.setups.len()).sum::<usize>(),
        })),
        "flagged": l.flags().count(),
        "checks": checks,
        "observations": observations,
        "verdict": verdict(l),
    });
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

/// Markdown, for a pull-request comment or a job summary.
pub fn markdown(l: &Lint) -> String {
    let mut out = String::from("### findings lint\n\n");
    let site = if l.base_url.is_empty() {
        l.title.clone()
    } else {
        format!(
            "[{}]({})",
            l.title.replace('[', "\\[").replace(']', "\\]"),
            l.base_url
        )
    };
    let _ = writeln!(out, "**{}** (findings of {site}).\n", verdict(l));
    for v in &l.versions {
        let _ = writeln!(out, "**{}**: {}.\n", v.head(), v.verdict());
        let whence = v.whence(&|t: &str| format!("`{t}`"));
        if !whence.is_empty() {
            let _ = writeln!(out, "Read as {whence}.\n");
        }
        for (state, f) in &v.hits {
            let _ = writeln!(
                out,
                "- **{}** [F{}: {}]({}): {}.",
                state.label(),
                f.id,
                f.title.replace('[', "\\[").replace(']', "\\]"),
                f.url,
                f.advice.trim_end_matches('.')
            );
        }
        if !v.hits.is_empty() {
            out.push('\n');
        }
    }
    for (heading, run) in runs(l) {
        if let Some(h) = heading {
            let _ = writeln!(out, "#### `{h}`\n");
        }
        let said = observed(l, run);
        for s in said.iter().filter(|s| s.observation.outcome == Seen::Shown) {
            let f = s.finding;
            let _ = writeln!(
                out,
                "- **Shows [F{}: {}]({})** (`{}`) on {}{}: {}{}",
                f.id,
                f.title.replace('[', "\\[").replace(']', "\\]"),
                f.url,
                s.observation.symptom,
                s.engine,
                s.version.map(|v| format!(" {v}")).unwrap_or_default(),
                s.says(),
                s.effect
                    .as_deref()
                    .map(|e| format!(" ({e})"))
                    .unwrap_or_default()
            );
        }
        for o in run.flags() {
            let at = match run.place(o) {
                Spot::Report(name, Some(url)) => format!("[{name}]({url})"),
                spot => format!("`{spot}`"),
            };
            let _ = writeln!(out, "- **`{}`** ({at}): {}", o.check, o.message);
            for f in findings_of(l, run, o) {
                let _ = write!(
                    out,
                    "  - [F{}: {}]({}): {}.",
                    f.id,
                    f.title.replace('[', "\\[").replace(']', "\\]"),
                    f.url,
                    f.advice.trim_end_matches('.')
                );
                if !f.what_to_do.is_empty() {
                    let _ = write!(out, " What to do: {}", f.what_to_do);
                }
                out.push('\n');
            }
        }
        let rest: Vec<&Outcome> = run
            .outcomes
            .iter()
            .filter(|o| o.verdict != Verdict::Flagged)
            .collect();
        if !rest.is_empty() {
            out.push_str("\n| check | verdict | what it found |\n|---|---|---|\n");
            for o in rest {
                let _ = writeln!(
                    out,
                    "| `{}`{} | {} | {} |",
                    o.check,
                    cited(l, run, o, |f| format!("[F{}]({})", f.id, f.url)),
                    o.verdict.as_str(),
                    o.message.replace('|', "\\|")
                );
            }
        }
        let quiet: Vec<&Said<'_>> = said
            .iter()
            .filter(|s| s.observation.outcome != Seen::Shown)
            .collect();
        if !quiet.is_empty() {
            out.push_str("\n| finding | symptom | on | outcome | what the files show |\n|---|---|---|---|---|\n");
            for s in quiet {
                let _ = writeln!(
                    out,
                    "| [F{}]({}) | `{}` | {}{} | {} | {}{} |",
                    s.finding.id,
                    s.finding.url,
                    s.observation.symptom,
                    s.engine,
                    s.version.map(|v| format!(" {v}")).unwrap_or_default(),
                    s.observation.outcome.label(),
                    s.says().replace('|', "\\|"),
                    s.effect
                        .as_deref()
                        .map(|e| format!(" ({e})"))
                        .unwrap_or_default()
                        .replace('|', "\\|")
                );
            }
        }
        if l.runs.len() > 1 {
            out.push('\n');
        }
    }
    out
}

/// GitHub workflow commands: a warning on the result file for each flag,
/// then the verdict.
pub fn github(l: &Lint) -> String {
    let mut out = String::new();
    for (run, o) in l.flags() {
        let spot = run.place(o);
        let see: Vec<String> = findings_of(l, run, o)
            .iter()
            .map(|f| format!("F{}", f.id))
            .collect();
        let title = if see.is_empty() {
            o.check.to_string()
        } else {
            format!("{} (see {})", o.check, see.join(", "))
        };
        let mut message = o.message.clone();
        for f in findings_of(l, run, o) {
            let _ = write!(message, "\nF{}: {}\nAdvice: {}", f.id, f.title, f.advice);
            if !f.what_to_do.is_empty() {
                let _ = write!(message, "\nWhat to do: {}", f.what_to_do);
            }
            let _ = write!(message, "\n{}", f.url);
        }
        // A report of an issue has no file to annotate: the report and its
        // address lead the message.
        let (file, line) = match spot {
            Spot::File(f, line) => (Some(f.display().to_string()), line),
            report @ Spot::Report(..) => {
                message = format!("{report}: {message}");
                (None, 1)
            }
        };
        command(&mut out, "warning", file.as_deref(), line, &title, &message);
    }
    for run in &l.runs {
        for s in observed(l, run) {
            if s.observation.outcome != Seen::Shown {
                continue;
            }
            let file = run
                .inputs
                .first()
                .filter(|_| !run.from_issue)
                .map(|(_, p)| p.display().to_string());
            let f = s.finding;
            let mut message = format!("{}: {}", s.setup, s.says());
            if let Some(e) = &s.effect {
                let _ = write!(message, "\n{e}");
            }
            let _ = write!(
                message,
                "\nF{}: {}\nAdvice: {}\n{}",
                f.id, f.title, f.advice, f.url
            );
            command(
                &mut out,
                "notice",
                file.as_deref(),
                1,
                &format!("shows {}", s.head()),
                &message,
            );
        }
    }
    let _ = writeln!(out, "findings lint: {}", verdict(l));
    out
}
