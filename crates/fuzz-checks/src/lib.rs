//! What each fuzz target checks of one input, in one place: the live
//! fuzzers (`fuzz/fuzz_targets/*.rs`, libFuzzer on the nightly toolchain,
//! `scripts/fuzz.sh`) call these functions, and so does the replay of every
//! committed corpus input on the stable toolchain (`tests/replay.rs`, part
//! of `cargo test`). A check panics (a failed `assert!`) on a finding; that
//! is how libFuzzer is told, and how the replay fails a test.

pub mod chart_read_draw;
pub mod host_form;
pub mod questions;
pub mod shell_query;
pub mod table_readers;
pub mod widget_message;

/// A target's check of one input: it returns, or panics on a finding.
pub type Check = fn(&[u8]);

/// Every target by the name of its folder in `fuzz/corpus/` and its binary
/// in `fuzz/Cargo.toml`.
pub const TARGETS: [(&str, Check); 6] = [
    ("chart_read_draw", chart_read_draw::check),
    ("host_form", host_form::check),
    ("questions", questions::check),
    ("shell_query", shell_query::check),
    ("table_readers", table_readers::check),
    ("widget_message", widget_message::check),
];
