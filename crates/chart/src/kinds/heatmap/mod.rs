//! heatmap: a value per (x, y) pair of categories, from points or from a
//! matrix table (the first column names the rows).

pub(crate) mod describe;
pub(crate) mod layout;
#[cfg(feature = "serde")]
pub(crate) mod write;

use crate::json::Value;
use crate::kinds::Card;
use crate::model::card::{error, expected, label, number, series_points, Labels};
use crate::model::MAX_HEATMAP_CELLS;
use crate::model::{DataError, DataShape, Path};

pub(crate) fn read(shape: &DataShape) -> Result<Card, DataError> {
    let mut xs = Labels::default();
    let mut ys = Labels::default();
    let mut cells: Vec<(usize, usize, f64)> = Vec::new();
    match shape {
        DataShape::Table { columns, rows } => {
            // A matrix: the first column names the rows, the others are the x categories.
            for column in columns.iter().skip(1) {
                xs.at(column);
            }
            for (r, row) in rows.iter().enumerate() {
                let row_label = row.first().and_then(label).unwrap_or_default();
                let y = ys.at(&row_label);
                for (c, cell) in row.iter().enumerate().skip(1) {
                    let value = match cell {
                        Value::Null => f64::NAN,
                        other => number(other).ok_or_else(|| {
                            let root = Path::Root;
                            let path = root.key("data").key("rows").index(r).index(c).to_string();
                            expected(path, "a number", other)
                        })?,
                    };
                    cells.push((c - 1, y, value));
                }
            }
        }
        _ => {
            for (_, points) in series_points(shape) {
                for point in points {
                    let x = xs.at(&point.label("x")?);
                    let y = ys.at(&point.label("y")?);
                    cells.push((x, y, point.number_or_gap("value")?));
                }
            }
        }
    }
    let (xs, ys) = (xs.0.into_keys(), ys.0.into_keys());
    let size = xs.len().saturating_mul(ys.len());
    if size > MAX_HEATMAP_CELLS {
        return Err(error(
            "data".into(),
            format!(
                "a heatmap of {} x and {} y categories has {size} cells; at most {MAX_HEATMAP_CELLS} can be drawn",
                xs.len(),
                ys.len()
            ),
        ));
    }
    let mut values = vec![f64::NAN; size];
    for (x, y, value) in cells {
        if let Some(slot) = values.get_mut(y * xs.len() + x) {
            *slot = value;
        }
    }
    Ok(Card::Heatmap { xs, ys, values })
}

/// The group's code, reached through `crate::kinds::code` (in the page,
/// once its chunk has loaded).
pub(crate) static CODE: super::GroupCode = super::GroupCode {
    read: |_, shape, _| read(shape),
    finish: super::kept,
    draw: |ctx, body, chart| {
        if let Card::Heatmap { xs, ys, values } = &chart.card {
            layout::draw(ctx, body, xs, ys, values)
        }
    },
    summary: |chart, units| match &chart.card {
        Card::Heatmap { xs, ys, values } => describe::summary(xs, ys, values, units),
        _ => String::new(),
    },
    data_table: |chart, max_rows, f| match &chart.card {
        Card::Heatmap { xs, ys, values } => describe::table(chart, (xs, ys, values), max_rows, f),
        _ => super::no_table(),
    },
};
