//! Data reduction before drawing: only what the pixels can show.
//!
//! A line through a million points is drawn from at most four points per pixel
//! column ([`min_max_columns`], the "M4" reduction), and a scatter of a million
//! points from at most one point per small cell of the plot ([`thin_points`]).
//! Both run in one pass, allocate only their output (and, for the scatter, a
//! bounded bitset) and never panic, whatever the input.

/// Largest plot side, in pixels, that [`thin_points`] keeps a cell for; larger
/// plots are mapped onto this many pixels (their cells grow accordingly).
pub const MAX_SIDE: u32 = 8192;

/// The equal parts of its dates a long line is kept in ([`kept_for_pixels`]):
/// at least two per device pixel of a plot 4,096 device pixels wide.
pub const KEPT_COLUMNS: usize = 8192;

/// Lines of more points than this are kept for pixels when read.
pub const KEPT_POINTS: usize = 4 * KEPT_COLUMNS;

/// A sorted line of more than [`KEPT_POINTS`] points as its card keeps it:
/// [`min_max_columns`] over [`KEPT_COLUMNS`] equal parts of its own x
/// range. Drawing reduces it again to the plot's pixel columns; at two or
/// more parts per column, what it draws differs from drawing every point by
/// less than a pixel column, and it holds a million points in half a megabyte.
/// Local mode's page-side reader (the engine's `js/columns.js`) does the same
/// arithmetic before copying anything, and tests hold the two to the same
/// chart.
pub fn kept_for_pixels(xs: Vec<f64>, ys: Vec<f64>) -> (Vec<f64>, Vec<f64>) {
    match (xs.first(), xs.last()) {
        (Some(&lo), Some(&hi)) if xs.len().min(ys.len()) > KEPT_POINTS => {
            min_max_columns(&xs, &ys, lo, hi, KEPT_COLUMNS)
        }
        _ => (xs, ys),
    }
}

/// Min/max per pixel column ("M4"): for `xs` sorted ascending, keeps for each of `columns`
/// equal-width buckets over `[x_lo, x_hi]` the first, min, max and last points, in x order
/// (deduplicated), so the polyline drawn through the output covers exactly the pixels of the
/// full polyline.
///
/// - NaN (or infinite) ys are gaps and stay gaps: a run of them becomes one point with a NaN y
///   at the x of the run's first point. A bucket cut by a gap keeps first, min, max and last of
///   each of its runs, so a line never joins across a gap.
/// - Points with x outside `[x_lo, x_hi]` or non-finite x are dropped, except the nearest
///   point just outside on each side (largest x below `x_lo`, smallest x above `x_hi`), kept so
///   that lines reach the plot's edges.
/// - When the input has at most `4 * columns` points it is returned unchanged (copied).
/// - Mismatched lengths: the shorter is used. `columns == 0` counts as 1. `x_lo > x_hi` are
///   swapped; a non-finite bound is replaced by the data's finite extent on that side.
/// - Unsorted xs are bucketed point by point (never a panic, but no pixel guarantee and less
///   reduction).
///
/// O(n), one pass (two when a bound is not finite), no allocation besides the output.
pub fn min_max_columns(
    xs: &[f64],
    ys: &[f64],
    x_lo: f64,
    x_hi: f64,
    columns: usize,
) -> (Vec<f64>, Vec<f64>) {
    let n = xs.len().min(ys.len());
    let (xs, ys) = (&xs[..n], &ys[..n]);
    let columns = columns.max(1);
    if n <= columns.saturating_mul(4) {
        return (xs.to_vec(), ys.to_vec());
    }
    let Some((lo, hi)) = bounds(xs, x_lo, x_hi) else {
        return (Vec::new(), Vec::new());
    };
    let capacity = n.min(columns.saturating_mul(4).saturating_add(4));
    let mut kept = Keeper::new(
        lo,
        hi,
        columns,
        (Vec::with_capacity(capacity), Vec::with_capacity(capacity)),
    );
    // Nearest points outside the range: (index, x).
    let mut left: Option<(usize, f64)> = None;
    let mut right: Option<(usize, f64)> = None;
    for (i, (&x, &y)) in xs.iter().zip(ys).enumerate() {
        if !x.is_finite() {
            continue;
        }
        if x < lo {
            if left.is_none_or(|(_, best)| x >= best) {
                left = Some((i, x));
            }
            continue;
        }
        if x > hi {
            if right.is_none_or(|(_, best)| x < best) {
                right = Some((i, x));
            }
            continue;
        }
        kept.push(x, y);
    }
    let mut out = kept.into_polyline();
    if let Some((i, x)) = left {
        out.prepend(x, ys.get(i).copied().unwrap_or(f64::NAN));
    }
    if let Some((i, x)) = right {
        out.push_point(x, ys.get(i).copied().unwrap_or(f64::NAN));
    }
    (out.xs, out.ys)
}

