// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The four formats of the spec through the presigned upload: an `.xls`
//! (BIFF8, written by xlwt) and an `.xlsx` (openpyxl) checked in under
//! tests/fixtures, a `.parquet` written here with the parquet crate, each
//! read into the same cleaned table; and broken files refused with 422.

use std::path::Path;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int32Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use serde_json::Value;
use tower::ServiceExt;
use zdr_host::{app, Config};

const KEY: &str = "key-a-0123456789abcdef";
const CLEANED: &str =
    "month,region,sales\n2024-01-01,North,120\n2024-02-01,North,135.5\n2024-01-01,South,98\n";

fn host(data: &Path) -> Router {
    app(Config {
        api_keys: vec![KEY.into()],
        data_dir: data.to_path_buf(),
        www: data.join("no-www"),
        ..Config::default()
    })
}

async fn body(router: &Router, request: Request<Body>) -> (StatusCode, String) {
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

fn get(path: &str) -> Request<Body> {
    Request::get(path)
        .header("host", "127.0.0.1:8080")
        .header("x-api-key", KEY)
        .body(Body::empty())
        .unwrap()
}

/// Uploads `bytes` as `name` through the presigned form: (status, file id).
async fn upload(router: &Router, name: &str, bytes: &[u8]) -> (StatusCode, String, String) {
    let (_, form) = body(
        router,
        get(&format!("/api/v1/beta/file_upload_url?file_name={name}")),
    )
    .await;
    let form: Value = serde_json::from_str(&form).unwrap();
    let boundary = "fmt-boundary";
    let mut post = Vec::new();
    for (field, value) in form["fields"].as_object().unwrap() {
        post.extend(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"\r\n\r\n{}\r\n",
                value.as_str().unwrap()
            )
            .bytes(),
        );
    }
    post.extend(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\r\n").bytes());
    post.extend(bytes);
    post.extend(format!("\r\n--{boundary}--\r\n").bytes());
    let request = Request::post("/upload/")
        .header(
            "content-type",
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(Body::from(post))
        .unwrap();
    let (status, answer) = body(router, request).await;
    let id = form["key"]
        .as_str()
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    (status, id, answer)
}

fn parquet_file() -> Vec<u8> {
    let schema = Arc::new(
        parquet::schema::parser::parse_message_type(
            "message sales { REQUIRED INT32 month (DATE); REQUIRED BYTE_ARRAY region (UTF8); OPTIONAL DOUBLE sales; }",
        )
        .unwrap(),
    );
    let mut out = Vec::new();
    let mut writer = SerializedFileWriter::new(
        &mut out,
        schema,
        Arc::new(WriterProperties::builder().build()),
    )
    .unwrap();
    let mut group = writer.next_row_group().unwrap();
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
    group.close().unwrap();
    writer.close().unwrap();
    out
}

#[tokio::test]
async fn xls_xlsx_and_parquet_files_are_read_into_the_same_clean_table() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path());
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
        let (status, id, answer) = upload(&router, name, &bytes).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{name}: {answer}");
        let (status, file) = body(&router, get(&format!("/api/v1/beta/files/{id}/"))).await;
        assert_eq!(status, StatusCode::OK, "{name}");
        let file: Value = serde_json::from_str(&file).unwrap();
        assert_eq!(
            file["cleaned_files"][0]["cleaned_context"],
            "3 rows; columns: month (dates), region (categories), sales (numbers)",
            "{name}"
        );
        let (_, cleaned) = body(&router, get(&format!("/api/v1/beta/files/{id}/cleaned/"))).await;
        assert_eq!(cleaned, CLEANED, "{name}");
    }
}

#[tokio::test]
async fn broken_workbooks_and_parquet_files_are_refused_with_422() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path());
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
        let (status, id, answer) = upload(&router, name, &bytes).await;
        assert!(
            status == StatusCode::UNPROCESSABLE_ENTITY || status == StatusCode::NO_CONTENT,
            "{name}: {status} {answer}"
        );
        if status == StatusCode::UNPROCESSABLE_ENTITY {
            assert!(answer.contains("unreadable_file"), "{name}: {answer}");
            let (status, _) = body(&router, get(&format!("/api/v1/beta/files/{id}/"))).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{name}");
        }
    }
}
