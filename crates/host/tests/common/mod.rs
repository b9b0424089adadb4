//! What the service API's router tests share: a host on a data folder with
//! two keys, requests as a client sends them, and the presigned upload done
//! as a client does it (ask for the form, post it with the file).
// Each test file uses some of these.
#![allow(dead_code)]

use std::path::Path;

#[path = "../shared/mod.rs"]
pub mod shared;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;
use zdr_host::{app, Config};

pub const KEY_A: &str = "key-a-0123456789abcdef";
pub const KEY_B: &str = "key-b-0123456789abcdef";
pub const BOUNDARY: &str = "zdr-api-test-boundary";
/// The Host the requests name: the API's URLs start with it.
pub const ORIGIN: &str = "http://127.0.0.1:8080";

/// The host with keys A and B, its data in `data`, no demo pages.
pub fn host(data: &Path, allow_private_fetch: bool) -> Router {
    app(config(data, allow_private_fetch))
}

/// The settings [`host`] starts with, to change before starting one.
/// With the shared stores up (scripts/shared-stores.sh), in a database and
/// a bucket folder of its own.
pub fn config(data: &Path, allow_private_fetch: bool) -> Config {
    let (database_url, object_store) = shared::stores(data).unzip();
    Config {
        api: zdr_host::api::ApiConfig {
            api_keys: vec![KEY_A.into(), KEY_B.into()],
            data_dir: data.to_path_buf(),
            allow_private_fetch,
            database_url,
            object_store,
            ..Default::default()
        },
        server: zdr_host::config::ServerConfig {
            www: data.join("no-www"),
            ..Default::default()
        },
        ..Config::default()
    }
}

/// Tests of this host's own `/upload/` forms skip themselves when files go
/// to a bucket, which checks its forms itself (tests/replicas.rs shows the
/// bucket refusing a changed signature, key or size).
pub fn own_forms(test: &str) -> bool {
    if shared::on() {
        eprintln!("{test}: uploads go to the bucket, which checks its own forms; skipped");
        return false;
    }
    true
}

pub async fn send(router: &Router, request: Request<Body>) -> (StatusCode, String, HeaderMap) {
    let response = router.clone().oneshot(request).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        String::from_utf8_lossy(&bytes).into_owned(),
        headers,
    )
}

/// A request to the API, with a key and a JSON body when given.
pub fn request(method: &str, path: &str, key: Option<&str>, body: Option<&Value>) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "127.0.0.1:8080");
    if let Some(key) = key {
        request = request.header("x-api-key", key);
    }
    match body {
        Some(body) => request
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap(),
        None => request.body(Body::empty()).unwrap(),
    }
}

/// A JSON call: the status and the answer (`Null` when it is not JSON).
pub async fn call(
    router: &Router,
    key: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (status, text, _) = send(router, request(method, path, Some(key), body.as_ref())).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A `multipart/form-data` post of `fields`, then a part `file`.
pub fn multipart(path: &str, fields: &[(String, String)], file: &[u8]) -> Request<Body> {
    use zdr_test_support::Part;
    let mut parts: Vec<Part<'_>> = fields
        .iter()
        .map(|(name, value)| Part::field(name, value))
        .collect();
    parts.push(Part::file(file));
    Request::post(path)
        .header("host", "127.0.0.1:8080")
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(Body::from(zdr_test_support::multipart(BOUNDARY, &parts)))
        .unwrap()
}

/// The presigned form for `file_name`, as the API answers it.
pub async fn form(router: &Router, key: &str, file_name: &str) -> Value {
    let (status, form) = call(
        router,
        key,
        "GET",
        &format!("/api/v1/beta/file_upload_url?file_name={file_name}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{form}");
    form
}

/// A form's fields, in order.
pub fn fields(form: &Value) -> Vec<(String, String)> {
    form["fields"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(n, v)| (n.clone(), v.as_str().unwrap().to_owned()))
        .collect()
}

/// The presigned form for `file_name`: its fields in order, and its key.
pub async fn presign(
    router: &Router,
    key: &str,
    file_name: &str,
) -> (Vec<(String, String)>, String) {
    let form = form(router, key, file_name).await;
    (fields(&form), form["key"].as_str().unwrap().to_owned())
}

/// Uploads `bytes` as `file_name`: the upload's status and answer, and the
/// file id. With a bucket, the form goes to the bucket over HTTP, and the
/// host takes the file in when first asked for it: the status and answer
/// are then that first ask's (204 and nothing when it was taken in).
pub async fn upload(
    router: &Router,
    key: &str,
    file_name: &str,
    bytes: &[u8],
) -> (StatusCode, String, String) {
    let form = form(router, key, file_name).await;
    let fields = fields(&form);
    let file_id = form["file_id"].as_str().unwrap().to_owned();
    let url = form["url"].as_str().unwrap();
    if url.ends_with("/upload/") {
        let (status, answer, _) = send(router, multipart("/upload/", &fields, bytes)).await;
        return (status, file_id, answer);
    }
    let posted = post_to_bucket(url, &fields, bytes).await;
    assert_eq!(posted.0, 204, "the bucket refused the upload: {}", posted.1);
    let (status, answer, _) = send(
        router,
        request(
            "GET",
            &format!("/api/v1/beta/files/{file_id}/"),
            Some(key),
            None,
        ),
    )
    .await;
    if status == StatusCode::OK {
        (StatusCode::NO_CONTENT, file_id, String::new())
    } else {
        (status, file_id, answer)
    }
}

/// A form posted to a bucket as a browser posts it: the status and answer.
pub async fn post_to_bucket(url: &str, fields: &[(String, String)], bytes: &[u8]) -> (u16, String) {
    let mut form = reqwest::multipart::Form::new();
    for (name, value) in fields {
        form = form.text(name.clone(), value.clone());
    }
    form = form.part(
        "file",
        reqwest::multipart::Part::bytes(bytes.to_vec()).file_name("upload"),
    );
    let response = reqwest::Client::new()
        .post(url)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap_or_default())
}

/// The strings of a JSON array (a plan's columns or filters), into any
/// collection; nothing for anything else.
pub fn strings<C: FromIterator<String> + Default>(v: &Value) -> C {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The trimmed, non-empty parts of a corpus field split at `by`.
pub fn split_set(text: &str, by: char) -> std::collections::BTreeSet<String> {
    text.split(by)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}
