//! One writer per output folder (issue 20): `build` and `serve` hold a lock
//! on the folder they write, in a hidden file beside it. Two real
//! processes each time: a `serve` writing a folder, and a `build` or a
//! second `serve` of the same folder, which must exit 1 naming the server
//! and touch nothing, while the server goes on rebuilding. A lock left by
//! a process that is gone is taken over with a note; two folders side by
//! side do not block each other.
#![allow(missing_docs)]

mod common;
use common::served::{Served, START};
use common::Site;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A pid no process can have: Linux's largest pid_max is 2^22.
const NO_SUCH_PID: u32 = 4_194_400;

/// Runs the real binary with `args` and waits for it, for at most [`START`]
/// (a second writer that waited instead of refusing would hang the test).
fn findings(args: &[&str]) -> common::Output {
    let child = Command::new(env!("CARGO_BIN_EXE_findings"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run findings");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = match rx.recv_timeout(START) {
        Ok(out) => out.expect("wait for findings"),
        Err(_) => {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            panic!("findings {args:?} did not end within {START:?}");
        }
    };
    common::Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Everything under `dir`, hidden files and empty folders included: each
/// path with the bytes of a file, or `None` for a folder.
fn snapshot(dir: &Path) -> Vec<(String, Option<Vec<u8>>)> {
    let mut all: Vec<_> = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .map(|e| e.unwrap())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap();
            let bytes = e
                .file_type()
                .is_file()
                .then(|| std::fs::read(e.path()).unwrap());
            (rel.to_string_lossy().into_owned(), bytes)
        })
        .collect();
    all.sort();
    all
}

/// The names directly in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A server of the fixture site writing `<tmp>/public`.
struct Writing {
    site: Site,
    tmp: tempfile::TempDir,
    server: Served,
}

impl Writing {
    fn start() -> Writing {
        let site = Site::copy_of("minimal");
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("public");
        let server = Served::start(&site, &["--output", s(&out)]);
        Writing { site, tmp, server }
    }

    fn out(&self) -> std::path::PathBuf {
        self.tmp.path().join("public")
    }

    fn lock_file(&self) -> std::path::PathBuf {
        self.tmp.path().join(".public.lock")
    }

    /// The server as the lock file and the refusal name it.
    fn holder(&self) -> String {
        format!(
            "pid {}: findings serve --port 0 --root {} --output {}",
            self.server.child.id(),
            s(self.site.root()),
            s(&self.out())
        )
    }

    /// What a second writer says, before its own last line.
    fn refusal(&self) -> String {
        format!(
            "error: {}/ is being written by another findings process ({})\n  \
             hint: wait until it ends (a `serve` ends with Ctrl-C where it runs), or write into another folder with --output DIR\n",
            s(&self.out()),
            self.holder()
        )
    }

    /// The server still rebuilds after an edit, into the folder it holds.
    fn still_rebuilds(&self) {
        self.site.edit(
            "findings/cache-size.md",
            "title: The cache size `changed` between starts",
            "title: The cache size moved between starts",
        );
        self.server
            .until("/findings/cache-size/", "the new title", |r| {
                r.status == 200 && r.body.contains("The cache size moved between starts")
            });
        let page =
            std::fs::read_to_string(self.out().join("findings/cache-size/index.html")).unwrap();
        assert!(page.contains("The cache size moved between starts"));
        assert!(
            !self.server.log().contains("error:"),
            "{}",
            self.server.log()
        );
    }
}

#[test]
fn a_build_of_the_folder_a_server_writes_exits_1_and_touches_nothing() {
    #[allow(unused_mut)]
    let mut w = Writing::start();
    // The lock is beside the output, never in it (a build swaps it away).
    assert_eq!(names(w.tmp.path()), [".public.lock", "public"]);
    assert_eq!(
        std::fs::read_to_string(w.lock_file()).unwrap(),
        format!(
            "pid: {}\ncommand: findings serve --port 0 --root {} --output {}\n",
            w.server.child.id(),
            s(w.site.root()),
            s(&w.out())
        )
    );
    let before = snapshot(w.tmp.path());

    let r = findings(&["build", "--root", s(w.site.root()), "--output", s(&w.out())]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        format!("{}build: stopped; nothing was written\n", w.refusal())
    );
    assert_eq!(r.stdout, "");
    // Not a byte of the site, its lock or a staging folder changed.
    assert_eq!(snapshot(w.tmp.path()), before);

    w.still_rebuilds();
    // Stopped, the server lets go: the lock file goes, and a build may write.
    #[cfg(unix)]
    {
        let status = w.server.interrupt();
        assert_eq!(status.code(), Some(0), "{}", w.server.log());
        assert_eq!(names(w.tmp.path()), ["public"]);
        let r = findings(&["build", "--root", s(w.site.root()), "--output", s(&w.out())]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stderr.starts_with("build: "), "no note: {}", r.stderr);
        assert_eq!(names(w.tmp.path()), ["public"]);
    }
}

