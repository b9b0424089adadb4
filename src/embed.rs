//! Live embeds, the handles that reach them, the one sink every surface
//! reports to, and the mode switch of `auto`.
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
use web_sys::Document;

use crate::engine::{self, EngineNamespace, LocalDrawing};
use crate::error::{Call, EmbedError, Fail};
use crate::fallback::Watch;
use crate::options::{EmbedOptions, Mode, Service};
use crate::payload::Payload;
use crate::sink::{Event, Sink};
use crate::surface::{
    ChannelSpec, FrameSpec, LocalSurface, MessageFrame, ServiceFrame, Shown, Surface,
};
use zdr_protocol::layout::AUTO_HEIGHT;
use zdr_protocol::text::{concat, decimal};

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
/// After a panic nothing is live any more (see `zdr_protocol::failure`).
fn with_embed<R>(id: EmbedId, f: impl FnOnce(&mut Embed) -> R) -> Option<R> {
    if zdr_protocol::failure::has_failed() {
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
    surface: Surface,
    /// What the reader sees, shared with the handle: kept here only.
    shown: Rc<RefCell<Shown>>,
    /// Set in auto mode until the service has shown the card or it fell back.
    watch: Option<Watch>,
    /// The options as read by `render`; `update` replaces the payload.
    options: EmbedOptions,
    /// A local card waiting for the engine: it has asked, and will be drawn
    /// (or told why not) when the load settles.
    awaiting_engine: bool,
}

impl Embed {
    fn set_surface(&mut self, surface: Surface) -> Surface {
        let old = std::mem::replace(&mut self.surface, surface);
        self.refresh_shown();
        old
    }

    /// Local mode with nothing drawn and no load asked for.
    fn needs_engine(&self) -> bool {
        self.surface.is_waiting() && !self.awaiting_engine
    }

    fn refresh_shown(&self) {
        if let Ok(mut shown) = self.shown.try_borrow_mut() {
            *shown = self.surface.shown();
        }
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
        self.shown_element(false)
    }

    /// The canvas the card is drawn on in local mode (and after an auto
    /// fallback); `null` while the service shows it, and until the chart
    /// engine has arrived.
    #[wasm_bindgen(getter, unchecked_return_type = "HTMLCanvasElement | null")]
    pub fn canvas(&self) -> JsValue {
        self.shown_element(true)
    }

    /// How the card is shown right now: "service" or "local".
    #[wasm_bindgen(getter, unchecked_return_type = "\"service\" | \"local\"")]
    pub fn mode(&self) -> JsValue {
        // A JS string made from the static text: no String through the glue.
        let local = self.shown.try_borrow().is_ok_and(|shown| shown.local);
        if local { Mode::Local } else { Mode::Service }
            .as_str()
            .into()
    }

    /// Removes everything the card put in the page and stops every timer,
    /// observer and listener of it (and a draw still waiting for the chart
    /// engine). Calling it again does nothing.
    /// Throws only if the widget has stopped after an internal error.
    pub fn destroy(&self) -> Result<(), JsValue> {
        guard(Call::Destroy)?;
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
    /// Throws if the data is invalid (for a card drawn in the page: also if
    /// the engine cannot read it) or the embed was destroyed.
    pub fn update(
        &self,
        #[wasm_bindgen(
            js_name = "newVisualizationData",
            unchecked_param_type = "VisualizationData"
        )]
        new_visualization_data: JsValue,
    ) -> Result<(), JsValue> {
        self.update_data(&new_visualization_data)
            .map_err(|error| error.thrown(Call::Update))
    }

    /// The card as an SVG document, drawn by the chart engine at the
    /// canvas's size. Only for cards drawn in the page; before the engine
    /// has arrived it throws an Error with code "not_drawn_yet".
    #[wasm_bindgen(js_name = "toSVG", unchecked_return_type = "string")]
    pub fn to_svg(&self) -> Result<JsValue, JsValue> {
        self.text(Call::ToSvg, LocalDrawing::to_svg)
    }

    /// The card's data as CSV, as the card shows them: a header, then every
    /// row, numbers unformatted, dates in ISO 8601. Only for cards drawn in
    /// the page; before the engine has arrived it throws an Error with code
    /// "not_drawn_yet".
    #[wasm_bindgen(js_name = "toCSV", unchecked_return_type = "string")]
    pub fn to_csv(&self) -> Result<JsValue, JsValue> {
        self.text(Call::ToCsv, LocalDrawing::to_csv)
    }

    /// Zooms a card drawn in the page to `view`, `{ x: [from, to] }` (and
    /// `y` on a scatter; on a time axis the ends are `Date`s, milliseconds
    /// since 1970 or ISO 8601 text); `null` shows the whole data again.
    /// Timeseries, area and scatter cards zoom; others ignore it.
    #[wasm_bindgen(js_name = "setView")]
    pub fn set_view(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ChartView | null")] view: JsValue,
    ) -> Result<(), JsValue> {
        let call = Call::SetView;
        let drawing = self.drawing(call)?;
        drawing.set_view(&view).map_err(|t| engine_error(&t, call))
    }

    /// Shows or hides the series `name`, as a click on its legend entry
    /// does (the axes rescale; kept across `update()` for a series of the
    /// same name). Returns true when the series is now as asked; false when
    /// the card has no such series, or it is the last one shown (a card
    /// always shows one). Only for cards drawn in the page; the engine
    /// checks the arguments.
    #[wasm_bindgen(js_name = "setSeriesVisible", unchecked_return_type = "boolean")]
    pub fn set_series_visible(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "boolean")] visible: JsValue,
    ) -> Result<JsValue, JsValue> {
        let call = Call::SetSeriesVisible;
        let drawing = self.drawing(call)?;
        drawing
            .set_series_visible(&name, &visible)
            .map_err(|t| engine_error(&t, call))
    }

    /// A promise of the card as a PNG `Blob` at the canvas's device
    /// resolution. Only for cards drawn in the page; before the engine has
    /// arrived it rejects with code "not_drawn_yet".
    #[wasm_bindgen(js_name = "toPNG", unchecked_return_type = "Promise<Blob>")]
    pub fn to_png(&self) -> js_sys::Promise {
        let call = Call::ToPng;
        let promise = self
            .drawing(call)
            .and_then(|drawing| drawing.to_png().map_err(|t| engine_error(&t, call)));
        match promise {
            // The engine's toPNG gives a promise already.
            Ok(promise) => promise.unchecked_into(),
            Err(error) => js_sys::Promise::reject(&error),
        }
    }
}

