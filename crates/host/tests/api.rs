// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The service API through the router, without a socket: keys and tenants,
//! the presigned upload checked like S3's (every field tampered with), the
//! file object of 2.6 and its cleaned table, the JSON error body, state
//! that survives a restart, and an embed that writes nothing.

use std::path::Path;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use serde_json::Value;
use zdr_host::{app, Config};

mod common;
use common::{host, request, send, BOUNDARY, KEY_A, KEY_B};

const CSV: &str = "month,region,sales\n2024-01,North,120\n2024-02,North,135\n2024-01,South,98\n";

async fn get(router: &Router, path: &str, key: Option<&str>) -> (StatusCode, String) {
    let (status, body, _) = send(router, request("GET", path, key, None)).await;
    (status, body)
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A presigned form for `file_name`: (fields in order, key).
async fn presign(router: &Router, key: &str, file_name: &str) -> (Vec<(String, String)>, String) {
    let (status, body) = get(
        router,
        &format!("/api/v1/beta/file_upload_url?file_name={file_name}"),
        Some(key),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let answer = json(&body);
    assert_eq!(answer["url"], "http://127.0.0.1:8080/upload/");
    let fields: Vec<(String, String)> = answer["fields"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(n, v)| (n.clone(), v.as_str().unwrap().to_owned()))
        .collect();
    let mut names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "Content-Type",
            "key",
            "policy",
            "x-amz-algorithm",
            "x-amz-credential",
            "x-amz-date",
            "x-amz-signature"
        ]
    );
    assert_eq!(answer["key"], answer["fields"]["key"]);
    (fields, answer["key"].as_str().unwrap().to_owned())
}

fn multipart(fields: &[(String, String)], file: &[u8]) -> Request<Body> {
    common::multipart("/upload/", fields, file)
}

fn file_id(key: &str) -> &str {
    key.split('/').next().unwrap()
}

