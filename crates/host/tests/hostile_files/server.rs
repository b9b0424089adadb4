//! The real `zdr-host` under a memory cap, a tiny file server for its
//! connector, HTTP/1.1 by hand over 127.0.0.1, and the host's peak RSS
//! read from /proc.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub const API_KEY: &str = "hostile-corpus-key-0123456789";

/// How the host is started: which binary, under which cap, in which folders.
pub struct HostSetup {
    pub binary: PathBuf,
    /// Bytes of address space (`prlimit --as`).
    pub cap: u64,
    pub www: PathBuf,
    pub data: PathBuf,
}

/// A running host. Dropping it kills it and waits for it.
pub struct Host {
    child: Child,
    pub pid: u32,
    pub port: u16,
    stderr: Arc<Mutex<Log>>,
}

/// The last lines of the host's log, and how many came before them.
#[derive(Default)]
struct Log {
    dropped: usize,
    lines: Vec<String>,
}

impl Host {
    pub fn start(setup: &HostSetup) -> Host {
        // prlimit sets the limit and execs the host: the pid is the host's,
        // and stays so when the host execs itself once more (main.rs).
        let mut command = Command::new("prlimit");
        command
            .arg(format!("--as={}", setup.cap))
            .arg("--")
            .arg(&setup.binary)
            .args(["--port", "0", "--package", "."])
            .arg("--www")
            .arg(&setup.www)
            .arg("--data-dir")
            .arg(&setup.data)
            .args(["--api-key", API_KEY, "--allow-private-fetch"])
            // The host's own deadline (10 s), not a longer one: the bounds
            // files are a million cells, and the debug build reads the .xlsx
            // one in about 3 s because the readers are optimised in dev builds
            // too (the root Cargo.toml). Unoptimised, it took 7.5 s on a quiet
            // machine and 14 s in a busy clean-clone CI.
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (name, _) in std::env::vars() {
            if name.starts_with("ZDR_") {
                command.env_remove(name);
            }
        }
        // A backtrace printed as the host aborts would be symbolized first,
        // which takes tens of MB and hundreds of ms that are not the host's.
        command
            .env_remove("MIMALLOC_PURGE_DELAY")
            .env_remove("RUST_BACKTRACE")
            .env_remove("RUST_LIB_BACKTRACE");
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run prlimit (util-linux): {e}"));
        let stderr = Arc::new(Mutex::new(Log::default()));
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let into = stderr.clone();
        std::thread::spawn(move || {
            let mut line = String::new();
            while matches!(err.read_line(&mut line), Ok(n) if n > 0) {
                let mut log = into.lock().unwrap();
                log.lines.push(line.trim_end().to_owned());
                // Only the last lines matter (why it died).
                if log.lines.len() > 400 {
                    log.lines.drain(..200);
                    log.dropped += 200;
                }
                line.clear();
            }
        });
        // The first line names the port; then stdout is kept drained. A
        // host that says nothing for 20 s has not started.
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let (tell, first) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = out.read_line(&mut line);
            let _ = tell.send(line);
            std::io::copy(&mut out, &mut std::io::sink())
        });
        let line = first
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_default();
        let port = line
            .trim_end()
            .strip_prefix("zdr-host listening on http://127.0.0.1:")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|port| port.parse().ok());
        let Some(port) = port else {
            let _ = child.kill();
            let _ = child.wait();
            std::thread::sleep(Duration::from_millis(100));
            panic!(
                "{} did not start under a cap of {} bytes: first line {line:?}, stderr {:?}",
                setup.binary.display(),
                setup.cap,
                stderr.lock().unwrap().lines
            );
        };
        let pid = child.id();
        Host {
            child,
            pid,
            port,
            stderr,
        }
    }

    /// Whether the process has ended, and how.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// How many lines it has logged so far.
    pub fn log_mark(&self) -> usize {
        let log = self.stderr.lock().unwrap();
        log.dropped + log.lines.len()
    }

    /// The last line logged since `mark` that says what went wrong (an
    /// allocation failure, a stack overflow, a panic), when there is one.
    pub fn last_words(&self, mark: usize) -> Option<String> {
        let log = self.stderr.lock().unwrap();
        let from = mark.saturating_sub(log.dropped).min(log.lines.len());
        log.lines[from..]
            .iter()
            .rev()
            .find(|l| {
                l.contains("memory allocation")
                    || l.contains("overflow")
                    || l.contains("panicked")
                    || l.contains("fatal")
                    || l.contains("Aborted")
            })
            .cloned()
    }

    /// `GET /healthz` answers `ok` within 3 s.
    pub fn healthy(&self) -> bool {
        let request = format!(
            "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            self.port
        );
        match exchange(self.port, request.as_bytes(), Duration::from_secs(3)) {
            Outcome::Answer(a) => a.status == 200 && a.body.trim_ascii() == b"ok",
            _ => false,
        }
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The peak resident set of `pid` during a request.
pub struct PeakWatch {
    stop: Arc<AtomicBool>,
    seen: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
    pid: u32,
}

/// `VmHWM` (the peak resident set) of `pid`, in KiB.
pub fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Writing 5 to clear_refs resets the peak to the current resident set
/// (proc(5)); false when that is not permitted.
pub fn reset_peak(pid: u32) -> bool {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").is_ok()
}

impl PeakWatch {
    /// Starts sampling VmHWM every 2 ms, so that a peak is known even
    /// when the process dies before the request ends.
    pub fn start(pid: u32) -> PeakWatch {
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(AtomicU64::new(vm_hwm(pid).unwrap_or(0)));
        let thread = {
            let (stop, seen) = (stop.clone(), seen.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    if let Some(kb) = vm_hwm(pid) {
                        seen.fetch_max(kb, Ordering::Relaxed);
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
            })
        };
        PeakWatch {
            stop,
            seen,
            thread: Some(thread),
            pid,
        }
    }

    /// The peak in KiB, and whether it was read after the request (exact)
    /// or only sampled before the process went away.
    pub fn finish(mut self) -> (u64, bool) {
        let last = vm_hwm(self.pid);
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        let seen = self.seen.load(Ordering::Relaxed);
        match last {
            Some(kb) => (kb.max(seen), true),
            None => (seen, false),
        }
    }
}

pub struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
}

