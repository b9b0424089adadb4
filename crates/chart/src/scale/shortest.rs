//! The shortest decimal that reads back as the same `f64`, without core's
//! float formatting: `{:e}` and `{}` on floats link about 20 KB of the
//! WebAssembly engine (Grisu, Dragon, a bignum and their tables), where
//! zmij (Schubfach) is about 1 KB. Both give the same digits: the shortest
//! that round-trip and, among those, the closest to the value (the tests
//! compare them on many values).

/// A positive decimal `digits × 10^exponent`; `digits` has no trailing zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Decimal {
    pub(crate) digits: u64,
    pub(crate) exponent: i32,
}

/// |value| as its shortest round-trip decimal digits; `None` for zero and
/// non-finite values.
pub(crate) fn shortest(value: f64) -> Option<Decimal> {
    if !value.is_finite() || value == 0.0 {
        return None;
    }
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(value.abs());
    // zmij writes "123.45", "1e21" or "1.5e-7": digits, one point at most,
    // then an optional exponent.
    let (mantissa, exponent) = match text.split_once('e') {
        Some((mantissa, exponent)) => (mantissa, parse_exponent(exponent)?),
        None => (text, 0),
    };
    let mut digits: u64 = 0;
    let mut fraction_len: i32 = 0;
    let mut after_point = false;
    for b in mantissa.bytes() {
        match b {
            b'.' if !after_point => after_point = true,
            b'0'..=b'9' => {
                digits = digits.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
                fraction_len += i32::from(after_point);
            }
            _ => return None,
        }
    }
    let mut exponent = exponent.checked_sub(fraction_len)?;
    // Core breaks an exact tie between two shortest candidates upwards,
    // zmij to the even one; follow core, so numbers read as they always did.
    if is_midpoint(value.abs(), digits, exponent) {
        digits = digits.checked_add(1)?;
    }
    while digits % 10 == 0 && digits != 0 {
        digits /= 10;
        exponent = exponent.checked_add(1)?;
    }
    (digits != 0).then_some(Decimal { digits, exponent })
}

/// Whether `value` lies exactly halfway between `digits × 10^exponent` and
/// the next decimal of as many digits up, `(2 × digits + 1) × 10^exponent / 2`.
/// With `value = m × 2^k` (m odd) that is `m × 2^(k+1) = (2 × digits + 1) × 2^exponent × 5^exponent`:
/// both sides odd apart from their powers of two, which must agree.
fn is_midpoint(value: f64, digits: u64, exponent: i32) -> bool {
    let bits = value.to_bits();
    let (fraction, biased) = (bits & ((1 << 52) - 1), (bits >> 52) & 0x7ff);
    let (mantissa, power) = if biased == 0 {
        (fraction, -1074i64)
    } else {
        (fraction | (1 << 52), biased as i64 - 1075)
    };
    if mantissa == 0 {
        return false;
    }
    let zeros = mantissa.trailing_zeros();
    let odd = u128::from(mantissa >> zeros);
    let twos = i64::from(zeros) + power + 1;
    if twos != i64::from(exponent) {
        return false;
    }
    let Some(fives) = 5u128.checked_pow(exponent.unsigned_abs()) else {
        return false;
    };
    let candidate = u128::from(digits) * 2 + 1;
    if exponent >= 0 {
        candidate.checked_mul(fives) == Some(odd)
    } else {
        odd.checked_mul(fives) == Some(candidate)
    }
}

fn parse_exponent(text: &str) -> Option<i32> {
    let (negative, magnitude) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if magnitude.is_empty() || magnitude.len() > 4 {
        return None;
    }
    let mut n: i32 = 0;
    for b in magnitude.bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + i32::from(b - b'0');
    }
    Some(if negative { -n } else { n })
}

