//! scatter: points at numeric x and y, one colour per series; a point
//! missing either is left out.

pub(crate) mod describe;
pub(crate) mod layout;
#[cfg(feature = "serde")]
pub(crate) mod write;

use crate::json::Value;
use crate::kinds::Card;
use crate::model::card::{check_series_count, expected, series_points, Points};
use crate::model::rules::series_name;
use crate::model::{DataError, DataShape, Series};

pub(crate) fn read(shape: &DataShape) -> Result<Card, DataError> {
    check_series_count(shape)?;
    read_series(&series_points(shape))
}

fn read_series(series: &[(String, Points<'_>)]) -> Result<Card, DataError> {
    let mut out = Vec::with_capacity(series.len());
    for (s, (name, points)) in series.iter().enumerate() {
        let mut xy = Series {
            name: series_name(name, s),
            ..Series::default()
        };
        for point in points {
            let x = match point.raw("x") {
                Some(Value::String(text)) => crate::number_text::parse_f64(text.trim())
                    .filter(|n| n.is_finite())
                    .ok_or_else(|| {
                        expected(
                            point.loc.field("x"),
                            "a number",
                            &Value::String(text.clone()),
                        )
                    })?,
                _ => point.number_or_gap("x")?,
            };
            let y = point.number_or_gap("y")?;
            if !x.is_nan() && !y.is_nan() {
                xy.xs.push(x);
                xy.ys.push(y);
            }
        }
        xy.given = xy.xs.len();
        out.push(xy);
    }
    Ok(Card::Scatter(out))
}

/// The group's code, reached through `crate::kinds::code` (in the page,
/// once its chunk has loaded).
pub(crate) static CODE: super::GroupCode = super::GroupCode {
    read: |_, shape, _| read(shape),
    finish: super::kept,
    draw: |ctx, body, chart| {
        if let Card::Scatter(series) = &chart.card {
            layout::draw(ctx, body, series)
        }
    },
    summary: |chart, units| match &chart.card {
        Card::Scatter(series) => describe::summary(chart, series, units),
        _ => String::new(),
    },
    data_table: |chart, max_rows, f| match &chart.card {
        Card::Scatter(all) => describe::table(chart, all, max_rows, f),
        _ => super::no_table(),
    },
};
