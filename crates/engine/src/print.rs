//! Printing: a card drawn at the size it is printed at and at print
//! resolution, not the screen's pixels stretched. When the page starts to
//! print (`beforeprint`, or print media applying, as print preview and
//! emulation do), the card is drawn at once at its printed size with at
//! least [`PRINT_RATIO`] device pixels per CSS pixel; afterwards it is
//! drawn for the screen again.

use gloo_events::EventListener;
use web_sys::Window;

/// Device pixels per CSS pixel when printing: about 300 dpi on paper.
pub const PRINT_RATIO: f64 = 3.0;

/// The print listeners of a card; dropping it unsubscribes them.
pub struct PrintWatch {
    _listeners: Vec<EventListener>,
}

impl PrintWatch {
    /// Calls `changed(true)` when printing starts and `changed(false)` when it ends.
    pub fn new(window: &Window, changed: impl Fn(bool) + Clone + 'static) -> PrintWatch {
        let mut listeners = Vec::with_capacity(3);
        for (kind, printing) in [("beforeprint", true), ("afterprint", false)] {
            let changed = changed.clone();
            listeners.push(EventListener::new(window, kind, move |_| changed(printing)));
        }
        if let Ok(Some(print)) = window.match_media("print") {
            let media = print.clone();
            listeners.push(EventListener::new(&print, "change", move |_| {
                changed(media.matches())
            }));
        }
        PrintWatch {
            _listeners: listeners,
        }
    }
}
