//! The few transcendental functions the layout and the painters use.
//!
//! With the `js-math` feature on wasm32 (the engine module in a page) they
//! are the page's `Math` functions, one import each, instead of libm
//! compiled into the module (sin, cos and their argument reduction, atan,
//! acos, pow, log10: about 10 KB of WebAssembly). Everywhere else they are
//! Rust's own. Both are accurate to about one unit in the last place, far
//! below the hundredth of a pixel the SVG writer keeps.

#[cfg(all(feature = "js-math", target_arch = "wasm32"))]
mod imp {
    use js_sys::Math;

    pub fn sin(x: f64) -> f64 {
        Math::sin(x)
    }
    pub fn cos(x: f64) -> f64 {
        Math::cos(x)
    }
    pub fn acos(x: f64) -> f64 {
        Math::acos(x)
    }
    pub fn atan2(y: f64, x: f64) -> f64 {
        Math::atan2(y, x)
    }
    pub fn powf(x: f64, y: f64) -> f64 {
        Math::pow(x, y)
    }
    pub fn log10(x: f64) -> f64 {
        Math::log10(x)
    }
    pub fn log2(x: f64) -> f64 {
        Math::log2(x)
    }
    pub fn parse_decimal(text: &str) -> f64 {
        js_sys::parse_float(text)
    }
}

#[cfg(not(all(feature = "js-math", target_arch = "wasm32")))]
mod imp {
    pub fn sin(x: f64) -> f64 {
        x.sin()
    }
    pub fn cos(x: f64) -> f64 {
        x.cos()
    }
    pub fn acos(x: f64) -> f64 {
        x.acos()
    }
    pub fn atan2(y: f64, x: f64) -> f64 {
        y.atan2(x)
    }
    pub fn powf(x: f64, y: f64) -> f64 {
        x.powf(y)
    }
    pub fn log10(x: f64) -> f64 {
        x.log10()
    }
    pub fn log2(x: f64) -> f64 {
        x.log2()
    }
    pub fn parse_decimal(text: &str) -> f64 {
        text.parse().unwrap_or(f64::NAN)
    }
}

pub use imp::{acos, atan2, cos, log10, log2, powf, sin};

/// The nearest double to a decimal number's text (JSON grammar, checked by
/// the caller), infinity past `f64::MAX`. In the engine it is the page's
/// `parseFloat` instead of Rust's decimal-to-float tables; both round
/// correctly, so they agree bit for bit.
pub use imp::parse_decimal;
