//! The widget's panic hook, in a real browser. A test file of its own: a
//! panic stops the widget for the rest of the page (its wasm instance), and
//! every test file is an instance of its own.
#![cfg(target_arch = "wasm32")]
// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use zdr_embed::{render, render_multiple};

mod support;
use support::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(module = "/tests/support/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = captureConsoleError)]
    fn capture_console_error() -> ConsoleCapture;

    type ConsoleCapture;
    #[wasm_bindgen(method, js_name = firstText)]
    fn first_text(this: &ConsoleCapture) -> String;
    #[wasm_bindgen(method)]
    fn restore(this: &ConsoleCapture);
}

fn code_of(thrown: Result<impl Sized, JsValue>) -> String {
    match thrown {
        Ok(_) => panic!("the call should have thrown"),
        Err(error) => error_code(&error).as_string().unwrap_or_default(),
    }
}

#[wasm_bindgen_test]
async fn after_a_panic_the_console_gets_one_fixed_line_and_every_call_throws() {
    fresh_container("before-panic");
    let local = base_options("before-panic", JsValue::UNDEFINED);
    set(&local, "mode", "local");
    let handle = render(local.clone()).unwrap_throw();

    // A real Rust panic in this wasm instance, with data in its message.
    let capture = capture_console_error();
    let boom = Closure::<dyn Fn()>::new(|| panic!("secret-payload-4711"));
    let trapped = boom
        .as_ref()
        .unchecked_ref::<js_sys::Function>()
        .call0(&JsValue::NULL);
    let first = capture.first_text();
    capture.restore();
    assert!(trapped.is_err(), "a panic traps");
    assert_eq!(
        first,
        "zdr-embed: internal error; the widget has stopped. Reload the page."
    );

    fresh_container("after-panic");
    let after = base_options("after-panic", JsValue::UNDEFINED);
    let thrown = render(after.clone());
    let message = match &thrown {
        Err(error) => message_of(error),
        Ok(_) => String::new(),
    };
    assert_eq!(code_of(thrown), "instance_failed");
    assert!(
        message.starts_with("render: the widget has stopped"),
        "{message}"
    );
    assert!(!message.contains("secret-payload"), "{message}");
    let list = js_sys::Array::of1(&after);
    assert_eq!(code_of(render_multiple(list.into())), "instance_failed");
    assert_eq!(
        code_of(handle.update(sample_data("Later"))),
        "instance_failed"
    );
    assert_eq!(code_of(handle.to_svg()), "instance_failed");
    assert_eq!(code_of(handle.destroy()), "instance_failed");
    let png = wasm_bindgen_futures::JsFuture::from(handle.to_png()).await;
    assert_eq!(code_of(png), "instance_failed");
    let shell = js_sys::Object::new();
    set(&shell, "parentOrigin", "https://app.example");
    set(&shell, "containerId", "after-panic");
    assert_eq!(
        code_of(zdr_engine::start_shell(shell.into())),
        "instance_failed"
    );
}
