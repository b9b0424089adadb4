//! The card from the keyboard: one tab stop, arrow keys from mark to mark
//! (the walk of `zdr_chart::scene::Walk`), a ring around the mark that is a
//! shape, not a colour, the tooltip's text beside it and in a polite live
//! region for screen readers. Escape leaves the marks. The legend entries
//! that hide and show a series are the walk's first row, above the marks;
//! Enter (or Space) on one toggles it.

use std::cell::RefCell;
use std::rc::Weak;

use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, HtmlElement, KeyboardEvent};
use zdr_chart::scene::{Hit, HitShape, LegendKey, Step, Target, Walk};
use zdr_chart::Theme;

use crate::accessible::VISUALLY_HIDDEN;
use crate::legend::Toggled;
use crate::tooltip::{self, px, Pointed};

/// The ring's style, but its place, colours and whether it shows.
const RING: &str = "position:absolute;pointer-events:none;z-index:1;box-sizing:border-box;";

/// How far a ring stands off its mark, in CSS pixels.
const RING_GAP: f64 = 3.0;
/// The ring around a point or a slice: a circle this wide.
const POINT_RING: f64 = 16.0;

/// Which mark the keyboard is on, and the walk of the drawing it is on.
#[derive(Default)]
pub struct Focus {
    index: Option<usize>,
    walk: Option<Walk>,
}

impl Focus {
    /// The card was drawn again, with `marks` marks where it had `before`:
    /// they are walked afresh, and with new data the walk starts again from
    /// the first mark. A legend entry's index (past the marks) is kept on
    /// the same entry when a series hidden or shown changed the marks.
    pub fn redrawn(&mut self, new_data: bool, (before, marks): (usize, usize)) {
        self.walk = None;
        if new_data {
            self.index = None;
        } else if let Some(index) = self.index {
            if let Some(key) = index.checked_sub(before) {
                self.index = Some(marks + key);
            }
        }
    }
}

/// What the keyboard needs of the canvas's state.
pub trait Walked: Pointed + Toggled {
    fn focus(&mut self) -> &mut Focus;
    fn focused(&self) -> &Focus;
    /// `None` only while the card is being made.
    fn ring(&self) -> Option<&Ring>;
}

/// The ring drawn around the focused mark and the live region that reads it out.
pub struct Ring {
    ring: HtmlElement,
    live: HtmlElement,
    tip: HtmlElement,
}

impl Ring {
    /// Made in `wrapper`, beside the canvas; `tip` is the tooltip's element
    /// there.
    pub fn create(
        document: &Document,
        wrapper: &Element,
        tip: &HtmlElement,
    ) -> Result<Ring, JsValue> {
        let ring: HtmlElement = document.create_element("div")?.dyn_into()?;
        ring.set_class_name("zdr-embed-focus");
        ring.set_attribute("aria-hidden", "true")?;
        ring.style().set_css_text(&[RING, "display:none"].concat());
        // Under the tooltip, which may overlap a large ring.
        wrapper.insert_before(&ring, Some(tip))?;
        let live: HtmlElement = document.create_element("div")?.dyn_into()?;
        live.set_class_name("zdr-embed-live");
        live.set_attribute("role", "status")?;
        live.set_attribute("aria-live", "polite")?;
        live.style().set_css_text(VISUALLY_HIDDEN);
        wrapper.append_child(&live)?;
        Ok(Ring {
            ring,
            live,
            tip: tip.clone(),
        })
    }

    /// Rings `hit`, shows its tooltip and says it.
    pub fn show(&self, hit: &Hit, theme: &Theme, size: (f64, f64)) {
        let (x, y) = hit.shape.centre();
        let (left, top, width, height, round) = match &hit.shape {
            HitShape::Rect(r) | HitShape::Polygon { bounds: r, .. } => (
                r.x - RING_GAP,
                r.y - RING_GAP,
                r.w + 2.0 * RING_GAP,
                r.h + 2.0 * RING_GAP,
                false,
            ),
            HitShape::Point { .. } | HitShape::Wedge { .. } => (
                x - POINT_RING / 2.0,
                y - POINT_RING / 2.0,
                POINT_RING,
                POINT_RING,
                true,
            ),
        };
        self.place(left, top, width, height, round, theme);
        // Beside the ring, not over the mark it rings.
        tooltip::show_for(
            &self.tip,
            hit,
            theme,
            (left + width, top + height / 2.0),
            size,
        );
        self.live.set_text_content(Some(&spoken(hit)));
    }

    /// Puts the ring around a box (round: a circle in it), in the theme's colours.
    fn place(&self, left: f64, top: f64, width: f64, height: f64, round: bool, theme: &Theme) {
        // A dark ring with a light one around it (or the reverse in the dark
        // theme): seen on any mark's colour and on the background.
        let text = crate::canvas_backend::css_color(theme.text);
        let background = crate::canvas_backend::css_color(theme.background);
        self.ring.style().set_css_text(
            &[
                RING,
                "display:block;left:",
                &px(left),
                ";top:",
                &px(top),
                ";width:",
                &px(width.max(POINT_RING / 2.0)),
                ";height:",
                &px(height.max(POINT_RING / 2.0)),
                ";border:2px solid ",
                &text,
                ";box-shadow:0 0 0 2px ",
                &background,
                ",inset 0 0 0 1px ",
                &background,
                ";border-radius:",
                if round { "50%" } else { "2px" },
            ]
            .concat(),
        );
    }

