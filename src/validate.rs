//! Stage 2, validate: the rules that span records.
//!
//! The loader has checked each file on its own. Here the records are checked
//! against each other and against `site.yaml`: unique ids, known groups and
//! engines, coherent versions, dates in order, and every reference (runs,
//! charts, columns, `finding:`/`run:` links, site paths, fragments) resolves.
//! Every problem becomes a diagnostic; nothing stops early.

use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::load::{did_you_mean, parse_number, Loaded};
use crate::markdown;
use crate::record::*;
use crate::urls;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Checks the relations between the loaded records.
pub fn validate(loaded: &Loaded) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let Some(site) = &loaded.site else {
        return diags;
    };
    check_site(site, &mut diags);
    let runs: HashMap<&str, &Run> = loaded.runs.iter().map(|r| (r.id.as_str(), r)).collect();
    let ids: HashMap<u32, &Finding> = first_by_id(&loaded.findings);
    // Records with errors of their own still exist: references to them are fine.
    let broken_ids: HashSet<u32> = loaded.broken_findings.iter().copied().collect();
    let broken_runs: HashSet<&str> = loaded.broken_runs.iter().map(String::as_str).collect();
    let facts: HashMap<u32, markdown::BodyFacts> = loaded
        .findings
        .iter()
        .map(|f| (f.id, markdown::scan(&f.body)))
        .collect();
    let paths = site_paths(site, loaded);
    let ctx = Ctx {
        site,
        runs: &runs,
        ids: &ids,
        facts: &facts,
        paths: &paths,
        broken_ids: &broken_ids,
        broken_runs: &broken_runs,
    };

    let mut seen_ids: HashMap<u32, &Finding> = HashMap::new();
    for f in &loaded.findings {
        if let Some(first) = seen_ids.get(&f.id) {
            diags.push(
                err(
                    f,
                    "id",
                    format!("id {} is already used by {}", f.id, first.path.display()),
                )
                .hint("ids are permanent and never reused; give this finding the next free number"),
            );
        } else {
            seen_ids.insert(f.id, f);
        }
        check_finding(&ctx, f, &mut diags);
    }
    check_aliases(loaded, &paths, &mut diags);
    for r in &loaded.runs {
        check_run(site, r, &mut diags);
    }
    diags
}

struct Ctx<'a> {
    site: &'a Site,
    runs: &'a HashMap<&'a str, &'a Run>,
    ids: &'a HashMap<u32, &'a Finding>,
    facts: &'a HashMap<u32, markdown::BodyFacts>,
    paths: &'a HashSet<String>,
    broken_ids: &'a HashSet<u32>,
    broken_runs: &'a HashSet<&'a str>,
}

impl Ctx<'_> {
    fn finding_exists(&self, id: u32) -> bool {
        self.ids.contains_key(&id) || self.broken_ids.contains(&id)
    }

    fn run_exists(&self, id: &str) -> bool {
        self.runs.contains_key(id) || self.broken_runs.contains(id)
    }
}

fn first_by_id(findings: &[Finding]) -> HashMap<u32, &Finding> {
    let mut m = HashMap::new();
    for f in findings {
        m.entry(f.id).or_insert(f);
    }
    m
}

fn err(f: &Finding, field: &str, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(&f.path, f.spans.get(field), msg).field(field)
}

fn check_site(site: &Site, diags: &mut Diagnostics) {
    let file = std::path::Path::new("site.yaml");
    let mut seen = HashSet::new();
    for (i, g) in site.groups.iter().enumerate() {
        if !seen.insert(&g.id) {
            let p = format!("groups[{i}].id");
            diags.push(
                Diagnostic::error(
                    file,
                    site.spans.get(&p),
                    format!("group \"{}\" is listed twice", g.id),
                )
                .field(p),
            );
        }
    }
    let mut seen = HashSet::new();
    for (i, e) in site.engines.iter().enumerate() {
        if !seen.insert(&e.id) {
            let p = format!("engines[{i}].id");
            diags.push(
                Diagnostic::error(
                    file,
                    site.spans.get(&p),
                    format!("engine \"{}\" is listed twice", e.id),
                )
                .field(p),
            );
        }
        for (k, v) in e.releases.iter().enumerate() {
            if e.releases[..k].contains(v) {
                let p = format!("engines[{i}].releases[{k}]");
                diags.push(Diagnostic::error(file, site.spans.get(&p), format!("release \"{v}\" is listed twice (versions compare equal when only trailing zeros differ)")).field(p));
            }
        }
    }
}

