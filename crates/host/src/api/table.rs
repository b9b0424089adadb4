//! A tabular file read into a clean table: a header of unique names, and
//! cells that are a number, a text, or nothing. Each column gets a kind the
//! recommender reads (dates, numbers, categories). The cleaned table is
//! what the API stores beside the file and hands out as its cleaned file.

use sha2::{Digest, Sha256};
use zdr_chart::geo::{self, Atlas};
use zdr_chart::model::parse_date;

use super::ids::hex;

/// Columns and rows a table may have: beyond them a file is refused.
pub const MAX_COLUMNS: usize = 200;
pub const MAX_ROWS: usize = 100_000;

#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Empty,
    Number(f64),
    Text(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Every value is a date `model/date.rs` reads (`2024`, `2024-05`, …).
    Time,
    Number,
    Category,
    /// Categories that name countries or US states (see [`names_places`]):
    /// a map can show them.
    Place,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub name: String,
    pub kind: Kind,
    pub cells: Vec<Cell>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub columns: Vec<Column>,
    pub rows: usize,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TableError {
    #[error("the file is empty: it needs a header row and at least one row of data")]
    Empty,
    #[error("row {row} has {found} cells, more than the header's {expected}")]
    LongRow {
        row: usize,
        found: usize,
        expected: usize,
    },
    #[error("the file has more than {MAX_COLUMNS} columns")]
    TooManyColumns,
    #[error("the file has more than {MAX_ROWS} rows")]
    TooManyRows,
    #[error("the CSV is malformed: {0}")]
    Csv(String),
    #[error("the text is not UTF-8 (save the CSV as UTF-8)")]
    NotUtf8,
    #[error("the workbook could not be read: {0}")]
    Excel(String),
    #[error("the Parquet file could not be read: {0}")]
    Parquet(String),
    #[error("the file unpacks to more than {} MiB (its {what}); send a smaller file", MAX_UNPACKED >> 20)]
    Unpacked { what: &'static str },
}

/// What a compressed file (the zip of an `.xlsx`, the pages of a `.parquet`)
/// may unpack to, by its own declared sizes, and what the cells of any table
/// may hold as text: a 5 MB file cannot make the host hold gigabytes.
pub const MAX_UNPACKED: usize = 64 << 20;

/// The formats this host reads, by file name extension.
pub fn format_of(file_name: &str) -> Option<&'static str> {
    let lower = file_name.to_ascii_lowercase();
    ["csv", "xlsx", "xls", "parquet"]
        .into_iter()
        .find(|ext| lower.ends_with(&format!(".{ext}")))
}

pub fn content_type_of(format: &str) -> &'static str {
    match format {
        "csv" => "text/csv",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "xls" => "application/vnd.ms-excel",
        "parquet" => "application/vnd.apache.parquet",
        _ => "application/octet-stream",
    }
}

/// A CSV file (UTF-8, a header row, comma-separated, RFC 4180 quoting).
pub fn read_csv(bytes: &[u8]) -> Result<Table, TableError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|_| TableError::NotUtf8)?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut records = reader.records().map(|r| {
        r.map(|r| r.iter().map(str::to_owned).collect())
            .map_err(|e| TableError::Csv(e.to_string()))
    });
    let header = match records.next() {
        Some(record) => record?,
        None => return Err(TableError::Empty),
    };
    build(header, &mut records)
}

/// A table from its header and its rows of texts, cleaned and classified.
fn build(
    header: Vec<String>,
    records: &mut dyn Iterator<Item = Result<Vec<String>, TableError>>,
) -> Result<Table, TableError> {
    if header.len() > MAX_COLUMNS {
        return Err(TableError::TooManyColumns);
    }
    let names = unique_names(header.iter().map(String::as_str));
    let mut raw: Vec<Vec<String>> = vec![Vec::new(); names.len()];
    let mut rows = 0;
    let mut text = 0usize;
    for (n, record) in records.enumerate() {
        let record = record?;
        if record.iter().all(|cell| cell.trim().is_empty()) {
            continue;
        }
        text = text.saturating_add(record.iter().map(String::len).sum());
        if text > MAX_UNPACKED {
            return Err(TableError::Unpacked { what: "cells" });
        }
        if record.len() > names.len() {
            return Err(TableError::LongRow {
                row: n + 2,
                found: record.len(),
                expected: names.len(),
            });
        }
        rows += 1;
        if rows > MAX_ROWS {
            return Err(TableError::TooManyRows);
        }
        for (i, column) in raw.iter_mut().enumerate() {
            column.push(record.get(i).map_or("", |c| c.trim()).to_owned());
        }
    }
    if rows == 0 {
        return Err(TableError::Empty);
    }
    let columns = names
        .into_iter()
        .zip(raw)
        .map(|(name, texts)| column(name, texts))
        .collect();
    Ok(Table { columns, rows })
}

