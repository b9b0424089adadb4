//! Local mode: the card drawn in the page by zdr-chart on a canvas. No network.
//!
//! Draws happen in animation frames: a render, an update, any number of
//! resizes and a colour-scheme change within one frame cost one draw, and a
//! hidden tab draws nothing until it is shown. Every card of the page draws
//! in the same frame ([`crate::frame`]).

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlCanvasElement, HtmlElement, ResizeObserver, Window};
use zdr_chart::model::Card;
use zdr_chart::scene::{HitMap, ZoomWindow};
use zdr_chart::{Chart, Theme, View};

use crate::accessible::Description;
use crate::canvas_backend::CanvasBackend;
use crate::color_scheme::ColorScheme;
use crate::crosshair::{Crossed, Membership};
use crate::error::EngineError;
use crate::keyboard::{Focus, Ring, Walked};
use crate::legend::{LegendButtons, Toggled};
use crate::menu::{Download, Downloads};
use crate::print::{PrintWatch, PRINT_RATIO};
use crate::settings::Callbacks;
use crate::tooltip::Pointed;
use crate::zoom::Zoomed;

mod behaviour;
pub(crate) mod interest;

use zdr_protocol::layout::{AUTO_ASPECT_RATIO, AUTO_HEIGHT};

/// Browsers refuse or silently blank canvases much larger than this per side.
const MAX_BACKING_PX: f64 = 8192.0;

/// A card drawn on a canvas. Dropping it removes its nodes, disconnects the
/// observer, cancels a pending frame and unsubscribes every listener.
pub struct LocalCanvas {
    wrapper: HtmlElement,
    state: Rc<RefCell<CanvasState>>,
    observer: ResizeObserver,
    _on_resize: Closure<dyn FnMut()>,
    _membership: Option<Membership>,
    _scheme_change: Option<gloo_events::EventListener>,
}

/// What a card has around its canvas before anyone interacts with it: the
/// tooltip's element, the keyboard's tab stop, ring and live region, the
/// legend's buttons, the print watch and the menu's button (what a screen
/// reader finds and printing needs without an event on the card), and the
/// listeners that fetch the interaction's code ([`interest`]) at a reader's
/// first sign of interest. None of it is needed for the first pixels, so a
/// card gets it in the task after its first draw ([`attach_chrome`]): a
/// dashboard's cards all show before any of them makes its elements and
/// listeners. The interaction itself ([`behaviour`]) follows once its code
/// is here.
struct Chrome {
    _print: PrintWatch,
    /// Until the interaction is attached.
    interest: Option<interest::Interest>,
    /// The menu's button (`menu`), which the interaction opens.
    menu: Option<HtmlElement>,
}

/// Where and how the canvas goes.
pub struct CanvasSpec<'a> {
    pub document: &'a Document,
    pub container: &'a Element,
    pub width: &'a str,
    pub height: &'a str,
    /// The card's name for assistive technology when the data has no title.
    pub fallback_title: &'a str,
    pub dark_mode: Option<bool>,
    pub callbacks: Callbacks,
    /// `syncGroup`: the cards that share their crosshair.
    pub sync_group: Option<&'a str>,
    /// `menu`: a button with the downloads.
    pub menu: bool,
    /// `syncZoom`: the group's zoom too.
    pub sync_zoom: bool,
}

