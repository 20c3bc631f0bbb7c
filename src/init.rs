//! `findings init`: a new site in one command. Takes the folder, the
//! engines, the title and the base URL; writes `site.yaml` (the four
//! standard groups, the engines asked for, each with what `findings` knows
//! of it), one example finding as a draft, `data/runs/`, a README with the
//! commands that matter, a `.gitignore`, and the three GitHub Actions
//! workflows of `docs/workflows/` with this site's address and the
//! release of `findings` that wrote them filled in.
//!
//! It refuses a folder that already has `site.yaml` or records, and writes
//! nothing then. The files are written whole into a staging folder inside
//! the target first and only then moved into place, each by a rename; a
//! failure on the way takes back what was moved, so a failed `init`
//! leaves the folder as it found it. A file already there (a README, a
//! `.gitignore` of a fresh clone) is kept, not overwritten, and named.

use crate::load::{is_slug, known_engine, PALETTE, STANDARD_GROUPS};
use crate::record::Date;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What `findings init` is asked for.
#[derive(Debug, Clone)]
pub struct InitOptions {
    /// The folder of the new site (made when missing).
    pub dir: PathBuf,
    /// Engine ids, in order; empty for [`DEFAULT_ENGINES`].
    pub engines: Vec<String>,
    /// The site's title; `None` for [`DEFAULT_TITLE`].
    pub title: Option<String>,
    /// Where it will be published; `None` for [`DEFAULT_BASE_URL`].
    pub base_url: Option<String>,
    /// The example finding's `published` date.
    pub today: Date,
}

/// The engines of a new site when none is asked for: those `findings`
/// knows by id.
pub const DEFAULT_ENGINES: &[&str] = &["vllm", "sglang", "tensorrt-llm", "llama-cpp"];
/// A new site's title unless `--title` says otherwise.
pub const DEFAULT_TITLE: &str = "Findings";
/// A new site's address unless `--base-url` says otherwise: a placeholder
/// to replace before publishing (the publishing workflow passes the
/// address GitHub Pages gives).
pub const DEFAULT_BASE_URL: &str = "https://example.org/";

/// The release tag of `findings` the workflows install: this build's
/// version.
pub const FINDINGS_REV: &str = concat!("v", env!("CARGO_PKG_VERSION"));

/// The GitHub repository (`owner/name`) whose releases the workflows
/// download: the crate's `repository`, when it is a GitHub address; empty
/// (the workflows compile the crate from crates.io) otherwise.
pub fn findings_repo() -> String {
    let repo = env!("CARGO_PKG_REPOSITORY");
    repo.strip_prefix("https://github.com/")
        .map(|r| r.trim_end_matches('/').trim_end_matches(".git"))
        .filter(|r| r.split('/').count() == 2)
        .unwrap_or("")
        .to_string()
}

/// Why `init` wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum InitError {
    /// The folder already holds a site or records.
    #[error("{dir} already has {what}; nothing was written")]
    NotEmpty {
        /// The folder.
        dir: PathBuf,
        /// What it has (`site.yaml`, `records in findings/`).
        what: String,
    },
    /// An option that cannot be used (a wrong command line).
    #[error("{0}")]
    Invalid(String),
    /// Reading or writing failed; what was written is taken back.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// What `init` did.
#[derive(Debug, Clone, Default)]
pub struct Initialized {
    /// The files written, relative to the folder, in order.
    pub written: Vec<PathBuf>,
    /// Files that were there already and are kept as they were.
    pub kept: Vec<PathBuf>,
}

