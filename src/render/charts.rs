//! Charts as pages show them: each chart of a run drawn once per build
//! (by [`crate::chart`]) with its data table and the figure the site's
//! `chart` macro makes of it, ready to paste on the finding's page and on
//! the run's page.

use super::reuse::Reuse;
use super::tables::TableView;
use super::templates::{self, Templates};
use super::RenderError;
use crate::chart::{self, ChartInput};
use crate::markdown;
use crate::model::Model;
use crate::record::{ChartSpec, Run};
use crate::urls::{self, ROOT};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A chart as templates see it. Paths start with [`ROOT`].
#[derive(Serialize, Clone)]
pub(crate) struct ChartView {
    id: String,
    dom_id: String,
    title: String,
    svg: String,
    summary: String,
    caption_html: String,
    header: Vec<String>,
    /// The cells of the rows shown, as the CSV has them (a distribution's
    /// figures, as readers read them).
    rows: Vec<Vec<String>>,
    /// The rows shown as the built-in `chart` macro shows them: each
    /// number as readers read it (see [`super::tables`]).
    rows_html: String,
    /// How many rows the table has.
    total: usize,
    /// Whether the rows shown are a long table's sample and extremes.
    folded: bool,
    /// For a folded table, the first page of every row.
    all_url: Option<String>,
    csv_url: String,
    csv_name: String,
    run_url: String,
    run_title: String,
    /// The figure as the `chart` macro renders it, once for the two pages
    /// that show it (empty while it is rendered).
    html: String,
    /// The view of the chart's table when the figure shows the table as
    /// the run page does (not a distribution's figures): the run page
    /// takes it from here rather than making it again.
    #[serde(skip)]
    table_view: Option<Arc<TableView>>,
}

/// Draws the charts of a build: the site's engine colours and names, the
/// templates of the figure, and what a rebuild may reuse.
pub(crate) struct Charts<'a> {
    colors: BTreeMap<String, String>,
    names: BTreeMap<String, String>,
    /// For a chart's figure (see [`ChartView::html`]).
    templates: &'a Templates,
    reuse: &'a Reuse<'a>,
}

impl<'a> Charts<'a> {
    /// The charts of `model`'s site.
    pub(crate) fn new(model: &Model, templates: &'a Templates, reuse: &'a Reuse<'a>) -> Self {
        let site = &model.site;
        Charts {
            templates,
            colors: site
                .engines
                .iter()
                .map(|e| (e.id.clone(), e.color.clone()))
                .collect(),
            names: site.engine_names(),
            reuse,
        }
    }

    /// Chart `spec` of `run`, drawn, or reused from the last build when
    /// nothing it reads changed.
    pub(crate) fn draw(&self, run: &Run, spec: &ChartSpec) -> Result<ChartView, RenderError> {
        // The run's file holds the spec and its tables.
        let key = self.reuse.key((
            run.content_hash,
            &run.path,
            &spec.id,
            &self.colors,
            &self.names,
            self.templates.fingerprint(),
        ));
        self.reuse.chart(key, || draw(run, spec, self))
    }
}

fn draw(run: &Run, spec: &ChartSpec, charts: &Charts<'_>) -> Result<ChartView, RenderError> {
    let fail = |message: String| RenderError::Chart {
        file: run.path.display().to_string(),
        chart: spec.id.clone(),
        message,
    };
    let table = run
        .table(&spec.table)
        .ok_or_else(|| fail(format!("no table \"{}\"", spec.table)))?;
    let drawn = chart::render(&ChartInput {
        spec,
        table,
        engine_colors: &charts.colors,
        engine_names: &charts.names,
    })
    .map_err(|e| {
        // Point at the CSV cell when the chart module names one.
        let at = match (e.row_line, &e.column) {
            (Some(line), Some(col)) => format!("{}:{line}: column \"{col}\": ", table.file),
            (Some(line), None) => format!("{}:{line}: ", table.file),
            (None, Some(col)) => format!("{}: column \"{col}\": ", table.file),
            (None, None) => String::new(),
        };
        fail(format!("{at}{}", e.message))
    })?;
    // What the figure's table shows: the chart's own figures where it has
    // them (a distribution's percentiles, not its thousands of rows), else
    // the table as the run page shows it, a long one folded.
    let (header, rows, rows_html, total, folded, all_url, table_view) = match drawn.figures {
        Some((header, rows)) => {
            let html = super::table_rows_html(&rows);
            let n = rows.len();
            (header, rows, html, n, false, None, None)
        }
        None => {
            let view = super::tables::view(&run.id, table, &charts.names);
            let rows = view.rows.iter().map(|&r| table.rows[r].clone()).collect();
            (
                view.header.clone(),
                rows,
                view.rows_html.clone(),
                view.total,
                view.folded,
                view.all_url.clone(),
                Some(Arc::new(view)),
            )
        }
    };
    ChartView {
        id: spec.id.clone(),
        dom_id: format!("chart-{}-{}", run.id, spec.id),
        title: spec.title.clone(),
        svg: drawn.svg,
        summary: drawn.summary,
        caption_html: spec
            .caption
            .as_deref()
            .map(markdown::render_inline)
            .unwrap_or_default(),
        header,
        rows,
        rows_html,
        total,
        folded,
        all_url,
        csv_url: format!("{ROOT}{}", urls::run_file(&run.id, &table.file)),
        csv_name: table.file.clone(),
        run_url: format!("{ROOT}{}", urls::run(&run.id)),
        run_title: run.shown_title().into_owned(),
        html: String::new(),
        table_view,
    }
    .with_figure(charts.templates)
    .map_err(|message| fail(format!("template {}: {message}", templates::CHART)))
}

impl ChartView {
    /// The view of table `file` this chart's figure made, if it shows that
    /// table as the run page does.
    pub(crate) fn table_view(&self, file: &str) -> Option<&Arc<TableView>> {
        self.table_view.as_ref().filter(|_| self.csv_name == file)
    }

    /// The view with its figure rendered by the `chart` macro.
    fn with_figure(mut self, templates: &Templates) -> Result<ChartView, String> {
        self.html = templates.render_piece(templates::CHART, &self)?;
        Ok(self)
    }
}
