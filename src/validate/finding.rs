//! The rules of one finding against the rest: known group and engines,
//! coherent versions and dates, existing runs, charts and superseding
//! finding, allowed links, and body links that resolve (`finding:`/`run:`
//! references, `/site/paths`, `#fragments`).
//!
//! Takes the shared `Ctx` and the finding's [`BodyFacts`]; hands on its
//! diagnostics, in the order of the finding's fields and then of its body.

use super::hints::{Hints, Known};
use super::{err, Ctx};
use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::record::*;
use crate::urls;
use crate::version::Version;
use std::collections::HashSet;

pub(super) fn check_finding(
    ctx: &Ctx<'_>,
    f: &Finding,
    facts: &BodyFacts,
    diags: &mut Diagnostics,
) {
    check_placeholders(f, diags);
    let mut hints = Hints::new();
    if !ctx.groups.contains(&f.group) {
        diags.push(
            err(f, "group", format!("unknown group \"{}\"", f.group)).hint(hints.suggest(
                &f.group,
                &ctx.groups,
                "groups",
            )),
        );
    }
    let mut seen_engines = HashSet::new();
    for (i, e) in f.engines.iter().enumerate() {
        let p = f.spans.item("engines", i);
        if !e.engine.is_empty() && !ctx.engines.contains(&e.engine) {
            diags.push(
                err(
                    f,
                    &format!("{p}.engine"),
                    format!("unknown engine \"{}\"", e.engine),
                )
                .hint(hints.suggest(&e.engine, &ctx.engines, "engines")),
            );
        }
        if !seen_engines.insert(&e.engine) {
            diags.push(
                err(
                    f,
                    &format!("{p}.engine"),
                    format!("engine \"{}\" has two entries", e.engine),
                )
                .hint("merge them into one entry"),
            );
        }
        let affected: HashSet<&Version> = e.affected.iter().collect();
        let clean: HashSet<&Version> = e.clean.iter().collect();
        for (k, v) in e.clean.iter().enumerate() {
            if affected.contains(v) {
                diags.push(
                    err(
                        f,
                        &f.spans.item(&format!("{p}.clean"), k),
                        format!("version \"{v}\" is listed both as affected and as clean"),
                    )
                    .hint("a tested version is one or the other; remove it from one list"),
                );
            }
        }
        // Seen says the fault is not in the engine, which neither affected
        // nor clean can say of the same version.
        for (k, v) in e.seen.iter().enumerate() {
            let other = if affected.contains(v) {
                "affected"
            } else if clean.contains(v) {
                "clean"
            } else {
                continue;
            };
            diags.push(
                err(
                    f,
                    &f.spans.item(&format!("{p}.seen"), k),
                    format!("version \"{v}\" is listed both as {other} and as seen"),
                )
                .hint("a tested version is affected (a fault of the engine), clean (it did not show) or seen (it showed, but not because of the engine); keep it in one list"),
            );
        }
        if let Some(fix) = &e.fixed_in {
            for (k, v) in e.affected.iter().enumerate() {
                if v >= fix {
                    diags.push(err(f, &f.spans.item(&format!("{p}.affected"), k), format!("affected version \"{v}\" is not below fixed_in \"{fix}\"")).hint("fixed_in names the first release with the fix, so it must be above every affected version"));
                }
            }
            if let Some(intro) = &e.introduced_in {
                if intro >= fix {
                    diags.push(err(
                        f,
                        &format!("{p}.introduced_in"),
                        format!("introduced_in \"{intro}\" is not below fixed_in \"{fix}\""),
                    ));
                }
            }
        }
        if let Some(intro) = &e.introduced_in {
            for (k, v) in e.affected.iter().enumerate() {
                if v < intro {
                    diags.push(err(
                        f,
                        &f.spans.item(&format!("{p}.affected"), k),
                        format!("affected version \"{v}\" is below introduced_in \"{intro}\""),
                    ));
                }
            }
        }
    }
    // A fixed_in that is written but unreadable is reported by the loader.
    let fixed_in_written = (0..f.engines.len()).any(|i| {
        f.spans
            .has(&format!("{}.fixed_in", f.spans.item("engines", i)))
    });
    if f.status == Status::Fixed
        && f.engines.iter().all(|e| e.fixed_in.is_none())
        && !fixed_in_written
    {
        diags.push(
            err(
                f,
                "status",
                "status is fixed but no engine entry has fixed_in",
            )
            .hint("add fixed_in to the engine entry, or use status open or mitigated"),
        );
    }
    if let Some(u) = f.updated {
        if u < f.published {
            diags.push(err(
                f,
                "updated",
                format!("updated {u} is before published {}", f.published),
            ));
        }
    }
    if let Some(w) = &f.withdrawn {
        if w.date < f.published {
            diags.push(err(
                f,
                "withdrawn.date",
                format!("withdrawn {} is before published {}", w.date, f.published),
            ));
        }
    }
    if let Some(s) = f.superseded_by {
        if s == f.id {
            diags.push(err(f, "superseded_by", "a finding cannot supersede itself"));
        } else if !ctx.finding_exists(s) {
            diags.push(err(f, "superseded_by", format!("no finding has id {s}")));
        }
    }
    for (i, r) in f.runs.iter().enumerate() {
        if !ctx.run_exists(r) {
            diags.push(
                err(
                    f,
                    &f.spans.item("runs", i),
                    format!("run \"{r}\" does not exist"),
                )
                .hint(hints.suggest_path(
                    r,
                    &ctx.run_ids,
                    "data/runs/<id>/run.yaml",
                )),
            );
        }
    }
    for a in &f.acknowledged {
        if !ctx.run_exists(&a.run) {
            let field = format!("{}.run", a.path_in_yaml);
            diags.push(
                err(f, &field, format!("run \"{}\" does not exist", a.run))
                    .hint(hints.suggest_path(&a.run, &ctx.run_ids, "data/runs/<id>/run.yaml")),
            );
        }
    }
    let runs: HashSet<&str> = f.runs.iter().map(String::as_str).collect();
    let no_charts = Known::new([]);
    let known_charts = |run_id: &str| ctx.chart_ids.get(run_id).unwrap_or(&no_charts);
    for (i, c) in f.charts.iter().enumerate() {
        let p = f.spans.item("charts", i);
        let Some((run_id, chart_id)) = c.split_once('/') else {
            diags.push(err(
                f,
                &p,
                format!("\"{c}\" is not of the form <run-id>/<chart-id>"),
            ));
            continue;
        };
        match ctx.runs.get(run_id) {
            None if ctx.broken_runs.contains(run_id) => {}
            None => diags.push(err(f, &p, format!("run \"{run_id}\" does not exist"))),
            Some(_) if !known_charts(run_id).contains(chart_id) => {
                diags.push(
                    err(
                        f,
                        &p,
                        format!("run \"{run_id}\" has no chart \"{chart_id}\""),
                    )
                    .hint(hints.suggest(
                        chart_id,
                        known_charts(run_id),
                        "charts",
                    )),
                );
            }
            Some(_) if !runs.contains(run_id) => {
                diags.push(
                    err(
                        f,
                        &p,
                        format!("the chart's run \"{run_id}\" is not in this finding's runs"),
                    )
                    .hint(format!("add `{run_id}` to runs")),
                );
            }
            Some(_) => {}
        }
    }
    for (i, l) in f.links.iter().enumerate() {
        let p = format!("{}.url", f.spans.item("links", i));
        let u = l.url.as_str();
        if u.starts_with("https://") || u.starts_with("http://") {
            if u.len() <= "https://".len() || u.contains(char::is_whitespace) {
                diags.push(err(f, &p, format!("\"{u}\" is not a valid URL")));
            }
        } else if u.starts_with("finding:") || u.starts_with("run:") {
            if let Some(msg) = check_internal(ctx, f, u) {
                diags.push(err(f, &p, msg));
            }
        } else {
            diags.push(
                err(f, &p, format!("\"{u}\" is not an allowed link"))
                    .hint("links are http(s)://…, finding:<id> or run:<run-id>"),
            );
        }
    }
    // Line numbers in the body are relative to its start; make them file lines.
    let at = |line: usize, column: usize| Span::new(f.body_line + line - 1, column);
    // A code block left open runs to the end of the body and swallows what
    // follows: say where it opened, and blame it for a heading it hides.
    let fence_line = facts.unclosed_fence.map(|n| f.body_line + n - 1);
    if let (Some(n), Some(line)) = (facts.unclosed_fence, fence_line) {
        diags.push(
            Diagnostic::error(
                &f.path,
                at(n, 1),
                format!("the code block opened at line {line} is never closed"),
            )
            .field("body")
            .hint("end it with a line of the same fence (``` or ~~~, at least as long); until then everything below it is code, headings included"),
        );
    }
    if !facts.has_what_to_do {
        let hidden = facts.unclosed_fence.and_then(|n| {
            f.body
                .lines()
                .enumerate()
                .skip(n)
                .find(|(_, l)| {
                    l.trim_start()
                        .strip_prefix("## ")
                        .is_some_and(|h| h.trim().eq_ignore_ascii_case("what to do"))
                })
                .map(|(k, _)| k + 1)
        });
        let d = match (hidden, fence_line) {
            (Some(k), Some(open)) => Diagnostic::error(
                &f.path,
                at(k, 1),
                format!("the body has no `## What to do` section: its heading is inside the code block opened at line {open}, which is never closed"),
            )
            .hint("close the code block above the heading"),
            _ => Diagnostic::error(
                &f.path,
                Span::new(f.body_line, 1),
                "the body has no `## What to do` section",
            )
            .hint("add a level-2 heading `## What to do` followed by the actionable advice"),
        };
        diags.push(d.field("body"));
    }
    let headings: HashSet<&str> = facts.heading_ids.iter().map(String::as_str).collect();
    const LINK_HINT: &str = "body links may be http(s)://, mailto:, finding:<id>, run:<run-id>, a site path starting with / or a #fragment";
    for link in &facts.links {
        let u = link.url.as_str();
        let problem: Option<(String, Option<String>)> = if u.starts_with("https://")
            || u.starts_with("http://")
            || u.starts_with("mailto:")
        {
            None
        } else if u.starts_with("finding:") || u.starts_with("run:") {
            check_internal(ctx, f, u).map(|m| (m, None))
        } else if let Some(frag) = u.strip_prefix('#') {
            (!headings.contains(frag)).then(|| {
                (
                    format!("no heading in this body has the id \"{frag}\""),
                    None,
                )
            })
        } else if u.starts_with('/') && !u.starts_with("//") {
            site_path_problem(ctx, f, u)
        } else {
            let scheme = u
                .split(':')
                .next()
                .filter(|s| u.contains(':') && !s.contains('/'));
            Some(match scheme {
                    Some(s) => (format!("links with the scheme \"{s}:\" are not allowed"), None),
                    None if u.starts_with("//") => (
                        format!("the protocol-relative link \"{u}\" is not allowed; write https:{u}"),
                        None,
                    ),
                    None if u.trim().is_empty() => (
                        "the link has an empty target".to_string(),
                        Some("write the address between the parentheses: [text](https://…), [text](finding:<id>) or [text](/site/path/)".to_string()),
                    ),
                    None if looks_like_a_host(u) => (
                        format!("the link \"{u}\" has no scheme, so it would lead to a page of this site"),
                        Some(format!("for the web address, write https://{u}")),
                    ),
                    None => (format!("the relative link \"{u}\" cannot be checked"), None),
                })
        };
        if let Some((msg, hint)) = problem {
            diags.push(
                Diagnostic::error(&f.path, at(link.line, link.column), msg)
                    .field("body")
                    .hint(hint.unwrap_or_else(|| LINK_HINT.to_string())),
            );
        }
    }
}

