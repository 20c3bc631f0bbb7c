//! References matched to engines: a [`Pin`] when one version can be read,
//! a [`Problem`] when not.
//!
//! A package belongs to the engine whose `packages` lists it, an image to
//! the one whose `images` lists its repository (or a mirror of it: the same
//! path under another registry); anything else is not an engine and is
//! left alone. A reference that names no version (a range, an unpinned
//! name, a URL, `latest`, a digest alone) is an error, with two exceptions
//! that make it a note: a package whose version another package pin gives
//! (a `pyproject.toml` range beside the `uv.lock` that pins it), and
//! anything whose version `--engine` gives. An image's problem is never
//! excused by a package pin: a container runs what its tag says, whatever
//! the Python environment next to it holds.

use super::inputs::images::tag_version;
use super::inputs::{Reference, Spec, What};
use super::Catalog;
use crate::version::Version;

/// An engine at one version, and where the deployment says so.
#[derive(Debug, Clone)]
pub struct Pin {
    /// Index into [`Catalog::engines`].
    pub engine: usize,
    /// The version read.
    pub version: Version,
    /// The file, `None` for `--engine`.
    pub file: Option<String>,
    /// 1-based line in the file (0 for `--engine`).
    pub line: usize,
    /// As written.
    pub text: String,
}

impl Pin {
    /// `requirements.txt:3`, or `--engine`.
    pub fn place(&self) -> String {
        place(self.file.as_deref(), self.line)
    }
}

/// A reference to an engine from which no version can be read.
#[derive(Debug, Clone)]
pub struct Problem {
    /// Index into [`Catalog::engines`].
    pub engine: usize,
    /// The file.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// As written.
    pub text: String,
    /// What is wrong with it.
    pub message: String,
    /// What to do, or where the version comes from instead.
    pub hint: String,
    /// False when another pin gives the engine a version (a note).
    pub is_error: bool,
}

impl Problem {
    /// `requirements.txt:3`.
    pub fn place(&self) -> String {
        place(Some(&self.file), self.line)
    }
}

fn place(file: Option<&str>, line: usize) -> String {
    match file {
        Some(f) => format!("{f}:{line}"),
        None => "--engine".into(),
    }
}

/// Reads `--engine ID=VERSION` arguments; every malformed one is an error.
pub fn engine_args(catalog: &Catalog, args: &[String]) -> Result<Vec<Pin>, Vec<String>> {
    let mut pins = Vec::new();
    let mut errors = Vec::new();
    let ids: Vec<&str> = catalog.engines.iter().map(|e| e.id.as_str()).collect();
    for arg in args {
        let Some((id, version)) = arg.split_once('=') else {
            errors.push(format!(
                "--engine {arg}: expected ID=VERSION, e.g. --engine vllm=0.30"
            ));
            continue;
        };
        let Some(engine) = catalog.engine(id.trim()) else {
            errors.push(format!(
                "--engine {arg}: unknown engine \"{id}\"; known engines: {}",
                ids.join(", ")
            ));
            continue;
        };
        // A local label (`+cu126`) names a build of the same release.
        let public = version.trim().split('+').next().unwrap_or("");
        match Version::parse(public) {
            Ok(v) => pins.push(Pin {
                engine,
                version: v,
                file: None,
                line: 0,
                text: format!("--engine {arg}"),
            }),
            Err(e) => errors.push(format!("--engine {arg}: {e}")),
        }
    }
    if errors.is_empty() {
        Ok(pins)
    } else {
        Err(errors)
    }
}

/// Matches references to engines; `given` are the `--engine` pins.
pub fn resolve(
    catalog: &Catalog,
    refs: Vec<Reference>,
    given: Vec<Pin>,
) -> (Vec<Pin>, Vec<Problem>) {
    // Each pin and problem with whether it came from an image.
    let mut pins: Vec<(Pin, bool)> = Vec::new();
    let mut problems: Vec<(Problem, bool)> = Vec::new();
    for r in refs {
        let Some((engine, read)) = read_version(catalog, &r) else {
            continue;
        };
        let from_image = matches!(r.what, What::Image(_));
        match read {
            Ok(version) => pins.push((
                Pin {
                    engine,
                    version,
                    file: Some(r.file),
                    line: r.line,
                    text: r.text,
                },
                from_image,
            )),
            Err((message, hint)) => problems.push((
                Problem {
                    engine,
                    file: r.file,
                    line: r.line,
                    text: r.text,
                    message,
                    hint,
                    is_error: true,
                },
                from_image,
            )),
        }
    }
    pins.extend(given.into_iter().map(|p| (p, false)));
    for (p, from_image) in &mut problems {
        // `--engine` excuses anything; a package pin excuses a package.
        let instead = pins.iter().find(|(pin, pin_from_image)| {
            pin.engine == p.engine && (pin.file.is_none() || (!*from_image && !*pin_from_image))
        });
        if let Some((other, _)) = instead {
            p.is_error = false;
            p.hint = format!(
                "{}'s version comes from {} ({}) instead",
                catalog.engines[p.engine].name,
                other.place(),
                other.text
            );
        }
    }
    (
        pins.into_iter().map(|(p, _)| p).collect(),
        problems.into_iter().map(|(p, _)| p).collect(),
    )
}

