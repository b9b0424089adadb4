//! A scatter plot as `visualization_data` (the `serde` feature).

use serde::Serializer;

use crate::model::write::{columns, series_data, Field, Obj, Seq};
use crate::model::Series;

pub(crate) fn write<S: Serializer>(series: &[Series], serializer: S) -> Result<S::Ok, S::Error> {
    let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
    let points = |s: usize| {
        let (xs, ys) = columns(series, s);
        Seq(move || {
            xs.iter()
                .zip(ys)
                .map(|(&x, &y)| Obj([("x", Some(Field::Number(x))), ("y", Some(Field::Number(y)))]))
        })
    };
    series_data(&names, points, serializer)
}
