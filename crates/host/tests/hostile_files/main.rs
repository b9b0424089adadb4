// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Hostile spreadsheets against the real `zdr-host` binary, over real TCP,
//! under a memory cap. Every file of the corpus (`corpus.rs`) goes through
//! the presigned upload (when it is at most 100 KB) and through the file
//! connector (served by a file server in this test); each request is timed
//! and the host's peak RSS during it read from /proc. A hostile file must
//! be refused (413 or 422, the API's JSON error body) within 5 s and 256 MB,
//! the host still up; a control file must be accepted, and so must a file at
//! the host's bounds (`bounds.rs`), within the same memory. A host that dies is
//! recorded, started again, and the run goes on: one run measures every
//! file, then fails listing every violation.
//!
//! - `ZDR_HOST_BIN`: the binary to attack (default: this build's `zdr-host`).
//! - `ZDR_HOSTILE_AS`: its address-space cap in bytes, `K`/`M`/`G` allowed
//!   (default 2G). The host is never run uncapped.
//! - `ZDR_HOSTILE_REPORT`: where to write the table as Markdown.
//! - `ZDR_HOSTILE_TIMEOUT`: seconds before a request is given up and the
//!   host restarted (default 15).
//! - `ZDR_HOSTILE_ONLY`: run only the files whose name contains this.
//! - `ZDR_HOSTILE_DUMP`: a folder to write every file of the corpus into
//!   (to try one by hand).

mod bounds;
mod corpus;
mod deflate;
mod pq;
mod server;
mod xls;
mod zipfile;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use corpus::{HostileFile, MAX_CONNECTOR, MAX_UPLOAD};
use serde_json::Value;
use server::{FileServer, Host, HostSetup, Outcome, PeakWatch, API_KEY};

/// What a hostile file may cost the host.
const MAX_TIME: Duration = Duration::from_secs(5);
const MAX_PEAK_MB: f64 = 256.0;
const BOUNDARY: &str = "zdr-hostile-boundary-7d1f";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Route {
    Upload,
    Connector,
}

impl Route {
    fn label(self) -> &'static str {
        match self {
            Route::Upload => "upload",
            Route::Connector => "connector",
        }
    }
}

struct Row {
    file_name: String,
    bytes: usize,
    route: Route,
    control: bool,
    /// The HTTP status, or what happened instead.
    status: String,
    ms: u128,
    peak_kb: u64,
    /// False when the process went away before its peak could be read
    /// after the request: the figure is the last one sampled.
    peak_exact: bool,
    alive: bool,
    note: String,
    violations: Vec<String>,
}

/// A presigned upload form: where to post it, its fields, the file id its key names.
struct Form {
    path: String,
    fields: Vec<(String, String)>,
    file_id: String,
}

struct Run {
    setup: HostSetup,
    host: Option<Host>,
    files_port: u16,
    timeout: Duration,
    /// Whether the peak could be reset before each request.
    reset_ok: bool,
    restarts: usize,
}

impl Run {
    fn host(&mut self) -> &mut Host {
        if self.host.is_none() {
            self.host = Some(Host::start(&self.setup));
        }
        self.host.as_mut().unwrap()
    }

    fn restart_later(&mut self) {
        // Dropping kills and reaps it; the next request starts another.
        if self.host.take().is_some() {
            self.restarts += 1;
        }
    }

    /// The presigned form for `file_name`: the path to post to, its fields,
    /// and the file id its key names.
    fn presign(&mut self, file_name: &str) -> Result<Form, String> {
        let port = self.host().port;
        let request = server::get(
            port,
            &format!("/api/v1/beta/file_upload_url?file_name={file_name}"),
            API_KEY,
        );
        let answer = match server::exchange(port, &request, MAX_TIME) {
            Outcome::Answer(a) if a.status == 200 => a,
            Outcome::Answer(a) => return Err(format!("presign answered {}", a.status)),
            Outcome::Timeout => return Err("presign timed out".into()),
            Outcome::Failed(e) => return Err(format!("presign failed: {e}")),
        };
        let form: Value = serde_json::from_slice(&answer.body).map_err(|e| e.to_string())?;
        let url = form["url"].as_str().ok_or("no url")?;
        let path = url
            .strip_prefix(&format!("http://127.0.0.1:{port}"))
            .ok_or_else(|| format!("the upload url {url} is not this host"))?
            .to_owned();
        let fields = form["fields"]
            .as_object()
            .ok_or("no fields")?
            .iter()
            .map(|(n, v)| (n.clone(), v.as_str().unwrap_or_default().to_owned()))
            .collect();
        let file_id = form["key"]
            .as_str()
            .and_then(|k| k.split('/').next())
            .ok_or("no key")?
            .to_owned();
        Ok(Form {
            path,
            fields,
            file_id,
        })
    }

