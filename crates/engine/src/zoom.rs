//! Zoom and pan on the cards that have a continuous x axis (timeseries,
//! area and scatter: `HitMap::zoom_window`). Drag across the plot selects an
//! x range (an x and y box on a scatter); Shift-drag pans a zoomed card;
//! the wheel with Ctrl or Cmd (a trackpad's pinch sends that too) zooms
//! around the pointer; two fingers pinch and pan; a double click or the
//! "Reset zoom" button goes back to the whole data. Each zoomed view is
//! drawn again from the card's kept columns, so a million-point line shows
//! the real points of the range.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, HtmlElement, PointerEvent, WheelEvent};
use zdr_chart::scene::{Rect, ZoomWindow};

use crate::tooltip::{px, Pointed};

/// The selection box's style, but where it is and whether it shows.
const SELECTION: &str = "position:absolute;pointer-events:none;z-index:1;\
background:rgba(0,114,178,.15);border:1px solid rgba(0,114,178,.6);box-sizing:border-box;";

/// The reset button's style, but its colours, place and whether it shows.
const RESET: &str = "position:absolute;z-index:2;font:12px/1.2 sans-serif;padding:3px 8px;\
border-radius:4px;cursor:pointer;";

/// A zoomed range, or `None` for the whole data.
type Range = Option<(f64, f64)>;

/// What one event does to the card, its gesture and its selection box:
/// true when it was the card's (its default is prevented).
type Handler<S> = fn(&mut S, &mut Gesture, &HtmlElement, &web_sys::Event) -> bool;

/// A drag shorter than this (CSS pixels) is a click, not a selection.
const MIN_DRAG: f64 = 4.0;
/// The narrowest zoom, as a share of the whole data's range.
const MIN_SHARE: f64 = 1e-7;

/// What zooming needs of the canvas's state.
pub trait Zoomed: Pointed {
    /// Zooms to `x` (and `y`), or back to the whole data with `None`s.
    fn zoom_to(&mut self, x: Option<(f64, f64)>, y: Option<(f64, f64)>);
    /// The plot of the last draw of the whole data: the bounds of zooming out.
    fn home(&self) -> Option<ZoomWindow>;
}

#[derive(Clone, Copy)]
struct Drag {
    id: i32,
    start: (f64, f64),
    /// The window when it began: a pan moves the range it had then.
    window: ZoomWindow,
    pan: bool,
}

#[derive(Default)]
struct Gesture {
    drag: Option<Drag>,
    /// Fingers down: pointer id and where.
    touches: Vec<(i32, (f64, f64))>,
    /// Two fingers: their distance and midpoint at the start, and the window then.
    pinch: Option<(f64, (f64, f64), ZoomWindow)>,
}

/// The selection box, the reset button and the listeners; dropping it
/// unsubscribes them (the nodes go with the card's wrapper).
pub struct Zoom {
    reset: HtmlElement,
    _listeners: Vec<EventListener>,
}

