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
use crate::model::{CardKind, DataError, DataShape, DatePrecision, Series};

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

/// The group's code, reached through `crate::kinds::code` (in the page,
/// once its chunk has loaded).
pub(crate) static CODE: super::GroupCode = super::GroupCode {
    read: |_, shape, epoch_ms| read(shape, epoch_ms),
    finish: |kind, card, normalize| match card {
        Card::Timeseries { series, precision } if kind == CardKind::StackedAreaTimeseries => {
            stacked::stack(series, precision, normalize).map(Card::Stacked)
        }
        card => Ok(card),
    },
    draw: |ctx, body, chart| match &chart.card {
        Card::Timeseries { series, precision } if chart.kind == CardKind::AreaTimeseries => {
            area::area(ctx, body, series, *precision)
        }
        Card::Timeseries { series, precision } => line::draw(ctx, body, series, *precision),
        Card::Stacked(s) => area::stacked(ctx, body, s),
        _ => {}
    },
    summary: |chart, units| match &chart.card {
        Card::Timeseries { series, precision } => describe::summary(chart, series, *precision),
        Card::Stacked(s) => describe::stacked_summary(s, units),
        _ => String::new(),
    },
    data_table: |chart, max_rows, f| {
        use crate::describe::table::{x_name, y_name};
        match &chart.card {
            Card::Timeseries { series, precision } => {
                let names = (x_name(chart, "Date"), y_name(chart, "Value"));
                describe::table(series, *precision, names, max_rows, (&chart.config, f))
            }
            Card::Stacked(s) => describe::stacked_table(s, x_name(chart, "Date"), max_rows, f),
            _ => super::no_table(),
        }
    },
};
