// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic)]

//! Every committed input of every fuzz target (`fuzz/corpus/<target>/`:
//! the seeds, the minimised corpora of long runs and each input that once
//! crashed a target) replayed through the target's own check, on the
//! stable toolchain, as part of `cargo test`. A regression any of them
//! found is found again here without a nightly build; live fuzzing, which
//! looks for new inputs, is `scripts/fuzz.sh` (docs/fuzzing.md).

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Once;

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

/// Runs `target`'s check on each of its corpus files and fails naming every
/// file whose check failed.
fn replay(target: &str) {
    let (_, check) = zdr_fuzz_checks::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .unwrap_or_else(|| panic!("no fuzz target {target}"));
    quiet_panics();
    let files = corpus(target);
    assert!(!files.is_empty(), "fuzz/corpus/{target} holds no input");
    let failed: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            CHECKING.set(true);
            let outcome = catch_unwind(AssertUnwindSafe(|| check(&bytes)));
            CHECKING.set(false);
            outcome.err()?;
            let message = PANIC.with(|panic| panic.take());
            Some(format!("{}\n    {message}", file.display()))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} inputs of {target} fail (one again, live: `cd fuzz && cargo +nightly fuzz run -s none --debug-assertions {target} <file>`):\n{}",
        failed.len(),
        files.len(),
        failed.join("\n")
    );
    println!("{target}: {} inputs replayed", files.len());
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
