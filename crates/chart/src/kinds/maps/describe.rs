//! Maps in words. A choropleth: its regions, the span of their values and
//! the highest; as a table, Region | Value (region names where the atlas
//! knows them). A map of places: its series, places and values; as a table,
//! [Series |] Place [| Latitude | Longitude] [| Value].

use crate::describe::cells::Cells;
use crate::describe::summary::{counted, join, list, short, span};
use crate::describe::table::{build, value_name};
use crate::describe::DataTable;
use crate::label;
use crate::model::chart::Chart;
use crate::model::Categorical;
use crate::model::{At, Places};
use crate::shown::finite_range;

pub(crate) fn choropleth_summary(c: &Categorical, units: Option<&str>) -> String {
    let values = || c.series.iter().flat_map(|s| s.values.iter().copied());
    let names = region_names(c);
    let (lo, hi) = finite_range(values());
    let highest = c.series.first().and_then(|s| {
        s.values
            .iter()
            .zip(&names)
            .filter(|(v, _)| v.is_finite())
            .max_by(|a, b| a.0.total_cmp(b.0))
            .map(|(v, name)| format!("highest {} ({})", short(name), label::value(*v, units)))
    });
    join([
        Some(counted(c.categories.len(), "region", "regions")),
        span("values", lo, hi, units),
        highest,
    ])
}

pub(crate) fn choropleth_table(
    chart: &Chart,
    c: &Categorical,
    max_rows: usize,
    f: Cells<'_>,
) -> DataTable {
    let first = c.series.first().map(|s| s.values.as_slice()).unwrap_or(&[]);
    let value_at = |i: usize| first.get(i).copied().unwrap_or(f64::NAN);
    let n = c.categories.len();
    let columns = vec!["Region".into(), value_name(chart, c)];
    let names = region_names(c);
    let mut rows = names
        .into_iter()
        .enumerate()
        .map(|(i, name)| vec![name, f.value(value_at(i))]);
    build(columns, max_rows, n, &mut || rows.next())
}

pub(crate) fn places_summary(p: &Places, units: Option<&str>) -> String {
    let names = p.places.iter().filter_map(|place| place.label.as_deref());
    let labelled = p
        .places
        .iter()
        .filter(|place| place.label.is_some())
        .count();
    let (lo, hi) = finite_range(p.places.iter().map(|place| place.value));
    join([
        (p.series.len() > 1).then(|| {
            format!(
                "{} ({})",
                counted(p.series.len(), "series", "series"),
                list(p.series.iter().map(String::as_str), p.series.len())
            )
        }),
        Some(if labelled > 0 {
            format!(
                "{} ({})",
                counted(p.places.len(), "place", "places"),
                list(names, labelled)
            )
        } else {
            counted(p.places.len(), "place", "places")
        }),
        span("values", lo, hi, units),
    ])
}

pub(crate) fn places_table(p: &Places, y_name: String, max_rows: usize, f: Cells<'_>) -> DataTable {
    let several = p.series.len() > 1;
    let located = p
        .places
        .iter()
        .any(|place| matches!(place.at, At::LatLon(..)));
    let valued = p.bubbles || p.places.iter().any(|place| place.value.is_finite());
    let mut columns = Vec::with_capacity(5);
    if several {
        columns.push("Series".to_string());
    }
    columns.push("Place".into());
    if located {
        columns.extend(["Latitude".to_string(), "Longitude".into()]);
    }
    if valued {
        columns.push(y_name);
    }
    let mut rows = p.places.iter().map(|place| {
        let mut row = Vec::with_capacity(5);
        if several {
            row.push(p.series.get(place.series).cloned().unwrap_or_default());
        }
        let (name, lat_lon) = match &place.at {
            At::LatLon(lat, lon) => (None, Some((*lat, *lon))),
            At::Region(code) => (Some(code.clone()), None),
        };
        row.push(place.label.clone().or(name).unwrap_or_default());
        if located {
            let (lat, lon) = lat_lon.map_or((String::new(), String::new()), |(lat, lon)| {
                (f.degrees(lat, 'N', 'S'), f.degrees(lon, 'E', 'W'))
            });
            row.extend([lat, lon]);
        }
        if valued {
            row.push(f.value(place.value));
        }
        row
    });
    build(columns, max_rows, p.places.len(), &mut || rows.next())
}

/// Display names of a map's regions, in category order: the atlas name
/// when a code matches a region, else the code as written.
#[cfg(feature = "geo")]
pub(crate) fn region_names(c: &Categorical) -> Vec<String> {
    use crate::geo::{atlas, guess_atlas};
    let map = atlas(guess_atlas(&c.categories));
    c.categories
        .iter()
        .map(|code| {
            map.lookup(code)
                .map_or_else(|| code.clone(), |r| r.name.clone())
        })
        .collect()
}

#[cfg(not(feature = "geo"))]
pub(crate) fn region_names(c: &Categorical) -> Vec<String> {
    c.categories.clone()
}
