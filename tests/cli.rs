//! Output conventions of the command line: --quiet, --verbose, colour, exit
//! status in --help.
#![allow(missing_docs)]

mod common;
use common::Site;

#[test]
fn quiet_prints_only_errors() {
    let site = Site::copy_of("minimal");
    let out = site.run(&["--quiet", "build"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "");
    let out = site.run(&["check", "-q"]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));

    site.edit("findings/cache-size.md", "id: 7", "id: seven");
    let out = site.run(&["-q", "check"]);
    assert_eq!(out.code, 1);
    assert!(out
        .stderr
        .starts_with("findings/cache-size.md:2:1: error: `id`:"));
    assert!(!out.stderr.contains("check:"), "no summary: {}", out.stderr);
}

#[test]
fn verbose_prints_stage_times() {
    let site = Site::copy_of("minimal");
    let out = site.run(&["build", "--verbose"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert!(lines[0].starts_with("build: "), "{}", out.stderr);
    assert!(lines[0].ends_with(" ms"), "{}", out.stderr);
    let stages = lines[1];
    for stage in ["load", "validate", "model", "render", "write"] {
        assert!(stages.contains(&format!("{stage} ")), "{stages}");
    }
    let out = site.run(&["-q", "-v", "build"]);
    assert_eq!(out.code, 2, "--quiet and --verbose conflict");
}

#[test]
fn no_colour_outside_a_terminal() {
    let site = Site::copy_of("minimal");
    site.edit("findings/cache-size.md", "id: 7", "id: seven");
    // The tests' stderr is a pipe: never colour, with or without NO_COLOR.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_findings"))
        .args(["check", "--root"])
        .arg(site.root())
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(": error: "), "{stderr}");
    assert!(!stderr.contains('\x1b'), "{stderr}");
}

#[test]
fn help_documents_exit_status() {
    let out = common::run_in(&common::bundled(), &["--help"]);
    // `--root` after `--help` is ignored by clap's help.
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("Exit status:"), "{}", out.stdout);
    for code in ["  0  ", "  1  ", "  2  "] {
        assert!(out.stdout.contains(code), "{}", out.stdout);
    }
    assert!(
        out.stdout
            .contains("an output folder that another findings process is writing"),
        "{}",
        out.stdout
    );
    let out = common::run_in(&common::bundled(), &["serve", "--help"]);
    assert!(out.stdout.contains("--port"), "{}", out.stdout);
}

#[test]
fn new_run_refuses_an_unknown_engine() {
    let site = Site::copy_of("minimal");
    let out = site.run(&["new-run", "x", "--engine", "nope", "--version", "1"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("unknown engine \"nope\""),
        "{}",
        out.stderr
    );
    assert!(!site.path("data/runs/x").exists());
}
