//! `findings`: a static site generator for evidence-backed findings about
//! serving open models.
//!
//! The build is a pipeline ([`pipeline`]), one folder per stage, each
//! using only the modules below it (`docs/architecture.md` draws the
//! layers; `tests/architecture.rs` holds the code to them):
//!
//! 1. [`load`]: files → typed [`record`]s with positions;
//! 2. [`validate`]: the rules between records, as [`diagnostics`];
//! 3. [`model`]: the site graph computed once (version [`state`]s,
//!    backlinks, indexes);
//! 4. render: what pages and outputs share ([`render`]: templates, cards,
//!    charts, links), then the HTML [`pages`], one file per kind, and the
//!    generated files beside them ([`outputs`]: search index, feeds,
//!    sitemap, JSON export);
//! 5. [`write`](mod@write): the files into a folder beside the output, then
//!    swapped in, by the one process that holds the folder's lock.
//!
//! Below the stages: [`util`] (hashing, escaping), [`figures`] (numbers
//! for people), [`version`]s, [`urls`],
//! [`assets`], the [`sink`] the stages hand files to, and the libraries
//! they share, [`markdown`], [`chart`] and [`results`] (benchmark result
//! files read into one vocabulary), and [`issue`] (a GitHub issue's texts,
//! where benchmark reports are pasted). Above them: [`incremental`],
//! what `serve` keeps between builds, and the commands ([`serve`],
//! [`authoring`], [`init`], [`audit`], [`import`]).

pub mod assets;
pub mod audit;
pub mod authoring;
pub mod chart;
pub mod checks;
pub mod compare;
pub mod diagnostics;
pub mod figures;
pub mod import;
pub mod incremental;
pub mod init;
pub mod issue;
pub mod lint;
pub mod load;
pub mod markdown;
pub mod model;
pub mod outputs;
pub mod pages;
pub mod pipeline;
pub mod record;
pub mod render;
pub mod results;
pub mod serve;
pub mod sink;
pub mod state;
pub mod symptoms;
pub mod trends;
pub mod urls;
pub mod util;
pub mod validate;
pub mod version;
pub mod write;

pub use incremental::Session;
pub use pipeline::{
    build, build_locked, check, claim_output, open, BuildError, BuildOptions, BuildReport, Counts,
    Timings,
};
