//! What a card's surfaces and its auto-mode watch report, and where to.
//!
//! Every browser callback of a card (a frame's load, the shell's messages,
//! a timer, the probe's answer, the engine's draws) ends in one function of
//! the embed module, named by a plain function pointer and the card's id:
//! no closure per card and no reference count, and the surfaces need not
//! name the embed module (which names them).

use wasm_bindgen::JsValue;

use crate::error::Fail;

/// What happened to one card, reported outside any borrow of the registry.
pub enum Event {
    /// New data is on screen in this element (the frame's page loaded, the
    /// shell received the data, or the canvas was drawn).
    Loaded(JsValue),
    /// The postMessage shell is listening: the service is there.
    Ready,
    /// Showing the card failed; for `onError`.
    Failed(Fail),
    /// Auto mode: the probe had an answer, so the service is there.
    Answered,
    /// Auto mode: the probe could not reach the service (why, in words).
    Unreachable(String),
    /// Auto mode: the service's page had not loaded after this many ms.
    TimedOut(u32),
}

/// Where one card's events go.
#[derive(Clone, Copy)]
pub struct Sink {
    pub id: u32,
    pub to: fn(u32, Event),
}

impl Sink {
    pub fn send(self, event: Event) {
        (self.to)(self.id, event);
    }
}
