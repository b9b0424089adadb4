//! The tooltip: hovering or touching near a mark shows its series, x and y.
//! The chart's hit map (CSS pixels) says which datum is under the pointer.

use std::cell::RefCell;
use std::rc::Weak;

use gloo_events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, HtmlCanvasElement, HtmlElement, PointerEvent};
use zdr_chart::scene::{Color, Hit, HitMap, FONT_FAMILY};
use zdr_chart::Theme;

/// What the tooltip reads of the card it points at: the canvas, where the
/// marks landed and the colours. The canvas's state answers it; the
/// tooltip knows nothing else of the canvas module.
pub trait Pointed {
    fn canvas(&self) -> &HtmlCanvasElement;
    fn hits(&self) -> &HitMap;
    fn theme(&self) -> Theme;
    /// A card with a crosshair shows it at the pointer `at` (hides it for
    /// `None`, or outside its plot) instead of a single mark's tooltip:
    /// true when it did.
    fn cross(&self, _at: Option<(f64, f64)>) -> bool {
        false
    }
}

/// How far from a point the pointer may be, in CSS pixels; a finger is broader.
const MOUSE_RADIUS: f64 = 12.0;
const TOUCH_RADIUS: f64 = 24.0;
/// Gap between the pointer and the tooltip.
const OFFSET: f64 = 12.0;

/// The tooltip's element, hidden: made with the card's first chrome (the
/// page may look for it), filled only once the interaction's code is here.
pub fn element(document: &Document, wrapper: &Element) -> Result<HtmlElement, JsValue> {
    let tip: HtmlElement = document.create_element("div")?.dyn_into()?;
    tip.set_class_name("zdr-embed-tooltip");
    // The hidden table already gives assistive technology every value.
    tip.set_attribute("aria-hidden", "true")?;
    tip.style().set_css_text(&format!(
        "position:absolute;left:0;top:0;display:none;pointer-events:none;z-index:1;\
             font:12px/1.35 {FONT_FAMILY};padding:4px 8px;border-radius:4px;\
             white-space:nowrap;box-shadow:0 1px 4px rgba(0,0,0,.25)"
    ));
    wrapper.append_child(&tip)?;
    Ok(tip)
}

/// Where a pointer is on the page, and whether it is a finger.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointerAt {
    pub client: (f64, f64),
    pub touch: bool,
}

impl PointerAt {
    pub fn of(event: &PointerEvent) -> PointerAt {
        PointerAt {
            client: (f64::from(event.client_x()), f64::from(event.client_y())),
            touch: event.pointer_type() == "touch",
        }
    }
}

/// The pointer listeners of the tooltip; dropping it unsubscribes them.
pub struct Tooltip {
    _listeners: [EventListener; 4],
}

impl Tooltip {
    pub fn listen<S: Pointed + 'static>(
        tip: &HtmlElement,
        state: Weak<RefCell<S>>,
    ) -> Result<Tooltip, JsValue> {
        let canvas = state
            .upgrade()
            .and_then(|state| state.try_borrow().ok().map(|s| s.canvas().clone()))
            .ok_or_else(|| JsValue::from_str("the canvas is gone"))?;

        let on_pointer = |kind: &'static str| {
            let state = state.clone();
            let tip = tip.clone();
            EventListener::new(&canvas, kind, move |event| {
                if zdr_protocol::failure::has_failed() {
                    return;
                }
                if let Some(event) = event.dyn_ref::<PointerEvent>() {
                    point_at(&state, &tip, PointerAt::of(event));
                }
            })
        };
        let on_leave = |kind: &'static str| {
            let tip = tip.clone();
            let state = state.clone();
            EventListener::new(&canvas, kind, move |event| {
                // A finger "leaves" right after every tap; the tooltip it
                // opened stays until the next tap away from a mark.
                let touch = event
                    .dyn_ref::<PointerEvent>()
                    .is_some_and(|pointer| pointer.pointer_type() == "touch");
                if !touch || event.type_() == "pointercancel" {
                    hide(&tip);
                    if let Some(state) = state.upgrade() {
                        if let Ok(state) = state.try_borrow() {
                            state.cross(None);
                        }
                    }
                }
            })
        };
        let listeners = [
            on_pointer("pointermove"),
            // A tap gives no hover: show on touch down too.
            on_pointer("pointerdown"),
            on_leave("pointerleave"),
            on_leave("pointercancel"),
        ];
        Ok(Tooltip {
            _listeners: listeners,
        })
    }
}

