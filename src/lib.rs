//! `findings`: a static site generator for evidence-backed findings about
//! serving open models.
//!
//! The build is a pipeline, one module per stage:
//!
//! 1. [`load`]: files → typed [`record`]s with positions;
//! 2. [`validate`]: the rules between records, as [`diagnostics`];
//! 3. [`model`]: the site graph computed once (version [`state`]s,
//!    backlinks, indexes);
//! 4. [`render`]: Markdown, highlighting, charts and templates → pages;
//! 5. [`write`]: the pages into a folder beside the output, then swapped in.
//!
//! [`check`] and [`build`] run the stages for the CLI and for tests.

pub mod diagnostics;
pub mod highlight;
pub mod load;
pub mod markdown;
pub mod record;
pub mod state;
pub mod urls;
pub mod validate;
pub mod version;

use diagnostics::Diagnostics;
use std::path::Path;

/// Loads and validates the folder at `root`: what `findings check` does.
pub fn check(root: &Path) -> (load::Loaded, Diagnostics) {
    let mut loaded = load::load(root);
    let mut diags = std::mem::take(&mut loaded.diagnostics);
    diags.extend(validate::validate(&loaded));
    (loaded, diags)
}
