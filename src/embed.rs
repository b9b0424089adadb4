//! Live embeds: their frames, pending forms and listeners, and the handles that reach them.
//!
//! Embeds live in a registry, not in the JS handle, because pages often drop the
//! handle (`ServiceZDREmbed.render({...})` on its own line): a garbage-collected
//! handle must not cancel the form removal or silence `onLoad`. Only `destroy()`
//! ends an embed.

use std::cell::{Cell, RefCell};

use gloo_events::EventListener;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlIFrameElement};

use crate::error::{describe_thrown, Call, EmbedError};
use crate::form_post::{PendingForm, Post};
use crate::options::EmbedOptions;
use crate::payload::Payload;

type EmbedId = u32;

thread_local! {
    static LIVE: RefCell<Registry> = const { RefCell::new(Registry(Vec::new())) };
    static NEXT_ID: Cell<EmbedId> = const { Cell::new(1) };
    static FRAME_PREFIX: String = frame_prefix();
}

/// The live embeds. A page has a handful, so a vector beats a map in code size.
struct Registry(Vec<(EmbedId, Embed)>);

impl Registry {
    fn get_mut(&mut self, id: &EmbedId) -> Option<&mut Embed> {
        self.0
            .iter_mut()
            .find(|(key, _)| key == id)
            .map(|(_, embed)| embed)
    }

    fn contains_key(&self, id: &EmbedId) -> bool {
        self.0.iter().any(|(key, _)| key == id)
    }

    fn insert(&mut self, id: EmbedId, embed: Embed) {
        self.0.push((id, embed));
    }

    fn remove(&mut self, id: &EmbedId) -> Option<Embed> {
        let index = self.0.iter().position(|(key, _)| key == id)?;
        Some(self.0.swap_remove(index).1)
    }
}

/// One card on the page. Dropping it removes the frame and the pending form and
/// unsubscribes the load listener.
struct Embed {
    frame: HtmlIFrameElement,
    frame_name: String,
    container: Element,
    address: String,
    on_error: Option<js_sys::Function>,
    _frame_load: EventListener,
    pending: Option<PendingForm>,
}

impl Drop for Embed {
    fn drop(&mut self) {
        self.frame.remove();
    }
}

/// What `render` returns: `{ iframe, destroy(), update(newVisualizationData) }`.
#[wasm_bindgen]
pub struct EmbedHandle {
    id: EmbedId,
    frame: HtmlIFrameElement,
}

#[wasm_bindgen]
impl EmbedHandle {
    /// The frame the card is shown in; still the same element after `destroy()`.
    #[wasm_bindgen(getter)]
    pub fn iframe(&self) -> HtmlIFrameElement {
        self.frame.clone()
    }

    /// Removes the frame and any pending form, and stops every timer and
    /// listener of this embed. Calling it again does nothing.
    pub fn destroy(&self) {
        // Taken out first and dropped after the borrow ends: removing a frame can
        // run the frame's own unload handlers, which may call back into the widget.
        let embed = LIVE.with(|live| live.borrow_mut().remove(&self.id));
        drop(embed);
    }

    /// Validates the new data and posts it into the same frame with the same options.
    /// Throws if the data is invalid or the embed was destroyed.
    pub fn update(
        &self,
        #[wasm_bindgen(
            js_name = "newVisualizationData",
            unchecked_param_type = "VisualizationData"
        )]
        new_visualization_data: JsValue,
    ) -> Result<(), JsValue> {
        if !is_live(self.id) {
            return Err(EmbedError::Destroyed.into());
        }
        let payload = Payload::from_js(Call::Update, &new_visualization_data)?;
        let document = crate::document(Call::Update)?;
        // The earlier form (if still pending) goes now; its post already left.
        let taken = LIVE.with(|live| {
            let mut live = live.borrow_mut();
            let embed = live.get_mut(&self.id)?;
            Some((embed.pending.take(), PostTarget::of(embed)))
        });
        // A getter in the new data may have called destroy() meanwhile.
        let Some((previous, target)) = taken else {
            return Err(EmbedError::Destroyed.into());
        };
        drop(previous);
        target.post(self.id, Call::Update, &document, &payload);
        Ok(())
    }
}

/// Owned copies of what a post needs, so no registry borrow is held across DOM calls.
struct PostTarget {
    container: Element,
    frame_name: String,
    address: String,
    on_error: Option<js_sys::Function>,
}

impl PostTarget {
    fn of(embed: &Embed) -> Self {
        PostTarget {
            container: embed.container.clone(),
            frame_name: embed.frame_name.clone(),
            address: embed.address.clone(),
            on_error: embed.on_error.clone(),
        }
    }

