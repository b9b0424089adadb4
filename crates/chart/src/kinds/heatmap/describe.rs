//! A heatmap in words: its columns and rows and the span of its values; as
//! a table, x | y | Value row by row, missing cells as "–".

use crate::describe::cells::Cells;
use crate::describe::summary::ends;
use crate::describe::summary::{counted, join, span};
use crate::describe::table::{build, x_name, y_name};
use crate::describe::DataTable;
use crate::model::chart::Chart;
use crate::shown::finite_range;

pub(crate) fn summary(xs: &[String], ys: &[String], values: &[f64], units: Option<&str>) -> String {
    let (lo, hi) = finite_range(values.iter().copied());
    join([
        Some(format!(
            "{}{} by {}{}",
            counted(xs.len(), "column", "columns"),
            ends(xs),
            counted(ys.len(), "row", "rows"),
            ends(ys)
        )),
        span("values", lo, hi, units),
    ])
}

pub(crate) fn table(
    chart: &Chart,
    (xs, ys, values): (&[String], &[String], &[f64]),
    max_rows: usize,
    f: Cells<'_>,
) -> DataTable {
    let columns = vec![x_name(chart, "x"), y_name(chart, "y"), "Value".into()];
    let mut rows = ys.iter().enumerate().flat_map(|(r, y)| {
        xs.iter().enumerate().map(move |(c, x)| {
            let v = values.get(r * xs.len() + c).copied().unwrap_or(f64::NAN);
            vec![x.clone(), y.clone(), f.value(v)]
        })
    });
    build(
        columns,
        max_rows,
        xs.len().saturating_mul(ys.len()),
        &mut || rows.next(),
    )
}
