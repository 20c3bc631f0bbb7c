//! Where an audit's findings come from: the records in a folder, or a
//! published site's `findings.json` (a path, or an `http(s)://` address).
//!
//! Both become one [`Catalog`], so the states an audit reports are computed
//! the same way whichever the source (the versions the site's runs tested,
//! from the model or from the export's `observed` states, then
//! [`crate::state::state_of`] on the
//! entries as written). A source that cannot be read, is too large, or is
//! not a `findings.json` is a [`SourceError`], never an empty catalog: an
//! empty one would pass every audit.

use crate::model::Model;
use crate::outputs::export::{EntryExport, Export, SCHEMA_VERSION};
use crate::record::EngineEntry;
use crate::state::{Source, State};
use crate::urls;
use crate::version::Version;
use serde::Deserialize;
use std::path::Path;
use std::time::Duration;

/// The largest `findings.json` read: 256 MiB, about six times a site of
/// 10,000 findings (38 MB, measured on the benchmark corpus).
pub const MAX_BYTES: u64 = 256 << 20;

/// How long a download may take in all, and to connect.
const TIMEOUT: Duration = Duration::from_secs(60);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The findings an audit checks against.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// Where they came from, in words (`the records in ./`, an address).
    pub source: String,
    /// The site's title, as `site.yaml` (or the export) gives it.
    pub title: String,
    /// Where the site is published (`site.yaml`'s `base_url`, ending in
    /// `/`; empty where the export gives none): the findings' addresses
    /// start with it.
    pub base_url: String,
    /// The site's engines, in `site.yaml`'s order.
    pub engines: Vec<CatalogEngine>,
    /// The listed findings (not withdrawn, superseded or draft), in the
    /// order of `findings list`: by group, then number.
    pub findings: Vec<CatalogFinding>,
}

/// An engine, and the names a deployment pins it by.
#[derive(Debug, Clone, Default)]
pub struct CatalogEngine {
    /// Id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Its source repository (`https://github.com/vllm-project/vllm`),
    /// where `site.yaml` gives one.
    pub repo: Option<String>,
    /// Python package names, normalized ([`crate::record::package_name`]).
    pub packages: Vec<String>,
    /// Image repositories, normalized ([`crate::record::image_repository`]).
    pub images: Vec<String>,
}

/// What an audit says about a finding.
#[derive(Debug, Clone)]
pub struct CatalogFinding {
    /// Number.
    pub id: u32,
    /// Title, plain text.
    pub title: String,
    /// `open`, `fixed`, `mitigated` or `advice`.
    pub status: String,
    /// Badge text.
    pub advice: String,
    /// The "What to do" section as one line ("" without one).
    pub what_to_do: String,
    /// The permanent address (`…/f/7/`).
    pub url: String,
    /// Its engine entries.
    pub entries: Vec<EngineEntry>,
    /// The checks that carry its advice (`findings lint` applies them).
    pub checks: Vec<String>,
    /// The symptoms that show its problem in a run (`findings lint`
    /// observes them).
    pub symptoms: Vec<String>,
    /// The versions runs tested where the record leaves them untested:
    /// engine id, version and the state the runs gave it.
    pub observed: Vec<(String, Version, State)>,
}

impl CatalogFinding {
    /// The state of `version` under the entry for `engine`, as the site
    /// gives it: what the runs observed where the record leaves the
    /// version untested, else the record's; `None` without an entry.
    pub fn state(&self, engine: &str, version: &Version) -> Option<State> {
        let entry = self.entries.iter().find(|e| e.engine == engine)?;
        let observed = self
            .observed
            .iter()
            .find(|(e, v, _)| e == engine && v == version)
            .map(|x| x.2);
        Some(observed.unwrap_or_else(|| crate::state::state_of(entry, version)))
    }
}

/// Why a source gave no catalog.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SourceError {
    /// What went wrong, naming the source.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

impl SourceError {
    fn new(message: String, hint: &str) -> SourceError {
        SourceError {
            message,
            hint: (!hint.is_empty()).then(|| hint.to_string()),
        }
    }
}

impl CatalogEngine {
    /// The engines of a site's `site.yaml`, their names normalized: what
    /// reads a text for the engines it names needs, without the records.
    pub fn of_site(site: &crate::record::Site) -> Vec<CatalogEngine> {
        site.engines
            .iter()
            .map(|e| CatalogEngine::new(&e.id, &e.name, e.repo.as_ref(), &e.packages, &e.images))
            .collect()
    }

