//! What a site or a run names to set side by side (`compare:` in
//! `site.yaml` and `run.yaml`); `crate::compare` does the comparing and
//! the comparison pages show it.

/// One comparison a record asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareSpec {
    /// Its id: the page is `/compare/<id>/`.
    pub id: String,
    /// Its title, where the record gives one (`title` may be left out:
    /// the model then titles it by its sides, `vLLM 0.29.0 against
    /// 0.30.0`).
    pub title: Option<String>,
    /// What it shows, in a sentence or two (Markdown).
    pub caption: Option<String>,
    /// A run-to-run noise band in percent, to judge single measurements.
    pub noise: Option<f64>,
    /// What is set side by side.
    pub of: CompareOf,
    /// Where it is in its file (`compare[0]`).
    pub path_in_yaml: String,
}

/// What a comparison sets side by side.
#[derive(Debug, Clone, PartialEq)]
pub enum CompareOf {
    /// Columns of a run's hand table, the first the baseline, matched row
    /// by row on the `by` columns.
    Columns {
        /// The table's file.
        table: String,
        /// The columns whose cells name the workload (`depth`).
        by: Vec<String>,
        /// The columns compared, the baseline first.
        columns: Vec<String>,
        /// Whether more is better (`better: higher`), where said.
        higher_is_better: Option<bool>,
    },
    /// The setups of a run that has result files (all when `setups` is
    /// empty), the first the baseline.
    Setups {
        /// Their names, as the run names them.
        setups: Vec<String>,
        /// The result metrics (all measured when empty).
        metrics: Vec<String>,
    },
    /// The setups of several runs (a site's comparison), the first run's
    /// first setup the baseline.
    Runs {
        /// The run ids.
        runs: Vec<String>,
        /// The result metrics (all measured when empty).
        metrics: Vec<String>,
    },
}