impl Zoom {
    /// Its elements go into `wrapper` before `before` (the menu's button,
    /// which comes after them in the tab order), or at its end.
    pub fn attach<S: Zoomed + 'static>(
        document: &Document,
        (wrapper, before): (&Element, Option<&web_sys::Node>),
        state: Weak<RefCell<S>>,
    ) -> Result<Zoom, JsValue> {
        let canvas = state
            .upgrade()
            .and_then(|state| state.try_borrow().ok().map(|s| s.canvas().clone()))
            .ok_or_else(|| JsValue::from_str("the canvas is gone"))?;
        let select: HtmlElement = document.create_element("div")?.dyn_into()?;
        select.set_class_name("zdr-embed-selection");
        select.set_attribute("aria-hidden", "true")?;
        select
            .style()
            .set_css_text(&[SELECTION, "display:none"].concat());
        wrapper.insert_before(&select, before)?;
        let reset: HtmlElement = document.create_element("button")?.dyn_into()?;
        reset.set_attribute("type", "button")?;
        reset.set_class_name("zdr-embed-reset");
        reset.set_text_content(Some("Reset zoom"));
        reset
            .style()
            .set_css_text(&[RESET, "display:none"].concat());
        wrapper.insert_before(&reset, before)?;

        let gesture = Rc::new(RefCell::new(Gesture::default()));
        let active = EventListenerOptions::enable_prevent_default();
        let on = |target: &web_sys::EventTarget, kind: &'static str, handle: Handler<S>| {
            let (state, gesture, select) = (state.clone(), gesture.clone(), select.clone());
            EventListener::new_with_options(target, kind, active, move |event| {
                if zdr_protocol::failure::has_failed() {
                    return;
                }
                // A card in use (a callback of the page calling back) lets the event go.
                let Some(state) = state.upgrade() else {
                    return;
                };
                let (Ok(mut state), Ok(mut gesture)) =
                    (state.try_borrow_mut(), gesture.try_borrow_mut())
                else {
                    return;
                };
                if handle(&mut state, &mut gesture, &select, event) {
                    event.prevent_default();
                }
            })
        };
        let listeners = vec![
            on(&canvas, "pointerdown", down::<S>),
            on(&canvas, "pointermove", moved::<S>),
            on(&canvas, "pointerup", up::<S>),
            on(&canvas, "pointercancel", up::<S>),
            on(&canvas, "wheel", wheel::<S>),
            on(&canvas, "dblclick", reset_view::<S>),
            on(&reset, "click", reset_view::<S>),
        ];
        Ok(Zoom {
            reset,
            _listeners: listeners,
        })
    }

    /// After a draw: the reset button shows while zoomed, at the plot's top right.
    pub fn sync(&self, zoomed: bool, plot: Option<Rect>, (text, background): (String, String)) {
        let style = self.reset.style();
        match plot.filter(|_| zoomed) {
            Some(plot) => {
                // Shown first, then measured, then placed by its width.
                let colors = [
                    RESET,
                    "color:",
                    &text,
                    ";background:",
                    &background,
                    ";border:1px solid ",
                    &text,
                ]
                .concat();
                style.set_css_text(&colors);
                let width = f64::from(self.reset.offset_width());
                let at = [
                    ";left:",
                    &px(plot.right() - width - 4.0),
                    ";top:",
                    &px(plot.y + 4.0),
                ];
                style.set_css_text(&[colors.as_str(), &at.concat()].concat());
            }
            None => style.set_css_text(&[RESET, "display:none"].concat()),
        }
    }
}

/// Where a pointer event is, in CSS pixels of the canvas.
fn at<S: Pointed>(state: &S, event: &PointerEvent) -> (f64, f64) {
    let rect = state.canvas().get_bounding_client_rect();
    (
        f64::from(event.client_x()) - rect.left(),
        f64::from(event.client_y()) - rect.top(),
    )
}

fn inside(r: &Rect, (x, y): (f64, f64)) -> bool {
    x >= r.x && x <= r.right() && y >= r.y && y <= r.bottom()
}

fn down<S: Zoomed>(
    state: &mut S,
    gesture: &mut Gesture,
    _: &HtmlElement,
    event: &web_sys::Event,
) -> bool {
    let Some(event) = event.dyn_ref::<PointerEvent>() else {
        return false;
    };
    let Some(window) = state.hits().zoom_window().copied() else {
        return false;
    };
    let point = at(&*state, event);
    if event.pointer_type() == "touch" {
        gesture.touches.retain(|(id, _)| *id != event.pointer_id());
        gesture.touches.push((event.pointer_id(), point));
        if let [(_, a), (_, b)] = gesture.touches[..] {
            gesture.pinch = Some((distance(a, b), middle(a, b), window));
        }
        // One finger shows the tooltip; the page scrolls as usual.
        return false;
    }
    if event.button() != 0 || !inside(&window.plot, point) {
        return false;
    }
    let zoomed = state.home().is_some_and(|home| home != window);
    gesture.drag = Some(Drag {
        id: event.pointer_id(),
        start: point,
        window,
        pan: event.shift_key() && zoomed,
    });
    // Moves outside the canvas still belong to the drag.
    let _ = state.canvas().set_pointer_capture(event.pointer_id());
    true
}

