//! Local and auto modes in a real browser: `wasm-pack test --headless --chrome` (and `--firefox`).
//! Each test first has the real engine loaded (tests/support), as after `preload()`;
//! what happens before it arrives is in tests/engine_loading.rs.
//! What needs a browser's request log, device scale or CDP counters is in tests/e2e/local.test.mjs.
#![cfg(target_arch = "wasm32")]
// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{HtmlCanvasElement, HtmlElement};

use zdr_embed::{render, render_multiple, EmbedHandle};

mod support;
use support::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(module = "/tests/support/local.js")]
extern "C" {
    #[wasm_bindgen(js_name = canvasStats)]
    fn canvas_stats(canvas: &HtmlCanvasElement) -> JsValue;
    #[wasm_bindgen(js_name = barData)]
    fn bar_data(title: &str, values: Vec<f64>) -> JsValue;
    #[wasm_bindgen(js_name = manyPoints)]
    fn many_points(n: u32) -> JsValue;
}

/// Local-mode options: no service at all.
fn local(container_id: &str, data: JsValue) -> JsValue {
    let options = js_sys::Object::new();
    set(&options, "containerId", container_id);
    set(&options, "mode", "local");
    set(&options, "height", "300px");
    set(&options, "visualizationData", data);
    options.into()
}

fn canvas_of(handle: &EmbedHandle) -> HtmlCanvasElement {
    handle.canvas().dyn_into().expect("a canvas on the handle")
}

/// Renders with an onLoad recorder and waits for the first draw.
async fn drawn(options: JsValue) -> (EmbedHandle, Recorder) {
    let loads = recorder();
    set(&options, "onLoad", &loads);
    let handle = render(options).unwrap_throw();
    wait_until(|| loads.count() > 0, "onLoad after the first draw").await;
    (handle, loads)
}

fn checksum(canvas: &HtmlCanvasElement) -> f64 {
    get(&canvas_stats(canvas), "checksum").as_f64().unwrap()
}

fn corner_luminance(canvas: &HtmlCanvasElement) -> f64 {
    let corner = js_sys::Array::from(&get(&canvas_stats(canvas), "corner"));
    let sum: f64 = corner.iter().map(|v| v.as_f64().unwrap()).sum();
    sum / (3.0 * 255.0)
}

