//! `findings lint`: the command around [`findings::lint`]: the findings'
//! source, the report in the chosen format, and the exit status.

use crate::cli::LintFormat;
use crate::open;
use crate::ui::Ui;
use findings::audit::source::{self, Catalog};
use findings::lint::{self, report, LintOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// Reads the findings and the files, prints the report, and returns 0 (no
/// check flags the files), 1 (one does) or 2 (the lint could not be done).
pub(crate) fn lint(
    ui: Ui,
    opts: LintOptions,
    from: Option<String>,
    root: PathBuf,
    format: LintFormat,
) -> Result<ExitCode, ExitCode> {
    let stop = |message: &str, hint: Option<&str>| {
        ui.error(message);
        if let Some(h) = hint {
            eprintln!("  hint: {h}");
        }
        if format == LintFormat::Github {
            print!(
                "{}",
                findings::audit::report::github_error(None, None, message, hint).replace(
                    "findings audit could not run",
                    "findings lint could not run"
                )
            );
        }
        ExitCode::from(2)
    };
    let catalog = match &from {
        Some(from) => source::fetch(from).map_err(|e| stop(&e.message, e.hint.as_deref()))?,
        None => {
            let model = open(ui, &root).map_err(|_| ExitCode::from(2))?;
            Catalog::from_model(&model, format!("the records in {}", root.display()))
        }
    };
    let done = lint::lint(&opts, &catalog).map_err(|e| stop(&e.to_string(), e.hint()))?;
    let text = match format {
        LintFormat::Table => report::table(&done),
        LintFormat::Json => report::json(&done),
        LintFormat::Markdown => report::markdown(&done),
        LintFormat::Github => report::github(&done),
        // Nothing where the lint has nothing for the issue: stderr says
        // why, and the workflow posts nothing.
        LintFormat::GithubComment => match lint::comment::answer(&done) {
            Ok(text) => text,
            Err(why) => {
                eprintln!("findings lint: {why}");
                String::new()
            }
        },
    };
    // A comment to post whose links lead nowhere: say so, and post it.
    if format == LintFormat::GithubComment && !text.is_empty() {
        if let Some(why) = lint::comment::placeholder(&catalog.base_url) {
            eprintln!("{} {why}", ui.paint("warning:", "1;33"));
        }
    }
    print!("{text}");
    Ok(ExitCode::from(done.exit_status()))
}
