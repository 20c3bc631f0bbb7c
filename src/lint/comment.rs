//! The comment that answers a paste where it was made (`findings lint
//! --format github-comment`): one Markdown comment for a GitHub issue,
//! with
//!
//! - the reports read, each linked to where it was found, with its tool,
//!   engine, model, workload and headline figures;
//! - what the findings say of them: each flag with the findings that name
//!   its check (advice, "What to do", permanent address), and the findings
//!   whose problem the reports show;
//! - what the reports cannot tell (no count of preemptions, no count of
//!   the requests the server ran), each with the findings that say why it
//!   matters: the checks that cannot tell, and those whose flag is a
//!   figure the reports do not record (`Check::flags_what_is_missing`).
//!
//! It starts with [`ANSWER_MARKER`], a hidden line the workflow that posts
//! it finds its own earlier answer by. It is empty when nothing was read.
//!
//! Everything taken from a paste is written so that it cannot act in the
//! comment: names and models in code spans, prose with Markdown's
//! punctuation escaped and `@` and `#` kept from mentioning or linking (a
//! zero-width space after them), addresses only when they are plain
//! `http(s)` ones. Credentials were taken out before the reports were read
//! (`inputs.rs`). The same inputs give the same bytes.

use super::report::{observed, verdict, Said};
use super::{Lint, LintRun, LintSetup};
use crate::audit::source::CatalogFinding;
use crate::checks::{self, Outcome, Verdict};
pub use crate::issue::ANSWER_MARKER;
use crate::results::vocabulary::ResultCol as R;
use crate::results::Columns;
use crate::symptoms::Outcome as Seen;
use crate::util::and_list;
use std::fmt::Write as _;

/// The most reports the table lists: a comment on GitHub holds at most
/// 65,536 characters, and a thread seldom pastes more.
const MAX_ROWS: usize = 30;
/// The most reports named in one line.
const MAX_NAMES: usize = 10;
/// The longest a check's or a symptom's words are quoted, in characters.
const MAX_WORDS: usize = 700;
/// The most observations of symptoms listed in a section.
const MAX_SEEN: usize = 20;

/// The comment, or nothing when no report was read.
pub fn comment(l: &Lint) -> String {
    let setups: Vec<(&LintRun, &LintSetup)> = l
        .runs
        .iter()
        .flat_map(|r| r.setups.iter().map(move |s| (r, s)))
        .collect();
    if setups.is_empty() {
        return String::new();
    }
    let mut out = format!("{ANSWER_MARKER}\n");
    let n = setups.len();
    let reports = if n == 1 {
        "1 benchmark report".to_string()
    } else {
        format!("{} benchmark reports", crate::figures::number(n as f64))
    };
    let _ = writeln!(out, "### {reports} read against the findings\n");
    let whence = match &l.issue {
        Some(i) => format!(" in {}", prose(&i.read)),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "`findings lint` read {reports}{whence} and checked {} against the findings ({}).\n",
        if n == 1 { "it" } else { "them" },
        source(&l.source)
    );
    out.push_str("| report | tool | engine | model | workload | figures |\n");
    out.push_str("|---|---|---|---|---|---|\n");
    for (_, s) in setups.iter().take(MAX_ROWS) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            cell(&named(s)),
            cell(&s.tool.map_or_else(|| "not stated".into(), code)),
            cell(&engine(l, s)),
            cell(
                &s.fact("model")
                    .map_or_else(|| "not stated".into(), |m| code(&m))
            ),
            cell(&workload(s)),
            cell(&headline(s)),
        );
    }
    if n > MAX_ROWS {
        let _ = writeln!(
            out,
            "\n… and {} more reports, not listed here (`findings lint --format json` lists them all).",
            crate::figures::number((n - MAX_ROWS) as f64)
        );
    }
    let said = what_they_say(l);
    if !said.is_empty() {
        out.push_str("\n#### What the findings say of them\n\n");
        out.push_str(&said);
    }
    let unknown = cannot_tell(l);
    if !unknown.is_empty() {
        out.push_str("\n#### What these reports cannot tell\n\n");
        out.push_str(&unknown);
    }
    let _ = writeln!(
        out,
        "\n<sub>`findings lint`: {}. The figures are the reports' own; each finding's page says what it rests on.</sub>",
        words(&verdict(l))
    );
    out
}

/// Where the findings came from: a link for a site's address.
fn source(s: &str) -> String {
    match safe_url(s) {
        Some(u) => format!("from <{u}>"),
        None => prose(s),
    }
}

/// A report's name, linked to where it was found.
fn named(s: &LintSetup) -> String {
    link(&prose(&s.name), s.url.as_deref())
}

