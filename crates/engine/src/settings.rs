//! `mountLocal`'s settings, read once into one type. The service module has
//! already validated what the page gave it; the engine still refuses a
//! settings object of the wrong shape, because it is a public export too.

use wasm_bindgen::{JsCast, JsValue};
use zdr_protocol::layout::AUTO_HEIGHT;
use zdr_protocol::text::{describe, describe_thrown};

use crate::error::EngineError;

/// The longest width or height text read: CSS lengths are short.
const MAX_SIZE_CHARS: u32 = 256;
/// The longest stand-in title read.
const MAX_TITLE_CHARS: u32 = 1024;

pub struct Settings {
    /// The card's `visualization_data`: JSON text, or the page's object.
    pub data: JsValue,
    pub width: String,
    /// A CSS length, or [`AUTO_HEIGHT`].
    pub height: String,
    pub dark_mode: Option<bool>,
    /// The card's accessible name when its data has no title.
    pub title: String,
    pub callbacks: Callbacks,
    /// Cards of one group share their crosshair.
    pub sync_group: Option<String>,
    /// A menu of downloads on the card.
    pub menu: bool,
    /// The cards of the group zoom together.
    pub sync_zoom: bool,
}

/// The page's callbacks. A throwing callback is logged, never passed on.
#[derive(Clone, Default)]
pub struct Callbacks {
    pub on_load: Option<js_sys::Function>,
    pub on_error: Option<js_sys::Function>,
    /// Called with `{ x, y }` after each zoom, pan or reset is drawn.
    pub on_view_change: Option<js_sys::Function>,
}

impl Callbacks {
    pub fn loaded(&self, element: &JsValue) {
        zdr_protocol::code::announce(self.on_load.as_ref(), element);
    }

    /// Tells `onViewChange` of a new zoom; a throwing callback is logged.
    pub fn view_changed(&self, view: &JsValue) {
        if let Some(callback) = &self.on_view_change {
            if let Err(thrown) = callback.call1(&JsValue::NULL, view) {
                web_sys::console::error_2(&"zdr-embed: onViewChange threw".into(), &thrown);
            }
        }
    }

    /// Hands an error to `onError`, or logs it when there is none.
    pub fn failed(&self, error: &EngineError) {
        zdr_protocol::code::report(self.on_error.as_ref(), &error.to_js_error().into());
    }
}

impl Settings {
    pub fn read(settings: &JsValue) -> Result<Settings, EngineError> {
        if !settings.is_object() || settings.is_function() {
            return Err(problem(format!(
                "must be an object, found {}",
                describe(settings)
            )));
        }
        let data = field(settings, "data")?;
        let readable = data.is_string() || (data.is_object() && !data.is_function());
        if !readable {
            return Err(problem(format!(
                "\"data\" must be the card's data, as JSON text or an object, found {}",
                describe(&data)
            )));
        }
        let height = text(settings, "height", "100%", MAX_SIZE_CHARS)?;
        Ok(Settings {
            data,
            width: text(settings, "width", "100%", MAX_SIZE_CHARS)?,
            height: if height == AUTO_HEIGHT {
                AUTO_HEIGHT.to_owned()
            } else {
                height
            },
            dark_mode: field(settings, "darkMode")?.as_bool(),
            title: text(settings, "title", "Chart", MAX_TITLE_CHARS)?,
            sync_group: Some(text(settings, "syncGroup", "", MAX_SIZE_CHARS)?)
                .filter(|group| !group.is_empty()),
            menu: field(settings, "menu")?.as_bool().unwrap_or(false),
            sync_zoom: field(settings, "syncZoom")?.as_bool().unwrap_or(false),
            callbacks: Callbacks {
                on_load: function(settings, "onLoad")?,
                on_error: function(settings, "onError")?,
                on_view_change: function(settings, "onViewChange")?,
            },
        })
    }
}

