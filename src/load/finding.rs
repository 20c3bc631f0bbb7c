//! Findings: one `findings/<slug>.md` each, YAML front matter between two
//! `---` lines, then a Markdown body. Takes a file's text (or, for a file
//! that could not be read as text, its first bytes, for the id); hands on a
//! [`Finding`] with its body and field positions, or its id and diagnostics.

use super::fields::{name_list, Doc};
use super::files::inside;
use super::prose::list_break_warning;
use super::yaml::{parse_yaml, Value};
use super::{is_slug, ENTRY_FIELDS, FINDING_FIELDS, LINK_FIELDS, LINK_KINDS};
use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::record::{EngineEntry, Finding, FoundBy, Link, Status, Withdrawn};
use std::path::Path;

/// Splits a finding file into front matter and body. Returns the front
/// matter text and the line on which the body starts.
fn split_front_matter<'t>(
    file: &Path,
    text: &'t str,
    diags: &mut Diagnostics,
) -> Option<(&'t str, &'t str, usize)> {
    if text.trim().is_empty() {
        diags.push(
            Diagnostic::error(file, Span::new(1, 1), "the file is empty")
                .hint("a finding starts with front matter between two `---` lines"),
        );
        return None;
    }
    let Some(after_open) = text.strip_prefix("---\n") else {
        diags.push(
            Diagnostic::error(file, Span::new(1, 1), "the file does not start with front matter")
                .hint("put `---` on the first line, the YAML fields, then `---` again, then the Markdown body"),
        );
        return None;
    };
    let mut offset = 0;
    for (i, line) in after_open.split_inclusive('\n').enumerate() {
        if line.trim_end() == "---" {
            let front = &after_open[..offset];
            let body = &after_open[offset + line.len()..];
            return Some((front, body, i + 3));
        }
        offset += line.len();
    }
    diags.push(
        Diagnostic::error(
            file,
            Span::new(1, 1),
            "the front matter has no closing `---`",
        )
        .hint("end the YAML fields with a line that holds only `---`"),
    );
    None
}

/// The id of a finding file that could not be read as text (too big, not
/// UTF-8), from the start of its front matter, if it is there.
pub(super) fn peek_id(root: &Path, rel: &Path) -> Option<u32> {
    use std::io::Read;
    let path = root.join(rel);
    if !std::fs::metadata(&path).ok()?.is_file() || !inside(root, &path) {
        return None;
    }
    let mut head = Vec::new();
    std::fs::File::open(&path)
        .ok()?
        .take(64 * 1024)
        .read_to_end(&mut head)
        .ok()?;
    let text = String::from_utf8_lossy(&head).replace("\r\n", "\n");
    let front = text.strip_prefix("---\n")?;
    let end = front.find("\n---").unwrap_or(front.len());
    id_in_text(&front[..end])
}

/// The `id: N` line of front matter that could not be parsed, if any.
fn id_in_text(front: &str) -> Option<u32> {
    front.lines().find_map(|l| {
        let v = l.strip_prefix("id:")?;
        let v = v.split(" #").next().unwrap_or(v).trim();
        v.parse::<u32>().ok().filter(|n| *n > 0)
    })
}

