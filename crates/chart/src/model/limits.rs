//! How much of a card can be shown. Past these a chart stops being readable
//! long before it stops being drawable, and the work and the page would grow
//! with the input's square (series × categories, rows × columns). Each cap
//! is checked while the data are read, before the structure it bounds is
//! allocated, so refusing costs no more than reading. Documented in
//! `docs/data-format.md` ("Limits").

/// Series in one card (series objects, or value columns of a table): a
/// legend and a palette tell apart a few dozen at most.
pub const MAX_SERIES: usize = 200;

/// Categories (bars per series) of bar, grouped_bar, stacked_bar, waterfall
/// and choropleth cards: at 1,000 a bar is already under a pixel wide on a
/// phone. Pie cards have no such cap: they fold the smallest slices into
/// "Other".
pub const MAX_CATEGORIES: usize = 1_000;

/// Series × categories of bar, grouped_bar, stacked_bar, waterfall and
/// choropleth cards: one bar each at most, and 2,500 bars already fill a
/// wide card with bars a third of a pixel wide.
pub const MAX_BARS: usize = 2_500;

/// Each kind's own caps, beside its data type in the registry of kinds.
pub use super::registry::limits::*;