/// "vLLM 0.30", "vLLM (no version stated)", or "not stated".
fn engine(l: &Lint, s: &LintSetup) -> String {
    if !s.engine_known() {
        return match &s.version {
            Some(v) => format!("not stated (version {})", code(v)),
            None => "not stated".into(),
        };
    }
    let name = l.engine_names.get(&s.engine).unwrap_or(&s.engine);
    match &s.version {
        Some(v) => format!("{} {}", prose(name), code(v)),
        None => format!("{} (no version stated)", prose(name)),
    }
}

/// What the client was asked: requests, at once, rate, lengths; for
/// llama-bench, its tests.
fn workload(s: &LintSetup) -> String {
    let Some(row) = s.results.first() else {
        return "not stated".into();
    };
    if row.num(R::TokensPerS).is_some() {
        let tests: Vec<String> = s.results.iter().map(test_name).collect();
        return prose(&tests.join(", "));
    }
    let mut parts = Vec::new();
    // The requests sent: as asked, else those that completed and failed.
    let sent = row.num(R::NumPrompts).or_else(|| {
        let done = row.num(R::Completed)?;
        Some(done + row.num(R::Failed).unwrap_or(0.0))
    });
    if let Some(n) = sent {
        parts.push(format!("{} requests", crate::figures::number(n)));
    }
    match row.num(R::MaxConcurrency) {
        Some(c) if c.is_finite() => parts.push(format!("{} at once", crate::figures::number(c))),
        _ => {}
    }
    match row.num(R::RequestRate) {
        Some(r) if r.is_infinite() => parts.push("rate unlimited".into()),
        Some(r) => parts.push(format!("{} req/s", crate::figures::number(r))),
        None => {}
    }
    let done = row.num(R::Completed).filter(|d| *d > 0.0);
    if let (Some(i), Some(o), Some(d)) = (row.num(R::InputTokens), row.num(R::OutputTokens), done) {
        parts.push(format!(
            "{} in, {} out (mean tokens a request)",
            crate::figures::number((i / d).round()),
            crate::figures::number((o / d).round())
        ));
    }
    if s.results.len() > 1 {
        parts.push(format!("{} results; the first shown", s.results.len()));
    }
    if parts.is_empty() {
        "not stated".into()
    } else {
        prose(&parts.join(", "))
    }
}

/// A llama-bench test as its table names it: `pp512`, `tg128 @ d4096`.
fn test_name(row: &crate::results::Row<R>) -> String {
    let n = |c| row.num(c).filter(|x| *x > 0.0).map(crate::figures::number);
    let mut t = match (n(R::NPrompt), n(R::NGen)) {
        (Some(p), Some(g)) => format!("pp{p}+tg{g}"),
        (Some(p), None) => format!("pp{p}"),
        (None, Some(g)) => format!("tg{g}"),
        (None, None) => "test".into(),
    };
    if let Some(d) = n(R::NDepth) {
        let _ = write!(t, " @ d{d}");
    }
    t.replace(',', "")
}

