//! zdr-host: the reference embed service of zdr-embed.
//!
//! It answers the widget's form posts (`POST /embed/{card_id}/` with the
//! field `visualization_data`) with a small HTML page that shows the chart,
//! drawn here by zdr-chart as inline SVG. The page runs no script. Nothing
//! from a request is stored or logged: the data live only while the request
//! is answered.

pub mod app;
pub mod config;
mod embed;
mod form;
mod html;
mod request_log;
mod security;

pub use app::{app, serve};
pub use config::Config;
