//! Requirements files and `pip freeze` output, and the PEP 508 requirement
//! strings that `pyproject.toml` lists too.
//!
//! What real files hold, and how each is read: comments (`#` at the start
//! or after a space; `#egg=` inside a URL is not one), lines continued with
//! `\` (hashes usually), per-requirement options (`--hash=…`), extras
//! (`vllm[audio]`), environment markers (`; python_version >= "3.10"`,
//! kept as written, not evaluated), the old `name (==1.0)` form, a direct
//! reference (`vllm @ https://…`, `pip freeze`'s `@ file://…`), editable
//! installs (`-e git+…#egg=vllm`), a wheel given by its file name, and
//! `-r`/`-c` includes (returned, for the caller to read).

use super::{logical_lines, Continuation, Reference, Spec, What};
use crate::record::package_name;

/// What a requirements file holds.
#[derive(Debug, Default)]
pub struct Requirements {
    /// Its packages.
    pub references: Vec<Reference>,
    /// Files it includes with `-r` or `-c`: (line, path as written).
    pub includes: Vec<(usize, String)>,
}

/// Reads a requirements file or `pip freeze` output.
pub fn requirements(text: &str, file: &str) -> Requirements {
    let mut out = Requirements::default();
    // `pip freeze` writes the name and version of an editable install
    // without a `#egg=` in a comment above it.
    let mut editable_comment: Option<String> = None;
    for (line, logical) in logical_lines(text, Continuation::Pip) {
        let content = strip_comment(&logical).trim();
        if content.is_empty() {
            editable_comment = editable_name(&logical).or(editable_comment);
            continue;
        }
        let reference = |text: &str, name: String, spec: Spec| Reference {
            file: file.to_string(),
            line,
            text: text.to_string(),
            what: What::Package { name, spec },
        };
        if let Some(option) = content.strip_prefix('-') {
            let (flag, value) = split_option(option);
            match flag {
                "r" | "-requirement" | "c" | "-constraint" if !value.is_empty() => {
                    out.includes.push((line, value.to_string()));
                }
                "e" | "-editable" => {
                    // Without `#egg=`: the comment pip freeze writes, or the
                    // folder's name. A source install of an engine must not
                    // pass unseen.
                    let name = egg_name(value)
                        .or_else(|| editable_comment.take())
                        .or_else(|| folder_name(value));
                    if let Some(name) = name {
                        out.references
                            .push(reference(content, name, Spec::Editable));
                    }
                }
                _ => {}
            }
            continue;
        }
        // Options after a requirement (`--hash=…`) belong to pip, not to it.
        let requirement = content
            .split_once(" --")
            .or_else(|| content.split_once("\t--"))
            .map_or(content, |(r, _)| r)
            .trim();
        if let Some((name, spec)) = wheel(requirement) {
            out.references.push(reference(requirement, name, spec));
        } else if let Some((name, spec)) = parse_requirement(requirement) {
            out.references.push(reference(requirement, name, spec));
        }
    }
    out
}

/// A PEP 508 requirement's name and how its version is held; `None` when
/// the text does not start with a name.
pub fn parse_requirement(text: &str) -> Option<(String, Spec)> {
    let s = text.trim();
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(s.len());
    if end == 0 {
        return None;
    }
    let name = package_name(&s[..end]);
    let mut rest = s[end..].trim_start();
    if rest.starts_with('[') {
        rest = rest
            .find(']')
            .map_or("", |close| rest[close + 1..].trim_start());
    }
    if rest.starts_with('@') {
        return Some((name, Spec::Url));
    }
    // A marker (`; python_version >= "3.10"`) says where, not which version.
    let rest = rest.split(';').next().unwrap_or("").trim();
    let rest = rest
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(rest)
        .trim();
    if rest.is_empty() {
        return Some((name, Spec::Unpinned));
    }
    Some((name, exact_or_range(rest)))
}

/// `==V` or `===V` (one specifier, no wildcard) is exact; anything else a
/// range.
pub fn exact_or_range(spec: &str) -> Spec {
    let parts: Vec<&str> = spec
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if let [one] = parts[..] {
        if let Some(v) = one.strip_prefix("===").or_else(|| one.strip_prefix("==")) {
            let v = v.trim();
            if !v.is_empty() && !v.contains('*') {
                return Spec::Exact(v.to_string());
            }
        }
    }
    Spec::Range(spec.to_string())
}

/// The line without its comment: `#` at the start or after white space.
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'#' && (i == 0 || bytes[i - 1].is_ascii_whitespace()) {
            return &line[..i];
        }
    }
    line
}

/// `r file`, `-requirement=file`, `rfile` → (flag, value).
fn split_option(option: &str) -> (&str, &str) {
    if let Some(long) = option.strip_prefix('-') {
        let end = long
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(long.len());
        let value = long[end..].trim_start_matches('=').trim();
        return (&option[..end + 1], value);
    }
    let mut chars = option.char_indices();
    match chars.next() {
        Some((_, c)) => {
            let at = c.len_utf8();
            (&option[..at], option[at..].trim())
        }
        None => ("", ""),
    }
}

