//! The address checks on both sides of the postMessage shell (zdr_fuzz_checks::shell_query).

#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| zdr_fuzz_checks::shell_query::check(bytes));
