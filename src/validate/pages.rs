//! The pages a build makes, and the aliases checked against them.
//!
//! Takes the site, findings and runs; hands on the [`Pages`] of a build
//! (with or without drafts), which body links to `/site/paths` are checked
//! against, and the diagnostics for aliases that are not site paths, that
//! are taken by a page or a published file, or that two findings share.

use super::err;
use crate::diagnostics::Diagnostics;
use crate::load::Loaded;
use crate::record::*;
use crate::state::{known_counts, state_of, State};
use crate::symptoms::observed::FindingObserved;
use crate::urls;
use crate::version::Version;
use std::collections::{HashMap, HashSet};

/// A set of site paths, hashed with foldhash (a site of 10^5 version pages
/// spent most of its check hashing their paths with SipHash).
pub type PathSet = HashSet<String, foldhash::fast::FixedState>;

/// A set of versions, hashed with foldhash: the standard SipHash was most
/// of the time of a check of a finding that lists 10^5 versions.
pub type VersionSet = HashSet<Version, foldhash::fast::FixedState>;

/// The pages a build writes, for checking `/site/paths` and aliases.
#[derive(Debug, Default)]
pub struct Pages {
    /// Every page and published CSV file, as site paths ([`crate::urls`]):
    /// `findings/x/`, `runs/r/t.csv`.
    pub paths: PathSet,
    /// Per engine id, the versions that have a page, each spelt as its page
    /// is ([`crate::model::Model::version_page`]): `get` gives the spelling
    /// of a version written another way.
    pub versions: HashMap<String, VersionSet>,
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
        Some(site) => {
            let names = site.engine_names();
            let runs: Vec<Vec<crate::symptoms::Observation>> = loaded
                .runs
                .iter()
                .map(|r| crate::symptoms::observe(r, &names))
                .collect();
            let observed =
                crate::symptoms::observed::by_finding(&loaded.findings, &loaded.runs, &runs);
            let workloads = workload_slugs(site, &loaded.runs);
            site_pages(
                site,
                &loaded.findings,
                &loaded.runs,
                &observed,
                &workloads,
                drafts,
            )
            .paths
            .into_iter()
            .collect()
        }
        None => HashSet::new(),
    }
}

