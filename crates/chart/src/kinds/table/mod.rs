//! table: columns and rows of text, from a table, from point objects (one
//! column per key, in first-seen order) or from series (series, x, y).

pub(crate) mod describe;
pub(crate) mod layout;
#[cfg(feature = "serde")]
pub(crate) mod write;

use crate::json::Value;
use crate::kinds::Card;
use crate::model::card::{error, Labels};
use crate::model::{DataError, DataShape};
use crate::model::{MAX_TABLE_CELLS, MAX_TABLE_COLUMNS};

fn text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        other => crate::model::json_text::compact(other),
    }
}

fn check_table(rows: usize, columns: usize) -> Result<(), DataError> {
    if columns > MAX_TABLE_COLUMNS {
        return Err(error(
            "data".into(),
            format!(
                "a table of {columns} columns; at most {MAX_TABLE_COLUMNS} columns can be shown"
            ),
        ));
    }
    let cells = rows.saturating_mul(columns);
    if cells > MAX_TABLE_CELLS {
        return Err(error(
            "data".into(),
            format!(
                "a table of {rows} rows and {columns} columns has {cells} cells; at most {MAX_TABLE_CELLS} can be shown"
            ),
        ));
    }
    Ok(())
}

pub(crate) fn read(shape: &DataShape) -> Result<Card, DataError> {
    match shape {
        DataShape::Table { columns, rows } => {
            check_table(rows.len(), columns.len())?;
            Ok(Card::Table {
                columns: columns.clone(),
                rows: rows
                    .iter()
                    .map(|row| row.iter().map(text).collect())
                    .collect(),
            })
        }
        DataShape::Points(points) | DataShape::Columns(points) => {
            // Keys in first-seen order, found by hash, and given up on as
            // soon as there are too many: every point may bring new ones.
            let mut columns = Labels::default();
            for point in points {
                let Some(object) = point.as_object() else {
                    continue;
                };
                for key in object.keys() {
                    if columns.at(key) == MAX_TABLE_COLUMNS {
                        return Err(error(
                            "data".into(),
                            format!(
                                "a table of more than {MAX_TABLE_COLUMNS} columns (distinct keys); at most {MAX_TABLE_COLUMNS} columns can be shown"
                            ),
                        ));
                    }
                }
            }
            let columns = columns.0.into_keys();
            check_table(points.len(), columns.len())?;
            let rows = points
                .iter()
                .map(|point| {
                    columns
                        .iter()
                        .map(|column| point.get(column).map(text).unwrap_or_default())
                        .collect()
                })
                .collect();
            Ok(Card::Table { columns, rows })
        }
        DataShape::Series(series) => {
            let count = series.iter().map(|raw| raw.points.len()).sum();
            check_table(count, 3)?;
            Ok(Card::Table {
                columns: vec!["series".into(), "x".into(), "y".into()],
                rows: series
                    .iter()
                    .flat_map(|raw| {
                        raw.points.iter().map(move |point| {
                            vec![
                                raw.name.clone(),
                                point.get("x").map(text).unwrap_or_default(),
                                point.get("y").map(text).unwrap_or_default(),
                            ]
                        })
                    })
                    .collect(),
            })
        }
    }
}

/// The group's code, reached through `crate::kinds::code` (in the page,
/// once its chunk has loaded).
pub(crate) static CODE: super::GroupCode = super::GroupCode {
    read: |_, shape, _| read(shape),
    finish: super::kept,
    draw: |ctx, body, chart| {
        if let Card::Table { columns, rows } = &chart.card {
            layout::draw(ctx, body, columns, rows)
        }
    },
    summary: |chart, _| match &chart.card {
        Card::Table { columns, rows } => describe::summary(columns, rows),
        _ => String::new(),
    },
    data_table: |chart, max_rows, f| match &chart.card {
        Card::Table { columns, rows } => describe::table(columns, rows, max_rows, f),
        _ => super::no_table(),
    },
};
