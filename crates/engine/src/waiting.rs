//! A card whose group's code is still on its way ([`crate::chunks`]):
//! `mountLocal` returns at once with the card's place held by an empty box
//! of its size, and the card is drawn when the code arrives, in the same
//! batch as the other cards waiting then (see [`AWAITED`]). A chunk that fails to
//! load goes to the card's `onError`; the other cards are not touched, and
//! the next `update` tries again.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlElement};
use zdr_chart::model::KindGroup;
use zdr_chart::Chart;
use zdr_protocol::layout::{AUTO_ASPECT_RATIO, AUTO_HEIGHT};

use crate::canvas::{CanvasSpec, LocalCanvas};
use crate::error::EngineError;
use crate::settings::Settings;

thread_local! {
    /// The groups whose code cards of the page wait for. A waiting card
    /// draws once every one of them has arrived or failed, not its own
    /// alone: cards rendered together then draw in one batch (one layout
    /// read, one frame) instead of one batch per chunk, each of which held
    /// up the next chunk's arrival behind its draw (a dashboard of four
    /// kinds without `preload()`: four batches, 180-280 ms to its last card).
    static AWAITED: RefCell<Vec<KindGroup>> = const { RefCell::new(Vec::new()) };
}

pub(crate) type CanvasSlot = Rc<RefCell<Option<LocalCanvas>>>;
pub(crate) type WaitingSlot = Rc<RefCell<Option<Waiting>>>;

/// What a read of the data gives the drawing.
pub(crate) enum Read {
    /// Read, and its group's code is here.
    Ready(Rc<Chart>),
    /// The code of the group is needed first (with the card, if it was
    /// read without it: the page's columns of a line or a scatter).
    Needs(KindGroup, Option<Rc<Chart>>),
}

pub(crate) fn read(data: &JsValue) -> Result<Read, EngineError> {
    match crate::data::read(data) {
        Ok(chart) if zdr_chart::is_loaded(chart.group()) => Ok(Read::Ready(chart)),
        Ok(chart) => Ok(Read::Needs(chart.group(), Some(chart))),
        Err(EngineError::Unloaded(group)) => Ok(Read::Needs(group, None)),
        Err(error) => Err(error),
    }
}

/// A card not drawn yet, with everything its drawing will need.
pub(crate) struct Waiting {
    document: Document,
    container: Element,
    settings: Settings,
    /// The card, when it could be read before its code arrived.
    chart: Option<Rc<Chart>>,
    placeholder: HtmlElement,
    /// A load is on its way (a second `update` does not start another).
    in_flight: bool,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.placeholder.remove();
    }
}

impl Waiting {
    pub(crate) fn new(
        document: Document,
        container: Element,
        settings: Settings,
        chart: Option<Rc<Chart>>,
    ) -> Result<Waiting, EngineError> {
        let placeholder = placeholder(&document, &settings)
            .map_err(EngineError::dom("reserve the card's place"))?;
        container
            .append_child(&placeholder)
            .map_err(EngineError::dom("reserve the card's place"))?;
        Ok(Waiting {
            document,
            container,
            settings,
            chart,
            placeholder,
            in_flight: false,
        })
    }

    /// New data for the card while it waits: read when the code is here.
    pub(crate) fn replace(slot: &WaitingSlot, canvas: &CanvasSlot, data: JsValue) {
        let start = match slot
            .try_borrow_mut()
            .ok()
            .as_deref_mut()
            .and_then(Option::as_mut)
        {
            Some(waiting) => {
                waiting.settings.data = data;
                waiting.chart = None;
                !std::mem::replace(&mut waiting.in_flight, true)
            }
            None => false,
        };
        if start {
            spawn_arrival(None, slot, canvas);
        }
    }
}

/// Holds `waiting` in `slot` and draws it into `canvas` once `group`'s
/// code is here.
pub(crate) fn wait(
    group: KindGroup,
    mut waiting: Waiting,
    slot: &WaitingSlot,
    canvas: &CanvasSlot,
) {
    waiting.in_flight = true;
    if let Ok(mut held) = slot.try_borrow_mut() {
        *held = Some(waiting);
    }
    // Known now, while the page's other cards of this task are mounted,
    // before any card's load settles.
    awaiting(group);
    spawn_arrival(Some(group), slot, canvas);
}

fn spawn_arrival(first: Option<KindGroup>, slot: &WaitingSlot, canvas: &CanvasSlot) {
    let (slot, canvas) = (Rc::downgrade(slot), Rc::downgrade(canvas));
    wasm_bindgen_futures::spawn_local(arrive(first, slot, canvas));
}