/// Everything a draw needs; shared with the frame, resize and pointer
/// callbacks through weak references, so only the surface keeps it alive.
pub(crate) struct CanvasState {
    window: Window,
    pub(crate) canvas: HtmlCanvasElement,
    /// The card's element, where the interaction's elements go.
    wrapper: HtmlElement,
    /// Attached after the first draw; `chrome_due` until it was tried.
    chrome: Option<Chrome>,
    chrome_due: bool,
    /// The tooltip, keyboard walk, zoom, crosshair and menu, once their
    /// code is here and the chrome is attached.
    behaviour: Option<behaviour::Behaviour>,
    /// What a reader did before that code was here.
    early: interest::Early,
    /// `menu`: the chrome has a menu.
    menu: bool,
    chart: Rc<Chart>,
    description: Description,
    fallback_title: String,
    scheme: ColorScheme,
    pub(crate) hits: HitMap,
    /// The mark the keyboard is on.
    focus: Focus,
    ring: Option<Ring>,
    /// The series the reader hid, kept across new data of the same names.
    view: View,
    /// Bumped by each change of `view`, so that it draws.
    view_version: u32,
    legend: Option<LegendButtons>,
    /// The plot of the last draw of the whole data: how far a zoom goes out.
    home: Option<ZoomWindow>,
    /// A zoom changed: `onViewChange` is called after its draw.
    view_changed: bool,
    /// The tooltip's element, which the crosshair fills too.
    tip: Option<HtmlElement>,
    /// The cards this one shares its crosshair with (`syncGroup`).
    group: Option<String>,
    /// The page is printing: drawn at its printed size and print resolution.
    printing: bool,
    /// Zooms with the other cards of its group that ask for it too (`syncZoom`).
    sync_zoom: bool,
    /// Bumped by each `show`, so new data always draws.
    generation: u32,
    drawn: Option<DrawKey>,
    /// Waiting for the shared frame ([`crate::frame`]).
    queued: bool,
    /// The CSS size and device pixel ratio the frame read for its draw.
    measured: Option<Measured>,
    /// The hidden table waits for the data shown: it is written in a task
    /// after the frame that draws them (`on_table`), that timer's id.
    table_due: bool,
    table_timer: Option<i32>,
    on_table: Closure<dyn FnMut()>,
    callbacks: Callbacks,
    /// New data is waiting to be announced through `onLoad` once drawn.
    announce: bool,
    /// This state, for the pixel-ratio listener it makes.
    me: Weak<RefCell<CanvasState>>,
    /// Listens for the device pixel ratio to leave the one of the last draw
    /// (the window moved to another screen, or the page was zoomed): no
    /// resize happens then, yet the backing store must change. Remade at
    /// each new ratio, dropped with the state.
    ratio_watch: Option<(f64, gloo_events::EventListener)>,
}

/// What a draw reads from the page's layout: the canvas's CSS size and
/// the device pixel ratio.
#[derive(Debug, Clone, Copy)]
struct Measured {
    width: f64,
    height: f64,
    ratio: f64,
}

/// What was last drawn; the same key again means nothing to do.
#[derive(Debug, Clone, Copy, PartialEq)]
struct DrawKey {
    backing: (u32, u32),
    dark: bool,
    generation: u32,
    view: u32,
}

impl LocalCanvas {
    pub fn create(spec: CanvasSpec<'_>, chart: Rc<Chart>) -> Result<LocalCanvas, EngineError> {
        let dom = EngineError::dom("create the canvas");
        let window = web_sys::window().ok_or_else(|| dom(JsValue::from_str("no window")))?;
        let wrapper = create_wrapper(spec.document, spec.width, spec.height).map_err(&dom)?;
        let canvas: HtmlCanvasElement = spec
            .document
            .create_element("canvas")
            .and_then(|element| element.dyn_into().map_err(JsValue::from))
            .map_err(&dom)?;
        canvas.set_attribute("role", "img").map_err(&dom)?;
        // Through the CSSOM, not a style attribute: pages (and the service's
        // shell) with a strict style-src CSP refuse style attributes.
        canvas
            .style()
            .set_css_text("display:block;width:100%;height:100%;border:0");
        wrapper.append_child(&canvas).map_err(&dom)?;
        let description = Description::create(spec.document, &wrapper).map_err(&dom)?;
        let scheme = ColorScheme::new(&window, spec.dark_mode);

        let state = Rc::new_cyclic(|weak: &Weak<RefCell<CanvasState>>| {
            RefCell::new(CanvasState {
                window: window.clone(),
                canvas: canvas.clone(),
                wrapper: wrapper.clone(),
                chrome: None,
                chrome_due: true,
                behaviour: None,
                early: interest::Early::default(),
                menu: spec.menu,
                chart: chart.clone(),
                description,
                fallback_title: spec.fallback_title.to_owned(),
                scheme,
                hits: HitMap::default(),
                focus: Focus::default(),
                ring: None,
                view: View::default(),
                view_version: 0,
                legend: None,
                home: None,
                view_changed: false,
                tip: None,
                group: spec.sync_group.map(str::to_owned),
                printing: false,
                sync_zoom: spec.sync_zoom,
                generation: 0,
                drawn: None,
                queued: false,
                measured: None,
                table_due: false,
                table_timer: None,
                on_table: table_closure(weak.clone()),
                callbacks: spec.callbacks,
                announce: true,
                me: weak.clone(),
                ratio_watch: None,
            })
        });
        let on_resize = schedule_closure(Rc::downgrade(&state));
        let observer = ResizeObserver::new(on_resize.as_ref().unchecked_ref()).map_err(&dom)?;
        let membership = spec.sync_group.map(|group| {
            let me: Weak<RefCell<dyn Crossed>> =
                Rc::downgrade(&state) as Weak<RefCell<CanvasState>>;
            Membership::join(group, me)
        });
        let scheme_change = state
            .borrow()
            .scheme
            .on_change(schedule_callback(Rc::downgrade(&state)));
        // From here on, dropping `local` undoes everything.
        let mut local = LocalCanvas {
            wrapper,
            state,
            observer,
            _on_resize: on_resize,
            _membership: membership,
            _scheme_change: scheme_change,
        };
        local.observer.observe(&canvas);
        spec.container.append_child(&local.wrapper).map_err(&dom)?;
        local.put(chart, true)?;
        Ok(local)
    }
}

