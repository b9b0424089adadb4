//! Local mode: the card drawn in the page by the engine module. Until the
//! engine has arrived the surface is an empty box of the card's size, so the
//! page does not shift when the chart appears (the embed mounts the engine's
//! drawing then and drops the box); afterwards every call is handed to the
//! engine's `LocalDrawing`.

use wasm_bindgen::prelude::*;
use web_sys::{Document, HtmlElement};
use zdr_protocol::layout::{AUTO_ASPECT_RATIO, AUTO_HEIGHT};

use crate::engine::{self, EngineNamespace, LocalDrawing};
use crate::error::{EmbedError, Fail};
use crate::options::EmbedOptions;
use crate::payload::Payload;
use crate::sink::{Event, Sink};

pub struct LocalSurface {
    drawing: Option<Mounted>,
    /// The box holding the card's place while the engine loads.
    placeholder: Option<HtmlElement>,
}

/// The engine's drawing and the callbacks it was given, which must live as
/// long as it does.
struct Mounted {
    drawing: LocalDrawing,
    _on_load: Closure<dyn Fn(JsValue)>,
    _on_error: Closure<dyn Fn(JsValue)>,
}

impl LocalSurface {
    /// Nothing drawn yet, the engine is on its way: an empty box sized as
    /// the engine's drawing will be (width, height, or the landscape shape
    /// of `height: "auto"`) keeps the card's place in the page.
    pub fn waiting(document: &Document, options: &EmbedOptions) -> Result<LocalSurface, Fail> {
        let dom = |thrown: JsValue| EmbedError::dom("reserve the card's place", &thrown);
        let placeholder: HtmlElement = document
            .create_element("div")
            .map_err(dom)?
            .unchecked_into();
        placeholder.set_class_name("zdr-embed-pending");
        placeholder
            .set_attribute("aria-busy", "true")
            .map_err(dom)?;
        let style = placeholder.style();
        style.set_property("width", &options.width).map_err(dom)?;
        if options.height == AUTO_HEIGHT {
            style
                .set_property("aspect-ratio", AUTO_ASPECT_RATIO)
                .map_err(dom)?;
        } else {
            style.set_property("height", &options.height).map_err(dom)?;
        }
        options.container.append_child(&placeholder).map_err(dom)?;
        Ok(LocalSurface {
            drawing: None,
            placeholder: Some(placeholder),
        })
    }

    /// Draws `options.payload` with the engine in `options.container`.
    /// Throws (nothing left in the page) for data the engine cannot read.
    pub fn mount(
        engine: &EngineNamespace,
        options: &EmbedOptions,
        sink: Sink,
    ) -> Result<LocalSurface, Fail> {
        let on_load =
            Closure::<dyn Fn(JsValue)>::new(move |canvas| sink.send(Event::Loaded(canvas)));
        let on_error = Closure::<dyn Fn(JsValue)>::new(move |error: JsValue| {
            sink.send(Event::Failed(EmbedError::from_engine(&error).into()));
        });
        let settings = js_sys::Object::new();
        let set = |key: &str, value: &JsValue| {
            // Own data properties of a fresh plain object: cannot fail.
            let _ = js_sys::Reflect::set(&settings, &key.into(), value);
        };
        set("data", options.payload.for_engine());
        set("width", &options.width.as_str().into());
        set("height", &options.height.as_str().into());
        if let Some(dark) = options.dark_mode {
            set("darkMode", &dark.into());
        }
        set("title", &options.name.as_str().into());
        set("onLoad", on_load.as_ref());
        set("onError", on_error.as_ref());
        if let Some(on_view_change) = &options.on_view_change {
            set("onViewChange", on_view_change);
        }
        if let Some(group) = &options.sync_group {
            set("syncGroup", &group.into());
        }
        if options.menu {
            set("menu", &JsValue::TRUE);
        }
        if options.sync_zoom {
            set("syncZoom", &JsValue::TRUE);
        }
        let drawing = engine::mount(engine, &options.container, &settings)?;
        Ok(LocalSurface {
            drawing: Some(Mounted {
                drawing,
                _on_load: on_load,
                _on_error: on_error,
            }),
            placeholder: None,
        })
    }
}

impl Drop for LocalSurface {
    fn drop(&mut self) {
        // Before the callbacks are freed: the engine must never call them after.
        if let Some(mounted) = &self.drawing {
            let _ = mounted.drawing.destroy();
        }
        if let Some(placeholder) = &self.placeholder {
            placeholder.remove();
        }
    }
}

impl LocalSurface {
    pub fn show(&mut self, payload: &Payload) -> Result<(), Fail> {
        match &self.drawing {
            Some(mounted) => mounted
                .drawing
                .update(payload.for_engine())
                .map_err(|thrown| EmbedError::from_engine(&thrown).into()),
            // The embed keeps the latest payload; it is drawn when the engine arrives.
            None => Ok(()),
        }
    }

    /// The engine's drawing, once it has drawn the card.
    pub fn drawing(&self) -> Option<LocalDrawing> {
        self.drawing.as_ref().map(|mounted| mounted.drawing.clone())
    }

    /// The engine's canvas; `null` until the engine has drawn the card.
    pub fn canvas(&self) -> JsValue {
        self.drawing
            .as_ref()
            .map_or(JsValue::NULL, |mounted| mounted.drawing.canvas())
    }
}