/// Loads what the card needs until it reads, then draws it. Bounded: each
/// round loads a group not loaded before, and there are so many groups.
async fn arrive(
    mut needed: Option<KindGroup>,
    slot: Weak<RefCell<Option<Waiting>>>,
    canvas: Weak<RefCell<Option<LocalCanvas>>>,
) {
    for _ in 0..=KindGroup::ALL.len() {
        let loaded = match needed {
            Some(group) => load_with_neighbours(group).await,
            None => Ok(()),
        };
        // Taken out, so that the page's callbacks below may call the drawing.
        let Some(mut waiting) = take(&slot) else {
            return; // destroyed meanwhile
        };
        let outcome = loaded.and_then(|()| match waiting.chart.take() {
            Some(chart) if zdr_chart::is_loaded(chart.group()) => Ok(Read::Ready(chart)),
            Some(chart) => Ok(Read::Needs(chart.group(), Some(chart))),
            None => read(&waiting.settings.data),
        });
        match outcome {
            Ok(Read::Ready(chart)) => return draw(waiting, chart, &canvas, &slot),
            Ok(Read::Needs(group, chart)) => {
                waiting.chart = chart;
                needed = Some(group);
                put_back(&slot, waiting);
            }
            Err(error) => {
                waiting.in_flight = false;
                let callbacks = waiting.settings.callbacks.clone();
                put_back(&slot, waiting);
                callbacks.failed(&error);
                return;
            }
        }
    }
}

/// Loads `group`, then waits for the groups other waiting cards still
/// need (a load in flight is joined); `group`'s own outcome is the card's,
/// the others' their cards'. A group leaves the list once its load has
/// settled, loaded or failed, so a failed chunk is not fetched again for
/// its neighbours' sake.
async fn load_with_neighbours(group: KindGroup) -> Result<(), EngineError> {
    awaiting(group);
    let own = crate::chunks::load(group).await;
    let neighbours = AWAITED.with(|awaited| {
        let mut awaited = awaited.try_borrow_mut().ok()?;
        awaited.retain(|&other| other != group);
        Some(awaited.clone())
    });
    if let Some(neighbours) = neighbours.filter(|n| !n.is_empty()) {
        let _ = crate::chunks::load_all(neighbours).await;
    }
    own
}

fn awaiting(group: KindGroup) {
    AWAITED.with(|awaited| {
        if let Ok(mut awaited) = awaited.try_borrow_mut() {
            if !awaited.contains(&group) {
                awaited.push(group);
            }
        }
    });
}

fn take(slot: &Weak<RefCell<Option<Waiting>>>) -> Option<Waiting> {
    slot.upgrade()?.try_borrow_mut().ok()?.take()
}

fn put_back(slot: &Weak<RefCell<Option<Waiting>>>, waiting: Waiting) {
    if let Some(slot) = slot.upgrade() {
        if let Ok(mut held) = slot.try_borrow_mut() {
            *held = Some(waiting);
        }
    }
}

fn draw(
    waiting: Waiting,
    chart: Rc<Chart>,
    canvas: &Weak<RefCell<Option<LocalCanvas>>>,
    slot: &Weak<RefCell<Option<Waiting>>>,
) {
    let Some(canvas) = canvas.upgrade() else {
        return;
    };
    match create(
        &waiting.document,
        &waiting.container,
        &waiting.settings,
        chart,
    ) {
        Ok(drawn) => {
            // In the box's place, then the box goes (dropping `waiting`).
            let _ = waiting
                .container
                .insert_before(&drawn.wrapper(), Some(&waiting.placeholder));
            if let Ok(mut held) = canvas.try_borrow_mut() {
                *held = Some(drawn);
            }
        }
        Err(error) => {
            let callbacks = waiting.settings.callbacks.clone();
            let mut waiting = waiting;
            waiting.in_flight = false;
            put_back(slot, waiting);
            callbacks.failed(&error);
        }
    }
}

/// The card drawn on a canvas appended to `container`.
pub(crate) fn create(
    document: &Document,
    container: &Element,
    settings: &Settings,
    chart: Rc<Chart>,
) -> Result<LocalCanvas, EngineError> {
    let spec = CanvasSpec {
        document,
        container,
        width: &settings.width,
        height: &settings.height,
        fallback_title: &settings.title,
        dark_mode: settings.dark_mode,
        callbacks: settings.callbacks.clone(),
        sync_group: settings.sync_group.as_deref(),
        menu: settings.menu,
        sync_zoom: settings.sync_zoom,
    };
    LocalCanvas::create(spec, chart)
}

/// An empty box of the card's size (width, height, or the landscape shape
/// of `height: "auto"`), as the service module keeps while the engine loads.
fn placeholder(document: &Document, settings: &Settings) -> Result<HtmlElement, JsValue> {
    let placeholder: HtmlElement = document.create_element("div")?.unchecked_into();
    placeholder.set_class_name("zdr-embed-pending");
    placeholder.set_attribute("aria-busy", "true")?;
    let style = placeholder.style();
    style.set_property("width", &settings.width)?;
    if settings.height == AUTO_HEIGHT {
        style.set_property("aspect-ratio", AUTO_ASPECT_RATIO)?;
    } else {
        style.set_property("height", &settings.height)?;
    }
    Ok(placeholder)
}
