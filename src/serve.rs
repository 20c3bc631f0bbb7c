//! `findings serve`: the site on 127.0.0.1, rebuilt when a record changes,
//! with open pages reloading themselves.
//!
//! Three parts, each on its own thread:
//!
//! - the HTTP server ([`tiny_http`]) answers from the output folder only:
//!   a path is percent-decoded, refused if any segment is `.` or `..` (or
//!   not a plain name), then resolved and checked to be inside the
//!   canonical output folder. Folders answer with their `index.html`
//!   (`/dir` redirects to `/dir/`), missing files with the site's
//!   `404.html`. HTML answers get one `<script>` tag that loads the
//!   live-reload script; the files on disk are never changed.
//! - the watcher ([`notify`]) sends changes under `findings/`, `data/`,
//!   `templates/`, `static/` and to `site.yaml` to the build loop.
//! - the build loop (the caller's thread) waits until changes stop for
//!   [`DEBOUNCE`], then calls [`Host::rebuild`] once for all of them and
//!   publishes the outcome to open pages.
//!
//! A rebuild is one call to the host, which today runs [`crate::build`]:
//! it builds aside and swaps, so the served folder is whole at every moment
//! except for the instant between the two renames of the swap, which the
//! server waits out. A failed build leaves the last good site in place; its
//! messages go to open pages, which show them over the page.
//!
//! The live-reload protocol is two JSON endpoints: `/__findings/errors`
//! answers at once with `{"version", "generation", "errors"}`, and
//! `/__findings/wait?since=G` answers the same when the build generation
//! differs from `G` (or after [`LONG_POLL`]). `version` counts good builds:
//! a page reloads when it changed and there are no errors.

use std::collections::BTreeSet;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long changes must stop before a rebuild starts.
pub const DEBOUNCE: Duration = Duration::from_millis(120);

/// The longest a rebuild waits for changes to stop.
const DEBOUNCE_MAX: Duration = Duration::from_secs(1);

/// How long `/__findings/wait` holds a request when nothing happens.
pub const LONG_POLL: Duration = Duration::from_secs(20);

/// The most long-poll requests held at once (one per open tab).
const MAX_WAITERS: usize = 64;

/// The folders watched, recursively, and the one file.
pub const WATCHED_DIRS: [&str; 4] = ["findings", "data", "templates", "static"];
/// The site's configuration file, watched too.
pub const WATCHED_FILE: &str = "site.yaml";

/// The script that reloads open pages and shows build errors over them.
pub const LIVE_JS: &str = r#"(function () {
  "use strict";
  var me = document.currentScript;
  var version = me ? Number(me.getAttribute("data-version")) : -1;
  var panel = null;
  function show(errors) {
    if (!errors.length) {
      if (panel) { panel.remove(); panel = null; }
      return;
    }
    if (!panel) {
      panel = document.createElement("div");
      panel.id = "findings-build-errors";
      panel.setAttribute("role", "alert");
      panel.style.cssText = "position:fixed;left:1rem;right:1rem;bottom:1rem;z-index:2147483647;" +
        "max-height:60vh;overflow:auto;padding:.75rem 1rem;border:2px solid #b71c1c;border-radius:6px;" +
        "background:#fff4f4;color:#1a1a1a;font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;" +
        "box-shadow:0 4px 18px rgba(0,0,0,.35);text-align:left";
      document.body.appendChild(panel);
    }
    panel.textContent = "";
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = "\u00d7";
    close.setAttribute("aria-label", "Hide the build errors");
    close.style.cssText = "float:right;font:inherit;font-size:18px;line-height:1;border:0;background:none;cursor:pointer";
    close.onclick = function () { panel.remove(); panel = null; };
    var head = document.createElement("strong");
    head.textContent = "findings serve: the last build failed with " + errors.length +
      (errors.length === 1 ? " error" : " errors") + "; this is the last good site.";
    var pre = document.createElement("pre");
    pre.style.cssText = "margin:.5rem 0 0;white-space:pre-wrap;font:inherit";
    pre.textContent = errors.join("\n");
    panel.appendChild(close);
    panel.appendChild(head);
    panel.appendChild(pre);
  }
  function poll(since) {
    fetch("/__findings/wait?since=" + since, { cache: "no-store" })
      .then(function (r) { if (!r.ok) { throw new Error("HTTP " + r.status); } return r.json(); })
      .then(function (s) {
        if (s.errors.length === 0 && s.version !== version) { location.reload(); return; }
        show(s.errors);
        poll(s.generation);
      })
      .catch(function () { setTimeout(function () { poll(since); }, 1000); });
  }
  poll(0);
})();
"#;