#[test]
fn a_second_server_of_the_same_folder_exits_1_and_touches_nothing() {
    let w = Writing::start();
    let before = snapshot(w.tmp.path());
    let r = findings(&[
        "serve",
        "--port",
        "0",
        "--root",
        s(w.site.root()),
        "--output",
        s(&w.out()),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stderr, w.refusal());
    assert_eq!(r.stdout, "", "it never served");
    assert_eq!(snapshot(w.tmp.path()), before);
    w.still_rebuilds();
}

#[test]
fn two_folders_side_by_side_do_not_block_each_other() {
    let w = Writing::start();
    let before = snapshot(&w.out());
    let lock = std::fs::read(w.lock_file()).unwrap();
    let other = w.tmp.path().join("public-2");
    let r = findings(&["build", "--root", s(w.site.root()), "--output", s(&other)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(other.join("index.html").is_file());
    // A second server of a third folder beside them starts too.
    let third = Served::start(&w.site, &["--output", s(&w.tmp.path().join("public-3"))]);
    assert_eq!(third.get("/").status, 200);
    assert_eq!(snapshot(&w.out()), before);
    assert_eq!(std::fs::read(w.lock_file()).unwrap(), lock);
    assert_eq!(
        names(w.tmp.path()),
        [
            ".public-3.lock",
            ".public.lock",
            "public",
            "public-2",
            "public-3"
        ]
    );
}

#[cfg(unix)]
#[test]
fn a_killed_servers_lock_is_taken_over_with_a_note() {
    let mut w = Writing::start();
    let holder = w.holder();
    let pid = w.server.child.id();
    // SIGKILL: no chance to let go; the system drops the OS lock, the file stays.
    w.server.child.kill().unwrap();
    w.server.child.wait().unwrap();
    assert!(w.lock_file().is_file());
    // What a server killed while removing a previous site leaves beside it.
    let trash = w.tmp.path().join(format!(".public.trash-{pid}-0"));
    std::fs::create_dir_all(trash.join("findings")).unwrap();

    let r = findings(&["build", "--root", s(w.site.root()), "--output", s(&w.out())]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (holder_pid, command) = holder.split_once(": ").unwrap();
    assert_eq!(
        r.stderr.lines().next().unwrap(),
        format!(
            "note: taking over the lock on {}/: {holder_pid} ({command}) ended without releasing it",
            s(&w.out())
        )
    );
    assert!(
        r.stderr.lines().nth(1).unwrap().starts_with("build: "),
        "{}",
        r.stderr
    );
    // The build let go at its end; what the dead server left is gone.
    assert_eq!(names(w.tmp.path()), ["public"]);
}

#[test]
fn a_lock_file_of_a_process_that_is_gone_is_taken_over_by_build_and_serve() {
    let site = Site::copy_of("minimal");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("public");
    let lock = tmp.path().join(".public.lock");
    let stale = format!("pid: {NO_SUCH_PID}\ncommand: findings serve --port 1111\n");
    let note = format!(
        "note: taking over the lock on {}/: pid {NO_SUCH_PID} (findings serve --port 1111) ended without releasing it\n",
        s(&out)
    );

    std::fs::write(&lock, &stale).unwrap();
    let r = findings(&["build", "--root", s(site.root()), "--output", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.starts_with(&note), "{}", r.stderr);
    assert!(out.join("index.html").is_file());
    assert_eq!(names(tmp.path()), ["public"]);

    std::fs::write(&lock, &stale).unwrap();
    let server = Served::start(&site, &["--output", s(&out)]);
    // stderr is read on a thread of its own: give it a moment.
    let start = std::time::Instant::now();
    while !server.log().contains(&note) && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(server.log().starts_with(&note), "{}", server.log());
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap(),
        format!(
            "pid: {}\ncommand: findings serve --port 0 --root {} --output {}\n",
            server.child.id(),
            s(site.root()),
            s(&out)
        )
    );
    assert_eq!(server.get("/").status, 200);
}