/// Shows the tooltip (or the crosshair) for a pointer at `pointer`: after
/// each move, and once for where the pointer was when the code arrived.
pub fn point_at<S: Pointed>(state: &Weak<RefCell<S>>, tip: &HtmlElement, pointer: PointerAt) {
    let Some(state) = state.upgrade() else {
        return;
    };
    let Ok(state) = state.try_borrow() else {
        return;
    };
    let rect = state.canvas().get_bounding_client_rect();
    let x = pointer.client.0 - rect.left();
    let y = pointer.client.1 - rect.top();
    if state.cross(Some((x, y))) {
        return;
    }
    let radius = if pointer.touch {
        TOUCH_RADIUS
    } else {
        MOUSE_RADIUS
    };
    match state.hits().at(x, y, radius) {
        Some(hit) => show_for(
            tip,
            hit,
            &state.theme(),
            (x, y),
            (rect.width(), rect.height()),
        ),
        None => hide(tip),
    }
}

/// Shows `hit` beside (`x`, `y`), in CSS pixels of a card `size` large.
pub fn show_for(tip: &HtmlElement, hit: &Hit, theme: &Theme, at: (f64, f64), size: (f64, f64)) {
    let colors = Colors {
        text: theme.text,
        background: theme.background,
        border: theme.axis,
    };
    // A tooltip that fails to show is not worth an error.
    let _ = show(tip, hit, &colors, at, size);
}

struct Colors {
    text: Color,
    background: Color,
    border: Color,
}

/// `#rrggbb`, written as the canvas writes its colours (no integer
/// formatting of its own in the module).
fn css(color: Color) -> String {
    crate::canvas_backend::css_color(color)
}

/// The lines of a tooltip: the series (bold) when there are several, then "x: y".
pub fn lines(hit: &Hit) -> (String, String) {
    match &hit.series {
        Some(series) => (series.clone(), format!("{}: {}", hit.label, hit.value)),
        None => (hit.label.clone(), hit.value.clone()),
    }
}

fn show(
    tip: &HtmlElement,
    hit: &Hit,
    colors: &Colors,
    at: (f64, f64),
    size: (f64, f64),
) -> Result<(), JsValue> {
    let (first, second) = lines(hit);
    fill(tip, &first, &[second], colors, at, size)
}

/// A tooltip of a bold heading and lines under it (a crosshair's column).
pub fn show_lines(
    tip: &HtmlElement,
    heading: &str,
    lines: &[String],
    theme: &Theme,
    at: (f64, f64),
    size: (f64, f64),
) {
    let colors = Colors {
        text: theme.text,
        background: theme.background,
        border: theme.axis,
    };
    let _ = fill(tip, heading, lines, &colors, at, size);
}

fn fill(
    tip: &HtmlElement,
    first: &str,
    lines: &[String],
    colors: &Colors,
    (x, y): (f64, f64),
    (width, height): (f64, f64),
) -> Result<(), JsValue> {
    let document = tip
        .owner_document()
        .ok_or_else(|| JsValue::from_str("no document"))?;
    tip.set_text_content(None);
    let heading = document.create_element("strong")?;
    heading.set_text_content(Some(first));
    tip.append_child(&heading)?;
    for line in lines {
        let detail = document.create_element("div")?;
        detail.set_text_content(Some(line));
        tip.append_child(&detail)?;
    }

    let style = tip.style();
    style.set_property("color", &css(colors.text))?;
    style.set_property("background", &css(colors.background))?;
    style.set_property("border", &["1px solid ", &css(colors.border)].concat())?;
    style.set_property("display", "block")?;
    // Measured after filling: beside the pointer, flipped to stay inside the card.
    let (w, h) = (
        f64::from(tip.offset_width()),
        f64::from(tip.offset_height()),
    );
    let place = |at: f64, size: f64, room: f64| {
        let after = at + OFFSET;
        let spot = if after + size > room {
            at - OFFSET - size
        } else {
            after
        };
        spot.min(room - size).max(0.0)
    };
    style.set_property("left", &px(place(x, w, width)))?;
    style.set_property("top", &px(place(y, h, height)))?;
    Ok(())
}

/// Whole CSS pixels as an integer: an `f64` formatted with `{}` would link
/// core's float formatting into the module.
pub fn px(v: f64) -> String {
    // A saturating cast: offsets are far below i64's range, NaN gives 0.
    format!("{}px", v.round() as i64)
}

pub fn hide(tip: &HtmlElement) {
    let _ = tip.style().set_property("display", "none");
}

#[cfg(test)]
mod tests {
    use super::px;

    #[test]
    fn offsets_are_whole_pixels_as_before() {
        for v in [0.0f64, 12.4, 12.5, 99.0, 1234.6, -0.2] {
            // The text `{}` gave the rounded f64 (CSS reads "-0px" as "0px").
            let before = format!("{}px", v.round()).replace("-0px", "0px");
            assert_eq!(px(v), before);
        }
        assert_eq!(px(f64::NAN), "0px");
    }
}