/// A date of days since 1970 (and seconds into it) as the ISO text
/// `model/date.rs` reads: the day alone at midnight.
fn iso(days: i64, seconds: i64) -> String {
    let (y, m, d) = zdr_chart::model::civil_from_days(days);
    if seconds == 0 {
        format!("{y:04}-{m:02}-{d:02}")
    } else {
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60
        )
    }
}

/// The first sheet of an Excel workbook (`.xlsx`, `.xls`): its first row
/// is the header. Dates become ISO dates.
pub fn read_excel(bytes: &[u8]) -> Result<Table, TableError> {
    use calamine::{Data, Reader};
    // An .xlsx is a zip: its parts' declared sizes are checked before
    // calamine unpacks any (an .xls is no zip and has nothing packed).
    if let Ok(mut zip) = zip::ZipArchive::new(std::io::Cursor::new(bytes)) {
        let declared = (0..zip.len())
            .filter_map(|i| zip.by_index_raw(i).ok().map(|part| part.size()))
            .fold(0u64, u64::saturating_add);
        if declared > MAX_UNPACKED as u64 {
            return Err(TableError::Unpacked { what: "worksheets" });
        }
    }
    let mut book = calamine::open_workbook_auto_from_rs(std::io::Cursor::new(bytes))
        .map_err(|e| TableError::Excel(e.to_string()))?;
    let range = book
        .worksheet_range_at(0)
        .ok_or(TableError::Empty)?
        .map_err(|e| TableError::Excel(e.to_string()))?;
    if range.width() > MAX_COLUMNS {
        return Err(TableError::TooManyColumns);
    }
    let text = |cell: &Data| match cell {
        Data::Int(i) => i.to_string(),
        Data::Float(f) => f.to_string(),
        Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => s.clone(),
        Data::Bool(b) => b.to_string(),
        Data::DateTime(at) => {
            // Days since 1899-12-30, the serial's day 0 in both systems calamine reads.
            let serial = at.as_f64();
            let days = serial.floor();
            let seconds = ((serial - days) * 86_400.0).round() as i64;
            iso(days as i64 - 25_569, seconds.min(86_399))
        }
        Data::Error(_) | Data::Empty => String::new(),
    };
    let mut rows = range
        .rows()
        .map(|row| Ok(row.iter().map(text).collect::<Vec<String>>()));
    let header = match rows.next() {
        Some(header) => header?,
        None => return Err(TableError::Empty),
    };
    build(header, &mut rows.take(MAX_ROWS + 1))
}

/// A Parquet file: its columns by name, its rows in order. Dates and
/// timestamps become ISO dates. The reader runs with a guard: a malformed
/// file is refused, never a crash.
pub fn read_parquet(bytes: &[u8]) -> Result<Table, TableError> {
    let bytes = bytes::Bytes::copy_from_slice(bytes);
    std::panic::catch_unwind(move || parquet_table(bytes))
        .unwrap_or_else(|_| Err(TableError::Parquet("the file is malformed".into())))
}

