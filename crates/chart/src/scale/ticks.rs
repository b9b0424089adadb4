//! "Nice" ticks for a linear value axis: steps of 1, 2 or 5 × 10^k (2.5 × 10^k
//! when 1-2-5 would leave half the budget unused), the densest such step that
//! fits the tick budget, the domain extended outward so the axis starts and
//! ends on a tick.
//!
//! Tick values are computed from integers (`i × m × 10^e`), each rounded once
//! within 10^±22 (the closest doubles to clean decimals: 0.3, never
//! 0.30000000000000004), and at most one unit in the last place from it
//! beyond, where the labels are scientific with at most three decimals.

use super::MAX_TICKS;

/// Ticks for a value axis; `values` run from `min` to `max` in steps of `step`.
#[derive(Debug, Clone, PartialEq)]
pub struct LinearTicks {
    /// The domain extended outward to the first tick (`values[0]`).
    pub min: f64,
    /// The domain extended outward to the last tick.
    pub max: f64,
    /// The distance between ticks (positive and finite).
    pub step: f64,
    /// Strictly ascending, finite, `min` first and `max` last; at least 2.
    pub values: Vec<f64>,
}

/// Magnitudes below this are treated as zero.
const TINY: f64 = 1e-200;
/// A domain narrower than this fraction of its magnitude is a single value.
const RESOLUTION: f64 = 1e-10;
/// Tick indices beyond this are refused (the step is too fine to enumerate).
const MAX_INDEX: f64 = 1e14;

/// Ticks covering `[lo, hi]`, at most `max_ticks` of them (0 and 1 count as
/// 2, more than [`MAX_TICKS`] as [`MAX_TICKS`]).
///
/// - The step is the smallest of 1, 2, 5 × 10^k giving no more than
///   `max_ticks` ticks, or 2.5 × 10^k when 1-2-5 would give at most about half
///   of them (0..100 in 5 ticks: 0, 25, 50, 75, 100); `min` and `max` are the
///   domain extended outward to a tick, so `min <= lo` and `max >= hi`.
/// - `lo > hi` is swapped.
/// - A single value (`lo == hi`, or a domain narrower than 1e-10 of its
///   magnitude) gets `0..2v` (or `2v..0` when negative), so it sits mid-axis.
/// - Zero, or only magnitudes below 1e-200, gets `0..1` (`-1..0`, `-1..1` when
///   negative values are involved).
/// - One non-finite bound is ignored (the other is a single value); both
///   non-finite give `0..1` with ticks 0, 0.2, …, 1 for the default budget.
/// - When no nice step fits (`max_ticks == 2` with a domain straddling a tick,
///   or a domain near ±f64::MAX), the ends of the next denser nice tick set are
///   used, and failing that `[lo, hi]` itself.
pub fn nice_ticks(lo: f64, hi: f64, max_ticks: usize) -> LinearTicks {
    let count = max_ticks.clamp(2, MAX_TICKS);
    let (lo, hi) = domain(lo, hi);
    fit(lo, hi, count)
}

/// Exactly `count` nice ticks covering `[lo, hi]` (as [`nice_ticks`] reads
/// it): the smallest nice step whose ticks cover it in at most `count`, then
/// ticks added above up to `count`. A second value axis gets its ticks so,
/// on the first axis's grid lines. `None` when no nice step fits.
pub fn nice_ticks_exactly(lo: f64, hi: f64, count: usize) -> Option<LinearTicks> {
    let (lo, hi) = domain(lo, hi);
    smallest_step(lo, hi, count.clamp(2, MAX_TICKS), Steps::Exactly)
}

/// The domain `nice_ticks` gives ticks to: ordered, finite, not a single value.
fn domain(lo: f64, hi: f64) -> (f64, f64) {
    let (lo, hi) = match (lo.is_finite(), hi.is_finite()) {
        (true, true) if lo <= hi => (lo, hi),
        (true, true) => (hi, lo),
        (true, false) => (lo, lo),
        (false, true) => (hi, hi),
        (false, false) => (0.0, 1.0),
    };
    let magnitude = lo.abs().max(hi.abs());
    if magnitude < TINY {
        let a = if lo < 0.0 { -1.0 } else { 0.0 };
        let b = if hi > 0.0 || lo >= 0.0 { 1.0 } else { 0.0 };
        return (a, b);
    }
    let half_span = hi / 2.0 - lo / 2.0;
    if half_span <= magnitude * (RESOLUTION / 2.0) {
        // lo and hi share a sign here; doubling the one nearer zero covers both.
        return if lo > 0.0 {
            let double = lo * 2.0;
            (0.0, if double.is_finite() { double } else { hi })
        } else {
            let double = hi * 2.0;
            (if double.is_finite() { double } else { lo }, 0.0)
        };
    }
    (lo, hi)
}

