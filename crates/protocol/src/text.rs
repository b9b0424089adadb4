//! Words for error messages, shared so both modules say things the same way.

use wasm_bindgen::{JsCast, JsValue};

/// How many characters of a string value an error message quotes.
const QUOTE_LIMIT: usize = 60;

/// A string for an error message: quoted, shortened, with control characters escaped.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(QUOTE_LIMIT) + 2);
    out.push('"');
    for (count, ch) in text.chars().enumerate() {
        if count == QUOTE_LIMIT {
            out.push('…');
            break;
        }
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                out.push_str("\\u{");
                push_hex(&mut out, u32::from(c), 1);
                out.push('}');
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The pieces of a message, joined. Messages are built from pieces rather
/// than with `format!`: the formatting machinery would cost the service
/// module more than all its messages together.
#[inline(never)]
pub fn concat(pieces: &[&str]) -> String {
    let mut out = String::with_capacity(pieces.iter().map(|piece| piece.len()).sum());
    for piece in pieces {
        out.push_str(piece);
    }
    out
}

/// `number` in decimal digits (without `core::fmt`, as [`concat`]).
#[inline(never)]
pub fn decimal(number: u32) -> String {
    let mut out = String::new();
    push_decimal(&mut out, number);
    out
}

/// Most significant digit first; divisions by constants only, so no
/// division-by-zero panic path is linked. At most ten calls deep.
fn push_decimal(out: &mut String, number: u32) {
    if number >= 10 {
        push_decimal(out, number / 10);
    }
    // number % 10 is one digit, so the sum stays ASCII.
    out.push(char::from(b'0' + (number % 10) as u8));
}

/// Appends `number` in lower-case hexadecimal, at least `width` digits.
/// At most `max(8, width)` calls deep.
#[inline(never)]
pub fn push_hex(out: &mut String, number: u32, width: u32) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    if number >= 16 || width > 1 {
        push_hex(out, number >> 4, width.saturating_sub(1));
    }
    out.push(char::from(HEX[(number & 0xf) as usize]));
}

/// "a number", "null", "an array", `"the text"`, ... for error messages.
pub fn describe(value: &JsValue) -> String {
    if value.is_undefined() {
        return "undefined".into();
    }
    if value.is_null() {
        return "null".into();
    }
    if let Some(text) = value.as_string() {
        return quote(&text);
    }
    let kind = if value.as_f64().is_some() {
        "a number"
    } else if value.as_bool().is_some() {
        "a boolean"
    } else if value.is_bigint() {
        "a bigint"
    } else if value.is_symbol() {
        "a symbol"
    } else if value.is_function() {
        "a function"
    } else if js_sys::Array::is_array(value) {
        "an array"
    } else {
        "an object"
    };
    kind.into()
}

/// The message of whatever a browser call threw, for wrapping into our errors.
pub fn describe_thrown(thrown: &JsValue) -> String {
    if let Some(error) = thrown.dyn_ref::<js_sys::Error>() {
        let name = String::from(error.name());
        let message = String::from(error.message());
        return if name.is_empty() {
            message
        } else {
            concat(&[&name, ": ", &message])
        };
    }
    match thrown.as_string() {
        Some(text) => text,
        None => describe(thrown),
    }
}

#[cfg(test)]
mod tests {
    use super::{concat, decimal, push_hex, quote};

    #[test]
    fn numbers_are_written_as_format_writes_them() {
        for number in [0, 7, 10, 99, 100, 5000, 600_000, 4_294_967_295] {
            assert_eq!(decimal(number), format!("{number}"));
            let mut hex = String::new();
            push_hex(&mut hex, number, 8);
            assert_eq!(hex, format!("{number:08x}"));
            let mut short = String::new();
            push_hex(&mut short, number, 1);
            assert_eq!(short, format!("{number:x}"));
        }
        assert_eq!(concat(&["a", "", "bc", "d"]), "abcd");
    }

    #[test]
    fn quotes_are_escaped_and_cut() {
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\u{a}\"");
        let long = quote(&"x".repeat(100));
        assert_eq!(long.chars().count(), 60 + 3);
        assert!(long.ends_with("…\""));
    }
}
