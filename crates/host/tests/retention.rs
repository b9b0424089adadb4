// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
// The test stops the server with SIGTERM through kill(1).
#![cfg(unix)]

//! Zero data retention, shown on the real binary over real TCP: cards
//! carrying a unique marker are posted (drawn, refused for their JSON, their
//! shape, their size or their type), the server is stopped with SIGTERM,
//! and then nothing of them is anywhere the process could have put it: not
//! in its working directory, not in its temporary directory, not in the
//! folders it serves, and not in anything it printed. What it did print is
//! one line per request: method, path, status and latency.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::json;

const BODY_LIMIT: usize = 20_000;
const BOUNDARY: &str = "retention-boundary-51c2";

/// A string no other run, and nothing in the binary, contains.
fn marker() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("zdr-marker-{nanos:x}{:x}", std::process::id())
}

// ------------------------------------------------------------ the process

/// The server process and what it printed, read on background threads so
/// that a full pipe never blocks it.
struct Server {
    child: Child,
    port: u16,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
    readers: Vec<JoinHandle<()>>,
}

fn collect(
    stream: impl Read + Send + 'static,
    into: Arc<Mutex<String>>,
    lines: Option<mpsc::Sender<String>>,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    into.lock().unwrap().push_str(&line);
                    if let Some(lines) = &lines {
                        // The receiver stops listening once it has the port.
                        let _ = lines.send(line.clone());
                    }
                }
            }
        }
    })
}

impl Server {
    fn start(cwd: &Path, tmp: &Path, www: &Path, package: &Path) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_zdr-host"));
        command
            .arg("--port")
            .arg("0")
            .arg("--www")
            .arg(www)
            .arg("--package")
            .arg(package)
            .arg("--body-limit")
            .arg(BODY_LIMIT.to_string())
            .current_dir(cwd)
            .env("TMPDIR", tmp)
            .env("TMP", tmp)
            .env("TEMP", tmp)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for name in [
            "ZDR_BIND",
            "ZDR_PORT",
            "ZDR_BODY_LIMIT",
            "ZDR_FRAME_ANCESTORS",
            "ZDR_WWW",
            "ZDR_PACKAGE",
            "RUST_BACKTRACE",
        ] {
            command.env_remove(name);
        }
        let mut child = command.spawn().unwrap();
        let stdout = Arc::new(Mutex::new(String::new()));
        let stderr = Arc::new(Mutex::new(String::new()));
        let (lines, first_lines) = mpsc::channel();
        let readers = vec![
            collect(child.stdout.take().unwrap(), stdout.clone(), Some(lines)),
            collect(child.stderr.take().unwrap(), stderr.clone(), None),
        ];
        let mut server = Server {
            child,
            port: 0,
            stdout,
            stderr,
            readers,
        };
        let line = first_lines
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| server.fail("no first line on stdout"));
        let port = line
            .trim_end()
            .strip_prefix("zdr-host listening on http://127.0.0.1:")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|port| port.parse::<u16>().ok())
            .unwrap_or_else(|| server.fail(&format!("unexpected first line {line:?}")));
        server.port = port;
        server
    }

    /// Stops the process and panics with what it printed.
    fn fail(&mut self, why: &str) -> ! {
        let _ = self.child.kill();
        let _ = self.child.wait();
        panic!(
            "{why}\n--- stdout\n{}\n--- stderr\n{}",
            self.stdout.lock().unwrap(),
            self.stderr.lock().unwrap()
        );
    }

    /// SIGTERM, then the exit status once the process has finished.
    fn terminate(&mut self, within: Duration) -> ExitStatus {
        let sent = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success(), "kill -TERM failed");
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                for reader in self.readers.drain(..) {
                    reader.join().unwrap();
                }
                return status;
            }
            if Instant::now() > deadline {
                self.fail(&format!("still running {within:?} after SIGTERM"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn output(&self) -> (String, String) {
        (
            self.stdout.lock().unwrap().clone(),
            self.stderr.lock().unwrap().clone(),
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Only if a failed assertion left it running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

// ------------------------------------------------------------- the client

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 exchange on a fresh connection.
fn exchange(port: u16, method: &str, path: &str, content_type: Option<&str>, body: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(content_type) = content_type {
        head.push_str(&format!("Content-Type: {content_type}\r\n"));
    }
    head.push_str("\r\n");
    let mut request = head.into_bytes();
    request.extend_from_slice(body);
    // A server that refuses a body it will not read may answer, and close,
    // before the whole body is written: what counts is the answer.
    // (No half-close after it: hyper, by default, takes the end of the
    // request stream for the end of the connection.)
    let _ = stream.write_all(&request);
    let mut raw = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&buffer[..n]),
            // A reset after the answer arrived (the unread body) ends it too.
            Err(error) if !raw.is_empty() => {
                eprintln!("read ended by {error} after {} bytes", raw.len());
                break;
            }
            Err(error) => panic!("{method} {path}: {error}"),
        }
    }
    parse(&raw).unwrap_or_else(|| panic!("{method} {path}: not HTTP: {raw:?}"))
}

fn parse(raw: &[u8]) -> Option<Reply> {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..split]).ok()?;
    let mut body = raw[split + 4..].to_vec();
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| {
            let (name, value) = line.split_once(':')?;
            Some((name.trim().to_string(), value.trim().to_string()))
        })
        .collect();
    let mut reply = Reply {
        status,
        headers,
        body: String::new(),
    };
    if reply
        .header("transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    {
        body = dechunk(&body)?;
    } else if let Some(length) = reply.header("content-length") {
        let length: usize = length.parse().ok()?;
        if body.len() < length {
            return None;
        }
        body.truncate(length);
    }
    reply.body = String::from_utf8(body).ok()?;
    Some(reply)
}