    /// What the host made of a stored file: its `cleaned_context`.
    fn context(&mut self, file_id: &str) -> Option<String> {
        let port = self.host().port;
        let request = server::get(port, &format!("/api/v1/beta/files/{file_id}/"), API_KEY);
        let Outcome::Answer(answer) = server::exchange(port, &request, MAX_TIME) else {
            return None;
        };
        let file: Value = serde_json::from_slice(&answer.body).ok()?;
        Some(
            file["cleaned_files"][0]["cleaned_context"]
                .as_str()?
                .to_owned(),
        )
    }

    fn measure(&mut self, file: &HostileFile, route: Route, control: bool) -> Row {
        let mut row = Row {
            file_name: file.file_name.clone(),
            bytes: file.bytes.len(),
            route,
            control,
            status: String::new(),
            ms: 0,
            peak_kb: 0,
            peak_exact: true,
            alive: true,
            note: String::new(),
            violations: Vec::new(),
        };
        if !self.host().healthy() {
            self.restart_later();
        }
        let port = self.host().port;
        let mut file_id = None;
        let request = match route {
            Route::Upload => match self.presign(&file.file_name) {
                Ok(form) => {
                    file_id = Some(form.file_id);
                    server::post(
                        port,
                        &form.path,
                        &format!("multipart/form-data; boundary={BOUNDARY}"),
                        None,
                        &server::multipart(BOUNDARY, &form.fields, &file.bytes),
                    )
                }
                Err(e) => {
                    row.status = "no form".into();
                    row.violations.push(e.clone());
                    row.note = e;
                    return row;
                }
            },
            Route::Connector => {
                let body = serde_json::json!({
                    "file_url": format!("http://127.0.0.1:{}/{}", self.files_port, file.file_name)
                });
                server::post(
                    port,
                    "/api/v1/beta/file_connector",
                    "application/json",
                    Some(API_KEY),
                    body.to_string().as_bytes(),
                )
            }
        };
        let pid = self.host().pid;
        let mark = self.host().log_mark();
        if !server::reset_peak(pid) {
            self.reset_ok = false;
        }
        let watch = PeakWatch::start(pid);
        let started = Instant::now();
        let outcome = server::exchange(port, &request, self.timeout);
        row.ms = started.elapsed().as_millis();
        // Let a dying host finish dying before it is looked at.
        if !matches!(outcome, Outcome::Answer(_)) {
            std::thread::sleep(Duration::from_millis(200));
        }
        let (peak_kb, exact) = watch.finish();
        row.peak_kb = peak_kb;
        row.peak_exact = exact;

        let timeout = self.timeout;
        let host = self.host();
        let died = host.exited();
        let healthy = died.is_none() && host.healthy();
        row.alive = healthy;
        let mut json_error = false;
        match &outcome {
            Outcome::Answer(answer) => {
                row.status = answer.status.to_string();
                match error_body(&answer.body, answer.status) {
                    Some((code, message)) => {
                        json_error = true;
                        // The file's name adds nothing: the cause follows it.
                        let cause = message
                            .replace("the file could not be read: ", "")
                            .replace(&format!("{}: ", file.file_name), "");
                        row.note = format!("{code}: {}", shorten(&cause, 110));
                    }
                    None => row.note = shorten(&String::from_utf8_lossy(&answer.body), 60),
                }
            }
            Outcome::Timeout => {
                row.status = "timeout".into();
                row.note = format!("no answer in {} s", timeout.as_secs());
            }
            Outcome::Failed(e) => {
                row.status = "no answer".into();
                row.note = e.clone();
            }
        }
        if let Some(status) = died {
            use std::os::unix::process::ExitStatusExt;
            let how = match status.signal() {
                Some(6) => "SIGABRT".to_owned(),
                Some(9) => "SIGKILL".to_owned(),
                Some(11) => "SIGSEGV".to_owned(),
                Some(s) => format!("signal {s}"),
                None => format!("exit {}", status.code().unwrap_or(-1)),
            };
            let words = host.last_words(mark).unwrap_or_default();
            row.note = format!("DIED ({how}) {}", shorten(&words, 110));
        } else if row.status == "500" {
            if let Some(words) = host.last_words(mark) {
                let words = words.split_once("ERROR ").map_or(&*words, |(_, w)| w);
                let words = words.split(" request_id=").next().unwrap_or(words);
                row.note = format!("internal_error; host log: {}", shorten(words, 110));
            }
        } else if !healthy {
            row.note = format!("host unresponsive; {}", row.note);
        }
        if !healthy || matches!(outcome, Outcome::Timeout) {
            self.restart_later();
        }

        let mb = peak_kb as f64 / 1024.0;
        if !row.alive {
            row.violations.push(if died.is_some() {
                "the host died".into()
            } else {
                "the host stopped answering".into()
            });
        }
        let accepted = matches!(row.status.as_str(), "200" | "204");
        if accepted {
            if let Outcome::Answer(answer) = &outcome {
                let body: Value = serde_json::from_slice(&answer.body).unwrap_or_default();
                if let Some(id) = body["id"].as_str() {
                    file_id = Some(id.to_owned());
                }
            }
            let context = file_id.and_then(|id| self.context(&id)).unwrap_or_default();
            row.note = format!("accepted: {}", shorten(&context, 110));
            if control && !(context.contains("date (dates)") && context.contains("sales (numbers)"))
            {
                // Read as meant: the dates as dates, the sales as numbers.
                row.violations
                    .push(format!("a control was misread: {context:?}"));
            }
        }
        if control {
            let expected = match route {
                Route::Upload => "204",
                Route::Connector => "200",
            };
            if row.status != expected {
                row.violations.push(format!(
                    "a control answered {} ({}), not {expected}",
                    row.status, row.note
                ));
            }
        } else {
            // Reading a table at the bounds is the host's own work, not
            // a hostile file's: the debug build (its readers optimised, the
            // rest of the host not) is given three times as long. A hostile
            // file is held to 5 s in both.
            let limit = match file.read_as {
                Some(_) if cfg!(debug_assertions) => 3 * MAX_TIME,
                _ => MAX_TIME,
            };
            if row.ms > limit.as_millis() {
                row.violations.push(format!("took {} ms", row.ms));
            }
            if mb >= MAX_PEAK_MB {
                row.violations.push(format!("peak RSS {mb:.0} MB"));
            }
            if let Some(read_as) = file.read_as {
                if !(accepted && row.note.starts_with(&format!("accepted: {read_as}"))) {
                    row.violations
                        .push(format!("a file at the bounds was not read as {read_as:?}"));
                }
            } else if accepted && file.may_be_read {
                // A well-formed table, read within the bounds.
            } else if !matches!(row.status.as_str(), "413" | "422") {
                row.violations.push(format!("answered {}", row.status));
            } else if !json_error {
                row.violations.push("not the API's JSON error body".into());
            }
        }
        row
    }
}

