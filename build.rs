//! The commit `findings --version` names: `FINDINGS_COMMIT`, set here for
//! the binary to read with `env!`.
//!
//! Where it comes from, first found first:
//! 1. `git rev-parse HEAD` when this folder is the top of a git work tree
//!    (a clone, a worktree, a `cargo install --git` checkout); not when the
//!    crate sits inside some other project's repository, whose commit
//!    would be the wrong one.
//! 2. `.cargo_vcs_info.json`, which `cargo package` writes into a crate
//!    (crates.io's tarball has no `.git`): the commit the package was made
//!    from.
//! 3. Nothing: the version is printed alone.
//!
//! With git, the script runs again when HEAD moves (a commit, a checkout),
//! and only then.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    println!("cargo:rerun-if-changed=build.rs");
    let commit = from_git(&dir).or_else(|| {
        // No work tree here, so no `.git`: a watched file that does not
        // exist makes cargo run this script on every build, which costs
        // a file read. It matters where `cargo package` (or `cargo publish
        // --dry-run`) verified the crate in the work tree's target folder:
        // the two share this script's output there, and the work tree's
        // next build must not keep the package's.
        println!("cargo:rerun-if-changed={}", dir.join(".git").display());
        vcs_info(&dir)
    });
    println!(
        "cargo:rustc-env=FINDINGS_COMMIT={}",
        commit.unwrap_or_default()
    );
}

/// The commit in `.cargo_vcs_info.json` (`{"git": {"sha1": "…"}, …}`).
fn vcs_info(dir: &Path) -> Option<String> {
    let path = dir.join(".cargo_vcs_info.json");
    let text = std::fs::read_to_string(path).ok()?;
    let at = text.find("\"sha1\"")? + "\"sha1\"".len();
    let rest = text[at..].trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    hex(&rest[..rest.find('"')?])
}

/// HEAD of the git work tree whose top is `dir`, and the files to watch
/// for it to move.
fn from_git(dir: &Path) -> Option<String> {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let top = PathBuf::from(git(&["rev-parse", "--show-toplevel"])?);
    if top.canonicalize().ok()? != dir.canonicalize().ok()? {
        return None;
    }
    // HEAD itself, the branch it names and the packed refs: a commit
    // changes one of them.
    let git_dir = dir.join(git(&["rev-parse", "--git-dir"])?);
    let common = dir.join(git(&["rev-parse", "--git-common-dir"])?);
    // (A file that does not exist would run the script on every build.)
    let mut watch = vec![git_dir.join("HEAD"), common.join("packed-refs")];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch.push(common.join(branch));
    }
    for file in watch.iter().filter(|f| f.is_file()) {
        println!("cargo:rerun-if-changed={}", file.display());
    }
    hex(&git(&["rev-parse", "HEAD"])?)
}

/// The first 12 digits of a commit id, if `s` is one.
fn hex(s: &str) -> Option<String> {
    (s.len() >= 12 && s.bytes().all(|b| b.is_ascii_hexdigit())).then(|| s[..12].to_string())
}
