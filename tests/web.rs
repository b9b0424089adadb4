//! The widget in a real browser: run with `wasm-pack test --headless --chrome` (and `--firefox`).
#![cfg(target_arch = "wasm32")]
// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlFormElement, HtmlIFrameElement, HtmlInputElement};

use zdr_embed::{render, render_multiple};

mod support;
use support::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(module = "/tests/support/helpers.js")]
extern "C" {
    fn without(object: &JsValue, key: &str) -> JsValue;
    #[wasm_bindgen(js_name = cyclicData)]
    fn cyclic_data() -> JsValue;
    #[wasm_bindgen(js_name = bigintData)]
    fn bigint_data() -> JsValue;
    #[wasm_bindgen(js_name = throwingGetterOptions)]
    fn throwing_getter_options(container_id: &str) -> JsValue;
    #[wasm_bindgen(js_name = formsInDocument)]
    fn forms_in_document() -> u32;
    #[wasm_bindgen(js_name = breakFormSubmit)]
    fn break_form_submit() -> js_sys::Function;
    #[wasm_bindgen(js_name = captureConsoleError)]
    fn capture_console_error() -> ConsoleCapture;
    #[wasm_bindgen(js_name = isError)]
    fn is_error(value: &JsValue) -> bool;
    #[wasm_bindgen(js_name = frameLoaded)]
    async fn frame_loaded(iframe: &HtmlIFrameElement);
    #[wasm_bindgen(js_name = fakeShell)]
    fn fake_shell(iframe: &HtmlIFrameElement) -> FakeShell;
    #[wasm_bindgen(js_name = sayFromPage)]
    fn say_from_page(message: &JsValue);
    fn message(kind: &str, fields: JsValue) -> JsValue;

    type FakeShell;
    #[wasm_bindgen(method)]
    fn say(this: &FakeShell, message: &JsValue);
    #[wasm_bindgen(method, js_name = heardCount)]
    fn heard_count(this: &FakeShell) -> u32;
    #[wasm_bindgen(method)]
    fn heard(this: &FakeShell, index: u32) -> JsValue;
    #[wasm_bindgen(method, js_name = sameDocument)]
    fn same_document(this: &FakeShell) -> bool;

    type ConsoleCapture;
    #[wasm_bindgen(method)]
    fn count(this: &ConsoleCapture) -> u32;
    #[wasm_bindgen(method, js_name = firstMessage)]
    fn first_message(this: &ConsoleCapture) -> String;
    #[wasm_bindgen(method)]
    fn restore(this: &ConsoleCapture);
}

/// The handle's frame; service mode always has one.
fn frame_of(handle: &zdr_embed::EmbedHandle) -> HtmlIFrameElement {
    handle.iframe().dyn_into().expect("an iframe on the handle")
}

fn options(container_id: &str) -> JsValue {
    base_options(container_id, JsValue::UNDEFINED)
}

/// Renders and expects a throw; returns the message after checking that it is
/// a real Error and that nothing was added to the container or the page.
fn expect_render_error(container: &Element, options: &JsValue) -> String {
    let children = container.child_element_count();
    let forms = forms_in_document();
    let error = match render(options.clone()) {
        Ok(handle) => {
            handle.destroy().unwrap_throw();
            panic!("render should have thrown");
        }
        Err(error) => error,
    };
    assert!(is_error(&error), "the thrown value is an Error");
    assert_eq!(container.child_element_count(), children, "nothing created");
    assert_eq!(forms_in_document(), forms, "no form created");
    message_of(&error)
}

fn the_form(container: &Element) -> HtmlFormElement {
    container
        .query_selector("form")
        .unwrap_throw()
        .expect("a form in the container")
        .dyn_into()
        .unwrap_throw()
}

