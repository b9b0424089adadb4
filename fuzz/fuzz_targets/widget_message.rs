//! The widget's postMessage decoder, both directions (zdr_fuzz_checks::widget_message).

#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| zdr_fuzz_checks::widget_message::check(bytes));
