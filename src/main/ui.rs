//! How the command talks to a person: errors and notes on stderr, in
//! colour only on a terminal, and a progress indicator for long builds.

use crate::cli::Format;
use findings::diagnostics::{shown, Diagnostic, Severity, Shown};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How the command talks: how much, and whether in colour.
#[derive(Clone, Copy)]
pub(crate) struct Ui {
    pub(crate) quiet: bool,
    pub(crate) verbose: bool,
    color: bool,
    progress: bool,
}

impl Ui {
    pub(crate) fn new(quiet: bool, verbose: bool) -> Ui {
        let terminal = std::io::stderr().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Ui {
            quiet,
            verbose,
            color: terminal && !no_color,
            progress: terminal && !quiet && std::env::var_os("CI").is_none(),
        }
    }

    pub(crate) fn paint(&self, text: &str, style: &str) -> String {
        if self.color {
            format!("\x1b[{style}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// `error: message` on stderr, always (even with --quiet).
    pub(crate) fn error(&self, message: impl std::fmt::Display) {
        eprintln!("{} {message}", self.paint("error:", "1;31"));
    }

    /// `note: message` on stderr, unless --quiet: something worth knowing
    /// that is not a problem.
    pub(crate) fn note(&self, message: impl std::fmt::Display) {
        if !self.quiet {
            eprintln!("{} {message}", self.paint("note:", "1;36"));
        }
    }

    /// A line of progress or summary on stderr, unless --quiet.
    pub(crate) fn info(&self, message: impl std::fmt::Display) {
        if !self.quiet {
            eprintln!("{message}");
        }
    }

    /// A diagnostic as text, with `error:`/`warning:` in colour.
    pub(crate) fn diagnostic(&self, d: &Diagnostic) -> String {
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

    /// Prints diagnostics: JSON on stdout, or text on stderr (errors only
    /// with --quiet), at most `MAX_SHOWN_PER_FILE` of a file.
    pub(crate) fn diagnostics(&self, list: &[Diagnostic], format: Format) {
        match format {
            Format::Json => {
                println!("{}", serde_json::to_string_pretty(list).unwrap_or_default());
            }
            Format::Text => {
                use std::io::Write;
                // One write per screenful, not one per line.
                let mut err = std::io::BufWriter::new(std::io::stderr().lock());
                let keep = |d: &Diagnostic| !self.quiet || d.severity == Severity::Error;
                for line in shown(list, keep) {
                    let _ = match line {
                        Shown::Diagnostic(d) => writeln!(err, "{}", self.diagnostic(d)),
                        more => writeln!(err, "{more}"),
                    };
                }
                let _ = err.flush();
            }
        }
    }

    /// Runs `work`, showing a spinner with the elapsed time on a terminal
    /// once it has taken more than a second.
    pub(crate) fn progress<T>(&self, label: &str, work: impl FnOnce() -> T) -> T {
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

pub(crate) fn ms(d: Duration) -> u128 {
    d.as_millis()
}
