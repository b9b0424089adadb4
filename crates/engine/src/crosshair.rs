//! The crosshair of cards with a continuous x axis and no y zoom (lines
//! and areas): a vertical rule at the pointer's nearest date, and a tooltip
//! that lists every series there. Cards rendered with one `syncGroup` move
//! their rules together, and with `syncZoom` their zoom too: the group is a
//! list of the page's cards, kept here, that a card leaves when it is
//! dropped.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, HtmlElement};
use zdr_chart::scene::HitMap;
use zdr_chart::Theme;

use crate::tooltip::{self, px};

/// The rule's style while it is not shown.
const HIDDEN: &str = "position:absolute;display:none;pointer-events:none;width:0;z-index:1";

/// How far from the pointer's column a series' point may be, in CSS pixels.
const COLUMN: f64 = 24.0;

/// What a card of a group is told: show the rule at the x value, or hide it.
pub trait Crossed {
    fn cross_at(&self, x: Option<f64>);
    /// Another card of the group zoomed to `x` (`None`: the whole data).
    fn zoomed_with(&mut self, x: Option<(f64, f64)>);
}

type Member = Weak<RefCell<dyn Crossed>>;

thread_local! {
    /// Every card of the page in a group: the group's name and the card.
    static GROUPS: RefCell<Vec<(String, Member)>> = const { RefCell::new(Vec::new()) };
}

/// A card's place in its group; dropping it leaves the group.
pub struct Membership {
    card: Member,
}

impl Membership {
    pub fn join(group: &str, card: Member) -> Membership {
        GROUPS.with(|groups| {
            if let Ok(mut groups) = groups.try_borrow_mut() {
                // Cards dropped without leaving (none should) go now.
                groups.retain(|(_, member)| member.strong_count() > 0);
                groups.push((group.to_string(), card.clone()));
            }
        });
        Membership { card }
    }
}

impl Drop for Membership {
    fn drop(&mut self) {
        GROUPS.with(|groups| {
            if let Ok(mut groups) = groups.try_borrow_mut() {
                groups.retain(|(_, member)| !Weak::ptr_eq(member, &self.card));
            }
        });
    }
}

/// Tells the other cards of `group` to show their rule at `x` (or hide it).
pub fn broadcast(group: &str, from: &Member, x: Option<f64>) {
    for card in others(group, from) {
        if let Ok(card) = card.try_borrow() {
            card.cross_at(x);
        }
    }
}

/// Tells the other cards of `group` that this one zoomed to `x`. A card
/// busy (the one zooming, or one in a callback) is left as it is.
pub fn broadcast_zoom(group: &str, from: &Member, x: Option<(f64, f64)>) {
    for card in others(group, from) {
        if let Ok(mut card) = card.try_borrow_mut() {
            card.zoomed_with(x);
        }
    }
}

fn others(group: &str, from: &Member) -> Vec<Rc<RefCell<dyn Crossed>>> {
    GROUPS.with(|groups| {
        groups.try_borrow().map_or_else(
            |_| Vec::new(),
            |groups| {
                groups
                    .iter()
                    .filter(|(name, member)| name == group && !Weak::ptr_eq(member, from))
                    .filter_map(|(_, member)| member.upgrade())
                    .collect()
            },
        )
    })
}

/// The rule's element.
pub struct Crosshair {
    rule: HtmlElement,
}

impl Crosshair {
    /// Made in `wrapper`, before `before` or at its end.
    pub fn create(
        document: &Document,
        (wrapper, before): (&Element, Option<&web_sys::Node>),
    ) -> Result<Crosshair, JsValue> {
        let rule: HtmlElement = document.create_element("div")?.dyn_into()?;
        rule.set_class_name("zdr-embed-crosshair");
        rule.set_attribute("aria-hidden", "true")?;
        rule.style().set_css_text(HIDDEN);
        wrapper.insert_before(&rule, before)?;
        Ok(Crosshair { rule })
    }

    /// Shows the rule at the x value `x` of `hits`' plot (snapped to the
    /// nearest point) and the tooltip of every series there; hides both
    /// for `None`. False, and nothing shown, on a card without an x axis to
    /// follow.
    pub fn show(
        &self,
        hits: &HitMap,
        x: Option<f64>,
        tip: &HtmlElement,
        (theme, size): (&Theme, (f64, f64)),
    ) -> bool {
        let Some(frame) = hits.zoom_window().filter(|f| f.y.is_none()) else {
            return false;
        };
        let Some(x) = x else {
            self.hide(tip);
            return true;
        };
        let span = frame.x.1 - frame.x.0;
        let column = frame.plot.x + (x - frame.x.0) / span * frame.plot.w;
        let found = if span > 0.0 {
            hits.column_at(column, COLUMN)
        } else {
            Vec::new()
        };
        let Some(first) = found.first() else {
            self.hide(tip);
            return true;
        };
        let (at, top) = (first.shape.centre().0, frame.plot.y);
        // One style text, not a property at a time: each call is an import.
        self.rule.style().set_css_text(
            &[
                "position:absolute;pointer-events:none;width:0;z-index:1;left:",
                &px(at),
                ";top:",
                &px(top),
                ";height:",
                &px(frame.plot.h),
                ";border-left:1px dashed ",
                &crate::canvas_backend::css_color(theme.muted),
            ]
            .concat(),
        );
        let lines: Vec<String> = found
            .iter()
            .map(|hit| match &hit.series {
                Some(series) => [series.as_str(), ": ", &hit.value].concat(),
                None => hit.value.clone(),
            })
            .collect();
        tooltip::show_lines(
            tip,
            &first.label,
            &lines,
            theme,
            (at, top + frame.plot.h / 3.0),
            size,
        );
        true
    }

    pub fn hide(&self, tip: &HtmlElement) {
        self.rule.style().set_css_text(HIDDEN);
        tooltip::hide(tip);
    }
}