/// What the engine threw for `call`, in the widget's words, as thrown.
fn engine_error(thrown: &JsValue, call: Call) -> JsValue {
    EmbedError::from_engine(thrown).thrown(call)
}

impl EmbedHandle {
    /// The shown element if it is the kind asked for (`local`: a canvas), else null.
    fn shown_element(&self, local: bool) -> JsValue {
        match self.shown.try_borrow() {
            Ok(shown) if shown.local == local => shown.element.clone(),
            _ => JsValue::NULL,
        }
    }

    /// The engine's drawing of this card, for the methods that only a card
    /// drawn in the page has; what `call` throws when there is none.
    /// (Taken out of the registry, so the engine runs with it free.)
    #[inline(never)]
    fn drawing(&self, call: Call) -> Result<LocalDrawing, JsValue> {
        guard(call)?;
        with_embed(self.id, |embed| embed.surface.drawing(call))
            .unwrap_or_else(|| Err(EmbedError::Destroyed.into()))
            .map_err(|error| error.thrown(call))
    }

    /// `toSVG` and `toCSV`: the engine's text.
    fn text(
        &self,
        call: Call,
        get: fn(&LocalDrawing) -> Result<JsValue, JsValue>,
    ) -> Result<JsValue, JsValue> {
        let text = get(&self.drawing(call)?).map_err(|t| engine_error(&t, call))?;
        if text.is_string() {
            return Ok(text);
        }
        Err(EmbedError::Draw {
            reason: "the engine gave no text".into(),
        }
        .thrown(call))
    }

    fn update_data(&self, data: &JsValue) -> Result<(), Fail> {
        zdr_protocol::failure::guard().map_err(EmbedError::from)?;
        let Some(mode) = with_embed(self.id, |embed| embed.options.mode) else {
            return Err(EmbedError::Destroyed.into());
        };
        // Getters in the data run here, before the registry is borrowed.
        let payload = Payload::from_js(data, mode != Mode::Local)?;
        // A getter in the new data may have called destroy() meanwhile.
        let mut retry = false;
        let outcome = with_embed(self.id, |embed| {
            let shown = embed.surface.show(&payload);
            if shown.is_ok() {
                embed.options.payload = payload;
                // A local card the engine never drew (its load failed): new data asks again.
                retry = embed.needs_engine();
                embed.awaiting_engine |= retry;
            }
            (shown, embed.options.callbacks.on_error.clone())
        });
        if retry {
            when_engine_ready(self.id, None);
        }
        match outcome {
            None => Err(EmbedError::Destroyed.into()),
            Some((Ok(()), _)) => Ok(()),
            // The engine could not read it: as a bad option, thrown.
            Some((Err(error), _)) if matches!(*error, EmbedError::InvalidData { .. }) => Err(error),
            // The data was fine; showing it failed: onError, as for render (spec 4.16).
            Some((Err(error), on_error)) => {
                report(on_error.as_ref(), &error, Some(Call::Update));
                Ok(())
            }
        }
    }
}

