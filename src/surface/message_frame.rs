//! `embedMode: "postmessage"`: the iframe loads the service's shell page, and
//! the data goes to it by `postMessage` instead of a form post. The shell
//! draws in the browser, so the data never reaches the service, and an
//! update redraws without reloading the frame.
//!
//! Trust runs one way: messages are sent only to the service's exact origin
//! (never `*`), and only messages whose source is this frame's window and
//! whose origin is the service's are read. The shell's `ready` is proof the
//! service's page is there; until it arrives nothing else from it counts.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use wasm_bindgen::prelude::*;
use web_sys::{HtmlIFrameElement, MessageEvent};

use zdr_protocol::layout::AUTO_ASPECT_RATIO;
use zdr_protocol::message::{
    decode_to_widget, encode_vizdata, Fields, ToWidget, MAX_VIZDATA_UNITS, VERSION,
};
use zdr_protocol::text::{concat, decimal};

use super::frame::{create_frame, FrameSpec};
use crate::error::{describe_thrown, EmbedError, Fail};
use crate::js_value::{PostTarget, WithOrigin};
use crate::listener::Listener;
use crate::payload::Payload;
use crate::sink::{Event, Sink};
use crate::timer::Timeout;

/// What the message channel needs beyond the frame itself (a [`FrameSpec`]
/// whose `address` is the shell's: the embed address with
/// `embed_mode=postmessage` and this page's origin in the query).
pub struct ChannelSpec<'a> {
    /// The service's origin, as the browser serialises it.
    pub service_origin: &'a str,
    /// The `height: "auto"` option: the frame takes the content's height.
    pub auto_height: bool,
    /// How long to wait for `ready` before reporting; `None` when someone
    /// else watches (auto mode's fallback).
    pub ready_timeout_ms: Option<u32>,
}

/// The iframe with the service's shell. Dropping it removes the frame, the
/// message listener and the ready timer.
pub struct MessageFrame {
    /// The channel's frame too, so the handle reads it without a borrow.
    frame: HtmlIFrameElement,
    channel: Rc<RefCell<Channel>>,
    _listener: Listener,
}

struct Channel {
    frame: HtmlIFrameElement,
    /// A JS string: compared with each message's origin and handed to
    /// `postMessage` without a copy through the module.
    service_origin: JsValue,
    auto_height: bool,
    ready: bool,
    /// The latest data and its id; kept to send on `ready` (again, after a reload).
    latest: Option<(u32, js_sys::JsString)>,
    /// The id the shell last said `received` for since its `ready`: a
    /// repeat is not a new draw, and must not call `onLoad` again.
    acknowledged: Option<u32>,
    next_id: u32,
    ready_timer: Option<Timeout>,
}

impl MessageFrame {
    /// Creates the frame and starts loading the shell. Data is sent by `show`.
    pub fn create(
        spec: &FrameSpec<'_>,
        channel_spec: &ChannelSpec<'_>,
        events: Sink,
    ) -> Result<MessageFrame, Fail> {
        let dom = |thrown: JsValue| EmbedError::dom("create the iframe", &thrown);
        let window = crate::page::window().ok_or_else(|| dom(JsValue::from_str("no window")))?;
        let frame = create_frame(spec).map_err(dom)?;
        if channel_spec.auto_height {
            // The shell's card has this shape, so the first guess is right; a
            // zero-height frame would also be throttled and never report.
            frame
                .style()
                .set_property("aspect-ratio", AUTO_ASPECT_RATIO)
                .map_err(dom)?;
        }
        let channel = Rc::new(RefCell::new(Channel {
            frame: frame.clone(),
            service_origin: channel_spec.service_origin.into(),
            auto_height: channel_spec.auto_height,
            ready: false,
            latest: None,
            acknowledged: None,
            next_id: 0,
            ready_timer: None,
        }));
        // Listening before the shell can load, so its `ready` is never missed.
        let listener = {
            let channel = Rc::downgrade(&channel);
            Listener::new(&window, "message", move |event| {
                if let Some(event) = event.dyn_ref::<MessageEvent>() {
                    received(&channel, events, event);
                }
            })
        };
        if let Some(timeout_ms) = channel_spec.ready_timeout_ms {
            let weak = Rc::downgrade(&channel);
            let timer = Timeout::new(
                timeout_ms,
                Box::new(move || {
                    let waiting = weak
                        .upgrade()
                        .and_then(|channel| channel.try_borrow().ok().map(|c| !c.ready));
                    if waiting == Some(true) {
                        events.send(Event::Failed(
                            EmbedError::ServiceNotReady { timeout_ms }.into(),
                        ));
                    }
                }),
            );
            if let Ok(mut open) = channel.try_borrow_mut() {
                open.ready_timer = Some(timer);
            }
        }
        // A sandbox keeps the service's page from navigating this page, opening
        // windows or submitting forms; it keeps its own origin (the wasm loads
        // from it, and its messages must carry it).
        // (With a service on the page's own origin this is no sandbox at all:
        // docs/postmessage-protocol.md says so.)
        frame
            .set_attribute("sandbox", "allow-scripts allow-same-origin")
            .map_err(dom)?;
        frame.set_attribute("src", spec.address).map_err(dom)?;
        spec.container.append_child(&frame).map_err(dom)?;
        Ok(MessageFrame {
            frame,
            channel,
            _listener: listener,
        })
    }
}

