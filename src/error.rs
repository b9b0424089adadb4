//! Every way the widget can refuse or fail, with messages a developer can act on.
//!
//! Messages name the call and the option (`render: option "cardId" is required`),
//! because the person reading them is looking at their own `render({...})` call.

use std::fmt;

use wasm_bindgen::{JsCast, JsValue};

/// The public call an error belongs to; it prefixes every message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    Render,
    Update,
    ToPng,
    ToSvg,
    /// One entry of `renderMultiple`, counted from 0 like the array.
    RenderMultiple(usize),
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Call::Render => f.write_str("render"),
            Call::Update => f.write_str("update"),
            Call::ToPng => f.write_str("toPNG"),
            Call::ToSvg => f.write_str("toSVG"),
            Call::RenderMultiple(index) => write!(f, "renderMultiple: options[{index}]"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EmbedError {
    #[error("{call}: options must be an object, found {found}")]
    OptionsNotObject { call: Call, found: String },

    #[error("{call}: option \"{name}\" is required")]
    MissingOption { call: Call, name: String },

    #[error("{call}: option \"{name}\" must be {expected}, found {found}")]
    WrongType {
        call: Call,
        name: String,
        expected: &'static str,
        found: String,
    },

    #[error("{call}: option \"{name}\" {problem}")]
    InvalidOption {
        call: Call,
        name: String,
        problem: String,
    },

    #[error(
        "{call}: option \"containerId\" is \"{id}\", but the document has no element with that id"
    )]
    ContainerNotFound { call: Call, id: String },

    #[error("{call}: option \"visualizationData\" cannot be serialised to JSON: {reason}")]
    NotSerialisable { call: Call, reason: String },

    #[error("{call}: option \"visualizationData\" cannot be drawn: {reason}")]
    InvalidData { call: Call, reason: String },

    /// Not a failure of the page: `mode: "auto"` is drawing the card itself.
    #[error("the service did not show the card ({reason}); it is drawn in the page instead")]
    FallbackToLocal { reason: String },

    /// postMessage mode: the shell page never announced itself.
    #[error("the service's page did not say it was ready within {timeout_ms} ms (option \"timeoutMs\"); check that serviceUrl points to a zdr-embed host that serves the postMessage shell, and that the page may frame it (CSP frame-src, the host's frame-ancestors)")]
    ServiceNotReady { timeout_ms: u32 },

    /// postMessage mode: the shell read the data and refused it.
    #[error("the service could not show the card: {message}")]
    ServiceRejected { message: String },

    /// postMessage mode: the shell speaks another version of the protocol.
    #[error("the service's page speaks postMessage protocol version {found}, this widget speaks version {expected}; use embedMode \"form\" or a widget that matches the service")]
    ProtocolVersion { found: u32, expected: u32 },

    #[error("{call}: {what} needs a card drawn in the page (mode \"local\", or \"auto\" after a fallback); this one is shown by the service in an iframe")]
    NotDrawnLocally { call: Call, what: &'static str },

    #[error("{call}: could not draw the card: {reason}")]
    Draw { call: Call, reason: String },

    #[error("renderMultiple: expected an array of options objects, found {found}")]
    NotAnArray { found: String },

    #[error("{call}: this embed was destroyed; call render() to show the card again")]
    Destroyed { call: Call },

    /// A panic stopped the widget (see `failure`); nothing runs any more.
    #[error("{what}: the widget has stopped after an internal error (see the console); reload the page to show charts again")]
    InstanceFailed { what: &'static str },

    #[error("{call}: could not {action}: {reason}")]
    Dom {
        call: Call,
        action: &'static str,
        reason: String,
    },
}

impl EmbedError {
    /// A stable, machine-readable kind, set as `error.code` on the JS side.
    pub fn code(&self) -> &'static str {
        match self {
            EmbedError::OptionsNotObject { .. } | EmbedError::NotAnArray { .. } => {
                "invalid_argument"
            }
            EmbedError::MissingOption { .. } => "missing_option",
            EmbedError::WrongType { .. } | EmbedError::InvalidOption { .. } => "invalid_option",
            EmbedError::ContainerNotFound { .. } => "container_not_found",
            EmbedError::NotSerialisable { .. } => "not_serialisable",
            EmbedError::InvalidData { .. } => "invalid_data",
            EmbedError::Draw { .. } => "draw_failed",
            EmbedError::FallbackToLocal { .. } => "fallback_to_local",
            EmbedError::NotDrawnLocally { .. } => "not_drawn_locally",
            EmbedError::ServiceNotReady { .. } => "service_not_ready",
            EmbedError::ServiceRejected { .. } => "service_rejected",
            EmbedError::ProtocolVersion { .. } => "protocol_version",
            EmbedError::Destroyed { .. } => "destroyed",
            EmbedError::Dom { .. } => "dom_failure",
            EmbedError::InstanceFailed { .. } => "instance_failed",
        }
    }

    /// A real JS `Error` (so `instanceof Error` and stack traces work) with `code` set.
    pub fn to_js_error(&self) -> js_sys::Error {
        let error = js_sys::Error::new(&self.to_string());
        // Setting a data property on a fresh Error cannot fail; ignore the Ok(true).
        let _ = js_sys::Reflect::set(&error, &"code".into(), &self.code().into());
        if let EmbedError::FallbackToLocal { .. } = self {
            // A name of its own lets pages tell this notice from real failures.
            error.set_name("FallbackToLocal");
        }
        error
    }
}

impl From<EmbedError> for JsValue {
    fn from(error: EmbedError) -> JsValue {
        error.to_js_error().into()
    }
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
        None => crate::js_value::describe(thrown),
    }
}
