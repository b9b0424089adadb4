//! An `.xls` workbook (BIFF8 in an OLE compound file). calamine reads it
//! whole at once, sizes some of what it holds by what the file declares,
//! and follows the container's sector chains without a guard; so it is
//! never handed the file as it came:
//!
//! 1. the container is read by the `cfb` crate, which checks its chains
//!    and sizes, and only the workbook stream is taken out of it (at most
//!    the file's size);
//! 2. the stream's records are scanned once: the sheets after the first
//!    are unlinked (this host reads the first), every DIMENSIONS record
//!    (a declared size calamine reserves memory by) is made inert, and the
//!    first sheet's cells must lie in a rectangle of at most
//!    [`MAX_AREA`] cells, which is what calamine fills;
//! 3. calamine reads a new, well-formed container holding that stream.
//!
//! Records are patched in place (a type changed, never a length), so the
//! offsets the stream holds stay right.

use std::io::{Cursor, Read, Write};

use calamine::{Data, Reader, Xls};

use super::xlsx::{serial_date, Rows};
use super::{guarded, Table, TableError};
use zdr_limits::Stop;

/// The cells a sheet's rectangle (from its first cell to its last) may
/// hold: calamine fills it whole, for values and again for formulas.
pub const MAX_AREA: u64 = 500_000;

/// A record type no reader acts on.
const INERT: u16 = 0x7FFF;
const CONTINUE: u16 = 0x003C;
/// CONTINUE records in a row at most: calamine takes each off the front of
/// a list, so its work grows with the square of their number (a 4.6 MB
/// file of a million empty ones ran for minutes). A shared-strings table
/// of a 5 MB workbook needs a few hundred.
const MAX_CONTINUES: usize = 2_048;
const EOF: u16 = 0x000A;
const BOUND_SHEET: u16 = 0x0085;
const DIMENSIONS: u16 = 0x0200;
const FORMULA: u16 = 0x0006;
/// Records that hold a cell at (row, column) in their first four bytes.
const CELLS: [u16; 6] = [0x0203, 0x0204, 0x0205, 0x027E, 0x00FD, FORMULA];
const MUL_RK: u16 = 0x00BD;

fn excel(error: impl std::fmt::Display) -> TableError {
    TableError::Excel(error.to_string())
}

pub fn read(bytes: &[u8], stop: &Stop) -> Result<Table, TableError> {
    let mut stream = guarded(TableError::Excel, || workbook_stream(bytes))?;
    scan(&mut stream)?;
    stop.check()?;
    let canonical = guarded(TableError::Excel, || container(&stream))?;
    drop(stream);
    guarded(TableError::Excel, || {
        let mut book: Xls<_> = Xls::new(Cursor::new(canonical)).map_err(excel)?;
        let range = book
            .worksheet_range_at(0)
            .ok_or(TableError::Empty)?
            .map_err(excel)?;
        drop(book);
        let (top, left) = range.start().unwrap_or((0, 0));
        let mut rows = Rows::new(stop);
        for (r, row) in range.rows().enumerate() {
            for (c, value) in row.iter().enumerate() {
                let text = match value {
                    Data::Int(i) => i.to_string(),
                    Data::Float(f) => f.to_string(),
                    Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => s.clone(),
                    Data::Bool(b) => b.to_string(),
                    Data::DateTime(at) => serial_date(at.as_f64()),
                    Data::Error(_) | Data::Empty => continue,
                };
                rows.cell(top + r as u32, left + c as u32, text.into())?;
            }
        }
        rows.finish()
    })
}

/// The workbook stream of the compound file, read by a container reader
/// that checks what it follows.
fn workbook_stream(bytes: &[u8]) -> Result<Vec<u8>, TableError> {
    let mut file = cfb::CompoundFile::open(Cursor::new(bytes))
        .map_err(|e| TableError::Excel(format!("the OLE container is malformed ({e})")))?;
    let name = ["/Workbook", "/Book"]
        .into_iter()
        .find(|name| file.is_stream(name))
        .ok_or_else(|| TableError::Excel("the file holds no workbook stream".into()))?;
    let stream = file.open_stream(name).map_err(excel)?;
    let mut out = Vec::new();
    // A stream is never larger than the file that holds it.
    stream
        .take(bytes.len() as u64)
        .read_to_end(&mut out)
        .map_err(excel)?;
    Ok(out)
}