/// Which steps [`smallest_step`] tries, and how many ticks it gives.
#[derive(Clone, Copy, PartialEq)]
enum Steps {
    /// 1, 2, 5 × 10^k; at most the count.
    Plain,
    /// 1, 2, 2.5, 5 × 10^k; at most the count.
    Quarters,
    /// 1, 2, 2.5, 5 × 10^k; exactly the count.
    Exactly,
}

/// Nice ticks for a non-empty finite domain `lo < hi`.
fn fit(lo: f64, hi: f64, count: usize) -> LinearTicks {
    if let Some(ticks) = densest(lo, hi, count) {
        return ticks;
    }
    // Only the ends of a denser set: still nice numbers, and within budget.
    if let Some(mut ticks) = densest(lo, hi, count + 1) {
        if let (Some(&first), Some(&last)) = (ticks.values.first(), ticks.values.last()) {
            ticks.values = vec![first, last];
            let step = last - first;
            ticks.step = if step.is_finite() { step } else { f64::MAX };
            return ticks;
        }
    }
    let step = hi - lo;
    LinearTicks {
        min: lo,
        max: hi,
        step: if step.is_finite() && step > 0.0 {
            step
        } else {
            f64::MAX
        },
        values: vec![lo, hi],
    }
}

/// The nice ticks for `lo < hi` within `count`: the smallest step of 1, 2, 5 ×
/// 10^k that fits, or of 2.5 × 10^k when that fits and 1, 2, 5 would use no
/// more than about half the budget (0, 25, 50, 75, 100 rather than 0, 50, 100
/// for 5 ticks; but -5, 0, 5, 10, 15 rather than -5, -2.5, …, 12.5 for 8).
fn densest(lo: f64, hi: f64, count: usize) -> Option<LinearTicks> {
    let plain = smallest_step(lo, hi, count, Steps::Plain);
    match (plain, smallest_step(lo, hi, count, Steps::Quarters)) {
        (Some(plain), Some(quarter))
            if quarter.step < plain.step && 2 * plain.values.len() < count + 2 =>
        {
            Some(quarter)
        }
        (None, quarter) => quarter,
        (plain, _) => plain,
    }
}

/// The smallest nice step giving at most `count` ticks over `lo < hi`.
fn smallest_step(lo: f64, hi: f64, count: usize, steps: Steps) -> Option<LinearTicks> {
    let half_span = hi / 2.0 - lo / 2.0;
    if !(half_span > 0.0 && half_span.is_finite()) {
        return None;
    }
    // A decade below span / count: no smaller step can fit.
    let rough = crate::math::log10(half_span) + std::f64::consts::LOG10_2
        - crate::math::log10(count as f64);
    let start = (rough.floor() as i32).saturating_sub(1);
    for decade in start..start.saturating_add(8) {
        for mantissa in [1i64, 2, 25, 5] {
            let (mantissa, exponent) = match mantissa {
                25 if steps == Steps::Plain => continue,
                25 => (25, decade.saturating_sub(1)),
                _ => (mantissa, decade),
            };
            if let Some(ticks) = try_step(lo, hi, (mantissa, exponent), count, steps) {
                return Some(ticks);
            }
        }
    }
    None
}

/// The ticks for the step `mantissa × 10^exponent`, if they fit in `count`.
fn try_step(
    lo: f64,
    hi: f64,
    (mantissa, exponent): (i64, i32),
    count: usize,
    steps: Steps,
) -> Option<LinearTicks> {
    let step = decimal(mantissa, exponent);
    if !(step.is_finite() && step > 0.0) {
        return None;
    }
    let (q_lo, q_hi) = (lo / step, hi / step);
    if !(q_lo.abs() < MAX_INDEX && q_hi.abs() < MAX_INDEX) {
        return None;
    }
    let tick = |index: i64| decimal(index * mantissa, exponent);
    // The largest tick <= lo and the smallest tick >= hi, checked on the
    // actual doubles rather than trusting the rounded quotients.
    let mut first = q_lo.floor() as i64;
    if tick(first) > lo {
        first -= 1;
    } else if tick(first + 1) <= lo {
        first += 1;
    }
    let mut last = q_hi.ceil() as i64;
    if tick(last) < hi {
        last += 1;
    } else if tick(last - 1) >= hi {
        last -= 1;
    }
    let n = last - first + 1;
    if n < 2 || n > count as i64 {
        return None;
    }
    if steps == Steps::Exactly {
        last = first + count as i64 - 1;
    }
    let values: Vec<f64> = (first..=last).map(tick).collect();
    let clean = values.iter().all(|v| v.is_finite()) && values.windows(2).all(|w| w[0] < w[1]);
    let (&min, &max) = (values.first()?, values.last()?);
    if !clean || min > lo || max < hi {
        return None;
    }
    Some(LinearTicks {
        min,
        max,
        step,
        values,
    })
}

