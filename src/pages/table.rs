//! A long run table's own pages (`/runs/<id>/tables/<table>/`): every row
//! of a table the run page folds (more than [`urls::TABLE_FOLD`] rows), each
//! numbered, [`urls::TABLE_PAGE_ROWS`] to a page, with the run it belongs
//! to, the columns' descriptions and the CSV.

use super::batch::{Batch, Job};
use super::paginate::Pager;
use super::view::{list_page, object};
use super::Ctx;
use crate::render::tables;
use crate::urls::{self, ROOT};

/// A table page's template.
pub(super) const TEMPLATE: &str = "table.html";

/// Lists the pages of every run table that its run page folds.
pub(super) fn list<'a>(cx: &'a Ctx<'a>, batch: &mut Batch<'a>) {
    let model = cx.model;
    for run in &model.runs {
        for (t, table) in run.tables.iter().enumerate() {
            if table.rows.len() <= urls::TABLE_FOLD {
                continue;
            }
            let base = urls::run_table(&run.id, &table.file);
            let pager = Pager::new(&base, table.rows.len(), urls::TABLE_PAGE_ROWS);
            for n in 1..=pager.pages() {
                let path = pager.path(n);
                let range = pager.range(n);
                batch.later(
                    cx.key(&path, &|| vec![run.content_hash]),
                    TEMPLATE,
                    path,
                    range.len(),
                    move || {
                        let table = &run.tables[t];
                        let base = urls::run_table(&run.id, &table.file);
                        let pager =
                            Pager::new(&base, table.rows.len(), urls::TABLE_PAGE_ROWS);
                        let names = model.site.engine_names();
                        let (header, rows_html) = tables::page(table, range.clone(), &names);
                        let (page, pagination) = list_page(
                            model,
                            &pager,
                            n,
                            &format!("{}: every row", table.title),
                            format!("Every row of {}, from the run {}", table.file, run.title),
                            "table",
                        );
                        Job {
                            template: TEMPLATE,
                            page,
                            data: object([
                                (
                                    "run",
                                    serde_json::json!({
                                        "id": run.id,
                                        "title": run.title,
                                        "url": format!("{ROOT}{}", urls::run(&run.id)),
                                    }),
                                ),
                                (
                                    "table",
                                    serde_json::json!({
                                        "file": table.file,
                                        "title": table.title,
                                        "url": format!("{ROOT}{}", urls::run_file(&run.id, &table.file)),
                                        "total": table.rows.len(),
                                        "first": range.start + 1,
                                        "last": range.end,
                                        "header": header,
                                        "rows_html": rows_html,
                                        "columns": table.columns.iter().map(|c| serde_json::json!({
                                            "name": c.name,
                                            "title": c.title(&names),
                                            "unit": c.unit,
                                            "description": c.description,
                                        })).collect::<Vec<_>>(),
                                    }),
                                ),
                                ("pagination", pagination),
                            ]),
                        }
                    },
                );
            }
        }
    }
}
