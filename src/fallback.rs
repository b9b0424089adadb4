//! `mode: "auto"`: watching the service frame and deciding whether to draw locally.
//!
//! A frame's `load` event cannot tell the service's page from the browser's
//! own "site can't be reached" page (both fire `load`, both are cross-origin),
//! so reachability is asked separately: one `HEAD` request to the embed
//! address, without the data, credentials or referrer, in `no-cors` mode. Any
//! HTTP answer (even 404 or 500) means the service is there; a network error
//! (refused connection, DNS or TLS failure, blocked by the page's CSP
//! `connect-src`) means it is not. The card counts as shown by the service
//! once both the probe has answered and the frame has loaded; if that has
//! not happened within `timeoutMs`, or the probe fails, the card is drawn in
//! the page instead.
//!
//! With `embedMode: "postmessage"` there is no probe: the shell's `ready`
//! message, which only the service's page in this frame can send, is better
//! proof than any request, and the timeout alone decides a fallback.

use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use web_sys::{AbortController, RequestInit};

use crate::error::describe_thrown;
use crate::sink::{Event, Sink};
use crate::timer::Timeout;

/// What the watch has seen so far. The timer and the probe report to the
/// card's sink (`TimedOut`, `Answered`, `Unreachable`); the embed module
/// decides what each means.
pub struct Watch {
    _timer: Timeout,
    probe: Option<AbortController>,
    pub frame_loaded: bool,
    pub service_answered: bool,
}

impl Watch {
    /// Starts the timer, and the probe when `address` is given.
    pub fn start(address: Option<&str>, timeout_ms: u32, sink: Sink) -> Watch {
        let timer = Timeout::new(
            timeout_ms,
            Box::new(move || sink.send(Event::TimedOut(timeout_ms))),
        );
        let probe = address.and_then(|address| probe(address, sink));
        Watch {
            _timer: timer,
            probe,
            frame_loaded: false,
            service_answered: false,
        }
    }

    /// True once the service has shown the card.
    pub fn settled(&self) -> bool {
        self.frame_loaded && self.service_answered
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        // An abandoned probe must not report later; aborting a finished fetch does nothing.
        if let Some(probe) = &self.probe {
            probe.abort();
        }
    }
}

/// Sends the probe. Without `AbortController` or `fetch` (very old browsers)
/// there is no probe, and only the timeout can trigger a fallback.
fn probe(address: &str, sink: Sink) -> Option<AbortController> {
    let window = crate::page::window()?;
    let controller = AbortController::new().ok()?;
    // A plain object rather than RequestInit's setters: each setter is an
    // import (and an enum table in the glue) of the size-budgeted module.
    let init = js_sys::Object::new();
    let set = |key: &str, value: &JsValue| {
        // Own data properties of a fresh plain object: cannot fail.
        let _ = js_sys::Reflect::set(&init, &key.into(), value);
    };
    set("method", &"HEAD".into());
    set("mode", &"no-cors".into());
    set("credentials", &"omit".into());
    set("cache", &"no-store".into());
    set("referrerPolicy", &"no-referrer".into());
    set("signal", &controller.signal().into());
    let init: RequestInit = init.unchecked_into();
    let signal = controller.signal();
    let request = window.fetch_with_str_and_init(address, &init);
    crate::settled::when_settled(&request, move |outcome| {
        if signal.aborted() {
            return;
        }
        sink.send(match outcome {
            Ok(_) => Event::Answered,
            Err(thrown) => Event::Unreachable(reason(&thrown)),
        });
    });
    Some(controller)
}

fn reason(thrown: &wasm_bindgen::JsValue) -> String {
    // Browsers word it differently ("Failed to fetch", "NetworkError when
    // attempting to fetch resource."); say what it means, then what they said.
    let said = if thrown.is_instance_of::<js_sys::Error>() {
        describe_thrown(thrown)
    } else {
        "no answer".into()
    };
    zdr_protocol::text::concat(&["the service could not be reached (", &said, ")"])
}
