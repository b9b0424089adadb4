//! The interaction on first use: the code of the tooltip, the keyboard
//! walk, the zoom, the crosshair and the menu's downloads ([`super::behaviour`])
//! is a chunk of the engine module of its own (`interact`), fetched the
//! first time a reader shows interest in any card of the page (the pointer
//! comes over it, a finger or a click lands on it, it takes focus), when
//! `setView` needs its reset button, or with `preload()`. Until then each
//! card drawn has a few cheap listeners ([`Interest`]) and its chrome
//! (`Chrome` in the parent module); once the code is here, every live card
//! of the page gets its interaction, and cards drawn later get it in the
//! task after their first draw.
//!
//! What a reader did meanwhile is kept where it matters ([`Early`]): a
//! pointer still over the card gets its tooltip, and a click on the menu's
//! button opens it. A key pressed on a focused card before the code is
//! here does nothing (the walk starts with the next key).
//!
//! A failed fetch leaves every card drawn and readable (its hidden table,
//! its legend's buttons) and is not reported to `onError`: the loader says
//! why in the console, and the next sign of interest tries again.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use gloo_events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement, PointerEvent};

use super::behaviour::Code;
use super::CanvasState;
use crate::error::EngineError;
use crate::tooltip::PointerAt;

thread_local! {
    /// The interaction's code, once here (always, in a build without chunks).
    static LOADED: Cell<Option<&'static Code>> = const { Cell::new(None) };
    /// A fetch is under way: more interest does not start another.
    static LOADING: Cell<bool> = const { Cell::new(false) };
    /// The cards with their chrome that wait for the interaction's code.
    static WAITING: RefCell<Vec<Weak<RefCell<CanvasState>>>> = const { RefCell::new(Vec::new()) };
}

/// What a reader did to a card before the interaction's code was there.
#[derive(Debug, Default)]
pub(crate) struct Early {
    /// The pointer over the card (`None` once it left).
    pub(crate) pointer: Option<PointerAt>,
    /// The menu's button was clicked.
    pub(crate) menu_clicked: bool,
}

/// The interaction's code, if it is here.
pub(crate) fn loaded() -> Option<&'static Code> {
    #[cfg(not(all(feature = "chunks", target_arch = "wasm32")))]
    {
        Some(&super::behaviour::CODE)
    }
    #[cfg(all(feature = "chunks", target_arch = "wasm32"))]
    {
        LOADED.with(Cell::get)
    }
}

/// Starts fetching the interaction's code, unless it is here or on its way.
pub(crate) fn want() {
    if loaded().is_some() || LOADING.with(|loading| loading.replace(true)) {
        return;
    }
    wasm_bindgen_futures::spawn_local(async {
        // A failure waits for the next sign of interest (the loader logs it).
        let _ = load().await;
    });
}

/// Makes the interaction's code present (`preload()`), then attaches it to
/// every card waiting for it; a fetch in flight is joined.
pub(crate) async fn load() -> Result<(), EngineError> {
    if loaded().is_some() {
        return Ok(());
    }
    LOADING.with(|loading| loading.set(true));
    let fetched = fetch().await;
    LOADING.with(|loading| loading.set(false));
    let code = fetched.ok_or(EngineError::PartFailed("interaction"))?;
    LOADED.with(|slot| slot.set(Some(code)));
    let cards = WAITING.with(|waiting| waiting.take());
    for card in cards.iter().filter_map(Weak::upgrade) {
        attach_reporting(code, &card);
    }
    Ok(())
}

#[cfg(all(feature = "chunks", target_arch = "wasm32"))]
async fn fetch() -> Option<&'static Code> {
    split::interact().await.ok()
}

#[cfg(not(all(feature = "chunks", target_arch = "wasm32")))]
async fn fetch() -> Option<&'static Code> {
    Some(&super::behaviour::CODE)
}

