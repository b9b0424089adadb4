//! `mode: "auto"`: watching the service frame and deciding whether to draw locally.
//!
//! A frame's `load` event cannot tell the service's page from the browser's
//! own "site can't be reached" page (both fire `load`, both are cross-origin),
//! so reachability is asked separately: one `HEAD` request to the embed
//! address, without the data, credentials or referrer, in `no-cors` mode. Any
//! HTTP answer (even 404 or 500) means the service is there; a network error
//! (refused connection, DNS or TLS failure, blocked by the page's CSP
//! `connect-src`) means it is not. The card counts as shown by the service
//! once both the probe has answered and the frame has loaded; if that has
//! not happened within `timeoutMs`, or the probe fails, the card is drawn in
//! the page instead.
//!
//! With `embedMode: "postmessage"` there is no probe: the shell's `ready`
//! message, which only the service's page in this frame can send, is better
//! proof than any request, and the timeout alone decides a fallback.

use gloo_timers::callback::Timeout;
use wasm_bindgen::JsCast;
use web_sys::{
    AbortController, ReferrerPolicy, RequestCache, RequestCredentials, RequestInit, RequestMode,
};

use crate::error::describe_thrown;

/// What the watch has seen so far.
pub struct Watch {
    _timer: Timeout,
    probe: Option<AbortController>,
    pub frame_loaded: bool,
    pub service_answered: bool,
}

/// Where the watch reports; the embed module decides what each event means.
pub trait Verdicts: 'static {
    fn answered(&self);
    fn unreachable(&self, reason: String);
    fn timed_out(&self, timeout_ms: u32);
}

impl Watch {
    /// Starts the timer, and the probe when `address` is given.
    pub fn start(address: Option<&str>, timeout_ms: u32, verdicts: impl Verdicts + Clone) -> Watch {
        let on_timeout = verdicts.clone();
        let timer = Timeout::new(timeout_ms, move || on_timeout.timed_out(timeout_ms));
        let probe = address.and_then(|address| probe(address, verdicts));
        Watch {
            _timer: timer,
            probe,
            frame_loaded: false,
            service_answered: false,
        }
    }

    /// True once the service has shown the card.
    pub fn settled(&self) -> bool {
        self.frame_loaded && self.service_answered
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        // An abandoned probe must not report later; aborting a finished fetch does nothing.
        if let Some(probe) = &self.probe {
            probe.abort();
        }
    }
}

/// Sends the probe. Without `AbortController` or `fetch` (very old browsers)
/// there is no probe, and only the timeout can trigger a fallback.
fn probe(address: &str, verdicts: impl Verdicts) -> Option<AbortController> {
    let window = web_sys::window()?;
    let controller = AbortController::new().ok()?;
    let init = RequestInit::new();
    init.set_method("HEAD");
    init.set_mode(RequestMode::NoCors);
    init.set_credentials(RequestCredentials::Omit);
    init.set_cache(RequestCache::NoStore);
    init.set_referrer_policy(ReferrerPolicy::NoReferrer);
    init.set_signal(Some(&controller.signal()));
    let signal = controller.signal();
    let request = window.fetch_with_str_and_init(address, &init);
    crate::settled::when_settled(&request, move |outcome| {
        if signal.aborted() {
            return;
        }
        match outcome {
            Ok(_) => verdicts.answered(),
            Err(thrown) => verdicts.unreachable(reason(&thrown)),
        }
    });
    Some(controller)
}

fn reason(thrown: &wasm_bindgen::JsValue) -> String {
    // Browsers word it differently ("Failed to fetch", "NetworkError when
    // attempting to fetch resource."); say what it means, then what they said.
    let said = if thrown.is_instance_of::<js_sys::Error>() {
        describe_thrown(thrown)
    } else {
        "no answer".into()
    };
    format!("the service could not be reached ({said})")
}
