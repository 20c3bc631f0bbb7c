//! The comment that answers a paste where it was made (`findings lint
//! --format github-comment`): one Markdown comment for a GitHub issue,
//! leading with what its reader came for.
//!
//! 1. A heading with the engine version the reports ran on and how many
//!    findings apply to it ("vLLM 0.30.0: 3 findings affect it; …"), the
//!    site the findings are from (its title, linked to its `base_url`;
//!    never a local folder), and where the engine and version were read
//!    (`super::stated`: "vLLM and 0.30.0 from `vLLM Version: 0.30.0` in
//!    the issue body").
//! 2. The findings that apply at that version, as `findings audit` lists
//!    them (state, advice, permanent address); those only in range,
//!    untested, folded in a `<details>`.
//! 3. What the reports' checks flag, and the findings whose problem they
//!    show, each with the findings that name the check.
//! 4. The reports read, a row each (`reports.rs`).
//! 5. In a `<details>`: what the reports cannot tell (no count of
//!    preemptions, of the requests the server ran), each with the findings
//!    that say why it matters on the reports' engine.
//!
//! Only findings about a report's engine, or about no engine, are cited
//! (`super::cite`). For one report the comment shows at most
//! [`MAX_SHOWN`] characters outside its `<details>`.
//!
//! It starts with [`ANSWER_MARKER`], a hidden line the workflow that posts
//! it finds its own earlier answer by. It is empty when nothing was read.
//! Everything taken from a paste is written so that it cannot act in the
//! comment (`text.rs`). Credentials were taken out before the reports were
//! read (`inputs.rs`). The same inputs give the same bytes.

mod lead;
mod reports;
mod text;

pub use text::{code, prose, words};

use super::cite::AtVersion;
use super::report::{observed, verdict, Said};
use super::stated::whence_words;
use super::{Lint, LintRun};
use crate::audit::source::CatalogFinding;
use crate::checks::{self, Outcome, Verdict};
pub use crate::issue::ANSWER_MARKER;
use crate::state::State;
use crate::symptoms::Outcome as Seen;
use crate::util::and_list;
use reports::named;
use std::fmt::Write as _;
use text::{cut, link};

/// The most reports named in one line.
const MAX_NAMES: usize = 10;
/// The most versions whose findings are listed: a comment stays under
/// GitHub's 65,536 characters, whatever a thread holds.
const MAX_VERSIONS: usize = 5;
/// The most observations of symptoms listed in a section.
const MAX_SEEN: usize = 20;
/// The most characters the comment on one report shows outside its
/// `<details>`: what a maintainer reads without a click.
pub const MAX_SHOWN: usize = 2_500;

/// The comment, or nothing where [`answer`] has none to post.
pub fn comment(l: &Lint) -> String {
    answer(l).unwrap_or_default()
}

