//! Templates: loaded once, from the site's `templates/` over the built-in set.
//!
//! The built-in templates are the files of this repository's `templates/`
//! folder, compiled into the binary, so any folder builds without copying
//! them. A site overrides one by putting a file of the same name in its own
//! `templates/`; it may also add partials its overrides include.
//! FIXME: tera 1.x reports render errors without template line numbers;
//! tera 2 does, but its API and syntax changed. Revisit when moving.

use serde::Serialize;
use std::path::Path;
use std::sync::{Arc, RwLock};
use tera::{Context, Tera};

/// The built-in templates, by name.
const BUILTIN: &[(&str, &str)] = &[
    ("base.html", include_str!("../../templates/base.html")),
    ("macros.html", include_str!("../../templates/macros.html")),
    ("index.html", include_str!("../../templates/index.html")),
    ("finding.html", include_str!("../../templates/finding.html")),
    ("engines.html", include_str!("../../templates/engines.html")),
    ("engine.html", include_str!("../../templates/engine.html")),
    ("version.html", include_str!("../../templates/version.html")),
    ("list.html", include_str!("../../templates/list.html")),
    ("terms.html", include_str!("../../templates/terms.html")),
    ("run.html", include_str!("../../templates/run.html")),
    ("runs.html", include_str!("../../templates/runs.html")),
    ("table.html", include_str!("../../templates/table.html")),
    ("compare.html", include_str!("../../templates/compare.html")),
    (
        "comparisons.html",
        include_str!("../../templates/comparisons.html"),
    ),
    (
        "workload.html",
        include_str!("../../templates/workload.html"),
    ),
    (
        "workloads.html",
        include_str!("../../templates/workloads.html"),
    ),
    (
        "redirect.html",
        include_str!("../../templates/redirect.html"),
    ),
    ("404.html", include_str!("../../templates/404.html")),
    ("search.html", include_str!("../../templates/search.html")),
    // A finding's card, rendered once per finding and build through the
    // `card` macro of macros.html (the site's own, if it overrides it);
    // lists paste it with `finding_card(id=…)` instead of calling the macro
    // for each of a finding's many appearances. The leading underscore
    // keeps a site's files from replacing these.
    (CARD, "{% import \"macros.html\" as m %}{{ m::card(f=f) }}"),
    (
        CARD_H2,
        "{% import \"macros.html\" as m %}{{ m::card(f=f, heading=\"h2\") }}",
    ),
    // The card with its heading's tag name given by the caller (see
    // `Templates::card_titles`).
    (
        CARD_ANY,
        "{% import \"macros.html\" as m %}{{ m::card(f=f, heading=heading) }}",
    ),
    // A cell of an engine's version matrix: one state at one version,
    // rendered once per engine page by the `state_cell` macro and pasted in
    // every row (`r.cells_html`).
    (
        CELL,
        "{% import \"macros.html\" as m %}{{ m::state_cell(cell=f.cell, version=f.version) }}",
    ),
    // A chart's figure, rendered once by the `chart` macro and pasted on
    // the finding's page and the run's page (`c.html`).
    (
        CHART,
        "{% import \"macros.html\" as m %}{{ m::chart(c=f) }}",
    ),
];

/// The template of a version matrix cell (see `BUILTIN`).
pub const CELL: &str = "_state_cell.html";

/// The template of a chart's figure (see `BUILTIN`).
pub const CHART: &str = "_chart.html";

/// The template of a finding's card, with an `h3` title.
pub const CARD: &str = "_card.html";
/// The same card with an `h2` title, for pages whose lists are the main content.
pub const CARD_H2: &str = "_card_h2.html";
/// The same card with the heading of the variable `heading`.
const CARD_ANY: &str = "_card_any.html";
/// Stands for the heading's tag name in one rendering of the built-in
/// `card` macro, which prints `heading` as it is and nowhere else.
const HEADING: &str = "\u{1}heading\u{1}";

/// The cards of this build's findings by id.
pub type Cards = std::collections::HashMap<u32, CardHtml>;

