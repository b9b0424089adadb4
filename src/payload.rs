//! `visualizationData`: its required shape (spec 4.16) and its JSON text.

use wasm_bindgen::{JsCast, JsValue};

use crate::error::{describe_thrown, EmbedError};
use crate::js_value::{is_plain_object, member, wrong_type};

const OPTION: &str = "visualizationData";

/// The JSON text that is posted (or handed to the engine), and the card
/// title for the frame's accessible name. Only the spec's shape is checked
/// here: reading the data is the engine's work, or the service's.
#[derive(Clone)]
pub struct Payload {
    /// Kept a JS string: the data is never copied into the module's memory,
    /// whatever its size; the form, the message and the engine all take it as is.
    pub json: js_sys::JsString,
    pub title: Option<String>,
}

impl Payload {
    /// Checks `{viz_config: object, data: object | array}` and serialises with
    /// `JSON.stringify`, so the text is exactly what the page's own JSON would be.
    pub fn from_js(data: &JsValue) -> Result<Self, EmbedError> {
        if data.is_undefined() || data.is_null() {
            return Err(EmbedError::MissingOption { name: OPTION });
        }
        if !is_plain_object(data) {
            return Err(wrong_type(
                OPTION,
                "an object with \"viz_config\" and \"data\"",
                data,
            ));
        }
        let viz_config = required_member(data, "viz_config", "visualizationData.viz_config")?;
        if !is_plain_object(&viz_config) {
            return Err(wrong_type(
                "visualizationData.viz_config",
                "an object",
                &viz_config,
            ));
        }
        let points = required_member(data, "data", "visualizationData.data")?;
        if !points.is_object() || points.is_function() {
            return Err(wrong_type(
                "visualizationData.data",
                "an object or an array",
                &points,
            ));
        }
        let title_value = member(&viz_config, "title", "visualizationData.viz_config.title")?;
        let title = if title_value.is_undefined() || title_value.is_null() {
            None
        } else {
            Some(title_value.as_string().ok_or_else(|| {
                wrong_type(
                    "visualizationData.viz_config.title",
                    "a string",
                    &title_value,
                )
            })?)
        };
        Ok(Payload {
            json: stringify(data)?,
            title,
        })
    }
}

/// `name` is the member's full option name, `visualizationData.<key>`.
fn required_member(object: &JsValue, key: &str, name: &'static str) -> Result<JsValue, EmbedError> {
    let value = member(object, key, name)?;
    if value.is_undefined() || value.is_null() {
        return Err(EmbedError::MissingOption { name });
    }
    Ok(value)
}

/// `JSON.stringify` throws on cycles and BigInts; a `toJSON` may return something
/// that is not an object. Both are refused here, before anything is posted.
fn stringify(data: &JsValue) -> Result<js_sys::JsString, EmbedError> {
    let text = js_sys::JSON::stringify(data).map_err(|thrown| EmbedError::NotSerialisable {
        reason: describe_thrown(&thrown),
    })?;
    let json = text
        .dyn_into::<js_sys::JsString>()
        .map_err(|_| EmbedError::NotSerialisable {
            reason: "JSON.stringify produced no text (a toJSON method returned undefined?)".into(),
        })?;
    if json.char_code_at(0) != f64::from(b'{') {
        return Err(EmbedError::NotSerialisable {
            reason: "its JSON is not an object (a toJSON method replaced it?)".into(),
        });
    }
    Ok(json)
}
