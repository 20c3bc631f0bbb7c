//! The `findings` command line.

use clap::{Parser, Subcommand, ValueEnum};
use findings::diagnostics::{plural, Diagnostic};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "findings",
    version,
    about = "Build a static site of evidence-backed findings about serving open models"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate the findings folder and report every problem, writing nothing.
    Check {
        /// The site folder (holds site.yaml, findings/, data/).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Output format of the diagnostics.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { root, format } => {
            let (loaded, diags) = findings::check(&root);
            let errors = diags.error_count();
            let warnings = diags.warning_count();
            let list: Vec<Diagnostic> = diags.sorted();
            match format {
                Format::Json => {
                    println!(
                        "{}",
                        serde_json::to_string_pretty(&list).unwrap_or_default()
                    );
                }
                Format::Text => {
                    for d in &list {
                        eprintln!("{d}");
                    }
                    eprintln!(
                        "check: {}, {} in {} and {}",
                        plural(errors, "error", "errors"),
                        plural(warnings, "warning", "warnings"),
                        plural(loaded.findings.len(), "finding", "findings"),
                        plural(loaded.runs.len(), "run", "runs"),
                    );
                }
            }
            if errors > 0 {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}
