//! `render(options)`: reading and validating every option before anything is created.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element};

use crate::address::{embed_address, has_byte, CardSegment, ServiceUrl};
use crate::browser_url;
use crate::css_size::{css_length, SizeInput};
use crate::error::{EmbedError, Fail};
use crate::js_value::{
    describe, is_plain_object, member, optional_function, required_string, wrong_type,
};
use crate::payload::Payload;
use zdr_protocol::layout::AUTO_HEIGHT;
use zdr_protocol::text::{concat, decimal};

/// Defaults of the optional options, as in the service's widget (spec 4.16).
pub const DEFAULT_WIDTH: &str = "100%";
pub const DEFAULT_HEIGHT: &str = "600px";

/// How long `mode: "auto"` waits for the service's page before drawing locally.
pub const DEFAULT_TIMEOUT_MS: u32 = 5000;
/// Longer waits are a typo, not a choice: ten minutes of blank frame helps nobody.
const MAX_TIMEOUT_MS: u32 = 600_000;

/// How the card reaches the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The spec's form post into an iframe (the default).
    Service,
    /// Drawn in the page on a canvas; no network request of any kind.
    Local,
    /// Service first; drawn locally when the service does not answer.
    Auto,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Service => "service",
            Mode::Local => "local",
            Mode::Auto => "auto",
        }
    }
}

/// How the data reaches the service's page (service and auto modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbedMode {
    /// The spec's hidden form post (the default).
    Form,
    /// A shell page, then the data by `postMessage`.
    PostMessage,
}

/// Where the service is, for the modes that post to it.
pub struct Service {
    pub card_id: String,
    pub address: String,
    /// Set with `embedMode: "postmessage"`.
    pub shell: Option<ShellAddress>,
}

/// The postMessage shell of a card, and whom its messages must come from.
pub struct ShellAddress {
    /// The embed address with `embed_mode=postmessage` and this page's origin.
    pub url: String,
    /// The service's origin as the browser serialises it (`MessageEvent.origin`).
    pub origin: String,
}

/// Everything `render` needs, read once and validated: the embed keeps it
/// for its whole life (a fallback builds its canvas from it; `update`
/// replaces only `payload`). Holding one means nothing can be refused any more.
pub struct EmbedOptions {
    pub container: Element,
    pub mode: Mode,
    /// `None` only in local mode, where the service options are optional.
    pub service: Option<Service>,
    pub width: String,
    /// A CSS length, or [`AUTO_HEIGHT`] (local mode and postmessage only).
    pub height: String,
    pub payload: Payload,
    /// The card's accessible name when its data has no title.
    pub name: String,
    pub dark_mode: Option<bool>,
    pub timeout_ms: u32,
    pub callbacks: Callbacks,
    /// For a card drawn in the page: told of each zoom (`onViewChange`).
    pub on_view_change: Option<js_sys::Function>,
    /// For a card drawn in the page: cards of one group share their crosshair.
    pub sync_group: Option<String>,
    /// For a card drawn in the page: a menu of downloads.
    pub menu: bool,
    /// For a card drawn in the page: its group's zoom too.
    pub sync_zoom: bool,
}

impl EmbedOptions {
    /// What the frame or canvas is named: the data's title, else [`Self::name`].
    pub fn title(&self) -> &str {
        self.payload.title.as_deref().unwrap_or(&self.name)
    }
}

/// What the page asked to be called back with.
#[derive(Clone, Default)]
pub struct Callbacks {
    pub on_load: Option<js_sys::Function>,
    pub on_error: Option<js_sys::Function>,
}

