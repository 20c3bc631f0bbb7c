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
    /// List findings, optionally those concerning an engine version, with each one's state for it.
    List {
        /// The site folder.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Only findings with an entry for this engine id (e.g. vllm).
        #[arg(long)]
        engine: Option<String>,
        /// With --engine: the version to report states for (any version, listed or not).
        #[arg(long, requires = "engine")]
        version: Option<String>,
        /// Only this group id.
        #[arg(long)]
        group: Option<String>,
        /// Only this status (open, fixed, mitigated, advice).
        #[arg(long)]
        status: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Table)]
        format: ListFormat,
    },
    /// Print one finding's facts and permanent URL.
    Show {
        /// The finding number (7 or F7).
        id: String,
        /// The site folder.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Start a new finding with the next free id, today's date and a body skeleton.
    New {
        /// The finding's title, as a sentence.
        title: String,
        /// Group id from site.yaml.
        #[arg(long)]
        group: String,
        /// Engine id from site.yaml.
        #[arg(long)]
        engine: String,
        /// A version found affected.
        #[arg(long)]
        version: Option<String>,
        /// The site folder.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Start a new run folder with a run.yaml and a CSV table to fill in.
    NewRun {
        /// The run id (lowercase letters, digits and '-').
        id: String,
        /// Engine id from site.yaml.
        #[arg(long)]
        engine: String,
        /// Engine version measured.
        #[arg(long)]
        version: String,
        /// The site folder.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum ListFormat {
    Table,
    Json,
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

/// Opens the folder for a read-only command, or reports why not.
fn open(root: &std::path::Path) -> Result<findings::model::Model, ExitCode> {
    findings::open(root, false)
        .map(|(m, _)| m)
        .map_err(|diags| {
            let n = diags.error_count();
            print_diagnostics(&diags.sorted(), Format::Text);
            eprintln!(
                "stopped: the folder has {}; run `findings check`",
                plural(n, "error", "errors")
            );
            ExitCode::FAILURE
        })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) | Err(code) => code,
    }
}

fn run(command: Command) -> Result<ExitCode, ExitCode> {
    Ok(match command {
        Command::List {
            root,
            engine,
            version,
            group,
            status,
            format,
        } => {
            let model = open(&root)?;
            let version = match version
                .map(|v| findings::version::Version::parse(&v))
                .transpose()
            {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("error: {e}");
                    return Err(ExitCode::from(2));
                }
            };
            if let Some(e) = &engine {
                if !model.site.engines.iter().any(|x| &x.id == e) {
                    let ids: Vec<&str> = model.site.engines.iter().map(|x| x.id.as_str()).collect();
                    eprintln!(
                        "error: unknown engine \"{e}\"; known engines: {}",
                        ids.join(", ")
                    );
                    return Err(ExitCode::from(2));
                }
            }
            let q = findings::authoring::ListQuery {
                engine,
                version,
                group,
                status,
            };
            let rows = findings::authoring::list(&model, &q);
            match format {
                ListFormat::Json => println!(
                    "{}",
                    serde_json::to_string_pretty(&rows).unwrap_or_default()
                ),
                ListFormat::Table => print!("{}", findings::authoring::list_table(&rows)),
            }
            ExitCode::SUCCESS
        }
        Command::Show { id, root } => {
            let model = open(&root)?;
            let Ok(n) = id.trim_start_matches(['F', 'f']).parse::<u32>() else {
                eprintln!("error: \"{id}\" is not a finding number (write 7 or F7)");
                return Err(ExitCode::from(2));
            };
            match findings::authoring::show(&model, n) {
                Some(text) => print!("{text}"),
                None => {
                    eprintln!("error: no finding has id {n}");
                    return Err(ExitCode::FAILURE);
                }
            }
            ExitCode::SUCCESS
        }
        Command::New {
            title,
            group,
            engine,
            version,
            root,
        } => {
            let model = open(&root)?;
            if !model.site.groups.iter().any(|g| g.id == group) {
                eprintln!("error: unknown group \"{group}\"");
                return Err(ExitCode::from(2));
            }
            if !model.site.engines.iter().any(|e| e.id == engine) {
                eprintln!("error: unknown engine \"{engine}\"");
                return Err(ExitCode::from(2));
            }
            // The next free id: ids are never reused, drafts and withdrawn ones included.
            let (loaded, _) = findings::check(&root);
            let next = loaded
                .findings
                .iter()
                .map(|f| f.id)
                .chain(loaded.broken_findings.iter().copied())
                .max()
                .unwrap_or(0)
                + 1;
            match findings::authoring::new_finding(
                &root,
                next,
                &title,
                &group,
                &engine,
                version.as_deref(),
                findings::authoring::today(),
            ) {
                Ok(path) => println!("{}", root.join(path).display()),
                Err(e) => {
                    eprintln!("error: {e}");
                    return Err(ExitCode::FAILURE);
                }
            }
            ExitCode::SUCCESS
        }
        Command::NewRun {
            id,
            engine,
            version,
            root,
        } => {
            match findings::authoring::new_run(
                &root,
                &id,
                &engine,
                &version,
                findings::authoring::today(),
            ) {
                Ok(path) => println!("{}", root.join(path).display()),
                Err(e) => {
                    eprintln!("error: {e}");
                    return Err(ExitCode::FAILURE);
                }
            }
            ExitCode::SUCCESS
        }
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
    })
}