pub enum Outcome {
    Answer(Answer),
    /// No whole answer within the time allowed.
    Timeout,
    /// The connection failed or closed before a whole answer.
    Failed(String),
}

/// One request on its own connection (`Connection: close`), the answer
/// read to its end or until `limit` has passed.
pub fn exchange(port: u16, request: &[u8], limit: Duration) -> Outcome {
    let started = Instant::now();
    let mut stream = match TcpStream::connect(("127.0.0.1", port)) {
        Ok(s) => s,
        Err(e) => return Outcome::Failed(format!("connect: {e}")),
    };
    let _ = stream.set_write_timeout(Some(limit));
    if let Err(e) = stream.write_all(request) {
        return Outcome::Failed(format!("send: {e}"));
    }
    let mut got = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    loop {
        let left = limit.saturating_sub(started.elapsed());
        if left.is_zero() {
            return Outcome::Timeout;
        }
        let _ = stream.set_read_timeout(Some(left));
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buffer[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Outcome::Timeout
            }
            Err(e) if got.is_empty() => return Outcome::Failed(format!("receive: {e}")),
            Err(_) => break,
        }
    }
    match parse(&got) {
        Some(answer) => Outcome::Answer(answer),
        None if got.is_empty() => Outcome::Failed("closed without an answer".into()),
        None => Outcome::Failed(format!("a partial answer of {} bytes", got.len())),
    }
}

/// A whole HTTP/1.1 answer: status, headers, a body by Content-Length,
/// chunks, or to the end.
fn parse(bytes: &[u8]) -> Option<Answer> {
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&bytes[..split]).ok()?;
    let rest = &bytes[split + 4..];
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let mut length = None;
    let mut chunked = false;
    for line in lines {
        let (name, value) = line.split_once(':')?;
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            length = value.parse::<usize>().ok();
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.eq_ignore_ascii_case("chunked");
        }
    }
    let body = if chunked {
        let mut body = Vec::new();
        let mut at = rest;
        loop {
            let end = at.windows(2).position(|w| w == b"\r\n")?;
            let size =
                usize::from_str_radix(std::str::from_utf8(&at[..end]).ok()?.trim(), 16).ok()?;
            at = &at[end + 2..];
            if size == 0 {
                break;
            }
            body.extend_from_slice(at.get(..size)?);
            at = at.get(size + 2..)?;
        }
        body
    } else if let Some(length) = length {
        rest.get(..length)?.to_vec()
    } else {
        rest.to_vec()
    };
    Some(Answer { status, body })
}

/// A server of fixed files on 127.0.0.1 for the connector to fetch:
/// `GET /<name>` answers the bytes with a Content-Length. It stops when
/// dropped.
pub struct FileServer {
    pub port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl FileServer {
    pub fn start(files: HashMap<String, Arc<Vec<u8>>>) -> FileServer {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let files = Arc::new(files);
        let thread = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let files = files.clone();
                    std::thread::spawn(move || serve_one(stream, &files));
                }
            })
        };
        FileServer {
            port,
            stop,
            thread: Some(thread),
        }
    }
}

fn serve_one(mut stream: TcpStream, files: &HashMap<String, Arc<Vec<u8>>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
    let mut head = Vec::new();
    let mut buffer = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 64 * 1024 {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buffer[..n]),
        }
    }
    let text = String::from_utf8_lossy(&head);
    let path = text.split(' ').nth(1).unwrap_or("/");
    let name = path.trim_start_matches('/');
    let (status, body) = match files.get(name) {
        Some(bytes) => ("200 OK", bytes.clone()),
        None => ("404 Not Found", Arc::new(b"no such file".to_vec())),
    };
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    // The host may drop the connection halfway (it refused, or died).
    let _ = stream.write_all(header.as_bytes());
    let _ = stream.write_all(&body);
}

impl Drop for FileServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wakes the accept loop so that it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A `multipart/form-data` body of `fields`, then the part `file`.
pub fn multipart(boundary: &str, fields: &[(String, String)], file: &[u8]) -> Vec<u8> {
    use zdr_test_support::Part;
    let mut parts: Vec<Part<'_>> = fields
        .iter()
        .map(|(name, value)| Part::field(name, value))
        .collect();
    parts.push(Part::file(file));
    zdr_test_support::multipart(boundary, &parts)
}

/// A request with a body.
pub fn post(port: u16, path: &str, content_type: &str, key: Option<&str>, body: &[u8]) -> Vec<u8> {
    let key = key
        .map(|k| format!("X-API-Key: {k}\r\n"))
        .unwrap_or_default();
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n{key}\
         Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    request
}

pub fn get(port: u16, path: &str, key: &str) -> Vec<u8> {
    format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nX-API-Key: {key}\r\n\r\n"
    )
    .into_bytes()
}

/// The folders a host needs: its demo pages and its data.
pub fn folders(root: &Path) -> (PathBuf, PathBuf) {
    let www = root.join("www");
    std::fs::create_dir_all(&www).unwrap();
    std::fs::write(www.join("index.html"), "<!doctype html><p>hostile").unwrap();
    (www, root.join("data"))
}
