// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Issue 30 through the router: a presigned form stores one file once, a
//! signed key never becomes a path, an upload and its cleaned table never
//! share an object, `connected_private_index_id` names an index of the same
//! key or nothing, every rejection on every route is the JSON error body,
//! a key past its rate gets 429, and heavy work past its deadline gets 503;
//! both with Retry-After. The hostile files themselves run against the real
//! binary in tests/hostile_files/.

use std::path::Path;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use base64::Engine;
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use zdr_host::app;

mod common;
use common::{call, config, host, multipart, presign, send, upload, KEY_A, KEY_B};

const CSV: &str = "month,sales\n2024-01,1\n2024-02,NA\n";

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Every file under `dir`, as paths relative to it.
fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

#[tokio::test]
async fn a_presigned_form_stores_one_file_once() {
    if !common::own_forms("a_presigned_form_stores_one_file_once") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (fields, key) = presign(&router, KEY_A, "sales.csv").await;
    let (status, answer, _) = send(&router, multipart("/upload/", &fields, CSV.as_bytes())).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{answer}");
    let id = key.split('/').next().unwrap();
    let path = format!("/api/v1/beta/files/{id}/");
    let (_, before) = call(&router, KEY_A, "GET", &path, None).await;
    let objects = walk(&common::shared::objects_dir(dir.path()));
    tokio::time::sleep(Duration::from_millis(1100)).await;

    // The same form again, with other content: refused, nothing changed.
    let other = "month,sales\n2030-01,999\n";
    let (status, answer, headers) =
        send(&router, multipart("/upload/", &fields, other.as_bytes())).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(headers["content-type"], "application/json");
    let answer = json_of(&answer);
    assert_eq!(answer["error"]["code"], "conflict");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("used already"),
        "{answer}"
    );
    let (_, after) = call(&router, KEY_A, "GET", &path, None).await;
    assert_eq!(before, after, "the file's object changed");
    assert_eq!(
        after["cleaned_files"][0]["created_at"],
        before["cleaned_files"][0]["created_at"]
    );
    assert_eq!(walk(&common::shared::objects_dir(dir.path())), objects);
    let (status, cleaned, _) = send(
        &router,
        common::request("GET", &format!("{path}cleaned/"), Some(KEY_A), None),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cleaned, "month,sales\n2024-01,1\n2024-02,\n");
}

/// The form's fields with `key` put in its place and the policy signed
/// again with the host's own secret: what only someone holding the secret
/// could post.
fn resigned(data: &Path, fields: &[(String, String)], key: &str) -> Vec<(String, String)> {
    let field = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap()
    };
    let engine = base64::engine::general_purpose::STANDARD;
    let mut policy: Value =
        serde_json::from_slice(&engine.decode(field("policy")).unwrap()).unwrap();
    for condition in policy["conditions"].as_array_mut().unwrap() {
        if condition[1] == "$key" {
            condition[2] = json!(key);
        }
    }
    let policy = engine.encode(policy.to_string());
    let secret = std::fs::read_to_string(data.join("upload-secret")).unwrap();
    let credential = field("x-amz-credential");
    let date = credential.split('/').nth(1).unwrap().to_owned();
    let hmac = |k: &[u8], d: &[u8]| {
        let mut mac = Hmac::<Sha256>::new_from_slice(k).unwrap();
        mac.update(d);
        mac.finalize().into_bytes().to_vec()
    };
    let mut signing = hmac(format!("AWS4{}", secret.trim()).as_bytes(), date.as_bytes());
    for part in ["local", "s3", "aws4_request"] {
        signing = hmac(&signing, part.as_bytes());
    }
    let signature: String = hmac(&signing, policy.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    fields
        .iter()
        .map(|(name, value)| {
            let value = match name.as_str() {
                "key" => key.to_owned(),
                "policy" => policy.clone(),
                "x-amz-signature" => signature.clone(),
                _ => value.clone(),
            };
            (name.clone(), value)
        })
        .collect()
}

