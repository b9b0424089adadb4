//! zdr-chart: the `visualization_data` model and the chart engine of zdr-embed.
//!
//! Pure Rust: no DOM, no IO. The widget draws with it on a canvas, the embed
//! host as SVG.

pub mod model;
