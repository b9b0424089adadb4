// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Saved views through the router: made with this host's
//! `POST /api/v1/beta/saved_views`, applied by 4.6's
//! `visualize_saved_view` to files of their schema (all views, or the one
//! chosen by id or reference id), refused where the request is wrong, and
//! another key's views and files out of reach.

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use zdr_chart::Chart;

mod common;
use common::{call, host, upload, KEY_A as KEY, KEY_B as OTHER};

const SALES: &[u8] = b"month,region,sales\n2024-01,North,120\n2024-02,North,135\n2024-01,South,98\n2024-02,South,90\n";

async fn view(router: &Router, key: &str, body: Value) -> (StatusCode, Value) {
    call(router, key, "POST", "/api/v1/beta/saved_views", Some(body)).await
}

async fn apply(router: &Router, key: &str, body: Value) -> (StatusCode, Value) {
    call(
        router,
        key,
        "POST",
        "/api/v1/beta/visualize_saved_view",
        Some(body),
    )
    .await
}

#[tokio::test]
async fn views_of_a_schema_draw_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (_, file, _) = upload(&router, KEY, "sales.csv", SALES).await;
    let (status, by_region) = view(
        &router,
        KEY,
        json!({
            "name": "Sales by region", "viz_component_type": "bar", "file_id": file,
            "columns": ["sales", "region"], "saved_view_reference_id": "regions",
        }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{by_region}");
    assert!(by_region["saved_view_id"]
        .as_str()
        .unwrap()
        .starts_with("view_"));
    assert_eq!(by_region["viz_component_type"], "bar");
    let (_, file_object) = call(
        &router,
        KEY,
        "GET",
        &format!("/api/v1/beta/files/{file}/"),
        None,
    )
    .await;
    assert_eq!(by_region["schema_id"], file_object["schema"]["schema_id"]);
    let (status, monthly) = view(
        &router,
        KEY,
        json!({
            "name": "Sales by month", "viz_component_type": "timeseries",
            "schema_id": by_region["schema_id"], "columns": ["sales"],
        }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{monthly}");
    let (_, list) = call(&router, KEY, "GET", "/api/v1/beta/saved_views", None).await;
    assert_eq!(list["data"].as_array().unwrap().len(), 2);

    // Every view of the file's schema: a card each, titled as the view.
    let (status, answer) = apply(&router, KEY, json!({"file_id": file})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let cards = answer["outputs"]["knowledge_cards"].as_array().unwrap();
    let made: Vec<(&str, &str)> = cards
        .iter()
        .map(|c| {
            (
                c["title"].as_str().unwrap(),
                c["card_type"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        made,
        [("Sales by region", "bar"), ("Sales by month", "timeseries")]
    );
    // Cards the embed draws: categories are the regions, summed.
    let bars = &cards[0]["visualization_data"];
    assert!(Chart::from_json(&bars.to_string()).is_ok());
    let labels: Vec<&str> = bars["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["x"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["North", "South"], "{bars}");
    assert!(answer["request_id"].is_string());

    // One view, by id or by reference id; file_source names a file too.
    let (_, one) = apply(
        &router,
        KEY,
        json!({"file_ids": [file], "saved_view_id": monthly["saved_view_id"]}),
    )
    .await;
    assert_eq!(
        one["outputs"]["knowledge_cards"][0]["title"],
        "Sales by month"
    );
    assert_eq!(
        one["outputs"]["knowledge_cards"].as_array().unwrap().len(),
        1
    );
    let (status, by_ref) = apply(&router, KEY, json!({
        "file_source": {"file_id": file, "file_context": "sales", "ontology_context": "", "segment_id": null, "private_index_id": null},
        "saved_view_reference_id": "regions", "segment_id": "s1", "debug": true,
    })).await;
    assert_eq!(status, StatusCode::OK, "{by_ref}");
    assert_eq!(
        by_ref["outputs"]["knowledge_cards"][0]["title"],
        "Sales by region"
    );

    // A file of another schema: no card, and the answer says why.
    let (_, other_file, _) = upload(&router, KEY, "other.csv", b"a,b\n1,2\n3,4\n").await;
    let (status, none) = apply(&router, KEY, json!({"file_id": other_file})).await;
    assert_eq!(status, StatusCode::OK, "{none}");
    assert_eq!(none["outputs"]["knowledge_cards"], json!([]));
    assert!(none["outputs"]["answer"]
        .as_str()
        .unwrap()
        .contains("No saved view draws these files"));

    // Another key sees neither the views nor the file.
    let (_, theirs) = call(&router, OTHER, "GET", "/api/v1/beta/saved_views", None).await;
    assert_eq!(theirs["data"], json!([]));
    let (status, answer) = apply(&router, OTHER, json!({"file_id": file})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    let (_, their_file, _) = upload(&router, OTHER, "sales.csv", SALES).await;
    let (status, answer) = apply(
        &router,
        OTHER,
        json!({"file_id": their_file, "saved_view_reference_id": "regions"}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    let (_, answer) = apply(&router, OTHER, json!({"file_id": their_file})).await;
    assert!(answer["outputs"]["answer"]
        .as_str()
        .unwrap()
        .contains("no saved views"));
}

#[tokio::test]
async fn bad_views_and_requests_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (_, file, _) = upload(&router, KEY, "sales.csv", SALES).await;
    let good = json!({"name": "v", "viz_component_type": "bar", "file_id": file, "saved_view_reference_id": "r1"});
    assert_eq!(view(&router, KEY, good.clone()).await.0, StatusCode::OK);
    let with = |key: &str, value: Value| {
        let mut body = good.clone();
        body[key] = value;
        body
    };
    for (body, param) in [
        (with("name", json!("")), "name"),
        (
            with("viz_component_type", json!("donut")),
            "viz_component_type",
        ),
        (json!({"name": "v", "file_id": file}), "viz_component_type"),
        (
            json!({"name": "v", "viz_component_type": "bar"}),
            "schema_id",
        ),
        (with("columns", json!("sales")), "columns"),
        (with("columns", json!(vec!["sales"; 11])), "columns"),
        (with("name", json!("n".repeat(201))), "name"),
        (
            with("saved_view_reference_id", json!("r1")),
            "saved_view_reference_id",
        ),
        (with("file_id", json!("no such/file")), "file_id"),
    ] {
        let (status, answer) = view(&router, KEY, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(answer["error"]["param"], param, "{body}");
    }
    for (body, param) in [
        (json!({}), "file_ids"),
        (json!({"file_ids": "x"}), "file_ids"),
        (
            json!({"file_id": file, "saved_view_id": "view_none"}),
            "saved_view_id",
        ),
        (json!({"file_id": file, "file_source": "x"}), "file_source"),
        (
            json!({"file_id": file, "file_source": {"file_context": 3}}),
            "file_source",
        ),
        (json!({"file_id": file, "debug": "yes"}), "debug"),
        (
            json!({"file_ids": (0..11).map(|i| format!("f{i}")).collect::<Vec<_>>()}),
            "file_ids",
        ),
    ] {
        let (status, answer) = apply(&router, KEY, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(answer["error"]["param"], param, "{body}");
    }
    let (status, _) = call(
        &router,
        KEY,
        "GET",
        "/api/v1/beta/visualize_saved_view",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}