#[tokio::test]
async fn a_signed_key_never_becomes_a_path() {
    if !common::own_forms("a_signed_key_never_becomes_a_path") {
        return;
    }
    let parent = tempfile::tempdir().unwrap();
    let data = parent.path().join("data");
    let router = host(&data, false);
    let (fields, key) = presign(&router, KEY_A, "sales.csv").await;
    let id = key.split('/').next().unwrap();
    // The re-signing is right: the genuine key, signed again, is taken.
    let same = resigned(&data, &fields, &key);
    let (status, answer, _) = send(&router, multipart("/upload/", &same, CSV.as_bytes())).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{answer}");
    for bad in [
        "file_zz/../../../x.csv".to_owned(),
        format!("{id}/../../x.csv"),
        format!("/{id}/x.csv"),
        format!("{id}/a\\b.csv"),
        format!("{id}/a\u{0}b.csv"),
        format!("{id}/a\u{1b}b.csv"),
        format!("{id}/sub/x.csv"),
        "x.csv".to_owned(),
    ] {
        let (fields, _) = presign(&router, KEY_A, "x.csv").await;
        let forged = resigned(&data, &fields, &bad);
        let (status, answer, _) =
            send(&router, multipart("/upload/", &forged, CSV.as_bytes())).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{bad:?}: {answer}");
        assert_eq!(
            json_of(&answer)["error"]["code"],
            "upload_refused",
            "{bad:?}"
        );
    }
    let written = walk(parent.path());
    assert!(written.iter().all(|p| !p.ends_with("x.csv")), "{written:?}");
}

#[tokio::test]
async fn an_upload_and_its_cleaned_table_never_share_an_object() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (status, id, answer) = upload(&router, KEY_A, "cleaned.csv", CSV.as_bytes()).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{answer}");
    let (_, file) = call(
        &router,
        KEY_A,
        "GET",
        &format!("/api/v1/beta/files/{id}/"),
        None,
    )
    .await;
    assert_eq!(file["key"], format!("{id}/cleaned.csv"));
    assert_ne!(file["key"], file["cleaned_files"][0]["key"]);
    let objects = walk(&common::shared::objects_dir(dir.path()));
    assert_eq!(objects.len(), 2, "{objects:?}");
    let contents: Vec<Vec<u8>> = objects
        .iter()
        .map(|o| std::fs::read(common::shared::objects_dir(dir.path()).join(o)).unwrap())
        .collect();
    assert!(
        contents.contains(&CSV.as_bytes().to_vec()),
        "the original was overwritten"
    );
    assert!(contents.contains(&b"month,sales\n2024-01,1\n2024-02,\n".to_vec()));
    for object in &objects {
        let name = Path::new(object).file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with("obj_"), "{object}: named by the request");
    }
}

#[tokio::test]
async fn a_connected_index_must_be_one_of_the_same_key() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), true);
    let (_, theirs) = call(
        &router,
        KEY_B,
        "POST",
        "/api/v1/beta/private_indexes/",
        Some(json!({"name": "B's"})),
    )
    .await;
    let theirs = theirs["id"].as_str().unwrap().to_owned();
    let (_, mine) = call(
        &router,
        KEY_A,
        "POST",
        "/api/v1/beta/private_indexes/",
        Some(json!({"name": "A's"})),
    )
    .await;
    let mine = mine["id"].as_str().unwrap().to_owned();
    let (_, id, _) = upload(&router, KEY_A, "a.csv", CSV.as_bytes()).await;
    let mut answers = Vec::new();
    for index in [theirs.as_str(), "pidx_000000000000000000000000"] {
        for (path, body) in [
            (
                "/api/v1/beta/file_connector",
                json!({"file_url": "http://127.0.0.1:9/a.csv", "connected_private_index_id": index}),
            ),
            (
                "/api/v1/beta/visualize",
                json!({"file_ids": [id], "connected_private_index_id": index}),
            ),
        ] {
            let (status, answer) = call(&router, KEY_A, "POST", path, Some(body)).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path} {index}: {answer}");
            assert_eq!(answer["error"]["code"], "private_index_not_found");
            assert_eq!(answer["error"]["param"], "connected_private_index_id");
            answers.push(
                answer["error"]["message"]
                    .as_str()
                    .unwrap()
                    .replace(index, "ID"),
            );
        }
    }
    // Another key's index and one that does not exist answer alike.
    assert_eq!(answers[0], answers[2]);
    assert_eq!(answers[1], answers[3]);
    // The key's own index is taken.
    let (status, answer) = call(
        &router,
        KEY_A,
        "POST",
        "/api/v1/beta/visualize",
        Some(json!({"file_ids": [id], "connected_private_index_id": mine})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

/// A request with a key, a body and a content type of its own.
fn raw(method: &str, path: &str, content_type: Option<&str>, body: Vec<u8>) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "127.0.0.1:8080")
        .header("x-api-key", KEY_A);
    if let Some(content_type) = content_type {
        request = request.header("content-type", content_type);
    }
    request.body(Body::from(body)).unwrap()
}

