//! A table in words: its columns and rows; as a data table, itself.

use crate::describe::cells::Cells;
use crate::describe::summary::{counted, list};
use crate::describe::table::build;
use crate::describe::DataTable;

pub(crate) fn summary(columns: &[String], rows: &[Vec<String>]) -> String {
    let names = list(columns.iter().map(String::as_str), columns.len());
    format!(
        "{} ({names}), {}",
        counted(columns.len(), "column", "columns"),
        counted(rows.len(), "row", "rows")
    )
}

/// Its own columns and cells, as the table shows them.
pub(crate) fn table(
    columns: &[String],
    rows: &[Vec<String>],
    max_rows: usize,
    f: Cells<'_>,
) -> DataTable {
    let width = rows.iter().map(Vec::len).fold(columns.len(), usize::max);
    let mut columns = columns.to_vec();
    columns.resize(width, String::new());
    let mut cells = rows
        .iter()
        .map(|row| row.iter().map(|cell| f.cell(cell)).collect());
    build(columns, max_rows, rows.len(), &mut || cells.next())
}
