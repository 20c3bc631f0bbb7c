//! The `findings` command line.

use clap::{Parser, Subcommand, ValueEnum};
use findings::diagnostics::{plural, Diagnostic, Severity};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

// Building a site allocates millions of small strings across threads;
// mimalloc does that markedly faster than glibc malloc (see
// docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay`: its place in `mi_option_t` (in
/// `mimalloc.h` of both mimalloc 2 and 3), which the Rust bindings do not
/// name.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// How long freed memory stays with the process before mimalloc gives it
/// back, in milliseconds. A build frees each page's context and HTML as
/// soon as the page is written; with mimalloc 3's default of a second (ten
/// for whole arenas) the process kept about 20% more memory than it used
/// (see docs/performance.md). 50 ms costs no measurable time.
const PURGE_DELAY_MS: std::ffi::c_long = 50;

const EXIT_STATUS: &str = "\
Exit status:
  0  success: the folder is clean (warnings allowed) and the command did its work;
     `serve` also exits 0 when stopped with Ctrl-C
  1  errors in the records, a template that fails, output that cannot be written,
     `show` of a finding that does not exist, `new` that would overwrite a file,
     or `serve` that cannot listen on its port
  2  a wrong command line: an unknown option or value, an unknown engine or group

Colour is used only on a terminal and never when NO_COLOR is set; a progress
indicator shows on a terminal when a build takes more than a second (never
when CI is set).";

