//! A scatter plot in words: its series, points and the spans of x and y;
//! as a table, x | y (Series | x | y for several: points rarely share an x).

use crate::describe::cells::Cells;
use crate::describe::summary::{counted, join, span};
use crate::describe::summary::{series_list, short};
use crate::describe::table::{build, x_name, y_name};
use crate::describe::DataTable;
use crate::model::chart::Chart;
use crate::model::Series;
use crate::shown::xy_extent;

pub(crate) fn summary(chart: &Chart, series: &[Series], units: Option<&str>) -> String {
    let ((x_lo, x_hi), (y_lo, y_hi)) = xy_extent(series);
    let total: usize = series.iter().map(|s| s.xs.len().min(s.ys.len())).sum();
    let x_name = chart.config.x_label.as_deref().unwrap_or("x");
    let y_name = chart.config.y_label.as_deref().unwrap_or("y");
    join([
        (series.len() > 1).then(|| series_list(series)),
        Some(counted(total, "point", "points")),
        span(&short(x_name), x_lo, x_hi, None),
        span(&short(y_name), y_lo, y_hi, units),
    ])
}

pub(crate) fn table(chart: &Chart, all: &[Series], max_rows: usize, f: Cells<'_>) -> DataTable {
    let (x, y) = (x_name(chart, "x"), y_name(chart, "y"));
    let several = all.len() > 1;
    let series: Vec<&Series> = all.iter().filter(|s| f.shows(&s.name)).collect();
    let columns = if several {
        vec!["Series".into(), x, y]
    } else {
        vec![x, y]
    };
    let total = series.iter().map(|s| s.xs.len().min(s.ys.len())).sum();
    let mut rows = series.iter().flat_map(|s| {
        s.xs.iter().zip(&s.ys).map(move |(&x, &y)| {
            let mut row = Vec::with_capacity(3);
            if several {
                row.push(s.name.clone());
            }
            row.push(f.number(x));
            row.push(f.value(y));
            row
        })
    });
    build(columns, max_rows, total, &mut || rows.next())
}
