//! An event listener that unsubscribes when dropped. gloo-events does the
//! same with an options object (capture, once, passive) whose setters cost
//! the service module imports it never needs.
//!
//! The callback gets the event as a `JsValue`: every closure of the module
//! is a `dyn Fn(JsValue)` (`Fn`, so a callback may run again from inside
//! itself), and wasm-bindgen makes one invoke shim and one adapter in the
//! glue for all of them, not one per signature.

use wasm_bindgen::prelude::*;
use web_sys::EventTarget;

pub struct Listener {
    target: EventTarget,
    kind: &'static str,
    callback: Closure<dyn Fn(JsValue)>,
}

impl Listener {
    pub fn new(
        target: &EventTarget,
        kind: &'static str,
        callback: impl Fn(JsValue) + 'static,
    ) -> Listener {
        let callback = Closure::<dyn Fn(JsValue)>::new(callback);
        // Fails only for a callback that is not a function, which it is.
        let _ = target.add_event_listener_with_callback(kind, callback.as_ref().unchecked_ref());
        Listener {
            target: target.clone(),
            kind,
            callback,
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self
            .target
            .remove_event_listener_with_callback(self.kind, self.callback.as_ref().unchecked_ref());
    }
}
