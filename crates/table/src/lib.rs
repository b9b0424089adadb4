//! A tabular file read into a clean table: a header of unique names, and
//! cells that are a number, a text, or nothing. Each column gets a kind the
//! recommender reads (dates, numbers, categories). The cleaned table is
//! what the API stores beside the file and hands out as its cleaned file.
//!
//! Every reader ([`csv`], [`xlsx`], [`xls`], [`parquet`]) streams its rows
//! into one [`Builder`], which holds the table's bounds: they are checked on
//! what is actually read, as it is read, never on what a file says of
//! itself. What a compressed file unpacks to is counted as it comes out
//! ([`unpack`]). docs/service-api.md "Reading files" lists the bounds and
//! the memory they keep a read to.

mod csv;
mod parquet;
mod thrift;
mod unpack;
mod xls;
mod xlsx;

use sha2::{Digest, Sha256};
use zdr_chart::geo::{self, Atlas};
use zdr_chart::model::parse_date;

use zdr_limits::{Stop, Stopped};

pub use self::csv::read_csv;

/// Columns, rows and cells (rows × columns) a table may have.
pub const MAX_COLUMNS: usize = 200;
pub const MAX_ROWS: usize = 100_000;
pub const MAX_CELLS: usize = 1_000_000;
/// The bytes of text all cells may hold together (a workbook's shared
/// strings can repeat one long text in every cell).
pub const MAX_TEXT: usize = 16 << 20;
/// The bytes one cell (a header's too) may hold: Excel's own limit.
pub const MAX_CELL_TEXT: usize = 32_767;
/// What a compressed file (the zip of an `.xlsx`, the pages of a
/// `.parquet`) may unpack to, counted as it unpacks.
pub const MAX_UNPACKED: usize = 64 << 20;

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
    /// How a CSV was read where it was not the common way (comma-separated,
    /// decimal points), or where it could be read two ways: said in the
    /// answer ("semicolon-separated, with decimal commas").
    pub read_as: Option<String>,
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
    #[error("the table has more than {MAX_COLUMNS} columns, the most a table may have")]
    TooManyColumns,
    #[error("the table has more than {MAX_ROWS} rows of data, the most a table may have")]
    TooManyRows,
    #[error("the table has more than {} cells ({rows} rows of {columns} columns so far), the most a table may have (rows × columns)", group(MAX_CELLS))]
    TooManyCells { rows: usize, columns: usize },
    #[error("the cells hold more than {} MiB of text together, the most a table may hold", MAX_TEXT >> 20)]
    TooMuchText,
    #[error(
        "row {row}, column {column} holds more than {} bytes, the most a cell may hold",
        group(MAX_CELL_TEXT)
    )]
    LongCell { row: usize, column: usize },
    #[error("the CSV is malformed: {0}")]
    Csv(String),
    #[error("the text is not UTF-8 (save the CSV as UTF-8)")]
    NotUtf8,
    #[error("the workbook could not be read: {0}")]
    Excel(String),
    #[error("the Parquet file could not be read: {0}")]
    Parquet(String),
    /// `what` says which part and how it was counted.
    #[error("{what} unpacks to more than {} MiB, the most a file may unpack to; send a smaller file", MAX_UNPACKED >> 20)]
    Unpacked { what: String },
    /// The bound that was passed, said whole.
    #[error("{0}")]
    Bound(String),
    /// The file is not what its name says.
    #[error("{0}")]
    Format(String),
    /// The request was abandoned or ran out of time: no fault of the file.
    #[error("the file's reading was stopped")]
    Stopped(Stopped),
}

/// `1000000` as `1,000,000`: the API's messages are English, grouped as
/// the engine groups numbers for en-US.
fn group(n: usize) -> String {
    zdr_chart::locale::Locale::default().group(&n.to_string())
}

impl From<Stopped> for TableError {
    fn from(stopped: Stopped) -> TableError {
        TableError::Stopped(stopped)
    }
}

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

/// A zip (an `.xlsx`) starts with a local file header.
const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
/// An `.xls` is an OLE compound file.
const CFB_MAGIC: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";

