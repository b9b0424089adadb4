// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Issue 31's file endpoints through the router: a file's update and its
//! delete (which leaves no trace of its data: objects, cards, their images
//! and pages, its index's ontology), the connector's list, the facts an
//! upload form signs, and each one's tenancy with two keys; and the
//! service's `error_type` and `error_message` on every error.

use std::path::Path;

use axum::http::StatusCode;
use serde_json::{json, Value};

mod common;
use common::{call, host, multipart, presign, send, upload, KEY_A, KEY_B};

const CSV: &str = "month,region,sales\n2024-01,North,120\n2024-02,North,135\n2024-01,South,98\n";

fn objects(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![common::shared::objects_dir(dir)];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.display().to_string());
            }
        }
    }
    out.sort();
    out
}

#[tokio::test]
async fn a_file_is_updated_listed_and_deleted_by_its_own_key_only() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (_, id, _) = upload(&router, KEY_A, "sales.csv", CSV.as_bytes()).await;
    let path = format!("/api/v1/beta/files/{id}/");

    // Another key: every endpoint answers as for a file that does not exist.
    for (method, body) in [
        ("GET", None),
        ("PATCH", Some(json!({"source": "B"}))),
        ("DELETE", None),
    ] {
        let (status, answer) = call(&router, KEY_B, method, &path, body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method}: {answer}");
        assert_eq!(answer["error"]["code"], "file_not_found");
        assert_eq!(answer["error_type"], "NOT_FOUND");
    }
    let (_, theirs) = call(&router, KEY_B, "GET", "/api/v1/beta/file_connector", None).await;
    assert_eq!(theirs["files"], json!([]));
    let (status, _) = call(
        &router,
        KEY_B,
        "GET",
        &format!("/api/v1/beta/file_connector?file_id={id}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Its own key: the members sent change, the others stay.
    let (status, file) = call(
        &router,
        KEY_A,
        "PATCH",
        &path,
        Some(json!({"display_name": "Sales 2024", "file_context": "monthly"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{file}");
    assert_eq!(file["schema"]["display_name"], "Sales 2024");
    assert_eq!(file["file_context"], "monthly");
    let (_, file) = call(
        &router,
        KEY_A,
        "PATCH",
        &path,
        Some(json!({"file_context": null})),
    )
    .await;
    assert_eq!(file["file_context"], Value::Null);
    assert_eq!(file["schema"]["display_name"], "Sales 2024");
    let (status, refused) = call(&router, KEY_A, "PATCH", &path, Some(json!({"key": "x"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    let (_, listed) = call(&router, KEY_A, "GET", "/api/v1/beta/file_connector", None).await;
    assert_eq!(listed["files"][0]["id"], id.as_str());
    assert_eq!(listed["files"].as_array().unwrap().len(), 1);

    // B's failed delete left A's file whole.
    let (status, _) = call(&router, KEY_A, "GET", &path, None).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_deleted_file_leaves_no_trace() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (_, kept, _) = upload(&router, KEY_A, "kept.csv", CSV.as_bytes()).await;
    let (_, id, _) = upload(&router, KEY_A, "gone.csv", CSV.as_bytes()).await;
    let (_, index) = call(
        &router,
        KEY_A,
        "POST",
        "/api/v1/beta/private_indexes/",
        Some(json!({"name": "Sales"})),
    )
    .await;
    let index = index["id"].as_str().unwrap().to_owned();
    let (status, added) = call(
        &router,
        KEY_A,
        "POST",
        &format!("/api/v1/beta/private_indexes/{index}/files/"),
        Some(json!({"files": [{"file_id": id}, {"file_id": kept}]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{added}");
    let (_, cards) = call(
        &router,
        KEY_A,
        "POST",
        "/api/v1/beta/visualize",
        Some(json!({"file_ids": [id]})),
    )
    .await;
    let card = cards["outputs"]["knowledge_cards"][0]["card_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, _, _) = send(
        &router,
        common::request("GET", &format!("/api/v1/image/{card}/"), None, None),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let before = objects(dir.path());

    let (status, body, _) = send(
        &router,
        common::request(
            "DELETE",
            &format!("/api/v1/beta/files/{id}/"),
            Some(KEY_A),
            None,
        ),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    for path in [
        format!("/api/v1/beta/files/{id}/"),
        format!("/api/v1/beta/files/{id}/cleaned/"),
    ] {
        let (status, _) = call(&router, KEY_A, "GET", &path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    for path in [format!("/api/v1/image/{card}/"), format!("/card/{card}/")] {
        let (status, _, _) = send(&router, common::request("GET", &path, None, None)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    let (status, _) = call(
        &router,
        KEY_A,
        "DELETE",
        &format!("/api/v1/beta/files/{id}/"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "a second delete");
    // Its two objects are gone, and the index's ontology was written anew
    // without it (one object for another): nothing else changed.
    let after = objects(dir.path());
    assert_eq!(after.len(), before.len() - 2, "{before:?}\n{after:?}");
    let ontology = after
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .find(|text| text.contains("\"elements\""))
        .unwrap();
    assert!(
        !ontology.contains(&id) && ontology.contains(&kept),
        "{ontology}"
    );
    let (_, file) = call(
        &router,
        KEY_A,
        "GET",
        &format!("/api/v1/beta/files/{kept}/"),
        None,
    )
    .await;
    assert_eq!(file["connected_private_index"], index.as_str());
}

#[tokio::test]
async fn an_upload_forms_facts_are_signed_with_it() {
    if !common::own_forms("an_upload_forms_facts_are_signed_with_it") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (status, form) = call(
        &router,
        KEY_A,
        "GET",
        "/api/v1/beta/file_upload_url?file_name=sales.csv&source=Finance&display_name=Q1&extra_params=x",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{form}");
    let id = form["file_id"].as_str().unwrap().to_owned();
    assert_eq!(form["key"], format!("{id}/sales.csv"));
    let fields: Vec<(String, String)> = form["fields"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(n, v)| (n.clone(), v.as_str().unwrap().to_owned()))
        .collect();
    // A fact changed on the way: refused as any signed field is.
    let forged: Vec<(String, String)> = fields
        .iter()
        .map(|(n, v)| {
            let v = if n == "x-amz-meta-source" {
                "Forged".to_owned()
            } else {
                v.clone()
            };
            (n.clone(), v)
        })
        .collect();
    let (status, _, _) = send(&router, multipart("/upload/", &forged, CSV.as_bytes())).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _, _) = send(&router, multipart("/upload/", &fields, CSV.as_bytes())).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, file) = call(
        &router,
        KEY_A,
        "GET",
        &format!("/api/v1/beta/files/{id}/"),
        None,
    )
    .await;
    assert_eq!(file["source"], "Finance");
    assert_eq!(file["schema"]["display_name"], "Q1");
    // The form of another key cannot be asked for with this one's id.
    let (fields_b, key_b) = presign(&router, KEY_B, "b.csv").await;
    assert!(!key_b.starts_with(&id) && !fields_b.is_empty());
}

#[tokio::test]
async fn every_error_carries_the_services_error_type() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (_, id, _) = upload(&router, KEY_A, "sales.csv", CSV.as_bytes()).await;
    for (key, method, path, body, status, kind) in [
        (
            Some("nope-nope-nope-nope"),
            "GET",
            "/api/v1/threads",
            None,
            401,
            "AUTHENTICATION_ERROR",
        ),
        (
            Some(KEY_A),
            "GET",
            "/api/v1/beta/files/file_x/",
            None,
            404,
            "NOT_FOUND",
        ),
        (
            Some(KEY_A),
            "POST",
            "/api/v1/beta/visualize",
            Some(json!({})),
            400,
            "BAD_REQUEST",
        ),
        (
            Some(KEY_A),
            "POST",
            "/api/v1/beta/visualize",
            Some(json!({"file_ids": [{"file_id": id}], "viz_component_type": "donut"})),
            400,
            "BAD_REQUEST",
        ),
        (
            Some(KEY_A),
            "DELETE",
            "/api/v1/threads",
            None,
            405,
            "BAD_REQUEST",
        ),
        (
            None,
            "GET",
            "/api/v1/image/card_000000000000000000000000/",
            None,
            404,
            "NOT_FOUND",
        ),
    ] {
        let (got, text, _) = send(&router, common::request(method, path, key, body.as_ref())).await;
        assert_eq!(got.as_u16(), status, "{method} {path}: {text}");
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(answer["error_type"], kind, "{method} {path}: {text}");
        assert_eq!(answer["error_message"], answer["error"]["message"]);
    }
    // File ids as the SDK's objects, another key's among them: 404.
    let (status, answer) = call(
        &router,
        KEY_B,
        "POST",
        "/api/v1/beta/visualize",
        Some(json!({"file_ids": [{"file_id": id, "file_context": "x"}]})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
}
