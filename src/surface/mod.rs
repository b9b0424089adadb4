//! How a card reaches the screen: one type, one variant per way.
//!
//! The embed (options, validation, handle, registry, cleanup) is the same for
//! every mode; only the surface differs. A surface owns every node, listener,
//! observer and timer it creates, and dropping it removes them all. Every
//! surface tells the embed what happened through its card's [`Sink`].
//! An enum rather than a trait object: three known ways need no vtables,
//! and the methods only a drawn card has are asked of one variant.
//!
//! [`Sink`]: crate::sink::Sink

mod form_post;
mod frame;
mod local;
mod message_frame;

pub use frame::{FrameSpec, ServiceFrame};
pub use local::LocalSurface;
pub use message_frame::{ChannelSpec, MessageFrame};

use wasm_bindgen::JsValue;

use crate::engine::LocalDrawing;
use crate::error::{Call, EmbedError, Fail};
use crate::payload::Payload;

pub enum Surface {
    /// The spec's way: a form posts the data into the service's frame.
    Frame(ServiceFrame),
    /// The service's postMessage shell in a frame.
    Shell(MessageFrame),
    /// Drawn in the page by the engine, or holding its place until it comes.
    Local(LocalSurface),
}

impl Surface {
    /// Puts new, already validated data on screen. Never calls page code
    /// synchronously (the embed registry may be borrowed): failures are
    /// returned for the caller to throw or report.
    pub fn show(&mut self, payload: &Payload) -> Result<(), Fail> {
        match self {
            Surface::Frame(frame) => frame.show(payload),
            Surface::Shell(shell) => shell.show(payload),
            Surface::Local(local) => local.show(payload),
        }
    }

    /// The element the reader sees, for the handle.
    pub fn shown(&self) -> Shown {
        match self {
            Surface::Frame(frame) => Shown {
                local: false,
                element: frame.frame().into(),
            },
            Surface::Shell(shell) => Shown {
                local: false,
                element: shell.frame().into(),
            },
            Surface::Local(local) => Shown {
                local: true,
                element: local.canvas(),
            },
        }
    }

    /// A card drawn in the page whose engine has not drawn it (it has not
    /// arrived, or could not be loaded).
    pub fn is_waiting(&self) -> bool {
        matches!(self, Surface::Local(local) if local.drawing().is_none())
    }

    /// The engine's drawing, for the handle's methods that only a card
    /// drawn in the page has (`call` is the one asking).
    pub fn drawing(&self, call: Call) -> Result<LocalDrawing, Fail> {
        match self {
            Surface::Local(local) => local
                .drawing()
                .ok_or_else(|| EmbedError::NotDrawnYet.into()),
            _ => Err(EmbedError::NotDrawnLocally {
                what: call.method(),
            }
            .into()),
        }
    }
}

/// What the reader sees: a frame (service), or a canvas drawn in the page
/// (local; `null` until the engine has drawn it).
#[derive(Clone)]
pub struct Shown {
    pub local: bool,
    pub element: JsValue,
}
