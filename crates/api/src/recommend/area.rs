//! Areas over time: one filled series (a running total, a share), or
//! several stacked into their total.

use zdr_chart::model::{Card, CardKind, Series};

use super::{distinct, line, of_kind, Intent, Suggestion, MAX_SERIES};
use crate::cards;
use crate::table::{Column, Kind, Table};

/// Words of a measure's name that make it a running total or a share:
/// its area from zero means something.
const FILLED_NAMES: &[&str] = &[
    "cumul", "running", "total", "share", "percent", "pct", "to date",
];

/// Words of a measure's name that say it is summed up already.
const RUNNING_NAMES: &[&str] = &["cumul", "running", "total", "to date"];

/// A series gives a card its area when it runs at least this long.
const MIN_RISING_POINTS: usize = 3;

/// The line of [`line`], filled; a running total of it when the query
/// asks for one and the measure is not one already.
pub(super) fn area(
    table: &Table,
    time: &Column,
    intent: &Intent,
    dark: bool,
) -> Option<Suggestion> {
    let mut card = line(table, time, intent, dark)?;
    let mut summed = false;
    if let (true, Card::Timeseries { series, .. }) = (intent.cumulative, &mut card.chart.card) {
        // A measure summed up already stays as it is.
        for one in series.iter_mut().filter(|s| !says(&s.name, RUNNING_NAMES)) {
            cards::running(one);
            summed = true;
        }
    }
    let title = card.title().to_owned();
    let (title, description) = if summed {
        (
            format!("Cumulative {}", super::lower_first(&title)),
            format!("A running total of {title}, summed per date."),
        )
    } else {
        (
            title.clone(),
            format!("An area of {title}, summed per date."),
        )
    };
    card.retyped(CardKind::AreaTimeseries, title, description)
        .ok()
}

/// Whether the line in `card` is better as an area: a single series that
/// is a running total or a share by its name or the query, or that never
/// falls.
pub(super) fn fits_area(card: &Suggestion, intent: &Intent) -> bool {
    let [one] = lines(card) else {
        return false;
    };
    intent.cumulative || says(&one.name, FILLED_NAMES) || rising(one)
}

/// Several series of values of zero or more, stacked into their total:
/// several measures, or one split by a category of 2 to 10 values.
pub(super) fn stacked(
    table: &Table,
    time: &Column,
    intent: &Intent,
    dark: bool,
) -> Option<Suggestion> {
    let measures = of_kind(table, Kind::Number, intent);
    let split = of_kind(table, Kind::Category, intent)
        .first()
        .is_some_and(|c| (2..=MAX_SERIES).contains(&distinct(c)));
    if measures.len() < 2 && !split {
        return None;
    }
    let card = line(table, time, intent, dark)?;
    let title = card.title().to_owned();
    let description = format!("{title}, stacked: each date's top is the total of its series.");
    cards::stacked(&card, title, description)
}

/// The series of a line card.
fn lines(card: &Suggestion) -> &[Series] {
    match &card.chart.card {
        Card::Timeseries { series, .. } => series,
        _ => &[],
    }
}

fn says(name: &str, words: &[&str]) -> bool {
    let name = name.to_lowercase().replace('_', " ");
    words.iter().any(|w| name.contains(w))
}

/// Never falling and rising somewhere, over a few dates or more.
fn rising(series: &Series) -> bool {
    let ys: Vec<f64> = series
        .ys
        .iter()
        .copied()
        .filter(|y| y.is_finite())
        .collect();
    ys.len() >= MIN_RISING_POINTS
        && ys.windows(2).all(|w| matches!(w, [a, b] if b >= a))
        && matches!((ys.first(), ys.last()), (Some(a), Some(b)) if b > a)
}