/// Reads one finding. On failure returns its id if that much could be read.
pub(super) fn parse_finding(
    file: &Path,
    text: &str,
    diags: &mut Diagnostics,
) -> Result<Finding, Option<u32>> {
    let slug = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    if !is_slug(&slug) {
        diags.push(
            Diagnostic::error(file, Span::default(), format!("\"{slug}\" is not a valid file name for a finding"))
                .hint("name findings with lowercase letters a-z, digits and '-', e.g. findings/kv-cache-size.md"),
        );
    }
    let (front, body, body_line) = split_front_matter(file, text, diags).ok_or(None)?;
    // When the front matter cannot be read as a whole, its id may still be
    // readable; knowing it keeps other files' links to it from being
    // reported as missing on top of the real problem.
    let (value, spans, raw) = parse_yaml(file, front, 2, diags).ok_or_else(|| id_in_text(front))?;
    let mut doc = Doc::new(file, &spans, &raw, diags);
    if value.is_null() {
        doc.error("", "the front matter is empty");
        return Err(None);
    }
    let obj = doc
        .object(&value, "", FINDING_FIELDS)
        .ok_or_else(|| id_in_text(front))?;
    let id = doc.req_positive_int(obj, "id");
    let fail = || id;
    let title = doc.req_string(obj, "title");
    let group = doc.req_string(obj, "group");
    let advice = doc.req_string(obj, "advice");
    let status = doc
        .choice(
            obj,
            "status",
            &["open", "fixed", "mitigated", "advice"],
            true,
        )
        .map(|s| match s {
            "open" => Status::Open,
            "fixed" => Status::Fixed,
            "mitigated" => Status::Mitigated,
            _ => Status::Advice,
        });
    let status_note = doc.opt_string(obj, "status_note");
    let summary = doc.opt_string(obj, "summary");
    let published = doc.req_date(obj, "published");
    let updated = doc.opt_date(obj, "updated");
    let found_by = match doc.choice(obj, "found_by", &["us", "upstream", "community"], false) {
        Some("upstream") => FoundBy::Upstream,
        Some("community") => FoundBy::Community,
        _ => FoundBy::Us,
    };
    let engine_values = doc.req_list(obj, "engines");
    if matches!(doc.get(obj, "engines"), Some(Value::Sequence(l)) if l.is_empty()) {
        doc.error_hint(
            "engines",
            "at least one engine is required",
            Some("add `- engine: <id>` with the versions tested"),
        );
    }
    let engines = doc.kept("engines", engine_values.unwrap_or(&[]), |doc, e, path| {
        let eo = doc.object(e, path, ENTRY_FIELDS)?;
        let engine = doc.req_string(eo, "engine");
        Some(EngineEntry {
            engine: engine.unwrap_or_default(),
            affected: doc.version_list(eo, "affected"),
            clean: doc.version_list(eo, "clean"),
            seen: doc.version_list(eo, "seen"),
            introduced_in: doc.opt_version(eo, "introduced_in"),
            fixed_in: doc.opt_version(eo, "fixed_in"),
            mitigated_in: doc.opt_version(eo, "mitigated_in"),
            note: doc.opt_string(eo, "note"),
        })
    });
    let models = name_list(&mut doc, obj, "models");
    let hardware = doc.string_list(obj, "hardware");
    let tags = name_list(&mut doc, obj, "tags");
    let link_values = doc.list(obj, "links");
    let links = doc.kept("links", link_values, |doc, l, path| {
        let lo = doc.object(l, path, LINK_FIELDS)?;
        let label = doc.req_string(lo, "label");
        let url = doc.req_string(lo, "url");
        let kind = doc
            .choice(lo, "kind", LINK_KINDS, false)
            .map(str::to_string);
        Some(Link {
            label: label?,
            url: url?,
            kind,
        })
    });
    let runs = doc.string_list(obj, "runs");
    let charts = doc.string_list(obj, "charts");
    let checks = super::check_names::check_list(&mut doc, obj, "checks");
    let symptoms = super::check_names::symptom_list(&mut doc, obj, "symptoms");
    let acknowledged = super::check_names::run_acknowledged(&mut doc, obj, &symptoms);
    let aliases = doc.string_list(obj, "aliases");
    let draft = doc.opt_bool(obj, "draft");
    let withdrawn = match doc.get(obj, "withdrawn") {
        None => None,
        Some(w) => {
            let wo = doc.object(w, "withdrawn", &["date", "reason"]);
            wo.and_then(|wo| {
                let date = doc.req_date(wo, "date");
                let reason = doc.req_string(wo, "reason");
                Some(Withdrawn {
                    date: date?,
                    reason: reason?,
                })
            })
        }
    };
    let superseded_by = doc
        .get(obj, "superseded_by")
        .and_then(|v| doc.positive_int(v, "superseded_by"));
    let items = doc.finish();
    let facts = crate::markdown::scan(body);
    for list in &facts.list_breaks {
        // Body lines count from the body's first line in the file.
        let at = Span::new(body_line + list.line - 1, list.column);
        diags.push(list_break_warning(file, at, "body", list));
    }
    let mut spans = spans;
    for (list, at) in items {
        spans.set_items(list, at);
    }

    Ok(Finding {
        path: file.to_path_buf(),
        content_hash: crate::util::hash_of(text),
        slug,
        id: id.ok_or_else(fail)?,
        title: title.ok_or_else(fail)?,
        group: group.ok_or_else(fail)?,
        advice: advice.ok_or_else(fail)?,
        status: status.ok_or_else(fail)?,
        status_note,
        summary,
        published: published.ok_or_else(fail)?,
        updated,
        found_by,
        engines,
        models,
        hardware,
        tags,
        links,
        runs,
        charts,
        checks,
        symptoms,
        acknowledged,
        aliases,
        draft,
        withdrawn,
        superseded_by,
        facts,
        body: body.to_string(),
        body_line,
        spans,
    })
}

/// Reads one finding from its text, without touching the disk: `file` is
/// its path relative to the root (`findings/<slug>.md`), `text` what
/// [`decode_text`](super::decode_text) makes of its bytes. Returns the finding if it could be
/// read, and every problem found. The fuzz targets call it.
pub fn parse_finding_text(file: &Path, text: &str) -> (Option<Finding>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let f = parse_finding(file, text, &mut diags).ok();
    (f, diags)
}
