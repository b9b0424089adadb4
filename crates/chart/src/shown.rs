//! What a card shows of its data, decided once for the drawing and for
//! the words that describe it: the ranges its scales span, whether there is
//! anything to see, the pie's slices, the histogram's bins, a table cell's
//! text. Neither drawing nor describing owns these.

use crate::model::{Card, Categorical};
use crate::scale::nice_ticks;

/// Smallest and largest finite value; (inf, -inf) when there is none,
/// which the scales read as "no data".
pub fn finite_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}

/// The x and y ranges of the points whose x and y are both finite. One
/// pass: a million-point line is read by it on every draw.
pub fn xy_extent(series: &[crate::model::Series]) -> ((f64, f64), (f64, f64)) {
    xy_extent_of(series, &|_| true)
}

/// [`xy_extent`] of the series whose index `keep` says.
pub fn xy_extent_of(
    series: &[crate::model::Series],
    keep: &dyn Fn(usize) -> bool,
) -> ((f64, f64), (f64, f64)) {
    let (mut x, mut y) = (
        (f64::INFINITY, f64::NEG_INFINITY),
        (f64::INFINITY, f64::NEG_INFINITY),
    );
    for (i, s) in series.iter().enumerate() {
        if !keep(i) {
            continue;
        }
        for (&a, &b) in s.xs.iter().zip(&s.ys) {
            // Comparisons, not f64::min/max: both are finite here, and
            // in WebAssembly min and max are calls (fmin, fmax).
            if a.is_finite() && b.is_finite() {
                if a < x.0 {
                    x.0 = a;
                }
                if a > x.1 {
                    x.1 = a;
                }
                if b < y.0 {
                    y.0 = b;
                }
                if b > y.1 {
                    y.1 = b;
                }
            }
        }
    }
    (x, y)
}

/// The indices `a..b` of the sorted `xs` inside `[lo, hi]`, with the
/// nearest point outside on each side (a line to it reaches the plot's
/// edge). Binary searches: a zoomed million-point line reads only the
/// points it shows.
pub fn visible(xs: &[f64], (lo, hi): (f64, f64)) -> (usize, usize) {
    let a = xs.partition_point(|&x| x < lo).saturating_sub(1);
    let b = xs
        .partition_point(|&x| x <= hi)
        .saturating_add(1)
        .min(xs.len());
    (a.min(b), b)
}

/// [`xy_extent_of`]; with a zoomed x range, the y range is that of the
/// points inside it (the x range is the zoom's).
pub fn xy_extent_within(
    series: &[crate::model::Series],
    keep: &dyn Fn(usize) -> bool,
    zoom: Option<(f64, f64)>,
) -> ((f64, f64), (f64, f64)) {
    let Some((lo, hi)) = zoom else {
        return xy_extent_of(series, keep);
    };
    let mut y = (f64::INFINITY, f64::NEG_INFINITY);
    for (i, s) in series.iter().enumerate() {
        if !keep(i) {
            continue;
        }
        let n = s.xs.len().min(s.ys.len());
        let (a, b) = visible(s.xs.get(..n).unwrap_or(&[]), (lo, hi));
        for (&x, &v) in
            s.xs.get(a..b)
                .unwrap_or(&[])
                .iter()
                .zip(s.ys.get(a..b).unwrap_or(&[]))
        {
            if x >= lo && x <= hi && v.is_finite() {
                y = (y.0.min(v), y.1.max(v));
            }
        }
    }
    ((lo, hi), y)
}

/// True when there is nothing a reader could see.
pub fn is_empty(card: &Card) -> bool {
    match card {
        Card::Categorical(c) => {
            c.categories.is_empty()
                || c.series
                    .iter()
                    .all(|s| s.values.iter().all(|v| !v.is_finite()))
        }
        Card::Timeseries { series, .. } | Card::Scatter(series) => series.iter().all(|s| {
            s.xs.iter()
                .zip(&s.ys)
                .all(|(x, y)| !x.is_finite() || !y.is_finite())
        }),
        Card::Boxplot(boxes) => boxes.is_empty(),
        Card::Heatmap { values, .. } => values.iter().all(|v| !v.is_finite()),
        Card::Timeline { items, .. } => items.is_empty(),
        Card::Histogram(values) => values.iter().all(|v| !v.is_finite()),
        Card::Table { columns, rows } => columns.is_empty() && rows.is_empty(),
        Card::Stacked(s) => s.dates.is_empty() || s.series.is_empty(),
        Card::Treemap(t) => t.leaves.is_empty(),
        Card::Metric(m) => !m.value.is_finite(),
        Card::Places(p) => p.places.is_empty(),
    }
}

/// More slices than this cannot be told apart; the smallest become "Other".
const MAX_SLICES: usize = 8;

pub struct Slice {
    pub label: String,
    pub value: f64,
}

/// The slices to draw: positive values, the smallest folded into "Other"
/// when there are too many, in the data's order.
pub fn slices(c: &Categorical) -> Vec<Slice> {
    let values = c.series.first().map(|s| s.values.as_slice()).unwrap_or(&[]);
    let mut all: Vec<Slice> = c
        .categories
        .iter()
        .zip(values)
        .filter(|(_, v)| v.is_finite() && **v > 0.0)
        .map(|(label, v)| Slice {
            label: label.clone(),
            value: *v,
        })
        .collect();
    if all.len() <= MAX_SLICES {
        return all;
    }
    let values: Vec<f64> = all.iter().map(|s| s.value).collect();
    let order = crate::order::ranked(&values, true);
    let keep: Vec<usize> = order.iter().copied().take(MAX_SLICES - 1).collect();
    let other: f64 = order
        .iter()
        .skip(MAX_SLICES - 1)
        .map(|&i| all[i].value)
        .sum();
    let folded = all.len() - (MAX_SLICES - 1);
    let mut kept: Vec<Slice> = Vec::with_capacity(MAX_SLICES);
    for (i, s) in all.drain(..).enumerate() {
        if keep.contains(&i) {
            kept.push(s);
        }
    }
    kept.push(Slice {
        label: format!("Other ({folded})"),
        value: other,
    });
    kept
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

/// A plain number as a reader expects it: a real minus sign, and thousands
/// separators from five digits up (four-digit numbers are often years).
pub fn display(cell: &str) -> String {
    let (sign, digits) = match cell.strip_prefix('-') {
        Some(rest) => ("\u{2212}", rest),
        None => ("", cell),
    };
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    let plain = !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    if !plain {
        return cell.to_string();
    }
    let grouped = if int.len() >= 5 {
        crate::locale::current().group(int)
    } else {
        int.to_string()
    };
    match frac {
        Some(f) => [sign, &grouped, crate::locale::current().decimal_mark(), f].concat(),
        None => [sign, &grouped].concat(),
    }
}

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
    fn plain_numbers_get_separators_and_a_real_minus() {
        assert_eq!(display("1250000"), "1,250,000");
        assert_eq!(display("-0.03"), "\u{2212}0.03");
        assert_eq!(display("2024"), "2024");
        assert_eq!(display("12345.678"), "12,345.678");
        assert_eq!(display("1e6"), "1e6");
        assert_eq!(display("Acme"), "Acme");
        assert_eq!(display("-"), "-");
        assert_eq!(display("1."), "1.");
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
