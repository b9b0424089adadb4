//! zdr-host's four table readers (CSV, .xlsx, .xls, .parquet) on hostile
//! bytes: the first byte picks the format the file claims, the rest is the
//! file. A reader answers with a table within the bounds or an error, and
//! never panics, aborts, takes more than libFuzzer's 256 MB (or a single
//! allocation that large) or a second.

#![no_main]

use libfuzzer_sys::fuzz_target;

const FORMATS: [&str; 4] = ["csv", "xlsx", "xls", "parquet"];

fuzz_target!(|bytes: &[u8]| {
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
