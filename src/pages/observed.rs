//! What the runs observed of the findings' symptoms (`crate::symptoms`),
//! as pages show it: on a run's page what it shows first (each finding
//! whose symptom it shows or shows absent, and what that makes of the
//! version it ran); on a finding's page the runs that tested its versions;
//! on a version's page each finding's state there as its badge, with the
//! runs behind an observed state; in a matrix cell the run that tested
//! it. Takes the model; hands the pages their views.

use super::view::NamedLink;
use crate::checks::Place;
use crate::markdown;
use crate::model::Model;
use crate::state::{Source, State};
use crate::symptoms::observed::{AtVersion, ObsRef};
use crate::symptoms::Outcome;
use crate::urls::{self, ROOT};
use crate::util::escape_html;
use crate::version::Version;
use serde::Serialize;

/// The words for an outcome, as a run shows a finding's problem.
fn shows(o: Outcome) -> &'static str {
    match o {
        Outcome::Shown => "shows it",
        Outcome::Absent => "shows it absent",
        Outcome::CannotTell => "cannot tell",
    }
}

/// A version's state as the badge of a finding's card on that version's
/// page: the state, "observed" when runs tested it, the version for
/// screen readers.
pub(super) fn badge(state: State, source: Source, engine: &str, v: &Version) -> String {
    let tested = if state.is_tested() || source == Source::Observed {
        "tested"
    } else {
        "inferred"
    };
    let observed = if source == Source::Observed {
        " <span class=\"state-source\">observed</span>"
    } else {
        ""
    };
    format!(
        "<span class=\"state-chip state-{} {tested} version-state\"><span class=\"visually-hidden\">{} {}: </span>{}{observed}</span>",
        state.as_str(),
        escape_html(engine),
        escape_html(v.as_str()),
        state.label()
    )
}

/// The words for an outcome at the head of a version page's card: who
/// showed what.
fn shown_by(o: Outcome) -> &'static str {
    match o {
        Outcome::Shown => "Shown by",
        Outcome::Absent => "Shown absent by",
        Outcome::CannotTell => "Not told by",
    }
}

/// One observation as a version page's card lists it: what the run shows,
/// the run by its id (its title is on its page; a card on a phone has a
/// line for it), and the figures.
fn item(model: &Model, o: ObsRef, reason: Option<&str>) -> String {
    let run = &model.runs[o.0];
    let x = model.observation(o);
    let ack = reason
        .map(|r| {
            format!(
                " <span class=\"check-reason\">Acknowledged: {}</span>",
                escape_html(r)
            )
        })
        .unwrap_or_default();
    format!(
        "<li class=\"obs obs-{}\"><span class=\"obs-outcome\">{}</span> <a href=\"{ROOT}{}\" title=\"{}\">{}</a>: {}{ack}</li>",
        x.outcome.as_str(),
        shown_by(x.outcome),
        urls::run(&run.id),
        escape_html(&run.title),
        escape_html(&run.id),
        markdown::render_inline(&x.says),
    )
}

/// What follows the advice on a finding's card on a version's page: why
/// an untested version is in range (`why`), the entry's note, and the runs
/// on that version that showed its symptoms (or showed them absent).
pub(super) fn card_end(
    model: &Model,
    i: usize,
    why: Option<&str>,
    note: Option<&str>,
    at: Option<&AtVersion>,
) -> String {
    let mut out = String::new();
    if let Some(w) = why {
        out.push_str(&format!(
            "  <p class=\"card-why small\"><span class=\"note-label\">In range:</span> {}.</p>\n",
            escape_html(w)
        ));
    }
    if let Some(n) = note {
        out.push_str(&format!(
            "  <p class=\"note card-note\"><span class=\"note-label\">Note:</span> {}</p>\n",
            escape_html(n)
        ));
    }
    let Some(at) = at else {
        return out;
    };
    let deciding: Vec<ObsRef> = at.deciding().collect();
    if deciding.is_empty() && at.acknowledged.is_empty() {
        return out;
    }
    out.push_str("  <div class=\"card-observed\"><ul class=\"obs-list\">");
    for o in deciding {
        out.push_str(&item(model, o, None));
    }
    for &(o, a) in &at.acknowledged {
        let reason = model.findings[i]
            .acknowledged
            .get(a)
            .map(|a| a.reason.as_str());
        out.push_str(&item(model, o, reason));
    }
    out.push_str("</ul></div>\n");
    out
}

/// An observation of a run as its page lists it.
#[derive(Serialize)]
pub(super) struct RunObservation {
    /// `shown`, `absent`, `cannot-tell`.
    outcome: &'static str,
    /// "shows", "absent", "cannot tell".
    label: &'static str,
    symptom: &'static str,
    setup: String,
    /// The findings that name the symptom.
    findings: Vec<NamedLink>,
    /// What it rests on, as HTML.
    says: String,
    /// For each finding with an entry of the setup's engine, the state of
    /// the version the setup ran: "F8 on vLLM 0.29: affected, observed".
    states: Vec<StateView>,
    /// The file or table row of the evidence.
    evidence: Option<NamedLink>,
}

