//! The JSON export: `findings.json` and one `f/<id>.json` per finding.
//!
//! Documented in `docs/json.md`. The shapes are the structs below, so the
//! key order is the field order, always, and tests read the files back into
//! the same structs. Change a field's meaning or remove one only with a new
//! [`SCHEMA_VERSION`]; adding a field keeps the version.

use crate::model::Model;
use crate::render::cards::FindingText;
use crate::render::reuse::Reuse;
use crate::sink::{Sink, WriteError};
use crate::urls;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The version of the export format.
pub const SCHEMA_VERSION: u32 = 1;

/// `findings.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Export {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// `site.yaml`, with each engine's known versions.
    pub site: SiteExport,
    /// Every built finding, by id (withdrawn and superseded ones too, with
    /// `listed: false`).
    pub findings: Vec<FindingExport>,
    /// Every run, by id.
    pub runs: Vec<RunExport>,
}

/// `f/<id>.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FindingFile {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The finding, as in `findings.json`.
    pub finding: FindingExport,
}

/// [`FindingFile`] for writing, without a copy: what [`files`] must equal.
#[cfg(test)]
#[derive(Serialize)]
struct FindingFileRef<'a> {
    schema_version: u32,
    finding: &'a FindingExport,
}

/// The site's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteExport {
    /// Title.
    pub title: String,
    /// Where the site lives, ending in `/`.
    pub base_url: String,
    /// One line about the site.
    pub description: Option<String>,
    /// Home page sections, in order.
    pub groups: Vec<GroupExport>,
    /// Engines, in order.
    pub engines: Vec<EngineExport>,
}

/// A group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupExport {
    /// Id.
    pub id: String,
    /// Heading.
    pub title: String,
    /// Markdown introduction, as written.
    pub blurb: Option<String>,
    /// The group's page.
    pub url: String,
}

/// An engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineExport {
    /// Id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Source repository.
    pub repo: Option<String>,
    /// `#rrggbb`.
    pub color: String,
    /// `releases` as written.
    pub releases: Vec<String>,
    /// Every known version, ascending: the columns of the engine's matrix.
    pub versions: Vec<String>,
    /// The Python packages that install the engine, normalized.
    #[serde(default)]
    pub packages: Vec<String>,
    /// The engine's container image repositories, without tag.
    #[serde(default)]
    pub images: Vec<String>,
    /// The engine's page.
    pub url: String,
    /// The engine's Atom feed.
    pub feed: String,
}

/// One finding: every front-matter field, plus what the build works out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FindingExport {
    /// Permanent number.
    pub id: u32,
    /// File name without `.md`.
    pub slug: String,
    /// `F7`.
    pub label: String,
    /// Title as written (inline Markdown).
    pub title: String,
    /// Title as plain text.
    pub title_text: String,
    /// Group id.
    pub group: String,
    /// Badge text.
    pub advice: String,
    /// `open`, `fixed`, `mitigated` or `advice`.
    pub status: String,
    /// Qualifier shown beside the status.
    pub status_note: Option<String>,
    /// Summary as written; `null` when the body's first paragraph is used.
    pub summary: Option<String>,
    /// The body's "What to do" section as one line of plain text.
    #[serde(default)]
    pub what_to_do: String,
    /// The summary shown on cards, as plain text.
    pub summary_text: String,
    /// The summary shown on cards, as HTML.
    pub summary_html: String,
    /// `YYYY-MM-DD`.
    pub published: String,
    /// `YYYY-MM-DD`.
    pub updated: Option<String>,
    /// `us`, `upstream` or `community`.
    pub found_by: String,
    /// Per engine: the fields as written, and the state at each known version.
    pub engines: Vec<EntryExport>,
    /// Models.
    pub models: Vec<String>,
    /// Hardware.
    pub hardware: Vec<String>,
    /// Tags.
    pub tags: Vec<String>,
    /// Links, with the address each resolves to.
    pub links: Vec<LinkExport>,
    /// Run ids.
    pub runs: Vec<String>,
    /// `<run-id>/<chart-id>`, as written.
    pub charts: Vec<String>,
    /// The checks that carry its advice, and the runs they flagged.
    #[serde(default)]
    pub checks: Vec<String>,
    /// The runs its checks flagged (or that acknowledge breaking them).
    #[serde(default)]
    pub flagged_runs: Vec<super::evidence::FlaggedExport>,
    /// The symptoms that show its problem in a run.
    #[serde(default)]
    pub symptoms: Vec<String>,
    /// The runs whose observations contradict the record, and why it
    /// stands.
    #[serde(default)]
    pub acknowledged: Vec<super::observed::AcknowledgedExport>,
    /// Old addresses.
    pub aliases: Vec<String>,
    /// Only true in a build with `--drafts`.
    pub draft: bool,
    /// The withdrawal notice.
    pub withdrawn: Option<WithdrawnExport>,
    /// The finding that replaces this one.
    pub superseded_by: Option<u32>,
    /// Whether the finding appears in lists (not withdrawn or superseded).
    pub listed: bool,
    /// Its addresses.
    pub urls: FindingUrls,
}

