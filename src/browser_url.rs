//! The browser's word on `serviceUrl`: its own `URL` parser reads the text
//! that passed the string rules of [`ServiceUrl::parse`], and the embed
//! address is built from what the browser read, so the widget can never post
//! anywhere the browser would not have shown the caller.

use wasm_bindgen::JsValue;

use crate::address::{AddressProblem, ServiceUrl};

/// Checks `input` by the string rules, then by the browser's `URL`: it must
/// parse, be http(s) without credentials, query or fragment, and keep the
/// host exactly as written. Returns the service with the browser's
/// serialisation as its base (origin + path, trailing slashes trimmed).
pub fn service_url(input: &str) -> Result<ServiceUrl, AddressProblem> {
    let written = ServiceUrl::parse(input)?;
    let url = BrowserUrl::new(input).ok_or(AddressProblem::Unparsable)?;
    let protocol = url.part("protocol");
    if protocol != "http:" && protocol != "https:" {
        return Err(AddressProblem::NotHttp(crate::js_value::quote(input)));
    }
    if !url.part("username").is_empty() || !url.part("password").is_empty() {
        return Err(AddressProblem::Credentials);
    }
    if !url.part("search").is_empty() || !url.part("hash").is_empty() {
        return Err(AddressProblem::QueryOrFragment);
    }
    let browser_host = url.part("hostname");
    if browser_host != written.host() {
        return Err(AddressProblem::Rewritten(
            written.host().to_owned(),
            browser_host,
        ));
    }
    let base = url.part("origin") + &url.part("pathname");
    Ok(written.rebased(&base))
}

/// The browser's `URL`, its parts read by name: one import for all of them
/// rather than one per getter (the service module's size budget).
pub struct BrowserUrl(JsValue);

impl BrowserUrl {
    /// `new URL(text)`; `None` where the browser cannot read it.
    pub fn new(text: &str) -> Option<BrowserUrl> {
        web_sys::Url::new(text)
            .ok()
            .map(|url| BrowserUrl(url.into()))
    }

    /// A part such as "hostname" or "origin"; empty if it is not a string.
    pub fn part(&self, name: &str) -> String {
        js_sys::Reflect::get(&self.0, &name.into())
            .ok()
            .and_then(|value| value.as_string())
            .unwrap_or_default()
    }
}
