//! zdr-embed: the `ServiceZDREmbed` widget in Rust and WebAssembly, its
//! service module.
//!
//! `render(options)` validates everything first (nothing is created when it
//! throws), then shows the card through a [`surface`]: an iframe the data is
//! posted into through a hidden form, exactly as the service's widget does
//! (spec 4.16), the service's postMessage shell, or a canvas the card is drawn
//! on in the page (local mode). This module holds no chart code: drawing in
//! the page is the engine module's (`crates/engine`), fetched through the
//! loader the package entry registers ([`engine`]) the first time a card
//! needs it, or by [`preload`].

// Public only for the native fuzz targets (fuzz/): their rules are pure.
#[doc(hidden)]
pub mod address;
mod browser_url;
mod css_size;
mod embed;
mod engine;
mod error;
mod fallback;
mod js_value;
mod listener;
mod options;
mod page;
mod payload;
mod settled;
mod sink;
mod surface;
mod timer;

use wasm_bindgen::prelude::*;

// Safe to construct; single-threaded wasm never contends for the lock.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: lol_alloc::LockedAllocator<lol_alloc::FreeListAllocator> =
    lol_alloc::LockedAllocator::new(lol_alloc::FreeListAllocator::new());
use web_sys::Document;

pub use embed::EmbedHandle;
use error::Fail;
pub use error::{Call, EmbedError};

use options::EmbedOptions;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** The card's configuration; `title` names the frame for assistive technology. */
export interface VizConfig {
  title?: string;
  [key: string]: unknown;
}

/** What the service draws: `viz_config` and `data` are both required (spec 4.16). */
export interface VisualizationData {
  viz_config: VizConfig;
  data: unknown[] | Record<string, unknown>;
  [key: string]: unknown;
}

/** Options every mode shares. */
export interface CommonOptions {
  visualizationData: VisualizationData;
  /** CSS length or pixels; default "100%". */
  width?: string | number;
  /**
   * CSS length or pixels; default "600px". "auto" (local mode, or embedMode "postmessage"):
   * the card's height follows its width, and a postMessage frame takes the height its page reports.
   */
  height?: string | number;
  /**
   * Dark or light theme. Default: `viz_config.dark_mode`, else the reader's `prefers-color-scheme`
   * (followed live in local mode). In service mode it adds `?dark_mode=true|false` to the embed address.
   */
  darkMode?: boolean;
  /** Called when showing the card fails, or (auto mode) on a fallback; without it the error is logged with console.error. */
  onError?: (error: Error) => void;
  /** A card drawn in the page (local, or auto after a fallback): called after each zoom, pan or reset has been drawn. */
  onViewChange?: (view: ChartView) => void;
  /** A card drawn in the page: cards of one group move their crosshair together. */
  syncGroup?: string;
  /** With `syncGroup`: the time-axis cards of the group that ask for it zoom together. */
  syncZoom?: boolean;
  /** A card drawn in the page: a button at its top right with PNG, SVG and CSV downloads. */
  menu?: boolean;
}

/**
 * A zoom of a card drawn in the page: the x range (on a time axis Dates; `setView` also reads
 * milliseconds since 1970 or ISO 8601 text) and, on a scatter, the y range; null: the whole data.
 */
export interface ChartView {
  x?: [Date | number | string, Date | number | string] | null;
  y?: [number, number] | null;
}

/** The spec's way (the default): a form post into an iframe; the service draws the card. */
export interface ServiceOptions extends CommonOptions {
  mode?: "service";
  /** Absolute http: or https: base address of the service, e.g. "https://charts.example.com". */
  serviceUrl: string;
  /** The card id from a visualize response; sent as one percent-encoded path segment. */
  cardId: string;
  /**
   * "form" (default): the data is posted into the frame, as the service's widget does.
   * "postmessage": the frame loads the service's shell page and the data is sent to it by
   * postMessage (to the service's exact origin); `update` redraws without reloading the frame.
   */
  embedMode?: "form" | "postmessage";
  /** embedMode "postmessage": how long to wait for the shell to say it is ready, in ms; default 5000. */
  timeoutMs?: number;
  /**
   * Called with the iframe each time the service's page has loaded in it (form), or each time
   * its shell has received new data (postmessage).
   */
  onLoad?: (iframe: HTMLIFrameElement) => void;
}

/**
 * Drawn in the page on a canvas by the widget's own chart engine: no request to any service.
 * The engine is a second module, fetched the first time a page needs it; until it has arrived,
 * data it cannot read goes to `onError` (after `await preload()`, `render` throws for it).
 */
export interface LocalOptions extends CommonOptions {
  mode: "local";
  /** Optional here; checked when given. */
  serviceUrl?: string;
  cardId?: string;
  /** Called with the canvas each time new data has been drawn on it. */
  onLoad?: (canvas: HTMLCanvasElement) => void;
}

/**
 * The service first; drawn locally if the service cannot be reached or its page has not loaded
 * within `timeoutMs` (then `onError` receives an Error named "FallbackToLocal").
 */
export interface AutoOptions extends CommonOptions {
  mode: "auto";
  serviceUrl: string;
  cardId: string;
  /** As in service mode; with "postmessage" the shell's "ready" message proves the service is there. */
  embedMode?: "form" | "postmessage";
  /** How long to wait for the service's page, in milliseconds; default 5000. */
  timeoutMs?: number;
  /** Called with the iframe (service) or the canvas (after a fallback). */
  onLoad?: (element: HTMLIFrameElement | HTMLCanvasElement) => void;
}

