//! A table as `visualization_data` (the `serde` feature): a cell that
//! reads back as the same text from a number is written as that number.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::{MAX_TABLE_CELLS, MAX_TABLE_COLUMNS};
use crate::model::write::{over, Field, Seq};
use crate::model::DataError;

pub(crate) fn within_limits(columns: &[String], rows: &[Vec<String>]) -> Result<(), DataError> {
    if columns.len() > MAX_TABLE_COLUMNS
        || rows.len().saturating_mul(columns.len()) > MAX_TABLE_CELLS
    {
        return over(format!(
            "a table of {} rows and {} columns; at most {MAX_TABLE_COLUMNS} columns and {MAX_TABLE_CELLS} cells can be shown",
            rows.len(),
            columns.len()
        ));
    }
    Ok(())
}

pub(crate) fn write<S: Serializer>(
    columns: &[String],
    rows: &[Vec<String>],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(2))?;
    map.serialize_entry("columns", columns)?;
    map.serialize_entry("rows", &Rows(rows))?;
    map.end()
}

struct Rows<'a>(&'a [Vec<String>]);

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut rows = serializer.serialize_seq(Some(self.0.len()))?;
        for row in self.0 {
            rows.serialize_element(&Seq(|| row.iter().map(|cell| Field::Cell(cell))))?;
        }
        rows.end()
    }
}