impl Drop for LocalCanvas {
    fn drop(&mut self) {
        self.observer.disconnect();
        if let Ok(mut state) = self.state.try_borrow_mut() {
            state.cancel_frame();
            if let Some(id) = state.table_timer.take() {
                state.window.clear_timeout_with_handle(id);
            }
        }
        self.wrapper.remove();
    }
}

impl LocalCanvas {
    /// Puts new data on the canvas (drawn in the next animation frame).
    pub fn show(&mut self, chart: Rc<Chart>) -> Result<(), EngineError> {
        self.put(chart, false)
    }

    /// The card's data on the canvas, drawn with the first batch (`first`:
    /// its first draw, `batch::request_soon`) or the next animation frame.
    fn put(&mut self, chart: Rc<Chart>, first: bool) -> Result<(), EngineError> {
        let mut state = self.state.try_borrow_mut().map_err(|_| busy())?;
        Description::name_now(&state.canvas, &state.title(&chart)).map_err(EngineError::dom(
            "describe the chart for assistive technology",
        ))?;
        // A series hidden stays hidden in new data of the same name.
        let names = chart.toggled_series();
        state.view.keep_only(&names);
        drop(names);
        state.home = None;
        state.chart = chart;
        state.table_due = true;
        state.generation = state.generation.wrapping_add(1);
        state.announce = true;
        if first {
            state.schedule_soon();
        } else {
            state.schedule();
        }
        Ok(())
    }

    /// Lets go of a timeseries's or scatter's points (the large data)
    /// while new data are read; [`LocalCanvas::show`] follows at once.
    /// Until then a draw would show the card without points (none can
    /// happen: nothing in between runs page code).
    pub fn release(&mut self) {
        if let Ok(mut state) = self.state.try_borrow_mut() {
            if let Some(Chart {
                card: Card::Timeseries { series, .. } | Card::Scatter(series),
                ..
            }) = Rc::get_mut(&mut state.chart)
            {
                // A kept line's vectors become the spare the next long line is kept in.
                for one in std::mem::take(series) {
                    crate::data::recycle(one.xs, one.ys);
                }
            }
            // Its hit areas too: the new draw builds its own beside them.
            state.hits = HitMap::default();
        }
    }

    /// The element holding the card (its canvas and hidden description).
    pub fn wrapper(&self) -> HtmlElement {
        self.wrapper.clone()
    }

    /// The page's callbacks, for an error found outside a draw.
    pub fn callbacks(&self) -> crate::settings::Callbacks {
        self.state
            .try_borrow()
            .map(|state| state.callbacks.clone())
            .unwrap_or_default()
    }

    pub fn canvas(&self) -> Option<HtmlCanvasElement> {
        self.state
            .try_borrow()
            .ok()
            .map(|state| state.canvas.clone())
    }