/// Scatter thinning: drops points that would land on an already-drawn cell of a `cell`-pixel
/// grid over a `width`×`height` plot (x mapped from `[x_lo, x_hi]`, y from `[y_lo, y_hi]`, y
/// up); keeps the first point of each cell; returns the kept indices, ascending.
///
/// - Skips points with a non-finite coordinate, and points outside the ranges (they would be
///   clipped away).
/// - Mismatched lengths: the shorter is used. Reversed ranges are swapped; a non-finite bound
///   is replaced by the data's finite extent on that side. A zero-width range puts every point
///   at its value in the middle of the plot.
/// - `cell` below 1 pixel, or not finite, counts as 1. `width` or `height` 0: nothing is drawn,
///   nothing is kept.
/// - Bounded memory: one bit per cell, with each side capped at [`MAX_SIDE`] pixels (at most
///   8 MiB of bits, for a 8192×8192 plot with 1-pixel cells).
pub fn thin_points(
    xs: &[f64],
    ys: &[f64],
    (x_lo, x_hi): (f64, f64),
    (y_lo, y_hi): (f64, f64),
    width: u32,
    height: u32,
    cell: f64,
) -> Vec<usize> {
    let n = xs.len().min(ys.len());
    let (xs, ys) = (&xs[..n], &ys[..n]);
    if width == 0 || height == 0 || n == 0 {
        return Vec::new();
    }
    let (Some((xl, xh)), Some((yl, yh))) = (bounds(xs, x_lo, x_hi), bounds(ys, y_lo, y_hi)) else {
        return Vec::new();
    };
    let cell = if cell.is_finite() && cell >= 1.0 {
        cell
    } else {
        1.0
    };
    let cells = |side: u32| {
        let side = f64::from(side.min(MAX_SIDE));
        // At least 1 and at most MAX_SIDE, so the casts are exact.
        ((side / cell).ceil().clamp(1.0, f64::from(MAX_SIDE))) as usize
    };
    let (cols, rows) = (cells(width), cells(height));
    let mut bits = vec![0u64; (cols * rows).div_ceil(64)];
    let mut kept = Vec::new();
    for (i, (&x, &y)) in xs.iter().zip(ys).enumerate() {
        if !x.is_finite() || !y.is_finite() {
            continue;
        }
        let (Some(cx), Some(cy)) = (bucket(x, xl, xh, cols), bucket(y, yl, yh, rows)) else {
            continue;
        };
        // Rows counted from the top, as on screen.
        let index = (rows - 1 - cy) * cols + cx;
        let mask = 1u64 << (index % 64);
        if let Some(word) = bits.get_mut(index / 64) {
            if *word & mask == 0 {
                *word |= mask;
                kept.push(i);
            }
        }
    }
    kept
}

/// `[lo, hi]` ordered and finite: a non-finite bound becomes the finite extent of `values`.
/// `None` when no finite range can be had.
fn bounds(values: &[f64], lo: f64, hi: f64) -> Option<(f64, f64)> {
    let (lo, hi) = if lo.is_finite() && hi.is_finite() {
        (lo, hi)
    } else {
        let (min, max) = values
            .iter()
            .copied()
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(min, max), v| {
                (min.min(v), max.max(v))
            });
        (
            if lo.is_finite() { lo } else { min },
            if hi.is_finite() { hi } else { max },
        )
    };
    (lo.is_finite() && hi.is_finite()).then(|| (lo.min(hi), lo.max(hi)))
}

