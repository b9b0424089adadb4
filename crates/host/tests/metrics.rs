// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! `/metrics` on an address of its own, the real binary over real HTTP:
//! served there, 404 on the public listener, off when asked, and an
//! address asked for that cannot be had stops the host at start.

use std::process::Command;

mod common;
use common::shared::Spawned;

fn zdr_host(dir: &std::path::Path, metrics: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_zdr-host"));
    command
        .args(["--port", "0", "--metrics-bind", metrics])
        .arg("--data-dir")
        .arg(dir.join("data"))
        .arg("--www")
        .arg(dir.join("no-www"));
    command
}

#[tokio::test]
async fn metrics_answer_on_their_own_address_and_not_on_the_public_one() {
    let dir = tempfile::tempdir().unwrap();
    let client = reqwest::Client::new();
    let host = Spawned::start(zdr_host(dir.path(), "127.0.0.1:0"));
    let metrics = host
        .metrics
        .clone()
        .expect("the metrics address is printed");
    assert_ne!(metrics, format!("{}/metrics", host.origin));
    let health = client
        .get(format!("{}/healthz", host.origin))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
    let public = client
        .get(format!("{}/metrics", host.origin))
        .send()
        .await
        .unwrap();
    assert_eq!(public.status(), 404);
    let own = client.get(&metrics).send().await.unwrap();
    assert_eq!(own.status(), 200);
    let text = own.text().await.unwrap();
    assert!(
        text.contains(
            "zdr_http_requests_total{route=\"/healthz\",method=\"GET\",status=\"200\"} 1"
        ),
        "{text}"
    );
    // The metrics address serves nothing else.
    let other = metrics.replace("/metrics", "/healthz");
    assert_eq!(client.get(other).send().await.unwrap().status(), 404);

    // Off: no address at all.
    let off = Spawned::start(zdr_host(dir.path(), "off"));
    assert_eq!(off.metrics, None);
    let public = client
        .get(format!("{}/metrics", off.origin))
        .send()
        .await
        .unwrap();
    assert_eq!(public.status(), 404);

    // An address asked for and taken (the first host's): the host stops at
    // start and says which.
    let taken = metrics
        .trim_start_matches("http://")
        .trim_end_matches("/metrics")
        .to_owned();
    let output = zdr_host(dir.path(), &taken).output().unwrap();
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains(&format!("--metrics-bind {taken}")), "{said}");
}
