//! The optional menu of a card drawn in the page (`menu: true`): a small
//! button at the card's top right that opens three downloads, PNG, SVG and
//! CSV, made in the page from what it shows (a `blob:` address, nothing
//! sent anywhere). Escape or a second click closes it.

use std::cell::RefCell;
use std::rc::Weak;

use gloo_events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, HtmlElement};

/// What a download is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Download {
    Png,
    Svg,
    Csv,
}

impl Download {
    const ALL: [Download; 3] = [Download::Png, Download::Svg, Download::Csv];

    fn label(self) -> &'static str {
        match self {
            Download::Png => "Download PNG",
            Download::Svg => "Download SVG",
            Download::Csv => "Download CSV",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Download::Png => "png",
            Download::Svg => "svg",
            Download::Csv => "csv",
        }
    }

    fn parse(text: &str) -> Option<Download> {
        Download::ALL.into_iter().find(|d| d.extension() == text)
    }
}

/// What the menu needs of the card: its downloads, started by it.
pub trait Downloads {
    fn download(&self, what: Download);
}

/// The button, its list and their listeners; dropping it unsubscribes them.
pub struct Menu {
    _listeners: [EventListener; 3],
}

const BUTTON: &str = "position:absolute;top:6px;right:6px;z-index:3;font:16px/1 sans-serif;\
padding:2px 8px;border-radius:4px;border:1px solid #888;background:#fff;color:#222;cursor:pointer";
const LIST: &str = "position:absolute;top:34px;right:6px;z-index:3;flex-direction:column;\
padding:4px;border-radius:4px;border:1px solid #888;background:#fff;box-shadow:0 2px 6px rgba(0,0,0,.25);";
const ITEM: &str = "font:13px/1.4 sans-serif;padding:4px 10px;border:0;background:none;color:#222;\
text-align:left;cursor:pointer;white-space:nowrap";

/// The menu's button, closed: made with the card's first chrome, so that
/// a reader (and a screen reader's browse mode) finds it before the
/// interaction's code has arrived; [`Menu::attach`] gives it its list.
pub fn button(document: &Document, wrapper: &Element) -> Result<HtmlElement, JsValue> {
    let button: HtmlElement = document.create_element("button")?.dyn_into()?;
    button.set_attribute("type", "button")?;
    button.set_class_name("zdr-embed-menu");
    button.set_attribute("aria-label", "Download the chart")?;
    button.set_attribute("aria-haspopup", "true")?;
    button.set_attribute("aria-expanded", "false")?;
    button.set_text_content(Some("\u{22ef}"));
    button.style().set_css_text(BUTTON);
    wrapper.append_child(&button)?;
    Ok(button)
}

impl Menu {
    /// The list of downloads after `button`, and the listeners; `open`: a
    /// click on the button came before this code, so the list opens now.
    pub fn attach<S: Downloads + 'static>(
        document: &Document,
        (wrapper, button): (&Element, &HtmlElement),
        state: Weak<RefCell<S>>,
        open_now: bool,
    ) -> Result<Menu, JsValue> {
        let list: HtmlElement = document.create_element("div")?.dyn_into()?;
        list.set_class_name("zdr-embed-menu-list");
        list.style().set_css_text(&[LIST, "display:none"].concat());
        for what in Download::ALL {
            let item: HtmlElement = document.create_element("button")?.dyn_into()?;
            item.set_attribute("type", "button")?;
            item.set_attribute("data-download", what.extension())?;
            item.set_text_content(Some(what.label()));
            item.style().set_css_text(ITEM);
            list.append_child(&item)?;
        }
        wrapper.append_child(&list)?;

        let open = {
            let (button, list) = (button.clone(), list.clone());
            move |show: bool| {
                let display = if show { "display:flex" } else { "display:none" };
                list.style().set_css_text(&[LIST, display].concat());
                let _ = button.set_attribute("aria-expanded", if show { "true" } else { "false" });
            }
        };
        if open_now {
            open(true);
        }
        let on_button = {
            let (open, button) = (open.clone(), button.clone());
            EventListener::new(&button.clone(), "click", move |_| {
                let expanded = button.get_attribute("aria-expanded").as_deref() == Some("true");
                open(!expanded);
            })
        };
        let on_item = {
            let open = open.clone();
            EventListener::new(&list, "click", move |event| {
                if zdr_protocol::failure::has_failed() {
                    return;
                }
                let what = event
                    .target()
                    .and_then(|target| target.dyn_into::<Element>().ok())
                    .and_then(|item| item.get_attribute("data-download"))
                    .and_then(|text| Download::parse(&text));
                let (Some(what), Some(state)) = (what, state.upgrade()) else {
                    return;
                };
                open(false);
                if let Ok(state) = state.try_borrow() {
                    state.download(what);
                };
            })
        };
        let on_key = EventListener::new(wrapper, "keydown", move |event| {
            if let Some(key) = event.dyn_ref::<web_sys::KeyboardEvent>() {
                if key.key() == "Escape" {
                    open(false);
                }
            }
        });
        Ok(Menu {
            _listeners: [on_button, on_item, on_key],
        })
    }
}

/// Saves `blob` as `name` through a `blob:` address of this page.
pub fn save(document: &Document, blob: &web_sys::Blob, name: &str) -> Result<(), JsValue> {
    let url = web_sys::Url::create_object_url_with_blob(blob)?;
    let link: web_sys::HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // The download has its own hold on the blob once it started.
    web_sys::Url::revoke_object_url(&url)
}

/// A text as a blob of `kind`.
pub fn text_blob(text: &str, kind: &str) -> Result<web_sys::Blob, JsValue> {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(kind);
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
}

/// A file name from the card's title: letters, digits and dashes. ASCII
/// letters are lowered; others are kept as they are (Unicode's case and
/// class tables would cost the module kilobytes for a file name).
pub fn file_name(title: &str, what: Download) -> String {
    let mut name = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() || !c.is_ascii() && !c.is_whitespace() {
            name.push(c.to_ascii_lowercase());
        } else if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
        if name.len() >= 60 {
            break;
        }
    }
    let name = name.trim_end_matches('-');
    let name = if name.is_empty() { "chart" } else { name };
    [name, ".", what.extension()].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_the_title_in_letters_and_dashes() {
        assert_eq!(
            file_name("Unit sales, by region!", Download::Csv),
            "unit-sales-by-region.csv"
        );
        assert_eq!(file_name("  ", Download::Png), "chart.png");
        assert_eq!(file_name("Über Größe", Download::Svg), "Über-größe.svg");
        assert!(file_name(&"a".repeat(500), Download::Png).len() <= 64);
    }
}
