//! The engine module on its own in a real browser:
//! `wasm-pack test --headless --chrome crates/engine` (and `--firefox`).
//! How the service module loads and drives it is tested in the root crate
//! (tests/engine_loading.rs, tests/local.rs).
#![cfg(target_arch = "wasm32")]
// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlCanvasElement, HtmlElement};

use zdr_engine::{mount_local, LocalDrawing};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(module = "/tests/support.js")]
extern "C" {
    #[wasm_bindgen(js_name = freshContainer)]
    fn fresh_container(id: &str) -> Element;
    #[wasm_bindgen(js_name = cardJson)]
    fn card_json(title: &str, ys: Vec<JsValue>) -> String;
    fn recorder() -> Recorder;
    fn settings(data: &str, extra: JsValue) -> JsValue;
    #[wasm_bindgen(js_name = errorCode)]
    fn error_code(error: &JsValue) -> JsValue;
    fn checksum(canvas: &HtmlCanvasElement) -> f64;

    #[wasm_bindgen(extends = js_sys::Function)]
    type Recorder;
    #[wasm_bindgen(method)]
    fn count(this: &Recorder) -> u32;
    #[wasm_bindgen(method)]
    fn last(this: &Recorder) -> JsValue;
}

fn numbers(ys: &[f64]) -> Vec<JsValue> {
    ys.iter().map(|y| JsValue::from(*y)).collect()
}

fn with(pairs: &[(&str, JsValue)]) -> JsValue {
    let object = js_sys::Object::new();
    for (key, value) in pairs {
        js_sys::Reflect::set(&object, &(*key).into(), value).unwrap_throw();
    }
    object.into()
}

fn message_of(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_default()
}

async fn wait_until(mut condition: impl FnMut() -> bool, what: &str) {
    for _ in 0..200 {
        if condition() {
            return;
        }
        TimeoutFuture::new(25).await;
    }
    panic!("timed out waiting until {what}");
}

fn canvas_of(drawing: &LocalDrawing) -> HtmlCanvasElement {
    drawing.canvas().dyn_into().expect("a canvas")
}