fn check_finding(ctx: &Ctx<'_>, f: &Finding, diags: &mut Diagnostics) {
    let site = ctx.site;
    if !site.groups.iter().any(|g| g.id == f.group) {
        let ids: Vec<&str> = site.groups.iter().map(|g| g.id.as_str()).collect();
        diags.push(
            err(f, "group", format!("unknown group \"{}\"", f.group))
                .hint(suggest(&f.group, &ids, "groups")),
        );
    }
    let engine_ids: Vec<&str> = site.engines.iter().map(|e| e.id.as_str()).collect();
    let mut seen_engines = HashSet::new();
    for (i, e) in f.engines.iter().enumerate() {
        let p = format!("engines[{i}]");
        if !e.engine.is_empty() && !engine_ids.contains(&e.engine.as_str()) {
            diags.push(
                err(
                    f,
                    &format!("{p}.engine"),
                    format!("unknown engine \"{}\"", e.engine),
                )
                .hint(suggest(&e.engine, &engine_ids, "engines")),
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
        for (k, v) in e.clean.iter().enumerate() {
            if e.affected.contains(v) {
                diags.push(
                    err(
                        f,
                        &format!("{p}.clean[{k}]"),
                        format!("version \"{v}\" is listed both as affected and as clean"),
                    )
                    .hint("a tested version is one or the other; remove it from one list"),
                );
            }
        }
        if let Some(fix) = &e.fixed_in {
            for (k, v) in e.affected.iter().enumerate() {
                if v >= fix {
                    diags.push(err(f, &format!("{p}.affected[{k}]"), format!("affected version \"{v}\" is not below fixed_in \"{fix}\"")).hint("fixed_in names the first release with the fix, so it must be above every affected version"));
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
                        &format!("{p}.affected[{k}]"),
                        format!("affected version \"{v}\" is below introduced_in \"{intro}\""),
                    ));
                }
            }
        }
    }
    if f.status == Status::Fixed && f.engines.iter().all(|e| e.fixed_in.is_none()) {
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
            let known: Vec<&str> = ctx.runs.keys().copied().collect();
            diags.push(
                err(
                    f,
                    &format!("runs[{i}]"),
                    format!("run \"{r}\" does not exist"),
                )
                .hint(suggest_path(r, &known, "data/runs/<id>/run.yaml")),
            );
        }
    }
    for (i, c) in f.charts.iter().enumerate() {
        let p = format!("charts[{i}]");
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
            Some(run) if run.chart(chart_id).is_none() => {
                let ids: Vec<&str> = run.charts.iter().map(|c| c.id.as_str()).collect();
                diags.push(
                    err(
                        f,
                        &p,
                        format!("run \"{run_id}\" has no chart \"{chart_id}\""),
                    )
                    .hint(suggest(chart_id, &ids, "charts")),
                );
            }
            Some(_) if !f.runs.iter().any(|r| r == run_id) => {
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
        let p = format!("links[{i}].url");
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
    for (i, a) in f.aliases.iter().enumerate() {
        if !a.starts_with('/')
            || a.split('/').any(|s| s == ".." || s == ".")
            || a.contains(['?', '#', '\\'])
        {
            diags.push(
                err(
                    f,
                    &format!("aliases[{i}]"),
                    format!("\"{a}\" is not a site path"),
                )
                .hint("write an absolute path on this site, e.g. /old/kv-cache/"),
            );
        }
    }
    let facts = &ctx.facts[&f.id];
    // Line numbers in the body are relative to its start; make them file lines.
    let at = |line: usize, column: usize| Span::new(f.body_line + line - 1, column);
    if !facts.has_what_to_do {
        diags.push(
            Diagnostic::error(
                &f.path,
                Span::new(f.body_line, 1),
                "the body has no `## What to do` section",
            )
            .field("body")
            .hint("add a level-2 heading `## What to do` followed by the actionable advice"),
        );
    }
    for link in &facts.links {
        let u = link.url.as_str();
        let problem =
            if u.starts_with("https://") || u.starts_with("http://") || u.starts_with("mailto:") {
                None
            } else if u.starts_with("finding:") || u.starts_with("run:") {
                check_internal(ctx, f, u)
            } else if let Some(frag) = u.strip_prefix('#') {
                (!facts.heading_ids.iter().any(|h| h == frag))
                    .then(|| format!("no heading in this body has the id \"{frag}\""))
            } else if u.starts_with('/') && !u.starts_with("//") {
                let path = u
                    .trim_start_matches('/')
                    .split(['#', '?'])
                    .next()
                    .unwrap_or("");
                let path = if path.is_empty() || path.ends_with('/') || path.contains('.') {
                    path.to_string()
                } else {
                    format!("{path}/")
                };
                (!ctx.paths.contains(&path))
                    .then(|| format!("the site path \"{u}\" is not a page of this site"))
            } else {
                let scheme = u
                    .split(':')
                    .next()
                    .filter(|s| u.contains(':') && !s.contains('/'));
                Some(match scheme {
                    Some(s) => format!("links with the scheme \"{s}:\" are not allowed"),
                    None => format!("the relative link \"{u}\" cannot be checked"),
                })
            };
        if let Some(msg) = problem {
            diags.push(
                Diagnostic::error(&f.path, at(link.line, link.column), msg)
                    .field("body")
                    .hint("body links may be http(s)://, mailto:, finding:<id>, run:<run-id>, a site path starting with / or a #fragment"),
            );
        }
    }
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
        let Some(target) = ctx.ids.get(&id) else {
            return (!ctx.finding_exists(id)).then(|| format!("no finding has id {id}"));
        };
        if target.draft && !from.draft {
            return Some(format!(
                "finding {id} is a draft, so this link breaks in a build without --drafts"
            ));
        }
        if let Some(frag) = frag {
            if !ctx.facts[&target.id].heading_ids.iter().any(|h| h == frag) {
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

/// Every page path the site will have, for checking `/site/paths`.
fn site_paths(site: &Site, loaded: &Loaded) -> HashSet<String> {
    let mut p: HashSet<String> = [
        "",
        urls::ENGINES,
        urls::TAGS,
        urls::MODELS,
        urls::RUNS,
        "404.html",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut versions: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for e in &site.engines {
        p.insert(urls::engine(&e.id));
        versions
            .entry(&e.id)
            .or_default()
            .extend(e.releases.iter().map(|v| v.as_str().to_string()));
    }
    for g in &site.groups {
        p.insert(urls::group(&g.id));
    }
    for f in &loaded.findings {
        p.insert(urls::finding(&f.slug));
        p.insert(urls::short(f.id));
        for t in &f.tags {
            p.insert(urls::tag(t));
        }
        for m in &f.models {
            p.insert(urls::model(m));
        }
        for e in &f.engines {
            let vs = versions.entry(&e.engine).or_default();
            for v in e
                .affected
                .iter()
                .chain(&e.clean)
                .chain(&e.introduced_in)
                .chain(&e.fixed_in)
                .chain(&e.mitigated_in)
            {
                vs.push(v.as_str().to_string());
            }
        }
    }
    for r in &loaded.runs {
        for s in &r.setups {
            if let Some(v) = &s.version {
                versions.entry(&s.engine).or_default().push(v.clone());
            }
        }
    }
    for (e, vs) in versions {
        for v in vs {
            p.insert(urls::version(e, &v));
        }
    }
    p.extend(crate::outputs::reserved_paths(site, &loaded.findings));
    for r in &loaded.runs {
        p.insert(urls::run(&r.id));
        for t in &r.tables {
            p.insert(urls::run_file(&r.id, &t.file));
        }
    }
    p
}

fn check_aliases(loaded: &Loaded, paths: &HashSet<String>, diags: &mut Diagnostics) {
    let mut seen: HashMap<String, &Finding> = HashMap::new();
    for f in &loaded.findings {
        for (i, a) in f.aliases.iter().enumerate() {
            let key = alias_path(a);
            if paths.contains(&key) {
                diags.push(
                    err(
                        f,
                        &format!("aliases[{i}]"),
                        format!("alias \"{a}\" is a page of the site itself"),
                    )
                    .hint("an alias must be an old address that no page uses now"),
                );
            } else if let Some(other) = seen.get(&key) {
                diags.push(err(
                    f,
                    &format!("aliases[{i}]"),
                    format!("alias \"{a}\" is also an alias of {}", other.path.display()),
                ));
            } else {
                seen.insert(key, f);
            }
        }
    }
}

/// The output path an alias is written to: `/old/x` → `old/x/`.
pub fn alias_path(alias: &str) -> String {
    let a = alias.trim_start_matches('/');
    if a.is_empty() || a.ends_with('/') || a.ends_with(".html") {
        a.to_string()
    } else {
        format!("{a}/")
    }
}

fn check_run(site: &Site, run: &Run, diags: &mut Diagnostics) {
    let file = &run.path;
    let e =
        |field: &str, msg: String| Diagnostic::error(file, run.spans.get(field), msg).field(field);
    if run.charts.is_empty() {
        diags.push(
            Diagnostic::warning(file, run.spans.origin, "the run has no chart")
                .hint("add a chart under `charts:` so readers see the effect"),
        );
    }
    let mut seen = HashSet::new();
    for (i, t) in run.tables.iter().enumerate() {
        if !seen.insert(&t.file) {
            diags.push(e(
                &format!("tables[{i}].file"),
                format!("table \"{}\" is listed twice", t.file),
            ));
        }
    }
    let _ = site;
    let mut seen = HashSet::new();
    for c in &run.charts {
        let p = &c.path_in_yaml;
        if !c.id.is_empty() && !seen.insert(&c.id) {
            diags.push(e(
                &format!("{p}.id"),
                format!("chart id \"{}\" is used twice in this run", c.id),
            ));
        }
        let Some(table) = run.table(&c.table) else {
            if !c.table.is_empty() {
                let files: Vec<&str> = run.tables.iter().map(|t| t.file.as_str()).collect();
                diags.push(
                    e(
                        &format!("{p}.table"),
                        format!("the run has no table \"{}\"", c.table),
                    )
                    .hint(suggest(&c.table, &files, "tables")),
                );
            }
            continue;
        };
        if table.header.is_empty() {
            continue; // the table itself is already reported
        }
        let mut need = |field: String, col: &str, numeric: bool| {
            if col.is_empty() {
                return;
            }
            if table.index(col).is_none() {
                let hs: Vec<&str> = table.header.iter().map(String::as_str).collect();
                diags.push(
                    e(&field, format!("column \"{col}\" is not in {}", table.file))
                        .hint(suggest(col, &hs, "columns")),
                );
            } else if numeric && !table.column(col).is_some_and(Column::is_numeric) {
                diags.push(e(&field, format!("column \"{col}\" holds text, but this axis needs numbers")).hint(format!("give \"{col}\" a unit in the table's columns to make it numeric, or plot another column")));
            }
        };
        let numeric_x = matches!(c.kind, ChartKind::Line | ChartKind::Scatter);
        need(format!("{p}.x"), &c.x, numeric_x);
        for (k, y) in c.y.iter().enumerate() {
            let field = if c.y.len() == 1 {
                format!("{p}.y")
            } else {
                format!("{p}.y[{k}]")
            };
            need(field, y, true);
        }
        if let Some(s) = &c.series {
            need(format!("{p}.series"), s, false);
        }
        // Log axes need positive values; report the exact CSV cell.
        let rel = run.path.with_file_name(&table.file);
        let mut log_cols: Vec<&str> = Vec::new();
        if c.log_x {
            log_cols.push(&c.x);
        }
        if c.log_y {
            log_cols.extend(c.y.iter().map(String::as_str));
        }
        for col in log_cols {
            let Some(k) = table.index(col) else { continue };
            for (row, line) in table.rows.iter().zip(&table.row_lines) {
                if let Some(v) = parse_number(&row[k]) {
                    if v <= 0.0 {
                        diags.push(
                            Diagnostic::error(
                                &rel,
                                Span::new(*line, 1),
                                format!(
                                    "{} is not above zero, but chart \"{}\" draws it on a log axis",
                                    row[k], c.id
                                ),
                            )
                            .field(col.to_string())
                            .hint("use a linear axis, or leave the cell empty"),
                        );
                    }
                }
            }
        }
    }
}

fn suggest(word: &str, known: &[&str], what: &str) -> String {
    match did_you_mean(word, known) {
        Some(s) => format!("did you mean \"{s}\"?"),
        None if known.is_empty() => format!("there are no {what} defined"),
        None => {
            let mut k = known.to_vec();
            k.sort_unstable();
            format!("known {what}: {}", k.join(", "))
        }
    }
}

fn suggest_path(word: &str, known: &[&str], layout: &str) -> String {
    match did_you_mean(word, known) {
        Some(s) => format!("did you mean \"{s}\"?"),
        None => format!("a run lives in {layout}"),
    }
}
