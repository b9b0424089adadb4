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

/// Columns of a table card, including the distinct keys of point objects.
pub const MAX_TABLE_COLUMNS: usize = 200;

/// Rows × columns of a table card: the cells the reader keeps as text.
pub const MAX_TABLE_CELLS: usize = 500_000;

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

/// A plain number as a reader expects it: a real minus sign, and thousands
/// separators from five digits up (four-digit numbers are often years).
pub fn display(cell: &str) -> String {
    let (sign, digits) = match cell.strip_prefix('-') {
        Some(rest) => ("\u{2212}", rest),
        None => ("", cell),
    };
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    let plain = !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    if !plain {
        return cell.to_string();
    }
    let grouped = if int.len() >= 5 {
        crate::locale::current().group(int)
    } else {
        int.to_string()
    };
    match frac {
        Some(f) => [sign, &grouped, crate::locale::current().decimal_mark(), f].concat(),
        None => [sign, &grouped].concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_numbers_get_separators_and_a_real_minus() {
        assert_eq!(display("1250000"), "1,250,000");
        assert_eq!(display("-0.03"), "\u{2212}0.03");
        assert_eq!(display("2024"), "2024");
        assert_eq!(display("12345.678"), "12,345.678");
        assert_eq!(display("1e6"), "1e6");
        assert_eq!(display("Acme"), "Acme");
        assert_eq!(display("-"), "-");
        assert_eq!(display("1."), "1.");
    }
}
