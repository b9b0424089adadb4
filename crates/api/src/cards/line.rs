//! timeseries (and the lines areas are made of): values by date.

use zdr_chart::model::{parse_date, Card, DatePrecision, Series};

/// A series of a line: its name, and its points as a date's text and a
/// value.
pub(crate) type Line = (String, Vec<(String, f64)>);

/// The line of `series`, its dates read as the reader reads them (a text
/// that is no date is left out), each series in date order.
pub(crate) fn line(series: Vec<Line>) -> Card {
    let mut precision = DatePrecision::Year;
    let series = series
        .into_iter()
        .enumerate()
        .map(|(s, (name, points))| {
            let mut dated: Vec<(f64, f64)> = points
                .iter()
                .filter_map(|(x, y)| {
                    let (seconds, p) = parse_date(x)?;
                    precision = precision.max(p);
                    Some((seconds, super::value(*y)))
                })
                .collect();
            // Stable: a date given twice keeps its order, as in the reader.
            dated.sort_by(|a, b| a.0.total_cmp(&b.0));
            let given = dated.iter().filter(|(_, y)| y.is_finite()).count();
            let (xs, ys) = dated.into_iter().unzip();
            Series {
                name: super::series_name(name, s),
                xs,
                ys,
                given,
            }
        })
        .collect();
    Card::Timeseries { series, precision }
}