/// `value` written as `format!("{value}")` writes it (shortest round-trip
/// digits, never an exponent, "-0" for negative zero, "NaN", "inf"), for
/// text a browser parses back, such as a canvas font size.
pub fn plain(value: f64) -> String {
    if value.is_nan() {
        return "NaN".to_owned();
    }
    let mut out = String::new();
    if value.is_sign_negative() {
        out.push('-');
    }
    if value.is_infinite() {
        out.push_str("inf");
        return out;
    }
    let Some(Decimal { digits, exponent }) = shortest(value) else {
        out.push('0');
        return out;
    };
    let digits = digits.to_string();
    // At most 17 digits and |exponent| <= 343: the text stays under 400 bytes.
    let point = i64::try_from(digits.len()).unwrap_or(0) + i64::from(exponent);
    if exponent >= 0 {
        out.push_str(&digits);
        out.push_str(&"0".repeat(exponent.unsigned_abs() as usize));
    } else if point > 0 {
        // Char by char rather than split_at, whose panic path would link
        // core's char Debug and unicode tables into the engine.
        let point = point.unsigned_abs() as usize;
        for (at, digit) in digits.chars().enumerate() {
            if at == point {
                out.push('.');
            }
            out.push(digit);
        }
    } else {
        out.push_str("0.");
        out.push_str(&"0".repeat(point.unsigned_abs() as usize));
        out.push_str(&digits);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digits and exponent of core's `{:e}` (Grisu with a Dragon fallback).
    fn reference(value: f64) -> Option<Decimal> {
        if !value.is_finite() || value == 0.0 {
            return None;
        }
        let text = format!("{:e}", value.abs());
        let (mantissa, exponent) = text.split_once('e')?;
        let (int, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = format!("{int}{fraction}").parse().ok()?;
        let exponent = exponent.parse::<i32>().ok()? - fraction.len() as i32;
        Some(Decimal { digits, exponent })
    }

    /// A fixed xorshift sequence: many doubles of every magnitude, the same each run.
    fn bit_patterns(count: usize) -> impl Iterator<Item = f64> {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        std::iter::repeat_with(move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            f64::from_bits(state)
        })
        .take(count)
    }

    fn edge_cases() -> Vec<f64> {
        let mut values = vec![
            0.1 + 0.2,
            0.1,
            0.3,
            1.0,
            -1.0,
            1e21,
            1e22,
            1e23,
            5e-324,
            -5e-324,
            f64::MIN_POSITIVE,
            f64::MIN_POSITIVE - 5e-324,
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            9_007_199_254_740_993.0,
            123_456.789,
            2.5,
            13.200_000_000_000_001,
            1.0 / 3.0,
            2f64.powi(-1074),
            2f64.powi(-1022),
            2f64.powi(1023),
        ];
        for k in -324..=308 {
            let p: f64 = format!("1e{k}").parse().unwrap_or(1.0);
            values.extend([p, p * 2.0, p * 5.0, p * 9.99, p * 1.25]);
            let bits = p.to_bits();
            values.extend([
                f64::from_bits(bits + 1),
                f64::from_bits(bits.saturating_sub(1)),
            ]);
        }
        for k in -1074..=1023 {
            let p = 2f64.powi(k);
            values.extend([p, f64::from_bits(p.to_bits() + 1)]);
        }
        values
    }

    #[test]
    fn digits_match_core_formatting() {
        for value in edge_cases().into_iter().chain(bit_patterns(300_000)) {
            assert_eq!(shortest(value), reference(value), "{value:e}");
        }
    }

    #[test]
    fn zero_and_non_finite_have_no_digits() {
        for value in [0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(shortest(value), None);
        }
        assert_eq!(
            shortest(-1_255_000.0),
            Some(Decimal {
                digits: 1255,
                exponent: 3
            })
        );
        assert_eq!(
            shortest(0.000_42),
            Some(Decimal {
                digits: 42,
                exponent: -5
            })
        );
    }

    #[test]
    fn plain_matches_display() {
        let specials = [0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY];
        let font_sizes = (1..=4000).map(|n| f64::from(n) * 0.05 * 1.1);
        for value in edge_cases()
            .into_iter()
            .chain(specials)
            .chain(font_sizes)
            .chain(bit_patterns(50_000))
        {
            assert_eq!(plain(value), format!("{value}"), "{value:e}");
        }
    }

    #[test]
    fn exact_ties_round_up() {
        // 2^-25 = 2.98023223876953125e-8: 17 digits end in ...312 or ...313.
        assert_eq!(
            shortest(2f64.powi(-25)),
            Some(Decimal {
                digits: 29_802_322_387_695_313,
                exponent: -24
            })
        );
        assert!(is_midpoint(2f64.powi(-25), 29_802_322_387_695_312, -24));
        assert!(!is_midpoint(0.1, 1, -1));
        assert!(!is_midpoint(f64::MAX, 17_976_931_348_623_157, 292));
    }

    #[test]
    fn exponents_are_read_strictly() {
        assert_eq!(parse_exponent("21"), Some(21));
        assert_eq!(parse_exponent("-324"), Some(-324));
        assert_eq!(parse_exponent("+7"), Some(7));
        assert_eq!(parse_exponent(""), None);
        assert_eq!(parse_exponent("-"), None);
        assert_eq!(parse_exponent("1x"), None);
        assert_eq!(parse_exponent("99999"), None);
    }
}
