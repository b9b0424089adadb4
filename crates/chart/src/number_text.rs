//! Numbers written as text, read with the JSON reader's number parser.
//!
//! `str::parse::<f64>` brings core's own decimal-to-binary conversion (its
//! code and a 10 KB table of powers of five) into the WebAssembly engine,
//! which already carries the JSON reader's for every number of the data.
//! Text that Rust's grammar accepts is rewritten into JSON's (no `+`, no
//! leading zeros, digits on both sides of the point) and read by
//! [`crate::json`]: the same numbers, correctly rounded by both (the
//! reader's slow path is the page's `parseFloat` in the engine, `str::parse`
//! natively).

/// A value as JSON writes it ("-2", "-0.5", the shortest digits that read
/// back as the same double); empty for NaN and infinities, which JSON has
/// no text for. The model and the CSV format nothing the way a card does
/// (that is `label`).
pub(crate) fn write_f64(y: f64) -> String {
    if y.fract() == 0.0 && y.abs() < 1e15 {
        return (y as i64).to_string();
    }
    crate::json::Number::from_f64(y).map_or_else(String::new, |n| n.to_string())
}

/// The number `text` spells in Rust's `f64` grammar (`+1`, `.5`, `5.`,
/// `1e-3`, `inf`, `NaN`); `None` for anything else, as `str::parse` does.
/// Magnitudes past the largest double are infinite, as with `str::parse`.
pub(crate) fn parse_f64(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, text.get(1..)?),
        Some(b'+') => (false, text.get(1..)?),
        _ => (false, text),
    };
    let signed = |v: f64| if negative { -v } else { v };
    if ["inf", "infinity"]
        .iter()
        .any(|w| body.eq_ignore_ascii_case(w))
    {
        return Some(signed(f64::INFINITY));
    }
    if body.eq_ignore_ascii_case("nan") {
        return Some(f64::NAN);
    }
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (body.get(..at)?, Some(body.get(at + 1..)?)),
        None => (body, None),
    };
    let (int, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() && fraction.is_empty() || !all_digits(int) || !all_digits(fraction) {
        return None;
    }
    let mut json = String::with_capacity(text.len() + 2);
    if negative {
        json.push('-');
    }
    let int = int.trim_start_matches('0');
    json.push_str(if int.is_empty() { "0" } else { int });
    if !fraction.is_empty() {
        json.push('.');
        json.push_str(fraction);
    }
    if let Some(exponent) = exponent {
        let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        if digits.is_empty() || !all_digits(digits) {
            return None;
        }
        json.push('e');
        json.push_str(exponent);
    }
    // The grammar is checked: the JSON reader refuses only what overflows.
    // An integer without point or exponent comes back as one, and -0 as 0,
    // hence the sign put back.
    let number = match crate::json::parse_number(&json) {
        Ok(Some(number)) => number.as_f64(),
        Ok(None) => return None,
        Err(_) => f64::INFINITY,
    };
    Some(signed(number.abs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_str_parse_reads() {
        let texts = [
            "0",
            "1",
            "-1",
            "+1",
            "007",
            "-007.50",
            ".5",
            "5.",
            "-.5",
            "+5.",
            "1e3",
            "1E+3",
            "2.5e-3",
            "-0",
            "-0.0",
            "0.1",
            "0.3",
            "123456.789",
            "1e308",
            "1e-320",
            "00.000e0",
            "9007199254740993",
            "inf",
            "-Infinity",
            "+INF",
            "1e400",
            "-1e400",
            "1e-400",
            "12345678901234567890123",
            "3.14159265358979323846",
        ];
        for text in texts {
            let ours = parse_f64(text);
            let theirs = text.parse::<f64>().ok();
            let (Some(a), Some(b)) = (ours, theirs) else {
                assert_eq!(ours.is_some(), theirs.is_some(), "{text}");
                continue;
            };
            let ulps = (a.to_bits() as i64 - b.to_bits() as i64).abs();
            assert!(
                ulps <= 1 && a.is_sign_negative() == b.is_sign_negative(),
                "{text}: {a} {b}"
            );
        }
        assert!(parse_f64("NaN").is_some_and(f64::is_nan));
    }

    #[test]
    fn short_decimals_are_exact() {
        for n in -2000..2000 {
            for text in [
                format!("{}", f64::from(n) / 100.0),
                format!("{n}e-3"),
                format!("{n}"),
            ] {
                assert_eq!(parse_f64(&text), text.parse::<f64>().ok(), "{text}");
            }
        }
    }

    #[test]
    fn refuses_what_str_parse_refuses() {
        let texts = [
            "", ".", "-", "+", "e5", "1e", "1e+", "--1", "+-1", " 1", "1 ", "1.2.3", "0x10",
            "1_000", "1,5", "infinite", "nan1", "1e5.0", "١",
        ];
        for text in texts {
            assert_eq!(text.parse::<f64>().ok(), None, "{text}");
            assert_eq!(parse_f64(text), None, "{text}");
        }
    }
}
