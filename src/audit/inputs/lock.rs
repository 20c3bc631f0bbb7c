//! `uv.lock` and `pyproject.toml`.
//!
//! `uv.lock` pins every package exactly (`[[package]]` with `name` and
//! `version`). `pyproject.toml` lists requirement strings
//! (`[project] dependencies`, `optional-dependencies`,
//! `[dependency-groups]`, uv's `constraint-dependencies` and
//! `override-dependencies`) and Poetry's tables
//! (`[tool.poetry.dependencies]`, where a bare `"0.30.0"` is exact and
//! `"^0.30"` a range). Both are parsed with their spans, so each pin keeps
//! its line.

use super::python::{exact_or_range, parse_requirement};
use super::{line_at, InputError, Reference, Spec, What};
use crate::record::package_name;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// Reads `uv.lock`.
pub fn uv_lock(text: &str, file: &str) -> Result<Vec<Reference>, InputError> {
    let doc = parse(text, file)?;
    let mut out = Vec::new();
    let Some(packages) = get(&doc, &["package"]).and_then(|p| p.get_ref().as_array()) else {
        return Ok(out);
    };
    for package in packages.iter() {
        let Some(name) = package.get_ref().get("name") else {
            continue;
        };
        let Some(name_text) = name.get_ref().as_str() else {
            continue;
        };
        let (spec, at, written) = match package.get_ref().get("version") {
            Some(v) => match v.get_ref().as_str() {
                Some(s) => (
                    Spec::Exact(s.to_string()),
                    v.span().start,
                    format!("{name_text} {s}"),
                ),
                None => (Spec::Unpinned, name.span().start, name_text.to_string()),
            },
            None => (Spec::Unpinned, name.span().start, name_text.to_string()),
        };
        out.push(Reference {
            file: file.to_string(),
            line: line_at(text, at),
            text: written,
            what: What::Package {
                name: package_name(name_text),
                spec,
            },
        });
    }
    Ok(out)
}

/// Reads `pyproject.toml`.
pub fn pyproject(text: &str, file: &str) -> Result<Vec<Reference>, InputError> {
    let doc = parse(text, file)?;
    let mut out = Vec::new();
    let mut strings = |value: Option<&Spanned<DeValue<'_>>>| {
        let Some(list) = value.and_then(|v| v.get_ref().as_array()) else {
            return;
        };
        for item in list.iter() {
            // Groups may include other groups (`{include-group = "dev"}`).
            let Some(s) = item.get_ref().as_str() else {
                continue;
            };
            if let Some((name, spec)) = parse_requirement(s) {
                out.push(Reference {
                    file: file.to_string(),
                    line: line_at(text, item.span().start),
                    text: s.to_string(),
                    what: What::Package { name, spec },
                });
            }
        }
    };
    strings(get(&doc, &["project", "dependencies"]));
    for path in [
        &["project", "optional-dependencies"][..],
        &["dependency-groups"][..],
    ] {
        if let Some(table) = get(&doc, path).and_then(|t| t.get_ref().as_table()) {
            for (_, list) in table.iter() {
                strings(Some(list));
            }
        }
    }
    strings(get(&doc, &["tool", "uv", "constraint-dependencies"]));
    strings(get(&doc, &["tool", "uv", "override-dependencies"]));
    let mut poetry_tables: Vec<&Spanned<DeValue<'_>>> = Vec::new();
    poetry_tables.extend(get(&doc, &["tool", "poetry", "dependencies"]));
    poetry_tables.extend(get(&doc, &["tool", "poetry", "dev-dependencies"]));
    if let Some(groups) =
        get(&doc, &["tool", "poetry", "group"]).and_then(|g| g.get_ref().as_table())
    {
        for (_, group) in groups.iter() {
            poetry_tables.extend(group.get_ref().get("dependencies"));
        }
    }
    for table in poetry_tables {
        let Some(table) = table.get_ref().as_table() else {
            continue;
        };
        for (name, value) in table.iter() {
            if name.get_ref() == "python" {
                continue;
            }
            out.extend(poetry(text, file, name, value));
        }
    }
    // Tables come back in key order; report in the file's order.
    out.sort_by_key(|r| r.line);
    Ok(out)
}

