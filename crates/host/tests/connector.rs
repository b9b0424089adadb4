// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Spec 4.4 through the router, fetching from a real HTTP server on
//! 127.0.0.1: a connected file, its 2.5 metadata, a repeat that replaces the
//! copy, the 5 MB limit, redirects, and the refusal of loopback, private
//! and link-local addresses when they are not allowed.

use axum::http::StatusCode;
use axum::response::Redirect;
use axum::routing::get;
use axum::Router;
use serde_json::json;

mod common;
use common::{call, host, KEY_A as KEY, KEY_B as OTHER};

const V1: &str = "month,sales\n2024-01,1\n2024-02,2\n";
const V2: &str = "month,sales,units\n2024-01,1,5\n2024-02,2,6\n2024-03,3,7\n";

/// A file server on 127.0.0.1: its origin.
async fn files() -> String {
    let big = "a\n".to_owned() + &"1\n".repeat(3 * 1024 * 1024);
    let router = Router::new()
        .route("/v1.csv", get(|| async { V1 }))
        .route("/v2.csv", get(|| async { V2 }))
        .route("/big.csv", get(move || async move { big }))
        .route(
            "/missing.csv",
            get(|| async { (StatusCode::NOT_FOUND, "no") }),
        )
        .route(
            "/loop.csv",
            get(|| async { Redirect::temporary("/loop.csv") }),
        )
        .route(
            "/moved.csv",
            get(|| async { Redirect::temporary("/v1.csv") }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    origin
}

#[tokio::test]
async fn a_connected_file_is_copied_described_and_replaced_by_a_repeat() {
    let origin = files().await;
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), true);
    let (status, answer) = call(&router, KEY, "POST", "/api/v1/beta/file_connector", Some(json!({
        "file_url": format!("{origin}/v1.csv"), "source": "Finance", "file_context": "monthly sales",
        "generate_ontology": false,
    }))).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let id = answer["id"].as_str().unwrap().to_owned();
    assert!(answer["message"].as_str().unwrap().contains("connected"));
    let metadata = &answer["metadata"];
    for field in [
        "id",
        "created_at",
        "updated_at",
        "source",
        "schema_id",
        "file_context",
        "segment_id",
        "ontology_state",
    ] {
        assert!(metadata[field].is_string(), "{field}: {metadata}");
    }
    assert_eq!(metadata["prepend_schema_context"], true);
    assert_eq!(
        (
            metadata["source"].as_str(),
            metadata["ontology_state"].as_str()
        ),
        (Some("Finance"), Some("skipped"))
    );

    let (status, file) = call(
        &router,
        KEY,
        "GET",
        &format!("/api/v1/beta/files/{id}/"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(file["file_url"], format!("{origin}/v1.csv"));
    assert_eq!(file["source"], "Finance");
    assert_eq!(
        file["cleaned_files"][0]["cleaned_context"],
        "2 rows; columns: month (dates), sales (numbers)"
    );

    // Repeated with the same id and a new URL: the copy is replaced.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let (status, again) = call(
        &router,
        KEY,
        "POST",
        "/api/v1/beta/file_connector",
        Some(json!({
            "file_url": format!("{origin}/v2.csv"), "file_id": id,
        })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["id"], id.as_str());
    assert!(again["message"].as_str().unwrap().contains("replaced"));
    assert_eq!(again["metadata"]["created_at"], metadata["created_at"]);
    assert_ne!(again["metadata"]["updated_at"], metadata["updated_at"]);
    assert_eq!(again["metadata"]["source"], "Finance", "kept from before");
    let (_, file) = call(
        &router,
        KEY,
        "GET",
        &format!("/api/v1/beta/files/{id}/"),
        None,
    )
    .await;
    assert_eq!(
        file["cleaned_files"][0]["cleaned_context"],
        "3 rows; columns: month (dates), sales (numbers), units (numbers)"
    );
    // Flow 2's second step.
    let (status, cards) = call(
        &router,
        KEY,
        "POST",
        "/api/v1/beta/visualize",
        Some(json!({"file_ids": [id]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{cards}");
    assert_eq!(
        cards["outputs"]["knowledge_cards"][0]["card_type"],
        "timeseries"
    );
    // Another key cannot see it.
    let (status, _) = call(
        &router,
        OTHER,
        "GET",
        &format!("/api/v1/beta/files/{id}/"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn bad_urls_large_files_and_redirect_loops_are_refused_with_reasons() {
    let origin = files().await;
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), true);
    for (body, status, says) in [
        (json!({}), StatusCode::BAD_REQUEST, "file_url is required"),
        (
            json!({"file_url": "ftp://example.com/a.csv"}),
            StatusCode::BAD_REQUEST,
            "http or https",
        ),
        (
            json!({"file_url": "not a url"}),
            StatusCode::BAD_REQUEST,
            "not a URL",
        ),
        (
            json!({"file_url": format!("{origin}/notes.txt")}),
            StatusCode::BAD_REQUEST,
            "must end in .csv",
        ),
        (
            json!({"file_url": format!("{origin}/missing.csv")}),
            StatusCode::BAD_REQUEST,
            "answered 404",
        ),
        (
            json!({"file_url": format!("{origin}/big.csv")}),
            StatusCode::PAYLOAD_TOO_LARGE,
            "5242880 bytes",
        ),
        (
            json!({"file_url": format!("{origin}/loop.csv")}),
            StatusCode::BAD_REQUEST,
            "more than 5 redirects",
        ),
        (
            json!({"file_url": format!("{origin}/v1.csv"), "file_id": "../x"}),
            StatusCode::BAD_REQUEST,
            "file_id must be",
        ),
        (
            json!({"file_url": format!("{origin}/v1.csv"), "prepend_schema_context": "yes"}),
            StatusCode::BAD_REQUEST,
            "prepend_schema_context",
        ),
    ] {
        let (got, answer) = call(
            &router,
            KEY,
            "POST",
            "/api/v1/beta/file_connector",
            Some(body.clone()),
        )
        .await;
        assert_eq!(got, status, "{body}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{body}: {message}");
    }
    // A redirect to a file is followed.
    let (status, answer) = call(
        &router,
        KEY,
        "POST",
        "/api/v1/beta/file_connector",
        Some(json!({"file_url": format!("{origin}/moved.csv")})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

#[tokio::test]
async fn loopback_private_and_link_local_addresses_are_refused_unless_allowed() {
    let origin = files().await;
    let port = origin.rsplit(':').next().unwrap().to_owned();
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    for url in [
        format!("{origin}/v1.csv"),
        format!("http://localhost:{port}/v1.csv"),
        format!("http://[::1]:{port}/v1.csv"),
        "http://10.0.0.1/a.csv".to_owned(),
        "http://169.254.169.254/latest/meta-data.csv".to_owned(),
        "http://192.168.0.1/a.csv".to_owned(),
        "http://[fe80::1]/a.csv".to_owned(),
    ] {
        let (status, answer) = call(
            &router,
            KEY,
            "POST",
            "/api/v1/beta/file_connector",
            Some(json!({"file_url": url})),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{url}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("not a public address"), "{url}: {message}");
    }
}
