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

/// Series × categories of a pie card: the size of the value matrix the
/// reader builds before the smallest slices are folded into "Other".
pub const MAX_PIE_VALUES: usize = 100_000;

/// Boxes of a boxplot (distinct `x`).
pub const MAX_BOXES: usize = 1_000;

/// Rows (items) of a timeline.
pub const MAX_TIMELINE_ROWS: usize = 2_000;

/// Columns of a table card, including the distinct keys of point objects.
pub const MAX_TABLE_COLUMNS: usize = 200;

/// Rows × columns of a table card: the cells the reader keeps as text.
pub const MAX_TABLE_CELLS: usize = 500_000;

/// x × y categories of a heatmap: the grid is dense; beyond this many
/// cells each would be smaller than a pixel on any screen, and the grid
/// alone would take megabytes.
pub const MAX_HEATMAP_CELLS: usize = 250_000;

/// Categories of a treemap as read (labels within groups): the smallest
/// are folded into "Other" when drawn, so only the reading is bounded.
pub const MAX_TREEMAP_VALUES: usize = 100_000;

/// Points of a top_level_metric: its sparkline is a few hundred pixels
/// wide at most.
pub const MAX_METRIC_POINTS: usize = 10_000;

/// Places on a map or a bubble map: ten thousand dots already cover a
/// world map drawn on a phone.
pub const MAX_PLACES: usize = 10_000;

/// Series × distinct dates of a stacked area: the stack is dense (a series
/// missing on a date is zero there).
pub const MAX_STACKED_VALUES: usize = 1_000_000;