/// Whether a link target without a scheme starts like a host name
/// (`github.com/org/repo`, `www.example.org`, `docs.vllm.ai`): `www.`, or a
/// first segment with a dot that ends in letters, as a domain does.
fn looks_like_a_host(u: &str) -> bool {
    let host = u.split(['/', '?', '#']).next().unwrap_or("");
    if host.starts_with("www.") {
        return true;
    }
    let Some((name, tld)) = host.rsplit_once('.') else {
        return false;
    };
    !name.is_empty()
        && tld.len() >= 2
        && tld.bytes().all(|b| b.is_ascii_alphabetic())
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        // A file name is not a host: `notes.md`, `run.yaml`, `chart.svg`.
        && !matches!(
            tld.to_ascii_lowercase().as_str(),
            "md" | "html" | "htm" | "yaml" | "yml" | "csv" | "json" | "txt" | "svg" | "png" | "jpg" | "jpeg" | "gif" | "pdf" | "py" | "sh" | "rs" | "js" | "css"
        )
}

/// Checks a `/site/path` link of a body against the pages a build writes:
/// the build without drafts for a finding that is not a draft, the build
/// with `--drafts` for a draft. Returns the problem and a hint.
fn site_path_problem(ctx: &Ctx<'_>, f: &Finding, u: &str) -> Option<(String, Option<String>)> {
    let path = u
        .trim_start_matches('/')
        .split(['#', '?'])
        .next()
        .unwrap_or("");
    let pages = if f.draft { ctx.with_drafts } else { ctx.public };
    if pages.has(path) {
        return None;
    }
    if !f.draft && ctx.with_drafts.has(path) {
        return Some((
            format!("the site path \"{u}\" is a page only in a build with --drafts"),
            Some("link to it once the draft is published, or make this finding a draft too".into()),
        ));
    }
    let msg = format!("the site path \"{u}\" is not a page of this site");
    // A version written another way ("0.32" for the page "0.32.0").
    let mut parts = path.trim_end_matches('/').split('/');
    if let (Some("engines"), Some(engine), Some(v), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    {
        if let Ok(v) = Version::parse(v) {
            if let Some(page) = pages.versions.get(engine).and_then(|vs| vs.get(&v)) {
                return Some((
                    msg,
                    Some(format!(
                        "this version's page is spelt as in site.yaml's releases (or as first written): /{}",
                        urls::version(engine, page.as_str())
                    )),
                ));
            }
        }
    }
    Some((msg, None))
}

/// Checks a `finding:N[#frag]` or `run:ID` reference; returns the problem.
fn check_internal(ctx: &Ctx<'_>, from: &Finding, u: &str) -> Option<String> {
    if let Some(rest) = u.strip_prefix("finding:") {
        let (num, frag) = match rest.split_once('#') {
            Some((n, f)) => (n, Some(f)),
            None => (rest, None),
        };
        let Ok(id) = num.parse::<u32>() else {
            return Some(format!("\"{u}\" does not name a finding number"));
        };
        let Some(&t) = ctx.ids.get(&id) else {
            return (!ctx.finding_exists(id)).then(|| format!("no finding has id {id}"));
        };
        let target = &ctx.findings[t];
        if target.draft && !from.draft {
            return Some(format!(
                "finding {id} is a draft, so this link breaks in a build without --drafts"
            ));
        }
        if let Some(frag) = frag {
            if !ctx.headings[t].contains(frag) {
                return Some(format!(
                    "finding {id} has no heading with the id \"{frag}\""
                ));
            }
        }
        None
    } else if let Some(id) = u.strip_prefix("run:") {
        (!ctx.run_exists(id)).then(|| format!("run \"{id}\" does not exist"))
    } else {
        None
    }
}

/// A published finding that still says what `findings new` or `findings
/// init` wrote for its author to replace would go out with "Say what to do
/// in a few words" as its advice: refused, field by field. A draft is not
/// published, so it may keep them while it is written.
fn check_placeholders(f: &Finding, diags: &mut Diagnostics) {
    use crate::record::placeholder;
    if f.draft {
        return;
    }
    const HINT: &str = "replace it with what the finding says, or add `draft: true` until it is ready (`findings serve --drafts` shows drafts)";
    if f.title.trim() == placeholder::EXAMPLE_TITLE {
        diags.push(
            err(
                f,
                "title",
                format!(
                    "title is still the example's placeholder \"{}\"",
                    placeholder::EXAMPLE_TITLE
                ),
            )
            .hint(HINT),
        );
    }
    if f.advice.trim() == placeholder::ADVICE {
        diags.push(
            err(
                f,
                "advice",
                format!(
                    "advice is still the placeholder \"{}\"",
                    placeholder::ADVICE
                ),
            )
            .hint(HINT),
        );
    }
    for (i, text) in placeholder::placeholder_lines(&f.body) {
        diags.push(
            Diagnostic::error(
                &f.path,
                Span::new(f.body_line + i, 1),
                format!("the body still has the placeholder \"{text}\""),
            )
            .field("body")
            .hint(HINT),
        );
    }
}
