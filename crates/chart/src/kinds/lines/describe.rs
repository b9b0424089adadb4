//! Dated series in words: the series, their points, dates and values (per
//! axis when there are two; the stack's totals for a stacked area); as a
//! table, wide (Date | one column per series) when every series has the
//! same dates, else long (Series | Date | Value); a stack adds its Total.

use crate::describe::cells::Cells;
use crate::describe::summary::{counted, join, list, series_list, span};
use crate::describe::table::build;
use crate::describe::DataTable;
use crate::label;
use crate::model::chart::Chart;
use crate::model::Stacked;
use crate::model::{DatePrecision, NamedValues, Series, VizConfig};
use crate::shown::{finite_range, xy_extent_of};

pub(crate) fn summary(chart: &Chart, series: &[Series], precision: DatePrecision) -> String {
    // With two axes, each one's values in its own units.
    let right = crate::sides::right_flags(&chart.config, series);
    let is_right = |i: usize| right.get(i).copied().unwrap_or(false);
    let ((x_lo, x_hi), (y_lo, y_hi)) = xy_extent_of(series, &|i| !is_right(i));
    let ((r_x_lo, r_x_hi), (r_lo, r_hi)) = xy_extent_of(series, &is_right);
    let (x_lo, x_hi) = (x_lo.min(r_x_lo), x_hi.max(r_x_hi));
    let units = label::units(&chart.config);
    let values = if right.is_empty() {
        span("values", y_lo, y_hi, units)
    } else {
        let right_units = label::right_units(&chart.config);
        let spans = [
            span("left axis", y_lo, y_hi, units),
            span("right axis", r_lo, r_hi, right_units),
        ];
        Some(spans.into_iter().flatten().collect::<Vec<_>>().join(", "))
    };
    // As given: a long line keeps fewer points than it was given.
    let counts: Vec<usize> = series.iter().map(|s| s.given).collect();
    let total: usize = counts.iter().sum();
    let same = counts.windows(2).all(|w| w.first() == w.last());
    let points = match (series.len(), same, counts.first()) {
        (2.., true, Some(&n)) => format!("{} each", counted(n, "point", "points")),
        _ => counted(total, "point", "points"),
    };
    join([
        (series.len() > 1).then(|| series_list(series)),
        Some(format!(
            "{points} from {} to {}",
            label::date(x_lo, precision),
            label::date(x_hi, precision)
        )),
        values,
    ])
}

pub(crate) fn stacked_summary(s: &Stacked, units: Option<&str>) -> String {
    let names = list(s.series.iter().map(|x| x.name.as_str()), s.series.len());
    let dates = match (s.dates.first(), s.dates.last()) {
        (Some(&lo), Some(&hi)) => Some(format!(
            "{} from {} to {}",
            counted(s.dates.len(), "date", "dates"),
            label::date(lo, s.precision),
            label::date(hi, s.precision)
        )),
        _ => None,
    };
    let totals = if s.normalize {
        Some("each date's values as shares of its total".to_string())
    } else {
        let (lo, hi) = finite_range((0..s.dates.len()).map(|i| s.total(i)));
        span("totals", lo, hi, units)
    };
    join([
        Some(format!(
            "{} ({names})",
            counted(s.series.len(), "series", "series")
        )),
        dates,
        totals,
    ])
}

pub(crate) fn table(
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

pub(crate) fn stacked_table(
    s: &Stacked,
    x_name: String,
    max_rows: usize,
    f: Cells<'_>,
) -> DataTable {
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
