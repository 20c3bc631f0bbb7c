//! Container images: `FROM` in Dockerfiles, `image:` in compose files and
//! Kubernetes manifests, and the rule that reads a version from a tag.
//!
//! **Tag rule** ([`tag_version`]): the tag without a leading `v`, read as a
//! version (`v0.30.0` → 0.30.0, `1.3.0rc29`). What follows a `-` is a
//! pre-release only when it starts with `rc`, `alpha`, `beta`, `pre`, `dev`
//! or `post` (`0.6.0-rc.1`); anything else is a build suffix and is dropped
//! (`v0.5.20-cu126` → 0.5.20, `v0.30.0-b200` → 0.30.0: a GPU, not a beta). A
//! tag with no version in it (`latest`, `nightly`), no tag, or a digest
//! alone names no version, and the caller reports it.
//!
//! Variables are expanded where the file gives a value: a Dockerfile's
//! `ARG NAME=default` before the `FROM`, and `${NAME:-default}` in either
//! kind of file. Build arguments and `.env` files are not read; a tag left
//! to one is reported as unreadable.

use super::{logical_lines, Continuation, Reference, What};
use crate::record::image_repository;
use crate::version::Version;
use std::collections::HashMap;

/// An image reference, split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRef {
    /// The repository, normalized ([`image_repository`]).
    pub repository: String,
    /// The tag, after variables were expanded.
    pub tag: Option<String>,
    /// Whether a digest (`@sha256:…`) is given.
    pub digest: bool,
    /// A variable the reference uses that has no value here.
    pub unresolved: Option<String>,
}

/// Splits `registry/repo:tag@digest`. A colon before the last `/` is a
/// registry's port (`host:5000/repo`), not a tag.
pub fn parse_image(reference: &str) -> ImageRef {
    let (name, digest) = match reference.split_once('@') {
        Some((n, _)) => (n, true),
        None => (reference, false),
    };
    let last = name.rfind('/').map_or(0, |i| i + 1);
    let (repo, tag) = match name[last..].rfind(':') {
        Some(i) => (&name[..last + i], Some(name[last + i + 1..].to_string())),
        None => (name, None),
    };
    ImageRef {
        repository: image_repository(repo),
        tag: tag.filter(|t| !t.is_empty()),
        digest,
        unresolved: None,
    }
}

/// The version a tag names, by the tag rule (see the module docs).
pub fn tag_version(tag: &str) -> Option<Version> {
    let t = tag.strip_prefix(['v', 'V']).unwrap_or(tag);
    match t.split_once('-') {
        Some((head, suffix)) => {
            let s = suffix.to_ascii_lowercase();
            let pre = ["rc", "alpha", "beta", "pre", "dev", "post"]
                .iter()
                .any(|label| s.starts_with(label));
            if pre {
                Version::parse(t).ok()
            } else {
                Version::parse(head).ok()
            }
        }
        None => Version::parse(t).ok(),
    }
}

/// The images a Dockerfile's `FROM` lines use (not earlier stages).
pub fn dockerfile(text: &str, file: &str) -> Vec<Reference> {
    let mut args: HashMap<String, String> = HashMap::new();
    let mut stages: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for (line, logical) in logical_lines(text, Continuation::Docker) {
        let mut words = logical.split_whitespace();
        let Some(instruction) = words.next() else {
            continue;
        };
        match instruction.to_ascii_uppercase().as_str() {
            "ARG" => {
                for word in words {
                    if let Some((name, value)) = word.split_once('=') {
                        // A default may use earlier ARGs (`ARG IMAGE=${REPO}:${TAG}`).
                        let (value, _) = expand(unquote(value), &args);
                        args.insert(name.to_string(), value);
                    }
                }
            }
            "FROM" => {
                let rest: Vec<&str> = words.filter(|w| !w.starts_with("--")).collect();
                let Some(image) = rest.first() else {
                    continue;
                };
                let earlier_stage = stages.contains(&image.to_ascii_lowercase());
                if let [_, as_, stage, ..] = rest[..] {
                    if as_.eq_ignore_ascii_case("as") {
                        stages.push(stage.to_ascii_lowercase());
                    }
                }
                if !earlier_stage && !image.eq_ignore_ascii_case("scratch") {
                    out.push(image_reference(file, line, image, &args));
                }
            }
            _ => {}
        }
    }
    out
}

