//! A timeline in words: its items and the span of their dates; as a table,
//! Item | Start | End.

use super::TimelineItem;
use crate::describe::cells::Cells;
use crate::describe::summary::{counted, list};
use crate::describe::table::build;
use crate::describe::DataTable;
use crate::label;
use crate::model::DatePrecision;
use crate::shown::finite_range;

pub(crate) fn summary(items: &[TimelineItem], precision: DatePrecision) -> String {
    let (lo, hi) = finite_range(items.iter().flat_map(|i| [i.start, i.end]));
    let names = list(items.iter().map(|i| i.label.as_str()), items.len());
    let mut text = format!("{} ({names})", counted(items.len(), "item", "items"));
    if lo <= hi {
        text.push_str(&format!(
            " from {} to {}",
            label::date(lo, precision),
            label::date(hi, precision)
        ));
    }
    text
}

pub(crate) fn table(
    items: &[TimelineItem],
    precision: DatePrecision,
    max_rows: usize,
    f: Cells<'_>,
) -> DataTable {
    let columns = ["Item", "Start", "End"].map(String::from).to_vec();
    let mut rows = items.iter().map(|i| {
        vec![
            i.label.clone(),
            f.date(i.start, precision),
            f.date(i.end, precision),
        ]
    });
    build(columns, max_rows, items.len(), &mut || rows.next())
}
