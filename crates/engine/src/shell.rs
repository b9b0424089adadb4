//! The service's side of `embedMode: "postmessage"`: the shell page a host
//! serves at `GET /embed/{card_id}/?embed_mode=postmessage&parent_origin=…`
//! calls `startShell`, which says `ready` to the embedding page, then draws
//! every `vizdata` it receives with the local engine. The data arrives by
//! message and is drawn here, in the reader's browser: the host never sees it.
//!
//! Only messages from `window.parent` with the origin the host was told
//! (`parent_origin`) are read, and answers go to that origin only.
//!
//! [`start_shell`] reads and checks its options in the core (its errors are
//! thrown at the call, as before); the shell itself ([`run`] and all it
//! calls) is a chunk of the engine module of its own (`shell`), which only
//! the shell page fetches: a page drawing cards itself never downloads it.

use std::cell::{Cell, RefCell};

use gloo_events::EventListener;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, MessageEvent, ResizeObserver, Window};

use zdr_protocol::layout::AUTO_HEIGHT;
use zdr_protocol::message::{decode_to_shell, Fields, ShellInbox, ToShell, ToWidget, VERSION};
use zdr_protocol::origin::is_origin;
use zdr_protocol::text::{describe_thrown, quote};

use crate::canvas::{CanvasSpec, LocalCanvas};
use crate::error::EngineError;
use crate::settings::Callbacks;
use zdr_chart::model::KindGroup;

thread_local! {
    /// One shell per page, alive as long as the page.
    static SHELL: RefCell<Option<Shell>> = const { RefCell::new(None) };
    /// `startShell` was called (its code may still be on its way).
    static STARTED: Cell<bool> = const { Cell::new(false) };
}

/// What `startShell` read and checked, for the shell's code.
pub(crate) struct Start {
    parent: Window,
    parent_origin: String,
    container: Element,
    dark_mode: Option<bool>,
    auto_height: bool,
}

/// What the core calls of the shell's chunk.
pub(crate) struct ShellCode {
    run: fn(Start),
}

static CODE: ShellCode = ShellCode { run };

struct Shell {
    parent: Window,
    parent_origin: String,
    container: Element,
    dark_mode: Option<bool>,
    auto_height: bool,
    canvas: Option<LocalCanvas>,
    /// The id of the data on screen (or being drawn), for late draw errors.
    current: Option<u32>,
    last_height: f64,
    /// Page-lifetime handlers, made once.
    on_draw_error: Closure<dyn Fn(JsValue)>,
    _on_message: EventListener,
    _resize: Option<(ResizeObserver, Closure<dyn FnMut()>)>,
}

#[wasm_bindgen(typescript_custom_section)]
const TS_SHELL: &'static str = r#"
/** Options of `startShell`, for the embed host's postMessage shell page. */
export interface ShellOptions {
  /** The embedding page's origin (`parent_origin`): the only sender read and the only receiver. */
  parentOrigin: string;
  /** id of the element the card is drawn in. */
  containerId: string;
  darkMode?: boolean;
  /** Size the card from its width (the widget's `height: "auto"`). */
  autoHeight?: boolean;
}
"#;

/// Runs the postMessage shell in this page (the host's shell page calls it):
/// answers `zdr:vizdata` messages from the parent page by drawing the card.
/// Throws if the options are wrong, the page is not framed, or it already runs.
#[wasm_bindgen(js_name = "startShell")]
pub fn start_shell(
    #[wasm_bindgen(unchecked_param_type = "ShellOptions")] options: JsValue,
) -> Result<(), JsValue> {
    zdr_protocol::failure::guard().map_err(EngineError::from)?;
    let window = web_sys::window().ok_or_else(|| shell_error("there is no window"))?;
    let document = window
        .document()
        .ok_or_else(|| shell_error("there is no document"))?;
    if !options.is_object() || options.is_function() {
        return Err(shell_error("startShell needs an options object"));
    }
    let parent_origin = option(&options, "parentOrigin")
        .as_string()
        .ok_or_else(|| shell_error("option \"parentOrigin\" must be a string"))?;
    if !(is_origin(&parent_origin) && browser_agrees_is_origin(&parent_origin)) {
        return Err(shell_error(&format!(
            "parentOrigin must be an origin like https://app.example.com, found {}",
            quote(&parent_origin)
        )));
    }
    let container_id = option(&options, "containerId")
        .as_string()
        .ok_or_else(|| shell_error("option \"containerId\" must be a string"))?;
    let container = document
        .get_element_by_id(&container_id)
        .ok_or_else(|| shell_error("the container element is missing"))?;
    let dark_mode = option(&options, "darkMode").as_bool();
    let auto_height = option(&options, "autoHeight").as_bool() == Some(true);
    let parent = window
        .parent()
        .ok()
        .flatten()
        .filter(|parent| !js_sys::Object::is(parent, &window))
        .ok_or_else(|| shell_error("the shell page must be loaded in an iframe by the widget"))?;
    if STARTED.with(|started| started.replace(true)) {
        return Err(shell_error("the shell already runs in this page"));
    }
    let start = Start {
        parent,
        parent_origin,
        container,
        dark_mode,
        auto_height,
    };
    run_when_loaded(start);
    Ok(())
}

