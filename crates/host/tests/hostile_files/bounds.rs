//! Files at the host's bounds, which must be read (not refused) within the
//! same time and memory as a hostile file is refused in: the largest table
//! of every format that the file connector's 5 MB and the table's bounds
//! allow (a million cells, the most shared strings, an .xls rectangle at
//! its bound). Their peaks are the documented cost of reading an accepted
//! file (docs/service-api.md, "Reading files").

use std::fmt::Write as _;
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::data_type::Int64Type;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

use super::corpus::HostileFile;
use super::xls;
use super::zipfile::{self, Part, Workbook};

fn file(
    name: &'static str,
    extension: &str,
    bytes: Vec<u8>,
    what: &'static str,
    read_as: &'static str,
) -> HostileFile {
    HostileFile {
        name,
        file_name: format!("{name}.{extension}"),
        bytes,
        what,
        may_be_read: true,
        read_as: Some(read_as),
    }
}

pub fn bounds() -> Vec<HostileFile> {
    vec![
        file(
            "bound-csv-numbers",
            "csv",
            csv_numbers(),
            "100,000 rows of 10 number columns: a million cells",
            "100000 rows",
        ),
        file(
            "bound-csv-categories",
            "csv",
            csv_categories(),
            "5,000 rows of 200 category columns: a million cells",
            "5000 rows",
        ),
        file(
            "bound-xlsx-numbers",
            "xlsx",
            xlsx_numbers(),
            "100,000 rows of 10 number cells: a million cells",
            "100000 rows",
        ),
        file(
            "bound-xlsx-shared-strings",
            "xlsx",
            xlsx_shared_strings(),
            "shared strings just under their 8 MiB bound, each used by a cell",
            "99999 rows",
        ),
        file(
            "bound-xls-rectangle",
            "xls",
            xls_rectangle(),
            "an .xls sheet of 50,000 rows of 10 cells: its rectangle at the 500,000 bound",
            "49999 rows",
        ),
        file(
            "bound-parquet-numbers",
            "parquet",
            parquet_numbers(),
            "100,000 rows of 10 int64 columns, snappy: a million cells",
            "100000 rows",
        ),
    ]
}

fn csv_numbers() -> Vec<u8> {
    let mut text = String::from("c0,c1,c2,c3,c4,c5,c6,c7,c8,c9\n");
    for row in 0..100_000u32 {
        for column in 0..10u32 {
            let sep = if column == 9 { '\n' } else { ',' };
            let _ = write!(text, "{}{sep}", (row * 7 + column * 13) % 1000);
        }
    }
    text.into_bytes()
}

fn csv_categories() -> Vec<u8> {
    let header: Vec<String> = (0..200).map(|c| format!("k{c}")).collect();
    let mut text = header.join(",");
    text.push('\n');
    for row in 0..5_000usize {
        for column in 0..200usize {
            text.push(char::from(b'a' + ((row + column) % 26) as u8));
            text.push(if column == 199 { '\n' } else { ',' });
        }
    }
    text.into_bytes()
}

fn column_name(mut index: usize) -> String {
    let mut name = Vec::new();
    loop {
        name.push(b'A' + (index % 26) as u8);
        if index < 26 {
            break;
        }
        index = index / 26 - 1;
    }
    name.reverse();
    String::from_utf8(name).unwrap()
}

fn xlsx_numbers() -> Vec<u8> {
    let mut rows = String::from(r#"<row r="1">"#);
    for c in 0..10 {
        let _ = write!(
            rows,
            r#"<c r="{}1" t="inlineStr"><is><t>c{c}</t></is></c>"#,
            column_name(c)
        );
    }
    rows.push_str("</row>");
    for r in 2..=100_001u32 {
        let _ = write!(rows, r#"<row r="{r}">"#);
        for c in 0..10 {
            let _ = write!(
                rows,
                r#"<c r="{}{r}"><v>{}</v></c>"#,
                column_name(c),
                (r * 7 + c as u32) % 1000
            );
        }
        rows.push_str("</row>");
    }
    zipfile::xlsx(Workbook::of(Part::Deflate(
        zipfile::sheet(Some("A1:J100001"), &rows).into_bytes(),
    )))
}

fn xlsx_shared_strings() -> Vec<u8> {
    // 99,999 rows of three distinct strings, and the header's three: about
    // 300,000 strings of 20-odd bytes each in their XML, under 8 MiB.
    let mut strings = String::from(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#,
    );
    let mut rows = String::new();
    let mut index = 0u32;
    for r in 1..=100_000u32 {
        let _ = write!(rows, r#"<row r="{r}">"#);
        for c in 0..3 {
            let text = if r == 1 {
                format!("name{c}")
            } else {
                format!("v{r}x{c}")
            };
            let _ = write!(strings, "<si><t>{text}</t></si>");
            let _ = write!(
                rows,
                r#"<c r="{}{r}" t="s"><v>{index}</v></c>"#,
                column_name(c)
            );
            index += 1;
        }
        rows.push_str("</row>");
    }
    strings.push_str("</sst>");
    assert!(strings.len() < 8 << 20, "{}", strings.len());
    let mut book = Workbook::of(Part::Deflate(zipfile::sheet(None, &rows).into_bytes()));
    book.shared_strings = Some(Part::Deflate(strings.into_bytes()));
    zipfile::xlsx(book)
}

/// A MULRK record: a row's cells from `first` on, integers as RK values.
fn mul_rk(out: &mut Vec<u8>, row: u16, first: u16, values: &[i32]) {
    let mut data = Vec::new();
    data.extend_from_slice(&row.to_le_bytes());
    data.extend_from_slice(&first.to_le_bytes());
    for value in values {
        data.extend_from_slice(&xls::GENERAL.to_le_bytes());
        // An integer RK: the value shifted by two, bit 1 set.
        data.extend_from_slice(&((value << 2) | 2).to_le_bytes());
    }
    let last = first + u16::try_from(values.len()).unwrap() - 1;
    data.extend_from_slice(&last.to_le_bytes());
    xls::record(out, 0x00BD, &data);
}

fn xls_rectangle() -> Vec<u8> {
    let header: Vec<String> = (0..10).map(|c| format!("c{c}")).collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut cells = Vec::new();
    for (col, isst) in (0u16..10).zip(0u32..) {
        xls::label_sst(&mut cells, 0, col, isst);
    }
    for row in 1..50_000u16 {
        let values: Vec<i32> = (0..10).map(|c| (i32::from(row) * 7 + c) % 1000).collect();
        mul_rk(&mut cells, row, 0, &values);
    }
    xls::compound(&xls::workbook(
        &xls::sst(&header),
        &[],
        &xls::dimensions(0, 50_000, 0, 10),
        &cells,
    ))
}

fn parquet_numbers() -> Vec<u8> {
    let fields: Vec<String> = (0..10).map(|c| format!("required int64 c{c};")).collect();
    let schema =
        parse_message_type(&format!("message numbers {{ {} }}", fields.join(" "))).unwrap();
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build();
    let mut writer =
        SerializedFileWriter::new(Vec::new(), Arc::new(schema), Arc::new(properties)).unwrap();
    let mut group = writer.next_row_group().unwrap();
    let mut c = 0i64;
    while let Some(mut column) = group.next_column().unwrap() {
        let values: Vec<i64> = (0..100_000i64).map(|r| (r * 7 + c) % 1000).collect();
        column
            .typed::<Int64Type>()
            .write_batch(&values, None, None)
            .unwrap();
        column.close().unwrap();
        c += 1;
    }
    group.close().unwrap();
    writer.into_inner().unwrap()
}