/// Reads a file of `format` (see [`format_of`]). A workbook is read by
/// what it is, `.xls` or `.xlsx`, whichever its name says; anything else
/// under a workbook's name is refused before a reader sees it.
pub fn read(format: &str, bytes: &[u8], stop: &Stop) -> Result<Table, TableError> {
    match format {
        "csv" => {
            if bytes.starts_with(ZIP_MAGIC) || bytes.starts_with(CFB_MAGIC) {
                return Err(TableError::Format(
                    "the file is named .csv but is a workbook or an archive; send it under its own name (.xlsx or .xls)".into(),
                ));
            }
            read_csv(bytes, stop)
        }
        "xlsx" | "xls" if bytes.starts_with(ZIP_MAGIC) => xlsx::read(bytes, stop),
        "xlsx" | "xls" if bytes.starts_with(CFB_MAGIC) => xls::read(bytes, stop),
        "xlsx" | "xls" => Err(TableError::Format(format!(
            "the file is named .{format} but is no Excel workbook (neither a zip nor an OLE compound file); save it from a spreadsheet program as .xlsx, or send a CSV as .csv"
        ))),
        _ => parquet::read(bytes, stop),
    }
}

/// Runs a third-party reader so that a panic in it (a malformed file it
/// did not expect) is a refusal of the file, never a crash.
fn guarded<T>(
    what: fn(String) -> TableError,
    read: impl FnOnce() -> Result<T, TableError>,
) -> Result<T, TableError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(read))
        .unwrap_or_else(|_| Err(what("the file is malformed".into())))
}

/// A column's cells as they are read: their texts end to end, and where
/// each ends (4 bytes a cell beside its text).
#[derive(Default)]
struct Raw {
    text: String,
    ends: Vec<u32>,
}

impl Raw {
    fn texts(&self) -> impl Iterator<Item = &str> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let end = end as usize;
            let text = self.text.get(start..end).unwrap_or("");
            start = end;
            text
        })
    }
}

/// Rows are streamed in one at a time; every bound is checked as each row
/// arrives, so a read stops at the first row past one.
pub(crate) struct Builder<'s> {
    names: Vec<String>,
    columns: Vec<Raw>,
    rows: usize,
    text: usize,
    stop: &'s Stop,
    /// The current row's cells, reused.
    row: Vec<(usize, usize)>,
    scratch: String,
}

/// How often (in rows) a read checks whether it should stop.
const STOP_EVERY: usize = 1024;

impl<'s> Builder<'s> {
    /// A table of the columns `header` names. `row` numbers the header's
    /// row in the file for errors.
    pub fn new<'a>(
        header: impl IntoIterator<Item = &'a str>,
        row: usize,
        stop: &'s Stop,
    ) -> Result<Builder<'s>, TableError> {
        let mut names = Vec::new();
        for (i, name) in header.into_iter().enumerate() {
            if i == MAX_COLUMNS {
                return Err(TableError::TooManyColumns);
            }
            if name.len() > MAX_CELL_TEXT {
                return Err(TableError::LongCell { row, column: i + 1 });
            }
            names.push(name);
        }
        let names = unique_names(names.into_iter());
        let columns = names.iter().map(|_| Raw::default()).collect();
        Ok(Builder {
            names,
            columns,
            rows: 0,
            text: 0,
            stop,
            row: Vec::new(),
            scratch: String::new(),
        })
    }

    pub fn width(&self) -> usize {
        self.names.len()
    }

    /// One row of the file (`row` numbers it for errors): a row of blank
    /// cells is skipped; one longer than the header is refused.
    pub fn row<'a>(
        &mut self,
        cells: impl IntoIterator<Item = &'a str>,
        row: usize,
    ) -> Result<(), TableError> {
        self.scratch.clear();
        self.row.clear();
        let (mut found, mut beyond) = (0, false);
        for (i, cell) in cells.into_iter().enumerate() {
            found = i + 1;
            if i >= self.names.len() {
                beyond |= !cell.trim().is_empty();
                continue;
            }
            if cell.len() > MAX_CELL_TEXT {
                return Err(TableError::LongCell { row, column: i + 1 });
            }
            let cell = cell.trim();
            let start = self.scratch.len();
            self.scratch.push_str(cell);
            self.row.push((start, self.scratch.len()));
        }
        if self.scratch.is_empty() && !beyond {
            return Ok(());
        }
        if found > self.names.len() {
            return Err(TableError::LongRow {
                row,
                found,
                expected: self.names.len(),
            });
        }
        self.rows += 1;
        if self.rows > MAX_ROWS {
            return Err(TableError::TooManyRows);
        }
        if self.rows.saturating_mul(self.names.len()) > MAX_CELLS {
            return Err(TableError::TooManyCells {
                rows: self.rows,
                columns: self.names.len(),
            });
        }
        self.text += self.scratch.len();
        if self.text > MAX_TEXT {
            return Err(TableError::TooMuchText);
        }
        for (i, column) in self.columns.iter_mut().enumerate() {
            if let Some(&(start, end)) = self.row.get(i) {
                column
                    .text
                    .push_str(self.scratch.get(start..end).unwrap_or(""));
            }
            // MAX_TEXT keeps every end within u32.
            column.ends.push(column.text.len() as u32);
        }
        if self.rows % STOP_EVERY == 0 {
            self.stop.check()?;
        }
        Ok(())
    }

    /// The table, its columns cleaned and classified one at a time. A
    /// column with neither a name nor a value (a trailing comma, a sheet
    /// that starts at column B) is left out.
    pub fn finish(self) -> Result<Table, TableError> {
        self.stop.check()?;
        if self.rows == 0 {
            return Err(TableError::Empty);
        }
        let mut columns = Vec::with_capacity(self.names.len());
        for (name, raw) in self.names.into_iter().zip(self.columns) {
            if name.starts_with(BLANK_NAME) && raw.text.is_empty() {
                continue;
            }
            columns.push(column(name, &raw));
        }
        Ok(Table {
            columns,
            rows: self.rows,
            read_as: None,
        })
    }
}

