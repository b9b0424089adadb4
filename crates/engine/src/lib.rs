//! zdr-engine: the chart engine of zdr-embed as its own WebAssembly module.
//!
//! The service module (the root crate, `zdr-embed`) posts forms and talks to
//! the service's frames; it fetches this module only when a page first needs
//! a card drawn in the page (local mode, an `auto` fallback, `preload()`), and
//! every card of the page shares it. The host's postMessage shell page loads
//! only this module and calls [`start_shell`].
//!
//! Exports (wasm-pack `--target web`): the default `init`, `mountLocal`,
//! `LocalDrawing` (`update`, `destroy`, `toSVG`, `toCSV`, `toPNG`) and
//! `startShell`.
//!
//! # `mountLocal(container, settings)`
//!
//! Draws a card on a canvas appended to `container` and returns a
//! [`LocalDrawing`]; throws an `Error` (with `code`) when the settings or the
//! data are wrong, with nothing left in the page. `settings`:
//!
//! | field      | type                          | meaning |
//! |------------|-------------------------------|---------|
//! | `data`     | string or object, required    | the card's `visualization_data`: JSON text, or the object (read as columns where it can be: `js/columns.js`) |
//! | `width`    | CSS length string             | the card's width; default `"100%"` |
//! | `height`   | CSS length string or `"auto"` | default `"100%"`; `"auto"`: the card takes an 8:5 shape from its width |
//! | `darkMode` | boolean                       | dark or light; absent: `viz_config.dark_mode`, else the reader's `prefers-color-scheme`, followed live |
//! | `title`    | string                        | the canvas's accessible name when the data has no title; default `"Chart"` |
//! | `onLoad`   | `(canvas) => void`            | called each time new data has been drawn |
//! | `onError`  | `(error: Error) => void`      | a draw that failed after `mountLocal` returned (logged without it) |
//!
//! Error codes: `invalid_data` (the message is the reader's reason, starting
//! with the JSON path), `not_serialisable` (a data object with no JSON form:
//! a cycle, a BigInt), `invalid_argument` (settings), `draw_failed`,
//! `dom_failure`, `destroyed`, `instance_failed` (after an internal error).
//!
//! The drawing owns everything it creates (nodes, listeners, the resize
//! observer, the colour-scheme listener, the pending animation frame);
//! `destroy()` removes them all.

mod accessible;
mod batch;
mod canvas;
mod canvas_backend;
mod chunks;
mod color_scheme;
mod crosshair;
mod data;
mod error;
mod keyboard;
mod legend;
mod menu;
mod print;
mod settings;
mod shell;
mod tooltip;
mod view_js;
mod waiting;
mod zoom;

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::Element;
use zdr_chart::model::KindGroup;

pub use error::EngineError;

// talc, not Rust's default dlmalloc: 3 KB smaller gzipped, which the
// engine's 150 KB budget needs for local mode's column reader, and quick
// to hand back and reuse the large column buffers an update frees.
#[cfg(all(target_arch = "wasm32", feature = "allocator"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
pub use shell::start_shell;

use canvas::LocalCanvas;
use settings::Settings;
use waiting::Waiting;

#[wasm_bindgen(typescript_custom_section)]
const TS_SETTINGS: &'static str = r#"
/** `visualization_data`: `viz_config` and `data` (see docs/data-format.md). */
export interface VisualizationData {
  viz_config: Record<string, unknown>;
  data: unknown;
}

/** Settings of `mountLocal`. */
export interface LocalSettings {
  /**
   * The card's `visualization_data`: its JSON text, or the object itself
   * (typed arrays and point objects are then read as columns, without a JSON
   * text of all the data).
   */
  data: string | VisualizationData;
  /** CSS length; default "100%". */
  width?: string;
  /** CSS length or "auto" (an 8:5 card from its width); default "100%". */
  height?: string;
  /** Default: `viz_config.dark_mode`, else the reader's `prefers-color-scheme`, followed live. */
  darkMode?: boolean;
  /** The accessible name when the data has no title; default "Chart". */
  title?: string;
  onLoad?: (canvas: HTMLCanvasElement) => void;
  onError?: (error: Error) => void;
  /** Called after each zoom, pan or reset has been drawn. */
  onViewChange?: (view: ChartView) => void;
  /** Cards of one group move their crosshair together. */
  syncGroup?: string;
  /** With `syncGroup`: the time-axis cards of the group that ask for it zoom together. */
  syncZoom?: boolean;
  /** A button at the card's top right with PNG, SVG and CSV downloads. */
  menu?: boolean;
}

