//! top_level_metric: the headline number, the value before it, and the
//! short series they end.

pub(crate) mod describe;
pub(crate) mod layout;
#[cfg(feature = "serde")]
pub(crate) mod write;

use crate::json::Value;
use crate::model::card::{error, series_points, PointRef};
use crate::model::rules::{date_of, Field};
use crate::model::{DataError, DataShape};
use crate::model::{Metric, When, MAX_METRIC_POINTS};

pub(crate) fn read(shape: &DataShape) -> Result<crate::kinds::Card, DataError> {
    let series = series_points(shape);
    if series.len() > 1 {
        let path = match shape {
            DataShape::Table { .. } => "data.columns",
            _ => "data.series",
        };
        return Err(error(
            path.into(),
            format!(
                "a top_level_metric shows one series; found {} (draw them as a timeseries)",
                series.len()
            ),
        ));
    }
    let Some((_, points)) = series.first() else {
        return Ok(crate::kinds::Card::Metric(empty()));
    };
    if points.len() > MAX_METRIC_POINTS {
        return Err(error(
            "data".into(),
            format!(
                "a top_level_metric of {} points; at most {MAX_METRIC_POINTS} make its sparkline",
                points.len()
            ),
        ));
    }
    let mut rows: Vec<(Option<When>, f64, Option<f64>)> = Vec::with_capacity(points.len());
    for point in points {
        let y = match point.raw("y") {
            Some(_) => point.number_or_gap("y")?,
            None => point.number_or_gap("value")?,
        };
        let previous = point.number_or_gap("previous")?;
        rows.push((when(&point)?, y, previous.is_finite().then_some(previous)));
    }
    // Dates are put in order; labels are taken in the order given.
    if rows
        .iter()
        .all(|(at, ..)| matches!(at, Some(When::Date(..))))
    {
        let keys: Vec<f64> = rows
            .iter()
            .map(|(at, ..)| match at {
                Some(When::Date(seconds, _)) => *seconds,
                _ => 0.0,
            })
            .collect();
        rows = crate::order::rearranged(&rows, &crate::order::ranked(&keys, false));
    }
    let last = rows.iter().rposition(|(_, y, _)| y.is_finite());
    let points = rows.iter().map(|(at, y, _)| (at.clone(), *y)).collect();
    let Some(last) = last else {
        return Ok(crate::kinds::Card::Metric(Metric { points, ..empty() }));
    };
    let before = rows
        .get(..last)
        .and_then(|rows| rows.iter().rposition(|(_, y, _)| y.is_finite()));
    let (at, value, given_previous) = rows.get(last).cloned().unwrap_or((None, f64::NAN, None));
    let (previous, previous_at) = match (given_previous, before.and_then(|b| rows.get(b))) {
        (Some(previous), _) => (Some(previous), None),
        (None, Some((when, y, _))) => (Some(*y), when.clone()),
        (None, None) => (None, None),
    };
    Ok(crate::kinds::Card::Metric(Metric {
        value,
        previous,
        at,
        previous_at,
        points,
    }))
}

fn empty() -> Metric {
    Metric {
        value: f64::NAN,
        previous: None,
        at: None,
        previous_at: None,
        points: Vec::new(),
    }
}

/// The point's x: a date when it reads as one, else its text.
fn when(point: &PointRef<'_>) -> Result<Option<When>, DataError> {
    Ok(match point.get("x") {
        None => None,
        Some(Value::String(text)) => {
            Some(match date_of(Field::Text(text.as_str().into()), false) {
                Some((seconds, precision)) => When::Date(seconds, precision),
                None => When::Label(text.clone()),
            })
        }
        Some(value) => Some(When::Label(crate::model::card::label(value).ok_or_else(
            || crate::model::card::expected(point.loc.field("x"), "a date or a label", value),
        )?)),
    })
}

/// The group's code, reached through `crate::kinds::code` (in the page,
/// once its chunk has loaded).
pub(crate) static CODE: super::GroupCode = super::GroupCode {
    read: |_, shape, _| read(shape),
    finish: super::kept,
    draw: |ctx, body, chart| {
        if let crate::kinds::Card::Metric(m) = &chart.card {
            layout::draw(ctx, body, m)
        }
    },
    summary: |chart, units| match &chart.card {
        crate::kinds::Card::Metric(m) => describe::summary(m, units),
        _ => String::new(),
    },
    data_table: |chart, max_rows, f| {
        use crate::describe::table::{x_name, y_name};
        match &chart.card {
            crate::kinds::Card::Metric(m) => {
                let names = (x_name(chart, "When"), y_name(chart, "Value"));
                describe::table(m, names, max_rows, f)
            }
            _ => super::no_table(),
        }
    },
};
