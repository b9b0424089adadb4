//! An `.xlsx` workbook: its zip unpacked once and counted ([`unpack`]),
//! then the first sheet's cells streamed one at a time by calamine's cell
//! reader, in the order the sheet holds them. Nothing is sized by the
//! sheet's declared dimension, and no rows × columns rectangle is ever
//! filled: a sheet with cells at A1 and XFD1048576 costs two cells.

use std::borrow::Cow;
use std::io::Cursor;

use calamine::{DataRef, Reader, Xlsx};

use super::{guarded, iso, unpack, Builder, Table, TableError, MAX_COLUMNS};
use zdr_limits::Stop;

/// Excel's own largest sheet: a declared dimension beyond it is malformed.
const EXCEL_ROWS: u32 = 1_048_576;
const EXCEL_COLUMNS: u32 = 16_384;

/// How often (in cells) the read checks whether it should stop.
const STOP_EVERY: usize = 256;

fn excel(error: impl std::fmt::Display) -> TableError {
    TableError::Excel(error.to_string())
}

pub fn read(bytes: &[u8], stop: &Stop) -> Result<Table, TableError> {
    unpack::check_zip(bytes, stop)?;
    guarded(TableError::Excel, || {
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).map_err(excel)?;
        let first = book
            .sheet_names()
            .first()
            .cloned()
            .ok_or(TableError::Empty)?;
        let mut cells = book.worksheet_cells_reader(&first).map_err(excel)?;
        // Read, never trusted: only its sanity is checked.
        let declared = cells.dimensions();
        if declared.end.0 >= EXCEL_ROWS || declared.end.1 >= EXCEL_COLUMNS {
            return Err(TableError::Excel(format!(
                "the sheet declares cells beyond Excel's largest sheet ({EXCEL_ROWS} rows of {EXCEL_COLUMNS} columns)"
            )));
        }
        let mut rows = Rows::new(stop);
        let mut seen = 0usize;
        while let Some(cell) = cells.next_cell().map_err(excel)? {
            let (row, column) = cell.get_position();
            rows.cell(row, column, text(cell.get_value()))?;
            seen += 1;
            if seen % STOP_EVERY == 0 {
                stop.check()?;
            }
        }
        rows.finish()
    })
}

/// A cell's value as the text the table cleans.
pub fn text<'a>(value: &'a DataRef<'_>) -> Cow<'a, str> {
    match value {
        DataRef::Int(i) => Cow::Owned(i.to_string()),
        DataRef::Float(f) => Cow::Owned(f.to_string()),
        DataRef::String(s) | DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => Cow::Borrowed(s),
        DataRef::SharedString(s) => Cow::Borrowed(s),
        DataRef::Bool(b) => Cow::Owned(b.to_string()),
        DataRef::DateTime(at) => Cow::Owned(serial_date(at.as_f64())),
        DataRef::Error(_) | DataRef::Empty => Cow::Borrowed(""),
    }
}

/// An Excel date serial (days since 1899-12-30, the day 0 of both systems
/// calamine reads) as an ISO date.
pub fn serial_date(serial: f64) -> String {
    let days = serial.floor();
    let seconds = ((serial - days) * 86_400.0).round() as i64;
    iso(days as i64 - 25_569, seconds.clamp(0, 86_399))
}

/// Cells that arrive by position, made into rows: the first row with a
/// value is the header; rows without one are skipped, wherever they are.
pub struct Rows<'s> {
    stop: &'s Stop,
    builder: Option<Builder<'s>>,
    /// The row being filled, and its cells by column.
    at: Option<u32>,
    cells: Vec<String>,
}

impl<'s> Rows<'s> {
    pub fn new(stop: &'s Stop) -> Rows<'s> {
        Rows {
            stop,
            builder: None,
            at: None,
            cells: Vec::new(),
        }
    }

    /// The cell at `row`, `column` (from 0). Rows must come in order, as
    /// Excel writes them.
    pub fn cell(&mut self, row: u32, column: u32, text: Cow<'_, str>) -> Result<(), TableError> {
        match self.at {
            Some(at) if row < at => {
                return Err(TableError::Excel(format!(
                    "the sheet's rows are out of order (row {} after row {})",
                    u64::from(row) + 1,
                    u64::from(at) + 1
                )))
            }
            Some(at) if row > at => self.flush()?,
            _ => {}
        }
        self.at = Some(row);
        if text.trim().is_empty() {
            return Ok(());
        }
        let column = column as usize;
        if column >= MAX_COLUMNS {
            return Err(TableError::TooManyColumns);
        }
        if self.cells.len() <= column {
            self.cells.resize(column + 1, String::new());
        }
        if let Some(cell) = self.cells.get_mut(column) {
            *cell = text.into_owned();
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), TableError> {
        let row = self.at.map_or(0, |at| at as usize + 1);
        if self.cells.is_empty() {
            return Ok(());
        }
        let cells = self.cells.iter().map(String::as_str);
        match &mut self.builder {
            None => self.builder = Some(Builder::new(cells, row, self.stop)?),
            Some(builder) => builder.row(cells, row)?,
        }
        self.cells.clear();
        Ok(())
    }

    pub fn finish(mut self) -> Result<Table, TableError> {
        self.flush()?;
        self.builder.ok_or(TableError::Empty)?.finish()
    }
}
