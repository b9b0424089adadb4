//! The data of a card as a table of text (see [`super::DataTable`]).

use super::cells::Cells;
use super::DataTable;
use crate::chart::Chart;
use crate::label;
use crate::model::{
    At, Card, CardKind, Categorical, DatePrecision, Metric, NamedValues, Places, Series, Stacked,
    Treemap, VizConfig,
};
use crate::shown::bins;
use crate::view::View;

/// Bins of the histogram's table: as many as the chart draws on any card
/// wider than about 240 px (a bin is at least 8 px there).
pub const HISTOGRAM_BINS: usize = crate::shown::MAX_BINS;

/// The table of the first `max_rows` of `rows`, each padded to the
/// columns. `rows` is lazy, so a million points cost only the rows asked for;
/// `next` is a `dyn FnMut`, so the module holds one copy of this for all
/// nine card shapes (a `dyn Iterator` would bring every iterator's `nth` and
/// `advance_by` along in its vtable).
fn build(
    columns: Vec<String>,
    max_rows: usize,
    total_rows: usize,
    next: &mut dyn FnMut() -> Option<Vec<String>>,
) -> DataTable {
    let width = columns.len();
    let mut kept = Vec::new();
    while kept.len() < max_rows {
        let Some(mut row) = next() else { break };
        row.resize(width, String::new());
        kept.push(row);
    }
    let rows = kept;
    DataTable {
        columns,
        rows,
        total_rows,
    }
}

/// The table of `chart` as the reader's `view` shows it; `raw` writes it
/// for a program (see [`Cells`]).
pub fn data_table(chart: &Chart, max_rows: usize, (raw, view): (bool, &View)) -> DataTable {
    let config = &chart.config;
    let f = Cells::new(raw, label::units(config), view);
    let x_name = |fallback: &str| config.x_label.clone().unwrap_or_else(|| fallback.into());
    let y_name = |fallback: &str| config.y_label.clone().unwrap_or_else(|| fallback.into());
    match &chart.card {
        Card::Categorical(c) => categorical(chart, c, max_rows, f),
        Card::Timeseries { series, precision } => {
            let names = (x_name("Date"), y_name("Value"));
            timeseries(series, *precision, names, max_rows, (config, f))
        }
        Card::Scatter(all) => {
            let (x, y) = (x_name("x"), y_name("y"));
            let several = all.len() > 1;
            let series: Vec<&Series> = all.iter().filter(|s| f.shows(&s.name)).collect();
            let columns = if several {
                vec!["Series".into(), x, y]
            } else {
                vec![x, y]
            };
            let total = series.iter().map(|s| s.xs.len().min(s.ys.len())).sum();
            let mut rows = series.iter().flat_map(|s| {
                s.xs.iter().zip(&s.ys).map(move |(&x, &y)| {
                    let mut row = Vec::with_capacity(3);
                    if several {
                        row.push(s.name.clone());
                    }
                    row.push(f.number(x));
                    row.push(f.value(y));
                    row
                })
            });
            build(columns, max_rows, total, &mut || rows.next())
        }
        Card::Boxplot(boxes) => {
            let columns = [x_name("Group").as_str(), "Min", "Q1", "Median", "Q3", "Max"]
                .map(String::from)
                .to_vec();
            let mut rows = boxes.iter().map(|b| {
                let mut row = vec![b.label.clone()];
                row.extend([b.min, b.q1, b.median, b.q3, b.max].map(|v| f.value(v)));
                row
            });
            build(columns, max_rows, boxes.len(), &mut || rows.next())
        }
        Card::Heatmap { xs, ys, values } => {
            let columns = vec![x_name("x"), y_name("y"), "Value".into()];
            let mut rows = ys.iter().enumerate().flat_map(|(r, y)| {
                xs.iter().enumerate().map(move |(c, x)| {
                    let v = values.get(r * xs.len() + c).copied().unwrap_or(f64::NAN);
                    vec![x.clone(), y.clone(), f.value(v)]
                })
            });
            build(
                columns,
                max_rows,
                xs.len().saturating_mul(ys.len()),
                &mut || rows.next(),
            )
        }
        Card::Timeline { items, precision } => {
            let columns = ["Item", "Start", "End"].map(String::from).to_vec();
            let mut rows = items.iter().map(|i| {
                vec![
                    i.label.clone(),
                    f.date(i.start, *precision),
                    f.date(i.end, *precision),
                ]
            });
            build(columns, max_rows, items.len(), &mut || rows.next())
        }
        Card::Histogram(values) => {
            let (edges, counts) = bins(values, HISTOGRAM_BINS);
            let columns = vec![x_name("Bin"), y_name("Count")];
            let mut rows = counts.iter().enumerate().map(|(i, &n)| {
                let edge = |k: usize| edges.get(k).copied().unwrap_or(f64::NAN);
                vec![f.span(edge(i), edge(i + 1)), f.count(n)]
            });
            build(columns, max_rows, counts.len(), &mut || rows.next())
        }
        Card::Stacked(s) => stacked(s, x_name("Date"), max_rows, f),
        Card::Treemap(t) => treemap(t, (x_name("Category"), y_name("Value")), max_rows, f),
        Card::Metric(m) => metric(m, (x_name("When"), y_name("Value")), max_rows, f),
        Card::Places(p) => places(p, y_name("Value"), max_rows, f),
        Card::Table { columns, rows } => {
            let width = rows.iter().map(Vec::len).fold(columns.len(), usize::max);
            let mut columns = columns.clone();
            columns.resize(width, String::new());
            let mut cells = rows
                .iter()
                .map(|row| row.iter().map(|cell| f.cell(cell)).collect());
            build(columns, max_rows, rows.len(), &mut || cells.next())
        }
    }
}