/// A finding's card as `finding_card` pastes it, with an `h3` or an `h2`
/// title.
#[derive(Clone, Debug)]
pub enum CardHtml {
    /// One rendering by the built-in macro, with a stand-in at the two
    /// places (found at these offsets) where the title's tag name goes: a
    /// card is a kilobyte, and 10,000 findings held two of each.
    Cut(Arc<str>, [usize; 2]),
    /// A site's own macro, rendered once for each title.
    Each {
        /// With an `h3` title.
        h3: Arc<str>,
        /// With an `h2` title.
        h2: Arc<str>,
    },
}

impl CardHtml {
    /// The card with an `h2` title, or an `h3` one.
    pub fn html(&self, h2: bool) -> String {
        match self {
            CardHtml::Cut(any, [a, b]) => {
                let tag = if h2 { "h2" } else { "h3" };
                let mut out = String::with_capacity(any.len());
                out.push_str(&any[..*a]);
                out.push_str(tag);
                out.push_str(&any[a + HEADING.len()..*b]);
                out.push_str(tag);
                out.push_str(&any[b + HEADING.len()..]);
                out
            }
            CardHtml::Each { h3, h2: with_h2 } => if h2 { with_h2 } else { h3 }.to_string(),
        }
    }

    /// The card (with an `h3` title) as a version's page lists it: `badge`
    /// (the finding's state at that version) in front of its status, which
    /// is then labelled as the overall one, and `after` (a note, the runs
    /// that observed the state) at its end. A card of a site's own macro
    /// that has neither gets both around it.
    pub fn at_version(&self, badge: &str, after: &str) -> String {
        const STATUS: &str = "<span class=\"status status-";
        let card = self.html(false);
        let status = card.find(STATUS);
        let end = card.rfind("</article>");
        let (Some(s), Some(end)) = (status, end.filter(|e| Some(*e) > status)) else {
            return format!("{badge}{card}{after}");
        };
        let text = card[s..].find('>').map_or(s, |k| s + k + 1);
        let mut out = String::with_capacity(card.len() + badge.len() + after.len() + 64);
        out.push_str(&card[..s]);
        out.push_str(badge);
        out.push(' ');
        out.push_str(&card[s..text]);
        out.push_str("<span class=\"status-overall\">overall:</span> ");
        out.push_str(&card[text..end]);
        out.push_str(after);
        out.push_str(&card[end..]);
        out
    }
}

/// The `finding_card(id=N, heading="h2")` function of templates: the
/// finding's card as rendered once by [`CARD`] or [`CARD_H2`].
struct CardFunction(Arc<RwLock<Cards>>);

impl tera::Function for CardFunction {
    fn call(
        &self,
        args: &std::collections::HashMap<String, tera::Value>,
    ) -> tera::Result<tera::Value> {
        let id = args
            .get("id")
            .and_then(tera::Value::as_u64)
            .ok_or("finding_card needs id=<a finding's number>")?;
        let h2 = args.get("heading").and_then(tera::Value::as_str) == Some("h2");
        let cards = self
            .0
            .read()
            .map_err(|_| "finding_card: cards unavailable")?;
        let card = u32::try_from(id)
            .ok()
            .and_then(|id| cards.get(&id))
            .ok_or_else(|| format!("finding_card: no finding F{id} in this build"))?;
        Ok(tera::Value::String(card.html(h2)))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

fn escape_html(s: &str) -> String {
    crate::util::escape_html(s)
}

/// The parsed templates of a build.
pub struct Templates {
    tera: Tera,
    /// What `finding_card` returns (see [`Templates::set_cards`]).
    cards: Arc<RwLock<Cards>>,
    /// A hash of every template's name and text, so a rebuild knows when
    /// pages must be rendered again because a template changed.
    fingerprint: u64,
    /// Whether the site has its own `macros.html` (see `card_titles`).
    own_macros: bool,
}

/// Explains a tera error with all its causes on one line.
fn explain(e: &tera::Error) -> String {
    let mut msg = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        src = s.source();
    }
    msg
}

impl Templates {
    /// Loads the built-in templates and the overrides in `root/templates`.
    pub fn load(root: &Path) -> Result<Templates, String> {
        Templates::parse(Templates::sources(root)?)
    }

