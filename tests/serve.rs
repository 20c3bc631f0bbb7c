//! `findings serve`: the real binary on a free loopback port, asked over
//! plain HTTP (std `TcpStream`, 127.0.0.1 only), with files edited under it.
//! Every wait is bounded, and a guard kills the server whatever happens
//! (`common/served.rs`).
#![allow(missing_docs)]

mod common;
use common::served::{Served, CHANGE, START};
use common::Site;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn serves_pages_404s_and_refuses_paths_outside() {
    let site = Site::copy_of("minimal");
    let output = site.path("public");
    let server = Served::start(&site, &["--output", output.to_str().unwrap()]);
    assert_eq!(server.output, output);

    let home = server.get("/");
    assert_eq!(home.status, 200, "{}", server.log());
    assert_eq!(home.header("content-type"), "text/html; charset=utf-8");
    assert_eq!(home.header("cache-control"), "no-store");
    assert!(home.body.contains("Fixture findings"));
    // The live-reload script is added to answers, never to the files.
    assert!(home.body.contains("<script src=\"/__findings/live.js\""));
    assert!(!site.read("public/index.html").contains("__findings"));
    // Pages link to the local address, not to the published one.
    let port = server.addr.rsplit(':').next().unwrap();
    assert!(home.body.contains(&format!("http://127.0.0.1:{port}/")));

    let page = server.get("/findings/cache-size/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("The cache size"));

    let folder = server.get("/findings/cache-size");
    assert_eq!(folder.status, 302);
    assert_eq!(folder.header("location"), "/findings/cache-size/");

    for (path, ctype) in [
        ("/style.css", "text/css; charset=utf-8"),
        ("/site.js", "text/javascript; charset=utf-8"),
        ("/runs/cache-sweep/starts.csv", "text/csv; charset=utf-8"),
        ("/__findings/live.js", "text/javascript; charset=utf-8"),
    ] {
        let r = server.get(path);
        assert_eq!((r.status, r.header("content-type")), (200, ctype), "{path}");
        assert!(!r.body.contains("__findings/live.js\""), "{path}");
    }

    let missing = server.get("/no/such/page/");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.header("content-type"), "text/html; charset=utf-8");
    assert!(
        missing.body.contains("Page not found"),
        "the site's 404 page"
    );
    assert!(missing.body.contains("/__findings/live.js"));

    // site.yaml is one folder up from the output: never reachable.
    for path in [
        "/../site.yaml",
        "/findings/../../site.yaml",
        "/%2e%2e/site.yaml",
        "/%2E%2E%2Fsite.yaml",
        "/findings/..%2F..%2Fsite.yaml",
        "/..%5csite.yaml",
        "/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    ] {
        let r = server.get(path);
        assert_eq!(r.status, 400, "{path}");
        assert!(!r.body.contains("base_url"), "{path} leaked site.yaml");
    }
    assert_eq!(server.get("/a%00b").status, 400);

    let status = server.errors();
    assert_eq!(status["errors"], serde_json::json!([]));
    assert_eq!(status["version"], 1);
}

#[test]
fn rebuilds_on_change_and_keeps_the_last_good_site_on_errors() {
    let site = Site::copy_of("minimal");
    let output = site.path("public");
    #[allow(unused_mut)]
    let mut server = Served::start(&site, &["--output", output.to_str().unwrap()]);
    let page = "/findings/cache-size/";
    assert!(server.get(page).body.contains("The cache size"));

    // An edit shows up.
    site.edit(
        "findings/cache-size.md",
        "title: The cache size `changed` between starts",
        "title: The cache size moved between starts",
    );
    server.until(page, "the new title", |r| {
        r.status == 200 && r.body.contains("The cache size moved between starts")
    });
    // Open pages learn of it once the build has finished (just after the swap).
    server.until("/__findings/errors", "version 2", |r| {
        r.body.contains("\"version\":2,")
    });
    assert_eq!(server.errors()["errors"], serde_json::json!([]));

    // A broken record: the errors are reported, the last good page stays.
    site.edit("findings/cache-size.md", "id: 7", "id: seven");
    server.until("/__findings/errors", "an error report", |r| {
        r.body.contains("findings/cache-size.md")
    });
    let status = server.errors();
    let errors: Vec<&str> = status["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("findings/cache-size.md:2:") && e.contains("`id`")),
        "{errors:?}"
    );
    assert_eq!(status["version"], 2, "no new site after a failed build");
    let kept = server.get(page);
    assert_eq!(kept.status, 200);
    assert!(kept.body.contains("The cache size moved between starts"));
    // The terminal says so too.
    let start = Instant::now();
    while !server.log().contains("still serving the last good site") {
        assert!(start.elapsed() < CHANGE, "stderr:\n{}", server.log());
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(server.log().contains("findings/cache-size.md:2:"));

    // Fixed: a new site, no errors.
    site.edit("findings/cache-size.md", "id: seven", "id: 7");
    server.until("/__findings/errors", "the errors to clear", |r| {
        r.body.contains("\"errors\":[]")
    });
    assert_eq!(server.errors()["version"], 3);

    // `findings new` while serving: the finding appears on the home page.
    let made = site.run(&[
        "new",
        "Brand new finding",
        "--group",
        "speed",
        "--engine",
        "vllm",
        "--version",
        "0.30",
    ]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    // Its placeholders are reported, the field named, until written.
    let file = "findings/brand-new-finding.md";
    server.until(
        "/__findings/errors",
        "the new finding's placeholders",
        |r| r.body.contains("advice is still the placeholder"),
    );
    let text = site
        .read(file)
        .replace("Say what to do in a few words", "Read the new finding")
        .replace(
            "What happened, on which versions, and how it showed.",
            "A finding written while serving.",
        )
        .replace(
            "The figures, and a link to the run behind them once it exists (`findings new-run`).",
            "No run yet.",
        )
        .replace("The actionable advice.", "Read it.");
    site.write(file, &text);
    server.until("/", "the new finding on the home page", |r| {
        r.body.contains("Brand new finding")
    });

    #[cfg(unix)]
    {
        let status = server.interrupt();
        assert_eq!(status.code(), Some(0), "stderr:\n{}", server.log());
        assert!(server.log().contains("serve: stopped"));
    }
}

#[cfg(unix)]
#[test]
fn builds_into_a_temporary_folder_removed_on_ctrl_c() {
    let site = Site::copy_of("minimal");
    let mut server = Served::start(&site, &[]);
    let output = server.output.clone();
    assert!(output.join("index.html").is_file(), "{}", output.display());
    assert!(!output.starts_with(site.root()));
    assert!(!site.path("public").exists(), "public/ is left alone");
    let status = server.interrupt();
    assert_eq!(status.code(), Some(0), "stderr:\n{}", server.log());
    assert!(
        !output.parent().is_some_and(Path::exists),
        "the temporary folder is removed"
    );
}

#[test]
fn a_port_in_use_is_an_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let site = Site::copy_of("minimal");
    let mut child = Command::new(env!("CARGO_BIN_EXE_findings"))
        .args(["serve", "--port", &port, "--root"])
        .arg(site.root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > START {
            let _ = child.kill();
            let _ = child.wait();
            panic!("serve did not give up on a taken port");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("cannot listen on 127.0.0.1:{port}")),
        "{err}"
    );
    drop(taken);
}