/** A zoom: the x range (Dates on a time axis) and, on a scatter, the y range; null: the whole data. */
export interface ChartView {
  x?: [Date | number | string, Date | number | string] | null;
  y?: [number, number] | null;
}
"#;

/// A card drawn in the page by [`mount_local`].
#[wasm_bindgen]
pub struct LocalDrawing {
    // A RefCell, not `&mut self` methods: a callback of the page may call
    // back into the drawing while it is in use, and must get an error, not a trap.
    canvas: waiting::CanvasSlot,
    /// The card while its group's code is on its way ([`waiting`]).
    waiting: waiting::WaitingSlot,
}

/// Reads the data and draws it on a canvas appended to `container`.
/// Throws for wrong settings or data the engine cannot read.
#[wasm_bindgen(js_name = "mountLocal")]
pub fn mount_local(
    container: Element,
    #[wasm_bindgen(unchecked_param_type = "LocalSettings")] settings: JsValue,
) -> Result<LocalDrawing, JsValue> {
    zdr_protocol::failure::guard().map_err(EngineError::from)?;
    let settings = Settings::read(&settings)?;
    let read = waiting::read(&settings.data)?;
    let document = container.owner_document().ok_or_else(|| EngineError::Dom {
        action: "draw the card",
        reason: "the container is not in a document".into(),
    })?;
    let drawing = LocalDrawing {
        canvas: Rc::new(RefCell::new(None)),
        waiting: Rc::new(RefCell::new(None)),
    };
    match read {
        waiting::Read::Ready(chart) => {
            let canvas = waiting::create(&document, &container, &settings, chart)?;
            *drawing.canvas.borrow_mut() = Some(canvas);
        }
        waiting::Read::Needs(group, chart) => {
            let card = Waiting::new(document, container, settings, chart)?;
            waiting::wait(group, card, &drawing.waiting, &drawing.canvas);
        }
    }
    Ok(drawing)
}

/// Fetches the code of the card kinds named (`viz_component_type`
/// values; `null`: every kind, and the interaction's code), so that their
/// first cards draw without waiting for it; throws for a name that is no
/// card kind.
#[wasm_bindgen(js_name = "loadKinds")]
pub fn load_kinds(
    #[wasm_bindgen(unchecked_param_type = "string[] | null")] kinds: JsValue,
) -> Result<js_sys::Promise, JsValue> {
    zdr_protocol::failure::guard().map_err(EngineError::from)?;
    let groups = settings::kind_groups(&kinds)?;
    // Every kind (`preload()`): the interaction's code too, fetched beside them.
    let every = kinds.is_null() || kinds.is_undefined();
    if every {
        canvas::interest::want();
    }
    Ok(wasm_bindgen_futures::future_to_promise(async move {
        chunks::load_all(groups).await?;
        if every {
            canvas::interest::load().await?;
        }
        Ok(JsValue::UNDEFINED)
    }))
}

#[wasm_bindgen]
impl LocalDrawing {
    /// The canvas; `null` after `destroy()`.
    #[wasm_bindgen(getter, unchecked_return_type = "HTMLCanvasElement | null")]
    pub fn canvas(&self) -> JsValue {
        self.with(|canvas| Ok(canvas.canvas()))
            .ok()
            .flatten()
            .map_or(JsValue::NULL, JsValue::from)
    }

    /// Draws new data (JSON text or the `visualizationData` object) on the
    /// same canvas; throws if it cannot be read.
    pub fn update(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | VisualizationData")] data: JsValue,
    ) -> Result<(), JsValue> {
        zdr_protocol::failure::guard().map_err(EngineError::from)?;
        if self.is_waiting() {
            Waiting::replace(&self.waiting, &self.canvas, data);
            return Ok(());
        }
        let chart = data::read_releasing(&data, &|| {
            // Destroyed or busy: the error comes from `show` below.
            let _ = self.with(|canvas| {
                canvas.release();
                Ok(())
            });
        });
        match chart {
            Err(EngineError::Unloaded(group)) => {
                self.update_later(group, data);
                Ok(())
            }
            Ok(chart) if !zdr_chart::is_loaded(chart.group()) => {
                self.update_later(chart.group(), data);
                Ok(())
            }
            chart => Ok(self.with(|canvas| canvas.show(chart?))?),
        }
    }

