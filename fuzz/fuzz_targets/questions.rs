//! The question reader on hostile text over a hostile CSV (zdr_fuzz_checks::questions).

#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| zdr_fuzz_checks::questions::check(bytes));