impl EmbedOptions {
    pub fn read(options: &JsValue, document: &Document) -> Result<Self, Fail> {
        if !is_plain_object(options) {
            return Err(EmbedError::OptionsNotObject {
                found: describe(options),
            }
            .into());
        }
        // The mode decides which options are required, so it is read first;
        // the rest in the order a developer writes them, so the first error is
        // the first mistake.
        let mode = mode(options)?;
        let embed_mode = embed_mode(options)?;
        let container = container(options)?;
        let dark_mode = optional_bool(options, "darkMode")?;
        let menu = optional_bool(options, "menu")?.unwrap_or(false);
        let sync_zoom = optional_bool(options, "syncZoom")?.unwrap_or(false);
        let auto_height = is_auto_height(options)?;
        let service = match mode {
            Mode::Local => optional_service(options, dark_mode)?,
            Mode::Service | Mode::Auto => {
                let shell = match embed_mode {
                    EmbedMode::Form => None,
                    EmbedMode::PostMessage => Some(auto_height),
                };
                Some(required_service(options, dark_mode, shell)?)
            }
        };
        let data = member(options, "visualizationData", "visualizationData")?;
        let payload = Payload::from_js(&data, mode != Mode::Local)?;
        let width = size(options, "width", DEFAULT_WIDTH)?;
        let height = if auto_height {
            if mode != Mode::Local && embed_mode == EmbedMode::Form {
                return Err(invalid(
                    "height",
                    "is \"auto\", which needs embedMode \"postmessage\" or mode \"local\": a page posted by a form cannot tell the widget its height",
                ));
            }
            AUTO_HEIGHT.to_owned()
        } else {
            size(options, "height", DEFAULT_HEIGHT)?
        };
        let timeout_ms = timeout(options)?;
        let on_load = optional_function(options, "onLoad")?;
        let on_error = optional_function(options, "onError")?;
        let on_view_change = optional_function(options, "onViewChange")?;
        let sync_group = member(options, "syncGroup", "syncGroup")?;
        let sync_group = match sync_group.as_string() {
            Some(group) if group.len() <= 256 => Some(group),
            None if sync_group.is_undefined() || sync_group.is_null() => None,
            _ => {
                return Err(wrong_type(
                    "syncGroup",
                    "a string of at most 256 characters",
                    &sync_group,
                ))
            }
        };
        let container = match container {
            Ok(element) => element,
            Err(id) => find_container(document, &id)?,
        };
        let name = service
            .as_ref()
            .map_or_else(|| "Chart".to_owned(), |s| concat(&["Chart ", &s.card_id]));
        Ok(EmbedOptions {
            container,
            mode,
            service,
            width,
            height,
            payload,
            name,
            dark_mode,
            timeout_ms,
            callbacks: Callbacks { on_load, on_error },
            on_view_change,
            sync_group,
            menu,
            sync_zoom,
        })
    }
}

fn mode(options: &JsValue) -> Result<Mode, Fail> {
    let modes = [
        ("service", Mode::Service),
        ("local", Mode::Local),
        ("auto", Mode::Auto),
    ];
    one_of(
        options,
        "mode",
        &modes,
        "\"service\", \"local\" or \"auto\"",
    )
}

fn embed_mode(options: &JsValue) -> Result<EmbedMode, Fail> {
    let modes = [
        ("form", EmbedMode::Form),
        ("postmessage", EmbedMode::PostMessage),
    ];
    one_of(options, "embedMode", &modes, "\"form\" or \"postmessage\"")
}

/// An option that is one of a few words; absent means the first.
fn one_of<T: Copy>(
    options: &JsValue,
    key: &'static str,
    words: &[(&str, T)],
    expected: &'static str,
) -> Result<T, Fail> {
    let value = member(options, key, key)?;
    let word = value.as_string();
    let absent = value.is_undefined() || value.is_null();
    words
        .iter()
        .find(|(name, _)| absent || word.as_deref() == Some(name))
        .map(|(_, choice)| *choice)
        .ok_or_else(|| wrong_type(key, expected, &value))
}

/// `height: "auto"`; every other value is read by [`size`].
fn is_auto_height(options: &JsValue) -> Result<bool, Fail> {
    let value = member(options, "height", "height")?;
    Ok(value.as_string().as_deref() == Some(AUTO_HEIGHT))
}

/// `shell` is `Some(auto_height)` in postmessage mode.
fn required_service(
    options: &JsValue,
    dark_mode: Option<bool>,
    shell: Option<bool>,
) -> Result<Service, Fail> {
    let url_text = required_string(options, "serviceUrl")?;
    let card_id = required_string(options, "cardId")?;
    let service = service_url(&url_text)?;
    let card =
        CardSegment::parse(&card_id).map_err(|problem| invalid("cardId", problem.words()))?;
    let mut address = embed_address(&service, &card);
    // Only when asked: without the option the address stays exactly the spec's.
    if let Some(dark) = dark_mode {
        address.push_str(if dark {
            "?dark_mode=true"
        } else {
            "?dark_mode=false"
        });
    }
    let shell = match shell {
        Some(auto_height) => Some(shell_address(&address, auto_height)?),
        None => None,
    };
    Ok(Service {
        card_id,
        address,
        shell,
    })
}

