//! zdr-chart: the `visualization_data` model and the chart engine of zdr-embed.
//!
//! Pure Rust: no DOM, no IO. A card is laid out once ([`layout`]) into a
//! [`scene::Scene`]; the painters in [`paint`] read only the scene: the
//! widget's canvas pixels, SVG (standalone, and the form page's fluid
//! markup) and PNG. Layers: model → scale → layout → scene ← paint.

mod change;
pub mod describe;
#[cfg(feature = "geo")]
pub mod geo;
pub mod json;
mod kinds;
mod label;
pub mod layout;
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
pub mod view;

pub use describe::DataTable;
#[cfg(feature = "lazy-kinds")]
pub use kinds::install;
pub use kinds::{groups, is_loaded, GroupCode};
pub use layout::Theme;
pub use model::chart::Chart;
pub use paint::PaintError;
pub use scene::{Hit, HitMap, HitShape};
pub use view::View;
