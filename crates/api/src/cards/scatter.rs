//! scatter: points at two values.

use zdr_chart::model::{Card, Series};

/// One series of `(x, y)`; a point without both is left out.
pub(crate) fn scatter(points: Vec<(f64, f64)>) -> Card {
    let (xs, ys): (Vec<f64>, Vec<f64>) = points
        .into_iter()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .map(|(x, y)| (super::value(x), super::value(y)))
        .unzip();
    Card::Scatter(vec![Series {
        name: super::series_name(String::new(), 0),
        given: xs.len(),
        xs,
        ys,
    }])
}
