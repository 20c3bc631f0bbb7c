//! A running `findings serve` for tests: the real binary on a free
//! loopback port, asked over plain HTTP (std `TcpStream`, 127.0.0.1 only).
//! Every wait is bounded, and the server is killed when dropped whatever
//! happens.

use super::Site;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a change may take to show.
pub const CHANGE: Duration = Duration::from_secs(20);
/// How long the server may take to start (first build of a debug binary).
pub const START: Duration = Duration::from_secs(60);

/// A running `findings serve`; killed when dropped, so no test leaves one behind.
pub struct Served {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The folder the site is built into, as printed.
    pub output: PathBuf,
    pub stderr: Arc<Mutex<String>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    pub fn start(site: &Site, extra: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_findings"))
            .args(["serve", "--port", "0", "--root"])
            .arg(site.root())
            .args(extra)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start findings serve");
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let mut served = Served {
            child,
            addr: String::new(),
            output: PathBuf::new(),
            stderr: Arc::new(Mutex::new(String::new())),
        };
        let log = Arc::clone(&served.stderr);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                log.lock().unwrap().push_str(&(line + "\n"));
            }
        });
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let line = rx
            .recv_timeout(START)
            .unwrap_or_else(|_| panic!("no address printed; stderr:\n{}", served.log()));
        // serving http://127.0.0.1:PORT/ from DIR
        let rest = line
            .strip_prefix("serving http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
        let (addr, output) = rest.split_once("/ from ").unwrap();
        assert!(
            addr.starts_with("127.0.0.1:"),
            "serves on loopback only: {addr}"
        );
        served.addr = addr.to_string();
        served.output = PathBuf::from(output);
        served
    }

    pub fn log(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// One GET with a raw path (sent as is, so `..` reaches the server).
    pub fn get(&self, path: &str) -> Reply {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.0\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).expect("read reply");
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {head:?}"));
        Reply {
            status,
            head: head.to_ascii_lowercase(),
            body: body.to_string(),
        }
    }

    /// Asks until `pred` holds, for at most [`CHANGE`].
    pub fn until(&self, path: &str, what: &str, pred: impl Fn(&Reply) -> bool) -> Reply {
        let start = Instant::now();
        loop {
            let reply = self.get(path);
            if pred(&reply) {
                return reply;
            }
            if start.elapsed() > CHANGE {
                panic!(
                    "{path}: {what} did not happen within {CHANGE:?}; last reply {} {}\nstderr:\n{}",
                    reply.status,
                    reply.body.chars().take(300).collect::<String>(),
                    self.log()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn errors(&self) -> serde_json::Value {
        let reply = self.get("/__findings/errors");
        assert_eq!(reply.status, 200);
        assert!(reply.header("content-type").starts_with("application/json"));
        serde_json::from_str(&reply.body).unwrap()
    }

    /// Ctrl-C, then the exit status (bounded).
    #[cfg(unix)]
    pub fn interrupt(&mut self) -> std::process::ExitStatus {
        let ok = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(ok.success());
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "serve did not stop on SIGINT; stderr:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

pub struct Reply {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> &str {
        self.head
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")))
            .unwrap_or("")
    }
}
