//! Which engine, and which version of it, each report ran on, and where
//! that was read: what a reader of the comment needs first, and what the
//! checks and symptoms need to apply an engine's rules.
//!
//! In order, the first that says wins:
//!
//! 1. the report's own lines (a result file's field, trtllm-bench's
//!    version line), as the readers of `crate::results` give them;
//! 2. `--engine` and `--version`;
//! 3. the report's `Backend:` line where it names an engine's own API
//!    ([`BACKENDS`]: SGLang's `bench_serving` with `--backend sglang`
//!    calls `/generate`, which only SGLang serves; a backend such as
//!    `openai` names an API any server speaks, and says nothing), or,
//!    in SGLang's `bench_serving`, the server it was pointed at
//!    ([`SGLANG_BACKENDS`]: `--backend vllm` is vLLM's port and API,
//!    `trt` TensorRT-LLM's);
//! 4. the report's heading, the few lines right above it (`near.rs`:
//!    `vllm=0.6.2 w/ normal`, `# SGLang`, `Before:` in an issue that
//!    names an upgrade);
//! 5. the text the report was pasted in, then the issue's title, its body
//!    and its other comments in the order of the thread: a start-up line
//!    (`Initializing a V1 LLM engine (v0.30.0)`, `vLLM API server version
//!    0.9.2`, `TensorRT LLM version: 1.3.0rc29`), an environment dump or a
//!    pin (`vLLM Version: 0.30.0` as vLLM's `collect_env.py` prints it,
//!    `sglang: 0.5.20` as `python3 -m sglang.check_env` does,
//!    `vllm==0.30.0`), an upgrade ("upgrading from 0.8.5 to 0.9.2": the
//!    version upgraded to), an engine named with a version ("vLLM 0.7.0",
//!    "SGLang v0.5.7"), or the command that started a server (`vllm serve`,
//!    `python -m sglang.launch_server`, `trtllm-serve`: the engine alone),
//!    in that order of strength within a text; where a text names several
//!    engines as strongly (`check_env` lists `vllm:` beside `sglang:`),
//!    the engine whose repository the issue is in, else the first named;
//! 6. the repository in the issue's address, matched against an engine's
//!    `repo` in `site.yaml`, or a plugin of it (the same owner, the
//!    engine's repository name and a suffix: `vllm-project/vllm-ascend`
//!    is vLLM's); the engine only.
//!
//! A version is taken only for the engine it is said of (a line naming
//! another engine says nothing of this one), and an engine is named by
//! its id, its name or one of its packages, as one word (`vLLM`, `vllm`,
//! `SGLang`, `tensorrt_llm`). A version has a dot (`v1` is vLLM's engine,
//! not a release); a local label (`+cu128`, `+gdec66d253`) is left out.
//! Each line is read once, each word looked up once, so a thread is read
//! in time linear in its length.

mod near;
mod thread;

pub use near::{Near, Side, NEAR_LINES};
pub(super) use thread::{issue_texts, Thread};

use crate::audit::source::CatalogEngine;
use crate::record::package_name;
use crate::version::Version;
use std::collections::HashMap;

/// Backends a client names that only one engine serves: the backend, and
/// the package of the engine (matched against the site's `packages`).
pub const BACKENDS: &[(&str, &str)] = &[("sglang", "sglang"), ("sglang-native", "sglang")];

/// The backends of SGLang's `bench_serving` and the engine each points it
/// at (its default port and API): the tool prints the one chosen in its
/// report (`Backend: vllm`), so there it names the server measured.
pub const SGLANG_BACKENDS: &[(&str, &str)] = &[
    ("sglang", "sglang"),
    ("sglang-native", "sglang"),
    ("sglang-oai", "sglang"),
    ("sglang-oai-chat", "sglang"),
    ("vllm", "vllm"),
    ("vllm-chat", "vllm"),
    ("trt", "tensorrt-llm"),
];

/// The tool whose backends are [`SGLANG_BACKENDS`].
const SGLANG_TOOL: &str = "sglang bench_serving";

/// Lines an engine prints at start-up with its version: the text before
/// the version, and the engine's package.
const BOOT: &[(&str, &str)] = &[
    ("LLM engine (v", "vllm"),
    ("vLLM API server version ", "vllm"),
    ("TensorRT LLM version: ", "tensorrt-llm"),
    ("TensorRT-LLM version: ", "tensorrt-llm"),
];

