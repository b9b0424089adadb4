// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Spec 4.7–4.11 through the router: private indexes created, listed page by
//! page, updated in full and in part, filled with files (uploaded ones by id,
//! others connected from a real HTTP server on 127.0.0.1) with the failures
//! beside the files added; each endpoint's 400s and 404s, and another key's
//! indexes out of reach.

use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};

mod common;
use common::{call, host, upload, KEY_A as KEY, KEY_B as OTHER};

const BASE: &str = "/api/v1/beta/private_indexes/";
const SUMMARY: [&str; 7] = [
    "created_at",
    "description",
    "id",
    "is_default",
    "name",
    "ontology_status",
    "updated_at",
];

fn keys(object: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = object
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

async fn create(router: &Router, key: &str, name: &str) -> Value {
    let (status, index) = call(router, key, "POST", BASE, Some(json!({"name": name}))).await;
    assert_eq!(status, StatusCode::OK, "{index}");
    index
}

#[tokio::test]
async fn indexes_are_created_with_the_fields_of_2_7_and_the_first_is_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (status, first) = call(
        &router,
        KEY,
        "POST",
        BASE,
        Some(json!({"name": "Finance", "description": "Monthly books"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(keys(&first), SUMMARY);
    assert_eq!(first["name"], "Finance");
    assert_eq!(first["description"], "Monthly books");
    assert_eq!(first["is_default"], true);
    assert_eq!(first["ontology_status"], "empty");
    assert!(first["id"].as_str().unwrap().starts_with("pidx_"));
    let second = create(&router, KEY, "Ops").await;
    assert_eq!(second["is_default"], false);
    assert_eq!(second["description"], Value::Null);
    // Another key's first index is its own default.
    assert_eq!(create(&router, OTHER, "Theirs").await["is_default"], true);

    for (body, param) in [
        (json!({}), "name"),
        (json!({"name": "  "}), "name"),
        (json!({"name": 3}), "name"),
        (json!({"name": "x".repeat(201)}), "name"),
        (json!({"name": "a", "description": ["b"]}), "description"),
        (
            json!({"name": "a", "description": "d".repeat(2_001)}),
            "description",
        ),
        (json!([1]), "body"),
    ] {
        let (status, answer) = call(&router, KEY, "POST", BASE, Some(body.clone())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(answer["error"]["param"], param, "{body}");
    }
}

#[tokio::test]
async fn the_list_is_paginated_with_count_next_and_previous() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    for i in 0..5 {
        create(&router, KEY, &format!("index {i}")).await;
    }
    create(&router, OTHER, "not yours").await;
    let (status, page) = call(&router, KEY, "GET", BASE, None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(keys(&page), ["count", "next", "previous", "results"]);
    assert_eq!(page["count"], 5);
    assert_eq!(page["next"], Value::Null);
    assert_eq!(page["previous"], Value::Null);
    let names: Vec<&str> = page["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["index 0", "index 1", "index 2", "index 3", "index 4"]
    );
    assert_eq!(keys(&page["results"][0]), SUMMARY);

    let (_, first) = call(&router, KEY, "GET", &format!("{BASE}?page_size=2"), None).await;
    assert_eq!(first["results"].as_array().unwrap().len(), 2);
    assert_eq!(
        first["next"],
        "http://127.0.0.1:8080/api/v1/beta/private_indexes/?page=2&page_size=2"
    );
    assert_eq!(first["previous"], Value::Null);
    let (_, last) = call(
        &router,
        KEY,
        "GET",
        &format!("{BASE}?page=3&page_size=2"),
        None,
    )
    .await;
    assert_eq!(last["results"][0]["name"], "index 4");
    assert_eq!(last["next"], Value::Null);
    assert_eq!(
        last["previous"],
        "http://127.0.0.1:8080/api/v1/beta/private_indexes/?page=2&page_size=2"
    );
    // Past the last page: empty, pointing back at the last.
    let (status, past) = call(
        &router,
        KEY,
        "GET",
        &format!("{BASE}?page=9&page_size=2"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(past["results"], json!([]));
    assert_eq!(past["count"], 5);
    assert_eq!(
        past["previous"],
        "http://127.0.0.1:8080/api/v1/beta/private_indexes/?page=3&page_size=2"
    );
    for (query, param) in [
        ("page=0", "page"),
        ("page=x", "page"),
        ("page_size=0", "page_size"),
        ("page_size=101", "page_size"),
        ("page_size=-1", "page_size"),
    ] {
        let (status, answer) = call(&router, KEY, "GET", &format!("{BASE}?{query}"), None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {answer}");
        assert_eq!(answer["error"]["param"], param);
    }
}

#[tokio::test]
async fn put_replaces_both_fields_patch_only_those_sent() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let index = create(&router, KEY, "Finance").await;
    let path = format!("{BASE}{}/", index["id"].as_str().unwrap());

    let (status, patched) = call(
        &router,
        KEY,
        "PATCH",
        &path,
        Some(json!({"description": "Books"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{patched}");
    assert_eq!(
        keys(&patched),
        [
            "created_at",
            "data_mapping_bucket_keys",
            "description",
            "id",
            "is_default",
            "kg_elements_bucket_key",
            "name",
            "ontology_status",
            "updated_at"
        ]
    );
    assert_eq!(
        (patched["name"].as_str(), patched["description"].as_str()),
        (Some("Finance"), Some("Books"))
    );
    assert_eq!(patched["created_at"], index["created_at"]);
    assert_eq!(patched["kg_elements_bucket_key"], Value::Null);
    assert_eq!(patched["data_mapping_bucket_keys"], Value::Null);
    let (_, renamed) = call(&router, KEY, "PATCH", &path, Some(json!({"name": "Money"}))).await;
    assert_eq!(
        (renamed["name"].as_str(), renamed["description"].as_str()),
        (Some("Money"), Some("Books"))
    );
    let (_, cleared) = call(
        &router,
        KEY,
        "PATCH",
        &path,
        Some(json!({"description": null})),
    )
    .await;
    assert_eq!(cleared["description"], Value::Null);

    // PUT: both replaced; a description left out is null.
    let (_, put) = call(
        &router,
        KEY,
        "PUT",
        &path,
        Some(json!({"name": "Ledger", "description": "All"})),
    )
    .await;
    assert_eq!(
        (put["name"].as_str(), put["description"].as_str()),
        (Some("Ledger"), Some("All"))
    );
    let (_, put) = call(&router, KEY, "PUT", &path, Some(json!({"name": "Ledger"}))).await;
    assert_eq!(put["description"], Value::Null);
    // The list shows the update.
    let (_, list) = call(&router, KEY, "GET", BASE, None).await;
    assert_eq!(list["results"][0]["name"], "Ledger");

    for (method, body, param) in [
        ("PUT", json!({"description": "no name"}), "name"),
        ("PUT", json!({"name": "x", "is_default": false}), "body"),
        ("PATCH", json!({}), "body"),
        ("PATCH", json!({"ontology_status": "done"}), "body"),
        ("PATCH", json!({"name": ""}), "name"),
    ] {
        let (status, answer) = call(&router, KEY, method, &path, Some(body.clone())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{method} {body}: {answer}");
        assert_eq!(answer["error"]["param"], param);
    }
    // Another key's index, or none at all: 404 whatever the body.
    for (key, target) in [
        (OTHER, path.as_str()),
        (KEY, "/api/v1/beta/private_indexes/pidx_nope/"),
    ] {
        for method in ["PUT", "PATCH"] {
            let (status, answer) =
                call(&router, key, method, target, Some(json!({"name": "taken"}))).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{method} {target}: {answer}");
            assert_eq!(answer["error"]["code"], "private_index_not_found");
        }
    }
    let (_, mine) = call(&router, KEY, "GET", BASE, None).await;
    assert_eq!(
        mine["results"][0]["name"], "Ledger",
        "untouched by the other key"
    );
}

/// A file server on 127.0.0.1: its origin.
async fn files() -> String {
    let router = Router::new()
        .route(
            "/sales.csv",
            get(|| async { "month,sales\n2024-01,1\n2024-02,2\n" }),
        )
        .route(
            "/broken.csv",
            get(|| async { (StatusCode::NOT_FOUND, "gone") }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    origin
}

#[tokio::test]
async fn files_are_added_in_a_batch_with_the_failures_beside_them() {
    let origin = files().await;
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), true);
    let index = create(&router, KEY, "Finance").await;
    let id = index["id"].as_str().unwrap();
    let path = format!("{BASE}{id}/files/");
    let (status, uploaded, _) = upload(
        &router,
        KEY,
        "regions.csv",
        b"region,sales\nNorth,3\nSouth,4\n",
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, theirs, _) = upload(&router, OTHER, "theirs.csv", b"a,b\n1,2\n").await;

    let (status, answer) = call(&router, KEY, "POST", &path, Some(json!({"files": [
        {"file_url": format!("{origin}/sales.csv"), "file_context": "monthly sales", "source": "Books"},
        {"file_id": uploaded, "file_context": "by region"},
        {"file_url": format!("{origin}/broken.csv")},
        {"file_id": theirs},
        {"source": "neither"},
    ]}))).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        answer["message"],
        format!("2 of 5 files added to private index {id}; see failures for the others")
    );
    let added = answer["files"].as_array().unwrap();
    assert_eq!(added.len(), 2);
    assert_eq!(
        keys(&added[0]),
        [
            "created_at",
            "file_context",
            "id",
            "ontology_state",
            "prepend_schema_context",
            "schema_id",
            "segment_id",
            "source",
            "updated_at"
        ]
    );
    assert_eq!(added[0]["file_context"], "monthly sales");
    assert_eq!(added[0]["source"], "Books");
    assert_eq!(added[0]["ontology_state"], "schema");
    assert_eq!(added[1]["id"], uploaded.as_str());
    assert_eq!(added[1]["file_context"], "by region");
    let failures = answer["failures"].as_array().unwrap();
    let failed: Vec<(u64, &str)> = failures
        .iter()
        .map(|f| {
            (
                f["index"].as_u64().unwrap(),
                f["error"]["code"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        failed,
        [
            (2, "invalid_request"),
            (3, "file_not_found"),
            (4, "invalid_request")
        ]
    );

    // Both files now name the index; the other key's file does not.
    let (_, file) = call(
        &router,
        KEY,
        "GET",
        &format!("/api/v1/beta/files/{uploaded}/"),
        None,
    )
    .await;
    assert_eq!(file["connected_private_index"], id);
    let (_, file) = call(
        &router,
        OTHER,
        "GET",
        &format!("/api/v1/beta/files/{theirs}/"),
        None,
    )
    .await;
    assert_eq!(file["connected_private_index"], Value::Null);

    // The index has an ontology and its files' cleaned tables.
    let (_, index) = call(
        &router,
        KEY,
        "PATCH",
        &format!("{BASE}{id}/"),
        Some(json!({"name": "Finance"})),
    )
    .await;
    assert_eq!(index["ontology_status"], "schema");
    let kg = index["kg_elements_bucket_key"].as_str().unwrap();
    // An object the store named (issue 30: keys never become paths).
    assert!(kg.starts_with("obj_") && !kg.contains('/'), "{kg}");
    let tenant_dir = std::fs::read_dir(common::shared::objects_dir(dir.path()))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let elements: Value =
        serde_json::from_slice(&std::fs::read(tenant_dir.join(kg)).unwrap()).unwrap();
    assert_eq!(elements["elements"].as_array().unwrap().len(), 2);
    assert_eq!(
        index["data_mapping_bucket_keys"].as_array().unwrap().len(),
        2
    );

    // generate_ontology false on a new index: skipped, no ontology.
    let plain = create(&router, KEY, "Plain").await;
    let plain_id = plain["id"].as_str().unwrap();
    let (status, answer) = call(&router, KEY, "POST", &format!("{BASE}{plain_id}/files/"), Some(json!({
        "files": [{"file_id": uploaded}], "generate_ontology": false, "link_world_ontology": true,
    }))).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["files"][0]["ontology_state"], "skipped");
    let (_, list) = call(&router, KEY, "GET", BASE, None).await;
    assert_eq!(list["results"][1]["ontology_status"], "skipped");
}

#[tokio::test]
async fn adding_files_refuses_bad_batches_and_other_keys_indexes() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let index = create(&router, KEY, "Finance").await;
    let path = format!("{BASE}{}/files/", index["id"].as_str().unwrap());
    let (_, file, _) = upload(&router, KEY, "a.csv", b"a,b\n1,2\n").await;
    let many: Vec<Value> = (0..21).map(|_| json!({"file_id": file})).collect();
    for (body, param) in [
        (json!({}), "files"),
        (json!({"files": []}), "files"),
        (json!({"files": "a.csv"}), "files"),
        (json!({"files": many}), "files"),
        (
            json!({"files": [{"file_id": file}], "generate_ontology": "yes"}),
            "generate_ontology",
        ),
        (json!({"files": [{"file_id": "file_missing"}]}), "files"),
    ] {
        let (status, answer) = call(&router, KEY, "POST", &path, Some(body.clone())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(answer["error"]["param"], param, "{body}");
    }
    let (status, answer) = call(
        &router,
        OTHER,
        "POST",
        &path,
        Some(json!({"files": [{"file_id": file}]})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    assert_eq!(answer["error"]["code"], "private_index_not_found");
    let (status, _) = call(&router, KEY, "GET", &path, None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    let (status, _) = call(&router, KEY, "DELETE", BASE, None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    // Without a key: 401, as every endpoint.
    let (status, _, _) = common::send(&router, common::request("GET", BASE, None, None)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