#[wasm_bindgen_test]
async fn local_mode_draws_on_a_canvas_and_calls_on_load_with_it() {
    engine_ready().await;
    let container = fresh_container("local-draw");
    let (handle, loads) = drawn(local("local-draw", sample_data("Monthly sales"))).await;
    assert_eq!(handle.mode(), "local");
    assert!(handle.iframe().is_null(), "no iframe in local mode");
    let canvas = canvas_of(&handle);
    assert_eq!(
        loads.last(),
        JsValue::from(canvas.clone()),
        "onLoad gets the canvas"
    );
    assert_eq!(loads.count(), 1);
    assert!(container.query_selector("iframe").unwrap_throw().is_none());
    assert!(container.query_selector("form").unwrap_throw().is_none());
    let wrapper = container
        .query_selector(".zdr-embed-local")
        .unwrap_throw()
        .expect("the wrapper");
    assert!(wrapper.contains(Some(&canvas)));
    let style = wrapper.dyn_ref::<HtmlElement>().unwrap().style();
    assert_eq!(style.get_property_value("width").unwrap_throw(), "100%");
    assert_eq!(style.get_property_value("height").unwrap_throw(), "300px");

    let stats = canvas_stats(&canvas);
    let distinct = get(&stats, "distinct").as_f64().unwrap();
    assert!(
        distinct >= 4.0,
        "a drawn card has marks, text and grid: {distinct} colours"
    );
    let ratio = web_sys::window().unwrap().device_pixel_ratio();
    let css_height = canvas.get_bounding_client_rect().height();
    assert_eq!(f64::from(canvas.height()), (css_height * ratio).round());
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn update_redraws_with_new_pixels_and_calls_on_load_again() {
    engine_ready().await;
    fresh_container("local-update");
    let (handle, loads) = drawn(local(
        "local-update",
        bar_data("Sales", vec![1.0, 2.0, 3.0]),
    ))
    .await;
    let canvas = canvas_of(&handle);
    let before = checksum(&canvas);
    handle
        .update(bar_data("Sales", vec![9.0, 1.0, 4.0, 7.0]))
        .unwrap_throw();
    wait_until(|| loads.count() == 2, "onLoad after the update's draw").await;
    assert_ne!(
        checksum(&canvas),
        before,
        "different data, different pixels"
    );
    assert_eq!(canvas_of(&handle), canvas, "the same canvas is redrawn");
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn the_canvas_is_an_image_named_by_title_and_summary_with_a_hidden_table() {
    engine_ready().await;
    let container = fresh_container("local-a11y");
    let (handle, _) = drawn(local(
        "local-a11y",
        bar_data("Sales by region", vec![5.0, 7.5, 12.0]),
    ))
    .await;
    let canvas = canvas_of(&handle);
    assert_eq!(canvas.get_attribute("role").as_deref(), Some("img"));
    // The summary is written with the table, in the task after the frame.
    table_written(&container).await;
    let label = canvas.get_attribute("aria-label").unwrap_or_default();
    assert!(label.starts_with("Sales by region. "), "{label}");
    assert!(
        label.len() > "Sales by region. ".len() + 10,
        "a summary follows: {label}"
    );
    let table = container
        .query_selector("table.zdr-embed-data")
        .unwrap_throw()
        .expect("the hidden table");
    let rows = table.query_selector_all("tbody tr").unwrap_throw().length();
    assert_eq!(rows, 3);
    let caption = table.query_selector("caption").unwrap_throw().unwrap();
    assert_eq!(caption.text_content().as_deref(), Some("Sales by region"));
    let text = table.text_content().unwrap_or_default();
    assert!(text.contains("Region 3"), "{text}");
    // Visually hidden, not display:none: it must stay in the accessibility tree.
    let hidden = table.parent_element().unwrap().get_bounding_client_rect();
    assert!(hidden.width() <= 1.0 && hidden.height() <= 1.0);
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn long_data_is_cut_in_the_table_with_a_note() {
    engine_ready().await;
    let container = fresh_container("local-long");
    let (handle, _) = drawn(local("local-long", many_points(1000))).await;
    table_written(&container).await;
    let rows = container
        .query_selector_all("table.zdr-embed-data tbody tr")
        .unwrap_throw()
        .length();
    assert_eq!(rows, 200);
    let caption = container
        .query_selector("table.zdr-embed-data caption")
        .unwrap_throw()
        .unwrap()
        .text_content()
        .unwrap_or_default();
    assert_eq!(caption, "Many points (the first 200 of 1,000 rows)");
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn data_the_engine_cannot_read_is_refused_before_anything_is_created() {
    engine_ready().await;
    let container = fresh_container("local-bad");
    let data = sample_data("Bad");
    let points = get(&data, "data");
    set(&js_sys::Array::from(&points).get(1), "y", "twenty");
    let error = render(local("local-bad", data))
        .err()
        .expect("render throws");
    assert_eq!(error_code(&error), "invalid_data");
    let message = message_of(&error);
    assert!(
        message.starts_with("render: option \"visualizationData\" cannot be drawn: data[1].y"),
        "{message}"
    );
    assert_eq!(container.child_element_count(), 0, "nothing created");
}

#[wasm_bindgen_test]
async fn modes_are_validated_and_local_mode_needs_no_service() {
    engine_ready().await;
    fresh_container("local-modes");
    let options = local("local-modes", sample_data("Modes"));
    set(&options, "mode", "canvas");
    let error = render(options.clone()).err().expect("unknown mode");
    assert_eq!(
        message_of(&error),
        "render: option \"mode\" must be \"service\", \"local\" or \"auto\", found \"canvas\""
    );
    set(&options, "mode", "auto");
    let error = render(options.clone())
        .err()
        .expect("auto needs the service");
    assert_eq!(
        message_of(&error),
        "render: option \"serviceUrl\" is required"
    );
    set(&options, "mode", "local");
    set(&options, "serviceUrl", "ftp://charts.example.com");
    let error = render(options.clone())
        .err()
        .expect("a given serviceUrl is checked");
    assert_eq!(error_code(&error), "invalid_option");
    set(&options, "serviceUrl", JsValue::UNDEFINED);
    set(&options, "darkMode", "yes");
    let error = render(options.clone())
        .err()
        .expect("darkMode is a boolean");
    assert_eq!(
        message_of(&error),
        "render: option \"darkMode\" must be true or false, found \"yes\""
    );
    set(&options, "darkMode", JsValue::UNDEFINED);
    set(&options, "timeoutMs", -5);
    assert_eq!(
        error_code(&render(options.clone()).err().unwrap()),
        "invalid_option"
    );
    set(&options, "timeoutMs", JsValue::UNDEFINED);
    let handle = render(options).expect("local mode without serviceUrl or cardId");
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn dark_mode_comes_from_the_option_then_the_card() {
    engine_ready().await;
    fresh_container("local-dark");
    let (dark, _) = drawn({
        let options = local("local-dark", sample_data("Dark"));
        set(&options, "darkMode", true);
        options
    })
    .await;
    assert!(
        corner_luminance(&canvas_of(&dark)) < 0.25,
        "dark background"
    );
    dark.destroy().unwrap_throw();

    let card_dark = sample_data("Card dark");
    set(&get(&card_dark, "viz_config"), "dark_mode", true);
    let (from_card, _) = drawn(local("local-dark", card_dark.clone())).await;
    assert!(
        corner_luminance(&canvas_of(&from_card)) < 0.25,
        "viz_config.dark_mode"
    );
    from_card.destroy().unwrap_throw();

    let (forced_light, _) = drawn({
        let options = local("local-dark", card_dark);
        set(&options, "darkMode", false);
        options
    })
    .await;
    assert!(
        corner_luminance(&canvas_of(&forced_light)) > 0.75,
        "the option wins"
    );
    forced_light.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn dark_mode_in_service_mode_is_a_query_parameter_only_when_given() {
    engine_ready().await;
    let container = fresh_container("service-dark");
    let plain = render(base_options("service-dark", JsValue::UNDEFINED)).unwrap_throw();
    let form = container.query_selector("form").unwrap_throw().unwrap();
    let action = form.get_attribute("action").unwrap_or_default();
    assert!(action.ends_with("/embed/card-1/"), "{action}");
    plain.destroy().unwrap_throw();

    let options = base_options("service-dark", JsValue::UNDEFINED);
    set(&options, "darkMode", true);
    let dark = render(options).unwrap_throw();
    let form = container.query_selector("form").unwrap_throw().unwrap();
    let action = form.get_attribute("action").unwrap_or_default();
    assert!(
        action.ends_with("/embed/card-1/?dark_mode=true"),
        "{action}"
    );
    dark.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn exports_png_and_svg_drawn_by_the_same_engine() {
    engine_ready().await;
    fresh_container("local-export");
    let (handle, _) = drawn(local("local-export", sample_data("Exported"))).await;
    let svg = handle.to_svg().unwrap_throw().as_string().unwrap_throw();
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
    assert!(svg.contains("Exported"));
    let blob: js_sys::Object = JsFuture::from(handle.to_png())
        .await
        .unwrap_throw()
        .dyn_into()
        .unwrap_throw();
    assert_eq!(get(&blob, "type"), "image/png");
    let size = get(&blob, "size").as_f64().unwrap();
    assert!(size > 1000.0, "{size} bytes");
    handle.destroy().unwrap_throw();
    let error = JsFuture::from(handle.to_png())
        .await
        .expect_err("destroyed");
    assert_eq!(error_code(&error), "destroyed");
    assert_eq!(error_code(&handle.to_svg().err().unwrap()), "destroyed");
}

#[wasm_bindgen_test]
async fn service_mode_cannot_export() {
    engine_ready().await;
    fresh_container("service-export");
    let handle = render(base_options("service-export", JsValue::UNDEFINED)).unwrap_throw();
    assert_eq!(
        error_code(&handle.to_svg().err().unwrap()),
        "not_drawn_locally"
    );
    let error = JsFuture::from(handle.to_png()).await.err().unwrap();
    assert_eq!(error_code(&error), "not_drawn_locally");
    assert!(handle.canvas().is_null());
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn destroy_removes_everything_and_stops_drawing() {
    engine_ready().await;
    let container = fresh_container("local-destroy");
    let loads = recorder();
    let options = local("local-destroy", sample_data("Gone"));
    set(&options, "onLoad", &loads);
    let handle = render(options).unwrap_throw();
    // Destroyed before its first frame: it never draws or calls back.
    handle.destroy().unwrap_throw();
    assert_eq!(container.child_element_count(), 0);
    TimeoutFuture::new(100).await;
    assert_eq!(loads.count(), 0, "no onLoad after destroy");
    let error = handle.update(sample_data("Again")).err().unwrap();
    assert_eq!(error_code(&error), "destroyed");
    assert!(!handle.canvas().is_null(), "the handle keeps its element");
}

#[wasm_bindgen_test]
async fn a_hidden_container_draws_when_it_is_shown() {
    engine_ready().await;
    let container = fresh_container("local-hidden");
    container
        .set_attribute("style", "display:none")
        .unwrap_throw();
    let loads = recorder();
    let options = local("local-hidden", sample_data("Hidden"));
    set(&options, "onLoad", &loads);
    let handle = render(options).unwrap_throw();
    TimeoutFuture::new(100).await;
    assert_eq!(loads.count(), 0, "nothing to draw on yet");
    container.remove_attribute("style").unwrap_throw();
    wait_until(|| loads.count() == 1, "the draw once shown").await;
    assert!(canvas_of(&handle).width() > 0);
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn render_multiple_mixes_modes() {
    engine_ready().await;
    let container = fresh_container("mixed");
    let list = js_sys::Array::new();
    list.push(&base_options("mixed", JsValue::UNDEFINED));
    list.push(&local("mixed", sample_data("Local one")));
    let handles = render_multiple(list.into()).unwrap_throw();
    assert_eq!(
        container
            .query_selector_all("iframe")
            .unwrap_throw()
            .length(),
        1
    );
    assert_eq!(
        container
            .query_selector_all("canvas")
            .unwrap_throw()
            .length(),
        1
    );
    for handle in handles.iter() {
        js_sys::Reflect::get(&handle, &"destroy".into())
            .unwrap_throw()
            .unchecked_into::<js_sys::Function>()
            .call0(&handle)
            .unwrap_throw();
    }
    assert_eq!(container.child_element_count(), 0);
}

#[wasm_bindgen_test]
async fn auto_mode_stays_with_a_service_that_answers() {
    engine_ready().await;
    let container = fresh_container("auto-ok");
    let loads = recorder();
    let errors = recorder();
    let options = base_options("auto-ok", JsValue::UNDEFINED);
    set(&options, "mode", "auto");
    set(&options, "timeoutMs", 1000);
    set(&options, "onLoad", &loads);
    set(&options, "onError", &errors);
    let handle = render(options).unwrap_throw();
    wait_until(|| loads.count() == 1, "onLoad(iframe)").await;
    assert_eq!(loads.last(), handle.iframe(), "onLoad gets the iframe");
    TimeoutFuture::new(1300).await;
    assert_eq!(errors.count(), 0, "no fallback: {:?}", errors.last());
    assert_eq!(handle.mode(), "service");
    assert!(container.query_selector("canvas").unwrap_throw().is_none());
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn auto_mode_draws_locally_when_the_service_cannot_be_reached() {
    engine_ready().await;
    let container = fresh_container("auto-down");
    let loads = recorder();
    let errors = recorder();
    let options = base_options("auto-down", JsValue::UNDEFINED);
    // Port 1 is refused by every browser before any packet leaves: unreachable.
    set(&options, "serviceUrl", "http://127.0.0.1:1");
    set(&options, "mode", "auto");
    set(&options, "onLoad", &loads);
    set(&options, "onError", &errors);
    let handle = render(options).unwrap_throw();
    assert_eq!(handle.mode(), "service", "it starts as the service");
    wait_until(|| errors.count() == 1, "the fallback notice").await;
    let notice = errors.last();
    assert_eq!(get(&notice, "name"), "FallbackToLocal");
    assert_eq!(error_code(&notice), "fallback_to_local");
    assert!(
        message_of(&notice).contains("could not be reached"),
        "{}",
        message_of(&notice)
    );
    assert_eq!(handle.mode(), "local");
    assert!(handle.iframe().is_null());
    assert!(container.query_selector("iframe").unwrap_throw().is_none());
    wait_until(|| loads.count() == 1, "onLoad(canvas) after the local draw").await;
    assert_eq!(loads.last(), handle.canvas());
    handle.destroy().unwrap_throw();
    assert_eq!(container.child_element_count(), 0);
}

/// The hidden table is written in a task after the frame that shows the card.
async fn table_written(container: &web_sys::Element) {
    wait_until(
        || {
            container
                .query_selector("table.zdr-embed-data tbody tr")
                .ok()
                .flatten()
                .is_some()
        },
        "the hidden table",
    )
    .await;
}