/// Commands that start an engine's server, and the engine's package.
const SERVERS: &[(&str, &str)] = &[
    ("vllm serve", "vllm"),
    ("vllm.entrypoints.", "vllm"),
    ("sglang.launch_server", "sglang"),
    ("trtllm-serve", "tensorrt-llm"),
];

/// How strongly a line says what ran, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Boot,
    Env,
    Upgrade,
    Prose,
    Command,
}

/// Where an engine or a version was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Whence {
    /// The report's own lines.
    Report,
    /// `--engine` or `--version`.
    Given,
    /// The report's `Backend:` line, naming the engine's own API.
    Backend(String),
    /// A line of a text: the words read (as written, spaces collapsed),
    /// and where ("the issue body", "comment 3", "the title").
    Line {
        /// The words.
        quote: String,
        /// The place.
        place: String,
    },
    /// The issue's repository (`owner/name`), an engine's `repo`.
    Repo(String),
    /// The issue's repository (`owner/name`), a plugin of an engine's
    /// (`vllm-project/vllm-ascend`), and the engine's name.
    Plugin(String, String),
    /// A report's heading on one side of an upgrade (`Before:`, its place)
    /// and the words the version it stands for was read from, in the
    /// title.
    Side {
        /// The heading's words.
        quote: String,
        /// Where the heading is.
        place: String,
        /// The title's words for the version.
        of: String,
    },
}

impl Whence {
    /// In words, with what was read in backticks: "`vLLM Version: 0.30.0`
    /// in the issue body", "the report's `Backend: sglang` line".
    pub fn words(&self, option: &str) -> String {
        self.render(option, &|t| format!("`{t}`"))
    }

    /// In words, with what was read written by `code` (the comment makes
    /// it a code span that nothing in it can end).
    pub fn render(&self, option: &str, code: &dyn Fn(&str) -> String) -> String {
        match self {
            Whence::Report => "the report itself".into(),
            Whence::Given => code(&format!("--{option}")),
            Whence::Backend(b) => format!("the report's {} line", code(&format!("Backend: {b}"))),
            Whence::Line { quote, place } => format!("{} in {place}", code(quote)),
            Whence::Repo(r) => format!("the issue's repository {}", code(r)),
            Whence::Plugin(r, of) => {
                format!("the issue's repository {} (a plugin of {of})", code(r))
            }
            Whence::Side { quote, place, of } => {
                format!("{} in {place} (the title's {})", code(quote), code(of))
            }
        }
    }
}

/// Where an engine (named `name`) and its version were read, in words:
/// "vLLM 0.30.0, both from `vLLM Version: 0.30.0` in the issue body",
/// "SGLang from the report's `Backend: sglang` line, 0.5.20 from `sglang:
/// 0.5.20` in comment 1"; what was read written by `code`.
pub fn whence_words(
    name: &str,
    version: Option<(&str, &Whence)>,
    engine: Option<&Whence>,
    code: &dyn Fn(&str) -> String,
) -> String {
    let e = engine.map(|w| w.render("engine", code));
    match (e, version) {
        (Some(e), Some((v, vw))) if Some(vw) == engine => format!("{name} {v}, both from {e}"),
        (Some(e), Some((v, vw))) => {
            format!("{name} from {e}, {v} from {}", vw.render("version", code))
        }
        (Some(e), None) => format!("{name} from {e}"),
        (None, Some((v, vw))) => format!("version {v} from {}", vw.render("version", code)),
        (None, None) => String::new(),
    }
}

/// A value, and where it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// An engine's id, or a version as written (its local label left out).
    pub value: String,
    /// Where.
    pub whence: Whence,
}

/// What is known of a report's engine and version.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stated {
    /// The engine.
    pub engine: Option<Said>,
    /// Its version.
    pub version: Option<Said>,
}

/// What a report says of itself, read before any text around it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Report<'r> {
    /// The engine its files give (an id).
    pub engine: Option<&'r str>,
    /// The version its files give.
    pub version: Option<&'r str>,
    /// Its `Backend:` line.
    pub backend: Option<&'r str>,
    /// The tool that printed it (`sglang bench_serving`).
    pub tool: Option<&'r str>,
    /// Its heading.
    pub near: Option<&'r Near>,
}

/// One line's word on what ran.
#[derive(Debug, Clone)]
struct Clue {
    /// The engine (an index into the site's engines), where the line names it.
    engine: Option<usize>,
    version: Option<String>,
    rank: Rank,
    quote: String,
}

