//! The dated kinds as `visualization_data` (the `serde` feature): a
//! timeseries or area_timeseries as its series, a stacked area as the
//! values it stacked.

use serde::Serializer;

use crate::model::write::{as_series, columns, names_of, series_data, DateForm, Field, Obj, Seq};
use crate::model::Stacked;
use crate::model::{DatePrecision, Series};

pub(crate) fn line<S: Serializer>(
    series: &[Series],
    precision: DatePrecision,
    epoch_ms: bool,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let form = DateForm::of(precision, epoch_ms);
    let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
    let points = |s: usize| {
        let (xs, ys) = columns(series, s);
        Seq(move || {
            xs.iter().zip(ys).map(move |(&x, &y)| {
                Obj([
                    ("x", Some(Field::Date(x, form))),
                    ("y", Some(Field::Number(y))),
                ])
            })
        })
    };
    series_data(&names, points, serializer)
}

/// Every series on every date, a date it lacked holding the zero the stack
/// gave it: read back and stacked, the same stack.
pub(crate) fn stacked<S: Serializer>(
    stacked: &Stacked,
    epoch_ms: bool,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let form = DateForm::of(stacked.precision, epoch_ms);
    let points = |s: usize| {
        let values = stacked.series.get(s).map_or(&[][..], |one| &one.values[..]);
        Seq(move || {
            stacked.dates.iter().zip(values).map(move |(&x, &y)| {
                Obj([
                    ("x", Some(Field::Date(x, form))),
                    ("y", Some(Field::Number(y))),
                ])
            })
        })
    };
    // Always as series: a single series named "Value" reads back so too.
    as_series(&names_of(&stacked.series), points, serializer)
}