/// The comment to post, or why there is none (for stderr): a comment is
/// written only where the lint has something for the issue (`lead.rs`).
pub fn answer(l: &Lint) -> Result<String, String> {
    let setups: Vec<(&LintRun, &super::LintSetup)> = l
        .runs
        .iter()
        .flat_map(|r| r.setups.iter().map(move |s| (r, s)))
        .collect();
    let shows = l.runs.iter().any(|r| {
        seen_in(l, r)
            .iter()
            .any(|s| s.observation.outcome == Seen::Shown)
    });
    let why = lead::reasons(l, shows);
    if setups.is_empty() || !why.any() {
        return Err(lead::silence(l));
    }
    let mut out = format!("{ANSWER_MARKER}\n");
    let n = setups.len();
    let reports = if n == 1 {
        "1 benchmark report".to_string()
    } else {
        format!("{} benchmark reports", crate::figures::number(n as f64))
    };
    // The versions the findings apply at; the others are said in a line.
    let listed: Vec<&AtVersion> = l.versions.iter().filter(|v| !v.hits.is_empty()).collect();
    // One version heads the comment where every report ran it and no
    // change leads.
    let one = match (listed.as_slice(), &why.change) {
        ([v], None) if l.versions.len() == 1 && setups.iter().all(|(_, s)| v.ran(s)) => Some(*v),
        _ => None,
    };
    match (one, &why.change) {
        (_, Some((run, change))) => {
            out.push_str("### What changed between the reports\n\n");
            out.push_str(&lead::change(run, change));
        }
        (Some(v), None) => {
            let _ = writeln!(out, "### {}: {}\n", prose(&v.head()), v.verdict());
        }
        (None, None) => {
            let _ = writeln!(out, "### {reports} read against the findings\n");
        }
    }
    let whence = match &l.issue {
        Some(i) => format!(" in {}", prose(&i.read)),
        None => String::new(),
    };
    let _ = write!(
        out,
        "`findings lint` read {reports}{whence} against the findings of {}.",
        site(l)
    );
    let read_as = read_as(l, &setups);
    if !read_as.is_empty() {
        let _ = write!(out, " {read_as}");
    }
    let mut quiet: Vec<String> = l
        .versions
        .iter()
        .filter(|v| v.hits.is_empty())
        .map(|v| prose(&v.head()))
        .collect();
    if quiet.len() > MAX_NAMES {
        let more = quiet.len() - (MAX_NAMES - 1);
        quiet.truncate(MAX_NAMES - 1);
        quiet.push(format!(
            "{} more versions",
            crate::figures::number(more as f64)
        ));
    }
    if !quiet.is_empty() {
        let _ = write!(
            out,
            " No finding of the site lists {} as affected, in range, seen or mitigated.",
            or_list(&quiet)
        );
    }
    out.push_str("\n\n");
    // The sections after the heading, in order: each folds into a
    // `<details>` under its summary where one report's comment would show
    // more than MAX_SHOWN characters (the table first, the listing last).
    let mut sections: Vec<(String, String)> = Vec::new();
    let several = one.is_none();
    let mut listing = String::new();
    for v in listed.iter().take(MAX_VERSIONS) {
        at_version(&mut listing, v, several);
    }
    if listed.len() > MAX_VERSIONS {
        let _ = writeln!(
            listing,
            "… and {} more versions, not listed here (`findings lint --format json` lists them all).\n",
            crate::figures::number((listed.len() - MAX_VERSIONS) as f64)
        );
    }
    if !listing.is_empty() {
        let summary = match listed.as_slice() {
            [one] => format!("The findings on {}", prose(&one.head())),
            _ => "The findings on each version".into(),
        };
        sections.push((summary, listing));
    }
    let said = what_they_say(l);
    if !said.is_empty() {
        sections.push((
            "What the reports' checks flag".into(),
            format!("#### What the reports' checks flag\n\n{said}\n"),
        ));
    }
    sections.push((
        format!("The {} read", if n == 1 { "report" } else { "reports" }),
        reports::table(l, &setups),
    ));
    let unknown = cannot_tell(l);
    let mut tail = String::new();
    if !unknown.is_empty() {
        let items = unknown.lines().filter(|l| l.starts_with("- ")).count();
        let _ = write!(
            tail,
            "\n<details><summary>What these reports cannot tell ({items})</summary>\n\n{unknown}\n</details>\n"
        );
    }
    let _ = writeln!(
        tail,
        "\n<sub>`findings lint`: {}. The figures are the reports' own; each finding's page says what it rests on.</sub>",
        words(&verdict(l))
    );
    let mut folded = vec![false; sections.len()];
    let assemble = |folded: &[bool]| {
        let mut all = out.clone();
        for ((summary, text), fold) in sections.iter().zip(folded) {
            if *fold {
                let _ = write!(
                    all,
                    "<details><summary>{summary}</summary>\n\n{text}\n</details>\n\n"
                );
            } else {
                all.push_str(text);
            }
        }
        all.push_str(&tail);
        all
    };
    let mut done = assemble(&folded);
    if n == 1 {
        for k in (0..sections.len()).rev() {
            if shown(&done) <= MAX_SHOWN {
                break;
            }
            folded[k] = true;
            done = assemble(&folded);
        }
    }
    Ok(done)
}

/// `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The findings a verdict cites in the comment: those the lint cites
/// ([`Lint::cited`]), and of them, where a report's engine is not known,
/// only those about no engine: a comment never offers another engine's
/// finding, and an unknown engine may be any other.
fn cited<'l>(l: &'l Lint, run: &LintRun, o: &Outcome) -> Vec<&'l CatalogFinding> {
    let about: Vec<&super::LintSetup> = if o.setups.is_empty() {
        run.setups.iter().collect()
    } else {
        o.setups.iter().filter_map(|&i| run.setups.get(i)).collect()
    };
    l.cited(run, o)
        .into_iter()
        .filter(|f| {
            super::cite::about_none(f)
                || about
                    .iter()
                    .any(|s| s.engine_known() && super::cite::about(f, &s.engine))
        })
        .collect()
}