/// What a blank header cell is named, with its position.
const BLANK_NAME: &str = "column ";

/// Header names trimmed, blank ones named by position, repeats numbered.
fn unique_names<'a>(header: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, name) in header.enumerate() {
        let base = match name.trim() {
            "" => format!("{BLANK_NAME}{}", i + 1),
            name => name.to_owned(),
        };
        let mut candidate = base.clone();
        let mut n = 2;
        while seen.contains(&candidate) {
            candidate = format!("{base} ({n})");
            n += 1;
        }
        seen.insert(candidate.clone());
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
fn names_places(present: &[&str]) -> bool {
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

/// Whether a column's name says it holds years ("Year", "Open_Year",
/// "Season", "Founded", "yr"): its four-digit numbers are then dates.
fn names_years(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("year")
        || lower
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| matches!(w, "season" | "founded" | "established" | "yr" | "yrs"))
}

/// A date written year first with slashes ("2015/01/01 01:00:00", as
/// many exports write them) as ISO 8601 ("2015-01-01T01:00:00"), the form
/// every card reads; `None` for anything else ("1/2/2015" could be either
/// month first or day first).
fn slashed_date(text: &str) -> Option<String> {
    let text = text.trim();
    let (date, time) = match text.split_once([' ', 'T']) {
        Some((d, t)) => (d, Some(t.trim())),
        None => (text, None),
    };
    let mut parts = date.split('/');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |p: &str, n: std::ops::RangeInclusive<usize>| {
        n.contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit())
    };
    if parts.next().is_some() || !digits(y, 4..=4) || !digits(m, 1..=2) || !digits(d, 1..=2) {
        return None;
    }
    let mut iso = format!("{y}-{m:0>2}-{d:0>2}");
    if let Some(time) = time {
        iso.push('T');
        iso.push_str(time);
    }
    parse_date(&iso).is_some().then_some(iso)
}