/// `{"error": {"status", "code", "message", "param"}}` with `status` the
/// answer's own: its code and message.
fn error_body(body: &[u8], status: u16) -> Option<(String, String)> {
    let value: Value = serde_json::from_slice(body).ok()?;
    let error = value.get("error")?.as_object()?;
    let same = error.get("status")?.as_u64()? == u64::from(status);
    let code = error.get("code")?.as_str()?;
    let message = error.get("message")?.as_str()?;
    let param = error.get("param")?;
    (same && (param.is_null() || param.is_string())).then(|| (code.to_owned(), message.to_owned()))
}

fn shorten(text: &str, max: usize) -> String {
    let one_line = text.replace(['\n', '\r', '|'], " ");
    if one_line.chars().count() <= max {
        one_line
    } else {
        format!("{}…", one_line.chars().take(max).collect::<String>())
    }
}

/// Bytes, with an optional K, M or G (binary) suffix.
fn parse_bytes(text: &str) -> Option<u64> {
    let text = text.trim();
    let (number, unit) = match text.char_indices().last()? {
        (i, 'k' | 'K') => (&text[..i], 1u64 << 10),
        (i, 'm' | 'M') => (&text[..i], 1 << 20),
        (i, 'g' | 'G') => (&text[..i], 1 << 30),
        _ => (text, 1),
    };
    number.trim().parse::<u64>().ok()?.checked_mul(unit)
}

fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| file | bytes | path | status | ms | peak RSS MB | alive | note |\n\
         |---|--:|---|---|--:|--:|---|---|\n",
    );
    for r in rows {
        let peak = r.peak_kb as f64 / 1024.0;
        let peak = if r.peak_exact {
            format!("{peak:.1}")
        } else {
            format!("≥{peak:.1}")
        };
        let file = if r.control {
            format!("{} (control)", r.file_name)
        } else {
            r.file_name.clone()
        };
        let _ = writeln!(
            out,
            "| {file} | {} | {} | {} | {} | {peak} | {} | {} |",
            r.bytes,
            r.route.label(),
            r.status,
            r.ms,
            if r.alive { "yes" } else { "**no**" },
            r.note
        );
    }
    out
}

#[test]
fn hostile_files_are_refused_cheaply_and_controls_accepted() {
    let binary = std::env::var_os("ZDR_HOST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_zdr-host")));
    let cap = std::env::var("ZDR_HOSTILE_AS")
        .ok()
        .map(|v| parse_bytes(&v).unwrap_or_else(|| panic!("ZDR_HOSTILE_AS={v} is not a size")))
        .unwrap_or(2 << 30);
    let timeout = std::env::var("ZDR_HOSTILE_TIMEOUT")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(Duration::from_secs(15), Duration::from_secs);
    let only = std::env::var("ZDR_HOSTILE_ONLY").ok();

    let made = Instant::now();
    let controls = corpus::controls();
    let hostile = corpus::corpus();
    let generation = made.elapsed();
    check(&controls.iter().chain(&hostile).collect::<Vec<_>>());
    if let Some(dump) = std::env::var_os("ZDR_HOSTILE_DUMP") {
        std::fs::create_dir_all(&dump).unwrap();
        for f in controls.iter().chain(&hostile) {
            std::fs::write(PathBuf::from(&dump).join(&f.file_name), &f.bytes).unwrap();
        }
    }
    let keep = |f: &HostileFile| {
        only.as_ref()
            .is_none_or(|o| f.file_name.contains(o.as_str()))
    };
    let plan: Vec<(&HostileFile, bool)> = controls
        .iter()
        .map(|f| (f, true))
        .chain(hostile.iter().map(|f| (f, false)))
        .filter(|(f, _)| keep(f))
        .collect();
    let files: HashMap<String, Arc<Vec<u8>>> = plan
        .iter()
        .map(|(f, _)| (f.file_name.clone(), Arc::new(f.bytes.clone())))
        .collect();
    let file_server = FileServer::start(files);

    let root = tempfile::tempdir().unwrap();
    let (www, data) = server::folders(root.path());
    let mut run = Run {
        setup: HostSetup {
            binary: binary.clone(),
            cap,
            www,
            data,
        },
        host: None,
        files_port: file_server.port,
        timeout,
        reset_ok: true,
        restarts: 0,
    };
    // It starts under the cap and answers, before anything hostile.
    assert!(
        run.host().healthy(),
        "the host is not healthy under the cap"
    );

    println!(
        "hostile files: {} (+{} controls) made in {} ms; attacking {} under --as={cap}",
        hostile.len(),
        controls.len(),
        generation.as_millis(),
        binary.display()
    );
    let started = Instant::now();
    let mut rows = Vec::new();
    for (file, control) in &plan {
        for route in [Route::Upload, Route::Connector] {
            let fits = match route {
                Route::Upload => file.bytes.len() <= MAX_UPLOAD,
                Route::Connector => file.bytes.len() <= MAX_CONNECTOR,
            };
            if !fits {
                continue;
            }
            let row = run.measure(file, route, *control);
            println!(
                "{:<34} {:>8} B {:<9} {:>9} {:>6} ms {:>8.1} MB{} {}",
                row.file_name,
                row.bytes,
                route.label(),
                row.status,
                row.ms,
                row.peak_kb as f64 / 1024.0,
                if row.alive { "" } else { " DEAD" },
                row.note
            );
            rows.push(row);
        }
    }
    let elapsed = started.elapsed();
    drop(run.host.take());
    drop(file_server);

    let violations: Vec<String> = rows
        .iter()
        .flat_map(|r| {
            r.violations
                .iter()
                .map(move |v| format!("{} via {}: {v}", r.file_name, r.route.label()))
        })
        .collect();
    let died = rows.iter().filter(|r| r.note.starts_with("DIED")).count();
    let failing = rows.iter().filter(|r| !r.violations.is_empty()).count();
    let mut report = String::new();
    let _ = writeln!(report, "# Hostile files against zdr-host\n");
    let _ = writeln!(
        report,
        "- binary: `{}`\n- address-space cap: {cap} bytes (`prlimit --as`)\n\
         - limits for a hostile file: 413 or 422 with the JSON error body (or, for a file marked as a well-formed table for all its lies, read), within {} s, peak RSS under {MAX_PEAK_MB} MB, the host alive after\n\
         - peak RSS: {}\n\
         - {} requests ({} files, {} controls), {} with the host dying, {} restarts, {} requests with violations ({} violations); run took {:.1} s (corpus made in {} ms)\n",
        binary.display(),
        MAX_TIME.as_secs(),
        if run.reset_ok {
            "VmHWM after the request, reset before it (`5` to /proc/PID/clear_refs); `≥` marks the last value sampled (every 2 ms) before the host died"
        } else {
            "VmHWM since the host started (resetting it through /proc/PID/clear_refs was not permitted); `≥` marks the last value sampled before the host died"
        },
        rows.len(),
        hostile.iter().filter(|f| keep(f)).count(),
        controls.iter().filter(|f| keep(f)).count(),
        died,
        run.restarts,
        failing,
        violations.len(),
        elapsed.as_secs_f64(),
        generation.as_millis(),
    );
    report.push_str(&table(&rows));
    let _ = writeln!(report, "\n## The files\n");
    for (f, control) in &plan {
        let _ = writeln!(
            report,
            "- `{}`{}: {}",
            f.file_name,
            if *control { " (control)" } else { "" },
            f.what
        );
    }
    println!("\n{report}");
    if let Ok(path) = std::env::var("ZDR_HOSTILE_REPORT") {
        std::fs::write(&path, &report).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    assert!(
        violations.is_empty(),
        "{} violations:\n{}",
        violations.len(),
        violations.join("\n")
    );
}

/// Every file fits the connector's limit, every name is unique and may be
/// uploaded as it is.
fn check(files: &[&HostileFile]) {
    let mut names = std::collections::HashSet::new();
    for f in files {
        assert!(names.insert(f.file_name.clone()), "{} twice", f.file_name);
        assert!(
            f.bytes.len() <= MAX_CONNECTOR,
            "{} is {} bytes",
            f.file_name,
            f.bytes.len()
        );
        assert!(f
            .file_name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)));
        assert!(!f.what.is_empty() && !f.name.is_empty());
    }
}

#[test]
fn the_controls_are_the_same_bytes_on_every_run() {
    let again = corpus::controls();
    for (a, b) in corpus::controls().iter().zip(&again) {
        assert_eq!(a.bytes, b.bytes, "{} differs between runs", a.file_name);
    }
}