/// What `serve` asks of the program around it: builds and messages.
pub trait Host {
    /// Builds the site into the served folder. `changed` lists the files
    /// that changed since the last build (empty for the first); an
    /// incremental builder can use it. On failure, returns the messages to
    /// show in open pages; the previous site must be left in place.
    fn rebuild(&mut self, changed: &[PathBuf]) -> Result<(), Vec<String>>;
    /// The first build is done and the server answers at `url`.
    fn ready(&mut self, url: &str);
    /// Something to tell that is not a build: a watch that failed.
    fn note(&mut self, message: &str);
}

/// What open pages learn about builds.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct Status {
    /// Good builds so far: a page built at another version reloads.
    pub version: u64,
    /// Builds so far, good or not.
    pub generation: u64,
    /// The messages of the last build when it failed; empty when it succeeded.
    pub errors: Vec<String>,
}

#[derive(Default)]
struct Shared {
    status: Mutex<(Status, bool)>,
    changed: Condvar,
    waiters: AtomicUsize,
}

impl Shared {
    fn status(&self) -> Status {
        self.status
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .0
            .clone()
    }

    fn publish(&self, result: Result<(), Vec<String>>) {
        let mut guard = self.status.lock().unwrap_or_else(|e| e.into_inner());
        let status = &mut guard.0;
        status.generation += 1;
        match result {
            Ok(()) => {
                status.version += 1;
                status.errors.clear();
            }
            Err(errors) => status.errors = errors,
        }
        self.changed.notify_all();
    }

    fn stopping(&self) -> bool {
        self.status.lock().unwrap_or_else(|e| e.into_inner()).1
    }

    fn stop(&self) {
        self.status.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.changed.notify_all();
    }

    /// Waits until the generation differs from `since`, the server stops,
    /// or `timeout` passes.
    fn wait(&self, since: u64, timeout: Duration) -> Status {
        let guard = self.status.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, timeout, |(s, stopping)| {
                s.generation == since && !*stopping
            })
            .unwrap_or_else(|e| e.into_inner());
        guard.0.clone()
    }
}

enum Msg {
    Changed(Vec<PathBuf>),
    Stop,
}

/// Stops a running server from another thread (a Ctrl-C handler).
#[derive(Clone)]
pub struct Stopper {
    tx: Sender<Msg>,
}

impl Stopper {
    /// Asks the server to stop; [`Server::run`] then returns.
    pub fn stop(&self) {
        let _ = self.tx.send(Msg::Stop);
    }
}

/// A server bound to a port on 127.0.0.1, not yet answering.
pub struct Server {
    http: Arc<tiny_http::Server>,
    addr: SocketAddr,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
}

impl Server {
    /// Binds `127.0.0.1:port`; port 0 picks a free one. Requests that
    /// arrive before [`Server::run`] wait for the first build.
    pub fn bind(port: u16) -> io::Result<Server> {
        let http =
            tiny_http::Server::http((Ipv4Addr::LOCALHOST, port)).map_err(io::Error::other)?;
        let addr = http
            .server_addr()
            .to_ip()
            .ok_or_else(|| io::Error::other("the server has no IP address"))?;
        let (tx, rx) = mpsc::channel();
        Ok(Server {
            http: Arc::new(http),
            addr,
            tx,
            rx,
        })
    }

    /// The address pages are served at, with a trailing slash.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// A handle that stops [`Server::run`].
    pub fn stopper(&self) -> Stopper {
        Stopper {
            tx: self.tx.clone(),
        }
    }

