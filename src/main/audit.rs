//! `findings audit`: the command around [`findings::audit`]: the source,
//! the inputs, the report in the chosen format, and the exit status.

use crate::cli::{AuditFormat, FailOn};
use crate::open;
use crate::ui::Ui;
use std::path::PathBuf;
use std::process::ExitCode;

/// `findings audit`: reads the source and the inputs, prints the report,
/// and returns 0, 1 (a finding fails the run) or 2 (the audit could not be
/// done).
pub(crate) fn audit(
    ui: Ui,
    files: Vec<PathBuf>,
    engines: Vec<String>,
    from: Option<String>,
    root: PathBuf,
    format: AuditFormat,
    fail_on: FailOn,
) -> Result<ExitCode, ExitCode> {
    use findings::audit::{self as audit, inputs, resolve, Catalog};
    // Errors before a report: on stderr, and with --format github also as
    // annotations, so that the run shows why it stopped.
    let stop = |file: Option<&str>, line: Option<usize>, message: &str, hint: Option<&str>| {
        ui.error(message);
        if let Some(h) = hint {
            eprintln!("  hint: {h}");
        }
        if matches!(format, AuditFormat::Github) {
            print!("{}", audit::report::github_error(file, line, message, hint));
        }
    };
    let bad = ExitCode::from(2);
    if files.is_empty() && engines.is_empty() {
        stop(
            None,
            None,
            "nothing to audit: name the files that pin engine versions, or pass --engine ID=VERSION",
            None,
        );
        return Err(bad);
    }
    let catalog = match &from {
        Some(from) => audit::source::fetch(from).map_err(|e| {
            stop(None, None, &e.message, e.hint.as_deref());
            ExitCode::from(2)
        })?,
        None => {
            let model = open(ui, &root).map_err(|_| {
                if matches!(format, AuditFormat::Github) {
                    print!(
                        "{}",
                        audit::report::github_error(
                            None,
                            None,
                            "the records have errors",
                            Some("run `findings check`")
                        )
                    );
                }
                ExitCode::from(2)
            })?;
            let place = root.display().to_string();
            Catalog::from_model(&model, format!("the records in {place}"))
        }
    };
    let given = resolve::engine_args(&catalog, &engines).map_err(|errors| {
        for e in errors {
            stop(None, None, &e, None);
        }
        ExitCode::from(2)
    })?;
    let (refs, errors) = inputs::read_all(&files);
    if !errors.is_empty() {
        for e in &errors {
            stop(Some(&e.file), e.line, &e.to_string(), e.hint.as_deref());
        }
        return Err(bad);
    }
    let (pins, problems) = resolve::resolve(&catalog, refs, given);
    let shown = files.iter().map(|f| f.display().to_string()).collect();
    let fail_on = match fail_on {
        FailOn::Affected => audit::FailOn::Affected,
        FailOn::InRange => audit::FailOn::InRange,
        FailOn::Never => audit::FailOn::Never,
    };
    let report = audit::audit(&catalog, pins, problems, shown, fail_on);
    let text = match format {
        AuditFormat::Table => audit::report::table(&catalog, &report),
        AuditFormat::Json => audit::report::json(&catalog, &report),
        AuditFormat::Markdown => audit::report::markdown(&catalog, &report),
        AuditFormat::Github => audit::report::github(&catalog, &report),
    };
    print!("{text}");
    if report.incomplete() && !matches!(format, AuditFormat::Table) {
        ui.error(audit::report::verdict(&report));
    }
    Ok(ExitCode::from(report.exit_status()))
}
