//! An import keeps the run whole: random sequences of the real result
//! files of `<shared>/results/` imported one after another into one run,
//! and after every step either the import succeeded and `findings check`
//! accepts the site, or the import refused and nothing under `data/`
//! changed, byte for byte (no file written, none removed, no folder made).
//! The sequences come from a fixed seed, so a failure is the same on every
//! machine; the step that broke the run is named with the whole sequence.
//!
//! The files are other projects' data and are never copied into the
//! repository: they are read from the folder `FINDINGS_SHARED` names (see
//! `tests/import_shared.rs`). Unset, the test says so and passes.
//!
//! A second test draws from the pastes of `<shared>/pasted/` as well.
//!
//! Run it with `FINDINGS_SHARED=../shared cargo test --test import_random`.
#![allow(missing_docs)]

mod common;
use common::Site;
use std::path::{Path, PathBuf};

fn shared() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("FINDINGS_SHARED") else {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "import_random: FINDINGS_SHARED is not set, so no random imports are tried (set it to the shared folder, e.g. ../shared)"
        );
        return None;
    };
    let dir = PathBuf::from(dir);
    assert!(
        dir.join("results/manifest.json").is_file(),
        "FINDINGS_SHARED={} has no results/manifest.json",
        dir.display()
    );
    Some(dir)
}

/// A small, fixed pseudo-random sequence (xorshift64*): the same
/// sequences on every machine, with no crate for it.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every file and folder under `dir` with its bytes (folders with none),
/// relative and sorted: what "nothing changed" is held to.
fn snapshot(dir: &Path) -> Vec<(String, Option<Vec<u8>>)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        let rel = e
            .path()
            .strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if e.file_type().is_dir() {
            out.push((rel, None));
        } else {
            out.push((rel, Some(std::fs::read(e.path()).unwrap())));
        }
    }
    out
}

/// A file to import: its path, its name for people, the tool that wrote
/// it (by the shared folder's naming), and the day it ran where known.
struct Pool {
    path: PathBuf,
    name: String,
    tool: String,
    day: String,
}

/// The real result files of `<shared>/results/`.
fn result_files(shared: &Path) -> Vec<Pool> {
    let manifest: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(shared.join("results/manifest.json")).unwrap(),
    )
    .unwrap();
    manifest
        .iter()
        .map(|entry| {
            let name = entry["file"].as_str().unwrap().to_string();
            Pool {
                path: shared.join("results").join(&name),
                name,
                tool: entry["tool"].as_str().unwrap().to_string(),
                day: entry["commit_date"]
                    .as_str()
                    .map_or("2026-01-01".to_string(), |d| d[..10].to_string()),
            }
        })
        .collect()
}

/// The pastes of `<shared>/pasted/`, each in a folder named for its tool.
fn pastes(shared: &Path) -> Vec<Pool> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(shared.join("pasted")).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "txt") {
            let rel = e.path().strip_prefix(shared.join("pasted")).unwrap();
            let tool = rel
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy();
            out.push(Pool {
                path: e.path().to_path_buf(),
                name: format!("pasted/{}", rel.display()),
                tool: if tool.starts_with("sglang") {
                    "sglang".into()
                } else {
                    tool.into_owned()
                },
                day: "2026-01-01".into(),
            });
        }
    }
    out
}

/// 30 sequences of 2 to 4 imports of `pool` into one run, from `seed`;
/// returns how many imports succeeded and how many were refused.
fn sequences(pool: &[Pool], seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let scratch = tempfile::tempdir().unwrap();
    let (mut refused, mut imported) = (0, 0);
    for seq in 0..30 {
        let site = Site::copy_of("minimal");
        let steps = 2 + rng.below(3);
        let mut done: Vec<String> = Vec::new();
        let mut kept: Vec<(String, PathBuf)> = Vec::new();
        for _ in 0..steps {
            let entry = &pool[rng.below(pool.len())];
            let file = &entry.path;
            // Files that name no engine or version get one of two setups,
            // so that runs of several setups and of one are both tried.
            let (engine, version) = match (entry.tool.as_str(), rng.below(2)) {
                ("sglang", _) => ("sglang", "0.5.20"),
                (_, 0) => ("vllm", "0.30"),
                _ => ("vllm", "0.31"),
            };
            let day = entry.day.clone();
            let before = snapshot(&site.path("data"));
            let mut args: Vec<String> = vec!["import".into(), "mixed".into()];
            args.push(file.to_str().unwrap().into());
            let mut what = entry.name.clone();
            // Now and then a second input: an earlier file of the
            // sequence changed by a byte, under its kept name (refused
            // after the first input's copy is written, which must then be
            // taken back), or a setup name another setup has.
            match rng.below(6) {
                0 if !kept.is_empty() => {
                    let (name, path) = &kept[rng.below(kept.len())];
                    let mut bytes = std::fs::read(path).unwrap();
                    bytes.push(b'\n');
                    let changed = scratch.path().join(format!("{seq}-{}", done.len()));
                    std::fs::create_dir_all(&changed).unwrap();
                    std::fs::write(changed.join(name), bytes).unwrap();
                    args.push(changed.join(name).to_str().unwrap().into());
                    what.push_str(&format!(" + {name} changed"));
                }
                1 => {
                    args.extend(["--setup".into(), "One setup".into()]);
                    what.push_str(" as \"One setup\"");
                }
                _ => {}
            }
            args.extend(
                ["--engine", engine, "--version", version, "--date", &day].map(String::from),
            );
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let r = site.run(&argv);
            done.push(format!("{what} ({engine} {version}): exit {}", r.code));
            let story = format!("sequence {seq}:\n  {}\n{}", done.join("\n  "), r.stderr);
            if r.code == 0 {
                imported += 1;
                kept.push((
                    file.file_name().unwrap().to_string_lossy().into_owned(),
                    file.clone(),
                ));
                let c = site.run(&["check"]);
                assert_eq!(c.code, 0, "{story}\ncheck refuses the run:\n{}", c.stderr);
            } else {
                refused += 1;
                assert_ne!(r.code, 101, "{story}");
                assert!(
                    snapshot(&site.path("data")) == before,
                    "{story}\nthe refused import changed data/"
                );
            }
        }
    }
    (imported, refused)
}

#[test]
fn random_import_sequences_leave_a_run_check_accepts_or_change_nothing() {
    let Some(shared) = shared() else { return };
    let (imported, refused) = sequences(&result_files(&shared), 0x9E37_79B9_7F4A_7C15);
    // Both outcomes were tried.
    assert!(imported > 30, "{imported} imports succeeded");
    assert!(refused > 5, "{refused} imports refused");
    eprintln!("import_random: {imported} imports succeeded, {refused} refused");
}

/// The same with the pastes of `<shared>/pasted/` among the files: a paste
/// of several reports adds a setup per report.
#[test]
fn random_sequences_of_files_and_pastes_likewise() {
    let Some(shared) = shared() else { return };
    if !shared.join("pasted/INDEX.md").is_file() {
        return;
    }
    let mut pool = result_files(&shared);
    pool.extend(pastes(&shared));
    let (imported, refused) = sequences(&pool, 0x2545_F491_4F6C_DD1D);
    assert!(imported > 30, "{imported} imports succeeded");
    assert!(refused > 5, "{refused} imports refused");
    eprintln!("import_random with pastes: {imported} imports succeeded, {refused} refused");
}