    /// Watches `root`, builds, serves `output`, and rebuilds on changes
    /// until stopped. Returns once the server and watcher have stopped.
    pub fn run(self, root: &Path, output: &Path, host: &mut dyn Host) -> io::Result<()> {
        let root = root.canonicalize()?;
        let mut watch = Watch::start(&root, self.tx.clone(), host);

        let shared = Arc::new(Shared::default());
        let first = host.rebuild(&[]);
        shared.publish(first);

        let http = Arc::clone(&self.http);
        let served = output.to_path_buf();
        let state = Arc::clone(&shared);
        let handle = thread::Builder::new()
            .name("findings-http".into())
            .spawn(move || loop {
                match http.recv() {
                    Ok(request) => answer(request, &served, &state),
                    // A failed accept is not the end; `unblock` on stop is.
                    Err(_) if state.stopping() => break,
                    Err(_) => thread::sleep(Duration::from_millis(10)),
                }
            })?;
        host.ready(&self.url());

        let mut stop = false;
        while !stop {
            let mut changed: BTreeSet<PathBuf> = BTreeSet::new();
            match self.rx.recv() {
                Ok(Msg::Changed(paths)) => changed.extend(paths),
                Ok(Msg::Stop) | Err(_) => break,
            }
            // Debounce: wait until changes stop (saving one file is several events).
            let started = Instant::now();
            while started.elapsed() < DEBOUNCE_MAX {
                match self.rx.recv_timeout(DEBOUNCE) {
                    Ok(Msg::Changed(paths)) => changed.extend(paths),
                    Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => {
                        stop = true;
                        break;
                    }
                    Err(RecvTimeoutError::Timeout) => break,
                }
            }
            if stop {
                break;
            }
            if let Some(w) = watch.as_mut() {
                w.rewatch(&changed, host);
            }
            let changed: Vec<PathBuf> = changed
                .into_iter()
                .map(|p| p.strip_prefix(&root).map(Path::to_path_buf).unwrap_or(p))
                .collect();
            let result = host.rebuild(&changed);
            shared.publish(result);
        }

        // Stop: the watcher, then waiting pages, then the HTTP thread.
        drop(watch.take());
        shared.stop();
        self.http.unblock();
        let _ = handle.join();
        let deadline = Instant::now() + Duration::from_secs(2);
        while shared.waiters.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Watching

struct Watch {
    watcher: notify::RecommendedWatcher,
    root: PathBuf,
}

impl Watch {
    /// Watches the root itself (for `site.yaml` and folders created later)
    /// and each watched folder that exists. Reports and returns `None` when
    /// the system refuses; the server then runs without rebuilding.
    fn start(root: &Path, tx: Sender<Msg>, host: &mut dyn Host) -> Option<Watch> {
        use notify::Watcher;
        let filter_root = root.to_path_buf();
        let watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            let Ok(event) = res else { return };
            if matches!(event.kind, notify::EventKind::Access(_)) {
                return; // reading files (the build does) is not a change
            }
            let paths: Vec<PathBuf> = event
                .paths
                .into_iter()
                .filter(|p| relevant(&filter_root, p))
                .collect();
            if !paths.is_empty() {
                let _ = tx.send(Msg::Changed(paths));
            }
        });
        let mut watcher = match watcher {
            Ok(w) => w,
            Err(e) => {
                host.note(&format!(
                    "cannot watch {}: {e}; pages will not rebuild",
                    root.display()
                ));
                return None;
            }
        };
        if let Err(e) = watcher.watch(root, notify::RecursiveMode::NonRecursive) {
            host.note(&format!("cannot watch {}: {e}", root.display()));
        }
        let mut watch = Watch {
            watcher,
            root: root.to_path_buf(),
        };
        for dir in WATCHED_DIRS {
            watch.watch_dir(&root.join(dir), host);
        }
        Some(watch)
    }

    fn watch_dir(&mut self, dir: &Path, host: &mut dyn Host) {
        use notify::Watcher;
        if dir.is_dir() {
            let _ = self.watcher.unwatch(dir);
            if let Err(e) = self.watcher.watch(dir, notify::RecursiveMode::Recursive) {
                host.note(&format!("cannot watch {}: {e}", dir.display()));
            }
        }
    }

