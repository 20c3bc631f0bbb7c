//! Every input the fuzz targets found a problem with, fed to the same code
//! they run (`findings::fuzz`), as ordinary tests. A new crash from
//! `cargo fuzz run <target>` goes into `tests/fuzz_regressions/<target>/`
//! once fixed. See docs/fuzzing.md.
#![allow(missing_docs)]

use std::path::Path;

fn each(target: &str, f: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_regressions")
        .join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            continue;
        }
        let data = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        if std::panic::catch_unwind(|| f(&data)).is_err() {
            panic!("{name} fails again");
        }
        n += 1;
    }
    eprintln!("{target}: {n} inputs");
}

#[test]
fn load_finding() {
    each("load_finding", findings::fuzz::finding);
}

#[test]
fn load_run() {
    each("load_run", findings::fuzz::run);
}

#[test]
fn version() {
    each("version", findings::fuzz::version);
}

#[test]
fn the_targets_accept_the_bundled_records() {
    // What the seed corpus holds (fuzz/seed.sh), so the targets' own checks
    // are known to hold for good input.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for e in std::fs::read_dir(root.join("findings")).unwrap() {
        findings::fuzz::finding(&std::fs::read(e.unwrap().path()).unwrap());
    }
    for e in std::fs::read_dir(root.join("data/runs")).unwrap() {
        let dir = e.unwrap().path();
        let mut data = std::fs::read(dir.join("run.yaml")).unwrap();
        data.extend_from_slice(b"===\n");
        let csv = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|x| x == "csv"));
        if let Some(csv) = csv {
            data.extend(std::fs::read(csv).unwrap());
        }
        findings::fuzz::run(&data);
    }
    for v in [
        "0.32.0",
        "0.32\u{0}0.32.0",
        "1.3.0rc29\u{0}1.3.0",
        "v0.6.0-rc.1\u{0}0.6.0rc1",
    ] {
        findings::fuzz::version(v.as_bytes());
    }
}

#[test]
fn result_file() {
    each("result_file", findings::fuzz::result_file);
}

/// Every fixture result file cut short at many places, and whole: the same
/// checks as the `result_file` target (a cut-short file is the usual way a
/// result file goes wrong).
#[test]
fn result_file_every_fixture_cut_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/results");
    let mut n = 0;
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let data = std::fs::read(entry.path()).unwrap();
        let step = (data.len() / 150).max(1);
        for cut in (0..=data.len()).step_by(step).chain([data.len()]) {
            let part = &data[..cut];
            if std::panic::catch_unwind(|| findings::fuzz::result_file(part)).is_err() {
                panic!("{} cut at byte {cut} fails", entry.path().display());
            }
            n += 1;
        }
    }
    eprintln!("result_file: {n} cuts");
}
