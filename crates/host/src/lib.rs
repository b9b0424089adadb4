//! zdr-host: the reference embed service of zdr-embed.
//!
//! It answers the widget's form posts (`POST /embed/{card_id}/` with the
//! field `visualization_data`) with a small HTML page that shows the chart,
//! drawn here by zdr-chart as inline SVG. The page runs no script. Nothing
//! from a request is stored or logged: the data live only while the request
//! is answered.
//!
//! For the widget's postMessage mode, `GET /embed/{card_id}/?embed_mode=
//! postmessage&parent_origin=<origin>` answers with the shell: a page with no
//! data that loads the widget's engine from this host and receives the data
//! from the parent window by postMessage; they never reach the host.

mod ancestors;
pub mod api;
pub mod app;
mod chart_page;
pub mod config;
mod embed;
mod error;
#[doc(hidden)]
pub mod form;
mod html;
mod limits;
mod origin;
#[doc(hidden)]
pub mod parse;
mod request_log;
mod responsive;
mod security;
mod server;
mod shell;

pub use app::app;
pub use config::Config;
pub use server::serve;
