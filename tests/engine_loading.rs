//! Loading the engine module on demand, in a real browser: `wasm-pack test
//! --headless --chrome` (and `--firefox`). The loader is a test double that
//! the test settles by hand, but what it gives is the real engine (linked
//! into this test module); the real dynamic import is covered end to end
//! (tests/e2e). The engine's state is per page, so this is one scenario.
#![cfg(target_arch = "wasm32")]
// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

use zdr_embed::{preload, render, set_engine_loader};

mod support;
use support::*;

wasm_bindgen_test_configure!(run_in_browser);

fn local(container_id: &str, data: JsValue, loads: &Recorder, errors: &Recorder) -> JsValue {
    let options = js_sys::Object::new();
    set(&options, "containerId", container_id);
    set(&options, "mode", "local");
    set(&options, "height", "300px");
    set(&options, "visualizationData", data);
    set(&options, "onLoad", loads);
    set(&options, "onError", errors);
    options.into()
}

fn bad_data() -> JsValue {
    let data = sample_data("Bad");
    let points = get(&data, "data");
    set(&js_sys::Array::from(&points).get(1), "y", "twenty");
    data
}

#[wasm_bindgen_test]
async fn the_engine_loads_once_when_first_needed_and_every_card_shares_it() {
    let loader = controlled_loader(&engine_mount_local());
    set_engine_loader(loader.loader());

    // Service mode never asks for the engine.
    fresh_container("svc");
    let service = render(base_options("svc", JsValue::UNDEFINED)).unwrap_throw();
    assert!(!service.iframe().is_null());
    assert_eq!(loader.calls(), 0, "service mode loads no engine");
    service.destroy().unwrap_throw();

    // A load that fails: the local card and an auto fallback both hear it;
    // auto mode keeps its service frame.
    let failing = fresh_container("failing");
    let (loads, errors) = (recorder(), recorder());
    let card = render(local("failing", sample_data("Later"), &loads, &errors)).unwrap_throw();
    assert_eq!(loader.calls(), 1, "the first local card starts the load");
    assert_eq!(card.mode(), "local");
    assert!(card.canvas().is_null(), "nothing drawn before the engine");
    let auto_box = fresh_container("auto-failing");
    let auto_errors = recorder();
    let auto = base_options("auto-failing", JsValue::UNDEFINED);
    set(&auto, "mode", "auto");
    // Port 1 is refused at once: the fallback comes quickly.
    set(&auto, "serviceUrl", "http://127.0.0.1:1");
    set(&auto, "timeoutMs", 300);
    set(&auto, "onError", &auto_errors);
    let auto = render(auto).unwrap_throw();
    TimeoutFuture::new(700).await;
    assert_eq!(auto_errors.count(), 0, "the fallback waits for the engine");
    loader.fail(
        "Failed to fetch dynamically imported module: http://127.0.0.1/pkg/engine/zdr_engine.js",
    );
    wait_until(|| errors.count() == 1, "onError for the failed load").await;
    let error = errors.last();
    assert_eq!(error_code(&error), "engine_unavailable");
    assert!(
        message_of(&error).contains("engine/zdr_engine.js"),
        "{}",
        message_of(&error)
    );
    // Nothing drawn; the empty box still holds the card's place (a later
    // update asks for the engine again).
    assert_eq!(failing.child_element_count(), 1, "nothing drawn");
    assert!(
        failing
            .query_selector("div.zdr-embed-pending:empty")
            .unwrap_throw()
            .is_some(),
        "only the empty box of the card's size"
    );
    wait_until(|| auto_errors.count() == 1, "the auto card hears it too").await;
    assert_eq!(error_code(&auto_errors.last()), "engine_unavailable");
    assert_eq!(auto.mode(), "service");
    assert!(
        auto_box.query_selector("iframe").unwrap_throw().is_some(),
        "the frame stays"
    );
    auto.destroy().unwrap_throw();

    // Several cards before the engine: one load for all of them.
    let before = loader.calls();
    let mut cards = Vec::new();
    for name in ["one", "two", "three"] {
        fresh_container(name);
        let (loads, errors) = (recorder(), recorder());
        let handle = render(local(name, sample_data(name), &loads, &errors)).unwrap_throw();
        cards.push((name, handle, loads, errors));
    }
    assert_eq!(loader.calls(), before + 1, "one load for three cards");
    // The card whose load failed asks again with new data, joining the same load.
    card.update(sample_data("Retried")).unwrap_throw();
    assert_eq!(loader.calls(), before + 1, "joins the load under way");
    // Bad data, before the engine can read it: render does not throw, onError hears it.
    fresh_container("bad");
    let (bad_loads, bad_errors) = (recorder(), recorder());
    let bad = render(local("bad", bad_data(), &bad_loads, &bad_errors)).unwrap_throw();
    // Destroyed before the engine arrives: nothing may appear later.
    let gone_box = fresh_container("gone");
    let (gone_loads, gone_errors) = (recorder(), recorder());
    let gone = render(local(
        "gone",
        sample_data("Gone"),
        &gone_loads,
        &gone_errors,
    ))
    .unwrap_throw();
    gone.destroy().unwrap_throw();
    // An update before the engine: the latest data is what gets drawn.
    cards[0].1.update(sample_data("Updated one")).unwrap_throw();
    // Exports need a drawing.
    assert_eq!(
        error_code(&cards[1].1.to_svg().err().unwrap()),
        "not_drawn_yet"
    );
    let png = JsFuture::from(cards[1].1.to_png()).await.err().unwrap();
    assert_eq!(error_code(&png), "not_drawn_yet");
    // preload() while loading joins the same load.
    let preloaded = JsFuture::from(preload());
    assert_eq!(loader.calls(), before + 1);

    loader.arrive();
    preloaded.await.unwrap_throw();
    for (name, handle, loads, errors) in &cards {
        wait_until(
            || loads.count() == 1,
            "each card drawn once the engine is there",
        )
        .await;
        assert_eq!(errors.count(), 0, "{name}: {:?}", errors.last());
        assert_eq!(
            loads.last(),
            handle.canvas(),
            "{name}: onLoad gets the canvas"
        );
    }
    // The summary in the name follows the frame, with the hidden table.
    named(
        &cards[0].1.canvas().unchecked_into::<web_sys::Element>(),
        "Updated one.",
    )
    .await;
    wait_until(|| loads.count() == 1, "the retried card drawn").await;
    named(
        &card.canvas().unchecked_into::<web_sys::Element>(),
        "Retried.",
    )
    .await;
    assert_eq!(errors.count(), 1, "only the failed load was reported");
    card.destroy().unwrap_throw();
    wait_until(|| bad_errors.count() == 1, "the bad card's data error").await;
    let error = bad_errors.last();
    assert_eq!(error_code(&error), "invalid_data");
    assert!(
        message_of(&error).starts_with("option \"visualizationData\" cannot be drawn: data[1].y"),
        "{}",
        message_of(&error)
    );
    assert_eq!(bad_loads.count(), 0);
    TimeoutFuture::new(100).await;
    assert_eq!(
        gone_box.child_element_count(),
        0,
        "a destroyed card stays gone"
    );
    assert_eq!((gone_loads.count(), gone_errors.count()), (0, 0));
    assert!(cards[1]
        .1
        .to_svg()
        .unwrap_throw()
        .as_string()
        .unwrap_throw()
        .starts_with("<svg"));
    assert_eq!(loader.calls(), before + 1, "still one load");

    // Once the engine is there, data errors throw from render as before,
    // and a card is mounted at once.
    let bad_box = fresh_container("bad-now");
    let (loads, errors) = (recorder(), recorder());
    let thrown = render(local("bad-now", bad_data(), &loads, &errors))
        .err()
        .unwrap();
    assert_eq!(error_code(&thrown), "invalid_data");
    assert!(
        message_of(&thrown)
            .starts_with("render: option \"visualizationData\" cannot be drawn: data[1].y"),
        "{}",
        message_of(&thrown)
    );
    assert_eq!(bad_box.child_element_count(), 0, "nothing created");
    fresh_container("now");
    let now = render(local("now", sample_data("Now"), &loads, &errors)).unwrap_throw();
    assert!(!now.canvas().is_null(), "mounted synchronously");
    assert_eq!(loader.calls(), before + 1);
    now.destroy().unwrap_throw();
    bad.destroy().unwrap_throw();
    for (_, handle, _, _) in cards {
        handle.destroy().unwrap_throw();
    }
}