    /// A watched folder that was created (or replaced) gets a new watch.
    fn rewatch(&mut self, changed: &BTreeSet<PathBuf>, host: &mut dyn Host) {
        let dirs: Vec<PathBuf> = changed
            .iter()
            .filter(|p| p.parent() == Some(self.root.as_path()))
            .filter(|p| {
                WATCHED_DIRS
                    .iter()
                    .any(|d| p.file_name() == Some(d.as_ref()))
            })
            .cloned()
            .collect();
        for dir in dirs {
            self.watch_dir(&dir, host);
        }
    }
}

/// Whether a changed path is part of the site: under a watched folder or
/// `site.yaml`, and not a hidden or backup file (editors write those).
pub fn relevant(root: &Path, path: &Path) -> bool {
    let Ok(rel) = path.strip_prefix(root) else {
        return false;
    };
    let mut parts = rel.components();
    let Some(Component::Normal(first)) = parts.next() else {
        return false;
    };
    let top = first.to_string_lossy();
    let inside = if top == WATCHED_FILE {
        parts.next().is_none()
    } else {
        WATCHED_DIRS.contains(&top.as_ref())
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    inside && !name.starts_with('.') && !name.ends_with('~')
}

// ---------------------------------------------------------------------------
// Answering requests

/// Where a request path leads inside the output folder.
#[derive(Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A file to send.
    File(PathBuf),
    /// A folder asked for without its trailing slash: where to go instead.
    Redirect(String),
    /// Nothing there.
    NotFound,
    /// A path that tries to leave the folder, or is not a path.
    Refused,
    /// The output folder itself is missing (a build is swapping it in).
    NoOutput,
}

/// Resolves a request path (`/findings/x/`, still percent-encoded, without
/// the query) inside `output`. Never returns a path outside `output`.
pub fn resolve(output: &Path, raw: &str) -> Resolved {
    let Ok(decoded) = percent_encoding::percent_decode_str(raw).decode_utf8() else {
        return Resolved::Refused;
    };
    if !decoded.starts_with('/') || decoded.contains(['\\', '\0']) {
        return Resolved::Refused;
    }
    let mut segments = Vec::new();
    for s in decoded.split('/').filter(|s| !s.is_empty()) {
        // Exactly one plain name: no `.`, `..`, drive or root.
        let mut c = Path::new(s).components();
        match (c.next(), c.next()) {
            (Some(Component::Normal(n)), None) if n == s => segments.push(s),
            _ => return Resolved::Refused,
        }
    }
    let Ok(base) = output.canonicalize() else {
        return Resolved::NoOutput;
    };
    let mut path = base.clone();
    path.extend(&segments);
    let Ok(path) = path.canonicalize() else {
        return Resolved::NotFound;
    };
    if !path.starts_with(&base) {
        return Resolved::Refused;
    }
    if path.is_dir() {
        if !decoded.ends_with('/') {
            return Resolved::Redirect(format!("/{}/", raw.trim_start_matches('/')));
        }
        let index = path.join("index.html");
        return if index.is_file() {
            Resolved::File(index)
        } else {
            Resolved::NotFound
        };
    }
    Resolved::File(path)
}

/// The Content-Type for a file name.
pub fn content_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "xml" => "application/xml; charset=utf-8",
        "atom" => "application/atom+xml; charset=utf-8",
        "rss" => "application/rss+xml; charset=utf-8",
        "csv" => "text/csv; charset=utf-8",
        "txt" | "md" => "text/plain; charset=utf-8",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "pdf" => "application/pdf",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

/// Adds the live-reload script tag before the last `</body>` (or at the end).
pub fn inject(html: &[u8], version: u64) -> Vec<u8> {
    let tag = format!("<script src=\"/__findings/live.js\" data-version=\"{version}\"></script>\n");
    let at = html
        .windows(7)
        .rposition(|w| w.eq_ignore_ascii_case(b"</body>"))
        .unwrap_or(html.len());
    let mut out = Vec::with_capacity(html.len() + tag.len());
    out.extend_from_slice(&html[..at]);
    out.extend_from_slice(tag.as_bytes());
    out.extend_from_slice(&html[at..]);
    out
}

type Body = tiny_http::Response<io::Cursor<Vec<u8>>>;

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes())
        .unwrap_or_else(|_| tiny_http::Header::from_bytes(&b"X-Invalid"[..], &b"1"[..]).unwrap())
}

