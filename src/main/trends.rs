//! `findings trends`: the command around [`findings::trends`]: the
//! records read, the trends said in the chosen format, and the exit
//! status (1 for a regression under `--fail-on regression`, 2 when the
//! trends cannot be said).

use crate::ui::Ui;
use findings::diagnostics::plural;
use findings::trends::{trends as say, Format, TrendsOptions};
use std::path::Path;
use std::process::ExitCode;

/// Reads the records of `root`, prints the trends `opts` select, and
/// returns 0, 1 (a regression, and `fail` asks to fail on one) or 2.
pub(crate) fn trends(
    ui: Ui,
    root: &Path,
    opts: TrendsOptions,
    fail: bool,
) -> Result<ExitCode, ExitCode> {
    let github = opts.format == Format::Github;
    let stop = |message: &str, hint: Option<&str>| {
        ui.error(message);
        if let Some(h) = hint {
            eprintln!("  hint: {h}");
        }
        if github {
            let text = match hint {
                Some(h) => format!("{message}\nhint: {h}"),
                None => message.to_string(),
            };
            println!(
                "::error title=findings trends could not run::{}",
                text.replace('%', "%25").replace('\n', "%0A")
            );
        }
        ExitCode::from(2)
    };
    let mut model = match findings::open(root, false) {
        Ok((m, _)) => m,
        Err(diags) => {
            let n = diags.error_count();
            ui.diagnostics(&diags.sorted(), crate::cli::Format::Text);
            return Err(stop(
                &format!("the records have {}", plural(n, "error", "errors")),
                Some("run `findings check`"),
            ));
        }
    };
    let report = say(&mut model, &opts).map_err(|e| stop(&e.message, Some(&e.hint)))?;
    print!("{}", report.text);
    Ok(ExitCode::from(u8::from(fail && report.regressions > 0)))
}
