//! What a check sees of a run: every value of a name, wherever the run
//! holds it. A run made of result files holds facts (each from a file of
//! an entry of `results`, which names its setup) and derived tables; a run
//! typed by hand holds CSV tables, whose columns count when they use the
//! vocabulary's names (`max_concurrency`, `max_running`, `client`, …), and
//! its own fields (`client`, `endpoint`). Each value says where it is, so
//! that a flag points at the file, the row, or the run.

use crate::record::Run;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

/// Where a value is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Place {
    /// A file of the run's result files: its path in the run's folder, and
    /// the index of its entry in `results`.
    File {
        /// The file, in the run's folder.
        path: String,
        /// Its entry of `results`.
        entry: usize,
    },
    /// A row of a CSV table of the run's folder.
    Row {
        /// The table's file, in the run's folder.
        table: String,
        /// The row's line in it.
        line: usize,
    },
    /// The run itself: a field of its `run.yaml`.
    Run,
}

/// One value of a name, with the setup it measured (where known) and where
/// it is.
#[derive(Debug, Clone)]
pub struct Value {
    /// As written.
    pub text: String,
    /// As a number, when it is one (`inf` is infinite).
    pub number: Option<f64>,
    /// The index of the setup it measured, in the run's `setups`.
    pub setup: Option<usize>,
    /// Where it is.
    pub at: Place,
    /// How a result file's reader got it, or why it is unknown (a value
    /// known to be unknown has empty `text`).
    pub note: Option<String>,
}

/// A name a check asks for: the facts of result files, the columns of
/// tables and the field of the run that hold it.
type Source = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    Option<&'static str>,
);

/// The names a check asks for, and where a run holds each: facts of result
/// files, columns of tables, the run's own field.
const NAMES: &[Source] = &[
    // name, fact names, column names, run field
    ("client", &["tool"], &["client", "tool"], Some("client")),
    ("endpoint", &["endpoint"], &["endpoint"], Some("endpoint")),
    (
        "max_concurrency",
        &["max_concurrency"],
        &["max_concurrency"],
        None,
    ),
    ("request_rate", &["request_rate"], &["request_rate"], None),
    ("max_running", &["max_running"], &["max_running"], None),
    ("max_streaming", &[], &["max_streaming"], None),
    (
        "running_limit",
        &["running_limit"],
        &["running_limit"],
        None,
    ),
    ("preemptions", &["preemptions"], &["preemptions"], None),
    (
        "kv_cache_tokens",
        &["kv_cache_tokens"],
        &["kv_cache_tokens"],
        None,
    ),
    ("failed", &["failed"], &["failed"], None),
    (
        "preemptions_counted",
        &["preemptions_counted"],
        &["preemptions_counted"],
        None,
    ),
    (
        "preemption_log_lines",
        &["preemption_log_lines"],
        &["preemption_log_lines"],
        None,
    ),
    (
        "running_limit_asked",
        &["running_limit_asked"],
        &["running_limit_asked"],
        None,
    ),
    (
        "running_limit_cause",
        &["running_limit_cause"],
        &["running_limit_cause"],
        None,
    ),
    ("prefix_cache", &["prefix_cache"], &["prefix_cache"], None),
    (
        "recurrent_state",
        &["recurrent_state"],
        &["recurrent_state"],
        None,
    ),
    ("start_args", &["start_args"], &["start_args"], None),
    (
        "counter_readings",
        &["counter_readings"],
        &["counter_readings"],
        None,
    ),
    (
        "counter_moves",
        &["counter_moves"],
        &["counter_moves"],
        None,
    ),
    (
        "engine_outlived_server",
        &["engine_outlived_server"],
        &["engine_outlived_server"],
        None,
    ),
    ("model", &["model"], &["model"], Some("model")),
    ("completed", &[], &["completed"], None),
    ("num_prompts", &[], &["num_prompts"], None),
];

/// A run as the checks see it.
pub struct Evidence<'r> {
    /// The run.
    pub run: &'r Run,
    /// The site's engines' names, by id, for messages.
    names: &'r BTreeMap<String, String>,
    /// Each setup's index by its name (the first of a name).
    setup_by_name: HashMap<String, usize>,
    /// Each entry of `results` by its path, the first of a path, and by
    /// its path and setup (the reports of one pasted text).
    entry_by_path: HashMap<&'r str, usize>,
    entry_by_path_setup: HashMap<(&'r str, usize), usize>,
    /// The values of each name asked for, read once and filed by setup:
    /// checks and symptoms ask setup by setup, and a run of thousands of
    /// setups (a paste of as many reports) is then read in one pass.
    read: RefCell<HashMap<&'static str, Rc<Filed>>>,
}

/// The values of one name, and the indexes of those of each setup (and of
/// none).
struct Filed {
    all: Vec<Value>,
    by_setup: HashMap<usize, Vec<usize>>,
    of_none: Vec<usize>,
}

