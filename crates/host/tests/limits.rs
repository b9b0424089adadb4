// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The host's limits on the real binary over real TCP: slow or stalled
//! clients are let go, connections and draws are capped, an oversized body
//! gets its 413 page rather than a reset, and a reader that does not read is
//! dropped. Each server runs with short timeouts so that the tests are quick.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

struct Server {
    child: Child,
    port: u16,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    fn start(www: &Path, args: &[&str]) -> Server {
        Server::start_with_env(www, args, &[])
    }

    fn start_with_env(www: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_zdr-host"));
        command
            .args(["--port", "0", "--package", "."])
            .arg("--www")
            .arg(www)
            .args(args)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (name, _) in std::env::vars() {
            if name.starts_with("ZDR_") {
                command.env_remove(name);
            }
        }
        command
            .env_remove("MIMALLOC_PURGE_DELAY")
            .envs(env.iter().copied());
        let mut child = command.spawn().unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let into = stderr.clone();
        std::thread::spawn(move || {
            let mut line = String::new();
            while matches!(err.read_line(&mut line), Ok(n) if n > 0) {
                into.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        // Keep stdout drained; the host prints nothing more there.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let port = line
            .trim_end()
            .strip_prefix("zdr-host listening on http://127.0.0.1:")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
        Server {
            child,
            port,
            stderr,
        }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        stream
    }

    /// One request on its own connection; the whole answer.
    fn exchange(&self, request: &[u8]) -> String {
        let mut stream = self.connect();
        stream.write_all(request).unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn www() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<!doctype html><p>demo").unwrap();
    dir
}

fn post(card: &str, close: bool) -> Vec<u8> {
    let body: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("visualization_data", card)
        .finish();
    let connection = if close { "close" } else { "keep-alive" };
    format!(
        "POST /embed/x/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: {connection}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn small_card() -> String {
    json!({
        "viz_config": {"title": "Small", "viz_component_type": "bar"},
        "data": [{"x": "North", "y": 3}, {"x": "South", "y": 5}]
    })
    .to_string()
}

/// Waits until the server closes the connection (EOF or reset); how long
/// that took, and what arrived before.
fn until_closed(stream: &mut TcpStream, limit: Duration) -> (Duration, String) {
    let started = Instant::now();
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut got = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buffer[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                panic!(
                    "still open after {limit:?}; got {:?}",
                    String::from_utf8_lossy(&got)
                )
            }
            Err(_) => break,
        }
    }
    (
        started.elapsed(),
        String::from_utf8_lossy(&got).into_owned(),
    )
}

#[test]
fn a_client_trickling_its_headers_is_let_go() {
    let www = www();
    let server = Server::start(www.path(), &["--header-timeout", "1s"]);
    let mut stream = server.connect();
    stream.write_all(b"GET /healthz HTTP/1.1\r\n").unwrap();
    // One header byte every 100 ms: never a whole header block.
    let trickle = {
        let mut stream = stream.try_clone().unwrap();
        std::thread::spawn(move || {
            for _ in 0..60 {
                if stream.write_all(b"X").is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    let (after, _) = until_closed(&mut stream, Duration::from_secs(5));
    assert!(
        after < Duration::from_secs(4),
        "closed only after {after:?}"
    );
    trickle.join().unwrap();
    // The host is still there for others.
    assert!(server
        .exchange(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .starts_with("HTTP/1.1 200"));
}

#[test]
fn a_body_that_stops_arriving_is_let_go() {
    let www = www();
    let server = Server::start(www.path(), &["--body-timeout", "1s"]);
    let mut stream = server.connect();
    stream
        .write_all(
            b"POST /embed/x/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n\
              Content-Length: 1000\r\n\r\nvisualization_data=%7B",
        )
        .unwrap();
    let (after, answer) = until_closed(&mut stream, Duration::from_secs(5));
    assert!(
        after < Duration::from_secs(4),
        "closed only after {after:?}"
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.contains("did not arrive within 1 seconds"),
        "{answer}"
    );
}

#[test]
fn an_idle_connection_is_closed() {
    let www = www();
    let server = Server::start(www.path(), &["--idle-timeout", "1s"]);
    let mut stream = server.connect();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let (after, answer) = until_closed(&mut stream, Duration::from_secs(5));
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        after < Duration::from_secs(4),
        "closed only after {after:?}"
    );
}

#[test]
fn connections_beyond_the_cap_wait_for_a_free_one() {
    let www = www();
    let server = Server::start(www.path(), &["--max-connections", "1"]);
    let holder = server.connect();
    let mut waiting = server.connect();
    waiting
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    waiting
        .set_read_timeout(Some(Duration::from_millis(800)))
        .unwrap();
    let mut buffer = [0u8; 64];
    let early = waiting.read(&mut buffer);
    assert!(
        matches!(&early, Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)),
        "answered beyond the cap: {early:?}"
    );
    holder.shutdown(Shutdown::Both).unwrap();
    drop(holder);
    waiting
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut answer = String::new();
    waiting.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[test]
fn an_oversized_body_gets_the_413_page_not_a_reset() {
    let www = www();
    let server = Server::start(www.path(), &["--body-limit", "1000000"]);
    let mut stream = server.connect();
    // More than the socket buffers hold: a host that answers and closes
    // before reading it all breaks the pipe (a browser's "connection reset").
    let size = 17_000_000;
    stream
        .write_all(
            format!(
                "POST /embed/x/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
                 Content-Type: application/x-www-form-urlencoded\r\n\
                 Content-Length: {size}\r\n\r\nvisualization_data="
            )
            .as_bytes(),
        )
        .unwrap();
    // As a browser does: the whole body first, then the answer.
    let rest = vec![b'a'; size - "visualization_data=".len()];
    stream
        .write_all(&rest)
        .expect("the host reads the whole refused body");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.contains("larger than the limit of 1000000 bytes"),
        "{answer}"
    );
}

#[test]
fn a_reader_that_does_not_read_is_dropped() {
    let www = www();
    // 64 MiB: more than the socket buffers on both sides hold.
    let size = 64 * 1024 * 1024;
    std::fs::write(www.path().join("big.bin"), vec![b'z'; size]).unwrap();
    let server = Server::start(www.path(), &["--write-timeout", "1s"]);
    let mut stream = server.connect();
    stream
        .write_all(b"GET /big.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    std::thread::sleep(Duration::from_secs(3));
    let mut got = 0usize;
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => got += n,
        }
    }
    assert!(got < size, "the whole file arrived to a reader that waited");
}

/// A post that takes a while to read and draw, even in a release build.
fn slow_card() -> String {
    let points: Vec<_> = (0..60_000)
        .map(|i| json!({"x": i, "y": (i * 7919) % 1000}))
        .collect();
    json!({"viz_config": {"title": "Slow", "viz_component_type": "scatter"}, "data": points})
        .to_string()
}

#[test]
fn saturated_draws_answer_503_with_retry_after() {
    let www = www();
    let server = Arc::new(Server::start(
        www.path(),
        &["--max-concurrent-draws", "1", "--draw-queue", "0"],
    ));
    let request = Arc::new(post(&slow_card(), true));
    let answers: Vec<String> = (0..6)
        .map(|_| {
            let server = server.clone();
            let request = request.clone();
            std::thread::spawn(move || server.exchange(&request))
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .collect();
    let busy: Vec<&String> = answers
        .iter()
        .filter(|a| a.starts_with("HTTP/1.1 503"))
        .collect();
    assert!(!busy.is_empty(), "no 503 among {} answers", answers.len());
    for answer in &answers {
        assert!(
            answer.starts_with("HTTP/1.1 200") || answer.starts_with("HTTP/1.1 503"),
            "{}",
            &answer[..answer.len().min(300)]
        );
    }
    for answer in busy {
        let head = answer
            .split("\r\n\r\n")
            .next()
            .unwrap()
            .to_ascii_lowercase();
        assert!(head.contains("\r\nretry-after: 1"), "{head}");
        assert!(head.contains("\r\ncache-control: no-store"), "{head}");
        assert!(answer.contains("The service is busy"), "{answer}");
    }
    // Slots are given back.
    let answer = server.exchange(&post(&small_card(), true));
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[test]
fn a_draw_over_its_deadline_is_503_and_stops() {
    let www = www();
    let server = Server::start(
        www.path(),
        &["--draw-timeout", "5ms", "--max-concurrent-draws", "1"],
    );
    let answer = server.exchange(&post(&slow_card(), true));
    assert!(
        answer.starts_with("HTTP/1.1 503"),
        "{}",
        &answer[..answer.len().min(300)]
    );
    assert!(answer.contains("took longer to draw"), "{answer}");
    // The single slot is free again once the stopped draw has ended.
    let deadline = Instant::now() + Duration::from_secs(10);
    let server_ok = loop {
        let answer = server.exchange(&post(&small_card(), true));
        if answer.starts_with("HTTP/1.1 200") || Instant::now() > deadline {
            break answer;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    // With a 5 ms budget even a small card may miss it; but it must not be busy.
    assert!(!server_ok.contains("The service is busy"), "{server_ok}");
    let log = server.stderr.lock().unwrap().clone();
    assert!(log.contains(" 503 "), "{log}");
}

#[test]
fn a_client_that_leaves_gives_its_place_in_the_queue_back() {
    let www = www();
    let server = Arc::new(Server::start(
        www.path(),
        &[
            "--max-concurrent-draws",
            "1",
            "--draw-queue",
            "1",
            "--small-post",
            "0",
        ],
    ));
    let slow = Arc::new(post(&slow_card(), true));
    // A draws; B waits in the one queue place, then leaves.
    let first = {
        let server = server.clone();
        let slow = slow.clone();
        std::thread::spawn(move || server.exchange(&slow))
    };
    std::thread::sleep(Duration::from_millis(150));
    let mut leaving = server.connect();
    leaving.write_all(&slow).unwrap();
    std::thread::sleep(Duration::from_millis(150));
    leaving.shutdown(Shutdown::Both).unwrap();
    drop(leaving);
    std::thread::sleep(Duration::from_millis(100));
    // C takes the place B gave back, instead of being turned away.
    let answer = server.exchange(&post(&small_card(), true));
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "{}",
        &answer[..answer.len().min(400)]
    );
    assert!(first.join().unwrap().starts_with("HTTP/1.1 200"));
}

/// The server runs with mimalloc's purge delay at 0, so memory freed by one
/// large draw goes back to the system at once instead of adding to the next
/// one's peak (see `purge_freed_memory_at_once` in main.rs); the process id
/// is the one that was started. An operator's own value is kept.
#[cfg(target_os = "linux")]
#[test]
fn the_server_gives_freed_memory_back_at_once() {
    let www = www();
    let environment = |server: &Server| {
        let raw = std::fs::read(format!("/proc/{}/environ", server.child.id())).unwrap();
        raw.split(|b| *b == 0)
            .map(|entry| String::from_utf8_lossy(entry).into_owned())
            .filter(|entry| entry.starts_with("MIMALLOC_PURGE_DELAY="))
            .collect::<Vec<_>>()
    };
    let server = Server::start(www.path(), &[]);
    assert_eq!(environment(&server), ["MIMALLOC_PURGE_DELAY=0"]);
    assert!(server
        .exchange(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .starts_with("HTTP/1.1 200"));
    drop(server);
    let server = Server::start_with_env(www.path(), &[], &[("MIMALLOC_PURGE_DELAY", "5")]);
    assert_eq!(environment(&server), ["MIMALLOC_PURGE_DELAY=5"]);
}

/// Bodies beyond their first --small-post bytes share --body-memory: while a
/// stalled upload holds most of it, another large post gets 503 with
/// Retry-After (after its body was read, so the client reads the page),
/// a small card is still drawn, and once the upload is gone the large post
/// goes through.
#[test]
fn large_bodies_share_a_bounded_memory() {
    let www = www();
    let server = Server::start(
        www.path(),
        &[
            "--body-memory",
            "300000",
            "--small-post",
            "2000",
            "--body-timeout",
            "20s",
        ],
    );
    // 250 kB sent of a 400 kB body, then silence: it holds about 248 kB.
    let mut holder = server.connect();
    holder
        .write_all(
            b"POST /embed/x/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n\
              Content-Length: 400000\r\n\r\nvisualization_data=",
        )
        .unwrap();
    holder.write_all(&vec![b'a'; 250_000]).unwrap();
    std::thread::sleep(Duration::from_millis(500));

    // A large (padded) card: 150 kB more would pass the 300 kB.
    let padded = json!({
        "viz_config": {"title": "Large", "viz_component_type": "bar", "subtitle": "p".repeat(150_000)},
        "data": [{"x": "North", "y": 3}]
    })
    .to_string();
    let answer = server.exchange(&post(&padded, true));
    assert!(
        answer.starts_with("HTTP/1.1 503"),
        "{}",
        &answer[..answer.len().min(300)]
    );
    assert!(
        answer.contains("retry-after: 1"),
        "{}",
        &answer[..answer.len().min(300)]
    );
    assert!(answer.contains("as many large posts as it can hold"));

    // Small cards are not held back by it.
    let answer = server.exchange(&post(&small_card(), true));
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "{}",
        &answer[..answer.len().min(300)]
    );

    // The upload's share comes back when it goes away.
    holder.shutdown(Shutdown::Both).unwrap();
    drop(holder);
    std::thread::sleep(Duration::from_millis(300));
    let answer = server.exchange(&post(&padded, true));
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "{}",
        &answer[..answer.len().min(300)]
    );
}
