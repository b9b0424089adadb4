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
