//! top_level_metric: a headline number and the series it ends.

use zdr_chart::model::{Card, Metric, When};

/// A point of a metric: its x, a date's text or a label (none for a value
/// of no date), and its value.
pub(crate) type MetricPoint = (Option<String>, f64);

/// The last value of `points` is the headline, compared with the one
/// before.
pub(crate) fn metric(points: Vec<MetricPoint>) -> Card {
    Card::Metric(Metric::of(
        points
            .into_iter()
            .map(|(x, y)| (x.as_deref().map(When::of), super::value(y)))
            .collect(),
    ))
}
