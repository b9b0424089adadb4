//! The engine draws with the page's Math (zdr-chart's `js-math` feature):
//! it must agree with Rust's own functions, which the host and the tests of
//! zdr-chart use, so a card laid out in the page and by the host match.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;
use zdr_chart::math;

wasm_bindgen_test_configure!(run_in_browser);

fn close(ours: f64, rust: f64, what: &str, x: f64) {
    let tolerance = 4.0 * f64::EPSILON * rust.abs().max(1e-300);
    assert!(
        (ours - rust).abs() <= tolerance || ours.to_bits() == rust.to_bits(),
        "{what}({x}): {ours} against {rust}"
    );
}

#[wasm_bindgen_test]
fn the_pages_math_agrees_with_rust() {
    for i in -3000..3000 {
        let x = f64::from(i) * 0.0123;
        close(math::sin(x), x.sin(), "sin", x);
        close(math::cos(x), x.cos(), "cos", x);
        close(math::atan2(x, 1.5 - x), x.atan2(1.5 - x), "atan2", x);
        let unit = f64::from(i) / 3000.0;
        close(math::acos(unit), unit.acos(), "acos", unit);
        let positive = (x.abs() + 1e-3) * 97.0;
        close(math::log10(positive), positive.log10(), "log10", positive);
        close(math::log2(positive), positive.log2(), "log2", positive);
        close(
            math::powf(unit.abs(), 2.4),
            unit.abs().powf(2.4),
            "pow",
            unit,
        );
    }
}

/// Numbers off the reader's exact fast path are read by the page's
/// parseFloat: it must round as Rust's `str::parse` (the host's reading)
/// does, bit for bit, including where serde_json's old method was one ulp off.
#[wasm_bindgen_test]
fn the_pages_parse_float_agrees_with_rust_bit_for_bit() {
    let mut texts = vec![
        "6258198606689440e-175".to_owned(),
        "433887102787473603e44".to_owned(),
        "767239501880428249e-298".to_owned(),
        "2.2250738585072011e-308".to_owned(),
        "4.9406564584124654e-324".to_owned(),
        "1.7976931348623157e308".to_owned(),
        "123456789012345678901234567890.5e-3".to_owned(),
        "0.1e-400".to_owned(),
        "1e400".to_owned(),
    ];
    let mut seed: u64 = 7;
    for _ in 0..2000 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let exponent = (seed >> 40) % 640;
        texts.push(format!("{}.{}e-{exponent}", seed >> 44, seed % 100_000_007));
        texts.push(format!("{}e{}", seed >> 1, exponent / 2));
    }
    for text in &texts {
        let rust: f64 = text.parse().unwrap_or(f64::NAN);
        assert_eq!(
            math::parse_decimal(text).to_bits(),
            rust.to_bits(),
            "{text}"
        );
        match zdr_chart::json::parse(text) {
            Ok(zdr_chart::json::Value::Number(n)) => {
                assert_eq!(n.as_f64().to_bits(), rust.to_bits(), "{text}")
            }
            other => assert!(rust.is_infinite(), "{text}: {other:?}"),
        }
    }
}