#[wasm_bindgen_test]
fn render_creates_a_borderless_named_frame_in_the_container() {
    let container = fresh_container("frame");
    let handle = render(options("frame")).unwrap_throw();
    let frame: HtmlIFrameElement = container
        .query_selector("iframe")
        .unwrap_throw()
        .expect("an iframe")
        .dyn_into()
        .unwrap_throw();
    assert_eq!(frame_of(&handle), frame, "the handle carries the frame");
    assert!(frame.name().starts_with("zdr-embed-"), "{}", frame.name());
    assert_eq!(frame.title(), "Monthly sales");
    assert_eq!(frame.get_attribute("scrolling").as_deref(), Some("no"));
    assert_eq!(frame.get_attribute("frameborder").as_deref(), Some("0"));
    let style = frame.style();
    assert_eq!(style.get_property_value("width").unwrap_throw(), "100%");
    assert_eq!(style.get_property_value("height").unwrap_throw(), "600px");
    assert_eq!(
        style.get_property_value("border-style").unwrap_throw(),
        "none"
    );
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
fn sizes_accept_css_lengths_and_pixel_numbers() {
    let container = fresh_container("sizes");
    let opts = options("sizes");
    set(&opts, "width", "480px");
    set(&opts, "height", 320);
    let handle = render(opts).unwrap_throw();
    let style = frame_of(&handle).style();
    assert_eq!(style.get_property_value("width").unwrap_throw(), "480px");
    assert_eq!(style.get_property_value("height").unwrap_throw(), "320px");
    handle.destroy().unwrap_throw();

    let bad = options("sizes");
    set(&bad, "width", "100px; background: red");
    let message = expect_render_error(&container, &bad);
    assert!(message.contains("option \"width\""), "{message}");
}

#[wasm_bindgen_test]
fn every_frame_name_is_unique() {
    fresh_container("unique");
    let a = render(options("unique")).unwrap_throw();
    let b = render(options("unique")).unwrap_throw();
    let (name_a, name_b) = (frame_of(&a).name(), frame_of(&b).name());
    assert_ne!(name_a, name_b);
    // zdr-embed-<this copy's 8 hex digits>-<a counter>: one prefix, two numbers.
    let parts = |name: &str| -> Option<(String, u32)> {
        let (prefix, number) = name.strip_prefix("zdr-embed-")?.split_once('-')?;
        let hex = prefix.len() == 8 && prefix.bytes().all(|b| b.is_ascii_hexdigit());
        Some((prefix.to_owned(), number.parse().ok()?)).filter(|_| hex)
    };
    let (prefix_a, number_a) = parts(&name_a).expect(&name_a);
    let (prefix_b, number_b) = parts(&name_b).expect(&name_b);
    assert_eq!(prefix_a, prefix_b, "{name_a} {name_b}");
    assert_eq!(number_b, number_a + 1, "{name_a} {name_b}");
    a.destroy().unwrap_throw();
    b.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
fn the_hidden_form_posts_the_exact_json_into_the_frame() {
    let container = fresh_container("form");
    let opts = options("form");
    set(&opts, "cardId", "q3/report?#x");
    let handle = render(opts.clone()).unwrap_throw();
    let form = the_form(&container);
    assert_eq!(form.method(), "post");
    assert_eq!(form.enctype(), "application/x-www-form-urlencoded");
    let origin = web_sys::window()
        .unwrap_throw()
        .location()
        .origin()
        .unwrap_throw();
    assert_eq!(form.action(), format!("{origin}/embed/q3%2Freport%3F%23x/"));
    assert_eq!(form.target(), frame_of(&handle).name());
    assert!(
        form.hidden()
            || form
                .get_attribute("style")
                .unwrap_or_default()
                .contains("none")
    );

    let inputs = form.query_selector_all("input").unwrap_throw();
    assert_eq!(inputs.length(), 2, "the data and the frame's size");
    let field: HtmlInputElement = inputs.get(0).unwrap_throw().dyn_into().unwrap_throw();
    assert_eq!(field.type_(), "hidden");
    assert_eq!(field.name(), "visualization_data");
    let expected = js_sys::JSON::stringify(&get(&opts, "visualizationData")).unwrap_throw();
    assert_eq!(field.value(), String::from(expected));
    let size: HtmlInputElement = inputs.get(1).unwrap_throw().dyn_into().unwrap_throw();
    assert_eq!(size.type_(), "hidden");
    assert_eq!(size.name(), "frame_size");
    let frame = frame_of(&handle);
    assert!(frame.client_width() > 0 && frame.client_height() > 0);
    assert_eq!(
        size.value(),
        format!("{}x{}", frame.client_width(), frame.client_height())
    );
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn the_form_is_removed_about_100_ms_after_submit() {
    let container = fresh_container("removal");
    let handle = render(options("removal")).unwrap_throw();
    assert_eq!(
        container.query_selector_all("form").unwrap_throw().length(),
        1
    );
    TimeoutFuture::new(40).await;
    assert_eq!(
        container.query_selector_all("form").unwrap_throw().length(),
        1,
        "still there at 40 ms"
    );
    TimeoutFuture::new(160).await;
    assert_eq!(
        container.query_selector_all("form").unwrap_throw().length(),
        0,
        "gone at 200 ms"
    );
    assert!(frame_of(&handle).is_connected(), "the frame stays");
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn on_load_fires_with_the_frame_once_the_service_page_loaded() {
    fresh_container("load");
    let on_load = recorder();
    let opts = options("load");
    set(&opts, "onLoad", &on_load);
    let handle = render(opts).unwrap_throw();
    wait_until(|| on_load.count() >= 1, "onLoad fired").await;
    assert_eq!(on_load.last(), JsValue::from(frame_of(&handle)));
    // The post was a real navigation: the frame now shows the embed address.
    let url = frame_of(&handle)
        .content_document()
        .map(|doc| doc.url().unwrap_throw())
        .unwrap_or_default();
    assert!(url.ends_with("/embed/card-1/"), "frame shows {url}");
    TimeoutFuture::new(100).await;
    assert_eq!(
        on_load.count(),
        1,
        "the initial about:blank is not reported"
    );
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
fn each_missing_required_option_throws_naming_it() {
    let container = fresh_container("missing");
    for name in ["containerId", "serviceUrl", "cardId", "visualizationData"] {
        let message = expect_render_error(&container, &without(&options("missing"), name));
        assert_eq!(message, format!("render: option \"{name}\" is required"));
    }
}

#[wasm_bindgen_test]
fn wrongly_typed_options_throw_naming_the_option_and_the_type() {
    let container = fresh_container("types");
    let cases: [(&str, JsValue, &str); 6] = [
        ("cardId", 42.into(), "render: option \"cardId\" must be a string, found a number"),
        ("containerId", true.into(), "render: option \"containerId\" must be a string, found a boolean"),
        ("serviceUrl", js_sys::Object::new().into(), "render: option \"serviceUrl\" must be a string, found an object"),
        ("visualizationData", "{}".into(), "render: option \"visualizationData\" must be an object with \"viz_config\" and \"data\", found \"{}\""),
        ("onLoad", "alert(1)".into(), "render: option \"onLoad\" must be a function, found \"alert(1)\""),
        ("onError", 1.into(), "render: option \"onError\" must be a function, found a number"),
    ];
    for (name, value, expected) in cases {
        let opts = options("types");
        set(&opts, name, value);
        assert_eq!(expect_render_error(&container, &opts), expected);
    }
    let not_object = render(JsValue::from("options")).err().unwrap_throw();
    assert_eq!(
        message_of(&not_object),
        "render: options must be an object, found \"options\""
    );
    assert_eq!(error_code(&not_object), JsValue::from("invalid_argument"));
}

#[wasm_bindgen_test]
fn a_container_element_in_a_shadow_root_takes_the_card() {
    // No id reaches into a shadow root from the document: `container` does.
    let host = fresh_container("shadow-host");
    let root = host
        .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
        .unwrap_throw();
    let inner = web_sys::window()
        .unwrap_throw()
        .document()
        .unwrap_throw()
        .create_element("div")
        .unwrap_throw();
    root.append_child(&inner).unwrap_throw();
    let opts = options("unused");
    js_sys::Reflect::delete_property(
        opts.unchecked_ref::<js_sys::Object>(),
        &"containerId".into(),
    )
    .unwrap_throw();
    set(&opts, "container", inner.clone());
    let handle = render(opts.clone()).unwrap_throw();
    assert!(
        inner.query_selector("iframe").unwrap_throw().is_some(),
        "the frame is in the shadow root"
    );
    handle.destroy().unwrap_throw();
    assert_eq!(inner.child_element_count(), 0);

    // Both, or something that is no element: a thrown Error naming the option.
    set(&opts, "containerId", "shadow-host");
    let both = expect_render_error(&host, &opts);
    assert_eq!(
        both,
        "render: option \"containerId\" cannot be given with \"container\": give one of them"
    );
    js_sys::Reflect::delete_property(
        opts.unchecked_ref::<js_sys::Object>(),
        &"containerId".into(),
    )
    .unwrap_throw();
    set(&opts, "container", "shadow-host");
    let text = expect_render_error(&host, &opts);
    assert!(
        text.starts_with("render: option \"container\" must be an element"),
        "{text}"
    );
}

#[wasm_bindgen_test]
fn a_missing_container_element_throws() {
    let container = fresh_container("present");
    let opts = options("absent");
    let message = expect_render_error(&container, &opts);
    assert_eq!(
        message,
        "render: option \"containerId\" is \"absent\", but the document has no element with that id"
    );
}

#[wasm_bindgen_test]
fn service_urls_that_are_not_http_throw() {
    let container = fresh_container("scheme");
    for bad in [
        "javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "ftp://svc.example",
        "/relative/path",
        "https://user:pw@svc.example",
        "https://svc.example/?q=1",
    ] {
        let opts = options("scheme");
        set(&opts, "serviceUrl", bad);
        let message = expect_render_error(&container, &opts);
        assert!(
            message.starts_with("render: option \"serviceUrl\" "),
            "{message}"
        );
    }
}

#[wasm_bindgen_test]
fn empty_and_dot_card_ids_throw() {
    let container = fresh_container("cards");
    for bad in ["", ".", ".."] {
        let opts = options("cards");
        set(&opts, "cardId", bad);
        let message = expect_render_error(&container, &opts);
        assert!(
            message.starts_with("render: option \"cardId\" must not be"),
            "{message}"
        );
    }
}

#[wasm_bindgen_test]
fn visualization_data_needs_viz_config_and_data() {
    let container = fresh_container("shape");
    let cases = [
        (
            without(&sample_data("t"), "viz_config"),
            "render: option \"visualizationData.viz_config\" is required",
        ),
        (
            without(&sample_data("t"), "data"),
            "render: option \"visualizationData.data\" is required",
        ),
    ];
    for (data, expected) in cases {
        let opts = options("shape");
        set(&opts, "visualizationData", data);
        assert_eq!(expect_render_error(&container, &opts), expected);
    }
    let opts = options("shape");
    let data = sample_data("t");
    set(&data, "data", 5);
    set(&opts, "visualizationData", data);
    assert_eq!(
        expect_render_error(&container, &opts),
        "render: option \"visualizationData.data\" must be an object or an array, found a number"
    );
}

#[wasm_bindgen_test]
fn unserialisable_data_throws_instead_of_hanging() {
    let container = fresh_container("cycle");
    for data in [cyclic_data(), bigint_data()] {
        let opts = options("cycle");
        set(&opts, "visualizationData", data);
        let message = expect_render_error(&container, &opts);
        assert!(
            message.starts_with(
                "render: option \"visualizationData\" cannot be serialised to JSON: TypeError"
            ),
            "{message}"
        );
    }
}

#[wasm_bindgen_test]
fn a_throwing_getter_becomes_an_error_not_a_crash() {
    let container = fresh_container("getter");
    let message = expect_render_error(&container, &throwing_getter_options("getter"));
    assert_eq!(
        message,
        "render: option \"cardId\" could not be read: RangeError: hostile getter"
    );
}

#[wasm_bindgen_test]
fn a_failing_form_submission_goes_to_on_error() {
    let container = fresh_container("onerror");
    let on_error = recorder();
    let opts = options("onerror");
    set(&opts, "onError", &on_error);
    let restore = break_form_submit();
    let handle = render(opts);
    restore.call0(&JsValue::NULL).unwrap_throw();
    let handle = handle.unwrap_throw();
    assert_eq!(on_error.count(), 1);
    let error = on_error.last();
    assert!(is_error(&error));
    assert!(
        message_of(&error).starts_with("render: could not post the form: SecurityError"),
        "{}",
        message_of(&error)
    );
    assert_eq!(forms_in_document(), 0, "the failed form does not linger");
    assert!(container.query_selector("iframe").unwrap_throw().is_some());
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
fn without_on_error_a_failure_is_logged() {
    fresh_container("logged");
    let console = capture_console_error();
    let restore = break_form_submit();
    let handle = render(options("logged"));
    restore.call0(&JsValue::NULL).unwrap_throw();
    console.restore();
    assert_eq!(console.count(), 1);
    assert!(console.first_message().contains("could not post the form"));
    handle.unwrap_throw().destroy().unwrap_throw();
}

#[wasm_bindgen_test]
fn update_reposts_new_data_into_the_same_frame() {
    let container = fresh_container("update");
    let handle = render(options("update")).unwrap_throw();
    let frame = frame_of(&handle);
    let new_data = sample_data("Updated title");
    handle.update(new_data.clone()).unwrap_throw();
    let forms = container.query_selector_all("form").unwrap_throw();
    assert_eq!(forms.length(), 1, "the earlier pending form is replaced");
    let form = the_form(&container);
    assert_eq!(form.target(), frame.name());
    let field: HtmlInputElement = form
        .query_selector("input")
        .unwrap_throw()
        .unwrap_throw()
        .dyn_into()
        .unwrap_throw();
    assert_eq!(
        field.value(),
        String::from(js_sys::JSON::stringify(&new_data).unwrap_throw())
    );
    assert_eq!(
        container
            .query_selector_all("iframe")
            .unwrap_throw()
            .length(),
        1
    );
    assert_eq!(frame_of(&handle), frame);
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
fn update_validates_its_data() {
    fresh_container("update-bad");
    let handle = render(options("update-bad")).unwrap_throw();
    let error = handle
        .update(without(&sample_data("t"), "data"))
        .err()
        .unwrap_throw();
    assert_eq!(
        message_of(&error),
        "update: option \"visualizationData.data\" is required"
    );
    let error = handle.update(cyclic_data()).err().unwrap_throw();
    assert!(
        message_of(&error).starts_with("update: option \"visualizationData\" cannot be serialised")
    );
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn destroy_removes_everything_and_is_idempotent() {
    let container = fresh_container("destroy");
    let on_load = recorder();
    let opts = options("destroy");
    set(&opts, "onLoad", &on_load);
    let handle = render(opts).unwrap_throw();
    let frame = frame_of(&handle);
    handle.destroy().unwrap_throw();
    assert_eq!(
        container.child_element_count(),
        0,
        "frame and form are gone at once"
    );
    assert!(!frame.is_connected());
    handle.destroy().unwrap_throw();

    let error = handle.update(sample_data("again")).err().unwrap_throw();
    assert_eq!(
        message_of(&error),
        "update: this embed was destroyed; call render() to show the card again"
    );
    assert_eq!(error_code(&error), JsValue::from("destroyed"));

    // The load listener is gone: loading a page into the old frame reports nothing.
    web_sys::window()
        .unwrap_throw()
        .document()
        .unwrap_throw()
        .body()
        .unwrap_throw()
        .append_child(&frame)
        .unwrap_throw();
    frame.set_src("/");
    TimeoutFuture::new(500).await;
    assert_eq!(on_load.count(), 0, "no onLoad after destroy");
    frame.remove();
}

#[wasm_bindgen_test]
async fn destroy_before_the_timer_cancels_it() {
    let container = fresh_container("timer");
    let handle = render(options("timer")).unwrap_throw();
    handle.destroy().unwrap_throw();
    // A fresh embed in the same container must keep its own form for its 100 ms.
    let other = render(options("timer")).unwrap_throw();
    TimeoutFuture::new(30).await;
    assert_eq!(
        container.query_selector_all("form").unwrap_throw().length(),
        1
    );
    other.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
fn render_multiple_returns_one_handle_per_options_object() {
    let first = fresh_container("multi-a");
    let second = fresh_container("multi-b");
    let list = js_sys::Array::new();
    list.push(&options("multi-a"));
    list.push(&options("multi-b"));
    let handles = render_multiple(list.into()).unwrap_throw();
    assert_eq!(handles.length(), 2);
    assert_eq!(
        first.query_selector_all("iframe").unwrap_throw().length(),
        1
    );
    assert_eq!(
        second.query_selector_all("iframe").unwrap_throw().length(),
        1
    );
    handles.for_each(&mut |handle, _, _| {
        let destroy: js_sys::Function = get(&handle, "destroy").dyn_into().unwrap_throw();
        destroy.call0(&handle).unwrap_throw();
    });
    assert_eq!(
        first.child_element_count() + second.child_element_count(),
        0
    );
}

#[wasm_bindgen_test]
fn render_multiple_creates_nothing_when_one_entry_is_invalid() {
    let container = fresh_container("multi-bad");
    let list = js_sys::Array::new();
    list.push(&options("multi-bad"));
    list.push(&without(&options("multi-bad"), "cardId"));
    let error = render_multiple(list.into()).err().unwrap_throw();
    assert_eq!(
        message_of(&error),
        "renderMultiple: options[1]: option \"cardId\" is required"
    );
    assert_eq!(container.child_element_count(), 0);

    let error = render_multiple(options("multi-bad")).err().unwrap_throw();
    assert_eq!(
        message_of(&error),
        "renderMultiple: expected an array of options objects, found an object"
    );
}

// embedMode "postmessage". The runner's own origin plays the service, and a
// stand-in shell (tests/support/helpers.js) speaks for the frame; the real
// shell against the real host is tested in tests/e2e/postmessage.test.mjs.

fn postmessage_options(container_id: &str) -> JsValue {
    let options = options(container_id);
    set(&options, "embedMode", "postmessage");
    options
}

fn fields(pairs: &[(&str, JsValue)]) -> JsValue {
    let object = js_sys::Object::new();
    for (key, value) in pairs {
        set(&object, key, value.clone());
    }
    object.into()
}

/// Lets queued messages be delivered (they are tasks).
async fn settle() {
    TimeoutFuture::new(50).await;
}

#[wasm_bindgen_test]
fn embed_mode_is_form_or_postmessage() {
    let container = fresh_container("pm-bad-mode");
    let options = options("pm-bad-mode");
    set(&options, "embedMode", "iframe");
    let message = expect_render_error(&container, &options);
    assert_eq!(
        message,
        "render: option \"embedMode\" must be \"form\" or \"postmessage\", found \"iframe\""
    );
}

#[wasm_bindgen_test]
fn height_auto_needs_postmessage_or_local() {
    let container = fresh_container("pm-auto-height");
    let options = options("pm-auto-height");
    set(&options, "height", "auto");
    let message = expect_render_error(&container, &options);
    assert!(
        message.starts_with(
            "render: option \"height\" is \"auto\", which needs embedMode \"postmessage\""
        ),
        "{message}"
    );
    set(&options, "embedMode", "postmessage");
    render(options.clone())
        .unwrap_throw()
        .destroy()
        .unwrap_throw();
    set(&options, "embedMode", JsValue::UNDEFINED);
    set(&options, "mode", "local");
    render(options).unwrap_throw().destroy().unwrap_throw();
}

#[wasm_bindgen_test]
fn postmessage_loads_the_shell_with_this_page_origin_and_posts_no_form() {
    let container = fresh_container("pm-shell");
    let options = postmessage_options("pm-shell");
    set(&options, "darkMode", true);
    let handle = render(options).unwrap_throw();
    let frame = frame_of(&handle);
    let origin = web_sys::window().unwrap().location().origin().unwrap();
    let encoded = String::from(js_sys::encode_uri_component(&origin));
    assert_eq!(
        frame.src(),
        format!(
            "{origin}/embed/card-1/?dark_mode=true&embed_mode=postmessage&parent_origin={encoded}"
        )
    );
    assert_eq!(
        frame.get_attribute("sandbox").as_deref(),
        Some("allow-scripts allow-same-origin")
    );
    assert_eq!(
        frame.get_attribute("referrerpolicy").as_deref(),
        Some("no-referrer")
    );
    assert_eq!(forms_in_document(), 0, "no form in postmessage mode");
    assert_eq!(
        container
            .query_selector_all("iframe")
            .unwrap_throw()
            .length(),
        1
    );
    handle.destroy().unwrap_throw();
    assert_eq!(container.child_element_count(), 0);
}

#[wasm_bindgen_test]
async fn postmessage_sends_only_after_ready_and_only_the_latest_answers_count() {
    fresh_container("pm-flow");
    let on_load = recorder();
    let on_error = recorder();
    let options = postmessage_options("pm-flow");
    set(&options, "onLoad", on_load.clone());
    set(&options, "onError", on_error.clone());
    let handle = render(options).unwrap_throw();
    let frame = frame_of(&handle);
    frame_loaded(&frame).await;
    let shell = fake_shell(&frame);
    settle().await;
    assert_eq!(shell.heard_count(), 0, "nothing is sent before ready");

    // Answers before ready are not trusted.
    shell.say(&message(
        "zdr:vizdata:received",
        fields(&[("id", 1.into())]),
    ));
    settle().await;
    assert_eq!(on_load.count(), 0);

    shell.say(&message("zdr:ready", JsValue::UNDEFINED));
    wait_until(|| shell.heard_count() == 1, "the data is sent on ready").await;
    let sent = shell.heard(0);
    let origin = web_sys::window().unwrap().location().origin().unwrap();
    assert_eq!(get(&sent, "origin").as_string().unwrap(), origin);
    let data = get(&sent, "data");
    assert_eq!(get(&data, "type").as_string().unwrap(), "zdr:vizdata");
    assert_eq!(get(&data, "version").as_f64(), Some(1.0));
    assert_eq!(get(&data, "id").as_f64(), Some(1.0));
    assert_eq!(
        get(&data, "visualization_data").as_string().unwrap(),
        String::from(js_sys::JSON::stringify(&sample_data("Monthly sales")).unwrap_throw())
    );

    shell.say(&message(
        "zdr:vizdata:received",
        fields(&[("id", 1.into())]),
    ));
    wait_until(|| on_load.count() == 1, "onLoad on received").await;
    assert_eq!(on_load.last(), JsValue::from(frame.clone()));

    // The same answer from this page's own window is not the frame's.
    say_from_page(&message(
        "zdr:vizdata:received",
        fields(&[("id", 1.into())]),
    ));
    settle().await;
    assert_eq!(on_load.count(), 1);

    handle.update(sample_data("Second")).unwrap_throw();
    wait_until(|| shell.heard_count() == 2, "update sends at once").await;
    assert!(shell.same_document(), "the frame was not reloaded");
    assert_eq!(get(&get(&shell.heard(1), "data"), "id").as_f64(), Some(2.0));

    // Stale: about data 1, while data 2 is on its way.
    shell.say(&message(
        "zdr:vizdata:received",
        fields(&[("id", 1.into())]),
    ));
    shell.say(&message(
        "zdr:vizdata:error",
        fields(&[("id", 1.into()), ("message", "stale".into())]),
    ));
    settle().await;
    assert_eq!((on_load.count(), on_error.count()), (1, 0));

    let long = format!("data[0].y: bad\u{0}{}", "x".repeat(700));
    shell.say(&message(
        "zdr:vizdata:error",
        fields(&[("id", 2.into()), ("message", long.into())]),
    ));
    wait_until(|| on_error.count() == 1, "onError on error").await;
    let error = on_error.last();
    assert!(is_error(&error));
    assert_eq!(error_code(&error).as_string().unwrap(), "service_rejected");
    let text = message_of(&error);
    assert!(
        text.starts_with("the service could not show the card: data[0].y: badxxx"),
        "{text}"
    );
    assert!(
        text.chars().count() < 560,
        "clipped: {} chars",
        text.chars().count()
    );

    handle.destroy().unwrap_throw();
    settle().await;
    assert_eq!((on_load.count(), on_error.count()), (1, 1));
}

#[wasm_bindgen_test]
async fn postmessage_refuses_another_protocol_version() {
    fresh_container("pm-version");
    let on_error = recorder();
    let options = postmessage_options("pm-version");
    set(&options, "onError", on_error.clone());
    let handle = render(options).unwrap_throw();
    let frame = frame_of(&handle);
    frame_loaded(&frame).await;
    let shell = fake_shell(&frame);
    let ready = message("zdr:ready", JsValue::UNDEFINED);
    set(&ready, "version", 2);
    shell.say(&ready);
    wait_until(|| on_error.count() == 1, "onError on a version mismatch").await;
    assert_eq!(
        error_code(&on_error.last()).as_string().unwrap(),
        "protocol_version"
    );
    settle().await;
    assert_eq!(
        shell.heard_count(),
        0,
        "no data for a shell of another version"
    );
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn postmessage_resizes_the_frame_only_with_height_auto() {
    for (auto, id) in [(true, "pm-resize-auto"), (false, "pm-resize-fixed")] {
        fresh_container(id);
        let options = postmessage_options(id);
        if auto {
            set(&options, "height", "auto");
        }
        let handle = render(options).unwrap_throw();
        let frame = frame_of(&handle);
        frame_loaded(&frame).await;
        let shell = fake_shell(&frame);
        shell.say(&message("zdr:ready", JsValue::UNDEFINED));
        shell.say(&message("zdr:resize", fields(&[("height", 321.4.into())])));
        settle().await;
        let height = frame.style().get_property_value("height").unwrap_throw();
        let expected = if auto { "322px" } else { "600px" };
        assert_eq!(height, expected, "auto: {auto}");
        handle.destroy().unwrap_throw();
    }
}

#[wasm_bindgen_test]
async fn postmessage_without_ready_reports_service_not_ready() {
    fresh_container("pm-timeout");
    let on_error = recorder();
    let options = postmessage_options("pm-timeout");
    set(&options, "onError", on_error.clone());
    set(&options, "timeoutMs", 150);
    let handle = render(options).unwrap_throw();
    wait_until(|| on_error.count() == 1, "the ready timeout").await;
    let error = on_error.last();
    assert_eq!(error_code(&error).as_string().unwrap(), "service_not_ready");
    assert!(message_of(&error).contains("within 150 ms"));
    handle.destroy().unwrap_throw();
}

// Hostile input (issue 13): the browser's reading of serviceUrl, referrers,
// and the bounds on what the service's frame can make the widget do.

/// Every mode reads serviceUrl, so every mode must refuse the same inputs.
const MODES: [(&str, &str); 5] = [
    ("service", "form"),
    ("service", "postmessage"),
    ("auto", "form"),
    ("auto", "postmessage"),
    ("local", "form"),
];

#[wasm_bindgen_test]
fn service_urls_the_browser_would_rewrite_or_refuse_throw_in_every_mode() {
    let container = fresh_container("url-hostile");
    for (mode, embed_mode) in MODES {
        for bad in [
            // The browser reads these as evil.com.
            "https://%65vil.com",
            "https://ev\u{200B}il.com",
            "https://ev\u{00AD}il.com",
            "https://\u{FF45}vil.com",
            // The browser cannot read these at all.
            "http://[::1",
            "https://999.1.1.1",
            "https://a<b",
            // The browser writes these hosts differently.
            "https://127.1",
            "http://[0:0::1]",
            "https://0x7f.0.0.1",
            // And the old refusals.
            "https://user:pw@svc.example",
            "https://svc.example/?q=1",
            "https://svc.example/#top",
            "javascript:alert(1)",
        ] {
            let opts = options("url-hostile");
            set(&opts, "mode", mode);
            set(&opts, "embedMode", embed_mode);
            set(&opts, "serviceUrl", bad);
            let children = container.child_element_count();
            let error = match render(opts) {
                Ok(handle) => {
                    handle.destroy().unwrap_throw();
                    panic!("{mode}/{embed_mode}: {bad:?} should have thrown");
                }
                Err(error) => error,
            };
            assert!(is_error(&error));
            assert_eq!(container.child_element_count(), children, "nothing created");
            assert_eq!(
                error_code(&error).as_string().as_deref(),
                Some("invalid_option"),
                "{bad:?}"
            );
            let message = message_of(&error);
            assert!(
                message.starts_with("render: option \"serviceUrl\" "),
                "{mode}/{embed_mode}: {bad:?}: {message}"
            );
        }
    }
}

#[wasm_bindgen_test]
fn a_rewritten_host_error_says_how_the_browser_writes_it() {
    let container = fresh_container("url-rewritten");
    let opts = options("url-rewritten");
    set(&opts, "serviceUrl", "https://127.1");
    let message = expect_render_error(&container, &opts);
    assert_eq!(
        message,
        "render: option \"serviceUrl\" names the host \"127.1\", which the browser reads as \"127.0.0.1\"; write the host the way the browser does"
    );
    set(&opts, "serviceUrl", "https://%65vil.com");
    let message = expect_render_error(&container, &opts);
    assert!(message.contains("percent-escapes"), "{message}");
}

#[wasm_bindgen_test]
fn an_empty_port_is_accepted_and_the_address_is_the_browsers() {
    let container = fresh_container("url-empty-port");
    let opts = options("url-empty-port");
    // localhost: the frame's navigation stays on this machine.
    set(&opts, "serviceUrl", "HTTP://LocalHost:/charts//");
    let handle = render(opts).unwrap_throw();
    assert_eq!(
        the_form(&container).action(),
        "http://localhost/charts/embed/card-1/"
    );
    handle.destroy().unwrap_throw();
    for (mode, embed_mode) in MODES {
        let opts = options("url-empty-port");
        set(&opts, "mode", mode);
        set(&opts, "embedMode", embed_mode);
        set(&opts, "serviceUrl", "http://localhost:");
        render(opts).unwrap_throw().destroy().unwrap_throw();
    }
}

#[wasm_bindgen_test]
fn form_mode_sends_no_referrer() {
    let container = fresh_container("no-referrer");
    let handle = render(options("no-referrer")).unwrap_throw();
    let frame = frame_of(&handle);
    assert_eq!(
        frame.get_attribute("referrerpolicy").as_deref(),
        Some("no-referrer")
    );
    let form = the_form(&container);
    assert_eq!(form.get_attribute("rel").as_deref(), Some("noreferrer"));
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn a_repeated_received_calls_on_load_once() {
    fresh_container("pm-replay");
    let on_load = recorder();
    let options = postmessage_options("pm-replay");
    set(&options, "onLoad", on_load.clone());
    let handle = render(options).unwrap_throw();
    let frame = frame_of(&handle);
    frame_loaded(&frame).await;
    let shell = fake_shell(&frame);
    shell.say(&message("zdr:ready", JsValue::UNDEFINED));
    wait_until(|| shell.heard_count() == 1, "the data is sent on ready").await;
    let received = message("zdr:vizdata:received", fields(&[("id", 1.into())]));
    shell.say(&received);
    wait_until(|| on_load.count() == 1, "onLoad on received").await;
    shell.say(&received);
    shell.say(&received);
    settle().await;
    assert_eq!(on_load.count(), 1, "a replayed received is ignored");

    // A reload of the shell (a second ready) is a new draw of the same data.
    shell.say(&message("zdr:ready", JsValue::UNDEFINED));
    wait_until(|| shell.heard_count() == 2, "the data is sent again").await;
    shell.say(&received);
    wait_until(|| on_load.count() == 2, "onLoad after the reload").await;
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn resize_is_clamped_to_10000_px() {
    fresh_container("pm-resize-huge");
    let options = postmessage_options("pm-resize-huge");
    set(&options, "height", "auto");
    let handle = render(options).unwrap_throw();
    let frame = frame_of(&handle);
    frame_loaded(&frame).await;
    let shell = fake_shell(&frame);
    shell.say(&message("zdr:ready", JsValue::UNDEFINED));
    shell.say(&message(
        "zdr:resize",
        fields(&[("height", 100_000.into())]),
    ));
    settle().await;
    assert_eq!(
        frame.style().get_property_value("height").unwrap_throw(),
        "10000px"
    );
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
fn message_strings_are_bounded_before_they_are_copied() {
    use zdr_protocol::message::{
        decode_to_shell, Fields, ShellInbox, MAX_MESSAGE_UNITS, MAX_VIZDATA_UNITS,
    };
    let huge = "x".repeat(MAX_VIZDATA_UNITS as usize + 1);
    let data = message(
        "zdr:vizdata",
        fields(&[("id", 9.into()), ("visualization_data", huge.into())]),
    );
    let read = Fields::read(&data);
    assert_eq!(read.visualization_data, None, "over the bound: not copied");
    match decode_to_shell(&read) {
        Some(ShellInbox::Refused { id: 9, message }) => {
            assert!(
                message.contains(&MAX_VIZDATA_UNITS.to_string()),
                "{message}"
            )
        }
        other => panic!("expected a refusal, found {other:?}"),
    }
    let fits = message(
        "zdr:vizdata",
        fields(&[("id", 9.into()), ("visualization_data", "{}".into())]),
    );
    assert_eq!(
        Fields::read(&fits).visualization_data.as_deref(),
        Some("{}")
    );

    let long = message(
        "zdr:vizdata:error",
        fields(&[("id", 1.into()), ("message", "y".repeat(1_000_000).into())]),
    );
    let message_read = Fields::read(&long).message.unwrap_or_default();
    assert_eq!(message_read.len(), MAX_MESSAGE_UNITS as usize);

    // Other senders' messages are not read past their type.
    let foreign = fields(&[
        ("type", "other:vizdata".into()),
        ("visualization_data", "{}".into()),
    ]);
    assert_eq!(Fields::read(&foreign), Fields::default());
    assert_eq!(
        Fields::read(&JsValue::from_str("zdr:ready")),
        Fields::default()
    );
}

#[wasm_bindgen_test]
async fn postmessage_refuses_data_the_shell_would_not_read() {
    fresh_container("pm-huge");
    let on_error = recorder();
    let options = postmessage_options("pm-huge");
    set(&options, "onError", on_error.clone());
    let title = "t".repeat(zdr_protocol::message::MAX_VIZDATA_UNITS as usize);
    set(&options, "visualizationData", sample_data(&title));
    let handle = render(options).unwrap_throw();
    wait_until(|| on_error.count() == 1, "onError for oversized data").await;
    let error = on_error.last();
    assert_eq!(error_code(&error).as_string().unwrap(), "invalid_data");
    assert!(message_of(&error).contains("embedMode \"postmessage\" sends at most"));
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn the_form_post_carries_no_referrer_where_the_browser_honours_rel() {
    fresh_container("referrer-post");
    let on_load = recorder();
    let opts = options("referrer-post");
    set(&opts, "onLoad", &on_load);
    let handle = render(opts).unwrap_throw();
    wait_until(|| on_load.count() >= 1, "onLoad fired").await;
    let referrer = frame_of(&handle)
        .content_document()
        .map(|doc| doc.referrer())
        .expect("the runner's page is same-origin");
    let agent = get(
        &get(&web_sys::window().unwrap().into(), "navigator"),
        "userAgent",
    )
    .as_string()
    .unwrap_or_default();
    // Chromium ignores rel on a form that targets a frame (docs/widget.md, "Errors").
    if agent.contains("Firefox") {
        assert_eq!(referrer, "", "Firefox honours rel=\"noreferrer\"");
    }
    handle.destroy().unwrap_throw();
}

#[wasm_bindgen_test]
async fn service_mode_needs_no_engine_and_local_mode_without_a_loader_says_so() {
    // This test module registers no engine loader: the service path stands alone.
    let container = fresh_container("no-engine");
    let handle = render(options("no-engine")).unwrap_throw();
    assert!(container.query_selector("form").unwrap_throw().is_some());
    handle.destroy().unwrap_throw();

    let errors = recorder();
    let local = options("no-engine");
    set(&local, "mode", "local");
    set(&local, "onError", &errors);
    let handle = render(local).unwrap_throw();
    wait_until(|| errors.count() == 1, "onError without an engine").await;
    assert_eq!(error_code(&errors.last()), "engine_unavailable");
    assert!(
        message_of(&errors.last()).contains("no engine loader is registered"),
        "{}",
        message_of(&errors.last())
    );
    assert!(
        container.query_selector("canvas").unwrap_throw().is_none(),
        "nothing drawn"
    );
    handle.destroy().unwrap_throw();
    assert_eq!(
        container.child_element_count(),
        0,
        "destroy removes the box that held the card's place"
    );
}