/// A finding's addresses, absolute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FindingUrls {
    /// The page.
    pub page: String,
    /// The permanent address `/f/<id>/`.
    pub permalink: String,
    /// This finding's own JSON file.
    pub json: String,
}

/// What a finding says about one engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntryExport {
    /// Engine id.
    pub engine: String,
    /// Versions tested where the problem showed, as written.
    pub affected: Vec<String>,
    /// Versions tested where it did not show, as written.
    pub clean: Vec<String>,
    /// Versions where it showed, but not because of the engine, as written.
    pub seen: Vec<String>,
    /// First version with the problem.
    pub introduced_in: Option<String>,
    /// First release with the fix.
    pub fixed_in: Option<String>,
    /// First release whose defaults avoid it.
    pub mitigated_in: Option<String>,
    /// Condition or scope.
    pub note: Option<String>,
    /// The state at each of the engine's known versions, ascending.
    pub states: Vec<VersionState>,
}

/// A version and the finding's state there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VersionState {
    /// As the engine's version page spells it.
    pub version: String,
    /// `affected`, `clean`, `seen`, `fixed`, `mitigated`, `in-range` or
    /// `unknown`.
    pub state: String,
    /// `record` (listed), `observed` (tested by runs where the record
    /// leaves the version untested) or `inferred`.
    #[serde(default)]
    pub source: String,
    /// The runs' observations that bear on it (shown or absent).
    #[serde(default)]
    pub observations: Vec<super::observed::ObservationExport>,
}

/// A link of a finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinkExport {
    /// Text.
    pub label: String,
    /// As written: `http(s)://…`, `finding:<id>` or `run:<run-id>`.
    pub url: String,
    /// `issue`, `pr`, `patch`, `investigation`, `check` or `docs`.
    pub kind: Option<String>,
    /// The absolute address it leads to.
    pub href: String,
}

/// A withdrawal notice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WithdrawnExport {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Why.
    pub reason: String,
}

/// One run with its data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunExport {
    /// Folder name.
    pub id: String,
    /// What was measured.
    pub title: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// What was measured on.
    pub setups: Vec<SetupExport>,
    /// Model served.
    pub model: Option<String>,
    /// GPUs.
    pub hardware: Option<String>,
    /// Load client.
    pub client: Option<String>,
    /// API endpoint.
    pub endpoint: Option<String>,
    /// Raw data or report.
    pub source: Option<String>,
    /// Markdown notes, as written.
    pub notes: Option<String>,
    /// The result files its derived tables come from, with their facts
    /// (empty for a run of CSV tables only, and in exports before them).
    #[serde(default)]
    pub results: Vec<super::evidence::ResultSourceExport>,
    /// The verdict of every check that applies to the run.
    #[serde(default)]
    pub checks: Vec<super::evidence::CheckExport>,
    /// What every symptom says of each of its setups.
    #[serde(default)]
    pub observations: Vec<super::observed::RunObservationExport>,
    /// Tables with their data.
    pub tables: Vec<TableExport>,
    /// Chart specs.
    pub charts: Vec<ChartExport>,
    /// Ids of the findings that cite the run.
    pub cited_by: Vec<u32>,
    /// The run's page.
    pub url: String,
}

