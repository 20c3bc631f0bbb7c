//! Test helpers: copy a fixture site into a temp folder, edit it, run the real CLI.
#![allow(dead_code, unreachable_pub, missing_docs)]

pub mod served;

use std::path::{Path, PathBuf};
use std::process::Command;

/// A copy of a fixture site in a temporary folder.
pub struct Site {
    pub dir: tempfile::TempDir,
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The repository's own bundled site.
pub fn bundled() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(from).unwrap();
        let target = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

impl Site {
    pub fn copy_of(name: &str) -> Site {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&fixture(name), dir.path());
        Site { dir }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    pub fn write(&self, rel: &str, text: &str) {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// Replaces the one occurrence of `from` in `rel`.
    pub fn edit(&self, rel: &str, from: &str, to: &str) {
        let text = self.read(rel);
        assert_eq!(
            text.matches(from).count(),
            1,
            "{from:?} must occur once in {rel}"
        );
        self.write(rel, &text.replacen(from, to, 1));
    }

    pub fn run(&self, args: &[&str]) -> Output {
        run_in(self.root(), args)
    }
}

pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run_in(root: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_findings"));
    cmd.args(args).arg("--root").arg(root);
    output_of(cmd)
}

/// Runs `findings ARGS` with `dir` as the working folder and no `--root`.
pub fn run_from(dir: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_findings"));
    cmd.args(args).current_dir(dir);
    output_of(cmd)
}

fn output_of(mut cmd: Command) -> Output {
    let out = cmd.env("NO_COLOR", "1").output().expect("run findings");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// All files under `dir`, relative, with their bytes, sorted.
pub fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect();
    out.sort();
    out
}