/// What one text says: its strongest engine, each engine's strongest
/// version, and the strongest version said of no engine by name.
#[derive(Debug, Clone, Default)]
pub(super) struct Clues {
    place: String,
    engine: Option<Clue>,
    versions: HashMap<usize, Clue>,
    nameless: Option<Clue>,
}

/// The site's engines as texts name them, and the issue's own engine.
pub(super) struct Names<'a> {
    engines: &'a [CatalogEngine],
    /// Each engine's index by its id.
    ids: HashMap<String, usize>,
    /// Each engine's index by the words it is named by (`package_name`'s
    /// spelling).
    words: HashMap<String, usize>,
    /// The engine whose repository the issue is in, `owner/name`, and
    /// whether that repository is a plugin of the engine's.
    repo: Option<(usize, String, bool)>,
}

impl<'a> Names<'a> {
    /// The names of `engines`; `url` is the issue's address, if any.
    pub(super) fn new(engines: &'a [CatalogEngine], url: Option<&str>) -> Names<'a> {
        let mut words = HashMap::new();
        for (i, e) in engines.iter().enumerate() {
            for w in std::iter::once(&e.id)
                .chain(std::iter::once(&e.name))
                .chain(&e.packages)
            {
                if !w.trim().is_empty() && !w.contains(char::is_whitespace) {
                    words.entry(package_name(w)).or_insert(i);
                }
            }
        }
        let repo = url.and_then(repository).and_then(|r| {
            let own = |e: &CatalogEngine| e.repo.as_deref().and_then(repository);
            if let Some(i) = engines.iter().position(|e| own(e).as_ref() == Some(&r)) {
                return Some((i, r, false));
            }
            let i = engines.iter().position(|e| {
                own(e).is_some_and(|o| {
                    r.strip_prefix(&o)
                        .is_some_and(|rest| rest.len() > 1 && rest.starts_with('-'))
                })
            })?;
            Some((i, r, true))
        });
        let ids = engines
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id.clone(), i))
            .collect();
        Names {
            engines,
            ids,
            words,
            repo,
        }
    }

    /// The engine a package is, by the site's `packages`, else its id.
    fn by_package(&self, package: &str) -> Option<usize> {
        let p = package_name(package);
        self.engines
            .iter()
            .position(|e| e.packages.contains(&p))
            .or_else(|| self.engines.iter().position(|e| package_name(&e.id) == p))
    }

    /// The engine a backend names, where one alone serves it, or, in
    /// SGLang's `bench_serving` (`tool`), the one it was pointed at.
    fn by_backend(&self, backend: &str, tool: Option<&str>) -> Option<usize> {
        let b = backend.trim().to_ascii_lowercase();
        let table = if tool == Some(SGLANG_TOOL) {
            SGLANG_BACKENDS
        } else {
            BACKENDS
        };
        table
            .iter()
            .find(|(name, _)| *name == b)
            .and_then(|(_, package)| self.by_package(package))
    }

    /// Reads a text: what each of its lines says of the engines.
    pub(super) fn read(&self, place: &str, text: &str) -> Clues {
        let mut out = Clues {
            place: place.to_string(),
            ..Clues::default()
        };
        for line in text.lines() {
            for clue in self.line(line) {
                out.add(clue, self.repo.as_ref().map(|r| r.0));
            }
        }
        out
    }

    /// The clues of one line.
    fn line(&self, line: &str) -> Vec<Clue> {
        let mut out = Vec::new();
        for (before, package) in BOOT {
            if let Some(at) = line.find(before) {
                let rest = &line[at + before.len()..];
                if let (Some(e), Some((v, len))) = (self.by_package(package), version_at(rest)) {
                    out.push(Clue {
                        engine: Some(e),
                        version: Some(v),
                        rank: Rank::Boot,
                        quote: collapse(&line[at..at + before.len() + len]),
                    });
                }
            }
        }
        for (command, package) in SERVERS {
            if let Some(at) = find_word(line, command) {
                if let Some(e) = self.by_package(package) {
                    out.push(Clue {
                        engine: Some(e),
                        version: None,
                        rank: Rank::Command,
                        quote: line[at..at + command.len()].to_string(),
                    });
                }
            }
        }
        if let Some(c) = self.upgrade(line) {
            out.push(c);
        }
        self.named(line, &mut out);
        out
    }

    /// "upgrading from 0.8.5 to 0.9.2", "upgrading from vLLM 0.6.1.post2
    /// to vLLM 0.7.0": the version upgraded to.
    fn upgrade(&self, line: &str) -> Option<Clue> {
        let lower = line.to_ascii_lowercase();
        let start = lower.find("upgrad")?;
        // The words between "upgrad…" and "from" are few ("upgrading vLLM
        // from", "upgraded my deployment from").
        let from = start + lower[start..].find(" from ").filter(|n| *n <= 40)? + " from ".len();
        let (engine_a, after_a) = self.optional_name(&line[from..]);
        let (_, len_a) = version_at(after_a)?;
        let rest_at = line.len() - after_a.len() + len_a;
        let to = line[rest_at..].strip_prefix(" to ")?;
        let (engine_b, after_b) = self.optional_name(to);
        let (v, len_b) = version_at(after_b)?;
        let end = line.len() - after_b.len() + len_b;
        Some(Clue {
            engine: engine_b.or(engine_a),
            version: Some(v),
            rank: Rank::Upgrade,
            quote: collapse(&line[start..end]),
        })
    }

    /// An engine's name at the start of `s` followed by a space: the engine
    /// and what follows; else nothing and `s`.
    fn optional_name<'s>(&self, s: &'s str) -> (Option<usize>, &'s str) {
        let end = s.find(|c: char| !is_word(c)).unwrap_or(s.len());
        match self.words.get(&package_name(&s[..end])) {
            Some(&e) if end > 0 && s[end..].starts_with(' ') => (Some(e), &s[end + 1..]),
            _ => (None, s),
        }
    }

    /// An engine named as a word and followed by a version: `vLLM 0.7.0`,
    /// `vLLM Version : 0.13.0`, `vllm==0.6.2`, `sglang: 0.5.20`,
    /// `sglang，0.4.0.post2`.
    fn named(&self, line: &str, out: &mut Vec<Clue>) {
        let first = first_word_at(line);
        let mut i = 0;
        let bytes = line.as_bytes();
        while i < line.len() {
            let c = line[i..].chars().next().unwrap_or(' ');
            if !is_word(c) {
                i += c.len_utf8();
                continue;
            }
            let end = i + line[i..]
                .find(|c: char| !is_word(c))
                .unwrap_or(line.len() - i);
            let after_slash = i > 0 && bytes[i - 1] == b'/';
            if !after_slash {
                if let Some(&e) = self.words.get(&package_name(&line[i..end])) {
                    if let Some((v, len, env)) = after_name(&line[end..]) {
                        let env =
                            env || (Some(i) == first && line[end..].trim_start().starts_with(':'));
                        out.push(Clue {
                            engine: Some(e),
                            version: Some(v),
                            rank: if env { Rank::Env } else { Rank::Prose },
                            quote: collapse(&line[i..end + len]),
                        });
                    }
                }
            }
            i = end;
        }
    }

    /// What one report ran on: its own lines (the engine and version its
    /// files give), the options, its `Backend:` line, its heading, then
    /// its own text (`own`), then the issue's other texts (`thread`), then
    /// the issue's repository.
    pub(super) fn resolve(
        &self,
        report: &Report<'_>,
        given: (Option<&str>, Option<&str>),
        own: Option<&Clues>,
        thread: &Thread,
    ) -> Stated {
        let from_text = |c: &Clue, place: &str| {
            let i = c.engine.unwrap_or_default();
            (Some(i), self.said_engine(i, line(c, place)))
        };
        let near = report.near.filter(|n| n.engine.is_some());
        let engine = if let Some(e) = report.engine.map(str::to_string) {
            let i = self.ids.get(&e).copied();
            Some((
                i,
                Said {
                    value: e,
                    whence: Whence::Report,
                },
            ))
        } else if let Some(e) = given.0 {
            let i = self.ids.get(e).copied();
            Some((
                i,
                Said {
                    value: e.to_string(),
                    whence: Whence::Given,
                },
            ))
        } else if let Some((b, i)) = report
            .backend
            .and_then(|b| Some((b, self.by_backend(b, report.tool)?)))
        {
            Some((
                Some(i),
                self.said_engine(i, Whence::Backend(b.trim().to_string())),
            ))
        } else if let (Some(n), Some(c)) = (near, near.and_then(|n| n.engine.as_ref())) {
            Some(from_text(c, &n.place))
        } else if let Some(c) = own.and_then(|t| t.engine.as_ref()) {
            own.map(|t| from_text(c, &t.place))
        } else if let Some((c, place)) = &thread.engine {
            Some(from_text(c, place))
        } else {
            self.repo.as_ref().map(|(i, r, plugin)| {
                let whence = if *plugin {
                    Whence::Plugin(r.clone(), self.engines[*i].name.clone())
                } else {
                    Whence::Repo(r.clone())
                };
                (Some(*i), self.said_engine(*i, whence))
            })
        };
        let index = engine.as_ref().and_then(|(i, _)| *i);
        let said = |c: &Clue, place: &str| {
            Some(Said {
                value: c.version.clone()?,
                whence: line(c, place),
            })
        };
        // A heading on one side of the issue's upgrade.
        let side = || {
            let (side, quote) = report.near?.side.clone()?;
            let (from, to) = thread.pair(index)?;
            let c = if side == near::Side::Before { from } else { to };
            Some(Said {
                value: c.version.clone()?,
                whence: Whence::Side {
                    quote,
                    place: report.near?.place.clone(),
                    of: c.quote.clone(),
                },
            })
        };
        let version = if let Some(v) = report.version.map(str::to_string) {
            Some(Said {
                value: v,
                whence: Whence::Report,
            })
        } else if let Some(v) = given.1 {
            Some(Said {
                value: v.to_string(),
                whence: Whence::Given,
            })
        } else if let Some((n, c)) = report.near.and_then(|n| Some((n, n.version_of(index)?))) {
            said(c, &n.place)
        } else if let Some(s) = side() {
            Some(s)
        } else if let Some((t, c)) = own.and_then(|t| Some((t, t.version_of(index)?))) {
            said(c, &t.place)
        } else {
            thread
                .version_of(index)
                .and_then(|(c, place)| said(c, place))
        };
        Stated {
            engine: engine.map(|(_, s)| s),
            version,
        }
    }

    /// The versions an issue's title names (`thread`), each with its
    /// engine's id: the engine named before it, else the issue's
    /// (`issue_engine`); what the issue is about besides what its reports
    /// ran, each once.
    pub(super) fn issue_versions(
        &self,
        thread: &Thread,
        issue_engine: Option<&str>,
    ) -> Vec<(String, Said)> {
        let fallback = issue_engine.and_then(|e| self.ids.get(e).copied());
        let mut out: Vec<(String, Said)> = Vec::new();
        for c in &thread.title {
            let (Some(e), Some(v)) = (c.engine.or(fallback), c.version.clone()) else {
                continue;
            };
            let id = self.engines[e].id.clone();
            let parsed = Version::parse(&v).ok();
            if out
                .iter()
                .any(|(x, s)| *x == id && Version::parse(&s.value).ok() == parsed)
            {
                continue;
            }
            out.push((
                id,
                Said {
                    value: v,
                    whence: line(c, "the title"),
                },
            ));
        }
        out
    }

    /// The version of `engine` (an id) the issue's title names as
    /// upgraded from, where it names two.
    pub(super) fn upgraded_from(&self, thread: &Thread, engine: &str) -> Option<String> {
        let (from, ..) = thread.pair(self.ids.get(engine).copied())?;
        from.version.clone()
    }

    /// The engine of the issue's repository (an id), where it is an
    /// engine's or a plugin of one.
    pub(super) fn repo_engine(&self) -> Option<&str> {
        self.repo
            .as_ref()
            .map(|(i, ..)| self.engines[*i].id.as_str())
    }

    fn said_engine(&self, i: usize, whence: Whence) -> Said {
        Said {
            value: self.engines[i].id.clone(),
            whence,
        }
    }
}