    /// Removes everything the drawing put in the page; again does nothing.
    pub fn destroy(&self) -> Result<(), JsValue> {
        zdr_protocol::failure::guard().map_err(EngineError::from)?;
        // Taken out first and dropped after the borrow ends.
        let canvas = self
            .canvas
            .try_borrow_mut()
            .ok()
            .and_then(|mut slot| slot.take());
        drop(canvas);
        let waiting = self
            .waiting
            .try_borrow_mut()
            .ok()
            .and_then(|mut slot| slot.take());
        drop(waiting);
        Ok(())
    }

    /// The card as an SVG document, at the canvas's CSS size.
    #[wasm_bindgen(js_name = "toSVG")]
    pub fn to_svg(&self) -> Result<String, JsValue> {
        zdr_protocol::failure::guard().map_err(EngineError::from)?;
        Ok(self.with(|canvas| canvas.to_svg())?)
    }

    /// The card's data as CSV: the hidden table's columns, every row,
    /// numbers unformatted and dates in ISO 8601.
    #[wasm_bindgen(js_name = "toCSV")]
    pub fn to_csv(&self) -> Result<String, JsValue> {
        zdr_protocol::failure::guard().map_err(EngineError::from)?;
        Ok(self.with(|canvas| canvas.to_csv())?)
    }

    /// Zooms to `view`, `{ x: [from, to] }` (and `y` on a scatter; on a
    /// time axis the ends are `Date`s, milliseconds or ISO 8601 text), or
    /// back to the whole data with `null`. Drawn in the next frame, then
    /// `onViewChange` is called.
    #[wasm_bindgen(js_name = "setView")]
    pub fn set_view(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ChartView | null")] view: JsValue,
    ) -> Result<(), JsValue> {
        zdr_protocol::failure::guard().map_err(EngineError::from)?;
        Ok(self.with(|canvas| canvas.set_view(&view))?)
    }

    /// Shows or hides the series `name`, as a click on its legend entry
    /// does; true when it is now as asked, false when the card has no such
    /// series (or none that can hide) or it is the last one shown.
    #[wasm_bindgen(js_name = "setSeriesVisible")]
    pub fn set_series_visible(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "boolean")] visible: JsValue,
    ) -> Result<bool, JsValue> {
        zdr_protocol::failure::guard().map_err(EngineError::from)?;
        let (name, visible) = settings::series_toggle(&name, &visible)?;
        Ok(self.with(|canvas| canvas.set_series_visible(&name, visible))?)
    }

    /// A promise of the card as a PNG `Blob` at the canvas's device resolution.
    #[wasm_bindgen(js_name = "toPNG", unchecked_return_type = "Promise<Blob>")]
    pub fn to_png(&self) -> js_sys::Promise {
        let canvas = zdr_protocol::failure::guard()
            .map_err(EngineError::from)
            .and_then(|()| self.with(|canvas| canvas.drawn_canvas()));
        match canvas {
            Ok(canvas) => canvas::canvas_to_png(&canvas),
            Err(error) => js_sys::Promise::reject(&error.into()),
        }
    }
}

impl LocalDrawing {
    fn with<R>(
        &self,
        f: impl FnOnce(&mut LocalCanvas) -> Result<R, EngineError>,
    ) -> Result<R, EngineError> {
        let mut slot = self.canvas.try_borrow_mut().map_err(|_| EngineError::Dom {
            action: "reach the canvas",
            reason: "it is in use (called from inside a callback?)".into(),
        })?;
        match slot.as_mut() {
            Some(canvas) => f(canvas),
            None if self.is_waiting() => Err(EngineError::NotDrawnYet),
            None => Err(EngineError::Destroyed),
        }
    }

    fn is_waiting(&self) -> bool {
        self.waiting
            .try_borrow()
            .map_or(true, |slot| slot.is_some())
    }

    /// An update to a kind whose code is not here yet: drawn once it is
    /// (the card shows the old data until then); a failure goes to `onError`.
    fn update_later(&self, group: KindGroup, data: JsValue) {
        let canvas = Rc::downgrade(&self.canvas);
        wasm_bindgen_futures::spawn_local(async move {
            let loaded = chunks::load(group).await;
            let Some(canvas) = canvas.upgrade() else {
                return;
            };
            let Ok(mut slot) = canvas.try_borrow_mut() else {
                return;
            };
            let Some(drawn) = slot.as_mut() else {
                return;
            };
            let shown = loaded
                .and_then(|()| data::read(&data))
                .and_then(|chart| drawn.show(chart));
            if let Err(error) = shown {
                let callbacks = drawn.callbacks();
                drop(slot);
                callbacks.failed(&error);
            }
        });
    }
}
