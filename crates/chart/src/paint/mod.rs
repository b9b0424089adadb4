//! Painters: a [`Scene`](crate::scene::Scene) turned into pixels or text.
//!
//! - [`plotters`]: replayed onto any plotters backend (the widget's
//!   canvas); the only code generic over a backend.
//! - [`svg`]: the engine's own SVG writer (the host, `toSVG()`, the CLI).
//! - `png` (cargo feature `png`, native only): the SVG rasterised.

pub mod plotters;
#[cfg(all(feature = "png", not(target_arch = "wasm32")))]
pub mod png;
pub mod svg;