/// The addresses of the workloads the model will follow across versions
/// ([`crate::compare::trend::slugs`]): their trends made of `runs` as the
/// model makes them (in the order of their ids; what the checks flag
/// moves no workload, so it is left out here).
pub fn workload_slugs(site: &Site, runs: &[std::sync::Arc<Run>]) -> Vec<String> {
    use crate::compare::trend;
    if runs
        .iter()
        .all(|r| r.results.iter().all(|s| s.rows.is_empty()))
    {
        return Vec::new();
    }
    let mut sorted: Vec<std::sync::Arc<Run>> = runs.to_vec();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    let (sources, _) = trend::sources(site, &sorted, &|_, _| Vec::new(), &|_, v| v);
    trend::slugs(&trend::trends(&sources, &|_, _, _| None))
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
    observed: &[FindingObserved],
    workloads: &[String],
    drafts: bool,
) -> Pages {
    let mut p: PathSet = [
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
    let listed: Vec<&Finding> = built
        .iter()
        .copied()
        .filter(|f| f.withdrawn.is_none() && f.superseded_by.is_none())
        .collect();
    // Each list with its number of entries: its later pages exist too
    // (`…/page/2/`), as the pages stage makes them.
    let mut lists: HashMap<String, usize, foldhash::fast::FixedState> = HashMap::default();
    let mut in_group: HashMap<&str, usize> = HashMap::new();
    for f in &listed {
        *in_group.entry(&f.group).or_default() += 1;
    }
    for g in &site.groups {
        let n = in_group.get(g.id.as_str()).copied().unwrap_or(0);
        lists.insert(urls::group(&g.id), n);
    }
    for s in Status::ALL {
        let n = listed.iter().filter(|f| f.status == s).count();
        lists.insert(urls::status(s.as_str()), n);
    }
    for f in &built {
        p.insert(urls::finding(&f.slug));
        p.insert(urls::short(f.id));
    }
    for (index, name_of) in [
        (
            urls::TAGS,
            (|f: &Finding| &f.tags) as fn(&Finding) -> &Vec<String>,
        ),
        (urls::MODELS, |f: &Finding| &f.models),
    ] {
        let url = if index == urls::TAGS {
            urls::tag
        } else {
            urls::model
        };
        let mut terms: HashMap<String, usize> = HashMap::new();
        for f in &listed {
            let mine: HashSet<String> = name_of(f).iter().map(|t| url(t)).collect();
            for t in mine {
                *terms.entry(t).or_default() += 1;
            }
        }
        lists.insert(index.to_string(), terms.len());
        lists.extend(terms);
    }
    lists.insert(urls::ENGINES.to_string(), site.engines.len());
    lists.insert(urls::RUNS.to_string(), runs.len());
    // Per engine id, in the order of the loops they replace (a site may
    // have thousands of engines, a finding thousands of entries): each
    // listed finding's first entry, every entry of a built finding, every
    // setup of a run.
    let mut listed_entries: HashMap<&str, Vec<&EngineEntry>> = HashMap::new();
    for f in &listed {
        let mut mine = HashSet::new();
        for x in &f.engines {
            if mine.insert(x.engine.as_str()) {
                listed_entries.entry(&x.engine).or_default().push(x);
            }
        }
    }
    let mut built_entries: HashMap<&str, Vec<&EngineEntry>> = HashMap::new();
    for f in &built {
        for x in &f.engines {
            built_entries.entry(&x.engine).or_default().push(x);
        }
    }
    let mut setups: HashMap<&str, Vec<&Setup>> = HashMap::new();
    for r in &runs {
        for s in &r.setups {
            setups.entry(&s.engine).or_default().push(s);
        }
    }
    let mut versions: HashMap<String, VersionSet> = HashMap::new();
    for e in &site.engines {
        let entries: &[&EngineEntry] = listed_entries.get(e.id.as_str()).map_or(&[], Vec::as_slice);
        lists.insert(urls::engine(&e.id), entries.len());
        // The first spelling of each version is its page's (an engine id
        // listed twice adds to what the first listing had).
        let before = versions.remove(&e.id).unwrap_or_default();
        let parsed: Vec<Version> = setups
            .get(e.id.as_str())
            .into_iter()
            .flatten()
            .filter_map(|s| s.version.as_deref().and_then(|v| Version::parse(v).ok()))
            .collect();
        let mut known: HashSet<&Version, foldhash::fast::FixedState> = before.iter().collect();
        let mut vs: Vec<&Version> = before.iter().collect();
        let written = e
            .releases
            .iter()
            .chain(
                built_entries
                    .get(e.id.as_str())
                    .into_iter()
                    .flatten()
                    .flat_map(|x| x.versions()),
            )
            .chain(&parsed);
        for v in written {
            if known.insert(v) {
                vs.push(v);
            }
        }
        let mut counts = known_counts(entries, &vs);
        // A version a listed finding leaves unknown, and a run tested.
        let at: HashMap<&Version, usize, foldhash::fast::FixedState> =
            vs.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        for (x, f) in findings.iter().enumerate() {
            if f.draft && !drafts || f.withdrawn.is_some() || f.superseded_by.is_some() {
                continue;
            }
            // The finding's first entry of the engine is the one listed.
            let Some(k) = f.engines.iter().position(|y| y.engine == e.id) else {
                continue;
            };
            let Some((_, tested)) = observed
                .get(x)
                .and_then(|o| o.iter().find(|(y, _)| *y == k))
            else {
                continue;
            };
            for (v, seen) in tested {
                let s = seen.seen();
                if (s.shown || s.absent) && state_of(&f.engines[k], v) == State::Unknown {
                    if let Some(&j) = at.get(v) {
                        counts[j] += 1;
                    }
                }
            }
        }
        for (v, n) in vs.iter().zip(counts) {
            lists.insert(urls::version(&e.id, v.as_str()), n);
        }
        let kept: VersionSet = vs.into_iter().cloned().collect();
        versions.insert(e.id.clone(), kept);
    }
    for (base, n) in &lists {
        p.extend(urls::list_pages(base, *n, site.page_size));
    }
    // The search and status pages, feeds, exports and other files the
    // build writes besides pages (`urls::reserved`), but not the folders
    // reserved next to those files (`atom.xml/`): those are no pages, and
    // aliases are checked against files separately.
    let mut reserved = urls::reserved(site);
    reserved.extend(built.iter().map(|f| urls::finding_json(f.id)));
    let files: HashSet<&str> = reserved.iter().map(String::as_str).collect();
    for r in &reserved {
        if !r.strip_suffix('/').is_some_and(|file| files.contains(file)) {
            p.insert(r.clone());
        }
    }
    // The comparison pages, and their index where there is one.
    let compared = site
        .compare
        .iter()
        .chain(runs.iter().flat_map(|r| &r.compare));
    for c in compared {
        p.insert(urls::comparison(&c.id));
        p.insert(urls::COMPARE.to_string());
    }
    // The workloads followed across versions, and their index.
    if !workloads.is_empty() {
        p.insert(urls::WORKLOADS.to_string());
    }
    for w in workloads {
        p.insert(urls::workload(w));
        p.insert(urls::workload_csv(w));
    }
    for r in &runs {
        p.insert(urls::run(&r.id));
        for t in &r.tables {
            p.insert(urls::run_file(&r.id, &t.file));
            p.extend(urls::run_table_pages(&r.id, &t.file, t.rows.len()));
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

/// The length of [`page_file`] of `path`.
fn page_file_len(path: &str) -> usize {
    if path.is_empty() || path.ends_with('/') {
        path.len() + "index.html".len()
    } else {
        path.len()
    }
}

/// Whether some page of `paths` is written to the file `file` (see
/// [`page_file`]).
fn written_as(paths: &PathSet, file: &str) -> bool {
    let as_page = !file.is_empty() && !file.ends_with('/') && paths.contains(file);
    as_page
        || file.strip_suffix("index.html").is_some_and(|folder| {
            (folder.is_empty() || folder.ends_with('/')) && paths.contains(folder)
        })
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

pub(super) fn check_aliases(
    loaded: &Loaded,
    public: &Pages,
    with_drafts: &Pages,
    diags: &mut Diagnostics,
) {
    // Every file a build may write: pages (with or without drafts), run
    // tables, built-in and generated files, and the site's static/ files.
    // Asked of each page set rather than gathered into one, which for a
    // site of 10^5 pages took longer than the rest of the check.
    let statics: HashSet<&str> = loaded.static_files.iter().map(String::as_str).collect();
    let is_file = |x: &str| {
        statics.contains(x)
            || [public, with_drafts]
                .iter()
                .any(|pages| written_as(&pages.paths, x))
    };
    // No folder of an alias longer than the longest file can be a file:
    // looking only at the shorter ones keeps a long alias of many `/`
    // from costing the square of its length.
    let longest = public
        .paths
        .iter()
        .chain(&with_drafts.paths)
        .map(|p| page_file_len(p))
        .chain(statics.iter().map(|s| s.len()))
        .max()
        .unwrap_or(0);
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
                .map(|(k, _)| k)
                .take_while(|k| *k <= longest)
                .map(|k| &file[..k])
                .find(|d| is_file(d));
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
            } else if is_file(&file) {
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
