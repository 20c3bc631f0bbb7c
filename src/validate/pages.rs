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
use crate::state::{state_of, State};
use crate::urls;
use crate::version::Version;
use std::collections::{HashMap, HashSet};

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
    let listed: Vec<&Finding> = built
        .iter()
        .copied()
        .filter(|f| f.withdrawn.is_none() && f.superseded_by.is_none())
        .collect();
    // Each list with its number of entries: its later pages exist too
    // (`…/page/2/`), as the pages stage makes them.
    let mut lists: HashMap<String, usize> = HashMap::new();
    for g in &site.groups {
        let n = listed.iter().filter(|f| f.group == g.id).count();
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
    let mut versions: HashMap<String, Vec<Version>> = HashMap::new();
    for e in &site.engines {
        let entries: Vec<&EngineEntry> = listed
            .iter()
            .filter_map(|f| f.engines.iter().find(|x| x.engine == e.id))
            .collect();
        lists.insert(urls::engine(&e.id), entries.len());
        let vs = versions.entry(e.id.clone()).or_default();
        let mut add = |v: &Version| {
            if !vs.contains(v) {
                vs.push(v.clone());
            }
        };
        e.releases.iter().for_each(&mut add);
        for f in &built {
            for x in f.engines.iter().filter(|x| x.engine == e.id) {
                x.versions().for_each(&mut add);
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
            let n = entries
                .iter()
                .filter(|x| state_of(x, v) != State::Unknown)
                .count();
            lists.insert(urls::version(&e.id, v.as_str()), n);
        }
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

pub(super) fn check_aliases(
    loaded: &Loaded,
    public: &Pages,
    with_drafts: &Pages,
    diags: &mut Diagnostics,
) {
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