/// Runs the shell once its code is here; a failed fetch is said in the
/// console (the parent page then reports its `service_not_ready`).
#[cfg(all(feature = "chunks", target_arch = "wasm32"))]
fn run_when_loaded(start: Start) {
    wasm_bindgen_futures::spawn_local(async move {
        match split::shell().await {
            Ok(code) => (code.run)(start),
            Err(_) => {
                STARTED.with(|started| started.set(false));
                let error = EngineError::PartFailed("shell");
                web_sys::console::error_1(&shell_error(&error.to_string()));
            }
        }
    });
}

#[cfg(not(all(feature = "chunks", target_arch = "wasm32")))]
fn run_when_loaded(start: Start) {
    (CODE.run)(start);
}

/// The shell: listens to the parent page and says it is ready.
fn run(start: Start) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let on_message = EventListener::new(&window, "message", |event| {
        if zdr_protocol::failure::has_failed() {
            return;
        }
        if let Some(event) = event.dyn_ref::<MessageEvent>() {
            on_message(event);
        }
    });
    let resize = watch_height(&start.container);
    let shell = Shell {
        parent: start.parent,
        parent_origin: start.parent_origin,
        container: start.container,
        dark_mode: start.dark_mode,
        auto_height: start.auto_height,
        canvas: None,
        current: None,
        last_height: -1.0,
        on_draw_error: Closure::new(on_draw_error),
        _on_message: on_message,
        _resize: resize,
    };
    shell.send(&ToWidget::Ready { version: VERSION });
    SHELL.with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            *slot = Some(shell);
        }
    });
}

