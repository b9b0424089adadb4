//! The embed of zdr-host, and what the service API shares with it.
//!
//! It answers the widget's form posts (`POST /embed/{card_id}/` with the
//! field `visualization_data`) with a small HTML page that shows the chart,
//! drawn by zdr-chart as inline SVG. The page runs no script. Nothing from
//! a request is stored or logged: the data live only while the request is
//! answered. This crate depends on nothing that stores or fetches, so the
//! zero-retention path is a dependency boundary, not only a promise.
//!
//! For the widget's postMessage mode, `GET /embed/{card_id}/?embed_mode=
//! postmessage&parent_origin=<origin>` answers with the shell: a page with no
//! data that loads the widget's engine from this host and receives the data
//! from the parent window by postMessage; they never reach the host.
//!
//! The host's one admission ([`limits`]) and its body reading ([`form`])
//! are here too: the service API (zdr-api) goes through them.

mod ancestors;
mod chart_page;
pub mod config;
pub mod embed;
pub mod error;
#[doc(hidden)]
pub mod form;
pub mod html;
pub mod ids;
pub mod limits;
mod origin;
#[doc(hidden)]
pub mod parse;
pub mod request_log;
pub mod security;
pub mod shell;

pub use config::EmbedConfig;
