//! map and bubble_map: places at latitude/longitude, or (bubbles) at the
//! centre of a region named by the codes a choropleth reads.

use crate::json::Value;
use crate::model::card::{error, series_points, PointRef, Points, NULL};
use crate::model::rules::series_name;
use crate::model::{At, Place, Places, MAX_PLACES};
use crate::model::{CardKind, DataError, DataShape};

pub(crate) fn read(kind: CardKind, shape: &DataShape) -> Result<crate::kinds::Card, DataError> {
    let bubbles = kind == CardKind::BubbleMap;
    let mut out = Places {
        bubbles,
        series: Vec::new(),
        places: Vec::new(),
    };
    match shape {
        DataShape::Table { columns, rows } => {
            let find = |names: &[&str]| {
                columns
                    .iter()
                    .position(|c| names.iter().any(|n| c.eq_ignore_ascii_case(n)))
            };
            let lat = find(&["lat", "latitude"]);
            let lon = find(&["lon", "lng", "long", "longitude"]);
            let label = find(&["label", "name", "place", "city"]);
            let value = find(&["value", "y", "size"]);
            let region = find(&["region", "code", "x", "country", "state"]);
            let missing = || {
                error(
                    "data.columns".into(),
                    "a map table needs \"lat\" and \"lon\" columns (a bubble map: \"lat\", \"lon\" and \"value\", or \"region\" and \"value\")",
                )
            };
            if bubbles && value.is_none() {
                return Err(missing());
            }
            if (lat.is_none() || lon.is_none()) && !(bubbles && region.is_some()) {
                return Err(missing());
            }
            out.series.push(String::new());
            for (r, row) in rows.iter().enumerate() {
                let cell = |at: Option<usize>| at.and_then(|at| row.get(at)).unwrap_or(&NULL);
                let path = |at: Option<usize>| format!("data.rows[{r}][{}]", at.unwrap_or(0));
                let fields = Fields {
                    lat: cell(lat),
                    lon: cell(lon),
                    label: cell(label),
                    value: cell(value),
                    region: cell(region),
                };
                let paths = [path(lat), path(lon), path(label), path(value), path(region)];
                if let Some(place) = place(bubbles, &fields, &|field| paths[field].clone())? {
                    push(&mut out, place)?;
                }
            }
        }
        _ => {
            crate::model::card::check_series_count(shape)?;
            for (s, (name, points)) in series_points(shape).into_iter().enumerate() {
                out.series.push(series_name(&name, s));
                read_points(&mut out, points, s)?;
            }
            if out.series.len() == 1 {
                out.series = vec![String::new()];
            }
        }
    }
    Ok(crate::kinds::Card::Places(out))
}

fn push(out: &mut Places, place: Place) -> Result<(), DataError> {
    if out.places.len() == MAX_PLACES {
        return Err(error(
            "data".into(),
            format!(
                "a map of more than {MAX_PLACES} places; at most {MAX_PLACES} can be told apart"
            ),
        ));
    }
    out.places.push(place);
    Ok(())
}

fn read_points(out: &mut Places, points: Points<'_>, series: usize) -> Result<(), DataError> {
    for point in points {
        let fields = Fields {
            lat: point.raw("lat").unwrap_or(&NULL),
            lon: point.raw("lon").unwrap_or(&NULL),
            label: point.raw("label").unwrap_or(&NULL),
            value: point
                .raw("value")
                .or_else(|| point.raw("y"))
                .unwrap_or(&NULL),
            region: point.raw("x").unwrap_or(&NULL),
        };
        let value_key = if point.raw("value").is_some() {
            "value"
        } else {
            "y"
        };
        let keys = ["lat", "lon", "label", value_key, "x"];
        let path = |field: usize| field_path(&point, keys[field]);
        if let Some(mut place) = place(out.bubbles, &fields, &path)? {
            place.series = series;
            push(out, place)?;
        }
    }
    Ok(())
}

fn field_path(point: &PointRef<'_>, key: &str) -> String {
    point.loc.field(key)
}

/// A point's fields, as given (null when absent).
struct Fields<'a> {
    lat: &'a Value,
    lon: &'a Value,
    label: &'a Value,
    value: &'a Value,
    region: &'a Value,
}

const LAT: usize = 0;
const LON: usize = 1;
const LABEL: usize = 2;
const VALUE: usize = 3;
const REGION: usize = 4;

/// One place, or `None` for a bubble without a value (nothing to size).
fn place(
    bubbles: bool,
    fields: &Fields<'_>,
    path: &dyn Fn(usize) -> String,
) -> Result<Option<Place>, DataError> {
    let value = match fields.value {
        Value::Null => f64::NAN,
        other => crate::model::card::number(other)
            .ok_or_else(|| crate::model::card::expected(path(VALUE), "a number", other))?,
    };
    if bubbles && value < 0.0 {
        return Err(error(
            path(VALUE),
            "a bubble's value is its area and cannot be negative",
        ));
    }
    let label = match fields.label {
        Value::Null => None,
        other => Some(
            crate::model::card::label(other)
                .ok_or_else(|| crate::model::card::expected(path(LABEL), "a label", other))?,
        ),
    };
    let at = match (fields.lat, fields.lon) {
        (Value::Null, Value::Null) if bubbles && !fields.region.is_null() => {
            At::Region(crate::model::card::label(fields.region).ok_or_else(|| {
                crate::model::card::expected(
                    path(REGION),
                    "a region code such as \"FR\" or \"CA\"",
                    fields.region,
                )
            })?)
        }
        (lat, lon) => At::LatLon(
            degrees(lat, 90, &path(LAT), "a latitude")?,
            degrees(lon, 180, &path(LON), "a longitude")?,
        ),
    };
    if bubbles && value.is_nan() {
        return Ok(None);
    }
    Ok(Some(Place {
        at,
        label,
        value,
        series: 0,
    }))
}

/// `limit` is whole: an f64 in a message would bring float formatting
/// into the engine.
fn degrees(value: &Value, limit: u8, path: &str, what: &str) -> Result<f64, DataError> {
    if value.is_null() {
        return Err(error(path.to_owned(), "is required"));
    }
    match crate::model::card::number(value) {
        Some(n) if n.abs() <= f64::from(limit) => Ok(n),
        _ => Err(crate::model::card::expected(
            path.to_owned(),
            &format!("{what} in degrees, from -{limit} to {limit}"),
            value,
        )),
    }
}