    /// Rings a legend entry and says what Enter would do.
    pub fn show_key(&self, key: &LegendKey, theme: &Theme) {
        self.place(
            key.rect.x - 2.0,
            key.rect.y - 2.0,
            key.rect.w + 4.0,
            key.rect.h + 4.0,
            false,
            theme,
        );
        tooltip::hide(&self.tip);
        let (state, action) = if key.shown {
            ("shown", "hides")
        } else {
            ("hidden", "shows")
        };
        self.live.set_text_content(Some(
            &[&key.series, ": ", state, ". Enter ", action, " it."].concat(),
        ));
    }

    pub fn hide(&self) {
        let _ = self.ring.style().set_property("display", "none");
        tooltip::hide(&self.tip);
    }
}

/// What the live region says: the tooltip's text on one line.
pub fn spoken(hit: &Hit) -> String {
    let (first, second) = tooltip::lines(hit);
    let joint = if hit.series.is_some() { ", " } else { ": " };
    [first.as_str(), joint, second.as_str()].concat()
}

/// The key listeners of a canvas; dropping it unsubscribes them.
pub struct Keyboard {
    _listeners: [EventListener; 2],
}

impl Keyboard {
    pub fn attach<S: Walked + 'static>(state: Weak<RefCell<S>>) -> Result<Keyboard, JsValue> {
        let canvas = state
            .upgrade()
            .and_then(|state| state.try_borrow().ok().map(|s| s.canvas().clone()))
            .ok_or_else(|| JsValue::from_str("the canvas is gone"))?;
        // The card's one tab stop (`tabindex` 0) was set with its first
        // chrome, so that it takes focus before this code arrives.
        let on_key = {
            let state = state.clone();
            // Not passive: the arrows must not also scroll the page.
            let options = EventListenerOptions::enable_prevent_default();
            EventListener::new_with_options(&canvas, "keydown", options, move |event| {
                if zdr_protocol::failure::has_failed() {
                    return;
                }
                if let Some(event) = event.dyn_ref::<KeyboardEvent>() {
                    if key(&state, event) {
                        event.prevent_default();
                    }
                }
            })
        };
        let on_blur = EventListener::new(&canvas, "blur", move |_| {
            if let Some(state) = state.upgrade() {
                if let Ok(state) = state.try_borrow() {
                    state.cross(None);
                    if let Some(ring) = state.ring() {
                        ring.hide();
                    }
                }
            }
        });
        Ok(Keyboard {
            _listeners: [on_key, on_blur],
        })
    }
}

/// Handles one key; true when it was the card's.
fn key<S: Walked>(state: &Weak<RefCell<S>>, event: &KeyboardEvent) -> bool {
    if event.alt_key() || event.ctrl_key() || event.meta_key() {
        return false;
    }
    let step = match event.key().as_str() {
        "ArrowLeft" => Step::Previous,
        "ArrowRight" => Step::Next,
        "ArrowUp" => Step::Up,
        "ArrowDown" => Step::Down,
        "Home" => Step::First,
        "End" => Step::Last,
        "Enter" | " " => {
            let Some(state) = state.upgrade() else {
                return false;
            };
            let Ok(mut state) = state.try_borrow_mut() else {
                return false;
            };
            let series = match state.focused().index.and_then(|i| state.hits().target(i)) {
                Some(Target::Legend(key)) => key.series.clone(),
                _ => return false,
            };
            // The redraw it asks for rings the entry again and says its new state.
            state.toggle(&series);
            return true;
        }
        "Escape" => {
            let Some(state) = state.upgrade() else {
                return false;
            };
            let Ok(mut state) = state.try_borrow_mut() else {
                return false;
            };
            let was_on = state.focus().index.take().is_some();
            state.cross(None);
            if let Some(ring) = state.ring() {
                ring.hide();
            }
            return was_on;
        }
        _ => return false,
    };
    let Some(state) = state.upgrade() else {
        return false;
    };
    let Ok(mut state) = state.try_borrow_mut() else {
        return false;
    };
    let walk = match state.focus().walk.take() {
        Some(walk) => walk,
        None => state.hits().walk(),
    };
    let from = state.focus().index;
    let to = walk.step(from, step);
    state.focus().walk = Some(walk);
    state.focus().index = to;
    mark(&*state);
    true
}

/// Rings the focused mark, if any (after a key, or a redraw of a focused card).
pub fn mark<S: Walked>(state: &S) {
    let Some(ring) = state.ring() else {
        return;
    };
    match state
        .focused()
        .index
        .and_then(|index| state.hits().target(index))
    {
        Some(Target::Mark(hit)) => {
            let rect = state.canvas().get_bounding_client_rect();
            ring.show(hit, &state.theme(), (rect.width(), rect.height()));
            // On a card with a crosshair it follows the keyboard, and the
            // tooltip lists every series at the mark's date.
            state.cross(Some(hit.shape.centre()));
        }
        Some(Target::Legend(key)) => {
            state.cross(None);
            ring.show_key(key, &state.theme());
        }
        None => {
            state.cross(None);
            ring.hide();
        }
    }
}
