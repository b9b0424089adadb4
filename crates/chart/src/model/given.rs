//! Timeseries and scatter cards from columns handed over whole: the
//! engine's way in for the page's typed arrays and point objects,
//! with no JSON text of the data and no tree of it.
//!
//! Only what reads without error is read here, by the same rules as the two
//! text readers (the same date, gap and sort functions); anything else
//! answers `None`, and the caller reads the whole as JSON text, whose reader
//! words every error with the page's own JSON paths.

use super::date::DatePrecision;
use super::rules::{date_of, drop_gaps, gaps_as_nan, series_name, Field};
use super::{Card, Series};
use super::{CardKind, Path, VizConfig, MAX_SERIES};
use crate::reduce::{Keeper, KEPT_COLUMNS, KEPT_POINTS};

/// The x values of a series as handed over.
#[derive(Debug, Clone, PartialEq)]
pub enum GivenX {
    /// Numbers; anything not finite is missing (as `null` in JSON).
    Numbers(Vec<f64>),
    /// A timeseries's date strings already read (by the page, with the
    /// rules of [`super::parse_date`]): seconds since 1970 and the finest
    /// precision they were written with.
    Dates(Vec<f64>, DatePrecision),
}

/// One series: its name as given (`None`: not given), x and y.
#[derive(Debug, Clone, PartialEq)]
pub struct GivenSeries {
    pub name: Option<String>,
    pub x: GivenX,
    /// Anything not finite is missing.
    pub y: Vec<f64>,
    /// Set when the caller already kept a long timeseries for pixels, with
    /// [`crate::reduce::kept_for_pixels`]'s arithmetic, from dates it read
    /// itself ([`GivenX::Dates`]): how many points with a value it was given.
    pub kept_from: Option<usize>,
}

/// A long timeseries line read in blocks, and kept for pixels as it is
/// read: the same points [`crate::reduce::kept_for_pixels`] keeps of the
/// whole for a line in date order. Local mode copies the page's typed
/// arrays so, a block at a time, and never holds a million points.
pub struct LongLine {
    keeper: Keeper,
    /// Milliseconds since 1970 (`x_time: "epoch_ms"`), else seconds the
    /// caller read from date strings, with their precision.
    epoch_ms: bool,
    precision: DatePrecision,
    /// Every x so far in order: kept as read. Once one is not, the rest
    /// are only checked to be dates, and the line is copied whole.
    sorted: bool,
}

impl LongLine {
    /// A line of `len` points from `first` to `last` (x as given); `None`
    /// when it is not long enough to keep (copy it whole). `dates`: x are
    /// seconds the caller read, of that precision; `None`: epoch milliseconds.
    /// `out`: the vectors to keep its points in ([`Keeper::new`]).
    pub fn new(
        len: usize,
        first: f64,
        last: f64,
        dates: Option<DatePrecision>,
        out: (Vec<f64>, Vec<f64>),
    ) -> Option<LongLine> {
        if len <= KEPT_POINTS {
            return None;
        }
        let epoch_ms = dates.is_none();
        let second = |x: f64| if epoch_ms { (x + 0.0) / 1000.0 } else { x };
        let (lo, hi) = (second(first), second(last));
        Some(LongLine {
            keeper: Keeper::new(lo, hi, KEPT_COLUMNS, out),
            epoch_ms,
            precision: dates.unwrap_or(DatePrecision::Day),
            // A first or last x that is no date: read as out of order, so
            // that every x is checked.
            sorted: date(lo) && date(hi),
        })
    }

    /// The next block of points; `false` as soon as an x is no date (the
    /// whole is then read as JSON text, for its error). Epoch milliseconds
    /// are made seconds in place, as date.rs's `from_epoch_ms` makes them.
    #[inline(never)]
    pub fn read(&mut self, xs: &mut [f64], ys: &[f64]) -> bool {
        if self.epoch_ms {
            for x in xs.iter_mut() {
                *x = (*x + 0.0) / 1000.0;
            }
            // from_epoch_ms's precision: to the day when every one is a midnight.
            if self.precision == DatePrecision::Day
                && xs.iter().any(|&s| s / 86_400.0 != (s / 86_400.0).floor())
            {
                self.precision = DatePrecision::Time;
            }
        }
        // In order from a first to a last date, every x is one.
        if self.sorted && self.keeper.push_sorted(xs, ys) {
            return true;
        }
        if self.sorted {
            self.sorted = false;
            // All before the one out of order were in order: the last of
            // them is their largest.
            let previous = self.keeper.previous();
            if !(previous == f64::NEG_INFINITY || date(previous)) {
                return false;
            }
        }
        xs.iter().all(|&x| date(x))
    }

