//! The spec's delivery: a hidden form POSTs `visualization_data` into the frame.

use wasm_bindgen::JsValue;
use web_sys::{Document, Element, HtmlFormElement};

use wasm_bindgen::JsCast;

use crate::timer::Timeout;

/// The one form field the service reads (spec 4.16).
pub const FIELD_NAME: &str = "visualization_data";
/// The second field: the frame's size when posted, `600x420` in CSS px, so
/// that the service can lay the card out for that frame as local mode
/// would (a service that does not read it draws as it would without it).
pub const FRAME_SIZE_NAME: &str = "frame_size";
/// How long a submitted form stays in the page (spec 4.16: "about 100 ms").
pub const FORM_LIFETIME_MS: u32 = 100;

/// A submitted form waiting for its removal. Dropping it removes the form and
/// cancels the timer, so `destroy()` and a quick `update()` need no special case.
pub struct PendingForm {
    form: HtmlFormElement,
    _removal: Timeout,
}

impl Drop for PendingForm {
    fn drop(&mut self) {
        self.form.remove();
    }
}

/// Where one post goes.
pub struct Post<'a> {
    pub document: &'a Document,
    pub container: &'a Element,
    pub frame_name: &'a str,
    pub address: &'a str,
    pub json: &'a js_sys::JsString,
    /// `WIDTHxHEIGHT`, or `None` for a frame that has no size yet.
    pub frame_size: Option<&'a str>,
}

impl Post<'_> {
    /// Builds, appends and submits the form, which removes itself after
    /// [`FORM_LIFETIME_MS`] (or when the returned [`PendingForm`] drops).
    /// On failure nothing stays in the page.
    pub fn submit(self) -> Result<PendingForm, JsValue> {
        // Attributes rather than the element's setters, and no instanceof
        // checks on elements made just now: each distinct browser call is an
        // import of the service module, which has a size budget.
        let form: HtmlFormElement = self.document.create_element("form")?.unchecked_into();
        form.set_attribute("method", "post")?;
        form.set_attribute("enctype", "application/x-www-form-urlencoded")?;
        form.set_attribute("accept-charset", "UTF-8")?;
        form.set_attribute("action", self.address)?;
        form.set_attribute("target", self.frame_name)?;
        form.set_attribute("aria-hidden", "true")?;
        // The post navigates the frame, and the frame's referrerpolicy covers
        // only its src. Chromium ignores rel on a form that targets a frame
        // (the page's own policy decides there); Firefox honours it.
        form.set_attribute("rel", "noreferrer")?;
        // CSSOM, not a style attribute, which a strict style-src CSP refuses.
        form.style().set_property("display", "none")?;

        let field = self.document.create_element("input")?;
        field.set_attribute("type", "hidden")?;
        field.set_attribute("name", FIELD_NAME)?;
        // The JS string itself: the data is never copied through wasm memory.
        js_sys::Reflect::set(&field, &"value".into(), self.json)?;
        form.append_child(&field)?;
        if let Some(size) = self.frame_size {
            let field = self.document.create_element("input")?;
            field.set_attribute("type", "hidden")?;
            field.set_attribute("name", FRAME_SIZE_NAME)?;
            field.set_attribute("value", size)?;
            form.append_child(&field)?;
        }

        self.container.append_child(&form)?;
        // Armed before submit so that a failing submit still removes the form on drop.
        let due = form.clone();
        let pending = PendingForm {
            form: form.clone(),
            _removal: Timeout::new(FORM_LIFETIME_MS, Box::new(move || due.remove())),
        };
        // submit() (not requestSubmit) fires no submit event: page handlers cannot intercept it.
        form.submit()?;
        Ok(pending)
    }
}
