//! What a card shows of its data, decided once for the drawing and for
//! the words that describe it: the ranges its scales span. What is one
//! kind's own (the pie's slices, the histogram's bins, a table cell's text)
//! is in that kind's folder under `crate::kinds`.

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