/// A finding's state at the version a run ran.
#[derive(Serialize)]
struct StateView {
    finding: String,
    state: &'static str,
    label: &'static str,
    source: &'static str,
    tested: bool,
    version: NamedLink,
}

/// What a run's page says it observes: what it shows (or shows absent),
/// and apart, what it cannot tell.
#[derive(Serialize)]
pub(super) struct RunObserved {
    told: Vec<RunObservation>,
    unsure: Vec<RunObservation>,
}

/// A hash of what [`of_run`] reads of the findings beside the run's own
/// file and the observations (which every page's key holds): the address
/// of each finding naming a symptom the run observed, and its state on the
/// version the run's setup ran. A record whose versions change changes the
/// run's page without the run changing.
pub(super) fn run_key(model: &Model, r: usize) -> u64 {
    let mut parts: Vec<(&str, Option<(&'static str, &'static str)>)> = Vec::new();
    for (o, version, naming) in named(model, r) {
        let engine = &model.runs[r].setups[o.setup].engine;
        for &i in naming {
            let state = state_on(model, i, engine, version.as_ref())
                .map(|(state, source)| (state.as_str(), source.as_str()));
            parts.push((&model.findings[i].slug, state));
        }
    }
    crate::util::hash_of(parts)
}

/// The observations of run `r` whose symptom findings name, each with the
/// version its setup ran (when it reads as one) and those findings.
fn named(
    model: &Model,
    r: usize,
) -> impl Iterator<Item = (&crate::symptoms::Observation, Option<Version>, &[usize])> {
    let run = &model.runs[r];
    model.observations[r].iter().filter_map(move |o| {
        let naming = model.symptom_findings.get(o.symptom)?;
        let version = run.setups[o.setup]
            .version
            .as_deref()
            .and_then(|v| Version::parse(v).ok());
        Some((o, version, naming.as_slice()))
    })
}

/// Finding `i`'s state on `version` of `engine`, and where the state
/// comes from, when it has an entry for the engine and the version is
/// known.
fn state_on(
    model: &Model,
    i: usize,
    engine: &str,
    version: Option<&Version>,
) -> Option<(State, Source)> {
    let e = model.findings[i]
        .engines
        .iter()
        .position(|x| x.engine == engine)?;
    let (state, source, _) = model.state_at(i, e, version?);
    Some((state, source))
}

/// What run `r` shows of the findings' symptoms, shown first, then absent;
/// apart, what it cannot tell.
pub(super) fn of_run(model: &Model, r: usize) -> Option<RunObserved> {
    let (told, unsure): (Vec<RunObservation>, Vec<RunObservation>) = observations(model, r)
        .into_iter()
        .partition(|o| o.outcome != Outcome::CannotTell.as_str());
    (!told.is_empty() || !unsure.is_empty()).then_some(RunObserved { told, unsure })
}

fn observations(model: &Model, r: usize) -> Vec<RunObservation> {
    let run = &model.runs[r];
    let mut out: Vec<(Outcome, RunObservation)> = Vec::new();
    for (o, version, naming) in named(model, r) {
        let setup = &run.setups[o.setup];
        let engine_name = model
            .site
            .engines
            .iter()
            .find(|e| e.id == setup.engine)
            .map_or(setup.engine.as_str(), |e| e.name.as_str());
        let mut states = Vec::new();
        for &i in naming {
            let f = &model.findings[i];
            if o.outcome == Outcome::CannotTell {
                continue;
            }
            let (Some((state, source)), Some(v)) = (
                state_on(model, i, &setup.engine, version.as_ref()),
                &version,
            ) else {
                continue;
            };
            let page = model.version_page(&setup.engine, v);
            states.push(StateView {
                finding: format!("F{}", f.id),
                state: state.as_str(),
                label: state.label(),
                source: source.as_str(),
                tested: state.is_tested() || source == Source::Observed,
                version: NamedLink {
                    name: format!("{engine_name} {page}"),
                    url: format!("{ROOT}{}", urls::version(&setup.engine, page.as_str())),
                },
            });
        }
        out.push((
            o.outcome,
            RunObservation {
                outcome: o.outcome.as_str(),
                label: o.outcome.label(),
                symptom: o.symptom,
                setup: setup.name(),
                findings: naming
                    .iter()
                    .map(|&i| {
                        let f = &model.findings[i];
                        NamedLink {
                            name: format!("F{}", f.id),
                            url: format!("{ROOT}{}", urls::finding(&f.slug)),
                        }
                    })
                    .collect(),
                says: markdown::render_inline(
                    o.says.strip_prefix("cannot tell: ").unwrap_or(&o.says),
                ),
                states,
                evidence: match &o.at {
                    Place::File { path, .. } => Some(NamedLink {
                        name: path.clone(),
                        url: format!("{ROOT}{}", urls::run_file(&run.id, path)),
                    }),
                    Place::Row { table, line } => Some(NamedLink {
                        name: format!("{table}, line {line}"),
                        url: format!("{ROOT}{}", urls::run_file(&run.id, table)),
                    }),
                    Place::Run => None,
                },
            },
        ));
    }
    out.sort_by_key(|(o, _)| *o);
    out.into_iter().map(|(_, v)| v).collect()
}

