//! Local mode: the card drawn in the page by the engine module. Until the
//! engine has arrived the surface is an empty box of the card's size, so the
//! page does not shift when the chart appears (the embed mounts the engine's
//! drawing then and drops the box); afterwards every call is handed to the
//! engine's `LocalDrawing`.

use wasm_bindgen::prelude::*;
use web_sys::{Document, HtmlElement};
use zdr_protocol::layout::{AUTO_ASPECT_RATIO, AUTO_HEIGHT};

use super::{Event, Export, Shown, Sink, Surface};
use crate::engine::{self, EngineNamespace, LocalDrawing};
use crate::error::EmbedError;
use crate::options::{EmbedOptions, Mode};
use crate::payload::Payload;

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
    pub fn waiting(
        document: &Document,
        options: &EmbedOptions,
    ) -> Result<LocalSurface, EmbedError> {
        let dom = |thrown: JsValue| EmbedError::Dom {
            action: "reserve the card's place",
            reason: crate::error::describe_thrown(&thrown),
        };
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
        sink: &Sink,
    ) -> Result<LocalSurface, EmbedError> {
        let loaded = sink.clone();
        let on_load = Closure::<dyn Fn(JsValue)>::new(move |canvas| loaded(Event::Loaded(canvas)));
        let failed = sink.clone();
        let on_error = Closure::<dyn Fn(JsValue)>::new(move |error: JsValue| {
            failed(Event::Failed(EmbedError::from_engine(&error)));
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

impl Surface for LocalSurface {
    fn show(&mut self, payload: &Payload) -> Result<(), EmbedError> {
        match &self.drawing {
            Some(mounted) => mounted
                .drawing
                .update(payload.for_engine())
                .map_err(|thrown| EmbedError::from_engine(&thrown)),
            // The embed keeps the latest payload; it is drawn when the engine arrives.
            None => Ok(()),
        }
    }

    fn shown(&self) -> Shown {
        Shown {
            mode: Mode::Local,
            iframe: None,
            canvas: self
                .drawing
                .as_ref()
                .map(|mounted| mounted.drawing.canvas()),
        }
    }

    fn export(&self, format: Export) -> Result<String, EmbedError> {
        let mounted = self.drawing.as_ref().ok_or(EmbedError::NotDrawnYet)?;
        let text = match format {
            Export::Svg => mounted.drawing.to_svg(),
            Export::Csv => mounted.drawing.to_csv(),
        }
        .map_err(|thrown| EmbedError::from_engine(&thrown))?;
        text.as_string().ok_or_else(|| EmbedError::Draw {
            reason: "the engine gave no text".into(),
        })
    }

    fn set_view(&self, view: &JsValue) -> Result<(), EmbedError> {
        let mounted = self.drawing.as_ref().ok_or(EmbedError::NotDrawnYet)?;
        mounted
            .drawing
            .set_view(view)
            .map_err(|thrown| EmbedError::from_engine(&thrown))
    }

    fn set_series_visible(&self, name: &JsValue, visible: &JsValue) -> Result<JsValue, EmbedError> {
        let mounted = self.drawing.as_ref().ok_or(EmbedError::NotDrawnYet)?;
        mounted
            .drawing
            .set_series_visible(name, visible)
            .map_err(|thrown| EmbedError::from_engine(&thrown))
    }

    fn to_png(&self) -> Result<JsValue, EmbedError> {
        let mounted = self.drawing.as_ref().ok_or(EmbedError::NotDrawnYet)?;
        mounted
            .drawing
            .to_png()
            .map_err(|thrown| EmbedError::from_engine(&thrown))
    }
}