impl Drop for MessageFrame {
    fn drop(&mut self) {
        self.frame.remove();
    }
}

impl MessageFrame {
    pub fn frame(&self) -> &HtmlIFrameElement {
        &self.frame
    }

    pub fn show(&mut self, payload: &Payload) -> Result<(), Fail> {
        let mut channel = self.channel.try_borrow_mut().map_err(|_| {
            Fail::from(EmbedError::Dom {
                action: "send the data to the service's page",
                reason: "the frame is busy (called from inside a callback?)".into(),
            })
        })?;
        let json = payload.text()?;
        check_size(&json)?;
        channel.next_id = channel.next_id.wrapping_add(1);
        channel.latest = Some((channel.next_id, json));
        // Before `ready` the data waits; only the latest is ever sent.
        if channel.ready {
            channel.send_latest()?;
        }
        Ok(())
    }
}

impl Channel {
    fn send_latest(&self) -> Result<(), Fail> {
        let Some((id, json)) = &self.latest else {
            return Ok(());
        };
        let failed = |reason: String| {
            Fail::from(EmbedError::Dom {
                action: "send the data to the service's page",
                reason,
            })
        };
        let target = self
            .frame
            .content_window()
            .ok_or_else(|| failed("the iframe is no longer in the document".into()))?;
        // The exact origin: if the frame now shows anything else, the browser drops it.
        target
            .unchecked_ref::<PostTarget>()
            .post_message(&encode_vizdata(*id, json), &self.service_origin)
            .map_err(|thrown| failed(describe_thrown(&thrown)))
    }

    /// Whether `event` comes from the shell in this frame.
    fn is_from_shell(&self, event: &MessageEvent) -> bool {
        if event.unchecked_ref::<WithOrigin>().origin() != self.service_origin {
            return false;
        }
        match (event.source(), self.frame.content_window()) {
            (Some(source), Some(window)) => js_sys::Object::is(&source, &window),
            _ => false,
        }
    }

    fn is_latest(&self, id: u32) -> bool {
        self.latest
            .as_ref()
            .is_some_and(|(latest, _)| *latest == id)
    }
}

/// The shell refuses (without reading it) a text over [`MAX_VIZDATA_UNITS`];
/// saying so here, with the size, is clearer than its refusal.
fn check_size(json: &js_sys::JsString) -> Result<(), Fail> {
    let units = json.length();
    if units <= MAX_VIZDATA_UNITS {
        return Ok(());
    }
    Err(EmbedError::InvalidData {
        reason: concat(&[
            "its JSON text is ",
            &decimal(units),
            " UTF-16 units long, and embedMode \"postmessage\" sends at most ",
            &decimal(MAX_VIZDATA_UNITS),
            "; send fewer points",
        ]),
    }
    .into())
}

/// One message on the page's window: ours or not, and what it means.
fn received(channel: &Weak<RefCell<Channel>>, events: Sink, event: &MessageEvent) {
    if zdr_protocol::failure::has_failed() {
        return;
    }
    let Some(channel) = channel.upgrade() else {
        return;
    };
    let outcome = {
        let Ok(mut open) = channel.try_borrow_mut() else {
            return;
        };
        if !open.is_from_shell(event) {
            return;
        }
        let Some(message) = decode_to_widget(&Fields::read(&event.data())) else {
            return;
        };
        open.handle(message)
    };
    // Outside the borrow: the embed runs page code (onLoad, onError).
    let (first, then) = outcome;
    for event in [first, then].into_iter().flatten() {
        events.send(event);
    }
}

impl Channel {
    /// Updates the channel; returns what the embed must hear (at most two
    /// events, in order), once no borrow is held.
    fn handle(&mut self, message: ToWidget) -> (Option<Event>, Option<Event>) {
        let failed = |error: EmbedError| Some(Event::Failed(error.into()));
        match message {
            ToWidget::Ready { version } if version != VERSION => {
                self.ready_timer = None;
                let expected = VERSION;
                (
                    failed(EmbedError::ProtocolVersion {
                        found: version,
                        expected,
                    }),
                    None,
                )
            }
            ToWidget::Ready { .. } => {
                self.ready = true;
                // A new page in the frame: the data is sent and drawn anew.
                self.acknowledged = None;
                self.ready_timer = None;
                let sent = self.send_latest().err().map(Event::Failed);
                (Some(Event::Ready), sent)
            }
            // Before `ready`, nothing the frame says is trusted.
            _ if !self.ready => (None, None),
            // Answers about older data are stale: newer data is on its way.
            ToWidget::Received { id } if self.is_latest(id) && self.acknowledged != Some(id) => {
                self.acknowledged = Some(id);
                (Some(Event::Loaded(self.frame.clone().into())), None)
            }
            ToWidget::Error { id, message } if self.is_latest(id) => {
                (failed(EmbedError::ServiceRejected { message }), None)
            }
            ToWidget::Resize { height } if self.auto_height => {
                // Already whole pixels, at most MAX_RESIZE_PX (decode_to_widget),
                // so written as an integer (float formatting is large code).
                let _ = self
                    .frame
                    .style()
                    .set_property("height", &concat(&[&decimal(height as u32), "px"]));
                (None, None)
            }
            _ => (None, None),
        }
    }
}
