// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic)]

//! Every committed input of every fuzz target (`fuzz/corpus/<target>/`:
//! the seeds, the minimised corpora of long runs and each input that once
//! crashed a target) replayed through the target's own check, on the
//! stable toolchain, as part of `cargo test`. A regression any of them
//! found is found again here without a nightly build; live fuzzing, which
//! looks for new inputs, is `scripts/fuzz.sh` (docs/fuzzing.md).
//!
//! As the live fuzzers do, each target runs under bounds: this test binary
//! runs itself again for the target under `prlimit --as` (an input that
//! takes memory without bound fails the test instead of exhausting the
//! machine), and an input slower than [`SLOW`] fails it too.

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Once;
use std::time::{Duration, Instant};

/// Set in the copy of this binary that runs under the cap.
const CAPPED: &str = "ZDR_REPLAY_CAPPED";

/// The address space of one target's replay: twice libFuzzer's 256 MB, as
/// a debug test binary maps more than the input needs. Measured: every
/// corpus replays in 256 MiB at its usual speed; at 32 MiB the cap is hit
/// and the test fails.
const ADDRESS_SPACE: u64 = 512 << 20;

/// libFuzzer's 1 s per input is for an optimised build; the replay runs in
/// the debug build, about ten times slower, on machines that may be busy
/// (the slowest input, a chart drawn as all 19 kinds, takes about 0.1 s).
const SLOW: Duration = Duration::from_secs(10);

static QUIET: Once = Once::new();

thread_local! {
    /// Whether this thread is running a check now.
    static CHECKING: Cell<bool> = const { Cell::new(false) };
    /// What the last panic in a check on this thread said, and where.
    static PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// A panic in a check is kept for the failure's message instead of printed
/// (with a backtrace, where RUST_BACKTRACE is set) once per failing input;
/// any other goes to the default hook. Set before any check runs, so a
/// check's own hook (table_readers) wraps it.
fn quiet_panics() {
    QUIET.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CHECKING.get() {
                PANIC.with(|panic| *panic.borrow_mut() = info.to_string());
            } else {
                default(info);
            }
        }));
    });
}

/// The corpus files of `target`, sorted, so a failure names the same file
/// on every machine.
fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()));
    files.sort();
    files
}

/// Replays `target`'s corpus in a copy of this binary under the address
/// space cap, and fails with what it printed when it fails.
fn replay(target: &str) {
    if std::env::var_os(CAPPED).is_some() {
        return replay_here(target);
    }
    let binary = std::env::current_exe().unwrap_or_else(|e| panic!("this test binary: {e}"));
    let output = Command::new("prlimit")
        .arg(format!("--as={ADDRESS_SPACE}"))
        .arg("--")
        .arg(binary)
        .args([target, "--exact", "--nocapture", "--test-threads=1"])
        .env(CAPPED, "1")
        .output()
        .unwrap_or_else(|e| panic!("cannot run prlimit (util-linux): {e}"));
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && printed.contains("1 passed"),
        "{target}'s replay under --as={ADDRESS_SPACE} failed ({}):\n{printed}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    // libtest writes "test <name> ... " before what the test prints.
    let summary = format!("{target}: ");
    if let Some(at) = printed.find(&summary) {
        println!("{}", printed[at..].lines().next().unwrap_or_default());
    }
}

/// Runs `target`'s check on each of its corpus files and fails naming every
/// file whose check failed or took longer than [`SLOW`].
fn replay_here(target: &str) {
    let (_, check) = zdr_fuzz_checks::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .unwrap_or_else(|| panic!("no fuzz target {target}"));
    quiet_panics();
    let files = corpus(target);
    assert!(!files.is_empty(), "fuzz/corpus/{target} holds no input");
    let mut slowest = Duration::ZERO;
    let failed: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let start = Instant::now();
            CHECKING.set(true);
            let outcome = catch_unwind(AssertUnwindSafe(|| check(&bytes)));
            CHECKING.set(false);
            let took = start.elapsed();
            slowest = slowest.max(took);
            let why = match outcome {
                Err(_) => PANIC.with(|panic| panic.take()),
                Ok(()) if took > SLOW => format!("took {took:?}, over {SLOW:?}"),
                Ok(()) => return None,
            };
            Some(format!("{}\n    {why}", file.display()))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} inputs of {target} fail (one again, live: `cd fuzz && cargo +nightly fuzz run -s none --debug-assertions {target} <file>`):\n{}",
        failed.len(),
        files.len(),
        failed.join("\n")
    );
    println!(
        "{target}: {} inputs replayed, the slowest in {slowest:?}",
        files.len()
    );
}

#[test]
fn chart_read_draw() {
    replay("chart_read_draw");
}

#[test]
fn host_form() {
    replay("host_form");
}

#[test]
fn questions() {
    replay("questions");
}

#[test]
fn shell_query() {
    replay("shell_query");
}

#[test]
fn table_readers() {
    replay("table_readers");
}

#[test]
fn widget_message() {
    replay("widget_message");
}

/// Each target in `fuzz/Cargo.toml` is replayed here, and has a corpus.
#[test]
fn every_fuzz_target_is_replayed() {
    let manifest = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/Cargo.toml"),
    )
    .unwrap_or_else(|e| panic!("fuzz/Cargo.toml: {e}"));
    let named: Vec<&str> = manifest
        .lines()
        .filter_map(|line| line.strip_prefix("name = \""))
        .filter_map(|rest| rest.strip_suffix('"'))
        .filter(|name| *name != "zdr-fuzz")
        .collect();
    let mut replayed: Vec<&str> = zdr_fuzz_checks::TARGETS.iter().map(|(n, _)| *n).collect();
    let mut named_sorted = named.clone();
    named_sorted.sort_unstable();
    replayed.sort_unstable();
    assert_eq!(
        named_sorted, replayed,
        "fuzz/Cargo.toml's targets and the replayed ones"
    );
}