/// A setup of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetupExport {
    /// Engine id or free name.
    pub engine: String,
    /// Version as written.
    pub version: Option<String>,
    /// Flags.
    pub flags: Option<String>,
    /// Its name in the run: its `label`, else its engine and version.
    #[serde(default)]
    pub name: String,
}

/// A run's table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableExport {
    /// CSV file name.
    pub file: String,
    /// Title.
    pub title: String,
    /// The published CSV.
    pub url: String,
    /// Column descriptions, in `run.yaml` order.
    pub columns: Vec<ColumnExport>,
    /// The CSV header.
    pub header: Vec<String>,
    /// Data rows, cells as text exactly as in the published CSV.
    pub rows: Vec<Vec<String>>,
}

/// A column description.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColumnExport {
    /// Header name, as in the CSV.
    pub name: String,
    /// What readers see for the column: its `label`, or its name made
    /// readable. Empty in an export written before labels existed.
    #[serde(default)]
    pub label: String,
    /// Unit; numeric columns have one.
    pub unit: Option<String>,
    /// What it holds.
    pub description: String,
}

/// A chart spec.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChartExport {
    /// Id within the run.
    pub id: String,
    /// Title.
    pub title: String,
    /// Table file.
    pub table: String,
    /// `bar`, `grouped-bar`, `line` or `scatter`.
    pub kind: String,
    /// X column.
    pub x: String,
    /// Y columns.
    pub y: Vec<String>,
    /// Series column.
    pub series: Option<String>,
    /// X axis title.
    pub x_label: Option<String>,
    /// Y axis title.
    pub y_label: Option<String>,
    /// Logarithmic x.
    pub log_x: bool,
    /// Logarithmic y.
    pub log_y: bool,
    /// Markdown caption.
    pub caption: Option<String>,
}

fn strings<T: ToString>(xs: &[T]) -> Vec<String> {
    xs.iter().map(ToString::to_string).collect()
}

/// The absolute address a link of a finding leads to.
fn href(model: &Model, url: &str) -> String {
    let base = &model.site.base_url;
    if let Some(rest) = url.strip_prefix("finding:") {
        let (num, frag) = rest.split_once('#').map_or((rest, ""), |(n, f)| (n, f));
        let slug = num
            .parse()
            .ok()
            .and_then(|id| model.finding(id))
            .map(|f| urls::finding(&f.slug));
        match (slug, frag) {
            (Some(p), "") => format!("{base}{p}"),
            (Some(p), f) => format!("{base}{p}#{f}"),
            (None, _) => url.to_string(),
        }
    } else if let Some(id) = url.strip_prefix("run:") {
        format!("{base}{}", urls::run(id))
    } else {
        url.to_string()
    }
}