fn column(name: String, raw: &Raw) -> Column {
    let present: Vec<&str> = raw.texts().filter(|t| !is_missing(t)).collect();
    let dates = !present.is_empty()
        && present.iter().all(|t| parse_date(t).is_some())
        // Plain numbers read as years only where the column says so.
        && (present.iter().any(|t| t.contains('-')) || names_years(&name));
    let slashed =
        !dates && !present.is_empty() && present.iter().all(|t| slashed_date(t).is_some());
    let numbers = !present.is_empty() && present.iter().all(|t| number(t).is_some());
    let kind = if dates || slashed {
        Kind::Time
    } else if numbers {
        Kind::Number
    } else if names_places(&present) {
        Kind::Place
    } else {
        Kind::Category
    };
    drop(present);
    let cells = raw
        .texts()
        .map(|text| match (is_missing(text), kind) {
            (true, _) => Cell::Empty,
            (false, Kind::Number) => number(text).map_or(Cell::Text(text.to_owned()), Cell::Number),
            (false, Kind::Time) if slashed => {
                Cell::Text(slashed_date(text).unwrap_or_else(|| text.to_owned()))
            }
            (false, _) => Cell::Text(text.to_owned()),
        })
        .collect();
    Column { name, kind, cells }
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

impl Table {
    /// The cleaned table as CSV: the unique header, numbers written plainly,
    /// missing values empty.
    pub fn to_csv(&self) -> String {
        let mut writer = ::csv::Writer::from_writer(Vec::new());
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
        let hex: String = digest.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("schema_{hex}")
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn csv(text: &str) -> Result<Table, TableError> {
        read_csv(text.as_bytes(), &Stop::never())
    }

    #[test]
    fn places_are_nine_in_ten_countries_or_states() {
        let kind = |values: &[&str]| {
            let mut raw = Raw::default();
            for v in values {
                raw.text.push_str(v);
                raw.ends.push(raw.text.len() as u32);
            }
            column("c".into(), &raw).kind
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

    fn numbers(table: &Table, column: usize) -> Vec<f64> {
        table.columns[column]
            .cells
            .iter()
            .filter_map(|c| match c {
                Cell::Number(n) => Some(*n),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn csv_as_spreadsheets_export_it_is_read_into_its_columns() {
        // Semicolons and decimal commas, as most of Europe exports.
        let table = csv("\u{feff}month;region;sales\n2024-01;Nord;1.234,5\n2024-02;Süd;980,25\n2024-03;\"Nord; Ost\";-12,5\n").unwrap();
        let names: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["month", "region", "sales"]);
        assert_eq!(numbers(&table, 2), [1234.5, 980.25, -12.5]);
        assert_eq!(
            table.read_as.as_deref(),
            Some("read as semicolon-separated, with decimal commas")
        );
        // Tabs and pipes; quoted headers holding the delimiter.
        let tabs = csv("\"name\tfull\"\tvalue\na\t1.5\nb\t2\n").unwrap();
        assert_eq!(tabs.columns[0].name, "name\tfull");
        assert_eq!(numbers(&tabs, 1), [1.5, 2.0]);
        assert_eq!(tabs.read_as.as_deref(), Some("read as tab-separated"));
        let pipes = csv("a|b\n1|2\n3|4\n").unwrap();
        assert_eq!(numbers(&pipes, 1), [2.0, 4.0]);
        // Semicolons with decimal points stay points.
        let points = csv("a;b\nx;1.5\ny;2.25\n").unwrap();
        assert_eq!(numbers(&points, 1), [1.5, 2.25]);
        // The common way is said nothing of; a file two delimiters read
        // alike is read with commas, and the answer says so.
        assert_eq!(csv("a,b\n1,2\n").unwrap().read_as, None);
        let both = csv("a,b;c\n1,2;3\n").unwrap();
        assert_eq!(both.columns.len(), 2);
        assert_eq!(
            both.read_as.as_deref(),
            Some("read as comma-separated (it reads as semicolon-separated too)")
        );
        // One column is one column.
        assert_eq!(csv("a\n1\n2\n").unwrap().columns.len(), 1);
        // The delimiter is told from the first 50 records: what comes
        // after them does not change it.
        let mut late = String::from("a;b\n");
        late.push_str(&"x;1\n".repeat(49));
        late.push_str(&"p,q,r;2\n".repeat(1000));
        let late = csv(&late).unwrap();
        assert_eq!(late.columns.len(), 2);
        assert_eq!(late.rows, 1049);
        // and from 64 KiB at most: records past it, within the first 50,
        // do not change it either.
        let cell = "y,".repeat(10_000);
        let mut long = String::from("a;b\n");
        for i in 0..4 {
            long.push_str(&format!("\"{cell}\";{i}\n"));
        }
        long.push_str(&"p,q,r\n".repeat(40));
        let long = csv(&long).unwrap();
        assert_eq!(long.columns.len(), 2);
        assert_eq!(long.rows, 44);
    }

    #[test]
    fn a_csv_is_cleaned_and_its_columns_get_kinds() {
        let table = csv(
            "\u{feff}date,Region,sales,,sales,\n2024-01,North,\"1,200.5\",x,1\n2024-02,South,NA,y,2\n\n2024-03,North,980\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(table.rows, 3);
        let names: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
        // The sixth column has neither a name nor a value: it is left out.
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
    fn years_are_dates_where_the_name_says_so() {
        let kinds =
            |name: &str| csv(&format!("{name},n\n2007,1\n2008,2\n")).unwrap().columns[0].kind;
        for name in ["Year", "Open_Year", "Season", "Founded", "yr"] {
            assert_eq!(kinds(name), Kind::Time, "{name}");
        }
        for name in ["Score", "Seasoning_g", "Attendance"] {
            assert_ne!(kinds(name), Kind::Time, "{name}");
        }
    }

    #[test]
    fn dates_written_year_first_with_slashes_are_dates() {
        let table = csv("time,count\n2015/01/01 01:00:00,2\n2015/1/2,3\n").unwrap();
        assert_eq!(table.columns[0].kind, Kind::Time);
        assert_eq!(
            table.columns[0].cells,
            [
                Cell::Text("2015-01-01T01:00:00".into()),
                Cell::Text("2015-01-02".into())
            ]
        );
        // Month or day first cannot be told apart: categories.
        let table = csv("day,n\n01/02/2015,1\n03/04/2015,2\n").unwrap();
        assert_eq!(table.columns[0].kind, Kind::Category);
        let table = csv("day,n\n2015/13/01,1\n").unwrap();
        assert_eq!(table.columns[0].kind, Kind::Category);
    }

    #[test]
    fn bad_files_are_refused_with_reasons() {
        assert_eq!(csv(""), Err(TableError::Empty));
        assert_eq!(csv("a,b\n"), Err(TableError::Empty));
        assert_eq!(
            read_csv(b"a,b\n\xff,1\n", &Stop::never()),
            Err(TableError::NotUtf8)
        );
        assert!(matches!(
            csv("a,b\n1,2,3\n"),
            Err(TableError::LongRow { row: 2, .. })
        ));
        let wide = (0..=MAX_COLUMNS)
            .map(|i| format!("c{i}"))
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(csv(&format!("{wide}\n")), Err(TableError::TooManyColumns));
    }

    #[test]
    fn every_bound_is_checked_as_rows_arrive() {
        // Rows: one past the limit, in a narrow table.
        let mut text = String::from("a\n");
        for i in 0..=MAX_ROWS {
            text.push_str(&format!("{i}\n"));
        }
        assert_eq!(csv(&text), Err(TableError::TooManyRows));
        // Cells: 200 columns of 5,001 rows.
        let header = (0..MAX_COLUMNS)
            .map(|i| format!("c{i}"))
            .collect::<Vec<_>>()
            .join(",");
        let row = vec!["1"; MAX_COLUMNS].join(",");
        let mut text = format!("{header}\n");
        for _ in 0..=MAX_CELLS / MAX_COLUMNS {
            text.push_str(&row);
            text.push('\n');
        }
        assert!(matches!(
            csv(&text),
            Err(TableError::TooManyCells {
                rows: 5001,
                columns: 200
            })
        ));
        // One cell past Excel's limit, in the header and in a row.
        let long = "x".repeat(MAX_CELL_TEXT + 1);
        assert_eq!(
            csv(&format!("a,{long}\n1,2\n")),
            Err(TableError::LongCell { row: 1, column: 2 })
        );
        assert_eq!(
            csv(&format!("a,b\n1,2\n3,{long}\n")),
            Err(TableError::LongCell { row: 3, column: 2 })
        );
        // A row longer than the header is refused, however long; one of
        // blank cells is skipped like any blank row.
        let endless = format!("a,b\n{}x\n", ",".repeat(5_000_000));
        assert!(matches!(
            csv(&endless),
            Err(TableError::LongRow {
                row: 2,
                found: 5_000_001,
                expected: 2
            })
        ));
        let blank = format!("a,b\n{}\n1,2\n", ",".repeat(5_000_000));
        assert_eq!(csv(&blank).map(|t| t.rows), Ok(1));
    }

    #[test]
    fn a_stopped_read_says_so() {
        let (guard, stop) = zdr_limits::AbandonOnDrop::new(
            std::time::Instant::now() + std::time::Duration::from_secs(60),
        );
        drop(guard);
        let mut text = String::from("a\n");
        for i in 0..5000 {
            text.push_str(&format!("{i}\n"));
        }
        assert_eq!(
            read_csv(text.as_bytes(), &stop),
            Err(TableError::Stopped(Stopped::Abandoned))
        );
    }

    #[test]
    fn a_workbook_name_on_other_bytes_is_refused_before_any_reader() {
        let stop = Stop::never();
        for format in ["xlsx", "xls"] {
            assert!(matches!(
                read(format, b"a,b\n1,2\n", &stop),
                Err(TableError::Format(_))
            ));
        }
        assert!(matches!(
            read("csv", b"PK\x03\x04rest", &stop),
            Err(TableError::Format(_))
        ));
        assert!(matches!(
            read("parquet", b"a,b\n1,2\n", &stop),
            Err(TableError::Parquet(_))
        ));
    }
}
