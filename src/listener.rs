//! An event listener that unsubscribes when dropped. gloo-events does the
//! same with an options object (capture, once, passive) whose setters cost
//! the service module imports it never needs.

use wasm_bindgen::prelude::*;
use web_sys::{Event, EventTarget};

pub struct Listener {
    target: EventTarget,
    kind: &'static str,
    callback: Closure<dyn FnMut(Event)>,
}

impl Listener {
    pub fn new(
        target: &EventTarget,
        kind: &'static str,
        callback: impl FnMut(Event) + 'static,
    ) -> Listener {
        let callback = Closure::<dyn FnMut(Event)>::new(callback);
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
