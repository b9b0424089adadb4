//! `visualizationData`: its required shape (spec 4.16) and its JSON text.

use wasm_bindgen::{JsCast, JsValue};

use crate::error::{describe_thrown, EmbedError, Fail};
use crate::js_value::{is_plain_object, member, wrong_type};

const OPTION: &str = "visualizationData";

/// The data that is posted or handed to the engine, and the card title for
/// the frame's accessible name. Only the spec's shape is checked here:
/// reading the data is the engine's work, or the service's.
#[derive(Clone)]
pub struct Payload {
    carried: Carried,
    pub title: Option<String>,
}

/// Kept in JS: the data is never copied into this module's memory, whatever its size.
#[derive(Clone)]
enum Carried {
    /// Service and auto modes: the JSON text the form posts or the message
    /// carries (and the engine reads, after an auto fallback).
    Text(js_sys::JsString),
    /// Local mode: the page's object, which the engine reads as columns
    /// where it can (typed arrays, point objects): writing a million points
    /// as JSON text costs more than drawing them.
    Object(JsValue),
}

impl Payload {
    /// Checks `{viz_config: object, data: object | array}`; with `as_text`,
    /// serialises with `JSON.stringify` (typed arrays as arrays), so the text
    /// is exactly what the page's own JSON would be.
    pub fn from_js(data: &JsValue, as_text: bool) -> Result<Self, Fail> {
        if data.is_undefined() || data.is_null() {
            return Err(EmbedError::MissingOption { name: OPTION }.into());
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
        let carried = if as_text {
            Carried::Text(stringify(data)?)
        } else {
            Carried::Object(data.clone())
        };
        Ok(Payload { carried, title })
    }

    /// The JSON text, for a form or a message.
    pub fn text(&self) -> Result<js_sys::JsString, Fail> {
        match &self.carried {
            Carried::Text(text) => Ok(text.clone()),
            Carried::Object(data) => stringify(data),
        }
    }

    /// What the engine reads: the text, or in local mode the page's object.
    pub fn for_engine(&self) -> &JsValue {
        match &self.carried {
            Carried::Text(text) => text,
            Carried::Object(data) => data,
        }
    }
}

/// `name` is the member's full option name, `visualizationData.<key>`.
fn required_member(object: &JsValue, key: &str, name: &'static str) -> Result<JsValue, Fail> {
    let value = member(object, key, name)?;
    if value.is_undefined() || value.is_null() {
        return Err(EmbedError::MissingOption { name }.into());
    }
    Ok(value)
}

/// `JSON.stringify` throws on cycles and BigInts; a `toJSON` may return something
/// that is not an object. Both are refused here, before anything is posted.
fn stringify(data: &JsValue) -> Result<js_sys::JsString, Fail> {
    let text = js_sys::JSON::stringify(&arrays_written(data)).map_err(|thrown| {
        Fail::from(EmbedError::NotSerialisable {
            reason: describe_thrown(&thrown),
        })
    })?;
    let json = text.dyn_into::<js_sys::JsString>().map_err(|_| {
        Fail::from(EmbedError::NotSerialisable {
            reason: "JSON.stringify produced no text (a toJSON method returned undefined?)".into(),
        })
    })?;
    if json.char_code_at(0) != f64::from(b'{') {
        return Err(EmbedError::NotSerialisable {
            reason: "its JSON is not an object (a toJSON method replaced it?)".into(),
        }
        .into());
    }
    Ok(json)
}

/// `visualizationData` with the typed arrays of `data` and of its series as
/// plain arrays (copies of the objects holding them; the page's stay as
/// they are): JSON.stringify writes a Float64Array as `{"0": ...}`. A
/// BigInt64Array's BigInts then make JSON.stringify throw, as they should.
/// The two levels the columnar shape has, no deeper: page data must not
/// choose how deep this module recurses. (The engine's `js/columns.js`
/// does the same for local mode's JSON text: the two modules share no code.)
fn arrays_written(data: &JsValue) -> JsValue {
    let inner = js_sys::Reflect::get(data, &"data".into()).unwrap_or_default();
    let Some(copy) = arrays_in(&inner, true) else {
        return data.clone();
    };
    let out = copy_of(data);
    // An own data property of a fresh plain object: cannot fail.
    let _ = js_sys::Reflect::set(&out, &"data".into(), &copy);
    out.into()
}

/// A copy of `object` with its typed arrays as arrays (and, with
/// `series`, those of its `series`), or `None` if it holds none.
fn arrays_in(object: &JsValue, series: bool) -> Option<js_sys::Object> {
    if !is_plain_object(object) {
        return None;
    }
    let mut copy: Option<js_sys::Object> = None;
    let object_ref: &js_sys::Object = object.unchecked_ref();
    for key in js_sys::Object::keys(object_ref).iter() {
        let value = js_sys::Reflect::get(object, &key).unwrap_or_default();
        let replaced: Option<JsValue> = if js_sys::ArrayBuffer::is_view(&value) {
            Some(js_sys::Array::from(&value).into())
        } else if series
            && key.as_string().as_deref() == Some("series")
            && js_sys::Array::is_array(&value)
        {
            let list: js_sys::Array = value.unchecked_into();
            let mut copied: Option<js_sys::Array> = None;
            for (i, one) in list.iter().enumerate() {
                if let Some(one) = arrays_in(&one, false) {
                    copied
                        .get_or_insert_with(|| list.slice(0, list.length()))
                        .set(i as u32, one.into());
                }
            }
            copied.map(Into::into)
        } else {
            None
        };
        if let Some(replaced) = replaced {
            let copy = copy.get_or_insert_with(|| copy_of(object));
            let _ = js_sys::Reflect::set(copy, &key, &replaced);
        }
    }
    copy
}

fn copy_of(object: &JsValue) -> js_sys::Object {
    js_sys::Object::assign(&js_sys::Object::new(), object.unchecked_ref())
}