/// The images a compose file or Kubernetes manifest names (`image:` keys,
/// in any document of the file). Read line by line, so that each keeps its
/// line; the text of block scalars (`notes: |`) is skipped, so an `image:`
/// quoted in a ConfigMap's data is not taken for one.
pub fn manifest(text: &str, file: &str) -> Vec<Reference> {
    let mut out = Vec::new();
    let no_args = HashMap::new();
    // The indentation of the key whose block scalar is being skipped.
    let mut block: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let indent = raw.len() - raw.trim_start().len();
        if let Some(key_indent) = block {
            if raw.trim().is_empty() || indent > key_indent {
                continue;
            }
            block = None;
        }
        let t = raw.trim_start();
        let t = t.strip_prefix("- ").map_or(t, str::trim_start);
        let value = strip_yaml_comment(t.split_once(':').map_or("", |(_, v)| v)).trim();
        if value.starts_with(['|', '>']) {
            block = Some(indent);
            continue;
        }
        if !t.starts_with("image:") {
            continue;
        }
        // An anchor (`&img`) names the value; the value follows it.
        let value = match value.strip_prefix('&') {
            Some(anchored) => anchored
                .split_once(char::is_whitespace)
                .map_or("", |(_, v)| v),
            None => value,
        };
        let value = unquote(value.trim());
        if value.is_empty() || value.starts_with(['{', '*', '[']) {
            continue;
        }
        out.push(image_reference(file, i + 1, value, &no_args));
    }
    out
}

/// A YAML value without its comment: `#` after a space or a tab.
fn strip_yaml_comment(value: &str) -> &str {
    let b = value.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'#' && (i == 0 || b[i - 1] == b' ' || b[i - 1] == b'\t') {
            return &value[..i];
        }
    }
    value
}

fn image_reference(
    file: &str,
    line: usize,
    written: &str,
    args: &HashMap<String, String>,
) -> Reference {
    let (expanded, unresolved) = expand(written, args);
    let mut image = parse_image(&expanded);
    image.unresolved = unresolved;
    Reference {
        file: file.to_string(),
        line,
        text: written.to_string(),
        what: What::Image(image),
    }
}

/// Expands `$NAME`, `${NAME}` and `${NAME:-default}` (or `-default`) from
/// `args`; returns the first variable with no value, expanded to nothing.
fn expand(text: &str, args: &HashMap<String, String>) -> (String, Option<String>) {
    let mut out = String::with_capacity(text.len());
    let mut missing = None;
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (body, tail) = if let Some(inner) = after.strip_prefix('{') {
            match inner.find('}') {
                Some(close) => (&inner[..close], &inner[close + 1..]),
                None => (inner, ""),
            }
        } else {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        let (name, default) = match body.split_once(":-").or_else(|| body.split_once('-')) {
            Some((n, d)) => (n, Some(d)),
            None => (body, None),
        };
        match args
            .get(name)
            .filter(|v| !v.is_empty())
            .map(String::as_str)
            .or(default)
        {
            Some(v) => out.push_str(v),
            None => {
                missing.get_or_insert_with(|| name.to_string());
            }
        }
        rest = tail;
    }
    out.push_str(rest);
    (out, missing)
}