/// One Poetry dependency: `vllm = "0.30.0"`, `vllm = { version = "…" }`,
/// or a list of such tables (one per platform or Python version).
fn poetry(
    text: &str,
    file: &str,
    name: &Spanned<std::borrow::Cow<'_, str>>,
    value: &Spanned<DeValue<'_>>,
) -> Vec<Reference> {
    if let DeValue::Array(list) = value.get_ref() {
        return list
            .iter()
            .flat_map(|item| poetry(text, file, name, item))
            .collect();
    }
    let version = match value.get_ref() {
        DeValue::String(_) => Some(value),
        DeValue::Table(t) => t.get("version"),
        _ => None,
    };
    let (spec, at, written) = match version.and_then(|v| v.get_ref().as_str().map(|s| (v, s))) {
        Some((v, s)) => {
            let s = s.trim();
            // Poetry reads a bare version as exact.
            let spec =
                if s.starts_with(|c: char| c.is_ascii_digit()) && !s.contains([',', '*', ' ']) {
                    Spec::Exact(s.to_string())
                } else {
                    exact_or_range(s)
                };
            (
                spec,
                v.span().start,
                format!("{} = \"{s}\"", name.get_ref()),
            )
        }
        None => match value.get_ref() {
            DeValue::Table(t)
                if t.get("git").is_some() || t.get("url").is_some() || t.get("path").is_some() =>
            {
                (Spec::Url, name.span().start, name.get_ref().to_string())
            }
            _ => (
                Spec::Unpinned,
                name.span().start,
                name.get_ref().to_string(),
            ),
        },
    };
    vec![Reference {
        file: file.to_string(),
        line: line_at(text, at),
        text: written,
        what: What::Package {
            name: package_name(name.get_ref()),
            spec,
        },
    }]
}

fn parse<'i>(text: &'i str, file: &str) -> Result<DeValue<'i>, InputError> {
    DeTable::parse(text)
        .map(|t| DeValue::Table(t.into_inner()))
        .map_err(|e| InputError {
            file: file.to_string(),
            line: e.span().map(|s| line_at(text, s.start)),
            message: format!("is not valid TOML: {}", e.message()),
            hint: None,
        })
}

/// The value at a path of keys.
fn get<'a, 'i>(doc: &'a DeValue<'i>, path: &[&str]) -> Option<&'a Spanned<DeValue<'i>>> {
    let (first, rest) = path.split_first()?;
    let mut at = doc.get(*first)?;
    for key in rest {
        at = at.get_ref().get(*key)?;
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pins(refs: Vec<Reference>) -> Vec<(usize, String, Spec)> {
        refs.into_iter()
            .map(|r| match r.what {
                What::Package { name, spec } => (r.line, name, spec),
                What::Image(_) => unreachable!(),
            })
            .collect()
    }

    #[test]
    fn uv_lock_pins_each_package_on_its_version_line() {
        let text = "version = 1\nrequires-python = \">=3.10\"\n\n[[package]]\nname = \"numpy\"\nversion = \"2.2.0\"\n\n[[package]]\nname = \"vllm\"\nversion = \"0.30.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n\n[[package]]\nname = \"app\"\nsource = { editable = \".\" }\n";
        assert_eq!(
            pins(uv_lock(text, "uv.lock").unwrap()),
            vec![
                (6, "numpy".into(), Spec::Exact("2.2.0".into())),
                (10, "vllm".into(), Spec::Exact("0.30.0".into())),
                (14, "app".into(), Spec::Unpinned),
            ]
        );
    }

    #[test]
    fn pyproject_lists_every_kind_of_dependency() {
        let text = r#"[project]
name = "serve"
dependencies = [
  "vllm[audio]==0.30.0; sys_platform == 'linux'",
  "requests>=2",
]
[project.optional-dependencies]
sglang = ["sglang==0.5.20"]
[dependency-groups]
dev = ["pytest", {include-group = "lint"}]
[tool.uv]
override-dependencies = ["tensorrt-llm==1.3.0rc29"]
[tool.poetry.dependencies]
python = "^3.10"
vllm = "0.30.0"
[tool.poetry.group.gpu.dependencies]
sglang = { version = "^0.5", extras = ["all"] }
ninfer = { git = "https://example.org/ninfer.git" }
tensorrt-llm = [
  { version = "1.3.0rc29", platform = "linux" },
  { version = "^1.3", platform = "darwin" },
]
"#;
        assert_eq!(
            pins(pyproject(text, "pyproject.toml").unwrap()),
            vec![
                (4, "vllm".into(), Spec::Exact("0.30.0".into())),
                (5, "requests".into(), Spec::Range(">=2".into())),
                (8, "sglang".into(), Spec::Exact("0.5.20".into())),
                (10, "pytest".into(), Spec::Unpinned),
                (12, "tensorrt-llm".into(), Spec::Exact("1.3.0rc29".into())),
                (15, "vllm".into(), Spec::Exact("0.30.0".into())),
                (17, "sglang".into(), Spec::Range("^0.5".into())),
                (18, "ninfer".into(), Spec::Url),
                (20, "tensorrt-llm".into(), Spec::Exact("1.3.0rc29".into())),
                (21, "tensorrt-llm".into(), Spec::Range("^1.3".into())),
            ]
        );
    }

    #[test]
    fn invalid_toml_names_its_line() {
        let e = uv_lock("[[package]]\nname = \"vllm\nversion = 1\n", "uv.lock").unwrap_err();
        assert_eq!(e.file, "uv.lock");
        assert_eq!(e.line, Some(2));
        assert!(
            e.message.starts_with("is not valid TOML: "),
            "{}",
            e.message
        );
    }
}