fn parquet_table(bytes: bytes::Bytes) -> Result<Table, TableError> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;
    let error = |e: parquet::errors::ParquetError| TableError::Parquet(e.to_string());
    let reader = SerializedFileReader::new(bytes).map_err(error)?;
    let declared = reader
        .metadata()
        .row_groups()
        .iter()
        .flat_map(|group| group.columns())
        .map(|chunk| chunk.uncompressed_size().max(0) as u64)
        .fold(0u64, u64::saturating_add);
    if declared > MAX_UNPACKED as u64 {
        return Err(TableError::Unpacked { what: "pages" });
    }
    let schema = reader.metadata().file_metadata().schema_descr();
    if schema.num_columns() > MAX_COLUMNS {
        return Err(TableError::TooManyColumns);
    }
    let header: Vec<String> = schema
        .columns()
        .iter()
        .map(|c| c.name().to_owned())
        .collect();
    let text = |field: &Field| match field {
        Field::Null => String::new(),
        Field::Bool(b) => b.to_string(),
        Field::Byte(n) => n.to_string(),
        Field::Short(n) => n.to_string(),
        Field::Int(n) => n.to_string(),
        Field::Long(n) => n.to_string(),
        Field::UByte(n) => n.to_string(),
        Field::UShort(n) => n.to_string(),
        Field::UInt(n) => n.to_string(),
        Field::ULong(n) => n.to_string(),
        Field::Float(n) => n.to_string(),
        Field::Double(n) => n.to_string(),
        Field::Str(s) => s.clone(),
        Field::Date(days) => iso(i64::from(*days), 0),
        Field::TimestampMillis(ms) => {
            iso(ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000) / 1000)
        }
        Field::TimestampMicros(us) => iso(
            us.div_euclid(86_400_000_000),
            us.rem_euclid(86_400_000_000) / 1_000_000,
        ),
        other => other.to_string(),
    };
    let mut rows = reader
        .get_row_iter(None)
        .map_err(error)?
        .take(MAX_ROWS + 1)
        .map(|row| {
            row.map_err(error).map(|row| {
                row.get_column_iter()
                    .map(|(_, f)| text(f))
                    .collect::<Vec<String>>()
            })
        });
    build(header, &mut rows)
}

/// Reads a file of `format` (see [`format_of`]).
pub fn read(format: &str, bytes: &[u8]) -> Result<Table, TableError> {
    match format {
        "csv" => read_csv(bytes),
        "xlsx" | "xls" => read_excel(bytes),
        _ => read_parquet(bytes),
    }
}

/// Header names trimmed, blank ones named by position, repeats numbered.
fn unique_names<'a>(header: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (i, name) in header.enumerate() {
        let base = match name.trim() {
            "" => format!("column {}", i + 1),
            name => name.to_owned(),
        };
        let mut candidate = base.clone();
        let mut n = 2;
        while names.contains(&candidate) {
            candidate = format!("{base} ({n})");
            n += 1;
        }
        names.push(candidate);
    }
    names
}

fn is_missing(text: &str) -> bool {
    matches!(
        text.to_ascii_lowercase().as_str(),
        "" | "na" | "n/a" | "null" | "none" | "-" | "nan"
    )
}

fn number(text: &str) -> Option<f64> {
    // Thousands separators are common in exported CSVs ("1,234.5").
    let plain: String = text.chars().filter(|c| *c != ',' && *c != '_').collect();
    plain.parse::<f64>().ok().filter(|n| n.is_finite())
}

/// More distinct values than there are countries and aliases to match them
/// are no column of places.
const MAX_PLACES: usize = 300;

/// A column names places when it has 2 to [`MAX_PLACES`] distinct values and
/// at least 9 in 10 of them are countries (ISO codes or English names) or at
/// least 9 in 10 are US states (postal codes or names), as the choropleth
/// card finds them.
fn names_places(present: &[&String]) -> bool {
    let mut distinct: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for text in present {
        distinct.insert(text.trim());
        if distinct.len() > MAX_PLACES {
            return false;
        }
    }
    if distinct.len() < 2 {
        return false;
    }
    [Atlas::World, Atlas::UsStates].into_iter().any(|atlas| {
        let found = distinct
            .iter()
            .filter(|t| geo::lookup(atlas, t).is_some())
            .count();
        found * 10 >= distinct.len() * 9
    })
}

fn column(name: String, texts: Vec<String>) -> Column {
    let present: Vec<&String> = texts.iter().filter(|t| !is_missing(t)).collect();
    let dates = !present.is_empty()
        && present.iter().all(|t| parse_date(t).is_some())
        // Plain numbers read as years only where the column says so.
        && (present.iter().any(|t| t.contains('-')) || name.to_ascii_lowercase().contains("year"));
    let numbers = !present.is_empty() && present.iter().all(|t| number(t).is_some());
    let kind = if dates {
        Kind::Time
    } else if numbers {
        Kind::Number
    } else if names_places(&present) {
        Kind::Place
    } else {
        Kind::Category
    };
    let cells = texts
        .into_iter()
        .map(|text| match (is_missing(&text), kind) {
            (true, _) => Cell::Empty,
            (false, Kind::Number) => number(&text).map_or(Cell::Text(text), Cell::Number),
            (false, _) => Cell::Text(text),
        })
        .collect();
    Column { name, kind, cells }
}

