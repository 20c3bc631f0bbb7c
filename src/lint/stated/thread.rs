//! What an issue's texts say of the engines, as one answer for every
//! report: each engine's version where a text says it, the first text's
//! engine, the versions the title names and which way an upgrade it names
//! goes. Made once per issue ([`Thread::new`]), so that a thread of many
//! reports is read in linear time; and the texts read in order, the title
//! first ([`issue_texts`]).

use super::{Clue, Clues, Names};
use crate::issue::Issue;
use crate::version::Version;
use std::collections::HashMap;

/// What the issue's texts say, in their order (its title, its body, its
/// comments), each answer the first text's that gives it: made once, for
/// every report, so that a thread of many reports is read in linear time.
#[derive(Debug, Default)]
pub(in crate::lint) struct Thread {
    pub(super) engine: Option<(Clue, String)>,
    /// Each engine's version, where a text says it before any text says a
    /// version of no engine by name.
    versions: HashMap<usize, (Clue, String)>,
    nameless: Option<(Clue, String)>,
    /// The versions the title names (`near.rs`), in its order.
    pub(super) title: Vec<Clue>,
    /// The title says which way: "upgrading from A to B", "A => B".
    directed: bool,
}

impl Thread {
    /// The answers of `texts`, in order, and the versions the issue's
    /// `title` names, as `names` reads them.
    pub(in crate::lint) fn new(texts: &[Clues], names: &Names<'_>, title: &str) -> Thread {
        let lower = title.to_lowercase();
        let mut out = Thread {
            title: names.title_versions(title),
            directed: ["->", "=>", "→", " to "].iter().any(|w| lower.contains(w)),
            ..Thread::default()
        };
        for t in texts {
            if out.engine.is_none() {
                out.engine = t.engine.clone().map(|c| (c, t.place.clone()));
            }
            // A version of no engine by name said earlier answers for
            // every engine (`version_of` of each text in turn).
            if out.nameless.is_none() {
                for &e in t.versions.keys() {
                    if let (false, Some(c)) = (out.versions.contains_key(&e), t.version_of(Some(e)))
                    {
                        out.versions.insert(e, (c.clone(), t.place.clone()));
                    }
                }
                out.nameless = t.nameless.clone().map(|c| (c, t.place.clone()));
            }
        }
        out
    }

    /// The versions the title names of `engine` (by name, or of none by
    /// name), each once, in the title's order.
    fn title_versions(&self, engine: Option<usize>) -> Vec<&Clue> {
        let mut out: Vec<&Clue> = Vec::new();
        for c in &self.title {
            let mine = c.engine.is_none() || c.engine == engine;
            let seen = out.iter().any(|o| {
                o.version.as_deref().and_then(|v| Version::parse(v).ok())
                    == c.version.as_deref().and_then(|v| Version::parse(v).ok())
            });
            if mine && !seen {
                out.push(c);
            }
        }
        out
    }

    /// The two versions of `engine` the title names, the one upgraded
    /// from first: in the title's order where it says which way ("from A
    /// to B", "A => B"), else the earlier first.
    pub(super) fn pair(&self, engine: Option<usize>) -> Option<(&Clue, &Clue)> {
        let [a, b] = self.title_versions(engine)[..] else {
            return None;
        };
        let order = |c: &Clue| c.version.as_deref().and_then(|v| Version::parse(v).ok());
        if self.directed || order(a) <= order(b) {
            Some((a, b))
        } else {
            Some((b, a))
        }
    }

    /// The first text's version of `engine` (by name, or of no engine by
    /// name), and its place.
    pub(super) fn version_of(&self, engine: Option<usize>) -> Option<(&Clue, &str)> {
        engine
            .and_then(|e| self.versions.get(&e))
            .or(self.nameless.as_ref())
            .map(|(c, p)| (c, p.as_str()))
    }
}

/// Where an issue's texts are read, in order after the report's own: its
/// title (first, read as nothing where there is none), then each of
/// `issue.texts`, its body first.
pub(in crate::lint) fn issue_texts(names: &Names<'_>, issue: &Issue) -> Vec<Clues> {
    let mut out = Vec::with_capacity(issue.texts.len() + 1);
    out.push(names.read("the title", issue.title.as_deref().unwrap_or("")));
    for t in &issue.texts {
        out.push(names.read(&t.place.name(), &t.body));
    }
    out
}
