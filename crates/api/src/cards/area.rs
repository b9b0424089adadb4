//! area_timeseries and stacked_area_timeseries: lines filled, one alone
//! (a running total, a share) or several stacked into their total.

use zdr_chart::model::{Card, CardKind, Series};

use super::Suggestion;

/// A series of a line as its running total: every value the sum of it and
/// those before it (a missing value stays missing and adds nothing).
pub(crate) fn running(series: &mut Series) {
    let mut total = 0.0;
    for y in series.ys.iter_mut().filter(|y| y.is_finite()) {
        total += *y;
        *y = total;
    }
}

/// The one rule of a stacked area: a line of two series or more (one
/// stacks into nothing) whose values are zero or more (the engine's stack
/// refuses any below); `None` when it is not one.
pub(crate) fn stacked(line: &Suggestion, title: String, description: String) -> Option<Suggestion> {
    let several = matches!(&line.chart.card, Card::Timeseries { series, .. } if series.len() >= 2);
    if !several {
        return None;
    }
    let kind = CardKind::StackedAreaTimeseries;
    line.clone().retyped(kind, title, description).ok()
}
