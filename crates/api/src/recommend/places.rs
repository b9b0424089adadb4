//! Places on a map: points at latitude and longitude, and bubbles sized
//! by a measure there or at the centre of a country or US state.

use zdr_chart::model::{At, CardKind, Place, MAX_PLACES};

use super::{number, of_kind, sentence, sums, text, Intent, Suggestion};
use crate::cards::{self, About, Labels};
use crate::table::{Cell, Column, Kind, Table};

const LATITUDES: &[&str] = &["lat", "latitude"];
const LONGITUDES: &[&str] = &["lon", "lng", "long", "longitude"];

/// The table's latitude and longitude columns: named so, numbers, each
/// within its range of degrees.
pub(crate) fn coordinates(table: &Table) -> Option<(usize, usize)> {
    let find = |names: &[&str], limit: f64| {
        table.columns.iter().position(|c| {
            let name = c.name.trim().to_lowercase();
            c.kind == Kind::Number && names.contains(&name.as_str()) && within(c, limit)
        })
    };
    Some((find(LATITUDES, 90.0)?, find(LONGITUDES, 180.0)?))
}

fn within(column: &Column, limit: f64) -> bool {
    let mut any = false;
    for n in column.cells.iter().filter_map(number) {
        if !(-limit..=limit).contains(&n) {
            return false;
        }
        any = true;
    }
    any
}

/// Each row a point at its coordinates, labelled by the first category,
/// with the first measure as its value when there is one.
pub(super) fn map(table: &Table, intent: &Intent, dark: bool) -> Option<Suggestion> {
    let (lat, lon) = located(table)?;
    let label = of_kind(table, Kind::Category, intent).first().copied();
    let value = of_kind(table, Kind::Number, intent).first().copied();
    let points = points(lat, lon, label, value, false)?;
    let what = label.map_or("Places", |l| l.name.as_str());
    let title = sentence(what);
    let description = format!("Each row at its {} and {}.", lat.name, lon.name);
    let about = About {
        kind: CardKind::Map,
        title,
        description,
        confidence: "medium",
        dark,
    };
    Suggestion::new(about, Labels::none(), cards::places(false, points)).ok()
}

/// Bubbles of a measure of zero or more: at each row's coordinates, else
/// the sum per place of a column of countries or US states.
pub(super) fn bubbles(table: &Table, intent: &Intent, dark: bool) -> Option<Suggestion> {
    let measure = *of_kind(table, Kind::Number, intent).first()?;
    if let Some((lat, lon)) = located(table) {
        let label = of_kind(table, Kind::Category, intent).first().copied();
        let points = points(lat, lon, label, Some(measure), true)?;
        let title = sentence(&format!(
            "{} by {}",
            measure.name,
            label.map_or("place", |l| l.name.as_str())
        ));
        let description = format!(
            "Each row as a bubble at its {} and {}, its area the {}.",
            lat.name, lon.name, measure.name
        );
        let about = About {
            kind: CardKind::BubbleMap,
            title,
            description,
            confidence: "medium",
            dark,
        };
        return Suggestion::new(about, Labels::none(), cards::places(true, points)).ok();
    }
    let place = *of_kind(table, Kind::Place, intent).first()?;
    let sums = sums(place, measure);
    if sums.is_empty() || sums.len() > MAX_PLACES || sums.iter().any(|s| s.1 < 0.0) {
        return None;
    }
    let points: Vec<Place> = sums
        .into_iter()
        .map(|(x, y)| Place {
            at: At::Region(x),
            label: None,
            value: y,
            series: 0,
        })
        .collect();
    let title = sentence(&format!("{} by {}", measure.name, place.name));
    let description = format!(
        "The total {} per {}, a bubble at the centre of each.",
        measure.name, place.name
    );
    let about = About {
        kind: CardKind::BubbleMap,
        title,
        description,
        confidence: "medium",
        dark,
    };
    Suggestion::new(about, Labels::none(), cards::places(true, points)).ok()
}

fn located(table: &Table) -> Option<(&Column, &Column)> {
    let (lat, lon) = coordinates(table)?;
    Some((table.columns.get(lat)?, table.columns.get(lon)?))
}

/// The rows with both coordinates (and, for bubbles, a value) as points;
/// `None` when none has, a bubble's value is below zero, or there are
/// more than the engine tells apart.
fn points(
    lat: &Column,
    lon: &Column,
    label: Option<&Column>,
    value: Option<&Column>,
    bubbles: bool,
) -> Option<Vec<Place>> {
    let mut out = Vec::new();
    for (r, (a, o)) in lat.cells.iter().zip(&lon.cells).enumerate() {
        let (Some(a), Some(o)) = (number(a), number(o)) else {
            continue;
        };
        let v = value.and_then(|c| c.cells.get(r)).and_then(number);
        if bubbles && v.is_none() {
            continue;
        }
        if bubbles && v.is_some_and(|v| v < 0.0) {
            return None;
        }
        out.push(Place {
            at: At::LatLon(a, o),
            label: label.and_then(|c| c.cells.get(r)).and_then(label_text),
            value: v.unwrap_or(f64::NAN),
            series: 0,
        });
        if out.len() > MAX_PLACES {
            return None;
        }
    }
    (!out.is_empty()).then_some(out)
}

fn label_text(cell: &Cell) -> Option<String> {
    text(cell).map(str::to_owned)
}
