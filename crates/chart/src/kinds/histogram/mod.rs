//! histogram: the values of every series pooled, counted in bins. Its
//! layout is a bar chart's, its bins chosen in [`bins`].

pub(crate) mod describe;
pub(crate) mod layout;
#[cfg(feature = "serde")]
pub(crate) mod write;

use crate::kinds::Card;
use crate::model::card::{series_points, Points};
use crate::model::{DataError, DataShape};
use crate::scale::nice_ticks;
use crate::shown::finite_range;

pub(crate) fn read(shape: &DataShape) -> Result<Card, DataError> {
    read_values(&series_points(shape))
}

fn read_values(series: &[(String, Points<'_>)]) -> Result<Card, DataError> {
    let mut values = Vec::new();
    for (_, points) in series {
        for point in points {
            let y = point.number_or_gap("y")?;
            if !y.is_nan() {
                values.push(y);
            }
        }
    }
    Ok(Card::Histogram(values))
}

/// Bins at most; more than a reader can tell apart at a glance.
pub const MAX_BINS: usize = 30;

/// Bin edges on round numbers, the width by the Freedman–Diaconis rule
/// (2 IQR n^(-1/3): what fits the data's spread rather than its count
/// alone) rounded up to a nice step, so that edges read well: 3,000 ratings
/// from 1 to 10 get 19 bins of 0.5 (Vega-Lite's default, at most 10 bins,
/// gives 9 of 1). Whole numbers get whole widths (no empty bin between two
/// integers); without a spread in the middle half, Sturges' count is the
/// target. 5 to [`MAX_BINS`] bins, and never more than `max_bins`.
pub fn bins(values: &[f64], max_bins: usize) -> (Vec<f64>, Vec<u64>) {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    let (lo, hi) = finite_range(finite.iter().copied());
    if finite.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let n = finite.len() as f64;
    // The quartiles to 1/256 of the span, from counts rather than a sort:
    // linear in the values, and no second copy of a sort in the wasm.
    let mut fine = [0u32; 256];
    for v in &finite {
        let i = ((v / 256.0 - lo / 256.0) / (hi / 256.0 - lo / 256.0) * 256.0) as usize;
        if let Some(c) = fine.get_mut(i.min(255)) {
            *c += 1;
        }
    }
    let quartile = |q: f64| {
        let mut seen = 0.0;
        let i = fine.iter().position(|c| {
            seen += f64::from(*c);
            seen >= n * q
        });
        i.unwrap_or(0) as f64
    };
    let iqr = (quartile(0.75) - quartile(0.25)) * (hi / 256.0 - lo / 256.0);
    let fd = 2.0 * iqr / crate::math::powf(n, 1.0 / 3.0);
    let span = hi - lo;
    let count = if fd > 0.0 {
        span / fd
    } else {
        crate::math::log2(n) + 1.0
    };
    let most = max_bins.clamp(1, MAX_BINS);
    // Nice ticks over the span with room for `count` bins: their step is the
    // 1, 2, 2.5 or 5 times a power of ten at or above the wanted width.
    let target = (count.ceil() as usize).clamp(5.min(most), most);
    let mut step = nice_ticks(lo, if hi > lo { hi } else { lo + 1.0 }, target + 1).step;
    if finite.iter().all(|v| v.fract() == 0.0) {
        step = step.max(1.0);
    }
    if !(step > 0.0 && step.is_finite()) {
        step = 1.0;
    }
    let first = (lo / step).floor();
    // NaN casts to 0, hence the max after the cast.
    let count = (((hi / step - first).floor() + 1.0).clamp(1.0, 1000.0) as usize).max(1);
    let edges: Vec<f64> = (0..=count).map(|i| (first + i as f64) * step).collect();
    let mut counts = vec![0u64; count];
    for v in finite {
        let i = ((v / step - first).floor().max(0.0) as usize).min(count.saturating_sub(1));
        if let Some(c) = counts.get_mut(i) {
            *c += 1;
        }
    }
    (edges, counts)
}

/// The group's code, reached through `crate::kinds::code` (in the page,
/// once its chunk has loaded).
pub(crate) static CODE: super::GroupCode = super::GroupCode {
    read: |_, shape, _| read(shape),
    finish: super::kept,
    draw: |ctx, body, chart| {
        if let Card::Histogram(values) = &chart.card {
            layout::draw(ctx, body, values)
        }
    },
    summary: |chart, units| match &chart.card {
        Card::Histogram(values) => describe::summary(values, units),
        _ => String::new(),
    },
    data_table: |chart, max_rows, f| match &chart.card {
        Card::Histogram(values) => describe::table(chart, values, max_rows, f),
        _ => super::no_table(),
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    fn widths(values: &[f64], max_bins: usize) -> (f64, usize) {
        let (edges, counts) = bins(values, max_bins);
        assert_eq!(edges.len(), counts.len() + 1);
        assert_eq!(counts.iter().sum::<u64>() as usize, values.len());
        (edges[1] - edges[0], counts.len())
    }

    #[test]
    fn bins_follow_freedman_diaconis_on_round_widths() {
        // 3,000 ratings in tenths around 6.5 (sd about 1.2, as film ratings
        // are), from 1.0 to 10.0: a sum of three uniforms from an LCG.
        let mut seed = 7u64;
        let mut uniform = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut ratings: Vec<f64> = (0..2998)
            .map(|_| {
                let z = (uniform() + uniform() + uniform() - 1.5) * 2.0;
                ((6.5 + 1.2 * z) * 10.0).round() / 10.0
            })
            .collect();
        ratings.extend([1.0, 10.0]);
        assert_eq!(widths(&ratings, 100), (0.5, 19));
        // Whole numbers get whole widths.
        let stars: Vec<f64> = (0..3000).map(|i| f64::from(1 + i % 10)).collect();
        assert_eq!(widths(&stars, 100).0, 1.0);
        // A narrow chart caps the count; a wide spread keeps 5 bins at least.
        assert!(widths(&ratings, 8).1 <= 8);
        let two = [0.0, 1000.0];
        assert!(widths(&two, 100).1 >= 5);
        // No spread in the middle half: Sturges' count.
        let mut flat = vec![5.0; 100];
        flat.push(50.0);
        assert!((5..=12).contains(&widths(&flat, 100).1));
        // One value, and extremes, stay finite and bounded.
        assert_eq!(widths(&[3.0], 100).1, 1);
        let (edges, counts) = bins(&[-f64::MAX, f64::MAX, 0.0], 100);
        assert!(counts.len() <= MAX_BINS + 1 && edges.iter().all(|e| !e.is_nan()));
        assert_eq!(bins(&[f64::NAN], 10).1.len(), 0);
    }

    #[test]
    fn bins_cover_every_value_once() {
        let values: Vec<f64> = (0..1000)
            .map(|i| (i as f64 * 0.37).sin() * 50.0 + 20.0)
            .collect();
        let (edges, counts) = bins(&values, 100);
        assert_eq!(counts.iter().sum::<u64>(), 1000);
        assert_eq!(edges.len(), counts.len() + 1);
        assert!(edges[0] <= -30.0 && *edges.last().unwrap_or(&0.0) >= 70.0);
        assert!((5..=40).contains(&counts.len()), "{}", counts.len());
    }

    #[test]
    fn bins_of_one_value_and_of_nothing() {
        let (edges, counts) = bins(&[3.0, 3.0, f64::NAN], 50);
        assert_eq!(counts.iter().sum::<u64>(), 2);
        assert!(edges.len() >= 2);
        assert!(bins(&[], 50).0.is_empty());
        assert!(bins(&[f64::NAN], 50).1.is_empty());
    }
}
