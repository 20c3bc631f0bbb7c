//! Every field of `findings.json`, held to the records it came from.
//!
//! The structs are taken apart without `..`: a field added to the export
//! does not compile here until this test says what it must hold, so no
//! field can go out unchecked (issue 43: `hardware` emptied in the export
//! passed every test while the round trip checked a subset of fields).

#![allow(missing_docs)]

mod common;
use common::run_in;
use findings::outputs::export::{
    ChartExport, EntryExport, Export, FindingExport, FindingUrls, LinkExport, RunExport,
    SetupExport, WithdrawnExport,
};
use std::collections::BTreeSet;
use std::path::Path;

fn export_of(root: &Path, drafts: bool) -> (findings::model::Model, Export) {
    let model = findings::open(root, drafts).unwrap().0;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("public");
    let mut args = vec!["build", "--output", out.to_str().unwrap()];
    if drafts {
        args.push("--drafts");
    }
    let o = run_in(root, &args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let text = std::fs::read_to_string(out.join("findings.json")).unwrap();
    (model, serde_json::from_str(&text).unwrap())
}

#[test]
fn every_field_of_every_finding_and_run_is_what_the_records_say() {
    // What the two sites give at least once, so that each check below
    // meets a value that is not empty.
    let mut met: BTreeSet<&str> = BTreeSet::new();
    for (root, drafts) in [
        (common::bundled(), false),
        (common::fixture("minimal"), true),
    ] {
        let (model, export) = export_of(&root, drafts);
        let base = model.site.base_url.clone();
        assert_eq!(export.findings.len(), model.findings.len());
        for (x, f) in export.findings.iter().zip(&model.findings) {
            let i = model.by_id[&f.id];
            let FindingExport {
                id,
                slug,
                label,
                title,
                title_text,
                group,
                advice,
                status,
                status_note,
                summary,
                what_to_do,
                summary_text,
                summary_html,
                published,
                updated,
                found_by,
                engines,
                models,
                hardware,
                tags,
                links,
                runs,
                charts,
                checks,
                flagged_runs,
                symptoms,
                acknowledged,
                aliases,
                draft,
                withdrawn,
                superseded_by,
                listed,
                urls,
            } = x;
            let at = format!("F{}", f.id);
            assert_eq!((*id, slug, title), (f.id, &f.slug, &f.title), "{at}");
            assert_eq!(label, &at);
            assert!(!title_text.is_empty() && !title_text.contains('`'), "{at}");
            assert_eq!(group, &f.group, "{at}");
            assert_eq!(advice, &f.advice, "{at}");
            assert_eq!(status, f.status.as_str(), "{at}");
            assert_eq!(status_note, &f.status_note, "{at}");
            assert_eq!(summary, &f.summary, "{at}");
            assert!(!summary_text.is_empty() && !summary_html.is_empty(), "{at}");
            assert!(
                summary_html.starts_with('<') || !summary_html.contains('<'),
                "{at}"
            );
            // What to do: the body's section, as text, where it has one.
            if f.body.contains("\n## What to do\n") {
                assert!(!what_to_do.is_empty(), "{at}: what_to_do");
                met.insert("what_to_do");
            }
            assert_eq!(published, &f.published.to_string(), "{at}");
            assert_eq!(updated, &f.updated.map(|d| d.to_string()), "{at}");
            assert_eq!(found_by, f.found_by.as_str(), "{at}");
            assert_eq!(engines.len(), f.engines.len(), "{at}");
            for (xe, e) in engines.iter().zip(&f.engines) {
                let EntryExport {
                    engine,
                    affected,
                    clean,
                    seen,
                    introduced_in,
                    fixed_in,
                    mitigated_in,
                    note,
                    states,
                } = xe;
                let strings = |v: &[findings::version::Version]| {
                    v.iter().map(|v| v.to_string()).collect::<Vec<_>>()
                };
                assert_eq!(engine, &e.engine, "{at}");
                assert_eq!(affected, &strings(&e.affected), "{at}");
                assert_eq!(clean, &strings(&e.clean), "{at}");
                assert_eq!(seen, &strings(&e.seen), "{at}");
                assert_eq!(
                    introduced_in,
                    &e.introduced_in.as_ref().map(|v| v.to_string()),
                    "{at}"
                );
                assert_eq!(
                    fixed_in,
                    &e.fixed_in.as_ref().map(|v| v.to_string()),
                    "{at}"
                );
                assert_eq!(
                    mitigated_in,
                    &e.mitigated_in.as_ref().map(|v| v.to_string()),
                    "{at}"
                );
                assert_eq!(note, &e.note, "{at}");
                // The states are held to the state rules by
                // tests/outputs.rs (json_export_round_trips_into_the_record_model);
                // here, one per version the engine knows (none for an
                // engine whose versions no record or run names).
                let known = model
                    .engines
                    .iter()
                    .find(|x| model.site.engines[x.engine].id == e.engine)
                    .map_or(0, |x| x.versions.len());
                assert_eq!(states.len(), known, "{at}: {}", e.engine);
            }
            assert_eq!(models, &f.models, "{at}");
            assert_eq!(hardware, &f.hardware, "{at}");
            assert_eq!(tags, &f.tags, "{at}");
            assert_eq!(links.len(), f.links.len(), "{at}");
            for (xl, l) in links.iter().zip(&f.links) {
                let LinkExport {
                    label,
                    url,
                    kind,
                    href,
                } = xl;
                assert_eq!((label, url, kind), (&l.label, &l.url, &l.kind), "{at}");
                if l.url.starts_with("http") {
                    assert_eq!(href, &l.url, "{at}");
                } else {
                    assert!(href.starts_with(&base), "{at}: {href}");
                }
            }
            assert_eq!(runs, &f.runs, "{at}");
            assert_eq!(charts, &f.charts, "{at}");
            assert_eq!(checks, &f.checks, "{at}");
            for fr in flagged_runs {
                assert!(
                    model.runs.iter().any(|r| r.id == fr.run),
                    "{at}: {}",
                    fr.run
                );
                assert!(f.checks.contains(&fr.check), "{at}: {}", fr.check);
                assert!(["flagged", "acknowledged"].contains(&fr.verdict.as_str()));
                met.insert("flagged_runs");
            }
            assert_eq!(symptoms, &f.symptoms, "{at}");
            assert_eq!(acknowledged.len(), f.acknowledged.len(), "{at}");
            for (xa, a) in acknowledged.iter().zip(&f.acknowledged) {
                assert_eq!(
                    (&xa.run, &xa.symptom, &xa.reason),
                    (&a.run, &a.symptom, &a.reason)
                );
            }
            assert_eq!(aliases, &f.aliases, "{at}");
            assert_eq!(*draft, f.draft, "{at}");
            assert_eq!(
                withdrawn,
                &f.withdrawn.as_ref().map(|w| WithdrawnExport {
                    date: w.date.to_string(),
                    reason: w.reason.clone()
                }),
                "{at}"
            );
            assert_eq!(*superseded_by, f.superseded_by, "{at}");
            assert_eq!(*listed, model.listed[i], "{at}");
            let FindingUrls {
                page,
                permalink,
                json,
            } = urls;
            assert_eq!(page, &format!("{base}findings/{}/", f.slug));
            assert_eq!(permalink, &format!("{base}f/{}/", f.id));
            assert_eq!(json, &format!("{base}f/{}.json", f.id));
            for (name, given) in [
                ("status_note", f.status_note.is_some()),
                ("hardware", !f.hardware.is_empty()),
                ("models", !f.models.is_empty()),
                ("tags", !f.tags.is_empty()),
                ("links", !f.links.is_empty()),
                ("runs", !f.runs.is_empty()),
                ("checks", !f.checks.is_empty()),
                ("symptoms", !f.symptoms.is_empty()),
                ("aliases", !f.aliases.is_empty()),
                ("draft", f.draft),
                ("withdrawn", f.withdrawn.is_some()),
                ("superseded_by", f.superseded_by.is_some()),
                ("updated", f.updated.is_some()),
            ] {
                if given {
                    met.insert(name);
                }
            }
        }
        assert_eq!(export.runs.len(), model.runs.len());
        for (x, r) in export.runs.iter().zip(&model.runs) {
            let RunExport {
                id,
                title,
                date,
                setups,
                model: run_model,
                hardware,
                client,
                endpoint,
                source,
                notes,
                results,
                checks,
                observations,
                tables,
                charts,
                cited_by,
                url,
            } = x;
            let at = &r.id;
            assert_eq!((id, title), (&r.id, &r.title));
            assert_eq!(date, &r.date.to_string(), "{at}");
            assert_eq!(setups.len(), r.setups.len(), "{at}");
            for (xs, s) in setups.iter().zip(&r.setups) {
                let SetupExport {
                    engine,
                    version,
                    flags,
                    name,
                } = xs;
                assert_eq!(
                    (engine, version, flags),
                    (&s.engine, &s.version, &s.flags),
                    "{at}"
                );
                assert_eq!(name, &s.name(), "{at}");
            }
            assert_eq!(
                (run_model, hardware, client, endpoint, source, notes),
                (
                    &r.model,
                    &r.hardware,
                    &r.client,
                    &r.endpoint,
                    &r.source,
                    &r.notes
                ),
                "{at}"
            );
            assert_eq!(results.len(), r.results.len(), "{at}");
            // Checks and observations are the model's verdicts, held to
            // their rules by tests/checks.rs and tests/symptoms.rs; every
            // one names a check or symptom the site knows.
            for c in checks {
                assert!(!c.name.is_empty() && !c.verdict.is_empty(), "{at}");
            }
            if !observations.is_empty() {
                met.insert("observations");
            }
            assert_eq!(tables.len(), r.tables.len(), "{at}");
            assert_eq!(charts.len(), r.charts.len(), "{at}");
            for (xc, c) in charts.iter().zip(&r.charts) {
                let ChartExport {
                    id,
                    title,
                    table,
                    kind,
                    x,
                    y,
                    series,
                    x_label,
                    y_label,
                    log_x,
                    log_y,
                    caption,
                } = xc;
                assert_eq!((id, title, table), (&c.id, &c.title, &c.table), "{at}");
                assert_eq!(kind, c.kind.as_str(), "{at}");
                assert_eq!((x, y, series), (&c.x, &c.y, &c.series), "{at}");
                assert_eq!((x_label, y_label), (&c.x_label, &c.y_label), "{at}");
                assert_eq!((*log_x, *log_y), (c.log_x, c.log_y), "{at}");
                assert_eq!(caption, &c.caption, "{at}");
                met.insert("charts");
            }
            let mut citing: Vec<u32> = model
                .findings
                .iter()
                .filter(|f| f.runs.contains(&r.id))
                .map(|f| f.id)
                .collect();
            citing.sort_unstable();
            let mut cited = cited_by.clone();
            cited.sort_unstable();
            assert_eq!(cited, citing, "{at}: cited_by");
            assert_eq!(url, &format!("{base}runs/{}/", r.id), "{at}");
            for (name, given) in [
                ("run hardware", r.hardware.is_some()),
                ("run model", r.model.is_some()),
                ("run notes", r.notes.is_some()),
                ("cited_by", !cited_by.is_empty()),
            ] {
                if given {
                    met.insert(name);
                }
            }
        }
    }
    let want: BTreeSet<&str> = [
        "what_to_do",
        "flagged_runs",
        "status_note",
        "hardware",
        "models",
        "tags",
        "links",
        "runs",
        "checks",
        "symptoms",
        "aliases",
        "draft",
        "withdrawn",
        "superseded_by",
        "updated",
        "observations",
        "charts",
        "run hardware",
        "run model",
        "run notes",
        "cited_by",
    ]
    .into_iter()
    .collect();
    assert_eq!(
        want.difference(&met).collect::<Vec<_>>(),
        Vec::<&&str>::new(),
        "fields the two sites never give a value, so their checks test nothing"
    );
}