/// The files of a new site: each path relative to the folder, with its
/// text. Checks the options; touches nothing.
pub fn files(opts: &InitOptions) -> Result<Vec<(PathBuf, String)>, InitError> {
    let engines: Vec<&str> = if opts.engines.is_empty() {
        DEFAULT_ENGINES.to_vec()
    } else {
        opts.engines.iter().map(String::as_str).collect()
    };
    for (i, e) in engines.iter().enumerate() {
        if !is_slug(e) {
            return Err(InitError::Invalid(format!(
                "--engine \"{e}\" is not an engine id: use lowercase letters a-z, digits and '-' (vllm, sglang, tensorrt-llm, llama-cpp)"
            )));
        }
        if engines[..i].contains(e) {
            return Err(InitError::Invalid(format!("--engine {e} is given twice")));
        }
    }
    let title = opts.title.as_deref().unwrap_or(DEFAULT_TITLE);
    if title.trim().is_empty() || title.chars().any(char::is_control) {
        return Err(InitError::Invalid(
            "--title must be one line of text".to_string(),
        ));
    }
    let base_url = base_url(opts.base_url.as_deref().unwrap_or(DEFAULT_BASE_URL))?;
    let first = engines[0];
    let workflow = |text: &str| filled_workflow(text, &base_url);
    Ok(vec![
        ("site.yaml".into(), site_yaml(title, &base_url, &engines)),
        (
            "findings/example-finding.md".into(),
            example_finding(first, opts.today),
        ),
        ("data/runs/.gitkeep".into(), String::new()),
        ("README.md".into(), readme(title, first)),
        (".gitignore".into(), GITIGNORE.to_string()),
        (
            ".github/workflows/publish-site.yml".into(),
            workflow(PUBLISH)?,
        ),
        (
            ".github/workflows/answer-pasted-benchmarks.yml".into(),
            workflow(ANSWER)?,
        ),
        (
            ".github/workflows/audit-deployment.yml".into(),
            workflow(AUDIT)?,
        ),
    ])
}

/// A base URL as `site.yaml` and the workflows take it: `http(s)://`, with
/// only the characters of an address (nothing a YAML file or a workflow's
/// `${{ }}` would read otherwise), ending in `/`.
fn base_url(url: &str) -> Result<String, InitError> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let ok = rest.is_some_and(|r| {
        !r.is_empty()
            && !r.starts_with('/')
            && r.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._~:/?[]@!&()*+,;=%".contains(c))
    });
    if !ok {
        return Err(InitError::Invalid(format!(
            "--base-url \"{url}\" is not an http(s) address (e.g. https://example.org/findings/)"
        )));
    }
    Ok(if url.ends_with('/') {
        url.to_string()
    } else {
        format!("{url}/")
    })
}

/// Text as a YAML double-quoted scalar (JSON's string syntax is YAML's).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// `text` wrapped at 72 columns, each line after `indent`.
fn wrapped(text: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > 72 {
            let _ = writeln!(out, "{indent}{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{indent}{line}");
    }
    out
}

fn site_yaml(title: &str, base_url: &str, engines: &[&str]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# The site's settings. docs/format.md (section 4) of findings says what\n\
         # each field holds and what a field left out defaults to.\n\
         title: {}\n\
         # Where the site will be published (`findings build --base-url` and\n\
         # the publishing workflow replace it for a build).\n\
         base_url: {}\n\
         # description: One line about the site, for the home page and link previews.\n\
         # author: Who writes it (findings found by `us` name it under Found by).\n\
         \n\
         # The sections of the home page; a finding names one in `group`. These\n\
         # are the four a site has when it leaves `groups` out: edit them freely.\n\
         groups:",
        quoted(title),
        base_url
    );
    for g in STANDARD_GROUPS {
        let _ = write!(
            s,
            "  - id: {}\n    title: {}\n    blurb: >-\n{}",
            g.id,
            g.title,
            wrapped(g.blurb, "      ")
        );
    }
    let _ = writeln!(
        s,
        "\n# The engines findings are about. An engine findings knows by its id\n\
         # (vllm, sglang, tensorrt-llm, llama-cpp) gets the name, repo, packages\n\
         # and images written here when they are left out; an engine without\n\
         # `color` gets the next of the palette ({}).\n\
         # `releases` lists versions to show before a finding names them.\n\
         engines:",
        PALETTE.join(", ")
    );
    for (i, id) in engines.iter().enumerate() {
        // Past the palette, no colour: `check` says to choose one.
        let color = PALETTE.get(i).map_or_else(
            || "# color: \"#rrggbb\" (the palette's colours are taken)".to_string(),
            |c| format!("color: \"{c}\""),
        );
        let _ = writeln!(s, "  - id: {id}");
        match known_engine(id) {
            Some(k) => {
                let _ = writeln!(s, "    name: {}\n    repo: {}", k.name, k.repo);
                let _ = writeln!(s, "    {color}\n    releases: []");
                let list = |xs: &[&str]| xs.join(", ");
                if k.packages.is_empty() && k.images.is_empty() {
                    let _ = writeln!(
                        s,
                        "    # No Python package or image is known to be its: add them\n    \
                         # (`packages: [...]`, `images: [...]`) for findings audit to read."
                    );
                } else {
                    let _ = writeln!(
                        s,
                        "    # What findings audit reads in requirements files and Dockerfiles.\n    \
                         packages: [{}]\n    images: [{}]",
                        list(k.packages),
                        list(k.images)
                    );
                }
            }
            None => {
                let _ = writeln!(
                    s,
                    "    # The name readers see; repo, packages and images are optional.\n    \
                     name: {}\n    {color}\n    releases: []",
                    quoted(id)
                );
            }
        }
    }
    s
}