type Read = Result<Version, (String, String)>;

/// The engine a reference names and the version it pins (or why none can
/// be read); `None` for what is not an engine.
fn read_version(catalog: &Catalog, r: &Reference) -> Option<(usize, Read)> {
    let text = &r.text;
    match &r.what {
        What::Package { name, spec } => {
            let engine = catalog
                .engines
                .iter()
                .position(|e| e.packages.contains(name))?;
            let e = &catalog.engines[engine];
            let hint = || {
                format!(
                    "pin one version ({name}==VERSION; pip-compile, uv and pip freeze write these), audit the lock file, or pass --engine {}=VERSION",
                    e.id
                )
            };
            let read = match spec {
                // A local label (`+cu126`) names a build of the same release.
                Spec::Exact(v) => {
                    let public = v.split('+').next().unwrap_or(v);
                    Version::parse(public).map_err(|err| (format!("`{text}`: {err}"), hint()))
                }
                Spec::Range(range) => Err((
                    format!(
                        "`{text}` allows a range of {} versions ({range}), not one",
                        e.name
                    ),
                    hint(),
                )),
                Spec::Unpinned => Err((
                    format!("`{text}` does not pin a version of {}", e.name),
                    hint(),
                )),
                Spec::Url => Err((
                    format!(
                        "`{text}` installs {} from an address that names no version",
                        e.name
                    ),
                    hint(),
                )),
                Spec::Editable => Err((
                    format!(
                        "`{text}` installs {} from source, which names no version",
                        e.name
                    ),
                    format!(
                        "pass the version the source is at: --engine {}=VERSION",
                        e.id
                    ),
                )),
            };
            Some((engine, read))
        }
        What::Image(image) => {
            let engine = catalog
                .engines
                .iter()
                .position(|e| e.images.iter().any(|i| same_image(&image.repository, i)))?;
            let e = &catalog.engines[engine];
            let hint = format!(
                "use a release tag ({}:v0.30.0 style; a digest may follow it), or pass --engine {}=VERSION",
                image.repository, e.id
            );
            // A variable left unset matters only when the tag is not read
            // without it (it may have stood for the registry).
            // A variable left unset matters only when the tag cannot be read
            // without it: it may have stood for the registry.
            let version = image.tag.as_deref().and_then(tag_version);
            let read = match (version, image.tag.as_deref(), &image.unresolved) {
                (Some(version), _, _) => Ok(version),
                (None, _, Some(var)) => Err((
                    format!("`{text}` takes its tag from ${var}, which has no value in this file"),
                    format!(
                        "give {var} a default in the file, or pass --engine {}=VERSION",
                        e.id
                    ),
                )),
                (None, Some(tag), None) => Err((
                    format!("`{text}`: the tag \"{tag}\" names no version of {}", e.name),
                    hint,
                )),
                (None, None, None) if image.digest => Err((
                    format!(
                        "`{text}` pins a {} image by digest alone, which names no version",
                        e.name
                    ),
                    hint,
                )),
                (None, None, None) => Err((
                    format!("`{text}` has no tag, so it runs whatever `latest` is"),
                    hint,
                )),
            };
            Some((engine, read))
        }
    }
}

/// Whether `repository` is `image`, or a mirror of it: the same path under
/// another registry (`registry.local:5000/vllm/vllm-openai`), also for an
/// image whose own registry the mirror leaves out
/// (`mirror.local/nvidia/tensorrt-llm/release`).
fn same_image(repository: &str, image: &str) -> bool {
    if repository == image {
        return true;
    }
    let path = match image.split_once('/') {
        // A first part with a dot or a colon is a registry.
        Some((host, rest)) if host.contains(['.', ':']) => rest,
        _ => image,
    };
    repository.ends_with(&format!("/{image}")) || repository.ends_with(&format!("/{path}"))
}

#[cfg(test)]
mod tests {
    use super::same_image;

    #[test]
    fn mirrors_keep_the_repository_path() {
        assert!(same_image("vllm/vllm-openai", "vllm/vllm-openai"));
        assert!(same_image(
            "registry.local:5000/vllm/vllm-openai",
            "vllm/vllm-openai"
        ));
        assert!(same_image(
            "mirror.local/nvidia/tensorrt-llm/release",
            "nvcr.io/nvidia/tensorrt-llm/release"
        ));
        assert!(!same_image("myorg/vllm-openai", "vllm/vllm-openai"));
        assert!(!same_image("evilvllm/vllm-openai", "vllm/vllm-openai"));
    }
}
