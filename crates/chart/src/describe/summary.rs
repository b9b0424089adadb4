//! The one-line summary of a card.

use super::table::region_names;
use super::MAX_SUMMARY;
use crate::chart::Chart;
use crate::label;
use crate::model::{
    Card, CardKind, Categorical, DatePrecision, Metric, Places, Series, Stacked, Treemap,
};
use crate::shown::{bins, finite_range, is_empty, slices, xy_extent, xy_extent_of};

/// Names listed before "and n more".
const MAX_NAMES: usize = 5;
/// Characters of one name before it is cut.
const MAX_NAME: usize = 40;

pub fn summary(chart: &Chart) -> String {
    let noun = noun(drawn_kind(chart));
    let units = label::units(&chart.config);
    let text = if is_empty(&chart.card) {
        format!("{noun}, no data.")
    } else {
        let details = match &chart.card {
            Card::Categorical(c) => categorical(c, units),
            Card::Timeseries { series, precision } => timeseries(chart, series, *precision),
            Card::Scatter(series) => scatter(chart, series, units),
            Card::Boxplot(boxes) => {
                let (lo, hi) = finite_range(boxes.iter().map(|b| b.median));
                let names = list(boxes.iter().map(|b| b.label.as_str()), boxes.len());
                join([
                    Some(format!(
                        "{} ({names})",
                        counted(boxes.len(), "group", "groups")
                    )),
                    span("medians", lo, hi, units),
                ])
            }
            Card::Heatmap { xs, ys, values } => {
                let (lo, hi) = finite_range(values.iter().copied());
                join([
                    Some(format!(
                        "{}{} by {}{}",
                        counted(xs.len(), "column", "columns"),
                        ends(xs),
                        counted(ys.len(), "row", "rows"),
                        ends(ys)
                    )),
                    span("values", lo, hi, units),
                ])
            }
            Card::Timeline { items, precision } => {
                let (lo, hi) = finite_range(items.iter().flat_map(|i| [i.start, i.end]));
                let names = list(items.iter().map(|i| i.label.as_str()), items.len());
                let mut text = format!("{} ({names})", counted(items.len(), "item", "items"));
                if lo <= hi {
                    text.push_str(&format!(
                        " from {} to {}",
                        label::date(lo, *precision),
                        label::date(hi, *precision)
                    ));
                }
                text
            }
            Card::Histogram(values) => {
                let (lo, hi) = finite_range(values.iter().copied());
                let n = values.iter().filter(|v| v.is_finite()).count();
                let (_, counts) = bins(values, super::table::HISTOGRAM_BINS);
                let values = counted(n, "value", "values");
                join([
                    Some(span(&values, lo, hi, units).unwrap_or(values)),
                    Some(format!("in {}", counted(counts.len(), "bin", "bins"))),
                ])
            }
            Card::Stacked(s) => stacked(s, units),
            Card::Treemap(t) => treemap(t, units),
            Card::Metric(m) => metric(m, units),
            Card::Places(p) => places(p, units),
            Card::Table { columns, rows } => {
                let names = list(columns.iter().map(String::as_str), columns.len());
                format!(
                    "{} ({names}), {}",
                    counted(columns.len(), "column", "columns"),
                    counted(rows.len(), "row", "rows")
                )
            }
        };
        format!("{noun}, {details}.")
    };
    cap(text, MAX_SUMMARY)
}

/// The type the drawing follows: the data's shape decides, the stated
/// type only tells the categorical cards apart.
fn drawn_kind(chart: &Chart) -> CardKind {
    match &chart.card {
        Card::Categorical(c) => c.kind,
        Card::Timeseries { .. } if chart.kind == CardKind::AreaTimeseries => chart.kind,
        Card::Timeseries { .. } => CardKind::Timeseries,
        Card::Scatter(_) => CardKind::Scatter,
        Card::Boxplot(_) => CardKind::Boxplot,
        Card::Heatmap { .. } => CardKind::Heatmap,
        Card::Timeline { .. } => CardKind::Timeline,
        Card::Histogram(_) => CardKind::Histogram,
        Card::Table { .. } => CardKind::Table,
        Card::Stacked(_) => CardKind::StackedAreaTimeseries,
        Card::Treemap(_) => CardKind::Treemap,
        Card::Metric(_) => CardKind::TopLevelMetric,
        Card::Places(p) if p.bubbles => CardKind::BubbleMap,
        Card::Places(_) => CardKind::Map,
    }
}