/// A row of a finding's "Observed in runs".
#[derive(Serialize)]
pub(super) struct FindingObservation {
    engine: String,
    version: NamedLink,
    /// The version's state, and where it comes from.
    state: &'static str,
    label: &'static str,
    source: &'static str,
    outcome: &'static str,
    shows: &'static str,
    symptom: &'static str,
    run: NamedLink,
    setup: String,
    says: String,
    /// The record's reason, for a run it acknowledges.
    reason: Option<String>,
}

/// The runs that observed finding `i`'s symptoms, by engine and version.
pub(super) fn of_finding(model: &Model, i: usize) -> Vec<FindingObservation> {
    let f = &model.findings[i];
    let mut out = Vec::new();
    for (e, versions) in &model.observed[i] {
        let entry = &f.engines[*e];
        let name = model
            .site
            .engines
            .iter()
            .find(|x| x.id == entry.engine)
            .map_or(entry.engine.clone(), |x| x.name.clone());
        for (v, at) in versions {
            let (state, source, _) = model.state_at(i, *e, v);
            let page = model.version_page(&entry.engine, v);
            let rows = at.deciding().map(|o| (o, None)).chain(
                at.acknowledged
                    .iter()
                    .map(|&(o, a)| (o, f.acknowledged.get(a).map(|a| a.reason.clone()))),
            );
            for (o, reason) in rows {
                let run = &model.runs[o.0];
                let x = model.observation(o);
                out.push(FindingObservation {
                    engine: name.clone(),
                    version: NamedLink {
                        name: page.to_string(),
                        url: format!("{ROOT}{}", urls::version(&entry.engine, page.as_str())),
                    },
                    state: state.as_str(),
                    label: state.label(),
                    source: source.as_str(),
                    outcome: x.outcome.as_str(),
                    shows: shows(x.outcome),
                    symptom: x.symptom,
                    run: NamedLink {
                        name: run.title.clone(),
                        url: format!("{ROOT}{}", urls::run(&run.id)),
                    },
                    setup: run
                        .setups
                        .get(x.setup)
                        .map(|s| s.name())
                        .unwrap_or_default(),
                    says: markdown::render_inline(&x.says),
                    reason,
                });
            }
        }
    }
    out
}

/// The run a matrix cell names for an observed state: the first that
/// decided it, with how many others did.
pub(super) fn cell_by(model: &Model, at: &AtVersion) -> Option<NamedLink> {
    let mut runs: Vec<usize> = at.deciding().map(|(r, _)| r).collect();
    runs.dedup();
    let first = &model.runs[*runs.first()?];
    let more = match runs.len() - 1 {
        0 => String::new(),
        1 => " and 1 other run".to_string(),
        n => format!(" and {n} other runs"),
    };
    Some(NamedLink {
        name: format!("{}{more}", first.title),
        url: format!("{ROOT}{}", urls::run(&first.id)),
    })
}

/// What run `r` showed of the findings, in a line for lists (the home
/// page's latest runs): "shows F8 on vLLM 0.30.0; shows F10, F11 absent",
/// the findings named by the symptoms it showed or showed absent, by the
/// engine and version each setup ran. Empty when it showed nothing.
pub(super) fn run_line(model: &Model, r: usize) -> String {
    let run = &model.runs[r];
    // (outcome, engine and version) -> finding labels, in first-seen order.
    let mut told: Vec<(Outcome, String, Vec<String>)> = Vec::new();
    for (o, version, naming) in named(model, r) {
        if o.outcome == Outcome::CannotTell {
            continue;
        }
        let setup = &run.setups[o.setup];
        let engine = model
            .site
            .engines
            .iter()
            .find(|e| e.id == setup.engine)
            .map_or(setup.engine.as_str(), |e| e.name.as_str());
        let on = match &version {
            Some(v) => format!("{engine} {v}"),
            None => engine.to_string(),
        };
        let labels = naming.iter().map(|&i| format!("F{}", model.findings[i].id));
        let at = match told
            .iter_mut()
            .find(|(x, w, _)| *x == o.outcome && *w == on)
        {
            Some(t) => &mut t.2,
            None => {
                told.push((o.outcome, on, Vec::new()));
                &mut told.last_mut().expect("just pushed").2
            }
        };
        for l in labels {
            if !at.contains(&l) {
                at.push(l);
            }
        }
    }
    told.sort_by_key(|(o, _, _)| *o);
    let parts: Vec<String> = told
        .iter()
        .map(|(o, on, labels)| {
            let absent = if *o == Outcome::Absent { " absent" } else { "" };
            format!("shows {}{absent} on {on}", crate::util::and_list(labels))
        })
        .collect();
    parts.join("; ")
}
