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
    /// Check, then render the site into the output folder (built aside, then swapped in).
    Build {
        /// The site folder (holds site.yaml, findings/, data/).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Where to write the site (default: <root>/public).
        #[arg(long)]
        output: Option<PathBuf>,
        /// Publish under this address instead of site.yaml's base_url.
        #[arg(long)]
        base_url: Option<String>,
        /// Include draft findings.
        #[arg(long)]
        drafts: bool,
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

fn print_diagnostics(list: &[Diagnostic], format: Format) {
    match format {
        Format::Json => {
            println!("{}", serde_json::to_string_pretty(list).unwrap_or_default());
        }
        Format::Text => {
            for d in list {
                eprintln!("{d}");
            }
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Build {
            root,
            output,
            base_url,
            drafts,
            format,
        } => {
            let start = std::time::Instant::now();
            let opts = findings::BuildOptions {
                output: output.unwrap_or_else(|| root.join("public")),
                root,
                base_url,
                drafts,
            };
            match findings::build(&opts) {
                Ok(report) => {
                    let warnings = report.warnings.warning_count();
                    print_diagnostics(&report.warnings.sorted(), format);
                    let c = report.counts;
                    eprintln!(
                        "build: {} ({}, {}, {}) and {} into {} in {} ms{}",
                        plural(c.pages, "page", "pages"),
                        plural(c.findings, "finding", "findings"),
                        plural(c.runs, "run", "runs"),
                        plural(c.charts, "chart", "charts"),
                        plural(c.assets, "file", "files"),
                        opts.output.display(),
                        start.elapsed().as_millis(),
                        if warnings > 0 {
                            format!(", {}", plural(warnings, "warning", "warnings"))
                        } else {
                            String::new()
                        },
                    );
                    ExitCode::SUCCESS
                }
                Err(findings::BuildError::Invalid(diags)) => {
                    let errors = diags.error_count();
                    print_diagnostics(&diags.sorted(), format);
                    eprintln!(
                        "build: stopped, {}; nothing was written",
                        plural(errors, "error", "errors")
                    );
                    ExitCode::FAILURE
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    eprintln!(
                        "build: stopped; the previous site in {} is unchanged",
                        opts.output.display()
                    );
                    ExitCode::FAILURE
                }
            }
        }
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