fn categorical(chart: &Chart, c: &Categorical, max_rows: usize, f: Cells<'_>) -> DataTable {
    let config = &chart.config;
    let x_name = |fallback: &str| config.x_label.clone().unwrap_or_else(|| fallback.into());
    let first = c.series.first().map(|s| s.values.as_slice()).unwrap_or(&[]);
    let value_at = |i: usize| first.get(i).copied().unwrap_or(f64::NAN);
    let n = c.categories.len();
    match c.kind {
        CardKind::Pie => {
            let total: f64 = first.iter().filter(|v| v.is_finite() && **v > 0.0).sum();
            let columns = vec![x_name("Slice"), value_name(chart, c), "Share".into()];
            let mut rows = c.categories.iter().enumerate().map(|(i, name)| {
                let v = value_at(i);
                vec![name.clone(), f.value(v), f.share(v / total)]
            });
            build(columns, max_rows, n, &mut || rows.next())
        }
        CardKind::Waterfall => {
            let columns = vec![x_name("Step"), "Change".into(), "Running total".into()];
            let mut total = 0.0;
            let mut rows: Vec<Vec<String>> = Vec::with_capacity(max_rows.min(n + 1));
            for (i, name) in c.categories.iter().enumerate() {
                let v = value_at(i);
                total += if v.is_finite() { v } else { 0.0 };
                if rows.len() < max_rows {
                    rows.push(vec![name.clone(), f.change(v), f.value(total)]);
                }
            }
            rows.push(vec!["Total".into(), String::new(), f.value(total)]);
            build(columns, max_rows, n + 1, &mut {
                let mut rows = rows.into_iter();
                move || rows.next()
            })
        }
        CardKind::Choropleth => {
            let columns = vec!["Region".into(), value_name(chart, c)];
            let names = region_names(c);
            let mut rows = names
                .into_iter()
                .enumerate()
                .map(|(i, name)| vec![name, f.value(value_at(i))]);
            build(columns, max_rows, n, &mut || rows.next())
        }
        _ => {
            let mut columns = vec![x_name("Category")];
            let shown: Vec<&NamedValues> = c.series.iter().filter(|s| f.shows(&s.name)).collect();
            if c.series.len() == 1 {
                columns.push(value_name(chart, c));
            } else {
                columns.extend(shown.iter().map(|s| s.name.clone()));
            }
            let mut rows = c.categories.iter().enumerate().map(|(i, name)| {
                let mut row = Vec::with_capacity(shown.len() + 1);
                row.push(name.clone());
                row.extend(
                    shown
                        .iter()
                        .map(|s| f.value(s.values.get(i).copied().unwrap_or(f64::NAN))),
                );
                row
            });
            build(columns, max_rows, n, &mut || rows.next())
        }
    }
}

fn stacked(s: &Stacked, x_name: String, max_rows: usize, f: Cells<'_>) -> DataTable {
    // The layers shown, and the total of those alone, as the card stacks them.
    let layers: Vec<&NamedValues> = s.series.iter().filter(|one| f.shows(&one.name)).collect();
    let mut columns = vec![x_name];
    columns.extend(layers.iter().map(|one| one.name.clone()));
    columns.push("Total".into());
    let mut rows = s.dates.iter().enumerate().map(|(i, &x)| {
        let mut row = Vec::with_capacity(layers.len() + 2);
        row.push(f.date(x, s.precision));
        let total: f64 = layers.iter().filter_map(|one| one.values.get(i)).sum();
        row.extend(layers.iter().map(|one| {
            let v = one.values.get(i).copied().unwrap_or(0.0);
            if s.normalize && !f.is_raw() {
                format!("{} ({})", f.value(v), f.share(v / total))
            } else {
                f.value(v)
            }
        }));
        row.push(f.value(total));
        row
    });
    build(columns, max_rows, s.dates.len(), &mut || rows.next())
}

