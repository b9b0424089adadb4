//! A treemap in words: its categories, groups, total and largest; as a
//! table, [Group |] Category | Value | Share.

use super::Treemap;
use crate::describe::cells::Cells;
use crate::describe::summary::{counted, join, short};
use crate::describe::table::build;
use crate::describe::DataTable;
use crate::label;

pub(crate) fn summary(t: &Treemap, units: Option<&str>) -> String {
    let total = t.total();
    let values: Vec<f64> = t.leaves.iter().map(|l| l.value).collect();
    // Largest first: the reader hears what matters before the list is cut.
    let largest: Vec<String> = crate::order::ranked(&values, true)
        .iter()
        .take(3)
        .filter_map(|&i| t.leaves.get(i))
        .map(|l| format!("{} ({})", short(&l.label), label::percent(l.value / total)))
        .collect();
    join([
        Some(counted(t.leaves.len(), "category", "categories")),
        t.grouped()
            .then(|| format!("in {}", counted(t.groups.len(), "group", "groups"))),
        Some(format!("total {}", label::value(total, units))),
        Some(format!("largest {}", largest.join(", "))),
    ])
}

pub(crate) fn table(
    t: &Treemap,
    (x_name, y_name): (String, String),
    max_rows: usize,
    f: Cells<'_>,
) -> DataTable {
    let grouped = t.grouped();
    let mut columns = Vec::with_capacity(4);
    if grouped {
        columns.push("Group".to_string());
    }
    columns.extend([x_name, y_name, "Share".into()]);
    let total = t.total();
    let mut rows = t.leaves.iter().map(|leaf| {
        let mut row = Vec::with_capacity(4);
        if grouped {
            row.push(t.groups.get(leaf.group).cloned().unwrap_or_default());
        }
        row.push(leaf.label.clone());
        row.push(f.value(leaf.value));
        row.push(f.share(leaf.value / total));
        row
    });
    build(columns, max_rows, t.leaves.len(), &mut || rows.next())
}
