//! zdr-host's four table readers on hostile bytes (zdr_fuzz_checks::table_readers).

#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| zdr_fuzz_checks::table_readers::check(bytes));