fn treemap(
    t: &Treemap,
    (x_name, y_name): (String, String),
    max_rows: usize,
    f: Cells<'_>,
) -> DataTable {
    let grouped = t.grouped();
    let mut columns = Vec::with_capacity(4);
    if grouped {
        columns.push("Group".to_string());
    }
    columns.extend([x_name, y_name, "Share".into()]);
    let total = t.total();
    let mut rows = t.leaves.iter().map(|leaf| {
        let mut row = Vec::with_capacity(4);
        if grouped {
            row.push(t.groups.get(leaf.group).cloned().unwrap_or_default());
        }
        row.push(leaf.label.clone());
        row.push(f.value(leaf.value));
        row.push(f.share(leaf.value / total));
        row
    });
    build(columns, max_rows, t.leaves.len(), &mut || rows.next())
}

fn metric(
    m: &Metric,
    (x_name, y_name): (String, String),
    max_rows: usize,
    f: Cells<'_>,
) -> DataTable {
    // A value with its own "previous": the comparison is the table.
    if m.points.len() < 2 {
        let mut columns = vec![y_name];
        let mut row = vec![f.value(m.value)];
        if let Some(previous) = m.previous {
            columns.extend(["Previous".to_string(), "Change".into()]);
            row.push(f.value(previous));
            let mut change = f.change(m.value - previous);
            if let Some(p) = label::percent_change(m.value, previous).filter(|_| !f.is_raw()) {
                change.push_str(&format!(" ({p})"));
            }
            row.push(change);
        }
        let mut rows = std::iter::once(row);
        return build(columns, max_rows, 1, &mut || rows.next());
    }
    let columns = vec![x_name, y_name];
    let mut rows = m.points.iter().map(|(at, v)| {
        vec![
            at.as_ref().map(|at| f.when(at)).unwrap_or_default(),
            f.value(*v),
        ]
    });
    build(columns, max_rows, m.points.len(), &mut || rows.next())
}

fn places(p: &Places, y_name: String, max_rows: usize, f: Cells<'_>) -> DataTable {
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

/// The header of a single value column: the y label, else the series name.
fn value_name(chart: &Chart, c: &Categorical) -> String {
    chart
        .config
        .y_label
        .clone()
        .or_else(|| c.series.first().map(|s| s.name.clone()))
        .unwrap_or_else(|| "Value".into())
}

fn timeseries(
    all: &[Series],
    precision: DatePrecision,
    (x_name, y_name): (String, String),
    max_rows: usize,
    (config, f): (&VizConfig, Cells<'_>),
) -> DataTable {
    // Each series in the units of the axis it reads against on the card.
    let right = crate::sides::right_flags(config, all);
    let units: Vec<Option<&str>> = all
        .iter()
        .enumerate()
        .filter(|(_, s)| f.shows(&s.name))
        .map(|(i, _)| match right.get(i) {
            Some(true) => label::right_units(config),
            _ => label::units(config),
        })
        .collect();
    let series: Vec<&Series> = all.iter().filter(|s| f.shows(&s.name)).collect();
    let units_of = |i: usize| units.get(i).copied().flatten();
    let Some(&first) = series.first() else {
        return build(vec![x_name], max_rows, 0, &mut || None);
    };
    // Bitwise equal dates: one row per date reads best (and copies nothing).
    let shared = series
        .iter()
        .all(|s| s.xs == first.xs && s.ys.len() == first.xs.len());
    if shared {
        let mut columns = vec![x_name];
        columns.extend(series.iter().map(|s| s.name.clone()));
        let mut rows = first.xs.iter().enumerate().map(|(i, &x)| {
            let mut row = Vec::with_capacity(series.len() + 1);
            row.push(f.date(x, precision));
            row.extend(series.iter().enumerate().map(|(s, one)| {
                f.with_units(units_of(s))
                    .value(one.ys.get(i).copied().unwrap_or(f64::NAN))
            }));
            row
        });
        return build(columns, max_rows, first.xs.len(), &mut || rows.next());
    }
    let columns = vec!["Series".into(), x_name, y_name];
    let total = series.iter().map(|s| s.xs.len().min(s.ys.len())).sum();
    let mut rows = series.iter().enumerate().flat_map(|(i, s)| {
        let f = f.with_units(units_of(i));
        s.xs.iter()
            .zip(&s.ys)
            .map(move |(&x, &y)| vec![s.name.clone(), f.date(x, precision), f.value(y)])
    });
    build(columns, max_rows, total, &mut || rows.next())
}

/// Display names of a map's regions, in category order: the atlas name
/// when a code matches a region, else the code as written.
#[cfg(feature = "geo")]
pub fn region_names(c: &Categorical) -> Vec<String> {
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
pub fn region_names(c: &Categorical) -> Vec<String> {
    c.categories.clone()
}