#[tokio::test]
async fn every_api_endpoint_needs_a_known_key_and_says_so_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    for path in [
        "/api/v1/beta/file_upload_url?file_name=a.csv",
        "/api/v1/beta/files/file_1/",
        "/api/v1/beta/private_indexes/",
        "/api/v1/beta/private_indexes/pidx_1/files/",
        "/api/v1/nothing",
    ] {
        let (status, body) = get(&router, path, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        let error = json(&body);
        assert_eq!(error["error"]["code"], "missing_api_key");
        assert_eq!(error["error"]["status"], 401);
        assert!(error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("X-API-Key"));
        let (status, body) = get(&router, path, Some("not-a-key-of-this-host")).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(json(&body)["error"]["code"], "unknown_api_key");
    }
    let (status, body) = get(&router, "/api/v1/nothing", Some(KEY_A)).await;
    assert_eq!(
        (status, json(&body)["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
    // No key configured at all: every call is refused the same way.
    let bare = app(Config {
        api: zdr_host::api::ApiConfig {
            data_dir: dir.path().join("bare"),
            ..Default::default()
        },
        ..Config::default()
    });
    let (status, _) = get(&bare, "/api/v1/beta/files/file_1/", Some(KEY_A)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_presigned_upload_lands_as_a_file_with_its_cleaned_table() {
    if !common::own_forms("a_presigned_upload_lands_as_a_file_with_its_cleaned_table") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (fields, key) = presign(&router, KEY_A, "Q1%20sales.csv").await;
    assert!(
        key.starts_with("file_") && key.ends_with("/Q1_sales.csv"),
        "{key}"
    );
    let (status, body, _) = send(&router, multipart(&fields, CSV.as_bytes())).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");

    let (status, body) = get(
        &router,
        &format!("/api/v1/beta/files/{}/", file_id(&key)),
        Some(KEY_A),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let file = json(&body);
    assert_eq!(file["file_id"], file_id(&key));
    assert_eq!(file["key"], key);
    assert_eq!(file["schema"]["display_name"], "Q1_sales");
    let cleaned = &file["cleaned_files"][0];
    for field in [
        "key",
        "cleaned_file_id",
        "cleaned_context",
        "file_url",
        "file_context",
        "created_at",
        "updated_at",
    ] {
        assert!(cleaned[field].is_string(), "{field}: {cleaned}");
    }
    assert_eq!(
        cleaned["cleaned_context"],
        "3 rows; columns: month (dates), region (categories), sales (numbers)"
    );
    let url = cleaned["file_url"].as_str().unwrap();
    let path = url.strip_prefix("http://127.0.0.1:8080").unwrap();
    let (status, csv) = get(&router, path, Some(KEY_A)).await;
    assert_eq!((status, csv.as_str()), (StatusCode::OK, CSV));

    // Another key sees nothing of it.
    let (status, body) = get(
        &router,
        &format!("/api/v1/beta/files/{}/", file_id(&key)),
        Some(KEY_B),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(json(&body)["error"]["code"], "file_not_found");
    let (status, _) = get(&router, path, Some(KEY_B)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // A restart (a new router on the same folder) still has it.
    let again = host(dir.path(), false);
    let (status, body) = get(
        &again,
        &format!("/api/v1/beta/files/{}/", file_id(&key)),
        Some(KEY_A),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(json(&body), file);
}

#[tokio::test]
async fn a_tampered_upload_is_refused_and_stores_nothing() {
    if !common::own_forms("a_tampered_upload_is_refused_and_stores_nothing") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (fields, key) = presign(&router, KEY_A, "a.csv").await;
    // What is tried, the form's fields, the file.
    type Case = (String, Vec<(String, String)>, Vec<u8>);
    let mut cases: Vec<Case> = Vec::new();
    for i in 0..fields.len() {
        let mut changed = fields.clone();
        changed[i].1.push('0');
        cases.push((format!("{} changed", fields[i].0), changed, CSV.into()));
        let mut missing = fields.clone();
        missing.remove(i);
        cases.push((format!("{} left out", fields[i].0), missing, CSV.into()));
    }
    let mut extra = fields.clone();
    extra.push(("acl".into(), "public-read".into()));
    cases.push(("a field the policy does not name".into(), extra, CSV.into()));
    cases.push(("an empty file".into(), fields.clone(), Vec::new()));
    let big = format!("a\n{}", "1\n".repeat(50 * 1024 + 100)).into_bytes();
    cases.push(("a file just over 100 KB".into(), fields.clone(), big));
    let huge = format!("a\n{}", "1\n".repeat(200 * 1024)).into_bytes();
    cases.push(("a body over the form's limit".into(), fields.clone(), huge));
    // Another key's signed form with this key's object key.
    let (other, _) = presign(&router, KEY_B, "a.csv").await;
    let mut swapped = other.clone();
    for (name, value) in &mut swapped {
        if name == "key" {
            value.clone_from(&key);
        }
    }
    cases.push((
        "another tenant's form with this key".into(),
        swapped,
        CSV.into(),
    ));
    for (what, form, file) in cases {
        let (status, body, _) = send(&router, multipart(&form, &file)).await;
        assert!(
            [
                StatusCode::FORBIDDEN,
                StatusCode::BAD_REQUEST,
                StatusCode::PAYLOAD_TOO_LARGE
            ]
            .contains(&status),
            "{what}: {status} {body}"
        );
        assert!(json(&body)["error"]["code"].is_string(), "{what}: {body}");
    }
    let (status, _) = get(
        &router,
        &format!("/api/v1/beta/files/{}/", file_id(&key)),
        Some(KEY_A),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "nothing was stored");
    let objects = common::shared::objects_dir(dir.path());
    let stored = walk(&objects);
    assert!(stored.is_empty(), "{stored:?}");
    // The untouched form still works.
    let (status, body, _) = send(&router, multipart(&fields, CSV.as_bytes())).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
}

fn walk(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                found.extend(walk(&path));
            } else {
                found.push(path.display().to_string());
            }
        }
    }
    found
}

#[tokio::test]
async fn file_names_and_formats_are_checked_before_a_form_is_signed() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    for (query, says) in [
        ("", "file_name"),
        ("?file_name=", "file_name"),
        ("?file_name=notes.txt", ".csv, .xls, .xlsx and .parquet"),
        ("?file_name=..%2F..%2F.env", "file_name"),
    ] {
        let (status, body) = get(
            &router,
            &format!("/api/v1/beta/file_upload_url{query}"),
            Some(KEY_A),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        let error = json(&body);
        assert_eq!(error["error"]["param"], "file_name");
        assert!(
            error["error"]["message"].as_str().unwrap().contains(says),
            "{query}: {body}"
        );
    }
    // A path in the name keeps its last segment only.
    let (_, key) = common::presign(&router, KEY_A, "..%2Fdir%2Fdata.csv").await;
    assert!(key.ends_with("/data.csv"), "{key}");
}

#[tokio::test]
async fn an_unreadable_file_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    // Refused as it is posted here, or as it is taken in from a bucket.
    let (status, id, body) = common::upload(&router, KEY_A, "a.csv", b"a,b\n1,2,3\n").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(json(&body)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("row 2 has 3 cells"));
    let (status, _) = get(&router, &format!("/api/v1/beta/files/{id}/"), Some(KEY_A)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_embed_post_writes_nothing_to_the_data_folder() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let router = host(&data, false);
    let form = "visualization_data=%7B%22viz_config%22%3A%7B%22title%22%3A%22T%22%7D%2C%22data%22%3A%5B%7B%22x%22%3A%22a%22%2C%22y%22%3A1%7D%5D%7D";
    let request = Request::post("/embed/card-1/")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(form))
        .unwrap();
    let (status, _, _) = send(&router, request).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!data.exists(), "the embed created {}", data.display());
}

async fn post_files(router: &Router, request: Request<Body>) -> (StatusCode, Value) {
    let (status, body, _) = send(router, request).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

fn json_files(body: &str) -> Request<Body> {
    Request::post("/api/v1/beta/files")
        .header("host", "127.0.0.1:8080")
        .header("x-api-key", KEY_A)
        .header("content-type", "application/json")
        .body(Body::from(body.to_owned()))
        .unwrap()
}

#[tokio::test]
async fn post_files_answers_the_cards_of_an_uploaded_or_posted_file() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (fields, key) = common::presign(&router, KEY_A, "sales.csv").await;
    let url = common::form(&router, KEY_A, "unused.csv").await["url"]
        .as_str()
        .unwrap()
        .to_owned();
    // Posted here, or straight to a bucket (and taken in when named).
    if url.ends_with("/upload/") {
        let (status, _, _) = send(&router, multipart(&fields, CSV.as_bytes())).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
    } else {
        let (status, answer) = common::post_to_bucket(&url, &fields, CSV.as_bytes()).await;
        assert_eq!(status, 204, "{answer}");
    }
    // By key, and by name.
    for name in ["sales.csv", key.as_str()] {
        let (status, answer) = post_files(
            &router,
            json_files(&format!("{{\"file_name\": \"{name}\"}}")),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{name}: {answer}");
        let card = &answer["outputs"]["knowledge_cards"][0];
        assert_eq!(card["card_type"], "timeseries");
        // The key's own data: no source entry, the file in the description.
        assert!(card["description"]
            .as_str()
            .unwrap()
            .contains("From the file sales.csv"));
        assert!(answer["outputs"]["answer"].is_string() && answer["request_id"].is_string());
    }
    let (status, answer) = post_files(&router, json_files("{\"file_name\": \"other.csv\"}")).await;
    assert_eq!(
        (status, answer["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("file_not_found"))
    );
    let (status, answer) = post_files(&router, json_files("{}")).await;
    assert_eq!(
        (status, answer["error"]["param"].as_str()),
        (StatusCode::BAD_REQUEST, Some("file_name"))
    );
    // The file itself in a form.
    let form = |file: &[u8]| {
        let mut body = format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file_name\"\r\n\r\nshop.csv\r\n").into_bytes();
        body.extend(format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"shop.csv\"\r\n\r\n").bytes());
        body.extend(file);
        body.extend(format!("\r\n--{BOUNDARY}--\r\n").bytes());
        Request::post("/api/v1/beta/files")
            .header("host", "127.0.0.1:8080")
            .header("x-api-key", KEY_A)
            .header(
                "content-type",
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .body(Body::from(body))
            .unwrap()
    };
    let (status, answer) = post_files(&router, form(b"product,revenue\nA,1\nB,2\n")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["outputs"]["knowledge_cards"][0]["card_type"], "bar");
    let big = format!("a\n{}", "1\n".repeat(50 * 1024 + 100));
    let (status, answer) = post_files(&router, form(big.as_bytes())).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{answer}");
    // Without a key: 401, as every API endpoint.
    let request = Request::post("/api/v1/beta/files")
        .body(Body::from("{}"))
        .unwrap();
    assert_eq!(
        post_files(&router, request).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn readyz_says_whether_the_store_answers_and_metrics_name_no_key() {
    let dir = tempfile::tempdir().unwrap();
    let (router, metrics_router) =
        zdr_host::app::app_and_metrics(common::config(dir.path(), false));
    let (status, body) = get(&router, "/readyz", None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "ready\n"));
    let (status, _) = get(
        &router,
        "/api/v1/beta/files/file_0123456789abcdef01234567/",
        Some(KEY_A),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Metrics are the operator's, on their own address: none on the
    // public one.
    let (status, _) = get(&router, "/metrics", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, metrics) = get(&metrics_router, "/metrics", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        metrics.contains(
            "zdr_http_requests_total{route=\"/api/v1/beta/files/{file_id}/\",method=\"GET\",status=\"404\"} 1"
        ),
        "{metrics}"
    );
    assert!(
        metrics.contains("zdr_lane_slots{lane=\"small\"}"),
        "{metrics}"
    );
    assert!(!metrics.contains(KEY_A) && !metrics.contains("file_0123456789abcdef"));

    // A data folder that cannot be made: not ready, and the reason.
    let blocked = dir.path().join("a-file");
    std::fs::write(&blocked, "not a folder").unwrap();
    let mut config = common::config(&blocked.join("data"), false);
    config.api.database_url = None;
    config.api.object_store = None;
    let router = zdr_host::app(config);
    let (status, body) = get(&router, "/readyz", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body.starts_with("not ready: "), "{body}");

    // A host whose API has no keys never opens a store, and is ready.
    let router = app(Config {
        api: zdr_host::api::ApiConfig {
            data_dir: blocked.join("data"),
            ..Default::default()
        },
        server: zdr_host::config::ServerConfig {
            www: dir.path().join("no-www"),
            ..Default::default()
        },
        ..Config::default()
    });
    let (status, _) = get(&router, "/readyz", None).await;
    assert_eq!(status, StatusCode::OK);
}
