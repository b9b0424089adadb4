//! Areas over time: one filled series (a running total, a share), or
//! several stacked into their total.

use serde_json::{json, Value};
use zdr_chart::model::CardKind;

use super::{distinct, line, of_kind, Intent, Suggestion, MAX_SERIES};
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
    if intent.cumulative {
        for series in series_mut(&mut card) {
            if !says(series_name(series), RUNNING_NAMES) {
                accumulate(series);
                summed = true;
            }
        }
    }
    let title = if summed {
        format!("Cumulative {}", super::lower_first(&card.title))
    } else {
        card.title.clone()
    };
    let description = if summed {
        format!("A running total of {}, summed per date.", card.title)
    } else {
        format!("An area of {}, summed per date.", card.title)
    };
    Some(retyped(card, CardKind::AreaTimeseries, title, description))
}

/// Whether the line in `card` is better as an area: a single series that
/// is a running total or a share by its name or the query, or that never
/// falls.
pub(super) fn fits_area(card: &Suggestion, intent: &Intent) -> bool {
    let series = card.visualization_data["data"]["series"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let [one] = series else {
        return false;
    };
    intent.cumulative || says(series_name(one), FILLED_NAMES) || rising(one)
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
    let series = card.visualization_data["data"]["series"].as_array()?;
    let negative = series
        .iter()
        .flat_map(points)
        .any(|p| p["y"].as_f64().is_some_and(|y| y < 0.0));
    if series.len() < 2 || negative {
        return None;
    }
    let title = card.title.clone();
    let description = format!("{title}, stacked: each date's top is the total of its series.");
    Some(retyped(
        card,
        CardKind::StackedAreaTimeseries,
        title,
        description,
    ))
}

/// `card` as another type of the same data.
fn retyped(mut card: Suggestion, kind: CardKind, title: String, description: String) -> Suggestion {
    card.visualization_data["viz_config"]["viz_component_type"] = json!(kind.as_str());
    card.visualization_data["viz_config"]["title"] = json!(title);
    Suggestion {
        kind,
        title,
        description,
        ..card
    }
}

fn series_mut(card: &mut Suggestion) -> impl Iterator<Item = &mut Value> {
    card.visualization_data
        .get_mut("data")
        .and_then(|d| d.get_mut("series"))
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

fn series_name(series: &Value) -> &str {
    series["name"].as_str().unwrap_or_default()
}

fn points(series: &Value) -> impl Iterator<Item = &Value> {
    series["points"].as_array().into_iter().flatten()
}

fn says(name: &str, words: &[&str]) -> bool {
    let name = name.to_lowercase().replace('_', " ");
    words.iter().any(|w| name.contains(w))
}

/// Never falling and rising somewhere, over a few dates or more.
fn rising(series: &Value) -> bool {
    let ys: Vec<f64> = points(series).filter_map(|p| p["y"].as_f64()).collect();
    ys.len() >= MIN_RISING_POINTS
        && ys.windows(2).all(|w| matches!(w, [a, b] if b >= a))
        && matches!((ys.first(), ys.last()), (Some(a), Some(b)) if b > a)
}

/// Each point's value becomes the sum of it and those before it.
fn accumulate(series: &mut Value) {
    let mut total = 0.0;
    let points = series.get_mut("points").and_then(Value::as_array_mut);
    for point in points.into_iter().flatten() {
        if let Some(y) = point["y"].as_f64() {
            total += y;
            point["y"] = json!(total);
        }
    }
}
