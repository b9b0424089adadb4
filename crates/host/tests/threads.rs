// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Spec 4.13–4.15 through the router: threads started and continued by
//! `visualize` calls with a query, read back with their messages; the list
//! envelopes of 2.10 and their pages; another key's threads out of reach.

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};

mod common;
use common::{call, host, KEY_A as KEY, KEY_B as OTHER};

const CSV: &str = "month,sales\n2024-01,120\n2024-02,135\n2024-03,98\n";

async fn visualize(router: &Router, key: &str, body: Value) -> Value {
    let (status, answer) = call(router, key, "POST", "/api/v1/beta/visualize", Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer
}

#[tokio::test]
async fn a_query_starts_a_thread_and_a_thread_id_continues_it() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let first = visualize(
        &router,
        KEY,
        json!({"csv": [CSV], "query": "monthly sales as bars"}),
    )
    .await;
    let thread_id = first["thread_id"].as_str().unwrap().to_owned();
    assert!(thread_id.starts_with("thread_"));

    let (status, thread) = call(
        &router,
        KEY,
        "GET",
        &format!("/api/v1/threads/{thread_id}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{thread}");
    assert_eq!(thread["object"], "thread");
    assert_eq!(thread["thread_id"], thread_id.as_str());
    assert_eq!(thread["title"], "monthly sales as bars");
    assert_eq!(thread["metadata"], json!({"endpoint": "visualize"}));
    let created = thread["created"].as_i64().unwrap();
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    assert!(
        (now - 60..=now).contains(&created),
        "{created} is a Unix timestamp"
    );

    let (status, messages) = call(
        &router,
        KEY,
        "GET",
        &format!("/api/v1/threads/{thread_id}/messages"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{messages}");
    assert_eq!(messages["object"], "list");
    assert_eq!(messages["has_more"], false);
    let data = messages["data"].as_array().unwrap();
    assert_eq!(data.len(), 2);
    assert_eq!(data[0]["object"], "thread.message");
    assert_eq!(data[0]["thread_id"], thread_id.as_str());
    assert_eq!(data[0]["role"], "user");
    assert_eq!(
        data[0]["content"],
        json!([{"type": "user_query", "text": "monthly sales as bars"}])
    );
    assert_eq!(data[1]["role"], "assistant");
    let blocks = data[1]["content"].as_array().unwrap();
    assert_eq!(blocks[0]["type"], "text");
    assert_eq!(blocks[0]["text"], first["outputs"]["answer"]);
    let cards: Vec<&Value> = first["outputs"]["knowledge_cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["card_id"])
        .collect();
    let shown: Vec<&Value> = blocks[1..].iter().map(|b| &b["card_id"]).collect();
    assert_eq!(shown, cards);
    assert!(blocks[1..].iter().all(|b| b["type"] == "visualization"));
    // The data are not in the thread.
    assert!(!messages.to_string().contains("2024-02"), "{messages}");

    // Continued: the same thread, two more messages.
    let second = visualize(
        &router,
        KEY,
        json!({"csv": [CSV], "query": "as a line", "thread_id": thread_id}),
    )
    .await;
    assert_eq!(second["thread_id"], thread_id.as_str());
    let (_, messages) = call(
        &router,
        KEY,
        "GET",
        &format!("/api/v1/threads/{thread_id}/messages/"),
        None,
    )
    .await;
    assert_eq!(messages["data"].as_array().unwrap().len(), 4);
    assert_eq!(messages["data"][2]["content"][0]["text"], "as a line");

    // No query, no thread.
    let quiet = visualize(&router, KEY, json!({"csv": [CSV]})).await;
    assert!(quiet.get("thread_id").is_none());
    let (_, list) = call(&router, KEY, "GET", "/api/v1/threads", None).await;
    assert_eq!(list["data"].as_array().unwrap().len(), 1);

    // Another key: none of this.
    for path in [
        format!("/api/v1/threads/{thread_id}"),
        format!("/api/v1/threads/{thread_id}/messages"),
    ] {
        let (status, answer) = call(&router, OTHER, "GET", &path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {answer}");
        assert_eq!(answer["error"]["code"], "thread_not_found");
    }
    let (status, answer) = call(
        &router,
        OTHER,
        "POST",
        "/api/v1/beta/visualize",
        Some(json!({"csv": [CSV], "query": "x", "thread_id": thread_id})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    let (_, theirs) = call(&router, OTHER, "GET", "/api/v1/threads", None).await;
    assert_eq!(
        theirs,
        json!({"object": "list", "data": [], "has_more": false})
    );
}

#[tokio::test]
async fn lists_come_in_pages_of_limit_after_a_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let mut ids = Vec::new();
    for i in 0..3 {
        let answer = visualize(
            &router,
            KEY,
            json!({"csv": [CSV], "query": format!("question {i}")}),
        )
        .await;
        ids.push(answer["thread_id"].as_str().unwrap().to_owned());
    }
    // Newest first.
    let (_, page) = call(&router, KEY, "GET", "/api/v1/threads?limit=2", None).await;
    let got: Vec<&str> = page["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["thread_id"].as_str().unwrap())
        .collect();
    assert_eq!(got, [ids[2].as_str(), ids[1].as_str()]);
    assert_eq!(page["has_more"], true);
    let (_, rest) = call(
        &router,
        KEY,
        "GET",
        &format!("/api/v1/threads?limit=2&after={}", ids[1]),
        None,
    )
    .await;
    let got: Vec<&str> = rest["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["thread_id"].as_str().unwrap())
        .collect();
    assert_eq!(got, [ids[0].as_str()]);
    assert_eq!(rest["has_more"], false);

    // Messages in the order they were written, a page at a time.
    let thread = &ids[0];
    let (_, first) = call(
        &router,
        KEY,
        "GET",
        &format!("/api/v1/threads/{thread}/messages?limit=1"),
        None,
    )
    .await;
    assert_eq!(first["data"][0]["role"], "user");
    assert_eq!(first["has_more"], true);
    let after = first["data"][0]["message_id"].as_str().unwrap();
    let (_, next) = call(
        &router,
        KEY,
        "GET",
        &format!("/api/v1/threads/{thread}/messages?limit=1&after={after}"),
        None,
    )
    .await;
    assert_eq!(next["data"][0]["role"], "assistant");
    assert_eq!(next["has_more"], false);

    for path in [
        "/api/v1/threads?limit=0".to_owned(),
        "/api/v1/threads?limit=101".to_owned(),
        "/api/v1/threads?limit=x".to_owned(),
        "/api/v1/threads?after=thread_nope".to_owned(),
        format!("/api/v1/threads/{thread}/messages?after=msg_nope"),
        format!("/api/v1/threads/{thread}/messages?after=a%20b"),
    ] {
        let (status, answer) = call(&router, KEY, "GET", &path, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {answer}");
    }
    let (status, _) = call(&router, KEY, "GET", "/api/v1/threads/thread_nope", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = call(&router, KEY, "POST", "/api/v1/threads", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}
