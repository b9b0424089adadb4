//! The shared stores, when the test script has started them (PostgreSQL
//! and an S3 server, scripts/shared-stores.sh): each host a test starts
//! gets a database of its own and a folder of the bucket of its own, so
//! tests running side by side never see each other's rows. Without them,
//! hosts keep their data in SQLite and a folder, as by default.
// Each test file uses some of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A loopback port free now, for a server a test starts.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a free loopback port")
        .local_addr()
        .expect("its address")
        .port()
}

/// The database and bucket folder of the host whose data folder is `data`:
/// named after it, so that a host started again on it finds its data.
fn name(data: &Path) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in data.as_os_str().as_encoded_bytes() {
        hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("zdr_{hash:016x}")
}

/// `--database-url` and `--object-store` of the host of `data`, when the
/// shared stores are up (`ZDR_TEST_PG_ADMIN` set), else `None`.
pub fn stores(data: &Path) -> Option<(String, String)> {
    let admin = std::env::var("ZDR_TEST_PG_ADMIN").ok()?;
    let name = name(data);
    // postgres://user@host:port/database
    let (user_host, _) = admin
        .strip_prefix("postgres://")
        .and_then(|rest| rest.rsplit_once('/'))
        .expect("ZDR_TEST_PG_ADMIN is postgres://user@host:port/database");
    let (user, host_port) = user_host.split_once('@').expect("a user and a host");
    let (host, port) = host_port.rsplit_once(':').expect("a port");
    let bin = std::env::var("ZDR_TEST_PG_BIN").expect("ZDR_TEST_PG_BIN");
    let made = Command::new(format!("{bin}/createdb"))
        .args(["-h", host, "-p", port, "-U", user, &name])
        .output()
        .expect("createdb runs");
    let said = String::from_utf8_lossy(&made.stderr);
    assert!(
        made.status.success() || said.contains("already exists"),
        "createdb {name}: {said}"
    );
    let bucket = std::env::var("ZDR_TEST_BUCKET").unwrap_or_else(|_| "zdr-test".into());
    Some((
        format!("postgres://{user_host}/{name}"),
        format!("s3://{bucket}/{name}"),
    ))
}

/// Where the host of `data` keeps its objects (`objects/<tenant>/…`): in
/// the folder, or in the S3 server's own folder of the bucket
/// (`ZDR_TEST_S3_ROOT`).
pub fn objects_dir(data: &Path) -> PathBuf {
    match std::env::var("ZDR_TEST_S3_ROOT") {
        Ok(root) if on() => Path::new(&root).join(name(data)).join("objects"),
        _ => data.join("objects"),
    }
}

/// Whether this run keeps data in the shared stores.
pub fn on() -> bool {
    std::env::var_os("ZDR_TEST_PG_ADMIN").is_some()
}

/// A zdr-host process a test started, on a free port, until dropped.
pub struct Spawned {
    pub child: std::process::Child,
    /// `http://127.0.0.1:PORT`, as its first line says.
    pub origin: String,
    /// `http://127.0.0.1:PORT/metrics`, as its second line says, where
    /// metrics are served.
    pub metrics: Option<String>,
}

impl Spawned {
    /// Starts `command` (a zdr-host with its flags) with no `ZDR_` setting
    /// of the test's own environment but the test script's `ZDR_TEST_`
    /// ones, and waits for the line that says where it listens.
    pub fn start(mut command: Command) -> Spawned {
        use std::io::{BufRead, BufReader};
        use std::process::Stdio;
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (name, _) in std::env::vars() {
            if name.starts_with("ZDR_") && !name.starts_with("ZDR_TEST_") {
                command.env_remove(name);
            }
        }
        let mut child = command.spawn().expect("zdr-host starts");
        let mut out = BufReader::new(child.stdout.take().expect("its stdout"));
        let mut line = String::new();
        out.read_line(&mut line).expect("its first line");
        let mut second = String::new();
        out.read_line(&mut second).expect("its second line");
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let origin = line
            .trim_end()
            .strip_prefix("zdr-host listening on ")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        let metrics = second
            .trim_end()
            .strip_prefix("zdr-host metrics on ")
            .map(str::to_owned);
        Spawned {
            child,
            origin,
            metrics,
        }
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