    /// The card as an SVG document at the canvas's CSS size.
    pub fn to_svg(&self) -> Result<String, EngineError> {
        let state = self.state.try_borrow().map_err(|_| busy())?;
        let rect = state.canvas.get_bounding_client_rect();
        let size = |v: f64| {
            if v.is_finite() {
                v.round().clamp(16.0, MAX_BACKING_PX) as u32
            } else {
                16
            }
        };
        let (width, height) = (size(rect.width()), size(rect.height()));
        Ok(state
            .chart
            .to_svg_viewed(width, height, (&state.theme(), &state.view)))
    }

    /// The data shown, as CSV.
    pub fn to_csv(&self) -> Result<String, EngineError> {
        let state = self.state.try_borrow().map_err(|_| busy())?;
        Ok(state.chart.to_csv(&state.view))
    }

    /// Zooms to the page's `{ x, y }` (`null`: the whole data).
    pub fn set_view(&mut self, view: &JsValue) -> Result<(), EngineError> {
        let mut state = self.state.try_borrow_mut().map_err(|_| busy())?;
        let time = state.time_axis();
        let (x, y) = crate::view_js::read(view, time)?;
        state.zoom_to(x, y);
        // Drawn at once; its reset button comes with the interaction's code.
        interest::want();
        Ok(())
    }

    /// Shows or hides a series, as its legend entry does; false when the
    /// card has no such series or it is the last one shown.
    pub fn set_series_visible(&mut self, series: &str, visible: bool) -> Result<bool, EngineError> {
        let mut state = self.state.try_borrow_mut().map_err(|_| busy())?;
        Ok(state.set_series_visible(series, visible))
    }

    /// The canvas with the latest data drawn on it, for `toPNG()`.
    pub fn drawn_canvas(&self) -> Result<HtmlCanvasElement, EngineError> {
        let mut state = self.state.try_borrow_mut().map_err(|_| busy())?;
        // A draw still waiting for its frame is done now, so the PNG shows the latest data.
        if state.queued {
            state.draw_now()?;
        }
        Ok(state.canvas.clone())
    }
}

impl CanvasState {
    /// The data's own title names the card; the settings' one stands in.
    fn title(&self, chart: &Chart) -> String {
        match chart.config.title.trim() {
            "" => self.fallback_title.clone(),
            title => title.to_owned(),
        }
    }

    /// After a frame: the hidden table in a task of its own, so the frame
    /// that shows the card does not lay it out.
    fn schedule_table(&mut self) {
        if (self.table_due || self.chrome_due) && self.table_timer.is_none() {
            self.table_timer = self
                .window
                .set_timeout_with_callback_and_timeout_and_arguments_0(
                    self.on_table.as_ref().unchecked_ref(),
                    0,
                )
                .ok();
        }
    }

    pub(crate) fn theme(&self) -> Theme {
        self.chart.theme(Some(self.scheme.is_dark(&self.chart)))
    }

    fn schedule(&mut self) {
        if !self.queued {
            self.queued = true;
            crate::batch::request(&self.window, self.entry());
        }
    }

    fn schedule_soon(&mut self) {
        if !self.queued {
            self.queued = true;
            crate::batch::request_soon(&self.window, self.entry());
        }
    }

    fn entry(&self) -> crate::batch::Entry {
        self.me.clone()
    }

    /// A `(resolution: …dppx)` query for `ratio` whose change schedules a
    /// draw; the draw then watches the new ratio.
    fn watch_ratio(&mut self, ratio: f64) {
        if !ratio.is_finite() || self.ratio_watch.as_ref().is_some_and(|(r, _)| *r == ratio) {
            return;
        }
        let query = [
            "(resolution: ",
            zmij::Buffer::new().format_finite(ratio),
            "dppx)",
        ]
        .concat();
        self.ratio_watch = match self.window.match_media(&query) {
            Ok(Some(list)) => {
                let schedule = schedule_callback(self.me.clone());
                Some((
                    ratio,
                    gloo_events::EventListener::new(&list, "change", move |_| schedule()),
                ))
            }
            _ => None,
        };
    }

