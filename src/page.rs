//! The page's `window`, read from the one global that names it.
//!
//! `web_sys::window()` looks through `globalThis`, `self`, `window` and
//! `global` (four imports and the code to try them) to serve every kind of
//! worker too; the widget runs in a window or not at all. A getter read
//! each time, not a `thread_local_v2` static: the static's lazy cell (and
//! its poisoning panic) cost the module more than the reads.

use wasm_bindgen::prelude::*;
use web_sys::Window;

#[wasm_bindgen]
extern "C" {
    type Global;
    /// `globalThis.window`: `undefined` where there is none (a worker).
    #[wasm_bindgen(static_method_of = Global, js_class = "globalThis", js_name = window, getter)]
    fn window_of_global() -> Option<Window>;
}

/// The page's window; `None` outside a browser window.
pub fn window() -> Option<Window> {
    Global::window_of_global()
}
