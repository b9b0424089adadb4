//! A top_level_metric as `visualization_data` (the `serde` feature), and
//! its points as the reader makes them, for a metric built rather than
//! read.

use serde::Serializer;

use super::{Metric, When, MAX_METRIC_POINTS};
use crate::model::write::{over, DateForm, Field, Obj};
use crate::model::{parse_date, DataError};

impl When {
    /// An x as a top_level_metric reads it: a date when it is one, else
    /// a label.
    pub fn of(text: &str) -> When {
        match parse_date(text) {
            Some((seconds, precision)) => When::Date(seconds, precision),
            None => When::Label(text.to_owned()),
        }
    }
}

impl Metric {
    /// The metric of `points` as the reader makes it of the same points:
    /// dated points put in date order, the headline the last value, and
    /// compared with the value before it.
    pub fn of(mut points: Vec<(Option<When>, f64)>) -> Metric {
        let key = |at: &Option<When>| match at {
            Some(When::Date(seconds, _)) => Some(*seconds),
            _ => None,
        };
        if points.iter().all(|(at, _)| key(at).is_some()) {
            // Stable, as the reader's order.
            points.sort_by(|a, b| {
                key(&a.0)
                    .unwrap_or(0.0)
                    .total_cmp(&key(&b.0).unwrap_or(0.0))
            });
        }
        let last = points.iter().rposition(|(_, y)| y.is_finite());
        let before = last.and_then(|last| {
            points
                .get(..last)
                .and_then(|p| p.iter().rposition(|(_, y)| y.is_finite()))
        });
        let (at, value) = last
            .and_then(|i| points.get(i).cloned())
            .unwrap_or((None, f64::NAN));
        let (previous_at, previous) = match before.and_then(|i| points.get(i)) {
            Some((when, y)) => (when.clone(), Some(*y)),
            None => (None, None),
        };
        Metric {
            value,
            previous,
            at,
            previous_at,
            points,
        }
    }
}

pub(crate) fn within_limits(metric: &Metric) -> Result<(), DataError> {
    if metric.points.len() > MAX_METRIC_POINTS {
        return over(format!(
            "a top_level_metric of {} points; at most {MAX_METRIC_POINTS} make its sparkline",
            metric.points.len()
        ));
    }
    Ok(())
}

/// The points in order; the value compared with is written on the last
/// point with a value when it was given rather than the value before.
pub(crate) fn write<S: Serializer>(metric: &Metric, serializer: S) -> Result<S::Ok, S::Error> {
    let last = metric.points.iter().rposition(|(_, y)| y.is_finite());
    let given = metric.previous.filter(|_| metric.previous_at.is_none());
    serializer.collect_seq(metric.points.iter().enumerate().map(|(i, (at, y))| {
        let x = at.as_ref().map(|at| match at {
            When::Date(seconds, precision) => Field::Date(*seconds, DateForm::Text(*precision)),
            When::Label(label) => Field::Label(label),
        });
        Obj([
            ("x", x),
            ("y", Some(Field::Number(*y))),
            (
                "previous",
                given.filter(|_| Some(i) == last).map(Field::Number),
            ),
        ])
    }))
}