    fn cancel_frame(&mut self) {
        if std::mem::take(&mut self.queued) {
            crate::batch::withdraw(&self.window, &self.entry());
        }
    }

    /// The canvas's size and the pixel ratio: layout read, nothing written.
    fn measure_now(&self) -> Measured {
        let rect = self.canvas.get_bounding_client_rect();
        Measured {
            width: rect.width(),
            height: rect.height(),
            ratio: self.window.device_pixel_ratio(),
        }
    }

    /// Draws now, outside the frame (printing, `toPNG()`).
    fn draw_now(&mut self) -> Result<(), EngineError> {
        self.cancel_frame();
        let measured = self.measure_now();
        self.draw_measured(measured)
    }

    /// Draws if the size, the theme or the data changed since the last draw.
    fn draw_measured(&mut self, measured: Measured) -> Result<(), EngineError> {
        let Measured {
            width,
            height,
            ratio,
        } = measured;
        // Hidden (display:none or zero size): the observer calls again when it shows.
        if !(width >= 1.0 && height >= 1.0) {
            return Ok(());
        }
        self.watch_ratio(ratio);
        let ratio = if ratio.is_finite() && ratio > 0.0 {
            ratio.clamp(0.5, 4.0)
        } else {
            1.0
        };
        let ratio = if self.printing {
            ratio.max(PRINT_RATIO)
        } else {
            ratio
        };
        let backing = |css: f64| (css * ratio).round().clamp(1.0, MAX_BACKING_PX) as u32;
        let theme = self.theme();
        let key = DrawKey {
            backing: (backing(width), backing(height)),
            dark: theme.dark,
            generation: self.generation,
            view: self.view_version,
        };
        if self.drawn == Some(key) {
            return Ok(());
        }
        // Setting the size clears the canvas, so only when it changed.
        if self.canvas.width() != key.backing.0 {
            self.canvas.set_width(key.backing.0);
        }
        if self.canvas.height() != key.backing.1 {
            self.canvas.set_height(key.backing.1);
        }
        let mut backend = CanvasBackend::new(&self.canvas).ok_or(EngineError::Draw {
            reason: "the canvas has no 2d context (too large, or out of memory?)".into(),
        })?;
        // Device pixels per CSS pixel as actually allocated, after rounding and capping.
        let scale = f64::from(key.backing.0) / width;
        let marks_before = self.hits.len();
        self.hits = self
            .chart
            .draw_on(&mut backend, key.backing, (&theme, &self.view), scale)
            .map_err(|error| EngineError::Draw {
                reason: error.to_string(),
            })?;
        let new_data = self
            .drawn
            .is_none_or(|drawn| drawn.generation != key.generation);
        self.focus
            .redrawn(new_data, (marks_before, self.hits.len()));
        self.drawn = Some(key);
        if !self.view.is_zoomed() {
            self.home = self.hits.zoom_window().copied();
        }
        self.sync_chrome(&theme);
        Ok(())
    }

    /// The interaction's elements follow the last draw: the legend's
    /// buttons on its entries, then (with its code) the zoom's reset button
    /// and the focus ring. Only once the chrome is there: a style written
    /// between two cards' draws of one frame would make the next card's
    /// canvas resolve its style again to set a font.
    fn sync_chrome(&self, theme: &Theme) {
        if self.chrome.is_none() {
            return;
        }
        if let Some(legend) = &self.legend {
            legend.sync(self.hits.legend());
        }
        if let Some(code) = interest::loaded() {
            (code.sync)(self, theme);
        }
    }
}

impl CanvasState {
    fn has_focus(&self) -> bool {
        let canvas: &Element = self.canvas.as_ref();
        self.canvas
            .owner_document()
            .and_then(|document| document.active_element())
            .is_some_and(|active| &active == canvas)
    }
}

impl CanvasState {
    fn set_series_visible(&mut self, series: &str, visible: bool) -> bool {
        let names = self.chart.toggled_series();
        let before = self.view.shows(series);
        let done = self.view.set(series, visible, &names);
        drop(names);
        if done && before != visible {
            // The hidden table leaves the series out too.
            self.table_due = true;
            self.view_redrawn(false);
        }
        done
    }

