//! The chart engine on hostile visualization_data (zdr_fuzz_checks::chart_read_draw).

#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| zdr_fuzz_checks::chart_read_draw::check(bytes));