/// One finding as exported.
pub fn finding(model: &Model, i: usize, t: &FindingText<'_>) -> FindingExport {
    let f = &model.findings[i];
    let base = &model.site.base_url;
    let engines = f
        .engines
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let versions = model
                .engines
                .iter()
                .find(|ix| model.site.engines[ix.engine].id == e.engine)
                .map(|ix| ix.versions.as_slice())
                .unwrap_or_default();
            EntryExport {
                engine: e.engine.clone(),
                affected: strings(&e.affected),
                clean: strings(&e.clean),
                seen: strings(&e.seen),
                introduced_in: e.introduced_in.as_ref().map(ToString::to_string),
                fixed_in: e.fixed_in.as_ref().map(ToString::to_string),
                mitigated_in: e.mitigated_in.as_ref().map(ToString::to_string),
                note: e.note.clone(),
                states: versions
                    .iter()
                    .map(|v| {
                        // An engine listed twice: the first entry is the
                        // one observations count for.
                        let first = f.engines.iter().position(|x| x.engine == e.engine) == Some(k);
                        let (state, source, at) = if first {
                            model.state_at(i, k, v)
                        } else {
                            let (s, src, _) = crate::state::resolve(e, v, Default::default());
                            (s, src, None)
                        };
                        VersionState {
                            version: v.to_string(),
                            state: state.as_str().to_string(),
                            source: source.as_str().to_string(),
                            observations: at
                                .into_iter()
                                .flat_map(|at| at.deciding())
                                .map(|o| super::observed::observation(model, o))
                                .collect(),
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    FindingExport {
        id: f.id,
        slug: f.slug.clone(),
        label: format!("F{}", f.id),
        title: f.title.clone(),
        title_text: t.title_text.to_string(),
        group: f.group.clone(),
        advice: f.advice.clone(),
        status: f.status.as_str().to_string(),
        status_note: f.status_note.clone(),
        summary: f.summary.clone(),
        what_to_do: t.what_to_do.to_string(),
        summary_text: t.summary_text.to_string(),
        summary_html: t.summary_html.to_string(),
        published: f.published.to_string(),
        updated: f.updated.map(|d| d.to_string()),
        found_by: f.found_by.as_str().to_string(),
        engines,
        models: f.models.clone(),
        hardware: f.hardware.clone(),
        tags: f.tags.clone(),
        links: f
            .links
            .iter()
            .map(|l| LinkExport {
                label: l.label.clone(),
                url: l.url.clone(),
                kind: l.kind.clone(),
                href: href(model, &l.url),
            })
            .collect(),
        runs: f.runs.clone(),
        charts: f.charts.clone(),
        checks: f.checks.clone(),
        flagged_runs: super::evidence::flagged(model, i),
        symptoms: f.symptoms.clone(),
        acknowledged: super::observed::acknowledged(model, i),
        aliases: f.aliases.clone(),
        draft: f.draft,
        withdrawn: f.withdrawn.as_ref().map(|w| WithdrawnExport {
            date: w.date.to_string(),
            reason: w.reason.clone(),
        }),
        superseded_by: f.superseded_by,
        listed: model.listed[i],
        urls: FindingUrls {
            page: format!("{base}{}", urls::finding(&f.slug)),
            permalink: format!("{base}{}", urls::short(f.id)),
            json: format!("{base}{}", urls::finding_json(f.id)),
        },
    }
}

fn run(model: &Model, r: usize) -> RunExport {
    let run = &model.runs[r];
    let base = &model.site.base_url;
    let names = model.site.engine_names();
    RunExport {
        id: run.id.clone(),
        title: run.title.clone(),
        date: run.date.to_string(),
        setups: run
            .setups
            .iter()
            .map(|s| SetupExport {
                engine: s.engine.clone(),
                version: s.version.clone(),
                flags: s.flags.clone(),
                name: s.name(),
            })
            .collect(),
        model: run.model.clone(),
        hardware: run.hardware.clone(),
        client: run.client.clone(),
        endpoint: run.endpoint.clone(),
        source: run.source.clone(),
        notes: run.notes.clone(),
        results: super::evidence::of(run, base),
        checks: super::evidence::checks(model, r),
        observations: super::observed::of_run(model, r),
        tables: run
            .tables
            .iter()
            .map(|t| TableExport {
                file: t.file.clone(),
                title: t.title.clone(),
                url: format!("{base}{}", urls::run_file(&run.id, &t.file)),
                columns: t
                    .columns
                    .iter()
                    .map(|c| ColumnExport {
                        name: c.name.clone(),
                        label: c.title(&names),
                        unit: c.unit.clone(),
                        description: c.description.clone(),
                    })
                    .collect(),
                header: t.header.clone(),
                rows: t.rows.clone(),
            })
            .collect(),
        charts: run
            .charts
            .iter()
            .map(|c| ChartExport {
                id: c.id.clone(),
                title: c.title.clone(),
                table: c.table.clone(),
                kind: c.kind.as_str().to_string(),
                x: c.x.clone(),
                y: c.y.clone(),
                series: c.series.clone(),
                x_label: c.x_label.clone(),
                y_label: c.y_label.clone(),
                log_x: c.log_x,
                log_y: c.log_y,
                caption: c.caption.clone(),
            })
            .collect(),
        cited_by: model.citations[r]
            .iter()
            .map(|&i| model.findings[i].id)
            .collect(),
        url: format!("{base}{}", urls::run(&run.id)),
    }
}

fn site(model: &Model) -> SiteExport {
    let s = &model.site;
    let base = &s.base_url;
    SiteExport {
        title: s.title.clone(),
        base_url: base.clone(),
        description: s.description.clone(),
        groups: s
            .groups
            .iter()
            .map(|g| GroupExport {
                id: g.id.clone(),
                title: g.title.clone(),
                blurb: g.blurb.clone(),
                url: format!("{base}{}", urls::group(&g.id)),
            })
            .collect(),
        engines: model
            .engines
            .iter()
            .map(|ix| {
                let e = &s.engines[ix.engine];
                EngineExport {
                    id: e.id.clone(),
                    name: e.name.clone(),
                    repo: e.repo.clone(),
                    color: e.color.clone(),
                    releases: strings(&e.releases),
                    versions: strings(&ix.versions),
                    packages: e.packages.clone(),
                    images: e.images.clone(),
                    url: format!("{base}{}", urls::engine(&e.id)),
                    feed: format!("{base}{}", urls::engine_feed(&e.id)),
                }
            })
            .collect(),
    }
}

/// Serializes to compact JSON with a final newline.
pub fn to_bytes(value: &impl Serialize) -> Vec<u8> {
    let mut out = serde_json::to_vec(value).unwrap_or_default();
    out.push(b'\n');
    out
}

/// Writes each finding's file (`f/<id>.json`) through `write`, as it is
/// made, and `findings.json` into `out`. The big file is assembled from the
/// small ones, each finding serialized once and no finding's export held
/// longer than its batch: the bytes equal those of serializing [`Export`]
/// whole (a test holds them to it).
pub(crate) fn files(
    model: &Model,
    texts: &[FindingText<'_>],
    reuse: &Reuse<'_>,
    write: &WriteFile<'_>,
    out: &mut Sink<'_>,
) -> Result<(), WriteError> {
    use rayon::prelude::*;
    // `{"schema_version":N,"finding":` + the finding + `}\n`.
    let prefix = format!("{{\"schema_version\":{SCHEMA_VERSION},\"finding\":");
    out.put(format!("{{\"schema_version\":{SCHEMA_VERSION},\"site\":").as_bytes())?;
    out.json(&site(model))?;
    out.put(b",\"findings\":[")?;
    let all: Vec<usize> = (0..model.findings.len()).collect();
    for chunk in all.chunks(512) {
        // Under `serve`, a finding's export is reused while its file (all
        // its fields, and the texts taken from its body: What to do, the
        // summary), whether it is listed, the runs that observed its
        // symptoms (the versions they ran, their setups) and what every
        // page reads ([`Reuse::global`]: engine versions, link targets,
        // the base URL, every run's observations) are the same.
        let singles: Vec<Bytes> = chunk
            .par_iter()
            .map(|&i| {
                let f = &model.findings[i];
                let observing: Vec<u64> = if reuse.enabled() {
                    let runs = model.observing_runs(i);
                    runs.map(|r| model.runs[r].content_hash).collect()
                } else {
                    Vec::new()
                };
                let key = (
                    "finding json",
                    f.content_hash,
                    &f.path,
                    model.listed[i],
                    observing,
                );
                let bytes = reuse.piece(key, || {
                    let mut v = prefix.clone().into_bytes();
                    let _ = serde_json::to_writer(&mut v, &finding(model, i, &texts[i]));
                    v.extend_from_slice(b"}\n");
                    v
                });
                write(&urls::finding_json(model.findings[i].id), &bytes).map(|()| bytes)
            })
            .collect::<Result<_, _>>()?;
        for (&i, bytes) in chunk.iter().zip(&singles) {
            if i > 0 {
                out.put(b",")?;
            }
            out.put(&bytes[prefix.len()..bytes.len() - 2])?;
        }
    }
    out.put(b"],\"runs\":")?;
    // A run's export is its file (with its tables) and the ids of the
    // findings that cite it: a finding's title or body edit leaves it be.
    let inputs = (
        "runs json",
        model
            .runs
            .iter()
            .map(|r| (&r.id, r.content_hash))
            .collect::<Vec<_>>(),
        model
            .citations
            .iter()
            .map(|c| c.iter().map(|&i| model.findings[i].id).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
    );
    if reuse.enabled() {
        let runs = reuse.piece(inputs, || {
            let runs: Vec<RunExport> = (0..model.runs.len()).map(|r| run(model, r)).collect();
            serde_json::to_vec(&runs).unwrap_or_default()
        });
        out.put(&runs)?;
    } else {
        // The same bytes, one run at a time.
        out.put(b"[")?;
        for r in 0..model.runs.len() {
            if r > 0 {
                out.put(b",")?;
            }
            out.json(&run(model, r))?;
        }
        out.put(b"]")?;
    }
    out.put(b"}\n")
}

/// Writes one file of the site: its path and bytes.
pub type WriteFile<'a> = dyn Fn(&str, &[u8]) -> Result<(), WriteError> + Sync + 'a;

/// Generated bytes, shared with what a rebuild may keep of them.
pub type Bytes = Arc<Vec<u8>>;

#[cfg(test)]
mod assembly_tests {
    use super::*;

    #[test]
    fn assembled_files_equal_serializing_the_whole_export() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let loaded = crate::load::load(root);
        let bundled = loaded.site.expect("the bundled site");
        let model = Model::build(bundled, loaded.findings, loaded.runs, false);
        let texts: Vec<FindingText<'_>> = model
            .findings
            .iter()
            .map(|f| FindingText {
                title_text: &f.title,
                summary_text: &f.advice,
                summary_html: "<p>a</p>",
                what_to_do: "Do it.",
                list_hash: 0,
            })
            .collect();
        let written = std::sync::Mutex::new(Vec::new());
        let mut whole = Vec::new();
        let mut out = crate::sink::Sink::new(&mut whole, std::path::Path::new("findings.json"));
        files(
            &model,
            &texts,
            &Reuse::none(),
            &|p: &str, b: &[u8]| {
                written.lock().unwrap().push((p.to_string(), b.to_vec()));
                Ok(())
            },
            &mut out,
        )
        .unwrap();
        let findings: Vec<FindingExport> = (0..model.findings.len())
            .map(|i| finding(&model, i, &texts[i]))
            .collect();
        let mut written = written.into_inner().unwrap();
        written.sort();
        let mut want: Vec<(String, Vec<u8>)> = findings
            .iter()
            .map(|f| {
                let file = FindingFileRef {
                    schema_version: SCHEMA_VERSION,
                    finding: f,
                };
                (urls::finding_json(f.id), to_bytes(&file))
            })
            .collect();
        want.sort();
        assert_eq!(written, want);
        let export = Export {
            schema_version: SCHEMA_VERSION,
            site: site(&model),
            findings,
            runs: (0..model.runs.len()).map(|r| run(&model, r)).collect(),
        };
        assert_eq!(
            String::from_utf8(whole).unwrap(),
            String::from_utf8(to_bytes(&export)).unwrap()
        );
    }
}