    /// An engine with its names normalized, whoever wrote them.
    fn new<'a>(
        id: &str,
        name: &str,
        repo: Option<&String>,
        packages: impl IntoIterator<Item = &'a String>,
        images: impl IntoIterator<Item = &'a String>,
    ) -> CatalogEngine {
        CatalogEngine {
            id: id.to_string(),
            name: name.to_string(),
            repo: repo.cloned(),
            packages: packages
                .into_iter()
                .map(|p| crate::record::package_name(p))
                .collect(),
            images: images
                .into_iter()
                .map(|i| crate::record::image_repository(i))
                .collect(),
        }
    }
}

impl Catalog {
    /// The catalog of a folder's records, as `build` models them.
    pub fn from_model(model: &Model, source: String) -> Catalog {
        let engines = model
            .site
            .engines
            .iter()
            .map(|e| CatalogEngine::new(&e.id, &e.name, e.repo.as_ref(), &e.packages, &e.images))
            .collect();
        let rank = |g: &str| model.site.groups.iter().position(|x| x.id == g);
        let mut listed: Vec<_> = model.listed().map(|i| &model.findings[i]).collect();
        listed.sort_by_key(|f| (rank(&f.group), f.id));
        let findings = listed
            .into_iter()
            .map(|f| CatalogFinding {
                id: f.id,
                title: crate::markdown::plain_text(&f.title),
                status: f.status.as_str().to_string(),
                advice: f.advice.clone(),
                what_to_do: crate::markdown::what_to_do_text(&f.body),
                url: format!("{}{}", model.site.base_url, urls::short(f.id)),
                entries: f.engines.clone(),
                checks: f.checks.clone(),
                symptoms: f.symptoms.clone(),
                observed: observed_of(model, f.id),
            })
            .collect();
        Catalog {
            source,
            title: model.site.title.clone(),
            base_url: model.site.base_url.clone(),
            engines,
            findings,
        }
    }

    /// The catalog of a `findings.json`, read from `from` (named in errors).
    pub fn from_export(export: Export, from: &str) -> Result<Catalog, SourceError> {
        let engines = export
            .site
            .engines
            .iter()
            .map(|e| CatalogEngine::new(&e.id, &e.name, e.repo.as_ref(), &e.packages, &e.images))
            .collect();
        let groups = &export.site.groups;
        let rank = |g: &str| groups.iter().position(|x| x.id == g);
        let mut listed: Vec<_> = export.findings.iter().filter(|f| f.listed).collect();
        listed.sort_by_key(|f| (rank(&f.group), f.id));
        let mut findings = Vec::with_capacity(listed.len());
        for f in listed {
            let entries = f
                .engines
                .iter()
                .map(|e| entry(e).map_err(|why| bad_json(from, &format!("{}: {why}", f.label))))
                .collect::<Result<_, _>>()?;
            findings.push(CatalogFinding {
                id: f.id,
                title: f.title_text.clone(),
                status: f.status.clone(),
                advice: f.advice.clone(),
                what_to_do: f.what_to_do.clone(),
                url: f.urls.permalink.clone(),
                entries,
                checks: f.checks.clone(),
                symptoms: f.symptoms.clone(),
                observed: f
                    .engines
                    .iter()
                    .flat_map(|e| {
                        e.states
                            .iter()
                            .filter(|s| s.source == Source::Observed.as_str())
                            .filter_map(|s| {
                                let state =
                                    State::ALL.into_iter().find(|x| x.as_str() == s.state)?;
                                Some((e.engine.clone(), Version::parse(&s.version).ok()?, state))
                            })
                    })
                    .collect(),
            });
        }
        Ok(Catalog {
            source: from.to_string(),
            title: export.site.title.clone(),
            base_url: export.site.base_url.clone(),
            engines,
            findings,
        })
    }

    /// The index of the engine `id`.
    pub fn engine(&self, id: &str) -> Option<usize> {
        self.engines.iter().position(|e| e.id == id)
    }
}

/// The versions runs tested for the finding numbered `id` where its record
/// leaves them untested.
fn observed_of(model: &Model, id: u32) -> Vec<(String, Version, State)> {
    let Some(&i) = model.by_id.get(&id) else {
        return Vec::new();
    };
    let f = &model.findings[i];
    let mut out = Vec::new();
    for (e, versions) in &model.observed[i] {
        for v in versions.keys() {
            let (state, source, _) = model.state_at(i, *e, v);
            if source == Source::Observed {
                out.push((f.engines[*e].engine.clone(), v.clone(), state));
            }
        }
    }
    out
}

