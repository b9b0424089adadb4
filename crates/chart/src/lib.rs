//! zdr-chart: the `visualization_data` model and the chart engine of zdr-embed.
//!
//! Pure Rust: no DOM, no IO. The widget draws with it on a canvas, the embed
//! host as SVG.

pub mod describe;
pub mod draw;
#[cfg(feature = "geo")]
pub mod geo;
mod label;
pub mod model;
pub mod reduce;
pub mod scale;
pub mod scene;

pub use describe::DataTable;
pub use draw::{Chart, DrawError, Hit, HitMap, HitShape, Theme};