/// The package an editable install names with `#egg=`.
fn egg_name(value: &str) -> Option<String> {
    let (_, fragment) = value.split_once("#egg=")?;
    let name = fragment.split(['&', ' ', '[']).next()?;
    (!name.is_empty()).then(|| package_name(name))
}

/// The package of `# Editable install with no version control
/// (vllm==0.30.0)` and the like.
fn editable_name(comment: &str) -> Option<String> {
    let c = comment.trim_start().strip_prefix('#')?.trim();
    if !c.starts_with("Editable") {
        return None;
    }
    let inner = c.rsplit_once('(')?.1.strip_suffix(')')?;
    let name = inner.split("==").next()?.trim();
    (!name.is_empty()).then(|| package_name(name))
}

/// The last folder of an editable install's path or address
/// (`/src/vllm`, `file:///src/vllm/`, `git+https://…/vllm.git@v1`).
fn folder_name(value: &str) -> Option<String> {
    let v = value.split(['#', ' ']).next()?.trim_end_matches('/');
    let last = v.rsplit('/').next()?;
    let last = last.split('@').next()?.trim_end_matches(".git");
    (!last.is_empty() && !last.contains(':')).then(|| package_name(last))
}

/// A wheel given by its file name or address
/// (`vllm-0.30.0-cp38-abi3-manylinux1_x86_64.whl`, or `vllm @
/// https://…/vllm-0.30.0%2Bcu126-….whl#sha256=… ; python_version >= "3.10"`):
/// name and exact version.
fn wheel(requirement: &str) -> Option<(String, Spec)> {
    let address = requirement.split(';').next()?.trim();
    let address = address.split('#').next()?;
    let file = address.rsplit('/').next()?;
    let file = percent_encoding::percent_decode_str(file)
        .decode_utf8()
        .ok()?;
    let stem = file.strip_suffix(".whl")?;
    let mut parts = stem.split('-');
    let name = parts.next()?;
    let version = parts.next()?;
    Some((package_name(name), Spec::Exact(version.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<(usize, String, Spec)> {
        requirements(text, "requirements.txt")
            .references
            .into_iter()
            .map(|r| match r.what {
                What::Package { name, spec } => (r.line, name, spec),
                What::Image(_) => unreachable!(),
            })
            .collect()
    }

    #[test]
    fn reads_what_pip_freeze_and_pip_compile_write() {
        let text = "\
# via -r requirements.in
vllm[audio,video]==0.30.0 ; python_version >= \"3.10\"  # pinned for F3
Torch===2.9.0
sglang == 0.5.20 \\
    --hash=sha256:0123 \\
    --hash=sha256:4567
tensorrt_llm>=1.3,<1.4
-e git+https://github.com/vllm-project/vllm@abc123#egg=vllm
ninfer @ file:///wheels/ninfer-1.0.tar.gz
flash-attn
numpy==2.*
./wheels/TensorRT_LLM-1.3.0rc29-cp312-cp312-linux_x86_64.whl
# C:\\models\\ \\
sglang @ https://example.org/w/sglang-0.5.20%2Bcu126-py3-none-any.whl#sha256=ab ; python_version >= \"3.10\"
# Editable install with no version control (vllm==0.30.0)
-e /src/vllm
-e file:///src/SGLang/
";
        assert_eq!(
            read(text),
            vec![
                (2, "vllm".into(), Spec::Exact("0.30.0".into())),
                (3, "torch".into(), Spec::Exact("2.9.0".into())),
                (4, "sglang".into(), Spec::Exact("0.5.20".into())),
                (7, "tensorrt-llm".into(), Spec::Range(">=1.3,<1.4".into())),
                (8, "vllm".into(), Spec::Editable),
                (9, "ninfer".into(), Spec::Url),
                (10, "flash-attn".into(), Spec::Unpinned),
                (11, "numpy".into(), Spec::Range("==2.*".into())),
                (12, "tensorrt-llm".into(), Spec::Exact("1.3.0rc29".into())),
                (14, "sglang".into(), Spec::Exact("0.5.20+cu126".into())),
                (16, "vllm".into(), Spec::Editable),
                (17, "sglang".into(), Spec::Editable),
            ]
        );
    }

    #[test]
    fn includes_are_returned_with_their_line() {
        let r = requirements(
            "-r base.txt\n--constraint=pins.txt\n-rdev.txt\n--index-url https://x\n",
            "r.txt",
        );
        assert_eq!(
            r.includes,
            vec![
                (1, "base.txt".to_string()),
                (2, "pins.txt".to_string()),
                (3, "dev.txt".to_string())
            ]
        );
        assert!(r.references.is_empty());
    }

    #[test]
    fn old_style_parentheses_and_exact_forms() {
        assert_eq!(
            parse_requirement("vllm (==0.30.0)"),
            Some(("vllm".into(), Spec::Exact("0.30.0".into())))
        );
        assert_eq!(exact_or_range("~=0.30.0"), Spec::Range("~=0.30.0".into()));
        assert_eq!(
            exact_or_range("==0.30,!=0.30.1"),
            Spec::Range("==0.30,!=0.30.1".into())
        );
        assert_eq!(parse_requirement("# nothing"), None);
    }
}