#[tokio::test]
async fn every_rejection_on_every_route_is_the_json_error_body() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (_, index) = call(
        &router,
        KEY_A,
        "POST",
        "/api/v1/beta/private_indexes/",
        Some(json!({"name": "I"})),
    )
    .await;
    let index = index["id"].as_str().unwrap().to_owned();
    let json_routes = [
        ("POST", "/api/v1/beta/files".to_owned()),
        ("POST", "/api/v1/beta/file_connector".to_owned()),
        ("POST", "/api/v1/beta/visualize".to_owned()),
        ("POST", "/api/v1/beta/visualize_saved_view".to_owned()),
        ("POST", "/api/v1/beta/saved_views".to_owned()),
        ("POST", "/api/v1/beta/private_indexes/".to_owned()),
        ("PUT", format!("/api/v1/beta/private_indexes/{index}/")),
        ("PATCH", format!("/api/v1/beta/private_indexes/{index}/")),
        (
            "POST",
            format!("/api/v1/beta/private_indexes/{index}/files/"),
        ),
        ("POST", "/api/v1/knowledge_search".to_owned()),
        ("PATCH", "/api/v1/beta/files/file_1/".to_owned()),
    ];
    let huge = vec![b' '; 5 * 1024 * 1024];
    let mut cases: Vec<(String, Request<Body>, StatusCode)> = Vec::new();
    for (method, path) in &json_routes {
        cases.push((
            format!("{method} {path} over the body limit"),
            raw(method, path, Some("application/json"), huge.clone()),
            StatusCode::PAYLOAD_TOO_LARGE,
        ));
        cases.push((
            format!("{method} {path} as text/plain"),
            raw(method, path, Some("text/plain"), b"{}".to_vec()),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ));
        cases.push((
            format!("{method} {path} not JSON"),
            raw(
                method,
                path,
                Some("application/json"),
                b"{not json".to_vec(),
            ),
            StatusCode::BAD_REQUEST,
        ));
        if !path.starts_with("/api/v1/beta/files/file_") {
            cases.push((
                format!("DELETE {path}"),
                raw("DELETE", path, None, Vec::new()),
                StatusCode::METHOD_NOT_ALLOWED,
            ));
        }
    }
    for (path, status) in [
        (
            "/api/v1/beta/file_upload_url?file_name=a.csv&file_name=b.csv",
            StatusCode::BAD_REQUEST,
        ),
        ("/api/v1/image/card_1/?width=wide", StatusCode::BAD_REQUEST),
        (
            "/api/v1/image/card_1/?width=1&width=2",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/v1/image/card_1/?dark_mode=maybe",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/v1/beta/private_indexes/?page=first",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/v1/beta/private_indexes/?page=1&page=2",
            StatusCode::BAD_REQUEST,
        ),
        ("/api/v1/threads?limit=many", StatusCode::BAD_REQUEST),
        ("/api/v1/threads?limit=1&limit=2", StatusCode::BAD_REQUEST),
        (
            "/api/v1/threads/t_1/messages?limit=x",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/v1/beta/file_connector?file_id=a&file_id=b",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/v1/image/card_1/?hide_footer=maybe",
            StatusCode::BAD_REQUEST,
        ),
        ("/api/v1/beta/files/%FF%FE/", StatusCode::BAD_REQUEST),
        ("/api/v1/beta/files/%FF/cleaned/", StatusCode::BAD_REQUEST),
        ("/api/v1/threads/%FF", StatusCode::BAD_REQUEST),
        ("/api/v1/threads/%FF/messages", StatusCode::BAD_REQUEST),
        ("/api/v1/image/%FF/", StatusCode::BAD_REQUEST),
        ("/api/v1/no/such/path", StatusCode::NOT_FOUND),
    ] {
        cases.push((
            format!("GET {path}"),
            raw("GET", path, None, Vec::new()),
            status,
        ));
    }
    cases.push((
        "PATCH a non-UTF-8 index id".into(),
        raw(
            "PATCH",
            "/api/v1/beta/private_indexes/%FF/",
            Some("application/json"),
            b"{}".to_vec(),
        ),
        StatusCode::BAD_REQUEST,
    ));
    cases.push((
        "an upload that is not multipart".into(),
        raw("POST", "/upload/", Some("application/json"), b"{}".to_vec()),
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
    ));
    cases.push((
        "an upload over its limit".into(),
        raw(
            "POST",
            "/upload/",
            Some("multipart/form-data; boundary=x"),
            huge.clone(),
        ),
        StatusCode::PAYLOAD_TOO_LARGE,
    ));
    cases.push((
        "GET on the upload".into(),
        raw("GET", "/upload/", None, Vec::new()),
        StatusCode::METHOD_NOT_ALLOWED,
    ));
    for (what, request, status) in cases {
        let (got, body, headers) = send(&router, request).await;
        assert_eq!(got, status, "{what}: {body}");
        assert_eq!(
            headers.get("content-type").map(|v| v.to_str().unwrap()),
            Some("application/json"),
            "{what}: {body}"
        );
        let body = json_of(&body);
        assert_eq!(body["error"]["status"], status.as_u16(), "{what}: {body}");
        assert!(
            !body["error"]["code"].as_str().unwrap().is_empty()
                && !body["error"]["message"].as_str().unwrap().is_empty(),
            "{what}: {body}"
        );
    }
}