impl<'r> Evidence<'r> {
    /// The evidence of `run`; `names` gives engines' names by id.
    pub fn of(run: &'r Run, names: &'r BTreeMap<String, String>) -> Evidence<'r> {
        let mut setup_by_name = HashMap::new();
        for (i, s) in run.setups.iter().enumerate() {
            setup_by_name.entry(s.name()).or_insert(i);
        }
        let mut entry_by_path = HashMap::new();
        let mut entry_by_path_setup = HashMap::new();
        for (i, e) in run.results.iter().enumerate() {
            entry_by_path.entry(e.path.as_str()).or_insert(i);
            if let Some(s) = e.setup {
                entry_by_path_setup.entry((e.path.as_str(), s)).or_insert(i);
            }
        }
        Evidence {
            run,
            names,
            setup_by_name,
            entry_by_path,
            entry_by_path_setup,
            read: RefCell::new(HashMap::new()),
        }
    }

    /// The index of the setup named `name` (its label, else its engine
    /// and version, as `run.yaml` names it), if any.
    pub fn setup_named(&self, name: &str) -> Option<usize> {
        self.setup_by_name.get(name).copied()
    }

    /// The entry of `results` a derived row's `source` names (a file, or a
    /// file of a run folder): the entry of that path and `setup` where
    /// there is one (a report of a pasted text of several), else the first
    /// of that path.
    pub fn entry_of(&self, source: &str, setup: Option<usize>) -> Option<usize> {
        let mut path = source;
        loop {
            if let Some(e) = setup.and_then(|s| self.entry_by_path_setup.get(&(path, s))) {
                return Some(*e);
            }
            if let Some(e) = self.entry_by_path.get(path) {
                return Some(*e);
            }
            path = &path[..path.rfind('/')?];
        }
    }

    /// The values of `name`, read once.
    fn filed(&self, name: &str) -> Rc<Filed> {
        let Some(&(key, ..)) = NAMES.iter().find(|n| n.0 == name) else {
            return Rc::new(Filed {
                all: Vec::new(),
                by_setup: HashMap::new(),
                of_none: Vec::new(),
            });
        };
        if let Some(f) = self.read.borrow().get(key) {
            return Rc::clone(f);
        }
        let all = self.read_values(name);
        let mut by_setup: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut of_none = Vec::new();
        for (k, v) in all.iter().enumerate() {
            match v.setup {
                Some(i) => by_setup.entry(i).or_default().push(k),
                None => of_none.push(k),
            }
        }
        let filed = Rc::new(Filed {
            all,
            by_setup,
            of_none,
        });
        self.read.borrow_mut().insert(key, Rc::clone(&filed));
        filed
    }

    /// The values of `name` of setup `i` and those of no setup, in the
    /// order they come.
    pub fn of_setup_or_run(&self, name: &str, i: usize) -> Vec<Value> {
        let f = self.filed(name);
        let mut at: Vec<usize> = f.by_setup.get(&i).cloned().unwrap_or_default();
        at.extend(&f.of_none);
        at.sort_unstable();
        at.into_iter().map(|k| f.all[k].clone()).collect()
    }

    /// Every value of `name` (one of the names checks ask for): facts of
    /// the result files first, then cells of the tables (a derived table
    /// only for names no fact gives: the rows repeat the facts), then the
    /// run's own field.
    pub fn values(&self, name: &str) -> Vec<Value> {
        self.filed(name).all.clone()
    }

    /// [`Evidence::values`], read from the run.
    fn read_values(&self, name: &str) -> Vec<Value> {
        let Some(&(_, facts, columns, field)) = NAMES.iter().find(|n| n.0 == name) else {
            return Vec::new();
        };
        let run = self.run;
        let mut out = Vec::new();
        for (entry, s) in run.results.iter().enumerate() {
            for f in s.facts.iter().filter(|f| facts.contains(&f.name.as_str())) {
                out.push(Value {
                    text: f.value.clone().unwrap_or_default(),
                    number: f.number,
                    setup: s.setup,
                    at: Place::File {
                        path: f.source.clone(),
                        entry,
                    },
                    note: f.note.clone(),
                });
            }
        }
        let from_facts = !out.is_empty();
        for t in &run.tables {
            if t.derived.is_some() && from_facts {
                continue;
            }
            let Some(col) = columns.iter().find_map(|c| t.index(c)) else {
                continue;
            };
            let setup_col = t.index("setup");
            let engine_col = t.index("engine");
            for (r, row) in t.rows.iter().enumerate() {
                let Some(cell) = row.get(col).filter(|c| !c.trim().is_empty()) else {
                    continue;
                };
                let setup = match (setup_col, engine_col) {
                    (Some(i), _) => self.setup_named(&row[i]),
                    (None, Some(i)) => self.only_setup_of(&row[i]),
                    _ => (run.setups.len() == 1).then_some(0),
                };
                let at = match (&t.derived, t.index("source")) {
                    (Some(_), Some(i)) => Place::File {
                        path: row[i].clone(),
                        entry: self.entry_of(&row[i], setup).unwrap_or(0),
                    },
                    _ => Place::Row {
                        table: t.file.clone(),
                        line: t.row_lines.get(r).copied().unwrap_or(r + 2),
                    },
                };
                out.push(Value {
                    text: cell.trim().to_string(),
                    number: number(cell),
                    setup,
                    at,
                    note: None,
                });
            }
        }
        let own = match field {
            Some("client") => run.client.as_ref(),
            Some("endpoint") => run.endpoint.as_ref(),
            Some("model") => run.model.as_ref(),
            _ => None,
        };
        if let (Some(v), true) = (own, out.is_empty()) {
            out.push(Value {
                text: v.clone(),
                number: None,
                setup: None,
                at: Place::Run,
                note: None,
            });
        }
        out
    }

    /// The values of `name` that setup `i` measured: those of its result
    /// files and of the rows that name it, and, in a run of one setup,
    /// those of no setup too.
    pub fn of_setup(&self, name: &str, i: usize) -> Vec<Value> {
        if self.run.setups.len() == 1 {
            return self.of_setup_or_run(name, i);
        }
        let f = self.filed(name);
        f.by_setup
            .get(&i)
            .map(|at| at.iter().map(|&k| f.all[k].clone()).collect())
            .unwrap_or_default()
    }

    /// Where a table leaves the column `name` empty in a row of setup `i`
    /// (a row that names it, or any row in a run of one setup): a table
    /// typed by hand says so that there is no such value (a server with no
    /// counter of its pauses), which is not the same as not recording it.
    pub fn blank_of_setup(&self, name: &str, i: usize) -> Option<Place> {
        let &(_, _, columns, _) = NAMES.iter().find(|n| n.0 == name)?;
        let run = self.run;
        for t in run.tables.iter().filter(|t| t.derived.is_none()) {
            let Some(col) = columns.iter().find_map(|c| t.index(c)) else {
                continue;
            };
            let (setup_col, engine_col) = (t.index("setup"), t.index("engine"));
            for (r, row) in t.rows.iter().enumerate() {
                let setup = match (setup_col, engine_col) {
                    (Some(k), _) => self.setup_named(&row[k]),
                    (None, Some(k)) => self.only_setup_of(&row[k]),
                    _ => (run.setups.len() == 1).then_some(0),
                };
                if setup == Some(i) && row.get(col).is_none_or(|c| c.trim().is_empty()) {
                    return Some(Place::Row {
                        table: t.file.clone(),
                        line: t.row_lines.get(r).copied().unwrap_or(r + 2),
                    });
                }
            }
        }
        None
    }

    /// The engines the run's setups measured, each once.
    pub fn engines(&self) -> BTreeSet<&str> {
        self.run.setups.iter().map(|s| s.engine.as_str()).collect()
    }

    /// Whether the run measured under load: it asked for a concurrency or
    /// a request rate.
    pub fn is_load_run(&self) -> bool {
        !self.values("max_concurrency").is_empty() || !self.values("request_rate").is_empty()
    }

    /// The engine of setup `i`.
    pub fn engine_of(&self, i: Option<usize>) -> Option<&str> {
        i.and_then(|i| self.run.setups.get(i))
            .map(|s| s.engine.as_str())
    }

    /// The one setup of engine `engine`, if the run has exactly one.
    fn only_setup_of(&self, engine: &str) -> Option<usize> {
        let mut of = self
            .run
            .setups
            .iter()
            .enumerate()
            .filter(|(_, s)| s.engine == engine.trim());
        match (of.next(), of.next()) {
            (Some((i, _)), None) => Some(i),
            _ => None,
        }
    }

    /// The name of setup `i`'s engine as the site gives it.
    pub fn engine_name(&self, i: usize) -> &str {
        let e = self.run.setups.get(i).map_or("", |s| s.engine.as_str());
        self.names.get(e).map_or(e, String::as_str)
    }

    /// The name of setup `i` as readers know it: its label, else the
    /// engine's name and the version ("vLLM 0.30"); "the run" when the
    /// setup is not known.
    pub fn setup_name(&self, i: Option<usize>) -> String {
        let Some(s) = i.and_then(|i| self.run.setups.get(i)) else {
            return "the run".to_string();
        };
        if let Some(l) = &s.label {
            return l.clone();
        }
        let engine = self.names.get(&s.engine).unwrap_or(&s.engine);
        match &s.version {
            Some(v) => format!("{engine} {v}"),
            None => engine.clone(),
        }
    }
}

fn number(cell: &str) -> Option<f64> {
    let t = cell.trim();
    if t.eq_ignore_ascii_case("inf") {
        return Some(f64::INFINITY);
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// A number as a message writes it (see [`crate::figures`]): `37,760`,
/// `336.3`, `unlimited`.
pub(super) fn figure(v: f64) -> String {
    crate::figures::number(v)
}
