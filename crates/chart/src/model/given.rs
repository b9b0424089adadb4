//! Timeseries and scatter cards from columns handed over whole: the
//! engine's way in for the page's typed arrays and point objects (issue 15),
//! with no JSON text of the data and no tree of it.
//!
//! Only what reads without error is read here, by the same rules as the two
//! text readers (the same date, gap and sort functions); anything else
//! answers `None`, and the caller reads the whole as JSON text, whose reader
//! words every error with the page's own JSON paths.

use super::card::{series_name, Card, Series};
use super::date::DatePrecision;
use super::stream::{date_of, drop_gaps, gaps_as_nan, line, Field};
use super::{CardKind, Path, VizConfig, MAX_SERIES};

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
        CardKind::Timeseries | CardKind::Scatter => {
            let series = series();
            if series.len() > MAX_SERIES {
                return None;
            }
            if kind == CardKind::Timeseries {
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
        series.push(line(name_of(one.name, index), xs, ys, kept));
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
