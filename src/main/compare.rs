//! `findings compare`: the command around `compare/inputs.rs` (what it
//! reads: run ids, files and an issue's reports as sides, compared): the
//! findings to cite where a side ran fewer requests than asked, the report
//! in the chosen format, and the exit status.

use crate::cli::CompareFormat;
use crate::ui::Ui;
use findings::audit::source::{self, Catalog};
use findings::compare::report;
use inputs::{cite, compare_inputs, CompareOptions};
use std::process::ExitCode;

pub(crate) mod accuracy;
pub(crate) mod inputs;

/// Reads the inputs, prints the comparison, and returns 0 (the sides
/// share a workload), 1 (they share none) or 2 (no comparison can be
/// made). The findings are cited only where a side ran fewer requests at
/// once than asked: from `from` (read whenever given), else from the
/// records of `--root` where it holds a site whose records check (else
/// none are cited).
pub(crate) fn compare(
    ui: Ui,
    opts: CompareOptions,
    from: Option<String>,
    format: CompareFormat,
) -> Result<ExitCode, ExitCode> {
    let stop = |message: &str, hint: Option<&str>| {
        ui.error(message);
        if let Some(h) = hint {
            eprintln!("  hint: {h}");
        }
        ExitCode::from(2)
    };
    if opts.noise.is_some_and(|n| !(n.is_finite() && n >= 0.0)) {
        return Err(stop(
            "--noise takes a band in percent, 0 or more (5 for ±5%)",
            None,
        ));
    }
    if opts.issue.is_none() {
        if let Some(sides) = accuracy::accuracy_sides(&opts.inputs, &opts.root) {
            let sides = sides.map_err(|e| stop(&e.message, e.hint.as_deref()))?;
            let c = findings::compare::accuracy::compare(&sides[0], &sides[1]);
            use findings::compare::accuracy_report as ar;
            let text = match format {
                CompareFormat::Json => ar::json(&c),
                CompareFormat::Table | CompareFormat::Markdown => ar::table(&c),
            };
            print!("{text}");
            return Ok(ExitCode::from(u8::from(
                c.rows.is_empty() && c.unscored.is_empty(),
            )));
        }
    }
    let mut done = compare_inputs(&opts).map_err(|e| stop(&e.message, e.hint.as_deref()))?;
    // A site named with --from is read whatever the sides ran, so that a
    // wrong address is heard of; the records of --root only when needed.
    let published = match &from {
        Some(from) => Some(source::fetch(from).map_err(|e| stop(&e.message, e.hint.as_deref()))?),
        None => None,
    };
    if !done.ran_fewer().is_empty() {
        let catalog = published.or_else(|| {
            findings::open(&opts.root, false).ok().map(|(model, _)| {
                Catalog::from_model(&model, format!("the records in {}", opts.root.display()))
            })
        });
        if let Some(catalog) = catalog {
            cite(&mut done, &catalog);
        }
    }
    let text = match format {
        CompareFormat::Table => report::table(&done),
        CompareFormat::Json => report::json(&done),
        CompareFormat::Markdown => report::markdown(&done),
    };
    print!("{text}");
    Ok(ExitCode::from(u8::from(done.is_empty())))
}