#[derive(Parser)]
#[command(
    name = "findings",
    version,
    about = "Build a static site of evidence-backed findings about serving open models",
    after_help = EXIT_STATUS
)]
struct Cli {
    /// Print only errors.
    #[arg(long, short, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Print more: the time of each build stage, the files that changed.
    #[arg(long, short, global = true)]
    verbose: bool,
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
    /// Build, serve the site on 127.0.0.1, and rebuild and reload pages when a record changes.
    #[command(after_help = "\
The site is built into a temporary folder (removed when serve stops) with
base_url set to the local address, so public/ is never overwritten with a
site that links to 127.0.0.1. Changes under findings/, data/, templates/,
static/ and to site.yaml rebuild it; open pages reload. When a record has
errors, they are printed here and shown over the page in the browser, and
the last good site is still served. Stop with Ctrl-C.")]
    Serve {
        /// The site folder (holds site.yaml, findings/, data/).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// The port on 127.0.0.1; 0 picks a free one.
        #[arg(long, default_value_t = 1111)]
        port: u16,
        /// Open the home page in the default browser.
        #[arg(long)]
        open: bool,
        /// Build into this folder instead of a temporary one (its contents are replaced).
        #[arg(long)]
        output: Option<PathBuf>,
        /// Build with this base_url instead of the local address.
        #[arg(long)]
        base_url: Option<String>,
        /// Include draft findings.
        #[arg(long)]
        drafts: bool,
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
        /// Record --version as seen, not affected: the problem showed while
        /// it ran, but it does not lie in the engine (a grader, a client, a
        /// chat template, a way of measuring).
        #[arg(long, requires = "version")]
        seen: bool,
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

/// How the command talks: how much, and whether in colour.
#[derive(Clone, Copy)]
struct Ui {
    quiet: bool,
    verbose: bool,
    color: bool,
    progress: bool,
}

impl Ui {
    fn new(quiet: bool, verbose: bool) -> Ui {
        let terminal = std::io::stderr().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Ui {
            quiet,
            verbose,
            color: terminal && !no_color,
            progress: terminal && !quiet && std::env::var_os("CI").is_none(),
        }
    }

    fn paint(&self, text: &str, style: &str) -> String {
        if self.color {
            format!("\x1b[{style}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// `error: message` on stderr, always (even with --quiet).
    fn error(&self, message: impl std::fmt::Display) {
        eprintln!("{} {message}", self.paint("error:", "1;31"));
    }

    /// A line of progress or summary on stderr, unless --quiet.
    fn info(&self, message: impl std::fmt::Display) {
        if !self.quiet {
            eprintln!("{message}");
        }
    }

    /// A diagnostic as text, with `error:`/`warning:` in colour.
    fn diagnostic(&self, d: &Diagnostic) -> String {
        let text = d.to_string();
        let (label, style) = match d.severity {
            Severity::Error => ("error:", "1;31"),
            Severity::Warning => ("warning:", "1;33"),
        };
        match text.find(&format!(": {label} ")) {
            Some(i) if self.color => format!(
                "{}: {}{}",
                &text[..i],
                self.paint(label, style),
                &text[i + 2 + label.len()..]
            ),
            _ => text,
        }
    }

    /// Prints diagnostics: JSON on stdout, or text on stderr (errors only with --quiet).
    fn diagnostics(&self, list: &[Diagnostic], format: Format) {
        match format {
            Format::Json => {
                println!("{}", serde_json::to_string_pretty(list).unwrap_or_default());
            }
            Format::Text => {
                for d in list {
                    if !self.quiet || d.severity == Severity::Error {
                        eprintln!("{}", self.diagnostic(d));
                    }
                }
            }
        }
    }

    /// Runs `work`, showing a spinner with the elapsed time on a terminal
    /// once it has taken more than a second.
    fn progress<T>(&self, label: &str, work: impl FnOnce() -> T) -> T {
        if !self.progress {
            return work();
        }
        let (done, wait) = std::sync::mpsc::channel::<()>();
        let label = label.to_string();
        let started = Instant::now();
        let spinner = std::thread::spawn(move || {
            if wait.recv_timeout(Duration::from_secs(1))
                != Err(std::sync::mpsc::RecvTimeoutError::Timeout)
            {
                return;
            }
            let bar = indicatif::ProgressBar::new_spinner().with_elapsed(started.elapsed());
            if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed}")
            {
                bar.set_style(style);
            }
            bar.set_message(label);
            bar.enable_steady_tick(Duration::from_millis(100));
            let _ = wait.recv();
            bar.finish_and_clear();
        });
        let out = work();
        drop(done);
        let _ = spinner.join();
        out
    }
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// Builds once and reports it like `findings build` does: warnings, one
/// summary line (`verb: … in N ms`), stage times with --verbose, errors.
/// Returns the error messages when the build failed.
fn build_and_report(
    ui: Ui,
    opts: &findings::BuildOptions,
    format: Format,
    verb: &str,
    session: Option<&mut findings::Session>,
) -> Result<(), Vec<String>> {
    let start = Instant::now();
    let serving = session.is_some();
    let result = ui.progress("building the site", || match session {
        Some(s) => s.build(opts),
        None => findings::build(opts),
    });
    let elapsed = start.elapsed();
    match result {
        Ok(report) => {
            let warnings = report.warnings.warning_count();
            ui.diagnostics(&report.warnings.sorted(), format);
            let c = report.counts;
            ui.info(format_args!(
                "{verb}: {} ({}, {}, {}) and {} into {} in {} ms{}",
                plural(c.pages, "page", "pages"),
                plural(c.findings, "finding", "findings"),
                plural(c.runs, "run", "runs"),
                plural(c.charts, "chart", "charts"),
                plural(c.assets, "file", "files"),
                opts.output.display(),
                ms(elapsed),
                if warnings > 0 {
                    format!(", {}", plural(warnings, "warning", "warnings"))
                } else {
                    String::new()
                },
            ));
            if ui.verbose {
                let t = report.timings;
                ui.info(format_args!(
                    "  stages: load {} ms, validate {} ms, model {} ms, render {} ms, write {} ms",
                    ms(t.load),
                    ms(t.validate),
                    ms(t.model),
                    ms(t.render),
                    ms(t.write),
                ));
            }
            Ok(())
        }
        Err(findings::BuildError::Invalid(diags)) => {
            let errors = diags.error_count();
            let sorted = diags.sorted();
            ui.diagnostics(&sorted, format);
            if serving {
                eprintln!(
                    "{verb}: stopped, {} in {} ms; still serving the last good site",
                    plural(errors, "error", "errors"),
                    ms(elapsed)
                );
            } else {
                eprintln!(
                    "{verb}: stopped, {}; nothing was written",
                    plural(errors, "error", "errors")
                );
            }
            Err(sorted
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| d.to_string())
                .collect())
        }
        Err(e) => {
            ui.error(&e);
            if serving {
                eprintln!(
                    "{verb}: stopped in {} ms; still serving the last good site",
                    ms(elapsed)
                );
            } else {
                eprintln!(
                    "{verb}: stopped; the previous site in {} is unchanged",
                    opts.output.display()
                );
            }
            Err(vec![e.to_string()])
        }
    }
}

/// Opens the folder for a read-only command, or reports why not.
fn open(ui: Ui, root: &Path) -> Result<findings::model::Model, ExitCode> {
    open_with(ui, root, false)
}

/// Refuses a `value` that is not one of `known` (a wrong command line: exit 2).
fn require(ui: Ui, what: &str, value: &str, known: &[&str]) -> Result<(), ExitCode> {
    if known.contains(&value) {
        return Ok(());
    }
    ui.error(format_args!(
        "unknown {what} \"{value}\"; known {what}s: {}",
        known.join(", ")
    ));
    Err(ExitCode::from(2))
}

/// Refuses an engine id that `site.yaml` does not define.
fn require_engine(ui: Ui, site: &findings::record::Site, engine: &str) -> Result<(), ExitCode> {
    let ids: Vec<&str> = site.engines.iter().map(|e| e.id.as_str()).collect();
    require(ui, "engine", engine, &ids)
}

/// Like [`open`]; `drafts` keeps draft findings in the model.
fn open_with(ui: Ui, root: &Path, drafts: bool) -> Result<findings::model::Model, ExitCode> {
    findings::open(root, drafts)
        .map(|(m, _)| m)
        .map_err(|diags| {
            let n = diags.error_count();
            ui.diagnostics(&diags.sorted(), Format::Text);
            eprintln!(
                "stopped: the folder has {}; run `findings check`",
                plural(n, "error", "errors")
            );
            ExitCode::FAILURE
        })
}

/// What `serve` does around the server: builds, and says so.
struct ServeHost {
    ui: Ui,
    /// What rebuilds reuse from earlier builds.
    session: findings::Session,
    opts: findings::BuildOptions,
    open_browser: bool,
}

impl findings::serve::Host for ServeHost {
    fn rebuild(&mut self, changed: &[PathBuf]) -> Result<(), Vec<String>> {
        let verb = if changed.is_empty() {
            "build".to_string()
        } else {
            // Name files that still exist first: editors and tools write
            // temporary files beside the one saved.
            let mut named: Vec<&PathBuf> = changed
                .iter()
                .filter(|p| self.opts.root.join(p).exists())
                .collect();
            if named.is_empty() {
                named = changed.iter().collect();
            }
            let first = named[0].display().to_string();
            if self.ui.verbose {
                for p in changed {
                    self.ui.info(format_args!("changed: {}", p.display()));
                }
            }
            match named.len() {
                1 => format!("rebuild ({first})"),
                n => format!("rebuild ({first} and {} more)", n - 1),
            }
        };
        build_and_report(
            self.ui,
            &self.opts,
            Format::Text,
            &verb,
            Some(&mut self.session),
        )
    }

    fn ready(&mut self, url: &str) {
        // The address is the command's result: on stdout, even with --quiet.
        println!("serving {url} from {}", self.opts.output.display());
        self.ui.info(format_args!(
            "watching findings/, data/, templates/, static/ and site.yaml in {}; Ctrl-C to stop",
            self.opts.root.display()
        ));
        if self.open_browser {
            open_in_browser(self.ui, url);
        }
    }

    fn note(&mut self, message: &str) {
        eprintln!("{} {message}", self.ui.paint("warning:", "1;33"));
    }
}

fn open_in_browser(ui: Ui, url: &str) {
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    let spawned = cmd
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        eprintln!(
            "{} cannot open a browser ({e}); open {url} yourself",
            ui.paint("warning:", "1;33")
        );
    }
}

fn serve(
    ui: Ui,
    root: PathBuf,
    port: u16,
    open_browser: bool,
    output: Option<PathBuf>,
    base_url: Option<String>,
    drafts: bool,
) -> ExitCode {
    let server = match findings::serve::Server::bind(port) {
        Ok(s) => s,
        Err(e) => {
            ui.error(format_args!(
                "cannot listen on 127.0.0.1:{port}: {e}; pick another port with --port N, or --port 0 for any free one"
            ));
            return ExitCode::FAILURE;
        }
    };
    // The site goes into a temporary folder unless told otherwise; it is
    // removed when `temp` drops, after the server has stopped.
    let temp;
    let output = match output {
        Some(o) => o,
        None => match tempfile::Builder::new().prefix("findings-serve-").tempdir() {
            Ok(dir) => {
                temp = dir;
                temp.path().join("site")
            }
            Err(e) => {
                ui.error(format_args!("cannot make a temporary folder: {e}"));
                return ExitCode::FAILURE;
            }
        },
    };
    let stopper = server.stopper();
    let pressed = std::sync::atomic::AtomicBool::new(false);
    let handler = move || {
        // The first Ctrl-C stops cleanly; a second one does not wait.
        if pressed.swap(true, std::sync::atomic::Ordering::SeqCst) {
            std::process::exit(130);
        }
        stopper.stop();
    };
    if let Err(e) = ctrlc::set_handler(handler) {
        eprintln!(
            "{} cannot handle Ctrl-C ({e}); stop the server another way",
            ui.paint("warning:", "1;33")
        );
    }
    let mut host = ServeHost {
        ui,
        session: findings::Session::new(),
        opts: findings::BuildOptions {
            root: root.clone(),
            output: output.clone(),
            base_url: Some(base_url.unwrap_or_else(|| server.url())),
            drafts,
        },
        open_browser,
    };
    match server.run(&root, &output, &mut host) {
        Ok(()) => {
            ui.info("serve: stopped");
            ExitCode::SUCCESS
        }
        Err(e) => {
            ui.error(format_args!("cannot serve {}: {e}", root.display()));
            ExitCode::FAILURE
        }
    }
}

/// Prints the path `new` or `new-run` wrote (stdout, for scripts), or
/// reports why it wrote nothing.
fn created(
    ui: Ui,
    root: &Path,
    made: Result<PathBuf, findings::authoring::NewError>,
) -> Result<ExitCode, ExitCode> {
    match made {
        Ok(path) => {
            println!("{}", root.join(path).display());
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            ui.error(e);
            Err(ExitCode::FAILURE)
        }
    }
}

fn main() -> ExitCode {
    // SAFETY: sets one of mimalloc's options, before any thread starts.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
    let cli = Cli::parse();
    let ui = Ui::new(cli.quiet, cli.verbose);
    match run(ui, cli.command) {
        Ok(code) | Err(code) => code,
    }
}

fn run(ui: Ui, command: Command) -> Result<ExitCode, ExitCode> {
    Ok(match command {
        Command::Serve {
            root,
            port,
            open,
            output,
            base_url,
            drafts,
        } => serve(ui, root, port, open, output, base_url, drafts),
        Command::List {
            root,
            engine,
            version,
            group,
            status,
            format,
        } => {
            let model = open(ui, &root)?;
            let version = match version
                .map(|v| findings::version::Version::parse(&v))
                .transpose()
            {
                Ok(v) => v,
                Err(e) => {
                    ui.error(e);
                    return Err(ExitCode::from(2));
                }
            };
            if let Some(e) = &engine {
                require_engine(ui, &model.site, e)?;
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
            let model = open(ui, &root)?;
            let Ok(n) = id.trim_start_matches(['F', 'f']).parse::<u32>() else {
                ui.error(format_args!(
                    "\"{id}\" is not a finding number (write 7 or F7)"
                ));
                return Err(ExitCode::from(2));
            };
            match findings::authoring::show(&model, n) {
                Some(text) => print!("{text}"),
                None => {
                    ui.error(format_args!("no finding has id {n}"));
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
            seen,
            root,
        } => {
            // Drafts included: ids are never reused, drafts and withdrawn ones included.
            let model = open_with(ui, &root, true)?;
            let groups: Vec<&str> = model.site.groups.iter().map(|g| g.id.as_str()).collect();
            require(ui, "group", &group, &groups)?;
            require_engine(ui, &model.site, &engine)?;
            let next = model.findings.iter().map(|f| f.id).max().unwrap_or(0) + 1;
            let made = findings::authoring::new_finding(
                &root,
                next,
                &title,
                &group,
                &engine,
                version
                    .as_deref()
                    .map(|version| findings::authoring::NewVersion { version, seen }),
                findings::authoring::today(),
            );
            created(ui, &root, made)?
        }
        Command::NewRun {
            id,
            engine,
            version,
            root,
        } => {
            if let (
                findings::load::Loaded {
                    site: Some(site), ..
                },
                _,
            ) = findings::check(&root)
            {
                require_engine(ui, &site, &engine)?;
            }
            let made = findings::authoring::new_run(
                &root,
                &id,
                &engine,
                &version,
                findings::authoring::today(),
            );
            created(ui, &root, made)?
        }
        Command::Build {
            root,
            output,
            base_url,
            drafts,
            format,
        } => {
            let opts = findings::BuildOptions {
                output: output.unwrap_or_else(|| root.join("public")),
                root,
                base_url,
                drafts,
            };
            match build_and_report(ui, &opts, format, "build", None) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
        Command::Check { root, format } => {
            let start = Instant::now();
            let (loaded, diags) = findings::check(&root);
            let errors = diags.error_count();
            let warnings = diags.warning_count();
            let list: Vec<Diagnostic> = diags.sorted();
            ui.diagnostics(&list, format);
            if let Format::Text = format {
                ui.info(format_args!(
                    "check: {}, {} in {} and {}",
                    plural(errors, "error", "errors"),
                    plural(warnings, "warning", "warnings"),
                    plural(loaded.findings.len(), "finding", "findings"),
                    plural(loaded.runs.len(), "run", "runs"),
                ));
                if ui.verbose {
                    ui.info(format_args!("  took {} ms", ms(start.elapsed())));
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