/// Which of `count` equal buckets over `[lo, hi]` holds `v` (`hi` itself is in the last);
/// `None` outside. Monotone in `v`, and overflow-free for any finite bounds.
fn bucket(v: f64, lo: f64, hi: f64, count: usize) -> Option<usize> {
    if !(lo..=hi).contains(&v) {
        return None;
    }
    // Halved so that `hi - lo` cannot overflow to infinity.
    let span = hi * 0.5 - lo * 0.5;
    let t = if span > 0.0 {
        (v * 0.5 - lo * 0.5) / span
    } else {
        0.5
    };
    let last = count.saturating_sub(1);
    let at = (t * count as f64).floor();
    Some(if at >= last as f64 {
        last
    } else if at > 0.0 {
        at as usize
    } else {
        0
    })
}

/// The output of [`min_max_columns`], with gaps collapsed to one NaN point.
struct Polyline {
    xs: Vec<f64>,
    ys: Vec<f64>,
}

impl Polyline {
    fn push_point(&mut self, x: f64, y: f64) {
        if y.is_finite() {
            self.xs.push(x);
            self.ys.push(y);
        } else {
            self.gap(x);
        }
    }

    /// A NaN point, unless the previous point already is one.
    fn gap(&mut self, x: f64) {
        if self.ys.last().is_none_or(|y| !y.is_nan()) {
            self.xs.push(x);
            self.ys.push(f64::NAN);
        }
    }

    fn prepend(&mut self, x: f64, y: f64) {
        let y = if y.is_finite() { y } else { f64::NAN };
        if y.is_nan() && self.ys.first().is_some_and(|first| first.is_nan()) {
            return;
        }
        self.xs.insert(0, x);
        self.ys.insert(0, y);
    }
}

/// [`min_max_columns`] a point at a time, for points in x order within
/// `[lo, hi]`: what a caller uses that reads a line in parts (the engine
/// copying the page's typed arrays a block at a time), never holding it whole.
pub struct Keeper {
    lo: f64,
    hi: f64,
    columns: usize,
    column: usize,
    /// Points pushed so far: the index of the next.
    seen: usize,
    /// Pushed with a finite y.
    given: usize,
    /// The last x pushed by [`Keeper::push_sorted`], as given.
    previous: f64,
    run: Run,
    out: Polyline,
}

impl Keeper {
    /// `out`: the vectors to keep the points in (emptied first): a caller
    /// that reads line after line reuses those of a line it let go of.
    pub fn new(lo: f64, hi: f64, columns: usize, out: (Vec<f64>, Vec<f64>)) -> Keeper {
        let columns = columns.max(1);
        let (mut xs, mut ys) = out;
        xs.clear();
        ys.clear();
        Keeper {
            lo,
            hi,
            columns,
            column: usize::MAX,
            seen: 0,
            given: 0,
            previous: f64::NEG_INFINITY,
            run: Run::default(),
            out: Polyline { xs, ys },
        }
    }

    fn bucket(&self, x: f64) -> usize {
        bucket(x, self.lo, self.hi, self.columns).unwrap_or(0)
    }

    /// The next point: `x` finite and within `[lo, hi]`; a `y` not finite is a gap.
    pub fn push(&mut self, x: f64, y: f64) {
        if y.is_finite() {
            let c = self.bucket(x);
            if c != self.column {
                self.flush();
                self.column = c;
            }
        }
        self.add(x, y);
    }

    /// The next points, `false` (and some of them pushed) as soon as one
    /// is before the one it follows, or not a number. Each column's points
    /// are found by galloping over x, so a column's position is computed a
    /// few times, not once per point.
    pub fn push_sorted(&mut self, xs: &[f64], ys: &[f64]) -> bool {
        let n = xs.len().min(ys.len());
        let mut start = 0;
        while start < n {
            let c = self.column_at(xs, start);
            let (mut a, mut b, mut step) = (start, start + 1, 1);
            while b < n && self.column_at(xs, b) <= c {
                a = b;
                b = n.min(b + step);
                step *= 2;
            }
            while a + 1 < b {
                let m = a + (b - a) / 2;
                if self.column_at(xs, m) <= c {
                    a = m;
                } else {
                    b = m;
                }
            }
            let (Some(xs), Some(ys)) = (xs.get(start..b), ys.get(start..b)) else {
                return false;
            };
            if c != self.column {
                self.flush();
                self.column = c;
            }
            if !self.part(xs, ys) {
                return false;
            }
            start = b;
        }
        true
    }

