//! zdr-host's four table readers (CSV, .xlsx, .xls, .parquet) on hostile
//! bytes: the first byte picks the format the file claims, the rest is the
//! file. A reader answers with a table within the bounds or an error, and
//! never aborts, takes more than libFuzzer's 256 MB (or a single
//! allocation that large) or a second.
//!
//! calamine and the parquet crate panic on some malformed files; the host
//! runs them under `catch_unwind` and answers 422 (`table::guarded`). So a
//! panic whose place is in a crate of the registry is let unwind to that
//! guard, as it is in the host; a panic anywhere else is a finding, and
//! aborts as libFuzzer's own hook makes every panic do.

#![no_main]

use std::sync::Once;

use libfuzzer_sys::fuzz_target;

const FORMATS: [&str; 4] = ["csv", "xlsx", "xls", "parquet"];

static HOOK: Once = Once::new();

fn third_party(info: &std::panic::PanicHookInfo<'_>) -> bool {
    info.location()
        .is_some_and(|at| at.file().contains("/.cargo/registry/"))
}

fuzz_target!(|bytes: &[u8]| {
    HOOK.call_once(|| {
        let libfuzzer = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !third_party(info) {
                libfuzzer(info);
            }
        }));
    });
    let Some((&selector, file)) = bytes.split_first() else {
        return;
    };
    let format = FORMATS[usize::from(selector) % FORMATS.len()];
    if let Ok((rows, columns)) = zdr_host::api::read_table(format, file) {
        assert!(rows >= 1 && rows <= 100_000, "{rows} rows");
        assert!(columns <= 200, "{columns} columns");
        assert!(
            rows.saturating_mul(columns) <= 1_000_000,
            "{rows} x {columns}"
        );
    }
});