fn unquote(s: &str) -> &str {
    let s = s.trim();
    for q in ['"', '\''] {
        if let Some(inner) = s.strip_prefix(q).and_then(|x| x.strip_suffix(q)) {
            return inner;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn images(refs: Vec<Reference>) -> Vec<(usize, ImageRef)> {
        refs.into_iter()
            .map(|r| match r.what {
                What::Image(i) => (r.line, i),
                What::Package { .. } => unreachable!(),
            })
            .collect()
    }

    fn image(repo: &str, tag: Option<&str>, digest: bool) -> ImageRef {
        ImageRef {
            repository: repo.into(),
            tag: tag.map(Into::into),
            digest,
            unresolved: None,
        }
    }

    #[test]
    fn the_tag_rule() {
        let v = |t: &str| tag_version(t).map(|v| v.to_string());
        assert_eq!(v("v0.30.0").as_deref(), Some("0.30.0"));
        assert_eq!(v("v0.5.20-cu126").as_deref(), Some("0.5.20"));
        assert_eq!(v("1.3.0rc29").as_deref(), Some("1.3.0rc29"));
        assert_eq!(v("0.6.0-rc.1").as_deref(), Some("0.6.0-rc.1"));
        assert_eq!(v("v0.30.0-b200").as_deref(), Some("0.30.0"));
        assert_eq!(v("v0.30.0-a100-cu128").as_deref(), Some("0.30.0"));
        assert_eq!(v("2.0.0-dev3").as_deref(), Some("2.0.0-dev3"));
        assert_eq!(v("latest"), None);
        assert_eq!(v("nightly-2026-11-30"), None);
    }

    #[test]
    fn references_split_into_repository_tag_and_digest() {
        assert_eq!(
            parse_image("docker.io/vllm/vllm-openai:v0.30.0@sha256:abc"),
            image("vllm/vllm-openai", Some("v0.30.0"), true)
        );
        assert_eq!(
            parse_image("registry.local:5000/lmsysorg/sglang"),
            image("registry.local:5000/lmsysorg/sglang", None, false)
        );
        assert_eq!(
            parse_image("vllm/vllm-openai@sha256:abc"),
            image("vllm/vllm-openai", None, true)
        );
    }

    #[test]
    fn dockerfile_reads_from_with_args_stages_and_continuations() {
        let text = "\
# syntax=docker/dockerfile:1
ARG REPO=lmsysorg/sglang
ARG SGLANG_TAG=v0.5.20-cu126 IMAGE=\"${REPO}:${SGLANG_TAG}\"
FROM --platform=linux/amd64 ${IMAGE} AS base
RUN pip install x
FROM base AS app
FROM \\
    nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc29
FROM vllm/vllm-openai:$VLLM_TAG
FROM scratch
";
        assert_eq!(
            images(dockerfile(text, "Dockerfile")),
            vec![
                (4, image("lmsysorg/sglang", Some("v0.5.20-cu126"), false)),
                (
                    7,
                    image(
                        "nvcr.io/nvidia/tensorrt-llm/release",
                        Some("1.3.0rc29"),
                        false
                    )
                ),
                (
                    9,
                    ImageRef {
                        unresolved: Some("VLLM_TAG".into()),
                        ..image("vllm/vllm-openai", None, false)
                    }
                ),
            ]
        );
    }

    #[test]
    fn manifests_read_every_image_key() {
        let text = "\
services:
  llm:
    image: \"vllm/vllm-openai:v0.30.0\"  # F3 applies
  router:
    image: ${ROUTER_IMAGE:-lmsysorg/sglang:v0.5.20}
  cache:
    image: &cache nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc29\t# pinned
---
kind: ConfigMap
data:
  notes: |
    image: vllm/vllm-openai:v0.27.1
    not a key
  next: 1
---
spec:
  containers:
    - image: nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc29
      name: trt
";
        assert_eq!(
            images(manifest(text, "compose.yaml")),
            vec![
                (3, image("vllm/vllm-openai", Some("v0.30.0"), false)),
                (5, image("lmsysorg/sglang", Some("v0.5.20"), false)),
                (
                    7,
                    image(
                        "nvcr.io/nvidia/tensorrt-llm/release",
                        Some("1.3.0rc29"),
                        false
                    )
                ),
                (
                    18,
                    image(
                        "nvcr.io/nvidia/tensorrt-llm/release",
                        Some("1.3.0rc29"),
                        false
                    )
                ),
            ]
        );
    }
}
