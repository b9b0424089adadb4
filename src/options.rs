//! `render(options)`: reading and validating every option before anything is created.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element};

use crate::address::{embed_address, CardSegment, ServiceUrl};
use crate::css_size::{css_length, SizeInput};
use crate::error::{Call, EmbedError};
use crate::js_value::{describe, is_plain_object, member, optional_function, required_string};
use crate::payload::Payload;

/// Defaults of the optional options, as in the service's widget (spec 4.16).
pub const DEFAULT_WIDTH: &str = "100%";
pub const DEFAULT_HEIGHT: &str = "600px";

/// Everything `render` needs, validated. Holding one means nothing can be refused any more.
pub struct EmbedOptions {
    pub container: Element,
    pub card_id: String,
    pub address: String,
    pub width: String,
    pub height: String,
    pub payload: Payload,
    pub on_load: Option<js_sys::Function>,
    pub on_error: Option<js_sys::Function>,
}

impl EmbedOptions {
    pub fn read(call: Call, options: &JsValue, document: &Document) -> Result<Self, EmbedError> {
        if !is_plain_object(options) {
            return Err(EmbedError::OptionsNotObject {
                call,
                found: describe(options),
            });
        }
        // Checked in the order a developer writes them, so the first error is the first mistake.
        let container_id = required_string(call, options, "containerId")?;
        let service_url = required_string(call, options, "serviceUrl")?;
        let card_id = required_string(call, options, "cardId")?;
        let service = ServiceUrl::parse(&service_url)
            .map_err(|problem| invalid(call, "serviceUrl", problem))?;
        let card =
            CardSegment::parse(&card_id).map_err(|problem| invalid(call, "cardId", problem))?;
        let data = member(call, options, "visualizationData", "visualizationData")?;
        let payload = Payload::from_js(call, &data)?;
        let width = size(call, options, "width", DEFAULT_WIDTH)?;
        let height = size(call, options, "height", DEFAULT_HEIGHT)?;
        let on_load = optional_function(call, options, "onLoad")?;
        let on_error = optional_function(call, options, "onError")?;
        let container = find_container(call, document, &container_id)?;
        Ok(EmbedOptions {
            container,
            card_id,
            address: embed_address(&service, &card),
            width,
            height,
            payload,
            on_load,
            on_error,
        })
    }
}

fn invalid(call: Call, name: &str, problem: impl ToString) -> EmbedError {
    EmbedError::InvalidOption {
        call,
        name: name.to_owned(),
        problem: problem.to_string(),
    }
}

fn size(call: Call, options: &JsValue, key: &str, default: &str) -> Result<String, EmbedError> {
    let value = member(call, options, key, key)?;
    if value.is_undefined() || value.is_null() {
        return Ok(default.to_owned());
    }
    let text;
    let input = if value.as_f64().is_some() {
        // Number.prototype.toString(10) cannot throw for a number.
        text = value
            .unchecked_ref::<js_sys::Number>()
            .to_string_with_radix(10)
            .map(String::from)
            .unwrap_or_default();
        SizeInput::Pixels(&text)
    } else if let Some(string) = value.as_string() {
        text = string;
        SizeInput::Text(&text)
    } else {
        return Err(EmbedError::WrongType {
            call,
            name: key.to_owned(),
            expected: "a number or a CSS length string",
            found: describe(&value),
        });
    };
    css_length(input).map_err(|problem| invalid(call, key, problem))
}

fn find_container(call: Call, document: &Document, id: &str) -> Result<Element, EmbedError> {
    if id.is_empty() {
        return Err(invalid(call, "containerId", "must not be empty"));
    }
    document
        .get_element_by_id(id)
        .ok_or_else(|| EmbedError::ContainerNotFound {
            call,
            id: id.to_owned(),
        })
}
