//! Faults while building: an output that cannot be written, a full disk, a
//! build killed half way, records that change while a build reads them.
//! In every case the previous site stays as it was, and the next build
//! leaves no temporary folders behind.
#![allow(missing_docs)]

mod common;

use common::Site;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn build_into(site: &Site, output: &Path) -> common::Output {
    site.run(&["build", "--output", output.to_str().unwrap()])
}

fn siblings(output: &Path) -> (PathBuf, PathBuf) {
    let name = output.file_name().unwrap().to_string_lossy().to_string();
    (
        output.with_file_name(format!(".{name}.building")),
        output.with_file_name(format!(".{name}.old")),
    )
}

/// A site that has been built once into `<tmp>/public`; returns the tree.
fn built_once(site: &Site, out: &Path) -> Vec<(String, Vec<u8>)> {
    let r = build_into(site, out);
    assert_eq!(r.code, 0, "{}", r.stderr);
    common::tree(out)
}

#[test]
fn an_output_whose_parent_is_a_file() {
    // chmod does not stop root; a file where a folder must be stops anyone.
    let site = Site::copy_of("minimal");
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("blocker"), "a file").unwrap();
    let out = tmp.path().join("blocker/public");
    let r = build_into(&site, &out);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "error: cannot write {}: it is a file, but the output needs a folder there\n\
             build: stopped; the previous site in {} is unchanged\n",
            tmp.path().join("blocker").display(),
            out.display()
        )
    );
}

#[test]
fn an_output_that_would_replace_the_records() {
    let site = Site::copy_of("minimal");
    let before = common::tree(site.root());
    for out in [
        site.root().to_path_buf(),
        site.path("findings"),
        site.path("data/runs"),
        site.root().join("public/../static"),
        site.root().parent().unwrap().to_path_buf(),
    ] {
        let r = build_into(&site, &out);
        assert_eq!(r.code, 1, "{}: {}", out.display(), r.stderr);
        assert!(
            r.stderr
                .contains("the output folder would replace the site's own files"),
            "{}: {}",
            out.display(),
            r.stderr
        );
    }
    assert_eq!(common::tree(site.root()), before, "the records changed");
}

#[test]
fn a_full_disk_is_reported_with_the_path() {
    // /dev/full accepts an open and fails every write with ENOSPC.
    let tmp = tempfile::tempdir().unwrap();
    let lock = findings::write::OutputLock::acquire(&tmp.path().join("public")).unwrap();
    let staging = findings::write::Staging::new(&lock).unwrap();
    let target = staging.dir().join("findings/x/index.html");
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("/dev/full", &target).unwrap();
    let err = staging
        .write("findings/x/", b"<!DOCTYPE html><p>hello</p>")
        .unwrap_err();
    assert_eq!(err.path, target);
    assert_eq!(
        err.to_string(),
        format!(
            "cannot write {}: No space left on device (os error 28)",
            target.display()
        )
    );
    staging.discard();
    assert!(!tmp.path().join(".public.building").exists());
}

#[test]
fn a_write_that_fails_mid_build_keeps_the_previous_site() {
    // The file size limit (ulimit -f) makes every write past 4 kB fail with
    // EFBIG, for root as well, with no file system to fill.
    let site = Site::copy_of("minimal");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("public");
    let before = built_once(&site, &out);
    // Change every page, so that none is reused from the previous site.
    site.edit(
        "site.yaml",
        "title: Fixture findings",
        "title: Changed findings",
    );
    let script = format!(
        "trap '' XFSZ; ulimit -f 8; exec '{}' build --root '{}' --output '{}'",
        env!("CARGO_BIN_EXE_findings"),
        site.root().display(),
        out.display()
    );
    let r = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{stderr}");
    let (building, old) = siblings(&out);
    assert!(
        stderr.starts_with(&format!("error: cannot write {}/", building.display()))
            && stderr.contains(": File too large (os error 27)\n"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(&format!(
            "build: stopped; the previous site in {} is unchanged\n",
            out.display()
        )),
        "{stderr}"
    );
    assert_eq!(common::tree(&out), before, "the previous site changed");
    assert!(!building.exists() && !old.exists());
}

/// Adds `findings` generated findings, so that building takes a while.
fn add_findings(site: &Site, findings: usize) {
    for i in 0..findings {
        let id = 100 + i;
        site.write(
            &format!("findings/generated-{id}.md"),
            &format!(
                "---\nid: {id}\ntitle: Generated finding {id}\ngroup: speed\nadvice: Read it\n\
                 status: open\npublished: 2026-08-17\nengines:\n  - engine: vllm\n    affected: [\"0.30\"]\n\
                 tags: [tag-{t}]\nmodels: [model-{t}]\n---\nBody of {id}, with `code` and **emphasis**.\n\n\
                 ## What to do\n\nNothing, it is generated.\n",
                t = i % 50
            ),
        );
    }
}

#[test]
fn a_build_killed_half_way_leaves_the_previous_site_and_no_debris() {
    // The previous site is the small one; the build that is killed has
    // 1,500 more findings, which take seconds to write.
    let site = Site::copy_of("minimal");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("public");
    let before = built_once(&site, &out);
    let generated = 1500;
    add_findings(&site, generated);
    site.edit(
        "site.yaml",
        "title: Fixture findings",
        "title: Changed findings",
    );
    let (building, old) = siblings(&out);

    let mut child = Command::new(env!("CARGO_BIN_EXE_findings"))
        .args(["build", "--root"])
        .arg(site.root())
        .arg("--output")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until pages are being written, then kill -9.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut finished = false;
    loop {
        if building.join("findings").is_dir() {
            std::thread::sleep(Duration::from_millis(20));
            break;
        }
        if child.try_wait().unwrap().is_some() {
            finished = true;
            break;
        }
        assert!(Instant::now() < deadline, "the build never started writing");
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    let killed = !finished && !status.success();
    let now = common::tree(&out);
    if killed {
        // Killed while writing: the previous site is untouched.
        assert_eq!(now, before, "the previous site changed");
        assert!(
            building.exists(),
            "the half-built site should still be there"
        );
    } else {
        // The machine was faster than the poll; the site is then the new
        // one, complete. Either way it is never a mix.
        eprintln!("note: the build finished before it could be killed");
        assert_ne!(now, before);
    }
    // The next build cleans up and completes (without the generated
    // findings, to be quick).
    for i in 0..generated {
        std::fs::remove_file(site.path(&format!("findings/generated-{}.md", 100 + i))).unwrap();
    }
    let r = build_into(&site, &out);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!building.exists(), "{} was left behind", building.display());
    assert!(!old.exists(), "{} was left behind", old.display());
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("Changed findings"));
}