/// The shell's address carries this page's origin, which the shell will
/// accept messages from and answer to; so the page needs a real origin.
fn shell_address(address: &str, auto_height: bool) -> Result<ShellAddress, Fail> {
    let page_origin = crate::page::window()
        .and_then(|window| {
            let location = window.location();
            location
                .unchecked_ref::<crate::js_value::WithOrigin>()
                .origin()
                .as_string()
        })
        .unwrap_or_default();
    if !(page_origin.starts_with("https://") || page_origin.starts_with("http://")) {
        return Err(invalid(
            "embedMode",
            concat(&[
                "is \"postmessage\", which needs a page served over http: or https: (this page's origin is ",
                &crate::js_value::quote(&page_origin),
                "); use embedMode \"form\"",
            ]),
        ));
    }
    let origin = browser_url::BrowserUrl::new(address)
        .map(|url| url.part("origin"))
        .ok_or_else(|| invalid("serviceUrl", "is not a URL the browser can read"))?;
    let separator = if has_byte(address, b'?') { "&" } else { "?" };
    let parent = String::from(js_sys::encode_uri_component(&page_origin));
    let height = if auto_height { "&height=auto" } else { "" };
    Ok(ShellAddress {
        url: concat(&[
            address,
            separator,
            "embed_mode=postmessage&parent_origin=",
            &parent,
            height,
        ]),
        origin,
    })
}

/// Every mode reads `serviceUrl` the same way: the string rules, then the browser's `URL`.
fn service_url(text: &str) -> Result<ServiceUrl, Fail> {
    browser_url::service_url(text).map_err(|problem| invalid("serviceUrl", problem.words()))
}

/// Local mode needs no service, but a given serviceUrl or cardId must still be valid.
fn optional_service(options: &JsValue, dark_mode: Option<bool>) -> Result<Option<Service>, Fail> {
    let given = |key| member(options, key, key).map(|v| !v.is_undefined() && !v.is_null());
    let (url_given, card_given) = (given("serviceUrl")?, given("cardId")?);
    if url_given {
        let url = required_string(options, "serviceUrl")?;
        service_url(&url)?;
    }
    if card_given {
        let card = required_string(options, "cardId")?;
        CardSegment::parse(&card).map_err(|problem| invalid("cardId", problem.words()))?;
    }
    if url_given && card_given {
        required_service(options, dark_mode, None).map(Some)
    } else {
        Ok(None)
    }
}

fn optional_bool(options: &JsValue, key: &'static str) -> Result<Option<bool>, Fail> {
    let value = member(options, key, key)?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_bool()
        .map(Some)
        .ok_or_else(|| wrong_type(key, "true or false", &value))
}

fn timeout(options: &JsValue) -> Result<u32, Fail> {
    let value = member(options, "timeoutMs", "timeoutMs")?;
    if value.is_undefined() || value.is_null() {
        return Ok(DEFAULT_TIMEOUT_MS);
    }
    let Some(ms) = value.as_f64() else {
        return Err(wrong_type("timeoutMs", "a number of milliseconds", &value));
    };
    if !(1.0..=f64::from(MAX_TIMEOUT_MS)).contains(&ms) {
        // The browser writes the number: Rust's float formatting would cost
        // the service module more than all its error messages together.
        let found = String::from(
            js_sys::Number::from(ms)
                .to_string_with_radix(10)
                .unwrap_or_default(),
        );
        return Err(invalid(
            "timeoutMs",
            concat(&[
                "must be between 1 and ",
                &decimal(MAX_TIMEOUT_MS),
                " milliseconds, found ",
                &found,
            ]),
        ));
    }
    // In range, so the conversion is exact after rounding.
    Ok(ms.round() as u32)
}

#[inline(never)]
fn invalid(name: &'static str, problem: impl Into<String>) -> Fail {
    EmbedError::InvalidOption {
        name,
        problem: problem.into(),
    }
    .into()
}

fn size(options: &JsValue, key: &'static str, default: &str) -> Result<String, Fail> {
    let value = member(options, key, key)?;
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
        return Err(wrong_type(key, "a number or a CSS length string", &value));
    };
    css_length(input).map_err(|problem| invalid(key, problem.words()))
}

/// The element the card goes in: `container` (this package's addition,
/// for elements no id reaches from the document: in a shadow root, or a
/// custom element's own), else the spec's `containerId`, found later.
fn container(options: &JsValue) -> Result<Result<Element, String>, Fail> {
    let element = member(options, "container", "container")?;
    if element.is_undefined() || element.is_null() {
        return required_string(options, "containerId").map(Err);
    }
    if !member(options, "containerId", "containerId")?.is_undefined() {
        return Err(invalid(
            "containerId",
            "cannot be given with \"container\": give one of them",
        ));
    }
    element
        .dyn_into::<Element>()
        .map(Ok)
        .map_err(|value| wrong_type("container", "an element", &value))
}

fn find_container(document: &Document, id: &str) -> Result<Element, Fail> {
    if id.is_empty() {
        return Err(invalid("containerId", "must not be empty"));
    }
    document
        .get_element_by_id(id)
        .ok_or_else(|| EmbedError::ContainerNotFound { id: id.to_owned() }.into())
}
