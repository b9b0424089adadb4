//! How a card reaches the screen: one trait, one implementation per way.
//!
//! The embed (options, validation, handle, registry, cleanup) is the same for
//! every mode; only the surface differs. A surface owns every node, listener,
//! observer and timer it creates, and dropping it removes them all. Every
//! surface tells the embed what happened through one [`Sink`].

mod form_post;
mod frame;
mod local;
mod message_frame;

pub use frame::{FrameSpec, ServiceFrame};
pub use local::LocalSurface;
pub use message_frame::{ChannelSpec, MessageFrame};

use std::rc::Rc;

use wasm_bindgen::JsValue;
use web_sys::HtmlIFrameElement;

use crate::error::EmbedError;
use crate::options::Mode;
use crate::payload::Payload;

/// What a surface reports, always outside any borrow of the embed registry.
pub enum Event {
    /// New data is on screen in this element (the frame's page loaded, the
    /// shell received the data, or the canvas was drawn).
    Loaded(JsValue),
    /// The postMessage shell is listening: the service is there.
    Ready,
    /// Showing the card failed; for `onError`.
    Failed(EmbedError),
}

/// Where a surface's events go: the embed that owns it.
pub type Sink = Rc<dyn Fn(Event)>;

pub trait Surface {
    /// Puts new, already validated data on screen. Never calls page code
    /// synchronously (the embed registry may be borrowed): failures are
    /// returned for the caller to throw or report.
    fn show(&mut self, payload: &Payload) -> Result<(), EmbedError>;

    /// The element the reader sees, for the handle.
    fn shown(&self) -> Shown;

    /// The card as text (SVG, CSV), as drawn now. Only surfaces that draw.
    fn export(&self, format: Export) -> Result<String, EmbedError> {
        Err(EmbedError::NotDrawnLocally {
            what: format.call_text(),
        })
    }

    /// Zooms the card (see the engine's `setView`). Only surfaces that draw.
    fn set_view(&self, _view: &JsValue) -> Result<(), EmbedError> {
        Err(EmbedError::NotDrawnLocally { what: "setView()" })
    }

    /// Shows or hides a series of the card (see the engine's
    /// `setSeriesVisible`). Only surfaces that draw.
    fn set_series_visible(
        &self,
        _name: &JsValue,
        _visible: &JsValue,
    ) -> Result<JsValue, EmbedError> {
        Err(EmbedError::NotDrawnLocally {
            what: "setSeriesVisible()",
        })
    }

    /// A promise of the card as a PNG `Blob`. Only surfaces that draw.
    fn to_png(&self) -> Result<JsValue, EmbedError> {
        Err(EmbedError::NotDrawnLocally { what: "toPNG()" })
    }
}

/// The texts a drawn card can be exported as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    Svg,
    Csv,
}

impl Export {
    pub fn call_text(self) -> &'static str {
        match self {
            Export::Svg => "toSVG()",
            Export::Csv => "toCSV()",
        }
    }
}

/// What the reader sees: an iframe or a canvas, never both, and the mode.
#[derive(Clone)]
pub struct Shown {
    pub mode: Mode,
    pub iframe: Option<HtmlIFrameElement>,
    /// The engine's canvas; `None` until the engine has drawn the card.
    pub canvas: Option<JsValue>,
}

impl Shown {
    pub fn iframe_or_null(&self) -> JsValue {
        self.iframe.clone().map_or(JsValue::NULL, JsValue::from)
    }

    pub fn canvas_or_null(&self) -> JsValue {
        self.canvas.clone().unwrap_or(JsValue::NULL)
    }
}