impl Clues {
    /// The text it read ("the issue body", "comment 3", "the title").
    pub(super) fn place(&self) -> &str {
        &self.place
    }

    /// Files a clue: a stronger one replaces a weaker; between two as
    /// strong, the first stays, unless the later names the issue's engine
    /// (`repo`) and the first does not.
    fn add(&mut self, c: Clue, repo: Option<usize>) {
        let better = |old: &Clue, new: &Clue| {
            new.rank < old.rank
                || (new.rank == old.rank
                    && repo.is_some()
                    && new.engine == repo
                    && old.engine != repo)
        };
        if c.engine.is_some() && self.engine.as_ref().is_none_or(|o| better(o, &c)) {
            self.engine = Some(c.clone());
        }
        if c.version.is_none() {
            return;
        }
        match c.engine {
            Some(e) => {
                if self.versions.get(&e).is_none_or(|o| c.rank < o.rank) {
                    self.versions.insert(e, c);
                }
            }
            None => {
                if self.nameless.as_ref().is_none_or(|o| c.rank < o.rank) {
                    self.nameless = Some(c);
                }
            }
        }
    }

    /// The strongest version the text says of `engine` (by name, or of no
    /// engine by name); of an unknown engine, only the latter.
    fn version_of(&self, engine: Option<usize>) -> Option<&Clue> {
        let named = engine.and_then(|e| self.versions.get(&e));
        match (named, self.nameless.as_ref()) {
            (Some(n), Some(u)) if u.rank < n.rank => Some(u),
            (Some(n), _) => Some(n),
            (None, u) => u,
        }
    }
}