/// The headline figures of a report: throughput, then latency.
fn headline(s: &LintSetup) -> String {
    let Some(row) = s.results.first() else {
        return "none".into();
    };
    let with = |c: R| {
        let unit = R::ALL[c.index()].unit;
        row.num(c).map(|x| crate::figures::with_unit(x, Some(unit)))
    };
    if row.num(R::TokensPerS).is_some() {
        let each: Vec<String> = s
            .results
            .iter()
            .filter_map(|r| {
                let x = r.num(R::TokensPerS)?;
                Some(format!(
                    "{} {}",
                    test_name(r),
                    crate::figures::with_unit(x, Some("t/s"))
                ))
            })
            .collect();
        return prose(&each.join(", "));
    }
    let mut parts = Vec::new();
    match (with(R::OutputThroughput), with(R::TotalTokenThroughput)) {
        (Some(o), _) => parts.push(format!("{o} output")),
        (None, Some(t)) => parts.push(format!("{t} total")),
        _ => {}
    }
    if let Some(r) = with(R::RequestThroughput) {
        parts.push(r);
    }
    let pair = |name: &str, mid: [R; 2], tail: R| -> Option<String> {
        let (label, m) = match (with(mid[0]), with(mid[1])) {
            (Some(p50), _) => ("p50", p50),
            (None, Some(mean)) => ("mean", mean),
            (None, None) => return with(tail).map(|t| format!("{name} p99 {t}")),
        };
        Some(match with(tail) {
            Some(t) => format!("{name} {label} {m}, p99 {t}"),
            None => format!("{name} {label} {m}"),
        })
    };
    if let Some(t) = pair("TTFT", [R::TtftMsP50, R::TtftMsMean], R::TtftMsP99) {
        parts.push(t);
    }
    if let Some(t) = pair("TPOT", [R::TpotMsP50, R::TpotMsMean], R::TpotMsP99)
        .or_else(|| pair("ITL", [R::ItlMsP50, R::ItlMsMean], R::ItlMsP99))
    {
        parts.push(t);
    }
    if parts.len() < 2 {
        if let Some(t) = pair("latency", [R::E2elMsP50, R::E2elMsMean], R::E2elMsP99) {
            parts.push(t);
        }
    }
    if let Some(f) = row.num(R::Failed).filter(|f| *f > 0.0) {
        parts.push(format!("{} failed", crate::figures::number(f)));
    }
    if parts.is_empty() {
        "none".into()
    } else {
        prose(&parts.join(" · "))
    }
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
            for f in l.findings.get(o.check).into_iter().flatten() {
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
            names.extend(reports(run, o));
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
        let why: Vec<String> = l
            .findings
            .get(c.name)
            .into_iter()
            .flatten()
            .map(finding_link)
            .collect();
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
            observed(l, run)
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

/// Words quoted at most [`MAX_WORDS`] characters long: cut after the last
/// "; " that fits (a check names each report in a clause of its own), or
/// at a character, with "…".
fn cut(words: &str) -> std::borrow::Cow<'_, str> {
    if words.chars().count() <= MAX_WORDS {
        return words.into();
    }
    let end = words
        .char_indices()
        .nth(MAX_WORDS)
        .map_or(words.len(), |(i, _)| i);
    let head = &words[..end];
    let head = head.rfind("; ").map_or(head, |i| &head[..i]);
    format!("{head}; …").into()
}

/// A table cell: its pipes escaped, its lines joined.
fn cell(s: &str) -> String {
    s.replace('\n', " ").replace('|', "\\|")
}

/// `text` as a code span: shown as typed, never a mention, a link or
/// HTML; a fence longer than any run of backticks in it.
pub fn code(text: &str) -> String {
    let t = text.replace(['\n', '\r'], " ");
    let mut longest = 0;
    let mut run = 0;
    for c in t.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    let pad = if t.starts_with('`') || t.ends_with('`') || t.starts_with(' ') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{t}{pad}{fence}")
}

/// Words of a check, a symptom or a finding: their `code` as code spans,
/// the rest as [`prose`]; a backtick left open is a backtick.
pub fn words(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    let mut out = String::with_capacity(text.len() + 8);
    for (i, part) in parts.iter().enumerate() {
        if i % 2 == 1 && i + 1 < parts.len() {
            out.push_str(&code(part));
        } else {
            if i % 2 == 1 {
                out.push_str("\\`");
            }
            out.push_str(&prose(part));
        }
    }
    out
}

/// `text` as Markdown prose that reads as typed: Markdown's and HTML's
/// punctuation escaped, and `@` and `#` before a letter or digit kept from
/// mentioning someone or linking an issue (a zero-width space after them).
pub fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '!' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '@' | '#' => {
                out.push(c);
                if chars.peek().is_some_and(|n| n.is_alphanumeric()) {
                    out.push('\u{200B}');
                }
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// An address fit for a link: `http(s)`, nothing that could end the link
/// or open HTML; parentheses encoded.
fn safe_url(url: &str) -> Option<String> {
    let ok = (url.starts_with("https://") || url.starts_with("http://"))
        && url.len() > 8
        && !url.chars().any(|c| {
            c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '`' | '\\')
        });
    ok.then(|| url.replace('(', "%28").replace(')', "%29"))
}

/// `[text](url)`, or the text alone where the address is not fit.
fn link(text: &str, url: Option<&str>) -> String {
    match url.and_then(safe_url) {
        Some(u) => format!("[{text}]({u})"),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_comes_from_a_paste_cannot_act_in_the_comment() {
        assert_eq!(code("@user <img src=x>"), "`@user <img src=x>`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(
            prose("@user said <img src=x> [a](javascript:1) #12 & *b*"),
            "@\u{200B}user said \\<img src=x\\> \\[a\\](javascript:1) #\u{200B}12 \\& \\*b\\*"
        );
        assert_eq!(safe_url("javascript:alert(1)"), None);
        assert_eq!(safe_url("https://x/a b"), None);
        assert_eq!(
            safe_url("https://github.com/o/r/issues/1#issuecomment-2").as_deref(),
            Some("https://github.com/o/r/issues/1#issuecomment-2")
        );
        assert_eq!(link("t", Some("https://e/(x)")), "[t](https://e/%28x%29)");
        assert_eq!(cell("a|b\nc"), "a\\|b c");
        assert_eq!(
            words("count the `-> pause` lines, `@x` and `open"),
            "count the `-> pause` lines, `@x` and \\`open"
        );
    }
}
