//! The spec's way (4.16): an iframe, and a hidden form that posts the data into it.

use std::cell::Cell;

use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlIFrameElement};

use super::form_post::{PendingForm, Post};
use crate::error::{EmbedError, Fail};
use crate::js_value::WithUrl;
use crate::listener::Listener;
use crate::payload::Payload;
use crate::sink::{Event, Sink};
use zdr_protocol::text::{concat, decimal, push_hex};

thread_local! {
    static NEXT_FRAME: Cell<u32> = const { Cell::new(1) };
    /// This copy's random prefix, drawn when the first frame is named; 0
    /// until then. A number, not a lazily made String, so no LazyCell
    /// machinery is linked (the service module's size budget).
    static FRAME_PREFIX: Cell<u32> = const { Cell::new(0) };
}

/// An iframe showing the service's page. Dropping it removes the frame and
/// any pending form, and unsubscribes the load listener.
pub struct ServiceFrame {
    frame: HtmlIFrameElement,
    frame_name: String,
    container: Element,
    address: String,
    _load: Listener,
    pending: Option<PendingForm>,
}

/// Where and how the frame goes.
pub struct FrameSpec<'a> {
    pub document: &'a Document,
    pub container: &'a Element,
    pub address: &'a str,
    pub width: &'a str,
    pub height: &'a str,
    pub title: &'a str,
}

impl ServiceFrame {
    /// Creates the frame (nothing is posted yet: call `show`). The sink
    /// hears `Loaded` each time a document from the service has loaded in it.
    pub fn create(spec: &FrameSpec<'_>, sink: Sink) -> Result<ServiceFrame, Fail> {
        let frame_name = unique_frame_name(spec.document);
        let frame = create_frame(spec)
            .and_then(|frame| {
                frame.set_attribute("name", &frame_name)?;
                spec.container.append_child(&frame)?;
                Ok(frame)
            })
            .map_err(|thrown| EmbedError::dom("create the iframe", &thrown))?;
        let loaded = frame.clone();
        let load = Listener::new(&frame, "load", move |_event| {
            // Some browsers report the initial about:blank as a load of its own.
            let blank = loaded
                .content_document()
                .and_then(|doc| doc.unchecked_ref::<WithUrl>().url().ok())
                .is_some_and(|url| url == "about:blank");
            if !blank {
                sink.send(Event::Loaded(loaded.clone().into()));
            }
        });
        Ok(ServiceFrame {
            frame,
            frame_name,
            container: spec.container.clone(),
            address: spec.address.to_owned(),
            _load: load,
            pending: None,
        })
    }
}

impl Drop for ServiceFrame {
    fn drop(&mut self) {
        self.frame.remove();
    }
}

impl ServiceFrame {
    pub fn frame(&self) -> &HtmlIFrameElement {
        &self.frame
    }

    pub fn show(&mut self, payload: &Payload) -> Result<(), Fail> {
        // The earlier form (if still pending) goes now; its post already left.
        self.pending = None;
        let document = self.frame.owner_document().ok_or_else(|| {
            Fail::from(EmbedError::Dom {
                action: "post the form",
                reason: "the iframe is no longer in a document".into(),
            })
        })?;
        let json = payload.text()?;
        let frame_size = self.measured_size();
        let post = Post {
            document: &document,
            container: &self.container,
            frame_name: &self.frame_name,
            address: &self.address,
            json: &json,
            frame_size: frame_size.as_deref(),
        };
        let pending = post
            .submit()
            .map_err(|thrown| EmbedError::dom("post the form", &thrown))?;
        self.pending = Some(pending);
        Ok(())
    }
}

impl ServiceFrame {
    /// The frame's inner size in whole CSS px as `WIDTHxHEIGHT`, measured
    /// now (a post after a resize says the new size); `None` while the
    /// frame is not laid out (a hidden container), which the service reads
    /// as no size.
    fn measured_size(&self) -> Option<String> {
        let whole = |px: i32| u32::try_from(px).ok().filter(|&px| px > 0);
        let width = whole(self.frame.client_width())?;
        let height = whole(self.frame.client_height())?;
        Some(concat(&[&decimal(width), "x", &decimal(height)]))
    }
}

/// A frame styled as the service's widget makes it, not yet in the page.
/// (`spec.address` is not set here: each kind of frame loads it its own way.)
pub(super) fn create_frame(spec: &FrameSpec<'_>) -> Result<HtmlIFrameElement, JsValue> {
    // Attributes, and no instanceof check on an element made just now: each
    // distinct browser call is an import of the size-budgeted service module.
    let frame: HtmlIFrameElement = spec.document.create_element("iframe")?.unchecked_into();
    frame.set_attribute("title", spec.title)?;
    // "scrolling" and "frameborder" are obsolete but still honoured, as in the service's widget.
    frame.set_attribute("scrolling", "no")?;
    frame.set_attribute("frameborder", "0")?;
    // The embedding page's address is none of the service's business.
    frame.set_attribute("referrerpolicy", "no-referrer")?;
    let style = frame.style();
    style.set_property("border", "0")?;
    style.set_property("width", spec.width)?;
    style.set_property("height", spec.height)?;
    Ok(frame)
}

/// Frame names must be unique across the page, even with two copies of the
/// widget loaded (the ES module and the drop-in script), hence a random prefix.
fn unique_frame_name(document: &Document) -> String {
    loop {
        let id = NEXT_FRAME.with(|next| {
            let id = next.get();
            next.set(id.wrapping_add(1).max(1));
            id
        });
        let mut name = String::from("zdr-embed-");
        push_hex(&mut name, frame_prefix(), 8);
        name.push('-');
        name.push_str(&decimal(id));
        if document.get_elements_by_name(&name).length() == 0 {
            return name;
        }
    }
}

fn frame_prefix() -> u32 {
    FRAME_PREFIX.with(|prefix| {
        if prefix.get() == 0 {
            let random = (js_sys::Math::random() * f64::from(u32::MAX)) as u32;
            prefix.set(random.max(1));
        }
        prefix.get()
    })
}