/// The longest series name `setSeriesVisible` reads, in UTF-16 units:
/// checked before the text is copied into the module.
pub const MAX_SERIES_NAME: u32 = 65_536;

/// `setSeriesVisible`'s arguments: a series name and a boolean.
pub fn series_toggle(name: &JsValue, visible: &JsValue) -> Result<(String, bool), EngineError> {
    let wrong = |problem: String| EngineError::Argument { problem };
    let name = match name.dyn_ref::<js_sys::JsString>() {
        Some(text) if text.length() <= MAX_SERIES_NAME => String::from(text),
        Some(text) => {
            return Err(wrong(format!(
                "argument \"name\" must be at most {MAX_SERIES_NAME} characters long, found {}",
                text.length()
            )))
        }
        None => {
            return Err(wrong(format!(
                "argument \"name\" must be a string, found {}",
                describe(name)
            )))
        }
    };
    let visible = visible.as_bool().ok_or_else(|| {
        wrong(format!(
            "argument \"visible\" must be a boolean, found {}",
            describe(visible)
        ))
    })?;
    Ok((name, visible))
}

fn problem(problem: String) -> EngineError {
    EngineError::Settings { problem }
}

fn field(settings: &JsValue, key: &str) -> Result<JsValue, EngineError> {
    js_sys::Reflect::get(settings, &key.into()).map_err(|thrown| {
        problem(format!(
            "\"{key}\" could not be read: {}",
            describe_thrown(&thrown)
        ))
    })
}

/// An optional string of at most `max` UTF-16 units, checked before it is copied.
fn text(settings: &JsValue, key: &str, default: &str, max: u32) -> Result<String, EngineError> {
    let value = field(settings, key)?;
    if value.is_undefined() || value.is_null() {
        return Ok(default.to_owned());
    }
    match value.dyn_ref::<js_sys::JsString>() {
        Some(string) if string.length() <= max => Ok(String::from(string)),
        _ => Err(problem(format!(
            "\"{key}\" must be a string of at most {max} characters, found {}",
            describe(&value)
        ))),
    }
}

fn function(settings: &JsValue, key: &str) -> Result<Option<js_sys::Function>, EngineError> {
    let value = field(settings, key)?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .dyn_into::<js_sys::Function>()
        .map(Some)
        .map_err(|value| {
            problem(format!(
                "\"{key}\" must be a function, found {}",
                describe(&value)
            ))
        })
}

/// The most kinds `loadKinds` reads: there are 19.
const MAX_KINDS: u32 = 64;

/// `loadKinds`'s argument: an array of `viz_component_type` names, each
/// read as the group whose code draws it; `null` or `undefined`: every group.
pub fn kind_groups(kinds: &JsValue) -> Result<Vec<zdr_chart::model::KindGroup>, EngineError> {
    use zdr_chart::model::{CardKind, KindGroup};
    if kinds.is_null() || kinds.is_undefined() {
        return Ok(KindGroup::ALL.to_vec());
    }
    let refuse = |problem: String| EngineError::Argument { problem };
    let Some(array) = kinds.dyn_ref::<js_sys::Array>() else {
        return Err(refuse(format!(
            "kinds must be an array of card types (\"timeseries\", \"bar\", ...), found {}",
            describe(kinds)
        )));
    };
    if array.length() > MAX_KINDS {
        return Err(refuse(format!(
            "kinds has {} entries; at most {MAX_KINDS} are read",
            array.length()
        )));
    }
    let mut groups = Vec::new();
    for (index, kind) in array.iter().enumerate() {
        let name = kind.as_string().unwrap_or_default();
        let Some(kind) = CardKind::from_name(&name) else {
            return Err(refuse(format!(
                "kinds[{index}] must be a card type ({}), found {}",
                CardKind::list(),
                describe(&kind)
            )));
        };
        if !groups.contains(&kind.group()) {
            groups.push(kind.group());
        }
    }
    Ok(groups)
}
