//! The data of a card as a table of text (see [`super::DataTable`]): what
//! every kind's table is built with. Each kind writes its own (`crate::kinds`).

use super::DataTable;
use crate::model::chart::Chart;
use crate::model::Categorical;

/// The table of the first `max_rows` of `rows`, each padded to the
/// columns. `rows` is lazy, so a million points cost only the rows asked for;
/// `next` is a `dyn FnMut`, so the module holds one copy of this for all
/// nine card shapes (a `dyn Iterator` would bring every iterator's `nth` and
/// `advance_by` along in its vtable).
pub(crate) fn build(
    columns: Vec<String>,
    max_rows: usize,
    total_rows: usize,
    next: &mut dyn FnMut() -> Option<Vec<String>>,
) -> DataTable {
    let width = columns.len();
    let mut kept = Vec::new();
    while kept.len() < max_rows {
        let Some(mut row) = next() else { break };
        row.resize(width, String::new());
        kept.push(row);
    }
    let rows = kept;
    DataTable {
        columns,
        rows,
        total_rows,
    }
}

/// The x column's header: the card's `x_label`, else `fallback`.
pub(crate) fn x_name(chart: &Chart, fallback: &str) -> String {
    chart
        .config
        .x_label
        .clone()
        .unwrap_or_else(|| fallback.into())
}

/// The y column's header: the card's `y_label`, else `fallback`.
pub(crate) fn y_name(chart: &Chart, fallback: &str) -> String {
    chart
        .config
        .y_label
        .clone()
        .unwrap_or_else(|| fallback.into())
}

/// The header of a single value column: the y label, else the series name.
pub(crate) fn value_name(chart: &Chart, c: &Categorical) -> String {
    chart
        .config
        .y_label
        .clone()
        .or_else(|| c.series.first().map(|s| s.name.clone()))
        .unwrap_or_else(|| "Value".into())
}