#[test]
fn a_build_killed_during_the_swap_gets_the_previous_site_back() {
    // The one moment where the output folder does not exist: the previous
    // site has been moved aside and the new one not yet moved in. Recreate
    // that state and start a new build.
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("public");
    let (building, old) = siblings(&out);
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(old.join("index.html"), "previous site").unwrap();
    std::fs::create_dir_all(&building).unwrap();
    std::fs::write(building.join("index.html"), "half built").unwrap();

    let lock = findings::write::OutputLock::acquire(&out).unwrap();
    let staging = findings::write::Staging::new(&lock).unwrap();
    assert_eq!(
        std::fs::read_to_string(out.join("index.html")).unwrap(),
        "previous site"
    );
    assert!(!old.exists());
    assert_eq!(std::fs::read_dir(&building).unwrap().count(), 0);
    // If this build fails too, the previous site is still there.
    staging.discard();
    assert_eq!(
        std::fs::read_to_string(out.join("index.html")).unwrap(),
        "previous site"
    );
    assert!(!building.exists());
}

#[test]
fn leftovers_of_an_earlier_build_are_removed() {
    let site = Site::copy_of("minimal");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("public");
    built_once(&site, &out);
    let (building, old) = siblings(&out);
    for d in [&building, &old] {
        std::fs::create_dir_all(d.join("deep/er")).unwrap();
        std::fs::write(d.join("deep/er/junk.html"), "junk").unwrap();
    }
    let r = build_into(&site, &out);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!building.exists() && !old.exists());
    assert!(out.join("index.html").is_file());
}

#[test]
fn records_replaced_while_building_are_read_whole() {
    // An editor that saves by writing a new file and renaming it over the
    // old one (most do) swaps the record in one step. A build reads each
    // record once, whole, so every build shows one version or the other on
    // every page, never a mix and never half a file.
    let site = Site::copy_of("minimal");
    let f7 = site.path("findings/cache-size.md");
    let text = std::fs::read_to_string(&f7).unwrap();
    let versions = [
        text.replace("The cache size `changed` between starts", "Alpha title"),
        text.replace("The cache size `changed` between starts", "Beta title"),
    ];
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let stop = stop.clone();
        let f7 = f7.clone();
        let versions = versions.clone();
        std::thread::spawn(move || {
            let mut n = 0usize;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let tmp = f7.with_file_name(format!(".cache-size.md.{n}"));
                std::fs::write(&tmp, &versions[n % 2]).unwrap();
                std::fs::rename(&tmp, &f7).unwrap();
                n += 1;
            }
            n
        })
    };
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..5 {
        let out = tmp.path().join(format!("public-{i}"));
        let r = build_into(&site, &out);
        assert_eq!(r.code, 0, "build {i}: {}", r.stderr);
        let page = std::fs::read_to_string(out.join("findings/cache-size/index.html")).unwrap();
        let home = std::fs::read_to_string(out.join("index.html")).unwrap();
        let title = if page.contains("<title>F7: Alpha title") {
            "Alpha title"
        } else {
            assert!(page.contains("<title>F7: Beta title"), "build {i}: {page}");
            "Beta title"
        };
        let other = if title == "Alpha title" {
            "Beta title"
        } else {
            "Alpha title"
        };
        assert!(
            home.contains(title) && !home.contains(other),
            "build {i}: pages disagree"
        );
        assert!(!page.contains(other), "build {i}: the page mixes versions");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let writes = writer.join().unwrap();
    assert!(writes > 5, "the record was rewritten only {writes} times");
}
