//! `findings serve` around [`findings::serve`]: builds, rebuilds on
//! change, reports each build, and opens the browser when asked.

use crate::cli::Format;
use crate::ui::Ui;
use crate::{build_and_report, claim, Writer};
use std::path::PathBuf;
use std::process::ExitCode;

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
            Writer::Serve(&mut self.session),
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

pub(crate) fn serve(
    ui: Ui,
    root: PathBuf,
    port: u16,
    open_browser: bool,
    output: Option<PathBuf>,
    base_url: Option<String>,
    drafts: bool,
) -> ExitCode {
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
    // The folder is this server's for as long as it runs (it writes it on
    // every rebuild), claimed before the port: another port would not help
    // a second server of the same folder.
    let lock = match claim(ui, &root, &output, true) {
        Ok(lock) => lock,
        Err(code) => return code,
    };
    let server = match findings::serve::Server::bind(port) {
        Ok(s) => s,
        Err(e) => {
            ui.error(format_args!(
                "cannot listen on 127.0.0.1:{port}: {e}; pick another port with --port N, or --port 0 for any free one"
            ));
            return ExitCode::FAILURE;
        }
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
    let mut session = findings::Session::new();
    session.hold(lock);
    let mut host = ServeHost {
        ui,
        session,
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
