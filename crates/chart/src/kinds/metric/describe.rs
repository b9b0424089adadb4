//! A headline number in words: the value, when, and its comparison; as a
//! table, its points (or the value, the previous one and the change).

use super::Metric;
use crate::describe::cells::Cells;
use crate::describe::summary::{counted, join};
use crate::describe::table::build;
use crate::describe::DataTable;
use crate::label;

pub(crate) fn summary(m: &Metric, units: Option<&str>) -> String {
    let mut text = label::exact(m.value, units);
    if let Some(at) = &m.at {
        text.push_str(&format!(" in {}", label::when(at)));
    }
    join([
        Some(text),
        m.previous
            .map(|p| label::comparison(m.value, p, m.previous_at.as_ref(), units)),
        (m.points.len() > 2)
            .then(|| format!("the last of {}", counted(m.points.len(), "value", "values"))),
    ])
}

pub(crate) fn table(
    m: &Metric,
    (x_name, y_name): (String, String),
    max_rows: usize,
    f: Cells<'_>,
) -> DataTable {
    // A value with its own "previous": the comparison is the table.
    if m.points.len() < 2 {
        let mut columns = vec![y_name];
        let mut row = vec![f.value(m.value)];
        if let Some(previous) = m.previous {
            columns.extend(["Previous".to_string(), "Change".into()]);
            row.push(f.value(previous));
            let mut change = f.change(m.value - previous);
            if let Some(p) = label::percent_change(m.value, previous).filter(|_| !f.is_raw()) {
                change.push_str(&format!(" ({p})"));
            }
            row.push(change);
        }
        let mut rows = std::iter::once(row);
        return build(columns, max_rows, 1, &mut || rows.next());
    }
    let columns = vec![x_name, y_name];
    let mut rows = m.points.iter().map(|(at, v)| {
        vec![
            at.as_ref().map(|at| f.when(at)).unwrap_or_default(),
            f.value(*v),
        ]
    });
    build(columns, max_rows, m.points.len(), &mut || rows.next())
}