fn moved<S: Zoomed>(
    state: &mut S,
    gesture: &mut Gesture,
    select: &HtmlElement,
    event: &web_sys::Event,
) -> bool {
    let Some(event) = event.dyn_ref::<PointerEvent>() else {
        return false;
    };
    let point = at(&*state, event);
    if event.pointer_type() == "touch" {
        if let Some(touch) = gesture
            .touches
            .iter_mut()
            .find(|(id, _)| *id == event.pointer_id())
        {
            touch.1 = point;
        }
        if let (Some((d0, m0, window)), [(_, a), (_, b)]) = (gesture.pinch, &gesture.touches[..]) {
            let (d1, m1) = (distance(*a, *b), middle(*a, *b));
            // The data under the first midpoint stays under the fingers' midpoint.
            let scale = if d1 > 1.0 { d0 / d1 } else { 1.0 };
            let x = pinched(window.plot.x, window.plot.w, window.x, (m0.0, m1.0), scale);
            let y = window
                .y
                .map(|(lo, hi)| pinched_up(&window.plot, (lo, hi), (m0.1, m1.1), scale));
            let (x, y) = bounded(&*state, x, y);
            state.zoom_to(x, y);
            return true;
        }
        return false;
    }
    let Some(drag) = gesture.drag.filter(|d| d.id == event.pointer_id()) else {
        return false;
    };
    let window = drag.window;
    if drag.pan {
        let dx = window.x_of(drag.start.0) - window.x_of(point.0);
        let x = (window.x.0 + dx, window.x.1 + dx);
        let y = window.y.map(|(lo, hi)| {
            let dy = window.y_of(drag.start.1).unwrap_or(0.0) - window.y_of(point.1).unwrap_or(0.0);
            (lo + dy, hi + dy)
        });
        state.zoom_to(Some(x), y);
        return true;
    }
    // The selection: the plot's height on a line, a box on a scatter.
    let plot = window.plot;
    let clamp = |v: f64, lo: f64, hi: f64| v.max(lo).min(hi);
    let (x0, x1) = (
        clamp(drag.start.0.min(point.0), plot.x, plot.right()),
        clamp(drag.start.0.max(point.0), plot.x, plot.right()),
    );
    let (y0, y1) = if window.y.is_some() {
        (
            clamp(drag.start.1.min(point.1), plot.y, plot.bottom()),
            clamp(drag.start.1.max(point.1), plot.y, plot.bottom()),
        )
    } else {
        (plot.y, plot.bottom())
    };
    select.style().set_css_text(
        &[
            SELECTION,
            "display:block;left:",
            &px(x0),
            ";top:",
            &px(y0),
            ";width:",
            &px(x1 - x0),
            ";height:",
            &px(y1 - y0),
        ]
        .concat(),
    );
    true
}

fn up<S: Zoomed>(
    state: &mut S,
    gesture: &mut Gesture,
    select: &HtmlElement,
    event: &web_sys::Event,
) -> bool {
    let Some(event) = event.dyn_ref::<PointerEvent>() else {
        return false;
    };
    gesture.touches.retain(|(id, _)| *id != event.pointer_id());
    if gesture.touches.len() < 2 {
        gesture.pinch = None;
    }
    let _ = select.style().set_property("display", "none");
    let Some(drag) = gesture.drag.take().filter(|d| d.id == event.pointer_id()) else {
        return false;
    };
    let point = at(&*state, event);
    let cancelled = event.type_() == "pointercancel";
    let wide = (point.0 - drag.start.0).abs() >= MIN_DRAG;
    if drag.pan || cancelled || !wide {
        return drag.pan;
    }
    let window = drag.window;
    let ends = |a: f64, b: f64| (a.min(b), a.max(b));
    let plot = window.plot;
    let clamp_x = |v: f64| v.max(plot.x).min(plot.right());
    let clamp_y = |v: f64| v.max(plot.y).min(plot.bottom());
    let x = ends(
        window.x_of(clamp_x(drag.start.0)),
        window.x_of(clamp_x(point.0)),
    );
    let y = window.y.and_then(|_| {
        let (a, b) = (
            window.y_of(clamp_y(drag.start.1))?,
            window.y_of(clamp_y(point.1))?,
        );
        // A flat drag on a scatter zooms in x alone.
        ((point.1 - drag.start.1).abs() >= MIN_DRAG).then(|| ends(a, b))
    });
    let y = y.or(window.y);
    let (x, y) = bounded(&*state, x, y);
    state.zoom_to(x, y);
    true
}

