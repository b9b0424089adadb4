// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
// The test kills a replica with SIGKILL.
#![cfg(unix)]

//! Two replicas of the real binary on two ports, sharing one PostgreSQL
//! database and one bucket of an S3 server that checks signatures
//! (scripts/shared-stores.sh starts both; scripts/test.sh runs this test):
//! both start at once and migrate the schema one after the other; a file
//! posted through replica A's form goes straight to the bucket, which
//! refuses the form changed in any way; replica B visualizes it; a second
//! post to the same key changes nothing stored; a thread started on one is
//! listed on the other; key B sees none of key A's data on either; replica
//! A killed with SIGKILL in the middle of an upload leaves nothing half
//! stored, and B goes on serving; `/readyz` and `/metrics` answer, and the
//! metrics name no key, no file and no data.

use std::io::Write;
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};

mod common;
use common::{fields, post_to_bucket as post, shared};

const KEY_A: &str = "replica-key-a-0123456789";
const KEY_B: &str = "replica-key-b-0123456789";
const CSV: &str = "month,region,sales\n2024-01,North,120\n2024-02,North,135\n2024-03,North,98\n2024-01,South,80\n2024-02,South,91\n2024-03,South,104\n";

/// A replica: a zdr-host on the shared database and bucket.
type Replica = shared::Spawned;

fn replica(data: &Path, database: &str, objects: &str) -> Replica {
    replica_with(data, database, objects, &[])
}

fn replica_with(data: &Path, database: &str, objects: &str, flags: &[&str]) -> Replica {
    let mut command = Command::new(env!("CARGO_BIN_EXE_zdr-host"));
    command.args(flags);
    command
        .args(["--port", "0", "--api-key", KEY_A, "--api-key", KEY_B])
        .args(["--metrics-bind", "127.0.0.1:0"])
        .args(["--database-url", database, "--object-store", objects])
        .arg("--data-dir")
        .arg(data)
        .arg("--www")
        .arg(data.join("no-www"));
    shared::Spawned::start(command)
}

