//! A GitHub issue as the tools around GitHub write it, read for the texts
//! a benchmark report may be pasted into: the issue's body and its
//! comments, each with its place in the thread and its address.
//!
//! Two shapes are read, told apart by their keys:
//!
//! - what `gh issue view N --json title,body,comments,url` prints: the
//!   issue's `title`, `body` and `url`, and `comments`, each with its
//!   `body` and `url` (the gh CLI's `api.Comment`, which also carries
//!   `author`, `authorAssociation`, `createdAt`, … , left aside here);
//! - the payload of a webhook event, `issues` or `issue_comment`, as
//!   GitHub Actions writes it to `$GITHUB_EVENT_PATH`: `issue` (with
//!   `body`, `title` and `html_url`), and for a comment event `comment`
//!   (with `body` and `html_url`).
//!
//! The comments of `gh issue view` are numbered as GitHub shows them, 1
//! for the first, in the order given; a webhook payload holds one comment,
//! whose place in the thread it does not say ("the comment"). A comment
//! that carries [`ANSWER_MARKER`] is `findings lint`'s own answer, and is
//! not read as a paste (it quotes the figures it answers). An issue's body
//! may be `null` (no description): it is then no text.
//!
//! Takes the payload's bytes; hands back an [`Issue`], or an
//! [`IssueError`] that names the file, the key and what was expected.

use serde_json::Value;
use std::fmt;

/// The hidden line (an HTML comment) that marks the comment `findings lint
/// --format github-comment` writes: the workflow that posts it finds its
/// own earlier answer by it, and a thread read again leaves it out.
pub const ANSWER_MARKER: &str = "<!-- findings: answer to pasted benchmark reports -->";

/// The largest payload read: a thread of thousands of long comments.
pub const MAX_BYTES: usize = 256 * 1024 * 1024;

/// An issue, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Its title, where the payload gives it.
    pub title: Option<String>,
    /// Its address on GitHub, where the payload gives it.
    pub url: Option<String>,
    /// Its body and comments, in the order of the thread (those without
    /// text, and `findings lint`'s own answers, left out).
    pub texts: Vec<Text>,
    /// The comments the payload holds, the left-out ones included.
    pub comments: usize,
    /// Of them, `findings lint`'s own answers (not read).
    pub answers: usize,
}

/// Where in an issue a text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The issue's own body.
    Body,
    /// Comment `n` of the thread, 1 for the first.
    Comment(usize),
    /// The one comment of a webhook payload (its number is not given).
    TheComment,
}

impl Place {
    /// As people say it: `the issue body`, `comment 3`, `the comment`.
    pub fn name(self) -> String {
        match self {
            Place::Body => "the issue body".into(),
            Place::Comment(n) => format!("comment {n}"),
            Place::TheComment => "the comment".into(),
        }
    }
}

/// One text of an issue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    /// Where it is.
    pub place: Place,
    /// Its address: the issue's for the body, the comment's own.
    pub url: Option<String>,
    /// What was written, as Markdown.
    pub body: String,
}

/// A payload that is not an issue as `gh` or a webhook writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssueError {
    /// The file, as given.
    pub file: String,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

impl fmt::Display for IssueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for IssueError {}

/// What `--from-issue` reads, for hints.
const SHAPES: &str = "give the output of `gh issue view N --json title,body,comments,url`, or the payload of an `issues` or `issue_comment` event (a workflow's $GITHUB_EVENT_PATH)";

/// Reads an issue from `bytes`; `file` names it in errors.
pub fn read(file: &str, bytes: &[u8]) -> Result<Issue, IssueError> {
    let fail = |message: String| IssueError {
        file: file.to_string(),
        message,
        hint: Some(SHAPES.to_string()),
    };
    if bytes.len() > MAX_BYTES {
        return Err(fail(format!(
            "the payload is {} bytes, over the limit of {MAX_BYTES} bytes (256 MiB)",
            bytes.len()
        )));
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        fail(if e.is_eof() && bytes.iter().all(u8::is_ascii_whitespace) {
            "empty: no JSON in it".to_string()
        } else {
            format!("not JSON: {e}")
        })
    })?;
    let Value::Object(top) = &value else {
        return Err(fail(format!(
            "not a GitHub issue: the JSON is {}, not an object",
            kind(&value)
        )));
    };
    let mut issue = Issue {
        title: None,
        url: None,
        texts: Vec::new(),
        comments: 0,
        answers: 0,
    };
    if let Some(inner) = top.get("issue") {
        // A webhook payload: `issue`, and `comment` for a comment event.
        let Value::Object(o) = inner else {
            return Err(fail(format!(
                "`issue` is {}; expected an object",
                kind(inner)
            )));
        };
        issue.title = text_at(o, "issue", "title").map_err(fail)?;
        issue.url = text_at(o, "issue", "html_url").map_err(fail)?;
        if let Some(body) = text_at(o, "issue", "body").map_err(fail)? {
            issue.push(Place::Body, issue.url.clone(), body);
        }
        if let Some(c) = top.get("comment").filter(|c| !c.is_null()) {
            let Value::Object(c) = c else {
                return Err(fail(format!(
                    "`comment` is {}; expected an object",
                    kind(c)
                )));
            };
            issue.comments = 1;
            let url = text_at(c, "comment", "html_url").map_err(fail)?;
            if let Some(body) = text_at(c, "comment", "body").map_err(fail)? {
                issue.push(Place::TheComment, url, body);
            }
        }
        return Ok(issue);
    }
    if !top.contains_key("body") && !top.contains_key("comments") {
        let keys: Vec<&str> = top.keys().map(String::as_str).take(8).collect();
        return Err(fail(format!(
            "not a GitHub issue: it has no `body` or `comments` (as `gh issue view --json` writes) and no `issue` (as a webhook payload has){}",
            if keys.is_empty() {
                String::new()
            } else {
                format!("; its keys: {}", keys.join(", "))
            }
        )));
    }
    // `gh issue view --json …`.
    issue.title = text_at(top, "", "title").map_err(fail)?;
    issue.url = text_at(top, "", "url").map_err(fail)?;
    if let Some(body) = text_at(top, "", "body").map_err(fail)? {
        issue.push(Place::Body, issue.url.clone(), body);
    }
    match top.get("comments") {
        None | Some(Value::Null) => {}
        Some(Value::Array(list)) => {
            issue.comments = list.len();
            for (i, c) in list.iter().enumerate() {
                let at = format!("comments[{i}]");
                let Value::Object(c) = c else {
                    return Err(fail(format!("`{at}` is {}; expected an object", kind(c))));
                };
                let url = text_at(c, &at, "url").map_err(fail)?;
                if let Some(body) = text_at(c, &at, "body").map_err(fail)? {
                    issue.push(Place::Comment(i + 1), url, body);
                }
            }
        }
        Some(other) => {
            return Err(fail(format!(
                "`comments` is {}; expected a list",
                kind(other)
            )))
        }
    }
    Ok(issue)
}

