//! Live embeds, the handles that reach them, and the mode switch of `auto`.
//!
//! Embeds live in a registry, not in the JS handle, because pages often drop the
//! handle (`ServiceZDREmbed.render({...})` on its own line): a garbage-collected
//! handle must not stop the card from drawing or silence `onLoad`. Only
//! `destroy()` ends an embed.
//!
//! Page code (callbacks, getters of the data) never runs while the registry
//! is borrowed: whatever it calls back into would find it busy.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{Document, HtmlIFrameElement};

use crate::error::{Call, EmbedError};
use crate::fallback::{Verdicts, Watch};
use crate::options::{Callbacks, EmbedOptions, Mode, Service};
use crate::payload::{Content, Payload};
use crate::surface::{
    canvas_to_png, CanvasSpec, ChannelSpec, FrameEvent, FrameSpec, LocalCanvas, MessageFrame,
    ServiceFrame, Shown, Surface, AUTO_HEIGHT,
};

type EmbedId = u32;

thread_local! {
    static LIVE: RefCell<Registry> = const { RefCell::new(Registry(Vec::new())) };
    static NEXT_ID: Cell<EmbedId> = const { Cell::new(1) };
}

/// The live embeds. A page has a handful, so a vector beats a map in code size.
struct Registry(Vec<(EmbedId, Embed)>);

impl Registry {
    fn get_mut(&mut self, id: EmbedId) -> Option<&mut Embed> {
        self.0
            .iter_mut()
            .find(|(key, _)| *key == id)
            .map(|(_, embed)| embed)
    }

    fn remove(&mut self, id: EmbedId) -> Option<Embed> {
        let index = self.0.iter().position(|(key, _)| *key == id)?;
        Some(self.0.swap_remove(index).1)
    }
}

/// Runs `f` on the embed `id`, if it is live and the registry is free.
/// After a panic nothing is live any more (see `failure`).
fn with_embed<R>(id: EmbedId, f: impl FnOnce(&mut Embed) -> R) -> Option<R> {
    if crate::failure::has_failed() {
        return None;
    }
    LIVE.with(|live| {
        let mut live = live.try_borrow_mut().ok()?;
        live.get_mut(id).map(f)
    })
}

/// One card on the page. Dropping it drops its surface, which removes
/// everything the card put in the page.
struct Embed {
    surface: Box<dyn Surface>,
    shown: Rc<RefCell<Shown>>,
    /// Set in auto mode until the service has shown the card or it fell back.
    watch: Option<Watch>,
    /// Whether data must be read for drawing (local and auto modes).
    draws: bool,
    /// The latest data, for a fallback that happens after an update.
    content: Content,
    settings: Settings,
}

/// What a surface made later (by a fallback) needs.
struct Settings {
    container: web_sys::Element,
    width: String,
    height: String,
    title: String,
    dark_mode: Option<bool>,
    timeout_ms: u32,
    callbacks: Callbacks,
}

impl Embed {
    fn set_surface(&mut self, surface: Box<dyn Surface>) -> Box<dyn Surface> {
        if let Ok(mut shown) = self.shown.try_borrow_mut() {
            *shown = surface.shown();
        }
        std::mem::replace(&mut self.surface, surface)
    }
}

/// What `render` returns: `{ iframe, canvas, mode, destroy(), update(), toPNG(), toSVG() }`.
#[wasm_bindgen]
pub struct EmbedHandle {
    id: EmbedId,
    shown: Rc<RefCell<Shown>>,
}

#[wasm_bindgen]
impl EmbedHandle {
    /// The frame the service shows the card in; `null` when the card is drawn
    /// in the page. Still the same element after `destroy()`.
    #[wasm_bindgen(getter, unchecked_return_type = "HTMLIFrameElement | null")]
    pub fn iframe(&self) -> JsValue {
        self.shown
            .try_borrow()
            .map_or(JsValue::NULL, |shown| shown.iframe_or_null())
    }

