//! table: rows as they are.

use zdr_chart::model::{number_text, Card};

use crate::table::Cell;

/// The table of `columns` and `rows`, each cell as the engine shows it: a
/// number as JSON writes it, text as it is, nothing for an empty cell.
pub(crate) fn table(columns: Vec<String>, rows: Vec<Vec<Option<&Cell>>>) -> Card {
    let rows = rows
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|cell| match cell {
                    Some(Cell::Number(n)) => number_text(*n).unwrap_or_default(),
                    Some(Cell::Text(t)) => t.clone(),
                    Some(Cell::Empty) | None => String::new(),
                })
                .collect()
        })
        .collect();
    Card::Table { columns, rows }
}