fn example_finding(engine: &str, today: Date) -> String {
    format!(
        "---\n\
         id: 1\n\
         title: \"{title}\"\n\
         group: hidden-speed\n\
         advice: {advice}\n\
         status: open\n\
         published: {today}\n\
         # A draft: `findings build` leaves it out, `findings serve --drafts`\n\
         # shows it. Rewrite it and remove this line, or delete the file.\n\
         draft: true\n\
         engines:\n  \
           - engine: {engine}\n    \
             # The versions tested: affected, clean; and fixed_in once a\n    \
             # release fixes it. docs/format.md (section 5) has every field.\n    \
             affected: []\n\
         ---\n\
         What happened, on which versions, and how it showed: the first\n\
         paragraph is the finding's summary on cards and in link previews.\n\
         \n\
         ## What we saw\n\
         \n\
         The figures, and the run behind them once it exists: `findings import`\n\
         makes a run of the files a benchmark tool wrote, and a finding lists it\n\
         under `runs`.\n\
         \n\
         ## What to do\n\
         \n\
         {todo}\n",
        title = crate::record::placeholder::EXAMPLE_TITLE,
        advice = crate::record::placeholder::ADVICE,
        todo = crate::record::placeholder::EXAMPLE_ADVICE_LINE,
    )
}

fn readme(title: &str, engine: &str) -> String {
    format!(
        "# {title}\n\
         \n\
         Findings about serving open models, each backed by the runs behind it,\n\
         built into a static site by `findings`.\n\
         \n\
         ## Commands\n\
         \n\
         ```sh\n\
         findings serve                 # build, serve on http://127.0.0.1:1111/, rebuild on every edit\n\
         findings serve --drafts        # the same, with draft findings\n\
         findings new \"What happened, as a sentence\" --group hidden-speed --engine {engine} --version 0.30\n\
         findings import my-run results.json --engine {engine} --version 0.30   # a run of a benchmark's files\n\
         findings check                 # every problem of the records at once\n\
         findings build                 # the site into public/\n\
         findings lint results.json     # what the findings say of a benchmark before it is published\n\
         ```\n\
         \n\
         ## The folder\n\
         \n\
         - `site.yaml`: the title, the address, the groups of the home page and\n  \
           the engines.\n\
         - `findings/`: one Markdown file per finding. `example-finding.md` is a\n  \
           draft to rewrite or delete.\n\
         - `data/runs/`: one folder per run: `run.yaml`, its CSV tables and the\n  \
           result files kept with it.\n\
         - `.github/workflows/`: `publish-site.yml` builds and publishes the site\n  \
           with GitHub Pages on every push to main (choose \"GitHub Actions\" as\n  \
           the Pages source); `answer-pasted-benchmarks.yml` answers the benchmark\n  \
           reports pasted into this repository's issues; `audit-deployment.yml`\n  \
           belongs in the repository that deploys the engines, where it checks\n  \
           their pinned versions against these findings. Each downloads the\n  \
           release of findings that `FINDINGS_REV` names (or compiles it).\n"
    )
}

