//! JSON numbers as serde_json reads and writes them: unsigned, negative
//! and floating. Floats are correctly rounded (as `str::parse`; serde_json
//! without `float_roundtrip` is off by one ulp on some long inputs): exact
//! small cases in Rust, the rest by the page's `parseFloat` in the engine
//! (see [`crate::math::parse_decimal`]). The grammar and integer rules are
//! ported from serde_json 1.0 `de.rs` (`parse_number`; MIT OR Apache-2.0,
//! Copyright David Tolnay and the serde_json contributors).

use std::fmt;

/// A number as read: integers stay exact, as in serde_json's `Number`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    PosInt(u64),
    /// Always negative.
    NegInt(i64),
    /// Always finite.
    Float(f64),
}

impl Number {
    /// A finite `f64` as a number; NaN and infinities are not numbers in JSON.
    pub fn from_f64(n: f64) -> Option<Number> {
        n.is_finite().then_some(Number::Float(n))
    }

    pub fn as_f64(self) -> f64 {
        match self {
            Number::PosInt(n) => n as f64,
            Number::NegInt(n) => n as f64,
            Number::Float(f) => f,
        }
    }
}

/// An integer without point or exponent: `-0` and negatives past i64 are
/// floats, as serde_json reads them.
pub(crate) fn integer(positive: bool, significand: u64) -> Number {
    if positive {
        return Number::PosInt(significand);
    }
    let negative = (significand as i64).wrapping_neg();
    if negative >= 0 {
        Number::Float(-(significand as f64))
    } else {
        Number::NegInt(negative)
    }
}

/// `significand × 10^exponent`, signed and correctly rounded; `None` when
/// it overflows. `text` is the number as written without its sign (the
/// reader has checked its grammar), read when the fast path cannot be exact.
pub(crate) fn from_parts(
    positive: bool,
    significand: u64,
    exponent: i32,
    text: &str,
) -> Option<f64> {
    // Correctly rounded either way (the page's parseFloat in the engine,
    // Rust's parse natively), so host and engine agree bit for bit, without
    // the 2.5 KB table of every power of ten up to 1e308.
    let f = exact(significand, exponent).unwrap_or_else(|| crate::math::parse_decimal(text));
    if !f.is_finite() {
        return None;
    }
    Some(if positive { f } else { -f })
}

/// `significand × 10^exponent` when one IEEE operation gives it correctly
/// rounded (Clinger's fast path: a significand under 2^53 and a power of ten
/// up to 1e22 are both exact doubles); `None` otherwise. Ordinary data ends
/// here and never leaves Rust.
pub(crate) fn exact(significand: u64, exponent: i32) -> Option<f64> {
    let power = *POW10.get(exponent.unsigned_abs() as usize)?;
    if significand >= 1 << 53 {
        return None;
    }
    Some(if exponent >= 0 {
        significand as f64 * power
    } else {
        significand as f64 / power
    })
}

/// Written as serde_json writes it: integers in full, floats as the
/// shortest text that reads back the same (`1.0`, `1e300`, `2.5e-8`).
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Number::PosInt(n) => write!(f, "{n}"),
            Number::NegInt(n) => write!(f, "{n}"),
            Number::Float(x) => f.write_str(zmij::Buffer::new().format_finite(x)),
        }
    }
}

/// The powers of ten that are exact doubles.
static POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
