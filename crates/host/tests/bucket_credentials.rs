// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
#![cfg(unix)]

//! The bucket's credentials as clouds hand them out, on the real binary and
//! an S3 server that checks signatures (s3s-fs, which scripts/test.sh
//! installs and runs this with): temporary keys with a session token, from
//! a profile of a shared credentials file and from a container endpoint,
//! rotated while the host runs. Each rotation restarts the S3 server with
//! the new keys only, so a form or a read signed with the old ones fails:
//! the host's next form and its own reads use the new keys, without a
//! restart.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

mod common;
use common::{fields, post_to_bucket, shared};
use shared::free_port;

const KEY: &str = "credentials-key-0123456789";
const CSV: &str = "region,sales\nNorth,120\nSouth,80\n";

/// s3s-fs on one port with one pair of keys, until dropped.
struct S3Server(Child);

impl S3Server {
    fn start(root: &Path, port: u16, access_key: &str, secret: &str) -> S3Server {
        let server = S3Server(
            Command::new("s3s-fs")
                .args(["--host", "127.0.0.1", "--port", &port.to_string()])
                .args(["--access-key", access_key, "--secret-key", secret])
                .arg(root)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("s3s-fs runs: scripts/shared-stores.sh installs it"),
        );
        for _ in 0..100 {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return server;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("s3s-fs did not start on {port}");
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A host on the bucket, with `credentials` the only AWS settings it has
/// besides the endpoint: none of the test's own keys.
fn host(dir: &Path, s3_port: u16, credentials: &[(&str, String)]) -> shared::Spawned {
    let data = dir.join("data");
    let mut command = Command::new(env!("CARGO_BIN_EXE_zdr-host"));
    command
        .args(["--port", "0", "--api-key", KEY, "--metrics-bind", "off"])
        .args(["--object-store", "s3://zdr-test/zdr"])
        .arg("--data-dir")
        .arg(&data)
        .arg("--www")
        .arg(data.join("no-www"));
    for (name, _) in std::env::vars() {
        if name.starts_with("AWS_") {
            command.env_remove(name);
        }
    }
    command
        .env("HOME", dir)
        .env("AWS_ENDPOINT_URL", format!("http://127.0.0.1:{s3_port}"))
        .env("AWS_REGION", "us-east-1")
        .env("AWS_EC2_METADATA_DISABLED", "true");
    for (name, value) in credentials {
        command.env(name, value);
    }
    shared::Spawned::start(command)
}

/// A form for a new file, the file posted with it, and the file drawn:
/// what the form was signed with (its credential and session token).
async fn upload_and_draw(host: &shared::Spawned) -> (String, String) {
    let client = reqwest::Client::new();
    let form = client
        .get(format!(
            "{}/api/v1/beta/file_upload_url?file_name=sales.csv",
            host.origin
        ))
        .header("x-api-key", KEY)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let form: Value = serde_json::from_str(&form).unwrap();
    let signed = fields(&form);
    let field = |name: &str| {
        signed
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let (status, answer) =
        post_to_bucket(form["url"].as_str().unwrap(), &signed, CSV.as_bytes()).await;
    assert_eq!(status, 204, "the bucket takes the form: {answer}");
    let drawn = client
        .post(format!("{}/api/v1/beta/visualize", host.origin))
        .header("x-api-key", KEY)
        .header("content-type", "application/json")
        .body(json!({"file_ids": [form["file_id"]], "query": "sales by region"}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(
        drawn.status(),
        200,
        "the host reads the upload with the same keys"
    );
    (field("x-amz-credential"), field("x-amz-security-token"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs s3s-fs: scripts/test.sh installs it (scripts/shared-stores.sh) and runs it"]
async fn a_profiles_keys_and_session_token_are_read_again_when_the_file_changes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("s3");
    std::fs::create_dir_all(root.join("zdr-test")).unwrap();
    let port = free_port();
    let file = dir.path().join("credentials");
    let profile = |key: &str, secret: &str, token: &str| {
        std::fs::write(
            &file,
            format!("[default]\naws_access_key_id = unused\naws_secret_access_key = unused\n\n[zdr]\naws_access_key_id = {key}\naws_secret_access_key = {secret}\naws_session_token = {token}\n"),
        )
        .unwrap();
    };

    profile("ZDRKEY1", "secret-one", "token-one");
    let server = S3Server::start(&root, port, "ZDRKEY1", "secret-one");
    let host = host(
        dir.path(),
        port,
        &[
            ("AWS_SHARED_CREDENTIALS_FILE", file.display().to_string()),
            ("AWS_PROFILE", "zdr".into()),
        ],
    );
    let (credential, token) = upload_and_draw(&host).await;
    assert!(credential.starts_with("ZDRKEY1/"), "{credential}");
    assert_eq!(token, "token-one");

    // The keys rotate: the server knows only the new ones, the file has them.
    drop(server);
    let _server = S3Server::start(&root, port, "ZDRKEY2", "secret-two");
    profile("ZDRKEY2", "secret-two", "token-two");
    let (credential, token) = upload_and_draw(&host).await;
    assert!(credential.starts_with("ZDRKEY2/"), "{credential}");
    assert_eq!(token, "token-two");
}

/// A container credentials endpoint (EKS Pod Identity's kind, on
/// loopback) that hands out whatever keys the test sets, checking the
/// authorization token, until dropped.
struct Endpoint {
    url: String,
    keys: Arc<Mutex<Value>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Endpoint {
    fn start(token: &'static str) -> Endpoint {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let url = format!("http://{}/v1/credentials", listener.local_addr().unwrap());
        let keys = Arc::new(Mutex::new(Value::Null));
        let stop = Arc::new(AtomicBool::new(false));
        let (served, stopped) = (Arc::clone(&keys), Arc::clone(&stop));
        let thread = std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => answer(stream, token, &served),
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            }
        });
        Endpoint {
            url,
            keys,
            stop,
            thread: Some(thread),
        }
    }

    /// Keys that expire `seconds` from now.
    fn hand_out(&self, key: &str, secret: &str, token: &str, seconds: i64) {
        let expiration = (time::OffsetDateTime::now_utc() + time::Duration::seconds(seconds))
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap();
        *self.keys.lock().unwrap() = json!({
            "AccessKeyId": key, "SecretAccessKey": secret, "Token": token, "Expiration": expiration,
        });
    }
}

fn answer(stream: TcpStream, token: &str, keys: &Mutex<Value>) {
    stream.set_nonblocking(false).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut authorized = false;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        authorized |= line.to_ascii_lowercase().starts_with("authorization:")
            && line.trim_end().ends_with(token);
    }
    let (status, body) = if authorized {
        ("200 OK", keys.lock().unwrap().to_string())
    } else {
        ("401 Unauthorized", "{}".to_owned())
    };
    let mut stream = stream;
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs s3s-fs: scripts/test.sh installs it (scripts/shared-stores.sh) and runs it"]
async fn a_containers_temporary_keys_are_fetched_again_before_they_expire() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("s3");
    std::fs::create_dir_all(root.join("zdr-test")).unwrap();
    let port = free_port();
    let token_file = dir.path().join("pod-token");
    std::fs::write(&token_file, "pod-identity-token").unwrap();
    let endpoint = Endpoint::start("pod-identity-token");

    // Keys a little over five minutes from expiry: fetched again within seconds.
    endpoint.hand_out("ZDRPOD1", "pod-secret-one", "pod-token-one", 303);
    let server = S3Server::start(&root, port, "ZDRPOD1", "pod-secret-one");
    let host = host(
        dir.path(),
        port,
        &[
            ("AWS_CONTAINER_CREDENTIALS_FULL_URI", endpoint.url.clone()),
            (
                "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
                token_file.display().to_string(),
            ),
        ],
    );
    let (credential, token) = upload_and_draw(&host).await;
    assert!(credential.starts_with("ZDRPOD1/"), "{credential}");
    assert_eq!(token, "pod-token-one");

    endpoint.hand_out("ZDRPOD2", "pod-secret-two", "pod-token-two", 3600);
    drop(server);
    let _server = S3Server::start(&root, port, "ZDRPOD2", "pod-secret-two");
    std::thread::sleep(Duration::from_secs(4));
    let (credential, token) = upload_and_draw(&host).await;
    assert!(credential.starts_with("ZDRPOD2/"), "{credential}");
    assert_eq!(token, "pod-token-two");
}
