//! histogram: the values of one measure, binned by the engine.

use zdr_chart::model::Card;

pub(crate) fn histogram(values: Vec<f64>) -> Card {
    Card::Histogram(
        values
            .into_iter()
            .filter(|v| v.is_finite())
            .map(super::value)
            .collect(),
    )
}