    /// The view changed: drawn in the next frame; a zoom is told to
    /// `onViewChange` after it.
    fn view_redrawn(&mut self, zoom: bool) {
        self.view_version = self.view_version.wrapping_add(1);
        self.view_changed |= zoom;
        self.schedule();
    }

    /// Whether the card's x axis is time (its zoom is in dates).
    fn time_axis(&self) -> bool {
        matches!(self.chart.card, Card::Timeseries { .. })
    }
}

impl Zoomed for CanvasState {
    fn zoom_to(&mut self, x: Option<(f64, f64)>, y: Option<(f64, f64)>) {
        if !self.view.zoom(x, y) {
            return;
        }
        self.view_redrawn(true);
        if let (Some(group), true) = (&self.group, self.sync_zoom && self.time_axis()) {
            let me: Weak<RefCell<dyn Crossed>> = self.me.clone();
            crate::crosshair::broadcast_zoom(group, &me, self.view.x());
        }
    }

    fn home(&self) -> Option<ZoomWindow> {
        self.home
    }
}

impl Toggled for CanvasState {
    fn toggle(&mut self, series: &str) {
        let shown = self.view.shows(series);
        self.set_series_visible(series, !shown);
    }
}

impl Walked for CanvasState {
    fn focus(&mut self) -> &mut Focus {
        &mut self.focus
    }
    fn focused(&self) -> &Focus {
        &self.focus
    }
    fn ring(&self) -> Option<&Ring> {
        self.ring.as_ref()
    }
}

impl Downloads for CanvasState {
    fn download(&self, what: Download) {
        let Some(document) = self.canvas.owner_document() else {
            return;
        };
        let name = crate::menu::file_name(&self.title(&self.chart), what);
        let saved = match what {
            Download::Png => {
                // The PNG is encoded off the main thread; saved when it is
                // ready. toBlob calls back exactly once: the closure frees itself.
                let done = Closure::once_into_js(move |blob: JsValue| {
                    if let Some(blob) = blob.dyn_ref::<web_sys::Blob>() {
                        let _ = crate::menu::save(&document, blob, &name);
                    }
                });
                let _ = self.canvas.to_blob(done.unchecked_ref());
                return;
            }
            Download::Svg => {
                let (width, height) = self.css_size();
                let size = |v: f64| v.round().clamp(16.0, MAX_BACKING_PX) as u32;
                let svg = self.chart.to_svg_viewed(
                    size(width),
                    size(height),
                    (&self.theme(), &self.view),
                );
                crate::menu::text_blob(&svg, "image/svg+xml")
            }
            Download::Csv => crate::menu::text_blob(&self.chart.to_csv(&self.view), "text/csv"),
        };
        if let Ok(blob) = saved {
            let _ = crate::menu::save(&document, &blob, &name);
        }
    }
}

impl Crossed for CanvasState {
    /// Only a card of the same kind of x axis (time with time, numbers with
    /// numbers) that asked for it (`syncZoom`) follows; it tells no one.
    fn zoomed_with(&mut self, x: Option<(f64, f64)>) {
        let zoomable = self.hits.zoom_window().is_some_and(|f| f.y.is_none());
        if self.sync_zoom && zoomable && self.time_axis() && self.view.zoom(x, None) {
            self.view_redrawn(true);
        }
    }

    fn cross_at(&self, x: Option<f64>) {
        if let Some(code) = interest::loaded() {
            (code.cross_at)(self, x);
        }
    }
}

impl CanvasState {
    fn css_size(&self) -> (f64, f64) {
        let rect = self.canvas.get_bounding_client_rect();
        (rect.width(), rect.height())
    }
}

impl Pointed for CanvasState {
    fn cross(&self, at: Option<(f64, f64)>) -> bool {
        let crosshair = self.behaviour.as_ref().map(|b| &b.crosshair);
        let (Some(crosshair), Some(tip)) = (crosshair, &self.tip) else {
            return false;
        };
        let Some(frame) = self.hits.zoom_window().filter(|f| f.y.is_none()).copied() else {
            return false;
        };
        let plot = frame.plot;
        let x = at
            .filter(|&(x, y)| x >= plot.x && x <= plot.right() && y >= plot.y && y <= plot.bottom())
            .map(|(x, _)| frame.x_of(x));
        crosshair.show(&self.hits, x, tip, (&self.theme(), self.css_size()));
        if let Some(group) = &self.group {
            let me: Weak<RefCell<dyn Crossed>> = self.me.clone();
            crate::crosshair::broadcast(group, &me, x);
        }
        true
    }

