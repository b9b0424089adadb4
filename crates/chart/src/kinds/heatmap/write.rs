//! A heatmap as `visualization_data` (the `serde` feature).

use serde::Serializer;

use super::MAX_HEATMAP_CELLS;
use crate::model::write::{over, Field, Obj};
use crate::model::DataError;

pub(crate) fn within_limits(xs: &[String], ys: &[String]) -> Result<(), DataError> {
    if xs.len().saturating_mul(ys.len()) > MAX_HEATMAP_CELLS {
        return over(format!(
            "a heatmap of {} x and {} y categories; at most {MAX_HEATMAP_CELLS} cells can be drawn",
            xs.len(),
            ys.len()
        ));
    }
    Ok(())
}

/// Cells row by row. The first row is written whole and every later row
/// from its first cell, so that the labels come in the card's order; past
/// those, a missing cell is left out.
pub(crate) fn write<S: Serializer>(
    xs: &[String],
    ys: &[String],
    values: &[f64],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let width = xs.len();
    let cells = ys.iter().enumerate().flat_map(|(r, y)| {
        xs.iter().enumerate().filter_map(move |(c, x)| {
            let value = values.get(r * width + c).copied().unwrap_or(f64::NAN);
            (r == 0 || c == 0 || value.is_finite()).then_some(Obj([
                ("x", Some(Field::Text(x))),
                ("y", Some(Field::Text(y))),
                ("value", Some(Field::Number(value))),
            ]))
        })
    });
    serializer.collect_seq(cells)
}