/// A card whose chrome was just made: its interaction now if the code is
/// here, else once it arrives.
pub(super) fn enlist(card: &Rc<RefCell<CanvasState>>) -> Result<(), JsValue> {
    match loaded() {
        Some(code) => (code.attach)(card),
        None => {
            WAITING.with(|waiting| {
                if let Ok(mut waiting) = waiting.try_borrow_mut() {
                    // Cards destroyed meanwhile go now.
                    waiting.retain(|card| card.strong_count() > 0);
                    waiting.push(Rc::downgrade(card));
                }
            });
            Ok(())
        }
    }
}

/// Attaches a waiting card's interaction; a failure is its `onError`, as
/// the chrome's own would be.
fn attach_reporting(code: &Code, card: &Rc<RefCell<CanvasState>>) {
    let Err(thrown) = (code.attach)(card) else {
        return;
    };
    let error = EngineError::dom("attach the card's tooltip, keyboard and zoom")(thrown);
    let callbacks = card.try_borrow().map(|state| state.callbacks.clone());
    // Page code runs only here, with no borrow held.
    if let Ok(callbacks) = callbacks {
        callbacks.failed(&error);
    }
}

/// The listeners of a card that wait for a sign of interest; dropping
/// them unsubscribes them.
pub(crate) struct Interest {
    _listeners: [EventListener; 7],
}

impl Interest {
    /// On the card's element: the pointer coming over it or pressing on
    /// it, a finger, a click, focus inside it. Each starts the fetch and
    /// keeps what the interaction needs to catch up ([`Early`]).
    pub(super) fn listen(wrapper: &HtmlElement, card: Weak<RefCell<CanvasState>>) -> Interest {
        // Passive: none of them holds the page's scrolling or its default.
        let on = |kind: &'static str| {
            let card = card.clone();
            EventListener::new(wrapper, kind, move |event| {
                if zdr_protocol::failure::has_failed() {
                    return;
                }
                note(&card, event);
                if event.type_() != "pointermove" && event.type_() != "pointerleave" {
                    want();
                }
            })
        };
        Interest {
            _listeners: [
                on("pointerenter"),
                on("pointerdown"),
                on("pointermove"),
                on("pointerleave"),
                on("touchstart"),
                on("focusin"),
                on("click"),
            ],
        }
    }
}

/// Keeps where the pointer is and whether the menu's button was clicked.
fn note(card: &Weak<RefCell<CanvasState>>, event: &web_sys::Event) {
    let Some(card) = card.upgrade() else {
        return;
    };
    let Ok(mut state) = card.try_borrow_mut() else {
        return;
    };
    if let Some(pointer) = event.dyn_ref::<PointerEvent>() {
        let at = PointerAt::of(pointer);
        // A finger "leaves" right after its tap: its tooltip stays.
        state.early.pointer = (event.type_() != "pointerleave" || at.touch).then_some(at);
    } else if event.type_() == "click" {
        let target = event.target().and_then(|t| t.dyn_into::<Element>().ok());
        let menu = state
            .chrome
            .as_ref()
            .and_then(|chrome| chrome.menu.as_ref());
        if let (Some(target), Some(menu)) = (target, menu) {
            let menu: &Element = menu.as_ref();
            // A second click before the code arrives closes it again.
            state.early.menu_clicked ^= &target == menu;
        }
    }
}

/// The split point: a function naming only the interaction's code, so that
/// the splitter puts it (and nothing the core needs) in its chunk.
#[cfg(all(feature = "chunks", target_arch = "wasm32"))]
#[allow(unsafe_code)] // the macro declares the loader's import and the chunk's export
mod split {
    use wasm_split_helpers::{wasm_split, SplitLoaderError};

    use super::Code;

    #[wasm_split(interact, fallible)]
    pub(super) fn interact() -> Result<&'static Code, SplitLoaderError> {
        Ok(&super::super::behaviour::CODE)
    }
}