fn dechunk(mut raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let end = raw.windows(2).position(|w| w == b"\r\n")?;
        let size = std::str::from_utf8(&raw[..end]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        raw = &raw[end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(raw.get(..size)?);
        raw = raw.get(size + 2..)?;
    }
}

fn form(json: &str) -> Vec<u8> {
    zdr_test_support::form(json).into_bytes()
}

fn multipart(json: &str) -> Vec<u8> {
    zdr_test_support::multipart(
        BOUNDARY,
        &[zdr_test_support::Part::field("visualization_data", json)],
    )
}

// ---------------------------------------------------------- the filesystem

/// Every file and folder under `dir`, recursively.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && !path.is_symlink() {
                pending.push(path.clone());
            }
            out.push(path);
        }
    }
    out.sort();
    out
}

/// No file under `dir` contains `needle`.
fn assert_nowhere_in(dir: &Path, needle: &str) {
    for path in entries(dir) {
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            assert!(
                !bytes.windows(needle.len()).any(|w| w == needle.as_bytes()),
                "{} holds the marker",
                path.display()
            );
        }
    }
}

// -------------------------------------------------------------- the proof

struct Case {
    name: &'static str,
    path: String,
    content_type: String,
    body: Vec<u8>,
    status: u16,
}

#[test]
fn nothing_of_a_card_outlives_its_request() {
    let marker = marker();
    let root = tempfile::tempdir().unwrap();
    let cwd = root.path().join("cwd");
    let tmp = root.path().join("tmp");
    let www = root.path().join("www");
    let package = root.path().join("pkgroot");
    for dir in [&cwd, &tmp, &www, &package.join("pkg")] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(www.join("index.html"), "<!doctype html><p>demo</p>\n").unwrap();
    std::fs::write(package.join("package.json"), "{\"name\":\"zdr-embed\"}\n").unwrap();
    std::fs::write(package.join("pkg").join("x.js"), "export {};\n").unwrap();
    let served_before = entries(&www)
        .into_iter()
        .chain(entries(&package))
        .collect::<Vec<_>>();

    // The marker in the title, in the data values, in a series name and in
    // table cells; never in a path, which is logged.
    let title = format!("{marker} & <b>");
    let escaped_title = format!("{marker} &amp; &lt;b&gt;");
    let bar = json!({
        "viz_config": {"title": title, "viz_component_type": "bar",
                       "source": marker, "y_label": marker},
        "data": [{"x": marker, "y": 3}, {"x": format!("{marker}-2"), "y": 5}]
    })
    .to_string();
    let grouped = json!({
        "viz_config": {"title": title, "viz_component_type": "grouped_bar"},
        "data": {"series": [
            {"name": marker, "points": [{"x": "a", "y": 1}, {"x": marker, "y": 2}]},
            {"name": "other", "points": [{"x": "a", "y": 3}]}
        ]}
    })
    .to_string();
    let table = json!({
        "viz_config": {"title": title, "viz_component_type": "table"},
        "data": {"columns": [marker, "n"], "rows": [[marker, 1], ["b", 2]]}
    })
    .to_string();
    let timeline = json!({
        "viz_config": {"title": title, "viz_component_type": "timeline"},
        "data": [{"label": marker, "start": "2026-01-01", "end": "2026-02-01"}]
    })
    .to_string();
    let shape_error = json!({
        "viz_config": {"title": title, "viz_component_type": "bar"},
        "data": [{"x": "a", "y": 1}, {"x": "b", "y": marker}]
    })
    .to_string();
    let invalid_json = format!("{{\"viz_config\": {{\"title\": \"{marker}\"");
    let mut oversized = json!({
        "viz_config": {"title": title},
        "data": (0..400).map(|i| json!({"x": format!("{marker}-{i}"), "y": i})).collect::<Vec<_>>()
    })
    .to_string();
    oversized.push_str(&marker);
    // Over the limit, but small enough to sit in the socket buffers whole:
    // the server answers without reading it.
    let oversized_len = form(&oversized).len();
    assert!(
        (BODY_LIMIT..2 * BODY_LIMIT).contains(&oversized_len),
        "{oversized_len}"
    );

    const FORM: &str = "application/x-www-form-urlencoded";
    let multipart_type = format!("multipart/form-data; boundary={BOUNDARY}");
    let cases = vec![
        Case {
            name: "bar",
            path: "/embed/retention-1/".into(),
            content_type: FORM.into(),
            body: form(&bar),
            status: 200,
        },
        Case {
            name: "grouped_bar",
            path: "/embed/retention-2/".into(),
            content_type: FORM.into(),
            body: form(&grouped),
            status: 200,
        },
        Case {
            name: "table",
            path: "/embed/retention-3/".into(),
            content_type: FORM.into(),
            body: form(&table),
            status: 200,
        },
        Case {
            name: "timeline, multipart",
            path: "/embed/retention-4/".into(),
            content_type: multipart_type,
            body: multipart(&timeline),
            status: 200,
        },
        Case {
            // The query is data too: it must not be logged.
            name: "bar with the marker in the query",
            path: format!("/embed/retention-5/?dark_mode=true&note={marker}"),
            content_type: FORM.into(),
            body: form(&bar),
            status: 200,
        },
        Case {
            name: "invalid JSON",
            path: "/embed/retention-6/".into(),
            content_type: FORM.into(),
            body: form(&invalid_json),
            status: 400,
        },
        Case {
            name: "shape error",
            path: "/embed/retention-7/".into(),
            content_type: FORM.into(),
            body: form(&shape_error),
            status: 400,
        },
        Case {
            name: "oversized",
            path: "/embed/retention-8/".into(),
            content_type: FORM.into(),
            body: form(&oversized),
            status: 413,
        },
        Case {
            // Headers are not logged either; this one is quoted by the page.
            name: "not a form",
            path: "/embed/retention-9/".into(),
            content_type: format!("text/plain; note={marker}"),
            body: bar.clone().into_bytes(),
            status: 415,
        },
        Case {
            name: "no field",
            path: "/embed/retention-10/".into(),
            content_type: FORM.into(),
            body: format!("other={marker}").into_bytes(),
            status: 400,
        },
    ];

    let mut server = Server::start(&cwd, &tmp, &www, &package);
    for case in &cases {
        let reply = exchange(
            server.port,
            "POST",
            &case.path,
            Some(&case.content_type),
            &case.body,
        );
        if reply.status != case.status {
            let why = format!(
                "{}: {} instead of {}\n{}",
                case.name, reply.status, case.status, reply.body
            );
            server.fail(&why);
        }
        assert_eq!(
            reply.header("cache-control"),
            Some("no-store"),
            "{}",
            case.name
        );
        if reply.status == 200 {
            // The data reached the page, escaped, and only there.
            assert!(
                reply
                    .body
                    .contains(&format!("<title>{escaped_title}</title>")),
                "{}: {}",
                case.name,
                reply.body
            );
            assert!(!reply.body.contains("<b>"), "{}", case.name);
        }
        if case.name == "shape error" {
            assert!(reply.body.contains("data[1].y"), "{}", reply.body);
            assert!(reply.body.contains(&marker), "{}", reply.body);
        }
    }
    let health = exchange(server.port, "GET", "/healthz", None, b"");
    assert_eq!((health.status, health.body.trim()), (200, "ok"));

    let status = server.terminate(Duration::from_secs(10));
    let (stdout, stderr) = server.output();
    assert!(
        status.success(),
        "not a graceful exit: {status}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    );

    // (a) Nothing written where a process writes files of its own.
    assert_eq!(
        entries(&cwd),
        Vec::<PathBuf>::new(),
        "the working directory"
    );
    assert_eq!(
        entries(&tmp),
        Vec::<PathBuf>::new(),
        "the temporary directory"
    );
    let served_after = entries(&www)
        .into_iter()
        .chain(entries(&package))
        .collect::<Vec<_>>();
    assert_eq!(served_before, served_after, "the served folders");
    assert_nowhere_in(root.path(), &marker);

    // (b) Nothing of the cards in what it printed, neither the marker nor
    // its random part alone.
    let printed = format!("{stdout}{stderr}");
    let random = marker.trim_start_matches("zdr-marker-");
    assert!(
        !printed.contains(&marker) && !printed.contains(random),
        "the marker was printed:\n{printed}"
    );
    assert!(
        !printed.contains("dark_mode"),
        "the query was printed:\n{printed}"
    );

    // (c) One line per request: method, path, status, latency.
    let mut requests: Vec<(&str, String, u16)> = cases
        .iter()
        .map(|c| {
            let path = c.path.split('?').next().unwrap_or_default().to_string();
            ("POST", path, c.status)
        })
        .collect();
    requests.push(("GET", "/healthz".into(), 200));
    for (method, path, status) in &requests {
        let wanted = format!(" {method} {path} {status} ");
        let lines: Vec<&str> = printed.lines().filter(|l| l.contains(&wanted)).collect();
        assert_eq!(lines.len(), 1, "{wanted:?} in\n{printed}");
        let latency = lines[0]
            .trim_end()
            .strip_suffix("ms")
            .and_then(|rest| rest.rsplit(' ').next())
            .and_then(|ms| ms.parse::<f64>().ok());
        assert!(
            latency.is_some_and(|ms| ms >= 0.0),
            "no latency in {:?}",
            lines[0]
        );
    }
    let request_lines = printed
        .lines()
        .filter(|l| l.contains(" POST /") || l.contains(" GET /"))
        .count();
    assert_eq!(request_lines, requests.len(), "{printed}");
    assert!(
        stdout.starts_with(&format!(
            "zdr-host listening on http://127.0.0.1:{}/\n",
            server.port
        )),
        "{stdout}"
    );
}
