//! The files a deployment pins its engines in, read into [`Reference`]s.
//!
//! Each kind of file is read by its own module: [`python`] (requirements
//! files and `pip freeze` output), [`lock`] (`uv.lock`, `pyproject.toml`)
//! and [`images`] (Dockerfiles, compose files, Kubernetes manifests). The
//! kind comes from the file's name ([`Kind::of`]). Readers keep every
//! package and image they meet with its line, whether or not an engine owns
//! it: [`super::resolve`] decides, so that these modules know nothing of
//! the site.

pub mod images;
pub mod lock;
pub mod python;

use std::path::{Path, PathBuf};

/// A package or image named in an input, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The file, as given on the command line (`-` for standard input).
    pub file: String,
    /// 1-based line of the pin.
    pub line: usize,
    /// The pin as written (`vllm[audio]==0.30.0`, `vllm/vllm-openai:v0.30.0`).
    pub text: String,
    /// What it names.
    pub what: What,
}

/// What a [`Reference`] names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum What {
    /// A Python package ([`crate::record::package_name`] form) and how it is pinned.
    Package {
        /// Normalized name.
        name: String,
        /// The version it is held to.
        spec: Spec,
    },
    /// A container image.
    Image(images::ImageRef),
}

/// How a requirement holds a package's version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// `==V` or `===V` (the version as written, local label included).
    Exact(String),
    /// Any other specifier (`>=0.30`, `~=0.30.0`, `==0.30.*`, `^0.30`).
    Range(String),
    /// No version at all.
    Unpinned,
    /// `name @ url`: a direct reference, which names no version.
    Url,
    /// `-e …`: an editable install from source.
    Editable,
}

/// The kinds of input, by file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `requirements*.txt`, `*.txt`, `*.in`, `pip freeze` output, `-`.
    Requirements,
    /// `uv.lock`.
    UvLock,
    /// `pyproject.toml`.
    Pyproject,
    /// `Dockerfile`, `Containerfile`, `*.Dockerfile`, `Dockerfile.*`.
    Dockerfile,
    /// `*.yaml`, `*.yml`: compose files, Kubernetes manifests.
    Manifest,
}

impl Kind {
    /// The kind of input a file is, from its name; `None` when the name
    /// says nothing.
    pub fn of(path: &Path) -> Option<Kind> {
        let name = path.file_name()?.to_str()?;
        let lower = name.to_ascii_lowercase();
        let ext = lower.rsplit_once('.').map(|(_, e)| e);
        Some(if name == "-" {
            Kind::Requirements
        } else if lower == "uv.lock" {
            Kind::UvLock
        } else if lower == "pyproject.toml" {
            Kind::Pyproject
        } else if lower == "dockerfile"
            || lower == "containerfile"
            || lower.starts_with("dockerfile.")
            || lower.starts_with("containerfile.")
            || matches!(ext, Some("dockerfile" | "containerfile"))
        {
            Kind::Dockerfile
        } else if matches!(ext, Some("yaml" | "yml")) {
            Kind::Manifest
        } else if matches!(ext, Some("txt" | "in")) || lower.contains("requirements") {
            Kind::Requirements
        } else {
            return None;
        })
    }
}

/// Why an input could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct InputError {
    /// The file.
    pub file: String,
    /// The line, when the problem has one.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

/// Reads every input, following requirement files' `-r` and `-c`. Returns
/// what they name, and every file that could not be read (all of them, not
/// only the first).
pub fn read_all(files: &[PathBuf]) -> (Vec<Reference>, Vec<InputError>) {
    let mut refs = Vec::new();
    let mut errors = Vec::new();
    let mut visited = Vec::new();
    for path in files {
        read_one(path, None, &mut visited, &mut refs, &mut errors);
    }
    (refs, errors)
}