    fn column_at(&self, xs: &[f64], i: usize) -> usize {
        xs.get(i).map_or(usize::MAX, |&x| self.bucket(x))
    }

    /// Points of one column, in order. A function of its own: called once
    /// per column, the browser compiles it fully after a few, while a
    /// single call that read every point would run as first compiled.
    #[inline(never)]
    fn part(&mut self, xs: &[f64], ys: &[f64]) -> bool {
        for (&x, &y) in xs.iter().zip(ys) {
            if x < self.previous || x.is_nan() {
                return false;
            }
            self.previous = x;
            self.add(x, y);
        }
        true
    }

    fn add(&mut self, x: f64, y: f64) {
        let i = self.seen;
        self.seen += 1;
        if y.is_finite() {
            self.given += 1;
            self.run.add(i, x, y);
        } else {
            self.flush();
            self.out.gap(x);
        }
    }

    fn flush(&mut self) {
        let Some([first, low, high, last]) = self.run.points.take() else {
            return;
        };
        let (a, b) = if low.0 <= high.0 {
            (low, high)
        } else {
            (high, low)
        };
        // In x order: the first and last bound the others.
        let mut previous = None;
        for (i, x, y) in [first, a, b, last] {
            if previous != Some(i) {
                self.out.push_point(x, y + 0.0);
                previous = Some(i);
            }
        }
    }

    /// Points pushed with a finite y.
    pub fn given(&self) -> usize {
        self.given
    }

    /// The last x [`Keeper::push_sorted`] took.
    pub fn previous(&self) -> f64 {
        self.previous
    }

    /// The kept points: x and y.
    pub fn finish(self) -> (Vec<f64>, Vec<f64>) {
        let out = self.into_polyline();
        (out.xs, out.ys)
    }

    fn into_polyline(mut self) -> Polyline {
        self.flush();
        self.out
    }
}

/// A point of a run: its index, x and y.
type Point = (usize, f64, f64);

/// First, min, max and last of a run of finite points in one bucket.
#[derive(Default)]
struct Run {
    /// (first, min, max, last).
    points: Option<[Point; 4]>,
}

