//! Every way the widget can refuse or fail, with messages a developer can act on.
//!
//! Errors are built without the call they belong to; the exported function
//! prefixes its name once where it returns (`render: option "cardId" is
//! required`), because the person reading them is looking at their own
//! `render({...})` call. Errors that reach `onError` later, from no call of
//! the page's, carry no prefix.

use std::fmt;

use zdr_protocol::code::Code;
use zdr_protocol::text::{concat, decimal};

use wasm_bindgen::JsValue;

/// What fallible functions return: the error boxed, so that passing it up
/// through `?` moves one pointer, not the whole enum.
pub type Fail = Box<EmbedError>;

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
    ToCsv,
    SetSeriesVisible,
    SetView,
    Preload,
}

impl Call {
    /// The prefix of its errors' messages, built without `core::fmt` (see
    /// [`zdr_protocol::text::concat`]).
    pub fn name(self) -> String {
        match self {
            Call::RenderMultiple(Some(index)) => {
                let index = u32::try_from(index).unwrap_or(u32::MAX);
                concat(&["renderMultiple: options[", &decimal(index), "]"])
            }
            call => call.word().into(),
        }
    }

    fn word(self) -> &'static str {
        match self {
            Call::Render => "render",
            Call::RenderMultiple(_) => "renderMultiple",
            Call::Update => "update",
            Call::Destroy => "destroy",
            Call::ToPng => "toPNG",
            Call::ToSvg => "toSVG",
            Call::ToCsv => "toCSV",
            Call::SetSeriesVisible => "setSeriesVisible",
            Call::SetView => "setView",
            Call::Preload => "preload",
        }
    }

    /// A method only a card drawn in the page has, as its messages write
    /// it ("toSVG()"); empty for the calls that are not such a method.
    pub fn method(self) -> &'static str {
        match self {
            Call::ToPng => "toPNG()",
            Call::ToSvg => "toSVG()",
            Call::ToCsv => "toCSV()",
            Call::SetSeriesVisible => "setSeriesVisible()",
            Call::SetView => "setView()",
            _ => "",
        }
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Messages are written by [`EmbedError::message`], from pieces, rather than
/// by `thiserror`'s `format!`: the formatting machinery would cost the
/// service module (size budget: 40 KB gzip) more than all its messages.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", self.message())]
pub enum EmbedError {
    OptionsNotObject {
        found: String,
    },

    MissingOption {
        name: &'static str,
    },

    WrongType {
        name: &'static str,
        expected: &'static str,
        found: String,
    },

    InvalidOption {
        name: &'static str,
        problem: String,
    },

    ContainerNotFound {
        id: String,
    },

    NotSerialisable {
        reason: String,
    },

    InvalidData {
        reason: String,
    },

    /// Not a failure of the page: `mode: "auto"` is drawing the card itself.
    FallbackToLocal {
        reason: String,
    },

    /// postMessage mode: the shell page never announced itself.
    ServiceNotReady {
        timeout_ms: u32,
    },

    /// postMessage mode: the shell read the data and refused it.
    ServiceRejected {
        message: String,
    },

    /// postMessage mode: the shell speaks another version of the protocol.
    ProtocolVersion {
        found: u32,
        expected: u32,
    },

    NotDrawnLocally {
        what: &'static str,
    },

    /// Local mode before the engine module has arrived.
    NotDrawnYet,

    /// The chart engine module could not be fetched or started.
    EngineUnavailable {
        reason: String,
    },

    Draw {
        reason: String,
    },

    NotAnArray {
        found: String,
    },

    /// An argument the engine refused (`setView`, `setSeriesVisible`), in its words.
    Refused {
        reason: String,
    },

    Destroyed,

    /// A panic stopped the widget (see `zdr_protocol::failure`); nothing runs any more.
    InstanceFailed,

    Dom {
        action: &'static str,
        reason: String,
    },
}

impl EmbedError {
    /// What went wrong and what to do, without the call's name.
    pub fn message(&self) -> String {
        match self {
            EmbedError::OptionsNotObject { found } => {
                concat(&["options must be an object, found ", found])
            }
            EmbedError::MissingOption { name } => concat(&["option \"", name, "\" is required"]),
            EmbedError::WrongType {
                name,
                expected,
                found,
            } => concat(&["option \"", name, "\" must be ", expected, ", found ", found]),
            EmbedError::InvalidOption { name, problem } => {
                concat(&["option \"", name, "\" ", problem])
            }
            EmbedError::ContainerNotFound { id } => concat(&[
                "option \"containerId\" is \"",
                id,
                "\", but the document has no element with that id",
            ]),
            EmbedError::NotSerialisable { reason } => concat(&[
                "option \"visualizationData\" cannot be serialised to JSON: ",
                reason,
            ]),
            EmbedError::InvalidData { reason } => {
                concat(&["option \"visualizationData\" cannot be drawn: ", reason])
            }
            EmbedError::FallbackToLocal { reason } => concat(&[
                "the service did not show the card (",
                reason,
                "); it is drawn in the page instead",
            ]),
            EmbedError::ServiceNotReady { timeout_ms } => concat(&[
                "the service's page did not say it was ready within ",
                &decimal(*timeout_ms),
                " ms (option \"timeoutMs\"); check that serviceUrl points to a zdr-embed host that serves the postMessage shell, and that the page may frame it (CSP frame-src, the host's frame-ancestors)",
            ]),
            EmbedError::ServiceRejected { message } => {
                concat(&["the service could not show the card: ", message])
            }
            EmbedError::ProtocolVersion { found, expected } => concat(&[
                "the service's page speaks postMessage protocol version ",
                &decimal(*found),
                ", this widget speaks version ",
                &decimal(*expected),
                "; use embedMode \"form\" or a widget that matches the service",
            ]),
            EmbedError::NotDrawnLocally { what } => concat(&[
                what,
                " needs a card drawn in the page (mode \"local\", or \"auto\" after a fallback); this one is shown by the service in an iframe",
            ]),
            EmbedError::NotDrawnYet => "the card is not drawn yet: the chart engine is still loading (wait for onLoad, or await preload() before render)".into(),
            EmbedError::EngineUnavailable { reason } => {
                concat(&["could not load the chart engine: ", reason])
            }
            EmbedError::Draw { reason } => concat(&["could not draw the card: ", reason]),
            EmbedError::NotAnArray { found } => {
                concat(&["expected an array of options objects, found ", found])
            }
            EmbedError::Refused { reason } => reason.clone(),
            EmbedError::Destroyed => {
                "this embed was destroyed; call render() to show the card again".into()
            }
            EmbedError::InstanceFailed => "the widget has stopped after an internal error (see the console); reload the page to show charts again".into(),
            EmbedError::Dom { action, reason } => concat(&["could not ", action, ": ", reason]),
        }
    }

