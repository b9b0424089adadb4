//! Reading untrusted JS values: what they are, and their members, without trusting getters.

use wasm_bindgen::{JsCast, JsValue};

use crate::error::{describe_thrown, Call, EmbedError};

/// How many characters of a string value an error message quotes.
const QUOTE_LIMIT: usize = 60;

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
    if value.as_f64().is_some() {
        return "a number".into();
    }
    if value.as_bool().is_some() {
        return "a boolean".into();
    }
    if value.is_bigint() {
        return "a bigint".into();
    }
    if value.is_symbol() {
        return "a symbol".into();
    }
    if value.is_function() {
        return "a function".into();
    }
    if js_sys::Array::is_array(value) {
        return "an array".into();
    }
    "an object".into()
}

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

/// True for objects that are not arrays or functions: what options and viz_config must be.
pub fn is_plain_object(value: &JsValue) -> bool {
    value.is_object() && !js_sys::Array::is_array(value) && !value.is_function()
}

/// Reads `object[key]`; a throwing getter or proxy trap becomes an error naming the option.
pub fn member(call: Call, object: &JsValue, key: &str, name: &str) -> Result<JsValue, EmbedError> {
    js_sys::Reflect::get(object, &JsValue::from_str(key)).map_err(|thrown| {
        EmbedError::InvalidOption {
            call,
            name: name.to_owned(),
            problem: format!("could not be read: {}", describe_thrown(&thrown)),
        }
    })
}

/// A required string member.
pub fn required_string(call: Call, object: &JsValue, key: &str) -> Result<String, EmbedError> {
    let value = member(call, object, key, key)?;
    if value.is_undefined() || value.is_null() {
        return Err(EmbedError::MissingOption {
            call,
            name: key.to_owned(),
        });
    }
    value.as_string().ok_or_else(|| EmbedError::WrongType {
        call,
        name: key.to_owned(),
        expected: "a string",
        found: describe(&value),
    })
}

/// An optional function member (`onLoad`, `onError`).
pub fn optional_function(
    call: Call,
    object: &JsValue,
    key: &str,
) -> Result<Option<js_sys::Function>, EmbedError> {
    let value = member(call, object, key, key)?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .dyn_into::<js_sys::Function>()
        .map(Some)
        .map_err(|value| EmbedError::WrongType {
            call,
            name: key.to_owned(),
            expected: "a function",
            found: describe(&value),
        })
}
