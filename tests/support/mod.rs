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
