//! The rules between a run's result files and the rest of the run: the
//! engine, version and model a file records against the setup and model
//! `run.yaml` gives (warnings: the file is the evidence, and a difference
//! is worth a look, not a stop), two entries with the same bytes (a
//! warning naming both: a copy is no repeat), and published addresses that two
//! files would share (an error). Takes a run; hands on its diagnostics, at
//! `run.yaml`.

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::record::{names_engine, ResultSource, Run, Setup};
use crate::version::Version;
use std::collections::BTreeMap;

pub(super) fn check(run: &Run, names: &BTreeMap<String, String>, diags: &mut Diagnostics) {
    let file = &run.path;
    let at = |s: &ResultSource| run.spans.get(&s.path_in_yaml);
    for s in &run.results {
        let Some(setup) = s.setup.and_then(|i| run.setups.get(i)) else {
            continue;
        };
        if let Some(msg) = disagreement(s, setup, names) {
            diags.push(
                Diagnostic::warning(file, at(s), msg)
                    .field(format!("{}.setup", s.path_in_yaml))
                    .hint("name the setup the file measured, or correct the setup's engine and version"),
            );
        }
        if let Some(want) = &run.model {
            for f in s.facts_named("model") {
                let Some(got) = &f.value else { continue };
                if !same_model(got, want) {
                    diags.push(
                        Diagnostic::warning(
                            file,
                            at(s),
                            format!(
                                "{} measured the model \"{got}\", but the run's model is \"{want}\"",
                                f.source
                            ),
                        )
                        .field(format!("{}.path", s.path_in_yaml))
                        .hint("keep the files of one model in a run, or correct the run's `model`"),
                    );
                    break;
                }
            }
        }
    }
    copies(run, diags);
    shared_addresses(run, diags);
}

/// What a file records of its engine and version that its setup does not
/// say, if anything. A file names its engine as its tool does
/// (`llama.cpp`), the setup by the site's id (`llama-cpp`): one engine
/// ([`names_engine`]).
fn disagreement(
    s: &ResultSource,
    setup: &Setup,
    names: &BTreeMap<String, String>,
) -> Option<String> {
    let said = |name: &str| s.fact(name).and_then(|f| f.value.clone());
    if let Some(engine) = said("engine") {
        let name = names.get(&setup.engine).map_or("", String::as_str);
        if engine != setup.engine && !names_engine(&engine, &setup.engine, name) {
            return Some(format!(
                "{} records the engine \"{engine}\", but its setup \"{}\" is {}",
                s.path,
                setup.name(),
                setup.engine
            ));
        }
    }
    let (Some(v), Some(want)) = (said("version"), setup.version.as_deref()) else {
        return None;
    };
    let v = crate::results::site_version(&v).to_string();
    // 0.28 and 0.28.0 are one version.
    let same = match (Version::parse(&v), Version::parse(want)) {
        (Ok(a), Ok(b)) => a == b,
        _ => v == want,
    };
    (!same).then(|| {
        format!(
            "{} records version {v}, but its setup \"{}\" is version {want}",
            s.path,
            setup.name()
        )
    })
}

/// A model as a file names it against the run's: a local path ends in the
/// model's folder, and hub ids may carry an organisation.
fn same_model(file: &str, run: &str) -> bool {
    let last = |s: &str| {
        s.trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(s)
            .to_ascii_lowercase()
    };
    file == run || last(file) == last(run)
}

/// Two entries of `results` with the same bytes: one measurement kept
/// twice. Two files of one setup at one setting are repeats of a workload
/// (the comparisons take their spread for its noise), but a copy is no
/// repeat, and would make a change look steadier than it is.
fn copies(run: &Run, diags: &mut Diagnostics) {
    // Two reports of one paste are two measurements: an entry is its bytes
    // and the report it takes.
    let mut first: BTreeMap<(Vec<&str>, Option<usize>), &ResultSource> = BTreeMap::new();
    for s in &run.results {
        let read: Vec<&str> = s
            .files
            .iter()
            .filter(|f| f.format.is_some())
            .map(|f| f.sha256.as_str())
            .collect();
        if read.is_empty() {
            continue;
        }
        let read = (read, s.report);
        match first.get(&read) {
            Some(other) => diags.push(
                Diagnostic::warning(
                    &run.path,
                    run.spans.get(&s.path_in_yaml),
                    format!(
                        "{} has the same bytes as {}: one measurement kept twice, which would count as two repeats",
                        s.path, other.path
                    ),
                )
                .field(format!("{}.path", s.path_in_yaml))
                .hint("keep one of them; a repeat of the workload is a file of its own run of the benchmark"),
            ),
            None => {
                first.insert(read, s);
            }
        }
    }
}

/// Files the site would publish at one address: a result file and a table,
/// or a result file named like the run's page.
fn shared_addresses(run: &Run, diags: &mut Diagnostics) {
    for s in &run.results {
        for f in &s.files {
            let clash = if f.path == "index.html" {
                Some("the run's page".to_string())
            } else {
                run.tables
                    .iter()
                    .find(|t| t.file == f.path)
                    .map(|t| format!("the table \"{}\"", t.title))
            };
            if let Some(what) = clash {
                diags.push(
                    Diagnostic::error(
                        &run.path,
                        run.spans.get(&s.path_in_yaml),
                        format!("{} would be published at the address of {what}", f.path),
                    )
                    .field(format!("{}.path", s.path_in_yaml))
                    .hint("keep result files in a folder of their own, such as `raw/`"),
                );
            }
        }
    }
}
