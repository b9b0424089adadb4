//! zdr-chart: the `visualization_data` model and the chart engine of zdr-embed.
//!
//! Pure Rust: no DOM, no IO. The widget draws with it on a canvas, the embed
//! host as SVG.

pub mod draw;
#[cfg(feature = "geo")]
pub mod geo;
pub mod model;
pub mod reduce;
pub mod scale;

pub use draw::{Chart, DrawError, Theme};
