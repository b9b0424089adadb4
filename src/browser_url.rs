//! The browser's word on `serviceUrl`: its own `URL` parser reads the text
//! that passed the string rules of [`ServiceUrl::parse`], and the embed
//! address is built from what the browser read, so the widget can never post
//! anywhere the browser would not have shown the caller.

use crate::address::{AddressProblem, ServiceUrl};

/// Checks `input` by the string rules, then by the browser's `URL`: it must
/// parse, be http(s) without credentials, query or fragment, and keep the
/// host exactly as written. Returns the service with the browser's
/// serialisation as its base (origin + path, trailing slashes trimmed).
pub fn service_url(input: &str) -> Result<ServiceUrl, AddressProblem> {
    let written = ServiceUrl::parse(input)?;
    let url = web_sys::Url::new(input).map_err(|_| AddressProblem::Unparsable)?;
    let protocol = url.protocol();
    if protocol != "http:" && protocol != "https:" {
        return Err(AddressProblem::NotHttp(crate::js_value::quote(input)));
    }
    if !url.username().is_empty() || !url.password().is_empty() {
        return Err(AddressProblem::Credentials);
    }
    if !url.search().is_empty() || !url.hash().is_empty() {
        return Err(AddressProblem::QueryOrFragment);
    }
    let browser_host = url.hostname();
    if browser_host != written.host() {
        return Err(AddressProblem::Rewritten(
            written.host().to_owned(),
            browser_host,
        ));
    }
    let base = format!("{}{}", url.origin(), url.pathname());
    Ok(written.rebased(&base))
}
