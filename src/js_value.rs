//! Reading untrusted JS values: what they are, and their members, without trusting getters.

use wasm_bindgen::prelude::*;

use crate::error::{describe_thrown, EmbedError, Fail};

pub use zdr_protocol::text::{describe, quote};

// Browser strings read as the JS strings they are: a string an import
// returns is copied into the module through a return area and a boxed
// slice, machinery the module would carry for these reads alone (`as_string`
// copies through another path, which it has anyway).
#[wasm_bindgen]
extern "C" {
    /// An object read for its `origin` (a `Location`, a `MessageEvent`).
    pub type WithOrigin;
    #[wasm_bindgen(method, getter)]
    pub fn origin(this: &WithOrigin) -> JsValue;

    /// A `Document` read for its `URL`.
    pub type WithUrl;
    #[wasm_bindgen(method, catch, getter, js_name = URL)]
    pub fn url(this: &WithUrl) -> Result<JsValue, JsValue>;

    /// A `Window` posted to, its target origin a JS string.
    pub type PostTarget;
    #[wasm_bindgen(method, catch, js_name = postMessage)]
    pub fn post_message(
        this: &PostTarget,
        message: &JsValue,
        target_origin: &JsValue,
    ) -> Result<(), JsValue>;
}

/// True for objects that are not arrays or functions: what options and viz_config must be.
pub fn is_plain_object(value: &JsValue) -> bool {
    value.is_object() && !js_sys::Array::is_array(value) && !value.is_function()
}

/// An option of the wrong kind. One function, not inlined at each of the
/// dozen options: the service module's size budget.
#[inline(never)]
pub fn wrong_type(name: &'static str, expected: &'static str, found: &JsValue) -> Fail {
    EmbedError::WrongType {
        name,
        expected,
        found: describe(found),
    }
    .into()
}

/// Reads `object[key]`; a throwing getter or proxy trap becomes an error naming the option.
#[inline(never)]
pub fn member(object: &JsValue, key: &str, name: &'static str) -> Result<JsValue, Fail> {
    js_sys::Reflect::get(object, &JsValue::from_str(key)).map_err(|thrown| {
        EmbedError::InvalidOption {
            name,
            problem: zdr_protocol::text::concat(&[
                "could not be read: ",
                &describe_thrown(&thrown),
            ]),
        }
        .into()
    })
}

/// A required string member.
pub fn required_string(object: &JsValue, key: &'static str) -> Result<String, Fail> {
    let value = member(object, key, key)?;
    if value.is_undefined() || value.is_null() {
        return Err(EmbedError::MissingOption { name: key }.into());
    }
    value
        .as_string()
        .ok_or_else(|| wrong_type(key, "a string", &value))
}

/// An optional function member (`onLoad`, `onError`).
pub fn optional_function(
    object: &JsValue,
    key: &'static str,
) -> Result<Option<js_sys::Function>, Fail> {
    let value = member(object, key, key)?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .dyn_into::<js_sys::Function>()
        .map(Some)
        .map_err(|value| wrong_type(key, "a function", &value))
}