    /// Posts and records the pending form; failures go to `onError` (spec 4.16).
    fn post(&self, id: EmbedId, call: Call, document: &Document, payload: &Payload) {
        let post = Post {
            document,
            container: &self.container,
            frame_name: &self.frame_name,
            address: &self.address,
            json: &payload.json,
        };
        match post.submit(move || remove_due_form(id)) {
            Ok(pending) => {
                let unused = LIVE.with(|live| match live.borrow_mut().get_mut(&id) {
                    Some(embed) => embed.pending.replace(pending),
                    None => Some(pending),
                });
                drop(unused);
            }
            Err(thrown) => report(
                self.on_error.as_ref(),
                &EmbedError::Dom {
                    call,
                    action: "post the form",
                    reason: describe_thrown(&thrown),
                },
            ),
        }
    }
}

fn remove_due_form(id: EmbedId) {
    let due = LIVE.with(|live| {
        live.borrow_mut()
            .get_mut(&id)
            .and_then(|embed| embed.pending.take())
    });
    drop(due);
}

fn is_live(id: EmbedId) -> bool {
    LIVE.with(|live| live.borrow().contains_key(&id))
}

/// Creates the frame, posts the data and registers the embed.
/// Only a failure to create the frame itself is thrown; a failing form goes to `onError`.
pub fn start(
    call: Call,
    document: &Document,
    options: EmbedOptions,
) -> Result<EmbedHandle, EmbedError> {
    let frame_name = unique_frame_name(document);
    let title = options
        .payload
        .title
        .clone()
        .unwrap_or_else(|| format!("Chart {}", options.card_id));
    let frame = create_frame(document, &options, &frame_name, &title).map_err(|thrown| {
        EmbedError::Dom {
            call,
            action: "create the iframe",
            reason: describe_thrown(&thrown),
        }
    })?;
    let frame_load = on_frame_load(&frame, options.on_load.clone());

    let id = NEXT_ID.with(|next| {
        let id = next.get();
        next.set(id.wrapping_add(1).max(1));
        id
    });
    let embed = Embed {
        frame: frame.clone(),
        frame_name,
        container: options.container,
        address: options.address,
        on_error: options.on_error,
        _frame_load: frame_load,
        pending: None,
    };
    let target = PostTarget::of(&embed);
    LIVE.with(|live| live.borrow_mut().insert(id, embed));
    target.post(id, call, document, &options.payload);
    Ok(EmbedHandle { id, frame })
}

fn create_frame(
    document: &Document,
    options: &EmbedOptions,
    name: &str,
    title: &str,
) -> Result<HtmlIFrameElement, JsValue> {
    let frame: HtmlIFrameElement = document.create_element("iframe")?.dyn_into()?;
    frame.set_name(name);
    frame.set_title(title);
    // "scrolling" and "frameborder" are obsolete but still honoured, as in the service's widget.
    frame.set_attribute("scrolling", "no")?;
    frame.set_attribute("frameborder", "0")?;
    let style = frame.style();
    style.set_property("border", "0")?;
    style.set_property("width", &options.width)?;
    style.set_property("height", &options.height)?;
    options.container.append_child(&frame)?;
    Ok(frame)
}

/// Calls `onLoad(iframe)` for every document the service sends, skipping the
/// initial `about:blank` some browsers report as a load of its own.
fn on_frame_load(frame: &HtmlIFrameElement, on_load: Option<js_sys::Function>) -> EventListener {
    let loaded = frame.clone();
    EventListener::new(frame, "load", move |_event| {
        let blank = loaded
            .content_document()
            .is_some_and(|doc| doc.url().is_ok_and(|url| url == "about:blank"));
        if blank {
            return;
        }
        if let Some(callback) = &on_load {
            if let Err(thrown) = callback.call1(&JsValue::NULL, &loaded) {
                web_sys::console::error_2(&"zdr-embed: onLoad threw".into(), &thrown);
            }
        }
    })
}

/// Hands an error to `onError`, or logs it when there is none (spec 4.16).
pub fn report(on_error: Option<&js_sys::Function>, error: &EmbedError) {
    let js_error: JsValue = error.to_js_error().into();
    match on_error {
        Some(callback) => {
            if let Err(thrown) = callback.call1(&JsValue::NULL, &js_error) {
                web_sys::console::error_3(&"zdr-embed: onError threw".into(), &thrown, &js_error);
            }
        }
        None => web_sys::console::error_1(&js_error),
    }
}

/// Frame names must be unique across the page, even with two copies of the
/// widget loaded (the ES module and the drop-in script), hence a random prefix.
fn unique_frame_name(document: &Document) -> String {
    loop {
        let id = NEXT_ID.with(Cell::get);
        let name = FRAME_PREFIX.with(|prefix| format!("{prefix}-{id}"));
        let taken = document.get_elements_by_name(&name).length() > 0;
        if !taken {
            return name;
        }
        NEXT_ID.with(|next| next.set(id.wrapping_add(1).max(1)));
    }
}

fn frame_prefix() -> String {
    let random = (js_sys::Math::random() * f64::from(u32::MAX)) as u32;
    format!("zdr-embed-{random:08x}")
}