/// The double closest to `n × 10^exponent` (one rounding) when n < 2^53 and
/// |exponent| <= 22; beyond that the JSON reader's reading of the decimal,
/// also correctly rounded (see `number_text`).
pub(crate) fn decimal(n: i64, exponent: i32) -> f64 {
    if n == 0 {
        return 0.0;
    }
    match crate::json::number::exact(n.unsigned_abs(), exponent) {
        Some(f) if n < 0 => -f,
        Some(f) => f,
        None => crate::number_text::parse_f64(&format!("{n}e{exponent}")).unwrap_or(f64::NAN),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ticks(lo: f64, hi: f64, max: usize) -> (f64, f64, f64, Vec<f64>) {
        let t = nice_ticks(lo, hi, max);
        (t.min, t.max, t.step, t.values)
    }

    /// `nice_ticks(lo, hi, max)` gives exactly `values` (min, max and step follow).
    fn expect(lo: f64, hi: f64, max: usize, values: &[f64]) {
        let t = nice_ticks(lo, hi, max);
        let step = values.get(1).zip(values.first()).map(|(b, a)| b - a);
        let ends = (values.first().copied(), values.last().copied());
        assert_eq!(t.values, values, "{lo}..{hi} / {max}");
        assert_eq!((Some(t.min), Some(t.max)), ends, "{lo}..{hi} / {max}");
        let step = step.unwrap_or(f64::NAN);
        assert!(
            (t.step - step).abs() <= step * 1e-9,
            "{lo}..{hi} / {max}: {}",
            t.step
        );
    }

    #[test]
    #[rustfmt::skip]
    fn table_of_typical_domains() {
        expect(0.0, 97.0, 6, &[0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        expect(0.0, 97.0, 5, &[0.0, 25.0, 50.0, 75.0, 100.0]);
        expect(0.0, 97.0, 2, &[0.0, 100.0]);
        expect(0.0, 100.0, 5, &[0.0, 25.0, 50.0, 75.0, 100.0]);
        expect(0.0, 100.0, 11, &[0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0]);
        expect(-3.7, 12.1, 8, &[-5.0, 0.0, 5.0, 10.0, 15.0]);
        expect(-3.7, 12.1, 10, &[-4.0, -2.0, 0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0]);
        expect(0.1, 0.3, 5, &[0.1, 0.15, 0.2, 0.25, 0.3]);
        expect(0.1, 0.3, 3, &[0.1, 0.2, 0.3]);
        expect(0.0, 1.0, 6, &[0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        expect(0.0, 0.87, 5, &[0.0, 0.25, 0.5, 0.75, 1.0]);
        expect(0.0, 8.7, 5, &[0.0, 2.5, 5.0, 7.5, 10.0]);
        expect(0.0, 45.0, 4, &[0.0, 20.0, 40.0, 60.0]);
        expect(0.0, 2_400_000.0, 6, &[0.0, 500_000.0, 1e6, 1.5e6, 2e6, 2.5e6]);
        expect(-37.0, 121.0, 8, &[-50.0, 0.0, 50.0, 100.0, 150.0]);
        expect(-37.0, 121.0, 12, &[-40.0, -20.0, 0.0, 20.0, 40.0, 60.0, 80.0, 100.0, 120.0, 140.0]);
        expect(-120.0, -3.0, 5, &[-150.0, -100.0, -50.0, 0.0]);
        expect(1013.2, 1017.9, 6, &[1013.0, 1014.0, 1015.0, 1016.0, 1017.0, 1018.0]);
        expect(0.0012, 0.0047, 5, &[0.001, 0.002, 0.003, 0.004, 0.005]);
        expect(12_000.0, 87_000.0, 6, &[0.0, 20_000.0, 40_000.0, 60_000.0, 80_000.0, 100_000.0]);
        expect(1990.0, 2024.0, 8, &[1990.0, 1995.0, 2000.0, 2005.0, 2010.0, 2015.0, 2020.0, 2025.0]);
        expect(1990.0, 2024.0, 6, &[1990.0, 2000.0, 2010.0, 2020.0, 2030.0]);
    }

    #[test]
    fn reversed_domain_is_swapped() {
        assert_eq!(nice_ticks(97.0, 0.0, 6), nice_ticks(0.0, 97.0, 6));
    }

    #[test]
    fn values_are_clean_decimals() {
        let t = nice_ticks(0.1 + 0.2, 0.9, 7);
        assert_eq!(t.values, vec![0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
        let t = nice_ticks(0.0, 0.7, 8);
        assert_eq!(t.values, vec![0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
        for v in nice_ticks(-0.03, 0.07, 11).values {
            let shortest = format!("{v}");
            assert!(shortest.len() <= 5, "{shortest}");
        }
        // Every value survives a round trip through the step's decimals.
        for (lo, hi, max) in [
            (0.0, 1.3, 14),
            (-2.2, 7.9, 40),
            (1e-7, 9e-7, 9),
            (3.3, 3.9, 64),
        ] {
            let t = nice_ticks(lo, hi, max);
            let decimals = (-t.step.log10().floor()).max(0.0) as usize + 1;
            for v in t.values {
                let text = format!("{v:.decimals$}");
                assert_eq!(text.parse::<f64>().ok(), Some(v), "{v} in {lo}..{hi}");
            }
        }
    }

    #[test]
    fn a_single_value_sits_mid_axis() {
        assert_eq!(
            ticks(5.0, 5.0, 5),
            (0.0, 10.0, 2.5, vec![0.0, 2.5, 5.0, 7.5, 10.0])
        );
        let t = nice_ticks(5.0, 5.0, 6);
        assert_eq!(t.values, vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        let t = nice_ticks(-5.0, -5.0, 6);
        assert_eq!(t.values, vec![-10.0, -8.0, -6.0, -4.0, -2.0, 0.0]);
        let t = nice_ticks(1000.0, 1000.0 + 1e-9, 6);
        assert_eq!((t.min, t.max), (0.0, 2000.0));
        let t = nice_ticks(0.0, 0.0, 6);
        assert_eq!(t.values, vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        let t = nice_ticks(-0.0, 0.0, 6);
        assert_eq!(t.values, vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert!(t.values.iter().all(|v| v.is_sign_positive()));
    }

    #[test]
    fn non_finite_input() {
        let unit = vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0];
        for (lo, hi) in [
            (f64::NAN, f64::NAN),
            (f64::NEG_INFINITY, f64::INFINITY),
            (f64::INFINITY, f64::NAN),
        ] {
            assert_eq!(nice_ticks(lo, hi, 6).values, unit, "{lo}..{hi}");
        }
        // One finite bound is a single value.
        assert_eq!(
            nice_ticks(f64::NAN, 5.0, 6).values,
            nice_ticks(5.0, 5.0, 6).values
        );
        assert_eq!(nice_ticks(3.0, f64::INFINITY, 6).max, 6.0);
    }

    #[test]
    fn tiny_magnitudes_are_zero() {
        assert_eq!(nice_ticks(1e-300, 2e-300, 3).values, vec![0.0, 0.5, 1.0]);
        assert_eq!(nice_ticks(-1e-300, 0.0, 3).values, vec![-1.0, -0.5, 0.0]);
        assert_eq!(nice_ticks(-1e-300, 1e-300, 3).values, vec![-1.0, 0.0, 1.0]);
    }

    #[test]
    fn tiny_but_meaningful_ranges() {
        let t = nice_ticks(1e-150, 5e-150, 5);
        assert_eq!(t.values.len(), 5);
        assert_eq!(t.values.first(), Some(&1e-150));
        assert_eq!(t.values.last(), Some(&5e-150));
    }

    #[test]
    fn huge_ranges() {
        let t = nice_ticks(-1e308, 1e308, 64);
        assert_eq!((t.min, t.max), (-1e308, 1e308));
        assert_eq!(t.step, 5e306);
        let t = nice_ticks(0.0, f64::MAX, 2);
        assert_eq!(t.values, vec![0.0, f64::MAX]);
        let t = nice_ticks(f64::MIN, f64::MAX, 6);
        assert_eq!(t.values.len(), 2);
        assert!(t.step.is_finite());
        let t = nice_ticks(0.0, 3e21, 4);
        assert_eq!(t.values, vec![0.0, 1e21, 2e21, 3e21]);
        let t = nice_ticks(1e300, 1e300, 6);
        assert_eq!(t.values.last(), Some(&2e300));
        let t = nice_ticks(1e9, 1e9 + 4.0, 5);
        assert_eq!(
            t.values,
            vec![1e9, 1e9 + 1.0, 1e9 + 2.0, 1e9 + 3.0, 1e9 + 4.0]
        );
        // Narrower than 1e-10 of the magnitude: a single value.
        let t = nice_ticks(1e16, 1e16 + 4.0, 5);
        assert_eq!((t.min, t.max), (0.0, 2e16));
    }

    #[test]
    fn two_ticks_straddling_zero_use_the_ends() {
        let t = nice_ticks(-1.0, 1.0, 2);
        assert_eq!((t.values, t.step), (vec![-1.0, 1.0], 2.0));
        let t = nice_ticks(-3.7, 12.1, 1);
        assert_eq!(t.values, vec![-20.0, 20.0]);
    }

    #[test]
    fn budget_is_capped() {
        let t = nice_ticks(0.0, 1000.0, 10_000);
        assert!(t.values.len() <= MAX_TICKS);
        assert_eq!(t.step, 20.0);
        assert_eq!(nice_ticks(0.0, 10.0, 0), nice_ticks(0.0, 10.0, 2));
    }

    #[test]
    fn decimal_is_one_rounding() {
        assert_eq!(decimal(3, -1), 0.3);
        assert_eq!(decimal(15, -2), 0.15);
        assert_eq!(decimal(-7, 0), -7.0);
        assert_eq!(decimal(12, 22), 1.2e23);
        assert_eq!(decimal(-7, -22), -7e-22);
        let ulps = |a: f64, b: f64| (a.to_bits() as i64 - b.to_bits() as i64).abs();
        assert!(ulps(decimal(12, 30), 1.2e31) <= 1);
        assert!(ulps(decimal(3, -40), 3e-40) <= 1);
        assert!(ulps(decimal(1 << 60, -3), 1_152_921_504_606_846.976) <= 1);
        assert_eq!(decimal(5, 400), f64::INFINITY);
        assert_eq!(decimal(0, -5), 0.0);
    }

    #[test]
    fn brute_force_never_misbehaves() {
        let hostile = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN,
            -1e308,
            1e308,
            1.7e308,
            1e300,
            1e-300,
            -1e-300,
            f64::MIN_POSITIVE,
            5e-324,
            0.0,
            -0.0,
            1e-200,
            1e-190,
            1e-15,
            0.1,
            0.30000000000000004,
            1.0,
            -1.0,
            std::f64::consts::PI,
            -3.7,
            12.1,
            97.0,
            100.0,
            999.999,
            1e4,
            -2.5e6,
            123_456_789.0,
            1e15,
            1e15 + 1.0,
            9_007_199_254_740_993.0,
            1e21,
            -1e22,
        ];
        let budgets = [
            0,
            1,
            2,
            3,
            4,
            5,
            6,
            7,
            8,
            10,
            12,
            17,
            32,
            63,
            64,
            65,
            1000,
            usize::MAX,
        ];
        for &lo in &hostile {
            for &hi in &hostile {
                for &max in &budgets {
                    check(lo, hi, max);
                    check(lo, lo + hi.abs() * 1e-3, max);
                }
            }
        }
        // A sweep of ordinary domains.
        let mut x = 0.37_f64;
        for i in 0..4000 {
            x = (x * 7919.0 + 0.123).fract();
            let lo = (x - 0.5) * 10f64.powi(i % 13 - 4);
            let hi = lo + x * 10f64.powi(i % 9 - 3);
            check(lo, hi, i as usize % 20);
        }
    }

    fn check(lo: f64, hi: f64, max: usize) {
        let t = nice_ticks(lo, hi, max);
        let bound = max.clamp(2, MAX_TICKS);
        let what = format!("{lo:e}..{hi:e} / {max}: {t:?}");
        assert!(t.values.len() >= 2 && t.values.len() <= bound, "{what}");
        assert!(t.values.windows(2).all(|w| w[0] < w[1]), "{what}");
        assert!(t.values.iter().all(|v| v.is_finite()), "{what}");
        assert_eq!(t.values.first(), Some(&t.min), "{what}");
        assert_eq!(t.values.last(), Some(&t.max), "{what}");
        assert!(t.step.is_finite() && t.step > 0.0, "{what}");
        if lo.is_finite() && hi.is_finite() {
            assert!(t.min <= lo.min(hi) && t.max >= lo.max(hi), "{what}");
        }
    }
}
