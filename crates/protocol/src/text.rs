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
            c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out.push('"');
    out
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
            format!("{name}: {message}")
        };
    }
    match thrown.as_string() {
        Some(text) => text,
        None => describe(thrown),
    }
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn quotes_are_escaped_and_cut() {
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\u{a}\"");
        let long = quote(&"x".repeat(100));
        assert_eq!(long.chars().count(), 60 + 3);
        assert!(long.ends_with("…\""));
    }
}
