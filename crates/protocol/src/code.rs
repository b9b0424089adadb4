//! The stable, machine-readable kinds of error both modules set as
//! `error.code`, in one place: the service module reads the engine's codes
//! back (`invalid_data` from the engine is `invalid_data` for the page), so
//! a code written twice could drift. The list is the widget's documented
//! one (docs/widget.md, "Errors").

use wasm_bindgen::JsValue;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    InvalidArgument,
    MissingOption,
    InvalidOption,
    ContainerNotFound,
    NotSerialisable,
    InvalidData,
    DrawFailed,
    FallbackToLocal,
    NotDrawnLocally,
    NotDrawnYet,
    EngineUnavailable,
    ServiceNotReady,
    ServiceRejected,
    ProtocolVersion,
    Destroyed,
    DomFailure,
    InstanceFailed,
}

const ALL: [(Code, &str); 17] = [
    (Code::InvalidArgument, "invalid_argument"),
    (Code::MissingOption, "missing_option"),
    (Code::InvalidOption, "invalid_option"),
    (Code::ContainerNotFound, "container_not_found"),
    (Code::NotSerialisable, "not_serialisable"),
    (Code::InvalidData, "invalid_data"),
    (Code::DrawFailed, "draw_failed"),
    (Code::FallbackToLocal, "fallback_to_local"),
    (Code::NotDrawnLocally, "not_drawn_locally"),
    (Code::NotDrawnYet, "not_drawn_yet"),
    (Code::EngineUnavailable, "engine_unavailable"),
    (Code::ServiceNotReady, "service_not_ready"),
    (Code::ServiceRejected, "service_rejected"),
    (Code::ProtocolVersion, "protocol_version"),
    (Code::Destroyed, "destroyed"),
    (Code::DomFailure, "dom_failure"),
    (Code::InstanceFailed, "instance_failed"),
];

impl Code {
    pub fn as_str(self) -> &'static str {
        ALL.iter()
            .find(|(code, _)| *code == self)
            .map_or("draw_failed", |(_, text)| text)
    }

    /// The code an error thrown by the other module carries, if it is one.
    pub fn parse(text: &str) -> Option<Code> {
        ALL.iter()
            .find(|(_, known)| *known == text)
            .map(|(code, _)| *code)
    }

    /// A real JS `Error` (so `instanceof Error` and stack traces work) with
    /// this code set.
    pub fn error(self, message: &str) -> js_sys::Error {
        let error = js_sys::Error::new(message);
        // Setting a data property on a fresh Error cannot fail; ignore the Ok(true).
        let _ = js_sys::Reflect::set(&error, &"code".into(), &self.as_str().into());
        error
    }
}

/// Calls the page's `onLoad` with the element the card is shown in; a
/// throwing callback is logged, never passed on (it is the page's bug, not
/// the card's).
pub fn announce(on_load: Option<&js_sys::Function>, element: &JsValue) {
    if let Some(on_load) = on_load {
        if let Err(thrown) = on_load.call1(&JsValue::NULL, element) {
            web_sys::console::error_2(&"zdr-embed: onLoad threw".into(), &thrown);
        }
    }
}

/// Hands an error to the page's `onError`, or logs it when there is none
/// (spec 4.16); a throwing callback is logged with the error.
pub fn report(on_error: Option<&js_sys::Function>, error: &JsValue) {
    match on_error {
        Some(callback) => {
            if let Err(thrown) = callback.call1(&JsValue::NULL, error) {
                web_sys::console::error_3(&"zdr-embed: onError threw".into(), &thrown, error);
            }
        }
        None => web_sys::console::error_1(error),
    }
}

#[cfg(test)]
mod tests {
    use super::{Code, ALL};

    #[test]
    fn every_code_reads_back_as_itself_and_no_text_twice() {
        for (code, text) in ALL {
            assert_eq!(code.as_str(), text);
            assert_eq!(Code::parse(text), Some(code));
        }
        let mut texts: Vec<&str> = ALL.iter().map(|(_, t)| *t).collect();
        texts.sort_unstable();
        texts.dedup();
        assert_eq!(texts.len(), ALL.len());
        assert_eq!(Code::parse("draw_failed "), None);
    }
}