fn line(c: &Clue, place: &str) -> Whence {
    Whence::Line {
        quote: c.quote.clone(),
        place: place.to_string(),
    }
}

/// `github.com/owner/name` of a repository's (or an issue's) address,
/// lowercase; `None` for another host.
fn repository(url: &str) -> Option<String> {
    let u = url.trim().to_ascii_lowercase();
    let u = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"))
        .unwrap_or(&u);
    let u = u.strip_prefix("www.").unwrap_or(u);
    let mut parts = u.split('/');
    let host = parts.next()?;
    let owner = parts.next().filter(|s| !s.is_empty())?;
    let name = parts.next().filter(|s| !s.is_empty())?;
    let name = name.strip_suffix(".git").unwrap_or(name);
    (host == "github.com").then(|| format!("{owner}/{name}"))
}

/// Whether `c` is part of a word: a name, a package (`tensorrt-llm`,
/// `sgl_kernel`).
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_'
}

/// The byte offset of `needle` in `line` where it stands alone: nothing
/// of a word, a dot or a slash right before or after it.
fn find_word(line: &str, needle: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = line[from..].find(needle).map(|i| i + from) {
        let before = line[..at].chars().next_back();
        let after = line[at + needle.len()..].chars().next();
        let apart = |c: Option<char>| c.is_none_or(|c| !is_word(c) && c != '/');
        let after_ok = needle.ends_with('.') || apart(after);
        if apart(before) && before != Some('.') && after_ok {
            return Some(at);
        }
        from = at + needle.len();
    }
    None
}

