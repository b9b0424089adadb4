// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! TLS to PostgreSQL, the real binary against a real PostgreSQL that takes
//! TLS only (`hostssl` lines alone), with a certificate authority and a
//! server certificate for `localhost` made here with openssl:
//! `verify-full` connects and the host is ready; a wrong CA, a host name
//! the certificate does not give, or no TLS at all stop the host at start
//! with a message that says why; `verify-ca` takes the CA whatever the
//! name.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::shared::{free_port, Spawned};

const KEY: &str = "tls-key-0123456789abcdef";

fn run(command: &mut Command) {
    let output = command.output().expect("the command runs");
    assert!(
        output.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Runs as the postgres user when root: PostgreSQL refuses root.
fn as_postgres(program: &Path) -> Command {
    // SAFETY-free: geteuid through `id -u`, std has no call for it.
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false);
    if root {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

/// A CA (`name`.pem, `name`.key) in `dir`.
fn authority(dir: &Path, name: &str) -> PathBuf {
    run(Command::new("openssl")
        .current_dir(dir)
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
        ])
        .args([
            "-keyout",
            &format!("{name}.key"),
            "-out",
            &format!("{name}.pem"),
        ])
        .args(["-subj", &format!("/CN={name}")])
        .args(["-addext", "basicConstraints=critical,CA:TRUE"])
        .args(["-addext", "keyUsage=critical,keyCertSign,cRLSign"]));
    dir.join(format!("{name}.pem"))
}

/// A server certificate for `localhost` only, signed by the CA `ca`.
fn server_certificate(dir: &Path, ca: &str) {
    run(Command::new("openssl")
        .current_dir(dir)
        .args([
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "server.key",
        ])
        .args(["-out", "server.csr", "-subj", "/CN=localhost"]));
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    run(Command::new("openssl")
        .current_dir(dir)
        .args(["x509", "-req", "-in", "server.csr", "-days", "2"])
        .args(["-CA", &format!("{ca}.pem"), "-CAkey", &format!("{ca}.key")])
        .args([
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-extfile",
            "server.ext",
        ]));
}

/// A PostgreSQL that takes TLS connections only, stopped when dropped.
struct TlsOnly {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
}

impl TlsOnly {
    fn start(bin: &Path, dir: &Path) -> TlsOnly {
        let (data, port) = (dir.join("data"), free_port());
        run(as_postgres(&bin.join("initdb")).arg("-D").arg(&data).args([
            "-U",
            "postgres",
            "-A",
            "trust",
            "--no-sync",
        ]));
        std::fs::write(
            data.join("pg_hba.conf"),
            "local all all trust\nhostssl all all 127.0.0.1/32 trust\nhostssl all all ::1/128 trust\n",
        )
        .unwrap();
        let conf = format!(
            "ssl = on\nssl_cert_file = '{0}/server.pem'\nssl_key_file = '{0}/server.key'\n",
            dir.display()
        );
        let mut settings = std::fs::read_to_string(data.join("postgresql.conf")).unwrap();
        settings.push_str(&conf);
        std::fs::write(data.join("postgresql.conf"), settings).unwrap();
        run(as_postgres(&bin.join("pg_ctl"))
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(dir.join("log"))
            .arg("-w")
            .arg("-o")
            .arg(format!(
                "-h 127.0.0.1 -p {port} -k {} -c fsync=off",
                dir.display()
            ))
            .arg("start"));
        TlsOnly {
            bin: bin.to_path_buf(),
            data,
            port,
        }
    }
}

impl Drop for TlsOnly {
    fn drop(&mut self) {
        let _ = as_postgres(&self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "stop"])
            .output();
    }
}

fn zdr_host(dir: &Path, url: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_zdr-host"));
    command
        .args(["--port", "0", "--metrics-bind", "off", "--api-key", KEY])
        .args(["--database-url", url])
        .arg("--data-dir")
        .arg(dir.join("host"))
        .arg("--www")
        .arg(dir.join("no-www"));
    command
}

/// The host's start refused, and what it said.
fn refused(dir: &Path, url: &str) -> String {
    let output = zdr_host(dir, url).output().unwrap();
    assert!(!output.status.success(), "{url} started");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[tokio::test]
#[ignore = "needs PostgreSQL's programs: scripts/test.sh names them (ZDR_TEST_PG_BIN) and runs it"]
async fn the_host_connects_with_verify_full_and_refuses_a_wrong_ca_at_start() {
    let bin = PathBuf::from(std::env::var("ZDR_TEST_PG_BIN").expect("ZDR_TEST_PG_BIN"));
    let dir = tempfile::tempdir().unwrap();
    let pg = dir.path().join("pg");
    std::fs::create_dir(&pg).unwrap();
    let ca = authority(&pg, "zdr-test-ca");
    let wrong = authority(&pg, "another-ca");
    server_certificate(&pg, "zdr-test-ca");
    // PostgreSQL reads its key only when the key is its own and private.
    let postgres_owns = Command::new("id").arg("-u").output().unwrap().stdout == b"0\n";
    for path in [dir.path(), pg.as_path()] {
        run(Command::new("chmod").arg("755").arg(path));
    }
    run(Command::new("chmod").arg("600").arg(pg.join("server.key")));
    if postgres_owns {
        run(Command::new("chown").args(["-R", "postgres"]).arg(&pg));
    }
    let server = TlsOnly::start(&bin, &pg);
    let url = |host: &str, mode: &str, root: &Path| {
        format!(
            "postgres://postgres@{host}:{}/postgres?sslmode={mode}&sslrootcert={}",
            server.port,
            root.display()
        )
    };

    let host = Spawned::start(zdr_host(dir.path(), &url("localhost", "verify-full", &ca)));
    let ready = reqwest::get(format!("{}/readyz", host.origin))
        .await
        .unwrap();
    assert_eq!(ready.status(), 200);
    assert_eq!(ready.text().await.unwrap(), "ready\n");
    drop(host);

    let said = refused(dir.path(), &url("localhost", "verify-full", &wrong));
    assert!(
        said.contains("UnknownIssuer") || said.contains("unknown issuer"),
        "{said}"
    );
    let said = refused(dir.path(), &url("127.0.0.1", "verify-full", &ca));
    assert!(
        said.to_lowercase().contains("not valid for name") || said.contains("NotValidForName"),
        "{said}"
    );
    let said = refused(dir.path(), &url("localhost", "disable", &ca));
    assert!(
        said.contains("no encryption") || said.contains("pg_hba.conf"),
        "{said}"
    );
    // The password never reaches the message.
    let said = refused(
        dir.path(),
        &format!(
            "postgres://postgres:hunter2secret@localhost:{}/postgres?sslmode=verify-full&sslrootcert={}",
            server.port,
            wrong.display()
        ),
    );
    assert!(!said.contains("hunter2secret"), "{said}");

    // verify-ca: the CA checked, whatever name the certificate gives.
    let host = Spawned::start(zdr_host(dir.path(), &url("127.0.0.1", "verify-ca", &ca)));
    let ready = reqwest::get(format!("{}/readyz", host.origin))
        .await
        .unwrap();
    assert_eq!(ready.status(), 200);
}