/** Where the card goes: one of the two. */
export type Container =
  | {
      /** id of the element the card is appended to. */
      containerId: string;
      container?: undefined;
    }
  | {
      /**
       * The element itself (this package's addition to the spec's options): for an element no
       * id reaches from the document, in a shadow root or a custom element's own.
       */
      container: Element;
      containerId?: undefined;
    };

/** Options of `render`: the service's `ServiceZDREmbed.render` options, plus `mode` and its companions. */
export type RenderOptions = (ServiceOptions | LocalOptions | AutoOptions) & Container;
"#;

/// Shows a card: validates `options`, then creates the iframe and posts or sends
/// the data into it, or draws the card on a canvas (local mode).
/// Throws an `Error` naming the option when an option is missing or invalid.
#[wasm_bindgen]
pub fn render(
    #[wasm_bindgen(unchecked_param_type = "RenderOptions")] options: JsValue,
) -> Result<EmbedHandle, JsValue> {
    let call = Call::Render;
    embed::guard(call)?;
    show(call, &options).map_err(|error| error.thrown(call))
}

fn show(call: Call, options: &JsValue) -> Result<EmbedHandle, Fail> {
    let document = document()?;
    let options = EmbedOptions::read(options, &document)?;
    embed::start(call, &document, options)
}

/// Renders several cards. Every options object is validated before any card is
/// created, so one bad entry throws and leaves the page untouched.
#[wasm_bindgen(js_name = "renderMultiple", unchecked_return_type = "EmbedHandle[]")]
pub fn render_multiple(
    #[wasm_bindgen(js_name = "optionsList", unchecked_param_type = "RenderOptions[]")]
    options_list: JsValue,
) -> Result<js_sys::Array, JsValue> {
    embed::guard(Call::RenderMultiple(None))?;
    if !js_sys::Array::is_array(&options_list) {
        return Err(EmbedError::NotAnArray {
            found: js_value::describe(&options_list),
        }
        .thrown(Call::RenderMultiple(None)));
    }
    let document = document().map_err(|error| error.thrown(Call::RenderMultiple(None)))?;
    // The page's own array, not a copy (Array.from of `new Array(2 ** 32 - 1)`
    // would walk four billion holes), and no room reserved from a length it
    // claims: the first entry that is not options ends the call.
    let list: &js_sys::Array = options_list.unchecked_ref();
    let mut validated = Vec::new();
    for (index, options) in list.iter().enumerate() {
        let call = Call::RenderMultiple(Some(index));
        validated.push(EmbedOptions::read(&options, &document).map_err(|e| e.thrown(call))?);
    }
    let handles = js_sys::Array::new();
    for (index, options) in validated.into_iter().enumerate() {
        let call = Call::RenderMultiple(Some(index));
        let handle = embed::start(call, &document, options).map_err(|e| e.thrown(call))?;
        handles.push(&handle.into());
    }
    Ok(handles)
}

/// Loads and starts the chart engine now, once per page; resolves when it
/// is ready. Cards drawn in the page (mode "local", "auto" fallbacks) load it
/// by themselves when they first need it; after `preload()` has resolved,
/// `render` throws for data the engine cannot read instead of reporting it
/// to `onError`. Rejects with an Error (code "engine_unavailable") when the
/// engine cannot be fetched; a later call tries again. The package's entry
/// lets it be called before `init()` has resolved: the engine's download
/// then starts at once, beside the service module's.
#[wasm_bindgen(unchecked_return_type = "Promise<void>")]
pub fn preload() -> js_sys::Promise {
    let call = Call::Preload;
    if let Err(error) = embed::guard(call) {
        return js_sys::Promise::reject(&error);
    }
    // The executor keeps only `resolve`: a failure resolves the promise with
    // a rejected one, which rejects it with the same error. (js_sys's
    // `Promise::new` takes a two-argument closure: a closure signature of
    // its own in a module whose every other closure takes one value.)
    let executor = settled::once(Box::new(move |resolve: JsValue| {
        let resolve: js_sys::Function = resolve.unchecked_into();
        engine::when_ready(Box::new(move |engine| {
            let outcome = match engine {
                Ok(_) => JsValue::UNDEFINED,
                Err(error) => js_sys::Promise::reject(&error.thrown(call)).into(),
            };
            let _ = resolve.call1(&JsValue::NULL, &outcome);
        }));
    }));
    NewPromise::new(&executor).unchecked_into()
}

#[wasm_bindgen]
extern "C" {
    /// `Promise`, for `new Promise(executor)` with a one-argument executor.
    #[wasm_bindgen(js_name = Promise)]
    type NewPromise;
    #[wasm_bindgen(constructor, js_class = "Promise")]
    fn new(executor: &JsValue) -> NewPromise;
}

/// Registers how the chart engine is fetched: a function returning a promise
/// of the engine module's namespace (`() => import("./engine/zdr_engine.js")`).
/// The package entry and the drop-in script call it; pages need not.
#[doc(hidden)]
#[wasm_bindgen(js_name = "__setEngineLoader")]
pub fn set_engine_loader(
    #[wasm_bindgen(unchecked_param_type = "() => Promise<unknown>")] loader: js_sys::Function,
) {
    engine::set_loader(loader);
}

fn document() -> Result<Document, Fail> {
    crate::page::window()
        .and_then(|window| window.document())
        .ok_or_else(|| {
            EmbedError::Dom {
                action: "find the page's document",
                reason: "the widget must run in a browser window, not a worker".into(),
            }
            .into()
        })
}
