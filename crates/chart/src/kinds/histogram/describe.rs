//! A histogram in words: how many values, their span and the bins; as a
//! table, Bin | Count, the bins the chart draws.

use super::bins;
use crate::describe::cells::Cells;
use crate::describe::summary::{counted, join, span};
use crate::describe::table::{build, x_name, y_name};
use crate::describe::DataTable;
use crate::model::chart::Chart;
use crate::shown::finite_range;

/// Bins of the histogram's table: as many as the chart draws on any card
/// wider than about 240 px (a bin is at least 8 px there).
pub(crate) const HISTOGRAM_BINS: usize = super::MAX_BINS;

pub(crate) fn summary(values: &[f64], units: Option<&str>) -> String {
    let (lo, hi) = finite_range(values.iter().copied());
    let n = values.iter().filter(|v| v.is_finite()).count();
    let (_, counts) = bins(values, HISTOGRAM_BINS);
    let values = counted(n, "value", "values");
    join([
        Some(span(&values, lo, hi, units).unwrap_or(values)),
        Some(format!("in {}", counted(counts.len(), "bin", "bins"))),
    ])
}

pub(crate) fn table(chart: &Chart, values: &[f64], max_rows: usize, f: Cells<'_>) -> DataTable {
    let (edges, counts) = bins(values, HISTOGRAM_BINS);
    let columns = vec![x_name(chart, "Bin"), y_name(chart, "Count")];
    let mut rows = counts.iter().enumerate().map(|(i, &n)| {
        let edge = |k: usize| edges.get(k).copied().unwrap_or(f64::NAN);
        vec![f.span(edge(i), edge(i + 1)), f.count(n)]
    });
    build(columns, max_rows, counts.len(), &mut || rows.next())
}