/// The byte offset of a line's first word, past a bracketed prefix such
/// as pip's `[pip3] `.
fn first_word_at(line: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    let mut at = line.len() - trimmed.len();
    if trimmed.starts_with('[') {
        let close = trimmed.find("] ")?;
        at += close + 2;
    }
    Some(at)
}

/// What follows an engine's name, when it is a version: separators
/// (spaces, `:`, `=`, `,`, `，`, `(`), an optional word "version" and more
/// separators, then the version. The version, the bytes read, and whether
/// they read as an environment or a pin (`=`, or the word "version").
fn after_name(s: &str) -> Option<(String, usize, bool)> {
    let seps = |t: &str| {
        let n: usize = t
            .chars()
            .take_while(|c| matches!(c, ' ' | '\t' | ':' | '=' | ',' | '，' | '(' | '（'))
            .take(40)
            .map(char::len_utf8)
            .sum();
        (n, t[..n].contains('='))
    };
    let (mut at, mut env) = seps(s);
    if at == 0 {
        return None;
    }
    if s.get(at..at + 7)
        .is_some_and(|w| w.eq_ignore_ascii_case("version"))
    {
        let (n, _) = seps(&s[at + 7..]);
        if n > 0 {
            at += 7 + n;
            env = true;
        }
    }
    let (v, len) = version_at(&s[at..])?;
    Some((v, at + len, env))
}

/// A version at the start of `s` (after an optional `v`): its public part
/// (the local label after `+` left out), and the bytes it takes, local
/// label included. It starts with a digit, has a dot, and parses.
fn version_at(s: &str) -> Option<(String, usize)> {
    let skip = usize::from(s.starts_with(['v', 'V']));
    let body = &s[skip..];
    if !body.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '_')))
        .unwrap_or(body.len());
    let written = body[..end].trim_end_matches(['.', '-', '_', '+']);
    let public = written.split('+').next().unwrap_or(written);
    if !public.contains('.') || Version::parse(public).is_err() {
        return None;
    }
    Some((public.to_string(), skip + written.len()))
}

/// Runs of spaces as one, the ends trimmed: a line quoted.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
