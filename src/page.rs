//! The page's `window`, read from the one global that names it.
//!
//! `web_sys::window()` looks through `globalThis`, `self`, `window` and
//! `global` (four imports and the code to try them) to serve every kind of
//! worker too; the widget runs in a window or not at all.

use wasm_bindgen::prelude::*;
use web_sys::Window;

#[wasm_bindgen]
extern "C" {
    /// `null` where no `window` is defined (a worker).
    #[wasm_bindgen(thread_local_v2, js_name = window)]
    static WINDOW: Option<Window>;
}

/// The page's window; `None` outside a browser window.
pub fn window() -> Option<Window> {
    WINDOW.with(Clone::clone)
}
