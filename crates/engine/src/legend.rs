//! Legend entries that hide and show their series: a transparent button
//! over each entry the canvas draws, so that a click or a tap toggles it
//! and assistive technology finds a real button with `aria-pressed` (true
//! while the series is shown). The buttons are out of the tab order: the
//! card stays one tab stop, and its keyboard walk reaches the entries as
//! its first row (Enter toggles).

use std::cell::RefCell;
use std::rc::Weak;

use gloo_events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, HtmlElement};
use zdr_chart::scene::LegendKey;

use crate::tooltip::px;

/// What a click on an entry changes.
pub trait Toggled {
    /// Hides `series` if it is shown, shows it if hidden.
    fn toggle(&mut self, series: &str);
}

/// The buttons' layer and its one click listener; dropping it unsubscribes.
pub struct LegendButtons {
    layer: HtmlElement,
    _on_click: EventListener,
}

impl LegendButtons {
    pub fn create<S: Toggled + 'static>(
        document: &Document,
        wrapper: &Element,
        state: Weak<RefCell<S>>,
    ) -> Result<LegendButtons, JsValue> {
        let layer: HtmlElement = document.create_element("div")?.dyn_into()?;
        layer.set_class_name("zdr-embed-legend");
        layer.set_attribute("role", "group")?;
        layer.set_attribute("aria-label", "Legend: show or hide series")?;
        // The layer passes the pointer through; only its buttons take it.
        layer
            .style()
            .set_css_text("position:absolute;left:0;top:0;width:0;height:0;pointer-events:none");
        wrapper.append_child(&layer)?;
        let on_click = EventListener::new(&layer, "click", move |event| {
            if zdr_protocol::failure::has_failed() {
                return;
            }
            let series = event
                .target()
                .and_then(|target| target.dyn_into::<Element>().ok())
                .and_then(|button| button.get_attribute("data-series"));
            let (Some(series), Some(state)) = (series, state.upgrade()) else {
                return;
            };
            if let Ok(mut state) = state.try_borrow_mut() {
                state.toggle(&series);
            };
        });
        Ok(LegendButtons {
            layer,
            _on_click: on_click,
        })
    }

    /// One button per entry drawn, over it; reuses the buttons it has.
    pub fn sync(&self, keys: &[LegendKey]) {
        let document = self.layer.owner_document();
        let children = self.layer.children();
        while children.length() as usize > keys.len() {
            if let Some(last) = self.layer.last_element_child() {
                last.remove();
            }
        }
        for (i, key) in keys.iter().enumerate() {
            let button = match children.item(i as u32) {
                Some(button) => button,
                None => match document.as_ref().map(|d| d.create_element("button")) {
                    Some(Ok(button)) => {
                        let _ = button.set_attribute("type", "button");
                        let _ = button.set_attribute("tabindex", "-1");
                        if self.layer.append_child(&button).is_err() {
                            return;
                        }
                        button
                    }
                    _ => return,
                },
            };
            let _ = button.set_attribute("data-series", &key.series);
            let _ = button.set_attribute("aria-pressed", if key.shown { "true" } else { "false" });
            // Named by a label, not by text: the canvas shows the name.
            let _ = button.set_attribute("aria-label", &key.series);
            if let Some(button) = button.dyn_ref::<HtmlElement>() {
                let r = key.rect;
                button.style().set_css_text(
                    &[
                        "position:absolute;margin:0;padding:0;border:0;background:transparent;\
                     cursor:pointer;pointer-events:auto;left:",
                        &px(r.x),
                        ";top:",
                        &px(r.y),
                        ";width:",
                        &px(r.w),
                        ";height:",
                        &px(r.h),
                    ]
                    .concat(),
                );
            }
        }
    }
}

impl Drop for LegendButtons {
    fn drop(&mut self) {
        self.layer.remove();
    }
}
