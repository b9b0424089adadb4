//! A pie in words: its slices, largest first, with their shares; as a
//! table, Slice | Value | Share (every slice, none folded into "Other").

use super::slices;
use crate::describe::cells::Cells;
use crate::describe::summary::{counted, list, short};
use crate::describe::table::{build, value_name, x_name};
use crate::describe::DataTable;
use crate::label;
use crate::model::chart::Chart;
use crate::model::Categorical;

pub(crate) fn summary(c: &Categorical) -> String {
    let slices = slices(c);
    if slices.is_empty() {
        return "no slice larger than zero".to_string();
    }
    let total: f64 = slices.iter().map(|s| s.value).sum();
    // Largest first: the reader hears what matters before the list is cut.
    let values: Vec<f64> = slices.iter().map(|s| s.value).collect();
    let order = crate::order::ranked(&values, true);
    let named: Vec<String> = order
        .iter()
        .filter_map(|&i| slices.get(i))
        .map(|s| format!("{} {}", short(&s.label), label::percent(s.value / total)))
        .collect();
    format!(
        "{}: {}",
        counted(slices.len(), "slice", "slices"),
        list(named.iter().map(String::as_str), named.len())
    )
}

pub(crate) fn table(chart: &Chart, c: &Categorical, max_rows: usize, f: Cells<'_>) -> DataTable {
    let first = c.series.first().map(|s| s.values.as_slice()).unwrap_or(&[]);
    let value_at = |i: usize| first.get(i).copied().unwrap_or(f64::NAN);
    let n = c.categories.len();
    let total: f64 = first.iter().filter(|v| v.is_finite() && **v > 0.0).sum();
    let columns = vec![x_name(chart, "Slice"), value_name(chart, c), "Share".into()];
    let mut rows = c.categories.iter().enumerate().map(|(i, name)| {
        let v = value_at(i);
        vec![name.clone(), f.value(v), f.share(v / total)]
    });
    build(columns, max_rows, n, &mut || rows.next())
}
