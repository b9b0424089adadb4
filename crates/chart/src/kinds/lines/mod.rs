//! timeseries, area_timeseries and stacked_area_timeseries: dated series.
//! One folder because the three read the same data (dated points, by this
//! reader, the streaming one and the columns handed over) and the areas are
//! drawn on the lines' axes and recorded as their points are:
//! - [`line`]: timeseries, its two axes and its markers;
//! - [`area`]: area_timeseries, and stacked_area_timeseries's layers;
//! - [`stacked`]: the stack a stacked_area_timeseries reads into.

pub(crate) mod area;
pub(crate) mod describe;
pub(crate) mod line;
pub(crate) mod stacked;
#[cfg(feature = "serde")]
pub(crate) mod write;

use crate::kinds::Card;
use crate::model::card::{check_series_count, date_value, series_points, Points};
use crate::model::rules::series_name;
use crate::model::{DataError, DataShape, DatePrecision, Series};

pub(crate) fn read(shape: &DataShape, epoch_ms: bool) -> Result<Card, DataError> {
    check_series_count(shape)?;
    read_series(&series_points(shape), epoch_ms)
}

fn read_series(series: &[(String, Points<'_>)], epoch_ms: bool) -> Result<Card, DataError> {
    let mut precision = DatePrecision::Year;
    let mut out = Vec::with_capacity(series.len());
    for (s, (name, points)) in series.iter().enumerate() {
        let mut xs = Vec::with_capacity(points.len());
        let mut ys = Vec::with_capacity(points.len());
        for point in points {
            let (x, p) = date_value(&point, "x", epoch_ms)?;
            precision = precision.max(p);
            xs.push(x);
            ys.push(point.number_or_gap("y")?);
        }
        // The streaming reader's: one instance of it in the engine.
        out.push(Series::line(series_name(name, s), xs, ys, None));
    }
    Ok(Card::Timeseries {
        series: out,
        precision,
    })
}
