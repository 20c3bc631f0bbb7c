//! `findings import`: the command around [`findings::import`]: what it
//! kept and took out of each file, on stderr; the `run.yaml` it wrote, on
//! stdout; the exit status.

use crate::cli::Format;
use crate::ui::Ui;
use findings::import::{ImportError, ImportOptions, ImportReport};
use std::process::ExitCode;

/// Runs an import and says what it did; 0 when the run then checks clean
/// (warnings allowed), 1 when the import could not be done (the run would
/// not check, among others: it is then left as it was), 2 for a wrong
/// request (an unknown engine, a missing version).
pub(crate) fn import(ui: Ui, opts: ImportOptions) -> Result<ExitCode, ExitCode> {
    match findings::import::import(&opts) {
        Ok(report) => Ok(done(ui, &opts, &report)),
        Err(e) => {
            let code = match &e {
                ImportError::Usage(_) => 2,
                _ => 1,
            };
            match &e {
                ImportError::Read(r) => ui.error(r),
                ImportError::Invalid {
                    message,
                    diagnostics,
                } => {
                    ui.error(message);
                    ui.diagnostics(&diagnostics.clone().sorted(), Format::Text);
                }
                other => ui.error(other),
            }
            ui.info("import: nothing was written");
            Err(ExitCode::from(code))
        }
    }
}

fn done(ui: Ui, opts: &ImportOptions, report: &ImportReport) -> ExitCode {
    let mut total = 0;
    for k in &report.kept {
        total += k.bytes;
        if k.unchanged {
            ui.info(format_args!(
                "{}: already kept, unchanged",
                k.path.display()
            ));
        } else {
            ui.info(format_args!(
                "kept {} ({})",
                k.path.display(),
                findings::figures::bytes(k.bytes)
            ));
        }
        for r in &k.removed {
            ui.info(format_args!("  removed {r}"));
        }
    }
    for n in &report.notes {
        ui.note(n);
    }
    let diags = report.diagnostics.clone().sorted();
    ui.diagnostics(&diags, Format::Text);
    observed(ui, opts);
    let errors = diags
        .iter()
        .filter(|d| d.severity == findings::diagnostics::Severity::Error)
        .count();
    ui.info(format_args!(
        "import: {} {} {} {} file{} ({} kept); `findings serve` shows it",
        if report.created { "made" } else { "updated" },
        report.run_yaml.display(),
        if report.created { "from" } else { "with" },
        report.kept.len(),
        if report.kept.len() == 1 { "" } else { "s" },
        findings::figures::bytes(total),
    ));
    println!("{}", opts.root.join(&report.run_yaml).display());
    if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// What the imported run shows of the findings' symptoms, and what that did
/// to their states: the site read again with the run, modelled whatever
/// `check` says of it (a run that contradicts a record is worth knowing
/// about before the record is corrected).
fn observed(ui: Ui, opts: &ImportOptions) {
    let loaded = findings::load::load(&opts.root);
    let Some(site) = loaded.site else {
        return;
    };
    let model = findings::model::Model::build(site, loaded.findings, loaded.runs, true);
    for (head, says) in findings::lint::effect::of_run(&model, &opts.run) {
        ui.note(format_args!("{head}\n  {says}"));
    }
}
