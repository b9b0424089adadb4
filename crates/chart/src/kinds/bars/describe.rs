//! Bars in words: the series, the categories and the span of the values
//! (of the stacks' totals for stacked_bar; of the steps' changes and the
//! total for waterfall); as a table, Category | one column per series, or
//! for a waterfall Step | Change | Running total and a last "Total" row.

use crate::describe::cells::Cells;
use crate::describe::summary::{counted, join, list, span};
use crate::describe::table::{build, value_name, x_name};
use crate::describe::DataTable;
use crate::label;
use crate::model::chart::Chart;
use crate::model::{Categorical, NamedValues};
use crate::shown::finite_range;

/// The series, when several ("2 series (A, B)"), and the categories
/// ("3 categories (Q1, Q2, Q3)").
fn series_and_categories(c: &Categorical) -> (Option<String>, String) {
    let categories = counted(c.categories.len(), "category", "categories");
    let category_names = list(c.categories.iter().map(String::as_str), c.categories.len());
    let series = (c.series.len() > 1).then(|| {
        format!(
            "{} ({})",
            counted(c.series.len(), "series", "series"),
            list(c.series.iter().map(|s| s.name.as_str()), c.series.len())
        )
    });
    (series, format!("{categories} ({category_names})"))
}

/// bar and grouped_bar.
pub(crate) fn summary(c: &Categorical, units: Option<&str>) -> String {
    let (series, categories) = series_and_categories(c);
    let values = || c.series.iter().flat_map(|s| s.values.iter().copied());
    let (lo, hi) = finite_range(values());
    join([series, Some(categories), span("values", lo, hi, units)])
}

pub(crate) fn stacked_summary(c: &Categorical, units: Option<&str>) -> String {
    let (series, categories) = series_and_categories(c);
    let totals = (0..c.categories.len()).map(|i| {
        c.series
            .iter()
            .filter_map(|s| s.values.get(i).copied().filter(|v| v.is_finite()))
            .sum::<f64>()
    });
    let (lo, hi) = finite_range(totals);
    join([series, Some(categories), span("totals", lo, hi, units)])
}

pub(crate) fn waterfall_summary(c: &Categorical, units: Option<&str>) -> String {
    let category_names = list(c.categories.iter().map(String::as_str), c.categories.len());
    let deltas: Vec<f64> = c
        .series
        .first()
        .map(|s| {
            s.values
                .iter()
                .map(|v| if v.is_finite() { *v } else { 0.0 })
                .collect()
        })
        .unwrap_or_default();
    let (lo, hi) = finite_range(deltas.iter().copied());
    let total: f64 = deltas.iter().sum();
    format!(
        "{} ({category_names}), changes from {} to {}, total {}",
        counted(deltas.len(), "step", "steps"),
        label::change(lo, units),
        label::change(hi, units),
        label::value(total, units)
    )
}

/// bar, grouped_bar and stacked_bar.
pub(crate) fn table(chart: &Chart, c: &Categorical, max_rows: usize, f: Cells<'_>) -> DataTable {
    let n = c.categories.len();
    let mut columns = vec![x_name(chart, "Category")];
    let shown: Vec<&NamedValues> = c.series.iter().filter(|s| f.shows(&s.name)).collect();
    if c.series.len() == 1 {
        columns.push(value_name(chart, c));
    } else {
        columns.extend(shown.iter().map(|s| s.name.clone()));
    }
    let mut rows = c.categories.iter().enumerate().map(|(i, name)| {
        let mut row = Vec::with_capacity(shown.len() + 1);
        row.push(name.clone());
        row.extend(
            shown
                .iter()
                .map(|s| f.value(s.values.get(i).copied().unwrap_or(f64::NAN))),
        );
        row
    });
    build(columns, max_rows, n, &mut || rows.next())
}

pub(crate) fn waterfall_table(
    chart: &Chart,
    c: &Categorical,
    max_rows: usize,
    f: Cells<'_>,
) -> DataTable {
    let first = c.series.first().map(|s| s.values.as_slice()).unwrap_or(&[]);
    let value_at = |i: usize| first.get(i).copied().unwrap_or(f64::NAN);
    let n = c.categories.len();
    let columns = vec![
        x_name(chart, "Step"),
        "Change".into(),
        "Running total".into(),
    ];
    let mut total = 0.0;
    let mut rows: Vec<Vec<String>> = Vec::with_capacity(max_rows.min(n + 1));
    for (i, name) in c.categories.iter().enumerate() {
        let v = value_at(i);
        total += if v.is_finite() { v } else { 0.0 };
        if rows.len() < max_rows {
            rows.push(vec![name.clone(), f.change(v), f.value(total)]);
        }
    }
    rows.push(vec!["Total".into(), String::new(), f.value(total)]);
    build(columns, max_rows, n + 1, &mut {
        let mut rows = rows.into_iter();
        move || rows.next()
    })
}
