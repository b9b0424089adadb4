//! Waiting for a promise without an async runtime: `Promise.allSettled`
//! always fulfils, so one callback hears success and failure alike, and it
//! is freed when it has run. (wasm-bindgen-futures would add its task queue
//! to the service module for the two places that wait: the fallback's probe
//! and the engine's load.)

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A promise that always fulfils, with `[{ status, value | reason }]`.
    type Settled;
    #[wasm_bindgen(js_namespace = Promise, js_name = allSettled)]
    fn all_settled(values: &js_sys::Array) -> Settled;
    #[wasm_bindgen(method, js_name = then)]
    fn and_then(this: &Settled, done: &JsValue);
}

/// Calls `done` once with what `value` (a promise, a thenable or a plain
/// value) fulfils with, or with why it was rejected.
pub fn when_settled(value: &JsValue, done: impl FnOnce(Result<JsValue, JsValue>) + 'static) {
    settled_boxed(value, Box::new(done));
}

/// One body for every caller: generic, the closure machinery below was
/// copied into the module once per caller.
#[inline(never)]
fn settled_boxed(value: &JsValue, done: Box<dyn FnOnce(Result<JsValue, JsValue>)>) {
    let callback = once(Box::new(move |results: JsValue| {
        let entry = js_sys::Reflect::get(&results, &0.into()).unwrap_or_default();
        let field = |name: &str| js_sys::Reflect::get(&entry, &name.into()).unwrap_or_default();
        done(if field("status") == "fulfilled" {
            Ok(field("value"))
        } else {
            Err(field("reason"))
        });
    }));
    let values = js_sys::Array::new();
    values.push(value);
    all_settled(&values).and_then(&callback);
}

type Callback = Closure<dyn Fn(JsValue)>;

/// A JS function that calls `f` the first time it is called and then frees
/// itself (as `Closure::once_into_js`, whose closures are `FnMut`: a second
/// signature of closure, with its own shims, in a module whose every other
/// closure is a `dyn Fn(JsValue)`). Never called, it stays, as that one's does.
pub fn once(f: Box<dyn FnOnce(JsValue)>) -> JsValue {
    let keep: Rc<RefCell<Option<Callback>>> = Rc::default();
    let slot = keep.clone();
    let f = Cell::new(Some(f));
    let closure = Callback::new(move |value| {
        if let Some(f) = f.take() {
            f(value);
        }
        // Freed once it has run (wasm-bindgen defers it until it returns).
        if let Ok(mut slot) = slot.try_borrow_mut() {
            slot.take();
        }
    });
    let function = closure.as_ref().clone();
    if let Ok(mut keep) = keep.try_borrow_mut() {
        *keep = Some(closure);
    }
    function
}