fn wheel<S: Zoomed>(
    state: &mut S,
    _: &mut Gesture,
    _: &HtmlElement,
    event: &web_sys::Event,
) -> bool {
    let Some(event) = event.dyn_ref::<WheelEvent>() else {
        return false;
    };
    // A plain wheel scrolls the page, as on any other element.
    if !(event.ctrl_key() || event.meta_key()) {
        return false;
    }
    let Some(window) = state.hits().zoom_window().copied() else {
        return false;
    };
    let rect = state.canvas().get_bounding_client_rect();
    let point = (
        f64::from(event.client_x()) - rect.left(),
        f64::from(event.client_y()) - rect.top(),
    );
    // Pixels, lines or pages of wheel: a notch of a mouse (100 px) is 20%.
    let delta = match event.delta_mode() {
        1 => event.delta_y() * 33.0,
        2 => event.delta_y() * 400.0,
        _ => event.delta_y(),
    };
    let scale = zdr_chart::math::powf(std::f64::consts::E, delta * 0.002).clamp(0.25, 4.0);
    let around = |v: f64, (lo, hi): (f64, f64)| (v - (v - lo) * scale, v + (hi - v) * scale);
    let x = around(window.x_of(point.0), window.x);
    let y = window
        .y
        .and_then(|r| Some(around(window.y_of(point.1)?, r)));
    let (x, y) = bounded(&*state, x, y);
    state.zoom_to(x, y);
    true
}

fn reset_view<S: Zoomed>(
    state: &mut S,
    _: &mut Gesture,
    _: &HtmlElement,
    _: &web_sys::Event,
) -> bool {
    state.zoom_to(None, None);
    true
}

/// A zoom held to the whole data: one as wide as it (or wider) is no zoom
/// at all, one narrower than [`MIN_SHARE`] of it keeps that width.
fn bounded<S: Zoomed>(state: &S, x: (f64, f64), y: Option<(f64, f64)>) -> (Range, Range) {
    let Some(home) = state.home() else {
        return (Some(x), y);
    };
    let hold = |(lo, hi): (f64, f64), (home_lo, home_hi): (f64, f64)| {
        let whole = home_hi - home_lo;
        if hi - lo >= whole {
            return None;
        }
        let min = whole * MIN_SHARE;
        if hi - lo < min {
            let mid = (lo + hi) / 2.0;
            return Some((mid - min / 2.0, mid + min / 2.0));
        }
        Some((lo, hi))
    };
    let x = hold(x, home.x);
    let y = match (y, home.y) {
        (Some(y), Some(home_y)) => hold(y, home_y),
        _ => None,
    };
    // A scatter zoomed out in x but in in y stays zoomed in y only.
    (x, y)
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)).sqrt()
}

fn middle(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// A range `scale` times as wide, the value under pixel `from` now under `to`.
fn pinched(
    start: f64,
    width: f64,
    (lo, hi): (f64, f64),
    (from, to): (f64, f64),
    scale: f64,
) -> (f64, f64) {
    let span = hi - lo;
    let t = |p: f64| {
        if width > 0.0 {
            (p - start) / width
        } else {
            0.5
        }
    };
    let value = lo + t(from) * span;
    let new_span = span * scale;
    let new_lo = value - t(to) * new_span;
    (new_lo, new_lo + new_span)
}

/// [`pinched`] for a y range, whose pixels grow downwards.
fn pinched_up(plot: &Rect, (lo, hi): (f64, f64), (from, to): (f64, f64), scale: f64) -> (f64, f64) {
    let flip = |p: f64| plot.y + plot.bottom() - p;
    pinched(plot.y, plot.h, (lo, hi), (flip(from), flip(to)), scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pinch_keeps_the_value_under_the_fingers() {
        // 0..100 over 100 px: spreading the fingers twice as far around
        // pixel 50 gives 25..75.
        let (lo, hi) = pinched(0.0, 100.0, (0.0, 100.0), (50.0, 50.0), 0.5);
        assert!(
            (lo - 25.0).abs() < 1e-9 && (hi - 75.0).abs() < 1e-9,
            "{lo}..{hi}"
        );
        // Moving both fingers 10 px right moves the range 10 left.
        let (lo, hi) = pinched(0.0, 100.0, (0.0, 100.0), (50.0, 60.0), 1.0);
        assert!(
            (lo + 10.0).abs() < 1e-9 && (hi - 90.0).abs() < 1e-9,
            "{lo}..{hi}"
        );
    }
}
