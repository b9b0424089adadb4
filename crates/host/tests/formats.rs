// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The four formats of the spec through the presigned upload: an `.xls`
//! (BIFF8, written by xlwt) and an `.xlsx` (openpyxl) checked in under
//! tests/fixtures, a `.parquet` written here with the parquet crate, each
//! read into the same cleaned table; and broken files refused with 422.

use std::path::Path;
use std::sync::Arc;

use axum::http::StatusCode;
use axum::Router;
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int32Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::{SerializedFileWriter, SerializedRowGroupWriter};
use serde_json::Value;

mod common;
use common::{host, request, send, upload, KEY_A};

const CLEANED: &str =
    "month,region,sales\n2024-01-01,North,120\n2024-02-01,North,135.5\n2024-01-01,South,98\n";

async fn get(router: &Router, path: &str) -> (StatusCode, String) {
    let (status, body, _) = send(router, request("GET", path, Some(KEY_A), None)).await;
    (status, body)
}

/// A Parquet file of one row group: `schema` in Parquet's message syntax,
/// its columns written in order by `columns`.
fn parquet(
    schema: &str,
    properties: WriterProperties,
    columns: impl FnOnce(&mut SerializedRowGroupWriter<'_, &mut Vec<u8>>),
) -> Vec<u8> {
    let schema = Arc::new(parquet::schema::parser::parse_message_type(schema).unwrap());
    let mut out = Vec::new();
    let mut writer = SerializedFileWriter::new(&mut out, schema, Arc::new(properties)).unwrap();
    let mut group = writer.next_row_group().unwrap();
    columns(&mut group);
    group.close().unwrap();
    writer.close().unwrap();
    out
}

fn parquet_file() -> Vec<u8> {
    let schema = "message sales { REQUIRED INT32 month (DATE); REQUIRED BYTE_ARRAY region (UTF8); OPTIONAL DOUBLE sales; }";
    parquet(schema, WriterProperties::builder().build(), |group| {
        let day = |y, m| i32::try_from(zdr_chart::model::days_from_civil(y, m, 1)).unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<Int32Type>()
            .write_batch(&[day(2024, 1), day(2024, 2), day(2024, 1)], None, None)
            .unwrap();
        column.close().unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        let regions: Vec<ByteArray> = ["North", "North", "South"]
            .into_iter()
            .map(ByteArray::from)
            .collect();
        column
            .typed::<ByteArrayType>()
            .write_batch(&regions, None, None)
            .unwrap();
        column.close().unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<DoubleType>()
            .write_batch(&[120.0, 135.5, 98.0], Some(&[1, 1, 1]), None)
            .unwrap();
        column.close().unwrap();
    })
}

#[tokio::test]
async fn xls_xlsx_and_parquet_files_are_read_into_the_same_clean_table() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for (name, bytes) in [
        (
            "sales.xls",
            std::fs::read(fixtures.join("sales.xls")).unwrap(),
        ),
        (
            "sales.xlsx",
            std::fs::read(fixtures.join("sales.xlsx")).unwrap(),
        ),
        ("sales.parquet", parquet_file()),
    ] {
        let (status, id, answer) = upload(&router, KEY_A, name, &bytes).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{name}: {answer}");
        let (status, file) = get(&router, &format!("/api/v1/beta/files/{id}/")).await;
        assert_eq!(status, StatusCode::OK, "{name}");
        let file: Value = serde_json::from_str(&file).unwrap();
        assert_eq!(
            file["cleaned_files"][0]["cleaned_context"],
            "3 rows; columns: month (dates), region (categories), sales (numbers)",
            "{name}"
        );
        let (_, cleaned) = get(&router, &format!("/api/v1/beta/files/{id}/cleaned/")).await;
        assert_eq!(cleaned, CLEANED, "{name}");
    }
}

/// A CSV as a spreadsheet in most of Europe exports it: a byte-order
/// mark, semicolons, decimal commas, a quoted header.
const EUROPEAN: &str = "\u{feff}\"month\";region;sales\n2024-01-01;North;120\n2024-02-01;North;135,5\n2024-01-01;South;98\n";