/// The panic guard of every exported call, in the call's words.
pub fn guard(call: Call) -> Result<(), JsValue> {
    zdr_protocol::failure::guard().map_err(|stopped| EmbedError::from(stopped).thrown(call))
}

/// Creates the card's surface, shows the data and registers the embed.
/// A failure to create the surface (or, with the engine there, data it cannot
/// read) is returned; a failing post goes to `onError`.
pub fn start(call: Call, document: &Document, options: EmbedOptions) -> Result<EmbedHandle, Fail> {
    let id = NEXT_ID.with(|next| {
        let id = next.get();
        next.set(id.wrapping_add(1).max(1));
        id
    });
    let sink = Sink { id, to: on_event };
    let engine = (options.mode == Mode::Local).then(engine::ready);
    let mut surface = match (&options.service, options.mode, &engine) {
        (Some(service), Mode::Service | Mode::Auto, _) => {
            service_surface(document, &options, service, sink)?
        }
        (_, _, Some(Some(engine))) => Surface::Local(LocalSurface::mount(engine, &options, sink)?),
        _ => Surface::Local(LocalSurface::waiting(document, &options)?),
    };
    // Shown before the watch starts: a fast refusal must find something to replace.
    let posted = match options.mode {
        Mode::Service | Mode::Auto => surface.show(&options.payload),
        Mode::Local => Ok(()),
    };
    let watch = match (options.mode, &options.service) {
        // A postMessage shell proves itself with `ready`, which only the
        // service's page can send; no probe then, so a page whose CSP blocks
        // the probe (connect-src) but allows the frame is not misjudged.
        (Mode::Auto, Some(service)) => {
            let probe = service.shell.is_none().then_some(service.address.as_str());
            Some(Watch::start(probe, options.timeout_ms, sink))
        }
        _ => None,
    };
    let shown = Rc::new(RefCell::new(surface.shown()));
    let waits_for_engine = matches!(engine, Some(None));
    let on_error = options.callbacks.on_error.clone();
    let embed = Embed {
        surface,
        shown: shown.clone(),
        watch,
        options,
        awaiting_engine: waits_for_engine,
    };
    register(id, embed)?;
    if let Err(error) = posted {
        report(on_error.as_ref(), &error, Some(call));
    }
    if waits_for_engine {
        when_engine_ready(id, None);
    }
    Ok(EmbedHandle { id, shown })
}

fn register(id: EmbedId, embed: Embed) -> Result<(), Fail> {
    LIVE.with(|live| match live.try_borrow_mut() {
        Ok(mut live) => {
            live.0.push((id, embed));
            Ok(())
        }
        Err(_) => Err(EmbedError::Dom {
            action: "register the card",
            reason: "the widget is busy (render called from inside destroy?)".into(),
        }
        .into()),
    })
}

/// The service's frame: a form post into it, or its postMessage shell.
fn service_surface(
    document: &Document,
    options: &EmbedOptions,
    service: &Service,
    sink: Sink,
) -> Result<Surface, Fail> {
    let spec = FrameSpec {
        document,
        container: &options.container,
        // The shell's address in postmessage mode, the form's action otherwise.
        address: service
            .shell
            .as_ref()
            .map_or(&service.address, |shell| &shell.url),
        width: &options.width,
        height: &options.height,
        title: options.title(),
    };
    let Some(shell) = &service.shell else {
        return Ok(Surface::Frame(ServiceFrame::create(&spec, sink)?));
    };
    let channel = ChannelSpec {
        service_origin: &shell.origin,
        auto_height: options.height == AUTO_HEIGHT,
        // In auto mode the fallback's watch has the same deadline.
        ready_timeout_ms: (options.mode == Mode::Service).then_some(options.timeout_ms),
    };
    Ok(Surface::Shell(MessageFrame::create(&spec, &channel, sink)?))
}