    /// A stable, machine-readable kind, set as `error.code` on the JS side.
    pub fn code(&self) -> Code {
        match self {
            EmbedError::OptionsNotObject { .. }
            | EmbedError::NotAnArray { .. }
            | EmbedError::Refused { .. } => Code::InvalidArgument,
            EmbedError::MissingOption { .. } => Code::MissingOption,
            EmbedError::WrongType { .. } | EmbedError::InvalidOption { .. } => Code::InvalidOption,
            EmbedError::ContainerNotFound { .. } => Code::ContainerNotFound,
            EmbedError::NotSerialisable { .. } => Code::NotSerialisable,
            EmbedError::InvalidData { .. } => Code::InvalidData,
            EmbedError::Draw { .. } => Code::DrawFailed,
            EmbedError::FallbackToLocal { .. } => Code::FallbackToLocal,
            EmbedError::NotDrawnLocally { .. } => Code::NotDrawnLocally,
            EmbedError::NotDrawnYet => Code::NotDrawnYet,
            EmbedError::EngineUnavailable { .. } => Code::EngineUnavailable,
            EmbedError::ServiceNotReady { .. } => Code::ServiceNotReady,
            EmbedError::ServiceRejected { .. } => Code::ServiceRejected,
            EmbedError::ProtocolVersion { .. } => Code::ProtocolVersion,
            EmbedError::Destroyed => Code::Destroyed,
            EmbedError::Dom { .. } => Code::DomFailure,
            EmbedError::InstanceFailed => Code::InstanceFailed,
        }
    }

    /// A real JS `Error` (so `instanceof Error` and stack traces work) with
    /// `code` set; prefixed with the call's name when it belongs to one.
    pub fn to_js_error(&self, call: Option<Call>) -> js_sys::Error {
        let message = match call {
            Some(call) => concat(&[&call.name(), ": ", &self.message()]),
            None => self.message(),
        };
        let error = self.code().error(&message);
        if let EmbedError::FallbackToLocal { .. } = self {
            // A name of its own lets pages tell this notice from real failures.
            let _ = js_sys::Reflect::set(&error, &"name".into(), &"FallbackToLocal".into());
        }
        error
    }

    /// A browser call that threw while the widget was doing `action`.
    #[inline(never)]
    pub fn dom(action: &'static str, thrown: &JsValue) -> Fail {
        EmbedError::Dom {
            action,
            reason: describe_thrown(thrown),
        }
        .into()
    }

    /// What an exported function throws or rejects with.
    pub fn thrown(&self, call: Call) -> JsValue {
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
        match (code.as_deref().and_then(Code::parse), message) {
            (Some(Code::InvalidData), Some(reason)) => EmbedError::InvalidData { reason },
            (Some(Code::NotSerialisable), Some(reason)) => EmbedError::NotSerialisable { reason },
            (Some(Code::InstanceFailed), _) => EmbedError::InstanceFailed,
            (Some(Code::Destroyed), _) => EmbedError::Destroyed,
            (Some(Code::InvalidArgument), Some(reason)) => EmbedError::Refused { reason },
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

#[cfg(test)]
mod tests {
    use super::{Call, EmbedError};

    #[test]
    fn messages_put_numbers_and_names_where_they_belong() {
        assert_eq!(
            Call::RenderMultiple(Some(12)).name(),
            "renderMultiple: options[12]"
        );
        let version = EmbedError::ProtocolVersion {
            found: 20,
            expected: 1,
        }
        .message();
        assert!(
            version.starts_with(
                "the service's page speaks postMessage protocol version 20, this widget speaks version 1;"
            ),
            "{version}"
        );
        let wrong = EmbedError::WrongType {
            name: "cardId",
            expected: "a string",
            found: "a number".into(),
        };
        assert_eq!(
            wrong.to_string(),
            "option \"cardId\" must be a string, found a number"
        );
    }
}