/// Reads one input into `refs`, as `kind` or the kind its name says;
/// `visited` stops `-r` loops.
fn read_one(
    path: &Path,
    kind: Option<Kind>,
    visited: &mut Vec<PathBuf>,
    refs: &mut Vec<Reference>,
    errors: &mut Vec<InputError>,
) {
    let shown = shown(path);
    let Some(kind) = kind.or_else(|| Kind::of(path)) else {
        errors.push(InputError {
            file: shown,
            line: None,
            message: "cannot tell what kind of file this is from its name".into(),
            hint: Some(
                "audit reads requirements files (*.txt, *.in), uv.lock, pyproject.toml, Dockerfiles and *.yaml manifests; rename a copy, or pass --engine ID=VERSION".into(),
            ),
        });
        return;
    };
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if visited.contains(&canonical) {
        return;
    }
    visited.push(canonical);
    let text = if shown == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map(|_| s)
    } else {
        std::fs::read_to_string(path)
    };
    // pip and Docker both skip a byte-order mark; so must we, or the first
    // line is lost.
    let text = text.map(|t| match t.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => t,
    });
    let text = match text {
        Ok(t) => t,
        Err(e) => {
            errors.push(InputError {
                file: shown,
                line: None,
                message: format!("cannot read it: {e}"),
                hint: None,
            });
            return;
        }
    };
    match kind {
        Kind::Requirements => {
            let read = python::requirements(&text, &shown);
            refs.extend(read.references);
            for (line, include) in read.includes {
                let base = path.parent().unwrap_or(Path::new("."));
                let target = base.join(&include);
                if target.exists() {
                    // What -r and -c name is a requirements file, whatever its name.
                    read_one(&target, Some(Kind::Requirements), visited, refs, errors);
                } else {
                    errors.push(InputError {
                        file: shown.clone(),
                        line: Some(line),
                        message: format!("includes {include}, which does not exist"),
                        hint: Some(
                            "paths in -r and -c are relative to the file that names them".into(),
                        ),
                    });
                }
            }
        }
        Kind::UvLock => match lock::uv_lock(&text, &shown) {
            Ok(r) => refs.extend(r),
            Err(e) => errors.push(e),
        },
        Kind::Pyproject => match lock::pyproject(&text, &shown) {
            Ok(r) => refs.extend(r),
            Err(e) => errors.push(e),
        },
        Kind::Dockerfile => refs.extend(images::dockerfile(&text, &shown)),
        Kind::Manifest => refs.extend(images::manifest(&text, &shown)),
    }
}

/// A path as the command line gave it, without a leading `./`: the form
/// GitHub expects in an annotation's `file=`.
fn shown(path: &Path) -> String {
    let s = path.to_string_lossy();
    s.strip_prefix("./").unwrap_or(&s).to_string()
}

/// How lines continue with a trailing `\`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Continuation {
    /// As pip reads requirements: `\` must end the line, and a comment
    /// line never continues; comment lines are kept (pip freeze writes
    /// facts in them).
    Pip,
    /// As Docker reads a Dockerfile: white space may follow the `\`, and
    /// comment lines are dropped, also inside an instruction.
    Docker,
}

/// Logical lines: physical lines joined where one ends in `\`, each with
/// the 1-based number of its first line.
fn logical_lines(text: &str, style: Continuation) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let comment = raw.trim_start().starts_with('#');
        if comment && style == Continuation::Docker {
            continue;
        }
        let (start, mut joined) = current.take().unwrap_or((i + 1, String::new()));
        let end = match style {
            Continuation::Pip => raw,
            Continuation::Docker => raw.trim_end(),
        };
        match end.strip_suffix('\\').filter(|_| !comment) {
            Some(head) => {
                joined.push_str(head);
                joined.push(' ');
                current = Some((start, joined));
            }
            None => {
                joined.push_str(raw);
                out.push((start, joined));
            }
        }
    }
    out.extend(current);
    out
}

/// 1-based line of a byte offset.
fn line_at(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}
