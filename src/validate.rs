//! Stage 2, validate: the rules that span records.
//!
//! The loader has checked each file on its own. Here the records are checked
//! against each other and against `site.yaml`: unique ids, known groups and
//! engines, coherent versions, dates in order, and every reference (runs,
//! charts, columns, `finding:`/`run:` links, site paths, fragments) resolves.
//! Every problem becomes a diagnostic; nothing stops early.

use crate::chart;
use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::load::{did_you_mean, parse_number, Loaded};
use crate::record::*;
use crate::urls;
use crate::version::Version;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// Checks the relations between the loaded records.
pub fn validate(loaded: &Loaded) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let Some(site) = &loaded.site else {
        return diags;
    };
    check_site(site, &mut diags);
    let runs: HashMap<&str, &Run> = loaded.runs.iter().map(|r| (r.id.as_str(), &**r)).collect();
    let ids = first_by_id(&loaded.findings);
    // Records with errors of their own still exist: references to them are fine.
    let broken_ids: HashSet<u32> = loaded.broken_findings.iter().copied().collect();
    let broken_runs: HashSet<&str> = loaded.broken_runs.iter().map(String::as_str).collect();
    let facts: Vec<&BodyFacts> = loaded.findings.iter().map(|f| &f.facts).collect();
    let (public, with_drafts) = rayon::join(
        || site_pages(site, &loaded.findings, &loaded.runs, false),
        || site_pages(site, &loaded.findings, &loaded.runs, true),
    );
    let ctx = Ctx {
        findings: &loaded.findings,
        site,
        runs: &runs,
        ids: &ids,
        facts: &facts,
        public: &public,
        with_drafts: &with_drafts,
        broken_ids: &broken_ids,
        broken_runs: &broken_runs,
    };

    let mut seen_ids: HashMap<u32, &Finding> = HashMap::new();
    for f in loaded.findings.iter() {
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
    }
    // Each record's own checks, in parallel; diagnostics stay in record order.
    use rayon::prelude::*;
    let per_finding: Vec<Diagnostics> = loaded
        .findings
        .par_iter()
        .enumerate()
        .map(|(i, f)| {
            let mut d = Diagnostics::new();
            check_finding(&ctx, f, facts[i], &mut d);
            d
        })
        .collect();
    per_finding.into_iter().for_each(|d| diags.extend(d));
    check_aliases(loaded, &public, &with_drafts, &mut diags);
    let colors: BTreeMap<String, String> = site
        .engines
        .iter()
        .map(|e| (e.id.clone(), e.color.clone()))
        .collect();
    let names: BTreeMap<String, String> = site
        .engines
        .iter()
        .map(|e| (e.id.clone(), e.name.clone()))
        .collect();
    let per_run: Vec<Diagnostics> = loaded
        .runs
        .par_iter()
        .map(|r| {
            let mut d = Diagnostics::new();
            check_run(loaded, r, &colors, &names, &mut d);
            d
        })
        .collect();
    per_run.into_iter().for_each(|d| diags.extend(d));
    diags
}

struct Ctx<'a> {
    findings: &'a [Arc<Finding>],
    site: &'a Site,
    runs: &'a HashMap<&'a str, &'a Run>,
    /// Index in `findings` of the first finding with each id.
    ids: &'a HashMap<u32, usize>,
    /// Body facts, by index in `findings`.
    facts: &'a [&'a BodyFacts],
    /// The pages of a build without drafts.
    public: &'a Pages,
    /// The pages of a build with `--drafts`.
    with_drafts: &'a Pages,
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

fn first_by_id(findings: &[std::sync::Arc<Finding>]) -> HashMap<u32, usize> {
    let mut m = HashMap::new();
    for (i, f) in findings.iter().enumerate() {
        m.entry(f.id).or_insert(i);
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
            let p = format!("{}.id", site.spans.item("groups", i));
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
            let p = format!("{}.id", site.spans.item("engines", i));
            diags.push(
                Diagnostic::error(
                    file,
                    site.spans.get(&p),
                    format!("engine \"{}\" is listed twice", e.id),
                )
                .field(p),
            );
        }
        let list = format!("{}.releases", site.spans.item("engines", i));
        for (k, v) in e.releases.iter().enumerate() {
            if e.releases[..k].contains(v) {
                let p = site.spans.item(&list, k);
                diags.push(Diagnostic::error(file, site.spans.get(&p), format!("release \"{v}\" is listed twice (versions compare equal when only trailing zeros differ)")).field(p));
            }
        }
    }
}