const GITIGNORE: &str =
    "# What `findings build` writes, and the lock beside it.\n/public/\n/.public.*\n/.public-*\n";

/// The workflows as docs/workflows/ documents them.
const PUBLISH: &str = include_str!("../docs/workflows/publish-site.yml");
const ANSWER: &str = include_str!("../docs/workflows/answer-pasted-benchmarks.yml");
const AUDIT: &str = include_str!("../docs/workflows/audit-deployment.yml");

/// A workflow of docs/workflows/ for this site: the values of its
/// `FINDINGS_REPO` and `FINDINGS_REV` replaced (each must be there once),
/// and of `FINDINGS_SITE` where it has one; and a first line saying so.
fn filled_workflow(text: &str, base_url: &str) -> Result<String, InitError> {
    let values = [
        ("FINDINGS_SITE", base_url.to_string()),
        ("FINDINGS_REPO", quoted(&findings_repo())),
        ("FINDINGS_REV", FINDINGS_REV.to_string()),
    ];
    let mut out = String::with_capacity(text.len() + 200);
    out.push_str(
        "# Written by `findings init` from docs/workflows/ of findings, with this\n\
         # site's address and the FINDINGS_REPO and FINDINGS_REV below.\n",
    );
    let mut found = [0; 3];
    for line in text.lines() {
        let key = values.iter().position(|(k, _)| {
            line.strip_prefix("  ")
                .and_then(|l| l.strip_prefix(k))
                .is_some_and(|l| l.starts_with(": "))
        });
        match key {
            Some(i) => {
                found[i] += 1;
                let _ = writeln!(out, "  {}: {}", values[i].0, values[i].1);
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    if found[0] > 1 || found[1..] != [1, 1] {
        return Err(InitError::Invalid(format!(
            "a workflow of docs/workflows/ does not set FINDINGS_REPO and FINDINGS_REV once each, and FINDINGS_SITE at most once ({found:?})"
        )));
    }
    Ok(out)
}

/// What in `dir` makes it a site already, if anything.
fn existing_site(dir: &Path) -> Option<String> {
    if std::fs::symlink_metadata(dir.join("site.yaml")).is_ok() {
        return Some("site.yaml".into());
    }
    for sub in ["findings", "data/runs"] {
        let Ok(list) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        let mut names: Vec<String> = list
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with('.'))
            .collect();
        names.sort();
        if let Some(n) = names.first() {
            return Some(format!("records in {sub}/ ({n})"));
        }
    }
    None
}

/// Writes a new site into `opts.dir` (see the module's docs).
pub fn init(opts: &InitOptions) -> Result<Initialized, InitError> {
    let files = files(opts)?;
    let dir = &opts.dir;
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| InitError::Io { path, source }
    };
    match std::fs::metadata(dir) {
        Ok(m) if !m.is_dir() => {
            return Err(InitError::Invalid(format!(
                "{} is a file, not a folder",
                dir.display()
            )))
        }
        Ok(_) => {
            if let Some(what) = existing_site(dir) {
                return Err(InitError::NotEmpty {
                    dir: dir.clone(),
                    what,
                });
            }
        }
        Err(_) => {}
    }
    let mut undo = Undo::default();
    let result = (|| {
        // The folders that do not exist yet, outermost first.
        let mut missing: Vec<PathBuf> = dir
            .ancestors()
            .filter(|a| !a.as_os_str().is_empty() && !a.exists())
            .map(Path::to_path_buf)
            .collect();
        missing.reverse();
        for d in missing {
            std::fs::create_dir(&d).map_err(io(&d))?;
            undo.dirs.push(d);
        }
        let staging = tempfile::Builder::new()
            .prefix(".findings-init-")
            .tempdir_in(dir)
            .map_err(io(dir))?;
        let mut done = Initialized::default();
        for (rel, text) in &files {
            if std::fs::symlink_metadata(dir.join(rel)).is_ok() {
                done.kept.push(rel.clone());
                continue;
            }
            let staged = staging.path().join(rel);
            if let Some(p) = staged.parent() {
                std::fs::create_dir_all(p).map_err(io(rel))?;
            }
            std::fs::write(&staged, text).map_err(io(rel))?;
        }
        for (rel, _) in &files {
            if done.kept.contains(rel) {
                continue;
            }
            let target = dir.join(rel);
            let mut parents: Vec<PathBuf> = target
                .ancestors()
                .skip(1)
                .take_while(|a| *a != dir.as_path() && !a.exists())
                .map(Path::to_path_buf)
                .collect();
            parents.reverse();
            for d in parents {
                std::fs::create_dir(&d).map_err(io(&d))?;
                undo.dirs.push(d);
            }
            if std::fs::symlink_metadata(&target).is_ok() {
                // Made meanwhile by someone else: theirs stays.
                done.kept.push(rel.clone());
                continue;
            }
            std::fs::rename(staging.path().join(rel), &target).map_err(io(rel))?;
            undo.files.push(target);
            done.written.push(rel.clone());
        }
        Ok(done)
    })();
    if result.is_err() {
        undo.run();
    }
    result
}

/// What an `init` made, to take back when it fails half way: files, then
/// folders, newest first.
#[derive(Default)]
struct Undo {
    files: Vec<PathBuf>,
    dirs: Vec<PathBuf>,
}

impl Undo {
    fn run(self) {
        for f in self.files.iter().rev() {
            let _ = std::fs::remove_file(f);
        }
        for d in self.dirs.iter().rev() {
            let _ = std::fs::remove_dir(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_workflow_is_the_documented_one_with_three_values_filled_in() {
        let want = [
            "  FINDINGS_SITE: https://findings.example.com/".to_string(),
            format!("  FINDINGS_REPO: {}", quoted(&findings_repo())),
            format!("  FINDINGS_REV: v{}", env!("CARGO_PKG_VERSION")),
        ];
        for text in [PUBLISH, ANSWER, AUDIT] {
            let filled = filled_workflow(text, "https://findings.example.com/").unwrap();
            let (head, body) = filled.split_at(filled.find("\n# site's").unwrap() + 1);
            assert!(head.starts_with("# Written by `findings init`"));
            let body = body.split_once('\n').unwrap().1;
            assert_eq!(text.lines().count(), body.lines().count());
            for (a, b) in text.lines().zip(body.lines()) {
                assert!(a == b || want.iter().any(|w| w == b), "{b}");
            }
            for w in &want[1..] {
                assert_eq!(body.lines().filter(|l| l == w).count(), 1, "{w}");
            }
            // The site's address wherever the workflow reads one.
            let reads_site = text.contains("$FINDINGS_SITE");
            assert_eq!(body.lines().any(|l| l == want[0]), reads_site);
        }
        assert!(filled_workflow("env:\n  FINDINGS_SITE: x\n", "https://a/").is_err());
    }

    #[test]
    fn base_urls_that_a_workflow_or_yaml_would_read_otherwise_are_refused() {
        assert_eq!(
            base_url("https://a.example/x").unwrap(),
            "https://a.example/x/"
        );
        for bad in [
            "ftp://a/",
            "https://",
            "https:///x",
            "https://a/${{ github.token }}",
            "https://a/ b",
            "https://a/\"",
            "https://a/#x",
        ] {
            assert!(base_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn blurbs_wrap_within_72_columns() {
        let w = wrapped(STANDARD_GROUPS[0].blurb, "      ");
        assert!(w.lines().all(|l| l.len() <= 72 && l.starts_with("      ")));
        assert_eq!(
            w.split_whitespace().collect::<Vec<_>>().join(" "),
            STANDARD_GROUPS[0].blurb
        );
    }
}