#[tokio::test]
async fn a_key_past_its_rate_gets_429_with_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = config(dir.path(), false);
    settings.api.api_rate = 0.5;
    settings.api.api_burst = 3;
    let router: Router = app(settings);
    let path = "/api/v1/threads";
    for _ in 0..3 {
        let (status, _) = call(&router, KEY_A, "GET", path, None).await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, body, headers) =
        send(&router, common::request("GET", path, Some(KEY_A), None)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(json_of(&body)["error"]["code"], "rate_limited");
    let wait: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&wait), "Retry-After {wait}");
    // Another key has its own bucket.
    let (status, _) = call(&router, KEY_B, "GET", path, None).await;
    assert_eq!(status, StatusCode::OK);
    // Off with 0.
    let mut settings = config(dir.path(), false);
    settings.api.api_rate = 0.0;
    let router = app(settings);
    for _ in 0..50 {
        let (status, _) = call(&router, KEY_A, "GET", path, None).await;
        assert_eq!(status, StatusCode::OK);
    }
}

#[tokio::test]
async fn heavy_work_past_its_deadline_is_503_with_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = config(dir.path(), false);
    settings.admission.draw_timeout = Duration::from_millis(1);
    let router = app(settings);
    let mut csv = String::from("month,region,sales\n");
    for i in 0..4000 {
        csv.push_str(&format!(
            "20{:02}-{:02},R{},{i}\n",
            i % 30,
            i % 12 + 1,
            i % 9
        ));
    }
    let (status, body, headers) = send(
        &router,
        common::request(
            "POST",
            "/api/v1/beta/visualize",
            Some(KEY_A),
            Some(&json!({"csv": [csv]})),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(json_of(&body)["error"]["code"], "deadline");
    assert!(headers.contains_key("retry-after"));
    // The upload's reading is held to the same deadline.
    let (status, _, answer) = upload(&router, KEY_A, "big.csv", csv.as_bytes()).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer}");
}
