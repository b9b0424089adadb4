//! A map or bubble_map as `visualization_data` (the `serde` feature): each
//! place as its latitude and longitude or its region's code.

use serde::ser::{Serialize, Serializer};

use crate::model::write::{as_series, over, series_within, Field, Obj, Seq};
use crate::model::DataError;
use crate::model::{At, Places, MAX_PLACES};

pub(crate) fn within_limits(places: &Places) -> Result<(), DataError> {
    series_within(places.series.len())?;
    if places.places.len() > MAX_PLACES {
        return over(format!(
            "a map of {} places; at most {MAX_PLACES} can be told apart",
            places.places.len()
        ));
    }
    Ok(())
}

pub(crate) fn write<S: Serializer>(places: &Places, serializer: S) -> Result<S::Ok, S::Error> {
    let points = |s: usize| {
        Seq(move || {
            places
                .places
                .iter()
                .filter(move |p| p.series == s)
                .map(|place| {
                    let (lat, lon, region) = match &place.at {
                        At::LatLon(lat, lon) => (Some(*lat), Some(*lon), None),
                        At::Region(code) => (None, None, Some(code.as_str())),
                    };
                    Obj([
                        ("lat", lat.map(Field::Number)),
                        ("lon", lon.map(Field::Number)),
                        ("x", region.map(Field::Text)),
                        ("label", place.label.as_deref().map(Field::Text)),
                        (
                            "value",
                            Some(place.value)
                                .filter(|v| v.is_finite())
                                .map(Field::Number),
                        ),
                    ])
                })
        })
    };
    if places.series.len() <= 1 {
        // One series is unnamed whatever it was called.
        return points(0).serialize(serializer);
    }
    let names: Vec<&str> = places.series.iter().map(String::as_str).collect();
    as_series(&names, points, serializer)
}
