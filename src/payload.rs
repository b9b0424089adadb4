//! `visualizationData`: its required shape (spec 4.16) and its JSON text.

use std::rc::Rc;

use wasm_bindgen::JsValue;
use zdr_chart::Chart;

use crate::error::{describe_thrown, Call, EmbedError};
use crate::js_value::{describe, is_plain_object, member};

const OPTION: &str = "visualizationData";

/// The JSON text that is posted, and the card title for the frame's accessible name.
#[derive(Debug, Clone, PartialEq)]
pub struct Payload {
    pub json: String,
    pub title: Option<String>,
}

impl Payload {
    /// Checks `{viz_config: object, data: object | array}` and serialises with
    /// `JSON.stringify`, so the text is exactly what the page's own JSON would be.
    pub fn from_js(call: Call, data: &JsValue) -> Result<Self, EmbedError> {
        if data.is_undefined() || data.is_null() {
            return Err(EmbedError::MissingOption {
                call,
                name: OPTION.into(),
            });
        }
        if !is_plain_object(data) {
            return Err(wrong_type(
                call,
                OPTION,
                "an object with \"viz_config\" and \"data\"",
                data,
            ));
        }
        let viz_config = required_member(call, data, "viz_config")?;
        if !is_plain_object(&viz_config) {
            return Err(wrong_type(
                call,
                "visualizationData.viz_config",
                "an object",
                &viz_config,
            ));
        }
        let points = required_member(call, data, "data")?;
        if !points.is_object() || points.is_function() {
            return Err(wrong_type(
                call,
                "visualizationData.data",
                "an object or an array",
                &points,
            ));
        }
        let title_value = member(
            call,
            &viz_config,
            "title",
            "visualizationData.viz_config.title",
        )?;
        let title = if title_value.is_undefined() || title_value.is_null() {
            None
        } else {
            Some(title_value.as_string().ok_or_else(|| {
                wrong_type(
                    call,
                    "visualizationData.viz_config.title",
                    "a string",
                    &title_value,
                )
            })?)
        };
        Ok(Payload {
            json: stringify(call, data)?,
            title,
        })
    }
}

/// The data of one `render` or `update`, in the forms the surfaces need.
#[derive(Clone)]
pub struct Content {
    pub payload: Payload,
    /// Read by the chart engine; `None` in service mode, which never draws.
    pub chart: Option<Rc<Chart>>,
}

impl Content {
    /// For the service only: the page's JSON goes out as it is.
    pub fn posted(payload: Payload) -> Content {
        Content {
            payload,
            chart: None,
        }
    }

    /// For drawing in the page: read by the engine now, so bad data throws
    /// from `render`/`update` with the JSON path of the problem.
    pub fn drawn(call: Call, payload: Payload) -> Result<Content, EmbedError> {
        let chart = Chart::from_json(&payload.json).map_err(|error| EmbedError::InvalidData {
            call,
            reason: error.to_string(),
        })?;
        Ok(Content {
            payload,
            chart: Some(Rc::new(chart)),
        })
    }
}

fn required_member(call: Call, object: &JsValue, key: &str) -> Result<JsValue, EmbedError> {
    let name = format!("{OPTION}.{key}");
    let value = member(call, object, key, &name)?;
    if value.is_undefined() || value.is_null() {
        return Err(EmbedError::MissingOption { call, name });
    }
    Ok(value)
}

fn wrong_type(call: Call, name: &str, expected: &'static str, found: &JsValue) -> EmbedError {
    EmbedError::WrongType {
        call,
        name: name.to_owned(),
        expected,
        found: describe(found),
    }
}

/// `JSON.stringify` throws on cycles and BigInts; a `toJSON` may return something
/// that is not an object. Both are refused here, before anything is posted.
fn stringify(call: Call, data: &JsValue) -> Result<String, EmbedError> {
    let text = js_sys::JSON::stringify(data).map_err(|thrown| EmbedError::NotSerialisable {
        call,
        reason: describe_thrown(&thrown),
    })?;
    let json = text
        .as_string()
        .ok_or_else(|| EmbedError::NotSerialisable {
            call,
            reason: "JSON.stringify produced no text (a toJSON method returned undefined?)".into(),
        })?;
    if !json.starts_with('{') {
        return Err(EmbedError::NotSerialisable {
            call,
            reason: "its JSON is not an object (a toJSON method replaced it?)".into(),
        });
    }
    Ok(json)
}
