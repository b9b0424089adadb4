//! The chart engine is a second WebAssembly module, fetched the first time
//! the page needs a card drawn in it (local mode, an `auto` fallback,
//! `preload()`) and shared by every card of the page.
//!
//! The package entry (or the drop-in script) registers a loader with
//! `__setEngineLoader(() => import(".../engine/zdr_engine.js"))`; this module
//! calls it at most once at a time, awaits the namespace's default export
//! (the engine's `init`), and keeps the namespace. A failed load is reported
//! to whoever waited and forgotten, so a later card tries again (a network
//! blip should not disable drawing for the life of the page).

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use web_sys::Element;

use crate::error::{describe_thrown, EmbedError, Fail};
use crate::settled::when_settled;

#[wasm_bindgen]
extern "C" {
    /// The engine module's namespace (`import("…/zdr_engine.js")`).
    #[derive(Clone)]
    pub type EngineNamespace;
    #[wasm_bindgen(method, catch, js_name = mountLocal)]
    fn mount_local(
        this: &EngineNamespace,
        container: &Element,
        settings: &JsValue,
    ) -> Result<LocalDrawing, JsValue>;

    /// A card the engine draws in the page (`zdr_engine.LocalDrawing`).
    #[derive(Clone)]
    pub type LocalDrawing;
    #[wasm_bindgen(method, catch)]
    pub fn update(this: &LocalDrawing, data: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    pub fn destroy(this: &LocalDrawing) -> Result<(), JsValue>;
    #[wasm_bindgen(method, catch, js_name = toSVG)]
    pub fn to_svg(this: &LocalDrawing) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, js_name = setView)]
    pub fn set_view(this: &LocalDrawing, view: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(method, catch, js_name = setSeriesVisible)]
    pub fn set_series_visible(
        this: &LocalDrawing,
        name: &JsValue,
        visible: &JsValue,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, js_name = toCSV)]
    pub fn to_csv(this: &LocalDrawing) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, js_name = toPNG)]
    pub fn to_png(this: &LocalDrawing) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, getter)]
    pub fn canvas(this: &LocalDrawing) -> JsValue;
}

/// Called with the engine once it is there, or with why it is not.
pub type Waiter = Box<dyn FnOnce(Result<&EngineNamespace, &EmbedError>)>;

enum State {
    NotRequested,
    Loading(Vec<Waiter>),
    Ready(EngineNamespace),
}

thread_local! {
    static LOADER: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    static STATE: RefCell<State> = const { RefCell::new(State::NotRequested) };
}

/// Registers how to fetch the engine (the package entry does this at import).
pub fn set_loader(loader: js_sys::Function) {
    LOADER.with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            *slot = Some(loader);
        }
    });
}

/// The engine, if it has arrived.
pub fn ready() -> Option<EngineNamespace> {
    STATE.with(|state| match &*state.try_borrow().ok()? {
        State::Ready(engine) => Some(engine.clone()),
        _ => None,
    })
}

/// Calls `waiter` with the engine: now if it is there (or cannot be asked
/// for), else once it has loaded. Starts the load if nobody has yet.
pub fn when_ready(waiter: Waiter) {
    if let Some(engine) = ready() {
        return waiter(Ok(&engine));
    }
    let started = STATE.with(|state| {
        let Ok(mut state) = state.try_borrow_mut() else {
            return Err(waiter);
        };
        match &mut *state {
            State::Loading(waiters) => {
                waiters.push(waiter);
                Ok(false)
            }
            State::NotRequested => {
                *state = State::Loading(vec![waiter]);
                Ok(true)
            }
            // Arrived between the two borrows: impossible without page code between them.
            State::Ready(_) => Err(waiter),
        }
    });
    match started {
        Ok(true) => load(),
        Ok(false) => {}
        Err(waiter) => waiter(Err(&EmbedError::EngineUnavailable {
            reason: "the widget is busy (called from inside a callback?)".into(),
        })),
    }
}

/// Calls the loader and settles every waiter with what it gives.
fn load() {
    let loader = LOADER.with(|slot| slot.try_borrow().ok().and_then(|slot| slot.clone()));
    let Some(loader) = loader else {
        return settle(Err(EmbedError::EngineUnavailable {
            reason: "no engine loader is registered; import the widget through its package entry (zdr_embed.js) or the drop-in script, which register one".into(),
        }));
    };
    // The loader is page code: it may throw instead of rejecting.
    match loader.call1(&JsValue::NULL, &JsValue::UNDEFINED) {
        Ok(namespace) => when_settled(&namespace, |outcome| match outcome {
            Ok(namespace) => start(namespace),
            Err(thrown) => settle(Err(unavailable(&thrown))),
        }),
        Err(thrown) => settle(Err(unavailable(&thrown))),
    }
}

/// Runs the namespace's `init` (the default export), then checks it is an engine.
fn start(namespace: JsValue) {
    if !namespace.is_object() {
        return settle(Err(unavailable(
            &"the loader did not give a module namespace".into(),
        )));
    }
    let init = js_sys::Reflect::get(&namespace, &"default".into())
        .ok()
        .and_then(|init| init.dyn_into::<js_sys::Function>().ok());
    let started = match init {
        Some(init) => init.call1(&JsValue::NULL, &JsValue::UNDEFINED),
        None => Ok(JsValue::UNDEFINED),
    };
    let started = match started {
        Ok(started) => started,
        Err(thrown) => return settle(Err(unavailable(&thrown))),
    };
    when_settled(&started, move |outcome| {
        let ready = outcome.and_then(|_| {
            let mount = js_sys::Reflect::get(&namespace, &"mountLocal".into())?;
            if mount.is_function() {
                Ok(namespace.unchecked_into())
            } else {
                Err("the loaded module has no mountLocal: is it zdr_engine.js?".into())
            }
        });
        settle(ready.map_err(|thrown| unavailable(&thrown)));
    });
}

fn unavailable(thrown: &JsValue) -> EmbedError {
    // A failed dynamic import names the URL it could not fetch.
    EmbedError::EngineUnavailable {
        reason: describe_thrown(thrown),
    }
}

fn settle(outcome: Result<EngineNamespace, EmbedError>) {
    let next = match &outcome {
        Ok(engine) => State::Ready(engine.clone()),
        Err(_) => State::NotRequested,
    };
    let waiters = STATE.with(|state| match state.try_borrow_mut() {
        Ok(mut state) => match std::mem::replace(&mut *state, next) {
            State::Loading(waiters) => waiters,
            _ => Vec::new(),
        },
        Err(_) => Vec::new(),
    });
    // Outside the borrow: waiters run page code (callbacks), which may render again.
    for waiter in waiters {
        waiter(outcome.as_ref());
    }
}

/// `mountLocal` of the engine; its refusals in the widget's words.
pub fn mount(
    engine: &EngineNamespace,
    container: &Element,
    settings: &JsValue,
) -> Result<LocalDrawing, Fail> {
    engine
        .mount_local(container, settings)
        .map_err(|thrown| EmbedError::from_engine(&thrown).into())
}