/// The observations of `run` the comment cites: those the lint cites, of
/// a report whose engine is known or of a finding about no engine.
fn seen_in<'l>(l: &'l Lint, run: &'l LintRun) -> Vec<Said<'l>> {
    observed(l, run)
        .into_iter()
        .filter(|s| {
            run.setups[s.observation.setup].engine_known() || super::cite::about_none(s.finding)
        })
        .collect()
}

/// How many characters of `comment` show outside its `<details>` (folds
/// in folds counted once).
pub fn shown(comment: &str) -> usize {
    let mut count = 0;
    let mut depth = 0usize;
    let mut rest = comment;
    loop {
        let open = rest.find("<details>");
        let close = rest.find("</details>");
        let (at, opening) = match (open, close) {
            (Some(o), Some(c)) if o < c => (o, true),
            (_, Some(c)) => (c, false),
            (Some(o), None) => (o, true),
            (None, None) => {
                if depth == 0 {
                    count += rest.chars().count();
                }
                return count;
            }
        };
        if depth == 0 {
            count += rest[..at].chars().count();
        }
        if opening {
            depth += 1;
            rest = &rest[at + "<details>".len()..];
        } else {
            depth = depth.saturating_sub(1);
            rest = &rest[at + "</details>".len()..];
        }
    }
}

/// Hosts that stand for no published site: the placeholders of examples
/// and a machine's own.
const PLACEHOLDERS: &[&str] = &[
    "example.org",
    "example.com",
    "example.net",
    "localhost",
    "127.0.0.1",
    "[::1]",
    "0.0.0.0",
];

/// What is wrong with `base_url` as the start of the comment's links, for
/// a warning: a placeholder host or none; `None` when it can be a
/// published site.
pub fn placeholder(base_url: &str) -> Option<String> {
    let rest = base_url
        .strip_prefix("https://")
        .or_else(|| base_url.strip_prefix("http://"));
    let host = rest.map(|r| {
        let h = r.split('/').next().unwrap_or("");
        let h = h.rsplit_once('@').map_or(h, |x| x.1);
        let h = if h.starts_with('[') {
            h.split_inclusive(']').next().unwrap_or(h)
        } else {
            h.split(':').next().unwrap_or(h)
        };
        h.to_ascii_lowercase()
    });
    let why = match host.as_deref() {
        Some("") => format!("{base_url}, which names no host"),
        None if base_url.trim().is_empty() => "no address: the site's base_url is empty".into(),
        None => format!("{base_url}, not an http(s) address"),
        Some(h)
            if PLACEHOLDERS
                .iter()
                .any(|p| h == *p || h.ends_with(&format!(".{p}"))) =>
        {
            format!("{base_url}, whose host {h} is a placeholder")
        }
        Some(_) => return None,
    };
    Some(format!(
        "the comment's links start with {why}, so no reader can open them; set base_url in site.yaml to where the site is published, or give --from the published site's address"
    ))
}

/// The site the findings are from: its title, linked to where it is
/// published; never a folder of this machine.
fn site(l: &Lint) -> String {
    let title = if l.title.trim().is_empty() {
        "the site"
    } else {
        l.title.trim()
    };
    link(&prose(title), Some(&l.base_url))
}

/// "Engine and version: vLLM 0.30.0, both from `vLLM Version: 0.30.0` in
/// the issue body.": where
/// each engine and version was read, each said once, in the order of the
/// reports; nothing where no report's engine or version is known.
fn read_as(l: &Lint, setups: &[(&LintRun, &super::LintSetup)]) -> String {
    let mut said: Vec<String> = Vec::new();
    // Each said once, found in a set: thousands of reports in one pass.
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (_, s) in setups {
        let name = if s.engine_known() {
            prose(l.engine_names.get(&s.engine).unwrap_or(&s.engine))
        } else {
            String::new()
        };
        let version = s.version.as_deref().zip(s.version_from.as_ref());
        let mut w = whence_words(&name, version, s.engine_from.as_ref(), &code);
        if w.is_empty() {
            continue;
        }
        if s.engine_known() && version.is_none() {
            w.push_str(" (no version stated)");
        }
        if seen.insert(w.clone()) {
            said.push(w);
        }
    }
    let more = said.len().saturating_sub(MAX_NAMES);
    said.truncate(MAX_NAMES);
    if more > 0 {
        said.push(format!("{more} more"));
    }
    let mut out = if said.is_empty() {
        String::new()
    } else {
        format!("Engine and version: {}.", said.join("; "))
    };
    // The versions the issue's title names that no report ran.
    let titled: Vec<String> = l
        .versions
        .iter()
        .filter(|v| v.titled)
        .filter_map(|v| {
            let w = v.version_from.as_ref()?.render("version", &code);
            Some(format!("{} ({w})", prose(&v.head())))
        })
        .collect();
    if !titled.is_empty() {
        if !out.is_empty() {
            out.push(' ');
        }
        let _ = write!(out, "The issue is about {} too.", and_list(&titled));
    }
    out
}