impl Table {
    /// The cleaned table as CSV: the unique header, numbers written plainly,
    /// missing values empty.
    pub fn to_csv(&self) -> String {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let _ = writer.write_record(self.columns.iter().map(|c| c.name.as_str()));
        for row in 0..self.rows {
            let _ = writer.write_record(self.columns.iter().map(|c| match c.cells.get(row) {
                Some(Cell::Number(n)) => n.to_string(),
                Some(Cell::Text(t)) => t.clone(),
                _ => String::new(),
            }));
        }
        String::from_utf8(writer.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// What the table holds, in words, for `cleaned_context`.
    pub fn context(&self) -> String {
        let columns: Vec<String> = self
            .columns
            .iter()
            .map(|c| {
                let kind = match c.kind {
                    Kind::Time => "dates",
                    Kind::Number => "numbers",
                    Kind::Category => "categories",
                    Kind::Place => "places",
                };
                format!("{} ({kind})", c.name)
            })
            .collect();
        format!("{} rows; columns: {}", self.rows, columns.join(", "))
    }

    /// Tables with the same column names and kinds share a schema.
    pub fn schema_id(&self) -> String {
        let mut digest = Sha256::new();
        for c in &self.columns {
            digest.update(c.name.as_bytes());
            digest.update([0, c.kind as u8, 0]);
        }
        format!("schema_{}", hex(&digest.finalize()[..8]))
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn places_are_nine_in_ten_countries_or_states() {
        let kind = |values: &[&str]| {
            let texts: Vec<String> = values.iter().map(|v| (*v).to_owned()).collect();
            column("c".into(), texts).kind
        };
        let ten = [
            "Germany", "FR", "JPN", "Brazil", "india", "Mexico", "Kenya", "Peru", "Chile",
        ];
        assert_eq!(kind(&ten), Kind::Place);
        assert_eq!(kind(&[&ten[..], &["Atlantis"]].concat()), Kind::Place);
        assert_eq!(
            kind(&[&ten[..8], &["Atlantis", "Lemuria"]].concat()),
            Kind::Category
        );
        assert_eq!(kind(&["CA", "TX", "New York", "wa"]), Kind::Place);
        assert_eq!(kind(&["North", "South", "East"]), Kind::Category);
        assert_eq!(kind(&["Germany", "Germany"]), Kind::Category);
        let many: Vec<String> = (0..400).map(|i| format!("Germany{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(kind(&many), Kind::Category);
    }

    #[test]
    fn a_csv_is_cleaned_and_its_columns_get_kinds() {
        let table = read_csv(
            "\u{feff}date,Region,sales,,sales\n2024-01,North,\"1,200.5\",x,1\n2024-02,South,NA,y,2\n\n2024-03,North,980\n"
                .as_bytes(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(table.rows, 3);
        let names: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["date", "Region", "sales", "column 4", "sales (2)"]);
        let kinds: Vec<Kind> = table.columns.iter().map(|c| c.kind).collect();
        assert_eq!(
            kinds,
            [
                Kind::Time,
                Kind::Category,
                Kind::Number,
                Kind::Category,
                Kind::Number
            ]
        );
        assert_eq!(
            table.columns[2].cells,
            [Cell::Number(1200.5), Cell::Empty, Cell::Number(980.0)]
        );
        assert_eq!(
            table.to_csv(),
            "date,Region,sales,column 4,sales (2)\n2024-01,North,1200.5,x,1\n2024-02,South,,y,2\n2024-03,North,980,,\n"
        );
        assert!(table
            .context()
            .starts_with("3 rows; columns: date (dates), Region (categories)"));
    }

    #[test]
    fn bad_files_are_refused_with_reasons() {
        assert_eq!(read_csv(b""), Err(TableError::Empty));
        assert_eq!(read_csv(b"a,b\n"), Err(TableError::Empty));
        assert_eq!(read_csv(b"a,b\n\xff,1\n"), Err(TableError::NotUtf8));
        assert!(matches!(
            read_csv(b"a,b\n1,2,3\n"),
            Err(TableError::LongRow { row: 2, .. })
        ));
        let wide = (0..=MAX_COLUMNS)
            .map(|i| format!("c{i}"))
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(
            read_csv(format!("{wide}\n").as_bytes()),
            Err(TableError::TooManyColumns)
        );
    }
}
