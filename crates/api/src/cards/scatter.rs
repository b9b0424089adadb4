//! scatter: points at two values.

use zdr_chart::model::{Card, Series};

/// One series of `(x, y)`; a point without both is left out.
pub(crate) fn scatter(points: Vec<(f64, f64)>) -> Card {
    scatter_groups(vec![(String::new(), points)])
}

/// A series of `(x, y)` per group, each its own colour ("colored by
/// league"); a point without both is left out.
pub(crate) fn scatter_groups(groups: Vec<(String, Vec<(f64, f64)>)>) -> Card {
    let series = groups
        .into_iter()
        .enumerate()
        .map(|(at, (name, points))| {
            let (xs, ys): (Vec<f64>, Vec<f64>) = points
                .into_iter()
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .map(|(x, y)| (super::value(x), super::value(y)))
                .unzip();
            Series {
                name: super::series_name(name, at),
                given: xs.len(),
                xs,
                ys,
            }
        })
        .collect();
    Card::Scatter(series)
}