/// The findings that apply at one version, as `findings audit` lists
/// them: those tested or mitigated there, each with its state, advice and
/// address; those only in range folded in a `<details>`. Only a version
/// with findings that apply is listed (the others are said in a line).
fn at_version(out: &mut String, v: &AtVersion, several: bool) {
    if several {
        let _ = writeln!(out, "#### {}: {}\n", prose(&v.head()), v.verdict());
    }
    let item = |(state, f): &(State, CatalogFinding)| {
        format!(
            "- **{}** {}: {}.\n",
            state.label(),
            finding_link(f),
            words(f.advice.trim_end_matches('.'))
        )
    };
    let (range, shown): (Vec<_>, Vec<_>) = v.hits.iter().partition(|(s, _)| *s == State::InRange);
    out.push_str("As `findings audit` lists them:\n\n");
    for h in &shown {
        out.push_str(&item(h));
    }
    if !range.is_empty() {
        let _ = write!(
            out,
            "\n<details><summary>{} more in range, untested on {}</summary>\n\n",
            range.len(),
            prose(&v.version)
        );
        for h in &range {
            out.push_str(&item(h));
        }
        out.push_str("\n</details>\n");
    }
    out.push('\n');
}

/// The findings whose problem the reports show, then each flag that is
/// not about what the reports lack, with the findings that name its
/// check.
fn what_they_say(l: &Lint) -> String {
    let mut out = String::new();
    let shown = seen(l, Seen::Shown);
    for (run, s) in shown.iter().take(MAX_SEEN) {
        let f = s.finding;
        let _ = writeln!(
            out,
            "- **Shows {}** (`{}`) in {}: {}{}",
            finding_link(f),
            s.observation.symptom,
            named(&run.setups[s.observation.setup]),
            words(&cut(s.says())),
            s.effect
                .as_deref()
                .map(|e| format!(" ({})", words(e)))
                .unwrap_or_default()
        );
        let _ = writeln!(out, "  {}", advice(f));
    }
    more(&mut out, shown.len());
    for run in &l.runs {
        for o in run.flags().filter(|o| !missing(o)) {
            let _ = writeln!(
                out,
                "- **`{}`**{}: {}",
                o.check,
                about(run, o),
                words(&cut(own_words(run, o)))
            );
            for f in cited(l, run, o) {
                let _ = writeln!(out, "  - {}: {}", finding_link(f), advice(f));
            }
        }
    }
    out
}

/// A finding's advice and "What to do", escaped.
fn advice(f: &CatalogFinding) -> String {
    let mut s = format!("**{}.**", words(f.advice.trim_end_matches('.')));
    if !f.what_to_do.is_empty() {
        let _ = write!(s, " What to do: {}", words(&f.what_to_do));
    }
    s
}

/// `[F8: Preempted requests left no line in the log](…/f/8/)`.
fn finding_link(f: &CatalogFinding) -> String {
    link(&words(&format!("F{}: {}", f.id, f.title)), Some(&f.url))
}

/// The reports a verdict is about, linked, in the order of the thread;
/// none for the run as a whole.
fn reports(run: &LintRun, o: &Outcome) -> Vec<String> {
    let mut at = o.setups.clone();
    at.sort_unstable();
    at.dedup();
    at.iter()
        .filter_map(|&i| run.setups.get(i))
        .map(named)
        .collect()
}

/// " in [comment 3](…)": the reports a verdict is about; nothing for the
/// run as a whole.
fn about(run: &LintRun, o: &Outcome) -> String {
    let names = capped(reports(run, o));
    if names.is_empty() {
        String::new()
    } else {
        format!(" in {}", and_list(&names))
    }
}

/// At most [`MAX_NAMES`] names, then how many more.
fn capped(mut names: Vec<String>) -> Vec<String> {
    if names.len() > MAX_NAMES {
        let more = names.len() - (MAX_NAMES - 1);
        names.truncate(MAX_NAMES - 1);
        names.push(format!("{} more", crate::figures::number(more as f64)));
    }
    names
}