    fn canvas(&self) -> &HtmlCanvasElement {
        &self.canvas
    }
    fn hits(&self) -> &HitMap {
        &self.hits
    }
    fn theme(&self) -> Theme {
        CanvasState::theme(self)
    }
}

fn busy() -> EngineError {
    EngineError::Dom {
        action: "reach the canvas",
        reason: "it is being drawn right now (called from inside a callback?)".into(),
    }
}

fn create_wrapper(document: &Document, width: &str, height: &str) -> Result<HtmlElement, JsValue> {
    let wrapper: HtmlElement = document.create_element("div")?.dyn_into()?;
    wrapper.set_class_name("zdr-embed-local");
    let style = wrapper.style();
    // Positioned so the tooltip and the hidden table are placed inside it.
    style.set_property("position", "relative")?;
    style.set_property("width", width)?;
    if height == AUTO_HEIGHT {
        // No height to fill: the card takes a landscape shape from its width.
        style.set_property("height", "auto")?;
        style.set_property("aspect-ratio", AUTO_ASPECT_RATIO)?;
    } else {
        style.set_property("height", height)?;
    }
    Ok(wrapper)
}

/// The shared frame's two steps: the size read, then the draw and
/// `onLoad` for new data.
impl crate::batch::Due for CanvasState {
    fn measure(&mut self) -> bool {
        if !std::mem::take(&mut self.queued) {
            return false;
        }
        self.measured = Some(self.measure_now());
        true
    }

    fn draw(&mut self) -> Option<Box<dyn FnOnce()>> {
        let measured = self.measured.take()?;
        let outcome = self.draw_measured(measured);
        self.schedule_table();
        let outcome = outcome.map(|()| self.drawn.is_some() && self.announce);
        if matches!(outcome, Ok(true) | Err(_)) {
            self.announce = false;
        }
        // A zoom drawn: its view for onViewChange.
        let view = (outcome.is_ok() && std::mem::take(&mut self.view_changed))
            .then(|| crate::view_js::write(&self.view, self.time_axis()));
        if matches!(outcome, Ok(false)) && view.is_none() {
            return None;
        }
        let (callbacks, canvas) = (self.callbacks.clone(), self.canvas.clone());
        Some(Box::new(move || {
            match outcome {
                Ok(true) => callbacks.loaded(&canvas),
                Ok(false) => {}
                Err(error) => callbacks.failed(&error),
            }
            if let Some(view) = view {
                callbacks.view_changed(&view);
            }
        }))
    }
}

/// Makes the card's [`Chrome`] once, in the task after its first draw;
/// again does nothing. Each part borrows the state for a moment to reach
/// the canvas, so none is held while they are made. The interaction
/// follows at once if its code is here, else when it arrives.
fn attach_chrome(state: &Rc<RefCell<CanvasState>>) -> Result<(), JsValue> {
    let (document, wrapper, window, menu, canvas) = {
        let Ok(mut state) = state.try_borrow_mut() else {
            return Ok(());
        };
        if !std::mem::take(&mut state.chrome_due) {
            return Ok(());
        }
        let Some(document) = state.canvas.owner_document() else {
            return Ok(());
        };
        (
            document,
            state.wrapper.clone(),
            state.window.clone(),
            state.menu,
            state.canvas.clone(),
        )
    };
    let weak = Rc::downgrade(state);
    let tip = crate::tooltip::element(&document, &wrapper)?;
    let ring = Ring::create(&document, &wrapper, &tip)?;
    let legend = LegendButtons::create(&document, &wrapper, weak.clone())?;
    let print = print_watch(&window, weak.clone());
    let menu = if menu {
        Some(crate::menu::button(&document, &wrapper)?)
    } else {
        None
    };
    // One tab stop for the whole card, there before its walk's code.
    canvas.set_tab_index(0);
    let interest = interest::loaded()
        .is_none()
        .then(|| interest::Interest::listen(&wrapper, weak));
    {
        let Ok(mut state) = state.try_borrow_mut() else {
            return Ok(());
        };
        state.tip = Some(tip);
        state.ring = Some(ring);
        state.legend = Some(legend);
        state.chrome = Some(Chrome {
            _print: print,
            interest,
            menu,
        });
        let theme = state.theme();
        state.sync_chrome(&theme);
    }
    interest::enlist(state)
}

