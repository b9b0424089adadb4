// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The service's own Python SDK, unchanged, against the real binary:
//! `tako-sdk` 1.2.0 (generated from the service's OpenAPI description) and
//! 0.1.41 (the earlier hand-written client), each installed from PyPI into
//! a throwaway virtual environment (pinned in tests/sdk/requirements-*.txt;
//! kept under the build's temporary folder, and made again when the pins
//! change). The drivers (tests/sdk/drive_*.py) call every method that names
//! an endpoint of the spec and check the SDK's own parsed models; 1.2.0's
//! answers are also validated strictly against its pydantic models. And a
//! client generated from the host's own OpenAPI document runs the spec's
//! three flows.

#[path = "shared/mod.rs"]
mod shared;
use shared::free_port;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

const KEY: &str = "sdk-key-0123456789abcdef";
const WEATHER: &str = include_str!("../../api/datasets/seattle-weather.csv");

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk")
}

/// Both tests of this file ask for the 1.2.0 environment: one makes it while
/// the other waits, or the second would remove the first's half-made folder.
static MAKING: Mutex<()> = Mutex::new(());

/// A virtual environment with `requirements` installed, made once per
/// version of the pins.
fn venv(name: &str) -> PathBuf {
    let _making = MAKING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let requirements = here().join(format!("requirements-{name}.txt"));
    let pins = std::fs::read_to_string(&requirements).unwrap();
    let stamp = format!("{:016x}", fnv(pins.as_bytes()));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sdk-{name}-{stamp}"));
    let python = dir.join("bin/python");
    if dir.join("installed").exists() {
        return python;
    }
    let _ = std::fs::remove_dir_all(&dir);
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&dir)
        .status()
        .unwrap();
    assert!(made.success(), "python3 -m venv {}", dir.display());
    let installed = Command::new(dir.join("bin/pip"))
        .args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "-r",
        ])
        .arg(&requirements)
        .status()
        .unwrap();
    assert!(
        installed.success(),
        "pip install -r {}",
        requirements.display()
    );
    std::fs::write(dir.join("installed"), &pins).unwrap();
    python
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The real binary on a free port, its data in `data`; killed when dropped.
type Host = shared::Spawned;

fn host(data: &Path) -> Host {
    let mut command = Command::new(env!("CARGO_BIN_EXE_zdr-host"));
    command
        .args([
            "--port",
            "0",
            "--package",
            ".",
            "--allow-private-fetch",
            "--api-key",
            KEY,
        ])
        .arg("--www")
        .arg(data.join("www"))
        .arg("--data-dir")
        .arg(data.join("api"));
    if let Some((database, objects)) = shared::stores(data) {
        command
            .args(["--database-url", &database])
            .args(["--object-store", &objects]);
    }
    shared::Spawned::start(command)
}

/// Serves `/weather.csv` on 127.0.0.1 for the file connector, until the
/// test's process ends (its thread blocks in accept).
fn files() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let mut head = [0u8; 4096];
            let n = stream.read(&mut head).unwrap_or(0);
            let found = String::from_utf8_lossy(&head[..n]).starts_with("GET /weather.csv ");
            let (status, body) = if found {
                ("200 OK", WEATHER)
            } else {
                ("404 Not Found", "")
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: text/csv\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    origin
}

fn drive(python: &Path, script: &str, host: &Host, files: &str) {
    let output = Command::new(python)
        .arg(here().join(script))
        .args([&host.origin, KEY, files])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(output.status.success(), "{script}:\n{stdout}\n{stderr}");
}

#[test]
fn the_services_own_sdks_work_unchanged() {
    let data = tempfile::tempdir().unwrap();
    let host = host(data.path());
    let files = files();
    drive(&venv("1.2.0"), "drive_1_2_0.py", &host, &files);
    drive(&venv("0.1.41"), "drive_0_1_41.py", &host, &files);
}

/// The spec's three flows (4.17) through a client generated from the host's
/// own /api/openapi.json by openapi-python-client, after
/// openapi-spec-validator has found the document valid
/// (tests/sdk/drive_openapi.py).
#[test]
fn a_client_generated_from_the_openapi_document_runs_the_three_flows() {
    let data = tempfile::tempdir().unwrap();
    let host = host(data.path());
    let files = files();
    let work = tempfile::tempdir().unwrap();
    let output = Command::new(venv("openapi"))
        .arg(here().join("drive_openapi.py"))
        .args([&host.origin, KEY, &files])
        .arg(work.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(
        output.status.success(),
        "drive_openapi.py:\n{stdout}\n{stderr}"
    );
}

/// The fenced block of `language` that comes first after `marker` in
/// docs/service-api.md's "Try it".
fn walkthrough_block(marker: &str, language: &str) -> String {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/service-api.md"),
    )
    .unwrap();
    let after = &page[page
        .find(marker)
        .unwrap_or_else(|| panic!("docs/service-api.md: {marker:?}"))..];
    let fence = format!("```{language}\n");
    let start = after.find(&fence).unwrap() + fence.len();
    let end = start + after[start..].find("\n```").unwrap();
    after[start..end].to_owned()
}

/// The curl walk-through and the SDK walk-through of docs/service-api.md, as written,
/// against the real binary started as `scripts/demo.sh` starts it; only the
/// ports differ (the host's and the file server's are free ones here).
#[test]
fn the_documented_walkthroughs_run_as_written() {
    for tool in ["curl", "jq"] {
        assert!(
            Command::new(tool).arg("--version").output().is_ok(),
            "{tool} is needed to run the documented walk-through (scripts/test.sh installs it)"
        );
    }
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("zdr-data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("demo-api-key"), format!("{KEY}\n")).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_zdr-host"));
    command
        .args(["--bind", "127.0.0.1", "--port", "0", "--package", "."])
        .arg("--www")
        .arg(work.path().join("www"))
        .arg("--data-dir")
        .arg(&data)
        .arg("--api-keys-file")
        .arg(data.join("demo-api-key"))
        .arg("--allow-private-fetch");
    let host = shared::Spawned::start(command);
    let address = host.origin.trim_start_matches("http://").to_owned();
    let server = free_port().to_string();

    let shell = walkthrough_block("The spec's three flows with curl", "sh")
        .replace("127.0.0.1:8080", &address)
        .replace("8001", &server);
    let output = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &shell])
        .current_dir(work.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    println!("{said}");
    assert!(
        output.status.success(),
        "the curl walk-through:\n{said}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The upload, the three flows, the search, the index, the saved view,
    // the delete: each line says it worked.
    assert!(said.lines().filter(|l| *l == "204").count() == 2, "{said}");
    assert!(
        !said.contains("null\n") && !said.contains("\"error\""),
        "{said}"
    );

    let python = walkthrough_block("The same flows,", "python").replace("127.0.0.1:8080", &address);
    let output = Command::new(venv("1.2.0"))
        .args(["-c", &python])
        .current_dir(work.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    println!("{said}");
    assert!(
        output.status.success(),
        "the SDK walk-through:\n{said}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let png = std::fs::read(work.path().join("card.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    drop(host);
}