    /// The kept or `None` for one out of order: copy it whole.
    pub fn finish(self, name: Option<String>) -> Option<GivenSeries> {
        if !self.sorted {
            return None;
        }
        let given = self.keeper.given();
        let (x, y) = self.keeper.finish();
        Some(GivenSeries {
            name,
            x: GivenX::Dates(x, self.precision),
            y,
            kept_from: Some(given),
        })
    }
}

/// Seconds since 1970 a date can be (`from_epoch_ms`'s range, divided
/// as it divides: a division rounds monotonically, so the milliseconds are
/// in its range exactly when their seconds are in this one).
fn date(seconds: f64) -> bool {
    (-62_167_219_200_000.0 / 1000.0..=253_402_300_799_999.0 / 1000.0).contains(&seconds)
}

/// `viz_config` (JSON text) and the series: the card, or `None`. The
/// series are asked for only once `viz_config` reads as a card these read:
/// a caller copies them then, and may let go of other data first.
pub(crate) fn read(
    config: &str,
    series: &mut dyn FnMut() -> Vec<GivenSeries>,
) -> Option<(VizConfig, CardKind, Card)> {
    let value = crate::json::parse(config).ok()?;
    let config = VizConfig::from_value(&Path::Root.key("viz_config"), &value).ok()?;
    let kind = config.kind?;
    let card = match kind {
        kind if kind.is_dated_line() || kind == CardKind::Scatter => {
            let series = series();
            if series.len() > MAX_SERIES {
                return None;
            }
            if kind.is_dated_line() {
                timeseries(series, config.epoch_ms)?
            } else {
                scatter(series)?
            }
        }
        _ => return None,
    };
    Some((config, kind, card))
}

fn name_of(name: Option<String>, index: usize) -> String {
    match name {
        Some(name) => series_name(&name, index),
        None => format!("Series {}", index + 1),
    }
}

fn timeseries(given: Vec<GivenSeries>, epoch_ms: bool) -> Option<Card> {
    let mut precision = DatePrecision::Year;
    let mut series = Vec::with_capacity(given.len());
    for (index, one) in given.into_iter().enumerate() {
        let mut ys = one.y;
        // Only dates the caller read itself can have been kept (with
        // "epoch_ms" too: its milliseconds were read as seconds).
        let kept = match one.x {
            GivenX::Dates(..) => one.kept_from,
            GivenX::Numbers(_) => None,
        };
        let xs = match one.x {
            GivenX::Numbers(mut xs) => {
                for x in &mut xs {
                    // Not finite: `null` in JSON, which no date is.
                    if !x.is_finite() {
                        return None;
                    }
                    let (seconds, p) = date_of(Field::Number(*x + 0.0), epoch_ms)?;
                    precision = precision.max(p);
                    *x = seconds;
                }
                xs
            }
            GivenX::Dates(seconds, p)
                if (!epoch_ms || kept.is_some()) && seconds.iter().all(|x| x.is_finite()) =>
            {
                precision = precision.max(p);
                seconds
            }
            GivenX::Dates(..) => return None,
        };
        if xs.len() != ys.len() {
            return None;
        }
        gaps_as_nan(&mut ys);
        series.push(Series::line(name_of(one.name, index), xs, ys, kept));
    }
    Some(Card::Timeseries { series, precision })
}

fn scatter(given: Vec<GivenSeries>) -> Option<Card> {
    let mut series = Vec::with_capacity(given.len());
    for (index, one) in given.into_iter().enumerate() {
        // JSON has no -0, so neither do the numbers here.
        let mut ys = one.y;
        ys.iter_mut().for_each(|y| *y += 0.0);
        let mut xs = match one.x {
            GivenX::Numbers(mut xs) => {
                xs.iter_mut().for_each(|x| *x += 0.0);
                xs
            }
            GivenX::Dates(..) => return None,
        };
        if xs.len() != ys.len() {
            return None;
        }
        drop_gaps(&mut xs, &mut ys);
        series.push(Series {
            name: name_of(one.name, index),
            given: xs.len(),
            xs,
            ys,
        });
    }
    Some(Card::Scatter(series))
}
