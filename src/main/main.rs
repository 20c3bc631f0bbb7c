//! The `findings` command line.

mod alloc;
mod audit;
mod cli;
mod compare;
mod import;
mod lint;
mod serve;
mod trends;
mod ui;

use clap::Parser;
use cli::{Cli, Command, Format, ListFormat};
use findings::diagnostics::{plural, Diagnostic, Severity};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use ui::{ms, Ui};

// mimalloc (see alloc.rs).
#[global_allocator]
static ALLOCATOR: alloc::Mimalloc = alloc::Mimalloc;

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

/// What a build writes with: the lock `build` took, or `serve`'s session
/// (which holds its own).
pub(crate) enum Writer<'a> {
    Once(&'a findings::write::OutputLock),
    Serve(&'a mut findings::Session),
}

/// Claims the output folder for `build` or `serve` (see
/// [`findings::claim_output`]) and says so when it takes over the lock of a
/// process that ended without letting go; or reports why not.
pub(crate) fn claim(
    ui: Ui,
    root: &Path,
    output: &Path,
    serving: bool,
) -> Result<findings::write::OutputLock, ExitCode> {
    match findings::claim_output(root, output) {
        Ok(lock) => {
            if let Some(note) = lock.takeover_note() {
                ui.note(note);
            }
            Ok(lock)
        }
        Err(e) => {
            ui.error(&e);
            if let findings::BuildError::Busy(busy) = &e {
                eprintln!("  hint: {}", busy.hint());
            }
            // `serve` stops here with the error; `build` ends as a failed build does.
            if !serving {
                let outcome = match e {
                    findings::BuildError::Busy(_) => "nothing was written".to_string(),
                    _ => format!("the previous site in {} is unchanged", output.display()),
                };
                eprintln!("build: stopped; {outcome}");
            }
            Err(ExitCode::FAILURE)
        }
    }
}

/// Builds once and reports it like `findings build` does: warnings, one
/// summary line (`verb: … in N ms`), stage times with --verbose, errors.
/// Returns the error messages when the build failed.
fn build_and_report(
    ui: Ui,
    opts: &findings::BuildOptions,
    format: Format,
    verb: &str,
    writer: Writer<'_>,
) -> Result<(), Vec<String>> {
    let start = Instant::now();
    let serving = matches!(writer, Writer::Serve(_));
    let result = ui.progress("building the site", || match writer {
        Writer::Serve(s) => s.build(opts),
        Writer::Once(lock) => findings::build_locked(opts, lock),
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

/// `findings init`: writes the new site, names what it wrote (stdout, one
/// path a line, for scripts) and what comes next.
fn init(
    ui: Ui,
    dir: PathBuf,
    engines: Vec<String>,
    title: String,
    base_url: Option<String>,
) -> Result<ExitCode, ExitCode> {
    use findings::init::{InitError, InitOptions, DEFAULT_BASE_URL};
    let placeholder = base_url.is_none();
    let opts = InitOptions {
        dir,
        engines,
        title: Some(title),
        base_url,
        today: findings::authoring::today(),
    };
    let done = match findings::init::init(&opts) {
        Ok(done) => done,
        Err(e) => {
            ui.error(&e);
            return Err(match e {
                InitError::Invalid(_) => ExitCode::from(2),
                InitError::NotEmpty { .. } => {
                    eprintln!("  hint: `findings new` adds a finding to a site that exists");
                    ExitCode::FAILURE
                }
                InitError::Io { .. } => {
                    eprintln!("init: stopped; what was written is taken back");
                    ExitCode::FAILURE
                }
            });
        }
    };
    for rel in &done.written {
        println!("{}", opts.dir.join(rel).display());
    }
    for rel in &done.kept {
        ui.note(format_args!(
            "{} was there already and is kept as it was",
            opts.dir.join(rel).display()
        ));
    }
    ui.info(format_args!(
        "init: {} into {}",
        plural(done.written.len(), "file", "files"),
        opts.dir.display()
    ));
    if placeholder {
        ui.info(format_args!(
            "  base_url is {DEFAULT_BASE_URL}, a placeholder: set it in site.yaml to where the site will be published"
        ));
    }
    ui.info(format_args!(
        "  next: findings serve --root {} --drafts   (the example finding is a draft: without --drafts the site has no findings yet)",
        opts.dir.display()
    ));
    Ok(ExitCode::SUCCESS)
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
        Command::Init {
            dir,
            engines,
            title,
            base_url,
        } => init(ui, dir, engines, title, base_url)?,
        Command::Serve {
            root,
            port,
            open,
            output,
            base_url,
            drafts,
        } => serve::serve(ui, root, port, open, output, base_url, drafts),
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
        Command::Audit {
            files,
            engines,
            from,
            root,
            format,
            fail_on,
        } => audit::audit(ui, files, engines, from, root, format, fail_on)?,
        Command::Lint {
            inputs,
            from_issue,
            engine,
            version,
            from,
            root,
            format,
        } => lint::lint(
            ui,
            findings::lint::LintOptions {
                inputs,
                issue: from_issue,
                engine,
                version,
            },
            from,
            root,
            format,
        )?,
        Command::Compare {
            inputs,
            from_issue,
            metrics,
            engine,
            version,
            noise,
            same_workload,
            from,
            root,
            format,
        } => compare::compare(
            ui,
            compare::inputs::CompareOptions {
                inputs,
                issue: from_issue,
                metrics,
                engine,
                version,
                noise,
                same_workload,
                root,
            },
            from,
            format,
        )?,
        Command::Trends {
            engine,
            workload,
            since,
            format,
            fail_on,
            threshold,
            root,
        } => trends::trends(
            ui,
            &root,
            findings::trends::TrendsOptions {
                engine,
                workload,
                since,
                format: match format {
                    cli::TrendsFormat::Table => findings::trends::Format::Table,
                    cli::TrendsFormat::Json => findings::trends::Format::Json,
                    cli::TrendsFormat::Markdown => findings::trends::Format::Markdown,
                    cli::TrendsFormat::Github => findings::trends::Format::Github,
                },
                threshold,
            },
            fail_on == cli::TrendsFailOn::Regression,
        )?,
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
        Command::Import {
            id,
            inputs,
            engine,
            version,
            setup,
            title,
            model,
            hardware,
            date,
            force,
            keep_texts,
            root,
        } => {
            let date = match date
                .as_deref()
                .map(|d| (d, findings::record::Date::parse(d)))
            {
                None => None,
                Some((_, Some(d))) => Some(d),
                Some((d, None)) => {
                    ui.error(format_args!("--date {d}: not a date; write YYYY-MM-DD"));
                    return Err(ExitCode::from(2));
                }
            };
            import::import(
                ui,
                findings::import::ImportOptions {
                    root,
                    run: id,
                    inputs,
                    engine,
                    version,
                    setup,
                    title,
                    model,
                    hardware,
                    date,
                    force,
                    keep_texts,
                },
            )?
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
            let lock = claim(ui, &opts.root, &opts.output, false)?;
            match build_and_report(ui, &opts, format, "build", Writer::Once(&lock)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
        Command::Check {
            root,
            format,
            strict,
        } => {
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
            // The process ends here: the records are left for the system to
            // take back with the rest of its memory. Freeing them one by one
            // (tens of thousands of strings and maps at 10,000 findings) was
            // a fortieth of `check`'s instructions.
            std::mem::forget(loaded);
            if errors > 0 || (strict && warnings > 0) {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
    })
}
