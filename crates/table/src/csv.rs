//! CSV (UTF-8, a header row, RFC 4180 quoting), read a field at a time
//! with csv-core: a field is copied only up to the most a cell may hold,
//! and only the fields of the header's width are kept, so a line of a
//! million fields or one endless field costs no more memory than a short
//! one. The delimiter (comma, semicolon, tab, pipe) and a decimal comma
//! are found from the file's first lines, as spreadsheets export them.

use csv_core::{ReadFieldResult, Reader, ReaderBuilder};

use super::{Builder, Table, TableError, MAX_CELL_TEXT, MAX_COLUMNS};
use zdr_limits::Stop;

/// The bytes read to tell the delimiter, at most.
const SNIFF_BYTES: usize = 64 * 1024;
/// The records read to tell it, at most.
const SNIFF_RECORDS: usize = 50;
/// The delimiters told apart, the common one first (it wins a tie).
const DELIMITERS: [(u8, &str); 4] = [
    (b',', "comma-separated"),
    (b';', "semicolon-separated"),
    (b'\t', "tab-separated"),
    (b'|', "pipe-separated"),
];

pub fn read_csv(bytes: &[u8], stop: &Stop) -> Result<Table, TableError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|_| TableError::NotUtf8)?;
    let dialect = sniff(bytes);
    let mut table = read_with(bytes, &dialect, stop)?;
    table.read_as = dialect.said();
    Ok(table)
}

/// How a CSV is written: its delimiter, whether its numbers have a decimal
/// comma, and whether another delimiter read it as well.
#[derive(Debug, Clone, PartialEq)]
struct Dialect {
    delimiter: u8,
    name: &'static str,
    decimal_comma: bool,
    /// Another delimiter that gives the same shape.
    also: Option<&'static str>,
}

impl Dialect {
    fn said(&self) -> Option<String> {
        let comma = if self.decimal_comma {
            ", with decimal commas"
        } else {
            ""
        };
        match (self.delimiter, self.also) {
            (b',', None) if !self.decimal_comma => None,
            (_, Some(other)) => Some(format!(
                "read as {}{comma} (it reads as {other} too)",
                self.name
            )),
            _ => Some(format!("read as {}{comma}", self.name)),
        }
    }
}

/// The delimiter whose first records have most fields the same number of
/// times (at least two fields), commas on a tie; a decimal comma where
/// numbers are written so and none with a decimal point.
fn sniff(bytes: &[u8]) -> Dialect {
    let sample = bytes.get(..SNIFF_BYTES.min(bytes.len())).unwrap_or(bytes);
    let mut best: Option<((usize, usize), usize)> = None;
    let mut scores = Vec::new();
    for (i, (delimiter, _)) in DELIMITERS.iter().enumerate() {
        let counts = field_counts(sample, *delimiter);
        let score = shape(&counts);
        scores.push(score);
        if score.1 >= 2 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, i));
        }
    }
    let chosen = best.map_or(0, |(_, i)| i);
    let (delimiter, name) = DELIMITERS[chosen];
    let also = best.and_then(|(score, i)| {
        scores
            .iter()
            .enumerate()
            .find(|(j, s)| *j != i && **s == score)
            .map(|(j, _)| DELIMITERS[j].1)
    });
    let decimal_comma = delimiter != b',' && decimal_commas(sample, delimiter);
    Dialect {
        delimiter,
        name,
        decimal_comma,
        also,
    }
}

/// The fields of each of the first records of `sample` read with
/// `delimiter`.
fn field_counts(sample: &[u8], delimiter: u8) -> Vec<usize> {
    let mut reader = ReaderBuilder::new().delimiter(delimiter).build();
    let mut input = sample;
    let mut out = [0u8; 1024];
    let (mut counts, mut fields) = (Vec::new(), 0);
    while counts.len() < SNIFF_RECORDS {
        let (result, read, _) = reader.read_field(input, &mut out);
        input = input.get(read..).unwrap_or_default();
        match result {
            ReadFieldResult::Field { record_end } => {
                fields += 1;
                if record_end {
                    counts.push(fields);
                    fields = 0;
                }
            }
            // A long field is still one field.
            ReadFieldResult::OutputFull => {}
            ReadFieldResult::InputEmpty | ReadFieldResult::End => break,
        }
    }
    counts
}

/// How often the commonest field count comes, and that count.
fn shape(counts: &[usize]) -> (usize, usize) {
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for &c in counts {
        match seen.iter_mut().find(|(n, _)| *n == c) {
            Some((_, times)) => *times += 1,
            None => seen.push((c, 1)),
        }
    }
    seen.into_iter()
        .map(|(n, times)| (times, n))
        .max()
        .unwrap_or((0, 0))
}

/// Whether the sample's numbers are written with a decimal comma (`12,5`,
/// `1.234,5`) and none with a decimal point (`12.5`).
fn decimal_commas(sample: &[u8], delimiter: u8) -> bool {
    let text = std::str::from_utf8(sample).unwrap_or("");
    let (mut comma, mut point) = (0, 0);
    for field in text
        .lines()
        .flat_map(|l| l.split(char::from(delimiter)))
        .map(|f| f.trim().trim_matches('"'))
    {
        if comma_number(field).is_some() {
            comma += 1;
        } else if point_decimal(field) {
            point += 1;
        }
    }
    comma > 0 && point == 0
}

/// A number written with a decimal comma, as it reads with a point:
/// `-1.234,5` → `-1234.5`.
fn comma_number(field: &str) -> Option<String> {
    let (whole, fraction) = field.split_once(',')?;
    let digits = whole.strip_prefix('-').unwrap_or(whole);
    let grouped = digits.split('.').enumerate().all(|(i, g)| {
        !g.is_empty()
            && g.len() <= 3
            && (i == 0 || g.len() == 3)
            && g.bytes().all(|b| b.is_ascii_digit())
    });
    let plain = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let fraction_ok = !fraction.is_empty() && fraction.bytes().all(|b| b.is_ascii_digit());
    ((plain || grouped) && fraction_ok).then(|| {
        format!(
            "{}{}.{fraction}",
            if whole.starts_with('-') { "-" } else { "" },
            digits.replace('.', "")
        )
    })
}

/// A number with a decimal point that no thousands separator could be
/// (`12.5`, `0.25`, `3.14159`).
fn point_decimal(field: &str) -> bool {
    let digits = field.strip_prefix('-').unwrap_or(field);
    match digits.split_once('.') {
        Some((w, f)) => {
            !w.is_empty()
                && w.bytes().all(|b| b.is_ascii_digit())
                && !f.is_empty()
                && f.bytes().all(|b| b.is_ascii_digit())
                && f.len() != 3
        }
        None => false,
    }
}

fn read_with(bytes: &[u8], dialect: &Dialect, stop: &Stop) -> Result<Table, TableError> {
    let mut records = Records::new(bytes, dialect);
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
    /// Numbers are written `1.234,5`: read as `1234.5`.
    decimal_comma: bool,
}

impl<'b> Records<'b> {
    fn new(input: &'b [u8], dialect: &Dialect) -> Records<'b> {
        Records {
            reader: ReaderBuilder::new().delimiter(dialect.delimiter).build(),
            decimal_comma: dialect.decimal_comma,
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
                        match comma_number(field.trim()).filter(|_| self.decimal_comma) {
                            Some(number) => self.text.push_str(&number),
                            None => self.text.push_str(field),
                        }
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