/// What the reader would call the card.
fn noun(kind: CardKind) -> &'static str {
    match kind {
        CardKind::Bar => "Bar chart",
        CardKind::GroupedBar => "Grouped bar chart",
        CardKind::StackedBar => "Stacked bar chart",
        CardKind::Timeseries => "Line chart",
        CardKind::Pie => "Pie chart",
        CardKind::Choropleth => "Map",
        CardKind::Scatter => "Scatter plot",
        CardKind::Boxplot => "Box plot",
        CardKind::Heatmap => "Heatmap",
        CardKind::Timeline => "Timeline",
        CardKind::Waterfall => "Waterfall chart",
        CardKind::Histogram => "Histogram",
        CardKind::Table => "Table",
        CardKind::AreaTimeseries => "Area chart",
        CardKind::StackedAreaTimeseries => "Stacked area chart",
        CardKind::Treemap => "Treemap",
        CardKind::TopLevelMetric => "Headline number",
        CardKind::Map => "Map of places",
        CardKind::BubbleMap => "Bubble map",
    }
}

fn stacked(s: &Stacked, units: Option<&str>) -> String {
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

fn treemap(t: &Treemap, units: Option<&str>) -> String {
    let total = t.total();
    let values: Vec<f64> = t.leaves.iter().map(|l| l.value).collect();
    // Largest first: the reader hears what matters before the list is cut.
    let largest: Vec<String> = crate::order::ranked(&values, true)
        .iter()
        .take(3)
        .filter_map(|&i| t.leaves.get(i))
        .map(|l| format!("{} ({})", short(&l.label), label::percent(l.value / total)))
        .collect();
    join([
        Some(counted(t.leaves.len(), "category", "categories")),
        t.grouped()
            .then(|| format!("in {}", counted(t.groups.len(), "group", "groups"))),
        Some(format!("total {}", label::value(total, units))),
        Some(format!("largest {}", largest.join(", "))),
    ])
}

fn metric(m: &Metric, units: Option<&str>) -> String {
    let mut text = label::exact(m.value, units);
    if let Some(at) = &m.at {
        text.push_str(&format!(" in {}", label::when(at)));
    }
    join([
        Some(text),
        m.previous
            .map(|p| label::comparison(m.value, p, m.previous_at.as_ref(), units)),
        (m.points.len() > 2)
            .then(|| format!("the last of {}", counted(m.points.len(), "value", "values"))),
    ])
}

fn places(p: &Places, units: Option<&str>) -> String {
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

fn categorical(c: &Categorical, units: Option<&str>) -> String {
    let categories = counted(c.categories.len(), "category", "categories");
    let category_names = list(c.categories.iter().map(String::as_str), c.categories.len());
    let series = (c.series.len() > 1).then(|| {
        format!(
            "{} ({})",
            counted(c.series.len(), "series", "series"),
            list(c.series.iter().map(|s| s.name.as_str()), c.series.len())
        )
    });
    let values = || c.series.iter().flat_map(|s| s.values.iter().copied());
    match c.kind {
        CardKind::Pie => {
            let slices = slices(c);
            if slices.is_empty() {
                return "no slice larger than zero".to_string();
            }
            let total: f64 = slices.iter().map(|s| s.value).sum();
            // Largest first: the reader hears what matters before the list is cut.
            let values: Vec<f64> = slices.iter().map(|s| s.value).collect();
            let order = crate::order::ranked(&values, true);
            let named: Vec<String> = order
                .iter()
                .filter_map(|&i| slices.get(i))
                .map(|s| format!("{} {}", short(&s.label), label::percent(s.value / total)))
                .collect();
            format!(
                "{}: {}",
                counted(slices.len(), "slice", "slices"),
                list(named.iter().map(String::as_str), named.len())
            )
        }
        CardKind::Waterfall => {
            let deltas: Vec<f64> = c
                .series
                .first()
                .map(|s| {
                    s.values
                        .iter()
                        .map(|v| if v.is_finite() { *v } else { 0.0 })
                        .collect()
                })
                .unwrap_or_default();
            let (lo, hi) = finite_range(deltas.iter().copied());
            let total: f64 = deltas.iter().sum();
            format!(
                "{} ({category_names}), changes from {} to {}, total {}",
                counted(deltas.len(), "step", "steps"),
                label::change(lo, units),
                label::change(hi, units),
                label::value(total, units)
            )
        }
        CardKind::Choropleth => {
            let names = region_names(c);
            let (lo, hi) = finite_range(values());
            let highest = c.series.first().and_then(|s| {
                s.values
                    .iter()
                    .zip(&names)
                    .filter(|(v, _)| v.is_finite())
                    .max_by(|a, b| a.0.total_cmp(b.0))
                    .map(|(v, name)| {
                        format!("highest {} ({})", short(name), label::value(*v, units))
                    })
            });
            join([
                Some(counted(c.categories.len(), "region", "regions")),
                span("values", lo, hi, units),
                highest,
            ])
        }
        CardKind::StackedBar => {
            let totals = (0..c.categories.len()).map(|i| {
                c.series
                    .iter()
                    .filter_map(|s| s.values.get(i).copied().filter(|v| v.is_finite()))
                    .sum::<f64>()
            });
            let (lo, hi) = finite_range(totals);
            join([
                series,
                Some(format!("{categories} ({category_names})")),
                span("totals", lo, hi, units),
            ])
        }
        _ => {
            let (lo, hi) = finite_range(values());
            join([
                series,
                Some(format!("{categories} ({category_names})")),
                span("values", lo, hi, units),
            ])
        }
    }
}

fn timeseries(chart: &Chart, series: &[Series], precision: DatePrecision) -> String {
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

fn scatter(chart: &Chart, series: &[Series], units: Option<&str>) -> String {
    let ((x_lo, x_hi), (y_lo, y_hi)) = xy_extent(series);
    let total: usize = series.iter().map(|s| s.xs.len().min(s.ys.len())).sum();
    let x_name = chart.config.x_label.as_deref().unwrap_or("x");
    let y_name = chart.config.y_label.as_deref().unwrap_or("y");
    join([
        (series.len() > 1).then(|| series_list(series)),
        Some(counted(total, "point", "points")),
        span(&short(x_name), x_lo, x_hi, None),
        span(&short(y_name), y_lo, y_hi, units),
    ])
}

fn series_list(series: &[Series]) -> String {
    format!(
        "{} ({})",
        counted(series.len(), "series", "series"),
        list(series.iter().map(|s| s.name.as_str()), series.len())
    )
}

/// "1 point", "1,250 points".
fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", label::count(n as u64))
    }
}

/// "values from 1,200 to 9,800 USD", "values all 3", or nothing without data.
fn span(what: &str, lo: f64, hi: f64, units: Option<&str>) -> Option<String> {
    if !(lo.is_finite() && hi.is_finite()) {
        return None;
    }
    let (lo, hi) = (label::value(lo, units), label::value(hi, units));
    Some(if lo == hi {
        format!("{what} all {lo}")
    } else {
        format!("{what} from {lo} to {hi}")
    })
}

/// " (Mon to Fri)": the first and last of a list of names.
fn ends(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => format!(" ({})", short(one)),
        [first, .., last] => format!(" ({} to {})", short(first), short(last)),
    }
}

