//! A `setTimeout` that is cancelled when dropped, as gloo-timers' `Timeout`,
//! with one closure type for every timer of the module: gloo's is generic
//! over the callback, so each of the three timers was its own copy of the
//! closure machinery, and its `unwrap_throw` brought its panic texts.

use std::cell::Cell;

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &JsValue, ms: u32) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
}

/// A pending timer; dropping it cancels the call.
#[must_use = "dropping a Timeout cancels it"]
pub struct Timeout {
    id: JsValue,
    /// `dyn Fn(JsValue)` as every closure of the module (see `Listener`).
    _callback: Closure<dyn Fn(JsValue)>,
}

impl Timeout {
    /// Calls `callback` once, after `ms` milliseconds.
    pub fn new(ms: u32, callback: Box<dyn FnOnce()>) -> Timeout {
        let callback = Cell::new(Some(callback));
        let callback = Closure::<dyn Fn(JsValue)>::new(move |_| {
            if let Some(callback) = callback.take() {
                callback();
            }
        });
        let id = set_timeout(callback.as_ref(), ms);
        Timeout {
            id,
            _callback: callback,
        }
    }
}

impl Drop for Timeout {
    fn drop(&mut self) {
        // A timer that has fired is cleared harmlessly.
        clear_timeout(&self.id);
    }
}