    /// The canvas the card is drawn on in local mode (and after an auto
    /// fallback); `null` while the service shows it.
    #[wasm_bindgen(getter, unchecked_return_type = "HTMLCanvasElement | null")]
    pub fn canvas(&self) -> JsValue {
        self.shown
            .try_borrow()
            .map_or(JsValue::NULL, |shown| shown.canvas_or_null())
    }

    /// How the card is shown right now: "service" or "local".
    #[wasm_bindgen(getter, unchecked_return_type = "\"service\" | \"local\"")]
    pub fn mode(&self) -> String {
        self.shown
            .try_borrow()
            .map_or(Mode::Service, |shown| shown.mode())
            .as_str()
            .to_owned()
    }

    /// Removes everything the card put in the page and stops every timer,
    /// observer and listener of it. Calling it again does nothing.
    /// Throws only if the widget has stopped after an internal error.
    pub fn destroy(&self) -> Result<(), JsValue> {
        crate::failure::guard("destroy")?;
        // Taken out first and dropped after the borrow ends: removing a frame can
        // run the frame's own unload handlers, which may call back into the widget.
        let embed = LIVE.with(|live| {
            live.try_borrow_mut()
                .ok()
                .and_then(|mut live| live.remove(self.id))
        });
        drop(embed);
        Ok(())
    }

    /// Validates the new data and shows it in the same place with the same
    /// options: a new post into the frame, or a redraw of the canvas.
    /// Throws if the data is invalid or the embed was destroyed.
    pub fn update(
        &self,
        #[wasm_bindgen(
            js_name = "newVisualizationData",
            unchecked_param_type = "VisualizationData"
        )]
        new_visualization_data: JsValue,
    ) -> Result<(), JsValue> {
        crate::failure::guard("update")?;
        let call = Call::Update;
        let Some(draws) = with_embed(self.id, |embed| embed.draws) else {
            return Err(EmbedError::Destroyed { call }.into());
        };
        // Getters in the data run here, before the registry is borrowed.
        let payload = Payload::from_js(call, &new_visualization_data)?;
        let content = if draws {
            Content::drawn(call, payload)?
        } else {
            Content::posted(payload)
        };
        // A getter in the new data may have called destroy() meanwhile.
        let outcome = with_embed(self.id, |embed| {
            let shown = embed.surface.show(call, &content);
            embed.content = content;
            (shown, embed.settings.callbacks.on_error.clone())
        });
        match outcome {
            None => Err(EmbedError::Destroyed { call }.into()),
            Some((Ok(()), _)) => Ok(()),
            // The data was fine; showing it failed: onError, as for render (spec 4.16).
            Some((Err(error), on_error)) => {
                report(on_error.as_ref(), &error);
                Ok(())
            }
        }
    }

    /// The card as an SVG document, drawn by the same engine at the canvas's
    /// size. Only for cards drawn in the page.
    #[wasm_bindgen(js_name = "toSVG")]
    pub fn to_svg(&self) -> Result<String, JsValue> {
        crate::failure::guard("toSVG")?;
        let call = Call::ToSvg;
        with_embed(self.id, |embed| embed.surface.to_svg(call))
            .unwrap_or(Err(EmbedError::Destroyed { call }))
            .map_err(JsValue::from)
    }

    /// A promise of the card as a PNG `Blob` at the canvas's device
    /// resolution. Only for cards drawn in the page.
    #[wasm_bindgen(js_name = "toPNG", unchecked_return_type = "Promise<Blob>")]
    pub fn to_png(&self) -> js_sys::Promise {
        if let Err(error) = crate::failure::guard("toPNG") {
            return js_sys::Promise::reject(&error.into());
        }
        let call = Call::ToPng;
        let canvas = with_embed(self.id, |embed| embed.surface.drawn_canvas(call))
            .unwrap_or(Err(EmbedError::Destroyed { call }));
        match canvas {
            Ok(canvas) => canvas_to_png(call, &canvas),
            Err(error) => js_sys::Promise::reject(&error.into()),
        }
    }
}

