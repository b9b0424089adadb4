//! A card's interaction: the tooltip's and crosshair's pointer listeners,
//! the keyboard walk, the zoom's gestures and reset button, the menu's
//! list of downloads. This is the code of the chunk `interact`
//! ([`super::interest`] fetches it): the core reaches it only through
//! [`CODE`], which only the split point names, so none of it (nor the
//! functions only it calls: the tooltip's placing, the ring's, the
//! gestures, the downloads) is in the core.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsValue;
use web_sys::{Element, Node};
use zdr_chart::Theme;

use super::CanvasState;
use crate::crosshair::Crosshair;
use crate::keyboard::Keyboard;
use crate::menu::Menu;
use crate::tooltip::Tooltip;
use crate::zoom::Zoom;

/// What the core calls of the interaction.
pub(crate) struct Code {
    /// Gives a card whose chrome is made its interaction (again: nothing).
    pub(crate) attach: fn(&Rc<RefCell<CanvasState>>) -> Result<(), JsValue>,
    /// After a draw: the reset button, the touch action and the focus ring.
    pub(crate) sync: fn(&CanvasState, &Theme),
    /// Another card of the group moved its crosshair to `x`.
    pub(crate) cross_at: fn(&CanvasState, Option<f64>),
}

pub(crate) static CODE: Code = Code {
    attach,
    sync,
    cross_at,
};

/// The listeners and elements of a card's interaction; dropping it
/// unsubscribes them.
pub(crate) struct Behaviour {
    _tooltip: Tooltip,
    _keyboard: Keyboard,
    zoom: Zoom,
    pub(super) crosshair: Crosshair,
    _menu: Option<Menu>,
}

fn attach(card: &Rc<RefCell<CanvasState>>) -> Result<(), JsValue> {
    let (document, wrapper, tip, button, early) = {
        let Ok(mut state) = card.try_borrow_mut() else {
            return Ok(());
        };
        let state = &mut *state;
        let (None, Some(chrome), Some(tip)) = (&state.behaviour, &mut state.chrome, &state.tip)
        else {
            return Ok(());
        };
        // Their work is done: the code is here.
        chrome.interest = None;
        let button = chrome.menu.clone();
        let Some(document) = state.canvas.owner_document() else {
            return Ok(());
        };
        let early = std::mem::take(&mut state.early);
        (document, state.wrapper.clone(), tip.clone(), button, early)
    };
    let weak = Rc::downgrade(card);
    let wrapper: &Element = wrapper.as_ref();
    // Before the menu's button, as it is in the tab order.
    let before: Option<&Node> = button.as_ref().map(AsRef::as_ref);
    let tooltip = Tooltip::listen(&tip, weak.clone())?;
    let zoom = Zoom::attach(&document, (wrapper, before), weak.clone())?;
    let crosshair = Crosshair::create(&document, (wrapper, before))?;
    let menu = match &button {
        Some(button) => Some(Menu::attach(
            &document,
            (wrapper, button),
            weak.clone(),
            early.menu_clicked,
        )?),
        None => None,
    };
    let keyboard = Keyboard::attach(weak.clone())?;
    {
        let Ok(mut state) = card.try_borrow_mut() else {
            return Ok(());
        };
        state.behaviour = Some(Behaviour {
            _tooltip: tooltip,
            _keyboard: keyboard,
            zoom,
            crosshair,
            _menu: menu,
        });
        let theme = state.theme();
        sync(&state, &theme);
    }
    // A pointer that came before the code and is still there: its tooltip.
    if let Some(pointer) = early.pointer {
        crate::tooltip::point_at(&weak, &tip, pointer);
    }
    Ok(())
}

fn sync(state: &CanvasState, theme: &Theme) {
    let Some(behaviour) = &state.behaviour else {
        return;
    };
    // Two fingers zoom and pan a card that zooms; the page still scrolls
    // up and down over it.
    let touch = if state.hits.zoom_window().is_some() {
        "pan-y"
    } else {
        "auto"
    };
    let _ = state.canvas.style().set_property("touch-action", touch);
    let colors = (
        crate::canvas_backend::css_color(theme.text),
        crate::canvas_backend::css_color(theme.background),
    );
    let plot = state.hits.zoom_window().map(|f| f.plot);
    behaviour.zoom.sync(state.view.is_zoomed(), plot, colors);
    // A focused card keeps its ring on its mark through a resize.
    if state.has_focus() {
        crate::keyboard::mark(state);
    } else if let Some(ring) = &state.ring {
        ring.hide();
    }
}

fn cross_at(state: &CanvasState, x: Option<f64>) {
    if let (Some(behaviour), Some(tip)) = (&state.behaviour, &state.tip) {
        let size = state.css_size();
        behaviour
            .crosshair
            .show(&state.hits, x, tip, (&state.theme(), size));
    }
}
