//! CSV (UTF-8, a header row, comma-separated, RFC 4180 quoting), read a
//! field at a time with csv-core: a field is copied only up to the most a
//! cell may hold, and only the fields of the header's width are kept, so a
//! line of a million fields or one endless field costs no more memory than
//! a short one.

use csv_core::{ReadFieldResult, Reader};

use super::{Builder, Table, TableError, MAX_CELL_TEXT, MAX_COLUMNS};
use zdr_limits::Stop;

pub fn read_csv(bytes: &[u8], stop: &Stop) -> Result<Table, TableError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|_| TableError::NotUtf8)?;
    let mut records = Records::new(bytes);
    let mut row = 1;
    // The first record is the header.
    if !records.next(MAX_COLUMNS + 1, row)? {
        return Err(TableError::Empty);
    }
    if records.count > MAX_COLUMNS {
        return Err(TableError::TooManyColumns);
    }
    let mut builder = Builder::new(records.fields(), row, stop)?;
    let width = builder.width();
    while records.next(width, row + 1)? {
        row += 1;
        if !records.any {
            continue;
        }
        if records.count > width {
            return Err(TableError::LongRow {
                row,
                found: records.count,
                expected: width,
            });
        }
        builder.row(records.fields(), row)?;
    }
    builder.finish()
}

/// The records of a CSV text, one at a time.
struct Records<'b> {
    reader: Reader,
    input: &'b [u8],
    /// One field as it is unquoted: a byte more than a cell may hold, so
    /// that a longer one is seen.
    field: Vec<u8>,
    /// The kept fields of the record, end to end, and where each ends.
    text: String,
    ends: Vec<usize>,
    /// The record's fields, kept or not.
    count: usize,
    /// Whether any of them is not blank.
    any: bool,
}

impl<'b> Records<'b> {
    fn new(input: &'b [u8]) -> Records<'b> {
        Records {
            reader: Reader::new(),
            input,
            field: vec![0; MAX_CELL_TEXT + 1],
            text: String::new(),
            ends: Vec::new(),
            count: 0,
            any: false,
        }
    }

    fn fields(&self) -> impl Iterator<Item = &str> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let field = self.text.get(start..end).unwrap_or("");
            start = end;
            field
        })
    }

    /// Reads the next record, keeping its first `keep` fields; false at
    /// the end of the text. `row` numbers it for errors.
    fn next(&mut self, keep: usize, row: usize) -> Result<bool, TableError> {
        self.text.clear();
        self.ends.clear();
        self.count = 0;
        self.any = false;
        let mut written = 0;
        loop {
            let out = self.field.get_mut(written..).unwrap_or_default();
            let (result, read, wrote) = self.reader.read_field(self.input, out);
            self.input = self.input.get(read..).unwrap_or_default();
            written += wrote;
            match result {
                ReadFieldResult::InputEmpty => {}
                ReadFieldResult::OutputFull => {
                    return Err(TableError::LongCell {
                        row,
                        column: self.count + 1,
                    })
                }
                ReadFieldResult::Field { record_end } => {
                    let field = std::str::from_utf8(self.field.get(..written).unwrap_or_default())
                        .map_err(|_| TableError::NotUtf8)?;
                    self.any |= !field.trim().is_empty();
                    if self.count < keep {
                        self.text.push_str(field);
                        self.ends.push(self.text.len());
                    }
                    self.count += 1;
                    written = 0;
                    if record_end {
                        return Ok(true);
                    }
                }
                ReadFieldResult::End => return Ok(false),
            }
        }
    }
}