/// Creates the card's surface, shows the data and registers the embed.
/// Only a failure to create the surface itself is thrown; a failing post goes to `onError`.
pub fn start(
    call: Call,
    document: &Document,
    options: EmbedOptions,
) -> Result<EmbedHandle, EmbedError> {
    let id = NEXT_ID.with(|next| {
        let id = next.get();
        next.set(id.wrapping_add(1).max(1));
        id
    });
    let title = options.content.payload.title.clone().unwrap_or_else(|| {
        options
            .service
            .as_ref()
            .map_or_else(|| "Chart".to_owned(), |s| format!("Chart {}", s.card_id))
    });
    let settings = Settings {
        container: options.container,
        width: options.width,
        height: options.height,
        title,
        dark_mode: options.dark_mode,
        timeout_ms: options.timeout_ms,
        callbacks: options.callbacks,
    };
    let (mut surface, service): (Box<dyn Surface>, Option<&Service>) =
        match (&options.service, options.mode) {
            (Some(service), Mode::Service | Mode::Auto) => {
                let surface =
                    service_surface(call, document, &settings, service, options.mode, id)?;
                (surface, Some(service))
            }
            _ => (
                Box::new(local_canvas(call, document, &settings, &options.content)?),
                None,
            ),
        };
    let shown_now = surface.shown();
    // Shown before the watch starts: a fast refusal must find something to replace.
    let posted = match service {
        Some(_) => surface.show(call, &options.content),
        None => Ok(()),
    };
    let watch = match (options.mode, service) {
        // A postMessage shell proves itself with `ready`, which only the
        // service's page can send; no probe then, so a page whose CSP blocks
        // the probe (connect-src) but allows the frame is not misjudged.
        (Mode::Auto, Some(service)) => {
            let probe = service.shell.is_none().then_some(service.address.as_str());
            Some(Watch::start(probe, options.timeout_ms, Verdict(id)))
        }
        _ => None,
    };
    let shown = Rc::new(RefCell::new(shown_now));
    let embed = Embed {
        surface,
        shown: shown.clone(),
        watch,
        draws: options.mode != Mode::Service,
        content: options.content,
        settings,
    };
    let on_error = embed.settings.callbacks.on_error.clone();
    LIVE.with(|live| match live.try_borrow_mut() {
        Ok(mut live) => {
            live.0.push((id, embed));
            Ok(())
        }
        Err(_) => Err(EmbedError::Dom {
            call,
            action: "register the card",
            reason: "the widget is busy (render called from inside destroy?)".into(),
        }),
    })?;
    if let Err(error) = posted {
        report(on_error.as_ref(), &error);
    }
    Ok(EmbedHandle { id, shown })
}

/// The service's frame: a form post into it, or its postMessage shell.
fn service_surface(
    call: Call,
    document: &Document,
    settings: &Settings,
    service: &Service,
    mode: Mode,
    id: EmbedId,
) -> Result<Box<dyn Surface>, EmbedError> {
    let spec = FrameSpec {
        document,
        container: &settings.container,
        // The shell's address in postmessage mode, the form's action otherwise.
        address: service
            .shell
            .as_ref()
            .map_or(&service.address, |shell| &shell.url),
        width: &settings.width,
        height: &settings.height,
        title: &settings.title,
    };
    let Some(shell) = &service.shell else {
        let frame = ServiceFrame::create(call, &spec, move |iframe| frame_loaded(id, iframe))?;
        return Ok(Box::new(frame));
    };
    let channel = ChannelSpec {
        service_origin: &shell.origin,
        auto_height: settings.height == AUTO_HEIGHT,
        // In auto mode the fallback's watch has the same deadline.
        ready_timeout_ms: (mode == Mode::Service).then_some(settings.timeout_ms),
    };
    let frame = MessageFrame::create(call, &spec, &channel, move |event| shell_said(id, event))?;
    Ok(Box::new(frame))
}

fn local_canvas(
    call: Call,
    document: &Document,
    settings: &Settings,
    content: &Content,
) -> Result<LocalCanvas, EmbedError> {
    let spec = CanvasSpec {
        document,
        container: &settings.container,
        width: &settings.width,
        height: &settings.height,
        fallback_title: &settings.title,
        dark_mode: settings.dark_mode,
        callbacks: settings.callbacks.clone(),
    };
    LocalCanvas::create(call, spec, content)
}