#[wasm_bindgen_test]
async fn mount_local_draws_in_a_sized_wrapper_and_calls_on_load_with_the_canvas() {
    let container = fresh_container("mount");
    let loads = recorder();
    let json = card_json("Sales", numbers(&[1.0, 2.0, 3.0]));
    let extra = with(&[("onLoad", loads.clone().into()), ("width", "320px".into())]);
    let drawing = mount_local(container.clone(), settings(&json, extra)).unwrap_throw();
    wait_until(|| loads.count() == 1, "the first draw").await;
    let canvas = canvas_of(&drawing);
    assert_eq!(loads.last(), JsValue::from(canvas.clone()));
    assert!(canvas.width() > 0);
    let wrapper: HtmlElement = container
        .query_selector(".zdr-embed-local")
        .unwrap_throw()
        .expect("the wrapper")
        .dyn_into()
        .unwrap_throw();
    assert_eq!(
        wrapper.style().get_property_value("width").unwrap_throw(),
        "320px"
    );
    assert_eq!(
        wrapper.style().get_property_value("height").unwrap_throw(),
        "300px"
    );
    // The title names the canvas at once; its summary follows the frame.
    wait_until(
        || {
            canvas
                .get_attribute("aria-label")
                .is_some_and(|label| label.starts_with("Sales. "))
        },
        "the summary in the canvas's name",
    )
    .await;
    drawing.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
fn bad_data_and_bad_settings_throw_and_leave_nothing() {
    let container = fresh_container("refused");
    let bad = r#"{"viz_config":{"title":"Bad"},"data":[{"x":"a","y":1},{"x":"b","y":"two"}]}"#;
    let error = mount_local(container.clone(), settings(bad, JsValue::UNDEFINED))
        .err()
        .expect("bad data throws");
    assert_eq!(error_code(&error), "invalid_data");
    assert!(
        message_of(&error).starts_with("data[1].y"),
        "{}",
        message_of(&error)
    );

    let no_data = with(&[("height", "300px".into())]);
    let error = mount_local(container.clone(), no_data)
        .err()
        .expect("no data");
    assert_eq!(error_code(&error), "invalid_argument");
    let json = card_json("Fine", numbers(&[1.0]));
    let wrong_callback = settings(&json, with(&[("onLoad", "not a function".into())]));
    let error = mount_local(container.clone(), wrong_callback)
        .err()
        .unwrap();
    assert_eq!(error_code(&error), "invalid_argument");
    assert!(
        message_of(&error).contains("onLoad"),
        "{}",
        message_of(&error)
    );
    let long_width = settings(&json, with(&[("width", "9".repeat(300).into())]));
    let error = mount_local(container.clone(), long_width).err().unwrap();
    assert_eq!(error_code(&error), "invalid_argument");
    assert_eq!(container.child_element_count(), 0, "nothing created");
}

#[wasm_bindgen_test]
async fn update_redraws_and_refuses_bad_data_without_losing_the_card() {
    let container = fresh_container("update");
    let loads = recorder();
    let json = card_json("Sales", numbers(&[1.0, 2.0, 3.0]));
    let extra = with(&[("onLoad", loads.clone().into())]);
    let drawing = mount_local(container, settings(&json, extra)).unwrap_throw();
    wait_until(|| loads.count() == 1, "the first draw").await;
    let canvas = canvas_of(&drawing);
    let before = checksum(&canvas);
    let error = drawing
        .update("{\"viz_config\":{},\"data\":7}".into())
        .err()
        .unwrap();
    assert_eq!(error_code(&error), "invalid_data");
    drawing
        .update(card_json("Sales", numbers(&[9.0, 1.0, 4.0, 7.0])).into())
        .unwrap_throw();
    wait_until(|| loads.count() == 2, "the update's draw").await;
    assert_ne!(checksum(&canvas), before, "new data, new pixels");
    assert_eq!(canvas_of(&drawing), canvas, "the same canvas");
    drawing.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn exports_svg_and_png_of_the_drawn_card() {
    let container = fresh_container("export");
    let json = card_json("Exported", numbers(&[3.0, 1.0]));
    let drawing = mount_local(container, settings(&json, JsValue::UNDEFINED)).unwrap_throw();
    let svg = drawing.to_svg().unwrap_throw();
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
    assert!(svg.contains("Exported"));
    let blob = JsFuture::from(drawing.to_png()).await.unwrap_throw();
    let kind = js_sys::Reflect::get(&blob, &"type".into()).unwrap_throw();
    assert_eq!(kind, "image/png");
    drawing.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn destroy_removes_everything_stops_drawing_and_later_calls_say_destroyed() {
    let container = fresh_container("destroy");
    let loads = recorder();
    let json = card_json("Gone", numbers(&[1.0]));
    let extra = with(&[("onLoad", loads.clone().into())]);
    let drawing = mount_local(container.clone(), settings(&json, extra)).unwrap_throw();
    // Before its first frame: it never draws or calls back.
    drawing.destroy().unwrap_throw();
    assert_eq!(container.child_element_count(), 0);
    drawing.destroy().unwrap_throw();
    TimeoutFuture::new(100).await;
    assert_eq!(loads.count(), 0, "no onLoad after destroy");
    assert!(drawing.canvas().is_null());
    assert_eq!(
        error_code(&drawing.update(json.as_str().into()).err().unwrap()),
        "destroyed"
    );
    assert_eq!(error_code(&drawing.to_svg().err().unwrap()), "destroyed");
    let png = JsFuture::from(drawing.to_png()).await.err().unwrap();
    assert_eq!(error_code(&png), "destroyed");
}

#[wasm_bindgen_test]
fn the_shell_refuses_a_page_that_is_not_framed() {
    fresh_container("shell");
    let options = with(&[
        ("parentOrigin", "https://app.example".into()),
        ("containerId", "shell".into()),
    ]);
    let error = zdr_engine::start_shell(options).expect_err("not in a frame");
    assert!(
        message_of(&error).contains("iframe"),
        "{}",
        message_of(&error)
    );
    let bad_origin = with(&[
        ("parentOrigin", "https://app.example/".into()),
        ("containerId", "shell".into()),
    ]);
    let error = zdr_engine::start_shell(bad_origin).expect_err("not an origin");
    assert!(
        message_of(&error).contains("parentOrigin"),
        "{}",
        message_of(&error)
    );
}