    /// [`Templates::load`], unless the files are those `previous` was
    /// parsed from: then `previous` itself (a rebuild under `serve` does
    /// not parse unchanged templates again).
    pub fn load_reusing(
        root: &Path,
        previous: Option<&Arc<Templates>>,
    ) -> Result<Arc<Templates>, String> {
        let files = Templates::sources(root)?;
        match previous {
            Some(p) if p.fingerprint == crate::util::hash_of(&files) => Ok(p.clone()),
            _ => Templates::parse(files).map(Arc::new),
        }
    }

    /// The built-in templates with the site's own over them, by name.
    fn sources(root: &Path) -> Result<Vec<(String, String)>, String> {
        let mut files: Vec<(String, String)> = BUILTIN
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        let dir = root.join("templates");
        if dir.is_dir() {
            for entry in walkdir::WalkDir::new(&dir).sort_by_file_name() {
                let entry = entry.map_err(|e| format!("templates: {e}"))?;
                if !entry.file_type().is_file() {
                    continue;
                }
                let name = entry
                    .path()
                    .strip_prefix(&dir)
                    .unwrap_or(entry.path())
                    .to_string_lossy()
                    .replace('\\', "/");
                if name.starts_with('.') || name.starts_with('_') {
                    continue;
                }
                let text = std::fs::read_to_string(entry.path())
                    .map_err(|e| format!("templates/{name}: {e}"))?;
                files.retain(|(n, _)| *n != name);
                files.push((name, text));
            }
        }
        Ok(files)
    }

    fn parse(files: Vec<(String, String)>) -> Result<Templates, String> {
        let fingerprint = crate::util::hash_of(&files);
        let own_macros = files
            .iter()
            .any(|(n, t)| n == "macros.html" && BUILTIN.iter().all(|(b, bt)| b != n || bt != t));
        let mut tera = Tera::default();
        tera.autoescape_on(vec![".html"]);
        // Tera's default also escapes '/', which makes every URL unreadable;
        // escaping & < > " ' is what HTML text and quoted attributes need.
        tera.set_escape_fn(escape_html);
        tera.add_raw_templates(files)
            .map_err(|e| format!("templates: {}", explain(&e)))?;
        let cards = Arc::new(RwLock::new(Cards::new()));
        tera.register_function("finding_card", CardFunction(cards.clone()));
        Ok(Templates {
            tera,
            cards,
            fingerprint,
            own_macros,
        })
    }

    /// Sets the cards `finding_card` returns, once they are rendered.
    pub fn set_cards(&self, cards: Cards) {
        if let Ok(mut c) = self.cards.write() {
            *c = cards;
        }
    }

    /// Renders template `name` with `value` as the only variable `f`: the
    /// pieces (cards, chart figures) that several pages share, rendered once.
    pub fn render_piece(&self, name: &str, value: &impl Serialize) -> Result<String, String> {
        // `value` goes into the context as it is: serialized once, not
        // made a `serde_json::Value` first and copied into the context.
        let mut ctx = Context::new();
        ctx.insert("f", value);
        ctx.insert("root", crate::urls::ROOT);
        self.tera.render(name, &ctx).map_err(|e| explain(&e))
    }

    /// A finding's card (`value`) with an `h3` and with an `h2` title, as
    /// [`CARD`] and [`CARD_H2`] render it. The built-in `card` macro prints
    /// its `heading` only as the title's tag name, so one rendering with a
    /// stand-in serves both (half the card renders of a build); a site's
    /// own macro, or a card whose text holds the stand-in, gets both
    /// renderings.
    pub fn card_titles(&self, value: &impl Serialize) -> Result<CardHtml, String> {
        if !self.own_macros {
            let mut ctx = Context::new();
            ctx.insert("f", value);
            ctx.insert("root", crate::urls::ROOT);
            ctx.insert("heading", HEADING);
            let any = self.tera.render(CARD_ANY, &ctx).map_err(|e| explain(&e))?;
            let at: Vec<usize> = any.match_indices(HEADING).map(|(i, _)| i).collect();
            if let [a, b] = at[..] {
                return Ok(CardHtml::Cut(any.into(), [a, b]));
            }
        }
        Ok(CardHtml::Each {
            h3: self.render_piece(CARD, value)?.into(),
            h2: self.render_piece(CARD_H2, value)?.into(),
        })
    }