fn respond(status: u16, content_type: &str, body: Vec<u8>) -> Body {
    tiny_http::Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"))
}

fn text(status: u16, message: &str) -> Body {
    respond(
        status,
        "text/plain; charset=utf-8",
        message.as_bytes().to_vec(),
    )
}

fn json(status: &Status) -> Body {
    respond(
        200,
        "application/json",
        serde_json::to_vec(status).unwrap_or_default(),
    )
}

fn answer(request: tiny_http::Request, output: &Path, shared: &Arc<Shared>) {
    use tiny_http::Method;
    if !matches!(request.method(), Method::Get | Method::Head) {
        let r = text(405, "405 method not allowed\n").with_header(header("Allow", "GET, HEAD"));
        let _ = request.respond(r);
        return;
    }
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    match path {
        "/__findings/live.js" => {
            let _ = request.respond(respond(
                200,
                "text/javascript; charset=utf-8",
                LIVE_JS.as_bytes().to_vec(),
            ));
        }
        "/__findings/errors" => {
            let _ = request.respond(json(&shared.status()));
        }
        "/__findings/wait" => {
            let since = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("since="))
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0);
            if shared.waiters.fetch_add(1, Ordering::SeqCst) >= MAX_WAITERS {
                shared.waiters.fetch_sub(1, Ordering::SeqCst);
                let _ = request.respond(text(503, "too many open pages\n"));
                return;
            }
            let state = Arc::clone(shared);
            let spawned = thread::Builder::new()
                .name("findings-wait".into())
                .spawn(move || {
                    let status = state.wait(since, LONG_POLL);
                    let _ = request.respond(json(&status));
                    state.waiters.fetch_sub(1, Ordering::SeqCst);
                });
            if spawned.is_err() {
                shared.waiters.fetch_sub(1, Ordering::SeqCst);
            }
        }
        _ => {
            let response = file_response(output, path, shared);
            let _ = request.respond(response);
        }
    }
}

fn file_response(output: &Path, path: &str, shared: &Shared) -> Body {
    // The swap renames the old site away, then the new one in: a request in
    // between finds no folder and waits for it (a second at most), and one
    // that resolved against the old site is asked again.
    let mut attempt = 0;
    loop {
        attempt += 1;
        let version = shared.status().version;
        match resolve(output, path) {
            Resolved::NoOutput if attempt < 40 => thread::sleep(Duration::from_millis(25)),
            Resolved::NotFound if attempt == 1 => {}
            Resolved::File(file) => match std::fs::read(&file) {
                Ok(bytes) => {
                    let ctype = content_type(&file);
                    let body = if ctype.starts_with("text/html") {
                        inject(&bytes, version)
                    } else {
                        bytes
                    };
                    return respond(200, ctype, body);
                }
                Err(_) if attempt == 1 => {}
                Err(_) => return not_found(output, version),
            },
            Resolved::Redirect(to) => {
                return text(302, &format!("302 found: {to}\n"))
                    .with_header(header("Location", &to))
            }
            Resolved::Refused => {
                return text(400, "400 bad request: the path leaves the site\n");
            }
            Resolved::NotFound | Resolved::NoOutput => return not_found(output, version),
        }
    }
}