async fn call(
    client: &reqwest::Client,
    replica: &Replica,
    key: &str,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = client
        .request(method, format!("{}{path}", replica.origin))
        .header("x-api-key", key);
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn get(client: &reqwest::Client, replica: &Replica, key: &str, path: &str) -> (u16, Value) {
    call(client, replica, key, reqwest::Method::GET, path, None).await
}

fn with(fields: &[(String, String)], name: &str, value: &str) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|(n, v)| {
            let v = if n == name {
                value.to_owned()
            } else {
                v.clone()
            };
            (n.clone(), v)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and an S3 server: scripts/test.sh starts them (scripts/shared-stores.sh) and runs it"]
async fn two_replicas_share_one_database_and_one_bucket() {
    let dir = tempfile::tempdir().unwrap();
    let (database, objects) = shared::stores(dir.path())
        .expect("the shared stores: run scripts/shared-stores.sh start DIR and source DIR/env");
    let client = reqwest::Client::new();

    // Both at once: the schema is migrated once, under PostgreSQL's lock.
    let (data_a, data_b) = (dir.path().join("a"), dir.path().join("b"));
    let (a, b) = std::thread::scope(|scope| {
        let a = scope.spawn(|| replica(&data_a, &database, &objects));
        let b = scope.spawn(|| replica(&data_b, &database, &objects));
        (a.join().unwrap(), b.join().unwrap())
    });
    for replica in [&a, &b] {
        let ready = client
            .get(format!("{}/readyz", replica.origin))
            .send()
            .await
            .unwrap();
        assert_eq!(ready.status(), 200);
        assert_eq!(ready.text().await.unwrap(), "ready\n");
    }

    // A's form is the bucket's own, and the bytes go straight to it.
    let (status, form) = get(
        &client,
        &a,
        KEY_A,
        "/api/v1/beta/file_upload_url?file_name=sales.csv&file_context=monthly%20sales",
    )
    .await;
    assert_eq!(status, 200, "{form}");
    let url = form["url"].as_str().unwrap().to_owned();
    let endpoint = std::env::var("AWS_ENDPOINT_URL").unwrap();
    assert!(url.starts_with(&endpoint), "{url} is the bucket's address");
    let file_id = form["file_id"].as_str().unwrap().to_owned();
    let good = fields(&form);

    // The bucket checks the form: a changed signature, key, content type
    // or policy, and a file past the size the policy allows, are refused.
    let signature = good
        .iter()
        .find(|(n, _)| n == "x-amz-signature")
        .map(|(_, v)| v.clone())
        .unwrap();
    let flipped = format!(
        "{}{}",
        &signature[..63],
        if signature.ends_with('0') { "1" } else { "0" }
    );
    let key = good.iter().find(|(n, _)| n == "key").unwrap().1.clone();
    let elsewhere = key.replace(&file_id, "file_000000000000000000000000");
    for (what, bad, bytes) in [
        (
            "signature",
            with(&good, "x-amz-signature", &flipped),
            CSV.as_bytes().to_vec(),
        ),
        (
            "key",
            with(&good, "key", &elsewhere),
            CSV.as_bytes().to_vec(),
        ),
        (
            "content type",
            with(&good, "Content-Type", "text/html"),
            CSV.as_bytes().to_vec(),
        ),
        (
            "size",
            good.clone(),
            vec![b'1'; zdr_host::api::MAX_FILE + 1],
        ),
    ] {
        let (status, answer) = post(&url, &bad, &bytes).await;
        assert!(
            (400..500).contains(&status),
            "a changed {what}: {status} {answer}"
        );
    }
    let (status, answer) = get(
        &client,
        &b,
        KEY_A,
        &format!("/api/v1/beta/files/{file_id}/"),
    )
    .await;
    assert_eq!(status, 404, "nothing was posted yet: {answer}");

    let (status, answer) = post(&url, &good, CSV.as_bytes()).await;
    assert_eq!(status, 204, "{answer}");

    // B takes it in and draws it.
    let (status, cards) = call(
        &client,
        &b,
        KEY_A,
        reqwest::Method::POST,
        "/api/v1/beta/visualize",
        Some(json!({"file_ids": [file_id], "query": "sales by region"})),
    )
    .await;
    assert_eq!(status, 200, "{cards}");
    assert!(!cards["outputs"]["knowledge_cards"]
        .as_array()
        .unwrap()
        .is_empty());
    let (status, file) = get(
        &client,
        &a,
        KEY_A,
        &format!("/api/v1/beta/files/{file_id}/"),
    )
    .await;
    assert_eq!(status, 200, "{file}");
    assert_eq!(file["file_context"], "monthly sales");

    // The host keeps its own copy: a second post to the key changes nothing.
    let (status, _) = post(&url, &good, b"month,sales\n2024-01,1\n").await;
    assert_eq!(status, 204, "the bucket itself takes a second post");
    for replica in [&a, &b] {
        let cleaned = client
            .get(format!(
                "{}/api/v1/beta/files/{file_id}/cleaned/",
                replica.origin
            ))
            .header("x-api-key", KEY_A)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            cleaned.contains("North") && cleaned.contains("104"),
            "{cleaned}"
        );
    }

    // Past the form's bound, whatever put it in the bucket (here the S3
    // server's own folder, as someone holding the bucket's keys could): the
    // host reads no further than the limit, refuses it, and forgets it.
    let (status, big) = get(
        &client,
        &a,
        KEY_A,
        "/api/v1/beta/file_upload_url?file_name=big.csv",
    )
    .await;
    assert_eq!(status, 200, "{big}");
    let big_id = big["file_id"].as_str().unwrap().to_owned();
    let big_key = fields(&big)
        .into_iter()
        .find(|(n, _)| n == "key")
        .unwrap()
        .1;
    let root = std::env::var("ZDR_TEST_S3_ROOT").expect("ZDR_TEST_S3_ROOT");
    let on_disk = Path::new(&root).join(&big_key);
    std::fs::create_dir_all(on_disk.parent().unwrap()).unwrap();
    let mut past = b"a,b\n".to_vec();
    past.resize(zdr_host::api::MAX_FILE + 1, b'1');
    std::fs::write(&on_disk, &past).unwrap();
    let path = format!("/api/v1/beta/files/{big_id}/");
    let (status, refused) = get(&client, &b, KEY_A, &path).await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(refused["error"]["code"], "upload_refused");
    assert!(!on_disk.exists(), "the refused upload is removed");
    let (status, _) = get(&client, &b, KEY_A, &path).await;
    assert_eq!(status, 404, "and answers as never stored");

    // A thread started on A is listed on B; key B sees none of it.
    let (status, started) = call(
        &client,
        &a,
        KEY_A,
        reqwest::Method::POST,
        "/api/v1/beta/visualize",
        Some(json!({"csv": [CSV], "query": "sales by month"})),
    )
    .await;
    assert_eq!(status, 200, "{started}");
    let thread_id = started["thread_id"].as_str().unwrap().to_owned();
    let (status, listed) = get(&client, &b, KEY_A, "/api/v1/threads").await;
    assert_eq!(status, 200, "{listed}");
    assert!(listed.to_string().contains(&thread_id), "{listed}");

    for replica in [&a, &b] {
        let (status, theirs) = get(&client, replica, KEY_B, "/api/v1/threads").await;
        assert_eq!(status, 200);
        assert!(!theirs.to_string().contains(&thread_id), "{theirs}");
        let (status, _) = get(
            &client,
            replica,
            KEY_B,
            &format!("/api/v1/threads/{thread_id}"),
        )
        .await;
        assert_eq!(status, 404);
        let (status, _) = get(
            &client,
            replica,
            KEY_B,
            &format!("/api/v1/beta/files/{file_id}/"),
        )
        .await;
        assert_eq!(status, 404);
        let (status, _) = call(
            &client,
            replica,
            KEY_B,
            reqwest::Method::POST,
            "/api/v1/beta/visualize",
            Some(json!({"file_ids": [file_id]})),
        )
        .await;
        assert_eq!(status, 404);
        let (status, files) = get(&client, replica, KEY_B, "/api/v1/beta/file_connector").await;
        assert_eq!(status, 200);
        assert!(!files.to_string().contains(&file_id), "{files}");
    }

    // A dies with SIGKILL in the middle of an upload to it.
    let address = a.origin.trim_start_matches("http://").to_owned();
    let mut stream = TcpStream::connect(&address).unwrap();
    let boundary = "replica-boundary";
    let head = format!(
        "POST /api/v1/beta/files HTTP/1.1\r\nHost: {address}\r\nx-api-key: {KEY_A}\r\nContent-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: 60000\r\n\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"half.csv\"\r\n\r\nmonth,sales\n"
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(&b"2024-01,1\n".repeat(1000)).unwrap();
    stream.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let mut a = a;
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    drop(stream);

    // B goes on serving, and nothing of the half upload is stored.
    let (status, files) = get(&client, &b, KEY_A, "/api/v1/beta/file_connector").await;
    assert_eq!(status, 200, "{files}");
    let listed = files.to_string();
    assert!(
        listed.contains(&file_id) && !listed.contains("half"),
        "{files}"
    );
    let (status, again) = call(
        &client,
        &b,
        KEY_A,
        reqwest::Method::POST,
        "/api/v1/beta/visualize",
        Some(json!({"file_ids": [file_id], "query": "sales by month"})),
    )
    .await;
    assert_eq!(status, 200, "{again}");
    let ready = client
        .get(format!("{}/readyz", b.origin))
        .send()
        .await
        .unwrap();
    assert_eq!(ready.status(), 200);

    // B's metrics, on its own address (404 on the public one): routes by
    // their template, never a key, an id or data.
    let public = client
        .get(format!("{}/metrics", b.origin))
        .send()
        .await
        .unwrap();
    assert_eq!(public.status(), 404);
    let metrics = client
        .get(b.metrics.clone().expect("B serves metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains(
            "zdr_http_requests_total{route=\"/api/v1/beta/visualize\",method=\"POST\",status=\"200\"}"
        ),
        "{metrics}"
    );
    assert!(metrics.contains("zdr_http_request_duration_seconds_bucket"));
    assert!(metrics.contains("zdr_lane_slots{lane=\"large\"}"));
    for secret in [KEY_A, KEY_B, &file_id, &thread_id, "North", "sales"] {
        assert!(!metrics.contains(secret), "{secret} in the metrics");
    }

    // The replicas kept nothing on their own disks.
    assert!(!data_a.exists() && !data_b.exists());
}

/// Two replicas, one database: a key with a burst of 10 gets about 10
/// answers of a quick burst of 40 spread over both, not 20, the rest 429
/// with `Retry-After`; another key has a bucket of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and an S3 server: scripts/test.sh starts them (scripts/shared-stores.sh) and runs it"]
async fn a_keys_rate_is_one_across_replicas() {
    let dir = tempfile::tempdir().unwrap();
    let (database, objects) = shared::stores(dir.path())
        .expect("the shared stores: run scripts/shared-stores.sh start DIR and source DIR/env");
    let client = reqwest::Client::new();
    let flags = ["--api-rate", "1", "--api-burst", "10"];
    let (data_a, data_b) = (dir.path().join("a"), dir.path().join("b"));
    let a = replica_with(&data_a, &database, &objects, &flags);
    let b = replica_with(&data_b, &database, &objects, &flags);
    let asks = (0..40).map(|i| {
        let (client, replica) = (client.clone(), if i % 2 == 0 { &a } else { &b });
        let url = format!(
            "{}/api/v1/beta/files/file_0123456789abcdef01234567/",
            replica.origin
        );
        async move {
            let answer = client
                .get(url)
                .header("x-api-key", KEY_A)
                .send()
                .await
                .unwrap();
            let retry = answer.headers().get("retry-after").cloned();
            (answer.status().as_u16(), retry)
        }
    });
    let answers = futures_util::future::join_all(asks).await;
    let served = answers.iter().filter(|(status, _)| *status != 429).count();
    let limited: Vec<_> = answers
        .iter()
        .filter(|(status, _)| *status == 429)
        .collect();
    // 10 at once, and one a second while the burst lasts.
    assert!(
        (10..=12).contains(&served),
        "{served} of 40 served: {answers:?}"
    );
    assert!(
        limited.iter().all(|(_, retry)| retry.is_some()),
        "{limited:?}"
    );
    let (status, _) = get(
        &client,
        &b,
        KEY_B,
        "/api/v1/beta/files/file_0123456789abcdef01234567/",
    )
    .await;
    assert_ne!(status, 429, "key B has a bucket of its own");
}

/// Two hosts on one database and one bucket, in process: a file posted
/// straight to the bucket with A's form is listed by B before anything
/// used it; a form never posted is forgotten once past its expiry and a
/// sweep, so a post made with it later is never taken in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and an S3 server: scripts/test.sh starts them (scripts/shared-stores.sh) and runs it"]
async fn posted_files_are_listed_everywhere_and_expired_forms_are_swept() {
    let dir = tempfile::tempdir().unwrap();
    let (database, objects) = shared::stores(dir.path())
        .expect("the shared stores: run scripts/shared-stores.sh start DIR and source DIR/env");
    let built = |name: &str| {
        let mut config = common::config(&dir.path().join(name), false);
        config.api.database_url = Some(database.clone());
        config.api.object_store = Some(objects.clone());
        zdr_host::app::build(config)
    };
    let (a, b) = (built("a"), built("b"));
    let form = |router: axum::Router, name: &'static str| async move {
        let path = format!("/api/v1/beta/file_upload_url?file_name={name}");
        let (status, form) = common::call(&router, KEY_A_IN_PROCESS, "GET", &path, None).await;
        assert_eq!(status, axum::http::StatusCode::OK, "{form}");
        form
    };

    let posted = form(a.router.clone(), "posted.csv").await;
    let url = posted["url"].as_str().unwrap().to_owned();
    let (status, answer) = post(&url, &fields(&posted), CSV.as_bytes()).await;
    assert!((200..300).contains(&status), "{answer}");
    let posted_id = posted["file_id"].as_str().unwrap();
    // Another key's listing neither shows nor takes in A's upload.
    let (status, theirs) = common::call(
        &b.router,
        common::KEY_B,
        "GET",
        "/api/v1/beta/file_connector",
        None,
    )
    .await;
    assert_eq!(status, axum::http::StatusCode::OK);
    assert!(!theirs.to_string().contains(posted_id), "{theirs}");
    let (status, listed) = common::call(
        &b.router,
        KEY_A_IN_PROCESS,
        "GET",
        "/api/v1/beta/file_connector",
        None,
    )
    .await;
    assert_eq!(status, axum::http::StatusCode::OK);
    assert!(listed.to_string().contains(posted_id), "{listed}");
    let path = format!("/api/v1/beta/files/{posted_id}/");
    let (status, _) = common::call(&b.router, common::KEY_B, "GET", &path, None).await;
    assert_eq!(
        status,
        axum::http::StatusCode::NOT_FOUND,
        "key B never sees A's file"
    );

    let never = form(a.router.clone(), "never.csv").await;
    let never_id = never["file_id"].as_str().unwrap().to_owned();
    // Not yet expired: nothing to sweep.
    assert_eq!(b.api.sweep_uploads(std::time::Duration::ZERO).await, Ok(0));
    // Two hours on, past its hour: forgotten.
    let swept = b
        .api
        .sweep_uploads(std::time::Duration::from_secs(7200))
        .await;
    assert_eq!(swept, Ok(1));
    let (status, _) = post(&url, &fields(&never), CSV.as_bytes()).await;
    assert!((200..300).contains(&status));
    let path = format!("/api/v1/beta/files/{never_id}/");
    let (status, _) = common::call(&a.router, KEY_A_IN_PROCESS, "GET", &path, None).await;
    assert_eq!(
        status,
        axum::http::StatusCode::NOT_FOUND,
        "the swept form's post is never taken in"
    );
}

/// The key [`common::config`] gives an in-process host.
const KEY_A_IN_PROCESS: &str = common::KEY_A;