/// "A, B, C, D, E and 3 more".
fn list<'a>(names: impl Iterator<Item = &'a str>, total: usize) -> String {
    let shown: Vec<String> = names.take(MAX_NAMES).map(short).collect();
    let mut text = shown.join(", ");
    if total > shown.len() {
        text.push_str(&format!(
            " and {} more",
            label::count((total - shown.len()) as u64)
        ));
    }
    text
}

fn short(name: &str) -> String {
    let name = name.trim();
    let name = if name.is_empty() { "(blank)" } else { name };
    cap(name.to_string(), MAX_NAME)
}

/// At most `max` characters, the last an ellipsis when cut.
fn cap(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('\u{2026}');
    cut
}

fn join<const N: usize>(parts: [Option<String>; N]) -> String {
    parts.into_iter().flatten().collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_caps() {
        let names = ["a", "b", "c", "d", "e", "f", "g"];
        assert_eq!(list(names.into_iter(), 7), "a, b, c, d, e and 2 more");
        assert_eq!(list(names.into_iter().take(2), 2), "a, b");
        assert_eq!(cap("abcdef".into(), 4), "abc\u{2026}");
        assert_eq!(cap("ab cdef".into(), 4), "ab\u{2026}");
        assert_eq!(cap("abc".into(), 4), "abc");
        assert_eq!(short("  "), "(blank)");
        assert_eq!(counted(1, "row", "rows"), "1 row");
        assert_eq!(counted(12_345, "row", "rows"), "12,345 rows");
        assert_eq!(
            span("values", 1.0, 1.0, None).as_deref(),
            Some("values all 1")
        );
        assert_eq!(span("values", f64::INFINITY, 1.0, None), None);
    }
}
