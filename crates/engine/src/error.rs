//! How the engine refuses or fails. Messages carry no call name: the service
//! module, which knows what the page called, prefixes them once.

use wasm_bindgen::JsValue;
use zdr_chart::model::KindGroup;
use zdr_protocol::code::Code;

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

    /// A wrong argument of a drawing's method (`setView`).
    #[error("{problem}")]
    Argument { problem: String },

    #[error("this drawing was destroyed")]
    Destroyed,

    /// The card needs the code of its kind's group, which has not arrived
    /// yet (`crate::chunks`): whoever reads it loads the group and reads again.
    #[error("the code that draws {} cards has not arrived yet", .0.as_str())]
    Unloaded(KindGroup),

    /// A group's chunk could not be fetched or instantiated.
    #[error("could not fetch the engine's code for {} cards (the browser's console says why); a later draw of such a card tries again", .0.as_str())]
    ChunkFailed(KindGroup),

    /// A part of the engine's code (its interaction, the shell) could not
    /// be fetched or instantiated.
    #[error("could not fetch the engine's {0} code (the browser's console says why); it is tried again when next needed")]
    PartFailed(&'static str),

    /// A method that needs the drawn card, called while its code loads.
    #[error(
        "the card is not drawn yet: the code that draws it is still arriving (wait for onLoad)"
    )]
    NotDrawnYet,

    #[error("the engine has stopped after an internal error (see the console); reload the page to show charts again")]
    Stopped,
}

impl EngineError {
    /// Set as `error.code`; the service module reads it to word the error for the page.
    pub fn code(&self) -> Code {
        match self {
            EngineError::InvalidData { .. } => Code::InvalidData,
            EngineError::Draw { .. }
            | EngineError::Unloaded(_)
            | EngineError::ChunkFailed(_)
            | EngineError::PartFailed(_)
            | EngineError::NotDrawnYet => Code::DrawFailed,
            EngineError::NotSerialisable { .. } => Code::NotSerialisable,
            EngineError::Dom { .. } => Code::DomFailure,
            EngineError::Settings { .. } | EngineError::Argument { .. } => Code::InvalidArgument,
            EngineError::Destroyed => Code::Destroyed,
            EngineError::Stopped => Code::InstanceFailed,
        }
    }

    pub fn to_js_error(&self) -> js_sys::Error {
        self.code().error(&self.to_string())
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
