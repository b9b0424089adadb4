//! stacked_area_timeseries: the series of a timeseries on the dates of all
//! of them, a series missing on a date counting as zero there.

use crate::model::card::error;
use crate::model::DatePrecision;
use crate::model::{DataError, NamedValues, Series};
use crate::model::{Stacked, MAX_STACKED_VALUES};

impl Stacked {
    /// The date's total over every series.
    pub fn total(&self, at: usize) -> f64 {
        self.series.iter().filter_map(|s| s.values.get(at)).sum()
    }
}

/// Stacks what a timeseries reader read. Negative values are refused: a
/// layer below zero would be drawn over the one under it, and the stack's
/// top would no longer be the total.
pub(crate) fn stack(
    series: Vec<Series>,
    precision: DatePrecision,
    normalize: bool,
) -> Result<Stacked, DataError> {
    for (s, one) in series.iter().enumerate() {
        if let Some(at) = one.ys.iter().position(|y| *y < 0.0) {
            let y = one.ys.get(at).copied().unwrap_or(0.0);
            let x = one.xs.get(at).copied().unwrap_or(0.0);
            return Err(error(
                "data".into(),
                format!(
                    "series {} (\"{}\") is {} on {}: a stacked area stacks values of zero or more; draw values below zero as a timeseries or an area_timeseries",
                    s + 1,
                    one.name.chars().take(60).collect::<String>(),
                    crate::number_text::write_f64(y),
                    crate::model::iso_date(x, precision),
                ),
            ));
        }
    }
    let mut dates: Vec<f64> = series
        .iter()
        .flat_map(|s| s.xs.iter().copied())
        .filter(|x| x.is_finite())
        .collect();
    // The engine's one sort, not another instance of the standard one.
    dates = crate::order::rearranged(&dates, &crate::order::ranked(&dates, false));
    dates.dedup();
    let cells = dates.len().saturating_mul(series.len());
    if cells > MAX_STACKED_VALUES {
        return Err(error(
            "data".into(),
            format!(
                "a stacked area of {} series on {} distinct dates has {cells} values; at most {MAX_STACKED_VALUES} can be stacked",
                series.len(),
                dates.len()
            ),
        ));
    }
    let series = series
        .into_iter()
        .map(|one| {
            let mut values = vec![0.0; dates.len()];
            // Both sorted: one walk places every value.
            let mut at = 0;
            for (&x, &y) in one.xs.iter().zip(&one.ys) {
                if !x.is_finite() {
                    continue;
                }
                while dates.get(at).is_some_and(|d| *d < x) {
                    at += 1;
                }
                if let (Some(slot), true) = (values.get_mut(at), y.is_finite()) {
                    // A date given twice in a series adds up.
                    *slot += y;
                }
            }
            NamedValues {
                name: one.name,
                values,
            }
        })
        .collect();
    Ok(Stacked {
        dates,
        series,
        precision,
        normalize,
    })
}