/// An export's engine entry as the record it was written from.
fn entry(e: &EntryExport) -> Result<EngineEntry, String> {
    let one =
        |v: &str| Version::parse(v).map_err(|err| format!("the {} entry has {err}", e.engine));
    let many = |list: &[String]| list.iter().map(|v| one(v)).collect::<Result<Vec<_>, _>>();
    let opt = |v: &Option<String>| v.as_deref().map(one).transpose();
    Ok(EngineEntry {
        engine: e.engine.clone(),
        affected: many(&e.affected)?,
        clean: many(&e.clean)?,
        seen: many(&e.seen)?,
        introduced_in: opt(&e.introduced_in)?,
        fixed_in: opt(&e.fixed_in)?,
        mitigated_in: opt(&e.mitigated_in)?,
        note: e.note.clone(),
    })
}

fn bad_json(from: &str, why: &str) -> SourceError {
    SourceError::new(
        format!("{from} is not a findings.json this version can read: {why}"),
        "point --from at the findings.json of a site built by findings (or the site's address ending in /)",
    )
}

/// Reads the catalog at `from`: an `http://` or `https://` address (one
/// ending in `/` is a site, and its `findings.json` is read), a
/// `findings.json` file, or a built site's folder.
pub fn fetch(from: &str) -> Result<Catalog, SourceError> {
    let (place, bytes) = if from.starts_with("https://") || from.starts_with("http://") {
        let url = if from.ends_with('/') {
            format!("{from}findings.json")
        } else {
            from.to_string()
        };
        let bytes = download(&url)?;
        (url, bytes)
    } else {
        let path = Path::new(from);
        let file = if path.is_dir() {
            path.join("findings.json")
        } else {
            path.to_path_buf()
        };
        let place = file.display().to_string();
        let bytes = read_file(&file, &place)?;
        (place, bytes)
    };
    parse(&bytes, &place)
}

fn read_file(file: &Path, place: &str) -> Result<Vec<u8>, SourceError> {
    let cannot = |e: std::io::Error| {
        SourceError::new(
            format!("cannot read {place}: {e}"),
            "--from takes a findings.json, a built site's folder or an http(s):// address",
        )
    };
    let size = std::fs::metadata(file).map_err(cannot)?.len();
    if size > MAX_BYTES {
        return Err(too_large(place));
    }
    std::fs::read(file).map_err(cannot)
}

fn too_large(place: &str) -> SourceError {
    SourceError::new(
        format!("{place} is larger than {} MiB", MAX_BYTES >> 20),
        "a findings.json of 10,000 findings is about 38 MB; check the address",
    )
}

fn download(url: &str) -> Result<Vec<u8>, SourceError> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(TIMEOUT))
        .timeout_connect(Some(CONNECT_TIMEOUT))
        .user_agent(concat!("findings/", env!("CARGO_PKG_VERSION"), " (audit)"))
        .build()
        .into();
    let unreachable = |e: ureq::Error| {
        let hint = match e {
            ureq::Error::StatusCode(404) => {
                "the site has no findings.json there; give the address of the site (ending in /) or of its findings.json"
            }
            ureq::Error::Timeout(_) => "the server did not answer in time; try again, or use a local copy",
            _ => "check the address and the network, or download findings.json and give its path",
        };
        SourceError::new(format!("cannot fetch {url}: {e}"), hint)
    };
    let mut response = agent.get(url).call().map_err(unreachable)?;
    response
        .body_mut()
        .with_config()
        .limit(MAX_BYTES)
        .read_to_vec()
        .map_err(|e| match e {
            ureq::Error::BodyExceedsLimit(_) => too_large(url),
            e => unreachable(e),
        })
}

/// Parses a `findings.json`, explaining a schema this version does not read.
fn parse(bytes: &[u8], place: &str) -> Result<Catalog, SourceError> {
    #[derive(Deserialize)]
    struct Head {
        schema_version: u32,
    }
    match serde_json::from_slice::<Export>(bytes) {
        Ok(export) if export.schema_version == SCHEMA_VERSION => {
            Catalog::from_export(export, place)
        }
        Ok(export) => Err(newer(place, export.schema_version)),
        Err(e) => match serde_json::from_slice::<Head>(bytes) {
            Ok(h) if h.schema_version != SCHEMA_VERSION => Err(newer(place, h.schema_version)),
            _ => Err(bad_json(place, &e.to_string())),
        },
    }
}

fn newer(place: &str, schema: u32) -> SourceError {
    SourceError::new(
        format!("{place} has schema_version {schema}; this findings reads {SCHEMA_VERSION}"),
        "use the findings release that built the site",
    )
}