/// What every surface and watch of embed `id` reports.
fn on_event(id: EmbedId, event: Event) {
    match event {
        Event::Ready => {
            // A message from the service's origin out of our frame: the
            // service is there and its page runs; auto mode need not fall back.
            with_embed(id, |embed| embed.watch = None);
        }
        Event::Loaded(element) => {
            let on_load = with_embed(id, |embed| {
                // The engine's canvas exists once it has drawn: the handle shows it now.
                embed.refresh_shown();
                if let Some(watch) = &mut embed.watch {
                    watch.frame_loaded = true;
                    if !watch.settled() {
                        return None;
                    }
                    embed.watch = None;
                }
                embed.options.callbacks.on_load.clone()
            })
            .flatten();
            announce(on_load.as_ref(), &element);
        }
        Event::Failed(error) => {
            let on_error = with_embed(id, |embed| embed.options.callbacks.on_error.clone());
            // Gone (destroyed meanwhile): nobody to tell.
            if let Some(on_error) = on_error {
                report(on_error.as_ref(), &error, None);
            }
        }
        Event::Answered => answered(id),
        Event::Unreachable(reason) => fall_back(id, reason),
        Event::TimedOut(timeout_ms) => fall_back(
            id,
            concat(&[
                "its page did not load within ",
                &decimal(timeout_ms),
                " ms (option \"timeoutMs\")",
            ]),
        ),
    }
}

/// Auto mode's probe had an answer. The frame's load may have come first:
/// then the card is shown now.
fn answered(id: EmbedId) {
    let loaded = with_embed(id, |embed| {
        let watch = embed.watch.as_mut()?;
        watch.service_answered = true;
        if !watch.settled() {
            return None;
        }
        embed.watch = None;
        let Surface::Frame(frame) = &embed.surface else {
            return None;
        };
        Some((
            frame.frame().clone(),
            embed.options.callbacks.on_load.clone()?,
        ))
    })
    .flatten();
    if let Some((iframe, on_load)) = loaded {
        announce(Some(&on_load), &iframe);
    }
}

/// Draws the card in the page instead of the service frame, unless the
/// service has already shown it; the frame stays until the engine has
/// drawn, then `onError` hears the notice (name "FallbackToLocal").
fn fall_back(id: EmbedId, reason: String) {
    let watch = with_embed(id, |embed| embed.watch.take()).flatten();
    let Some(watch) = watch else {
        return;
    };
    drop(watch);
    when_engine_ready(id, Some(reason));
}

/// Draws embed `id` in the page once the engine is there (see [`draw_locally`]).
fn when_engine_ready(id: EmbedId, notice: Option<String>) {
    engine::when_ready(Box::new(move |engine| draw_locally(id, engine, notice)));
}

/// The engine is there (or could not be loaded): draws embed `id` in the
/// page, replacing its frame after a fallback (`notice` is the reason).
/// A destroyed embed is gone from the registry, so nothing is drawn for it.
fn draw_locally(
    id: EmbedId,
    engine: Result<&EngineNamespace, &EmbedError>,
    notice: Option<String>,
) {
    let engine = match engine {
        Ok(engine) => engine,
        Err(error) => {
            // Auto mode keeps its service frame: a card in a frame beats none.
            let on_error = with_embed(id, |embed| {
                embed.awaiting_engine = false;
                embed.options.callbacks.on_error.clone()
            });
            if let Some(on_error) = on_error {
                report(on_error.as_ref(), error, None);
            }
            return;
        }
    };
    let switched = with_embed(id, |embed| {
        embed.awaiting_engine = false;
        let sink = Sink { id, to: on_event };
        let on_error = embed.options.callbacks.on_error.clone();
        match LocalSurface::mount(engine, &embed.options, sink) {
            Ok(local) => {
                let old = embed.set_surface(Surface::Local(local));
                let notice = notice.map(|reason| EmbedError::FallbackToLocal { reason }.into());
                (Some(old), notice, on_error)
            }
            Err(error) => (None, Some(error), on_error),
        }
    });
    if let Some((old, notice, on_error)) = switched {
        drop(old);
        if let Some(notice) = notice {
            report(on_error.as_ref(), &notice, None);
        }
    }
}

/// Calls `onLoad` with the element the card is shown in (a throwing
/// callback is logged).
pub fn announce(on_load: Option<&js_sys::Function>, element: &JsValue) {
    zdr_protocol::code::announce(on_load, element);
}

/// Hands an error to `onError`, or logs it when there is none (spec 4.16);
/// `call` is the page's call it happened in, if any.
pub fn report(on_error: Option<&js_sys::Function>, error: &EmbedError, call: Option<Call>) {
    zdr_protocol::code::report(on_error, &error.to_js_error(call).into());
}