fn not_found(output: &Path, version: u64) -> Body {
    let page = std::fs::read(output.join("404.html")).unwrap_or_else(|_| {
        b"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title></head>\
          <body><h1>Not found</h1><p>No site has been built yet, or there is no page here.</p></body></html>"
            .to_vec()
    });
    respond(404, "text/html; charset=utf-8", inject(&page, version))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("public");
        std::fs::create_dir_all(out.join("findings/x")).unwrap();
        std::fs::write(out.join("index.html"), "home").unwrap();
        std::fs::write(out.join("findings/x/index.html"), "x").unwrap();
        std::fs::write(out.join("style.css"), "").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "secret").unwrap();
        dir
    }

    #[test]
    fn resolves_inside_the_output_only() {
        let dir = site();
        let out = dir.path().join("public");
        let base = out.canonicalize().unwrap();
        assert_eq!(resolve(&out, "/"), Resolved::File(base.join("index.html")));
        assert_eq!(
            resolve(&out, "/findings/x/"),
            Resolved::File(base.join("findings/x/index.html"))
        );
        assert_eq!(
            resolve(&out, "/findings/x"),
            Resolved::Redirect("/findings/x/".into())
        );
        assert_eq!(
            resolve(&out, "/style%2Ecss"),
            Resolved::File(base.join("style.css"))
        );
        assert_eq!(resolve(&out, "/nothing/"), Resolved::NotFound);
        assert_eq!(resolve(&out, "/findings/"), Resolved::NotFound);
        for bad in [
            "/../secret.txt",
            "/%2e%2e/secret.txt",
            "/%2E%2E%2Fsecret.txt",
            "/findings/..%2f..%2fsecret.txt",
            "/./index.html",
            "/..\\secret.txt",
            "/%5c..%5csecret.txt",
            "/a%00b",
            "/%ff",
            "../secret.txt",
        ] {
            assert_eq!(resolve(&out, bad), Resolved::Refused, "{bad}");
        }
        // A redirect never leaves the host.
        assert_eq!(
            resolve(&out, "//findings/x"),
            Resolved::Redirect("/findings/x/".into())
        );
        assert_eq!(
            resolve(&dir.path().join("missing"), "/"),
            Resolved::NoOutput
        );
    }

    #[cfg(unix)]
    #[test]
    fn refuses_links_that_leave_the_output() {
        let dir = site();
        let out = dir.path().join("public");
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), out.join("s.txt")).unwrap();
        assert_eq!(resolve(&out, "/s.txt"), Resolved::Refused);
    }

    #[test]
    fn injects_before_the_last_body_end() {
        let html = b"<html><body><p>x</p></BODY></html>";
        let out = String::from_utf8(inject(html, 3)).unwrap();
        assert_eq!(
            out,
            "<html><body><p>x</p><script src=\"/__findings/live.js\" data-version=\"3\"></script>\n</BODY></html>"
        );
        assert!(String::from_utf8(inject(b"plain", 1))
            .unwrap()
            .starts_with("plain<script"));
    }

    #[test]
    fn content_types() {
        for (name, ct) in [
            ("a.html", "text/html; charset=utf-8"),
            ("a.css", "text/css; charset=utf-8"),
            ("a.js", "text/javascript; charset=utf-8"),
            ("a.svg", "image/svg+xml"),
            ("a.json", "application/json"),
            ("a.xml", "application/xml; charset=utf-8"),
            ("a.csv", "text/csv; charset=utf-8"),
            ("a.txt", "text/plain; charset=utf-8"),
            ("a", "application/octet-stream"),
        ] {
            assert_eq!(content_type(Path::new(name)), ct, "{name}");
        }
    }

    #[test]
    fn only_site_files_are_changes() {
        let root = Path::new("/s");
        for (p, yes) in [
            ("/s/site.yaml", true),
            ("/s/findings/a.md", true),
            ("/s/data/runs/r/run.yaml", true),
            ("/s/templates/base.html", true),
            ("/s/static/x.css", true),
            ("/s/findings/.a.md.swp", false),
            ("/s/findings/a.md~", false),
            ("/s/public/index.html", false),
            ("/s/.public.building/x", false),
            ("/s/README.md", false),
            ("/s/site.yaml/x", false),
            ("/elsewhere/findings/a.md", false),
        ] {
            assert_eq!(relevant(root, Path::new(p)), yes, "{p}");
        }
    }

    #[test]
    fn waiting_ends_on_a_build() {
        let shared = Arc::new(Shared::default());
        let s = Arc::clone(&shared);
        let t = thread::spawn(move || s.wait(0, Duration::from_secs(10)));
        thread::sleep(Duration::from_millis(50));
        shared.publish(Err(vec!["bad".into()]));
        let status = t.join().unwrap();
        assert_eq!((status.generation, status.version), (1, 0));
        assert_eq!(status.errors, vec!["bad".to_string()]);
        shared.publish(Ok(()));
        let status = shared.wait(1, Duration::from_secs(1));
        assert_eq!((status.generation, status.version), (2, 1));
        assert!(status.errors.is_empty());
    }
}
