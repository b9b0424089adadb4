//! zdr-host's reading of a posted form (zdr_fuzz_checks::host_form).

#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| zdr_fuzz_checks::host_form::check(bytes));