/// The frame loaded a document from the service (or the browser's error page).
fn frame_loaded(id: EmbedId, iframe: &HtmlIFrameElement) {
    let on_load = with_embed(id, |embed| {
        if let Some(watch) = &mut embed.watch {
            watch.frame_loaded = true;
            if !watch.settled() {
                return None;
            }
            embed.watch = None;
        }
        embed.settings.callbacks.on_load.clone()
    })
    .flatten();
    announce(on_load.as_ref(), iframe);
}

/// The postMessage shell of embed `id` spoke.
fn shell_said(id: EmbedId, event: FrameEvent) {
    match event {
        FrameEvent::Ready => {
            // A message from the service's origin out of our frame: the
            // service is there and its page runs; auto mode need not fall back.
            with_embed(id, |embed| embed.watch = None);
        }
        FrameEvent::Received => {
            let shown = with_embed(id, |embed| {
                let iframe = embed.surface.shown().iframe?;
                Some((iframe, embed.settings.callbacks.on_load.clone()?))
            })
            .flatten();
            if let Some((iframe, on_load)) = shown {
                announce(Some(&on_load), &iframe);
            }
        }
        FrameEvent::Failed(error) => {
            let on_error = with_embed(id, |embed| embed.settings.callbacks.on_error.clone());
            // Gone (destroyed meanwhile): nobody to tell.
            if let Some(on_error) = on_error {
                report(on_error.as_ref(), &error);
            }
        }
    }
}

/// The auto-mode watch's reports about embed `id`.
#[derive(Clone, Copy)]
struct Verdict(EmbedId);

impl Verdicts for Verdict {
    fn answered(&self) {
        // The frame's load may have come first: then the card is shown now.
        let loaded = with_embed(self.0, |embed| {
            let watch = embed.watch.as_mut()?;
            watch.service_answered = true;
            if !watch.settled() {
                return None;
            }
            embed.watch = None;
            let iframe = embed.surface.shown().iframe?;
            Some((iframe, embed.settings.callbacks.on_load.clone()?))
        })
        .flatten();
        if let Some((iframe, on_load)) = loaded {
            announce(Some(&on_load), &iframe);
        }
    }

    fn unreachable(&self, reason: String) {
        fall_back(self.0, reason);
    }

    fn timed_out(&self, timeout_ms: u32) {
        fall_back(
            self.0,
            format!("its page did not load within {timeout_ms} ms (option \"timeoutMs\")"),
        );
    }
}

/// Replaces the service frame with a local canvas, unless the service has
/// already shown the card, then tells `onError` (non-fatal, name "FallbackToLocal").
fn fall_back(id: EmbedId, reason: String) {
    let switched = with_embed(id, |embed| {
        let watch = embed.watch.take()?;
        let on_error = embed.settings.callbacks.on_error.clone();
        let document = embed.settings.container.owner_document()?;
        let made = local_canvas(Call::Render, &document, &embed.settings, &embed.content);
        Some(match made {
            Ok(canvas) => {
                let old = embed.set_surface(Box::new(canvas));
                (
                    Some(old),
                    watch,
                    on_error,
                    EmbedError::FallbackToLocal { reason },
                )
            }
            Err(error) => (None, watch, on_error, error),
        })
    })
    .flatten();
    if let Some((old, watch, on_error, notice)) = switched {
        drop(old);
        drop(watch);
        report(on_error.as_ref(), &notice);
    }
}

/// Calls `onLoad` with the element the card is shown in; a throwing
/// callback is logged, never passed on (it is the page's bug, not the card's).
pub fn announce(on_load: Option<&js_sys::Function>, element: &JsValue) {
    if let Some(on_load) = on_load {
        if let Err(thrown) = on_load.call1(&JsValue::NULL, element) {
            web_sys::console::error_2(&"zdr-embed: onLoad threw".into(), &thrown);
        }
    }
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
