// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The OpenAPI document against the router that serves it: `GET
//! /api/openapi.json` answers without a key and may be cached; every
//! operation it lists is served (a request to it reaches its handler: no
//! 404 for the route, no 405), answers 401 without a key unless it says it
//! needs none, every other method of its paths answers 405,
//! and an error it documents has the body it documents. The service's three
//! flows through a client generated from it are in tests/sdk.rs.

use axum::http::StatusCode;
use serde_json::{json, Value};

mod common;
use common::{host, request, send, KEY_A};

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// `path` with its parameters filled in.
fn filled(path: &str) -> String {
    path.replace("{file_id}", "file_0123456789abcdef01234567")
        .replace("{card_id}", "card_0123456789abcdef01234567")
        .replace("{thread_id}", "thread_0123456789abcdef0123")
        .replace("{id}", "idx_0123456789abcdef01234567")
}

#[tokio::test]
async fn the_document_lists_what_the_router_serves_and_no_more() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (status, text, headers) =
        send(&router, request("GET", "/api/openapi.json", None, None)).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert_eq!(headers["content-type"], "application/json");
    assert!(headers["cache-control"]
        .to_str()
        .unwrap()
        .starts_with("public"));
    let document: Value = serde_json::from_str(&text).unwrap();
    assert!(document["openapi"].as_str().unwrap().starts_with("3.1"));
    assert_eq!(
        document["components"]["securitySchemes"]["api_key"]["name"],
        "X-API-Key"
    );

    let mut operations = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        if path.starts_with("/embed/") {
            continue; // the embed's crate serves it: tests/router.rs
        }
        for method in METHODS {
            let documented = item.get(method.to_ascii_lowercase()).is_some();
            let body = json!({});
            let (status, answer, _) = send(
                &router,
                request(method, &filled(path), Some(KEY_A), Some(&body)),
            )
            .await;
            if documented {
                operations += 1;
                // An operation that does not say it needs no key needs one.
                let open = item[method.to_ascii_lowercase()]["security"] == json!([{}]);
                let (unkeyed, _, _) =
                    send(&router, request(method, &filled(path), None, Some(&body))).await;
                assert_eq!(
                    unkeyed == StatusCode::UNAUTHORIZED,
                    !open,
                    "{method} {path} without a key: {unkeyed}"
                );
                let route_missing = status == StatusCode::NOT_FOUND
                    && serde_json::from_str::<Value>(&answer)
                        .is_ok_and(|a| a["error"]["code"] == "not_found");
                assert!(
                    !route_missing && status != StatusCode::METHOD_NOT_ALLOWED,
                    "{method} {path}: {status} {answer}"
                );
                let listed = item[method.to_ascii_lowercase()]["responses"]
                    .as_object()
                    .unwrap();
                assert!(
                    listed.contains_key(status.as_str()),
                    "{method} {path} answered {status}, which the document does not list: {answer}"
                );
            } else {
                assert_eq!(
                    status,
                    StatusCode::METHOD_NOT_ALLOWED,
                    "{method} {path} is not documented: {answer}"
                );
            }
        }
    }
    assert_eq!(operations, 25, "every documented operation was tried");
}