/// A member of the options; a throwing getter reads as absent.
fn option(options: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(options, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

fn shell_error(reason: &str) -> JsValue {
    js_sys::Error::new(&format!("zdr-embed shell: {reason}")).into()
}

/// The browser's word on it too: its URL parser serialises it unchanged.
fn browser_agrees_is_origin(text: &str) -> bool {
    web_sys::Url::new(text).is_ok_and(|url| url.origin() == text)
}

impl Shell {
    fn send(&self, message: &ToWidget) {
        // Fails only if the parent is gone; then nobody is listening anyway.
        let _ = self
            .parent
            .post_message(&message.encode(), &self.parent_origin);
    }

    fn is_from_parent(&self, event: &MessageEvent) -> bool {
        event.origin() == self.parent_origin
            && event
                .source()
                .is_some_and(|source| js_sys::Object::is(&source, &self.parent))
    }

    /// Reads and draws data `id`; answers received or error. A card whose
    /// group's code has not arrived is drawn once it has (`crate::chunks`).
    fn show(&mut self, id: u32, json: String) {
        let shown = crate::data::read_text(&json).and_then(|chart| {
            if !zdr_chart::is_loaded(chart.group()) {
                return Err(EngineError::Unloaded(chart.group()));
            }
            match &mut self.canvas {
                Some(canvas) => canvas.show(chart),
                None => self.create_canvas(chart),
            }
        });
        let answer = match shown {
            Ok(()) => {
                self.current = Some(id);
                ToWidget::Received { id }
            }
            Err(EngineError::Unloaded(group)) => {
                self.current = Some(id);
                wasm_bindgen_futures::spawn_local(show_when_loaded(group, id, json));
                return;
            }
            Err(error) => ToWidget::Error {
                id,
                message: error.to_string(),
            },
        };
        self.send(&answer);
    }

    fn create_canvas(&mut self, chart: std::rc::Rc<zdr_chart::Chart>) -> Result<(), EngineError> {
        let document: Document = self.container.owner_document().ok_or(EngineError::Dom {
            action: "draw the card",
            reason: "the shell's container is not in a document".into(),
        })?;
        let spec = CanvasSpec {
            document: &document,
            container: &self.container,
            width: "100%",
            height: if self.auto_height {
                AUTO_HEIGHT
            } else {
                "100%"
            },
            fallback_title: "Chart",
            dark_mode: self.dark_mode,
            callbacks: Callbacks {
                on_load: None,
                on_error: Some(
                    self.on_draw_error
                        .as_ref()
                        .unchecked_ref::<js_sys::Function>()
                        .clone(),
                ),
                on_view_change: None,
            },
            sync_group: None,
            menu: false,
            sync_zoom: false,
        };
        self.canvas = Some(LocalCanvas::create(spec, chart)?);
        Ok(())
    }

    fn report_height(&mut self) {
        let height = self.container.get_bounding_client_rect().height().ceil();
        // Nothing drawn yet is no height to take: a zero-height frame would
        // be throttled by the browser and never report again.
        if height.is_finite() && height >= 1.0 && height != self.last_height {
            self.last_height = height;
            self.send(&ToWidget::Resize { height });
        }
    }
}

/// Draws data `id` once `group`'s code is here, unless newer data came
/// meanwhile (which is drawn instead); a failed load is the data's error.
async fn show_when_loaded(group: KindGroup, id: u32, json: String) {
    let loaded = crate::chunks::load(group).await;
    SHELL.with(|slot| {
        let Ok(mut slot) = slot.try_borrow_mut() else {
            return;
        };
        let Some(shell) = slot.as_mut() else {
            return;
        };
        if shell.current != Some(id) {
            return;
        }
        match loaded {
            Ok(()) => shell.show(id, json),
            Err(error) => shell.send(&ToWidget::Error {
                id,
                message: error.to_string(),
            }),
        }
    });
}

fn on_message(event: &MessageEvent) {
    SHELL.with(|slot| {
        let Ok(mut slot) = slot.try_borrow_mut() else {
            return;
        };
        let Some(shell) = slot.as_mut() else {
            return;
        };
        if !shell.is_from_parent(event) {
            return;
        }
        match decode_to_shell(&Fields::read(&event.data())) {
            Some(ShellInbox::Data(ToShell::VizData { id, json })) => shell.show(id, json),
            Some(ShellInbox::Refused { id, message }) => {
                shell.send(&ToWidget::Error { id, message });
            }
            None => {}
        }
    });
}

/// A draw that failed after `received` (in an animation frame).
fn on_draw_error(error: JsValue) {
    if zdr_protocol::failure::has_failed() {
        return;
    }
    SHELL.with(|slot| {
        let Ok(slot) = slot.try_borrow() else {
            return;
        };
        if let Some(shell) = slot.as_ref() {
            if let Some(id) = shell.current {
                shell.send(&ToWidget::Error {
                    id,
                    message: draw_failure(&error),
                });
            }
        }
    });
}

/// The engine's draw errors carry only the reason in their message.
fn draw_failure(error: &JsValue) -> String {
    let reason = match error.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => describe_thrown(error),
    };
    format!("could not draw the card: {reason}")
}

/// Reports the content's height on every change, for `height: "auto"`.
fn watch_height(container: &Element) -> Option<(ResizeObserver, Closure<dyn FnMut()>)> {
    let on_resize = Closure::<dyn FnMut()>::new(|| {
        if zdr_protocol::failure::has_failed() {
            return;
        }
        SHELL.with(|slot| {
            if let Ok(mut slot) = slot.try_borrow_mut() {
                if let Some(shell) = slot.as_mut() {
                    shell.report_height();
                }
            }
        });
    });
    let observer = ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
    observer.observe(container);
    Some((observer, on_resize))
}

/// The split point: a function naming only the shell's code, so that the
/// splitter puts it (and nothing the core needs) in its chunk.
#[cfg(all(feature = "chunks", target_arch = "wasm32"))]
#[allow(unsafe_code)] // the macro declares the loader's import and the chunk's export
mod split {
    use wasm_split_helpers::{wasm_split, SplitLoaderError};

    use super::ShellCode;

    #[wasm_split(shell, fallible)]
    pub(super) fn shell() -> Result<&'static ShellCode, SplitLoaderError> {
        Ok(&super::CODE)
    }
}