#[tokio::test]
async fn a_csv_with_semicolons_and_decimal_commas_is_read_into_its_columns() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    // Uploaded: cleaned into the same table as the other formats.
    let (status, id, answer) = upload(&router, KEY_A, "sales-eu.csv", EUROPEAN.as_bytes()).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{answer}");
    let (_, cleaned) = get(&router, &format!("/api/v1/beta/files/{id}/cleaned/")).await;
    assert_eq!(cleaned, CLEANED);
    // Inline: drawn with the right sums, and the answer says how it was read.
    let (status, answer) = common::call(
        &router,
        KEY_A,
        "POST",
        "/api/v1/beta/visualize",
        Some(serde_json::json!({"csv": [EUROPEAN], "query": "total sales by region"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let said = answer["outputs"]["answer"].as_str().unwrap();
    assert!(
        said.starts_with("CSV 1: read as semicolon-separated, with decimal commas. CSV 1: Shown: total sales by region"),
        "{said}"
    );
    let data = &answer["outputs"]["knowledge_cards"][0]["visualization_data"]["data"];
    assert_eq!(
        data[0],
        serde_json::json!({"x": "North", "y": 255.5}),
        "{answer}"
    );
}

/// 66 values of 1 MiB each, gzipped to about 70 KB: small to send, large
/// to unpack.
fn parquet_bomb() -> Vec<u8> {
    let properties = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_statistics_enabled(parquet::file::properties::EnabledStatistics::None)
        .set_compression(parquet::basic::Compression::GZIP(
            parquet::basic::GzipLevel::try_new(9).unwrap(),
        ))
        .build();
    parquet(
        "message bomb { REQUIRED BYTE_ARRAY note (UTF8); }",
        properties,
        |group| {
            let mut column = group.next_column().unwrap().unwrap();
            let notes: Vec<ByteArray> = (0..66)
                .map(|_| ByteArray::from(vec![b'a'; 1 << 20]))
                .collect();
            column
                .typed::<ByteArrayType>()
                .write_batch(&notes, None, None)
                .unwrap();
            column.close().unwrap();
        },
    )
}

#[tokio::test]
async fn files_that_unpack_past_their_bounds_are_refused_as_they_unpack() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for (name, bytes, bound) in [
        (
            // One cell's text of 64 MiB: the XML reader would hold it whole.
            "bomb.xlsx",
            std::fs::read(fixtures.join("bomb.xlsx")).unwrap(),
            "xl/worksheets/sheet1.xml has a text longer than 1024 KiB, the most one may have",
        ),
        (
            "bomb.parquet",
            parquet_bomb(),
            "the Parquet file (its pages, by their declared sizes) unpacks to more than 64 MiB",
        ),
    ] {
        assert!(
            bytes.len() < 100_000,
            "{name} fits the upload limit: {}",
            bytes.len()
        );
        let (status, id, answer) = upload(&router, KEY_A, name, &bytes).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{name}: {answer}");
        assert!(answer.contains(bound), "{name}: {answer}");
        let (status, _) = get(&router, &format!("/api/v1/beta/files/{id}/")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{name}");
    }
}

#[tokio::test]
async fn broken_workbooks_and_parquet_files_are_refused_with_422() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let mut truncated = parquet_file();
    truncated.truncate(truncated.len() / 2);
    let mut scrambled = parquet_file();
    let middle = scrambled.len() / 2;
    scrambled[middle..middle + 8].copy_from_slice(b"\xff\xff\xff\xff\xff\xff\xff\xff");
    for (name, bytes) in [
        ("a.xlsx", b"PK\x03\x04 not really a zip".to_vec()),
        ("a.xls", b"\xd0\xcf\x11\xe0 not really a workbook".to_vec()),
        ("a.parquet", b"PAR1 not really parquet PAR1".to_vec()),
        ("b.parquet", truncated),
        ("c.parquet", scrambled),
    ] {
        let (status, id, answer) = upload(&router, KEY_A, name, &bytes).await;
        assert!(
            status == StatusCode::UNPROCESSABLE_ENTITY || status == StatusCode::NO_CONTENT,
            "{name}: {status} {answer}"
        );
        if status == StatusCode::UNPROCESSABLE_ENTITY {
            assert!(answer.contains("unreadable_file"), "{name}: {answer}");
            let (status, _) = get(&router, &format!("/api/v1/beta/files/{id}/")).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{name}");
        }
    }
}
