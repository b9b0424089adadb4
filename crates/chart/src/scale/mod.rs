//! Scales for chart axes: "nice" linear ticks, calendar ticks for dates, and
//! number formatting for tick labels, data labels and tooltips.
//!
//! Everything here is pure and total: any `f64` (NaN, ±∞, 1e308, 1e-300,
//! reversed or empty domains) gives a usable answer without panicking, and no
//! function returns more than [`MAX_TICKS`] ticks.

pub mod format;
pub mod shortest;
pub mod ticks;
pub mod time;

pub use format::{format_exact, format_value, NumberFormat, Units};
pub use ticks::{nice_ticks, nice_ticks_exactly, LinearTicks};
pub use time::{format_date, time_ticks, TimeTicks, TimeUnit};

/// The most ticks any function of this module returns, whatever it is asked for.
pub const MAX_TICKS: usize = 64;

/// Where `v` lies between `lo` and `hi`, 0 at `lo` and 1 at `hi`: the one
/// rule of every continuous scale (axes, colour ramps). `None` for a domain
/// of no, or no finite, width: each caller says where such a value goes.
pub fn unit(v: f64, lo: f64, hi: f64) -> Option<f64> {
    let span = hi - lo;
    (span > 0.0 && span.is_finite()).then(|| (v - lo) / span)
}

/// The minus sign used for negative numbers (U+2212), not the hyphen.
pub const MINUS: char = '\u{2212}';