/// A verdict's message without "cannot tell: ", and without the name of
/// the one report it is about where it starts with it ("comment 3: 2 of
/// 400 requests failed"): the comment names the report already.
fn own_words<'o>(run: &LintRun, o: &'o Outcome) -> &'o str {
    let m = o
        .message
        .strip_prefix("cannot tell: ")
        .unwrap_or(&o.message);
    match o.setups.as_slice() {
        [one] => run
            .setups
            .get(*one)
            .and_then(|s| m.strip_prefix(&format!("{}: ", s.name)))
            .unwrap_or(m),
        _ => m,
    }
}

/// Whether a verdict is about what the reports do not record: a check
/// that cannot tell, or one whose flag is a figure not recorded.
fn missing(o: &Outcome) -> bool {
    match o.verdict {
        Verdict::CannotTell => true,
        Verdict::Flagged => checks::check(o.check).is_some_and(|c| c.flags_what_is_missing),
        _ => false,
    }
}

/// What the reports leave unknown: one item per check that cannot tell
/// (or flags what is missing), in the registry's order, with the findings
/// that name it; then the symptoms that cannot tell, with theirs.
fn cannot_tell(l: &Lint) -> String {
    let mut out = String::new();
    for c in checks::CHECKS {
        let of: Vec<(&LintRun, &Outcome)> = l
            .runs
            .iter()
            .flat_map(|r| r.outcomes.iter().map(move |o| (r, o)))
            .filter(|(_, o)| o.check == c.name && missing(o))
            // What matters on the reports' engine: a finding about it (or
            // about none) says why.
            .filter(|(r, o)| !cited(l, r, o).is_empty())
            .collect();
        if of.is_empty() {
            continue;
        }
        let mut head = c.unknown.to_string();
        if let Some(first) = head.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        let mut said = Vec::new();
        let mut names = Vec::new();
        for (run, o) in &of {
            said.push(words(&cut(own_words(run, o))));
            // The reports on an engine one of the findings is about.
            let why = cited(l, run, o);
            let mut at = o.setups.clone();
            at.sort_unstable();
            at.dedup();
            names.extend(
                at.iter()
                    .filter_map(|&i| run.setups.get(i))
                    .filter(|s| {
                        why.iter()
                            .any(|f| super::cite::cites(f, std::iter::once(s.engine.as_str())))
                    })
                    .map(named),
            );
        }
        let at = if names.is_empty() {
            String::new()
        } else {
            format!(": {}", and_list(&capped(names)))
        };
        let _ = writeln!(out, "- **{head}**{at}.");
        let _ = writeln!(
            out,
            "  - What `{}` found: {}.",
            c.name,
            said.join("; ").trim_end_matches('.')
        );
        let mut cited: Vec<&CatalogFinding> = Vec::new();
        for (run, o) in &of {
            for f in self::cited(l, run, o) {
                if !cited.iter().any(|x| x.id == f.id) {
                    cited.push(f);
                }
            }
        }
        let why: Vec<String> = cited.into_iter().map(finding_link).collect();
        if !why.is_empty() {
            let _ = writeln!(out, "  - Why it matters: {}.", why.join("; "));
        }
    }
    let quiet = seen(l, Seen::CannotTell);
    for (run, s) in quiet.iter().take(MAX_SEEN) {
        let _ = writeln!(
            out,
            "- **Whether {} shows** (`{}`) in {}: {}.",
            finding_link(s.finding),
            s.observation.symptom,
            named(&run.setups[s.observation.setup]),
            words(&cut(s.says())).trim_end_matches('.')
        );
    }
    more(&mut out, quiet.len());
    out
}

/// The observations of every run with `outcome`, each once per finding
/// that names its symptom.
fn seen(l: &Lint, outcome: Seen) -> Vec<(&LintRun, Said<'_>)> {
    l.runs
        .iter()
        .flat_map(|run| {
            seen_in(l, run)
                .into_iter()
                .filter(move |s| s.observation.outcome == outcome)
                .map(move |s| (run, s))
        })
        .collect()
}

/// "- … and 12 more": what a list of `n` left out past [`MAX_SEEN`].
fn more(out: &mut String, n: usize) {
    if n > MAX_SEEN {
        let _ = writeln!(
            out,
            "- … and {} more",
            crate::figures::number((n - MAX_SEEN) as f64)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_shows_is_what_no_fold_holds() {
        assert_eq!(shown("ab<details>x<details>y</details>z</details>cd"), 4);
        assert_eq!(shown("é<details>x</details>"), 1);
        assert_eq!(shown("no fold"), 7);
    }
}
