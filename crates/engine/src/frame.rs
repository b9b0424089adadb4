//! One animation frame draws every card of the page that is due.
//!
//! A dashboard renders its cards in one task; each would otherwise ask for
//! a frame of its own and, drawing in it, read its size right after the
//! card before it resized its canvas: a layout of the page per card. Here
//! the frame reads every size first (one layout), then draws every card,
//! then runs the page's callbacks (`onLoad`, `onViewChange`), so page code
//! sees every card drawn and none of it runs between two draws.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use wasm_bindgen::prelude::*;
use web_sys::Window;

/// A card that draws in the shared frame.
pub(crate) trait Due {
    /// Reads what its draw needs from the page's layout and writes nothing;
    /// false when it has nothing to draw after all.
    fn measure(&mut self) -> bool;
    /// Draws what it measured; returns the page code to call once every
    /// card of the frame has drawn.
    fn draw(&mut self) -> Option<Box<dyn FnOnce()>>;
}

pub(crate) type Entry = Weak<RefCell<dyn Due>>;

#[derive(Default)]
struct Queue {
    due: Vec<Entry>,
    requested: Option<i32>,
    /// Made once for the page, kept for its life: one closure, not one per frame.
    callback: Option<Closure<dyn FnMut()>>,
}

thread_local! {
    static QUEUE: RefCell<Queue> = RefCell::new(Queue::default());
}

/// Draws `card` in the next animation frame, with every other card due then.
pub(crate) fn request(window: &Window, card: Entry) {
    QUEUE.with(|queue| {
        let Ok(mut queue) = queue.try_borrow_mut() else {
            return;
        };
        if !queue.due.iter().any(|due| Weak::ptr_eq(due, &card)) {
            queue.due.push(card);
        }
        if queue.requested.is_none() {
            let callback = queue.callback.get_or_insert_with(|| Closure::new(run));
            let callback: &js_sys::Function = callback.as_ref().unchecked_ref();
            queue.requested = window.request_animation_frame(callback).ok();
        }
    });
}

/// `card` no longer waits for the frame (drawn already, or destroyed); the
/// frame itself is cancelled when no card waits for it.
pub(crate) fn withdraw(window: &Window, card: &Entry) {
    QUEUE.with(|queue| {
        let Ok(mut queue) = queue.try_borrow_mut() else {
            return;
        };
        queue
            .due
            .retain(|due| !Weak::ptr_eq(due, card) && due.strong_count() > 0);
        if queue.due.is_empty() {
            if let Some(id) = queue.requested.take() {
                // Cancelling an id that already ran is harmless.
                let _ = window.cancel_animation_frame(id);
            }
        }
    });
}

/// The frame: every size read, then every card drawn, then the page's callbacks.
fn run() {
    if zdr_protocol::failure::has_failed() {
        return;
    }
    let due = QUEUE.with(|queue| match queue.try_borrow_mut() {
        Ok(mut queue) => {
            queue.requested = None;
            std::mem::take(&mut queue.due)
        }
        Err(_) => Vec::new(),
    });
    let cards: Vec<(Rc<RefCell<dyn Due>>, &Entry)> = due
        .iter()
        .filter_map(|entry| entry.upgrade().map(|card| (card, entry)))
        .collect();
    let mut measured = Vec::with_capacity(cards.len());
    for (card, entry) in &cards {
        match card.try_borrow_mut() {
            Ok(mut card) => measured.push(card.measure()),
            // In use (cannot be: a frame never runs inside a call): the next frame.
            Err(_) => {
                measured.push(false);
                if let Some(window) = web_sys::window() {
                    request(&window, (*entry).clone());
                }
            }
        }
    }
    let mut after = Vec::new();
    for ((card, _), measured) in cards.iter().zip(measured) {
        if !measured {
            continue;
        }
        if let Some(call) = card.try_borrow_mut().ok().and_then(|mut card| card.draw()) {
            after.push(call);
        }
    }
    // No borrow is held here: a callback may render, update or destroy.
    drop(cards);
    drop(due);
    for call in after {
        call();
    }
}
