//! Every way the widget can refuse or fail, with messages a developer can act on.
//!
//! Errors are built without the call they belong to; the exported function
//! prefixes its name once where it returns (`render: option "cardId" is
//! required`), because the person reading them is looking at their own
//! `render({...})` call. Errors that reach `onError` later, from no call of
//! the page's, carry no prefix.

use std::fmt;

use wasm_bindgen::JsValue;

/// The public call an error belongs to; it prefixes the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    Render,
    /// `renderMultiple`, or one entry of it counted from 0 like the array.
    RenderMultiple(Option<usize>),
    Update,
    Destroy,
    ToPng,
    ToSvg,
    Preload,
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Call::Render => f.write_str("render"),
            Call::RenderMultiple(None) => f.write_str("renderMultiple"),
            Call::RenderMultiple(Some(index)) => write!(f, "renderMultiple: options[{index}]"),
            Call::Update => f.write_str("update"),
            Call::Destroy => f.write_str("destroy"),
            Call::ToPng => f.write_str("toPNG"),
            Call::ToSvg => f.write_str("toSVG"),
            Call::Preload => f.write_str("preload"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EmbedError {
    #[error("options must be an object, found {found}")]
    OptionsNotObject { found: String },

    #[error("option \"{name}\" is required")]
    MissingOption { name: &'static str },

    #[error("option \"{name}\" must be {expected}, found {found}")]
    WrongType {
        name: &'static str,
        expected: &'static str,
        found: String,
    },

    #[error("option \"{name}\" {problem}")]
    InvalidOption { name: &'static str, problem: String },

    #[error("option \"containerId\" is \"{id}\", but the document has no element with that id")]
    ContainerNotFound { id: String },

    #[error("option \"visualizationData\" cannot be serialised to JSON: {reason}")]
    NotSerialisable { reason: String },

    #[error("option \"visualizationData\" cannot be drawn: {reason}")]
    InvalidData { reason: String },

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

    #[error("{what} needs a card drawn in the page (mode \"local\", or \"auto\" after a fallback); this one is shown by the service in an iframe")]
    NotDrawnLocally { what: &'static str },

    /// Local mode before the engine module has arrived.
    #[error("the card is not drawn yet: the chart engine is still loading (wait for onLoad, or await preload() before render)")]
    NotDrawnYet,

    /// The chart engine module could not be fetched or started.
    #[error("could not load the chart engine: {reason}")]
    EngineUnavailable { reason: String },

    #[error("could not draw the card: {reason}")]
    Draw { reason: String },

    #[error("expected an array of options objects, found {found}")]
    NotAnArray { found: String },

    #[error("this embed was destroyed; call render() to show the card again")]
    Destroyed,

    /// A panic stopped the widget (see `zdr_protocol::failure`); nothing runs any more.
    #[error("the widget has stopped after an internal error (see the console); reload the page to show charts again")]
    InstanceFailed,

    #[error("could not {action}: {reason}")]
    Dom {
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
            EmbedError::NotDrawnYet => "not_drawn_yet",
            EmbedError::EngineUnavailable { .. } => "engine_unavailable",
            EmbedError::ServiceNotReady { .. } => "service_not_ready",
            EmbedError::ServiceRejected { .. } => "service_rejected",
            EmbedError::ProtocolVersion { .. } => "protocol_version",
            EmbedError::Destroyed => "destroyed",
            EmbedError::Dom { .. } => "dom_failure",
            EmbedError::InstanceFailed => "instance_failed",
        }
    }

    /// A real JS `Error` (so `instanceof Error` and stack traces work) with
    /// `code` set; prefixed with the call's name when it belongs to one.
    pub fn to_js_error(&self, call: Option<Call>) -> js_sys::Error {
        let message = match call {
            Some(call) => format!("{call}: {self}"),
            None => self.to_string(),
        };
        let error = js_sys::Error::new(&message);
        // Setting a data property on a fresh Error cannot fail; ignore the Ok(true).
        let _ = js_sys::Reflect::set(&error, &"code".into(), &self.code().into());
        if let EmbedError::FallbackToLocal { .. } = self {
            // A name of its own lets pages tell this notice from real failures.
            let _ = js_sys::Reflect::set(&error, &"name".into(), &"FallbackToLocal".into());
        }
        error
    }

    /// What an exported function throws or rejects with.
    pub fn thrown(self, call: Call) -> JsValue {
        self.to_js_error(Some(call)).into()
    }

    /// What the engine module threw, in the widget's words: its data errors
    /// become `invalid_data` naming the option; anything else a failed draw.
    pub fn from_engine(thrown: &JsValue) -> EmbedError {
        let code = js_sys::Reflect::get(thrown, &"code".into())
            .ok()
            .and_then(|code| code.as_string());
        let message = js_sys::Reflect::get(thrown, &"message".into())
            .ok()
            .and_then(|message| message.as_string());
        match (code.as_deref(), message) {
            (Some("invalid_data"), Some(reason)) => EmbedError::InvalidData { reason },
            (Some("instance_failed"), _) => EmbedError::InstanceFailed,
            (Some("destroyed"), _) => EmbedError::Destroyed,
            (_, Some(reason)) if code.is_some() => EmbedError::Draw { reason },
            _ => EmbedError::Draw {
                reason: describe_thrown(thrown),
            },
        }
    }
}

impl From<zdr_protocol::failure::Stopped> for EmbedError {
    fn from(_: zdr_protocol::failure::Stopped) -> EmbedError {
        EmbedError::InstanceFailed
    }
}

pub use zdr_protocol::text::describe_thrown;
