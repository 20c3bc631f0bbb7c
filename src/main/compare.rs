//! `findings compare`: the command around [`findings::compare_inputs`]:
//! the report in the chosen format, and the exit status.

use crate::cli::CompareFormat;
use crate::ui::Ui;
use findings::compare::report;
use findings::compare_inputs::{compare_inputs, CompareOptions};
use std::process::ExitCode;

/// Reads the inputs, prints the comparison, and returns 0 (the sides
/// share a workload), 1 (they share none) or 2 (no comparison can be
/// made).
pub(crate) fn compare(
    ui: Ui,
    opts: CompareOptions,
    format: CompareFormat,
) -> Result<ExitCode, ExitCode> {
    if opts.noise.is_some_and(|n| !(n.is_finite() && n >= 0.0)) {
        ui.error("--noise takes a band in percent, 0 or more (5 for ±5%)");
        return Err(ExitCode::from(2));
    }
    let done = compare_inputs(&opts).map_err(|e| {
        ui.error(&e.message);
        if let Some(h) = &e.hint {
            eprintln!("  hint: {h}");
        }
        ExitCode::from(2)
    })?;
    let text = match format {
        CompareFormat::Table => report::table(&done),
        CompareFormat::Json => report::json(&done),
        CompareFormat::Markdown => report::markdown(&done),
    };
    print!("{text}");
    Ok(ExitCode::from(u8::from(done.is_empty())))
}