/// A compound file holding only `stream` as its workbook.
fn container(stream: &[u8]) -> Result<Vec<u8>, TableError> {
    // Version 3 (512-byte sectors): calamine refuses a version 4 file whose
    // root holds no mini stream, which is what a workbook stream of 4 KB or
    // more leaves it.
    let mut file =
        cfb::CompoundFile::create_with_version(cfb::Version::V3, Cursor::new(Vec::new()))
            .map_err(excel)?;
    let mut workbook = file.create_stream("/Workbook").map_err(excel)?;
    workbook.write_all(stream).map_err(excel)?;
    drop(workbook);
    file.flush().map_err(excel)?;
    Ok(file.into_inner().into_inner())
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes([
        *bytes.get(at)?,
        *bytes.get(at + 1)?,
        *bytes.get(at + 2)?,
        *bytes.get(at + 3)?,
    ]))
}

/// The records of a stream from `at` to the end of its substream (its EOF
/// record): each one's type, where its type is, and its data's span.
fn records(stream: &[u8], mut at: usize) -> impl Iterator<Item = (u16, usize, usize, usize)> + '_ {
    std::iter::from_fn(move || {
        let kind = u16_at(stream, at)?;
        let len = u16_at(stream, at + 2)? as usize;
        let start = at + 4;
        let end = start.checked_add(len).filter(|&end| end <= stream.len())?;
        let record = (kind, at, start, end);
        at = if kind == EOF { stream.len() } else { end };
        Some(record)
    })
}

/// No run of more than [`MAX_CONTINUES`] CONTINUE records, anywhere in the
/// stream (substreams and all: the whole stream is walked record by
/// record).
fn continues(stream: &[u8]) -> Result<(), TableError> {
    let (mut at, mut run) = (0usize, 0usize);
    while let (Some(kind), Some(len)) = (u16_at(stream, at), u16_at(stream, at + 2)) {
        run = if kind == CONTINUE { run + 1 } else { 0 };
        if run > MAX_CONTINUES {
            return Err(TableError::Bound(format!(
                "the workbook has more than {MAX_CONTINUES} CONTINUE records in a row, the most this host reads"
            )));
        }
        at += 4 + len as usize;
    }
    Ok(())
}

/// The smallest rectangle holding some cells.
#[derive(Default)]
struct Rectangle(Option<(u32, u32, u32, u32)>);

impl Rectangle {
    fn add(&mut self, row: u32, first: u32, last: u32) {
        self.0 = Some(match self.0 {
            None => (row, row, first, last),
            Some((r0, r1, c0, c1)) => (r0.min(row), r1.max(row), c0.min(first), c1.max(last)),
        });
    }

    fn area(&self) -> u64 {
        self.0.map_or(0, |(r0, r1, c0, c1)| {
            (u64::from(r1 - r0) + 1) * (u64::from(c1 - c0) + 1)
        })
    }
}

/// Step 2 of the module's list, in place.
fn scan(stream: &mut [u8]) -> Result<(), TableError> {
    continues(stream)?;
    let mut patch = Vec::new();
    let mut first_sheet = None;
    for (kind, at, start, end) in records(stream, 0) {
        match kind {
            BOUND_SHEET if first_sheet.is_none() => {
                let data = stream.get(start..end).unwrap_or_default();
                first_sheet = Some(
                    u32_at(data, 0).ok_or_else(|| excel("a sheet record is malformed"))? as usize,
                );
            }
            BOUND_SHEET | DIMENSIONS => patch.push(at),
            _ => {}
        }
    }
    let first_sheet = first_sheet.ok_or(TableError::Empty)?;
    if first_sheet >= stream.len() {
        return Err(excel("the first sheet lies beyond the workbook stream"));
    }
    let (mut values, mut formulas) = (Rectangle::default(), Rectangle::default());
    for (kind, at, start, end) in records(stream, first_sheet) {
        let data = stream.get(start..end).unwrap_or_default();
        let (Some(row), Some(column)) = (u16_at(data, 0), u16_at(data, 2)) else {
            continue;
        };
        let (row, column) = (u32::from(row), u32::from(column));
        match kind {
            DIMENSIONS => patch.push(at),
            FORMULA => {
                values.add(row, column, column);
                formulas.add(row, column, column);
            }
            MUL_RK => {
                let last = data.len().checked_sub(2).and_then(|at| u16_at(data, at));
                if let Some(last) = last.filter(|&last| u32::from(last) >= column) {
                    values.add(row, column, u32::from(last));
                }
            }
            kind if CELLS.contains(&kind) => values.add(row, column, column),
            _ => {}
        }
    }
    for (what, rectangle) in [("values", &values), ("formulas", &formulas)] {
        if rectangle.area() > MAX_AREA {
            return Err(TableError::Bound(format!(
                "the first sheet's {what} span {} cells from the first to the last (a rectangle of rows × columns); an .xls sheet may span at most {MAX_AREA}",
                rectangle.area()
            )));
        }
    }
    for at in patch {
        if let Some(kind) = stream.get_mut(at..at + 2) {
            kind.copy_from_slice(&INERT.to_le_bytes());
        }
    }
    Ok(())
}
