//! A boxplot in words: its groups and the span of their medians; as a
//! table, one row per box.

use super::BoxStats;
use crate::describe::cells::Cells;
use crate::describe::summary::{counted, join, list, span};
use crate::describe::table::{build, x_name};
use crate::describe::DataTable;
use crate::model::chart::Chart;
use crate::shown::finite_range;

pub(crate) fn summary(boxes: &[BoxStats], units: Option<&str>) -> String {
    let (lo, hi) = finite_range(boxes.iter().map(|b| b.median));
    let names = list(boxes.iter().map(|b| b.label.as_str()), boxes.len());
    join([
        Some(format!(
            "{} ({names})",
            counted(boxes.len(), "group", "groups")
        )),
        span("medians", lo, hi, units),
    ])
}

/// Group | Min | Q1 | Median | Q3 | Max.
pub(crate) fn table(chart: &Chart, boxes: &[BoxStats], max_rows: usize, f: Cells<'_>) -> DataTable {
    let columns = [
        x_name(chart, "Group").as_str(),
        "Min",
        "Q1",
        "Median",
        "Q3",
        "Max",
    ]
    .map(String::from)
    .to_vec();
    let mut rows = boxes.iter().map(|b| {
        let mut row = vec![b.label.clone()];
        row.extend([b.min, b.q1, b.median, b.q3, b.max].map(|v| f.value(v)));
        row
    });
    build(columns, max_rows, boxes.len(), &mut || rows.next())
}
