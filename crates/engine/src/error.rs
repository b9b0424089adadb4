//! How the engine refuses or fails. Messages carry no call name: the service
//! module, which knows what the page called, prefixes them once.

use wasm_bindgen::JsValue;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EngineError {
    /// The engine could not read the card's data; the reason starts with its JSON path.
    #[error("{reason}")]
    InvalidData { reason: String },

    #[error("{reason}")]
    Draw { reason: String },

    /// The page's data object has no JSON form (a cycle, a BigInt, a throwing getter).
    #[error("{reason}")]
    NotSerialisable { reason: String },

    #[error("could not {action}: {reason}")]
    Dom {
        action: &'static str,
        reason: String,
    },

    #[error("settings: {problem}")]
    Settings { problem: String },

    #[error("this drawing was destroyed")]
    Destroyed,

    #[error("the engine has stopped after an internal error (see the console); reload the page to show charts again")]
    Stopped,
}

impl EngineError {
    /// Set as `error.code`; the service module reads it to word the error for the page.
    pub fn code(&self) -> &'static str {
        match self {
            EngineError::InvalidData { .. } => "invalid_data",
            EngineError::Draw { .. } => "draw_failed",
            EngineError::NotSerialisable { .. } => "not_serialisable",
            EngineError::Dom { .. } => "dom_failure",
            EngineError::Settings { .. } => "invalid_argument",
            EngineError::Destroyed => "destroyed",
            EngineError::Stopped => "instance_failed",
        }
    }

    pub fn to_js_error(&self) -> js_sys::Error {
        let error = js_sys::Error::new(&self.to_string());
        // Setting a data property on a fresh Error cannot fail; ignore the Ok(true).
        let _ = js_sys::Reflect::set(&error, &"code".into(), &self.code().into());
        error
    }

    pub fn dom(action: &'static str) -> impl Fn(JsValue) -> EngineError {
        move |thrown| EngineError::Dom {
            action,
            reason: zdr_protocol::text::describe_thrown(&thrown),
        }
    }
}

impl From<EngineError> for JsValue {
    fn from(error: EngineError) -> JsValue {
        error.to_js_error().into()
    }
}

impl From<zdr_protocol::failure::Stopped> for EngineError {
    fn from(_: zdr_protocol::failure::Stopped) -> EngineError {
        EngineError::Stopped
    }
}