fn check_finding(ctx: &Ctx<'_>, f: &Finding, facts: &BodyFacts, diags: &mut Diagnostics) {
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
        let p = f.spans.item("engines", i);
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
                        &f.spans.item(&format!("{p}.clean"), k),
                        format!("version \"{v}\" is listed both as affected and as clean"),
                    )
                    .hint("a tested version is one or the other; remove it from one list"),
                );
            }
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
            let known: Vec<&str> = ctx.runs.keys().copied().collect();
            diags.push(
                err(
                    f,
                    &f.spans.item("runs", i),
                    format!("run \"{r}\" does not exist"),
                )
                .hint(suggest_path(r, &known, "data/runs/<id>/run.yaml")),
            );
        }
    }
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
    const LINK_HINT: &str = "body links may be http(s)://, mailto:, finding:<id>, run:<run-id>, a site path starting with / or a #fragment";
    for link in &facts.links {
        let u = link.url.as_str();
        let problem: Option<(String, Option<String>)> =
            if u.starts_with("https://") || u.starts_with("http://") || u.starts_with("mailto:") {
                None
            } else if u.starts_with("finding:") || u.starts_with("run:") {
                check_internal(ctx, f, u).map(|m| (m, None))
            } else if let Some(frag) = u.strip_prefix('#') {
                (!facts.heading_ids.iter().any(|h| h == frag)).then(|| {
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
                Some((
                    match scheme {
                        Some(s) => format!("links with the scheme \"{s}:\" are not allowed"),
                        None if u.starts_with("//") => format!(
                            "the protocol-relative link \"{u}\" is not allowed; write https:{u}"
                        ),
                        None => format!("the relative link \"{u}\" cannot be checked"),
                    },
                    None,
                ))
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
            if let Some(page) = pages
                .versions
                .get(engine)
                .and_then(|vs| vs.iter().find(|p| **p == v))
            {
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
            if !ctx.facts[t].heading_ids.iter().any(|h| h == frag) {
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

/// The pages a build writes, for checking `/site/paths` and aliases.
#[derive(Debug, Default)]
pub struct Pages {
    /// Every page and published CSV file, as site paths ([`crate::urls`]):
    /// `findings/x/`, `runs/r/t.csv`.
    pub paths: HashSet<String>,
    /// Per engine id, the versions that have a page, each spelt as its page
    /// is ([`crate::model::Model::version_page`]).
    pub versions: HashMap<String, Vec<Version>>,
}

impl Pages {
    /// True when `path` (without its leading `/`) is a page; a folder page
    /// may be written without its trailing `/`.
    pub fn has(&self, path: &str) -> bool {
        self.paths.contains(path)
            || (!path.is_empty()
                && !path.ends_with('/')
                && self.paths.contains(&format!("{path}/")))
    }
}

/// Every page path of a build (with or without drafts), for tests and
/// tools: what [`site_pages`] finds.
pub fn site_paths(loaded: &Loaded, drafts: bool) -> HashSet<String> {
    match &loaded.site {
        Some(site) => site_pages(site, &loaded.findings, &loaded.runs, drafts).paths,
        None => HashSet::new(),
    }
}

/// The pages that `render` writes for these records. It follows the model
/// ([`crate::model::Model::build`]): drafts only with `drafts`; tag and
/// model pages only for listed findings (not withdrawn, not superseded);
/// one page per distinct engine version, spelt as in `releases`, else as
/// first seen in findings by id, then in runs by id.
pub fn site_pages(
    site: &Site,
    findings: &[std::sync::Arc<Finding>],
    runs: &[std::sync::Arc<Run>],
    drafts: bool,
) -> Pages {
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
    let mut built: Vec<&Finding> = findings
        .iter()
        .map(|f| &**f)
        .filter(|f| drafts || !f.draft)
        .collect();
    built.sort_by_key(|f| f.id);
    let mut runs: Vec<&Run> = runs.iter().map(|r| &**r).collect();
    runs.sort_by(|a, b| a.id.cmp(&b.id));
    for g in &site.groups {
        p.insert(urls::group(&g.id));
    }
    for f in &built {
        p.insert(urls::finding(&f.slug));
        p.insert(urls::short(f.id));
        if f.withdrawn.is_none() && f.superseded_by.is_none() {
            for t in &f.tags {
                p.insert(urls::tag(t));
            }
            for m in &f.models {
                p.insert(urls::model(m));
            }
        }
    }
    let mut versions: HashMap<String, Vec<Version>> = HashMap::new();
    for e in &site.engines {
        p.insert(urls::engine(&e.id));
        let vs = versions.entry(e.id.clone()).or_default();
        let mut add = |v: &Version| {
            if !vs.contains(v) {
                vs.push(v.clone());
            }
        };
        e.releases.iter().for_each(&mut add);
        for f in &built {
            for x in f.engines.iter().filter(|x| x.engine == e.id) {
                x.affected
                    .iter()
                    .chain(&x.clean)
                    .chain(&x.introduced_in)
                    .chain(&x.fixed_in)
                    .chain(&x.mitigated_in)
                    .for_each(&mut add);
            }
        }
        for r in &runs {
            for s in r.setups.iter().filter(|s| s.engine == e.id) {
                if let Some(v) = s.version.as_deref().and_then(|v| Version::parse(v).ok()) {
                    add(&v);
                }
            }
        }
        for v in vs.iter() {
            p.insert(urls::version(&e.id, v.as_str()));
        }
    }
    // The search and status pages, feeds, exports and other files that
    // src/outputs.rs writes, but not the folders it reserves next to its
    // files (`atom.xml/`): those are no pages, and aliases are checked
    // against files separately.
    let mut reserved = urls::reserved(site);
    reserved.extend(built.iter().map(|f| urls::finding_json(f.id)));
    for r in &reserved {
        if !(r.ends_with('/') && reserved.contains(&r[..r.len() - 1].to_string())) {
            p.insert(r.clone());
        }
    }
    for r in &runs {
        p.insert(urls::run(&r.id));
        for t in &r.tables {
            p.insert(urls::run_file(&r.id, &t.file));
        }
    }
    Pages { paths: p, versions }
}

/// The file a page path is written to: `x/` → `x/index.html`.
fn page_file(path: &str) -> String {
    if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    }
}

/// Why an alias is not a usable site path, if it is not.
fn alias_problem(a: &str) -> Option<&'static str> {
    if !a.starts_with('/') {
        Some("it does not start with /")
    } else if a.contains(['?', '#', '\\']) {
        Some("it contains ?, # or \\")
    } else if a.chars().any(|c| c.is_control() || c.is_whitespace()) {
        Some("it contains a space or a control character")
    } else if a[1..].split('/').any(|s| s == ".." || s == ".") {
        Some("it has a . or .. segment")
    } else if a.contains("//") {
        Some("it has an empty segment (//)")
    } else if a.split('/').any(|s| s.len() > 200) {
        Some("a segment is longer than 200 bytes")
    } else {
        None
    }
}

fn check_aliases(loaded: &Loaded, public: &Pages, with_drafts: &Pages, diags: &mut Diagnostics) {
    // Every file a build may write: pages (with or without drafts), run
    // tables, built-in and generated files, and the site's static/ files.
    let mut files: HashSet<String> = public
        .paths
        .iter()
        .chain(&with_drafts.paths)
        .map(|p| page_file(p))
        .collect();
    files.extend(loaded.static_files.iter().cloned());
    let mut seen: HashMap<String, &Finding> = HashMap::new();
    for f in &loaded.findings {
        for (i, a) in f.aliases.iter().enumerate() {
            let field = f.spans.item("aliases", i);
            if let Some(why) = alias_problem(a) {
                diags.push(
                    err(f, &field, format!("\"{a}\" is not a site path: {why}"))
                        .hint("write an absolute path on this site, e.g. /old/kv-cache/"),
                );
                continue;
            }
            let key = urls::alias(a);
            let file = page_file(&key);
            let folder_of = file
                .match_indices('/')
                .map(|(k, _)| &file[..k])
                .find(|d| files.contains(*d));
            let literal = a.trim_start_matches('/');
            if [public, with_drafts]
                .iter()
                .any(|p| p.paths.contains(&key) || p.has(literal))
            {
                diags.push(
                    err(
                        f,
                        &field,
                        format!("alias \"{a}\" is a page of the site itself"),
                    )
                    .hint("an alias must be an old address that no page uses now"),
                );
            } else if files.contains(&file) {
                diags.push(
                    err(
                        f,
                        &field,
                        format!("alias \"{a}\" would replace /{file}, a file the site publishes"),
                    )
                    .hint("an alias must be an old address that no page or file uses now"),
                );
            } else if let Some(d) = folder_of {
                diags.push(
                    err(
                        f,
                        &field,
                        format!("alias \"{a}\" needs a folder /{d}/, but the site publishes a file there"),
                    )
                    .hint("an alias must be an old address that no page or file uses now"),
                );
            } else if let Some(other) = seen.get(&file) {
                diags.push(err(
                    f,
                    &field,
                    format!("alias \"{a}\" is also an alias of {}", other.path.display()),
                ));
            } else {
                seen.insert(file, f);
            }
        }
    }
}

fn check_run(
    loaded: &Loaded,
    run: &Run,
    colors: &BTreeMap<String, String>,
    names: &BTreeMap<String, String>,
    diags: &mut Diagnostics,
) {
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
    for t in &run.tables {
        if !seen.insert(&t.file) {
            diags.push(e(
                &format!("{}.file", t.path_in_yaml),
                format!("table \"{}\" is listed twice", t.file),
            ));
        }
    }
    let mut seen = HashSet::new();
    for c in &run.charts {
        let p = &c.path_in_yaml;
        // This chart's own problems, to know whether it can be drawn.
        let mut mine = Diagnostics::new();
        if !c.id.is_empty() && !seen.insert(&c.id) {
            mine.push(e(
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
            diags.extend(mine);
            continue;
        };
        if table.header.is_empty() {
            diags.extend(mine);
            continue; // the table itself is already reported
        }
        let mut need = |field: String, col: &str, numeric: bool| {
            if col.is_empty() {
                return;
            }
            if table.index(col).is_none() {
                let hs: Vec<&str> = table.header.iter().map(String::as_str).collect();
                mine.push(
                    e(&field, format!("column \"{col}\" is not in {}", table.file))
                        .hint(suggest(col, &hs, "columns")),
                );
            } else if numeric && table.column(col).is_some_and(|c| !c.is_numeric()) {
                mine.push(e(&field, format!("column \"{col}\" holds text, but this axis needs numbers")).hint(format!("give \"{col}\" a unit in the table's columns to make it numeric, or plot another column")));
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
                        mine.push(
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
        let values = table.rows.len().saturating_mul(c.y.len());
        if values > chart::MAX_CHART_VALUES && !loaded.files_with_errors.contains(&rel) {
            mine.push(
                e(
                    p,
                    format!(
                        "chart \"{}\" would draw {values} values ({} rows × {} y columns); the limit is {}",
                        c.id,
                        table.rows.len(),
                        c.y.len(),
                        chart::MAX_CHART_VALUES
                    ),
                )
                .hint("chart a summary of the data (its CSV table is published in full anyway), or split it into several charts"),
            );
        }
        // Read the chart's data as the build will, when nothing above or in
        // the files it reads stands in the way: what only reading finds (a
        // column with no values, two values for one bar) is reported now
        // rather than when building.
        let drawable = mine.is_empty()
            && !c.id.is_empty()
            && !loaded.files_with_errors.contains(&run.path)
            && !loaded.files_with_errors.contains(&rel);
        diags.extend(mine);
        if !drawable {
            continue;
        }
        let input = chart::ChartInput {
            spec: c,
            table,
            engine_colors: colors,
            engine_names: names,
        };
        if let Err(ce) = chart::check(&input) {
            diags.push(chart_diagnostic(run, c, &rel, &ce));
        }
    }
}

/// A chart that cannot be drawn, as a diagnostic: at the CSV row when the
/// chart module names one, else at the chart in `run.yaml`.
fn chart_diagnostic(
    run: &Run,
    c: &ChartSpec,
    csv: &std::path::Path,
    e: &chart::ChartError,
) -> Diagnostic {
    // The chart module writes "row N, column \"c\": " or "row N: " in front
    // of row problems; the diagnostic's position says that already.
    let mut msg = e.message.as_str();
    if let Some(line) = e.row_line {
        let prefix = format!("row {line}");
        if let Some(rest) = msg.strip_prefix(&prefix) {
            let rest = match (&e.column, rest.strip_prefix(", column \"")) {
                (Some(_), Some(r)) => r.split_once("\": ").map_or(rest, |(_, r)| r),
                _ => rest.strip_prefix(": ").unwrap_or(rest),
            };
            msg = rest;
        }
    }
    let message = format!("chart \"{}\" cannot be drawn: {msg}", c.id);
    match e.row_line {
        Some(line) => {
            let d = Diagnostic::error(csv, Span::new(line, 1), message);
            match &e.column {
                Some(col) => d.field(col.clone()),
                None => d,
            }
        }
        None => Diagnostic::error(&run.path, run.spans.get(&c.path_in_yaml), message)
            .field(c.path_in_yaml.clone()),
    }
}

fn suggest(word: &str, known: &[&str], what: &str) -> String {
    match did_you_mean(word, known) {
        Some(s) => format!("did you mean \"{s}\"?"),
        None if known.is_empty() => format!("there are no {what} defined"),
        None => {
            let mut k = known.to_vec();
            k.sort_unstable();
            k.dedup();
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
