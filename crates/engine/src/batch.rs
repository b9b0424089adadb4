//! One batch draws every card of the page that is due.
//!
//! A dashboard renders its cards in one task; each would otherwise ask for
//! a frame of its own and, drawing in it, read its size right after the
//! card before it resized its canvas: a layout of the page per card. Here
//! the batch reads every size first (one layout), then draws every card,
//! then runs the page's callbacks (`onLoad`, `onViewChange`), so page code
//! sees every card drawn and none of it runs between two draws.
//!
//! A card's first draw runs as soon as the page's code in hand has
//! finished (a microtask, [`request_soon`]): every card rendered in that
//! task, or mounted together when the engine arrives, is in the batch, and
//! nothing waits for the next animation frame (half a frame on average,
//! after the card's reader has already waited for the engine's download:
//! docs/benchmarks.md, "Small cards first", change 11). Redraws (new data,
//! a resize, the theme, zoom) wait for the frame, so that several in one
//! frame cost one draw.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use wasm_bindgen::prelude::*;
use web_sys::Window;

/// A card that draws in the shared batch.
pub(crate) trait Due {
    /// Reads what its draw needs from the page's layout and writes nothing;
    /// false when it has nothing to draw after all.
    fn measure(&mut self) -> bool;
    /// Draws what it measured; returns the page code to call once every
    /// card of the batch has drawn.
    fn draw(&mut self) -> Option<Box<dyn FnOnce()>>;
}

pub(crate) type Entry = Weak<RefCell<dyn Due>>;

#[derive(Default)]
struct Queue {
    due: Vec<Entry>,
    /// The animation frame asked for, if any.
    requested: Option<i32>,
    /// A microtask queued (it cannot be cancelled: it finds nothing due).
    soon: bool,
    /// Made once for the page, kept for its life: one closure, not one per
    /// batch (an animation frame's callback and a microtask alike).
    callback: Option<Closure<dyn FnMut()>>,
}

thread_local! {
    static QUEUE: RefCell<Queue> = RefCell::new(Queue::default());
}

/// Draws `card` in the next animation frame, with every other card due then.
pub(crate) fn request(window: &Window, card: Entry) {
    enqueue(window, card, false);
}

/// Draws `card` once the page's code in hand has finished, with every
/// other card due then: a card's first draw.
pub(crate) fn request_soon(window: &Window, card: Entry) {
    enqueue(window, card, true);
}

fn enqueue(window: &Window, card: Entry, soon: bool) {
    QUEUE.with(|queue| {
        let Ok(mut queue) = queue.try_borrow_mut() else {
            return;
        };
        if !queue.due.iter().any(|due| Weak::ptr_eq(due, &card)) {
            queue.due.push(card);
        }
        if queue.soon || (queue.requested.is_some() && !soon) {
            return;
        }
        let queue = &mut *queue;
        let callback = queue.callback.get_or_insert_with(|| Closure::new(run));
        let callback: &js_sys::Function = callback.as_ref().unchecked_ref();
        if soon {
            window.queue_microtask(callback);
            queue.soon = true;
        } else {
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

/// The batch: every size read, then every card drawn, then the page's callbacks.
fn run() {
    if zdr_protocol::failure::has_failed() {
        return;
    }
    let (due, frame) = QUEUE.with(|queue| match queue.try_borrow_mut() {
        Ok(mut queue) => {
            queue.soon = false;
            (std::mem::take(&mut queue.due), queue.requested.take())
        }
        Err(_) => (Vec::new(), None),
    });
    // Run from the microtask, the batch takes the cards that waited for the
    // frame too; cancelling the frame that is running now is harmless.
    if let (Some(id), Some(window)) = (frame, web_sys::window()) {
        let _ = window.cancel_animation_frame(id);
    }
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
