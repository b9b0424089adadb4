//! zdr-host: the reference service of zdr-embed. It composes the embed
//! (zdr-embed-page: a card's form post in, its chart page out; the
//! postMessage shell; stores nothing) and the service API (zdr-api) behind
//! one server, with the demo pages and the npm package beside them.

pub mod app;
pub mod config;
mod metrics;
mod server;

pub use app::app;
pub use config::Config;
pub use server::serve;
pub use zdr_api as api;
pub use zdr_embed_page::{form, parse};
