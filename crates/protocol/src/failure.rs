//! After a panic a module stops for good. In WebAssembly a panic is a trap
//! that leaves the instance's memory in whatever state it was (a borrow held,
//! a half-built value), and every chart in the page shares that instance. So
//! the panic hook says so once, without the panic's text (it may quote the
//! page's data), and every later call throws a clear error instead of running
//! on a broken state. No input should ever panic; this is the last line.
//!
//! Each of the two modules (service, engine) is its own instance with its own
//! flag: a panic in the engine stops drawing, not the service's frames.

use std::sync::atomic::{AtomicBool, Ordering};

/// The one line the console gets: no payload, nothing from the page.
pub const CONSOLE_LINE: &str =
    "zdr-embed: internal error; the widget has stopped. Reload the page.";

/// What an entry point answers after a panic; each module words it into its own error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

static FAILED: AtomicBool = AtomicBool::new(false);
/// Whether the hook is installed; a flag rather than `std::sync::Once`,
/// whose poisoning machinery the service module's size budget cannot afford.
static HOOKED: AtomicBool = AtomicBool::new(false);

/// Installs the hook (once), then refuses the call if the module has
/// stopped. Every exported entry point starts with it.
pub fn guard() -> Result<(), Stopped> {
    if !HOOKED.swap(true, Ordering::Relaxed) {
        // Chained in debug builds, so a test runner's hook still reports its
        // failures. Release builds do not: there the previous hook is std's,
        // whose stderr goes nowhere in wasm, and leaving it out drops its
        // message formatting from the module.
        #[cfg(debug_assertions)]
        {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                on_panic();
                previous(info);
            }));
        }
        #[cfg(not(debug_assertions))]
        std::panic::set_hook(Box::new(|_| on_panic()));
    }
    if has_failed() {
        return Err(Stopped);
    }
    Ok(())
}

/// Whether a panic has stopped the module; callbacks of the browser (events,
/// timers, messages) check it and do nothing then.
pub fn has_failed() -> bool {
    FAILED.load(Ordering::Relaxed)
}

fn on_panic() {
    // Marked first: logging calls into the browser, which could fail too.
    let first = !FAILED.swap(true, Ordering::Relaxed);
    if first {
        report();
    }
}

#[cfg(target_arch = "wasm32")]
fn report() {
    web_sys::console::error_1(&CONSOLE_LINE.into());
}

#[cfg(not(target_arch = "wasm32"))]
fn report() {
    // Native builds (tests, fuzzing) have no console to call.
    eprintln!("{CONSOLE_LINE}");
}