/// The timer callback after a frame: the card's [`Chrome`] the first time,
/// then the hidden table for the data shown.
fn table_closure(weak: Weak<RefCell<CanvasState>>) -> Closure<dyn FnMut()> {
    Closure::new(move || {
        if zdr_protocol::failure::has_failed() {
            return;
        }
        let Some(state) = weak.upgrade() else {
            return;
        };
        let attached = attach_chrome(&state);
        let failed = {
            let Ok(mut state) = state.try_borrow_mut() else {
                return;
            };
            state.table_timer = None;
            if let Err(thrown) = attached {
                (
                    state.callbacks.clone(),
                    EngineError::dom("attach the card's tooltip, keyboard and zoom")(thrown),
                )
            } else if !std::mem::take(&mut state.table_due) {
                return;
            } else {
                let title = state.title(&state.chart);
                let described = Description::name(&state.canvas, &state.chart, &title)
                    .and_then(|()| state.description.fill(&state.chart, &title, &state.view));
                match described {
                    Ok(()) => return,
                    Err(thrown) => (
                        state.callbacks.clone(),
                        EngineError::dom("describe the chart for assistive technology")(thrown),
                    ),
                }
            }
        };
        // Page code runs only here, with no borrow held.
        failed.0.failed(&failed.1);
    })
}

fn schedule_callback(weak: Weak<RefCell<CanvasState>>) -> impl Fn() + 'static {
    move || {
        if zdr_protocol::failure::has_failed() {
            return;
        }
        if let Some(state) = weak.upgrade() {
            if let Ok(mut state) = state.try_borrow_mut() {
                state.schedule();
            }
        }
    }
}

/// Draws at once when printing starts (the browser lays the printed page
/// out without animation frames), and for the screen when it ends.
fn print_watch(window: &Window, weak: Weak<RefCell<CanvasState>>) -> PrintWatch {
    PrintWatch::new(window, move |printing| {
        if zdr_protocol::failure::has_failed() {
            return;
        }
        let Some(state) = weak.upgrade() else {
            return;
        };
        let Ok(mut state) = state.try_borrow_mut() else {
            return;
        };
        if state.printing == printing {
            return;
        }
        state.printing = printing;
        if printing {
            // A failed print draw leaves the screen's drawing: not worth an error.
            let _ = state.draw_now();
        } else {
            state.schedule();
        }
    })
}

fn schedule_closure(weak: Weak<RefCell<CanvasState>>) -> Closure<dyn FnMut()> {
    let schedule = schedule_callback(weak);
    Closure::new(schedule)
}

/// `canvas.toBlob` as a promise; a refusal (a zero-size canvas) rejects it.
pub fn canvas_to_png(canvas: &HtmlCanvasElement) -> js_sys::Promise {
    let canvas = canvas.clone();
    js_sys::Promise::new(&mut |resolve, reject| {
        let failed = reject.clone();
        // toBlob calls back exactly once, so the closure frees itself.
        let done = Closure::once_into_js(move |blob: JsValue| {
            let settled = if blob.is_null() {
                let error = EngineError::Draw {
                    reason: "the browser could not encode the canvas as PNG".into(),
                };
                reject.call1(&JsValue::NULL, &error.into())
            } else {
                resolve.call1(&JsValue::NULL, &blob)
            };
            drop(settled);
        });
        if let Err(thrown) = canvas.to_blob(done.unchecked_ref()) {
            let error = EngineError::Draw {
                reason: zdr_protocol::text::describe_thrown(&thrown),
            };
            drop(failed.call1(&JsValue::NULL, &error.into()));
        }
    })
}