impl Issue {
    /// Adds a text unless it is empty or `findings lint`'s own answer.
    fn push(&mut self, place: Place, url: Option<String>, body: String) {
        if body.contains(ANSWER_MARKER) {
            self.answers += 1;
        } else if !body.trim().is_empty() {
            self.texts.push(Text { place, url, body });
        }
    }

    /// What was read, for people: `the issue body and 4 comments`.
    pub fn read_what(&self) -> String {
        let body = if self.texts.iter().any(|t| t.place == Place::Body) {
            "the issue body"
        } else {
            "the issue (no body)"
        };
        let mut s = match self.comments {
            0 => body.to_string(),
            1 => format!("{body} and its comment"),
            n => format!("{body} and its {n} comments"),
        };
        match self.answers {
            0 => {}
            1 if self.comments == 1 => s.push_str(" (the answer of findings lint, not read)"),
            1 => s.push_str(" (one of them the answer of findings lint, not read)"),
            n => s.push_str(&format!(
                " ({n} of them answers of findings lint, not read)"
            )),
        }
        s
    }
}

/// The text under `key` of `obj` (`at` its path, for messages): `None`
/// where it is missing or `null`.
fn text_at(
    obj: &serde_json::Map<String, Value>,
    at: &str,
    key: &str,
) -> Result<Option<String>, String> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!(
            "`{}` is {}; expected text",
            if at.is_empty() {
                key.to_string()
            } else {
                format!("{at}.{key}")
            },
            kind(other)
        )),
    }
}

/// A JSON value's kind, for messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gh_issue_view_numbers_the_comments_as_github_shows_them() {
        let json = r#"{"title":"t","url":"https://github.com/o/r/issues/4","body":"b",
            "comments":[{"author":{"login":"a"},"body":"one","url":"https://github.com/o/r/issues/4#issuecomment-1"},
                        {"author":{"login":"b"},"body":"  ","url":"u2"},
                        {"body":"x <!-- findings: answer to pasted benchmark reports -->","url":"u3"},
                        {"body":"four","url":"u4"}]}"#;
        let i = read("i.json", json.as_bytes()).unwrap();
        let places: Vec<Place> = i.texts.iter().map(|t| t.place).collect();
        assert_eq!(places, [Place::Body, Place::Comment(1), Place::Comment(4)]);
        assert_eq!(
            i.texts[1].url.as_deref(),
            Some("https://github.com/o/r/issues/4#issuecomment-1")
        );
        assert_eq!(
            i.texts[0].url.as_deref(),
            Some("https://github.com/o/r/issues/4")
        );
        assert_eq!(
            i.read_what(),
            "the issue body and its 4 comments (one of them the answer of findings lint, not read)"
        );
    }

    #[test]
    fn a_webhook_payload_gives_the_issue_and_its_one_comment() {
        let json = r#"{"action":"created","issue":{"html_url":"https://github.com/o/r/issues/1","body":null,"title":"t","user":{"type":"User"}},
            "comment":{"html_url":"https://github.com/o/r/issues/1#issuecomment-9","body":"hi","user":{"type":"User"}}}"#;
        let i = read("event.json", json.as_bytes()).unwrap();
        assert_eq!(i.texts.len(), 1);
        assert_eq!(i.texts[0].place.name(), "the comment");
        assert_eq!(i.read_what(), "the issue (no body) and its comment");
    }

    #[test]
    fn what_is_not_an_issue_is_said_with_its_key() {
        let e = |s: &str| read("p.json", s.as_bytes()).unwrap_err().to_string();
        assert_eq!(
            e("[1]"),
            "p.json: not a GitHub issue: the JSON is a list, not an object"
        );
        assert_eq!(
            e(r#"{"body":"x","comments":[{"body":7}]}"#),
            "p.json: `comments[0].body` is a number; expected text"
        );
        assert_eq!(
            e(r#"{"issue":{"body":["x"]}}"#),
            "p.json: `issue.body` is a list; expected text"
        );
        assert_eq!(e(""), "p.json: empty: no JSON in it");
        assert!(e("{\"body\": \"x\"").starts_with("p.json: not JSON: EOF while parsing"));
    }
}
