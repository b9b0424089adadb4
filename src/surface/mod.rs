//! How a card reaches the screen: one trait, one implementation per way.
//!
//! The embed (options, validation, handle, registry, cleanup) is the same for
//! every mode; only the surface differs. A surface owns every node, listener,
//! observer and timer it creates, and dropping it removes them all.

mod accessible;
mod canvas;
mod color_scheme;
mod form_post;
mod frame;
mod message_frame;
mod tooltip;

pub use canvas::{canvas_to_png, CanvasSpec, LocalCanvas, AUTO_HEIGHT};
pub use frame::{FrameSpec, ServiceFrame};
pub use message_frame::{ChannelSpec, FrameEvent, MessageFrame};

use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlIFrameElement};

use crate::error::{Call, EmbedError};
use crate::options::Mode;
use crate::payload::Content;

pub trait Surface {
    /// Puts new, already validated data on screen. Never calls page code
    /// synchronously (the embed registry may be borrowed): failures are
    /// returned for the caller to report.
    fn show(&mut self, call: Call, content: &Content) -> Result<(), EmbedError>;

    /// The element the reader sees, for the handle.
    fn shown(&self) -> Shown;

    /// The card as an SVG document, as drawn now. Only surfaces that draw.
    fn to_svg(&self, call: Call) -> Result<String, EmbedError> {
        Err(EmbedError::NotDrawnLocally {
            call,
            what: "toSVG()",
        })
    }

    /// The canvas with the latest data drawn on it, for `toPNG()`. Only
    /// surfaces that draw. (The promise is made by the caller, outside any
    /// borrow, because encoding goes through page-visible browser APIs.)
    fn drawn_canvas(&self, call: Call) -> Result<HtmlCanvasElement, EmbedError> {
        Err(EmbedError::NotDrawnLocally {
            call,
            what: "toPNG()",
        })
    }
}

/// The element a card is shown in: an iframe or a canvas, never both.
#[derive(Clone, Default)]
pub struct Shown {
    pub iframe: Option<HtmlIFrameElement>,
    pub canvas: Option<HtmlCanvasElement>,
}

impl Shown {
    pub fn mode(&self) -> Mode {
        if self.canvas.is_some() {
            Mode::Local
        } else {
            Mode::Service
        }
    }

    pub fn iframe_or_null(&self) -> JsValue {
        self.iframe.clone().map_or(JsValue::NULL, JsValue::from)
    }

    pub fn canvas_or_null(&self) -> JsValue {
        self.canvas.clone().map_or(JsValue::NULL, JsValue::from)
    }
}
