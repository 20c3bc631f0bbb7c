//! TEMPORARY compile stub; replaced by the real module.
#![allow(missing_docs)]
use crate::record::{ChartSpec, Table};
use std::collections::BTreeMap;
pub struct ChartInput<'a> {
    pub spec: &'a ChartSpec,
    pub table: &'a Table,
    pub engine_colors: &'a BTreeMap<String, String>,
    pub engine_names: &'a BTreeMap<String, String>,
}
pub struct RenderedChart {
    pub svg: String,
    pub summary: String,
}
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ChartError {
    pub row_line: Option<usize>,
    pub column: Option<String>,
    pub message: String,
}
pub fn render(input: &ChartInput) -> Result<RenderedChart, ChartError> {
    Ok(RenderedChart {
        svg: format!("<svg role=\"img\"><title>{}</title></svg>", input.spec.id),
        summary: String::new(),
    })
}
