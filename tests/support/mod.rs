//! What tests/web.rs and tests/local.rs share: the common helpers of
//! helpers.js, and small Reflect and waiting utilities.
// Each test crate uses its own part of this module.
#![allow(dead_code)]

use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::prelude::*;
use web_sys::Element;

#[wasm_bindgen(module = "/tests/support/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = freshContainer)]
    pub fn fresh_container(id: &str) -> Element;
    #[wasm_bindgen(js_name = sampleData)]
    pub fn sample_data(title: &str) -> JsValue;
    #[wasm_bindgen(js_name = baseOptions)]
    pub fn base_options(container_id: &str, extra: JsValue) -> JsValue;
    pub fn recorder() -> Recorder;
    #[wasm_bindgen(js_name = errorCode)]
    pub fn error_code(error: &JsValue) -> JsValue;

    /// A callback usable as onLoad or onError that records its calls.
    #[wasm_bindgen(extends = js_sys::Function)]
    pub type Recorder;
    #[wasm_bindgen(method)]
    pub fn count(this: &Recorder) -> u32;
    #[wasm_bindgen(method)]
    pub fn last(this: &Recorder) -> JsValue;
}

pub fn set(object: &JsValue, key: &str, value: impl Into<JsValue>) {
    js_sys::Reflect::set(object, &key.into(), &value.into()).unwrap_throw();
}

pub fn get(object: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(object, &key.into()).unwrap_throw()
}

/// The message of a thrown or reported `Error`; empty for anything else.
pub fn message_of(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_default()
}

/// Polls `condition` every 25 ms for up to 5 s.
pub async fn wait_until(mut condition: impl FnMut() -> bool, what: &str) {
    for _ in 0..200 {
        if condition() {
            return;
        }
        TimeoutFuture::new(25).await;
    }
    panic!("timed out waiting until {what}");
}

/// Waits until `element`'s accessible name starts with `prefix`: a card's
/// summary follows its first frame, with the hidden table.
pub async fn named(element: &Element, prefix: &str) {
    wait_until(
        || {
            element
                .get_attribute("aria-label")
                .is_some_and(|label| label.starts_with(prefix))
        },
        prefix,
    )
    .await;
}

#[wasm_bindgen(module = "/tests/support/engine.js")]
extern "C" {
    /// A loader the test settles by hand (`arrive`, `fail`).
    #[wasm_bindgen(js_name = controlledLoader)]
    pub fn controlled_loader(mount_local: &JsValue) -> ControlledLoader;
    #[wasm_bindgen(js_name = readyLoader)]
    fn ready_loader(mount_local: &JsValue) -> js_sys::Function;

    pub type ControlledLoader;
    #[wasm_bindgen(method, getter)]
    pub fn loader(this: &ControlledLoader) -> js_sys::Function;
    #[wasm_bindgen(method, getter)]
    pub fn calls(this: &ControlledLoader) -> u32;
    #[wasm_bindgen(method)]
    pub fn arrive(this: &ControlledLoader);
    #[wasm_bindgen(method)]
    pub fn fail(this: &ControlledLoader, message: &str);
}

/// The real engine's `mountLocal` (linked into this test module) as a JS
/// function, as the engine's namespace carries it.
pub fn engine_mount_local() -> JsValue {
    let mount = Closure::<dyn Fn(Element, JsValue) -> Result<JsValue, JsValue>>::new(
        |container: Element, settings: JsValue| {
            zdr_engine::mount_local(container, settings).map(JsValue::from)
        },
    );
    // Lives as long as the test page, as a loaded module would.
    mount.into_js_value()
}

/// Registers a loader that gives the real engine at once, and waits for it.
pub async fn engine_ready() {
    zdr_embed::set_engine_loader(ready_loader(&engine_mount_local()));
    wasm_bindgen_futures::JsFuture::from(zdr_embed::preload())
        .await
        .unwrap_throw();
}
