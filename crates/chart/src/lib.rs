//! zdr-chart: the `visualization_data` model and the chart engine of zdr-embed.
//!
//! Pure Rust: no DOM, no IO. A card is laid out once into a
//! [`scene::Scene`]; the painters in [`paint`] replay it onto a plotters
//! backend (the widget's canvas) or write it as SVG (the host) or PNG.

mod change;
mod chart;
pub mod describe;
pub mod draw;
#[cfg(feature = "geo")]
pub mod geo;
pub mod json;
mod label;
pub mod locale;
#[doc(hidden)]
pub mod math;
pub mod model;
mod number_text;
mod order;
pub mod paint;
pub mod reduce;
mod render;
pub mod scale;
pub mod scene;
mod shown;
pub mod sides;
mod str_index;

pub use chart::Chart;
pub use describe::DataTable;
pub use draw::Theme;
pub use paint::PaintError;
pub use scene::{Hit, HitMap, HitShape};