    /// A hash of all the templates (see the field).
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// Renders template `name` for one page.
    pub fn render_to(
        &self,
        name: &str,
        site: &serde_json::Value,
        page: &impl Serialize,
        data: serde_json::Value,
        out: &mut impl std::io::Write,
    ) -> Result<(), String> {
        // The site's value is cloned into the page's data, not serialized
        // into the context again (a deep copy through serde for every page).
        let mut ctx = match data {
            serde_json::Value::Object(mut data) => {
                data.insert("site".to_string(), site.clone());
                Context::from_value(serde_json::Value::Object(data)).unwrap_or_default()
            }
            _ => {
                let mut ctx = Context::new();
                ctx.insert("site", site);
                ctx
            }
        };
        ctx.insert("page", page);
        ctx.insert("root", crate::urls::ROOT);
        self.tera
            .render_to(name, &ctx, out)
            .map_err(|e| explain(&e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(title_html: &str) -> serde_json::Value {
        serde_json::json!({
            "id": 7, "label": "F7", "url": "findings/x/", "title_html": title_html,
            "title_text": "x", "advice": "Check", "status": "open", "status_note": null,
            "summary_html": "A <em>summary</em>.", "group": "g",
            "engines": [{"id": "vllm", "name": "vLLM", "color": "#123", "url": "engines/vllm/", "versions": "0.31"}],
        })
    }

    fn both(t: &Templates, value: &serde_json::Value) -> (String, String) {
        (
            t.render_piece(CARD, value).unwrap(),
            t.render_piece(CARD_H2, value).unwrap(),
        )
    }

    #[test]
    fn one_rendering_of_the_built_in_card_gives_both_titles() {
        let t = Templates::parse(Templates::sources(Path::new("/nonexistent")).unwrap()).unwrap();
        assert!(!t.own_macros);
        for title in [
            "Plain",
            "With <code>h3</code> and </h3> text",
            &format!("Holds {HEADING}"),
        ] {
            let value = card(title);
            let html = t.card_titles(&value).unwrap();
            let (h3, h2) = (html.html(false), html.html(true));
            assert_eq!((h3.clone(), h2.clone()), both(&t, &value));
            assert!(h3.contains("<h3 class=\"card-title\">") && h2.contains("</h2>"));
            // The stand-in in the card's own text makes three: rendered twice.
            assert_eq!(
                matches!(html, CardHtml::Cut(..)),
                !title.contains(HEADING),
                "{title}"
            );
        }
    }

    #[test]
    fn a_site_card_macro_that_reads_its_heading_is_rendered_twice() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("templates")).unwrap();
        let mine = BUILTIN
            .iter()
            .find(|(n, _)| *n == "macros.html")
            .unwrap()
            .1
            .replace(
                "{% macro card(f, heading=\"h3\", note=\"\") -%}",
                "{% macro card(f, heading=\"h3\", note=\"\") -%}{% if heading == \"h2\" %}<b>main</b>{% endif %}",
            );
        std::fs::write(dir.path().join("templates/macros.html"), mine).unwrap();
        let t = Templates::load(dir.path()).unwrap();
        assert!(t.own_macros);
        let value = card("Plain");
        let html = t.card_titles(&value).unwrap();
        let (h3, h2) = (html.html(false), html.html(true));
        assert_eq!((h3.clone(), h2.clone()), both(&t, &value));
        assert!(h2.contains("<b>main</b>") && !h3.contains("<b>main</b>"));
    }
}