impl Run {
    fn add(&mut self, i: usize, x: f64, y: f64) {
        let point = (i, x, y);
        match &mut self.points {
            None => self.points = Some([point; 4]),
            Some([_, low, high, last]) => {
                if y < low.2 {
                    *low = point;
                }
                if y > high.2 {
                    *high = point;
                }
                *last = point;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The M4 bucket of each point, as the drawing maps x to pixel columns.
    fn columns_of(xs: &[f64], lo: f64, hi: f64, columns: usize) -> Vec<Option<usize>> {
        xs.iter().map(|&x| bucket(x, lo, hi, columns)).collect()
    }

    /// (first, min, max, last) of the finite ys in each column.
    fn per_column(
        xs: &[f64],
        ys: &[f64],
        lo: f64,
        hi: f64,
        columns: usize,
    ) -> Vec<Option<(f64, f64, f64, f64)>> {
        let mut stats: Vec<Option<(f64, f64, f64, f64)>> = vec![None; columns];
        for (c, &y) in columns_of(xs, lo, hi, columns).into_iter().zip(ys) {
            let Some(slot) = c.and_then(|c| stats.get_mut(c)) else {
                continue;
            };
            if !y.is_finite() {
                continue;
            }
            *slot = Some(match *slot {
                None => (y, y, y, y),
                Some((first, min, max, _)) => (first, min.min(y), max.max(y), y),
            });
        }
        stats
    }

    /// Pixels of the polyline through the points, vertices snapped to a columns×rows grid
    /// (Bresenham between consecutive finite points; NaN breaks the line).
    fn raster(
        xs: &[f64],
        ys: &[f64],
        (lo, hi): (f64, f64),
        (ylo, yhi): (f64, f64),
        (columns, rows): (usize, usize),
    ) -> Vec<bool> {
        let mut pixels = vec![false; columns * rows];
        let mut previous: Option<(i64, i64)> = None;
        for (&x, &y) in xs.iter().zip(ys) {
            let (Some(cx), Some(cy)) = (bucket(x, lo, hi, columns), bucket(y, ylo, yhi, rows))
            else {
                previous = None;
                continue;
            };
            let here = (cx as i64, cy as i64);
            let from = previous.unwrap_or(here);
            let (mut x0, mut y0) = from;
            let (x1, y1) = here;
            let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
            let (sx, sy) = ((x1 - x0).signum(), (y1 - y0).signum());
            let mut err = dx + dy;
            loop {
                pixels[y0 as usize * columns + x0 as usize] = true;
                if (x0, y0) == (x1, y1) {
                    break;
                }
                let e2 = 2 * err;
                if e2 >= dy {
                    err += dy;
                    x0 += sx;
                }
                if e2 <= dx {
                    err += dx;
                    y0 += sy;
                }
            }
            previous = Some(here);
        }
        pixels
    }

    /// A deterministic pseudo-random walk in [-1, 1].
    fn walk(n: usize, seed: u64) -> Vec<f64> {
        let mut state = seed;
        let mut y = 0.0f64;
        (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let step = ((state >> 33) as f64 / (1u64 << 31) as f64) - 0.5;
                y = (y + step * 0.05).clamp(-1.0, 1.0);
                y
            })
            .collect()
    }

    #[test]
    fn small_input_is_returned_unchanged() {
        let xs = [0.0, 1.0, 2.0, f64::NAN, 4.0];
        let ys = [1.0, f64::NAN, f64::NAN, 3.0, -1.0];
        let (rx, ry) = min_max_columns(&xs, &ys, 0.0, 4.0, 2);
        assert_eq!(rx.len(), 5);
        for (a, b) in rx.iter().zip(xs).chain(ry.iter().zip(ys)) {
            assert!(a.to_bits() == b.to_bits());
        }
        // Exactly 4 points per column is still the identity; lengths are cut to the shorter.
        let (rx, ry) = min_max_columns(
            &[1.0, 2.0, 3.0, 4.0, 5.0],
            &[5.0, 6.0, 7.0, 8.0],
            0.0,
            1.0,
            1,
        );
        assert_eq!(
            (rx, ry),
            (vec![1.0, 2.0, 3.0, 4.0], vec![5.0, 6.0, 7.0, 8.0])
        );
    }

    #[test]
    fn a_million_point_sine_keeps_every_column_extreme() {
        let n = 1_000_000;
        let xs: Vec<f64> = (0..n).map(|i| i as f64 / n as f64).collect();
        let ys: Vec<f64> = xs
            .iter()
            .map(|x| (x * 2.0 * std::f64::consts::PI * 37.0).sin() + 0.3 * (x * 5003.0).sin())
            .collect();
        let (lo, hi, columns) = (0.0, 1.0, 800);
        let started = std::time::Instant::now();
        let (rx, ry) = min_max_columns(&xs, &ys, lo, hi, columns);
        let took = started.elapsed();
        assert!(rx.len() <= 4 * columns, "{} points", rx.len());
        assert!(rx.len() >= 2 * columns, "{} points", rx.len());
        assert!(rx.windows(2).all(|w| w[0] <= w[1]), "x order");
        assert_eq!(
            per_column(&rx, &ry, lo, hi, columns),
            per_column(&xs, &ys, lo, hi, columns),
            "first, min, max and last of every column"
        );
        eprintln!("min_max_columns: 1,000,000 points in {took:?} (this build)");
    }

    #[test]
    fn the_reduced_line_covers_the_same_pixels() {
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
        let mut ys = walk(n, 7);
        // Gaps: a long one, a short one inside a column, a single NaN and a leading one.
        for i in (50_000..60_000)
            .chain(120_001..120_003)
            .chain([150_000, 0, 1])
        {
            ys[i] = f64::NAN;
        }
        let span = (0.0, xs[n - 1]);
        for (columns, rows) in [(640, 240), (97, 31), (1000, 400)] {
            let (rx, ry) = min_max_columns(&xs, &ys, span.0, span.1, columns);
            assert!(rx.len() < n / 10);
            assert_eq!(
                raster(&rx, &ry, span, (-1.0, 1.0), (columns, rows)),
                raster(&xs, &ys, span, (-1.0, 1.0), (columns, rows)),
                "{columns}x{rows}"
            );
        }
    }

    #[test]
    fn gaps_stay_gaps() {
        let n: u32 = 10_000;
        let xs: Vec<f64> = (0..n).map(f64::from).collect();
        let mut ys: Vec<f64> = xs.iter().map(|x| (x / 100.0).sin()).collect();
        for y in &mut ys[3000..3500] {
            *y = f64::NAN;
        }
        ys[7000] = f64::INFINITY;
        ys[n as usize - 1] = f64::NAN;
        let (rx, ry) = min_max_columns(&xs, &ys, 0.0, f64::from(n - 1), 100);
        let gaps: Vec<f64> = rx
            .iter()
            .zip(&ry)
            .filter(|(_, y)| y.is_nan())
            .map(|(x, _)| *x)
            .collect();
        assert_eq!(
            gaps,
            [3000.0, 7000.0, 9999.0],
            "one NaN per run, at its first x"
        );
        assert!(ry.windows(2).all(|w| !(w[0].is_nan() && w[1].is_nan())));
        // Around each gap, the points either side are kept.
        let at = |x: f64| rx.iter().position(|&v| v == x);
        assert!(at(2999.0).is_some() && at(3500.0).is_some());
        assert!(at(6999.0).is_some() && at(7001.0).is_some());
    }

    #[test]
    fn the_nearest_points_outside_are_kept() {
        let xs: Vec<f64> = (0..1000).map(f64::from).collect();
        let ys: Vec<f64> = xs.iter().map(|x| x * 2.0).collect();
        let (rx, ry) = min_max_columns(&xs, &ys, 100.0, 899.5, 10);
        assert_eq!((rx[0], ry[0]), (99.0, 198.0));
        assert_eq!(rx[1], 100.0);
        assert_eq!(rx.last(), Some(&900.0));
        assert!(rx.iter().all(|x| (99.0..=900.0).contains(x)));
        assert!(rx.len() <= 42);
    }

    #[test]
    fn hostile_input_never_panics() {
        let nasty = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            -0.0,
            0.0,
            1e308,
            -1e308,
        ];
        let long: Vec<f64> = (0..500).map(|i| nasty[i % nasty.len()]).collect();
        let unsorted: Vec<f64> = (0..500).map(|i| ((i * 7919) % 503) as f64).collect();
        let inputs: [&[f64]; 4] = [&[], &nasty, &long, &unsorted];
        for xs in inputs {
            for ys in inputs {
                for (lo, hi) in [
                    (0.0, 0.0),
                    (10.0, -10.0),
                    (f64::NAN, 1.0),
                    (f64::NEG_INFINITY, f64::INFINITY),
                    (-1e308, 1e308),
                    (f64::MIN, f64::MAX),
                    (0.0, 500.0),
                ] {
                    for columns in [0, 1, 3, 800, usize::MAX] {
                        let (rx, ry) = min_max_columns(xs, ys, lo, hi, columns);
                        assert_eq!(rx.len(), ry.len());
                        assert!(rx.len() <= xs.len().min(ys.len()));
                    }
                    for (w, h, cell) in [(0, 10, 1.0), (800, 600, 0.0), (u32::MAX, 3, f64::NAN)] {
                        let kept = thin_points(xs, ys, (lo, hi), (hi, lo), w, h, cell);
                        assert!(kept.windows(2).all(|k| k[0] < k[1]));
                        assert!(kept.iter().all(|&i| i < xs.len().min(ys.len())));
                    }
                }
            }
        }
    }

    #[test]
    fn unsorted_input_keeps_every_column_extreme() {
        let xs: Vec<f64> = (0..5000).map(|i| ((i * 7919) % 5003) as f64).collect();
        let ys = walk(5000, 3);
        let (rx, ry) = min_max_columns(&xs, &ys, 0.0, 5003.0, 50);
        assert_eq!(rx.len(), ry.len());
        let full = per_column(&xs, &ys, 0.0, 5003.0, 50);
        let reduced = per_column(&rx, &ry, 0.0, 5003.0, 50);
        for (a, b) in full.iter().zip(&reduced) {
            assert_eq!(a.map(|s| (s.1, s.2)), b.map(|s| (s.1, s.2)));
        }
    }

    #[test]
    fn thinning_keeps_the_first_point_of_each_cell() {
        // A 10x10 plot with 5-pixel cells: 4 cells.
        let xs = [0.0, 1.0, 6.0, 9.9, 0.5, 10.0, f64::NAN, 3.0, 20.0];
        let ys = [0.0, 1.0, 1.0, 9.0, 9.0, 10.0, 1.0, f64::INFINITY, 1.0];
        let kept = thin_points(&xs, &ys, (0.0, 10.0), (0.0, 10.0), 10, 10, 5.0);
        assert_eq!(kept, [0, 2, 3, 4]);
        // Reversed ranges are the same plot; a 1-pixel cell grid keeps distinct pixels.
        assert_eq!(
            thin_points(&xs, &ys, (10.0, 0.0), (10.0, 0.0), 10, 10, 5.0),
            kept
        );
        assert_eq!(
            thin_points(&xs, &ys, (0.0, 10.0), (0.0, 10.0), 10, 10, 1.0),
            [0, 1, 2, 3, 4]
        );
    }

    #[test]
    fn thinning_a_million_points_is_bounded_by_the_cells() {
        let n = 1_000_000;
        let xs = walk(n, 11);
        let ys = walk(n, 13);
        let kept = thin_points(&xs, &ys, (-1.0, 1.0), (-1.0, 1.0), 800, 600, 2.0);
        assert!(!kept.is_empty());
        assert!(kept.len() <= 400 * 300);
        // Every dropped point shares a cell with a kept one.
        let cell = |i: usize| (bucket(xs[i], -1.0, 1.0, 400), bucket(ys[i], -1.0, 1.0, 300));
        let cells: std::collections::HashSet<_> = kept.iter().map(|&i| cell(i)).collect();
        assert_eq!(cells.len(), kept.len(), "one point per cell");
        assert!((0..n).step_by(997).all(|i| cells.contains(&cell(i))));
        // A plot wider than MAX_SIDE is capped, not allocated in full.
        let kept = thin_points(&xs, &ys, (-1.0, 1.0), (-1.0, 1.0), u32::MAX, u32::MAX, 1.0);
        assert!(kept.len() <= n);
    }

    #[test]
    fn long_lines_are_kept_for_pixels() {
        // At the threshold nothing changes.
        let xs: Vec<f64> = (0..KEPT_POINTS).map(|i| i as f64).collect();
        let ys = walk(KEPT_POINTS, 3);
        assert_eq!(kept_for_pixels(xs.clone(), ys.clone()), (xs, ys));

        let n = 1_000_000;
        let xs: Vec<f64> = (0..n).map(|i| 1.7e9 + 60.0 * i as f64).collect();
        let mut ys = walk(n, 5);
        // A gap of a thousand points in the middle.
        ys[500_000..501_000].fill(f64::NAN);
        let (kx, ky) = kept_for_pixels(xs.clone(), ys.clone());
        assert!(kx.len() <= KEPT_POINTS + 8, "{}", kx.len());
        // The ends, the extremes and the gap are kept; every point is one of
        // the line's, in order.
        assert_eq!((kx[0], ky[0]), (xs[0], ys[0]));
        assert_eq!((kx[kx.len() - 1], ky[ky.len() - 1]), (xs[n - 1], ys[n - 1]));
        let finite = |v: &[f64]| {
            v.iter()
                .copied()
                .filter(|y| y.is_finite())
                .collect::<Vec<_>>()
        };
        let extremes = |v: &[f64]| {
            let v = finite(v);
            (
                v.iter().copied().fold(f64::INFINITY, f64::min),
                v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            )
        };
        assert_eq!(extremes(&ky), extremes(&ys));
        assert!(kx.windows(2).all(|w| w[0] <= w[1]));
        let at = |x: f64| ((x - 1.7e9) / 60.0) as usize;
        assert!(kx
            .iter()
            .zip(&ky)
            .all(|(&x, &y)| y.is_nan() || ys[at(x)] == y));
        let gaps: Vec<f64> = kx
            .iter()
            .zip(&ky)
            .filter(|(_, y)| y.is_nan())
            .map(|(&x, _)| x)
            .collect();
        assert_eq!(gaps, [xs[500_000]]);
        // 2,048 columns of four parts each (t * 8192 is 4 * (t * 2048) exactly):
        // each shows the line's own first, lowest, highest and last value there.
        let full = per_column(&xs, &ys, xs[0], xs[n - 1], 2048);
        assert_eq!(per_column(&kx, &ky, xs[0], xs[n - 1], 2048), full);
    }
}
